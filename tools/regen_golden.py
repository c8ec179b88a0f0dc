"""Regenerate the engine's golden files in ``tests/golden/`` after an intended rule change.

Usage (from the repository root)::

    .venv/bin/python tools/regen_golden.py            # rewrite every golden file
    .venv/bin/python tools/regen_golden.py --check    # compare only; exit status 1 on a change

It writes

* ``counts.json``: perft-style counts from each 2nd-edition start (3–6 players):

  - ``order_assignments``: per house, the distinct complete order assignments of its starting
    areas that the engine's ``PLACE_ORDER`` decisions allow (token counts and the King's Court
    star limit), counted by a depth-first search over the house's decisions in a copy of the
    record (each leaf is checked to be a new assignment, so sequences are never counted twice);
  - ``march_destinations``: for every starting area of every house, the areas ``MARCH_UNIT``
    allows for its first unit under a ``march+0`` order (staying put, always allowed, is left
    out), with the house's ships where they start (``transport``) and with its ships at sea
    removed (``no_transport``; ports never carry armies, so their ships stay);

* ``playthrough_<name>.txt`` / ``.json``: the narration log of ``Game(...).play(RandomPolicy())``
  and the final position, for the games in ``PLAYTHROUGHS``.

``tests/test_golden.py`` recomputes all of it and compares exactly. Review the diff of
``tests/golden/`` before committing: every change in it should be explained by the rule change.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from gotsim.engine.convert import (  # noqa: E402
    position_from_record,
    position_rules,
    record_from_position,
)
from gotsim.engine.game import Game, RandomPolicy  # noqa: E402
from gotsim.engine.machine import advance, apply, legal  # noqa: E402
from gotsim.engine.position import (  # noqa: E402
    Position,
    dump_position,
    load_position,
    starting_position,
)
from gotsim.engine.state import N_ACTIONS, N_BASE_ORDER_KINDS, ORDER_NAMES, Decision  # noqa: E402
from gotsim.rules.board import load_board  # noqa: E402
from gotsim.rules.ids import AreaKind, House, Unit  # noqa: E402

GOLDEN = ROOT / "tests" / "golden"
COUNTS = GOLDEN / "counts.json"
PLAYER_COUNTS = (3, 4, 5, 6)
MARCH_ORDER = "march+0"


@dataclass(frozen=True)
class Playthrough:
    """One golden game: ``Game(players, seed, variants, expansion=...).play(RandomPolicy())``."""

    name: str
    players: int
    seed: int
    variants: Mapping[str, bool]
    expansion: str | None = None

    @property
    def log_path(self) -> Path:
        return GOLDEN / f"playthrough_{self.name}.txt"

    @property
    def position_path(self) -> Path:
        return GOLDEN / f"playthrough_{self.name}.json"


PLAYTHROUGHS: tuple[Playthrough, ...] = (
    Playthrough("6p_seed1", 6, 1, {}),
    Playthrough("4p_tides_seed2", 4, 2, {"tides_of_battle": True}),
    Playthrough("3p_seed3", 3, 3, {}),
    Playthrough("6p_adwd_seed4", 6, 4, {}, "adwd"),
)


# --- order assignments -----------------------------------------------------------------------


def _mask(g: Any, t: Any) -> np.ndarray:
    mask = np.zeros(N_ACTIONS, np.bool_)
    legal(g, t, mask)
    return mask


def _child(games: np.recarray, t: Any, action: int) -> np.recarray:
    """A copy of the one-game batch with ``action`` applied and the game advanced."""
    out = games.copy()
    if not apply(out[0], t, action):
        raise AssertionError(f"action {action} refused although legal")
    advance(out[0], t)
    return out


def order_assignments(players: int, house: House) -> dict[str, Any]:
    """The complete order assignments of ``house``'s starting areas, from the start of round 1.

    The houses before it in turn order place their orders first (the first legal kind each
    time: another house's tokens never limit this one's). Then a depth-first search over the
    house's ``PLACE_ORDER`` decisions; a leaf is reached when the next decision is no longer
    the house's, and its assignment (area → order) must be new."""
    position = starting_position("2e", players)
    rules = position_rules(position)
    t = rules[0]
    games = record_from_position(position)
    advance(games[0], t)
    while games[0].pending == Decision.PLACE_ORDER and games[0].pending_house != house:
        games = _child(games, t, int(np.flatnonzero(_mask(games[0], t))[0]))
    seen: set[frozenset[tuple[int, int]]] = set()
    areas: set[int] = set()

    def visit(node: np.recarray, placed: tuple[tuple[int, int], ...]) -> None:
        g = node[0]
        if g.pending != Decision.PLACE_ORDER or g.pending_house != house:
            assignment = frozenset(placed)
            if assignment in seen:
                raise AssertionError(f"assignment reached twice: {sorted(assignment)}")
            seen.add(assignment)
            return
        area = int(g.ctx[0])
        areas.add(area)
        for kind in np.flatnonzero(_mask(g, t)):
            visit(_child(node, t, int(kind)), (*placed, (area, int(kind))))

    visit(games, ())
    board = load_board("2e")
    rank = position.tracks["kings_court"].index(house)
    return {
        "areas": [board.area_ids[a] for a in sorted(areas)],
        "stars": position.setup.stars[rank],
        "assignments": len(seen),
    }


def order_assignment_counts_for(players: int) -> dict[str, Any]:
    """``order_assignments`` of every house in play, by house id."""
    return {h.id: order_assignments(players, h) for h in starting_position("2e", players).houses}


# --- march destinations ----------------------------------------------------------------------


def _march_position(start: Position, area: str, *, transport: bool) -> Position:
    """The start in the march step, with one march order in ``area``; without transport the
    house's ships at sea elsewhere are taken off the board."""
    spec = dump_position(start)
    spec.update({"phase": "action", "step": "march"})
    areas = spec["areas"]
    house = areas[area]["house"]
    areas[area]["order"] = MARCH_ORDER
    if not transport:
        board = load_board(start.edition)
        for other in list(areas):
            record = areas[other]
            sea = board.kind[board.index(other)] == AreaKind.SEA
            if other != area and sea and record.get("house") == house:
                del areas[other]
    return load_position(spec)


def march_destinations(start: Position, area: str, *, transport: bool) -> tuple[str, list[str]]:
    """The first unit's type and the areas ``MARCH_UNIT`` allows it (origin left out)."""
    position = _march_position(start, area, transport=transport)
    rules = position_rules(position)
    t = rules[0]
    board = load_board(position.edition)
    origin = board.index(area)
    games = record_from_position(position)
    advance(games[0], t)
    g = games[0]
    house = position.occupants[area]
    if g.pending != Decision.MARCH_FROM or g.pending_house != house:
        raise AssertionError(f"{area}: expected {house.id}'s MARCH_FROM, got {g.pending}")
    games = _child(games, t, origin)
    g = games[0]
    if g.pending != Decision.MARCH_UNIT or int(g.ctx[0]) != origin:
        raise AssertionError(f"{area}: expected MARCH_UNIT, got {g.pending}")
    mask = _mask(g, t)
    if not mask[origin]:
        raise AssertionError(f"{area}: staying put is not allowed")
    unit = Unit(int(g.ctx[1])).id
    return unit, [board.area_ids[a] for a in np.flatnonzero(mask[: board.n_areas]) if a != origin]


def march_destinations_for(players: int) -> dict[str, Any]:
    """``march_destinations`` from every starting area (board order), with and without
    transport."""
    start = starting_position("2e", players)
    table: dict[str, Any] = {}
    for area, house in start.occupants.items():
        unit, with_ships = march_destinations(start, area, transport=True)
        _, without = march_destinations(start, area, transport=False)
        table[area] = {
            "house": house.id,
            "unit": unit,
            "transport": with_ships,
            "no_transport": without,
        }
    return table


def golden_counts() -> dict[str, Any]:
    """Everything in ``counts.json``."""
    return {
        "comment": "perft-style engine counts from the 2e starts; regenerate with "
        "tools/regen_golden.py",
        "order_kinds": list(ORDER_NAMES[:N_BASE_ORDER_KINDS]),  # (base games: no sea tokens)
        "order_assignments": {str(n): order_assignment_counts_for(n) for n in PLAYER_COUNTS},
        "march_destinations": {str(n): march_destinations_for(n) for n in PLAYER_COUNTS},
    }


# --- playthroughs ----------------------------------------------------------------------------


def playthrough(spec: Playthrough) -> tuple[str, str]:
    """The narration log and the final position JSON of one golden game."""
    game = Game(
        players=spec.players,
        seed=spec.seed,
        variants=dict(spec.variants),
        expansion=spec.expansion,
    )
    game.play(RandomPolicy())
    if not game.finished:
        raise AssertionError(f"{spec.name}: the game did not finish")
    position = position_from_record(game.record, game.rules)
    return game.narrative() + "\n", position.to_json()


# --- files -----------------------------------------------------------------------------------


def counts_text(counts: Mapping[str, Any]) -> str:
    return json.dumps(counts, indent=1, ensure_ascii=False) + "\n"


def golden_files() -> Iterator[tuple[Path, str]]:
    """Every golden file with its freshly computed text."""
    yield COUNTS, counts_text(golden_counts())
    for spec in PLAYTHROUGHS:
        log, position = playthrough(spec)
        yield spec.log_path, log
        yield spec.position_path, position


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare only, write nothing")
    args = parser.parse_args(argv)
    changed = []
    for path, text in golden_files():
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old != text:
            changed.append(path)
            if not args.check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
        print(f"{'changed' if old != text else 'same   '} {path.relative_to(ROOT)}")
    if args.check and changed:
        print(f"{len(changed)} golden file(s) differ; rerun without --check to rewrite them")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
