"""Battle specifications: parse and validate a JSON battle into the combat code's battle vector.

Every problem raises ``BattleSpecError`` with one line naming the field (``attacker.units.ship``,
``support[1].order`` …) and what is wrong. The fields are documented in ``docs/combat.md``.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from gotsim.data import load_data
from gotsim.engine import combat as cb
from gotsim.inputs import FieldChecks, InputError, parse_json, read_text_file
from gotsim.rules.board import Board, load_board
from gotsim.rules.cards import (
    CARD_SETS,
    VASSAL_CARD_COUNT,
    VASSAL_CARD_FIRST,
    house_card,
    house_deck,
    vassal_cards,
)
from gotsim.rules.ids import BASE_HOUSES, EDITIONS, AreaKind, House, Unit
from gotsim.rules.setup import load_setup


class BattleSpecError(ValueError):
    """A battle specification that cannot describe a legal battle; the message names the field."""


ATTACK_ORDERS = {"march-1": -1, "march+0": 0, "march+1": 1}
DEFENDER_ORDERS = {
    "none": 0,
    "defense+1": 1,
    "defense+2": 2,
    "support+0": 0,
    "support+1": 0,
    "raid": 0,
    "raid*": 0,
    "consolidate_power": 0,
    "consolidate_power*": 0,
    "march-1": 0,
    "march+0": 0,
    "march+1": 0,
}
SUPPORT_ORDERS = {"support+0": 0, "support+1": 1}
SUPPORT_TOKENS = {"support+0": 2, "support+1": 1}  # each house's support order tokens
TOP_KEYS = (
    "edition",
    "area",
    "tides_of_battle",
    "attacker",
    "defender",
    "support",
    "fiefdoms",
    "iron_throne",
    "blade_holder",
    "blade_used",
    "discards",
    "rains_of_autumn",
    "fortification",
    "siege_engines",
    "three_card_combat",
    "adwd_house_cards",
    "house_cards",
    "wildling_threat",
    "dragon_strength",
    "vassals",
    "name",
    "description",
)
SIDE_KEYS = ("house", "units", "order", "hand", "card", "power", "discards", "holds_home")
# Mother of Dragons: Captain Groleo's ships (attacker), Godric Borrell's lands (defender)
ATTACKER_KEYS = (*SIDE_KEYS, "transport_ships")
DEFENDER_KEYS = (
    *SIDE_KEYS,
    "adjacent_lands_held",
    "garrison",
    "routed",
    "no_retreat",
    "power_token",
    "neutral_force",
    "neutral_army",
)
# the player count whose starting tracks are the default ones
DEFAULT_PLAYERS = {"2e": 6, "1e": 5}
SUPPORT_KEYS = ("house", "side", "units", "order")
DEFAULT_POWER = 5
# House Arryn's home area (A Feast for Crows; the base board names no home area for Arryn)
ARRYN_HOME = "the_eyrie"
# areas outside the home areas that an expansion's start garrisons (A Dance with Dragons)
EXPANSION_GARRISONS = frozenset(
    area
    for area, (house, _) in load_setup("2e", 6, expansion="adwd").garrisons.items()
    if load_board("2e").home[load_board("2e").index(area)] != house
)


@dataclass(frozen=True)
class Supporter:
    house: House
    side: int  # ATTACKER or DEFENDER
    own_house: bool  # the supported combatant's own house
    units: NDArray[np.int64]  # (5,) by Unit (dragons last)
    bonus: int  # support order modifier

    @property
    def strength_hint(self) -> int:
        """Plain strength of this support (used to order choices, not to resolve combat; a
        dragon counted as a knight)."""
        return int(self.units @ np.array([1, 2, 1, 0, 2])) + self.bonus


@dataclass(frozen=True)
class Battle:
    """A validated battle: the base vector (no cards yet) and what the choice rules need."""

    edition: str
    area: str
    tides_of_battle: bool
    houses: tuple[House, House | None]  # defender None for a neutral force
    neutral_force: int  # strength of a neutral force token defending, 0 otherwise
    base: NDArray[np.int64]  # battle vector without house cards
    hands: tuple[tuple[int, ...], tuple[int, ...]]  # card numbers each side may play
    fixed_cards: tuple[int | None, int | None]
    supporters: tuple[Supporter, ...]
    tracks: Mapping[str, tuple[House, ...]] = field(default_factory=dict)  # top to bottom
    # 1e three-card combat: each side's card is drawn from three it puts down (docs/combat.md)
    three_card_combat: bool = False
    fixed_picks: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())  # the three, model 'fixed'
    # the house-card set (``rules.cards.CARD_SETS``): "adwd" with ``adwd_house_cards``
    card_set: str = "base"
    # cards in the discard piles of houses other than the two combatants (Qyburn may copy them)
    other_discards: tuple[int, ...] = ()

    def picks(self, side: int) -> int:
        """How many cards the side puts down in three-card combat (three, or its whole hand)."""
        return min(3, len(self.hands[side]))

    @property
    def card_table(self) -> cb.CardTable:
        return cb.card_table(self.edition, self.card_set)


# the field checks every reader of gotsim input shares (``gotsim.inputs.FieldChecks``)
_FIELDS = FieldChecks(BattleSpecError)
_fail = _FIELDS.fail
_check_keys = _FIELDS.keys
_object = _FIELDS.mapping


def _house(value: Any, where: str, edition: str = "2e") -> House:
    if not isinstance(value, str):
        raise _fail(where, f"must be a house id, got {value!r}")
    try:
        house = House.from_id(value)
    except ValueError:
        known = ", ".join(h.id for h in House)
        raise _fail(where, f"unknown house {value!r} (known: {known})") from None
    if not house_deck(edition, house):
        if house in BASE_HOUSES:
            why = "it plays only with A Clash of Kings, which gotsim does not package"
        else:
            why = "its house cards come with an expansion gotsim does not play yet"
        raise _fail(where, f"{house.id} is not a {edition} house ({why})")
    return house


def _is_home(board: Board, area: int, house: House) -> bool:
    """Whether ``area`` is ``house``'s home area (Arryn's: ``ARRYN_HOME``)."""
    if house == House.ARRYN:
        return board.area_ids[area] == ARRYN_HOME
    return bool(board.home[area] == int(house))


def _home_held(
    side_spec: Mapping[str, Any], house: House, board: Board, area: int, where: str
) -> int:
    """``cb.HOME_HELD`` of a side (Littlefinger, Alayne Stone): a battle in its home area
    decides it; elsewhere ``holds_home`` says (true unless given)."""
    held = side_spec.get("holds_home", True)
    if not isinstance(held, bool):
        raise _fail(f"{where}.holds_home", f"must be true or false, got {held!r}")
    if _is_home(board, area, house):
        if "holds_home" in side_spec:
            raise _fail(
                f"{where}.holds_home",
                f"the battle is in {house.id}'s home area: whoever wins it holds it",
            )
        return cb.HOME_HERE
    return cb.HOME_ELSEWHERE if held else 0


def _card_set(spec: Mapping[str, Any], adwd: bool, edition: str) -> str:
    """The house-card set of a spec: ``house_cards`` names one (``rules.cards.CARD_SETS``:
    ``"mod"`` for Arryn's and Targaryen's Mother of Dragons decks A), ``adwd_house_cards``
    gives ``"adwd"``, else ``"base"``."""
    named = spec.get("house_cards")
    if named is None:
        return "adwd" if adwd else "base"
    if named not in CARD_SETS:
        raise _fail("house_cards", f"unknown house-card set {named!r} (known: {CARD_SETS})")
    if edition != "2e":
        raise _fail("house_cards", "the house-card sets other than the base decks are 2e sets")
    if adwd and named != "adwd":
        raise _fail("house_cards", f"{named!r} and adwd_house_cards: two decks at once")
    return str(named)


def _nearby(side_spec: Mapping[str, Any], side: int, board: Board, area: int, where: str) -> int:
    """``cb.NEARBY`` of a side: the attacker's ``transport_ships`` (Captain Groleo: its ships
    next to the embattled land area, when the march used ship transport; a land battle), the
    defender's ``adjacent_lands_held`` (Godric Borrell: the land areas next to the embattled
    sea it controls; a sea battle)."""
    key = "transport_ships" if side == cb.ATTACKER else "adjacent_lands_held"
    if key not in side_spec:
        return 0
    sea = board.kind[area] != AreaKind.LAND
    if sea == (side == cb.ATTACKER):
        kind = "sea" if sea else "land"
        raise _fail(f"{where}.{key}", f"not counted in a battle for the {kind} area")
    return _int(side_spec[key], f"{where}.{key}", 0, 20)


def _int(value: Any, where: str, low: int = 0, high: int = 99) -> int:
    return _FIELDS.whole(value, where, low, high)


def _units(
    value: Any, where: str, board: Board, area: int, *, supporting: bool, siege: bool = False
) -> NDArray[np.int64]:
    counts = np.zeros(len(Unit), np.int64)
    for key, n in _object(value, where).items():
        try:
            unit = Unit.from_id(key)
        except ValueError:
            known = ", ".join(u.id for u in Unit)
            raise _fail(f"{where}.{key}", f"unknown unit type (known: {known})") from None
        counts[unit] = _int(n, f"{where}.{key}", 0, 20)
        if unit == Unit.SIEGE_ENGINE and counts[unit] and board.edition == "1e" and not siege:
            raise _fail(
                f"{where}.{key}",
                "the 1st-edition base game has no siege engines (A Clash of Kings adds them: "
                'set "siege_engines": true)',
            )
    naval_battle = board.kind[area] != AreaKind.LAND
    land_units = counts[[Unit.FOOTMAN, Unit.KNIGHT, Unit.SIEGE_ENGINE, Unit.DRAGON]].sum()
    if naval_battle and land_units:
        raise _fail(where, f"land units cannot fight in or support into {board.area_ids[area]!r}")
    if counts[Unit.SHIP] and not naval_battle and not supporting:
        raise _fail(where, f"ships cannot fight in the land area {board.area_ids[area]!r}")
    if supporting and counts[Unit.SHIP] and land_units:
        raise _fail(where, "one supporting area holds either ships or land units, not both")
    return counts


def _hand(
    side_spec: Mapping[str, Any],
    house: House,
    edition: str,
    discards: list[str],
    where: str,
    card_set: str = "base",
) -> tuple[int, ...]:
    table = cb.card_table(edition, card_set)
    deck = {c.id for c in house_deck(edition, house, card_set)}
    raw = side_spec.get("hand")
    if raw is None:
        chosen = [c for c in table.ids if c in deck and c not in discards]
    else:
        if not isinstance(raw, list) or not raw:
            raise _fail(f"{where}.hand", "must be a non-empty list of house card ids")
        chosen = []
        for i, card in enumerate(raw):
            if card not in deck:
                raise _fail(f"{where}.hand[{i}]", _not_in_deck(card, house, edition, card_set))
            if card in chosen:
                raise _fail(f"{where}.hand[{i}]", f"{card!r} is listed twice")
            if card in discards:
                raise _fail(f"{where}.hand[{i}]", f"{card!r} is also in the discard pile")
            chosen.append(card)
    if not chosen:
        raise _fail(f"{where}.hand", "no card left to play (all discarded)")
    return tuple(table.number(c) for c in chosen)


def _vassal_houses(spec: Mapping[str, Any], edition: str) -> frozenset[House]:
    """The spec's ``vassals``: the houses of the battle (combatants, supporters) that are
    vassals (the ``vassals`` variant, 2nd edition)."""
    raw = spec.get("vassals", [])
    if not isinstance(raw, list):
        raise _fail("vassals", "must be a list of house ids (the vassals in the battle)")
    if raw and edition != "2e":
        raise _fail("vassals", "vassals belong to the 2nd edition (Mother of Dragons)")
    return frozenset(_house(h, f"vassals[{i}]", edition) for i, h in enumerate(raw))


def _vassal_hand(side_spec: Mapping[str, Any], where: str) -> tuple[int, ...]:
    """A vassal's hand: the 1-3 vassal cards it was dealt (ids), all seven when not given."""
    ids = [c.id for c in vassal_cards()]
    raw = side_spec.get("hand")
    if raw is None:
        return tuple(range(VASSAL_CARD_FIRST, VASSAL_CARD_FIRST + VASSAL_CARD_COUNT))
    if not isinstance(raw, list) or not 1 <= len(raw) <= 3:
        raise _fail(f"{where}.hand", "a vassal's hand is the 1-3 vassal cards it was dealt")
    chosen: list[int] = []
    for i, card in enumerate(raw):
        if card not in ids:
            raise _fail(f"{where}.hand[{i}]", f"{card!r} is not a vassal card ({', '.join(ids)})")
        number = VASSAL_CARD_FIRST + ids.index(card)
        if number in chosen:
            raise _fail(f"{where}.hand[{i}]", f"{card!r} is listed twice")
        chosen.append(number)
    return tuple(chosen)


def _not_in_deck(card: Any, house: House, edition: str, card_set: str = "base") -> str:
    """Why ``card`` cannot be in ``house``'s hand, naming the edition or the house-card set it
    belongs to if another."""
    message = f"{card!r} is not a {house.id} house card"
    # Arryn's Mother of Dragons deck (Targaryen's deck A is in the base set too)
    mod_deck = {c.id for c in house_deck(edition, house, "mod")} if edition == "2e" else set()
    in_mod = card in mod_deck and card not in {c.id for c in house_deck(edition, house)}
    if card_set != "mod" and in_mod:
        return f'{message} of the {card_set} decks (a Mother of Dragons card: "house_cards": "mod")'
    other_set = "base" if card_set == "adwd" else "adwd"
    if edition == "2e" and any(c.id == card for c in house_deck(edition, house, other_set)):
        if other_set == "adwd":
            adwd = 'an A Dance with Dragons card: set "adwd_house_cards": true'
            return f"{message} of the base decks ({adwd})"
        return f"{message} of the A Dance with Dragons decks (it is a base-game card)"
    for other in EDITIONS:
        if other != edition and any(c.id == card for c in house_deck(other, house)):
            return f"{message} in the {edition} (it is a {other} card)"
    return message


def _discards(
    spec: Mapping[str, Any],
    side_spec: Mapping[str, Any],
    house: House,
    edition: str,
    where: str,
    card_set: str = "base",
) -> list[str]:
    top = _object(spec.get("discards", {}), "discards")
    for key in top:
        _house(key, f"discards.{key}", edition)
    raw = side_spec.get("discards", top.get(house.id, []))
    if not isinstance(raw, list):
        raise _fail(f"{where}.discards", "must be a list of house card ids")
    deck = {c.id for c in house_deck(edition, house, card_set)}
    for i, card in enumerate(raw):
        if card not in deck:
            raise _fail(f"{where}.discards[{i}]", _not_in_deck(card, house, edition, card_set))
        if card in raw[:i]:
            raise _fail(f"{where}.discards[{i}]", f"{card!r} is listed twice")
    return list(raw)


def _track(
    spec: Mapping[str, Any],
    key: str,
    houses: list[House],
    default: tuple[House, ...],
    edition: str,
) -> tuple[House, ...]:
    raw = spec.get(key)
    if raw is None:
        return default
    if not isinstance(raw, list) or not raw:
        raise _fail(key, "must be a list of house ids, top to bottom")
    order = [_house(h, f"{key}[{i}]", edition) for i, h in enumerate(raw)]
    if len(set(order)) != len(order):
        raise _fail(key, "lists a house twice")
    for h in houses:
        if h not in order:
            raise _fail(key, f"must list {h.id} (a house in the battle)")
    return tuple(order)


def parse_battle(spec: Mapping[str, Any] | str | Path) -> Battle:
    """Validate a battle spec (dict, JSON text or path to a JSON file) into a ``Battle``."""
    if isinstance(spec, Path) or (isinstance(spec, str) and not spec.lstrip().startswith("{")):
        try:
            spec = parse_json(read_text_file(spec))
        except InputError as exc:
            reason = "no such battle file" if str(exc) == "no such file" else str(exc)
            raise BattleSpecError(f"{spec}: {reason}") from None
    elif isinstance(spec, str):
        try:
            spec = parse_json(spec)
        except InputError as exc:
            raise BattleSpecError(f"battle: {exc}") from None
    spec = _object(spec, "battle")
    _check_keys(spec, TOP_KEYS, "")

    edition = spec.get("edition", "2e")
    if edition not in EDITIONS:
        raise _fail("edition", f"unknown edition {edition!r} (known: {', '.join(EDITIONS)})")
    board = load_board(edition)
    area_id = spec.get("area")
    if area_id is None:
        raise _fail("area", "required (the embattled area id)")
    if not isinstance(area_id, str) or area_id not in board.area_index:
        close = difflib.get_close_matches(str(area_id), board.area_ids, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise _fail("area", f"unknown area {area_id!r}{hint}")
    area = board.index(area_id)
    tides = spec.get("tides_of_battle", False)
    if not isinstance(tides, bool):
        raise _fail("tides_of_battle", f"must be true or false, got {tides!r}")
    if tides and edition != "2e":
        raise _fail(
            "tides_of_battle", "Tides of Battle is a 2nd-edition variant; the 1st edition has none"
        )
    rains = spec.get("rains_of_autumn", False)
    if not isinstance(rains, bool):
        raise _fail("rains_of_autumn", f"must be true or false, got {rains!r}")
    if rains and edition == "2e":
        raise _fail(
            "rains_of_autumn",
            "only the 1st-edition card changes combat (in the 2nd it forbids March +1 orders)",
        )

    fortification = spec.get("fortification", False)
    if not isinstance(fortification, bool):
        raise _fail("fortification", f"must be true or false, got {fortification!r}")
    if fortification and (edition == "2e" or board.kind[area] != AreaKind.LAND):
        raise _fail(
            "fortification",
            "a fortification (the 1st-edition fortifications variant) stands only on 1e land",
        )

    siege = spec.get("siege_engines", False)
    three = spec.get("three_card_combat", False)
    for key, value in (("siege_engines", siege), ("three_card_combat", three)):
        if not isinstance(value, bool):
            raise _fail(key, f"must be true or false, got {value!r}")
        if value and edition == "2e":
            raise _fail(key, f"{key} is a 1st-edition (A Clash of Kings) variant")
    if board.kind[area] == AreaKind.PORT:
        raise _fail("area", f"{area_id!r} is a port, and a port is never attacked")
    adwd = spec.get("adwd_house_cards", False)
    if not isinstance(adwd, bool):
        raise _fail("adwd_house_cards", f"must be true or false, got {adwd!r}")
    if adwd and edition != "2e":
        raise _fail(
            "adwd_house_cards", "the A Dance with Dragons house cards are 2nd-edition cards"
        )
    card_set = _card_set(spec, adwd, edition)

    b = cb.new_battle(edition)
    b[cb.THREAT] = _int(spec.get("wildling_threat", 2), "wildling_threat", 0, 12)
    # Mother of Dragons: a dragon's strength in this battle (0 in round 1, 5 in round 10)
    b[cb.DRAGON_STRENGTH] = _int(spec.get("dragon_strength", 0), "dragon_strength", 0, 5)
    b[cb.FORTIFIED] = int(board.castle[area] or board.stronghold[area])
    if fortification:
        b[cb.FORTIFIED] |= cb.FORTIFICATION_TOKEN
    b[cb.SEA_BATTLE] = int(board.kind[area] != AreaKind.LAND)
    b[cb.RAINS] = int(rains)
    b[cb.FIRST_EDITION] = int(edition == "1e")

    att_spec = _object(spec.get("attacker"), "attacker")
    def_spec = _object(spec.get("defender"), "defender")
    _check_keys(att_spec, ATTACKER_KEYS, "attacker.")
    _check_keys(def_spec, DEFENDER_KEYS, "defender.")

    attacker = _house(att_spec.get("house"), "attacker.house", edition)
    neutral = 0
    neutral_units = np.zeros(len(Unit), np.int64)
    defender: House | None
    if "neutral_force" in def_spec and "neutral_army" in def_spec:
        raise _fail("defender.neutral_army", "give either a neutral force token or an army")
    if "neutral_force" in def_spec:
        neutral = _int(def_spec["neutral_force"], "defender.neutral_force", 1, 20)
        for key in def_spec:
            if key != "neutral_force":
                what = "units" if key == "units" else "house, cards or orders"
                raise _fail(f"defender.{key}", f"an area with a neutral force token has no {what}")
        defender = None
    elif "neutral_army" in def_spec:
        if edition != "1e":
            raise _fail(
                "defender.neutral_army",
                "only the 1st edition leaves absent houses' units as neutral armies",
            )
        for key in def_spec:
            if key != "neutral_army":
                raise _fail(f"defender.{key}", "a neutral army has no house, cards or orders")
        neutral_units = _units(
            def_spec["neutral_army"], "defender.neutral_army", board, area, supporting=False
        )
        neutral = int(neutral_units[:N_BASE] @ np.array([1, 2, 1, 0]))
        if neutral == 0:
            raise _fail("defender.neutral_army", "a neutral army needs at least one unit")
        defender = None
    else:
        defender = _house(def_spec.get("house"), "defender.house", edition)
        if defender == attacker:
            raise _fail("defender.house", f"{defender.id} cannot attack itself")

    vassal_houses = _vassal_houses(spec, edition)
    hands: list[tuple[int, ...]] = [(), ()]
    fixed: list[int | None] = [None, None]
    picks: list[tuple[int, ...]] = [(), ()]
    for side, side_spec, house in (
        (cb.ATTACKER, att_spec, attacker),
        (cb.DEFENDER, def_spec, defender),
    ):
        where = "attacker" if side == cb.ATTACKER else "defender"
        o = side * cb.SIDE
        units = _units(
            side_spec.get("units", {}), f"{where}.units", board, area, supporting=False, siege=siege
        )
        b[o + cb.UNITS : o + cb.UNITS + N_BASE] = units[:N_BASE]
        b[cb.DRAGONS + side] = units[Unit.DRAGON]  # Mother of Dragons: their own slots
        if house is None:
            if neutral_units.any():  # a neutral army fights with its units' strength
                b[o + cb.UNITS : o + cb.UNITS + N_BASE] = neutral_units[:N_BASE]
            else:
                b[cb.DEFENDER * cb.SIDE + cb.GARRISON] = neutral
            continue
        b[o + cb.HOUSE] = int(house)
        vassal = house in vassal_houses
        if vassal:  # dealt vassal cards, no discard pile, no power (docs/rules.md V12)
            if "discards" in side_spec or "power" in side_spec:
                key = "discards" if "discards" in side_spec else "power"
                raise _fail(f"{where}.{key}", "a vassal keeps no discard pile and no power")
            discards = []
            hands[side] = _vassal_hand(side_spec, where)
            b[cb.VASSAL + side] = 1
        else:
            discards = _discards(spec, side_spec, house, edition, where, card_set)
            hands[side] = _hand(side_spec, house, edition, discards, where, card_set)
        table = cb.card_table(edition, card_set)
        for discarded in discards:
            b[o + cb.DISCARDS] |= cb.bit(table.number(discarded))
        for number in hands[side]:
            b[o + cb.HAND] |= cb.bit(number)
        if not vassal:
            b[o + cb.POWER] = _int(side_spec.get("power", DEFAULT_POWER), f"{where}.power", 0, 20)
        b[cb.HOME_HELD + side] = _home_held(side_spec, house, board, area, where)
        b[cb.NEARBY + side] = _nearby(side_spec, side, board, area, where)
        card = side_spec.get("card")
        if card is not None and three:
            picks[side] = _picks(card, hands[side], house, edition, f"{where}.card", card_set)
        elif card is not None:
            if not isinstance(card, str):
                raise _fail(f"{where}.card", f"must be a house card id, got {card!r}")
            try:
                number = table.number(card)
            except ValueError:
                raise _fail(f"{where}.card", f"unknown house card {card!r}") from None
            if number not in hands[side]:
                raise _fail(f"{where}.card", f"{card!r} is not in {house.id}'s hand")
            fixed[side] = number
    if b[cb.UNITS : cb.UNITS + N_BASE].sum() + b[cb.DRAGONS] == 0:
        raise _fail("attacker.units", "the attacker must march at least one unit")

    order = att_spec.get("order", "march+0")
    if order not in ATTACK_ORDERS:
        raise _fail(
            "attacker.order", f"{order!r} is not a march order ({', '.join(ATTACK_ORDERS)})"
        )
    b[cb.ORDER_BONUS] = ATTACK_ORDERS[order]
    d = cb.DEFENDER * cb.SIDE
    if defender is not None:
        order = def_spec.get("order", "none")
        if order not in DEFENDER_ORDERS:
            raise _fail(
                "defender.order", f"{order!r} is not an order ({', '.join(DEFENDER_ORDERS)})"
            )
        b[d + cb.ORDER_BONUS] = DEFENDER_ORDERS[order]
        b[d + cb.HAS_DEFENSE] = int(order.startswith("defense"))
        if "garrison" in def_spec and edition != "2e":
            raise _fail(
                "defender.garrison",
                "the 1st-edition base game has no garrisons (they belong to A Storm of Swords)",
            )
        b[d + cb.GARRISON] = _int(def_spec.get("garrison", 0), "defender.garrison", 0, 9)
        if (
            b[d + cb.GARRISON]
            and not _is_home(board, area, defender)
            and area_id not in EXPANSION_GARRISONS
        ):
            raise _fail(
                "defender.garrison",
                f"{area_id!r} is not {defender.id}'s home area (nor an area the A Dance with "
                "Dragons start garrisons: Storm's End, Oldtown)",
            )
        routed = _units(
            def_spec.get("routed", {}),
            "defender.routed",
            board,
            area,
            supporting=False,
            siege=siege,
        )
        if routed[Unit.DRAGON]:
            raise _fail("defender.routed.dragon", "routed dragons are not modelled")
        b[d + cb.ROUTED : d + cb.ROUTED + N_BASE] = routed[:N_BASE]
        no_retreat = def_spec.get("no_retreat", False)
        if not isinstance(no_retreat, bool):
            raise _fail("defender.no_retreat", f"must be true or false, got {no_retreat!r}")
        b[d + cb.NO_RETREAT] = int(no_retreat)
        token = def_spec.get("power_token", False)
        if not isinstance(token, bool):
            raise _fail("defender.power_token", f"must be true or false, got {token!r}")
        b[cb.DEFENDER_HOLDS] = int(token or board.home[area] == int(defender))
        if (
            b[d + cb.UNITS : d + cb.UNITS + N_BASE].sum()
            + b[cb.DRAGONS + cb.DEFENDER]
            + routed.sum()
            + b[d + cb.GARRISON]
            == 0
        ):
            raise _fail("defender.units", "the defender has no units and no garrison")

    supporters = _supporters(spec, board, area, attacker, defender, b, edition, siege)
    for s in supporters:  # Syrio Forel zeroes the footmen of non-vassal supporters (V14)
        if not s.own_house and s.house not in vassal_houses:
            b[cb.NON_VASSAL_ALLY_FOOTMEN + s.side] += int(s.units[Unit.FOOTMAN])
    forces = [
        (attacker, _with_dragons(b, cb.ATTACKER, b[cb.UNITS : cb.UNITS + N_BASE]), "attacker.units")
    ]
    if defender is not None:
        n = N_BASE
        d_units = b[d + cb.UNITS : d + cb.UNITS + n] + b[d + cb.ROUTED : d + cb.ROUTED + n]
        d_units = _with_dragons(b, cb.DEFENDER, d_units)
        forces.append((defender, d_units, "defender.units"))
    forces += [(s.house, s.units, f"support[{i}].units") for i, s in enumerate(supporters)]
    _check_pieces(forces, edition, siege)
    houses_in = [h for h in (attacker, defender) if h is not None]
    start = load_setup(edition, DEFAULT_PLAYERS[edition]).tracks
    # a house of no default track (Arryn) stands at the bottom of the default tracks
    extra = tuple(h for h in houses_in if h not in start["fiefdoms"])
    tracks = {
        "fiefdoms": _track(spec, "fiefdoms", houses_in, start["fiefdoms"] + extra, edition),
        "iron_throne": _track(
            spec, "iron_throne", houses_in, start["iron_throne"] + extra, edition
        ),
    }
    for side, house in ((cb.ATTACKER, attacker), (cb.DEFENDER, defender)):
        if house is not None:
            b[side * cb.SIDE + cb.FIEFDOMS_POS] = tracks["fiefdoms"].index(house)
            b[side * cb.SIDE + cb.IRON_THRONE_POS] = tracks["iron_throne"].index(house)
    if defender is None:
        b[d + cb.FIEFDOMS_POS] = 99  # the attacker beats a neutral force with equal strength
    if "blade_holder" in spec and spec["blade_holder"] is None:
        raise _fail(
            "blade_holder",
            "null is not a house: name the house holding the Valyrian Steel Blade, or leave the "
            "field out for the top of the Fiefdoms track",
        )
    holder_id = spec.get("blade_holder")
    holder = (
        tracks["fiefdoms"][0] if holder_id is None else _house(holder_id, "blade_holder", edition)
    )
    used = spec.get("blade_used", False)
    if not isinstance(used, bool):
        raise _fail("blade_used", f"must be true or false, got {used!r}")
    if defender is not None and not used:
        for side, house in ((cb.ATTACKER, attacker), (cb.DEFENDER, defender)):
            b[side * cb.SIDE + cb.BLADE_HOLDER] = int(house == holder)
    if defender is None:
        if fixed[0] is not None or picks[0] or "hand" in att_spec:
            raise _fail("attacker.hand", "no house cards are played against a neutral force")
        hands = [(), ()]
        b[cb.HAND] = 0
    b.setflags(write=False)
    return Battle(
        edition=edition,
        area=area_id,
        tides_of_battle=tides and defender is not None,
        houses=(attacker, defender),
        neutral_force=neutral,
        base=b,
        hands=(hands[0], hands[1]),
        fixed_cards=(fixed[0], fixed[1]),
        supporters=supporters,
        tracks=tracks,
        three_card_combat=three and defender is not None,
        fixed_picks=(picks[0], picks[1]),
        card_set=card_set,
        other_discards=_other_discards(spec, houses_in, edition, card_set),
    )


def _other_discards(
    spec: Mapping[str, Any], combatants: list[House], edition: str, card_set: str
) -> tuple[int, ...]:
    """Card numbers in the discard piles (top-level ``discards``) of the houses not fighting."""
    table = cb.card_table(edition, card_set)
    out: list[int] = []
    for key, cards in _object(spec.get("discards", {}), "discards").items():
        house = _house(key, f"discards.{key}", edition)
        if house in combatants:
            continue
        if not isinstance(cards, list):
            raise _fail(f"discards.{key}", "must be a list of house card ids")
        deck = {c.id for c in house_deck(edition, house, card_set)}
        for i, card in enumerate(cards):
            if card not in deck:
                raise _fail(f"discards.{key}[{i}]", _not_in_deck(card, house, edition, card_set))
            out.append(table.number(card))
    return tuple(out)


def _picks(
    value: Any, hand: tuple[int, ...], house: House, edition: str, where: str, card_set: str
) -> tuple[int, ...]:
    """Three-card combat, model 'fixed': the cards put face down (three, or the whole hand)."""
    table = cb.card_table(edition, card_set)
    want = min(3, len(hand))
    if not isinstance(value, list) or len(value) != want:
        raise _fail(where, f"with three_card_combat: a list of the {want} cards put face down")
    out: list[int] = []
    for i, card in enumerate(value):
        try:
            number = table.number(card)
        except (ValueError, TypeError):
            raise _fail(f"{where}[{i}]", f"unknown house card {card!r}") from None
        if number not in hand:
            raise _fail(f"{where}[{i}]", f"{card!r} is not in {house.id}'s hand")
        if number in out:
            raise _fail(f"{where}[{i}]", f"{card!r} is listed twice")
        out.append(number)
    return tuple(out)


def _supporters(
    spec: Mapping[str, Any],
    board: Board,
    area: int,
    attacker: House,
    defender: House | None,
    b: NDArray[np.int64],
    edition: str,
    siege: bool = False,
) -> tuple[Supporter, ...]:
    raw = spec.get("support", [])
    if not isinstance(raw, list):
        raise _fail("support", "must be a list of supporting orders")
    out = []
    backs: dict[House, tuple[int, int]] = {}  # house → (side, first entry)
    orders: dict[tuple[House, str], int] = {}
    for i, item in enumerate(raw):
        where = f"support[{i}]"
        item = _object(item, where)
        _check_keys(item, SUPPORT_KEYS, f"{where}.")
        house = _house(item.get("house"), f"{where}.house", edition)
        side_name = item.get("side")
        if side_name not in ("attacker", "defender"):
            raise _fail(f"{where}.side", f"must be 'attacker' or 'defender', got {side_name!r}")
        side = cb.ATTACKER if side_name == "attacker" else cb.DEFENDER
        if defender is None and side == cb.DEFENDER:
            raise _fail(f"{where}.side", "nobody can support a neutral force")
        if house in (attacker, defender) and house != (
            attacker if side == cb.ATTACKER else defender
        ):
            raise _fail(f"{where}.house", f"{house.id} cannot support its own opponent")
        if backs.setdefault(house, (side, i))[0] != side:
            first = backs[house][1]
            raise _fail(
                f"{where}.side",
                f"{house.id} already supports the other side (support[{first}]): a house backs "
                "one side of a battle",
            )
        order = item.get("order", "support+0")
        if order not in SUPPORT_ORDERS:
            raise _fail(
                f"{where}.order", f"{order!r} is not a support order (support+0, support+1)"
            )
        orders[(house, order)] = orders.get((house, order), 0) + 1
        if orders[(house, order)] > SUPPORT_TOKENS[order]:
            raise _fail(
                f"{where}.order",
                f"{house.id} has {SUPPORT_TOKENS[order]} {order} order token(s), this is one more",
            )
        units = _units(
            item.get("units", {}), f"{where}.units", board, area, supporting=True, siege=siege
        )
        if units.sum() == 0:
            raise _fail(f"{where}.units", "a support order needs units in its area")
        own = house == (attacker if side == cb.ATTACKER else defender)
        o = side * cb.SIDE + (cb.SUPPORT_OWN if own else cb.SUPPORT_ALLY)
        b[o : o + N_BASE] += units[:N_BASE]
        b[cb.DRAGON_SUPPORT + side] += units[Unit.DRAGON]
        b[side * cb.SIDE + cb.SUPPORT_BONUS] += SUPPORT_ORDERS[order]
        b[side * cb.SIDE + cb.SUPPORTERS] += 1
        units.setflags(write=False)
        out.append(Supporter(house, side, own, units, SUPPORT_ORDERS[order]))
    return tuple(out)


# the unit types with their own per-side slots in a battle vector (dragons have theirs apart)
N_BASE = cb.N_UNIT_TYPES


def _with_dragons(b: NDArray[np.int64], side: int, units: NDArray[np.int64]) -> NDArray[np.int64]:
    """``units`` (the base unit slots) with ``side``'s fighting dragons after them, by Unit."""
    return np.append(units, b[cb.DRAGONS + side]).astype(np.int64)


def _check_pieces(
    forces: list[tuple[House, NDArray[np.int64], str]], edition: str, siege: bool = False
) -> None:
    """Refuse more units of a type for a house (fighting, routed and supporting together) than
    the house has pieces of it (with the 1st edition's siege engines module, its siege engines
    too)."""
    limits = load_setup(edition, DEFAULT_PLAYERS[edition]).unit_limits
    houses = load_data(edition, "setup.json")["houses"] if siege else {}
    totals: dict[House, NDArray[np.int64]] = {}
    for house, units, where in forces:
        total = totals.setdefault(house, np.zeros(len(Unit), np.int64))
        total += units
        if total[Unit.DRAGON] and house != House.TARGARYEN:
            raise _fail(f"{where}.dragon", f"{house.id} has no dragons (House Targaryen's alone)")
        for unit in Unit:
            limit = limits.get(house, {}).get(unit)
            if siege and unit == Unit.SIEGE_ENGINE and house.id in houses:
                limit = houses[house.id]["unit_limits_with_clash_of_kings"]["siege_engine"]
            if limit is not None and total[unit] > limit:
                raise _fail(
                    f"{where}.{unit.id}",
                    f"{house.id} has {limit} {unit.id} pieces, the battle uses {int(total[unit])}",
                )


def card_id(battle: Battle, number: int | None) -> str | None:
    return None if number is None or number < 0 else battle.card_table.ids[number]


def card_name(battle: Battle, number: int | None) -> str:
    ident = card_id(battle, number)
    return "(no card)" if ident is None else house_card(battle.edition, ident).name
