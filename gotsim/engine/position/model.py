"""A board position as a value: ``Position`` (frozen, validated at load) and its JSON form
(``dump_position``), its phases and action steps, the order tokens of an edition, and the one
error a bad position raises."""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from functools import lru_cache
from types import MappingProxyType
from typing import Any

import numpy as np
from numpy.typing import NDArray

from gotsim.data import load_data
from gotsim.inputs import FieldChecks, did_you_mean
from gotsim.rules.board import Board, load_board
from gotsim.rules.ids import EDITIONS, House, OrderType, Unit
from gotsim.rules.setup import TRACKS, Setup, load_setup
from gotsim.rules.variants import CLASH_OF_KINGS_VARIANTS, expansion_board, played_card_set

FORMAT = "gotsim.position/v1"
VARIANTS: tuple[str, ...] = (
    "tides_of_battle",
    "kings_court_swap",
    "adwd_house_cards",
    "eyrie_port",
    "sea_orders",
    "iron_bank",
    "gift_power",
    "vassals",  # (the houses no player takes, commanded each round by a player: V1-V21)
    "eight_houses",  # (with vassals: Mother of Dragons' 8-house board)
    *CLASH_OF_KINGS_VARIANTS,  # (1st edition: fortifications, siege engines, ... three cards)
)
TOP_KEYS: tuple[str, ...] = (
    "format",
    "edition",
    "expansion",
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
    "out_of_game",
    "victory_points",
    "objectives",
    "objectives_scored",
    "loyalty_taken",
    "loyalty_placed",
    "dragon_boost",
    "westeros_deck_iv",
    "iron_bank",
    "one_time_used",
    "lions_cunning",
    "westeros_face_up",
    "commanders",
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
    "loyalty",
    "crown_bonus",
    "barrel_bonus",
    "castle_delta",
    "fortification",
    "one_time_order",
)
# the Iron Bank of a position: the loan cards face up in the slots and the loans each house holds
IRON_BANK_KEYS: tuple[str, ...] = ("slots", "loans")
# the Iron Bank's improvements of an area, as the record names them (``docs/rules.md`` IB9):
# crowns and barrels added, the change of its castle level
IMPROVEMENTS: tuple[str, ...] = ("crown_bonus", "barrel_bonus", "castle_delta")
# Westeros deck III restriction → (order type forbidden, only this modifier or None for all;
# None, None: no order forbidden). ``footmen_no_support``: the 1st edition's Rains of Autumn
# (supporting footmen add no strength), instead of the 2nd edition's ``no_march_plus_one``.
RESTRICTIONS: Mapping[str, tuple[OrderType | None, int | None]] = MappingProxyType(
    {
        "no_defense": (OrderType.DEFENSE, None),
        "no_march_plus_one": (OrderType.MARCH, 1),
        "no_raid": (OrderType.RAID, None),
        "no_support": (OrderType.SUPPORT, None),
        "no_consolidate_power": (OrderType.CONSOLIDATE_POWER, None),
        "footmen_no_support": (None, None),
    }
)
# restrictions of one edition only (the Westeros card that gives each exists in that one)
RESTRICTION_EDITION: Mapping[str, str] = MappingProxyType(
    {"no_march_plus_one": "2e", "footmen_no_support": "1e"}
)


@lru_cache(maxsize=1)
def deck_iv_cards() -> tuple[str, ...]:
    """Mother of Dragons' Westeros deck IV card ids, in the data's (and the engine's) order.

    >>> deck_iv_cards()[:2]
    ('domestic_disputes', 'empty_promises')
    """
    scenario = load_data("2e", "expansions.json")["scenarios"]["mother_of_dragons"]
    return tuple(card["id"] for card in scenario["westeros_deck_IV"]["cards"])


class PositionError(ValueError):
    """A position that cannot stand on the board; the one-line message names the field."""


class RoundPhase(IntEnum):
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
    sea_only: bool = False  # Mother of Dragons' sea order tokens: sea areas only


@lru_cache(maxsize=4)
def order_tokens(
    edition: str = "2e", sea_orders: bool = False, iron_bank: bool = False
) -> Mapping[str, OrderToken]:
    """The order tokens of one house by name (``sea_orders``: with Mother of Dragons' sea
    order tokens, ``sea_march-1`` and ``sea_support+0``; ``iron_bank``: with its Iron Bank
    token, ``sea_iron_bank``).

    The 1st edition has the same fifteen tokens (rules digest §1.9), so both editions read
    ``gotsim/data/2e/orders.json``.

    >>> tokens = order_tokens("2e")
    >>> tokens["defense+1"].count, tokens["raid*"].special, sum(t.count for t in tokens.values())
    (2, True, 15)
    >>> [t.name for t in order_tokens("2e", sea_orders=True).values() if t.sea_only]
    ['sea_march-1', 'sea_support+0']
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
    if sea_orders:
        for record in load_data("2e", "expansions.json")["components"]["sea_orders"]["tokens"]:
            if record.get("restricted_to") != "sea" or record["type"] not in ("march", "support"):
                continue  # (the Iron Bank's token comes with the Iron Bank)
            kind = OrderType.from_id(record["type"])
            name = f"sea_{kind.id}{int(record['modifier']):+d}"
            out[name] = OrderToken(name, kind, int(record["modifier"]), False, 1, sea_only=True)
    if iron_bank:
        name = "sea_iron_bank"
        out[name] = OrderToken(name, OrderType.IRON_BANK, 0, False, 1, sea_only=True)
    return MappingProxyType(out)


def forbidden_by(restriction: str | None, token: OrderToken) -> bool:
    if restriction is None:
        return False
    kind, modifier = RESTRICTIONS[restriction]
    return (
        kind is not None and token.kind == kind and (modifier is None or token.modifier == modifier)
    )


UnitCounts = Mapping[Unit, int]


@dataclass(frozen=True, repr=False)
class Position:
    """A validated board position. Area-keyed mappings list only areas where something stands.

    ``occupants`` names the house whose units (standing or routed) are in an area; ``units`` and
    ``routed`` hold their counts. Build one with ``load_position`` or ``starting_position``.

    >>> from gotsim.engine.position import starting_position
    >>> p = starting_position("2e", 6)
    >>> p.occupants["winterfell"].id, dict(p.units["winterfell"]), p.garrisons["winterfell"]
    ('stark', {<Unit.FOOTMAN: 0>: 1, <Unit.KNIGHT: 1>: 1}, 2)
    """

    edition: str
    players: int
    houses: tuple[House, ...]  # houses in play, in setup order
    variants: Mapping[str, bool]  # every key of VARIANTS
    round: int
    phase: RoundPhase
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
    expansion: str | None = None  # ``rules.variants.EXPANSIONS`` name; None: the base game
    # A Feast for Crows: victory points, objective hands (None: at the start, before the cards
    # are dealt; they are dealt when the game resumes) and the objective cards each has scored
    # (``rules.objectives.Objective`` ids)
    victory_points: Mapping[House, int] = field(default_factory=lambda: MappingProxyType({}))
    objectives: Mapping[House, tuple[str, ...]] | None = None
    objectives_scored: Mapping[House, tuple[str, ...]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    # Mother of Dragons: house cards that left the game (Khal Drogo, Viserys Targaryen's thrown
    # card, Robert Arryn's...): in neither hand nor discards, never coming back
    out_of_game: Mapping[House, tuple[str, ...]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    # Mother of Dragons at 8 players: loyalty tokens on land areas, those House Targaryen has
    # taken, the dragon strength tokens moved early (Fire Made Flesh) and the Westeros deck IV
    # cards drawn so far, in the order drawn (the last one is this round's once the round's
    # Westeros phase is over; the order of the cards still in the deck is not part of a position)
    loyalty: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    loyalty_taken: int = 0
    dragon_boost: int = 0
    deck_iv: tuple[str, ...] = ()
    # the Iron Bank's improvements (area → non-zero value): crowns added, barrels added, the
    # change of the castle level
    crown_bonus: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    barrel_bonus: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    castle_delta: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    # the Iron Bank (``variants.iron_bank``): the loan cards face up in the three slots, first
    # (cost 7) to third (cost 1), None an empty slot; None for the whole: not fixed, the slots as
    # set up, their card dealt from the loan deck when the game resumes (round 1, no loan held).
    # The loans each house holds (houses holding one; ``rules.iron_bank.LOAN_CARDS`` order).
    # Every other loan card is in the loan deck, whose order is not part of a position
    loan_slots: tuple[str | None, ...] | None = None
    loans: Mapping[House, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    # 1st edition, the A Clash of Kings modules (``docs/rules.md`` K1-K10, O1-O12): the land areas
    # holding a fortification (its builder is the house whose units stand there: it goes when
    # they leave), the one-time orders on the board (area -> ``rules.one_time`` kind, its
    # house's), the kinds each house has placed so far this game (those on the board
    # included), the house Lion's Cunning keeps from acting against Lannister this round, and
    # with the look-ahead module each Westeros deck's three face-up cards, next first (None: not
    # fixed, the decks as the seed shuffles them)
    fortifications: tuple[str, ...] = ()
    one_time_orders: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    one_time_used: Mapping[House, tuple[str, ...]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    lions_cunning: House | None = None
    westeros_face_up: tuple[tuple[str, ...], ...] | None = None
    # vassals (``variants.vassals``): each vassal's commander, the player house answering for it
    # this round (empty in a planning position before the claims, V2)
    commanders: Mapping[House, House] = field(default_factory=lambda: MappingProxyType({}))

    def __repr__(self) -> str:
        step = f"/{self.step.id}" if self.step is not None else ""
        return (
            f"Position({self.edition!r}, {self.players} players, round {self.round}, "
            f"{self.phase.id}{step})"
        )

    @property
    def board(self) -> Board:
        """The board of the position (A Feast for Crows' with The Eyrie's port when the
        ``eyrie_port`` option is on; Mother of Dragons' by its player count)."""
        port = bool(self.variants.get("eyrie_port"))
        vassals, eight = bool(self.variants.get("vassals")), bool(self.variants.get("eight_houses"))
        board = expansion_board(self.expansion, self.players, port, vassals, eight)
        return load_board(self.edition, board=board)

    @property
    def loyalty_game(self) -> bool:
        """Mother of Dragons at 8 players: loyalty tokens, dragons and Westeros deck IV."""
        return self.setup.loyalty_to_win > 0

    @property
    def iron_bank(self) -> bool:
        """Whether the game plays Mother of Dragons' Iron Bank (on by default at 8 players)."""
        return bool(self.variants.get("iron_bank"))

    @property
    def loyalty_placed(self) -> int:
        """Loyalty tokens ever put on the board: those on it and those Targaryen has taken."""
        return sum(self.loyalty.values()) + self.loyalty_taken

    @property
    def deck_iv_this_round(self) -> str | None:
        """The Westeros deck IV card drawn this round: none in round 1 and before the round's
        Westeros phase has drawn it (one card each Westeros phase from round 2)."""
        if self.phase == RoundPhase.WESTEROS or not self.deck_iv:
            return None
        return self.deck_iv[-1]

    @property
    def setup(self) -> Setup:
        return load_setup(
            self.edition,
            self.players,
            expansion=self.expansion,
            vassals=bool(self.variants.get("vassals")),
            eight_houses=bool(self.variants.get("eight_houses")),
        )

    @property
    def vassals(self) -> tuple[House, ...]:
        """The houses no player takes (``variants.vassals``), in setup order; none without."""
        return self.setup.vassals if self.variants.get("vassals") else ()

    @property
    def card_set(self) -> str:
        """The house-card set the hands and discards are of (``rules.cards.CARD_SETS``): as
        ``Rules.card_set``."""
        return played_card_set(self.expansion, bool(self.variants.get("adwd_house_cards")))

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


# the field checks every reader of gotsim input shares (``gotsim.inputs.FieldChecks``)
FIELDS = FieldChecks(PositionError)
fail = FIELDS.fail
check_keys = FIELDS.keys
read_object = FIELDS.mapping
read_int = FIELDS.whole
read_bool = FIELDS.boolean
hint = did_you_mean


def read_house(value: Any, where: str, houses: Collection[House], players: int) -> House:
    """``value`` (a house id or a ``House``) as a house in play (``houses``, at ``players``)."""
    if isinstance(value, House):
        house = value
    elif not isinstance(value, str):
        raise fail(where, f"must be a house id, got {value!r}")
    else:
        try:
            house = House.from_id(value)
        except ValueError:
            ids = [h.id for h in House]
            raise fail(where, f"unknown house {value!r}{hint(value, ids)}") from None
    if house not in houses:
        raise fail(where, f"{house.id} is not in play with {players} players")
    return house


def counts_out(counts: Mapping[Unit, int]) -> dict[str, int]:
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
            record["units"] = counts_out(p.units[area])
        if area in p.routed:
            record["routed"] = counts_out(p.routed[area])
        if area in p.orders:
            record["order"] = p.orders[area]
        if area in p.power_tokens:
            record["power_token"] = p.power_tokens[area].id
        if area in p.garrisons:
            record["garrison"] = p.garrisons[area]
        if area in p.neutral_forces:
            record["neutral_force"] = p.neutral_forces[area]
        if area in p.neutral_armies:
            record["neutral_army"] = counts_out(p.neutral_armies[area])
        if area in p.loyalty:
            record["loyalty"] = p.loyalty[area]
        for key in IMPROVEMENTS:
            if area in getattr(p, key):
                record[key] = getattr(p, key)[area]
        if area in p.fortifications:
            record["fortification"] = True
        if area in p.one_time_orders:
            record["one_time_order"] = p.one_time_orders[area]
        if record:
            areas[area] = record
    out: dict[str, Any] = {"format": FORMAT}
    out.update({key: getattr(p, key) for key in ("name", "description") if getattr(p, key)})
    whole = {h for h in p.vassals if not p.discards[h] and not p.out_of_game.get(h)}
    out["edition"] = p.edition
    if p.expansion is not None:
        out["expansion"] = p.expansion
    # (the A Dance with Dragons cards only when on: a base-game position reads as it always did)
    # (Mother of Dragons' own options always in a Mother of Dragons position: sea orders and
    # gifts are on unless switched off, the Iron Bank's default goes by the player count)
    own_mod = ("sea_orders", "iron_bank", "gift_power")
    # (a 1st-edition module only when on, so that positions without them read as before)
    optional = (
        "adwd_house_cards",
        "eyrie_port",
        *own_mod,
        "vassals",
        "eight_houses",
        *CLASH_OF_KINGS_VARIANTS,
    )
    variants = {
        k: v
        for k, v in p.variants.items()
        if k not in optional or v or (k in own_mod and p.expansion == "mod")
    }
    out.update(
        {
            "players": p.players,
            "variants": variants,
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
            # (a vassal holds no power, and its own house cards, which it never plays, are left
            # out while none is discarded)
            "power": {h.id: n for h, n in p.power.items() if h not in p.vassals},
            "supply": {h.id: n for h, n in p.supply.items()},
            "hands": {h.id: list(c) for h, c in p.hands.items() if h not in whole},
            "discards": {h.id: list(c) for h, c in p.discards.items() if h not in whole},
        }
    )
    if p.vassals:  # each vassal's commander (none before the round's claims)
        out["commanders"] = {v.id: h.id for v, h in p.commanders.items()}
    if any(p.out_of_game.values()):  # (only when a card has left: other positions read as before)
        out["out_of_game"] = {h.id: list(c) for h, c in p.out_of_game.items() if c}
    if p.expansion == "affc":  # A Feast for Crows: points and objective cards
        out["victory_points"] = {h.id: n for h, n in p.victory_points.items()}
        if p.objectives is not None:
            out["objectives"] = {h.id: list(cards) for h, cards in p.objectives.items()}
        out["objectives_scored"] = {h.id: list(c) for h, c in p.objectives_scored.items()}
    if p.loyalty_game:  # Mother of Dragons at 8 players (the tokens on the board: ``areas``)
        out["loyalty_taken"] = p.loyalty_taken
        out["dragon_boost"] = p.dragon_boost
        out["westeros_deck_iv"] = list(p.deck_iv)
    if p.iron_bank:  # the slots (left out while not fixed) and the loans held
        bank: dict[str, Any] = {} if p.loan_slots is None else {"slots": list(p.loan_slots)}
        bank["loans"] = {h.id: list(cards) for h, cards in p.loans.items()}
        out["iron_bank"] = bank
    if p.variants.get("one_time_orders"):  # the kinds placed, Lion's Cunning's house
        out["one_time_used"] = {h.id: list(kinds) for h, kinds in p.one_time_used.items()}
        out["lions_cunning"] = None if p.lions_cunning is None else p.lions_cunning.id
    if p.westeros_face_up is not None:  # the look-ahead module's face-up cards
        out["westeros_face_up"] = [list(cards) for cards in p.westeros_face_up]
    out.update(
        {
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
