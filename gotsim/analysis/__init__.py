"""Analysis helpers: pictures of the board and its starting positions, win-rate statistics
(Wilson intervals, comparisons of study arms) and the plots every figure shares (``plots``:
house colours and order, percent axes, intervals, card matrices)."""

from gotsim.analysis.board_plot import (
    HOUSE_COLOURS,
    draw_board,
    draw_position,
    draw_record,
    draw_setup,
    save_board_picture,
)
from gotsim.analysis.plots import HOUSE_ORDER
from gotsim.analysis.stats import compare, wilson_interval, win_rates

__all__ = [
    "HOUSE_COLOURS",
    "HOUSE_ORDER",
    "compare",
    "draw_board",
    "draw_position",
    "draw_record",
    "draw_setup",
    "save_board_picture",
    "wilson_interval",
    "win_rates",
]
