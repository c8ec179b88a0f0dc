"""gotsim: a Monte-Carlo simulator, combat odds calculator and analysis suite for
*A Game of Thrones: The Board Game* (2nd edition; 1st edition as a candidate)."""

from gotsim.rules.board import Board, load_board

__version__ = "0.1.0"

__all__ = ["Board", "__version__", "load_board"]
