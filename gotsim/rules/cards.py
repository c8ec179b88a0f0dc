"""House cards as frozen records, per edition, and the tables the combat code runs on.

``house_cards(edition, card_set)`` gives every card of a set; ``house_card(edition, card_id)``
one card (of any set); ``house_deck(edition, house, card_set)`` a house's seven. The sets a game
is played with (``CARD_SETS``): ``"base"`` (the edition's own decks) and, for the 2nd edition,
``"adwd"`` (the A Dance with Dragons decks of the six base houses, played with the
``adwd_house_cards`` variant) and ``"mod"`` (Mother of Dragons: the base decks, with House Arryn's
and House Targaryen's Mother of Dragons decks A). House Arryn plays A Feast for Crows' deck (the
listing's set ``"affc"``) with the sets ``"base"`` and ``"adwd"``, its Mother of Dragons deck
with ``"mod"``; House Targaryen its Mother of Dragons deck A with ``"base"`` and ``"mod"``, deck
B with ``"adwd"`` (as Swords and Ravens gives them). Arryn's and then Targaryen's cards follow
the set's 42 in every card table (``game_cards``), so that no other card changes number.
``Ability`` numbers the card abilities the combat code knows, keyed by the data's ``effect``
tags; ``card_table(edition, card_set)`` and ``tides_deck()`` are the arrays the compiled code
takes (the game's cards by number, the Tides of Battle deck).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from types import MappingProxyType
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from gotsim.data import load_data
from gotsim.rules.ids import House, Unit
from gotsim.rules.variants import GAME_CARD_SETS


class CardDataError(ValueError):
    """A card file is malformed, or a card id is unknown."""


TIMINGS: tuple[str, ...] = (
    "cancel",
    "immediately",
    "before_combat",
    "strength",
    "after_winner",
    "casualties",
    "retreat",
    "post_combat",
)


@dataclass(frozen=True)
class HouseCard:
    id: str
    house: House
    name: str
    strength: int
    swords: int
    fortifications: int
    ability: str | None  # paraphrased card text
    effect: str | None  # snake_case tag of the ability, None for a plain card
    timing: str | None  # one of TIMINGS
    params: Mapping[str, Any]


def _card(house: House, record: Mapping[str, Any]) -> HouseCard:
    for key in ("strength", "swords", "fortifications"):
        value = record.get(key)
        if not isinstance(value, int) or not 0 <= value <= 9:
            raise CardDataError(f"card {record.get('id')!r}: {key} must be 0-9, got {value!r}")
    timing = record.get("timing")
    if timing is not None and timing not in TIMINGS:
        raise CardDataError(f"card {record['id']!r}: unknown timing {timing!r}")
    return HouseCard(
        id=record["id"],
        house=house,
        name=record["name"],
        strength=record["strength"],
        swords=record["swords"],
        fortifications=record["fortifications"],
        ability=record.get("ability"),
        effect=record.get("effect"),
        timing=timing,
        params=MappingProxyType(dict(record.get("params") or {})),
    )


# the house-card sets a game may be played with: "base" the edition's own decks, "adwd" the A
# Dance with Dragons decks (2nd edition; the ``adwd_house_cards`` variant), by their key in
# ``house_cards_variants.json``
# and "mod" (Mother of Dragons: the base decks with Arryn's and Targaryen's Mother of Dragons
# decks A; a game names it through ``Rules.house_cards``)
CARD_SETS: tuple[str, ...] = GAME_CARD_SETS
# every set ``house_cards`` lists (``gotsim cards --set``): the game sets, then "affc" (A Feast
# for Crows: House Arryn's deck). The listing "mod" holds all 21 Mother of Dragons cards:
# Arryn's and Targaryen's decks A and Targaryen's deck B.
LISTED_SETS: tuple[str, ...] = (*CARD_SETS, "affc")
_VARIANT_SET_KEYS = {
    "adwd": ("a_dance_with_dragons",),
    "affc": ("a_feast_for_crows_arryn",),
    "mod": ("mother_of_dragons_a", "mother_of_dragons_b_targaryen"),
}
# the decks (a data set and a house) of Arryn and Targaryen in a game of each set: A Feast for
# Crows' Arryn deck with "base" and "adwd"; Targaryen's deck A with "base" and "mod", its deck B
# with "adwd" (S&R's adwdHouseCards option); Arryn's Mother of Dragons deck with "mod"
_EXTRA_DECKS: dict[str, tuple[tuple[str, str], ...]] = {
    "base": (("a_feast_for_crows_arryn", "arryn"), ("mother_of_dragons_a", "targaryen")),
    "adwd": (("a_feast_for_crows_arryn", "arryn"), ("mother_of_dragons_b_targaryen", "targaryen")),
    "mod": (("mother_of_dragons_a", "arryn"), ("mother_of_dragons_a", "targaryen")),
}


def _set_houses(edition: str, card_set: str) -> list[tuple[str, list[Mapping[str, Any]]]]:
    """The (house id, card records) of a listed set, in the data's order."""
    if card_set == "base":
        return list(load_data(edition, "house_cards.json")["houses"].items())
    if card_set not in _VARIANT_SET_KEYS:
        known = ", ".join(LISTED_SETS)
        raise CardDataError(f"unknown house-card set {card_set!r} (known: {known})")
    if edition != "2e":
        raise CardDataError(f"the {card_set} house cards belong to the 2nd edition")
    # (the A Feast for Crows set is Arryn's alone; Mother of Dragons' Arryn's and Targaryen's)
    sets = load_data(edition, "house_cards_variants.json")["sets"]
    return [(h, r) for key in _VARIANT_SET_KEYS[card_set] for h, r in sets[key]["houses"].items()]


@lru_cache(maxsize=8)
def house_cards(edition: str = "2e", card_set: str = "base") -> tuple[HouseCard, ...]:
    """Every house card of the edition's set, house by house in ``House`` order (the listing
    ``"mod"``: Arryn's deck A, Targaryen's deck A, then its deck B)."""
    cards: list[HouseCard] = []
    for house_id, records in _set_houses(edition, card_set):
        house = House.from_id(house_id)
        cards.extend(_card(house, r) for r in records)
    cards.sort(key=lambda c: c.house)
    ids = [c.id for c in cards]
    if len(set(ids)) != len(ids):
        raise CardDataError(f"{edition} {card_set} house cards repeat an id")
    return tuple(cards)


def card_sets(edition: str) -> tuple[str, ...]:
    """The house-card sets of an edition (``("base", "adwd", "mod", "affc")`` for the 2nd)."""
    return LISTED_SETS if edition == "2e" else ("base",)


@lru_cache(maxsize=8)
def game_cards(edition: str = "2e", card_set: str = "base") -> tuple[HouseCard, ...]:
    """The cards of a game played with ``card_set``, by card number: the six houses' 42, then
    (2nd edition) House Arryn's deck (numbers 42-48) and House Targaryen's (49-55) that the set
    gives them (``_EXTRA_DECKS``).

    >>> [c.id for c in game_cards("2e")][42:44]
    ['bronze_yohn_royce_ffc', 'littlefinger']
    >>> [c.id for c in game_cards("2e", "mod")][42], [c.id for c in game_cards("2e", "adwd")][49]
    ('lysa_arryn_mod', 'daenerys_targaryen_b')
    """
    if card_set not in CARD_SETS:
        raise CardDataError(f"unknown game house-card set {card_set!r} (known: {CARD_SETS})")
    if edition != "2e":
        return house_cards(edition, card_set)
    sets = load_data(edition, "house_cards_variants.json")["sets"]
    cards = house_cards(edition, "adwd" if card_set == "adwd" else "base")
    for key, house_id in _EXTRA_DECKS[card_set]:
        house = House.from_id(house_id)
        cards += tuple(_card(house, r) for r in sets[key]["houses"][house_id])
    return cards


# the vassal house cards (Mother of Dragons; the ``vassals`` variant): seven cards shared by
# every vassal, numbered after the 56 cards of every 2nd-edition game (``card_table``); a vassal
# is dealt three of them in each combat (docs/rules.md V12)
VASSAL_CARD_FIRST = 56
VASSAL_CARD_COUNT = 7
VASSAL_HOUSE = -1  # ``CardTable.house`` of a vassal card: no house's own


@lru_cache(maxsize=1)
def vassal_cards() -> tuple[HouseCard, ...]:
    """The seven vassal house cards, in the data's order (Varys, Syrio Forel, Jaqen H'ghar,
    Janos Slynt, Jon Connington, Beric Dondarrion, Bronn). Their ``house`` field is a
    placeholder (``House(0)``): they belong to no house; ``card_table`` gives them
    ``VASSAL_HOUSE``."""
    records = load_data("2e", "house_cards_variants.json")["sets"]["mother_of_dragons_vassal"]
    return tuple(_card(House(0), r) for r in records["cards"])


@lru_cache(maxsize=4)
def _by_id(edition: str) -> Mapping[str, HouseCard]:
    cards = {c.id: c for card_set in card_sets(edition) for c in house_cards(edition, card_set)}
    if edition == "2e":
        cards.update((c.id, c) for c in vassal_cards())
    return MappingProxyType(cards)


def house_card(edition: str, card_id: str) -> HouseCard:
    """One card of the edition, of any of its sets (card ids are unique across sets)."""
    try:
        return _by_id(edition)[card_id]
    except KeyError:
        raise CardDataError(f"unknown {edition} house card {card_id!r}") from None


def house_deck(edition: str, house: House, card_set: str = "base") -> tuple[HouseCard, ...]:
    """A house's seven cards in a game played with ``card_set`` (House Arryn and House
    Targaryen: the decks the set gives them, ``game_cards``; empty for a house without cards in
    the edition)."""
    return tuple(c for c in game_cards(edition, card_set) if c.house == house)


class Ability(IntEnum):
    """House-card abilities that the combat code knows, keyed by the data's ``effect`` tag."""

    NONE = 0
    STANNIS = 1
    RENLY = 2
    DAVOS = 3
    SALLADHOR = 4
    PATCHFACE = 5
    TYWIN = 6
    KEVAN = 7
    TYRION = 8
    CERSEI = 9
    ROBB = 10
    ROOSE = 11
    BLACKFISH = 12
    CATELYN = 13
    VICTARION = 14
    BALON = 15
    THEON = 16
    ASHA = 17
    AERON = 18
    MACE = 19
    LORAS = 20
    QUEEN_OF_THORNS = 21
    ARIANNE = 22
    NYMERIA = 23
    DORAN = 24
    # 1st edition (base game)
    SALLADHOR_1E = 25
    ATTACKING_UNITS_PLUS1 = 26  # Vargo Hoat, Robb Stark, Victarion Greyjoy: the unit is ``ref``
    JAIME_1E = 27
    MELISANDRE_1E = 28
    LUWIN_1E = 29
    ASHA_1E = 30
    LORAS_1E = 31
    QUEEN_OF_THORNS_1E = 32
    BRIENNE_1E = 33
    RENLY_1E = 34
    # 2nd edition, A Dance with Dragons house cards (the ``adwd_house_cards`` variant); its Queen
    # of Thorns cancels the opponent's text as the 1st edition's does (QUEEN_OF_THORNS_1E)
    ILYN_PAYNE = 35
    ADDAM_MARBRAND = 36
    QYBURN = 37
    RAMSAY_BOLTON = 38
    WALDER_FREY = 39
    REEK = 40
    STANNIS_DWD = 41
    JON_SNOW = 42
    MELISANDRE_DWD = 43
    MANCE_RAYDER = 44
    EURON_DWD = 45
    RODRIK_THE_READER = 46
    QARL_THE_MAID = 47
    AERON_DWD = 48
    DORAN_DWD = 49
    GERRIS_DRINKWATER = 50
    QUENTYN_MARTELL = 51
    PAXTER_REDWYNE = 52
    MARGAERY_DWD = 53
    # 2nd edition, A Feast for Crows: House Arryn's deck (played in every 2nd-edition game)
    BRONZE_YOHN_ROYCE_FFC = 54
    LITTLEFINGER = 55
    ALAYNE_STONE = 56
    LYSA_ARRYN_FFC = 57
    # 2nd edition, Mother of Dragons: House Arryn's deck A (the set "mod")
    LYSA_ARRYN_MOD = 58
    SER_VARDIS_EGEN = 59
    GODRIC_BORRELL = 60
    ANYA_WAYNWOOD = 61
    ROBERT_ARRYN = 62
    # House Targaryen's deck A (the sets "base" and "mod") and deck B (the set "adwd")
    KHAL_DROGO = 63
    XARO_XHOAN_DAXOS = 64
    DAENERYS_TARGARYEN_A = 65
    VISERYS_TARGARYEN = 66
    ILLYRIO_MOPATIS = 67
    DAENERYS_TARGARYEN_B = 68
    CAPTAIN_GROLEO = 69
    RAKHARO = 70
    MISSANDEI = 71
    # Mother of Dragons: the vassal house cards (the ``vassals`` variant; every 2nd-edition
    # card table numbers them 56-62, ``VASSAL_CARD_FIRST``)
    VARYS = 72
    SYRIO_FOREL = 73
    JAQEN_H_GHAR = 74
    JON_CONNINGTON = 75
    BERIC_DONDARRION = 76
    BRONN = 77


EFFECT_TAGS: dict[str, Ability] = {
    "stannis_plus1_if_opponent_higher_on_iron_throne": Ability.STANNIS,
    "renly_upgrade_footman_on_win": Ability.RENLY,
    "davos_bonus_if_stannis_discarded": Ability.DAVOS,
    "salladhor_non_baratheon_ships_zero_if_supported": Ability.SALLADHOR,
    "patchface_discard_from_opponent_hand": Ability.PATCHFACE,
    "tywin_gain_2_power_on_win": Ability.TYWIN,
    "kevan_attacking_footmen_plus1": Ability.KEVAN,
    "tyrion_cancel_opponent_card": Ability.TYRION,
    "cersei_remove_opponent_order_on_win": Ability.CERSEI,
    "robb_choose_retreat_area_on_win": Ability.ROBB,
    "roose_recover_discards_on_loss": Ability.ROOSE,
    "blackfish_no_casualties": Ability.BLACKFISH,
    "catelyn_double_defense_order": Ability.CATELYN,
    "victarion_attacking_ships_plus1": Ability.VICTARION,
    "balon_opponent_card_printed_strength_zero": Ability.BALON,
    "theon_defending_fortified_bonus": Ability.THEON,
    "asha_bonus_if_unsupported": Ability.ASHA,
    "aeron_pay2_swap_card": Ability.AERON,
    "mace_destroy_opponent_footman": Ability.MACE,
    "loras_march_order_moves_on_win": Ability.LORAS,
    "queen_of_thorns_remove_adjacent_order": Ability.QUEEN_OF_THORNS,
    "arianne_block_attacker_advance": Ability.ARIANNE,
    "nymeria_sword_or_fortification": Ability.NYMERIA,
    "doran_opponent_to_bottom_of_track": Ability.DORAN,
    # A Dance with Dragons
    "ilyn_destroy_enemy_footman_anywhere_on_win": Ability.ILYN_PAYNE,
    "addam_attacking_knights_plus1": Ability.ADDAM_MARBRAND,
    "qyburn_copy_discarded_card_icons": Ability.QYBURN,
    "ramsay_bonus_if_reek_in_hand": Ability.RAMSAY_BOLTON,
    "walder_frey_redirect_support": Ability.WALDER_FREY,
    "reek_return_ramsay_and_self": Ability.REEK,
    "stannis_dwd_remove_adjacent_support_if_unsupported": Ability.STANNIS_DWD,
    "jon_snow_shift_wildling_track_on_win": Ability.JON_SNOW,
    "melisandre_dwd_buy_back_discarded_card": Ability.MELISANDRE_DWD,
    "mance_final_strength_equals_wildling_threat": Ability.MANCE_RAYDER,
    "euron_plus1_if_opponent_higher_on_fiefdoms": Ability.EURON_DWD,
    "rodrik_stack_westeros_deck_on_win": Ability.RODRIK_THE_READER,
    "qarl_gain_3_power_if_attacking_and_lose": Ability.QARL_THE_MAID,
    "aeron_dwd_buy_strength_with_power": Ability.AERON_DWD,
    "doran_dwd_icons_per_card_in_hand": Ability.DORAN_DWD,
    "gerris_move_up_one_track_on_win": Ability.GERRIS_DRINKWATER,
    "quentyn_plus1_per_discarded_card": Ability.QUENTYN_MARTELL,
    "queen_of_thorns_dwd_ignore_opponent_text": Ability.QUEEN_OF_THORNS_1E,
    "paxter_sea_ships_plus1": Ability.PAXTER_REDWYNE,
    "margaery_dwd_cap_opponent_final_strength": Ability.MARGAERY_DWD,
    # A Feast for Crows (Arryn)
    "yohn_ffc_plus1_if_more_power": Ability.BRONZE_YOHN_ROYCE_FFC,
    "littlefinger_power_from_opponent_card": Ability.LITTLEFINGER,
    "alayne_pay2_opponent_loses_all_power": Ability.ALAYNE_STONE,
    "lysa_ffc_gain_3_if_opponent_richer": Ability.LYSA_ARRYN_FFC,
    # Mother of Dragons (Arryn's and Targaryen's decks A, Targaryen's deck B)
    "lysa_mod_return_to_hand_if_defense_order_win": Ability.LYSA_ARRYN_MOD,
    "vardis_bonus_vs_weak_card": Ability.SER_VARDIS_EGEN,
    "godric_sea_defense_plus1_per_adjacent_land": Ability.GODRIC_BORRELL,
    "anya_power_to_self_and_supporters_on_win": Ability.ANYA_WAYNWOOD,
    "robert_arryn_remove_self_and_opponent_discard": Ability.ROBERT_ARRYN,
    "drogo_knight_bonus_then_removed": Ability.KHAL_DROGO,
    "xaro_ships_plus1_if_more_ships": Ability.XARO_XHOAN_DAXOS,
    "daenerys_a_plus2_if_dragon_present": Ability.DAENERYS_TARGARYEN_A,
    "viserys_discard_card_for_strength": Ability.VISERYS_TARGARYEN,
    "illyrio_power_from_strength_difference": Ability.ILLYRIO_MOPATIS,
    "daenerys_b_opponent_loses_power_by_difference": Ability.DAENERYS_TARGARYEN_B,
    "groleo_plus1_per_adjacent_ship_when_transporting": Ability.CAPTAIN_GROLEO,
    "rakharo_knights_plus2_in_open_land": Ability.RAKHARO,
    "missandei_recover_card_on_close_loss": Ability.MISSANDEI,
    # Mother of Dragons: the vassal house cards
    "varys_vassal_to_top_of_fiefdoms": Ability.VARYS,
    "syrio_non_vassal_footmen_zero_when_defending": Ability.SYRIO_FOREL,
    "jaqen_random_replacement_for_opponent_card": Ability.JAQEN_H_GHAR,
    "connington_muster_knight_after_loss": Ability.JON_CONNINGTON,
    "beric_vassal_loses_unit_on_win": Ability.BERIC_DONDARRION,
    "bronn_opponent_may_pay2_to_zero": Ability.BRONN,
}

# the 1st edition's tags; a tag shared with the 2nd edition maps to the same ability only where
# the effect is the same (Victarion and Renly are narrower in 1e: fighting units only)
EFFECT_TAGS_1E: dict[str, Ability] = {
    "renly_upgrade_footman_on_win": Ability.RENLY_1E,
    "melisandre_pay1_discard_from_opponent_hand_on_win": Ability.MELISANDRE_1E,
    "salladhor_opponent_supporting_ships_zero": Ability.SALLADHOR_1E,
    "jaime_gain_2_power_on_win": Ability.JAIME_1E,
    "cersei_remove_opponent_order_on_win": Ability.CERSEI,
    "vargo_attacking_footmen_plus1": Ability.ATTACKING_UNITS_PLUS1,
    "robb_attacking_knights_plus1": Ability.ATTACKING_UNITS_PLUS1,
    "victarion_attacking_ships_plus1": Ability.ATTACKING_UNITS_PLUS1,
    "catelyn_double_defense_order": Ability.CATELYN,
    "luwin_return_discard_on_win": Ability.LUWIN_1E,
    "asha_remove_adjacent_support_or_consolidate_on_win": Ability.ASHA_1E,
    "balon_opponent_card_printed_strength_zero": Ability.BALON,
    "loras_destroy_opponent_footman": Ability.LORAS_1E,
    "queen_of_thorns_cancel_opponent_text": Ability.QUEEN_OF_THORNS_1E,
    "brienne_remove_opponent_defense_order": Ability.BRIENNE_1E,
}
EFFECT_TAGS_BY_EDITION: dict[str, dict[str, Ability]] = {"2e": EFFECT_TAGS, "1e": EFFECT_TAGS_1E}


# abilities whose whole effect happens after the victor is known, on the rest of the board
# (orders, hands, retreats, unit upgrades): the engine applies them, the odds do not depend on them
AFTER_COMBAT_ONLY = frozenset(
    {
        Ability.RENLY,
        Ability.PATCHFACE,
        Ability.CERSEI,
        Ability.ROBB,
        Ability.ROOSE,
        Ability.LORAS,
        Ability.ARIANNE,
        # A Dance with Dragons: choices on the board, the tracks, the Westeros decks and hands
        Ability.ILYN_PAYNE,
        Ability.JON_SNOW,
        Ability.RODRIK_THE_READER,
        Ability.GERRIS_DRINKWATER,
        Ability.MELISANDRE_DWD,
        # Mother of Dragons: a card back to the hand, cards out of the game
        Ability.LYSA_ARRYN_MOD,
        Ability.ROBERT_ARRYN,
        Ability.MISSANDEI,
        # the vassal cards: the Fiefdoms track, a knight mustered, a unit lost after the combat
        Ability.VARYS,
        Ability.JON_CONNINGTON,
        Ability.BERIC_DONDARRION,
    }
)
# 1st edition: abilities that act on the board outside the battle (orders anywhere, or next to
# it). The combat code cannot carry them; the engine does.
BOARD_ONLY_1E = frozenset({Ability.CERSEI, Ability.ASHA_1E})


def implemented_in(effect: str | None, edition: str = "2e") -> list[str]:
    """Which parts of gotsim carry out a card's ability (``gotsim cards --json``): ``combat``
    (``engine/combat.py``, used by the odds calculator and the engine) and ``engine`` (the
    game).

    In the 1st edition the abilities that remove orders elsewhere on the board (Cersei, Asha)
    are the engine's alone.

    >>> implemented_in("vargo_attacking_footmen_plus1", "1e")
    ['combat', 'engine']
    >>> implemented_in("asha_remove_adjacent_support_or_consolidate_on_win", "1e")
    ['engine']
    """
    tags = EFFECT_TAGS_BY_EDITION[edition]
    ability = tags.get(effect) if effect is not None else Ability.NONE
    if ability is None:
        return []
    if edition != "2e":
        return ["engine"] if ability in BOARD_ONLY_1E else ["combat", "engine"]
    if ability in AFTER_COMBAT_ONLY:
        return ["engine"]  # acts after the victor is known: no effect on the odds
    return ["combat", "engine"]


class CardTable(NamedTuple):
    """An edition's house cards as parallel arrays indexed by card number (axis ``C``)."""

    ids: tuple[str, ...]
    house: NDArray[np.int64]
    strength: NDArray[np.int64]
    swords: NDArray[np.int64]
    fortifications: NDArray[np.int64]
    ability: NDArray[np.int64]  # Ability value
    ref: NDArray[np.int64]  # a card the ability refers to (Davos → Stannis), -1 if none

    def number(self, card_id: str) -> int:
        return self.ids.index(card_id)

    def arrays(self) -> tuple[NDArray[np.int64], ...]:
        """The arrays the compiled functions take: strength, swords, forts, ability, ref."""
        return (self.strength, self.swords, self.fortifications, self.ability, self.ref)


# the card an ability refers to (``CardTable.ref``): Davos → Stannis, Ramsay ↔ Reek
_REF_CARDS = {
    Ability.DAVOS: "stannis_baratheon",
    Ability.RAMSAY_BOLTON: "reek",
    Ability.REEK: "ramsay_bolton",
}


@lru_cache(maxsize=8)
def card_table(edition: str = "2e", card_set: str = "base") -> CardTable:
    """The card arrays of a game played with an edition's set (numbered in
    ``game_cards(edition, card_set)`` order); every card's ``effect`` tag must be known to the
    combat code."""
    cards = game_cards(edition, card_set)
    houses = [int(c.house) for c in cards]
    if edition == "2e":  # the vassal cards follow the game's 56 (numbers 56-62)
        if len(cards) != VASSAL_CARD_FIRST:
            raise CardDataError(f"a 2e game has {len(cards)} cards, not {VASSAL_CARD_FIRST}")
        cards += vassal_cards()
        houses += [VASSAL_HOUSE] * VASSAL_CARD_COUNT
    tags = EFFECT_TAGS_BY_EDITION[edition]
    ids = tuple(c.id for c in cards)
    ability = np.zeros(len(cards), np.int64)
    ref = np.full(len(cards), -1, np.int64)
    for i, c in enumerate(cards):
        if c.effect is not None:
            if c.effect not in tags:
                raise NotImplementedError(f"{edition} card {c.id}: ability {c.effect!r} unknown")
            ability[i] = tags[c.effect]
        if ability[i] in _REF_CARDS:
            ref[i] = next(j for j, d in enumerate(cards) if d.id == _REF_CARDS[Ability(ability[i])])
        elif ability[i] == Ability.ATTACKING_UNITS_PLUS1:
            if c.params.get("per_unit_bonus") != 1 or c.params.get("includes_own_support"):
                raise NotImplementedError(f"{edition} card {c.id}: params {dict(c.params)}")
            ref[i] = int(Unit.from_id(c.params["unit"]))
    table = CardTable(
        ids=ids,
        house=np.array(houses, np.int64),
        strength=np.array([c.strength for c in cards], np.int64),
        swords=np.array([c.swords for c in cards], np.int64),
        fortifications=np.array([c.fortifications for c in cards], np.int64),
        ability=ability,
        ref=ref,
    )
    for array in table[1:]:
        array.setflags(write=False)
    return table


class TidesDeck(NamedTuple):
    """The Tides of Battle deck by card type (axis ``T``)."""

    ids: tuple[str, ...]
    counts: NDArray[np.int64]
    strength: NDArray[np.int64]
    swords: NDArray[np.int64]
    fortifications: NDArray[np.int64]
    skulls: NDArray[np.int64]

    def arrays(self) -> tuple[NDArray[np.int64], ...]:
        """The arrays the compiled functions take: count, strength, swords, forts, skulls."""
        return (self.counts, self.strength, self.swords, self.fortifications, self.skulls)


@lru_cache(maxsize=1)
def tides_deck() -> TidesDeck:
    cards = load_data("2e", "tides_of_battle.json")["cards"]
    deck = TidesDeck(
        ids=tuple(c["id"] for c in cards),
        counts=np.array([c["count"] for c in cards], np.int64),
        strength=np.array([c["strength"] for c in cards], np.int64),
        swords=np.array([c["swords"] for c in cards], np.int64),
        fortifications=np.array([c["fortifications"] for c in cards], np.int64),
        skulls=np.array([c["skulls"] for c in cards], np.int64),
    )
    for array in deck[1:]:
        array.setflags(write=False)
    return deck
