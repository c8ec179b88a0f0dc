"""March orders in the engine: where units may go, the at-most-one-attack rule, supply, leaving a
power token, peaceful moves and attacks on neutral forces.

Counters while ``g.phase == MARCHES`` (``g.pc``): ``STAGE`` (0 pick a march order, 1 assign units,
2 leave a power token?, 3 resolve, 4 combat in progress), ``ORIGIN``, ``UNIT`` and ``NEXT``
(the unit being assigned), ``TARGET`` (the one attacked area, -1 none), ``LEAVE`` (1 if a power
token is left behind). ``g.moving[dest, u]`` holds the units assigned to each destination.
"""

from __future__ import annotations

import numba
import numpy as np

from gotsim.engine.board_state import (
    LAND,
    PORT,
    SEA,
    SHIP_UNIT,
    armies_fit,
    controller,
    port_taken,
    remove_order,
    unit_count,
)
from gotsim.engine.state import A_MAX, U

STAGE, ORIGIN, UNIT, NEXT, TARGET, LEAVE = 0, 1, 2, 3, 4, 5
PICK, ASSIGN, ASK_LEAVE, RESOLVE, COMBAT = 0, 1, 2, 3, 4
MAX_PORT_SHIPS = 3
assert A_MAX < 64  # transport_reach keeps sets of seas as bits of an int64


@numba.njit(cache=True)
def transport_reach(g, t, house: int, origin: int, reach) -> None:
    """Mark in ``reach`` every land area that land units in ``origin`` can march to: adjacent land,
    and land next to a chain of seas holding ``house``'s ships that touches ``origin``."""
    reach[:] = False
    width = t.neighbours.shape[1]
    # the chain's seas as bit sets (A_MAX < 64): no work arrays to allocate per call
    seen = np.int64(0)
    todo = np.int64(0)
    one = np.int64(1)
    for j in range(width):
        b = t.neighbours[origin, j]
        if b < 0:
            break
        if t.kind[b] == LAND:
            reach[b] = True
        elif t.kind[b] == SEA and g.owner[b] == house and g.units[b, SHIP_UNIT] > 0:
            seen |= one << b
            todo |= one << b
    while todo != 0:
        for sea in range(t.n_areas):
            if not (todo >> sea) & 1:
                continue
            todo &= ~(one << sea)
            for j in range(width):
                b = t.neighbours[sea, j]
                if b < 0:
                    break
                if t.kind[b] == LAND:
                    reach[b] = True
                elif (
                    t.kind[b] == SEA
                    and not (seen >> b) & 1
                    and g.owner[b] == house
                    and g.units[b, SHIP_UNIT] > 0
                ):
                    seen |= one << b
                    todo |= one << b
    reach[origin] = False


@numba.njit(cache=True)
def is_attack(g, t, house: int, area: int) -> bool:
    """Entering ``area`` starts a battle (enemy units, a neutral force, an enemy garrison)."""
    if g.neutral[area] > 0:
        return True
    if g.owner[area] >= 0 and g.owner[area] != house:
        return True
    return g.garrison[area] > 0 and controller(g, t, area) != house


@numba.njit(cache=True)
def planned_army_sizes(g, t, house: int, origin: int, counts) -> None:
    """``counts[a]``: the house's units in each area once the march planned so far is made."""
    leaving = 0
    for a in range(t.n_areas):
        m = g.moving[a, 0] + g.moving[a, 1] + g.moving[a, 2] + g.moving[a, 3]
        counts[a] = m + (unit_count(g, a) if g.owner[a] == house else 0)
        leaving += m
    counts[origin] -= leaving


@numba.njit(cache=True)
def _supply_ok(g, t, house: int, origin: int, dest: int, counts) -> bool:
    """After one more unit moves from ``origin`` to ``dest``, do the house's armies still fit?
    (``counts`` from ``planned_army_sizes``.)"""
    counts[dest] += 1
    counts[origin] -= 1
    ok = armies_fit(counts, t.supply_table[g.supply[house]])
    counts[dest] -= 1
    counts[origin] += 1
    return ok


@numba.njit(cache=True, inline="always")  # asked for every area of the board per unit
def destination_ok(g, t, house: int, origin: int, unit: int, dest: int, reach, counts) -> bool:
    """May one ``unit`` of ``house`` march from ``origin`` to ``dest`` given the plan so far?
    (``reach`` is ``transport_reach`` of the origin, ``counts`` ``planned_army_sizes``.)"""
    if dest == origin:
        return True
    if g.blocked[dest]:
        return False
    if unit == SHIP_UNIT:
        if not t.adjacent[origin, dest]:
            return False
        if t.kind[dest] == PORT:
            if controller(g, t, t.port_land[dest]) != house:
                return False
            ships = g.units[dest, SHIP_UNIT] if g.owner[dest] == house else 0
            if ships + g.moving[dest, SHIP_UNIT] >= MAX_PORT_SHIPS:
                return False
        elif t.kind[dest] != SEA:
            return False
    elif not reach[dest]:
        return False
    if is_attack(g, t, house, dest):
        if g.pc[TARGET] >= 0 and g.pc[TARGET] != dest:
            return False
        if unit == SHIP_UNIT and g.neutral[dest] > 0 and t.edition == 2:
            return False  # 2e neutral forces stand on land; 1e neutral armies hold seas too
    return _supply_ok(g, t, house, origin, dest, counts)


@numba.njit(cache=True)
def next_unit_to_assign(g) -> bool:
    """Move the (UNIT, NEXT) cursor to the next movable unit of the origin; False when done."""
    origin = g.pc[ORIGIN]
    while g.pc[UNIT] < U:
        movable = g.units[origin, g.pc[UNIT]] - g.routed[origin, g.pc[UNIT]]
        if g.pc[NEXT] < movable:
            return True
        g.pc[UNIT] += 1
        g.pc[NEXT] = 0
    return False


@numba.njit(cache=True)
def leave_power_possible(g, t, house: int) -> bool:
    """All units leave a land area that is not the house's home, and it has power to leave."""
    origin = g.pc[ORIGIN]
    if t.kind[origin] != LAND or t.home[origin] == house or g.power[house] < 1:
        return False
    if g.power_token[origin] == house:
        return False
    staying = unit_count(g, origin)
    for a in range(t.n_areas):
        if a != origin:
            for u in range(U):
                staying -= g.moving[a, u]
    return staying == 0


@numba.njit(cache=True)
def move_units(g, t, house: int, origin: int, dest: int) -> None:
    """Carry the units planned for ``dest`` from ``origin`` into it (no battle there)."""
    if g.moving[dest, 0] == 0 and g.moving[dest, 1] == 0 and g.moving[dest, 2] == 0:
        if g.moving[dest, 3] == 0:
            return  # nothing planned for dest (the common case: called for every area)
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


@numba.njit(cache=True)
def vacate_if_empty(g, area: int) -> None:
    """An area whose last unit left loses its orders (a one-time order too) and its owner."""
    if unit_count(g, area) == 0 and g.owner[area] >= 0:
        remove_order(g, area)
        g.one_time[area] = -1
        g.owner[area] = -1
