"""After the victor is known: casualties (routed units and siege engines never count),
retreats (where to, and the units supply then costs) and finishing the battle."""

from __future__ import annotations

from gotsim.engine import combat as cb
from gotsim.engine.area_bits import has_bit, no_bits, set_bit
from gotsim.engine.battle.common import (
    RETREAT_LOSS,
    discard_card,
    recycle_by_rules,
    retreat_ok,
    side_house,
    slot_of,
)
from gotsim.engine.board_state import (
    LAND,
    controller,
    is_fort,
    port_taken,
    remove_order,
    settle_ports,
    summary_fits_with,
    unit_count,
    vacate_if_empty,
)
from gotsim.engine.marches import (
    is_march_kind,
    transport_reach_bits,
)
from gotsim.engine.state import U
from gotsim.jit import njit


@njit
def casualty_ok(g, side: int, unit: int) -> bool:
    """``side`` may take a casualty of type ``unit``: a fighting unit (routed units never,
    C10/E3), and no siege engine for the loser (destroyed in addition, C9) nor in the 1st
    edition (K7)."""
    target = g.combat_area
    if unit == cb.SIEGE and (side != g.battle_winner or g.battle[cb.FIRST_EDITION] != 0):
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
        mask[dest] = has_bit(best_bits, dest)
    return n_best


@njit
def set_retreat(g, t, dest: int) -> None:
    """The retreating side goes to ``dest``: the units it must lose to supply there are counted
    (it chooses them in RETREAT_LOSS), then it moves."""
    side = g.battle_retreating
    g.battle_retreat_to = dest
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
    supply (``area_bits``), that loss, and their number. A defender never retreats into the
    attacker's origin; an attacker may always go back there."""
    target, origin = g.combat_area, g.combat_from
    house = side_house(g, side)
    naval = t.kind[target] != LAND
    reach = no_bits() if naval else transport_reach_bits(g, t, house, target)
    survivors = retreat_survivors(g, side)
    army = _retreat_army(g, t, side)
    allowed = t.supply_table[g.supply[house]]
    best_bits = no_bits()
    best_loss = 1 << 20
    n_best = 0
    # only areas next to the battle (naval) or within transport reach (land) can be open
    candidates = reach
    if naval:
        for j in range(t.neighbours.shape[1]):
            b = t.neighbours[target, j]
            if b < 0:
                break
            candidates = set_bit(candidates, b)
    barred = origin if side == cb.DEFENDER else -1
    if side == cb.ATTACKER:
        candidates = set_bit(candidates, origin)
    for dest in range(t.n_areas):
        if not has_bit(candidates, dest):
            continue
        ok = side == cb.ATTACKER and dest == origin
        if not ok:
            ok = retreat_ok(g, t, house, target, dest, barred, naval, survivors)
        if ok:
            loss = _losses_into(army, _retreat_here(g, side, house, dest), survivors, allowed)
            if loss < best_loss:
                best_loss = loss
                best_bits = no_bits()
                n_best = 0
            if loss == best_loss:
                best_bits = set_bit(best_bits, dest)
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
    winner = g.battle_winner
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
        dest = g.battle_retreat_to
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
    if is_march_kind(g.order[origin]):
        remove_order(g, origin)
    for side in (cb.ATTACKER, cb.DEFENDER):
        house = side_house(g, side)
        card = b[side * cb.SIDE + cb.CARD]
        roose_back = side != winner and cb.active_ability(b, side, ability) == cb.Ability.ROOSE
        roose_back = roose_back or b[cb.KEEP_CARD + side] != 0  # Reek back to hand (ADwD)
        if card >= 0 and not roose_back and not cb.is_vassal_card(card):  # (V12: no pile)
            discard_card(g, t, house, card)
            # 1e: after the seventh card all seven return (D10); 2e keeps the last one out
            recycle_by_rules(g, t, house, slot_of(t, house, card))
    for area in (origin, target):
        vacate_if_empty(g, area)
    # the defender held the area when the battle began (units, or its garrisoned home area)
    fortified = is_fort(g, t, target)
    if fortified and controller(g, t, target) != defender:
        g.history_castles_lost_in_battle[g.game_round - 1, defender] += 1
    settle_ports(g, t)  # B12: a port whose land nobody holds now (Arianne, Robb) loses its ships
    g.combat_area = -1
