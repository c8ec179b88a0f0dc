"""The battle's step machine (``battle_step``): support, cards, their abilities, Tides of
Battle, the blade, the result, and the 1st edition's choices after the winner."""

from __future__ import annotations

import numpy as np

from gotsim.engine import combat as cb
from gotsim.engine.battle.adwd import (
    after_winner_step,
    before_combat_step,
    blade_barred,
    post_combat_step,
    reek_immediately,
)
from gotsim.engine.battle.affc import ARRYN, arryn_after_combat
from gotsim.engine.battle.aftermath import (
    any_retreat,
    casualty_candidates,
    destroy_all_defenders,
    fighting_units,
    finish_battle,
    retreat_defenders,
    retreat_survivors,
    set_retreat,
)
from gotsim.engine.battle.common import (
    AFTER,
    BEFORE_COMBAT,
    BLADE,
    BLADE_PLUS_ONE_STAGE,
    BLADE_REDRAW_STAGE,
    CANCEL,
    CARDS,
    CASUALTIES,
    FINISH,
    IMMEDIATELY,
    LATE,
    OVER,
    RESOLVE,
    RETREAT,
    RETREAT_LOSS,
    RETREAT_LOSS_FLAG,
    SUPPORT,
    TIDES,
    VASSALS_AFTER,
    card_arrays,
    destroy_in_battle,
    draw_tides,
    next_side,
    next_undecided_supporter,
    side_house,
    three_card_step,
    tides_arrays,
)
from gotsim.engine.battle.decisions import battle_legal
from gotsim.engine.battle.mod import (
    TARGARYEN,
    anya_supporters_gain,
    count_nearby,
    mod_after_combat,
    mod_cards_in_play,
)
from gotsim.engine.battle.vassal_cards import (
    connington_asked,
    jaqen_replaces,
    vassal_after_combat,
)
from gotsim.engine.board_state import (
    ask,
    gain_power,
    remove_order,
)
from gotsim.engine.state import ACT_NONE, N_ACTIONS, Decision
from gotsim.jit import njit


@njit
def battle_step(g, t) -> bool:
    """Run the battle until a decision is pending (True) or it is over (False)."""
    b = g.battle
    ability = t.card_ability
    while True:
        step = g.combat_step
        if step == SUPPORT:
            area = next_undecided_supporter(g, t)
            if area >= 0:
                ask(g, Decision.SUPPORT_SIDE, g.owner[area], g.combat_area, area)
                return True
            g.combat_step = CARDS
            g.battle_cursor = 0
            if mod_cards_in_play(g):  # Godric Borrell, Captain Groleo: the board around
                count_nearby(g, t, g.combat_from, g.combat_area)
        elif step == CARDS:
            if t.three_card_combat:
                if three_card_step(g, t):
                    return True
            else:
                for side in (cb.ATTACKER, cb.DEFENDER):
                    if b[side * cb.SIDE + cb.CARD] < 0 and g.battle_cursor == side:
                        ask(g, Decision.HOUSE_CARD, side_house(g, side), side, -1)
                        return True
            g.combat_step = CANCEL
            g.battle_cursor = 0
        elif step == CANCEL:
            side = next_side(g)
            while side >= 0:
                if cb.active_ability(b, side, ability) == cb.Ability.QUEEN_OF_THORNS_1E:
                    cb.cancel_opponent_text(b, side, ability)  # 1e: before any other text (E1)
                elif cb.active_ability(b, side, ability) == cb.Ability.JAQEN_H_GHAR:
                    jaqen_replaces(g, side)  # (V15)
                elif cb.active_ability(b, side, ability) == cb.Ability.TYRION:
                    if b[(1 - side) * cb.SIDE + cb.CARD] >= 0:
                        ask(g, Decision.TYRION, side_house(g, side), side, 0)
                        return True
                side = next_side(g)
            g.combat_step = IMMEDIATELY
            g.battle_cursor = 0
        elif step == IMMEDIATELY:
            side = next_side(g)
            while side >= 0:
                other = 1 - side
                mine = cb.active_ability(b, side, ability)
                if mine == cb.Ability.AERON:
                    o = side * cb.SIDE
                    if b[o + cb.POWER] >= 2 and b[o + cb.HAND] != 0:
                        ask(g, Decision.AERON, side_house(g, side), side, 0)
                        return True
                elif mine == cb.Ability.MACE or mine == cb.Ability.LORAS_1E:
                    if cb.active_ability(b, other, ability) != cb.Ability.BLACKFISH:
                        if b[other * cb.SIDE + cb.UNITS + cb.FOOTMAN] > 0:
                            destroy_in_battle(g, other, cb.FOOTMAN)
                elif mine == cb.Ability.BRIENNE_1E:
                    # the defense order leaves the board at once (E7): no help in later battles
                    if cb.remove_defense_order(b, other) and other == cb.DEFENDER:
                        remove_order(g, g.combat_area)
                elif mine == cb.Ability.QUEEN_OF_THORNS:
                    ask(g, Decision.QUEEN_OF_THORNS, side_house(g, side), side, 0)
                    return True
                elif mine == cb.Ability.DORAN:
                    ask(g, Decision.DORAN, side_house(g, side), side, 0)
                    return True
                elif mine == cb.Ability.REEK:
                    reek_immediately(g, t, side)
                side = next_side(g)
            g.combat_step = TIDES
            if t.adwd_house_cards or g.in_play[TARGARYEN] or t.vassals:  # (Viserys, Bronn)
                g.combat_step = BEFORE_COMBAT
                g.battle_cursor = 0
        elif step == BEFORE_COMBAT:
            if before_combat_step(g, t):
                return True
            g.combat_step = TIDES
        elif step == TIDES:
            g.combat_step = BLADE
            if t.tides_of_battle:
                for side in (cb.ATTACKER, cb.DEFENDER):
                    b[side * cb.SIDE + cb.TIDES] = draw_tides(g, t, -1)
                # FAQ v2.0 step 4a: the holder, seeing its own card only, may redraw it
                for side in (cb.ATTACKER, cb.DEFENDER):
                    holds = b[side * cb.SIDE + cb.BLADE_HOLDER] != 0 and not g.blade_used
                    if holds and not blade_barred(g, t, side):
                        ask(g, Decision.BLADE, side_house(g, side), side, BLADE_REDRAW_STAGE)
                        return True
        elif step == BLADE:
            # step 4c: both cards shown; a holder that did not redraw may take +1
            g.combat_step = RESOLVE
            for side in (cb.ATTACKER, cb.DEFENDER):
                holds = b[side * cb.SIDE + cb.BLADE_HOLDER] != 0 and not g.blade_used
                if holds and not blade_barred(g, t, side):
                    ask(g, Decision.BLADE, side_house(g, side), side, BLADE_PLUS_ONE_STAGE)
                    return True
        elif step == RESOLVE:
            parts = np.zeros((2, cb.N_PARTS), np.int64)
            cb.strength_breakdown(b, card_arrays(t), tides_arrays(t), parts)
            winner = cb.ATTACKER if cb.attacker_wins(b, parts) else cb.DEFENDER
            g.battle_winner = winner
            att, dfn = cb.casualty_counts(b, parts, winner, ability)
            g.losses[0] = att
            g.losses[1] = dfn
            g.battles_won[side_house(g, winner)] += 1
            if cb.power_for_winning(b, winner, ability) > 0:  # Tywin (2e), Ser Jaime (1e), Anya
                gain_power(g, t, side_house(g, winner), cb.power_for_winning(b, winner, ability))
                if cb.active_ability(b, winner, ability) == cb.Ability.ANYA_WAYNWOOD:
                    anya_supporters_gain(g, t, winner)
            if t.adwd_house_cards and cb.power_for_losing(b, 1 - winner, ability) > 0:  # Qarl
                gain_power(
                    g, t, side_house(g, 1 - winner), cb.power_for_losing(b, 1 - winner, ability)
                )
            if cb.active_ability(b, 1 - winner, ability) == cb.Ability.ROOSE:
                loser = side_house(g, 1 - winner)
                g.hand[loser] |= g.discard[loser]
                g.discard[loser] = 0
            # "if you win" abilities (Renly, Cersei) come before casualties and skulls (C19;
            # S&R AfterWinnerDeterminationGameState)
            g.combat_step = AFTER
            g.battle_cursor = 0
        elif step == CASUALTIES:
            loser = 1 - g.battle_winner
            for side in (loser, 1 - loser):
                left = g.losses[side]
                if left > 0 and casualty_candidates(g, side) > 0:
                    ask(g, Decision.CASUALTY, side_house(g, side), side, left)
                    return True
                g.losses[side] = 0
            g.combat_step = RETREAT
        elif step == AFTER:
            winner = g.battle_winner
            mine = cb.active_ability(b, winner, ability)
            if g.battle_cursor == 0:
                g.battle_cursor = 1
                if mine == cb.Ability.RENLY:
                    ask(g, Decision.RENLY, side_house(g, winner), winner, 0)
                    return True
                if mine == cb.Ability.CERSEI:
                    ask(g, Decision.CERSEI, side_house(g, winner), winner, 0)
                    return True
                if first_edition_after_winner(g, t, winner, mine):
                    return True
            # Alayne Stone (A Feast for Crows), Lysa Arryn and Missandei (Mother of Dragons)
            if (t.adwd_house_cards or mod_cards_in_play(g)) and after_winner_step(g, t):
                return True
            g.combat_step = CASUALTIES
        elif step == RETREAT:
            g.combat_step = FINISH
            winner = g.battle_winner
            robb = cb.active_ability(b, winner, ability) == cb.Ability.ROBB
            # Robb Stark: the winner picks where the loser retreats (either side, FAQ)
            chooser = winner if robb else 1 - winner
            if winner == cb.ATTACKER and fighting_units(g, cb.DEFENDER) > 0:
                if retreat_survivors(g, cb.DEFENDER) > 0 and any_retreat(g, t, cb.DEFENDER):
                    g.battle_retreating = cb.DEFENDER
                    ask(g, Decision.RETREAT, side_house(g, chooser), chooser, cb.DEFENDER)
                    return True
                destroy_all_defenders(g)
            elif winner == cb.DEFENDER and retreat_survivors(g, cb.ATTACKER) > 0:
                # a beaten attacker goes back where it came from, unless Robb sends it elsewhere
                g.battle_retreating = cb.ATTACKER
                if robb and b[cb.SIDE + cb.HOUSE] >= 0:
                    ask(g, Decision.RETREAT, side_house(g, chooser), chooser, cb.ATTACKER)
                    return True
                set_retreat(g, t, g.combat_from)
        elif step == RETREAT_LOSS:
            side = g.battle_retreating
            if g.losses[side] > 0 and retreat_survivors(g, side) > 0:
                ask(g, Decision.CASUALTY, side_house(g, side), side, g.losses[side])
                g.ctx[2] = RETREAT_LOSS_FLAG
                return True
            g.losses[side] = 0
            if side == cb.DEFENDER:
                retreat_defenders(g, t, g.battle_retreat_to)
            g.combat_step = FINISH
        elif step == FINISH:
            fought_in = g.combat_area
            finish_battle(g, t)
            g.combat_step = LATE
            if g.in_play[ARRYN]:  # Littlefinger, Lysa Arryn: after the combat, no choice
                arryn_after_combat(g, t)
            if mod_cards_in_play(g):  # Khal Drogo, Viserys, Illyrio, Daenerys (deck B)
                mod_after_combat(g, t)
            if t.vassals:  # Varys, Beric Dondarrion (V16, V17); then Jon Connington (V18)
                g.combat_step = VASSALS_AFTER
                if vassal_after_combat(g, t, fought_in):
                    return True
        elif step == VASSALS_AFTER:
            g.combat_step = LATE
            if connington_asked(g, t):
                return True
        elif step == LATE:
            g.combat_step = OVER
            # Patchface: after combat, won or lost (S&R PatchfaceHouseCardAbility)
            for side in (cb.ATTACKER, cb.DEFENDER):
                if cb.active_ability(b, side, ability) == cb.Ability.PATCHFACE:
                    opponent = side_house(g, 1 - side)
                    if g.hand[opponent] != 0:
                        ask(g, Decision.PATCHFACE, side_house(g, side), opponent, 0)
                        return True
            if (t.adwd_house_cards or mod_cards_in_play(g)) and post_combat_step(g, t):
                return True
        else:
            return False


@njit
def first_edition_after_winner(g, t, winner: int, mine: int) -> bool:
    """Ask the 1st-edition winner's card choice, if it has one to make: Renly (a fighting
    footman becomes a knight), Melisandre (1 power: a card of the loser's hand discarded), Maester
    Luwin (a discard back to hand), Asha (an adjacent support or consolidate power order
    removed). True when a decision is pending."""
    house = side_house(g, winner)
    mask = np.zeros(N_ACTIONS, np.bool_)
    if mine == cb.Ability.RENLY_1E:
        ask(g, Decision.RENLY, house, winner, 0)
    elif mine == cb.Ability.MELISANDRE_1E:
        ask(g, Decision.PATCHFACE, house, side_house(g, 1 - winner), 1)
        g.ctx[2] = winner
    elif mine == cb.Ability.LUWIN_1E:
        ask(g, Decision.PATCHFACE, house, house, 2)
        g.ctx[2] = winner
    elif mine == cb.Ability.ASHA_1E:
        ask(g, Decision.CERSEI, house, winner, 0)
    else:
        return False
    battle_legal(g, t, mask)
    n = 0
    for i in range(N_ACTIONS):
        if mask[i]:
            n += 1
    if n == 1 and mask[ACT_NONE]:  # nothing to choose: the ability does nothing
        g.pending = Decision.NONE
        g.pending_house = -1
        return False
    return True
