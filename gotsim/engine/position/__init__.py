"""Board positions as readable JSON (``gotsim.position/v1``): load and validate, dump, the starting
position, control and castles, and the battle spec of a march drawn from a position.

The format is documented field by field in ``docs/positions.md``. Every problem found at load
raises ``PositionError`` with one line that names the field, e.g.
``areas.winterfell.units.ship: ships cannot stand on land``.

The package: ``model`` (the ``Position`` value and its JSON form), ``queries`` (control, castles,
the battle spec of a march) and ``reader`` (loading and checking, the starting position).
"""

from __future__ import annotations

from gotsim.engine.position.model import (
    RESTRICTIONS,
    ActionStep,
    Position,
    PositionError,
    RoundPhase,
    deck_iv_cards,
    dump_position,
    order_tokens,
)
from gotsim.engine.position.queries import battle_from_position, castles_held, control
from gotsim.engine.position.reader import load_position, starting_position

# the public classes go by the package's name (``gotsim.engine.position.PositionError``)
for _public in (ActionStep, RoundPhase, Position, PositionError):
    _public.__module__ = __name__

__all__ = [
    "RESTRICTIONS",
    "ActionStep",
    "Position",
    "PositionError",
    "RoundPhase",
    "battle_from_position",
    "castles_held",
    "control",
    "deck_iv_cards",
    "dump_position",
    "load_position",
    "order_tokens",
    "starting_position",
]
