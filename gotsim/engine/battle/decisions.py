"""A battle's decisions: their legal options and applying an answer (the entry points
``battle_legal`` and ``battle_apply``)."""

from __future__ import annotations

import numpy as np

from gotsim.engine import combat as cb
from gotsim.engine.battle.adwd import card_ability_apply, card_ability_legal
from gotsim.engine.battle.aftermath import casualty_ok, retreat_options, set_retreat
from gotsim.engine.battle.common import (
    BLADE_REDRAW_STAGE,
    CANCEL,
    CARDS,
    LANNISTER,
    RETREAT_LOSS_FLAG,
    SIDE_NONE,
    decide_support,
    destroy_in_battle,
    discard_card,
    draw_tides,
    follow_track_change,
    recycle_hand,
    side_house,
)
from gotsim.engine.battle.vassal_cards import card_slot, vassal_card_legal, vassal_side
from gotsim.engine.board_state import (
    ask,
    lose_power,
    remove_order,
)
from gotsim.engine.state import ACT_NONE, Decision, U
from gotsim.jit import njit


@njit
def battle_legal(g, t, mask) -> bool:
    """Fill ``mask`` for a pending battle decision; False if the decision is not a battle one."""
    kind = g.pending
    b = g.battle
    side = g.ctx[0]
    o = side * cb.SIDE
    if kind == Decision.SUPPORT_SIDE:
        mask[0] = True
        # Lion's Cunning: the named house may not support an attack on Lannister (O7)
        mask[1] = not (
            g.lions_cunning == g.pending_house and side_house(g, cb.DEFENDER) == LANNISTER
        )
        mask[2] = side_house(g, cb.DEFENDER) >= 0  # nobody supports a neutral force
    elif kind == Decision.HOUSE_CARD and vassal_side(g, side):  # its dealt cards (V12)
        vassal_card_legal(g, side, g.ctx[1], mask)
        if not mask[:7].any():
            mask[ACT_NONE] = True
    elif kind == Decision.HOUSE_CARD:
        house = side_house(g, side)
        picked = g.card_picks[side] if g.ctx[1] < 0 else 0  # three-card combat (T1)
        for slot in range(7):
            card = t.deck_card[house, slot]
            if (b[o + cb.HAND] >> card) & 1 and slot != g.ctx[1] and not (picked >> slot) & 1:
                mask[slot] = True
        if not mask[:7].any():
            mask[ACT_NONE] = True
    elif kind == Decision.TYRION:
        mask[0] = True
        mask[1] = True
    elif kind == Decision.AERON:
        mask[0] = True
        house = side_house(g, side)
        for slot in range(7):
            if (b[o + cb.HAND] >> t.deck_card[house, slot]) & 1:
                mask[1 + slot] = True
    elif kind == Decision.QUEEN_OF_THORNS:
        other = side_house(g, 1 - side)
        for a in range(t.n_areas):
            if (
                t.adjacent[g.combat_area, a]
                and g.owner[a] == other
                and g.order[a] >= 0
                and a != g.combat_from
            ):
                mask[a] = True
        mask[ACT_NONE] = not mask[: t.n_areas].any()
    elif kind == Decision.DORAN:
        mask[0] = True
        mask[1] = True
        mask[2] = True
    elif kind == Decision.BLADE:
        mask[0] = True
        if g.ctx[1] == BLADE_REDRAW_STAGE:
            mask[2] = True
        else:
            mask[1] = True
    elif kind == Decision.CASUALTY:
        retreating = g.ctx[2] == RETREAT_LOSS_FLAG  # lost to supply: any retreating unit
        for u in range(U):
            if retreating:
                mask[u] = u != cb.SIEGE and casualty_ok(g, side, u)
            else:
                mask[u] = casualty_ok(g, side, u)
    elif kind == Decision.RETREAT:
        retreat_options(g, t, g.ctx[1], mask)
    elif kind == Decision.RENLY:
        house = side_house(g, side)
        knights = 0
        for a in range(t.n_areas):
            if g.owner[a] == house:
                knights += g.units[a, cb.KNIGHT]
        target = g.combat_area
        first_edition = b[cb.FIRST_EDITION] != 0
        if knights < t.unit_limits[house, cb.KNIGHT]:
            if side == cb.ATTACKER and g.moving[target, cb.FOOTMAN] > 0:
                mask[target] = True
            if (
                side == cb.DEFENDER
                and g.units[target, cb.FOOTMAN] - g.routed[target, cb.FOOTMAN] > 0
            ):
                mask[target] = True
            # 2e: a footman that supported this side in the battle may be upgraded too
            for a in range(t.n_areas):
                if (
                    not first_edition
                    and g.owner[a] == house
                    and g.support_side[a] == side + 1
                    and g.units[a, cb.FOOTMAN] - g.routed[a, cb.FOOTMAN] > 0
                ):
                    mask[a] = True
        mask[ACT_NONE] = True
    elif kind == Decision.CERSEI:
        loser = side_house(g, 1 - side)
        asha = cb.active_ability(b, side, t.card_ability) == cb.Ability.ASHA_1E
        for a in range(t.n_areas):
            if asha:  # any house's support or consolidate power order next to the battle
                order = g.order[a]
                if t.adjacent[g.combat_area, a] and order >= 5 and order != 7 and order != 8:
                    mask[a] = True
            elif g.owner[a] == loser and g.order[a] >= 0:
                mask[a] = True
        mask[ACT_NONE] = True
    elif kind == Decision.PATCHFACE:
        loser = g.ctx[0]
        if g.ctx[1] == 2:  # 1e Maester Luwin: a card of the winner's own discard pile
            for slot in range(7):
                mask[slot] = (g.discard[loser] >> slot) & 1 != 0
        elif g.ctx[1] == 1:  # 1e Melisandre: a card of the loser's hand (not the one played)
            if g.power[side_house(g, g.ctx[2])] >= 1:
                lo = (1 - g.ctx[2]) * cb.SIDE
                for slot in range(7):
                    mask[slot] = (b[lo + cb.HAND] >> t.deck_card[loser, slot]) & 1 != 0
        else:
            for slot in range(7):
                mask[slot] = (g.hand[loser] >> slot) & 1 != 0
        mask[ACT_NONE] = True
    elif kind == Decision.CARD_ABILITY:
        card_ability_legal(g, t, mask)
    else:
        return False
    return True


@njit
def battle_apply(g, t, kind: int, house: int, action: int) -> None:
    """Apply a legal battle decision (pending already cleared by the caller)."""
    b = g.battle
    side = g.ctx[0]
    o = side * cb.SIDE
    if kind == Decision.SUPPORT_SIDE:
        decide_support(g, t, house, action)
    elif kind == Decision.HOUSE_CARD:
        if t.three_card_combat and g.combat_step == CARDS:
            g.card_picks[side] |= np.uint8(1 << action)  # face down; one is drawn later
            return
        if action == ACT_NONE:
            b[o + cb.CARD] = -1
        elif vassal_side(g, side):
            cb.play_card(b, side, cb.VASSAL_CARD_FIRST + action)
        else:
            cb.play_card(b, side, t.deck_card[house, action])
        # in the card step the cursor moves to the next side; a replacement after Tyrion's
        # cancel closes the cancel step (C14: it cannot be cancelled again)
        g.battle_cursor = side + 1 if g.combat_step == CARDS else 2
    elif kind == Decision.TYRION:
        if action == 1:
            cancelled = b[(1 - side) * cb.SIDE + cb.CARD]
            cb.return_card_to_hand(b, 1 - side)
            other = side_house(g, 1 - side)
            g.battle_cursor = 2
            again = card_slot(t, other, cancelled, vassal_side(g, 1 - side))
            ask(g, Decision.HOUSE_CARD, other, 1 - side, again)
            g.combat_step = CANCEL
    elif kind == Decision.AERON:
        if action >= 1:
            aeron = b[o + cb.CARD]
            cb.discard_played_card(b, side)
            discard_card(g, t, house, aeron)
            cb.play_card(b, side, t.deck_card[house, action - 1])
            b[o + cb.POWER] -= 2
            lose_power(g, house, 2)
            g.battle_cursor -= 1  # the new card's own 'immediately' ability resolves next
    elif kind == Decision.QUEEN_OF_THORNS:
        if action != ACT_NONE:
            if g.support_side[action] == 2 - side:
                units = np.zeros(U, np.int64)
                for u in range(U):
                    units[u] = g.units[action, u] - g.routed[action, u]
                cb.remove_support(b, 1 - side, True, units, 1 if g.order[action] == 6 else 0)
                g.support_side[action] = SIDE_NONE
            remove_order(g, action)
    elif kind == Decision.DORAN:
        victim = side_house(g, 1 - side)
        track = action
        pos = -1
        for p in range(t.players):
            if g.track[track, p] == victim:
                pos = p
        for p in range(pos, t.players - 1):
            g.track[track, p] = g.track[track, p + 1]
        g.track[track, t.players - 1] = victim
        follow_track_change(g, t, track)
    elif kind == Decision.BLADE:
        if action == 1:
            b[o + cb.BLADE_USED] = 1
            g.blade_used = 1
        elif action == 2:
            g.blade_used = 1
            drawn = b[o + cb.TIDES]
            b[o + cb.TIDES] = -1
            b[o + cb.TIDES] = draw_tides(g, t, drawn)  # the discarded card stays out
    elif kind == Decision.CASUALTY:
        destroy_in_battle(g, side, action)
        g.losses[side] -= 1
    elif kind == Decision.RETREAT:
        set_retreat(g, t, action)
    elif kind == Decision.RENLY:
        if action != ACT_NONE and b[cb.FIRST_EDITION] != 0 and action == g.combat_area:
            cb.renly_upgrade_footman(b, side, t.card_ability, 1)  # keeps the battle in step
        if action != ACT_NONE:
            # the attacker's units still stand in the march's origin until they move in
            fighting = action == g.combat_area
            where = int(g.combat_from) if side == cb.ATTACKER and fighting else int(action)
            g.units[where, cb.FOOTMAN] -= 1
            g.units[where, cb.KNIGHT] += 1
            if side == cb.ATTACKER and fighting:
                g.moving[action, cb.FOOTMAN] -= 1
                g.moving[action, cb.KNIGHT] += 1
    elif kind == Decision.CERSEI:
        if action != ACT_NONE:
            remove_order(g, action)
    elif kind == Decision.PATCHFACE and g.ctx[1] == 1:
        if action != ACT_NONE:
            loser = g.ctx[0]
            winner = g.ctx[2]
            if cb.melisandre_discard(b, winner, t.card_ability, t.deck_card[loser, action]):
                g.hand[loser] &= np.uint8(~(1 << action) & 0x7F)
                g.discard[loser] |= np.uint8(1 << action)
                lose_power(g, house, 1)
    elif kind == Decision.PATCHFACE and g.ctx[1] == 2:
        if action != ACT_NONE and cb.luwin_take_back(
            b, g.ctx[2], t.card_ability, t.deck_card[house, action]
        ):
            g.discard[house] &= np.uint8(~(1 << action) & 0x7F)
            g.hand[house] |= np.uint8(1 << action)
    elif kind == Decision.CARD_ABILITY:
        card_ability_apply(g, t, house, action)
    elif kind == Decision.PATCHFACE:
        if action != ACT_NONE:
            loser = g.ctx[0]
            g.hand[loser] &= np.uint8(~(1 << action) & 0x7F)
            g.discard[loser] |= np.uint8(1 << action)
            recycle_hand(g, loser, action)
