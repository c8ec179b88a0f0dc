"""Shared pieces of the position round-trip tests: random games snapshot at every phase boundary,
what a position does not hold, and a resumed game played out against the original."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np

from gotsim.engine import machine
from gotsim.engine.convert import record_from_position
from gotsim.engine.counters import WESTEROS_WORK
from gotsim.engine.position import Position
from gotsim.engine.rng import pick_from_mask
from gotsim.engine.state import N_ACTIONS, Decision, Phase
from gotsim.play.runner import play_random_one

# Record fields that are work space of a decision or battle long over: they may differ between
# a game and the same game resumed from its position without changing anything to come.
SCRATCH = {
    "ctx",
    "battle",
    "combat_from",
    "combat_step",
    "losses",
    "support_side",
    "moving",
    "bid",
    *WESTEROS_WORK,
    "walk_lands",
    "walk_seas",
}
# What a position does not hold and a resumed game copies from the original to replay it.
NOT_IN_POSITION = (
    "rng",
    "westeros",
    "westeros_next",
    "westeros_drawn",
    "wildlings",
    "deck4",  # (Mother of Dragons: the drawn ones are the position's; the others' order hidden)
    "loan_deck",  # (the Iron Bank's: the cards in it are the position's, their order hidden)
    "battles",
    "battles_won",
    "marched",
    "history",
    "history_castles",
    "history_stars",
    "history_battles",
    "history_castles_lost",
    "history_castles_lost_in_battle",
    "castle_holder",
)

PHASE_STEP: Mapping[int, Callable[[Any, Any], None]] = {
    Phase.PLANNING: machine._planning,
    Phase.RAVEN: machine._raven,
    Phase.RAIDS: machine._raids,
    Phase.MARCHES: machine._marches,
    Phase.CONSOLIDATE: machine._consolidate,
    Phase.CLEANUP: machine._cleanup,
    Phase.WESTEROS: machine._westeros,
}


def phase_starts(games: np.recarray, t: Any) -> Iterator[np.recarray]:
    """The one-game ``games`` played at random like ``advance`` does, phase function by phase
    function, yielding a copy of the record each time a phase has just begun (nothing
    pending), and the finished game last."""
    g = games[0]
    mask = np.zeros(N_ACTIONS, np.bool_)
    while not g.done:
        if g.pending == Decision.NONE:
            before = int(g.phase)
            PHASE_STEP[before](g, t)
            if g.phase != before and g.pending == Decision.NONE and not g.done:
                yield games.copy()
            continue
        machine.legal(g, t, mask)
        machine.apply_legal(g, t, pick_from_mask(g.rng, 1 + g.pending_house, mask))
    yield games.copy()


def resumed_copy(games: np.recarray, p: Position) -> np.recarray:
    """The record rebuilt from its position, with what a position does not hold copied over."""
    again = record_from_position(p)
    for name in NOT_IN_POSITION:
        again[name] = games[name]
    return again


def differ_when_played_out(original: np.recarray, again: np.recarray, t: Any) -> list[str]:
    """Both one-game records played out at random: the fields, scratch left out, that differ."""
    play_random_one(original[0], t, 1_000_000)
    play_random_one(again[0], t, 1_000_000)
    return [
        name
        for name in original.dtype.names or ()
        if name not in SCRATCH and not np.array_equal(original[name], again[name])
    ]
