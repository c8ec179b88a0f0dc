"""Analysis helpers: pictures of the board and its starting positions."""

from gotsim.analysis.board_plot import HOUSE_COLOURS, draw_board, draw_setup, save_board_picture

__all__ = ["HOUSE_COLOURS", "draw_board", "draw_setup", "save_board_picture"]
