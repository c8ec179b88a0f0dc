"""The heuristic's marches: where the units of a march order go — at most one attack, where the
win chance pays, then every other unit, one at a time, where it adds most (a new area taken, a
threatened area held, a step toward enemy castles, or staying) — which march to resolve first,
and whether to leave a power token behind.

Compiled (numba). ``evaluate_march`` serves both the order planner (``planning=True``: enemy
orders unknown, their defence and supports estimated) and the action phase (orders revealed:
the defence and support orders around the target are counted as they are).
"""

# ruff: noqa: SIM102, SIM108, SIM109

from __future__ import annotations

import numpy as np

from gotsim.engine import marches as mv
from gotsim.engine.area_bits import (
    AREA_BITS,
    drop_lowest,
    has_bit,
    is_empty,
    lowest,
    no_bits,
    read_bits,
    set_bit,
    write_bits,
)
from gotsim.engine.board_state import (
    LAND,
    PORT,
    SEA,
    barrels_at,
    controller,
    crowns_at,
    is_fort,
)
from gotsim.engine.dragons import dragon_strength
from gotsim.engine.state import ORDER_BONUS, ORDER_SUPPORT, ORDER_TYPE, H, Phase, U
from gotsim.jit import njit
from gotsim.players.params import P_DEFENCE, P_EXPANSION, P_NOISE, P_POWER, P_RISK, P_VERSION
from gotsim.players.values import (
    EXPOSURE,
    attack_gain_fixed,
    attack_value,
    defender_of,
    home_sea_threat,
    lead_of,
    position_value,
    vacate_cost,
)
from gotsim.players.view import (
    DRAGON,
    FOOTMAN,
    KNIGHT,
    O_DEFENSE_ONE,
    O_DEFENSE_TWO,
    O_SUPPORT_ONE,
    O_SUPPORT_ZERO,
    SHIP,
    SIEGE,
    add_local_danger,
    attack_strength,
    danger,
    ensure_view,
    fiefdoms_higher,
    final_round,
    hold_strength,
    jitter,
    largest_marcher,
    live,
    lose_chance,
    support_reaches,
    value_for,
    view_danger,
    win_chance,
)

NEG = -1.0e9
D_BATTLE, D_TAKE, D_OWN = 0, 1, 2
# evaluate_march result slots
R_VALUE = 0  # 3 slots: worth for march bonus -1, 0, +1 (planning) / slot 1 (action)
R_TARGET = 3  # the attacked area, -1 none
R_MARGIN = 4  # attack margin before the march bonus (planning: 60 % of possible support)
R_GAIN = 5  # worth of winning the attack
R_PEACEFUL = 6  # worth of the march without attacking
R_DEFENDED = 7  # planning: the destinations in reach that another house would defend
R_LEN = 8
SHIP_STAY = 0.8  # second heuristic: what a peaceful ship move must gain over staying


@njit
def reach_list(g, t, house: int, origin: int, memo) -> int:
    """List in ``memo.reach`` the areas the units of ``origin`` can march to (land units: by
    land and along the house's ships; ships: adjacent seas and own ports), and as an
    ``area_bits`` set in ``memo.reach_bits``; returns the count."""
    listed = no_bits()
    out = 0
    width = t.neighbours.shape[1]
    memo.reach_listed = 1
    if t.kind[origin] == LAND:
        out = mv.transport_walk(g, t, house, origin, memo.reach, memo.stack, True)
        for i in range(out):
            listed = set_bit(listed, memo.reach[i])
        if t.dragons and _dragons_only(g, origin):
            # Mother of Dragons (M11): dragons alone fly to any land area of the board
            for b in range(t.n_areas):
                if t.kind[b] == LAND and b != origin and not g.blocked[b]:
                    if not has_bit(listed, b):
                        memo.reach[out] = b
                        listed = set_bit(listed, b)
                        out += 1
        write_bits(memo.reach_bits, listed)
        return out
    for j in range(width):
        b = t.neighbours[origin, j]
        if b < 0:
            break
        if g.blocked[b]:
            continue
        if t.kind[b] == SEA:
            memo.reach[out] = b
            listed = set_bit(listed, b)
            out += 1
        elif t.kind[b] == PORT and t.kind[origin] == SEA:
            if controller(g, t, t.port_land[b]) == house:
                memo.reach[out] = b
                listed = set_bit(listed, b)
                out += 1
    write_bits(memo.reach_bits, listed)
    return out


@njit
def _dragons_only(g, origin: int) -> bool:
    """The units of ``origin`` are dragons only (they may fly anywhere, M11)."""
    others = live(g, origin, FOOTMAN) + live(g, origin, KNIGHT) + live(g, origin, SIEGE)
    return others == 0 and live(g, origin, DRAGON) > 0


@njit
def battle_margin(g, t, house: int, origin: int, x: int, units: float, memo) -> float:
    """Board strength of an attack with ``units`` on ``x`` (march bonus and revealed supports
    included) minus the defence's (units, garrison, defence order, supports; third houses'
    supports count partly against)."""
    march = g.order[origin]
    bonus = float(march - 1) if 0 <= march <= 2 else 0.0
    e = defender_of(g, t, x)
    support = memo.sup_sum
    supports_by_house(g, t, x, house, origin, support)
    mine = units + bonus + support[house]
    if e < 0:
        return mine - g.neutral[x]
    d = float(hold_strength(g, t, x))
    if g.owner[x] == e:
        k = g.order[x]
        if k == O_DEFENSE_ONE:
            d += 1.0
        elif k == O_DEFENSE_TWO:
            d += 2.0
    d += support[e]
    for other in range(H):
        if other != house and other != e and g.in_play[other]:
            d += 0.4 * support[other]
    holder = g.track[1, 0]
    if not g.blade_used:
        if holder == house:
            mine += 0.5
        elif holder == e:
            d += 0.5
    return mine - d


@njit
def supports_by_house(g, t, x: int, house: int, exclude: int, out) -> None:
    """Strength of each house's revealed support orders that can join a battle in ``x``
    (``exclude`` left out for ``house``), all houses in one pass over the neighbours."""
    out[:] = 0.0
    for j in range(t.neighbours.shape[1]):
        b = t.neighbours[x, j]
        if b < 0:
            break
        h = g.owner[b]
        if h < 0 or (b == exclude and h == house):
            continue
        k = g.order[b]
        if (k == O_SUPPORT_ZERO or k == O_SUPPORT_ONE) and support_reaches(t, b, x):
            out[h] += attack_strength(g, t, b, x)
            if k == O_SUPPORT_ONE:
                out[h] += 1.0


@njit
def enemy_marches_next_to(g, t, house: int, a: int) -> float:
    """Strength of the strongest unresolved enemy march order that could come into ``a``
    (from next door, or carried by that house's ships in a sea next to it)."""
    worst = 0.0
    land = t.kind[a] == LAND
    for j in range(t.neighbours.shape[1]):
        b = t.neighbours[a, j]
        if b < 0:
            break
        e = g.owner[b]
        if e < 0 or e == house:
            continue
        s = _march_threat(g, t, a, b, e, land, True)
        if s > worst:
            worst = s
    return worst


@njit(inline="always")
def _march_threat(g, t, a: int, b: int, e: int, land_a: bool, by_sea: bool) -> float:
    """The strongest unresolved march order of ``e`` (holding ``b``, next to ``a``) that could
    come into ``a``: from ``b`` itself, or (``by_sea``) an army that e's ships in the sea ``b``
    can carry there; 0.0 if none."""
    worst = 0.0
    if mv.is_march_kind(g.order[b]) and (t.kind[b] == LAND) == land_a:
        worst = float(attack_strength(g, t, b, a))
    if by_sea and land_a and t.kind[b] == SEA and g.units[b, SHIP] > 0:
        for k in range(t.neighbours.shape[1]):
            c = t.neighbours[b, k]
            if c < 0:
                break
            if c != a and g.owner[c] == e and t.kind[c] == LAND and mv.is_march_kind(g.order[c]):
                s = float(attack_strength(g, t, c, a))
                if s > worst:
                    worst = s
    return worst


@njit
def _danger_and_marches(g, t, memo, house: int, a: int):
    """``local_danger`` (the action phase's ``danger``) and ``enemy_marches_next_to`` of ``a``
    in one pass over its neighbours; each is added up as on its own, so both are the same."""
    sums = memo.hsum
    sums[:] = 0.0
    marcher = 0
    worst = 0.0
    land_a = t.kind[a] == LAND
    width = t.neighbours.shape[1]
    for j in range(width):
        b = t.neighbours[a, j]
        if b < 0:
            break
        e = g.owner[b]
        if e < 0 or e == house:
            continue
        # enemy_marches_next_to (only a house with march orders left can come by sea)
        s = _march_threat(g, t, a, b, e, land_a, ((memo.marching >> e) & 1) != 0)
        if s > worst:
            worst = s
        marcher |= add_local_danger(g, t, memo, a, b, e, sums)  # local_danger
    return largest_marcher(sums, marcher), worst


@njit
def threat_at(g, t, memo, house: int, a: int, planning: bool) -> float:
    """The danger to ``a``: the view's estimate while planning; in the action phase the
    revealed marches next to it, or half the estimate (later rounds)."""
    if planning:
        d = danger(g, t, memo, house, a)
        if memo.params[house, P_VERSION] >= 2.0 and t.home[a] == house:
            d = max(d, home_sea_threat(g, t, house, a))
        return d
    if g.phase == Phase.MARCHES:
        d, now = _danger_and_marches(g, t, memo, house, a)
        if memo.params[house, P_VERSION] >= 2.0 and t.home[a] == house:
            # the second heuristic guards its homes against what ships can carry there too
            d = max(d, view_danger(memo, house, a), home_sea_threat(g, t, house, a))
    else:
        d = danger(g, t, memo, house, a)
        now = enemy_marches_next_to(g, t, house, a)
    # the home area is worth guarding against later rounds too
    later = 0.8 if t.home[a] == house else 0.5
    return max(now, later * d)


@njit
def dest_key(memo, house: int, planning: bool) -> int:
    """The key of ``memo.d_*`` entries filled for ``house`` in the current view."""
    return memo.view_key * 16 + house * 2 + (1 if planning else 0)


@njit
def dest_info(g, t, memo, house: int, x: int, planning: bool, params) -> None:
    """Fill ``memo.d_*[x]`` for ``house`` (once per view; ``params``: its parameters): whether
    entering ``x`` is a battle, a new area to take (its worth for the first unit) or an own area
    (its worth, the strength already there), the threat to it and, where units may go in peace,
    its position worth."""
    key = dest_key(memo, house, planning)
    if memo.d_key[x] == key:
        return
    memo.d_key[x] = key
    memo.d_thr[x] = threat_at(g, t, memo, house, x, planning)
    v = value_for(g, t, memo, house, x)
    if mv.is_attack(g, t, house, x):
        memo.d_kind[x] = D_BATTLE
        memo.d_pos[x] = 0.0  # (units are sent there only by the attack, which does not read it)
        e = defender_of(g, t, x)
        memo.d_def[x] = e
        memo.d_val[x] = v
        held = hold_strength(g, t, x)
        memo.d_hold[x] = held
        if e < 0:
            memo.d_str[x] = g.neutral[x]
            memo.d_lead[x] = 0.0
            memo.d_tie[x] = 1
        else:
            memo.d_str[x] = held + 0.5 + 0.6 * float(memo.pot[e, x])
            memo.d_lead[x] = lead_of(g, t, memo, house, e)
            memo.d_tie[x] = 1 if fiefdoms_higher(g, house, e) else 0
        memo.d_gain[x] = attack_gain_fixed(g, t, memo, house, x)
        return
    memo.d_pos[x] = position_value(g, t, memo, house, x)
    if g.owner[x] == house or controller(g, t, x) == house:
        memo.d_kind[x] = D_OWN
        memo.d_val[x] = v
        memo.d_hold[x] = hold_strength(g, t, x)
    else:
        memo.d_kind[x] = D_TAKE
        if g.power_token[x] >= 0 and g.power_token[x] != house:
            v += 0.5
        # varied by up to ± noise, once per view: the house's taste for this area this turn; not
        # while the second heuristic plans its orders, so that a house's plan and the prediction
        # of it share one evaluation of each area (orders._plan: its noise on the orders' worths
        # varies its plan)
        noise = 0.0 if planning and params[P_VERSION] >= 2.0 else params[P_NOISE]
        memo.d_val[x] = v * (0.3 + params[P_EXPANSION]) * jitter(g, house, noise)
        memo.d_hold[x] = 0.0


# how far the strength a defender is predicted to hold an area with (``predicted_defence``)
# replaces the estimate from the units that could support it: three in four predicted orders
# are the orders placed (docs/players.md)
PRED_TRUST = 0.75


@njit
def predicted_defence(g, t, memo, e: int, x: int) -> float:
    """The strength house ``e`` is predicted (``memo.pred``) to hold ``x`` with: its units and
    garrison there, the predicted defence order's bonus and the supports predicted from its
    areas next to it."""
    s = float(hold_strength(g, t, x))
    k = memo.pred[e, x]
    if k == O_DEFENSE_ONE or k == O_DEFENSE_TWO:
        s += ORDER_BONUS[k]
    for j in range(t.neighbours.shape[1]):
        y = t.neighbours[x, j]
        if y < 0:
            break
        if g.owner[y] != e:
            continue
        k = memo.pred[e, y]
        if k >= 0 and ORDER_TYPE[k] == ORDER_SUPPORT and support_reaches(t, y, x):
            s += attack_strength(g, t, y, x) + ORDER_BONUS[k]
    return s


@njit
def _defence_estimate(g, t, memo, e: int, x: int) -> float:
    """The strength the planner expects house ``e`` (-1: a neutral force) to hold destination
    ``x`` with (``dest_info``), and while ``memo.pred_margin`` is set and ``e``'s orders are
    predicted this round, that estimate moved ``PRED_TRUST`` of the way to the predicted
    defence."""
    d = float(memo.d_str[x])
    if memo.pred_margin == 0 or e < 0 or memo.pred_key[e] != g.game_round:
        return d
    mixed = PRED_TRUST * predicted_defence(g, t, memo, e, x) + (1.0 - PRED_TRUST) * d
    return float(np.float32(mixed))  # (kept as memo.d_str keeps its estimates)


@njit(inline="always")
def _send_worth(memo, r: int, s: float, exposure: float, defence: float) -> float:
    """Worth of one more unit of strength ``s`` sent to listed destination ``r`` (``NEG`` where
    none may go), given what is sent there already."""
    cv = memo.cand_v[r]
    if cv == NEG:
        return NEG
    thr = memo.cand_t[r]
    if memo.d_kind[memo.reach[r]] == D_TAKE and memo.sent[r] == 0.0:
        p = lose_chance(thr, s)
        gv = cv * (1.0 - p) - exposure * s * p
    else:
        hold = memo.sent[r]
        gv = cv * (lose_chance(thr, hold) - lose_chance(thr, hold + s)) * defence
    return gv + s * memo.cand_p[r]


@njit(inline="always")
def _staying(g, origin: int, left) -> int:
    """Units that stay in ``origin`` whatever is sent: the siege engines in ``left`` (they do
    not wander) and the routed units (they cannot march)."""
    stayed = left[SIEGE]
    for u in range(U):
        stayed += g.units[origin, u] - live(g, origin, u)
    return stayed


@njit
def allocate(
    g,
    t,
    house: int,
    origin: int,
    params,
    memo,
    planning: bool,
    n_reach: int,
    left,
    move,
    exclude: int,
) -> float:
    """Send the units in ``left`` (by type) one at a time where each adds most, into ``move``
    (adding); returns the worth gained over staying put, the cost of emptying ``origin``
    included. Siege engines stay."""
    land = t.kind[origin] == LAND
    key = dest_key(memo, house, planning)  # dest_info is asked only for what is not filled yet
    for r in range(n_reach):
        x = memo.reach[r]
        if memo.d_key[x] != key:
            dest_info(g, t, memo, house, x, planning, params)
        kind = memo.d_kind[x]
        if x == exclude or kind == D_BATTLE:
            memo.cand_v[r] = NEG
            continue
        memo.cand_t[r] = memo.d_thr[x]
        memo.cand_p[r] = memo.d_pos[x]
        memo.cand_v[r] = memo.d_val[x]
        memo.sent[r] = memo.d_hold[x] if kind == D_OWN else 0.0
    if memo.d_key[origin] != key:
        dest_info(g, t, memo, house, origin, planning, params)
    t_o = float(memo.d_thr[origin])
    pos_o = float(memo.d_pos[origin])
    v_o = value_for(g, t, memo, house, origin)
    stay_hold = float(g.garrison[origin])
    stayed = _staying(g, origin, left)
    total = 0.0
    min_gain = 1.0e9
    min_r = -1
    min_u = -1
    defence = 0.3 + params[P_DEFENCE]
    exposure = EXPOSURE * (1.2 - params[P_RISK])
    if final_round(g, t, memo, house):
        exposure = 0.0  # (no later round to keep a unit for)
    gv = memo.cand_g  # worth of sending the next unit to each destination
    for u in (KNIGHT, FOOTMAN, SHIP, DRAGON):
        if left[u] == 0:
            continue
        s = float(t.unit_strength[u]) if u != DRAGON else float(dragon_strength(g, t))
        for r in range(n_reach):
            gv[r] = _send_worth(memo, r, s, exposure, defence)
        # worth of keeping the unit home: it changes only when a unit stays
        # (the second heuristic keeps a fleet where it is unless a move gains SHIP_STAY more:
        # small gains shift back and forth from round to round)
        stay = SHIP_STAY if u == SHIP and params[P_VERSION] >= 2.0 else 0.0
        sv = v_o * (lose_chance(t_o, stay_hold) - lose_chance(t_o, stay_hold + s)) * defence
        sv += s * pos_o + stay
        for _ in range(left[u]):
            best = sv
            best_r = -1
            for r in range(n_reach):
                if gv[r] > best + 1e-9:
                    best = gv[r]
                    best_r = r
            if best_r < 0:
                stayed += 1
                stay_hold += s
                sv = v_o * (lose_chance(t_o, stay_hold) - lose_chance(t_o, stay_hold + s)) * defence
                sv += s * pos_o + stay
            else:
                move[memo.reach[best_r], u] += 1
                memo.sent[best_r] += s
                gv[best_r] = _send_worth(memo, best_r, s, exposure, defence)
                gain = best - sv
                total += gain
                if gain < min_gain:
                    min_gain = gain
                    min_r = best_r
                    min_u = u
    if stayed == 0 and land:
        cost = vacate_cost(g, t, memo, house, origin, params, t_o)
        if min_r >= 0 and min_gain < cost:
            move[memo.reach[min_r], min_u] -= 1  # the least useful mover stays home instead
            total -= min_gain
        else:
            total -= cost
    return total


@njit
def _empty_origin_cost(g, t, house: int, origin: int, params, memo, planning: bool, left) -> float:
    """``allocate`` once every knight, footman and ship has gone to the attack (``left``: only
    siege engines, which stay): nothing more to send, so only the cost of leaving ``origin``
    empty, as ``allocate`` counts it (negative), or 0 while a unit stays."""
    if _staying(g, origin, left) != 0 or t.kind[origin] != LAND:
        return 0.0
    if memo.d_key[origin] != dest_key(memo, house, planning):
        dest_info(g, t, memo, house, origin, planning, params)
    return -vacate_cost(g, t, memo, house, origin, params, float(memo.d_thr[origin]))


@njit(inline="always")
def _attack_at(memo, m, house, e, tie, gain, units, params, lead, final: bool) -> float:
    """Worth of an attack with board margin ``m`` (``final``: the second heuristic's last round,
    ``view.final_round``, where only the area won counts: the units are needed no more)."""
    if e < 0:
        p = 1.0 if m >= 0.0 else 0.0
    else:
        p = win_chance(memo, m, house, e, tie)
    if final:
        return p * gain
    return attack_value(gain, 0.4 * units, p, params, lead)


@njit
def evaluate_march(g, t, house: int, origin: int, params, memo, planning: bool, res) -> None:
    """Worth of a march order in ``origin`` (see ``R_*``); in the action phase the chosen units'
    destinations are left in ``memo.move_a``."""
    _evaluate_march(g, t, house, origin, params, memo, planning, res, False)


@njit
def reevaluate_attack(g, t, house: int, origin: int, params, memo, res) -> None:
    """While planning: ``res`` holds the worth of a march order in ``origin`` (``evaluate_march``);
    count its best attack again as it is counted now (``memo.pred_margin``), the worth of
    marching in peace kept."""
    _evaluate_march(g, t, house, origin, params, memo, True, res, True)


@njit
def _evaluate_march(g, t, house, origin, params, memo, planning: bool, res, again: bool) -> None:
    """``evaluate_march`` (``again``: ``reevaluate_attack``)."""
    kept_peaceful = res[R_PEACEFUL]
    ensure_view(g, t, memo)
    memo.reach_listed = 0  # (not listed yet)
    res[:] = 0.0
    res[0] = NEG
    res[1] = NEG
    res[2] = NEG
    res[R_TARGET] = -1.0
    move_a = memo.move_a
    move_b = memo.move_b
    move_a[:, :] = 0
    move_b[:, :] = 0
    land = t.kind[origin] == LAND
    avail = memo.avail
    movers = 0
    for u in range(U):
        avail[u] = live(g, origin, u)
    if not planning:
        # already assigned (a plan resumed mid-way), added up per unit type first
        assigned_f = 0
        assigned_k = 0
        assigned_s = 0
        assigned_e = 0
        for d in range(t.n_areas):
            assigned_f += g.moving[d, 0]
            assigned_k += g.moving[d, 1]
            assigned_s += g.moving[d, 2]
            assigned_e += g.moving[d, 3]
        avail[FOOTMAN] -= assigned_f
        avail[KNIGHT] -= assigned_k
        avail[SHIP] -= assigned_s
        avail[SIEGE] -= assigned_e
    for u in range(U):
        if avail[u] < 0:
            avail[u] = 0
        movers += avail[u]
    if movers == 0:
        return
    n_reach = reach_list(g, t, house, origin, memo)
    key = dest_key(memo, house, planning)
    fighters = 0
    for u in range(SIEGE):  # footmen, knights and ships at their strength
        fighters += t.unit_strength[u] * avail[u]
    if avail[DRAGON] > 0:  # Mother of Dragons: dragons at this round's strength
        fighters += dragon_strength(g, t) * avail[DRAGON]
    march = g.order[origin]
    actual = float(march - 1) if 0 <= march <= 2 else 0.0
    final = final_round(g, t, memo, house)
    # --- the best attack -------------------------------------------------------------------
    best_x = -1
    best_v = NEG
    best_units = 0.0
    for r in range(n_reach):
        x = memo.reach[r]
        if fighters == 0:
            break
        if memo.d_key[x] != key:
            dest_info(g, t, memo, house, x, planning, params)
        if memo.d_kind[x] != D_BATTLE:
            continue
        if memo.d_def[x] >= 0:
            res[R_DEFENDED] += 1.0
        if g.march_replanned and g.neutral[x] > 0:
            continue  # planned again: no attack on a neutral force (C11)
        if land and avail[FOOTMAN] + avail[KNIGHT] + avail[DRAGON] == 0:
            continue  # siege engines alone are no attack
        units = float(fighters)
        if land and memo.fort[x]:
            units += 4.0 * avail[SIEGE]
        e = memo.d_def[x]
        if planning:
            support = float(memo.pot[house, x])
            if support_reaches(t, origin, x):
                support -= attack_strength(g, t, origin, x)
            m0 = units + 0.6 * support - _defence_estimate(g, t, memo, e, x)
        else:
            m0 = battle_margin(g, t, house, origin, x, units, memo) - actual
        # the area as far as it can be held afterwards, plus what does not depend on the units
        gain = float(memo.d_val[x]) * (1.0 - lose_chance(memo.d_thr[x], units))
        gain += float(memo.d_gain[x])
        lead = float(memo.d_lead[x])
        tie = memo.d_tie[x] != 0
        v0 = NEG
        v2 = NEG
        if planning:
            v0 = _attack_at(memo, m0 - 1.0, house, e, tie, gain, units, params, lead, final)
            v1 = _attack_at(memo, m0, house, e, tie, gain, units, params, lead, final)
            v2 = _attack_at(memo, m0 + 1.0, house, e, tie, gain, units, params, lead, final)
        else:
            v1 = _attack_at(memo, m0 + actual, house, e, tie, gain, units, params, lead, final)
        if v1 > best_v:
            best_v = v1
            best_x = x
            best_units = units
            res[0] = v0
            res[1] = v1
            res[2] = v2
            res[R_MARGIN] = m0
            res[R_GAIN] = gain
    # --- without attacking -----------------------------------------------------------------
    left = memo.left
    left[:] = avail
    if again:
        peaceful = kept_peaceful
    else:
        peaceful = allocate(g, t, house, origin, params, memo, planning, n_reach, left, move_b, -1)
    res[R_PEACEFUL] = peaceful
    attack_total = NEG
    if best_x >= 0 and max(res[0], res[1], res[2]) <= 0.0:
        best_x = -1  # an attack worth nothing cannot beat moving in peace (which is >= 0)
        res[0] = NEG
        res[1] = NEG
        res[2] = NEG
    if best_x >= 0:
        for u in (FOOTMAN, KNIGHT, SHIP, DRAGON):
            move_a[best_x, u] = left[u]
            left[u] = 0
        if land and memo.fort[best_x]:
            move_a[best_x, SIEGE] = left[SIEGE]
            left[SIEGE] = 0
        rest = _empty_origin_cost(g, t, house, origin, params, memo, planning, left)
        staying = _staying(g, origin, left)  # (``left`` holds siege engines only now)
        for r in range(n_reach):
            x = memo.reach[r]
            if x != best_x:
                for u in range(U):
                    staying -= move_a[x, u]
        for k in range(3):
            res[k] += rest
        attack_total = res[1]
        if not planning and staying <= 0 and land and move_a[best_x, FOOTMAN] > 0 and fighters > 1:
            # keep one footman home when that costs the attack less than the empty origin
            e = defender_of(g, t, best_x)
            m = battle_margin(g, t, house, origin, best_x, best_units - 1.0, memo)
            tie = e < 0 or fiefdoms_higher(g, house, e)
            v1 = _attack_at(
                memo,
                m,
                house,
                e,
                tie,
                res[R_GAIN],
                best_units - 1.0,
                params,
                lead_of(g, t, memo, house, e),
                final,
            )
            empty_cost = vacate_cost(
                g, t, memo, house, origin, params, threat_at(g, t, memo, house, origin, planning)
            )
            if v1 + rest + empty_cost > attack_total:
                move_a[best_x, FOOTMAN] -= 1
                attack_total = v1 + rest + empty_cost
                res[1] = attack_total
    for k in range(3):
        if res[k] < peaceful:
            res[k] = peaceful
    if planning:
        if best_x >= 0 and attack_total > peaceful:
            res[R_TARGET] = float(best_x)
        return
    if best_x >= 0 and attack_total > peaceful:
        res[R_TARGET] = float(best_x)
    else:
        move_a[:, :] = move_b


@njit(inline="always")
def march_key(g, origin: int) -> int:
    """The key of a march plan (``memo.march_key``): the round, the origin and whether the
    march is planned again (a plan attacking a neutral force fell short, C11)."""
    return (int(g.game_round) * AREA_BITS + origin) * 2 + int(g.march_replanned)


@njit
def plan_march(g, t, house: int, origin: int, params, memo) -> float:
    """Plan where the units of ``origin`` go now (``memo.march_move``); returns the worth."""
    res = memo.p_num[6, R_LEN : 2 * R_LEN]  # work space (the order planner uses the first slots)
    evaluate_march(g, t, house, origin, params, memo, False, res)
    memo.march_move[:, :] = memo.move_a
    memo.march_key = march_key(g, origin)
    memo.march_house = house
    # the ships do not move while the march's units are assigned: its reach holds till then.
    # The listed destinations are the engine's transport reach less blocked areas, which the
    # engine's check refuses before it looks at the reach (ships do not read it)
    if memo.reach_listed:
        write_bits(memo.march_reach, read_bits(memo.reach_bits))
        write_bits(memo.march_dests, read_bits(memo.reach_bits))
    else:
        write_bits(memo.march_reach, mv.transport_reach_bits(g, t, house, origin))
        write_bits(memo.march_dests, no_bits())  # (every planned destination is listed)
    return res[1]


@njit
def march_from_unmasked(g, t, house: int, params, memo) -> int:
    """MARCH_FROM: the march order planned to be worth most goes first (its units' moves are
    planned afresh when the first of them is asked). The areas the legal mask would hold (the
    house's march orders, ``machine.legal``) are looked at directly."""
    memo.march_key = -1  # (a march order Ser Loras moved may come from an area marched before)
    best = NEG
    best_a = -1
    planned = memo.plan_key[house] == g.game_round
    for a in range(t.n_areas):
        if g.owner[a] == house and mv.is_march_kind(g.order[a]):
            v = memo.plan_value[house, a] if planned else 0.0
            if v > best:
                best = v
                best_a = a
    return best_a


@njit
def march_from(g, t, house: int, mask, params, memo) -> int:
    """``march_from_unmasked`` (``mask`` holds just the areas it looks at)."""
    return march_from_unmasked(g, t, house, params, memo)


@njit
def march_unit(g, t, house: int, mask, params, memo) -> int:
    """MARCH_UNIT: the next planned destination of this unit type, else stay."""
    origin = g.ctx[0]
    u = g.ctx[1]
    if memo.march_key != march_key(g, origin) or memo.march_house != house:
        plan_march(g, t, house, origin, params, memo)
    bits = read_bits(memo.march_dests)
    while not is_empty(bits):  # the listed destinations in area order
        d = lowest(bits)
        bits = drop_lowest(bits)
        if d != origin and memo.march_move[d, u] > 0 and mask[d]:
            memo.march_move[d, u] -= 1
            return d
    return origin


@njit
def march_unit_unmasked(g, t, house: int, params, memo) -> int:
    """``march_unit`` without the legal mask: the planned destinations are checked one by one
    with the engine's rule (``march_destination_ok``, what the mask holds), so the answer is the
    same; staying is always legal."""
    origin = g.ctx[0]
    u = g.ctx[1]
    if memo.march_key != march_key(g, origin) or memo.march_house != house:
        plan_march(g, t, house, origin, params, memo)
    reach = read_bits(memo.march_reach)
    bits = read_bits(memo.march_dests)
    while not is_empty(bits):
        d = lowest(bits)
        bits = drop_lowest(bits)
        if d != origin and memo.march_move[d, u] > 0:
            if mv.march_destination_ok(g, t, house, origin, u, d, reach):
                memo.march_move[d, u] -= 1
                return d
    return origin


@njit
def leave_power(g, t, house: int, mask, params, memo) -> int:
    """LEAVE_POWER: keep control of an area worth holding (castles always)."""
    origin = g.ctx[0]
    if is_fort(g, t, origin):
        return 1
    worth = barrels_at(g, t, origin) + crowns_at(g, t, origin)
    spare = g.power[house] - (4.0 - 3.0 * params[P_POWER])
    if worth >= 2 and g.power[house] >= 2:
        return 1
    if worth >= 1 and spare >= 0.0:
        return 1
    return 0


__all__ = [
    "evaluate_march",
    "leave_power",
    "march_from",
    "march_from_unmasked",
    "march_unit",
    "plan_march",
]
