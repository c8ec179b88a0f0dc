"""House Arryn's and House Targaryen's Mother of Dragons cards in a battle, beside the combat
code's own part (the strengths of Ser Vardis Egen, Godric Borrell, Khal Drogo, Xaro Xhoan Daxos,
Daenerys Targaryen, Viserys Targaryen's thrown card, Captain Groleo and Rakharo; the power of
Anya Waynwood, Illyrio Mopatis and Daenerys Targaryen in ``gotsim.engine.combat``): what the
board around the battle counts, the ``Decision.CARD_ABILITY`` choices (Viserys Targaryen before
the combat; Lysa Arryn and Missandei once the winner is known; Robert Arryn after the combat,
asked in ``adwd``'s steps) and what happens after the combat without a choice.

A card out of the game is in neither its house's hand nor its discard pile (the hand and
discard bit sets of ``g.hand``/``g.discard``): it never comes back when the discards return.
Sources and rulings: docs/rules.md M1.
"""

from __future__ import annotations

import numpy as np

from gotsim.engine import combat as cb
from gotsim.engine.battle.common import card_arrays, side_house, slot_of, tides_arrays
from gotsim.engine.board_state import LAND, controller, gain_power, lose_power
from gotsim.jit import njit
from gotsim.rules.ids import House

A = cb.Ability
ARRYN = int(House.ARRYN)
TARGARYEN = int(House.TARGARYEN)
KEEP_LYSA = 1  # CARD_ABILITY action of Lysa Arryn: back to the hand (ACT_NONE: discarded)
ROBERT_ALONE = 7  # CARD_ABILITY action of Robert Arryn when the opponent has no discards
MISSANDEI_GAP = 2  # Missandei: a loss by this much or less


@njit
def mod_cards_in_play(g) -> bool:
    """Arryn or Targaryen plays: their Mother of Dragons cards may be in the battle."""
    return g.in_play[ARRYN] != 0 or g.in_play[TARGARYEN] != 0


@njit
def count_nearby(g, t, origin: int, target: int) -> None:
    """Fill the battle's ``NEARBY`` counts: for the defender, the land areas next to the
    embattled sea it controls (Godric Borrell); for the attacker, when its march into a land
    area used ship transport (the origin is not next to it), its ships in the areas next to
    the embattled area (Captain Groleo)."""
    b = g.battle
    attacker, defender = side_house(g, cb.ATTACKER), side_house(g, cb.DEFENDER)
    lands = 0
    ships = 0
    sea = t.kind[target] != LAND
    transported = not sea and not t.adjacent[origin, target]
    for a in range(t.n_areas):
        if not t.adjacent[target, a]:
            continue
        if sea and defender >= 0 and t.kind[a] == LAND and controller(g, t, a) == defender:
            lands += 1
        if transported and g.owner[a] == attacker:
            ships += g.units[a, cb.SHIP]
    b[cb.NEARBY + cb.ATTACKER] = ships
    b[cb.NEARBY + cb.DEFENDER] = lands


@njit
def strength_gap(g, t) -> int:
    """The difference between the battle's two final combat strengths, as resolved."""
    parts = np.zeros((2, cb.N_PARTS), np.int64)
    cb.strength_breakdown(g.battle, card_arrays(t), tides_arrays(t), parts)
    return cb.final_strength_gap(parts)


@njit
def leave_game(g, t, house: int, card: int) -> None:
    """``card`` (a card number of ``house``'s deck) leaves the game: out of the hand and the
    discard pile for good. A hand left empty takes the discards back (2nd edition)."""
    slot = slot_of(t, house, card)
    if slot < 0:
        return
    keep = np.uint8(~(1 << slot) & 0x7F)
    g.hand[house] &= keep
    g.discard[house] &= keep
    if g.hand[house] == 0:
        g.hand[house] = g.discard[house]
        g.discard[house] = 0


@njit
def anya_supporters_gain(g, t, winner: int) -> None:
    """Anya Waynwood won: each other house that supported her side takes 3 power tokens too
    (her own house's are ``cb.power_for_winning``'s)."""
    house = side_house(g, winner)
    paid = np.zeros(g.power.shape[0], np.bool_)
    for a in range(t.n_areas):
        h = g.owner[a]
        if g.support_side[a] == winner + 1 and h >= 0 and h != house and not paid[h]:
            paid[h] = True
            gain_power(g, t, h, cb.ANYA_POWER)


@njit
def lysa_may_keep(g, side: int) -> bool:
    """Lysa Arryn (Mother of Dragons): ``side`` won defending with a defense order in the
    embattled area."""
    b = g.battle
    return side == g.battle_winner and side == cb.DEFENDER and b[cb.SIDE + cb.HAS_DEFENSE] != 0


@njit
def missandei_asked(g, t, side: int) -> bool:
    """Missandei: ``side`` lost by 2 or less and has a card in its discard pile."""
    if side == g.battle_winner or g.discard[side_house(g, side)] == 0:
        return False
    return strength_gap(g, t) <= MISSANDEI_GAP


@njit
def _lowest_discards(g, t, house: int, mask) -> bool:
    """Mark in ``mask`` the deck slots of ``house``'s discard pile of the lowest printed
    strength; False when the pile is empty."""
    lowest = 99
    for slot in range(7):
        if (g.discard[house] >> slot) & 1:
            lowest = min(lowest, t.card_strength[t.deck_card[house, slot]])
    if lowest == 99:
        return False
    for slot in range(7):
        if (g.discard[house] >> slot) & 1:
            mask[slot] = t.card_strength[t.deck_card[house, slot]] == lowest
    return True


@njit
def mod_ability_legal(g, t, side: int, ability: int, mask) -> None:
    """The CARD_ABILITY options of a Mother of Dragons card (ACT_NONE, not using it, is the
    caller's)."""
    b = g.battle
    house = side_house(g, side)
    if ability == A.VISERYS_TARGARYEN:  # a card of the hand to throw away
        for slot in range(7):
            mask[slot] = (b[side * cb.SIDE + cb.HAND] >> t.deck_card[house, slot]) & 1 != 0
    elif ability == A.LYSA_ARRYN_MOD:
        mask[KEEP_LYSA] = True
    elif ability == A.MISSANDEI:  # a card of the discard pile back to the hand
        for slot in range(7):
            mask[slot] = (g.discard[house] >> slot) & 1 != 0
    elif ability == A.ROBERT_ARRYN:  # the opponent's lowest discarded card (or none)
        if not _lowest_discards(g, t, side_house(g, 1 - side), mask):
            mask[ROBERT_ALONE] = True


@njit
def mod_ability_apply(g, t, side: int, ability: int, action: int) -> None:
    """Apply a Mother of Dragons card's CARD_ABILITY answer (not ACT_NONE)."""
    b = g.battle
    o = side * cb.SIDE
    house = side_house(g, side)
    if ability == A.VISERYS_TARGARYEN:
        card = t.deck_card[house, action]
        cb.add_to_card(b, side, t.card_strength[card], 0, 0, 0)
        b[o + cb.HAND] &= ~cb.bit(card)
        b[o + cb.DISCARDS] |= cb.bit(card)
        g.hand[house] &= np.uint8(~(1 << action) & 0x7F)
        g.discard[house] |= np.uint8(1 << action)
    elif ability == A.LYSA_ARRYN_MOD:
        b[cb.KEEP_CARD + side] = 1
    elif ability == A.MISSANDEI:
        g.discard[house] &= np.uint8(~(1 << action) & 0x7F)
        g.hand[house] |= np.uint8(1 << action)
    elif ability == A.ROBERT_ARRYN:
        opponent = side_house(g, 1 - side)
        if action != ROBERT_ALONE:
            leave_game(g, t, opponent, t.deck_card[opponent, action])
        leave_game(g, t, house, b[o + cb.CARD])


@njit
def robert_asked(g, side: int, ability: int) -> bool:
    """Robert Arryn's choice after the combat is ``side``'s: it defended with him."""
    return ability == A.ROBERT_ARRYN and side == cb.DEFENDER


@njit
def mod_after_combat(g, t) -> None:
    """Once the combat is over (the cards discarded), without a choice: Khal Drogo leaves the
    game, and Viserys Targaryen when his side lost; Illyrio Mopatis takes power tokens, the
    difference between the final strengths, and leaves the game when his house then holds 5
    or more; Daenerys Targaryen (deck B) makes the opponent discard as many."""
    b = g.battle
    ability = t.card_ability
    gap = -1
    for side in (cb.ATTACKER, cb.DEFENDER):
        mine = cb.active_ability(b, side, ability)
        if mine < A.LYSA_ARRYN_MOD:
            continue
        house = side_house(g, side)
        card = b[side * cb.SIDE + cb.CARD]
        lost = side != g.battle_winner
        if mine == A.KHAL_DROGO or (mine == A.VISERYS_TARGARYEN and lost):
            leave_game(g, t, house, card)
        elif mine == A.ILLYRIO_MOPATIS or mine == A.DAENERYS_TARGARYEN_B:
            if gap < 0:
                gap = strength_gap(g, t)
            opponent = side_house(g, 1 - side)
            theirs = g.power[opponent] if opponent >= 0 else 0
            gain, loss = cb.power_from_strength_gap(b, side, ability, gap, theirs)
            if gain > 0:
                gain_power(g, t, house, gain)
            if loss > 0:
                lose_power(g, opponent, loss)
            if mine == A.ILLYRIO_MOPATIS and g.power[house] >= cb.ILLYRIO_LEAVES_AT:
                leave_game(g, t, house, card)
