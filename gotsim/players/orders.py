"""The heuristic's order phase: one plan of all of a house's orders per round (marches toward
weakly held castles and supply, supports for them and for threatened areas, defence where the
danger is, raids next to enemies, power where it is safe, star orders where they matter), the
Messenger Raven, and which raid to resolve against what.

Compiled (numba). Planning reads the public board only: never other houses' orders.
"""

# ruff: noqa: SIM109

from __future__ import annotations

from gotsim.engine.area_bits import has_bit, no_bits, set_bit
from gotsim.engine.board_state import LAND, SEA, muster_points_at, unit_count
from gotsim.engine.machine import order_count, raid_reaches, stars_allowed, stars_used
from gotsim.engine.state import (
    A_MAX,
    N_ORDER_KINDS,
    ORDER_BONUS,
    ORDER_SEA_ONLY,
    ORDER_STAR,
    ORDER_TYPE,
    H,
    Order,
    Restriction,
)
from gotsim.jit import njit
from gotsim.players.iron_bank import best_loan
from gotsim.players.marching import (
    R_DEFENDED,
    R_GAIN,
    R_LEN,
    R_MARGIN,
    R_PEACEFUL,
    R_TARGET,
    evaluate_march,
    reevaluate_attack,
)
from gotsim.players.memo import N_EV
from gotsim.players.params import (
    P_AGGRESSION,
    P_DEFENCE,
    P_FORESIGHT,
    P_NOISE,
    P_POWER,
    P_VERSION,
)
from gotsim.players.values import defender_of
from gotsim.players.view import (
    O_CONSOLIDATE,
    O_CONSOLIDATE_STAR,
    O_DEFENSE_ONE,
    O_DEFENSE_TWO,
    O_MARCH_MINUS,
    O_MARCH_PLUS,
    O_MARCH_ZERO,
    O_RAID,
    O_RAID_STAR,
    O_SEA_MARCH,
    O_SEA_SUPPORT,
    O_SUPPORT_ONE,
    O_SUPPORT_ZERO,
    SHIP,
    army_strength,
    castles_ranked,
    danger,
    ensure_view,
    fiefdoms_higher,
    hold_strength,
    jitter,
    lose_chance,
    power_income,
    support_reaches,
    value_for,
    win_chance,
)

MARCH, DEFENSE, SUPPORT, RAID, CONSOLIDATE = 1, 2, 3, 4, 5
IRON_BANK = 6  # Mother of Dragons' Iron Bank order (OrderType.IRON_BANK): raided like consolidate
NEG = -1.0e9
STAR_COST = 0.15  # a star spent here is one not spent elsewhere
RAID_EMPTY = 3.0  # second heuristic: cost of a raid that finds nothing to raid
# chance that another house's order is one a raid removes when its predicted order is (0), is not
# (1), or when no order is predicted there (2), measured on all-heuristic 6-player games; and (3)
# that a predicted raid is still there when the house's raid resolves (its house resolves it
# first about half the time)
RAIDABLE_IF_PREDICTED = (0.90, 0.12, 0.78, 0.45)
# the order kinds the cheap prediction (``foresight`` 2, ``_predict_light``) gives
LIGHT_QUIET_LAND, LIGHT_SUPPORT = int(Order.CONSOLIDATE), int(Order.SUPPORT_ZERO)
LIGHT_MARCH, LIGHT_RAID = int(Order.MARCH_ZERO), int(Order.RAID)
SPARE_STAR_LOSS = 0.3  # second heuristic: a spare star may change an order's kind for this less
# Mother of Dragons: a sea order token is worth this more than the plain token of its kind in a
# sea area, so a fleet takes it first and leaves the plain tokens to the land
SEA_TOKEN_FIRST = 0.01
IRON_BANK_SHARE = 0.5  # the part of a loan's gain an Iron Bank order is worth when planned
# second heuristic: castles and strongholds held from which a house's own plan weighs its
# attacks against its neighbours' predicted defences (as in its last two rounds; endgame_rounds)
ENDGAME_CASTLES = 5
O_SEA_IRON_BANK = int(Order.SEA_IRON_BANK)
# an area's evaluation in an order plan (memo.ev, _evaluate_area), then the march's result
EV_ARMY, EV_DEFENCE_ONE, EV_DEFENCE_TWO, EV_RAID_TARGETS = 0, 1, 2, 3
EV_CONSOLIDATE, EV_CONSOLIDATE_STAR, EV_MARCH = 4, 5, 6
assert EV_MARCH + R_LEN == N_EV
# the march kinds phase 1 of a plan chooses among (the sea march last: base games never have it)
MARCH_KINDS = (O_MARCH_MINUS, O_MARCH_ZERO, O_MARCH_PLUS, O_SEA_MARCH)


@njit
def restricted(g, kind: int) -> bool:
    """This round's Westeros card forbids orders of ``kind``."""
    r = g.restrict
    kt = ORDER_TYPE[kind]
    if kt == DEFENSE and r & Restriction.NO_DEFENSE:
        return True
    if kind == O_MARCH_PLUS and r & Restriction.NO_MARCH_PLUS:
        return True
    if kt == RAID and r & Restriction.NO_RAID:
        return True
    if kt == SUPPORT and r & Restriction.NO_SUPPORT:
        return True
    return kt == CONSOLIDATE and (r & Restriction.NO_CONSOLIDATE) != 0


@njit
def _defence_values(g, t, memo, house, a, d, params) -> tuple:
    """Worths of a defence order of strength 1 and of 2 in ``a`` facing danger ``d``."""
    if d <= 0.0:
        return 0.0, 0.0
    v = value_for(g, t, memo, house, a)
    hold = hold_strength(g, t, a) + 0.5 * float(memo.pot[house, a])
    before = lose_chance(d, hold)
    factor = 0.5 + params[P_DEFENCE]
    one = v * (before - lose_chance(d, hold + 1.0)) * factor * 2.0
    two = v * (before - lose_chance(d, hold + 2.0)) * factor * 2.0
    return one, two


@njit(inline="always")
def enemy_in_raid_reach(g, t, raider: int, a: int, x: int, other: int = -1) -> bool:
    """Whether a raid of ``raider`` in ``a`` reaches the order of the house in ``x``: units of
    another house than ``raider`` (and than ``other``, when given) that the raid can reach."""
    o = g.owner[x]
    return o >= 0 and o != raider and o != other and raid_reaches(t, a, x)


@njit
def _raid_targets(g, t, house: int, a: int) -> int:
    n = 0
    for j in range(t.neighbours.shape[1]):
        x = t.neighbours[a, j]
        if x < 0:
            break
        if enemy_in_raid_reach(g, t, house, a, x):
            n += 1
    return n


@njit
def _raidable_chance(g, t, memo, x: int, foresight: bool) -> float:
    """Chance that the order in ``x`` (another house's) is one a raid removes (support, raid,
    consolidate power). Where the second heuristic has predicted that house's orders this round
    (``_predict_orders``) and plays with ``foresight``, from the prediction
    (``RAIDABLE_IF_PREDICTED``); else from the
    strength there: strong armies mostly march or defend. Measured on all-heuristic 6-player
    games: 0.65 with strength 1 or less, 0.53 with 2, 0.26 with 3 or more on land (at sea 0.52
    from 2)."""
    e = g.owner[x]
    if foresight and memo.pred_key[e] == g.game_round:
        k = memo.pred[e, x]
        if k < 0:
            return RAIDABLE_IF_PREDICTED[2]
        kt = ORDER_TYPE[k]
        if kt == RAID:
            return RAIDABLE_IF_PREDICTED[3]
        raidable = kt == SUPPORT or kt == CONSOLIDATE or kt == IRON_BANK
        return RAIDABLE_IF_PREDICTED[0] if raidable else RAIDABLE_IF_PREDICTED[1]
    s = army_strength(g, t, x)
    if s <= 1:
        return 0.65
    if s == 2 or g.units[x, SHIP] > 0:
        return 0.53
    return 0.26


@njit
def _raid_worth(g, t, memo, house: int, a: int, params, claim) -> float:
    """Second heuristic: worth of a raid order in ``a``, from the expected number of raidable
    orders next to it (at most 2 count) less the chance it finds none; with nothing to raid it
    is the last order an area gets. An order another planned raid of the house will likely take
    (``claim``: that chance) counts only for what is left of it."""
    expected = 0.0
    none = 1.0
    foresight = params[P_FORESIGHT] > 0.5
    for j in range(t.neighbours.shape[1]):
        x = t.neighbours[a, j]
        if x < 0:
            break
        if enemy_in_raid_reach(g, t, house, a, x):
            p = _raidable_chance(g, t, memo, x, foresight) * (1.0 - claim[x])
            expected += p
            none *= 1.0 - p
    return 0.3 * min(expected, 2.0) * (0.6 + params[P_POWER]) - RAID_EMPTY * none


@njit
def _claim_raid_targets(g, t, memo, house: int, a: int, claim, foresight: bool) -> bool:
    """Second heuristic: a raid planned in ``a`` takes one of the raidable orders next to it,
    each as likely as the others: raise their ``claim`` (the chance the order is gone before
    another raid of the house comes to it). Whether any order next to ``a`` could be taken."""
    expected = 0.0
    for j in range(t.neighbours.shape[1]):
        x = t.neighbours[a, j]
        if x < 0:
            break
        if enemy_in_raid_reach(g, t, house, a, x):
            expected += _raidable_chance(g, t, memo, x, foresight) * (1.0 - claim[x])
    if expected <= 0.0:
        return False
    share = 1.0 / max(expected, 1.0)
    for j in range(t.neighbours.shape[1]):
        x = t.neighbours[a, j]
        if x < 0:
            break
        if enemy_in_raid_reach(g, t, house, a, x):
            claim[x] += (1.0 - claim[x]) * share
    return True


@njit
def _claim_by_others(g, t, memo, house: int, claim) -> None:
    """Second heuristic: the raids predicted for the other houses (``_predict_orders``) take
    orders too, before the house's own raid about half the time: each raises the ``claim`` on
    the orders next to it of houses other than its own and ``house``, by half its share."""
    for y in range(t.n_areas):
        e = g.owner[y]
        if e < 0 or e == house or memo.pred_key[e] != g.game_round:
            continue
        k = memo.pred[e, y]
        if k < 0 or ORDER_TYPE[k] != RAID:
            continue
        expected = 0.0
        for j in range(t.neighbours.shape[1]):
            x = t.neighbours[y, j]
            if x < 0:
                break
            if enemy_in_raid_reach(g, t, e, y, x, house):
                expected += _raidable_chance(g, t, memo, x, True)
        if expected <= 0.0:
            continue
        share = 0.5 / max(expected, 1.0)
        for j in range(t.neighbours.shape[1]):
            x = t.neighbours[y, j]
            if x < 0:
                break
            if enemy_in_raid_reach(g, t, e, y, x, house):
                claim[x] += (1.0 - claim[x]) * share


@njit
def _score_raids(g, t, memo, house: int, i: int, a: int, params, score, claim, mood) -> None:
    """The second heuristic's raid worths of the ``i``-th area to plan, ``a`` (``mood``: the
    area's noise factors for a raid and a star raid)."""
    rv = _raid_worth(g, t, memo, house, a, params, claim)
    star = rv + 0.1 * min(_raid_targets(g, t, house, a), 2) - STAR_COST
    score[i, O_RAID] = rv * mood[0, i]
    score[i, O_RAID_STAR] = star * mood[1, i]


@njit
def _move_raids(house: int, memo, areas, na: int, score) -> None:
    """Second heuristic: the rules give every area an order while tokens are left, so a raid may
    be planned where it finds little while another area next to more enemies holds a defence,
    support or consolidate power order. Swap the two orders while the areas are worth more
    together that way (the tokens used stay the same)."""
    for _ in range(na):
        best = 0.05
        bi = -1
        bj = -1
        for i in range(na):
            ki = memo.plan[house, areas[i]]
            if ki < 0 or ORDER_TYPE[ki] != RAID:
                continue
            for j in range(na):
                kj = memo.plan[house, areas[j]]
                if kj < 0 or ORDER_TYPE[kj] == MARCH or ORDER_TYPE[kj] == RAID:
                    continue
                if score[i, kj] <= 0.5 * NEG or score[j, ki] <= 0.5 * NEG:
                    continue
                gain = score[i, kj] + score[j, ki] - score[i, ki] - score[j, kj]
                if gain > best:
                    best = gain
                    bi = i
                    bj = j
        if bi < 0:
            return
        a = areas[bi]
        b = areas[bj]
        memo.plan[house, a], memo.plan[house, b] = memo.plan[house, b], memo.plan[house, a]


@njit
def _predict_light(g, t, e: int, memo) -> None:
    """Second heuristic with ``foresight`` 2: a cheap prediction of house ``e``'s orders this
    round, into ``memo.pred``, from simple facts of each of its areas with units instead of a
    full plan: out of reach of any other house's raid, a consolidate power (land) or support
    (sea); next to another house, a march with strength 3 or more on land, a raid with
    strength 1 or less, else a support."""
    for a in range(t.n_areas):
        memo.pred[e, a] = -1
        if g.owner[a] != e or unit_count(g, a) == 0:
            continue
        contact = False
        for j in range(t.neighbours.shape[1]):
            x = t.neighbours[a, j]
            if x < 0:
                break
            o = g.owner[x]
            if o >= 0 and o != e and raid_reaches(t, a, x):
                contact = True
                break
        land = t.kind[a] == LAND
        if not contact:
            memo.pred[e, a] = LIGHT_QUIET_LAND if land else LIGHT_SUPPORT
            continue
        s = army_strength(g, t, a)
        if land and s >= 3:
            memo.pred[e, a] = LIGHT_MARCH
        elif s <= 1:
            memo.pred[e, a] = LIGHT_RAID
        else:
            memo.pred[e, a] = LIGHT_SUPPORT


@njit
def same_params(a, b) -> bool:
    """Whether two parameter rows are the same but for ``noise``."""
    for k in range(a.shape[0]):  # noqa: SIM110 (a plain loop compiles to less)
        if k != P_NOISE and a[k] != b[k]:
            return False
    return True


@njit
def _predict_orders(g, t, house: int, params, memo) -> None:
    """Second heuristic: the order each other house will likely place in each of its areas this
    round, into ``memo.pred`` (-1 none): the plan the heuristic would make in its place with that
    house's own defaults (``memo.guess_params``, its tuned set) without noise, from the public
    board, every area and token still open, as before any order of the round. Made for the
    houses next to ``house``'s units (the ones it may raid), once a round per house by the first
    planner that needs it, and shared; an other house's own plan, if it made one, is left as it
    was."""
    r = g.game_round
    n = t.n_areas
    waiting = False  # another house not yet predicted this round
    for e in range(H):
        if e != house and g.in_play[e] and memo.pred_key[e] != r:
            waiting = True
            break
    if not waiting:
        return
    near = 0  # the houses next to the house's armies and fleets, as bits: the ones it may raid
    for a in range(n):
        if g.owner[a] != house or unit_count(g, a) == 0:
            continue
        for j in range(t.neighbours.shape[1]):
            x = t.neighbours[a, j]
            if x < 0:
                break
            e = g.owner[x]
            if e >= 0 and e != house and raid_reaches(t, a, x):
                near |= 1 << e
    if params[P_FORESIGHT] > 1.5:
        for e in range(H):
            if (near >> e) & 1 != 0 and memo.pred_key[e] != r:
                _predict_light(g, t, e, memo)
                memo.pred_key[e] = r
        return
    held = memo.pred_params  # the predicted house's own row while it is predicted
    stale = False  # destination worths filled for a house with other parameters than its own
    for e in range(H):
        if (near >> e) & 1 == 0 or memo.pred_key[e] == r:
            continue
        # the house's own defaults, without noise: its destination worths are then those its
        # own plan counts, when it plays them (marching.dest_info); its row in the memo is
        # set to them while it is predicted (what is read there of a house is then the same
        # whether it has decided yet, in a game played from Python, or not)
        row = memo.params[e]
        for k in range(row.shape[0]):
            held[k] = row[k]
            row[k] = memo.guess_params[e, k]
        row[P_NOISE] = 0.0
        if not same_params(row, held):
            memo.d_key[:] = -1
            stale = True
        key = memo.plan_key[e]
        # (every slot: the plan clears whole rows, the board's areas and any past them)
        for a in range(A_MAX):
            memo.pred_save[0, a] = memo.plan[e, a]
            memo.pred_save[1, a] = memo.plan_target[e, a]
            memo.pred_value[a] = memo.plan_value[e, a]
        _plan(g, t, e, row, memo, False, True)
        for k in range(row.shape[0]):
            row[k] = held[k]
        for a in range(n):
            memo.pred[e, a] = memo.plan[e, a]
        for a in range(A_MAX):
            memo.plan[e, a] = memo.pred_save[0, a]
            memo.plan_target[e, a] = memo.pred_save[1, a]
            memo.plan_value[e, a] = memo.pred_value[a]
        memo.plan_key[e] = key
        memo.pred_key[e] = r
    if stale:
        memo.d_key[:] = -1


@njit
def plan_orders(g, t, house: int, params, memo, recount: bool = False) -> None:
    """Plan every order ``house`` still has to place this round into ``memo.plan``
    (``recount``: every support worth counted afresh after each support or defence planned,
    the plain way the shortcut is tested against); the second heuristic with ``foresight``
    first predicts the orders of the houses next to it (``_predict_orders``)."""
    if params[P_VERSION] >= 2.0 and params[P_FORESIGHT] > 0.5:
        _predict_orders(g, t, house, params, memo)
    _plan(g, t, house, params, memo, recount, False)


@njit
def _evaluations_kept(memo, house: int, params, v2: bool) -> bool:
    """Whether the second heuristic's plan of ``house`` with ``params`` keeps each area's
    evaluation in ``memo.ev`` for the view, to be read again by the next plan of the house with
    the same parameters but for noise (its own plan and the prediction of it); the kept ones are
    dropped when the view or the parameters differ. The first heuristic (noise on each
    destination's worth) keeps none: its evaluations overwrite the house's kept ones."""
    if not v2:
        memo.ev_key[house] = -1
        return False
    if memo.ev_key[house] != memo.view_key or not same_params(memo.ev_params[house], params):
        memo.ev_key[house] = memo.view_key
        for k in range(params.shape[0]):
            memo.ev_params[house, k] = params[k]
        memo.ev_ok[house, :] = 0
    return True


@njit
def endgame_rounds(g, t, memo, house: int) -> bool:
    """The second heuristic's endgame for weighing its attacks against its neighbours' predicted
    defences: a game won by castles, in its last two rounds or with ``house`` holding five
    castles or strongholds or more."""
    if not castles_ranked(t):
        return False
    return g.game_round >= t.max_rounds - 1 or memo.castles[house] >= ENDGAME_CASTLES


@njit
def _evaluate_area(g, t, memo, house: int, a: int, params, last_round: bool, ev) -> None:
    """The parts of area ``a``'s order worths in a plan of ``house`` that depend on neither noise
    nor the other orders planned, into ``ev`` (``EV_*``; the march's result is added by the
    plan): its strength, the worth of a defence order of strength 1 and 2, the raid targets next
    to it, consolidate power and its star order (or a muster there instead)."""
    ev[EV_ARMY] = army_strength(g, t, a)
    d_a = danger(g, t, memo, house, a)  # (the view does not change while planning)
    def_one, def_two = _defence_values(g, t, memo, house, a, d_a, params)
    ev[EV_DEFENCE_ONE] = def_one
    ev[EV_DEFENCE_TWO] = def_two
    nr = _raid_targets(g, t, house, a)
    ev[EV_RAID_TARGETS] = nr
    inc = power_income(g, t, house, a)
    safe = 1.0 - lose_chance(d_a, hold_strength(g, t, a))
    cv = inc * (0.3 + 0.7 * params[P_POWER]) * safe * (1.0 - 0.1 * min(nr, 3))
    if last_round:
        cv *= 0.1
    ev[EV_CONSOLIDATE] = cv
    star_cv = cv - STAR_COST
    points = muster_points_at(g, t, a)
    if t.kind[a] == LAND and points > 0 and not last_round:
        # the star order may muster here instead (castle 1 point, stronghold 2)
        mv_ = 0.8 * points * (0.6 + 0.3 * min(d_a, 4.0))
        if mv_ - STAR_COST > star_cv:
            star_cv = mv_ - STAR_COST
    ev[EV_CONSOLIDATE_STAR] = star_cv


@njit
def _plan(g, t, house: int, params, memo, recount: bool, fresh: bool) -> None:
    """``plan_orders`` itself (``fresh``: every area of the house and every token counted as
    open, as before any order of the round was placed)."""
    ensure_view(g, t, memo)
    n = t.n_areas
    memo.plan[house, :] = -1
    memo.plan_target[house, :] = -1
    memo.plan_key[house] = g.game_round
    areas = memo.p_areas  # work space kept in the memo: no allocation per plan
    na = 0
    for a in range(n):
        if g.owner[a] == house and (fresh or g.order[a] < 0) and unit_count(g, a) > 0:
            areas[na] = a
            na += 1
    if na == 0:
        return
    left = memo.p_left
    usable = memo.p_usable
    for k in range(N_ORDER_KINDS):
        left[k] = order_count(t, k) - (0 if fresh else g.orders_used[house, k])
        usable[k] = 0 if restricted(g, k) else 1
    stars = stars_allowed(g, t, house) - (0 if fresh else stars_used(g, house))
    last_round = g.game_round >= t.max_rounds

    score = memo.p_score[:na]
    score[:, :] = NEG
    done = memo.p_done[:na]
    done[:] = 0
    strength = memo.p_num[0, :na]
    target = memo.p_num[1, :na]
    margin = memo.p_num[2, :na]
    gain = memo.p_num[3, :na]
    exp_only = memo.p_num[4, :na]
    alt = memo.p_num[5, :na]
    res = memo.p_num[6, :R_LEN]
    hold_extra = memo.p_hold[:n]  # defence strength added by planned orders
    hold_extra[:] = 0.0
    v2 = params[P_VERSION] >= 2.0
    claim = memo.p_claim[:n]  # (second heuristic) chance a planned raid takes the order there
    claim[:] = 0.0
    foresight = v2 and params[P_FORESIGHT] > 0.5
    if foresight and not fresh:
        _claim_by_others(g, t, memo, house, claim)
    raid_mood = memo.p_mood[:, :na]
    raid_mood[:, :] = 1.0

    cached = _evaluations_kept(memo, house, params, v2)
    # in its endgame a house's own plan weighs its attacks against the defences its neighbours
    # are predicted to make (the prediction of its plan by another house has no such foresight)
    again = foresight and not fresh and endgame_rounds(g, t, memo, house)
    for i in range(na):
        a = areas[i]
        ev = memo.ev[house, a]
        evaluated = cached and memo.ev_ok[house, a] != 0
        if not evaluated:
            _evaluate_area(g, t, memo, house, a, params, last_round, ev)
        strength[i] = ev[EV_ARMY]
        # defence
        score[i, O_DEFENSE_ONE] = ev[EV_DEFENCE_ONE]
        score[i, O_DEFENSE_TWO] = ev[EV_DEFENCE_TWO] - STAR_COST
        # raids
        nr = int(ev[EV_RAID_TARGETS])
        if v2:
            rv = _raid_worth(g, t, memo, house, a, params, claim)
        else:
            rv = 0.3 * min(nr, 2) * (0.6 + params[P_POWER])
        score[i, O_RAID] = rv
        score[i, O_RAID_STAR] = rv + 0.1 * min(nr, 2) - STAR_COST
        # consolidate power (the star order may muster instead)
        score[i, O_CONSOLIDATE] = ev[EV_CONSOLIDATE]
        score[i, O_CONSOLIDATE_STAR] = ev[EV_CONSOLIDATE_STAR]
        # supports are scored once the marches are known; a small base for being ready
        score[i, O_SUPPORT_ZERO] = 0.0
        score[i, O_SUPPORT_ONE] = -STAR_COST
        # a little unpredictability: each order's worth varies by up to ± noise
        noise = params[P_NOISE]
        if noise > 0.0:
            for k in (O_DEFENSE_ONE, O_DEFENSE_TWO, O_RAID, O_RAID_STAR, O_CONSOLIDATE):
                f = jitter(g, house, noise)
                score[i, k] *= f
                if k == O_RAID:
                    raid_mood[0, i] = f
                elif k == O_RAID_STAR:
                    raid_mood[1, i] = f
            score[i, O_CONSOLIDATE_STAR] *= jitter(g, house, noise)
        best_alt = 0.0
        for k in (O_DEFENSE_ONE, O_RAID, O_CONSOLIDATE):
            if usable[k] and score[i, k] > best_alt:
                best_alt = score[i, k]
        alt[i] = best_alt
        # marches
        if evaluated:
            for k in range(R_LEN):
                res[k] = ev[EV_MARCH + k]
        else:
            evaluate_march(g, t, house, a, params, memo, True, res)
            for k in range(R_LEN):
                ev[EV_MARCH + k] = res[k]
            if cached:
                memo.ev_ok[house, a] = 1
        if again and res[R_DEFENDED] > 0.0:  # (nothing to count again where none is)
            memo.pred_margin = 1
            reevaluate_attack(g, t, house, a, params, memo, res)
            memo.pred_margin = 0
        mood = jitter(g, house, noise)  # one factor for all of this area's march options
        for k in range(3):
            if res[k] > 0.5 * NEG:
                res[k] *= mood
        res[R_PEACEFUL] *= mood
        score[i, O_MARCH_MINUS] = res[0]
        score[i, O_MARCH_ZERO] = res[1]
        score[i, O_MARCH_PLUS] = res[2] - STAR_COST
        if left[O_SEA_MARCH] > 0 and t.kind[a] == SEA and res[0] > 0.5 * NEG:
            score[i, O_SEA_MARCH] = res[0] + SEA_TOKEN_FIRST
        if left[O_SEA_IRON_BANK] > 0 and t.kind[a] == SEA:
            # the Iron Bank's token: worth the best loan it can buy now, gain over cost and
            # interest (IB4-IB6); left alone when no loan gains anything
            slot, loan_gain = best_loan(g, t, house)
            if slot >= 0:
                score[i, O_SEA_IRON_BANK] = IRON_BANK_SHARE * loan_gain
        target[i] = res[R_TARGET]
        margin[i] = res[R_MARGIN]
        gain[i] = res[R_GAIN]
        exp_only[i] = res[R_PEACEFUL]

    # --- phase 1: marches ---------------------------------------------------------------------
    n_att = 0
    att_x = memo.p_num[7, 0:3]
    att_m = memo.p_num[7, 3:6]
    att_g = memo.p_num[7, 6:9]
    while True:
        best = 0.0
        bi = -1
        bk = -1
        for i in range(na):
            if done[i]:
                continue
            for k in MARCH_KINDS:
                if left[k] <= 0 or not usable[k]:
                    continue
                if ORDER_STAR[k] and stars <= 0:
                    continue
                s = score[i, k] - alt[i]
                if s > best:
                    best = s
                    bi = i
                    bk = k
        if bi < 0:
            break
        a = areas[bi]
        done[bi] = 1
        memo.plan[house, a] = bk
        memo.plan_value[house, a] = score[bi, bk]
        left[bk] -= 1
        if ORDER_STAR[bk]:
            stars -= 1
        x = int(target[bi])
        attacking = x >= 0 and score[bi, bk] > exp_only[bi] + 1e-9
        if attacking:
            memo.plan_target[house, a] = x
            if n_att < 3:
                att_x[n_att] = x
                att_m[n_att] = margin[bi] + ORDER_BONUS[bk]
                att_g[n_att] = gain[bi]
                n_att += 1
            # one attack per target: the other origins fall back to their peaceful moves
            for i in range(na):
                if not done[i] and target[i] == x:
                    for k in range(3):
                        score[i, k] = exp_only[i] if k < 2 else exp_only[i] - STAR_COST
                    if score[i, O_SEA_MARCH] > 0.5 * NEG:
                        score[i, O_SEA_MARCH] = exp_only[i] + SEA_TOKEN_FIRST
                    target[i] = -1

    # --- phase 2: everything else, supports scored against the planned attacks ------------------
    dirty = True  # support worths change only when a support or defence order is planned
    # ... and then only for the areas next to what it changed: the planned attacks whose margin
    # grew (bits of att_x) and the areas whose planned defence grew (bits of areas)
    first = True
    changed_att = 0
    changed_hold = no_bits()
    ok = memo.p_ok  # order kinds still open: tokens left, not restricted, a star if it needs one
    top = N_ORDER_KINDS  # the order kinds the game has tokens of (Mother of Dragons' are last)
    while top > 0 and order_count(t, top - 1) == 0:
        top -= 1
    while True:
        for k in range(N_ORDER_KINDS):
            ok[k] = left[k] > 0 and usable[k] and not (ORDER_STAR[k] and stars <= 0)
        if dirty:
            # (a support kind no longer open is never read again: tokens and stars only run out)
            for i in range(na):
                if done[i]:
                    continue
                if not (first or recount) and not _support_inputs_changed(
                    g, t, house, areas[i], att_x, n_att, changed_att, changed_hold
                ):
                    continue  # the worths counted last time still hold
                sea_support = ok[O_SEA_SUPPORT] != 0 and t.kind[areas[i]] == SEA
                if ok[O_SUPPORT_ZERO] or ok[O_SUPPORT_ONE] or sea_support:
                    v0, v1 = _support_values(
                        g,
                        t,
                        memo,
                        house,
                        params,
                        areas[i],
                        strength[i],
                        ok[O_SUPPORT_ZERO] != 0 or sea_support,
                        ok[O_SUPPORT_ONE] != 0,
                        att_x,
                        att_m,
                        att_g,
                        n_att,
                        hold_extra,
                    )
                    if ok[O_SUPPORT_ZERO]:
                        score[i, O_SUPPORT_ZERO] = v0
                    if ok[O_SUPPORT_ONE]:
                        score[i, O_SUPPORT_ONE] = v1 - STAR_COST
                    if sea_support:
                        score[i, O_SEA_SUPPORT] = v0 + SEA_TOKEN_FIRST
            dirty = False
            first = False
            changed_att = 0
            changed_hold = no_bits()
        best = 2.0 * NEG  # every area gets an order while tokens last, however poor
        bi = -1
        bk = -1
        for i in range(na):
            if done[i]:
                continue
            for k in range(top):
                if ORDER_SEA_ONLY[k] and t.kind[areas[i]] != SEA:
                    continue  # (Mother of Dragons' sea order tokens)
                if ok[k] and score[i, k] > best:
                    best = score[i, k]
                    bi = i
                    bk = k
        if bi < 0:
            break
        a = areas[bi]
        done[bi] = 1
        memo.plan[house, a] = bk
        left[bk] -= 1
        if ORDER_STAR[bk]:
            stars -= 1
        if ORDER_TYPE[bk] == SUPPORT or ORDER_TYPE[bk] == DEFENSE:
            dirty = True
        if ORDER_TYPE[bk] == SUPPORT:
            s_add = strength[bi] + (1.0 if bk == 6 else 0.0)
            for m in range(n_att):
                if support_reaches(t, a, int(att_x[m])):
                    att_m[m] += s_add
                    changed_att |= 1 << m
            for j in range(t.neighbours.shape[1]):
                y = t.neighbours[a, j]
                if y < 0:
                    break
                if g.owner[y] == house and support_reaches(t, a, y):
                    hold_extra[y] += s_add
                    changed_hold = set_bit(changed_hold, y)
        elif bk == O_DEFENSE_ONE:
            hold_extra[a] += 1.0
            changed_hold = set_bit(changed_hold, a)
        elif bk == O_DEFENSE_TWO:
            hold_extra[a] += 2.0
            changed_hold = set_bit(changed_hold, a)
        elif (
            v2
            and ORDER_TYPE[bk] == RAID
            and _claim_raid_targets(g, t, memo, house, a, claim, foresight)
        ):
            for i in range(na):
                if not done[i]:
                    _score_raids(g, t, memo, house, i, areas[i], params, score, claim, raid_mood)
    if v2:
        _move_raids(house, memo, areas, na, score)
        if stars > 0:
            _spend_spare_stars(house, memo, areas, na, score, left, usable, stars)


@njit
def star_version(k: int) -> int:
    """The star order of the same kind as order ``k`` (-1: ``k`` is one, or has none)."""
    if O_MARCH_MINUS <= k <= O_MARCH_ZERO or k == O_SEA_MARCH:
        return O_MARCH_PLUS
    if k == O_DEFENSE_ONE:
        return O_DEFENSE_TWO
    if k == O_SUPPORT_ZERO or k == O_SEA_SUPPORT:
        return O_SUPPORT_ONE
    if k == O_RAID:
        return O_RAID_STAR
    if k == O_CONSOLIDATE:
        return O_CONSOLIDATE_STAR
    return -1


@njit
def _spend_spare_stars(house, memo, areas, na, score, left, usable, stars) -> None:
    """Second heuristic: stars still unspent once every area has its order are worth nothing
    kept. A star order is never worse than the plain one of its kind (march +1, defence +2,
    support +1, raid, consolidate power): give each star to the planned order that gains most by
    it; where no star of the planned kind is left, an area not attacking may take a star order of
    another kind that is worth at most ``SPARE_STAR_LOSS`` less."""
    while stars > 0:
        best = NEG
        bi = -1
        up_best = -1
        for i in range(na):
            k = memo.plan[house, areas[i]]
            up = star_version(k)
            if up < 0:
                continue
            if left[up] > 0 and usable[up] and score[i, up] > 0.5 * NEG:
                gain = score[i, up] - score[i, k]
                if gain > best:
                    best = gain
                    bi = i
                    up_best = up
            if ORDER_TYPE[k] == MARCH and memo.plan_target[house, areas[i]] >= 0:
                continue  # (an attack stays planned)
            for other in (O_DEFENSE_TWO, O_SUPPORT_ONE, O_RAID_STAR, O_CONSOLIDATE_STAR):
                if other == up or left[other] <= 0 or not usable[other]:
                    continue
                if score[i, other] <= 0.5 * NEG:
                    continue
                gain = score[i, other] - score[i, k]
                if gain > best and gain > -SPARE_STAR_LOSS:
                    best = gain
                    bi = i
                    up_best = other
        if bi < 0:
            return
        a = areas[bi]
        left[memo.plan[house, a]] += 1
        memo.plan[house, a] = up_best
        left[up_best] -= 1
        stars -= 1


@njit
def _support_inputs_changed(g, t, house, a, att_x, n_att, changed_att, changed_hold) -> bool:
    """Whether ``_support_values`` of area ``a`` reads a planned attack margin in
    ``changed_att`` or a planned defence of an area in ``changed_hold`` (bit sets)."""
    for m in range(n_att):
        if (changed_att >> m) & 1 and support_reaches(t, a, int(att_x[m])):
            return True
    for j in range(t.neighbours.shape[1]):
        y = t.neighbours[a, j]
        if y < 0:
            break
        if has_bit(changed_hold, y) and g.owner[y] == house and support_reaches(t, a, y):
            return True
    return False


@njit
def _support_values(
    g, t, memo, house, params, a, s, zero, one, att_x, att_m, att_g, n_att, hold_extra
) -> tuple:
    """Worths of a support order in ``a`` of strength ``s`` (``zero``) and of ``s + 1`` (the
    star order, ``one``), 0 for the one not asked: the planned attacks it can join and the own
    threatened areas next to it. Both come from one pass, each added up as on its own."""
    v0 = 0.0
    v1 = 0.0
    s1 = s + 1.0
    for m in range(n_att):
        x = int(att_x[m])
        if support_reaches(t, a, x):
            e = defender_of(g, t, x)
            tie = e < 0 or fiefdoms_higher(g, house, e)
            # the plan counted 60 % of the possible support: count the rest
            before = win_chance(memo, att_m[m], house, e, tie)
            keen = 0.6 + 0.8 * params[P_AGGRESSION]
            if zero:
                after = win_chance(memo, att_m[m] + 0.4 * s, house, e, tie)
                v0 += (after - before) * att_g[m] * keen
            if one:
                after = win_chance(memo, att_m[m] + 0.4 * s1, house, e, tie)
                v1 += (after - before) * att_g[m] * keen
    for j in range(t.neighbours.shape[1]):
        y = t.neighbours[a, j]
        if y < 0:
            break
        if g.owner[y] == house and support_reaches(t, a, y):
            d = danger(g, t, memo, house, y)
            if d > 0.0:
                hold = hold_strength(g, t, y) + hold_extra[y]
                worth = value_for(g, t, memo, house, y)
                factor = 0.5 + params[P_DEFENCE]
                if zero:
                    v0 += worth * (lose_chance(d, hold) - lose_chance(d, hold + s)) * factor
                if one:
                    v1 += worth * (lose_chance(d, hold) - lose_chance(d, hold + s1)) * factor
    return v0, v1


@njit
def planned_order(g, t, house: int, params, memo) -> int:
    """The order kind planned for the area of the pending PLACE_ORDER (planning once per house
    and round), -1 none."""
    if memo.plan_key[house] != g.game_round:
        plan_orders(g, t, house, params, memo)
    return int(memo.plan[house, g.ctx[0]])


@njit
def place_order(g, t, house: int, mask, params, memo) -> int:
    """PLACE_ORDER: the planned order for the area (planning once per house and round)."""
    k = planned_order(g, t, house, params, memo)
    if k >= 0 and mask[k]:
        return k
    # the plan cannot be followed (resumed mid-way): a plain preference order
    for k in (
        O_DEFENSE_ONE,
        O_SUPPORT_ZERO,
        O_CONSOLIDATE,
        O_RAID,
        O_MARCH_ZERO,
        O_MARCH_MINUS,
        O_DEFENSE_TWO,
        O_SUPPORT_ONE,
        O_RAID_STAR,
        O_CONSOLIDATE_STAR,
        O_MARCH_PLUS,
    ):
        if mask[k]:
            return k
    return -1


__all__ = ["place_order", "plan_orders", "restricted"]
