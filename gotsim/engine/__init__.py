"""The game engine: one numpy record per game (``state``), the rules table (``tables``), the
compiled state machine (``machine``: ``advance``, ``legal``, ``apply``), combat, positions and
the Python ``Game`` driver. The names below are the engine's public ones; they load on first use,
so that importing one engine module does not import them all."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gotsim.lazy import lazy_names

_PUBLIC = {
    "Game": "gotsim.engine.game",
    "IllegalActionError": "gotsim.engine.game",
    "RandomPolicy": "gotsim.engine.game",
    "replay": "gotsim.engine.game",
    "Position": "gotsim.engine.position",
    "RoundPhase": "gotsim.engine.position",
    "PositionError": "gotsim.engine.position",
    "dump_position": "gotsim.engine.position",
    "load_position": "gotsim.engine.position",
    "starting_position": "gotsim.engine.position",
    "position_from_record": "gotsim.engine.convert",
    "record_from_position": "gotsim.engine.convert",
    "new_games": "gotsim.engine.init",
    "advance": "gotsim.engine.machine",
    "apply": "gotsim.engine.machine",
    "legal": "gotsim.engine.machine",
    "STATE_DTYPE": "gotsim.engine.state",
    "Decision": "gotsim.engine.state",
    "Phase": "gotsim.engine.state",
    "rules_table": "gotsim.engine.tables",
}

if TYPE_CHECKING:
    from gotsim.engine.convert import position_from_record, record_from_position
    from gotsim.engine.game import Game, IllegalActionError, RandomPolicy, replay
    from gotsim.engine.init import new_games
    from gotsim.engine.machine import advance, apply, legal
    from gotsim.engine.position import (
        Position,
        PositionError,
        RoundPhase,
        dump_position,
        load_position,
        starting_position,
    )
    from gotsim.engine.state import STATE_DTYPE, Decision, Phase
    from gotsim.engine.tables import rules_table


__getattr__, __dir__ = lazy_names(__name__, globals(), _PUBLIC)


__all__ = [
    "STATE_DTYPE",
    "Decision",
    "Game",
    "IllegalActionError",
    "Phase",
    "Position",
    "PositionError",
    "RandomPolicy",
    "RoundPhase",
    "advance",
    "apply",
    "dump_position",
    "legal",
    "load_position",
    "new_games",
    "position_from_record",
    "record_from_position",
    "replay",
    "rules_table",
    "starting_position",
]
