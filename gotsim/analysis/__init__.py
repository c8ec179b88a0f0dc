"""Analysis helpers: pictures of the board and its starting positions, and win-rate statistics
(Wilson intervals, comparisons of study arms)."""

from gotsim.analysis.board_plot import HOUSE_COLOURS, draw_board, draw_setup, save_board_picture
from gotsim.analysis.stats import compare, wilson_interval, win_rates

__all__ = [
    "HOUSE_COLOURS",
    "compare",
    "draw_board",
    "draw_setup",
    "save_board_picture",
    "wilson_interval",
    "win_rates",
]
