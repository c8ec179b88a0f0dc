"""Starting positions per edition and player count, validated against the board.

``load_setup(edition, players)`` gives a frozen ``Setup``: houses in play, starting units, power,
supply, influence tracks, dominance tokens, King's Court stars, garrisons, neutral forces and
impassable areas. The 5-player King's Court swap variant is ``kings_court_swap=True``; a 2nd-edition
expansion's own start (A Dance with Dragons) is ``expansion="adwd"``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from gotsim.data import load_data
from gotsim.rules.board import Board, BoardDataError, load_board
from gotsim.rules.ids import AreaKind, House, Unit
from gotsim.rules.variants import (
    EXPANSIONS,
    VASSAL_BOARD_HOUSES,
    expansion_board,
    expansion_name,
)

TRACKS: tuple[str, ...] = ("iron_throne", "fiefdoms", "kings_court")
# Mother of Dragons: the loyalty tokens that win for House Targaryen (``expansions.json``
# ``victory.targaryen``: S&R's default of its setting, 6-15; ``docs/rules.md`` M12)
LOYALTY_TO_WIN = 7


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
    expansion: str | None = None  # ``rules.variants.EXPANSIONS`` name; None: the base game
    # area id → house: power tokens on the board at the start (A Dance with Dragons)
    power_tokens: Mapping[str, House] = field(default_factory=lambda: MappingProxyType({}))
    # house → its home area where the setup names one the board does not (A Feast for Crows:
    # Arryn's The Eyrie)
    home_areas: Mapping[House, str] = field(default_factory=lambda: MappingProxyType({}))
    # victory points that win (A Feast for Crows: 7, scored with objectives); 0: none, castles win
    victory_points: int = 0
    # the board the setup stands on (``rules.board.load_board``'s ``board``: Mother of Dragons'
    # ``mod7``; "base" for the edition's own)
    board: str = "base"
    # with the ``vassals`` variant: the houses on the board no player takes (``houses`` holds
    # them too, and ``players`` counts every house on the board)
    vassals: tuple[House, ...] = ()
    # Mother of Dragons at 8 players: loyalty tokens on the board at the start (area id → count)
    # and the loyalty tokens that win for House Targaryen (0: no loyalty victory)
    loyalty: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    loyalty_to_win: int = 0

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
        held_at_start = g["area"] in units.get(_house(g["house"], "garrison"), {}) or (
            per_count.get("power_tokens_on_board", {}).get(g["area"]) == g["house"]
        )
        if board.home[gi] < 0 and not held_at_start:
            raise SetupDataError(
                f"garrisons: {g['area']!r} is neither a home area nor held by {g['house']} "
                "at the start"
            )
        garrisons[g["area"]] = (_house(g["house"], "garrison"), int(g["strength"]))
    tokens = {}
    for area, house_id in per_count.get("power_tokens_on_board", {}).items():
        house = _house(house_id, "power tokens on the board")
        _area(board, area, "power tokens on the board")
        if house not in houses:
            raise SetupDataError(f"power tokens on the board: {house_id} is not playing")
        if board.kind[board.index(area)] != AreaKind.LAND:
            raise SetupDataError(f"power tokens on the board: {area!r} is not a land area")
        held = [h for h, placed in units.items() if area in placed and h != house]
        if held:
            raise SetupDataError(
                f"power tokens on the board: {house_id}'s token in {area!r}, where "
                f"{held[0].id} units stand"
            )
        tokens[area] = house
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
    home_areas = {}
    for house in houses:
        home = spec["houses"][house.id].get("home_area")
        if home is not None and board.home[_area(board, home, "home areas")] != house:
            home_areas[house] = home
    loyalty = {}
    for area, count in per_count.get("loyalty_tokens", {}).items():
        if board.kind[_area(board, area, "loyalty tokens")] != AreaKind.LAND:
            raise SetupDataError(f"loyalty tokens: {area!r} is not a land area")
        loyalty[area] = int(count)
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
        expansion=spec.get("expansion"),
        power_tokens=MappingProxyType(tokens),
        home_areas=MappingProxyType(home_areas),
        victory_points=int(victory.get("victory_points_to_win", 0)),
        board=board.name,
        loyalty=MappingProxyType(loyalty),
        loyalty_to_win=int(per_count.get("loyalty_to_win", 0)),
    )


def _by_players(value: Any, players: int) -> Any:
    """An expansion scenario's fact at ``players``: the entry for that count where the fact is
    given per player count (Mother of Dragons: ``{"7": …, "8": …}``), else the fact itself."""
    if isinstance(value, Mapping) and str(players) in value:
        return value[str(players)]
    return value


def expansion_spec(
    spec: Mapping[str, Any], expansion: str, players: int | None = None
) -> dict[str, Any]:
    """The setup dict of ``expansion`` (an ``EXPANSIONS`` name) at ``players`` (None: its first
    player count): the 2nd edition's ``spec`` (``setup.json``) with the expansion scenario's
    start in place of the base start, from ``data/2e/expansions.json``: houses (a house the base
    game lacks from the scenario's ``house_records``: Arryn, Targaryen), starting units,
    supply, power tokens in hand and on the board, influence tracks, King's Court stars where
    the scenario gives them, garrisons (the base home garrisons of the houses playing and the
    scenario's own for the houses playing, or the scenario's alone with
    ``garrisons_replace_base``), neutral forces, impassable areas, the number of rounds and the
    victory points that win. A fact the scenario gives per player count (Mother of Dragons'
    7 and 8) is read at ``players``. Unit limits of the base houses and the rest are the
    base's (at six players where the base game has no setup for ``players``)."""
    scenario = load_data("2e", "expansions.json")["scenarios"][EXPANSIONS[expansion]]
    counts = scenario["player_counts"]
    players = counts[0] if players is None else players
    if players not in counts:
        known = ", ".join(str(n) for n in counts)
        raise SetupDataError(
            f"expansion {expansion!r} has no setup for {players} players ({known})"
        )
    base = spec["player_counts"].get(str(players), spec["player_counts"]["6"])
    records = {**spec["houses"], **scenario.get("house_records", {})}
    playing_ids = _by_players(scenario["houses"], players)
    houses = {}
    power = scenario["starting_power_tokens_available"]
    if isinstance(power, Mapping):  # Mother of Dragons: without the Iron Bank
        power = power["without_iron_bank"]
    for house_id in playing_ids:
        record = dict(records[house_id])
        record["starting_units"] = scenario["starting_units"].get(house_id, {})
        record["starting_supply"] = scenario["starting_supply"][house_id]
        record["starting_power_tokens"] = power
        if house_id in scenario.get("unit_limits", {}):  # Targaryen's dragons, no siege engines
            record["unit_limits"] = scenario["unit_limits"][house_id]
        houses[house_id] = record
    tokens = {
        area: house_id
        for house_id, areas in scenario.get("power_tokens_on_board", {}).items()
        for area in areas
    }
    own = [g for g in scenario.get("garrisons", []) if g["house"] in playing_ids]
    if scenario.get("garrisons_replace_base"):
        garrisons = own
    else:
        home = [g for g in base.get("garrisons", []) if g["house"] in playing_ids]
        garrisons = [*home, *own]
    playing = [h for h in base["houses"] if h in playing_ids]
    stars = scenario.get("kings_court_special_orders_by_position")
    per_count = {
        **base,
        "houses": [*playing, *(h for h in playing_ids if h not in playing)],
        "influence_tracks": _by_players(scenario["influence_tracks"], players),
        "kings_court_special_orders_by_position": _by_players(stars, players)
        if stars is not None
        else base["kings_court_special_orders_by_position"],
        "garrisons": garrisons,
        "neutral_forces": _by_players(scenario.get("neutral_forces", []), players),
        "impassable_areas": scenario.get("impassable_areas", []),
        "power_tokens_on_board": tokens,
        "removed_starting_units": [],
        "loyalty_tokens": _by_players(scenario.get("loyalty_tokens_at_start", {}), players)
        if str(players) in scenario.get("loyalty_tokens_at_start", {})
        else {},
        "loyalty_to_win": LOYALTY_TO_WIN if House.TARGARYEN.id in playing_ids else 0,
    }
    victory = dict(spec.get("victory", {}))
    if "victory_points_to_win" in scenario.get("victory", {}):
        victory["victory_points_to_win"] = scenario["victory"]["victory_points_to_win"]
    return {
        **spec,
        "expansion": expansion,
        "houses": {**spec["houses"], **houses},
        "player_counts": {str(players): per_count},
        "rounds": {**spec.get("rounds", {}), "max_rounds": scenario["rounds"]},
        "victory": victory,
    }


def _swap(order: tuple[House, ...], a: House, b: House) -> tuple[House, ...]:
    if a not in order or b not in order:
        raise SetupDataError(f"cannot swap {a.id} and {b.id}: both must be in play")
    swapped = {a: b, b: a}
    return tuple(swapped.get(h, h) for h in order)


def load_setup(
    edition: str = "2e",
    players: int = 6,
    *,
    kings_court_swap: bool = False,
    expansion: str | None = None,
    vassals: bool = False,
    eight_houses: bool = False,
) -> Setup:
    """The packaged starting position of ``edition`` for ``players`` houses (``expansion``: a
    2nd-edition expansion's own start, ``rules.variants.EXPANSIONS``; ``vassals``: ``players``
    player houses and the other houses of the board as vassals, ``vassal_setup``;
    ``eight_houses``: with ``vassals``, Mother of Dragons' 8-house board).

    >>> load_setup("2e", 6).tracks["iron_throne"][0].id
    'baratheon'
    >>> load_setup("2e", 6, expansion="adwd").max_rounds
    6
    """
    if vassals:
        return vassal_setup(edition, players, expansion_name(expansion), eight_houses)
    if eight_houses:
        raise SetupDataError("eight_houses: a vassals option (Mother of Dragons' 8-house board)")
    return _load_setup(edition, players, kings_court_swap, expansion_name(expansion))


VASSAL_SUPPLY = 4  # a vassal's supply level at the start (expansions.json components.vassals)


def vassal_players(players: int) -> tuple[House, ...]:
    """The player houses of a vassal game of ``players`` (V1): the houses of the base game's
    setup for that many players (all six base houses at 6), as Swords and Ravens lets the
    players choose their houses freely and this is the simplest rule to state.

    >>> [h.id for h in vassal_players(4)]
    ['baratheon', 'lannister', 'stark', 'greyjoy']
    """
    counts = load_data("2e", "setup.json")["player_counts"]
    if str(players) not in counts:
        raise SetupDataError(f"vassals: no player houses for {players} players")
    return tuple(House.from_id(h) for h in counts[str(players)]["houses"])


def vassal_track(order: tuple[House, ...], vassals: tuple[House, ...]) -> tuple[House, ...]:
    """A starting track with vassals (V3): where a vassal would sit in one of the top three
    spaces, every vassal of the track moves to its bottom, in their order.

    >>> from gotsim.rules.ids import House as Hs
    >>> [h.id for h in vassal_track((Hs.BARATHEON, Hs.MARTELL, Hs.STARK), (Hs.MARTELL,))]
    ['baratheon', 'stark', 'martell']
    """
    if not any(h in vassals for h in order[:3]):
        return order
    return (*(h for h in order if h not in vassals), *(h for h in order if h in vassals))


@lru_cache(maxsize=16)
def vassal_setup(
    edition: str, players: int, expansion: str | None, eight_houses: bool = False
) -> Setup:
    """The start of a ``vassals`` game (V1-V4): the whole board's setup (the base game's
    6-player one, or Mother of Dragons' 7-player one) with the houses of ``vassal_players``
    as players and the others as vassals: a vassal starts at supply 4 with no power tokens
    (it never holds any), with its scenario's ``starting_units_if_vassal`` where the scenario
    gives them (Mother of Dragons) and its ordinary starting units otherwise; the tracks follow
    ``vassal_track``. ``eight_houses`` (V21): Mother of Dragons' 8-player setup, House
    Targaryen and the houses of ``vassal_players(players - 1)`` as players; Targaryen stays
    last on every track (below the vassals moved down, as Swords and Ravens moves it)."""
    if edition != "2e":
        raise SetupDataError("vassals is a 2nd-edition variant")
    if expansion not in VASSAL_BOARD_HOUSES:
        raise SetupDataError(f"vassals: no vassal game with expansion {expansion!r}")
    if eight_houses and expansion != "mod":
        raise SetupDataError("vassals: eight_houses is Mother of Dragons' 8-house board")
    board_houses = 8 if eight_houses else VASSAL_BOARD_HOUSES[expansion]
    whole = _load_setup(edition, board_houses, False, expansion)
    if eight_houses:
        playing = (*vassal_players(players - 1), House.TARGARYEN)
    else:
        playing = vassal_players(players)
    vassals = tuple(h for h in whole.houses if h not in playing)
    units = {h: dict(placed) for h, placed in whole.units.items()}
    if expansion is not None:
        scenario = load_data("2e", "expansions.json")["scenarios"][EXPANSIONS[expansion]]
        board = load_board(edition, board=whole.board)
        own = scenario.get("starting_units_if_vassal", {})
        for house in vassals:
            if house.id in own:
                units[house] = {
                    area: _unit_counts(board, area, counts, f"{house.id} vassal units")
                    for area, counts in own[house.id].items()
                }
    tracks = {track: vassal_track(order, vassals) for track, order in whole.tracks.items()}
    if eight_houses:  # (Mother of Dragons' track rule: Targaryen in the last space)
        last = House.TARGARYEN
        tracks = {t: (*(h for h in order if h != last), last) for t, order in tracks.items()}
    return replace(
        whole,
        units=MappingProxyType(units),
        power={h: 0 if h in vassals else n for h, n in whole.power.items()},
        power_total={h: 0 if h in vassals else n for h, n in whole.power_total.items()},
        supply={h: VASSAL_SUPPLY if h in vassals else n for h, n in whole.supply.items()},
        tracks=tracks,
        vassals=vassals,
    )


@lru_cache(maxsize=32)
def _load_setup(edition: str, players: int, kings_court_swap: bool, expansion: str | None) -> Setup:
    spec = load_data(edition, "setup.json")
    if expansion is not None:
        if edition != "2e":
            raise SetupDataError(f"expansion {expansion!r} is a 2nd-edition expansion")
        spec = expansion_spec(spec, expansion, players)
    board = load_board(edition, board=expansion_board(expansion, players))
    return build_setup(spec, board, players, kings_court_swap=kings_court_swap)
