"""Supply: each house's level from its barrels, and armies brought within it (the house chooses
which units go)."""

from __future__ import annotations

import numpy as np

from gotsim.engine.board_state import (
    army_sizes_fit,
    ask,
    barrels_held,
    unit_count,
)
from gotsim.engine.state import (
    Decision,
)
from gotsim.jit import njit

# --- supply ---------------------------------------------------------------------------------------


@njit
def supply_excess(g, t, house: int, level: int, minus_area: int) -> int:
    """The fewest units ``house`` must destroy for its armies to fit ``level`` of the supply table
    (with one unit fewer in ``minus_area``, -1 for none). 0 when they fit.

    Armies (2+ units in an area), largest first, take the allowed sizes largest first; an army
    beyond the allowed number must shrink to a single unit. Keeping the largest armies is optimal,
    so this is exact, and some cut lowers it by one whenever it is positive.
    """
    sizes = np.zeros(t.n_areas, np.int64)
    k = 0
    for a in range(t.n_areas):
        if g.owner[a] == house:
            n = unit_count(g, a)
            if a == minus_area:
                n -= 1
            if n >= 2:
                sizes[k] = n
                k += 1
    ordered = np.sort(sizes[:k])[::-1]
    allowed = t.supply_table[level]
    excess = 0
    for i in range(k):
        cap = allowed[i] if i < allowed.shape[0] else 0
        if cap >= 2:
            excess += max(0, ordered[i] - cap)
        else:
            excess += ordered[i] - 1
    return excess


@njit
def cut_useful(g, t, house: int, a: int) -> bool:
    if g.owner[a] != house or unit_count(g, a) < 2:
        return False
    level = g.supply[house]
    return supply_excess(g, t, house, level, a) == supply_excess(g, t, house, level, -1) - 1


@njit
def reconcile_step(g, t) -> bool:
    """Supply: in turn order, each house whose armies exceed its supply destroys units until they
    fit (SUPPLY_CUT / SUPPLY_CUT_UNIT, chained in ``westeros_apply``). True when all fit."""
    while g.recon_pos < t.players:
        house = g.track[0, g.recon_pos]
        g.recon_pos += 1
        if house >= 0 and not armies_within_supply(g, t, house):
            ask(g, Decision.SUPPLY_CUT, house)
            return False
    return True


@njit
def armies_within_supply(g, t, house: int) -> bool:
    """``supply_excess(...) == 0`` at the house's supply level, without sorting its armies: the
    armies fit exactly when they need no cut (``army_sizes_fit``; the supply rows are sorted,
    largest first)."""
    return army_sizes_fit(g, t, house, g.supply[house], -1, 0)


@njit
def after_cut(g, t, house: int) -> None:
    if not armies_within_supply(g, t, house):
        ask(g, Decision.SUPPLY_CUT, house)


@njit
def set_supply_levels(g, t) -> None:
    """Supply card: every house's supply level = barrels in the areas it controls (max 6)."""
    for p in range(t.players):
        house = g.track[0, p]
        if house >= 0:
            g.supply[house] = barrels_held(g, t, house)
