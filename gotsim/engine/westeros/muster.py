"""Mustering: the legal recruits and upgrades of one area (castle points, supply, the units
left), and the step that asks each house area by area."""

from __future__ import annotations

from gotsim.engine.area_bits import AREA_BITS, has_bit, is_empty, no_bits, set_bit
from gotsim.engine.board_state import (
    PORT,
    SEA,
    ask,
    controller,
    is_stronghold,
    muster_points_at,
    summary_fits_with,
    unit_count,
)
from gotsim.engine.state import (
    A_MAX,
    ACT_FOOTMAN,
    ACT_KNIGHT,
    ACT_NONE,
    ACT_SIEGE,
    ACT_UPGRADE_KNIGHT,
    ACT_UPGRADE_SIEGE,
    Decision,
)
from gotsim.engine.westeros.common import add_unit, replace_unit
from gotsim.jit import njit
from gotsim.rules.ids import DRAGON, FOOTMAN, KNIGHT, SHIP, SIEGE

# --- mustering ------------------------------------------------------------------------------------


@njit
def _ship_target_ok(g, t, house: int, area: int, s: int) -> bool:
    """A ship mustered at ``area`` may go to an adjacent sea or to the area's own port, neither
    holding another house's units; a port holds at most ``t.port_ships`` ships."""
    if s == area or g.blocked[s]:
        return False
    if t.kind[s] == SEA:
        if not t.adjacent[area, s]:
            return False
    elif t.kind[s] == PORT:
        if t.port_land[s] != area:
            return False
    else:
        return False
    if (g.owner[s] >= 0 and g.owner[s] != house) or g.neutral[s] > 0:
        return False  # another house's units, or a 1e absent house's neutral ships
    return not (t.kind[s] == PORT and g.units[s, SHIP] >= t.port_ships)


# the five unit actions of MUSTER (ACT_UPGRADE_SIEGE … ACT_FOOTMAN) take the bits after the area
# slots in muster_actions' bit set (an area_bits set: areas 0 … A_MAX - 1, then these)
_UNIT_BITS = ACT_UPGRADE_SIEGE - A_MAX
assert A_MAX + (ACT_FOOTMAN - ACT_UPGRADE_SIEGE) < AREA_BITS


@njit(inline="always")
def muster_bit(action: int) -> int:
    """The bit of a MUSTER action (an area, or a unit code) in ``muster_actions``' bit set; -1
    for a number that is neither (nor ``ACT_NONE``, which is always allowed)."""
    if action < A_MAX:
        return action
    if ACT_UPGRADE_SIEGE <= action <= ACT_FOOTMAN:
        return action - _UNIT_BITS
    return -1


@njit
def muster_allowed(g, t, house: int, area: int, points: int, action: int) -> bool:
    """Whether ``house`` may spend ``points`` at ``area`` on ``action`` (a MUSTER action): cost,
    unit limits (the reserve), and supply (a new unit must not break it; upgrades keep sizes)."""
    bit = muster_bit(action)
    if action < 0 or bit < 0:
        return False
    return has_bit(muster_actions(g, t, house, area, points), bit)


@njit
def muster_actions(g, t, house: int, area: int, points: int, first: bool = False):
    """Every MUSTER action ``muster_allowed`` accepts, as a bit set (``area_bits``, bit
    ``muster_bit(action)``): the reserve and the house's armies are counted once, and only the
    area's ship targets (``t.ship_targets``) are looked at for ships. With ``first``, only until
    one is found (for asking whether there is any)."""
    if points < 1:
        return no_bits()
    out = no_bits()
    reserve, army = _reserve_and_armies(g, t, house)
    allowed = t.supply_table[g.supply[house]]
    here = unit_count(g, area) if g.owner[area] == house else 0
    # a new unit in the area must keep the armies within supply (army_sizes_fit)
    new_unit_fits = summary_fits_with(army, here, 1, allowed)
    cost, upgrade = t.muster_cost, t.upgrade_cost
    if points >= cost[FOOTMAN] and reserve[FOOTMAN] > 0 and new_unit_fits:
        out = set_bit(out, muster_bit(ACT_FOOTMAN))
    if points >= cost[KNIGHT] and reserve[KNIGHT] > 0 and new_unit_fits:
        out = set_bit(out, muster_bit(ACT_KNIGHT))
    if points >= cost[SIEGE] and reserve[SIEGE] > 0 and new_unit_fits:
        out = set_bit(out, muster_bit(ACT_SIEGE))
    footman_here = g.owner[area] == house and g.units[area, FOOTMAN] > 0
    if footman_here and 0 < upgrade[KNIGHT] <= points and reserve[KNIGHT] > 0:
        out = set_bit(out, muster_bit(ACT_UPGRADE_KNIGHT))
    if footman_here and 0 < upgrade[SIEGE] <= points and reserve[SIEGE] > 0:
        out = set_bit(out, muster_bit(ACT_UPGRADE_SIEGE))
    if first and not is_empty(out):
        return out
    if points >= cost[SHIP] and reserve[SHIP] > 0:
        for j in range(t.ship_targets.shape[1]):
            s = t.ship_targets[area, j]
            if s < 0:
                break
            if _ship_target_ok(g, t, house, area, s):
                there = unit_count(g, s) if g.owner[s] == house else 0
                if summary_fits_with(army, there, 1, allowed):
                    out = set_bit(out, s)
                    if first:
                        return out
    return out


@njit
def _reserve_and_armies(g, t, house: int):
    """Units of each type left in the house's reserve (its unit limits minus those on the
    board, ``available``) and the ``army_summary`` of its units per area (what
    ``army_sizes_fit`` counts), in one pass over the board."""
    n0 = 0
    n1 = 0
    n2 = 0
    n3 = 0
    a2 = 0
    a3 = 0
    a4 = 0
    biggest = 0
    for a in range(t.n_areas):
        if g.owner[a] == house:
            f, k, s, e = g.units[a, 0], g.units[a, 1], g.units[a, 2], g.units[a, 3]
            n0 += f
            n1 += k
            n2 += s
            n3 += e
            n = f + k + s + e + g.units[a, DRAGON]  # (dragons count for supply, M10)
            a2 += n >= 2
            a3 += n >= 3
            a4 += n >= 4
            biggest = max(biggest, n)
    limits = t.unit_limits[house]
    reserve = (limits[0] - n0, limits[1] - n1, limits[2] - n2, limits[3] - n3)
    return reserve, (a2, a3, a4, biggest)


@njit
def can_muster(g, t, house: int, area: int, points: int) -> bool:
    """Whether ``house`` controls ``area`` and has anything to spend ``points`` on there."""
    if points <= 0 or controller(g, t, area) != house:
        return False
    return not is_empty(muster_actions(g, t, house, area, points, True))


@njit
def start_muster(g, t, house: int, area: int) -> bool:
    """Muster in one castle/stronghold area (Mustering card, star consolidate power order, The
    Horde Descends): asks MUSTER with the area's points (castle 1, stronghold 2). False, and
    nothing asked, when there is nothing to muster there."""
    points = muster_points_at(g, t, area)
    if not can_muster(g, t, house, area, points):
        return False
    ask(g, Decision.MUSTER, house, area, points)
    return True


@njit
def apply_muster(g, t, house: int, action: int) -> None:
    area = g.ctx[0]
    points = g.ctx[1]
    if action == ACT_NONE:
        return
    if action == ACT_UPGRADE_KNIGHT or action == ACT_UPGRADE_SIEGE:
        unit = KNIGHT if action == ACT_UPGRADE_KNIGHT else SIEGE
        replace_unit(g, area, FOOTMAN, unit)
        points -= t.upgrade_cost[unit]
    else:
        where = area
        if action == ACT_FOOTMAN:
            unit = FOOTMAN
        elif action == ACT_KNIGHT:
            unit = KNIGHT
        elif action == ACT_SIEGE:
            unit = SIEGE
        else:  # a ship, placed in the sea or port the action names
            unit, where = SHIP, action
        add_unit(g, where, house, unit)
        points -= t.muster_cost[unit]
    if can_muster(g, t, house, area, points):
        ask(g, Decision.MUSTER, house, area, points)


@njit
def mustering_step(g, t, castles_only: bool = False) -> bool:
    """Mustering card: in turn order, each house musters in every castle/stronghold area it
    controls, area by area; with ``castles_only`` (Rally the Men) in its castle areas only, not
    its strongholds. True when every house is done."""
    while g.westeros_loop < t.players:
        house = g.track[0, g.westeros_loop]
        while house >= 0 and g.westeros_area < t.n_areas:
            a = g.westeros_area
            g.westeros_area += 1
            if muster_points_at(g, t, a) <= 0 or (castles_only and is_stronghold(g, t, a)):
                continue
            if start_muster(g, t, house, a):
                return False
        g.westeros_loop += 1
        g.westeros_area = 0
    return True
