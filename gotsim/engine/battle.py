"""A battle inside the engine: support, house cards and their abilities, Tides of Battle, the
Valyrian Steel Blade, casualties, retreat and the aftermath — on ``g.battle`` with the one combat
implementation of ``gotsim.engine.combat``.

Steps (``g.combat_step``): SUPPORT, CARDS, CANCEL, IMMEDIATELY, TIDES (and the blade's redraw),
BLADE (its +1), RESOLVE, AFTER ("if you win" abilities), CASUALTIES, RETREAT, RETREAT_LOSS,
FINISH. Cursors: ``g.pc[6]``
(the step's loop position), ``g.pc[7]`` (winner side once known), ``g.pc[8]`` (the side that
retreats, -1 none), ``g.pc[9]`` (where it retreats to). The attacking units are the march's
``g.moving[target]``; they stay in the march's origin until they win or retreat.
"""

from __future__ import annotations

import numpy as np

from gotsim.engine import combat as cb
from gotsim.engine.board_state import (
    LAND,
    PORT,
    SEA,
    ask,
    controller,
    gain_power,
    lose_power,
    port_taken,
    remove_order,
    settle_ports,
    summary_fits_with,
    unit_count,
)
from gotsim.engine.marches import (
    is_support_order,
    supports_into,
    transport_reach_bits,
)
from gotsim.engine.rng import below
from gotsim.engine.state import ACT_NONE, NATURE, Decision, Restriction, U
from gotsim.jit import njit
from gotsim.rules.board import PORT_SHIPS
from gotsim.rules.ids import House

SUPPORT, CARDS, CANCEL, IMMEDIATELY, TIDES, BLADE, RESOLVE = 0, 1, 2, 3, 4, 5, 6
CASUALTIES, AFTER, RETREAT, FINISH, OVER, RETREAT_LOSS = 7, 8, 9, 10, 11, 12
CURSOR, WINNER, RETREATING, RETREAT_TO = 6, 7, 8, 9
BLADE_REDRAW_STAGE, BLADE_PLUS_ONE_STAGE = 0, 1  # BLADE decision ctx1 (FAQ v2.0 step 4a, 4c)
RETREAT_LOSS_FLAG = 1  # CASUALTY decision ctx2: units lost to a retreat that breaks supply
SIDE_NONE = 3  # support_side value: decided to support nobody
FOOTMEN_NO_SUPPORT = int(Restriction.FOOTMEN_NO_SUPPORT)
LANNISTER = int(House.LANNISTER)


@njit
def hand_mask(t, house: int, slots: int) -> np.int64:
    """Card-number bit mask (combat layout) of a house's deck-slot bit mask."""
    mask = np.int64(0)
    for slot in range(7):
        if (slots >> slot) & 1:
            mask |= cb.bit(t.deck_card[house, slot])
    return mask


@njit
def slot_of(t, house: int, card: int) -> int:
    for slot in range(7):
        if t.deck_card[house, slot] == card:
            return slot
    return -1


@njit
def start_battle(g, t, origin: int, target: int, attacker: int) -> None:
    """Fill ``g.battle`` for ``attacker``'s units planned into ``target`` from ``origin``."""
    b = g.battle
    b[:] = 0
    for side in (cb.ATTACKER, cb.DEFENDER):
        o = side * cb.SIDE
        b[o + cb.CARD] = -1
        b[o + cb.TIDES] = -1
    defender = g.owner[target]
    if defender < 0:
        defender = t.home[target]  # a garrison defending an empty home area
    a, d = 0, cb.SIDE
    b[a + cb.HOUSE] = attacker
    b[d + cb.HOUSE] = defender
    for u in range(U):
        b[a + cb.UNITS + u] = g.moving[target, u]
        if g.owner[target] == defender:
            b[d + cb.UNITS + u] = g.units[target, u] - g.routed[target, u]
            b[d + cb.ROUTED + u] = g.routed[target, u]
    march = g.order[origin]
    b[a + cb.ORDER_BONUS] = march - 1 if 0 <= march <= 2 else 0
    defense = g.order[target] if g.owner[target] == defender else -1
    if defense == 3 or defense == 4:
        b[d + cb.HAS_DEFENSE] = 1
        b[d + cb.ORDER_BONUS] = defense - 2
    b[d + cb.GARRISON] = g.garrison[target]
    b[cb.FORTIFIED] = 1 if (t.castle[target] or t.stronghold[target]) else 0
    if g.fortification[target] > 0 and g.fortification[target] - 1 == defender:
        b[cb.FORTIFIED] |= cb.FORTIFICATION_TOKEN
    b[cb.SEA_BATTLE] = 1 if t.kind[target] != LAND else 0
    b[cb.FIRST_EDITION] = 1 if t.edition == 1 else 0
    b[cb.RAINS] = 1 if g.restrict & FOOTMEN_NO_SUPPORT else 0
    for side, house in ((cb.ATTACKER, np.int64(attacker)), (cb.DEFENDER, np.int64(defender))):
        o = side * cb.SIDE
        b[o + cb.HAND] = hand_mask(t, house, g.hand[house])
        b[o + cb.DISCARDS] = hand_mask(t, house, g.discard[house])
        b[o + cb.POWER] = g.power[house]
        for p in range(t.players):
            if g.track[0, p] == house:
                b[o + cb.IRON_THRONE_POS] = p
            if g.track[1, p] == house:
                b[o + cb.FIEFDOMS_POS] = p
        b[o + cb.BLADE_HOLDER] = 1 if (g.track[1, 0] == house and not g.blade_used) else 0
    g.combat_area = target
    g.combat_from = origin
    g.combat_step = SUPPORT
    g.pc[CURSOR] = 0
    g.pc[WINNER] = -1
    g.pc[RETREATING] = -1
    g.pc[RETREAT_TO] = origin
    g.support_side[:] = 0
    g.battles[attacker] += 1
    g.battles[defender] += 1
    g.history_battles[g.game_round - 1, attacker, defender] += 1


@njit
def add_support(g, t, area: int, side: int) -> None:
    """Count the support order in ``area`` for ``side`` of the battle."""
    b = g.battle
    own = g.owner[area] == b[side * cb.SIDE + cb.HOUSE]
    o = side * cb.SIDE + (cb.SUPPORT_OWN if own else cb.SUPPORT_ALLY)
    for u in range(U):
        b[o + u] += g.units[area, u] - g.routed[area, u]
    b[side * cb.SIDE + cb.SUPPORT_BONUS] += 1 if g.order[area] == 6 else 0
    b[side * cb.SIDE + cb.SUPPORTERS] += 1


@njit
def next_undecided_supporter(g, t) -> int:
    """The next area whose support for the battle is still undecided, counting the combatants'
    own support orders at once; -1 when every supporter has chosen."""
    target = g.combat_area
    b = g.battle
    while g.pc[CURSOR] < t.n_areas:
        a = g.pc[CURSOR]
        if g.support_side[a] == 0 and is_support_order(g, a) and supports_into(t, a, target):
            house = g.owner[a]
            if house == b[cb.HOUSE]:
                g.support_side[a] = 1
                add_support(g, t, a, cb.ATTACKER)
            elif house == b[cb.SIDE + cb.HOUSE]:
                g.support_side[a] = 2
                add_support(g, t, a, cb.DEFENDER)
            else:
                return a
        g.pc[CURSOR] += 1
    return -1


@njit
def decide_support(g, t, house: int, choice: int) -> None:
    """A third house's support orders around the battle all back ``choice`` (0 nobody, 1
    attacker, 2 defender)."""
    for a in range(t.n_areas):
        if (
            g.owner[a] == house
            and g.support_side[a] == 0
            and is_support_order(g, a)
            and supports_into(t, a, g.combat_area)
        ):
            g.support_side[a] = SIDE_NONE if choice == 0 else choice
            if choice != 0:
                add_support(g, t, a, choice - 1)


@njit
def destroy_in_battle(g, side: int, unit: int) -> None:
    """Remove one fighting unit of ``side`` from the board; before the strengths are compared
    (Mace Tyrell) from the battle vector too, which afterwards keeps the battle as it was fought
    (the narration reads it)."""
    target, origin = g.combat_area, g.combat_from
    b = g.battle
    if side == cb.ATTACKER:
        g.moving[target, unit] -= 1
        g.units[origin, unit] -= 1
    else:
        # always a fighting unit: routed units are never casualties (C10, E3)
        g.units[target, unit] -= 1
    if g.combat_step == IMMEDIATELY and b[side * cb.SIDE + cb.UNITS + unit] > 0:
        b[side * cb.SIDE + cb.UNITS + unit] -= 1


@njit
def recycle_hand(g, house: int, just_played: int) -> None:
    """When a house has played its last card, its other discards (not ``just_played``, a deck
    slot or -1) return to its hand."""
    if g.hand[house] == 0:
        keep = np.uint8(0) if just_played < 0 else np.uint8(1 << just_played)
        g.hand[house] = g.discard[house] & np.uint8(~keep & 0x7F)
        g.discard[house] = keep


@njit
def recycle_by_rules(g, t, house: int, just_played: int) -> None:
    """The discards come back by the rules in play once a card is gone from the hand: 2e when the
    hand is empty, all but ``just_played`` (a deck slot, or -1); 1e when it is empty, all seven
    (D10); 1e three-card combat when fewer than three are left, all of them (T2)."""
    if t.three_card_combat:
        left = 0
        for slot in range(7):
            left += (g.hand[house] >> slot) & 1
        if left < 3:
            g.hand[house] |= g.discard[house]
            g.discard[house] = 0
    else:
        recycle_hand(g, house, just_played if t.edition == 2 else -1)


@njit
def discard_card(g, t, house: int, card: int) -> None:
    slot = slot_of(t, house, card)
    if slot >= 0:
        g.hand[house] &= np.uint8(~(1 << slot) & 0x7F)
        g.discard[house] |= np.uint8(1 << slot)


@njit
def retreat_ok(
    g, t, house: int, target: int, dest: int, barred: int, naval: bool, ships: int
) -> bool:
    """Units of ``house`` in the battle for ``target`` may retreat into ``dest``: adjacent (land
    units also by their own ships), not ``barred`` (the attacker's origin, for a defender), not
    blocked, no neutral force, not controlled by another house (units, power token or home
    area). Ships retreat into a sea, or into a port whose land area the house controls, with at
    most 3 ships there afterwards (B8; S&R ``getValidRetreatRegions``)."""
    if dest == target or dest == barred or g.blocked[dest] or g.neutral[dest] > 0:
        return False
    holder = controller(g, t, dest)
    if holder >= 0 and holder != house:
        return False  # another house's units, power token or home area
    if naval:
        if not t.adjacent[target, dest]:
            return False
        if t.kind[dest] == PORT:
            if controller(g, t, t.port_land[dest]) != house:
                return False
            here = g.units[dest, cb.SHIP] if g.owner[dest] == house else 0
            return here + ships <= PORT_SHIPS
        return t.kind[dest] == SEA
    return t.kind[dest] == LAND


@njit
def units_left_in(g, area: int) -> int:
    return unit_count(g, area)


@njit
def card_arrays(t):
    return (t.card_strength, t.card_swords, t.card_forts, t.card_ability, t.card_ref)


@njit
def tides_arrays(t):
    return (t.tides_count, t.tides_strength, t.tides_swords, t.tides_forts, t.tides_skulls)


@njit
def side_house(g, side: int) -> int:
    return g.battle[side * cb.SIDE + cb.HOUSE]


@njit
def _iron_throne_first(g) -> int:
    b = g.battle
    return cb.ATTACKER if b[cb.IRON_THRONE_POS] < b[cb.SIDE + cb.IRON_THRONE_POS] else cb.DEFENDER


@njit
def _draw_tides(g, t, also_out: int) -> int:
    """One Tides of Battle card type from the full deck less the cards already drawn (and
    ``also_out``, a card set aside for a redraw, or -1)."""
    b = g.battle
    remaining = t.tides_count.copy()
    for side in (cb.ATTACKER, cb.DEFENDER):
        if b[side * cb.SIDE + cb.TIDES] >= 0:
            remaining[b[side * cb.SIDE + cb.TIDES]] -= 1
    if also_out >= 0:
        remaining[also_out] -= 1
    k = below(g.rng, NATURE, int(remaining.sum()))
    for ty in range(remaining.shape[0]):
        if k < remaining[ty]:
            return ty
        k -= remaining[ty]
    return 0


@njit
def three_card_step(g, t) -> bool:
    """Three-card combat (1e A Clash of Kings battle variant): each side puts three cards of its
    hand face down (all it has, if fewer), one at a time (True while asking); then one of each
    side's cards is drawn at random to fight and the others go back to the hand."""
    b = g.battle
    while g.pc[CURSOR] < 2:
        side = g.pc[CURSOR]
        hand = b[side * cb.SIDE + cb.HAND]
        house = side_house(g, side)
        in_hand = 0
        for slot in range(7):
            in_hand += (hand >> t.deck_card[house, slot]) & 1
        picked = 0
        for slot in range(7):
            picked += (g.card_picks[side] >> slot) & 1
        if picked < min(3, in_hand):
            ask(g, Decision.HOUSE_CARD, house, side, -1)
            g.ctx[2] = picked
            return True
        g.pc[CURSOR] += 1
    for side in (cb.ATTACKER, cb.DEFENDER):
        picks = g.card_picks[side]
        n = 0
        for slot in range(7):
            n += (picks >> slot) & 1
        if n > 0:
            k = below(g.rng, NATURE, n)
            for slot in range(7):
                if (picks >> slot) & 1:
                    if k == 0:
                        cb.play_card(b, side, t.deck_card[side_house(g, side), slot])
                        break
                    k -= 1
        g.card_picks[side] = 0
    return False


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
            g.pc[CURSOR] = 0
        elif step == CARDS:
            if t.three_card_combat:
                if three_card_step(g, t):
                    return True
            else:
                for side in (cb.ATTACKER, cb.DEFENDER):
                    if b[side * cb.SIDE + cb.CARD] < 0 and g.pc[CURSOR] == side:
                        ask(g, Decision.HOUSE_CARD, side_house(g, side), side, -1)
                        return True
            g.combat_step = CANCEL
            g.pc[CURSOR] = 0
        elif step == CANCEL:
            first = _iron_throne_first(g)
            while g.pc[CURSOR] < 2:
                side = first if g.pc[CURSOR] == 0 else 1 - first
                g.pc[CURSOR] += 1
                if cb.active_ability(b, side, ability) == cb.Ability.QUEEN_OF_THORNS_1E:
                    cb.cancel_opponent_text(b, side, ability)  # 1e: before any other text (E1)
                elif cb.active_ability(b, side, ability) == cb.Ability.TYRION:
                    if b[(1 - side) * cb.SIDE + cb.CARD] >= 0:
                        ask(g, Decision.TYRION, side_house(g, side), side, 0)
                        return True
            g.combat_step = IMMEDIATELY
            g.pc[CURSOR] = 0
        elif step == IMMEDIATELY:
            first = _iron_throne_first(g)
            while g.pc[CURSOR] < 2:
                side = first if g.pc[CURSOR] == 0 else 1 - first
                g.pc[CURSOR] += 1
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
            g.combat_step = TIDES
        elif step == TIDES:
            g.combat_step = BLADE
            if t.tides_of_battle:
                for side in (cb.ATTACKER, cb.DEFENDER):
                    b[side * cb.SIDE + cb.TIDES] = _draw_tides(g, t, -1)
                # FAQ v2.0 step 4a: the holder, seeing its own card only, may redraw it
                for side in (cb.ATTACKER, cb.DEFENDER):
                    if b[side * cb.SIDE + cb.BLADE_HOLDER] and not g.blade_used:
                        ask(g, Decision.BLADE, side_house(g, side), side, BLADE_REDRAW_STAGE)
                        return True
        elif step == BLADE:
            # step 4c: both cards shown; a holder that did not redraw may take +1
            g.combat_step = RESOLVE
            for side in (cb.ATTACKER, cb.DEFENDER):
                if b[side * cb.SIDE + cb.BLADE_HOLDER] and not g.blade_used:
                    ask(g, Decision.BLADE, side_house(g, side), side, BLADE_PLUS_ONE_STAGE)
                    return True
        elif step == RESOLVE:
            parts = np.zeros((2, cb.N_PARTS), np.int64)
            cb.strength_breakdown(b, card_arrays(t), tides_arrays(t), parts)
            winner = cb.ATTACKER if cb.attacker_wins(b, parts) else cb.DEFENDER
            g.pc[WINNER] = winner
            att, dfn = cb.casualty_counts(b, parts, winner, ability)
            g.losses[0] = att
            g.losses[1] = dfn
            g.battles_won[side_house(g, winner)] += 1
            if cb.power_for_winning(b, winner, ability) > 0:  # Tywin (2e), Ser Jaime (1e)
                gain_power(g, t, side_house(g, winner), cb.power_for_winning(b, winner, ability))
            if cb.active_ability(b, 1 - winner, ability) == cb.Ability.ROOSE:
                loser = side_house(g, 1 - winner)
                g.hand[loser] |= g.discard[loser]
                g.discard[loser] = 0
            # "if you win" abilities (Renly, Cersei) come before casualties and skulls (C19;
            # S&R AfterWinnerDeterminationGameState)
            g.combat_step = AFTER
            g.pc[CURSOR] = 0
        elif step == CASUALTIES:
            loser = 1 - g.pc[WINNER]
            for side in (loser, 1 - loser):
                left = g.losses[side]
                if left > 0 and casualty_candidates(g, side) > 0:
                    ask(g, Decision.CASUALTY, side_house(g, side), side, left)
                    return True
                g.losses[side] = 0
            g.combat_step = RETREAT
        elif step == AFTER:
            winner = g.pc[WINNER]
            mine = cb.active_ability(b, winner, ability)
            if g.pc[CURSOR] == 0:
                g.pc[CURSOR] = 1
                if mine == cb.Ability.RENLY:
                    ask(g, Decision.RENLY, side_house(g, winner), winner, 0)
                    return True
                if mine == cb.Ability.CERSEI:
                    ask(g, Decision.CERSEI, side_house(g, winner), winner, 0)
                    return True
                if first_edition_after_winner(g, t, winner, mine):
                    return True
            g.combat_step = CASUALTIES
        elif step == RETREAT:
            g.combat_step = FINISH
            winner = g.pc[WINNER]
            robb = cb.active_ability(b, winner, ability) == cb.Ability.ROBB
            # Robb Stark: the winner picks where the loser retreats (either side, FAQ)
            chooser = winner if robb else 1 - winner
            if winner == cb.ATTACKER and fighting_units(g, cb.DEFENDER) > 0:
                if retreat_survivors(g, cb.DEFENDER) > 0 and any_retreat(g, t, cb.DEFENDER):
                    g.pc[RETREATING] = cb.DEFENDER
                    ask(g, Decision.RETREAT, side_house(g, chooser), chooser, cb.DEFENDER)
                    return True
                destroy_all_defenders(g)
            elif winner == cb.DEFENDER and retreat_survivors(g, cb.ATTACKER) > 0:
                # a beaten attacker goes back where it came from, unless Robb sends it elsewhere
                g.pc[RETREATING] = cb.ATTACKER
                if robb and b[cb.SIDE + cb.HOUSE] >= 0:
                    ask(g, Decision.RETREAT, side_house(g, chooser), chooser, cb.ATTACKER)
                    return True
                set_retreat(g, t, g.combat_from)
        elif step == RETREAT_LOSS:
            side = g.pc[RETREATING]
            if g.losses[side] > 0 and retreat_survivors(g, side) > 0:
                ask(g, Decision.CASUALTY, side_house(g, side), side, g.losses[side])
                g.ctx[2] = RETREAT_LOSS_FLAG
                return True
            g.losses[side] = 0
            if side == cb.DEFENDER:
                retreat_defenders(g, t, g.pc[RETREAT_TO])
            g.combat_step = FINISH
        elif step == FINISH:
            finish_battle(g, t)
            g.combat_step = OVER
            # Patchface: after combat, won or lost (S&R PatchfaceHouseCardAbility)
            for side in (cb.ATTACKER, cb.DEFENDER):
                if cb.active_ability(b, side, ability) == cb.Ability.PATCHFACE:
                    opponent = side_house(g, 1 - side)
                    if g.hand[opponent] != 0:
                        ask(g, Decision.PATCHFACE, side_house(g, side), opponent, 0)
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
    mask = np.zeros(64, np.bool_)
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
    for i in range(64):
        if mask[i]:
            n += 1
    if n == 1 and mask[ACT_NONE]:  # nothing to choose: the ability does nothing
        g.pending = Decision.NONE
        g.pending_house = -1
        return False
    return True


@njit
def casualty_ok(g, side: int, unit: int) -> bool:
    """``side`` may take a casualty of type ``unit``: a fighting unit (routed units never,
    C10/E3), and no siege engine for the loser (destroyed in addition, C9) nor in the 1st
    edition (K7)."""
    target = g.combat_area
    if unit == cb.SIEGE and (side != g.pc[WINNER] or g.battle[cb.FIRST_EDITION] != 0):
        return False
    if side == cb.ATTACKER:
        return g.moving[target, unit] > 0
    return g.units[target, unit] - g.routed[target, unit] > 0


@njit
def casualty_candidates(g, side: int) -> int:
    """How many unit types ``side`` may take a casualty from (0: none)."""
    n = 0
    for u in range(U):
        n += casualty_ok(g, side, u)
    return n


@njit
def retreat_survivors(g, side: int) -> int:
    """Units of ``side`` that retreat: fighting units, not routed, no siege engines."""
    target = g.combat_area
    n = 0
    for u in range(U):
        if u != cb.SIEGE:
            if side == cb.ATTACKER:
                n += g.moving[target, u]
            else:
                n += g.units[target, u] - g.routed[target, u]
    return n


@njit
def fighting_units(g, side: int) -> int:
    target = g.combat_area
    n = 0
    for u in range(U):
        n += g.moving[target, u] if side == cb.ATTACKER else g.units[target, u]
    return n


@njit
def any_retreat(g, t, side: int) -> bool:
    return _retreat_areas(g, t, side)[2] > 0


@njit
def retreat_options(g, t, side: int, mask) -> int:
    """Legal retreat areas for the beaten ``side``: those where the fewest units are lost to
    supply (B8; Robb Stark's text)."""
    best_bits, _, n_best = _retreat_areas(g, t, side)
    for dest in range(t.n_areas):
        mask[dest] = ((best_bits >> dest) & 1) != 0
    return n_best


@njit
def set_retreat(g, t, dest: int) -> None:
    """The retreating side goes to ``dest``: the units it must lose to supply there are counted
    (it chooses them in RETREAT_LOSS), then it moves."""
    side = g.pc[RETREATING]
    g.pc[RETREAT_TO] = dest
    g.losses[side] = retreat_losses(g, t, side, dest)
    g.combat_step = RETREAT_LOSS


@njit
def _retreat_army(g, t, side: int):
    """``army_summary`` of the retreating side's house without the retreating units."""
    target, origin = g.combat_area, g.combat_from
    house = side_house(g, side)
    n2 = 0
    n3 = 0
    n4 = 0
    biggest = 0
    for a in range(t.n_areas):
        n = unit_count(g, a) if g.owner[a] == house and a != target else 0
        if side == cb.ATTACKER and a == origin:
            n -= unit_count_moving(g, target)
        n2 += n >= 2
        n3 += n >= 3
        n4 += n >= 4
        biggest = max(biggest, n)
    return n2, n3, n4, biggest


@njit
def unit_count_moving(g, target: int) -> int:
    return g.moving[target, 0] + g.moving[target, 1] + g.moving[target, 2] + g.moving[target, 3]


@njit
def _retreat_here(g, side: int, house: int, dest: int) -> int:
    """The retreating house's units already in ``dest`` (the attacker's origin: those that
    stayed)."""
    if g.owner[dest] != house:
        return 0
    n = unit_count(g, dest)
    if side == cb.ATTACKER and dest == g.combat_from:
        n -= unit_count_moving(g, g.combat_area)
    return n


@njit
def _losses_into(army, here: int, survivors: int, allowed) -> int:
    """Units lost when ``survivors`` retreat into an area holding ``here``: the fewest that
    leave the house's armies within supply."""
    lost = 0
    while lost < survivors and not summary_fits_with(army, here, survivors - lost, allowed):
        lost += 1
    return lost


@njit
def retreat_losses(g, t, side: int, dest: int) -> int:
    house = side_house(g, side)
    army = _retreat_army(g, t, side)
    allowed = t.supply_table[g.supply[house]]
    return _losses_into(
        army, _retreat_here(g, side, house, dest), retreat_survivors(g, side), allowed
    )


@njit
def _retreat_areas(g, t, side: int):
    """The areas the beaten ``side``'s units may retreat into where the fewest units are lost to
    supply (a bit set), that loss, and their number. A defender never retreats into the
    attacker's origin; an attacker may always go back there."""
    target, origin = g.combat_area, g.combat_from
    house = side_house(g, side)
    naval = t.kind[target] != LAND
    reach = np.int64(0) if naval else transport_reach_bits(g, t, house, target)
    survivors = retreat_survivors(g, side)
    army = _retreat_army(g, t, side)
    allowed = t.supply_table[g.supply[house]]
    one = np.int64(1)
    best_bits = np.int64(0)
    best_loss = 1 << 20
    n_best = 0
    # only areas next to the battle (naval) or within transport reach (land) can be open
    candidates = reach
    if naval:
        for j in range(t.neighbours.shape[1]):
            b = t.neighbours[target, j]
            if b < 0:
                break
            candidates |= one << b
    barred = origin if side == cb.DEFENDER else -1
    if side == cb.ATTACKER:
        candidates |= one << origin
    for dest in range(t.n_areas):
        if not (candidates >> dest) & 1:
            continue
        ok = side == cb.ATTACKER and dest == origin
        if not ok:
            ok = retreat_ok(g, t, house, target, dest, barred, naval, survivors)
        if ok:
            loss = _losses_into(army, _retreat_here(g, side, house, dest), survivors, allowed)
            if loss < best_loss:
                best_loss = loss
                best_bits = np.int64(0)
                n_best = 0
            if loss == best_loss:
                best_bits |= one << dest
                n_best += 1
    return best_bits, best_loss, n_best


@njit
def destroy_all_defenders(g) -> None:
    target = g.combat_area
    g.units[target, :] = 0
    g.routed[target, :] = 0


@njit
def retreat_defenders(g, t, dest: int) -> None:
    """The defeated defender's survivors go to ``dest`` routed; siege engines and units already
    routed are destroyed (the losses to supply were taken before, in RETREAT_LOSS)."""
    target = g.combat_area
    house = side_house(g, cb.DEFENDER)
    g.units[target, cb.SIEGE] = 0
    arriving = 0
    for u in range(U):
        g.units[target, u] -= g.routed[target, u]
        g.routed[target, u] = 0
        arriving += g.units[target, u]
    if arriving > 0:
        g.owner[dest] = house
    for u in range(U):
        g.units[dest, u] += g.units[target, u]
        g.routed[dest, u] += g.units[target, u]
    g.units[target, :] = 0


@njit
def finish_battle(g, t) -> None:
    """Move the winner in (or the beaten attacker back, routed), clear orders and tokens, discard
    the cards and recycle hands."""
    b = g.battle
    ability = t.card_ability
    target, origin = g.combat_area, g.combat_from
    attacker, defender = side_house(g, cb.ATTACKER), side_house(g, cb.DEFENDER)
    winner = g.pc[WINNER]
    march = g.order[origin]
    if winner == cb.ATTACKER:
        g.garrison[target] = 0
        if g.owner[target] == defender:
            remove_order(g, target)
            g.one_time[target] = -1
        if g.power_token[target] >= 0:
            g.power_token[target] = -1
        blocked = cb.active_ability(b, cb.DEFENDER, ability) == cb.Ability.ARIANNE
        if unit_count(g, target) > 0 and g.owner[target] == defender:
            blocked = True  # defenders that could not retreat are gone; survivors elsewhere
        if not blocked:
            g.owner[target] = attacker
            for u in range(U):
                k = g.moving[target, u]
                g.units[origin, u] -= k
                g.units[target, u] += k
            g.marched[target] = 1
            if t.kind[target] == LAND:
                port_taken(g, t, target, attacker)
            if cb.active_ability(b, cb.ATTACKER, ability) == cb.Ability.LORAS and march >= 0:
                g.order[target] = march
                g.order[origin] = -1
    else:
        # the beaten attacker's units retreat, routed, where they came from (or where Robb Stark
        # sent them), having lost what supply required (RETREAT_LOSS); siege engines die
        g.units[origin, cb.SIEGE] -= g.moving[target, cb.SIEGE]
        dest = g.pc[RETREAT_TO]
        for u in range(U):
            if u != cb.SIEGE:
                k = g.moving[target, u]
                if dest != origin:
                    g.units[origin, u] -= k
                    g.units[dest, u] += k
                    if k > 0:
                        g.owner[dest] = attacker
                g.routed[dest, u] += k
    g.moving[target, :] = 0
    if g.order[origin] >= 0 and g.order[origin] <= 2:
        remove_order(g, origin)
    for side in (cb.ATTACKER, cb.DEFENDER):
        house = side_house(g, side)
        card = b[side * cb.SIDE + cb.CARD]
        roose_back = side != winner and cb.active_ability(b, side, ability) == cb.Ability.ROOSE
        if card >= 0 and not roose_back:
            discard_card(g, t, house, card)
            # 1e: after the seventh card all seven return (D10); 2e keeps the last one out
            recycle_by_rules(g, t, house, slot_of(t, house, card))
    for area in (origin, target):
        if unit_count(g, area) == 0 and g.owner[area] >= 0:
            remove_order(g, area)
            g.one_time[area] = -1
            g.owner[area] = -1
    # the defender held the area when the battle began (units, or its garrisoned home area)
    fortified = t.castle[target] or t.stronghold[target]
    if fortified and controller(g, t, target) != defender:
        g.history_castles_lost_in_battle[g.game_round - 1, defender] += 1
    settle_ports(g, t)  # B12: a port whose land nobody holds now (Arianne, Robb) loses its ships
    g.combat_area = -1


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
        else:
            cb.play_card(b, side, t.deck_card[house, action])
        # in the card step the cursor moves to the next side; a replacement after Tyrion's
        # cancel closes the cancel step (C14: it cannot be cancelled again)
        g.pc[CURSOR] = side + 1 if g.combat_step == CARDS else 2
    elif kind == Decision.TYRION:
        if action == 1:
            cancelled = b[(1 - side) * cb.SIDE + cb.CARD]
            cb.return_card_to_hand(b, 1 - side)
            other = side_house(g, 1 - side)
            g.pc[CURSOR] = 2
            ask(g, Decision.HOUSE_CARD, other, 1 - side, slot_of(t, other, cancelled))
            g.combat_step = CANCEL
    elif kind == Decision.AERON:
        if action >= 1:
            aeron = b[o + cb.CARD]
            cb.discard_played_card(b, side)
            discard_card(g, t, house, aeron)
            cb.play_card(b, side, t.deck_card[house, action - 1])
            b[o + cb.POWER] -= 2
            lose_power(g, house, 2)
            g.pc[CURSOR] -= 1  # the new card's own 'immediately' ability resolves next
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
        for s in (cb.ATTACKER, cb.DEFENDER):
            h = side_house(g, s)
            for p in range(t.players):
                if g.track[track, p] == h:
                    if track == 0:
                        b[s * cb.SIDE + cb.IRON_THRONE_POS] = p
                    elif track == 1:
                        b[s * cb.SIDE + cb.FIEFDOMS_POS] = p
            b[s * cb.SIDE + cb.BLADE_HOLDER] = 1 if (g.track[1, 0] == h and not g.blade_used) else 0
    elif kind == Decision.BLADE:
        if action == 1:
            b[o + cb.BLADE_USED] = 1
            g.blade_used = 1
        elif action == 2:
            g.blade_used = 1
            drawn = b[o + cb.TIDES]
            b[o + cb.TIDES] = -1
            b[o + cb.TIDES] = _draw_tides(g, t, drawn)  # the discarded card stays out
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
    elif kind == Decision.PATCHFACE:
        if action != ACT_NONE:
            loser = g.ctx[0]
            g.hand[loser] &= np.uint8(~(1 << action) & 0x7F)
            g.discard[loser] |= np.uint8(1 << action)
            recycle_hand(g, loser, action)
