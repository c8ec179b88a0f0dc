"""The board as validated, read-only numpy tables: areas, icons, borders, ports, neutral forces.

``load_board(edition)`` reads the packaged map once per edition and returns a frozen ``Board``;
``load_board("2e", board=...)`` gives the expansion boards (``BOARDS``): the base map with an
expansion's areas and borders added, changed or removed (``apply_map_changes``), checked the same
way. ``build_board(spec)`` validates any map given as a dict (a packaged file, a variant map
written in a notebook) and raises a named ``BoardDataError`` subclass that says what is wrong.

Axes: ``A`` areas (in the order of ``area_ids``), ``K`` the longest neighbour list.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any

import numpy as np
from numpy.typing import NDArray

from gotsim.data import load_data
from gotsim.rules.ids import HOUSE_IDS, AreaKind, House


class BoardDataError(ValueError):
    """Map data that cannot form a board; the subclass and message say what is wrong."""


class AreaFieldError(BoardDataError):
    """An area record has a missing, mistyped or out-of-range field."""


class DuplicateAreaError(BoardDataError):
    """Two area records share an id."""


class UnknownAreaError(BoardDataError):
    """A border, port link or table names an area id the map does not have."""


class SelfBorderError(BoardDataError):
    """A border joins an area to itself."""


class DuplicateBorderError(BoardDataError):
    """The same pair of areas is listed as a border twice (in either order)."""


class AsymmetricBorderError(BoardDataError):
    """An adjacency list says X borders Y but Y's list does not name X."""


class PortError(BoardDataError):
    """A port does not border exactly its land area and one sea, or its land cannot have a port."""


class DisconnectedBoardError(BoardDataError):
    """Some areas cannot be reached from the others."""


class CountMismatchError(BoardDataError):
    """The map's declared counts (areas, borders, icons) disagree with its records."""


class MapChangeError(BoardDataError):
    """An expansion's changes do not fit the map they change: a changed area or removed border it
    lacks, an added area or border it already has, or a drawing position missing or off the
    board."""


def _frozen(array: NDArray[Any]) -> NDArray[Any]:
    array.setflags(write=False)
    return array


@dataclass(frozen=True, eq=False, repr=False)
class Board:
    """A validated map. Arrays are read-only and indexed by area number (axis ``A``).

    >>> b = load_board("2e")
    >>> len(b.area_ids), len(b.borders)
    (58, 143)
    >>> b.name_of(b.index("the_eyrie"))
    'The Eyrie'
    """

    edition: str
    area_ids: tuple[str, ...]
    area_names: tuple[str, ...]
    borders: tuple[tuple[str, str], ...]
    kind: NDArray[np.int8]  # (A,) AreaKind
    castle: NDArray[np.int8]  # (A,) 1 if the area has a castle
    stronghold: NDArray[np.int8]  # (A,) 1 if the area has a stronghold
    supply: NDArray[np.int8]  # (A,) supply barrels
    crowns: NDArray[np.int8]  # (A,) power (crown) icons
    mustering_points: NDArray[np.int8]  # (A,) castle 1, stronghold 2, else 0
    home: NDArray[np.int8]  # (A,) House whose home area this is, -1 if none
    home_garrison: NDArray[np.int8]  # (A,) garrison strength of a home area, 0 if none
    adjacency: NDArray[np.bool_]  # (A, A) symmetric, False on the diagonal
    neighbours: NDArray[np.int16]  # (A, K) neighbour numbers, -1 padded
    n_neighbours: NDArray[np.int16]  # (A,)
    border_pairs: NDArray[np.int16]  # (E, 2) area numbers of each border, a < b by id
    port_of_area: NDArray[np.int16]  # (A,) for a land area, its port; -1 if none
    port_land: NDArray[np.int16]  # (A,) for a port, the land area it belongs to; else -1
    port_sea: NDArray[np.int16]  # (A,) for a port, the sea it opens onto; else -1
    position: NDArray[np.float64]  # (A, 2) drawing position in board widths: x 0..1 west→east,
    # y 0..aspect_ratio north→south
    aspect_ratio: float  # drawing height / width
    neutral_force: Mapping[int, NDArray[np.int8]]  # players → (A,) token strength, 0 if none
    impassable: Mapping[int, NDArray[np.bool_]]  # players → (A,) areas that cannot be entered
    # (A,) house id of each home area, None elsewhere; unlike ``home`` it also names houses that
    # ``House`` does not have (Arryn, Targaryen), whose ``home`` entry is -1
    home_of: tuple[str | None, ...]
    name: str  # which board of the edition: "base" or a name in ``BOARDS``
    title: str  # what the board is, in words ("" for the base board)
    image_width: float  # width of the board picture over the base board's (Essos is wider)
    area_index: Mapping[str, int] = field(repr=False, default_factory=dict)  # id → area number

    def __repr__(self) -> str:
        which = "" if self.name == "base" else f", {self.name!r}"
        return f"Board({self.edition!r}{which}, {self.n_areas} areas, {len(self.borders)} borders)"

    def index(self, area_id: str) -> int:
        """The area number of ``area_id``; ``UnknownAreaError`` names unknown ids."""
        try:
            return self.area_index[area_id]
        except KeyError:
            raise UnknownAreaError(
                f"unknown area {area_id!r} on the {self.edition} board"
            ) from None

    def name_of(self, area: int) -> str:
        return self.area_names[area]

    @property
    def n_areas(self) -> int:
        return len(self.area_ids)

    @property
    def is_land(self) -> NDArray[np.bool_]:
        return self.kind == AreaKind.LAND

    @property
    def is_sea(self) -> NDArray[np.bool_]:
        return self.kind == AreaKind.SEA

    @property
    def is_port(self) -> NDArray[np.bool_]:
        return self.kind == AreaKind.PORT

    @property
    def victory_area(self) -> NDArray[np.bool_]:
        """Areas that count toward the castle victory (castle or stronghold)."""
        return (self.castle + self.stronghold) > 0

    def player_counts(self) -> tuple[int, ...]:
        return tuple(sorted(self.neutral_force))


_REQUIRED_INT_FIELDS = ("castle", "stronghold", "supply", "crowns")


def _area_int(area: Mapping[str, Any], key: str, low: int, high: int) -> int:
    value = area.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise AreaFieldError(
            f"area {area.get('id')!r}: field {key!r} must be an integer from {low} to {high}, "
            f"got {value!r}"
        )
    return value


def _area_records(spec: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    areas = spec.get("areas")
    if not isinstance(areas, list) or not areas:
        raise AreaFieldError("map has no 'areas' list")
    houses = spec.get("houses", HOUSE_IDS)
    if not isinstance(houses, list | tuple) or not all(isinstance(h, str) for h in houses):
        raise BoardDataError("'houses' must be a list of house ids")
    seen: set[str] = set()
    for area in areas:
        if not isinstance(area, Mapping) or not isinstance(area.get("id"), str) or not area["id"]:
            raise AreaFieldError(f"area record without a string 'id': {area!r}")
        if area["id"] in seen:
            raise DuplicateAreaError(f"area id {area['id']!r} appears twice")
        seen.add(area["id"])
        kind = area.get("kind")
        if kind not in ("land", "sea", "port"):
            raise AreaFieldError(
                f"area {area['id']!r}: kind must be land, sea or port, got {kind!r}"
            )
        home = area.get("home_of")
        if home is not None and home not in houses:
            raise AreaFieldError(f"area {area['id']!r}: home_of names unknown house {home!r}")
        if home is not None and kind != "land":
            raise AreaFieldError(f"area {area['id']!r}: only a land area can be a home area")
        if area.get("home_garrison") and home is None:
            raise AreaFieldError(f"area {area['id']!r}: a garrison needs a home area")
    return areas


def _border_pairs(spec: Mapping[str, Any], index: Mapping[str, int]) -> list[tuple[str, str]]:
    """Canonical (a < b) border pairs from either a ``borders`` list or an ``adjacency`` dict."""
    if "adjacency" in spec:
        adjacency = spec["adjacency"]
        if not isinstance(adjacency, Mapping):
            raise BoardDataError("'adjacency' must map each area id to a list of neighbour ids")
        for a, neighbours in adjacency.items():
            if not isinstance(neighbours, list | tuple):
                raise BoardDataError(f"adjacency of {a!r} must be a list of area ids")
            for b in [a, *neighbours]:
                if b not in index:
                    raise UnknownAreaError(f"adjacency of {a!r} names unknown area {b!r}")
            for b in neighbours:
                if a not in adjacency.get(b, ()):
                    raise AsymmetricBorderError(
                        f"adjacency says {a!r} borders {b!r}, but {b!r} does not list {a!r}"
                    )
        raw = [(a, b) for a, ns in adjacency.items() for b in ns if a < b]
        raw += [(b, a) for a, ns in adjacency.items() for b in ns if a == b]
    else:
        raw = []
        for pair in spec.get("borders", []):
            if not isinstance(pair, list | tuple) or len(pair) != 2:
                raise BoardDataError(f"border {pair!r} is not a pair of area ids")
            raw.append((pair[0], pair[1]))
    pairs: list[tuple[str, str]] = []
    seen: set[tuple[str, str]] = set()
    for a, b in raw:
        for x in (a, b):
            if x not in index:
                raise UnknownAreaError(f"border ({a!r}, {b!r}) names unknown area {x!r}")
        if a == b:
            raise SelfBorderError(f"border joins {a!r} to itself")
        pair = (a, b) if a < b else (b, a)
        if pair in seen:
            raise DuplicateBorderError(f"border {pair[0]!r} - {pair[1]!r} is listed twice")
        seen.add(pair)
        pairs.append(pair)
    if not pairs:
        raise BoardDataError("map has no borders")
    return sorted(pairs)


def _check_ports(
    areas: list[Mapping[str, Any]], index: Mapping[str, int], adjacency: NDArray[np.bool_]
) -> tuple[NDArray[np.int16], NDArray[np.int16], NDArray[np.int16]]:
    n = len(areas)
    port_of_area = np.full(n, -1, np.int16)
    port_land = np.full(n, -1, np.int16)
    port_sea = np.full(n, -1, np.int16)
    kinds = [a["kind"] for a in areas]
    for i, area in enumerate(areas):
        if area["kind"] != "port":
            continue
        pid = area["id"]
        land, sea = str(area.get("port_of")), str(area.get("port_sea"))
        for key in ("port_of", "port_sea"):
            if area.get(key) not in index:
                raise UnknownAreaError(f"port {pid!r}: {key} names unknown area {area.get(key)!r}")
        li, si = index[land], index[sea]
        if kinds[li] != "land" or kinds[si] != "sea":
            raise PortError(f"port {pid!r} must belong to a land area and open onto a sea")
        touching = sorted(int(j) for j in np.flatnonzero(adjacency[i]))
        if touching != sorted((li, si)):
            names = [areas[j]["id"] for j in touching]
            raise PortError(
                f"port {pid!r} must border exactly {land!r} and {sea!r}, but borders {names}"
            )
        if not adjacency[li, si]:
            raise PortError(f"port {pid!r}: its land {land!r} does not border its sea {sea!r}")
        if not (areas[li].get("castle", 0) or areas[li].get("stronghold", 0)):
            raise PortError(f"port {pid!r}: its land {land!r} has no castle or stronghold")
        if port_of_area[li] != -1:
            raise PortError(f"land area {land!r} has two ports")
        port_of_area[li], port_land[i], port_sea[i] = i, li, si
    return port_of_area, port_land, port_sea


def _check_connected(adjacency: NDArray[np.bool_], area_ids: tuple[str, ...]) -> None:
    reached = np.zeros(len(area_ids), bool)
    frontier = [0]
    reached[0] = True
    while frontier:
        i = frontier.pop()
        for j in np.flatnonzero(adjacency[i] & ~reached):
            reached[j] = True
            frontier.append(int(j))
    if not reached.all():
        cut = [area_ids[j] for j in np.flatnonzero(~reached)]
        raise DisconnectedBoardError(f"areas not connected to {area_ids[0]!r}: {cut}")


def _player_tables(
    areas: list[Mapping[str, Any]], player_counts: tuple[int, ...]
) -> tuple[dict[int, NDArray[np.int8]], dict[int, NDArray[np.bool_]]]:
    force: dict[int, NDArray[np.int8]] = {}
    blocked: dict[int, NDArray[np.bool_]] = {}
    for p in player_counts:
        force[p] = np.zeros(len(areas), np.int8)
        blocked[p] = np.zeros(len(areas), bool)
    for i, area in enumerate(areas):
        per_count = area.get("neutral_force") or {}
        if not isinstance(per_count, Mapping):
            raise AreaFieldError(f"area {area['id']!r}: neutral_force must map players to strength")
        for players, strength in per_count.items():
            if not str(players).isdigit():
                raise AreaFieldError(f"area {area['id']!r}: neutral_force key {players!r}")
            p = int(players)
            if p not in force:
                raise AreaFieldError(
                    f"area {area['id']!r}: neutral_force for {p} players, but the map is for "
                    f"{list(player_counts)}"
                )
            valid = isinstance(strength, int) and not isinstance(strength, bool)
            if not valid or not 0 < strength < 100:
                raise AreaFieldError(f"area {area['id']!r}: neutral force strength {strength!r}")
            force[p][i] = strength
        for p in area.get("impassable_in_player_counts", []):
            if isinstance(p, bool) or not isinstance(p, int) or p not in blocked:
                raise AreaFieldError(f"area {area['id']!r}: impassable for unknown count {p}")
            blocked[p][i] = True
    for table in (*force.values(), *blocked.values()):
        _frozen(table)
    return force, blocked


def build_board(spec: Mapping[str, Any], *, edition: str = "custom", name: str = "base") -> Board:
    """Validate a map given as a dict and derive its tables.

    ``spec`` has ``areas`` (records as in ``gotsim/data/2e/map.json``) and either ``borders``
    (pairs of ids, either order) or ``adjacency`` (id → neighbour ids, which must be symmetric).
    Optional: ``counts`` (checked if given), ``player_counts`` (default 3–6), ``drawing``
    (``aspect_ratio``, ``image_width``), ``houses`` (the house ids a home area may name; default
    the houses of ``House``), ``title``. ``name`` says which board of the edition this is.
    """
    areas = _area_records(spec)
    area_ids = tuple(a["id"] for a in areas)
    index = {a: i for i, a in enumerate(area_ids)}
    n = len(areas)
    columns = {key: np.zeros(n, np.int8) for key in _REQUIRED_INT_FIELDS}
    for i, area in enumerate(areas):
        for key in _REQUIRED_INT_FIELDS:
            columns[key][i] = _area_int(area, key, 0, 1 if key in ("castle", "stronghold") else 9)
        if columns["castle"][i] and columns["stronghold"][i]:
            raise AreaFieldError(f"area {area['id']!r} cannot be both castle and stronghold")
        if area["kind"] != "land" and any(columns[k][i] for k in _REQUIRED_INT_FIELDS):
            raise AreaFieldError(f"{area['kind']} area {area['id']!r} cannot carry land icons")

    pairs = _border_pairs(spec, index)
    border_pairs = np.array([(index[a], index[b]) for a, b in pairs], np.int16)
    adjacency = np.zeros((n, n), bool)
    adjacency[border_pairs[:, 0], border_pairs[:, 1]] = True
    adjacency[border_pairs[:, 1], border_pairs[:, 0]] = True
    port_of_area, port_land, port_sea = _check_ports(areas, index, adjacency)
    _check_connected(adjacency, area_ids)

    degree = adjacency.sum(axis=1).astype(np.int16)
    neighbours = np.full((n, int(degree.max())), -1, np.int16)
    for i in range(n):
        row = np.flatnonzero(adjacency[i])
        neighbours[i, : len(row)] = row

    home = np.full(n, -1, np.int8)
    garrison = np.zeros(n, np.int8)
    for i, area in enumerate(areas):
        if area.get("home_of"):
            if area["home_of"] in HOUSE_IDS:
                home[i] = House.from_id(area["home_of"])
            garrison[i] = _area_int(area, "home_garrison", 0, 9) if area.get("home_garrison") else 0

    position = np.zeros((n, 2))
    for i, area in enumerate(areas):
        pos = area.get("position", (0.0, 0.0))
        if not isinstance(pos, list | tuple) or len(pos) != 2:
            raise AreaFieldError(f"area {area['id']!r}: position must be [x, y]")
        position[i] = pos

    player_counts = tuple(spec.get("player_counts", (3, 4, 5, 6)))
    force, blocked = _player_tables(areas, player_counts)
    mustering = columns["castle"] + 2 * columns["stronghold"]

    board = Board(
        edition=edition,
        area_ids=area_ids,
        area_names=tuple(a.get("name", a["id"]) for a in areas),
        borders=tuple(pairs),
        kind=np.array([AreaKind.from_id(a["kind"]) for a in areas], np.int8),
        castle=columns["castle"],
        stronghold=columns["stronghold"],
        supply=columns["supply"],
        crowns=columns["crowns"],
        mustering_points=mustering.astype(np.int8),
        home=home,
        home_garrison=garrison,
        adjacency=adjacency,
        neighbours=neighbours,
        n_neighbours=degree,
        border_pairs=border_pairs,
        port_of_area=port_of_area,
        port_land=port_land,
        port_sea=port_sea,
        position=position,
        aspect_ratio=float(spec.get("drawing", {}).get("aspect_ratio", 1.0)),
        neutral_force=MappingProxyType(force),
        impassable=MappingProxyType(blocked),
        home_of=tuple(a.get("home_of") or None for a in areas),
        name=name,
        title=str(spec.get("title", "")),
        image_width=float(spec.get("drawing", {}).get("image_width", 1.0)),
        area_index=MappingProxyType(index),
    )
    for value in vars(board).values():
        if isinstance(value, np.ndarray):
            _frozen(value)
    _check_counts(spec.get("counts"), board)
    return board


def _check_counts(declared: Mapping[str, int] | None, board: Board) -> None:
    if not declared:
        return
    actual = {
        "areas": board.n_areas,
        "land": int(board.is_land.sum()),
        "sea": int(board.is_sea.sum()),
        "port": int(board.is_port.sum()),
        "borders": len(board.borders),
        "castles": int(board.castle.sum()),
        "strongholds": int(board.stronghold.sum()),
        "supply_barrels": int(board.supply.sum()),
        "crowns": int(board.crowns.sum()),
    }
    for key, value in declared.items():
        if key in actual and actual[key] != value:
            raise CountMismatchError(
                f"map declares {value} {key} but its records have {actual[key]}"
            )


_PLAYER_COUNTS = {"1e": (3, 4, 5), "2e": (3, 4, 5, 6)}

# The boards besides the base map, by edition; what each one is made of lives in the edition's
# boards.json: "mod7" Mother of Dragons for 7 players (the Eyrie and the Bite overlays), "mod8"
# Mother of Dragons for 8 players (those overlays and the Essos side board), "affc_eyrie_port"
# A Feast for Crows with the optional Port of The Eyrie.
BOARDS: dict[str, tuple[str, ...]] = {
    "1e": ("base",),
    "2e": ("base", "mod7", "mod8", "affc_eyrie_port"),
}


def _pair(border: Any) -> tuple[str, str]:
    if not isinstance(border, list | tuple) or len(border) != 2:
        raise MapChangeError(f"border {border!r} is not a pair of area ids")
    a, b = str(border[0]), str(border[1])
    return (a, b) if a < b else (b, a)


def apply_map_changes(spec: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    """A new map: ``spec`` with one expansion's changes (a record of ``expansions.json`` maps).

    ``changed_areas`` replace the records of the same id, ``added_areas`` and ``areas`` (a side
    board) are appended, ``removed_borders`` are taken away and ``added_borders`` and ``borders``
    added. A change that does not fit (a changed area or removed border the map lacks, an added
    area or border it already has) raises ``MapChangeError``; the result is not validated here,
    ``build_board`` does that.

    >>> base = {"areas": [{"id": "a"}, {"id": "b"}], "borders": [["a", "b"]]}
    >>> new = apply_map_changes(base, {"added_areas": [{"id": "c"}], "added_borders": [["c", "b"]]})
    >>> [a["id"] for a in new["areas"]], new["borders"]
    (['a', 'b', 'c'], [['a', 'b'], ['b', 'c']])
    """
    areas = {str(a["id"]): dict(a) for a in spec["areas"]}
    for area in changes.get("changed_areas", []):
        if area["id"] not in areas:
            raise MapChangeError(f"changed area {area['id']!r} is not on the map")
        areas[area["id"]] = dict(area)
    for area in [*changes.get("added_areas", []), *changes.get("areas", [])]:
        if area["id"] in areas:
            raise MapChangeError(f"added area {area['id']!r} is already on the map")
        areas[area["id"]] = dict(area)
    borders = [_pair(b) for b in spec["borders"]]
    for border in changes.get("removed_borders", []):
        pair = _pair(border)
        if pair not in borders:
            raise MapChangeError(f"removed border {pair[0]!r} - {pair[1]!r} is not on the map")
        borders.remove(pair)
    for border in [*changes.get("added_borders", []), *changes.get("borders", [])]:
        pair = _pair(border)
        if pair in borders:
            raise MapChangeError(f"added border {pair[0]!r} - {pair[1]!r} is already on the map")
        borders.append(pair)
    new = {k: v for k, v in spec.items() if k not in ("areas", "borders", "counts")}
    new["areas"] = list(areas.values())
    new["borders"] = [list(pair) for pair in sorted(borders)]
    return new


def _for_player_counts(spec: dict[str, Any], recipe: Mapping[str, Any]) -> None:
    """Give the board its own player counts, neutral forces and impassable areas in place of
    those of the map records (the base map's are for 3 to 6 players)."""
    spec["player_counts"] = tuple(int(p) for p in recipe["player_counts"])
    by_id = {a["id"]: a for a in spec["areas"]}
    for area in spec["areas"]:
        area["neutral_force"] = {}
        area["impassable_in_player_counts"] = []
    for key, table in (
        ("neutral_force", recipe.get("neutral_forces", {})),
        ("impassable_in_player_counts", recipe.get("impassable", {})),
    ):
        for area_id, value in table.items():
            if area_id not in by_id:
                raise MapChangeError(f"{key} for {area_id!r}, which is not on the board")
            by_id[area_id][key] = value


def _place(spec: dict[str, Any], drawing: Mapping[str, Any]) -> None:
    """Give every area its drawing position on this board's own picture."""
    positions = drawing["positions"]
    aspect = float(drawing["aspect_ratio"])
    ids = {a["id"] for a in spec["areas"]}
    stray = sorted(set(positions) - ids)
    if stray:
        raise MapChangeError(f"drawing positions for areas not on the board: {stray}")
    for area in spec["areas"]:
        if area["id"] not in positions:
            raise MapChangeError(f"area {area['id']!r} has no drawing position")
        x, y = positions[area["id"]]
        if not (0.0 <= x <= 1.0 and 0.0 <= y <= aspect):
            raise MapChangeError(f"area {area['id']!r}: position {[x, y]} is off the board")
        area["position"] = [x, y]
    spec["drawing"] = {k: v for k, v in drawing.items() if k != "positions"}


def board_spec(edition: str, board: str = "base") -> dict[str, Any]:
    """The map of ``board`` (``BOARDS``) as a dict for ``build_board``: the packaged base map,
    or the base map with the board's expansion changes, player counts and drawing positions."""
    if board not in BOARDS.get(edition, ()):
        known = ", ".join(BOARDS.get(edition, ()))
        raise ValueError(f"unknown board {board!r} for the {edition} edition (known: {known})")
    spec: dict[str, Any] = load_data(edition, "map.json")
    spec.setdefault("player_counts", _PLAYER_COUNTS[edition])
    if board == "base":
        return spec
    recipe = load_data(edition, "boards.json")["boards"][board]
    maps = load_data(edition, "expansions.json")["maps"]
    for key in recipe["maps"]:
        spec = apply_map_changes(spec, maps[key])
    _for_player_counts(spec, recipe)
    _place(spec, recipe["drawing"])
    spec["houses"] = tuple(recipe["houses"])
    spec["counts"] = recipe["counts"]
    spec["title"] = recipe["title"]
    return spec


def load_board(edition: str = "2e", *, board: str = "base") -> Board:
    """The packaged board of ``edition`` ("2e" or the candidate "1e"), validated and cached.

    ``board`` picks another board of the edition (``BOARDS``): ``"mod7"``, ``"mod8"`` or
    ``"affc_eyrie_port"``; it is checked as the base map is, and against its declared counts.
    However it is asked for, each board is built once.

    >>> load_board("2e", board="mod8")
    Board('2e', 'mod8', 75 areas, 188 borders)
    >>> load_board("2e") is load_board(edition="2e", board="base")
    True
    """
    return _cached_board(edition, board)


@lru_cache(maxsize=8)
def _cached_board(edition: str, board: str) -> Board:
    return build_board(board_spec(edition, board), edition=edition, name=board)
