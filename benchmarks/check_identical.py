"""Fingerprints of seeded games, to check that a change to the engine or the players leaves every
game exactly as it was: the same decisions, the same final records, the same DataFrames.

For each setting (edition, player count, variants, policies; the base games of both editions,
the 1st edition's A Clash of Kings modules, and the 2nd edition's A Dance with Dragons, A Feast
for Crows, Mother of Dragons at 7 and 8 players and the vassals) it plays a fixed range of
seeded games and hashes every finished record (all its bytes) and the ``simulate`` and
per-round frames. Fingerprints saved before a setting was added compare on the others.

Run: ``python benchmarks/check_identical.py --save before.json`` on the reference code, then
``python benchmarks/check_identical.py --compare before.json`` after the change; the comparison
names the first game that differs in each setting and exits with status 1 if any does.
``--scale`` multiplies the number of games per setting. ``--v1`` plays ``heuristic_v1`` wherever
the settings say ``heuristic``: the first heuristic, kept playable after the second changed the
defaults, compared with fingerprints saved before the change. ``--battle-slots N`` hashes each
record as it was laid out when its battle vector had ``N`` slots (80 before the unit facts were
copied into it): slots added at its end since then are left out, every other byte counts.
``--leave-out FIELD`` (repeatable) hashes each record without a work-space field: one added since
the fingerprints were saved (``walk_lands``, say), or one a change replaces, named in both the
saving run and the comparing one (a field the record does not have is noted and passed over).
``--by-name`` hashes the fields in name order, for a change that only reorders them (in both runs).
``--houses N`` hashes each record as it was laid out when the record had ``N`` houses (6 before
Arryn and Targaryen were added): every house axis (each axis whose length follows the number of
houses in ``state_dtype``, the random streams' included) is cut back to its first entries, and
what is cut off must still be what a starting record holds there (the houses not in play: zeros,
-1 past the last place of a track, random streams never drawn from); a record where it is not
counts as a difference. ``--areas N`` does the same for the area axes: each record as laid out
when it had ``N`` area slots (58 before the A Feast for Crows Eyrie port's 59th area), and
``--order-kinds N`` for the order-kind axis (11 before Mother of Dragons' sea order tokens).
The vassals variant added ``commander``, ``claim_turn`` and ``claim_left`` (never written in a
game without vassals): fingerprints saved before it compare with ``--leave-out commander
--leave-out claim_turn --leave-out claim_left``.
``--units N`` for the unit axis (4 before Mother of Dragons' dragons); the fields of the
8-player Mother of Dragons game added with them (loyalty tokens, Westeros deck IV, dragon
strength) are left out, and each must still hold what a starting record holds there.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import sys
import time
from typing import Any

import numpy as np
import pandas as pd

from gotsim.engine.init import new_games_range
from gotsim.engine.state import A_MAX, N_ORDER_KINDS, STATE_DTYPE, H, U, state_dtype
from gotsim.play.simulate import games_frame, play_games, rounds_frame

MIXED = {"default": "heuristic", "stark": "random", "tyrell": {"aggression": 0.9, "risk": 0.8}}

# (name, edition, players, variants, policies, games at scale 1)
SETTINGS: list[tuple[str, str, int, dict[str, bool], Any, int]] = []
for _policy, _games in (("heuristic", 600), ("random", 1200)):
    for _players in (3, 4, 5, 6):
        for _tides in (False, True):
            _name = f"2e-{_players}p{'-tides' if _tides else ''}-{_policy}"
            SETTINGS.append((_name, "2e", _players, {"tides_of_battle": _tides}, _policy, _games))
    for _players in (3, 4, 5):
        SETTINGS.append((f"1e-{_players}p-{_policy}", "1e", _players, {}, _policy, _games))
SETTINGS.append(("2e-6p-mixed", "2e", 6, {}, MIXED, 600))
SETTINGS.append(("2e-5p-tides-mixed", "2e", 5, {"tides_of_battle": True}, MIXED, 600))
SETTINGS.append(
    (
        "1e-4p-modules-heuristic",
        "1e",
        4,
        {"fortifications": True, "siege_engines": True, "westeros_lookahead": True},
        "heuristic",
        600,
    )
)
CLASH = {"ports": True, "one_time_orders": True, "three_card_combat": True}
ALL_MODULES = {**CLASH, "fortifications": True, "siege_engines": True, "westeros_lookahead": True}
SETTINGS.append(("1e-5p-clash-heuristic", "1e", 5, CLASH, "heuristic", 600))
SETTINGS.append(("1e-3p-all-modules-heuristic", "1e", 3, ALL_MODULES, "heuristic", 600))
SETTINGS.append(("1e-4p-all-modules-random", "1e", 4, ALL_MODULES, "random", 1200))
# the 2nd-edition expansions and the vassals, each with its own start (name → expansion);
# fingerprints saved before these were added compare on the settings above alone
EXPANSION_OF: dict[str, str] = {}
VASSALS = {"vassals": True}
for _name, _expansion, _players, _variants, _policy, _games in (
    ("2e-6p-adwd-heuristic", "adwd", 6, {}, "heuristic", 600),
    ("2e-6p-adwd-random", "adwd", 6, {}, "random", 1200),
    ("2e-4p-affc-heuristic", "affc", 4, {}, "heuristic", 600),
    ("2e-4p-affc-random", "affc", 4, {}, "random", 1200),
    ("2e-7p-mod-heuristic", "mod", 7, {}, "heuristic", 400),
    ("2e-8p-mod-heuristic", "mod", 8, {}, "heuristic", 400),  # (the Iron Bank on: IB1)
    ("2e-8p-mod-random", "mod", 8, {}, "random", 800),
    ("2e-4p-vassals-heuristic", "", 4, VASSALS, "heuristic", 600),
    ("2e-4p-vassals-random", "", 4, VASSALS, "random", 1200),
    ("2e-4p-mod-vassals-heuristic", "mod", 4, VASSALS, "heuristic", 400),
    ("2e-5p-mod-eight-houses-random", "mod", 5, {**VASSALS, "eight_houses": True}, "random", 800),
):
    SETTINGS.append((_name, "2e", _players, _variants, _policy, _games))
    if _expansion:
        EXPANSION_OF[_name] = _expansion


def frame_digest(frame: pd.DataFrame) -> str:
    """A hash of a DataFrame's columns, dtypes and values."""
    h = hashlib.sha256()
    h.update(repr(list(zip(frame.columns, map(str, frame.dtypes), strict=True))).encode())
    h.update(pd.util.hash_pandas_object(frame, index=True).to_numpy().tobytes())
    return h.hexdigest()


def as_v1(policies: Any) -> Any:
    """``policies`` with every heuristic spec made a ``heuristic_v1`` spec."""
    if policies == "heuristic":
        return "heuristic_v1"
    if isinstance(policies, dict):
        if "kind" in policies or not any(k in policies for k in ("default", "stark", "tyrell")):
            kind = policies.get("kind", "heuristic")
            return {**policies, "kind": "heuristic_v1"} if kind == "heuristic" else policies
        return {house: as_v1(spec) for house, spec in policies.items()}
    return policies


@functools.cache
def _note_absent(names: tuple[str, ...]) -> None:
    print(f"--leave-out: not in this record: {', '.join(names)}", file=sys.stderr)


def laid_out(
    records: np.ndarray,
    battle_slots: int | None,
    leave_out: tuple[str, ...] = (),
    by_name: bool = False,
) -> np.ndarray:
    """The records in the layout whose battle vector had ``battle_slots`` slots, without the
    fields ``leave_out``, and with the fields in name order if ``by_name`` (the same records
    when None, empty and False)."""
    if battle_slots is None and not leave_out and not by_name:
        return records
    fields = records.dtype.fields
    assert fields is not None
    absent = tuple(sorted(set(leave_out) - set(fields)))
    if absent:  # a field of the other layout (the one before or after the change)
        _note_absent(absent)
    layout = []
    names = records.dtype.names or ()
    for name in sorted(names) if by_name else names:
        if name in leave_out:
            continue
        sub = fields[name][0]
        shape = (battle_slots,) if name == "battle" and battle_slots else sub.shape
        layout.append((name, sub.base, shape) if shape else (name, sub.base))
    out = np.zeros(records.shape, np.dtype(layout))
    for name in out.dtype.names or ():
        out[name] = records[name][:, :battle_slots] if name == "battle" else records[name]
    return out


def grown_axes(
    houses: int, areas: int, order_kinds: int = N_ORDER_KINDS, units: int = U
) -> dict[str, tuple[tuple[int, int], ...]]:
    """Per field of the record, the axes that grew since the layout of ``houses`` houses,
    ``areas`` area slots, ``order_kinds`` order kinds and ``units`` unit types
    (``state_dtype(houses, areas, order_kinds, units)``), with how many entries each gained.
    Fields the older layout lacks (with fewer unit types: the 8-player Mother of Dragons
    fields) are left out of the comparison (``new_fields``)."""
    fields = STATE_DTYPE.fields
    old = state_dtype(houses, areas, order_kinds, units)
    assert fields is not None and old.names is not None
    assert set(old.names) <= set(STATE_DTYPE.names or ()), "fields differ beyond axes"
    out: dict[str, tuple[tuple[int, int], ...]] = {}
    for name in old.names:
        now, then = fields[name][0].shape, old[name].shape
        assert len(now) == len(then), name
        grown = tuple((k, a - b) for k, (a, b) in enumerate(zip(now, then, strict=True)) if a != b)
        extras = (H - houses, A_MAX - areas, N_ORDER_KINDS - order_kinds, U - units)
        assert all(extra in extras for _, extra in grown), (name, now, then)
        if grown:
            out[name] = grown
    return out


def new_fields(houses: int, areas: int, order_kinds: int, units: int) -> list[str]:
    """The fields of the record that the layout of ``state_dtype(houses, areas, order_kinds,
    units)`` lacks."""
    old = set(state_dtype(houses, areas, order_kinds, units).names or ())
    return [name for name in STATE_DTYPE.names or () if name not in old]


def cut_off(field: np.ndarray, grown: tuple[tuple[int, int], ...]) -> list[np.ndarray]:
    """The parts of ``field`` (records on axis 0) in the entries each ``grown`` axis (numbered
    within a record) gained."""
    parts = []
    for k, extra in grown:
        index: list[Any] = [slice(None)] * field.ndim
        index[1 + k] = slice(field.shape[1 + k] - extra, None)
        parts.append(field[tuple(index)])
    return parts


def as_layout(
    records: np.ndarray,
    houses: int,
    areas: int,
    edition: str,
    players: int,
    seed: int,
    order_kinds: int = N_ORDER_KINDS,
    units: int = U,
) -> tuple[np.ndarray, list[int]]:
    """``records`` laid out with ``houses`` houses, ``areas`` area slots and ``order_kinds``
    order kinds (``state_dtype(houses, areas, order_kinds)``), and the games whose cut-off parts
    differ from those of their starting record."""
    axes = grown_axes(houses, areas, order_kinds, units)
    start = new_games_range(seed, 0, len(records), edition=edition, players=players)
    bad = np.zeros(len(records), bool)
    out = np.zeros(records.shape, state_dtype(houses, areas, order_kinds, units))
    for name in new_fields(houses, areas, order_kinds, units):  # must hold their start
        got, want = records[name], start[name]
        bad |= (got != want).reshape(len(records), -1).any(axis=1)
    for name in out.dtype.names or ():
        field = records[name]
        if name not in axes:
            out[name] = field
            continue
        for got, want in zip(
            cut_off(field, axes[name]), cut_off(start[name], axes[name]), strict=True
        ):
            bad |= (got != want).reshape(len(records), -1).any(axis=1)
        out[name] = field[(slice(None), *(slice(0, n) for n in out.dtype[name].shape))]
    return out, np.flatnonzero(bad).tolist()


def fingerprints(
    scale: float,
    jobs: int,
    v1: bool = False,
    battle_slots: int | None = None,
    leave_out: tuple[str, ...] = (),
    by_name: bool = False,
    houses: int | None = None,
    areas: int | None = None,
    order_kinds: int | None = None,
    units: int | None = None,
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    relaid = houses is not None or areas is not None or order_kinds is not None or bool(units)
    for name, edition, players, variants, policies, games in SETTINGS:
        expansion = EXPANSION_OF.get(name)
        if relaid and (expansion or variants.get("vassals")):
            continue  # (an earlier layout's fingerprints never held these settings)
        if v1:
            policies = as_v1(policies)
        n = max(1, round(games * scale))
        start = time.perf_counter()
        records = play_games(
            n,
            players=players,
            edition=edition,
            variants=variants,
            seed=20240,
            n_jobs=jobs,
            policies=policies,
            expansion=expansion,
        )
        hashed = records
        filler: list[int] = []
        if relaid:
            hashed, filler = as_layout(
                records,
                houses or H,
                areas or A_MAX,
                edition,
                players,
                seed=20240,
                order_kinds=order_kinds or N_ORDER_KINDS,
                units=units or U,
            )
            if filler:
                print(
                    f"{name}: {len(filler)} records hold more than the starting filler past "
                    f"house {houses} / area slot {areas} (first: game {filler[0]})",
                    file=sys.stderr,
                )
        digests = [
            hashlib.sha256(r.tobytes()).hexdigest()[:16]
            for r in laid_out(hashed, battle_slots, leave_out, by_name)
        ]
        if filler:
            for i in filler:  # such a record is not the one it would have been
                digests[i] = "not filler " + digests[i]
        out[name] = {
            "games": n,
            "records": digests,
            "games_frame": frame_digest(
                games_frame(
                    records,
                    players=players,
                    edition=edition,
                    seed=20240,
                    expansion=expansion,
                    variants=variants,
                )
            ),
            "rounds_frame": frame_digest(rounds_frame(records)),
        }
        print(f"{name}: {n} games, {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return out


def compare(now: dict[str, Any], before: dict[str, Any]) -> int:
    bad = 0
    for name, ref in before.items():
        got = now.get(name)
        if got is None or got["games"] != ref["games"]:
            print(f"{name}: not comparable (games differ or setting missing)")
            bad += 1
            continue
        pairs = zip(got["records"], ref["records"], strict=True)
        diff = [i for i, (a, b) in enumerate(pairs) if a != b]
        frames = [k for k in ("games_frame", "rounds_frame") if got[k] != ref[k]]
        if diff or frames:
            bad += 1
            first = f"first differing game {diff[0]}, " if diff else ""
            print(f"{name}: {len(diff)} records differ ({first}frames differing: {frames})")
    total = sum(v["games"] for v in before.values())
    print(f"{len(before)} settings, {total} games: {'IDENTICAL' if not bad else 'DIFFERENT'}")
    return 1 if bad else 0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--save", help="write the fingerprints to this JSON file")
    parser.add_argument("--compare", help="compare with fingerprints saved in this JSON file")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--v1", action="store_true", help="heuristic_v1 where heuristic is named")
    parser.add_argument(
        "--battle-slots", type=int, help="hash records as laid out with this many battle slots"
    )
    parser.add_argument(
        "--leave-out",
        action="append",
        default=[],
        metavar="FIELD",
        help="hash records without this work-space field (repeat for several)",
    )
    parser.add_argument(
        "--houses",
        type=int,
        help="hash records as laid out with this many houses (6 before Arryn and Targaryen)",
    )
    parser.add_argument(
        "--areas",
        type=int,
        help="hash records as laid out with this many area slots (58 before the Eyrie port)",
    )
    parser.add_argument(
        "--order-kinds",
        type=int,
        help="hash records as laid out with this many order kinds (11 before the sea orders)",
    )
    parser.add_argument(
        "--units",
        type=int,
        help="hash records as laid out with this many unit types (4 before the dragons; the "
        "8-player Mother of Dragons fields left out, and they must hold their start)",
    )
    parser.add_argument(
        "--by-name",
        action="store_true",
        help="hash each record's fields in name order (for a change that reorders them)",
    )
    args = parser.parse_args()
    now = fingerprints(
        args.scale,
        args.jobs,
        args.v1,
        args.battle_slots,
        tuple(args.leave_out),
        args.by_name,
        args.houses,
        args.areas,
        args.order_kinds,
        args.units,
    )
    if args.save:
        with open(args.save, "w") as f:
            json.dump(now, f)
    if args.compare:
        with open(args.compare) as f:
            raise SystemExit(compare(now, json.load(f)))


if __name__ == "__main__":
    main()
