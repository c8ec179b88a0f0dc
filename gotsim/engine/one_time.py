"""A Clash of Kings one-time orders (1st-edition variant ``one_time_orders``, rules digest §2.5).

Before the other orders of a round, each house in Iron Throne order may put one of its one-time
orders, face down, on an area holding its units (never a port). Each kind is placed once a game.
An order resolves in the step its icon shows, as the house's first turn in that step (raid: Iron
Fleet, Young Wolf, Lion's Cunning, Soul of R'hllor; march: Forced March; consolidate power:
Muster, Supply Train, Power of Highgarden, with the house's consolidate orders, area by area).
A raid on an area takes its one-time order with the other one; an area its units leave loses it.
Decisions are documented in ``docs/rules.md`` (O1–O12).

Counters of the order being resolved (``engine.counters.ONE_TIME_COUNTERS``):
``g.one_time_stage`` (0 none, 1 resolving), ``g.one_time_area``, ``g.one_time_source`` (Forced
March: the area whose units are asked next), ``g.one_time_unit`` and ``g.one_time_next`` (the
unit being asked), ``g.one_time_step`` (targets taken so far; Power of Highgarden: power still
to demand, plus one). The placement before planning counts with ``g.plan_one_time_done`` and
``g.plan_one_time_turn``.
"""

from __future__ import annotations

import numpy as np

from gotsim.engine import battle as bt
from gotsim.engine import combat as cb
from gotsim.engine import marches as mv
from gotsim.engine import westeros as ws
from gotsim.engine.board_state import (
    LAND,
    PORT,
    ask,
    gain_power,
    lose_power,
    raid_reaches,
    remove_order,
    settle_ports,
    unit_count,
    vacate_if_empty,
)
from gotsim.engine.counters import clear_one_time
from gotsim.engine.state import (
    ACT_NONE,
    N_ONE_TIME,
    ONE_TIME_HOUSE,
    ONE_TIME_TYPE,
    Decision,
    H,
    OneTimeOrder,
    Restriction,
    U,
)
from gotsim.jit import njit

MARCH, DEFENSE, SUPPORT, RAID, CONSOLIDATE = 1, 2, 3, 4, 5
LANNISTER = 1


# --- placing ---------------------------------------------------------------------------------


@njit
def icon_allowed(g, kind: int) -> bool:
    """A Westeros deck III restriction on an order type forbids one-time orders of that icon."""
    r = g.restrict
    icon = ONE_TIME_TYPE[kind]
    if icon == RAID and r & Restriction.NO_RAID:
        return False
    return not (icon == CONSOLIDATE and r & Restriction.NO_CONSOLIDATE)


@njit
def area_ok(g, t, house: int, area: int) -> bool:
    """A one-time order goes on an area holding the house's units, never a port."""
    return g.owner[area] == house and unit_count(g, area) > 0 and t.kind[area] != PORT


@njit
def kind_allowed(g, t, house: int, kind: int) -> bool:
    """The house has this kind (common, or its own), has not placed it yet, and may use it."""
    owner = ONE_TIME_HOUSE[kind]
    if owner >= 0 and owner != house:
        return False
    if (g.one_time_used[house] >> kind) & 1:
        return False
    return icon_allowed(g, kind)


@njit
def can_place(g, t, house: int) -> bool:
    """Whether ``house`` may place a one-time order now: a kind it has left that the round allows,
    and an area of its units outside a port (``position`` reading asks too)."""
    any_kind = False
    for k in range(N_ONE_TIME):
        if kind_allowed(g, t, house, k):
            any_kind = True
            break
    if not any_kind:
        return False
    for a in range(t.n_areas):
        if area_ok(g, t, house, a):
            return True
    return False


@njit
def planning_step(g, t) -> bool:
    """The one-time placement before the other orders (Iron Throne order); True while a house is
    asked. Uses ``g.plan_one_time_done`` and ``g.plan_one_time_turn``."""
    while g.plan_one_time_turn < t.players:
        house = g.track[0, g.plan_one_time_turn]
        if house >= 0 and can_place(g, t, house):
            ask(g, Decision.ONE_TIME_ORDER, house, 0, 0, 0, 0)
            return True
        g.plan_one_time_turn += 1
    g.plan_one_time_done = 1
    return False


# --- finding and starting ----------------------------------------------------------------------


@njit
def area_of(g, t, house: int, kind_type: int) -> int:
    """The area of the house's one-time order resolving in the step of ``kind_type``; -1."""
    for a in range(t.n_areas):
        k = g.one_time[a]
        if k >= 0 and g.owner[a] == house and ONE_TIME_TYPE[k] == kind_type:
            return a
    return -1


@njit
def here(g, area: int, house: int, kind_type: int) -> bool:
    k = g.one_time[area]
    return k >= 0 and g.owner[area] == house and ONE_TIME_TYPE[k] == kind_type


@njit
def begin(g, area: int) -> None:
    clear_one_time(g)
    g.one_time_stage = 1
    g.one_time_area = area


@njit
def _finish(g) -> None:
    g.one_time[g.one_time_area] = -1
    clear_one_time(g)
    g.moving[:, :] = 0


# --- resolving -----------------------------------------------------------------------------------


@njit
def _slot_of_ability(t, house: int, ability: int) -> int:
    for slot in range(7):
        if t.card_ability[t.deck_card[house, slot]] == ability:
            return slot
    return -1


@njit
def _adjacent_houses(g, t, area: int, house: int) -> int:
    """Bits of the other houses with units in an area adjacent to ``area``."""
    bits = 0
    for b in range(t.n_areas):
        if t.adjacent[area, b] and g.owner[b] >= 0 and g.owner[b] != house:
            bits |= 1 << g.owner[b]
    return bits


@njit
def move_reach(g, t, house: int, origin: int, unit: int, mask) -> int:
    """Young Wolf: where one ``unit`` in ``origin`` may go, as a march that starts no battle
    (``mask`` over areas, the origin itself meaning stay); the number of places besides stay."""
    reach = mv.transport_reach_bits(g, t, house, origin)
    army = mv.planned_army_summary(g, t, house, origin)
    n = 0
    for a in range(t.n_areas):
        ok = a == origin or (
            not mv.is_attack(g, t, house, a)
            and mv.destination_ok(g, t, house, origin, unit, a, reach, army)
        )
        if ok and a != origin and t.edition == 1 and unit == cb.SIEGE:
            ok = t.adjacent[origin, a]  # 1e siege engines never take ship transport (K5)
        mask[a] = ok
        if ok and a != origin:
            n += 1
    return n


@njit
def forced_march_ok(g, t, house: int, source: int, unit: int, target: int) -> bool:
    """Forced March: one ``unit`` in ``source`` may move into ``target`` (adjacent, or a land unit
    along its ships, within supply)."""
    if t.edition == 1 and unit == cb.SIEGE and not t.adjacent[source, target]:
        return False
    reach = mv.transport_reach_bits(g, t, house, source)
    army = mv.planned_army_summary(g, t, house, source)
    return mv.destination_ok(g, t, house, source, unit, target, reach, army)


@njit
def _next_unit(g, origin: int) -> bool:
    """Move the (``one_time_unit``, ``one_time_next``) cursor to the next movable (not routed)
    unit of ``origin``."""
    while g.one_time_unit < U:
        if g.one_time_next < g.units[origin, g.one_time_unit] - g.routed[origin, g.one_time_unit]:
            return True
        g.one_time_unit += 1
        g.one_time_next = 0
    return False


@njit
def _move_out(g, t, house: int, origin: int) -> None:
    for dest in range(t.n_areas):
        if dest != origin:
            mv.move_units(g, t, house, origin, dest)
    vacate_if_empty(g, origin)
    settle_ports(g, t)


@njit
def _young_wolf(g, t, house: int, area: int) -> bool:
    mask = np.zeros(t.n_areas, np.bool_)
    while _next_unit(g, area):
        unit = g.one_time_unit
        if move_reach(g, t, house, area, unit, mask) > 0:
            ask(g, Decision.ONE_TIME_MOVE, house, area, unit, OneTimeOrder.YOUNG_WOLF, area)
            return True
        g.one_time_next += 1  # nowhere to go: it stays
    _move_out(g, t, house, area)
    return False


@njit
def _forced_march(g, t, house: int, target: int) -> bool:
    while g.one_time_source < t.n_areas:
        source = g.one_time_source
        if source != target and g.owner[source] == house:
            while _next_unit(g, source):
                unit = g.one_time_unit
                if forced_march_ok(g, t, house, source, unit, target):
                    ask(
                        g,
                        Decision.ONE_TIME_MOVE,
                        house,
                        source,
                        unit,
                        OneTimeOrder.FORCED_MARCH,
                        target,
                    )
                    return True
                g.one_time_next += 1
            _move_out(g, t, house, source)
        g.one_time_source += 1
        g.one_time_unit = 0
        g.one_time_next = 0
    return False


@njit
def iron_fleet_target_ok(g, t, area: int, target: int) -> bool:
    """Iron Fleet: any order of another house (defense and march too) that a raid from
    ``area`` would reach; never a one-time order. Not Lannister's while Lion's Cunning names
    Greyjoy."""
    house = g.owner[area]
    if g.order[target] < 0 or g.owner[target] < 0 or g.owner[target] == house:
        return False
    if g.lions_cunning == house and g.owner[target] == LANNISTER:
        return False
    return raid_reaches(t, area, target)


@njit
def soul_target_ok(g, t, house: int, target: int) -> bool:
    """Soul of R'hllor: a defense or support order of another house, anywhere."""
    k = g.order[target]
    if k < 0 or g.owner[target] < 0 or g.owner[target] == house:
        return False
    return 3 <= k <= 6  # defense+1, defense+2, support+0, support+1


@njit
def _any_target(g, t, kind: int, house: int, area: int) -> bool:
    for b in range(t.n_areas):
        if kind == OneTimeOrder.IRON_FLEET and iron_fleet_target_ok(g, t, area, b):
            return True
        if kind == OneTimeOrder.SOUL_OF_RHLLOR and soul_target_ok(g, t, house, b):
            return True
    return False


@njit
def _demand_targets(g, t, house: int, area: int) -> int:
    """Power of Highgarden: houses adjacent with power to give (bits)."""
    bits = _adjacent_houses(g, t, area, house)
    out = 0
    for h in range(H):
        if (bits >> h) & 1 and g.power[h] > 0:
            out |= 1 << h
    return out


@njit
def resume(g, t) -> bool:
    """Run the one-time order in ``g.one_time_*`` until a decision is asked (True) or it is
    resolved and gone from the board (False)."""
    area = g.one_time_area
    kind = g.one_time[area]
    house = g.owner[area]
    if kind < 0 or house < 0:  # raided or left before its turn
        _finish(g)
        return False
    asked = False
    if kind == OneTimeOrder.MUSTER:
        if g.one_time_step == 0:
            g.one_time_step = 1
            asked = t.kind[area] == LAND and ws.start_muster(g, t, house, area)
    elif kind == OneTimeOrder.SUPPLY_TRAIN:
        g.supply[house] = min(6, g.supply[house] + 1)
    elif kind == OneTimeOrder.FORCED_MARCH:
        asked = _forced_march(g, t, house, area)
    elif kind == OneTimeOrder.YOUNG_WOLF:
        asked = _young_wolf(g, t, house, area)
    elif kind == OneTimeOrder.IRON_FLEET:
        if g.one_time_step < 2 and _any_target(g, t, kind, house, area):
            ask(g, Decision.ONE_TIME_TARGET, house, kind, area, g.one_time_step, 0)
            asked = True
    elif kind == OneTimeOrder.SOUL_OF_RHLLOR:
        slot = _slot_of_ability(t, house, cb.Ability.MELISANDRE_1E)
        has_card = slot >= 0 and (g.hand[house] >> slot) & 1
        if g.one_time_step == 0 and has_card and _any_target(g, t, kind, house, area):
            ask(g, Decision.ONE_TIME_TARGET, house, kind, area, 0, 0)
            asked = True
    elif kind == OneTimeOrder.LIONS_CUNNING:
        if g.one_time_step == 0 and _adjacent_houses(g, t, area, house) != 0:
            ask(g, Decision.ONE_TIME_TARGET, house, kind, area, 0, 0)
            asked = True
    elif kind == OneTimeOrder.POWER_OF_HIGHGARDEN:
        if g.one_time_step == 0:
            if g.hand[house] != 0 and _adjacent_houses(g, t, area, house) != 0:
                ask(g, Decision.ONE_TIME_TARGET, house, kind, area, 0, 0)
                asked = True
        elif g.one_time_step > 1 and _demand_targets(g, t, house, area) != 0:
            ask(g, Decision.ONE_TIME_TARGET, house, kind, area, g.one_time_step, 0)
            asked = True
    if not asked:
        _finish(g)
    return asked


# --- legal options and applying them --------------------------------------------------------


@njit
def one_time_legal(g, t, mask) -> bool:
    """Fill ``mask`` for a pending one-time decision; False if it is not one."""
    kind = g.pending
    house = g.pending_house
    if kind == Decision.ONE_TIME_ORDER:
        for k in range(N_ONE_TIME):
            mask[k] = kind_allowed(g, t, house, k)
        mask[ACT_NONE] = True
    elif kind == Decision.ONE_TIME_AREA:
        for a in range(t.n_areas):
            mask[a] = area_ok(g, t, house, a)
    elif kind == Decision.ONE_TIME_TARGET:
        order = g.ctx[0]
        area = g.ctx[1]
        if order == OneTimeOrder.IRON_FLEET:
            for b in range(t.n_areas):
                mask[b] = iron_fleet_target_ok(g, t, area, b)
            mask[ACT_NONE] = True
        elif order == OneTimeOrder.SOUL_OF_RHLLOR:
            for b in range(t.n_areas):
                mask[b] = soul_target_ok(g, t, house, b)
            mask[ACT_NONE] = True  # keep Melisandre
        elif order == OneTimeOrder.LIONS_CUNNING:
            bits = _adjacent_houses(g, t, area, house)
            for h in range(H):
                mask[h] = (bits >> h) & 1 != 0
        elif order == OneTimeOrder.POWER_OF_HIGHGARDEN:
            if g.ctx[2] == 0:
                for slot in range(7):
                    mask[slot] = (g.hand[house] >> slot) & 1 != 0
            else:
                bits = _demand_targets(g, t, house, area)
                for h in range(H):
                    mask[h] = (bits >> h) & 1 != 0
            mask[ACT_NONE] = True
    elif kind == Decision.ONE_TIME_MOVE:
        origin = g.ctx[0]
        unit = g.ctx[1]
        if g.ctx[2] == OneTimeOrder.YOUNG_WOLF:
            move_reach(g, t, house, origin, unit, mask)
        else:
            target = g.ctx[3]
            mask[origin] = True
            mask[target] = forced_march_ok(g, t, house, origin, unit, target)
    else:
        return False
    return True


@njit
def one_time_apply(g, t, kind: int, house: int, action: int) -> None:
    """Apply a legal one-time decision (pending already cleared by the caller)."""
    if kind == Decision.ONE_TIME_ORDER:
        if action == ACT_NONE:
            g.plan_one_time_turn += 1
        else:
            ask(g, Decision.ONE_TIME_AREA, house, action, 0, 0, 0)
    elif kind == Decision.ONE_TIME_AREA:
        g.one_time[action] = g.ctx[0]
        g.one_time_used[house] |= np.uint16(1 << g.ctx[0])
        g.plan_one_time_turn += 1
    elif kind == Decision.ONE_TIME_TARGET:
        order = g.ctx[0]
        if order == OneTimeOrder.IRON_FLEET:
            if action == ACT_NONE:
                g.one_time_step = 2
            else:
                remove_order(g, action)
                g.one_time_step += 1
        elif order == OneTimeOrder.SOUL_OF_RHLLOR:
            g.one_time_step = 1
            if action != ACT_NONE:
                slot = _slot_of_ability(t, house, cb.Ability.MELISANDRE_1E)
                g.hand[house] &= np.uint8(~(1 << slot) & 0x7F)
                g.discard[house] |= np.uint8(1 << slot)
                bt.recycle_by_rules(g, t, house, slot)
                remove_order(g, action)
        elif order == OneTimeOrder.LIONS_CUNNING:
            g.lions_cunning = action
            g.one_time_step = 1
        elif order == OneTimeOrder.POWER_OF_HIGHGARDEN:
            if g.ctx[2] == 0:
                if action == ACT_NONE:
                    g.one_time_step = 1  # nothing discarded: nothing demanded
                else:
                    strength = t.card_strength[t.deck_card[house, action]]
                    g.hand[house] &= np.uint8(~(1 << action) & 0x7F)
                    g.discard[house] |= np.uint8(1 << action)
                    bt.recycle_by_rules(g, t, house, action)
                    g.one_time_step = 1 + strength
            elif action == ACT_NONE:
                g.one_time_step = 1
            elif gain_power(g, t, house, 1) == 1:
                lose_power(g, action, 1)
                g.one_time_step -= 1
            else:
                g.one_time_step = 1  # no room for more power tokens
    elif kind == Decision.ONE_TIME_MOVE:
        if action != g.ctx[0]:
            g.moving[action, g.ctx[1]] += 1
        g.one_time_next += 1
