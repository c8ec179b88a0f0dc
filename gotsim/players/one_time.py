"""The heuristic's A Clash of Kings one-time orders (1e variant ``one_time_orders``): which order
to spend this round and where, and the choices each one asks for when it resolves.

Each order is spent once a game, so the bar for using one falls as the game nears its end: a
kind whose use is worth at least ``_bar(round)`` this round is placed, the best first.
"""

from __future__ import annotations

from gotsim.engine import one_time as ot
from gotsim.engine import westeros as ws
from gotsim.engine.board_state import (
    LAND,
    SEA,
    controller,
    is_fort,
    muster_points_at,
    raid_reaches,
)
from gotsim.engine.state import ACT_NONE, N_ONE_TIME, H, OneTimeOrder
from gotsim.jit import njit
from gotsim.players.view import army_strength, danger, ensure_view, hold_strength, value_for
from gotsim.rules.cards import Ability

FOOTMAN, KNIGHT, SHIP = 0, 1, 2
NO_AREA = -1


@njit
def _bar(game_round: int) -> float:
    """The worth an order must reach to be spent now: high early, nothing in the last round."""
    return max(0.0, 2.4 - 0.26 * game_round)


@njit
def _strength(g, t, a: int) -> int:
    return army_strength(g, t, a)


@njit
def _threatened(g, t, memo, house: int, a: int) -> float:
    """How far the strongest neighbour outmatches what stands in ``a`` (0 if it does not)."""
    return max(0.0, danger(g, t, memo, house, a) - hold_strength(g, t, a))


@njit
def _melisandre_slot(t, house: int) -> int:
    for slot in range(7):
        if t.card_ability[t.deck_card[house, slot]] == Ability.MELISANDRE_1E:
            return slot
    return -1


@njit
def _adjacent_power(g, t, house: int, a: int) -> int:
    """Power in hand of the other houses with units next to ``a`` (each counted once)."""
    seen = 0
    total = 0
    for b in range(t.n_areas):
        e = g.owner[b]
        if t.adjacent[a, b] and e >= 0 and e != house and not (seen >> e) & 1:
            seen |= 1 << e
            total += g.power[e]
    return total


@njit
def _discard_for_highgarden(g, t, house: int, wanted: int) -> int:
    """The hand card to discard for Power of Highgarden: the weakest whose strength still takes
    ``wanted`` power (else the strongest of the hand's weaker half); -1 if none is worth it."""
    best = -1
    best_s = 99
    for slot in range(7):
        if (g.hand[house] >> slot) & 1:
            s = t.card_strength[t.deck_card[house, slot]]
            if s >= 1 and (s >= wanted or s <= 2) and s < best_s:
                best, best_s = slot, s
    return best


@njit
def order_worth(g, t, memo, house: int, kind: int, a: int) -> float:
    """What spending ``kind`` on area ``a`` this round is worth to ``house`` (0: no use)."""
    if not ot.area_ok(g, t, house, a):
        return 0.0
    if kind == OneTimeOrder.MUSTER:
        points = muster_points_at(g, t, a)
        if t.kind[a] != LAND or points == 0 or not ws.can_muster(g, t, house, a, points):
            return 0.0
        return 1.4 * points + 0.3 * _threatened(g, t, memo, house, a)
    if kind == OneTimeOrder.SUPPLY_TRAIN:
        if g.supply[house] >= 6:
            return 0.0
        safe = 0.5 if _threatened(g, t, memo, house, a) == 0.0 else 0.0
        return (2.2 if g.supply[house] <= 2 else 1.0) + safe
    if kind == OneTimeOrder.FORCED_MARCH:
        gap = _threatened(g, t, memo, house, a)
        if gap == 0.0:
            return 0.0
        pull = 0
        for b in range(t.n_areas):
            same_kind = (t.kind[b] == LAND) == (t.kind[a] == LAND)
            if b != a and t.adjacent[a, b] and g.owner[b] == house and same_kind:
                pull += _strength(g, t, b)
        if pull == 0:
            return 0.0
        return value_for(g, t, memo, house, a) * min(1.0, pull / (gap + 1.0))
    if kind == OneTimeOrder.IRON_FLEET:
        n = 0
        for b in range(t.n_areas):
            if g.owner[b] >= 0 and g.owner[b] != house and raid_reaches(t, a, b):
                n += 1
        return 1.1 * min(n, 2) - (0.5 if _threatened(g, t, memo, house, a) > 0.0 else 0.0)
    if kind == OneTimeOrder.YOUNG_WOLF:
        gain = 0.0
        for b in range(t.n_areas):
            land = t.adjacent[a, b] and t.kind[b] == LAND and t.kind[a] == LAND
            if land and g.neutral[b] == 0 and controller(g, t, b) < 0:
                gain = max(gain, value_for(g, t, memo, house, b))
        return gain if unit_total(g, a) >= 2 else 0.0
    if kind == OneTimeOrder.POWER_OF_HIGHGARDEN:
        power = _adjacent_power(g, t, house, a)
        if t.kind[a] != LAND or power == 0:
            return 0.0
        slot = _discard_for_highgarden(g, t, house, power)
        if slot < 0:
            return 0.0
        return 0.6 * min(power, t.card_strength[t.deck_card[house, slot]])
    if kind == OneTimeOrder.LIONS_CUNNING:
        worst = 0.0
        for b in range(t.n_areas):
            mine = (b == a or t.adjacent[a, b]) and g.owner[b] == house
            if mine and _threatened(g, t, memo, house, b) > 0.0:
                worst = max(worst, 0.5 * value_for(g, t, memo, house, b))
        return worst
    if kind == OneTimeOrder.SOUL_OF_RHLLOR:
        slot = _melisandre_slot(t, house)
        if slot < 0 or not (g.hand[house] >> slot) & 1:
            return 0.0
        return 1.0 if _threatened(g, t, memo, house, a) == 0.0 else 0.4
    return 0.0


@njit
def unit_total(g, a: int) -> int:
    return g.units[a, 0] + g.units[a, 1] + g.units[a, 2] + g.units[a, 3]


@njit
def best_area(g, t, memo, house: int, kind: int) -> tuple[float, int]:
    best = 0.0
    where = NO_AREA
    for a in range(t.n_areas):
        v = order_worth(g, t, memo, house, kind, a)
        if v > best:
            best, where = v, a
    return best, where


@njit
def one_time_order(g, t, house: int, mask, params, memo) -> int:
    """ONE_TIME_ORDER: the order worth most this round, if it clears the round's bar."""
    ensure_view(g, t, memo)
    bar = _bar(g.game_round)
    best = bar
    choice = ACT_NONE
    for k in range(N_ONE_TIME):
        if mask[k]:
            v, a = best_area(g, t, memo, house, k)
            if a >= 0 and v >= best:
                best, choice = v, k
    return choice


@njit
def one_time_area(g, t, house: int, mask, params, memo) -> int:
    """ONE_TIME_AREA: where the chosen order is worth most."""
    ensure_view(g, t, memo)
    _, a = best_area(g, t, memo, house, g.ctx[0])
    if a >= 0 and mask[a]:
        return a
    safest = -1  # an order chosen for no use (by another policy): the least exposed area
    low = 1.0e9
    for b in range(t.n_areas):
        if mask[b]:
            d = _threatened(g, t, memo, house, b)
            if d < low:
                low, safest = d, b
    return safest


@njit
def _order_priority(g, t, memo, house: int, b: int) -> float:
    """How much removing the order in ``b`` helps: defences and supports next to this house's
    units most (they stand in the way of its attacks), then marches, consolidations, raids."""
    k = g.order[b]
    near = 0
    for c in range(t.n_areas):
        if t.adjacent[b, c] and g.owner[c] == house:
            near = 1
            break
    if 3 <= k <= 6:
        base = 2.0 + near
    elif k <= 2:
        base = 1.5 + near
    elif k >= 9:
        base = 1.0
    else:
        base = 0.5
    return base + 0.1 * value_for(g, t, memo, house, b)


@njit
def one_time_target(g, t, house: int, mask, params, memo) -> int:
    """ONE_TIME_TARGET: the order to remove, the house to name or to take power from, or the
    card to discard."""
    ensure_view(g, t, memo)
    kind = g.ctx[0]
    area = g.ctx[1]
    if kind == OneTimeOrder.IRON_FLEET or kind == OneTimeOrder.SOUL_OF_RHLLOR:
        best = -1.0
        choice = ACT_NONE
        for b in range(t.n_areas):
            if mask[b]:
                v = _order_priority(g, t, memo, house, b)
                if v > best:
                    best, choice = v, b
        return choice
    if kind == OneTimeOrder.LIONS_CUNNING:
        best = -1.0
        choice = -1
        for e in range(H):
            if mask[e]:
                threat = 0.0
                for b in range(t.n_areas):
                    if g.owner[b] == e and t.adjacent[area, b]:
                        threat += _strength(g, t, b)
                if threat > best:
                    best, choice = threat, e
        return choice
    if g.ctx[2] == 0:  # Power of Highgarden: the card
        slot = _discard_for_highgarden(g, t, house, _adjacent_power(g, t, house, area))
        return slot if slot >= 0 and mask[slot] else ACT_NONE
    best_power = 0
    choice = ACT_NONE
    for e in range(H):
        if mask[e] and g.power[e] > best_power:
            best_power, choice = g.power[e], e
    return choice


@njit
def one_time_move(g, t, house: int, mask, params, memo) -> int:
    """ONE_TIME_MOVE: Forced March pulls a unit in unless its own area is a threatened castle
    or home; Young Wolf takes the best empty area next door, leaving one unit behind in a castle
    or home."""
    ensure_view(g, t, memo)
    origin = g.ctx[0]
    keep = is_fort(g, t, origin) or t.home[origin] == house
    moving = 0
    for a in range(t.n_areas):
        moving += g.moving[a, 0] + g.moving[a, 1] + g.moving[a, 2] + g.moving[a, 3]
    if keep and unit_total(g, origin) - moving <= 1:
        return origin  # the last unit holds its castle or home
    if g.ctx[2] == OneTimeOrder.FORCED_MARCH:
        target = g.ctx[3]
        return target if mask[target] else origin
    best = 0.0
    choice = origin
    for b in range(t.n_areas):
        if mask[b] and b != origin and controller(g, t, b) != house:
            already = g.moving[b, 0] + g.moving[b, 1] + g.moving[b, 2] + g.moving[b, 3]
            if already == 0 and t.kind[b] != SEA:
                v = value_for(g, t, memo, house, b)
                if v > best:
                    best, choice = v, b
    return choice


__all__ = ["one_time_area", "one_time_move", "one_time_order", "one_time_target"]
