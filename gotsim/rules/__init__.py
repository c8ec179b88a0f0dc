"""Rules layer: the validated board, card tables and the game's vocabularies."""

from gotsim.rules.board import Board, BoardDataError, build_board, load_board
from gotsim.rules.ids import AreaKind, House, OrderType, Unit

__all__ = [
    "AreaKind",
    "Board",
    "BoardDataError",
    "House",
    "OrderType",
    "Unit",
    "build_board",
    "load_board",
]
