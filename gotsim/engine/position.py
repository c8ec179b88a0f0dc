"""Board positions as readable JSON (``gotsim.position/v1``): load and validate, dump, the starting
position, control and castles, and the battle spec of a march drawn from a position.

The format is documented field by field in ``docs/positions.md``. Every problem found at load
raises ``PositionError`` with one line that names the field, e.g.
``areas.winterfell.units.ship: ships cannot stand on land``.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np
from numpy.typing import NDArray

from gotsim.data import load_data
from gotsim.rules.board import PORT_SHIPS, Board, load_board
from gotsim.rules.cards import house_cards, house_deck
from gotsim.rules.ids import EDITIONS, AreaKind, House, OrderType, Unit
from gotsim.rules.setup import TRACKS, Setup, SetupDataError, load_setup

FORMAT = "gotsim.position/v1"
VARIANTS: tuple[str, ...] = ("tides_of_battle", "kings_court_swap")
TOP_KEYS: tuple[str, ...] = (
    "format",
    "edition",
    "players",
    "variants",
    "round",
    "phase",
    "step",
    "areas",
    "tracks",
    "blade_used",
    "raven_used",
    "power",
    "supply",
    "hands",
    "discards",
    "wildling_threat",
    "restriction",
    "impassable",
    "name",
    "description",
)
REQUIRED_KEYS: tuple[str, ...] = (
    "players",
    "round",
    "phase",
    "areas",
    "tracks",
    "power",
    "supply",
    "hands",
    "wildling_threat",
)
AREA_KEYS: tuple[str, ...] = (
    "house",
    "units",
    "routed",
    "order",
    "power_token",
    "garrison",
    "neutral_force",
    "neutral_army",
)
# Westeros deck III restriction → (order type forbidden, only this modifier or None for all).
RESTRICTIONS: Mapping[str, tuple[OrderType, int | None]] = MappingProxyType(
    {
        "no_defense": (OrderType.DEFENSE, None),
        "no_march_plus_one": (OrderType.MARCH, 1),
        "no_raid": (OrderType.RAID, None),
        "no_support": (OrderType.SUPPORT, None),
        "no_consolidate_power": (OrderType.CONSOLIDATE_POWER, None),
    }
)
SUPPLY_LEVELS = 6
WILDLING_TOP = 12


class PositionError(ValueError):
    """A position that cannot stand on the board; the one-line message names the field."""


class Phase(IntEnum):
    """The phase of a game round."""

    WESTEROS = 0
    PLANNING = 1
    ACTION = 2

    @property
    def id(self) -> str:
        return self.name.lower()


class ActionStep(IntEnum):
    """The step of the action phase: orders resolve raids first, then marches, then power."""

    RAID = 0
    MARCH = 1
    CONSOLIDATE_POWER = 2

    @property
    def id(self) -> str:
        return self.name.lower()


# Orders of these types are gone from the board once the action phase reaches the step.
RESOLVED_BEFORE: Mapping[ActionStep, tuple[OrderType, ...]] = MappingProxyType(
    {
        ActionStep.RAID: (),
        ActionStep.MARCH: (OrderType.RAID,),
        ActionStep.CONSOLIDATE_POWER: (OrderType.RAID, OrderType.MARCH),
    }
)


@dataclass(frozen=True)
class OrderToken:
    """One kind of order token, named as in battle specs (``march+1``, ``raid*``)."""

    name: str
    kind: OrderType
    modifier: int
    special: bool  # a star order, limited by the King's Court position
    count: int  # tokens of this kind each house owns


@lru_cache(maxsize=2)
def order_tokens(edition: str = "2e") -> Mapping[str, OrderToken]:
    """The order tokens of one house by name.

    The 1st edition has the same fifteen tokens (rules digest §1.9), so both editions read
    ``gotsim/data/2e/orders.json``.

    >>> tokens = order_tokens("2e")
    >>> tokens["defense+1"].count, tokens["raid*"].special, sum(t.count for t in tokens.values())
    (2, True, 15)
    """
    if edition not in EDITIONS:
        raise PositionError(f"edition: unknown edition {edition!r}")
    out: dict[str, OrderToken] = {}
    for record in load_data("2e", "orders.json")["tokens"]:
        kind = OrderType.from_id(record["type"])
        modifier = int(record["modifier"])
        special = bool(record["special"])
        if kind in (OrderType.MARCH, OrderType.DEFENSE, OrderType.SUPPORT):
            name = f"{kind.id}{modifier:+d}"
        else:
            name = kind.id + ("*" if special else "")
        out[name] = OrderToken(name, kind, modifier, special, int(record["count"]))
    return MappingProxyType(out)


def _forbidden_by(restriction: str | None, token: OrderToken) -> bool:
    if restriction is None:
        return False
    kind, modifier = RESTRICTIONS[restriction]
    return token.kind == kind and (modifier is None or token.modifier == modifier)


UnitCounts = Mapping[Unit, int]


@dataclass(frozen=True, repr=False)
class Position:
    """A validated board position. Area-keyed mappings list only areas where something stands.

    ``occupants`` names the house whose units (standing or routed) are in an area; ``units`` and
    ``routed`` hold their counts. Build one with ``load_position`` or ``starting_position``.

    >>> p = starting_position("2e", 6)
    >>> p.occupants["winterfell"].id, dict(p.units["winterfell"]), p.garrisons["winterfell"]
    ('stark', {<Unit.FOOTMAN: 0>: 1, <Unit.KNIGHT: 1>: 1}, 2)
    """

    edition: str
    players: int
    houses: tuple[House, ...]  # houses in play, in setup order
    variants: Mapping[str, bool]  # every key of VARIANTS
    round: int
    phase: Phase
    step: ActionStep | None
    occupants: Mapping[str, House]
    units: Mapping[str, UnitCounts]  # standing units
    routed: Mapping[str, UnitCounts]
    orders: Mapping[str, str]  # area → order token name
    power_tokens: Mapping[str, House]
    garrisons: Mapping[str, int]
    neutral_forces: Mapping[str, int]
    neutral_armies: Mapping[str, UnitCounts]  # 1e: units of absent houses that stay neutral
    impassable: tuple[str, ...]
    tracks: Mapping[str, tuple[House, ...]]  # track id → houses top to bottom
    blade_used: bool
    raven_used: bool
    power: Mapping[House, int]  # power tokens in hand
    supply: Mapping[House, int]
    hands: Mapping[House, tuple[str, ...]]  # card ids in deck order
    discards: Mapping[House, tuple[str, ...]]
    wildling_threat: int
    restriction: str | None
    name: str = ""  # free text
    description: str = ""

    def __repr__(self) -> str:
        step = f"/{self.step.id}" if self.step is not None else ""
        return (
            f"Position({self.edition!r}, {self.players} players, round {self.round}, "
            f"{self.phase.id}{step})"
        )

    @property
    def board(self) -> Board:
        return load_board(self.edition)

    @property
    def setup(self) -> Setup:
        return load_setup(self.edition, self.players)

    def to_dict(self) -> dict[str, Any]:
        """The position as a JSON-ready dict (same as ``dump_position``)."""
        return dump_position(self)

    def to_json(self) -> str:
        """The position as JSON text: one line per area, track, house hand."""
        return _json_text(dump_position(self)) + "\n"

    def unit_table(self, *, routed: bool = False) -> NDArray[np.int16]:
        """Units (or routed units) as an array of shape (A, H, U), areas in board order."""
        board = self.board
        table = np.zeros((board.n_areas, len(House), len(Unit)), np.int16)
        for area, counts in (self.routed if routed else self.units).items():
            for unit, n in counts.items():
                table[board.index(area), self.occupants[area], unit] = n
        return table


# --- loading ---------------------------------------------------------------------------------


def _fail(where: str, message: str) -> PositionError:
    return PositionError(f"{where}: {message}" if where else message)


def _hint(value: object, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(str(value), list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _check_keys(obj: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
    for key in obj:
        if key not in allowed:
            raise _fail(f"{where}{key}", f"unknown field{_hint(key, allowed)}")


def _object(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _fail(where, f"must be an object, got {type(value).__name__}")
    return value


def _int(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(where, f"must be a whole number from {low} to {high}, got {value!r}")
    return value


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(where, f"must be true or false, got {value!r}")
    return value


def _read_spec(source: Mapping[str, Any] | str | Path) -> Mapping[str, Any]:
    if isinstance(source, Path) or (
        isinstance(source, str) and not source.lstrip().startswith("{")
    ):
        try:
            text = Path(source).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise PositionError(f"{source}: no such position file") from None
        except OSError as exc:
            raise PositionError(f"{source}: cannot read ({exc.strerror})") from None
        where = str(source)
    elif isinstance(source, str):
        text, where = source, "position"
    else:
        return _object(source, "position")
    try:
        return _object(json.loads(text), "position")
    except json.JSONDecodeError as exc:
        raise PositionError(f"{where}: not valid JSON ({exc.msg} at line {exc.lineno})") from None


class _Reader:
    """Validates one position dict field by field; ``position()`` returns the result."""

    def __init__(self, spec: Mapping[str, Any]) -> None:
        _check_keys(spec, TOP_KEYS, "")
        for key in REQUIRED_KEYS:
            if key not in spec:
                raise _fail(key, "required")
        self.spec = spec
        fmt = spec.get("format", FORMAT)
        if fmt != FORMAT:
            raise _fail("format", f"must be {FORMAT!r}, got {fmt!r}")
        edition = spec.get("edition", "2e")
        if edition not in EDITIONS:
            raise _fail(
                "edition",
                f"unknown edition {edition!r} (known: {', '.join(EDITIONS)})"
                f"{_hint(edition, EDITIONS)}",
            )
        self.edition: str = edition
        self.board = load_board(edition)
        players = spec["players"]
        counts = self.board.player_counts()
        if isinstance(players, bool) or not isinstance(players, int) or players not in counts:
            known = ", ".join(str(n) for n in counts)
            raise _fail("players", f"{edition} has setups for {known} players, got {players!r}")
        self.players: int = players
        try:
            self.setup = load_setup(edition, players)
        except SetupDataError as exc:  # pragma: no cover - packaged data is validated
            raise _fail("players", str(exc)) from None
        self.houses = self.setup.houses
        self.deck_order = {c.id: i for i, c in enumerate(house_cards(edition))}

    # -- small field readers

    def house(self, value: Any, where: str) -> House:
        if not isinstance(value, str):
            raise _fail(where, f"must be a house id, got {value!r}")
        try:
            house = House.from_id(value)
        except ValueError:
            ids = [h.id for h in House]
            raise _fail(where, f"unknown house {value!r}{_hint(value, ids)}") from None
        if house not in self.houses:
            raise _fail(where, f"{house.id} is not in play with {self.players} players")
        return house

    def per_house(self, key: str, *, required: bool = True) -> dict[House, Any]:
        raw = _object(self.spec.get(key, {}), key)
        out: dict[House, Any] = {}
        for name, value in raw.items():
            out[self.house(name, f"{key}.{name}")] = value
        if required:
            for house in self.houses:
                if house not in out:
                    raise _fail(f"{key}.{house.id}", "required (a house in play)")
        return out

    def unit_counts(self, value: Any, where: str, area: int) -> dict[Unit, int]:
        out: dict[Unit, int] = {}
        kind = self.board.kind[area]
        for key, n in _object(value, where).items():
            try:
                unit = Unit.from_id(key)
            except ValueError:
                ids = [u.id for u in Unit]
                raise _fail(f"{where}.{key}", f"unknown unit type{_hint(key, ids)}") from None
            n = _int(n, f"{where}.{key}", 0, 99)
            if n == 0:
                continue
            if unit == Unit.SHIP and kind == AreaKind.LAND:
                raise _fail(f"{where}.{key}", "ships cannot stand on land")
            if unit != Unit.SHIP and kind == AreaKind.SEA:
                raise _fail(f"{where}.{key}", "land units cannot stand at sea")
            if unit != Unit.SHIP and kind == AreaKind.PORT:
                raise _fail(f"{where}.{key}", "land units cannot stand in a port")
            out[unit] = n
        return {u: out[u] for u in sorted(out)}

    # -- the whole position

    def position(self) -> Position:
        spec = self.spec
        variants = self.variants()
        round_ = _int(spec["round"], "round", 1, self.setup.max_rounds)
        phase, step = self.phase()
        if round_ == 1 and phase == Phase.WESTEROS:
            raise _fail("phase", "round 1 has no westeros phase")
        restriction = spec.get("restriction")
        if restriction is not None and restriction not in RESTRICTIONS:
            raise _fail(
                "restriction",
                f"unknown restriction {restriction!r} (known: null, {', '.join(RESTRICTIONS)})"
                f"{_hint(restriction, RESTRICTIONS)}",
            )
        blade_used = _bool(spec.get("blade_used", False), "blade_used")
        if blade_used and phase != Phase.ACTION:
            raise _fail("blade_used", "the blade is used in combat, in the action phase only")
        raven_used = _bool(spec.get("raven_used", False), "raven_used")
        if raven_used and phase == Phase.WESTEROS:
            raise _fail("raven_used", "the raven is used after orders are revealed")
        threat = _int(spec["wildling_threat"], "wildling_threat", 0, WILDLING_TOP)
        if threat % 2:
            raise _fail("wildling_threat", f"must be an even number from 0 to 12, got {threat}")
        tracks = self.tracks()
        power = {
            h: _int(v, f"power.{h.id}", 0, self.setup.power_total[h])
            for h, v in self.per_house("power").items()
        }
        supply = {
            h: _int(v, f"supply.{h.id}", 0, SUPPLY_LEVELS)
            for h, v in self.per_house("supply").items()
        }
        hands, discards = self.cards()
        impassable = self.impassable()
        areas = self.areas(phase, set(impassable))
        position = Position(
            edition=self.edition,
            players=self.players,
            houses=self.houses,
            variants=MappingProxyType(variants),
            round=round_,
            phase=phase,
            step=step,
            occupants=MappingProxyType(areas["occupants"]),
            units=_frozen_counts(areas["units"]),
            routed=_frozen_counts(areas["routed"]),
            orders=MappingProxyType(areas["orders"]),
            power_tokens=MappingProxyType(areas["power_tokens"]),
            garrisons=MappingProxyType(areas["garrisons"]),
            neutral_forces=MappingProxyType(areas["neutral_forces"]),
            neutral_armies=_frozen_counts(areas["neutral_armies"]),
            impassable=impassable,
            tracks=MappingProxyType(tracks),
            blade_used=blade_used,
            raven_used=raven_used,
            power=MappingProxyType(_in_order(power, self.houses)),
            supply=MappingProxyType(_in_order(supply, self.houses)),
            hands=MappingProxyType(hands),
            discards=MappingProxyType(discards),
            wildling_threat=threat,
            restriction=restriction,
            name=self.text("name"),
            description=self.text("description"),
        )
        _check_board(position, self.setup)
        return position

    def text(self, key: str) -> str:
        value = self.spec.get(key, "")
        if not isinstance(value, str):
            raise _fail(key, f"must be a string, got {type(value).__name__}")
        return value

    def variants(self) -> dict[str, bool]:
        raw = _object(self.spec.get("variants", {}), "variants")
        _check_keys(raw, VARIANTS, "variants.")
        out = {key: _bool(raw.get(key, False), f"variants.{key}") for key in VARIANTS}
        if out["kings_court_swap"] and not {House.TYRELL, House.GREYJOY} <= set(self.houses):
            raise _fail(
                "variants.kings_court_swap", "needs both Tyrell and Greyjoy in play to swap"
            )
        return out

    def phase(self) -> tuple[Phase, ActionStep | None]:
        raw = self.spec["phase"]
        ids = [p.id for p in Phase]
        if raw not in ids:
            raise _fail("phase", f"must be one of {', '.join(ids)}, got {raw!r}{_hint(raw, ids)}")
        phase = Phase[raw.upper()]
        raw_step = self.spec.get("step")
        if raw_step is None:
            return phase, None
        if phase != Phase.ACTION:
            raise _fail("step", f"a step is given only in the action phase, not {phase.id}")
        steps = [s.id for s in ActionStep]
        if raw_step not in steps:
            raise _fail(
                "step",
                f"must be one of {', '.join(steps)}, got {raw_step!r}{_hint(raw_step, steps)}",
            )
        return phase, ActionStep[raw_step.upper()]

    def tracks(self) -> dict[str, tuple[House, ...]]:
        raw = _object(self.spec["tracks"], "tracks")
        _check_keys(raw, TRACKS, "tracks.")
        out: dict[str, tuple[House, ...]] = {}
        for track in TRACKS:
            where = f"tracks.{track}"
            if track not in raw:
                raise _fail(where, "required")
            order = raw[track]
            if not isinstance(order, list):
                raise _fail(where, "must be a list of house ids, top to bottom")
            houses = [self.house(h, f"{where}[{i}]") for i, h in enumerate(order)]
            for i, house in enumerate(houses):
                if house in houses[:i]:
                    raise _fail(f"{where}[{i}]", f"lists {house.id} twice")
            missing = [h.id for h in self.houses if h not in houses]
            if missing:
                raise _fail(where, f"must list every house in play; missing {', '.join(missing)}")
            out[track] = tuple(houses)
        return out

    def cards(self) -> tuple[dict[House, tuple[str, ...]], dict[House, tuple[str, ...]]]:
        hands_raw = self.per_house("hands")
        discards_raw = self.per_house("discards", required=False)
        hands: dict[House, tuple[str, ...]] = {}
        discards: dict[House, tuple[str, ...]] = {}
        for house in self.houses:
            deck = [c.id for c in house_deck(self.edition, house)]
            seen: dict[str, str] = {}
            for key, raw in (("hands", hands_raw[house]), ("discards", discards_raw.get(house))):
                where = f"{key}.{house.id}"
                if raw is None:
                    continue
                if not isinstance(raw, list):
                    raise _fail(where, "must be a list of house card ids")
                for i, card in enumerate(raw):
                    if not isinstance(card, str) or card not in self.deck_order:
                        raise _fail(f"{where}[{i}]", f"unknown card {card!r}{_hint(card, deck)}")
                    if card not in deck:
                        raise _fail(f"{where}[{i}]", f"{card!r} is not a {house.id} house card")
                    if card in seen:
                        other = "the hand" if seen[card] == "hands" else "the discards"
                        raise _fail(f"{where}[{i}]", f"{card!r} is already in {other}")
                    seen[card] = key
            missing = [c for c in deck if c not in seen]
            if missing:
                raise _fail(
                    f"hands.{house.id}",
                    f"cards neither in hand nor discarded: {', '.join(missing)}",
                )
            hand = tuple(c for c in deck if seen[c] == "hands")
            if not hand:
                raise _fail(f"hands.{house.id}", "a hand is never empty (discards come back)")
            hands[house] = hand
            discards[house] = tuple(c for c in deck if seen[c] == "discards")
        return hands, discards

    def impassable(self) -> tuple[str, ...]:
        expected = tuple(a for a in self.board.area_ids if a in set(self.setup.impassable))
        raw = self.spec.get("impassable")
        if raw is None:
            return expected
        if not isinstance(raw, list):
            raise _fail("impassable", "must be a list of area ids")
        for i, area in enumerate(raw):
            if area not in self.board.area_index:
                raise _fail(
                    f"impassable[{i}]", f"unknown area {area!r}{_hint(area, self.board.area_ids)}"
                )
            if area not in expected:
                raise _fail(
                    f"impassable[{i}]",
                    f"{area!r} is not impassable with {self.players} players",
                )
        missing = [a for a in expected if a not in raw]
        if missing:
            raise _fail(
                "impassable",
                f"with {self.players} players these areas are impassable too: {', '.join(missing)}",
            )
        return expected

    def areas(self, phase: Phase, impassable: set[str]) -> dict[str, dict[str, Any]]:
        raw = _object(self.spec["areas"], "areas")
        board = self.board
        out: dict[str, dict[str, Any]] = {
            key: {}
            for key in (
                "occupants",
                "units",
                "routed",
                "orders",
                "power_tokens",
                "garrisons",
                "neutral_forces",
                "neutral_armies",
            )
        }
        tokens = order_tokens(self.edition)
        for area_id in sorted(raw, key=lambda a: board.area_index.get(a, -1)):
            where = f"areas.{area_id}"
            if area_id not in board.area_index:
                raise _fail(where, f"unknown area{_hint(area_id, board.area_ids)}")
            record = _object(raw[area_id], where)
            _check_keys(record, AREA_KEYS, f"{where}.")
            if not record:
                raise _fail(where, "empty area record (leave empty areas out)")
            if area_id in impassable:
                raise _fail(where, f"{area_id} cannot be entered with {self.players} players")
            i = board.index(area_id)
            units = self.unit_counts(record.get("units", {}), f"{where}.units", i)
            routed = self.unit_counts(record.get("routed", {}), f"{where}.routed", i)
            occupant: House | None = None
            if "house" in record:
                value = record["house"]
                if isinstance(value, list):
                    raise _fail(f"{where}.house", "units of two houses cannot share an area")
                occupant = self.house(value, f"{where}.house")
                if not units and not routed:
                    raise _fail(f"{where}.house", f"no {occupant.id} units stand here")
            elif units:
                raise _fail(f"{where}.house", "required where units stand (whose units?)")
            elif routed:
                raise _fail(f"{where}.routed", "routed units need their house's area ('house')")
            if routed and phase != Phase.ACTION:
                raise _fail(f"{where}.routed", "units are routed only during the action phase")
            if occupant is not None:
                out["occupants"][area_id] = occupant
                if units:
                    out["units"][area_id] = units
                if routed:
                    out["routed"][area_id] = routed
            if "order" in record:
                order = record["order"]
                if not isinstance(order, str) or order not in tokens:
                    raise _fail(
                        f"{where}.order",
                        f"unknown order {order!r} (known: {', '.join(tokens)})"
                        f"{_hint(order, tokens)}",
                    )
                if occupant is None or not units:
                    raise _fail(f"{where}.order", "an order needs units of its house here")
                if phase == Phase.WESTEROS:
                    raise _fail(f"{where}.order", "no orders stand in the westeros phase")
                out["orders"][area_id] = order
            if "power_token" in record:
                token = self.house(record["power_token"], f"{where}.power_token")
                if board.kind[i] != AreaKind.LAND:
                    raise _fail(f"{where}.power_token", "power tokens stand on land areas only")
                if occupant is not None and occupant != token:
                    raise _fail(
                        f"{where}.power_token",
                        f"a {token.id} power token cannot stand with {occupant.id} units",
                    )
                out["power_tokens"][area_id] = token
            if "garrison" in record:
                token_house = out["power_tokens"].get(area_id)
                out["garrisons"][area_id] = self.garrison(record, area_id, occupant, token_house)
            if "neutral_force" in record:
                out["neutral_forces"][area_id] = self.neutral_force(record, area_id)
            if "neutral_army" in record:
                out["neutral_armies"][area_id] = self.neutral_army(record, area_id)
        return out

    def garrison(
        self,
        record: Mapping[str, Any],
        area_id: str,
        occupant: House | None,
        token: House | None,
    ) -> int:
        where = f"areas.{area_id}.garrison"
        strength = _int(record["garrison"], where, 1, 9)
        if area_id not in self.setup.garrisons:
            if self.board.home[self.board.index(area_id)] < 0:
                raise _fail(where, f"{area_id} is not a home area")
            raise _fail(where, f"{area_id} has no garrison with {self.players} players")
        house, printed = self.setup.garrisons[area_id]
        if strength != printed:
            raise _fail(where, f"the {house.id} garrison has strength {printed}, got {strength}")
        for other, what in ((occupant, "units"), (token, "power token")):
            if other is not None and other != house:
                raise _fail(
                    where, f"the {house.id} garrison is removed once {other.id} {what} stand here"
                )
        return strength

    def neutral_force(self, record: Mapping[str, Any], area_id: str) -> int:
        where = f"areas.{area_id}.neutral_force"
        strength = _int(record["neutral_force"], where, 1, 20)
        printed = self.setup.neutral_forces.get(area_id)
        if printed is None:
            raise _fail(where, f"no neutral force starts in {area_id} with {self.players} players")
        if strength != printed:
            raise _fail(where, f"the token in {area_id} has strength {printed}, got {strength}")
        for key in ("house", "power_token", "neutral_army"):
            if key in record:
                raise _fail(where, f"a neutral force cannot share its area ({key} given)")
        return strength

    def neutral_army(self, record: Mapping[str, Any], area_id: str) -> dict[Unit, int]:
        where = f"areas.{area_id}.neutral_army"
        start = self.setup.neutral_armies.get(area_id)
        if start is None:
            raise _fail(
                where,
                f"no neutral army starts in {area_id} ({self.edition}, {self.players} players)",
            )
        units = self.unit_counts(record["neutral_army"], where, self.board.index(area_id))
        if not units:
            raise _fail(where, "a neutral army needs at least one unit")
        for unit, n in units.items():
            if n > start.get(unit, 0):
                raise _fail(f"{where}.{unit.id}", f"only {start.get(unit, 0)} start here")
        for key in ("house", "power_token"):
            if key in record:
                raise _fail(where, f"a neutral army cannot share its area ({key} given)")
        return units


def _in_order(values: Mapping[House, Any], houses: tuple[House, ...]) -> dict[House, Any]:
    return {h: values[h] for h in houses}


def _frozen_counts(table: Mapping[str, Mapping[Unit, int]]) -> Mapping[str, UnitCounts]:
    return MappingProxyType({a: MappingProxyType(dict(c)) for a, c in table.items()})


def _armies_fit(armies: list[int], allowed: tuple[int, ...]) -> bool:
    """Whether armies (sizes of 2+) fit a supply level's allowed sizes.

    >>> _armies_fit([3, 2], (3, 2)), _armies_fit([3, 3], (3, 2)), _armies_fit([2, 2, 2], (3, 2))
    (True, False, False)
    """
    got = sorted(armies, reverse=True)
    cap = sorted(allowed, reverse=True)
    return len(got) <= len(cap) and all(a <= b for a, b in zip(got, cap, strict=False))


def _check_board(p: Position, setup: Setup) -> None:
    """Cross-area rules: ports, unit limits, order tokens and stars, power, supply."""
    board = p.board
    held = control(p)
    tokens = order_tokens(p.edition)
    for area, house in p.occupants.items():
        i = board.index(area)
        if board.kind[i] != AreaKind.PORT:
            continue
        ships = p.units.get(area, {}).get(Unit.SHIP, 0) + p.routed.get(area, {}).get(Unit.SHIP, 0)
        if ships > PORT_SHIPS:
            raise _fail(f"areas.{area}.units.ship", f"a port holds at most {PORT_SHIPS} ships")
        land = board.area_ids[board.port_land[i]]
        owner = held.get(land)
        if owner is not None and owner != house:
            raise _fail(
                f"areas.{area}.house",
                f"{house.id} ships cannot stay in {area} while {owner.id} controls {land}",
            )
    for area, name in p.orders.items():
        token = tokens[name]
        if _forbidden_by(p.restriction, token):
            raise _fail(
                f"areas.{area}.order",
                f"{name!r} is forbidden this round (restriction {p.restriction})",
            )
        if p.step is not None and token.kind in RESOLVED_BEFORE[p.step]:
            raise _fail(
                f"areas.{area}.order",
                f"{token.kind.id} orders are all resolved before the {p.step.id} step",
            )
    for house in p.houses:
        areas = [a for a in board.area_ids if p.occupants.get(a) == house]
        for unit in Unit:
            where = [
                a for a in areas if p.units.get(a, {}).get(unit) or p.routed.get(a, {}).get(unit)
            ]
            total = sum(
                p.units.get(a, {}).get(unit, 0) + p.routed.get(a, {}).get(unit, 0) for a in where
            )
            limit = setup.unit_limits[house][unit]
            if total > limit:
                raise _fail(
                    f"areas.{where[-1]}.units.{unit.id}",
                    f"{house.id} has {total} {unit.id} units on the board, its limit is {limit}",
                )
        placed = [a for a in areas if a in p.orders]
        for name, token in tokens.items():
            using = [a for a in placed if p.orders[a] == name]
            if len(using) > token.count:
                raise _fail(
                    f"areas.{using[-1]}.order",
                    f"{house.id} has {len(using)} {name!r} orders on the board but only "
                    f"{token.count} such tokens",
                )
        stars = [a for a in placed if tokens[p.orders[a]].special]
        rank = p.tracks["kings_court"].index(house)
        # checked while orders are placed; in the action phase Doran Martell may since have
        # moved the house down King's Court
        if p.phase.id == "planning" and len(stars) > setup.stars[rank]:
            raise _fail(
                f"areas.{stars[-1]}.order",
                f"{house.id} has {len(stars)} special orders but King's Court position "
                f"{rank + 1} allows {setup.stars[rank]}",
            )
        on_board = sum(1 for h in p.power_tokens.values() if h == house)
        if p.power[house] + on_board > setup.power_total[house]:
            raise _fail(
                f"power.{house.id}",
                f"{p.power[house]} in hand and {on_board} power tokens on the board exceed "
                f"{house.id}'s {setup.power_total[house]} tokens",
            )
        armies = []
        for area in areas:
            size = sum(p.units.get(area, {}).values()) + sum(p.routed.get(area, {}).values())
            if size >= 2:
                armies.append(size)
        allowed = setup.supply_table[p.supply[house]]
        if not _armies_fit(armies, allowed):
            sizes = ", ".join(str(n) for n in sorted(armies, reverse=True))
            raise _fail(
                f"supply.{house.id}",
                f"{house.id}'s armies ({sizes}) exceed supply level {p.supply[house]}, which "
                f"allows {', '.join(map(str, allowed))}",
            )


def load_position(source: Mapping[str, Any] | str | Path) -> Position:
    """Validate a position (a dict, JSON text, or a path to a JSON file) into a ``Position``.

    >>> p = load_position(dump_position(starting_position("2e", 3)))
    >>> p.players, [h.id for h in p.houses]
    (3, ['baratheon', 'lannister', 'stark'])
    >>> load_position('{"players": 7}')
    Traceback (most recent call last):
    ...
    gotsim.engine.position.PositionError: round: required
    """
    return _Reader(_read_spec(source)).position()


# --- dumping ---------------------------------------------------------------------------------


def _counts_out(counts: Mapping[Unit, int]) -> dict[str, int]:
    return {u.id: counts[u] for u in sorted(counts)}


def dump_position(position: Position) -> dict[str, Any]:
    """The position as a JSON-ready dict; ``load_position`` reads it back to an equal position."""
    p = position
    areas: dict[str, dict[str, Any]] = {}
    for area in p.board.area_ids:
        record: dict[str, Any] = {}
        if area in p.occupants:
            record["house"] = p.occupants[area].id
        if area in p.units:
            record["units"] = _counts_out(p.units[area])
        if area in p.routed:
            record["routed"] = _counts_out(p.routed[area])
        if area in p.orders:
            record["order"] = p.orders[area]
        if area in p.power_tokens:
            record["power_token"] = p.power_tokens[area].id
        if area in p.garrisons:
            record["garrison"] = p.garrisons[area]
        if area in p.neutral_forces:
            record["neutral_force"] = p.neutral_forces[area]
        if area in p.neutral_armies:
            record["neutral_army"] = _counts_out(p.neutral_armies[area])
        if record:
            areas[area] = record
    out: dict[str, Any] = {"format": FORMAT}
    out.update({key: getattr(p, key) for key in ("name", "description") if getattr(p, key)})
    out.update(
        {
            "edition": p.edition,
            "players": p.players,
            "variants": dict(p.variants),
            "round": p.round,
            "phase": p.phase.id,
        }
    )
    if p.step is not None:
        out["step"] = p.step.id
    out.update(
        {
            "areas": areas,
            "tracks": {t: [h.id for h in p.tracks[t]] for t in TRACKS},
            "blade_used": p.blade_used,
            "raven_used": p.raven_used,
            "power": {h.id: n for h, n in p.power.items()},
            "supply": {h.id: n for h, n in p.supply.items()},
            "hands": {h.id: list(cards) for h, cards in p.hands.items()},
            "discards": {h.id: list(cards) for h, cards in p.discards.items()},
            "wildling_threat": p.wildling_threat,
            "restriction": p.restriction,
            "impassable": list(p.impassable),
        }
    )
    return out


def _json_text(value: Any, depth: int = 0) -> str:
    """JSON with the top level and long second-level objects one entry per line."""
    inline = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, dict) or not value or depth > 1 or (depth == 1 and len(inline) < 96):
        return inline
    pad = " " * (depth + 1)
    lines = [f"{pad}{json.dumps(k)}: {_json_text(v, depth + 1)}" for k, v in value.items()]
    return "{\n" + ",\n".join(lines) + "\n" + " " * depth + "}"


# --- the starting position -------------------------------------------------------------------


def starting_position(
    edition: str = "2e", players: int = 6, *, kings_court_swap: bool = False
) -> Position:
    """The position at the start of round 1 (planning phase), built from ``load_setup``.

    >>> p = starting_position("2e", 4)
    >>> p.neutral_forces["storms_end"], p.power[House.STARK], p.wildling_threat
    (4, 5, 2)
    """
    setup = load_setup(edition, players, kings_court_swap=kings_court_swap)
    board = load_board(edition)
    occupants: dict[str, House] = {}
    units: dict[str, dict[Unit, int]] = {}
    for house in setup.houses:
        for area, counts in setup.units[house].items():
            occupants[area] = house
            units[area] = {u: counts[u] for u in sorted(counts) if counts[u]}

    def by_board(table: Mapping[str, Any]) -> dict[str, Any]:
        return {a: table[a] for a in board.area_ids if a in table}

    return Position(
        edition=edition,
        players=players,
        houses=setup.houses,
        variants=MappingProxyType({"tides_of_battle": False, "kings_court_swap": kings_court_swap}),
        round=1,
        phase=Phase.PLANNING,
        step=None,
        occupants=MappingProxyType(by_board(occupants)),
        units=_frozen_counts(by_board(units)),
        routed=MappingProxyType({}),
        orders=MappingProxyType({}),
        power_tokens=MappingProxyType({}),
        garrisons=MappingProxyType(by_board({a: s for a, (_, s) in setup.garrisons.items()})),
        neutral_forces=MappingProxyType(by_board(setup.neutral_forces)),
        neutral_armies=_frozen_counts(by_board(setup.neutral_armies)),
        impassable=tuple(a for a in board.area_ids if a in set(setup.impassable)),
        tracks=MappingProxyType({t: setup.tracks[t] for t in TRACKS}),
        blade_used=False,
        raven_used=False,
        power=MappingProxyType({h: setup.power[h] for h in setup.houses}),
        supply=MappingProxyType({h: setup.supply[h] for h in setup.houses}),
        hands=MappingProxyType(
            {h: tuple(c.id for c in house_deck(edition, h)) for h in setup.houses}
        ),
        discards=MappingProxyType({h: () for h in setup.houses}),
        wildling_threat=setup.wildling_threat,
        restriction=None,
    )


# --- control ---------------------------------------------------------------------------------


def control(position: Position) -> dict[str, House]:
    """Who controls each area: the house whose units stand there, else the house whose power
    token stands there, else (for a home area of a house in play) that house. Areas nobody
    controls are left out.

    >>> held = control(starting_position("2e", 6))
    >>> held["pyke"].id, held["the_golden_sound"].id, "kings_landing" in held
    ('greyjoy', 'lannister', False)
    """
    p = position
    board = p.board
    out: dict[str, House] = {}
    for i, area in enumerate(board.area_ids):
        if area in p.occupants:
            out[area] = p.occupants[area]
        elif area in p.power_tokens:
            out[area] = p.power_tokens[area]
        elif (
            board.home[i] >= 0
            and House(int(board.home[i])) in p.houses
            and area not in p.neutral_forces
            and area not in p.neutral_armies
        ):
            out[area] = House(int(board.home[i]))
    return out


def castles_held(position: Position) -> dict[House, int]:
    """Castles and strongholds each house in play controls (the victory count).

    >>> castles_held(starting_position("2e", 6))[House.LANNISTER]
    1
    """
    board = position.board
    out = {h: 0 for h in position.houses}
    for area, house in control(position).items():
        if board.victory_area[board.index(area)]:
            out[house] += 1
    return out


# --- battles ---------------------------------------------------------------------------------


def _house_arg(value: House | str, where: str, position: Position) -> House:
    if isinstance(value, House):
        house = value
    else:
        try:
            house = House.from_id(str(value))
        except ValueError:
            ids = [h.id for h in House]
            raise _fail(where, f"unknown house {value!r}{_hint(value, ids)}") from None
    if house not in position.houses:
        raise _fail(where, f"{house.id} is not in play")
    return house


def _area_arg(value: str, where: str, board: Board) -> int:
    if value not in board.area_index:
        raise _fail(where, f"unknown area {value!r}{_hint(value, board.area_ids)}")
    return board.index(value)


def _can_reach(p: Position, house: House, start: int, target: int, ships: bool) -> bool:
    """Whether units marching from ``start`` can enter ``target``: next door, or for land units
    along a chain of seas holding the house's ships."""
    board = p.board
    if board.adjacency[start, target]:
        return True
    if ships:
        return False
    seen: set[int] = set()
    frontier = [
        int(j) for j in np.flatnonzero(board.adjacency[start]) if board.kind[j] == AreaKind.SEA
    ]
    while frontier:
        sea = frontier.pop()
        area = board.area_ids[sea]
        if sea in seen or p.occupants.get(area) != house:
            continue
        seen.add(sea)
        if board.adjacency[sea, target]:
            return True
        frontier.extend(
            int(j) for j in np.flatnonzero(board.adjacency[sea]) if board.kind[j] == AreaKind.SEA
        )
    return False


def battle_from_position(
    position: Position,
    area: str,
    *,
    attacker: House | str,
    from_area: str,
    units: Mapping[str, int] | Mapping[Unit, int] | None = None,
    support: Mapping[str, str] | Mapping[House, str] | None = None,
) -> dict[str, Any]:
    """The battle spec (``docs/combat.md``) of ``attacker`` marching from ``from_area`` into
    ``area`` in this position.

    ``units`` defaults to every standing unit in ``from_area``. Support orders next to ``area``
    back their own house when it fights; a third house's support counts only if ``support``
    names a side for it (``{"greyjoy": "attacker"}``); ``"none"`` keeps a house out.

    >>> spec = battle_from_position(starting_position("2e", 6), "kings_landing",
    ...     attacker="baratheon", from_area="kingswood")
    Traceback (most recent call last):
    ...
    gotsim.engine.position.PositionError: from_area: kingswood holds no baratheon march order
    """
    p = position
    board = p.board
    house = _house_arg(attacker, "attacker", p)
    target = _area_arg(area, "area", board)
    start = _area_arg(from_area, "from_area", board)
    if p.occupants.get(from_area) != house or from_area not in p.units:
        raise _fail("from_area", f"no standing {house.id} units in {from_area}")
    order = p.orders.get(from_area, "")
    if not order.startswith("march"):
        raise _fail("from_area", f"{from_area} holds no {house.id} march order")
    if target == start:
        raise _fail("area", "units march out of from_area into another area")
    if area in p.impassable:
        raise _fail("area", f"{area} cannot be entered with {p.players} players")
    marching = _marching_units(p, from_area, units)
    ships = Unit.SHIP in marching
    if board.kind[target] == AreaKind.PORT:
        raise _fail("area", "ships enter only their own house's ports: no battle in a port")
    if ships != (board.kind[target] == AreaKind.SEA):
        what = "ships" if ships else "land units"
        raise _fail("area", f"{what} cannot march into {area}")
    if not _can_reach(p, house, start, target, ships):
        raise _fail("area", f"{house.id} units in {from_area} cannot reach {area}")

    defender, defender_spec = _defender(p, area, house)
    sides = _support_sides(p, area, house, defender, support)
    supporters = []
    for j in np.flatnonzero(board.adjacency[target]):
        source = board.area_ids[j]
        token = order_tokens(p.edition).get(p.orders.get(source, ""))
        if token is None or token.kind != OrderType.SUPPORT or source not in p.units:
            continue
        if board.kind[j] == AreaKind.LAND and board.kind[target] != AreaKind.LAND:
            continue  # land units cannot support into a sea
        if board.kind[j] == AreaKind.PORT and board.port_land[j] == target:
            continue  # a port supports into its sea only
        side = sides.get(p.occupants[source], "none")
        if side != "none":
            supporters.append(
                {
                    "house": p.occupants[source].id,
                    "side": side,
                    "units": _counts_out(p.units[source]),
                    "order": token.name,
                }
            )
    named = {h for h, s in sides.items() if s != "none"} | {house}
    for h in named - {house, defender}:
        if not any(s["house"] == h.id for s in supporters):
            raise _fail(f"support.{h.id}", f"no {h.id} support order can reach {area}")

    attacker_spec: dict[str, Any] = {
        "house": house.id,
        "units": _counts_out(marching),
        "order": order,
        "power": p.power[house],
    }
    if defender is not None:
        attacker_spec["hand"] = list(p.hands[house])
        attacker_spec["discards"] = list(p.discards[house])
    fiefdoms = p.tracks["fiefdoms"]
    return {
        "name": f"{house.id} marches from {from_area} into {area}",
        "description": f"drawn from a position: round {p.round}, {p.phase.id} phase",
        "edition": p.edition,
        "area": area,
        "tides_of_battle": p.variants["tides_of_battle"],
        "attacker": attacker_spec,
        "defender": defender_spec,
        "support": supporters,
        "fiefdoms": [h.id for h in fiefdoms],
        "iron_throne": [h.id for h in p.tracks["iron_throne"]],
        "blade_holder": fiefdoms[0].id,
        "blade_used": p.blade_used,
    }


def _marching_units(
    p: Position, from_area: str, units: Mapping[str, int] | Mapping[Unit, int] | None
) -> dict[Unit, int]:
    standing = p.units[from_area]
    if units is None:
        return dict(standing)
    out: dict[Unit, int] = {}
    for key, n in units.items():
        try:
            unit = key if isinstance(key, Unit) else Unit.from_id(str(key))
        except ValueError:
            ids = [u.id for u in Unit]
            raise _fail(f"units.{key}", f"unknown unit type{_hint(key, ids)}") from None
        n = _int(n, f"units.{unit.id}", 0, 99)
        if n > standing.get(unit, 0):
            raise _fail(
                f"units.{unit.id}",
                f"only {standing.get(unit, 0)} standing {unit.id} in {from_area} (routed stay)",
            )
        if n:
            out[unit] = n
    if not out:
        raise _fail("units", "march at least one unit")
    return {u: out[u] for u in sorted(out)}


def _defender(p: Position, area: str, attacker: House) -> tuple[House | None, dict[str, Any]]:
    board = p.board
    if area in p.neutral_forces:
        return None, {"neutral_force": p.neutral_forces[area]}
    if area in p.neutral_armies:
        raise _fail("area", f"{area} holds a neutral army, which battle specs cannot describe")
    house = p.occupants.get(area)
    if house is None and area in p.garrisons:
        house = House(int(board.home[board.index(area)]))
    if house is None:
        owner = p.power_tokens.get(area)
        held = f" (only a {owner.id} power token)" if owner else ""
        raise _fail("area", f"no battle: {area} is not defended{held}")
    if house == attacker:
        raise _fail("area", f"{attacker.id} cannot attack its own area {area}")
    spec: dict[str, Any] = {"house": house.id, "units": _counts_out(p.units.get(area, {}))}
    if area in p.routed:
        spec["routed"] = _counts_out(p.routed[area])
    spec["order"] = p.orders.get(area, "none")
    if area in p.garrisons:
        spec["garrison"] = p.garrisons[area]
    spec.update(
        {"hand": list(p.hands[house]), "discards": list(p.discards[house]), "power": p.power[house]}
    )
    return house, spec


def _support_sides(
    p: Position,
    area: str,
    attacker: House,
    defender: House | None,
    support: Mapping[str, str] | Mapping[House, str] | None,
) -> dict[House, str]:
    sides: dict[House, str] = {attacker: "attacker"}
    if defender is not None:
        sides[defender] = "defender"
    for key, side in (support or {}).items():
        name = key.id if isinstance(key, House) else str(key)
        house = _house_arg(key, f"support.{name}", p)
        where = f"support.{house.id}"
        if side not in ("attacker", "defender", "none"):
            raise _fail(where, f"must be 'attacker', 'defender' or 'none', got {side!r}")
        if side == "defender" and defender is None:
            raise _fail(where, f"nobody can support the neutral force in {area}")
        if house in (attacker, defender) and side not in (sides[house], "none"):
            raise _fail(where, f"{house.id} cannot support its own opponent")
        sides[house] = side
    return sides
