"""Shared pieces of the position round-trip tests: random games snapshot at every phase boundary,
what a position does not hold, and a resumed game played out against the original."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np

from gotsim.engine import machine
from gotsim.engine.convert import NotAtBoundaryError, position_from_record, record_from_position
from gotsim.engine.counters import WESTEROS_WORK
from gotsim.engine.position import Position, PositionError
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


def round_trips_at_every_decision(
    games: np.recarray, rules: Any, allowed: Callable[[PositionError], bool] = lambda _: False
) -> tuple[list[Position], list[str]]:
    """The one-game ``games`` played at random decision by decision: wherever the record reads
    back as a position, position → record → position is the identity and the game resumed from
    it plays out exactly like the original (asserted). Returns the positions read back and the
    refusals: each ``NotAtBoundaryError``, and each ``PositionError`` that ``allowed`` lets
    through (any other fails)."""
    t = rules[0]
    g = games[0]
    mask = np.zeros(N_ACTIONS, np.bool_)
    positions: list[Position] = []
    refusals: list[str] = []
    while not g.done:
        machine.advance(g, t)
        if g.done:
            break
        where = f"round {int(g.game_round)}, {Decision(int(g.pending)).name}"
        try:
            p = position_from_record(games, rules)
        except NotAtBoundaryError as exc:
            refusals.append(str(exc))
        except PositionError as exc:
            assert allowed(exc), f"{where}: {exc}"
            refusals.append(str(exc))
        else:
            assert position_from_record(record_from_position(p, seed=3), rules) == p, where
            differ = differ_when_played_out(games.copy(), resumed_copy(games, p), t)
            assert differ == [], f"{where}: resumed game differs in {differ}"
            positions.append(p)
        machine.legal(g, t, mask)
        machine.apply_legal(g, t, pick_from_mask(g.rng, 1 + g.pending_house, mask))
    return positions, refusals


def changed(spec: Mapping[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a position dict with ``change`` made: dotted keys (``"areas.winterfell.order"``)
    set to their values, or removed where the value is None."""
    out = copy.deepcopy(dict(spec))
    for key, value in change.items():
        node = out
        *path, last = key.split(".")
        for part in path:
            node = node[part]
        if value is None:
            del node[last]
        else:
            node[last] = value
    return out
