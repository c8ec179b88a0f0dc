"""gotsim: a Monte-Carlo simulator, combat odds calculator and analysis suite for
*A Game of Thrones: The Board Game* (2nd edition; 1st edition as a candidate data set).

The public names are loaded on first use, so that ``gotsim`` (the command) starts at once and
can say what it is about to do before numba and the engine are imported.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gotsim.lazy import lazy_names

__version__ = "0.1.0"

_PUBLIC = {
    "Board": "gotsim.rules.board",
    "Game": "gotsim.engine.game",
    "HeuristicPolicy": "gotsim.players.policy",
    "IllegalActionError": "gotsim.engine.game",
    "OddsResult": "gotsim.odds.calculator",
    "Position": "gotsim.engine.position",
    "PositionError": "gotsim.engine.position",
    "RandomPolicy": "gotsim.engine.game",
    "combat_odds": "gotsim.api",
    "compare": "gotsim.analysis.stats",
    "load_board": "gotsim.rules.board",
    "load_position": "gotsim.engine.position",
    "run_study": "gotsim.study",
    "simulate": "gotsim.api",
}

if TYPE_CHECKING:
    from gotsim.analysis.stats import compare
    from gotsim.api import combat_odds, simulate
    from gotsim.engine.game import Game, IllegalActionError, RandomPolicy
    from gotsim.engine.position import Position, PositionError, load_position
    from gotsim.odds.calculator import OddsResult
    from gotsim.players.policy import HeuristicPolicy
    from gotsim.rules.board import Board, load_board
    from gotsim.study import run_study


__getattr__, __dir__ = lazy_names(__name__, globals(), _PUBLIC)


__all__ = [
    "Board",
    "Game",
    "HeuristicPolicy",
    "IllegalActionError",
    "OddsResult",
    "Position",
    "PositionError",
    "RandomPolicy",
    "__version__",
    "combat_odds",
    "compare",
    "load_board",
    "load_position",
    "run_study",
    "simulate",
]
