"""Facts derived from a game record: control, castles, supply armies, power in use, reach.

Compiled helpers shared by every phase. Each recomputes from the record's fields; nothing here is
cached, so there is nothing to keep in step.
"""

from __future__ import annotations

import numpy as np

from gotsim.engine.state import H, U
from gotsim.jit import njit
from gotsim.rules.ids import SHIP, AreaKind

LAND, SEA, PORT = int(AreaKind.LAND), int(AreaKind.SEA), int(AreaKind.PORT)


@njit
def ask(g, kind: int, house: int, c0: int = 0, c1: int = 0, c2: int = 0, c3: int = 0) -> None:
    """Make decision ``kind`` of ``house`` the pending one, with context ``c0``–``c3`` (the
    rest of ``g.ctx`` cleared)."""
    g.pending = kind
    g.pending_house = house
    g.ctx[:] = 0
    g.ctx[0] = c0
    g.ctx[1] = c1
    g.ctx[2] = c2
    g.ctx[3] = c3


@njit
def unit_count(g, a: int) -> int:
    n = 0
    for u in range(U):
        n += g.units[a, u]
    return n


@njit
def controller(g, t, a: int) -> int:
    """The house controlling area ``a``: units, else a power token, else its home house."""
    if g.owner[a] >= 0:
        return g.owner[a]
    if g.power_token[a] >= 0:
        return g.power_token[a]
    home = t.home[a]
    if home >= 0 and g.in_play[home] and g.neutral[a] == 0:
        return home
    return -1


# --- the board's facts as this game has them ------------------------------------------------
# Mother of Dragons' Iron Bank improvements (docs/rules.md IB9) change an area's crowns, barrels
# and castle level for one game (``g.crown_bonus``, ``g.barrel_bonus``, ``g.castle_delta``, zero
# without them; ``g.improved`` 1 once any is set, which ``add_improvement`` does). Every reader
# asks these functions, never the board tables alone; without improvements they read the board
# only. A loan only upgrades a castle or takes levels away, so the board's castle and stronghold
# areas (``t.forts``) still list every area that can have one: loops over them check the level.


@njit
def add_improvement(g, a: int, crowns: int = 0, barrels: int = 0, castle: int = 0) -> None:
    """Put improvements on area ``a``: ``crowns`` power improvements, ``barrels`` supply
    improvements, and its castle level changed by ``castle`` (+1 a castle upgraded to a
    stronghold, -1 a level lost)."""
    g.crown_bonus[a] += crowns
    g.barrel_bonus[a] += barrels
    g.castle_delta[a] += castle
    g.improved = 1


@njit
def crowns_at(g, t, a: int) -> int:
    """Crowns on area ``a`` in this game: the board's and power improvements'."""
    if g.improved == 0:
        return int(t.crowns[a])
    return int(t.crowns[a]) + int(g.crown_bonus[a])


@njit
def barrels_at(g, t, a: int) -> int:
    """Supply barrels on area ``a`` in this game: the board's and supply improvements'."""
    if g.improved == 0:
        return int(t.barrels[a])
    return int(t.barrels[a]) + int(g.barrel_bonus[a])


@njit
def castle_level(g, t, a: int) -> int:
    """Area ``a``'s castle level in this game: 0 none, 1 a castle, 2 a stronghold (the board's,
    changed by upgrades and lost levels, kept within 0..2)."""
    level = int(t.castle[a]) + 2 * int(t.stronghold[a])
    if g.improved == 0 or g.castle_delta[a] == 0:
        return level
    return min(max(level + int(g.castle_delta[a]), 0), 2)


@njit
def is_fort(g, t, a: int) -> bool:
    """Whether area ``a`` has a castle or a stronghold in this game."""
    if g.improved == 0 or g.castle_delta[a] == 0:
        return t.castle[a] != 0 or t.stronghold[a] != 0
    return castle_level(g, t, a) > 0


@njit
def is_stronghold(g, t, a: int) -> bool:
    """Whether area ``a`` has a stronghold in this game."""
    if g.improved == 0 or g.castle_delta[a] == 0:
        return t.stronghold[a] != 0
    return castle_level(g, t, a) == 2


@njit
def muster_points_at(g, t, a: int) -> int:
    """Mustering points of area ``a`` in this game: 1 at a castle, 2 at a stronghold."""
    if g.improved == 0 or g.castle_delta[a] == 0:
        return int(t.muster_points[a])
    return castle_level(g, t, a)


@njit
def castles_held(g, t, house: int) -> int:
    n = 0
    for i in range(t.n_forts):
        a = t.forts[i]
        if controller(g, t, a) == house and is_fort(g, t, a):
            n += 1
    return n


@njit
def castles_by_house(g, t) -> np.int64:
    """Castles and strongholds held by every house at once, in one pass over them: house
    ``h``'s count is ``(packed >> (8 * h)) & 0xFF`` (checked after every march)."""
    packed = np.int64(0)
    for i in range(t.n_forts):
        a = t.forts[i]
        c = controller(g, t, a)
        if c >= 0 and is_fort(g, t, a):
            packed += np.int64(1) << (8 * c)
    return packed


@njit
def land_areas_held(g, t, house: int) -> int:
    n = 0
    for a in range(t.n_areas):
        if t.kind[a] == LAND and controller(g, t, a) == house:
            n += 1
    return n


@njit
def barrels_held(g, t, house: int) -> int:
    n = 0
    for i in range(t.n_barrel_areas):  # the land areas with barrels on the board
        a = t.barrel_areas[i]
        if controller(g, t, a) == house:
            n += t.barrels[a]
    if g.improved:
        for a in range(t.n_areas):  # supply improvements, on any land area (IB9)
            if g.barrel_bonus[a] != 0 and controller(g, t, a) == house:
                n += g.barrel_bonus[a]
    return min(n, 6)


@njit
def power_tokens_on_board(g, t, house: int) -> int:
    n = 0
    for a in range(t.n_areas):
        if g.power_token[a] == house:
            n += 1
    return n


@njit
def gain_power(g, t, house: int, amount: int) -> int:
    """Take up to ``amount`` power tokens from the pool (a house owns ``t.power_total``);
    returns the gain."""
    room = t.power_total[house] - g.power[house] - power_tokens_on_board(g, t, house)
    got = max(0, min(amount, room))
    g.power[house] += got
    return got


@njit
def lose_power(g, house: int, amount: int) -> int:
    lost = min(amount, g.power[house])
    g.power[house] -= lost
    return lost


@njit
def sizes_fit(n2: int, n3: int, n4: int, biggest: int, allowed) -> bool:
    """Whether armies counted by size fit the supply row ``allowed`` (army sizes, largest
    first): ``n2``/``n3``/``n4`` armies of at least 2/3/4 units, the largest ``biggest``.

    Sorted largest first, the k-th army must be at most ``allowed[k]``; for sorted rows this
    is the same as: for every size s, no more armies of s or more units than slots of s or more
    (the supply track's slots are at most 4, so s = 2, 3, 4 and the largest army decide).
    """
    s2 = 0
    s3 = 0
    s4 = 0
    top = 0
    for i in range(allowed.shape[0]):
        v = allowed[i]
        if v >= 2:
            s2 += 1
        if v >= 3:
            s3 += 1
        if v >= 4:
            s4 += 1
        if v > top:
            top = v
    return n2 <= s2 and n3 <= s3 and n4 <= s4 and (n2 == 0 or biggest <= top)


@njit
def army_sizes_fit(g, t, house: int, level: int, extra_area: int, extra: int) -> bool:
    """Whether the house's armies (2+ units in an area), with ``extra`` units added to
    ``extra_area`` (-1 for none), fit the supply table at ``level``."""
    n2 = 0
    n3 = 0
    n4 = 0
    biggest = 0
    for a in range(t.n_areas):
        n = unit_count(g, a) if g.owner[a] == house else 0
        if a == extra_area:
            n += extra
        # counted without branching (areas of fewer than 2 units add nothing; ``biggest``
        # only matters when there is an army, and then it is the largest count)
        n2 += n >= 2
        n3 += n >= 3
        n4 += n >= 4
        biggest = max(biggest, n)
    return sizes_fit(n2, n3, n4, biggest, t.supply_table[level])


@njit
def turn_order_position(g, house: int) -> int:
    for p in range(H):
        if g.track[0, p] == house:
            return p
    return H


@njit
def track_position(g, track: int, house: int) -> int:
    for p in range(H):
        if g.track[track, p] == house:
            return p
    return H


@njit
def raid_reaches(t, source: int, target: int) -> bool:
    """Land raids reach adjacent land; sea raids adjacent sea, land and ports; port raids only
    their sea."""
    if not t.adjacent[source, target]:
        return False
    if t.kind[source] == LAND:
        return t.kind[target] == LAND
    if t.kind[source] == PORT:
        return t.kind[target] == SEA
    return True


@njit
def enemy_ships_in(g, a: int, house: int) -> bool:
    return g.owner[a] >= 0 and g.owner[a] != house and g.units[a, SHIP] > 0


@njit
def remove_order(g, area: int) -> None:
    """Take the order token off ``area`` (back to its house's unused tokens)."""
    kind = g.order[area]
    if kind >= 0:
        house = g.owner[area]
        if house >= 0:
            g.orders_used[house, kind] -= 1
        g.order[area] = -1


@njit
def vacate_if_empty(g, area: int) -> None:
    """An area whose last unit left loses its orders (a one-time order too) and its owner."""
    if unit_count(g, area) == 0 and g.owner[area] >= 0:
        remove_order(g, area)
        g.one_time[area] = -1
        g.owner[area] = -1


@njit
def vacate_and_settle(g, t, area: int) -> None:
    """After a unit of ``area`` is destroyed outside a march: an emptied area is vacated and
    the ports follow its control at once (B12: orphaned ships destroyed, a home area's port
    handed back)."""
    if unit_count(g, area) == 0 and g.owner[area] >= 0:
        vacate_if_empty(g, area)
        settle_ports(g, t)


@njit
def port_taken(g, t, land: int, conqueror: int) -> None:
    """Ships of another house in the port of a conquered area are replaced by the conqueror's
    (as many as it has available) or destroyed."""
    port = t.port_of_area[land]
    if port < 0 or g.owner[port] < 0 or g.owner[port] == conqueror:
        return
    ships = g.units[port, 2]
    g.units[port, :] = 0
    g.routed[port, :] = 0
    remove_order(g, port)
    g.owner[port] = -1
    on_board = 0
    for a in range(t.n_areas):
        if g.owner[a] == conqueror:
            on_board += g.units[a, 2]
    take = min(ships, t.unit_limits[conqueror, 2] - on_board)
    counts = np.zeros(t.n_areas, np.int64)
    for a in range(t.n_areas):
        if g.owner[a] == conqueror:
            counts[a] = unit_count(g, a)
    while take > 0:  # captured ships must fit the conqueror's supply too
        counts[port] = take
        if armies_fit(counts, t.supply_table[g.supply[conqueror]]):
            break
        take -= 1
    if take > 0:
        g.units[port, 2] = take
        g.owner[port] = conqueror


@njit
def armies_fit(counts, allowed) -> bool:
    """Whether the armies (areas with 2+ units) in ``counts`` fit the supply row ``allowed``:
    the k-th largest army at most ``allowed[k]``."""
    n2, n3, n4, biggest = army_summary(counts)
    return sizes_fit(n2, n3, n4, biggest, allowed)


@njit
def army_summary(counts):
    """What ``sizes_fit`` needs of the unit counts per area: (areas of 2+, 3+, 4+ units, the
    largest count)."""
    n2 = 0
    n3 = 0
    n4 = 0
    biggest = 0
    for a in range(counts.shape[0]):
        n = counts[a]
        # without branching, so that the loop vectorises (see army_sizes_fit)
        n2 += n >= 2
        n3 += n >= 3
        n4 += n >= 4
        biggest = max(biggest, n)
    return n2, n3, n4, biggest


@njit(inline="always")
def summary_fits_with(summary, before: int, added: int, allowed) -> bool:
    """``sizes_fit`` of a ``army_summary`` once one area's count grows from ``before`` by
    ``added`` (>= 0) units: the same answer as counting the changed counts afresh, since only
    that area's thresholds move and the largest count can only grow to the new one."""
    n2, n3, n4, biggest = summary
    after = before + added
    n2 += int(after >= 2) - int(before >= 2)
    n3 += int(after >= 3) - int(before >= 3)
    n4 += int(after >= 4) - int(before >= 4)
    return sizes_fit(n2, n3, n4, max(biggest, after), allowed)


@njit
def settle_ports(g, t) -> None:
    """Ships in a port belong to the house controlling its land area: another house's ships
    there are taken over (``port_taken``) whenever control has changed hands, and ships in the
    port of an area nobody controls are destroyed (rulebook p.25; S&R
    ``findOrphanedShipsAndDestroyThem``)."""
    for port in range(t.n_areas):
        if t.port_land[port] >= 0 and g.owner[port] >= 0:
            holder = controller(g, t, t.port_land[port])
            if holder < 0:
                g.units[port, :] = 0
                g.routed[port, :] = 0
                remove_order(g, port)
                g.owner[port] = -1
            elif holder != g.owner[port]:
                port_taken(g, t, t.port_land[port], holder)
