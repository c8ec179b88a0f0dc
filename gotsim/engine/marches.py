"""March orders in the engine: where units may go, the at-most-one-attack rule, supply, leaving a
power token, peaceful moves and attacks on neutral forces.

Counters while ``g.phase == MARCHES`` (``engine.counters``): ``g.march_stage`` (PICK a march
order, ASSIGN units, ASK_LEAVE a power token?, RESOLVE, COMBAT or NEUTRAL in progress),
``g.march_origin``, ``g.march_unit`` and ``g.march_next`` (the unit being assigned),
``g.march_target`` (the one attacked area, -1 none), ``g.march_leave`` (1 if a power token is
left behind), ``g.march_replanned`` (1 once a plan attacking a neutral force fell short and
the march is being planned again). ``g.moving[dest, u]`` holds the units assigned to each
destination.
"""

from __future__ import annotations

import numpy as np

from gotsim.engine import combat as cb
from gotsim.engine.area_bits import has_bit, no_bits, set_bit
from gotsim.engine.board_state import (
    LAND,
    PORT,
    SEA,
    controller,
    is_fort,
    port_taken,
    summary_fits_with,
    unit_count,
)
from gotsim.engine.dragons import dragon_strength
from gotsim.engine.state import ORDER_BONUS, ORDER_MARCH, ORDER_SUPPORT, ORDER_TYPE, U
from gotsim.jit import njit
from gotsim.rules.ids import DRAGON, SHIP

PICK, ASSIGN, ASK_LEAVE, RESOLVE, COMBAT, NEUTRAL = 0, 1, 2, 3, 4, 5
SIEGE_UNIT = 3
LANNISTER = 1  # House.LANNISTER


@njit(inline="always")
def transport_walk(g, t, house: int, origin: int, lands, seas, skip_blocked: bool) -> int:
    """List in ``lands`` the land areas that land units in ``origin`` can march to, in the order
    a depth-first walk meets them: the areas next to ``origin``, then those next to each sea of
    a chain of seas holding ``house``'s ships that touches it (neighbours in table order, the
    sea found last walked first); impassable ones left out if ``skip_blocked``. ``seas`` is work
    space, one slot per area. Returns how many.

    The one implementation of transport: the engine's legal marches and retreats
    (``transport_reach_bits``), the heuristic's march list and, in tests, the position queries
    stand on it."""
    seen = set_bit(no_bits(), origin)  # areas met (area_bits: every area slot fits)
    width = t.neighbours.shape[1]
    n = 0
    top = 0
    here = origin
    while True:
        for j in range(width):
            b = t.neighbours[here, j]
            if b < 0:
                break
            if has_bit(seen, b):
                continue
            if t.kind[b] == LAND:
                seen = set_bit(seen, b)
                if not (skip_blocked and g.blocked[b]):
                    lands[n] = b
                    n += 1
            elif t.kind[b] == SEA and g.owner[b] == house and g.units[b, SHIP] > 0:
                seen = set_bit(seen, b)
                seas[top] = b
                top += 1
        if top == 0:
            return n
        top -= 1
        here = seas[top]


@njit
def transport_reach(g, t, house: int, origin: int, reach) -> None:
    """Mark in ``reach`` every land area that land units in ``origin`` can march to
    (``transport_walk``)."""
    bits = transport_reach_bits(g, t, house, origin)
    for a in range(reach.shape[0]):
        reach[a] = has_bit(bits, a)


@njit
def transport_reach_bits(g, t, house: int, origin: int):
    """``transport_reach`` as a set of areas (``area_bits``), walked in the record's work space
    (``walk_lands``, ``walk_seas``), so that the legal marches of every unit need no work
    array."""
    lands = g.walk_lands
    n = transport_walk(g, t, house, origin, lands, g.walk_seas, False)
    bits = no_bits()
    for i in range(n):
        bits = set_bit(bits, lands[i])
    return bits


@njit(inline="always")
def is_march_kind(k: int) -> bool:
    """Whether order kind ``k`` (-1: none) is a march (Mother of Dragons' sea march too)."""
    return k >= 0 and ORDER_TYPE[k] == ORDER_MARCH


@njit
def is_support_order(g, area: int) -> bool:
    k = g.order[area]
    return k >= 0 and ORDER_TYPE[k] == ORDER_SUPPORT


@njit
def supports_into(t, source: int, target: int) -> bool:
    """Units in ``source`` can support a battle in ``target``: adjacent, land units never into a
    sea or port, a port never into its own land area."""
    if not t.adjacent[source, target]:
        return False
    if t.kind[source] == LAND:
        return t.kind[target] == LAND
    return not (t.kind[source] == PORT and t.kind[target] == LAND)


@njit
def neutral_battle(g, t, b, house: int, origin: int, target: int) -> None:
    """Fill the battle vector ``b`` for an attack by ``house`` from ``origin`` on the neutral
    force in ``target``: no house, cards or Tides on either side, the token's strength as the
    defender's garrison, ties to the attacker (C11). Units and support are left to the caller."""
    b[:] = 0
    cb.set_unit_strengths(b, t.unit_strength, t.siege_castle_strength, t.fortified_knight_strength)
    for side in (cb.ATTACKER, cb.DEFENDER):
        b[side * cb.SIDE + cb.CARD] = -1
        b[side * cb.SIDE + cb.TIDES] = -1
    b[cb.HOUSE] = house
    b[cb.SIDE + cb.HOUSE] = -1
    march = g.order[origin]
    b[cb.ORDER_BONUS] = ORDER_BONUS[march] if is_march_kind(march) else 0
    b[cb.FORTIFIED] = 1 if is_fort(g, t, target) else 0
    b[cb.SIDE + cb.GARRISON] = g.neutral[target]
    b[cb.SIDE + cb.FIEFDOMS_POS] = 99
    b[cb.DRAGON_STRENGTH] = dragon_strength(g, t)


@njit
def neutral_within_reach(g, t, house: int, origin: int, target: int) -> bool:
    """2e: an attack on a neutral force is legal only if it can succeed: the origin's units
    still free to join it (those planned for it and those not yet given a destination, the
    one being assigned included), the march order and every support order (any house's) that
    could back it reach the token's strength (rulebook p.26, C11)."""
    b = np.zeros(cb.BATTLE_LEN, np.int64)
    neutral_battle(g, t, b, house, origin, target)
    for u in range(cb.N_UNIT_TYPES):
        if u != SHIP:  # ships never attack a neutral force on land
            b[cb.UNITS + u] = _free_for(g, origin, target, u)
    b[cb.DRAGONS] = _free_for(g, origin, target, DRAGON)
    for a in range(t.n_areas):
        if g.owner[a] >= 0 and is_support_order(g, a) and supports_into(t, a, target):
            o = cb.SUPPORT_OWN if g.owner[a] == house else cb.SUPPORT_ALLY
            for u in range(cb.N_UNIT_TYPES):
                b[o + u] += g.units[a, u] - g.routed[a, u]
            b[cb.DRAGON_SUPPORT] += g.units[a, DRAGON] - g.routed[a, DRAGON]
            b[cb.SUPPORT_BONUS] += 1 if g.order[a] == 6 else 0
            b[cb.SUPPORTERS] += 1
    parts = np.zeros((2, cb.N_PARTS), np.int64)
    cards = (t.card_strength, t.card_swords, t.card_forts, t.card_ability, t.card_ref)
    cb.board_and_card_strength(b, cards, parts)
    return cb.attacker_wins(b, parts)


@njit(inline="always")
def _free_for(g, origin: int, target: int, u: int) -> int:
    """Units of type ``u`` in ``origin`` that the march being planned can still send to
    ``target``: those planned for it and those not yet given a destination (the assignment
    walks the unit types in order, ``march_unit`` and ``march_next`` its cursor)."""
    movable = np.int64(g.units[origin, u]) - g.routed[origin, u]
    if u < g.march_unit:
        return g.moving[target, u]
    if u == g.march_unit:
        return g.moving[target, u] + movable - g.march_next
    return movable


@njit
def is_attack(g, t, house: int, area: int) -> bool:
    """Entering ``area`` starts a battle (enemy units, a neutral force, an enemy garrison)."""
    if g.neutral[area] > 0:
        return True
    if g.owner[area] >= 0 and g.owner[area] != house:
        return True
    return g.garrison[area] > 0 and controller(g, t, area) != house


@njit(inline="always")
def planned_count(g, house: int, a: int) -> int:
    """The house's units in ``a`` once the march planned so far is made (for the origin: before
    its leaving units are taken off)."""
    m = g.moving[a, 0] + g.moving[a, 1] + g.moving[a, 2] + g.moving[a, 3] + g.moving[a, DRAGON]
    return m + (unit_count(g, a) if g.owner[a] == house else 0)


@njit
def planned_army_summary(g, t, house: int, origin: int):
    """``army_summary`` of the house's units per area once the march planned so far is made and
    one more unit has left ``origin`` (the unit being assigned); ``destination_ok`` adds it to
    each destination in turn."""
    n2 = 0
    n3 = 0
    n4 = 0
    biggest = 0
    leaving = 0
    for a in range(t.n_areas):
        # without branches (the origin counted as 0 here, which adds nothing): it vectorises
        m = np.int64(g.moving[a, 0]) + g.moving[a, 1] + g.moving[a, 2] + g.moving[a, 3]
        m += g.moving[a, DRAGON]
        own = np.int64(g.units[a, 0]) + g.units[a, 1] + g.units[a, 2] + g.units[a, 3]
        own += g.units[a, DRAGON]  # (dragons count for supply, M10)
        leaving += m
        n = m + (own if g.owner[a] == house else 0)
        n = n if a != origin else 0
        n2 += n >= 2
        n3 += n >= 3
        n4 += n >= 4
        biggest = max(biggest, n)
    n = planned_count(g, house, origin) - leaving - 1
    n2 += n >= 2
    n3 += n >= 3
    n4 += n >= 4
    biggest = max(biggest, n)
    return n2, n3, n4, biggest


@njit(inline="always")  # asked for every area of the board per unit
def destination_ok(g, t, house: int, origin: int, unit: int, dest: int, reach, army) -> bool:
    """May one ``unit`` of ``house`` march from ``origin`` to ``dest`` given the plan so far?
    (``reach`` is ``transport_reach_bits`` of the origin, ``army`` ``planned_army_summary``:
    after one more unit moves to ``dest`` the house's armies must still fit its supply.)"""
    if dest == origin:
        return True
    if g.blocked[dest]:
        return False
    if unit == SHIP:
        if not t.adjacent[origin, dest]:
            return False
        if t.kind[dest] == PORT:
            if controller(g, t, t.port_land[dest]) != house:
                return False
            ships = g.units[dest, SHIP] if g.owner[dest] == house else 0
            if ships + g.moving[dest, SHIP] >= t.port_ships:
                return False
        elif t.kind[dest] != SEA:
            return False
    elif not has_bit(reach, dest) and not _dragons_fly(g, t, unit, dest):
        return False
    if is_attack(g, t, house, dest):
        if g.march_target >= 0 and g.march_target != dest:
            return False
        if g.lions_cunning == house and g.owner[dest] == LANNISTER:
            return False  # 1e Lion's Cunning: no march against Lannister this round (O7)
        if g.neutral[dest] > 0 and t.edition == 2:
            if unit == SHIP:
                return False  # 2e neutral forces stand on land; 1e neutral armies hold seas too
            if g.march_replanned:
                return False  # a plan whose attack fell short was void: none now (C11)
            if not neutral_within_reach(g, t, house, origin, dest):
                return False  # a doomed attack is no legal march (rulebook p.26)
    allowed = t.supply_table[g.supply[house]]
    return summary_fits_with(army, planned_count(g, house, dest), 1, allowed)


@njit
def march_destinations(g, t, house: int, origin: int, unit: int, mask) -> None:
    """Mark in ``mask`` (cleared) where one ``unit`` of ``house`` may march from ``origin`` given
    the plan so far: staying, and every ``destination_ok`` area among those it can reach at all
    (ships: the neighbours; land units: ``transport_reach_bits``), which are the only ones
    ``destination_ok`` can accept."""
    mask[origin] = True
    army = planned_army_summary(g, t, house, origin)
    if unit == SHIP:
        for j in range(t.neighbours.shape[1]):
            b = t.neighbours[origin, j]
            if b < 0:
                break
            mask[b] = destination_ok(g, t, house, origin, unit, b, no_bits(), army)
        return
    reach = transport_reach_bits(g, t, house, origin)
    # 1e siege engines never take ship transport (K5): next door only
    siege_1e = t.edition == 1 and unit == SIEGE_UNIT
    for a in range(t.n_areas):
        if (has_bit(reach, a) and not (siege_1e and not t.adjacent[origin, a])) or (
            unit == DRAGON and t.kind[a] == LAND
        ):
            mask[a] = destination_ok(g, t, house, origin, unit, a, reach, army)


@njit(inline="always")
def _dragons_fly(g, t, unit: int, dest: int) -> bool:
    """Mother of Dragons: a dragon may march to any land area when only dragons march there
    (the march's other units, planned before its dragons, go elsewhere; M11)."""
    if unit != DRAGON or t.kind[dest] != LAND:
        return False
    return (g.moving[dest, 0] | g.moving[dest, 1] | g.moving[dest, 2] | g.moving[dest, 3]) == 0


@njit
def march_destination_ok(g, t, house: int, origin: int, unit: int, dest: int, reach) -> bool:
    """``march_destinations``'s answer for ``dest`` alone (a policy checking the one destination
    it has in mind needs neither the others nor the mask); ``reach`` is
    ``transport_reach_bits`` of the origin, which stays the same while a march's units are
    assigned."""
    if dest == origin:
        return True
    if t.edition == 1 and unit == SIEGE_UNIT and not t.adjacent[origin, dest]:
        return False  # 1e siege engines never take ship transport (K5)
    army = planned_army_summary(g, t, house, origin)
    return destination_ok(g, t, house, origin, unit, dest, reach, army)


@njit
def next_unit_to_assign(g) -> bool:
    """Move the (``march_unit``, ``march_next``) cursor to the next movable unit of the origin;
    False when done."""
    origin = g.march_origin
    while g.march_unit < U:
        movable = g.units[origin, g.march_unit] - g.routed[origin, g.march_unit]
        if g.march_next < movable:
            return True
        g.march_unit += 1
        g.march_next = 0
    return False


@njit
def leave_power_possible(g, t, house: int) -> bool:
    """All units leave a land area that is not the house's home, and it has power to leave."""
    origin = g.march_origin
    if t.kind[origin] != LAND or t.home[origin] == house or g.power[house] < 1:
        return False
    if g.power_token[origin] == house:
        return False
    leaving = 0
    for a in range(t.n_areas):
        m = np.int64(g.moving[a, 0]) + g.moving[a, 1] + g.moving[a, 2] + g.moving[a, 3]
        m += g.moving[a, DRAGON]
        leaving += m if a != origin else 0
    return unit_count(g, origin) - leaving == 0


@njit(inline="always")
def moving_any(g, dest: int) -> bool:
    """Units of the march in progress are planned for ``dest``."""
    return (
        g.moving[dest, 0] | g.moving[dest, 1] | g.moving[dest, 2] | g.moving[dest, 3]
    ) != 0 or g.moving[dest, DRAGON] != 0


@njit
def move_units(g, t, house: int, origin: int, dest: int) -> None:
    """Carry the units planned for ``dest`` from ``origin`` into it (no battle there)."""
    if not moving_any(g, dest):
        return  # nothing planned for dest
    n = 0
    for u in range(U):
        k = g.moving[dest, u]
        g.units[origin, u] -= k
        g.units[dest, u] += k
        g.moving[dest, u] = 0
        n += k
    if n > 0:
        taken = g.owner[dest] != house and controller(g, t, dest) != house
        g.owner[dest] = house
        g.marched[dest] = 1
        if taken and t.kind[dest] == LAND:
            port_taken(g, t, dest, house)
        if g.power_token[dest] >= 0 and g.power_token[dest] != house:
            g.power_token[dest] = -1  # an enemy power token goes back to its pool
        if g.neutral[dest] > 0:
            g.neutral[dest] = 0
