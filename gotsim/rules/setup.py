"""Starting positions per edition and player count, validated against the board.

``load_setup(edition, players)`` gives a frozen ``Setup``: houses in play, starting units, power,
supply, influence tracks, dominance tokens, King's Court stars, garrisons, neutral forces and
impassable areas. The 5-player King's Court swap variant is ``kings_court_swap=True``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from gotsim.data import load_data
from gotsim.rules.board import Board, BoardDataError, load_board
from gotsim.rules.ids import AreaKind, House, Unit

TRACKS: tuple[str, ...] = ("iron_throne", "fiefdoms", "kings_court")


class SetupDataError(BoardDataError):
    """A setup names an unknown area or house, or puts a unit where it cannot stand."""


@dataclass(frozen=True)
class Setup:
    """The starting position of one edition at one player count (houses as ``House`` values)."""

    edition: str
    players: int
    houses: tuple[House, ...]
    units: Mapping[House, Mapping[str, Mapping[Unit, int]]]  # house → area id → unit → count
    power: Mapping[House, int]  # power tokens in hand
    power_total: Mapping[House, int]  # tokens a house owns (hand + board + pool share)
    supply: Mapping[House, int]  # starting supply level
    unit_limits: Mapping[House, Mapping[Unit, int]]
    tracks: Mapping[str, tuple[House, ...]]  # track id → houses top to bottom
    stars: tuple[int, ...]  # special orders allowed per King's Court position
    garrisons: Mapping[str, tuple[House, int]]  # area id → (house, strength)
    neutral_forces: Mapping[str, int]  # area id → token strength
    impassable: tuple[str, ...]
    neutral_armies: Mapping[str, Mapping[Unit, int]]  # 1e: removed houses' units stay neutral
    castles_to_win: int
    max_rounds: int
    wildling_threat: int  # the threat at the start
    threat_max: int  # the wildling track's top
    threat_step: int  # what each wildling icon adds
    threat_drop: int  # what a wildling victory takes off (no value in the data: back to 0)
    supply_table: tuple[tuple[int, ...], ...]  # level → allowed army sizes, largest first

    def dominance_holder(self, track: str) -> House:
        return self.tracks[track][0]


def _house(value: Any, where: str) -> House:
    try:
        return House.from_id(value)
    except (ValueError, AttributeError):
        raise SetupDataError(f"{where}: unknown house {value!r}") from None


def _area(board: Board, area: str, where: str) -> int:
    if area not in board.area_index:
        raise SetupDataError(f"{where}: unknown area {area!r}")
    return board.index(area)


def _unit_counts(board: Board, area: str, counts: Mapping[str, int], where: str) -> dict[Unit, int]:
    i = _area(board, area, where)
    out: dict[Unit, int] = {}
    for unit_id, n in counts.items():
        try:
            unit = Unit.from_id(unit_id)
        except ValueError:
            raise SetupDataError(f"{where}: unknown unit {unit_id!r} in {area!r}") from None
        if not isinstance(n, int) or n < 0:
            raise SetupDataError(f"{where}: {n!r} {unit_id} in {area!r}")
        if n == 0:
            continue
        naval = unit == Unit.SHIP
        if naval != (board.kind[i] != AreaKind.LAND):
            raise SetupDataError(f"{where}: {unit_id} cannot stand in {area!r} ({board.kind[i]})")
        out[unit] = n
    return out


def build_setup(
    spec: Mapping[str, Any], board: Board, players: int, *, kings_court_swap: bool = False
) -> Setup:
    """Validate a setup dict (the shape of ``gotsim/data/2e/setup.json``) for one player count."""
    per_count = spec.get("player_counts", {}).get(str(players))
    if per_count is None:
        known = ", ".join(sorted(spec.get("player_counts", {})))
        raise SetupDataError(f"{board.edition} has no setup for {players} players (known: {known})")
    houses = tuple(_house(h, f"{players}p houses") for h in per_count["houses"])
    removed = set(per_count.get("removed_starting_units", []))
    units: dict[House, dict[str, dict[Unit, int]]] = {}
    for house in houses:
        record = spec["houses"][house.id]
        placed = {}
        for area, counts in record["starting_units"].items():
            if area in removed:
                continue
            got = _unit_counts(board, area, counts, f"{house.id} starting units")
            if got:
                placed[area] = got
        units[house] = placed
    tracks: dict[str, tuple[House, ...]] = {}
    for track in TRACKS:
        order = tuple(
            _house(h, f"{players}p {track}") for h in per_count["influence_tracks"][track]
        )
        if sorted(order) != sorted(houses):
            raise SetupDataError(
                f"{players}p {track} track does not list exactly the houses in play"
            )
        tracks[track] = order
    if kings_court_swap:
        tracks["kings_court"] = _swap(tracks["kings_court"], House.TYRELL, House.GREYJOY)
    garrisons = {}
    for g in per_count.get("garrisons", []):
        gi = _area(board, g["area"], "garrisons")
        if board.home[gi] < 0:
            raise SetupDataError(f"garrisons: {g['area']!r} is not a home area")
        garrisons[g["area"]] = (_house(g["house"], "garrison"), int(g["strength"]))
    neutral = {}
    for n in per_count.get("neutral_forces", []):
        _area(board, n["area"], "neutral forces")
        neutral[n["area"]] = int(n["strength"])
    impassable = tuple(per_count.get("impassable_areas", []))
    for area in impassable:
        _area(board, area, "impassable areas")
    for house, placed in units.items():
        for area in placed:
            if area in impassable:
                raise SetupDataError(f"{house.id} starting units: {area!r} is impassable")
    neutral_armies = {
        army["area"]: _unit_counts(board, army["area"], army["units"], "neutral armies")
        for army in per_count.get("neutral_armies_of_absent_houses", [])
    }
    victory = spec.get("victory", {})
    castles = victory.get("castles_and_strongholds_to_win", 7)
    castles = victory.get("castles_to_win_by_players", {}).get(str(players), castles)
    castles = per_count.get("castles_and_strongholds_to_win", castles)
    wildlings = spec.get("wildling_track", {})
    table = tuple(tuple(level["allowed_armies"]) for level in spec["supply_track"])
    return Setup(
        edition=board.edition,
        players=players,
        houses=houses,
        units=units,
        power={h: spec["houses"][h.id]["starting_power_tokens"] for h in houses},
        power_total={h: spec["houses"][h.id]["power_tokens_total"] for h in houses},
        supply={h: spec["houses"][h.id]["starting_supply"] for h in houses},
        unit_limits={
            h: {Unit.from_id(u): n for u, n in spec["houses"][h.id]["unit_limits"].items()}
            for h in houses
        },
        tracks=tracks,
        stars=tuple(per_count["kings_court_special_orders_by_position"]),
        garrisons=garrisons,
        neutral_forces=neutral,
        impassable=impassable,
        neutral_armies=neutral_armies,
        castles_to_win=int(castles),
        max_rounds=int(spec.get("rounds", {}).get("max_rounds", 10)),
        wildling_threat=int(wildlings.get("start", 0)),
        threat_max=int(wildlings["max"]),
        threat_step=int(wildlings["step_per_wildling_icon"]),
        threat_drop=int(wildlings.get("after_wildling_win_drop", wildlings["max"])),
        supply_table=table,
    )


def _swap(order: tuple[House, ...], a: House, b: House) -> tuple[House, ...]:
    if a not in order or b not in order:
        raise SetupDataError(f"cannot swap {a.id} and {b.id}: both must be in play")
    swapped = {a: b, b: a}
    return tuple(swapped.get(h, h) for h in order)


@lru_cache(maxsize=32)
def load_setup(edition: str = "2e", players: int = 6, *, kings_court_swap: bool = False) -> Setup:
    """The packaged starting position of ``edition`` for ``players`` houses.

    >>> load_setup("2e", 6).tracks["iron_throne"][0].id
    'baratheon'
    """
    return build_setup(
        load_data(edition, "setup.json"),
        load_board(edition),
        players,
        kings_court_swap=kings_court_swap,
    )
