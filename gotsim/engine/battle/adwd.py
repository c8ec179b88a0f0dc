"""The A Dance with Dragons house cards in a battle (the ``adwd_house_cards`` variant): Reek's
"immediately", the "before combat" step (Stannis Baratheon, Walder Frey, Qyburn, Aeron Damphair),
the "after the winner" abilities of both sides in Iron Throne order (Ser Ilyn Payne, Jon Snow,
Rodrik the Reader, Ser Gerris Drinkwater, Reek; and A Feast for Crows' Alayne Stone, House
Arryn's) and Melisandre after the combat, with the one decision they share
(``Decision.CARD_ABILITY``: its legal options and applying an answer). The Mother of Dragons
choices (Viserys Targaryen before the combat, Lysa Arryn and Missandei after the winner, Robert
Arryn after the combat) join these steps; their options are ``mod``'s.

The strengths (Ser Addam Marbrand, Ramsay Bolton, Euron Crow's Eye, Doran Martell, Quentyn
Martell, Paxter Redwyne, Mance Rayder, Margaery Tyrell, and what Qyburn and Aeron add) are the
combat code's (``gotsim.engine.combat``), like Qarl the Maid's power.
"""

from __future__ import annotations

import numpy as np

from gotsim.engine import combat as cb
from gotsim.engine.battle.affc import ALAYNE_PAYS, alayne_asked, alayne_pays
from gotsim.engine.battle.common import (
    follow_track_change,
    iron_throne_first,
    next_side,
    side_house,
)
from gotsim.engine.battle.mod import (
    lysa_may_keep,
    missandei_asked,
    mod_ability_apply,
    mod_ability_legal,
    robert_asked,
)
from gotsim.engine.battle.vassal_cards import (
    BERIC,
    BRONN_PAYS,
    CONNINGTON,
    bronn_asked,
    bronn_paid,
    vassal_ability_apply,
    vassal_ability_legal,
)
from gotsim.engine.board_state import (
    ask,
    lose_power,
    remove_order,
    vacate_and_settle,
)
from gotsim.engine.marches import is_support_order
from gotsim.engine.rng import shuffle
from gotsim.engine.state import ACT_NONE, N_ACTIONS, NATURE, Decision, H
from gotsim.jit import njit

A = cb.Ability
RODRIK_DECK, RODRIK_CARD = 0, 1  # CARD_ABILITY ctx2 stages of Rodrik the Reader


@njit
def reek_immediately(g, t, side: int) -> None:
    """Reek: a discarded Ramsay Bolton goes back to the hand (the battle's and the house's)."""
    cards = (t.card_strength, t.card_swords, t.card_forts, t.card_ability, t.card_ref)
    ramsay = cb.reek_returns_ramsay(g.battle, side, cards)
    if ramsay >= 0:
        house = side_house(g, side)
        for slot in range(7):
            if t.deck_card[house, slot] == ramsay:
                g.discard[house] &= np.uint8(~(1 << slot) & 0x7F)
                g.hand[house] |= np.uint8(1 << slot)


@njit
def _ask_if_choice(g, t, house: int, side: int, ability: int) -> bool:
    """Ask ``house`` its CARD_ABILITY choice when it has one besides not using the card (True);
    otherwise nothing is pending (False)."""
    ask(g, Decision.CARD_ABILITY, house, side, ability)
    mask = np.zeros(N_ACTIONS, np.bool_)
    card_ability_legal(g, t, mask)
    for i in range(N_ACTIONS):
        if mask[i] and i != ACT_NONE and not (i == 0 and _zero_is_nothing(ability)):
            return True
    g.pending = Decision.NONE
    g.pending_house = -1
    return False


@njit
def _zero_is_nothing(ability: int) -> bool:
    """Abilities whose action 0 means "not used" (Aeron spends 0, Jon Snow and Reek do nothing)."""
    return ability == A.AERON_DWD or ability == A.JON_SNOW or ability == A.REEK


@njit
def before_combat_step(g, t) -> bool:
    """The "before combat" abilities, in Iron Throne order (after "immediately", before Tides of
    Battle; S&R ``BeforeCombatHouseCardAbilitiesGameState``). True while a decision is pending."""
    b = g.battle
    side = next_side(g)
    while side >= 0:
        other = 1 - side
        house = side_house(g, side)
        mine = cb.active_ability(b, side, t.card_ability)
        if mine == A.STANNIS_DWD and b[side * cb.SIDE + cb.SUPPORTERS] == 0:
            # nobody supports him: every support order next to the battle goes (his own too)
            for a in range(t.n_areas):
                if t.adjacent[g.combat_area, a] and is_support_order(g, a):
                    remove_order(g, a)
                    g.support_side[a] = 3
            cb.clear_support(b, other)
        elif mine == A.WALDER_FREY:
            # third houses backing the opponent back him instead
            units = np.zeros(cb.N_UNIT_TYPES, np.int64)
            for a in range(t.n_areas):
                if g.support_side[a] == other + 1 and g.owner[a] != side_house(g, other):
                    for u in range(cb.N_UNIT_TYPES):
                        units[u] = g.units[a, u] - g.routed[a, u]
                    cb.redirect_support(b, other, units, 1 if g.order[a] == 6 else 0)
                    g.support_side[a] = side + 1
        elif mine == A.BRONN and bronn_asked(g, side):  # the opponent may pay (V19)
            ask(g, Decision.CARD_ABILITY, side_house(g, other), side, mine)
            return True
        elif mine == A.QYBURN or mine == A.AERON_DWD or mine == A.VISERYS_TARGARYEN:
            if _ask_if_choice(g, t, house, side, mine):
                return True
        side = next_side(g)
    return False


@njit
def after_winner_step(g, t) -> bool:
    """The A Dance with Dragons "after the winner" choices of both sides in Iron Throne order,
    and House Arryn's Alayne Stone (``g.battle_cursor`` 1, 2: the first and second side; 3
    done). True while one is pending."""
    b = g.battle
    winner = g.battle_winner
    while g.battle_cursor < 3:
        first = iron_throne_first(g)
        side = first if g.battle_cursor == 1 else 1 - first
        g.battle_cursor += 1
        mine = cb.active_ability(b, side, t.card_ability)
        won = side == winner
        asked = (
            (won and mine == A.ILYN_PAYNE)
            or (won and mine == A.JON_SNOW)
            or (won and mine == A.RODRIK_THE_READER)
            or (won and mine == A.GERRIS_DRINKWATER)
            or (not won and mine == A.REEK)
            or (won and mine == A.ALAYNE_STONE and alayne_asked(g, t, side))
            or (won and mine == A.LYSA_ARRYN_MOD and lysa_may_keep(g, side))
            or (not won and mine == A.MISSANDEI and missandei_asked(g, t, side))
        )
        if asked and _ask_if_choice(g, t, side_house(g, side), side, mine):
            return True
    return False


@njit
def post_combat_step(g, t) -> bool:
    """After the combat (the played cards discarded): Melisandre (ADwD) may buy a card of her
    discard pile back; Robert Arryn (Mother of Dragons), defending, may leave the game with the
    opponent's lowest discarded card. True when that is asked."""
    for side in (cb.ATTACKER, cb.DEFENDER):
        mine = cb.active_ability(g.battle, side, t.card_ability)
        if mine == A.MELISANDRE_DWD or robert_asked(g, side, mine):
            if _ask_if_choice(g, t, side_house(g, side), side, mine):
                return True
    return False


@njit
def blade_barred(g, t, side: int) -> bool:
    """A card fixes the side's final strength (Mance Rayder, Margaery Tyrell): its Valyrian
    Steel Blade cannot be used (S&R ``isFinalCombatStrengthOverwritten``)."""
    if not t.adwd_house_cards:
        return False
    fixed, _ = cb.fixed_final_strength(g.battle, side, t.card_ability)
    return fixed


@njit
def _footmen_to_destroy(g, area: int, opp: int, opp_side: int) -> int:
    """Ser Ilyn Payne: the opponent's footmen he may destroy in ``area`` (in the battle only
    fighting ones: the attacker's marching ones stand for the embattled area, the origin offers
    those that stayed)."""
    target, origin = g.combat_area, g.combat_from
    if area == target:
        if opp_side == cb.ATTACKER:
            return g.moving[target, cb.FOOTMAN]
        return g.units[target, cb.FOOTMAN] - g.routed[target, cb.FOOTMAN]
    if g.owner[area] != opp:
        return 0
    if area == origin and opp_side == cb.ATTACKER:
        return g.units[area, cb.FOOTMAN] - g.moving[target, cb.FOOTMAN]
    return g.units[area, cb.FOOTMAN]


@njit
def card_ability_legal(g, t, mask) -> None:
    """Fill ``mask`` for a pending CARD_ABILITY decision."""
    side = g.ctx[0]
    ability = g.ctx[1]
    house = side_house(g, side)
    if ability == A.AERON_DWD:
        for x in range(min(int(g.power[house]), ACT_NONE - 1) + 1):
            mask[x] = True
    elif ability == A.QYBURN:
        mask[ACT_NONE] = True
        if g.power[house] >= 2:
            for h in range(H):
                if g.in_play[h]:
                    for slot in range(7):
                        if (g.discard[h] >> slot) & 1:
                            mask[t.deck_card[h, slot]] = True
    elif ability == A.ILYN_PAYNE:
        opp = side_house(g, 1 - side)
        for a in range(t.n_areas):
            if _footmen_to_destroy(g, a, opp, 1 - side) > 0:
                mask[a] = True
        mask[ACT_NONE] = True
    elif ability == A.JON_SNOW:
        mask[0] = True
        mask[1] = g.threat >= 2
        mask[2] = g.threat <= 8
    elif ability == A.RODRIK_THE_READER:
        size = g.westeros.shape[1]
        if g.ctx[2] == RODRIK_DECK:
            for d in range(3):
                mask[d] = g.westeros_next[d] < size
            mask[ACT_NONE] = True
        else:
            d = g.ctx[3]
            for i in range(g.westeros_next[d], size):
                mask[g.westeros[d, i]] = True
    elif ability == A.GERRIS_DRINKWATER:
        for track in range(3):
            mask[track] = g.track[track, 0] != house
        mask[ACT_NONE] = True
    elif ability == A.REEK:
        mask[0] = True
        mask[1] = True
    elif ability == A.MELISANDRE_DWD:
        for slot in range(7):
            if (g.discard[house] >> slot) & 1:
                mask[slot] = t.card_strength[t.deck_card[house, slot]] <= g.power[house]
        mask[ACT_NONE] = True
    elif ability == A.ALAYNE_STONE:
        mask[ALAYNE_PAYS] = g.power[house] >= 2
        mask[ACT_NONE] = True
    elif ability == A.BRONN:  # asked of Bronn's opponent
        mask[BRONN_PAYS] = bronn_asked(g, side)
        mask[ACT_NONE] = True
    elif ability == BERIC or ability == CONNINGTON:  # a vassal's, after the combat
        vassal_ability_legal(g, t, side, ability, mask)
    elif ability >= A.LYSA_ARRYN_MOD:
        mod_ability_legal(g, t, side, ability, mask)
        mask[ACT_NONE] = True


@njit
def _destroy_footman(g, t, area: int, opp_side: int) -> None:
    """Ser Ilyn Payne: one footman of the opponent in ``area`` is destroyed; an area left empty
    loses its order (and a castle's port its ships, B12)."""
    if area == g.combat_area:
        target, origin = g.combat_area, g.combat_from
        if opp_side == cb.ATTACKER:
            g.moving[target, cb.FOOTMAN] -= 1
            g.units[origin, cb.FOOTMAN] -= 1
        else:
            g.units[target, cb.FOOTMAN] -= 1
        return
    standing = g.units[area, cb.FOOTMAN] - g.routed[area, cb.FOOTMAN]
    if area == g.combat_from and opp_side == cb.ATTACKER:
        standing -= g.moving[g.combat_area, cb.FOOTMAN]
    if standing <= 0 and g.routed[area, cb.FOOTMAN] > 0:
        g.routed[area, cb.FOOTMAN] -= 1
    g.units[area, cb.FOOTMAN] -= 1
    vacate_and_settle(g, t, area)


@njit
def _gerris_moves_up(g, t, house: int, track: int) -> None:
    """Ser Gerris Drinkwater: ``house`` changes places with the house above it on ``track``;
    the battle's track positions and the blade's holder follow."""
    for p in range(1, t.players):
        if g.track[track, p] == house:
            g.track[track, p] = g.track[track, p - 1]
            g.track[track, p - 1] = house
            break
    follow_track_change(g, t, track)


@njit
def _rodrik_stacks(g, d: int, kind: int) -> None:
    """Rodrik the Reader: a card of ``kind`` goes on top of Westeros deck ``d``, the rest of the
    deck is shuffled (nature's stream) beneath it."""
    top = g.westeros_next[d]
    size = g.westeros.shape[1]
    for i in range(top, size):
        if g.westeros[d, i] == kind:
            g.westeros[d, i] = g.westeros[d, top]
            g.westeros[d, top] = kind
            break
    rest = g.westeros[d, top + 1 :]
    shuffle(g.rng, NATURE, rest, size - top - 1)


@njit
def card_ability_apply(g, t, house: int, action: int) -> None:
    """Apply a legal CARD_ABILITY answer (pending already cleared by the caller)."""
    b = g.battle
    side = g.ctx[0]
    ability = g.ctx[1]
    if ability == A.AERON_DWD:
        cb.add_to_card(b, side, action, 0, 0, action)
        lose_power(g, house, action)
    elif action == ACT_NONE:
        return
    elif ability == A.QYBURN:
        c = action
        cb.add_to_card(b, side, t.card_strength[c], t.card_swords[c], t.card_forts[c], 2)
        lose_power(g, house, 2)
    elif ability == A.ILYN_PAYNE:
        _destroy_footman(g, t, action, 1 - side)
    elif ability == A.JON_SNOW:
        if action == 1:
            g.threat -= 2
        elif action == 2:
            g.threat += 2
    elif ability == A.RODRIK_THE_READER:
        if g.ctx[2] == RODRIK_DECK:
            ask(g, Decision.CARD_ABILITY, house, side, ability, RODRIK_CARD, action)
        else:
            _rodrik_stacks(g, g.ctx[3], action)
    elif ability == A.GERRIS_DRINKWATER:
        _gerris_moves_up(g, t, house, action)
    elif ability == A.REEK:
        b[cb.KEEP_CARD + side] = action
    elif ability == A.ALAYNE_STONE:
        alayne_pays(g, side)
    elif ability == A.BRONN:
        bronn_paid(g, t, side)
    elif ability == BERIC or ability == CONNINGTON:
        vassal_ability_apply(g, t, side, ability, action)
    elif ability >= A.LYSA_ARRYN_MOD:
        mod_ability_apply(g, t, side, ability, action)
    elif ability == A.MELISANDRE_DWD:
        lose_power(g, house, t.card_strength[t.deck_card[house, action]])
        g.discard[house] &= np.uint8(~(1 << action) & 0x7F)
        g.hand[house] |= np.uint8(1 << action)
