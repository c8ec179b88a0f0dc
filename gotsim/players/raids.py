"""The heuristic once orders are face up: the Messenger Raven (swap an order, look at the wildling
deck), which raid order to resolve first and what it takes. The order planner decides where
raids go (``players/orders.py``).

Compiled (numba).
"""

# ruff: noqa: SIM109

from __future__ import annotations

from gotsim.engine.area_bits import has_bit, no_bits, set_bit
from gotsim.engine.board_state import LAND
from gotsim.engine.machine import order_allowed, raid_reaches
from gotsim.engine.marches import is_march_kind
from gotsim.engine.state import ACT_NONE, ORDER_TYPE
from gotsim.jit import njit
from gotsim.players.orders import (
    CONSOLIDATE,
    DEFENSE,
    IRON_BANK,
    MARCH,
    NEG,
    RAID,
    SUPPORT,
    enemy_in_raid_reach,
)
from gotsim.players.params import P_DEFENCE, P_VERSION
from gotsim.players.view import (
    O_CONSOLIDATE,
    O_CONSOLIDATE_STAR,
    O_DEFENSE_ONE,
    O_DEFENSE_TWO,
    O_RAID_STAR,
    O_SUPPORT_ZERO,
    attack_strength,
    hold_strength,
    lose_chance,
    power_income,
    support_reaches,
    value_for,
)

# Mother of Dragons: worth of raiding an Iron Bank order (the loan it would buy is stopped;
# a little less than a consolidate power order, which also gives the raider power)
IRON_BANK_RAID = 1.0

# --- the Messenger Raven ----------------------------------------------------------------------


@njit
def _exposed(g, t, house: int, a: int) -> float:
    """Strength of revealed enemy march orders next to ``a`` (orders are face up now)."""
    worst = 0.0
    for j in range(t.neighbours.shape[1]):
        b = t.neighbours[a, j]
        if b < 0:
            break
        e = g.owner[b]
        if e >= 0 and e != house and is_march_kind(g.order[b]):
            s = float(attack_strength(g, t, b, a))
            if t.kind[b] == LAND and t.kind[a] != LAND:
                s = 0.0
            if s > worst:
                worst = s
    return worst


@njit
def _raven_swap(g, t, house: int, memo, params) -> tuple:
    """The best order to swap with the Raven now that orders are revealed: (gain, area, kind).
    A threatened area without a defence order takes one; (second heuristic) a raid with nothing
    to raid becomes a consolidate power order."""
    best = 0.0
    best_a = -1
    best_k = -1
    for a in range(t.n_areas):
        if g.owner[a] != house or g.order[a] < 0:
            continue
        cur = g.order[a]
        ct = ORDER_TYPE[cur]
        ex = _exposed(g, t, house, a)
        if ex > 0.0 and ct != DEFENSE and ct != MARCH:
            hold = hold_strength(g, t, a)
            v = value_for(g, t, memo, house, a)
            for k in (O_DEFENSE_TWO, O_DEFENSE_ONE):
                if order_allowed(g, t, house, a, k, cur):
                    extra = 2.0 if k == O_DEFENSE_TWO else 1.0
                    gain = (
                        v
                        * (lose_chance(ex, hold) - lose_chance(ex, hold + extra))
                        * (0.5 + params[P_DEFENCE])
                    )
                    if gain > best:
                        best = gain
                        best_a = a
                        best_k = k
                    break
        elif ct == RAID and params[P_VERSION] >= 2.0 and not _raidable_next_to(g, t, house, a):
            # the second heuristic takes back a raid that has nothing to raid
            gain = 0.25 + 0.3 * power_income(g, t, house, a)
            if gain > best:
                best = gain
                best_a = a
                best_k = O_CONSOLIDATE
    return best, best_a, best_k


@njit
def raid_takes(g, t, house: int, a: int, x: int) -> bool:
    """Whether the raid order of ``house`` in ``a`` may remove the order in ``x``."""
    if g.order[x] < 0 or not enemy_in_raid_reach(g, t, house, a, x):
        return False
    kt = ORDER_TYPE[g.order[x]]
    if kt == SUPPORT or kt == RAID or kt == CONSOLIDATE or kt == IRON_BANK:
        return True
    return kt == DEFENSE and g.order[a] == O_RAID_STAR


@njit
def _raidable_next_to(g, t, house: int, a: int) -> bool:
    """Whether the raid order in ``a`` has an order to remove next to it (orders face up):
    support, raid or consolidate power, and defence for a star raid."""
    for j in range(t.neighbours.shape[1]):
        x = t.neighbours[a, j]
        if x < 0:
            break
        if raid_takes(g, t, house, a, x):
            return True
    return False


@njit
def raven(g, t, house: int, mask, params, memo) -> int:
    if mask[1]:
        gain, a, _k = _raven_swap(g, t, house, memo, params)
        if a >= 0 and gain > 0.2:
            return 1
    return 2 if mask[2] else 0


@njit
def raven_area(g, t, house: int, mask, params, memo) -> int:
    _gain, a, _k = _raven_swap(g, t, house, memo, params)
    if a >= 0 and mask[a]:
        return a
    return -1


@njit
def raven_order(g, t, house: int, mask, params, memo) -> int:
    a = g.ctx[0]
    if _exposed(g, t, house, a) > 0.0:
        for k in (O_DEFENSE_TWO, O_DEFENSE_ONE):
            if mask[k]:
                return k
    for k in (O_CONSOLIDATE_STAR, O_CONSOLIDATE, O_DEFENSE_ONE, O_SUPPORT_ZERO):
        if mask[k]:
            return k
    return -1


@njit
def raven_bury(g, t, house: int, mask, params, memo) -> int:
    """The seen wildling card goes to the bottom when its penalty would hurt (a harsh card and a
    threat high enough that an attack may come soon)."""
    card = g.ctx[0]
    harsh = card == 1 or card == 2 or card == 6 or card == 7 or card == 5  # see WildlingCard
    return 1 if harsh and g.threat >= 6 else 0


# --- raids ---------------------------------------------------------------------------------------


@njit
def _march_targets(g, t, house: int, memo):
    """The planned attack targets of ``house``'s march orders still on the board
    (``area_bits``)."""
    bits = no_bits()
    for a in range(t.n_areas):
        y = memo.plan_target[house, a]
        if y >= 0 and g.owner[a] == house and is_march_kind(g.order[a]):
            bits = set_bit(bits, y)
    return bits


@njit
def _raid_value(g, t, house: int, source: int, x: int, memo, targets) -> float:
    """Worth of raiding the order in ``x`` (``targets``: ``_march_targets``)."""
    kind = g.order[x]
    if kind < 0:  # a one-time order (1st edition, A Clash of Kings): as a consolidate power
        return 1.2
    kt = ORDER_TYPE[kind]
    if kt == CONSOLIDATE:
        return 1.2 + (0.4 if kind == O_CONSOLIDATE_STAR else 0.0)
    if kt == IRON_BANK:  # Mother of Dragons: the raid stops a loan (IB5)
        return IRON_BANK_RAID
    # a target of the house's marches, or an order that can support in a battle there
    targeted = has_bit(targets, x)
    if not targeted:
        for j in range(t.neighbours.shape[1]):
            y = t.neighbours[x, j]
            if y < 0:
                break
            if has_bit(targets, y) and support_reaches(t, x, y):
                targeted = True
                break
    if kt == SUPPORT:
        near_me = False
        for j in range(t.neighbours.shape[1]):
            y = t.neighbours[x, j]
            if y < 0:
                break
            if g.owner[y] == house and support_reaches(t, x, y):
                near_me = True
        return 0.5 + (1.0 if targeted else 0.0) + (0.4 if near_me else 0.0)
    if kt == RAID:
        return 0.6
    if kt == DEFENSE:
        return 1.5 if targeted else 0.3
    return 0.1


@njit
def _contested(g, t, house: int, x: int) -> bool:
    """Whether the order in ``x`` may be gone before the house's next raid: a raid order (its
    house may resolve it first), or one a third house's raid order reaches."""
    if g.order[x] >= 0 and ORDER_TYPE[g.order[x]] == RAID:  # (a one-time order: no token)
        return True
    for j in range(t.neighbours.shape[1]):
        y = t.neighbours[x, j]
        if y < 0:
            break
        e = g.owner[y]
        if e < 0 or e == house or e == g.owner[x] or g.order[y] < 0:
            continue
        if ORDER_TYPE[g.order[y]] == RAID and raid_reaches(t, y, x):
            return True
    return False


@njit
def _last_target_of_another(g, t, house: int, source: int, x: int) -> bool:
    """Whether ``x`` holds the only order another raid of ``house`` (not ``source``) could take."""
    for j in range(t.neighbours.shape[1]):
        b = t.neighbours[x, j]
        if b < 0:
            break
        if b == source or g.owner[b] != house or g.order[b] < 0:
            continue
        if ORDER_TYPE[g.order[b]] != RAID or not raid_takes(g, t, house, b, x):
            continue
        n = 0
        for k in range(t.neighbours.shape[1]):
            y = t.neighbours[b, k]
            if y < 0:
                break
            if raid_takes(g, t, house, b, y):
                n += 1
        if n == 1:
            return True
    return False


@njit
def _raid_first(g, t, house: int, mask, memo, targets) -> int:
    """Second heuristic: the raid to resolve now. Raids with nothing to take wait; of the others,
    the one whose best order a third house's raid may take first, then the one with fewest
    orders to choose from (the others keep theirs for later), then the best order."""
    best = NEG
    best_a = -1
    for a in range(t.n_areas):
        if not mask[a]:
            continue
        v = NEG * 0.5
        n = 0
        top = -1
        for j in range(t.neighbours.shape[1]):
            x = t.neighbours[a, j]
            if x < 0:
                break
            if raid_takes(g, t, house, a, x):
                n += 1
                r = _raid_value(g, t, house, a, x, memo, targets)
                if r > v:
                    v = r
                    top = x
        if top >= 0:
            v -= 0.25 * (n - 1)
            if _contested(g, t, house, top):
                v += 0.5
        if v > best:
            best = v
            best_a = a
    return best_a


@njit
def raid_from(g, t, house: int, mask, params, memo) -> int:
    targets = _march_targets(g, t, house, memo)
    if params[P_VERSION] >= 2.0:
        return _raid_first(g, t, house, mask, memo, targets)
    best = -1.0
    best_a = -1
    for a in range(t.n_areas):
        if not mask[a]:
            continue
        v = 0.0
        for j in range(t.neighbours.shape[1]):  # raids reach neighbours only
            x = t.neighbours[a, j]
            if x < 0:
                break
            if g.order[x] >= 0 and enemy_in_raid_reach(g, t, house, a, x):
                r = _raid_value(g, t, house, a, x, memo, targets)
                if r > v:
                    v = r
        if v > best:
            best = v
            best_a = a
    return best_a


@njit
def raid_target(g, t, house: int, mask, params, memo) -> int:
    source = g.ctx[0]
    targets = _march_targets(g, t, house, memo)
    best = 0.0
    best_x = ACT_NONE
    v2 = params[P_VERSION] >= 2.0
    for x in range(t.n_areas):
        if mask[x]:
            v = _raid_value(g, t, house, source, x, memo, targets)
            if v2:
                # take what a third house may take first; leave another raid its only order
                if _contested(g, t, house, x):
                    v += 0.5
                if _last_target_of_another(g, t, house, source, x):
                    v -= 1.0
                v = max(v, 0.01)
            if v > best:
                best = v
                best_x = x
    return best_x


__all__ = [
    "raid_from",
    "raid_takes",
    "raid_target",
    "raven",
    "raven_area",
    "raven_bury",
    "raven_order",
]
