"""The one combat implementation: strength breakdown, victor, casualties, retreat losses and the
house-card abilities that act inside a battle, for the engine and the odds calculator alike.

A battle is a flat ``int64`` vector (``new_battle``) whose slots are named below: two sides
(attacker 0, defender 1) of ``SIDE`` slots each, then the battle-wide slots. Keeping it flat lets
the same functions run compiled (numba) in the engine's hot loop, in the exact enumeration of the
odds calculator, and as plain Python under ``NUMBA_DISABLE_JIT=1``.

Decisions inside a combat (Tyrion's cancel, Aeron's swap, Queen of Thorns' target, Doran's track,
Valyrian Steel Blade use, casualty choice) are made by the caller: the engine asks the players'
policies, the odds calculator applies its documented choice rules. The functions here apply a
decision once it is made.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from gotsim.jit import njit
from gotsim.rules.cards import (
    VASSAL_CARD_COUNT,
    VASSAL_CARD_FIRST,
    Ability,
    CardTable,
    card_table,
    tides_deck,
)
from gotsim.rules.ids import DRAGON, FOOTMAN, KNIGHT, SHIP, SIEGE, House
from gotsim.rules.units import unit_facts

ATTACKER, DEFENDER = 0, 1
# the unit types with per-side slots below (footman, knight, ship, siege engine); Mother of
# Dragons' dragons have their own appended slots (DRAGONS), so the layout stays as it was
N_UNIT_TYPES = 4

# --- per-side slots (add ``side * SIDE``) ------------------------------------------------------
UNITS = 0  # 4 slots: units taking part (marching attackers / defenders in the area), by Unit
ROUTED = 4  # 4 slots: routed defenders in the area (no strength; destroyed if they must retreat)
SUPPORT_OWN = 8  # 4 slots: supporting units of the side's own house, by Unit
SUPPORT_ALLY = 12  # 4 slots: supporting units of other houses on this side, by Unit
SUPPORT_BONUS = 16  # sum of the support orders' modifiers on this side
SUPPORTERS = 17  # number of support orders backing this side
ORDER_BONUS = 18  # march modifier (attacker) or defense modifier (defender); 0 without one
HAS_DEFENSE = 19  # 1 if the defender has a defense order in the embattled area
GARRISON = 20  # garrison strength (defender)
CARD = 21  # house card number in the edition's card table, -1 for none
HOUSE = 22  # House value, -1 for a neutral force
BLADE_HOLDER = 23  # 1 if this side holds an unused Valyrian Steel Blade
BLADE_USED = 24  # 1 if this side spends the blade's +1 in this combat
TIDES = 25  # Tides of Battle card type drawn, -1 for none
HAND = 26  # bit mask of card numbers in hand (the played card excluded)
DISCARDS = 27  # bit mask of card numbers in the discard pile
POWER = 28  # power tokens available
IRON_THRONE_POS = 29  # 0 = top of the Iron Throne track
FIEFDOMS_POS = 30  # 0 = top of the Fiefdoms track
TEXT_IGNORED = 31  # 1 if this side's card text is cancelled (it still counts its numbers)
POWER_DELTA = 32  # power gained (+) or paid (-) through card abilities in this combat
NO_RETREAT = 33  # 1 if this side would have no legal retreat (its units die if it loses)
PRE_LOST = 34  # 4 slots: units destroyed by abilities before strengths are compared, by Unit
SIDE = 38
# --- battle-wide slots -------------------------------------------------------------------------
# bits: 1 the embattled area has a castle or stronghold; FORTIFICATION_TOKEN the defender's
# fortification (1e A Clash of Kings variant) stands there
FORTIFIED = 2 * SIDE
FORTIFICATION_TOKEN = 2
SEA_BATTLE = FORTIFIED + 1  # 1 if the embattled area is a sea
RAINS = FORTIFIED + 2  # 1 when supporting footmen add no strength (1st-edition Rains of Autumn)
FIRST_EDITION = FORTIFIED + 3  # 1 for a 1st-edition battle (routed units killed are no casualties)
# the unit facts the battle is fought with (``rules.units``; the engine copies them from the rules
# table, a battle spec from its edition's data): 4 slots of strength by Unit, then a siege
# engine's strength attacking a castle or stronghold and an attacking knight's where a
# fortification stands
STRENGTH = FORTIFIED + 4
SIEGE_CASTLE = STRENGTH + N_UNIT_TYPES
FORTIFIED_KNIGHT = SIEGE_CASTLE + 1
# A Dance with Dragons house cards (appended, so that the slots above keep their places): per
# side (add ``3 * side``) strength, swords and fortifications added to its card (Qyburn's copy,
# Aeron Damphair's power); per side (add ``side``) 1 if its card goes back to the hand instead of
# the discards (Reek), 1 if a card fixes its final strength (Mance Rayder, Margaery Tyrell:
# written by ``board_and_card_strength``; the blade and Tides of Battle add nothing to it then);
# the wildling threat (Mance); 1 if the embattled area is the defender's home area or holds its
# power token (Margaery)
CARD_PLUS = FORTIFIED_KNIGHT + 1
KEEP_CARD = CARD_PLUS + 6
FINAL_FIXED = KEEP_CARD + 2
THREAT = FINAL_FIXED + 2
DEFENDER_HOLDS = THREAT + 1
# A Feast for Crows (House Arryn's cards; appended likewise), per side (add ``side``): whether
# the side's house holds its home area once the combat is over (Littlefinger, Alayne Stone), an
# input of the odds calculator: HOME_ELSEWHERE held and not fought over, HOME_HERE the embattled
# area itself (held by the side exactly when it wins); 0 not held. The engine reads the board.
HOME_HELD = DEFENDER_HOLDS + 1
HOME_ELSEWHERE, HOME_HERE = 1, 2
# Mother of Dragons (Arryn's and Targaryen's cards; appended likewise), per side (add ``side``):
# what the board around the battle counts for Godric Borrell (the defender: the land areas next
# to the embattled sea it controls) and Captain Groleo (the attacker, when its march into a land
# area used ship transport: its ships in the areas next to the embattled area); 0 otherwise.
# The engine counts them on the board, a battle spec gives them.
NEARBY = HOME_HELD + 2
# Mother of Dragons' dragons (appended likewise): per side (add ``side``) the dragons fighting
# and the dragons supporting it, and the strength of a dragon in this battle (it goes by the
# round, ``docs/rules.md`` M10)
DRAGONS = NEARBY + 2
DRAGON_SUPPORT = DRAGONS + 2
DRAGON_STRENGTH = DRAGON_SUPPORT + 2
# Vassals (Mother of Dragons' vassal house cards; appended likewise), per side (add ``side``):
# VASSAL 1 when the side's house is a vassal (it plays the vassal cards, numbers
# ``VASSAL_CARD_FIRST``…); NON_VASSAL_ALLY_FOOTMEN the footmen supporting the side from houses
# other than its own that are not vassals (Syrio Forel zeroes them with the side's own footmen
# when the side is not a vassal). The engine fills them, a battle spec's ``vassals`` gives them.
VASSAL = DRAGON_STRENGTH + 1
NON_VASSAL_ALLY_FOOTMEN = VASSAL + 2
BATTLE_LEN = NON_VASSAL_ALLY_FOOTMEN + 2

# --- strength breakdown components (``strength_breakdown`` output columns) ----------------------
PART_NAMES = (
    "units",
    "order",
    "support",
    "garrison",
    "card",
    "blade",
    "tides",
    "card_modifiers",
    "total",
    "swords",
    "fortifications",
    "skulls",
)
P_UNITS, P_ORDER, P_SUPPORT, P_GARRISON, P_CARD, P_BLADE, P_TIDES, P_MODS = range(8)
P_TOTAL, P_SWORDS, P_FORTS, P_SKULLS = 8, 9, 10, 11
N_PARTS = len(PART_NAMES)

# casualty choice order when the odds calculator (or a policy's default) picks units to lose: a
# loser's siege engines are never casualties (they are destroyed in addition, since they cannot
# retreat; C9, C10), a winner may lose one to a skull
LOSER_CASUALTY_ORDER = np.array([FOOTMAN, SHIP, KNIGHT], np.int64)
WINNER_CASUALTY_ORDER = np.array([FOOTMAN, SHIP, SIEGE, KNIGHT], np.int64)


# the card vocabulary and tables the combat code runs on (built from the data in rules.cards)


def new_battle(edition: str = "2e") -> NDArray[np.int64]:
    """An empty battle vector: no units, no cards, no Tides, nobody holding the blade; units
    fight with the edition's strengths."""
    b = np.zeros(BATTLE_LEN, np.int64)
    facts = unit_facts(edition)
    set_unit_strengths(
        b,
        np.array(facts.strength, np.int64),
        facts.siege_against_castle,
        facts.knight_against_fortification,
    )
    for side in (ATTACKER, DEFENDER):
        o = side * SIDE
        b[o + CARD] = -1
        b[o + TIDES] = -1
        b[o + HOUSE] = -1
        b[o + IRON_THRONE_POS] = side
        b[o + FIEFDOMS_POS] = side
    return b


# --- the compiled core --------------------------------------------------------------------------


@njit
def set_unit_strengths(b, strength, siege_castle: int, fortified_knight: int) -> None:
    """Copy the unit facts into the battle vector ``b`` (``strength`` by Unit)."""
    for u in range(N_UNIT_TYPES):
        b[STRENGTH + u] = strength[u]
    b[SIEGE_CASTLE] = siege_castle
    b[FORTIFIED_KNIGHT] = fortified_knight


@njit
def active_ability(b: NDArray[np.int64], side: int, card_ability: NDArray[np.int64]) -> int:
    """The ability of ``side``'s card, or NONE when it has no card or its text is cancelled."""
    card = b[side * SIDE + CARD]
    if card < 0 or b[side * SIDE + TEXT_IGNORED] != 0:
        return 0
    return card_ability[card]


@njit
def _ship_strength(
    b: NDArray[np.int64], side: int, ally: bool, card_ability: NDArray[np.int64]
) -> int:
    """Whether ships count (1), or not (0) where Salladhor Saan (supported) zeroes ships not
    belonging to his house."""
    for holder in (ATTACKER, DEFENDER):
        if _salladhor_zeroes(b, holder, card_ability) and (holder != side or ally):
            return 0
    return 1


@njit
def ship_strengths(b: NDArray[np.int64], card_ability: NDArray[np.int64]):
    """``_ship_strength`` of the attacker's own ships, the defender's own ships and the allies'
    ships (1 they count, 0 they do not), with Salladhor Saan looked for once: supported, he
    zeroes his opponent's own ships and every ally's."""
    zeroes_att = _salladhor_zeroes(b, ATTACKER, card_ability)
    zeroes_def = _salladhor_zeroes(b, DEFENDER, card_ability)
    allies = 0 if (zeroes_att or zeroes_def) else 1
    return (0 if zeroes_def else 1), (0 if zeroes_att else 1), allies


@njit(inline="always")
def _salladhor_zeroes(b: NDArray[np.int64], holder: int, card_ability: NDArray[np.int64]) -> bool:
    """``holder`` plays Salladhor Saan and is supported: other houses' ships count 0."""
    return (
        active_ability(b, holder, card_ability) == Ability.SALLADHOR
        and b[holder * SIDE + SUPPORTERS] > 0
    )


@njit
def strength_breakdown(
    b: NDArray[np.int64], cards: tuple, tides: tuple, out: NDArray[np.int64]
) -> None:
    """Fill ``out`` (2, N_PARTS) with each side's strength components, swords, forts and skulls.

    ``cards`` is ``CardTable.arrays()`` and ``tides`` is ``TidesDeck.arrays()``. The Valyrian
    Steel Blade and Tides of Battle only ever add to the rest, so the computation is split in
    ``board_and_card_strength`` (once per battle) and ``add_chance_strength`` (per draw).
    """
    board_and_card_strength(b, cards, out)
    add_chance_strength(b, tides, out, out)


@njit
def add_chance_strength(
    b: NDArray[np.int64], tides: tuple, base: NDArray[np.int64], out: NDArray[np.int64]
) -> None:
    """``out`` = ``base`` (from ``board_and_card_strength``) plus the blade and Tides cards."""
    _, tides_strength, tides_swords, tides_forts, tides_skulls = tides
    for side in (ATTACKER, DEFENDER):
        o = side * SIDE
        for part in range(N_PARTS):
            out[side, part] = base[side, part]
        out[side, P_BLADE] = b[o + BLADE_USED]
        t = b[o + TIDES]
        if t >= 0:
            out[side, P_TIDES] = tides_strength[t]
            out[side, P_SWORDS] += tides_swords[t]
            out[side, P_FORTS] += tides_forts[t]
            out[side, P_SKULLS] = tides_skulls[t]
        if b[FINAL_FIXED + side] != 0:  # a fixed final strength (Mance Rayder, Margaery Tyrell)
            out[side, P_MODS] -= out[side, P_BLADE] + out[side, P_TIDES]
        else:
            out[side, P_TOTAL] += out[side, P_BLADE] + out[side, P_TIDES]


@njit
def board_and_card_strength(b: NDArray[np.int64], cards: tuple, out: NDArray[np.int64]) -> None:
    """Every strength component except the blade and Tides of Battle (those stay 0)."""
    card_strength, card_swords, card_forts, card_ability, card_ref = cards
    out[:2, :] = 0
    own_att, own_def, allies = ship_strengths(b, card_ability)
    for side in (ATTACKER, DEFENDER):
        o = side * SIDE
        other = 1 - side
        attacking = side == ATTACKER
        mine = active_ability(b, side, card_ability)
        theirs = active_ability(b, other, card_ability)
        footman = b[STRENGTH + FOOTMAN]
        siege = b[SIEGE_CASTLE] if (attacking and b[FORTIFIED] != 0) else b[STRENGTH + SIEGE]
        ship = b[STRENGTH + SHIP]
        own_ships_count = own_att if attacking else own_def  # 0 where Salladhor zeroes them
        own_support_ships_count, ally_ships_count = own_ships_count, allies
        if theirs == Ability.SALLADHOR_1E:  # ships supporting his opponent add nothing
            own_support_ships_count, ally_ships_count = 0, 0
        supporting_footmen_count = 0 if b[RAINS] != 0 else 1
        # a fortification: attacking knights and knights supporting the attack count less
        fortified = attacking and b[FORTIFIED] & FORTIFICATION_TOKEN
        knight = b[FORTIFIED_KNIGHT] if fortified else b[STRENGTH + KNIGHT]

        out[side, P_UNITS] = (
            footman * b[o + UNITS + FOOTMAN]
            + knight * b[o + UNITS + KNIGHT]
            + ship * own_ships_count * b[o + UNITS + SHIP]
            + siege * b[o + UNITS + SIEGE]
            + b[DRAGON_STRENGTH] * b[DRAGONS + side]
        )
        out[side, P_ORDER] = b[o + ORDER_BONUS]
        out[side, P_SUPPORT] = (
            footman
            * supporting_footmen_count
            * (b[o + SUPPORT_OWN + FOOTMAN] + b[o + SUPPORT_ALLY + FOOTMAN])
            + knight * (b[o + SUPPORT_OWN + KNIGHT] + b[o + SUPPORT_ALLY + KNIGHT])
            + ship * own_support_ships_count * b[o + SUPPORT_OWN + SHIP]
            + ship * ally_ships_count * b[o + SUPPORT_ALLY + SHIP]
            + siege * (b[o + SUPPORT_OWN + SIEGE] + b[o + SUPPORT_ALLY + SIEGE])
            + b[DRAGON_STRENGTH] * b[DRAGON_SUPPORT + side]
            + b[o + SUPPORT_BONUS]
        )
        out[side, P_GARRISON] = b[o + GARRISON]
        if not attacking and b[FORTIFIED] & FORTIFICATION_TOKEN:
            out[side, P_GARRISON] += 1  # a fortification counts with the garrisons: +1
        card = b[o + CARD]
        mods = 0
        if card >= 0:
            out[side, P_CARD] = 0 if theirs == Ability.BALON else card_strength[card]
            out[side, P_SWORDS] = card_swords[card] + b[CARD_PLUS + 3 * side + 1]
            out[side, P_FORTS] = card_forts[card] + b[CARD_PLUS + 3 * side + 2]
            mods += b[CARD_PLUS + 3 * side]
        if mine == Ability.STANNIS:
            if b[other * SIDE + IRON_THRONE_POS] < b[o + IRON_THRONE_POS]:
                mods += 1
        elif mine == Ability.DAVOS:
            ref = card_ref[card]
            if ref >= 0 and (b[o + DISCARDS] >> ref) & 1:
                mods += 1
                out[side, P_SWORDS] += 1
        elif mine == Ability.THEON:
            if not attacking and b[FORTIFIED] & 1:  # a castle or stronghold, not a fortification
                mods += 1
                out[side, P_SWORDS] += 1
        elif mine == Ability.CATELYN:
            if not attacking and b[o + HAS_DEFENSE] != 0:
                mods += b[o + ORDER_BONUS]
        elif mine == Ability.KEVAN:
            if attacking:
                mods += b[o + UNITS + FOOTMAN]
                mods += supporting_footmen_count * b[o + SUPPORT_OWN + FOOTMAN]
        elif mine == Ability.VICTARION:
            if attacking:
                mods += own_ships_count * (b[o + UNITS + SHIP] + b[o + SUPPORT_OWN + SHIP])
        elif mine == Ability.ASHA:
            if b[o + SUPPORTERS] == 0:
                out[side, P_SWORDS] += 2
                out[side, P_FORTS] += 1
        elif mine == Ability.ATTACKING_UNITS_PLUS1:
            if attacking:  # the marching units of one type, never supporters (1e)
                mods += b[o + UNITS + card_ref[card]]
        elif mine == Ability.NYMERIA:
            if attacking:
                out[side, P_SWORDS] += 1
            else:
                out[side, P_FORTS] += 1
        elif mine >= Ability.LYSA_ARRYN_MOD:
            mods += _mod_strength(b, side, mine, card, cards, own_ships_count, out)
        elif mine >= Ability.ILYN_PAYNE:
            mods += _adwd_strength(b, side, mine, card, cards, own_ships_count, out)
        if active_ability(b, DEFENDER, card_ability) == Ability.SYRIO_FOREL:
            mods += _syrio_forel(b, side, footman, supporting_footmen_count)
        out[side, P_MODS] = mods
        total = 0
        for part in range(P_TOTAL):
            total += out[side, part]
        fixed = False
        value = 0
        if mine == Ability.MANCE_RAYDER or theirs == Ability.MARGAERY_DWD:  # (none else fixes it)
            fixed, value = fixed_final_strength(b, side, card_ability)
        b[FINAL_FIXED + side] = 1 if fixed else 0
        if fixed:  # Mance Rayder, Margaery Tyrell: the card modifiers make up the difference
            out[side, P_MODS] += value - total
            total = value
        out[side, P_TOTAL] = total


@njit
def _count_bits(mask) -> int:
    n = 0
    while mask != 0:
        n += mask & 1
        mask >>= 1
    return n


@njit
def _adwd_strength(b, side: int, mine: int, card: int, cards: tuple, own_ships: int, out) -> int:
    """The strength modifier of an A Dance with Dragons card ability ``mine`` played by
    ``side`` (its swords and fortifications go straight into ``out``)."""
    card_strength, _, _, _, card_ref = cards
    o = side * SIDE
    if mine == Ability.ADDAM_MARBRAND:  # attacking: own knights, supporting ones too, +1 each
        if side == ATTACKER:
            return b[o + UNITS + KNIGHT] + b[o + SUPPORT_OWN + KNIGHT]
    elif mine == Ability.PAXTER_REDWYNE:  # at sea: own ships, supporting ones too, +1 each
        if b[SEA_BATTLE] != 0:
            return own_ships * (b[o + UNITS + SHIP] + b[o + SUPPORT_OWN + SHIP])
    elif mine == Ability.RAMSAY_BOLTON:  # Reek still in hand: +1 and three swords
        ref = card_ref[card]
        if ref >= 0 and (b[o + HAND] >> ref) & 1:
            out[side, P_SWORDS] += 3
            return 1
    elif mine == Ability.EURON_DWD:  # the opponent above on Fiefdoms: +1
        if b[(1 - side) * SIDE + FIEFDOMS_POS] < b[o + FIEFDOMS_POS]:
            return 1
    elif mine == Ability.DORAN_DWD:  # per other card in hand: a sword, a fort, -1 (not below 0)
        n = _count_bits(b[o + HAND])
        out[side, P_SWORDS] += n
        out[side, P_FORTS] += n
        return -min(n, card_strength[card] + b[CARD_PLUS + 3 * side])
    elif mine == Ability.QUENTYN_MARTELL:  # +1 per card in the discard pile
        return _count_bits(b[o + DISCARDS])
    elif mine == Ability.BRONZE_YOHN_ROYCE_FFC:  # more power tokens in hand than the opponent
        if b[o + POWER] > b[(1 - side) * SIDE + POWER]:
            return 1
    return 0


# what a knight is worth with Khal Drogo (deck A) and with Rakharo (deck B), as the cards print it
DROGO_KNIGHT, RAKHARO_KNIGHT = 3, 4


@njit
def dragons_in_combat(b: NDArray[np.int64]) -> int:
    """The dragons taking part in the combat (Daenerys Targaryen's deck A card): those of
    either side's fighting army (supporting dragons do not take part, as in S&R)."""
    return b[DRAGONS + ATTACKER] + b[DRAGONS + DEFENDER]


@njit
def _mod_strength(b, side: int, mine: int, card: int, cards: tuple, own_ships: int, out) -> int:
    """The strength modifier of a Mother of Dragons card ability ``mine`` played by ``side``
    (its swords and fortifications go straight into ``out``); docs/rules.md M1."""
    card_strength = cards[0]
    o = side * SIDE
    other = (1 - side) * SIDE
    if mine == Ability.SER_VARDIS_EGEN:  # the opponent's card printed 2 or less: +1, two forts
        theirs_card = b[other + CARD]
        if theirs_card >= 0 and card_strength[theirs_card] <= 2:
            out[side, P_FORTS] += 2
            return 1
    elif mine == Ability.GODRIC_BORRELL:  # defending a sea: +1 per land next to it controlled
        if side == DEFENDER and b[SEA_BATTLE] != 0:
            return b[NEARBY + side]
    elif mine == Ability.KHAL_DROGO:  # fighting knights worth 3 instead of 2, a sword each
        knights = b[o + UNITS + KNIGHT]
        out[side, P_SWORDS] += knights
        return (DROGO_KNIGHT - b[STRENGTH + KNIGHT]) * knights
    elif mine == Ability.XARO_XHOAN_DAXOS:  # more fighting ships: each worth 2 instead of 1
        if b[o + UNITS + SHIP] > b[other + UNITS + SHIP]:
            return own_ships * b[o + UNITS + SHIP]
    elif mine == Ability.DAENERYS_TARGARYEN_A:  # a dragon takes part: +2
        if dragons_in_combat(b) > 0:
            return 2
    elif mine == Ability.CAPTAIN_GROLEO:  # attacking by ship transport: +1 per ship nearby
        if side == ATTACKER and b[SEA_BATTLE] == 0:
            return b[NEARBY + side]
    elif mine == Ability.RAKHARO:  # a land area without castle or stronghold: knights worth 4
        if b[SEA_BATTLE] == 0 and b[FORTIFIED] & 1 == 0:
            return (RAKHARO_KNIGHT - b[STRENGTH + KNIGHT]) * b[o + UNITS + KNIGHT]
    return 0


BRONN_PRICE = 2  # the power Bronn's opponent pays to make him 0


@njit
def _syrio_forel(b, side: int, footman: int, supporting: int) -> int:
    """Syrio Forel, played by the (vassal) defender: the footmen of non-vassal houses in the
    combat count 0 — on ``side``, its own fighting and supporting footmen when its house is not
    a vassal, and the supporting footmen of non-vassal allies (docs/rules.md V12; Bronn's 0 is
    ``CARD_PLUS``'s -4)."""
    o = side * SIDE
    n = b[NON_VASSAL_ALLY_FOOTMEN + side] * supporting
    if b[VASSAL + side] == 0:
        n += b[o + UNITS + FOOTMAN] + supporting * b[o + SUPPORT_OWN + FOOTMAN]
    return -footman * n


@njit
def is_vassal_card(card: int) -> bool:
    return VASSAL_CARD_FIRST <= card < VASSAL_CARD_FIRST + VASSAL_CARD_COUNT


@njit
def final_strength_gap(parts: NDArray[np.int64]) -> int:
    """The difference between the two final combat strengths (0 at a tie): Illyrio Mopatis,
    Daenerys Targaryen (deck B), Missandei."""
    return abs(parts[ATTACKER, P_TOTAL] - parts[DEFENDER, P_TOTAL])


@njit
def fixed_final_strength(b: NDArray[np.int64], side: int, card_ability: NDArray[np.int64]):
    """Whether a card fixes ``side``'s final combat strength (after the blade and Tides of
    Battle), and to what: Mance Rayder's own, to the wildling threat; Margaery Tyrell's
    opponent's, to 2, when she defends her home area or an area holding her power token. With
    both, the later in Iron Throne order has the last word (S&R ``getFinalCombatStrength``)."""
    fixed = False
    value = 0
    first = ATTACKER if b[IRON_THRONE_POS] < b[SIDE + IRON_THRONE_POS] else DEFENDER
    for k in range(2):
        s = first if k == 0 else 1 - first
        ability = active_ability(b, s, card_ability)
        if ability == Ability.MANCE_RAYDER and s == side:
            fixed, value = True, b[THREAT]
        elif ability == Ability.MARGAERY_DWD and s != side and s == DEFENDER:
            if b[DEFENDER_HOLDS] != 0 and b[side * SIDE + CARD] >= 0:
                fixed, value = True, 2
    return fixed, value


@njit
def blade_redraw_chances(
    b: NDArray[np.int64],
    tides: tuple,
    base: NDArray[np.int64],
    parts: NDArray[np.int64],
    holder: int,
) -> tuple[float, float]:
    """The Valyrian Steel Blade holder's chances to win, seeing only its own Tides of Battle card
    (FAQ v2.0 step 4a, C12): keeping it (with the blade's +1 still to take once both cards are
    shown) and redrawing it (the blade spent). The opponent's card is one of the 23 others, the
    redraw one of the 22 left; ``base`` is ``board_and_card_strength``, ``parts`` work space (2,
    N_PARTS). ``b`` is left as it was."""
    count = tides[0]
    o, other = holder * SIDE, (1 - holder) * SIDE
    own, theirs, used = b[o + TIDES], b[other + TIDES], b[o + BLADE_USED]
    n = 0
    for ty in range(count.shape[0]):
        n += count[ty]
    keep = 0.0
    redraw = 0.0
    for to in range(count.shape[0]):
        ways = count[to] - (1 if to == own else 0)
        if ways <= 0:
            continue
        b[other + TIDES] = to
        b[o + TIDES] = own
        b[o + BLADE_USED] = 1
        add_chance_strength(b, tides, base, parts)
        if attacker_wins(b, parts) == (holder == ATTACKER):
            keep += ways / (n - 1)
        b[o + BLADE_USED] = 0
        for tn in range(count.shape[0]):
            left = count[tn] - (1 if tn == own else 0) - (1 if tn == to else 0)
            if left <= 0:
                continue
            b[o + TIDES] = tn
            add_chance_strength(b, tides, base, parts)
            if attacker_wins(b, parts) == (holder == ATTACKER):
                redraw += ways / (n - 1) * left / (n - 2)
    b[o + TIDES], b[other + TIDES], b[o + BLADE_USED] = own, theirs, used
    return keep, redraw


@njit
def attacker_wins(b: NDArray[np.int64], parts: NDArray[np.int64]) -> bool:
    """Higher total wins; a tie goes to the side higher on the Fiefdoms track."""
    a, d = parts[ATTACKER, P_TOTAL], parts[DEFENDER, P_TOTAL]
    if a != d:
        return a > d
    return b[ATTACKER * SIDE + FIEFDOMS_POS] < b[DEFENDER * SIDE + FIEFDOMS_POS]


@njit
def casualty_counts(
    b: NDArray[np.int64], parts: NDArray[np.int64], winner: int, card_ability: NDArray[np.int64]
) -> tuple[int, int]:
    """Units each side must destroy: (attacker, defender).

    The loser loses ``max(0, winner swords - loser fortifications)``; each side then loses one unit
    per skull on the opponent's Tides of Battle card. The Blackfish takes none of these.
    """
    loser = 1 - winner
    swords = max(0, parts[winner, P_SWORDS] - parts[loser, P_FORTS])
    att = parts[DEFENDER, P_SKULLS] + (swords if loser == ATTACKER else 0)
    dfn = parts[ATTACKER, P_SKULLS] + (swords if loser == DEFENDER else 0)
    if active_ability(b, ATTACKER, card_ability) == Ability.BLACKFISH:
        att = 0
    if active_ability(b, DEFENDER, card_ability) == Ability.BLACKFISH:
        dfn = 0
    return att, dfn


@njit
def take_casualties(
    units: NDArray[np.int64], n: int, order: NDArray[np.int64], lost: NDArray[np.int64]
) -> None:
    """Remove up to ``n`` units from ``units`` in ``order`` (unit types); add them to ``lost``."""
    left = n
    for u in order:
        k = min(left, units[u])
        units[u] -= k
        lost[u] += k
        left -= k
        if left == 0:
            return


@njit
def settle_losses(
    b: NDArray[np.int64],
    parts: NDArray[np.int64],
    winner: int,
    card_ability: NDArray[np.int64],
    lost: NDArray[np.int64],
    routed: NDArray[np.int64],
    scratch: NDArray[np.int64],
) -> None:
    """Casualties, skulls and retreat losses with the default casualty order.

    ``lost`` (2, 4) gets the units destroyed (including those killed by abilities before the
    strengths were compared); ``routed`` (2, 4) the loser's units that survive and retreat routed;
    ``scratch`` is a work array of 4. A loser's siege engines cannot retreat, routed units that
    must retreat again are destroyed, and a loser without a legal retreat loses everything.
    """
    loser = 1 - winner
    n_att, n_def = casualty_counts(b, parts, winner, card_ability)
    for side in (ATTACKER, DEFENDER):
        o = side * SIDE
        need = n_att if side == ATTACKER else n_def
        units = scratch
        for u in range(N_UNIT_TYPES):
            units[u] = b[o + UNITS + u]
            lost[side, u] += b[o + PRE_LOST + u]
        if side != loser:
            take_casualties(units, need, WINNER_CASUALTY_ORDER, lost[side])
            continue
        # routed units and siege engines are never casualties: both are destroyed in addition,
        # since they cannot retreat (C10, C9; the 1st edition alike, E3, K7)
        for u in range(N_UNIT_TYPES):
            lost[side, u] += b[o + ROUTED + u]
        take_casualties(units, need, LOSER_CASUALTY_ORDER, lost[side])
        if b[o + NO_RETREAT] != 0:
            for u in range(N_UNIT_TYPES):
                lost[side, u] += units[u]
                units[u] = 0
        lost[side, SIEGE] += units[SIEGE]
        units[SIEGE] = 0
        for u in range(N_UNIT_TYPES):
            routed[side, u] += units[u]


# --- abilities that change the battle before strengths are compared ------------------------------


@njit
def cancel_opponent_text(b: NDArray[np.int64], side: int, card_ability: NDArray[np.int64]) -> bool:
    """Queen of Thorns (1e): the opponent's card text has no effect in this combat."""
    other = (1 - side) * SIDE
    if active_ability(b, side, card_ability) != Ability.QUEEN_OF_THORNS_1E or b[other + CARD] < 0:
        return False
    b[other + TEXT_IGNORED] = 1
    return True


@njit
def remove_defense_order(b: NDArray[np.int64], side: int) -> bool:
    """Brienne of Tarth (1e): the side's defense order in the embattled area is removed."""
    o = side * SIDE
    if b[o + HAS_DEFENSE] == 0:
        return False
    b[o + HAS_DEFENSE] = 0
    b[o + ORDER_BONUS] = 0
    return True


@njit
def mace_destroy_footman(b: NDArray[np.int64], victim: int) -> None:
    """Mace Tyrell (2e), Ser Loras Tyrell (1e): one of the victim's attacking or defending footmen
    is destroyed."""
    o = victim * SIDE
    if b[o + UNITS + FOOTMAN] > 0:
        b[o + UNITS + FOOTMAN] -= 1
        b[o + PRE_LOST + FOOTMAN] += 1


@njit
def remove_support(
    b: NDArray[np.int64], side: int, own_house: bool, units: NDArray[np.int64], bonus: int
) -> None:
    """Take one support order (its units and modifier) away from ``side``."""
    o = side * SIDE + (SUPPORT_OWN if own_house else SUPPORT_ALLY)
    for u in range(N_UNIT_TYPES):
        b[o + u] -= units[u]
    if units.shape[0] > DRAGON:
        b[DRAGON_SUPPORT + side] -= units[DRAGON]
    b[side * SIDE + SUPPORT_BONUS] -= bonus
    b[side * SIDE + SUPPORTERS] -= 1


@njit
def bit(card: int) -> np.int64:
    return np.int64(1) << np.int64(card)


@njit
def play_card(b: NDArray[np.int64], side: int, card: int) -> None:
    """Reveal ``card`` for ``side`` (taking it out of the hand mask)."""
    o = side * SIDE
    b[o + CARD] = card
    if card >= 0:
        b[o + HAND] &= ~bit(card)


@njit
def return_card_to_hand(b: NDArray[np.int64], side: int) -> None:
    """Tyrion Lannister: the side's revealed card goes back to its hand."""
    o = side * SIDE
    if b[o + CARD] >= 0:
        b[o + HAND] |= bit(b[o + CARD])
    b[o + CARD] = -1


@njit
def discard_played_card(b: NDArray[np.int64], side: int) -> None:
    """Aeron Damphair: the side's revealed card goes to its discard pile."""
    o = side * SIDE
    if b[o + CARD] >= 0:
        b[o + DISCARDS] |= bit(b[o + CARD])
    b[o + CARD] = -1


# --- A Dance with Dragons: "before combat" and "immediately" abilities ---------------------------


@njit
def clear_support(b: NDArray[np.int64], side: int) -> None:
    """Stannis Baratheon (ADwD), unsupported: every support order next to the battle is removed,
    so ``side`` (his opponent) loses all its support."""
    o = side * SIDE
    for u in range(N_UNIT_TYPES):
        b[o + SUPPORT_OWN + u] = 0
        b[o + SUPPORT_ALLY + u] = 0
    b[o + SUPPORT_BONUS] = 0
    b[o + SUPPORTERS] = 0


@njit
def redirect_support(
    b: NDArray[np.int64], from_side: int, units: NDArray[np.int64], bonus: int
) -> None:
    """Walder Frey: one support order of a third house backing ``from_side`` backs its opponent
    instead (its units and modifier)."""
    remove_support(b, from_side, False, units, bonus)
    o = (1 - from_side) * SIDE
    for u in range(N_UNIT_TYPES):
        b[o + SUPPORT_ALLY + u] += units[u]
    b[o + SUPPORT_BONUS] += bonus
    b[o + SUPPORTERS] += 1


@njit
def add_to_card(
    b: NDArray[np.int64], side: int, strength: int, swords: int, forts: int, power: int
) -> None:
    """Qyburn (a discarded card's printed numbers, for 2 power) and Aeron Damphair (ADwD: +1 per
    power token spent): numbers added to ``side``'s card, ``power`` paid."""
    b[CARD_PLUS + 3 * side] += strength
    b[CARD_PLUS + 3 * side + 1] += swords
    b[CARD_PLUS + 3 * side + 2] += forts
    b[side * SIDE + POWER] -= power
    b[side * SIDE + POWER_DELTA] -= power


@njit
def reek_returns_ramsay(b: NDArray[np.int64], side: int, cards: tuple) -> int:
    """Reek: Ramsay Bolton, if discarded, goes back to the hand at once. Returns his card
    number, or -1 when he was not in the discard pile (or the text is cancelled)."""
    card_ability, card_ref = cards[3], cards[4]
    o = side * SIDE
    if active_ability(b, side, card_ability) != Ability.REEK:
        return -1
    ramsay = card_ref[b[o + CARD]]
    if ramsay < 0 or (b[o + DISCARDS] >> ramsay) & 1 == 0:
        return -1
    b[o + DISCARDS] &= ~bit(ramsay)
    b[o + HAND] |= bit(ramsay)
    return ramsay


# --- abilities of the winner, right after the victor is known -----------------------------------


@njit
def power_for_winning(b: NDArray[np.int64], winner: int, card_ability: NDArray[np.int64]) -> int:
    """Power the winner's card takes from the pool: Tywin Lannister (2e), Ser Jaime (1e);
    Anya Waynwood (Mother of Dragons) 3, and 3 for each house that supported her side (the
    engine gives those; the calculator counts the side's own)."""
    mine = active_ability(b, winner, card_ability)
    if mine == Ability.TYWIN or mine == Ability.JAIME_1E:
        return 2
    if mine == Ability.ANYA_WAYNWOOD:
        return ANYA_POWER
    return 0


ANYA_POWER = 3  # Anya Waynwood: power to the winner and each house supporting it


@njit
def power_for_losing(b: NDArray[np.int64], loser: int, card_ability: NDArray[np.int64]) -> int:
    """Power the loser's card takes from the pool: Qarl the Maid, 3 when his side attacked."""
    if loser == ATTACKER and active_ability(b, loser, card_ability) == Ability.QARL_THE_MAID:
        return 3
    return 0


# Alayne Stone: the smallest opponent's power in hand for which the odds calculator (and the
# heuristic players) pay her 2 power tokens (docs/rules.md F2)
ALAYNE_WORTH = 3


@njit
def alayne_may_pay(
    b: NDArray[np.int64], side: int, winner: int, card_ability: NDArray[np.int64], holds: bool
) -> bool:
    """Alayne Stone: ``side`` won, holds its home area and has the 2 power tokens to pay, and
    its opponent is a house."""
    return (
        side == winner
        and holds
        and active_ability(b, side, card_ability) == Ability.ALAYNE_STONE
        and b[side * SIDE + POWER] >= 2
        and b[(1 - side) * SIDE + HOUSE] >= 0
    )


@njit
def alayne_pays(b: NDArray[np.int64], side: int) -> int:
    """Alayne Stone used: ``side`` pays 2 power tokens, its opponent discards every power token
    in its hand. Returns how many the opponent loses."""
    o, other = side * SIDE, (1 - side) * SIDE
    b[o + POWER] -= 2
    b[o + POWER_DELTA] -= 2
    lost = b[other + POWER]
    b[other + POWER] = 0
    b[other + POWER_DELTA] -= lost
    return lost


@njit
def power_after_combat(
    b: NDArray[np.int64],
    side: int,
    cards: tuple,
    holds: bool,
    own_power: int,
    their_power: int,
) -> int:
    """Power ``side``'s card takes from the pool after the combat (the pool's limit aside):
    Littlefinger, twice the printed strength of the opponent's card when the house holds its
    home area; Lysa Arryn (A Feast for Crows), 3 when the opponent has more power tokens in hand
    (``own_power``, ``their_power``: the hands after the combat)."""
    card_strength, card_ability = cards[0], cards[3]
    mine = active_ability(b, side, card_ability)
    if mine == Ability.LITTLEFINGER and holds:
        theirs = b[(1 - side) * SIDE + CARD]
        return 2 * card_strength[theirs] if theirs >= 0 else 0
    if mine == Ability.LYSA_ARRYN_FFC and their_power > own_power:
        return 3
    return 0


@njit
def power_from_strength_gap(
    b: NDArray[np.int64], side: int, card_ability: NDArray[np.int64], gap: int, their_power: int
) -> tuple[int, int]:
    """After the combat, won or lost (``gap``: ``final_strength_gap``): Illyrio Mopatis takes
    ``gap`` power tokens from the pool; Daenerys Targaryen (deck B) makes the opponent discard
    ``gap`` of its ``their_power`` tokens in hand (all it has if fewer). Returns (the side's
    gain, the opponent's loss); a neutral force loses nothing."""
    mine = active_ability(b, side, card_ability)
    if mine == Ability.ILLYRIO_MOPATIS:
        return gap, 0
    if mine == Ability.DAENERYS_TARGARYEN_B and b[(1 - side) * SIDE + HOUSE] >= 0:
        return 0, min(gap, their_power)
    return 0, 0


# Illyrio Mopatis leaves the game when his house then holds this many power tokens or more
ILLYRIO_LEAVES_AT = 5


@njit
def holds_home_after(b: NDArray[np.int64], side: int, winner: int) -> bool:
    """The calculator's reading of ``HOME_HELD``: whether ``side`` holds its home area once the
    combat is over."""
    held = b[HOME_HELD + side]
    return held == HOME_ELSEWHERE or (held == HOME_HERE and side == winner)


@njit
def renly_upgrade_footman(
    b: NDArray[np.int64], winner: int, card_ability: NDArray[np.int64], knights_left: int
) -> bool:
    """Renly Baratheon (1e): one of the winner's fighting footmen becomes a knight.

    Casualties never touch a winner in the 1st edition, so the side's ``UNITS`` are the units
    left in the area; the caller says how many knights the house has left to place.
    """
    o = winner * SIDE
    if active_ability(b, winner, card_ability) != Ability.RENLY_1E:
        return False
    if b[o + UNITS + FOOTMAN] == 0 or knights_left <= 0:
        return False
    b[o + UNITS + FOOTMAN] -= 1
    b[o + UNITS + KNIGHT] += 1
    return True


@njit
def melisandre_discard(
    b: NDArray[np.int64], winner: int, card_ability: NDArray[np.int64], card: int
) -> bool:
    """Melisandre of Asshai (1e): the winner pays 1 power to discard ``card`` from the loser's
    hand."""
    o, lo = winner * SIDE, (1 - winner) * SIDE
    if active_ability(b, winner, card_ability) != Ability.MELISANDRE_1E or b[o + POWER] < 1:
        return False
    if card < 0 or ((b[lo + HAND] >> card) & 1) == 0:
        return False
    b[lo + HAND] &= ~bit(card)
    b[lo + DISCARDS] |= bit(card)
    b[o + POWER] -= 1
    b[o + POWER_DELTA] -= 1
    return True


@njit
def luwin_take_back(
    b: NDArray[np.int64], winner: int, card_ability: NDArray[np.int64], card: int
) -> bool:
    """Maester Luwin (1e): the winner takes ``card`` from its discard pile back into its hand
    (before the played cards are discarded, so never Luwin himself)."""
    o = winner * SIDE
    if active_ability(b, winner, card_ability) != Ability.LUWIN_1E:
        return False
    if card < 0 or ((b[o + DISCARDS] >> card) & 1) == 0:
        return False
    b[o + DISCARDS] &= ~bit(card)
    b[o + HAND] |= bit(card)
    return True


def house_cards_in(mask: int) -> list[int]:
    """Card numbers set in a hand or discard mask."""
    out, card = [], 0
    while mask >> card:
        if (mask >> card) & 1:
            out.append(card)
        card += 1
    return out


HOUSE_OF_SIDE = {ATTACKER: "attacker", DEFENDER: "defender"}
__all__ = [
    "ATTACKER",
    "DEFENDER",
    "PART_NAMES",
    "Ability",
    "CardTable",
    "House",
    "attacker_wins",
    "card_table",
    "casualty_counts",
    "new_battle",
    "settle_losses",
    "strength_breakdown",
    "tides_deck",
]
