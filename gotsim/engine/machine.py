"""The game as a resumable state machine over one record: advance, legal options, apply.

``advance(g, t)`` runs game ``g`` until a decision is pending (``g.pending``) or the game ends;
``legal(g, t, mask)`` marks the options of the pending decision; ``apply(g, t, action)`` checks
and applies one. Each phase keeps its loop counters in named fields of the record
(``engine.counters``) so it can stop at any decision and pick up where it left off. All
functions are compiled (numba) and run unchanged as Python under ``NUMBA_DISABLE_JIT=1``.

Both editions run here, selected by the rules record (``t.edition``: 1 or 2); every 1st-edition
difference is a branch on it, documented in ``docs/rules.md`` (section "1st edition").
"""

from __future__ import annotations

import numpy as np

from gotsim.engine import battle as bt
from gotsim.engine import combat as cb
from gotsim.engine import gifts as gf
from gotsim.engine import iron_bank as ib
from gotsim.engine import loans as lo
from gotsim.engine import loyalty as ly
from gotsim.engine import marches as mv
from gotsim.engine import objectives as ob
from gotsim.engine import one_time as ot
from gotsim.engine import vassals as vs
from gotsim.engine import westeros as ws
from gotsim.engine.board_state import (
    LAND,
    PORT,
    SEA,
    ask,
    castles_by_house,
    castles_held,
    controller,
    crowns_at,
    enemy_ships_in,
    gain_power,
    is_fort,
    land_areas_held,
    lose_power,
    muster_points_at,
    raid_reaches,
    remove_order,
    settle_ports,
    track_position,
    unit_count,
    vacate_if_empty,
)
from gotsim.engine.counters import clear_phase_counters
from gotsim.engine.state import (
    ACT_NONE,
    H_LEADERS,
    H_RAVEN_CARD,
    H_RAVEN_HOLDER,
    H_RAVEN_USE,
    H_THREAT,
    H_WESTEROS,
    N_ACTIONS,
    N_ORDER_KINDS,
    ONE_TIME_TYPE,
    ORDER_COUNT,
    ORDER_SEA_ONLY,
    ORDER_STAR,
    ORDER_TYPE,
    Decision,
    EndReason,
    H,
    Order,
    Phase,
    RavenUse,
    Restriction,
)
from gotsim.engine.westeros import deck4 as d4
from gotsim.jit import njit
from gotsim.rules.ids import DRAGON

MARCH, DEFENSE, SUPPORT, RAID, CONSOLIDATE, IRON_BANK = 1, 2, 3, 4, 5, 6
MAX_FORTIFICATIONS = 9  # A Clash of Kings tokens, shared by all houses
KINGS_COURT = 2


# --- small helpers ------------------------------------------------------------------------------


@njit
def _clear(g) -> None:
    g.pending = Decision.NONE
    g.pending_house = -1


@njit
def stars_allowed(g, t, house: int) -> int:
    pos = track_position(g, KINGS_COURT, house)
    return t.stars[pos] if pos < t.players else 0


@njit
def stars_used(g, house: int) -> int:
    n = 0
    for k in range(N_ORDER_KINDS):
        if ORDER_STAR[k]:
            n += g.orders_used[house, k]
    return n


@njit(inline="always")
def order_count(t, kind: int) -> int:
    """The tokens of order ``kind`` each house has in the game: ``ORDER_COUNT``, and none of
    Mother of Dragons' sea order tokens without ``sea_orders``, nor its Iron Bank token without
    ``iron_bank`` (IB5)."""
    if kind == Order.SEA_IRON_BANK:
        return ORDER_COUNT[kind] if t.iron_bank else 0
    if ORDER_SEA_ONLY[kind] and not t.sea_orders:
        return 0
    return ORDER_COUNT[kind]


@njit
def order_allowed(g, t, house: int, area: int, kind: int, replacing: int) -> bool:
    """Whether ``house`` may put an order of ``kind`` on ``area`` (``replacing`` an order kind
    that is taken back at the same time, or -1)."""
    if ORDER_STAR[kind]:
        stars_free = stars_allowed(g, t, house) - stars_used(g, house)
    else:
        stars_free = 1  # not read for an order without a star
    return order_allowed_counted(g, t, house, area, kind, replacing, stars_free)


@njit
def order_allowed_counted(
    g, t, house: int, area: int, kind: int, replacing: int, stars_free: int
) -> bool:
    """``order_allowed`` with the house's star orders still free counted already
    (``stars_allowed - stars_used``), for a decision that asks about every kind."""
    if t.vassals and t.vassal[house]:
        if not vs.vassal_order_free(g, house, kind, replacing):
            return False  # a vassal's four tokens, no star orders (V5)
    elif g.orders_used[house, kind] - (1 if kind == replacing else 0) >= order_count(t, kind):
        return False
    if ORDER_SEA_ONLY[kind] and t.kind[area] != SEA:
        return False  # Mother of Dragons' sea order tokens: sea areas only
    if ORDER_STAR[kind] and not (t.vassals and t.vassal[house]):
        # a replaced star order frees its star
        if stars_free + (1 if replacing >= 0 and ORDER_STAR[replacing] else 0) <= 0:
            return False
    kind_type = ORDER_TYPE[kind]
    if kind_type == CONSOLIDATE and t.edition == 1 and t.kind[area] == SEA:
        return False  # 1e: no consolidate power order at sea ([C]); ports trade (P3)
    r = g.restrict
    if kind_type == DEFENSE and r & Restriction.NO_DEFENSE:
        return False
    if kind == Order.MARCH_PLUS and r & Restriction.NO_MARCH_PLUS:
        return False
    if kind_type == RAID and r & Restriction.NO_RAID:
        return False
    if kind_type == SUPPORT and r & Restriction.NO_SUPPORT:
        return False
    return not (kind_type == CONSOLIDATE and r & Restriction.NO_CONSOLIDATE)


@njit
def _place(g, area: int, kind: int) -> None:
    g.order[area] = kind
    g.orders_used[g.owner[area], kind] += 1


@njit
def house_at(g, position: int) -> int:
    return g.track[0, position]


@njit(inline="always")
def turn_order_area(g, t) -> int:
    """Where a resumable loop over the houses in turn order and, for each, every area stands
    (``g.loop_house``, ``g.loop_area``; the caller moves ``loop_area`` on): the area, past a
    house's last area the next house's first, -1 once every house is done."""
    while g.loop_house < t.players:
        if g.loop_area < t.n_areas:
            return g.loop_area
        g.loop_house += 1
        g.loop_area = 0
    return -1


# --- planning -----------------------------------------------------------------------------------
# loop_house: turn-order position of the house placing orders; loop_area: next area to consider


@njit
def _planning(g, t) -> None:
    if g.game_round == 1 and g.loop_house == 0 and g.loop_area == 0:
        note_castle_holders(g, t)  # the baseline of round 1's castles lost
    if t.fortifications and g.loop_house == 0 and g.loop_area == 0:
        clear_fortifications(g, t)  # units the Westeros phase destroyed
    if t.vassals and vs.claim_step(g, t):
        return  # the players claim the vassals first (V2)
    if t.gift_power and gf.gift_step(g, t):
        return  # then each player may give power tokens (M19)
    if t.one_time_orders and g.plan_one_time_done == 0 and ot.planning_step(g, t):
        return  # a one-time order first (plan_one_time_*), then the others
    a = turn_order_area(g, t)
    while a >= 0:
        house = house_at(g, g.loop_house)
        if g.owner[a] == house and g.order[a] < 0 and unit_count(g, a) > 0:
            for kind in range(N_ORDER_KINDS):
                if order_allowed(g, t, house, a, kind, -1):
                    ask(g, Decision.PLACE_ORDER, house, a)
                    return
        g.loop_area += 1
        a = turn_order_area(g, t)
    g.phase = Phase.RAVEN
    clear_phase_counters(g)
    if t.vassals:
        vs.end_of_planning(g)
    if t.gift_power:
        gf.end_of_planning(g)


# --- the Messenger Raven ------------------------------------------------------------------------
# raven_asked: 0 ask the holder, 1 done


@njit
def _raven(g, t) -> None:
    if g.raven_asked == 0:
        g.raven_asked = 1
        ask(g, Decision.RAVEN, vs.dominance_holder(g, t, KINGS_COURT))
        return
    for house in range(H):  # the orders are final now: count each house's star orders
        g.history_stars[g.game_round - 1, house] = stars_used(g, house) if g.in_play[house] else 0
    g.phase = Phase.RAIDS
    clear_phase_counters(g)
    g.turn = 0
    g.passes = 0


# --- raids --------------------------------------------------------------------------------------


@njit
def raid_target_ok(g, t, source: int, target: int) -> bool:
    kind = g.order[target]
    if g.owner[target] < 0 or g.owner[target] == g.owner[source]:
        return False
    if kind < 0 and not (t.one_time_orders and g.one_time[target] >= 0):
        return False
    if not raid_reaches(t, source, target):
        return False
    if t.one_time_orders:
        if g.lions_cunning == g.owner[source] and g.owner[target] == ot.LANNISTER:
            return False  # Lion's Cunning (O7)
        # a raid or consolidate power one-time order can be raided, taking both tokens (O4)
        if g.one_time[target] >= 0 and ONE_TIME_TYPE[g.one_time[target]] >= RAID:
            return True
        if kind < 0:
            return False
    kind_type = ORDER_TYPE[kind]
    if kind_type == SUPPORT or kind_type == RAID or kind_type == CONSOLIDATE:
        return True
    if kind_type == IRON_BANK:
        return True  # the Iron Bank token is raided like a consolidate order, for no power (IB5)
    # 2e: the star raid may also take a defense order; 1e: raids never touch defense (D4)
    return kind_type == DEFENSE and g.order[source] == Order.RAID_STAR and t.edition == 2


@njit
def _has_order_type(g, t, house: int, kind_type: int) -> bool:
    for a in range(t.n_areas):
        if g.owner[a] == house and g.order[a] >= 0 and ORDER_TYPE[g.order[a]] == kind_type:
            return True
    return t.one_time_orders != 0 and ot.area_of(g, t, house, kind_type) >= 0


@njit
def _next_with_orders(g, t, kind_type: int) -> int:
    """From ``g.turn`` on, in turn order, the first house with an order of ``kind_type``; -1."""
    holders = 0  # houses with such an order, as bits: one pass over the board
    for a in range(t.n_areas):
        if g.owner[a] >= 0 and g.order[a] >= 0 and ORDER_TYPE[g.order[a]] == kind_type:
            holders |= 1 << g.owner[a]
    if t.one_time_orders:  # one-time orders of this step's icon count as orders of the step
        for a in range(t.n_areas):
            k = g.one_time[a]
            if k >= 0 and g.owner[a] >= 0 and ONE_TIME_TYPE[k] == kind_type:
                holders |= 1 << g.owner[a]
    for step in range(t.players):
        pos = (g.turn + step) % t.players
        house = house_at(g, pos)
        if house >= 0:
            has = ((holders >> house) & 1) != 0
        else:
            has = _has_order_type(g, t, house, kind_type)
        if has:
            g.turn = pos
            return house
    return -1


@njit
def _one_time_turn(g, t, kind_type: int) -> bool:
    """A house's one-time order of this step resolves as its first turn in the step (O2): True
    while one is being resolved (a decision asked, or the turn just ended)."""
    if g.one_time_stage != 0:
        if ot.resume(g, t):
            return True
        settle_ports(g, t)
        if t.fortifications:
            clear_fortifications(g, t)
        g.turn = (g.turn + 1) % t.players
        check_castle_victory(g, t)  # Young Wolf may walk into an empty castle
        return True
    house = house_at(g, g.turn)
    a = ot.area_of(g, t, house, kind_type)
    if a < 0:
        return False
    ot.begin(g, a)
    return True


@njit
def _raids(g, t) -> None:
    if t.one_time_orders and g.one_time_stage != 0 and _one_time_turn(g, t, RAID):
        return
    house = _next_with_orders(g, t, RAID)
    if house < 0:
        g.phase = Phase.MARCHES
        g.turn = 0
        clear_phase_counters(g)
        return
    if t.one_time_orders and _one_time_turn(g, t, RAID):
        return
    ask(g, Decision.RAID_FROM, house)


@njit
def resolve_raid(g, t, source: int, target: int) -> None:
    """Remove the raided order (pillaging a consolidate power order) and the raid itself."""
    raider = g.owner[source]
    pillage_order(g, t, raider, target)
    remove_order(g, source)


@njit
def pillage_order(g, t, raider: int, target: int) -> None:
    """Remove the raided order; a consolidate power order gives the raider 1 power (2e: and
    costs its owner 1; 1e: the owner loses nothing, D4)."""
    if target >= 0:
        victim = g.owner[target]
        if g.order[target] >= 0 and ORDER_TYPE[g.order[target]] == CONSOLIDATE:
            gain_power(g, t, raider, 1)
            if t.edition == 2:
                lose_power(g, victim, 1)
        remove_order(g, target)
        g.one_time[target] = -1  # a raid takes both tokens of an area (O4)


# --- marches ------------------------------------------------------------------------------------


@njit
def _marches(g, t) -> None:
    stage = g.march_stage
    if stage == mv.PICK:
        if t.one_time_orders and g.one_time_stage != 0 and _one_time_turn(g, t, MARCH):
            return
        house = _next_with_orders(g, t, MARCH)
        if house < 0:
            if t.edition == 1:  # 1e: routed units stand up once every march is resolved (D3)
                g.routed[:, :] = 0
            g.phase = Phase.CONSOLIDATE
            g.turn = 0
            clear_phase_counters(g)
            return
        if t.one_time_orders and _one_time_turn(g, t, MARCH):
            return
        ask(g, Decision.MARCH_FROM, house)
        return
    house = g.owner[g.march_origin]
    if stage == mv.ASSIGN:
        if mv.next_unit_to_assign(g):
            ask(g, Decision.MARCH_UNIT, house, g.march_origin, g.march_unit)
            return
        g.march_stage = mv.ASK_LEAVE
        if mv.leave_power_possible(g, t, house):
            ask(g, Decision.LEAVE_POWER, house, g.march_origin)
        return
    if stage == mv.ASK_LEAVE:
        g.march_stage = mv.RESOLVE
        return
    if stage == mv.RESOLVE:
        _resolve_march(g, t, house)
        return
    if stage == mv.COMBAT:
        if bt.battle_step(g, t):
            return
        _end_march(g, t)
        return
    if stage == mv.NEUTRAL:
        area = bt.next_undecided_supporter(g, t)
        if area >= 0:  # other houses may back an attack on a neutral force (rulebook p.26)
            ask(g, Decision.SUPPORT_SIDE, g.owner[area], g.combat_area, area)
            return
        if _attack_neutral(g, t, house, g.march_origin, g.combat_area):
            _end_march(g, t)


@njit
def _resolve_march(g, t, house: int) -> None:
    origin = g.march_origin
    target = g.march_target
    if target >= 0 and g.neutral[target] > 0:
        # 2e: the support is settled before anything moves, so that a plan whose attack falls
        # short can be made again (C11); 1e: the march is made, then the neutral army fought
        if t.edition == 1:
            _make_march(g, t, house, origin, target)
        mv.neutral_battle(g, t, g.battle, house, origin, target)
        for u in range(cb.N_UNIT_TYPES):
            g.battle[cb.UNITS + u] = g.moving[target, u]
        g.battle[cb.DRAGONS] = g.moving[target, DRAGON]
        g.combat_area = target
        g.combat_from = origin
        g.battle_cursor = 0
        g.support_side[:] = 0
        g.march_stage = mv.NEUTRAL
        return
    _make_march(g, t, house, origin, target)
    if target >= 0:
        bt.start_battle(g, t, origin, target, house)
        g.march_stage = mv.COMBAT
        return
    _end_march(g, t)


@njit
def _make_march(g, t, house: int, origin: int, target: int) -> None:
    """Leave the power token and move the units planned for every destination but the
    attacked one. The token is placed as the march begins and stays even if the beaten
    attackers come back (B7)."""
    if g.march_leave and g.power[house] >= 1 and g.power_token[origin] < 0:
        g.power_token[origin] = house
        g.power[house] -= 1
    for dest in range(t.n_areas):
        if dest != target and dest != origin and mv.moving_any(g, dest):
            mv.move_units(g, t, house, origin, dest)


@njit
def _attack_neutral(g, t, house: int, origin: int, target: int) -> bool:
    """The support decided, strength (units, march order, support) at least the token's: the
    token goes for good and the units move in (2e: with the rest of the march). Otherwise, 1e:
    the attackers stay where they are; 2e: the plan was no legal march, and the house plans
    it again with no attack on a neutral force (C11). False when the march is planned again."""
    b = g.battle
    parts = np.zeros((2, cb.N_PARTS), np.int64)
    cb.strength_breakdown(b, bt.card_arrays(t), bt.tides_arrays(t), parts)
    g.combat_area = -1
    if cb.attacker_wins(b, parts):
        if t.edition == 2:
            _make_march(g, t, house, origin, target)
        g.neutral[target] = 0
        mv.move_units(g, t, house, origin, target)
        return True
    if t.edition == 1:
        g.moving[target, :] = 0
        return True
    g.moving[:, :] = 0
    g.march_target = -1
    g.march_leave = 0
    g.march_unit = 0
    g.march_next = 0
    g.march_replanned = 1
    g.march_stage = mv.ASSIGN
    return False


@njit
def _end_march(g, t) -> None:
    origin = g.march_origin
    house = house_at(g, g.turn)  # the marching house (its units may all have left)
    if mv.is_march_kind(g.order[origin]) and g.owner[origin] == house:
        remove_order(g, origin)
    vacate_if_empty(g, origin)
    if t.fortifications:
        clear_fortifications(g, t)
    settle_ports(g, t)
    g.moving[:, :] = 0
    clear_phase_counters(g)
    g.turn = (g.turn + 1) % t.players
    if t.loyalty_to_win:
        ly.collect(g, t)  # Mother of Dragons: after each resolved march (M12)
    check_castle_victory(g, t)


@njit
def check_castle_victory(g, t) -> None:
    """A house holding ``castles_to_win`` castles and strongholds wins at once (Mother of
    Dragons: Targaryen counts no castles, it wins with its loyalty tokens, M13)."""
    packed = castles_by_house(g, t)
    for house in range(H):  # (A Feast for Crows: castles_to_win is out of reach)
        if t.vassal[house]:
            continue  # a vassal never wins (V9)
        if g.in_play[house] and ((packed >> (8 * house)) & 0xFF) >= t.castles_to_win:
            if t.loyalty_to_win and house == ly.TARGARYEN:
                continue
            record_round(g, t)
            g.done = 1
            g.winner = house
            g.end_reason = EndReason.CASTLES
            g.phase = Phase.GAME_OVER
            _clear(g)
            return
    if t.loyalty_to_win and ly.loyalty_victory(g, t):
        record_round(g, t)
        g.done = 1
        g.winner = ly.TARGARYEN
        g.end_reason = EndReason.LOYALTY
        g.phase = Phase.GAME_OVER
        _clear(g)


# --- consolidate power ------------------------------------------------------------------------


@njit
def consolidate_income(g, t, a: int) -> int:
    """Power from a consolidate power order: 1 + crowns on land; 1 in a port whose sea holds no
    enemy ships; nothing at sea."""
    if t.kind[a] == LAND:
        return 1 + crowns_at(g, t, a)
    if t.kind[a] == PORT:
        return 0 if enemy_ships_in(g, t.port_sea[a], g.owner[a]) else 1
    return 0


@njit
def can_fortify(g, t, a: int) -> bool:
    """1e fortifications variant: a consolidate order on land may build one of the 9
    fortifications instead of taking power, where none stands yet."""
    if not t.fortifications or t.kind[a] != LAND or g.fortification[a] > 0:
        return False
    built = 0
    for b in range(t.n_areas):
        if g.fortification[b] > 0:
            built += 1
    return built < MAX_FORTIFICATIONS


@njit
def clear_fortifications(g, t) -> None:
    """A fortification goes as soon as its builder's units have left the area (a march, a
    retreat, or a loss), so nobody uses another house's fortification."""
    for a in range(t.n_areas):
        if g.fortification[a] > 0 and g.owner[a] != g.fortification[a] - 1:
            g.fortification[a] = 0


@njit
def _consolidate(g, t) -> None:
    """Consolidate power orders in turn order; a star order in a castle or stronghold area may
    muster there instead (``CONSOLIDATE_CHOICE``). loop_house turn position, loop_area next area."""
    a = turn_order_area(g, t)
    while a >= 0:
        house = house_at(g, g.loop_house)
        if t.one_time_orders and (g.one_time_stage != 0 or ot.here(g, a, house, CONSOLIDATE)):
            # the area's one-time order first, then (same area again) its consolidate order
            if g.one_time_stage == 0:
                ot.begin(g, a)
            if ot.resume(g, t):
                return
            a = turn_order_area(g, t)
            continue
        g.loop_area += 1
        if g.owner[a] == house and g.order[a] >= 0 and ORDER_TYPE[g.order[a]] == CONSOLIDATE:
            # a vassal's defense +1 / muster token musters like a star order (V5)
            star = g.order[a] == Order.CONSOLIDATE_STAR or (t.vassals and t.vassal[house])
            if star and t.edition == 2 and t.kind[a] == LAND and muster_points_at(g, t, a) > 0:
                ask(g, Decision.CONSOLIDATE_CHOICE, house, a)
                return
            if can_fortify(g, t, a):
                ask(g, Decision.CONSOLIDATE_CHOICE, house, a, 1)
                return
            gain_power(g, t, house, consolidate_income(g, t, a))
            remove_order(g, a)
        elif g.owner[a] == house and g.order[a] == Order.SEA_IRON_BANK:
            # Mother of Dragons' Iron Bank token: buy a loan, or none (IB4); the loop has moved
            # past it, so a loan's own decisions resume the phase when they end
            remove_order(g, a)
            if ib.can_buy(g, t, house):
                ask(g, Decision.BUY_LOAN, house, a)
                return
        a = turn_order_area(g, t)
    g.phase = Phase.CLEANUP
    clear_phase_counters(g)
    if t.victory_points:
        ob.after_action_phase(g, t)


@njit
def note_castle_holders(g, t) -> None:
    """Remember who controls each castle and stronghold area (``g.castle_holder``)."""
    for i in range(t.n_forts):
        a = t.forts[i]
        g.castle_holder[a] = controller(g, t, a) + 1 if is_fort(g, t, a) else 0


@njit
def record_round(g, t) -> None:
    """Write the round's line of ``g.history``: Westeros cards, threat, track leaders, castles
    held, and castles lost since the last round's end (then remember the holders anew)."""
    row = g.game_round - 1
    for d in range(3):
        g.history[row, H_WESTEROS + d] = g.westeros_drawn[d] if g.game_round > 1 else -1
    g.history[row, H_THREAT] = g.threat
    for track in range(3):
        g.history[row, H_LEADERS + track] = g.track[track, 0]
    packed = castles_by_house(g, t)
    for house in range(H):
        held = (packed >> (8 * house)) & 0xFF
        g.history_castles[row, house] = held if g.in_play[house] else 0
    for i in range(t.n_forts):  # only castle and stronghold areas have a holder noted
        a = t.forts[i]
        before = g.castle_holder[a] - 1
        if before >= 0 and controller(g, t, a) != before and is_fort(g, t, a):
            g.history_castles_lost[row, before] += 1
    note_castle_holders(g, t)


@njit
def _cleanup(g, t) -> None:
    record_round(g, t)
    if t.victory_points and ob.check_points_victory(g, t):
        _clear(g)
        return
    for a in range(t.n_areas):
        remove_order(g, a)
        g.routed[a, :] = 0
        g.marched[a] = 0
        g.one_time[a] = -1  # an unresolved one-time order is spent all the same (O3)
    g.lions_cunning = -1
    g.blade_used = 0
    g.restrict = 0
    clear_phase_counters(g)
    if g.game_round >= t.max_rounds:
        end_after_last_round(g, t)
        return
    g.phase = Phase.WESTEROS
    g.game_round += 1
    if t.iron_bank:  # the Iron Bank's slots slide at the start of every round (IB2)
        ib.slide_slots(g)
        g.debt_pos = 0


@njit
def end_after_last_round(g, t) -> None:
    """After round 10 the most castles and strongholds wins; ties go to more land areas, then
    the higher supply level, then the higher place on the Iron Throne track (1e: the higher
    supply level, then more power in hand, then the Iron Throne track)."""
    best = -1
    best_key = (-1, -1, -1, -1)
    for house in range(H):
        if not g.in_play[house] or t.vassal[house]:
            continue  # (a vassal never wins, V9)
        if t.edition == 1:
            # 1e: castles, supply, power in hand (D19); a remaining tie (a draw in the rules)
            # goes to the higher place on the Iron Throne track
            key = (
                castles_held(g, t, house),
                int(g.supply[house]),
                int(g.power[house]),
                -track_position(g, 0, house),
            )
        else:
            key = (
                ly.ranking_castles(g, t, house, castles_held(g, t, house)),
                land_areas_held(g, t, house),
                int(g.supply[house]),
                -track_position(g, 0, house),
            )
        if key > best_key:
            best_key = key
            best = house
    if t.victory_points:  # A Feast for Crows: the most points, then the Iron Throne track
        best = ob.points_leader(g, t, 0, False)
    g.done = 1
    g.winner = best
    g.end_reason = EndReason.ROUND10
    g.phase = Phase.GAME_OVER


# --- the machine --------------------------------------------------------------------------------


@njit
def _westeros(g, t) -> None:
    """The Westeros phase; after a wildling attack and at its end, supply and wildling losses
    may have handed an area (a home area, a port's land) back, so ports and the castle victory
    are checked again (S&R issue #1626). With the Iron Bank, the interest comes first (IB6,
    IB7): units it destroys may hand a port over, and the castle victory is checked after it."""
    if t.iron_bank and g.debt_pos <= t.players:
        if ib.interest_step(g, t):
            return
        settle_ports(g, t)
        check_castle_victory(g, t)
        if g.done:
            return
    if ws.westeros_phase(g, t):
        settle_ports(g, t)
        if t.loyalty_to_win:
            ly.collect(g, t)  # Mother of Dragons: at the end of the Westeros phase (M12)
        check_castle_victory(g, t)


@njit
def advance(g, t) -> None:
    """Run until a decision is pending, the game ends, or a phase not yet built is reached."""
    while g.pending == Decision.NONE and not g.done:
        phase = g.phase
        if phase == Phase.PLANNING:
            _planning(g, t)
        elif phase == Phase.RAVEN:
            _raven(g, t)
        elif phase == Phase.RAIDS:
            _raids(g, t)
        elif phase == Phase.MARCHES:
            _marches(g, t)
        elif phase == Phase.CONSOLIDATE:
            _consolidate(g, t)
        elif phase == Phase.WESTEROS:
            _westeros(g, t)
        elif phase == Phase.CLEANUP:
            _cleanup(g, t)
        elif phase == Phase.OBJECTIVES:
            ob.objectives_step(g, t)
        else:
            return


@njit
def legal(g, t, mask) -> int:
    """Mark the pending decision's legal actions in ``mask`` (N_ACTIONS); returns their number."""
    mask[:] = False
    kind = g.pending
    house = g.pending_house
    if kind == Decision.PLACE_ORDER:
        a = g.ctx[0]
        stars_free = stars_allowed(g, t, house) - stars_used(g, house)
        for k in range(N_ORDER_KINDS):
            mask[k] = order_allowed_counted(g, t, house, a, k, -1, stars_free)
        mask[ACT_NONE] = t.edition == 1  # 1e: an area may be left without an order (D11)
    elif kind == Decision.RAVEN:
        mask[0] = True
        mask[2] = t.edition == 2  # 1e has no wildling deck to look at
        stars_free = stars_allowed(g, t, house) - stars_used(g, house)
        for a in range(t.n_areas):
            if g.owner[a] == house and g.order[a] >= 0:
                cur = g.order[a]
                for k in range(N_ORDER_KINDS):
                    if k != cur and order_allowed_counted(g, t, house, a, k, cur, stars_free):
                        mask[1] = True
    elif kind == Decision.RAVEN_AREA:
        stars_free = stars_allowed(g, t, house) - stars_used(g, house)
        for a in range(t.n_areas):
            if g.owner[a] == house and g.order[a] >= 0:
                cur = g.order[a]
                for k in range(N_ORDER_KINDS):
                    if k != cur and order_allowed_counted(g, t, house, a, k, cur, stars_free):
                        mask[a] = True
    elif kind == Decision.RAVEN_ORDER:
        a = g.ctx[0]
        stars_free = stars_allowed(g, t, house) - stars_used(g, house)
        cur = g.order[a]
        for k in range(N_ORDER_KINDS):
            mask[k] = k != cur and order_allowed_counted(g, t, house, a, k, cur, stars_free)
    elif kind == Decision.RAVEN_BURY:
        mask[0] = True
        mask[1] = True
    elif kind == Decision.RAID_FROM:
        for a in range(t.n_areas):
            if g.owner[a] == house and g.order[a] >= 0 and ORDER_TYPE[g.order[a]] == RAID:
                mask[a] = True
    elif kind == Decision.RAID_TARGET:
        source = g.ctx[0]
        for j in range(t.neighbours.shape[1]):  # raids reach only the neighbours
            a = t.neighbours[source, j]
            if a < 0:
                break
            mask[a] = raid_target_ok(g, t, source, a)
        mask[ACT_NONE] = True
    elif kind == Decision.MARCH_FROM:
        for a in range(t.n_areas):
            if g.owner[a] == house and g.order[a] >= 0 and ORDER_TYPE[g.order[a]] == MARCH:
                mask[a] = True
    elif kind == Decision.MARCH_UNIT:
        origin = g.ctx[0]
        unit = g.ctx[1]
        mv.march_destinations(g, t, house, origin, unit, mask)
    elif kind == Decision.LEAVE_POWER or kind == Decision.CONSOLIDATE_CHOICE:
        mask[0] = True
        mask[1] = True
    elif Decision.ONE_TIME_ORDER <= kind <= Decision.ONE_TIME_MOVE:
        ot.one_time_legal(g, t, mask)
    elif kind == Decision.OBJECTIVE:
        ob.objective_legal(g, t, mask)
    elif kind == Decision.CLAIM_VASSAL:
        vs.claim_legal(g, t, mask)
    elif kind == Decision.GIFT_POWER:
        gf.gift_legal(g, t, mask)
    elif kind == Decision.LOYALTY:
        d4.deck4_legal(g, t, mask)
    elif kind == Decision.LOAN:
        lo.loan_legal(g, t, mask)
    elif kind == Decision.BUY_LOAN:
        ib.buy_legal(g, t, mask)
    elif kind == Decision.PAY_DEBT:
        ib.debt_legal(g, t, mask)
    elif not ws.westeros_legal(g, t, mask):
        bt.battle_legal(g, t, mask)
    n = 0
    for i in range(mask.shape[0]):
        if mask[i]:
            n += 1
    return n


@njit
def apply(g, t, action: int) -> bool:
    """Apply ``action`` to the pending decision; False (nothing changed) if it is not legal."""
    mask = np.zeros(N_ACTIONS, np.bool_)
    if action < 0 or action >= N_ACTIONS or legal(g, t, mask) == 0 or not mask[action]:
        return False
    apply_legal(g, t, action)
    return True


@njit
def apply_legal(g, t, action: int) -> None:
    """Apply an action already known to be legal (taken from ``legal``'s mask)."""
    kind = g.pending
    house = g.pending_house
    _clear(g)
    if kind == Decision.PLACE_ORDER:
        if action != ACT_NONE:
            _place(g, g.ctx[0], action)
        g.loop_area += 1
    elif kind == Decision.RAVEN:
        row = g.game_round - 1
        g.history[row, H_RAVEN_HOLDER] = house
        g.history[row, H_RAVEN_CARD] = -1
        if action == 0:
            g.history[row, H_RAVEN_USE] = RavenUse.NOTHING
        elif action == 1:
            g.history[row, H_RAVEN_USE] = RavenUse.REPLACED_ORDER
            ask(g, Decision.RAVEN_AREA, house)
        elif action == 2:
            g.history[row, H_RAVEN_USE] = RavenUse.KEPT_WILDLING_CARD
            g.history[row, H_RAVEN_CARD] = g.wildlings[0]
            ask(g, Decision.RAVEN_BURY, house, g.wildlings[0])
    elif kind == Decision.RAVEN_AREA:
        ask(g, Decision.RAVEN_ORDER, house, action)
    elif kind == Decision.RAVEN_ORDER:
        a = g.ctx[0]
        remove_order(g, a)
        _place(g, a, action)
    elif kind == Decision.RAVEN_BURY:
        if action == 1:
            g.history[g.game_round - 1, H_RAVEN_USE] = RavenUse.BURIED_WILDLING_CARD
            top = g.wildlings[0]
            g.wildlings[:8] = g.wildlings[1:].copy()
            g.wildlings[8] = top
    elif kind == Decision.RAID_FROM:
        ask(g, Decision.RAID_TARGET, house, action)
    elif kind == Decision.RAID_TARGET:
        source = g.ctx[0]
        target = -1 if action == ACT_NONE else action
        first_of_two = (
            t.edition == 1 and g.order[source] == Order.RAID_STAR and g.ctx[1] == 0 and target >= 0
        )
        if first_of_two:
            # 1e: the star raid removes a second order (D4); the raid token stays until then
            pillage_order(g, t, house, target)
            ask(g, Decision.RAID_TARGET, house, source, 1)
        else:
            resolve_raid(g, t, source, target)
            g.turn = (g.turn + 1) % t.players
    elif kind == Decision.MARCH_FROM:
        clear_phase_counters(g)
        g.march_stage = mv.ASSIGN
        g.march_origin = action
        g.march_target = -1
        g.moving[:, :] = 0
    elif kind == Decision.MARCH_UNIT:
        origin = g.ctx[0]
        if action != origin:
            g.moving[action, g.ctx[1]] += 1
            if mv.is_attack(g, t, house, action):
                g.march_target = action
        g.march_next += 1
    elif kind == Decision.LEAVE_POWER:
        g.march_leave = action
    elif kind == Decision.CONSOLIDATE_CHOICE:
        a = g.ctx[0]
        remove_order(g, a)
        if g.ctx[1] == 1:  # 1e fortifications: build instead of taking power
            if action == 1:
                g.fortification[a] = house + 1
            else:
                gain_power(g, t, house, consolidate_income(g, t, a))
        elif action == 0 or not ws.start_muster(g, t, house, a):
            gain_power(g, t, house, consolidate_income(g, t, a))
    elif Decision.ONE_TIME_ORDER <= kind <= Decision.ONE_TIME_MOVE:
        ot.one_time_apply(g, t, kind, house, action)
    elif kind == Decision.OBJECTIVE:
        ob.objective_apply(g, t, house, action)
    elif kind == Decision.CLAIM_VASSAL:
        vs.claim_apply(g, t, house, action)
    elif kind == Decision.GIFT_POWER:
        gf.gift_apply(g, t, house, action)
    elif kind == Decision.LOYALTY:
        d4.deck4_apply(g, t, house, action)
    elif kind == Decision.LOAN:
        lo.loan_apply(g, t, house, action)
        if g.pending == Decision.NONE:
            check_castle_victory(g, t)  # after the card: The Faceless Men may free a home (S&R)
    elif kind == Decision.BUY_LOAN:
        ib.buy_apply(g, t, house, action)
    elif kind == Decision.PAY_DEBT:
        ib.debt_apply(g, t, house, action)
    elif ws.is_westeros_decision(kind):
        ws.westeros_apply(g, t, kind, house, action)
    else:
        bt.battle_apply(g, t, kind, house, action)


__all__ = ["H", "advance", "apply", "legal"]
