"""gotsim: a Monte-Carlo simulator, combat odds calculator and analysis suite for
*A Game of Thrones: The Board Game* (2nd edition; 1st edition as a candidate data set)."""

from gotsim.analysis.stats import compare
from gotsim.api import combat_odds, simulate
from gotsim.engine.game import Game, RandomPolicy
from gotsim.rules.board import Board, load_board
from gotsim.study import run_study

__version__ = "0.1.0"

__all__ = [
    "Board",
    "Game",
    "RandomPolicy",
    "__version__",
    "combat_odds",
    "compare",
    "load_board",
    "run_study",
    "simulate",
]
