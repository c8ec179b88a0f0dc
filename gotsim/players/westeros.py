"""The heuristic in the Westeros phase: mustering where units are needed (within supply), supply
cuts that lose least, bids on the three tracks by power and need, wildling contributions by
threat, tie orders, the Westeros and wildling card choices, unit losses and track moves.

Compiled (numba). Bids read only the house's own power and the public power of the others,
never their bids.
"""

from __future__ import annotations

import numpy as np

from gotsim.engine import westeros as ws
from gotsim.engine.board_state import (
    LAND,
    PORT,
    SEA,
    barrels_held,
    castles_held,
    controller,
    crowns_at,
    is_fort,
    muster_points_at,
    unit_count,
)
from gotsim.engine.state import (
    ACT_FOOTMAN,
    ACT_KNIGHT,
    ACT_NONE,
    ACT_SIEGE,
    ACT_UPGRADE_KNIGHT,
    ACT_UPGRADE_SIEGE,
    H,
)
from gotsim.engine.tables import WesterosCard, WildlingCard
from gotsim.jit import njit
from gotsim.players.params import (
    P_AGGRESSION,
    P_BID_FIEFDOMS,
    P_BID_IRON_THRONE,
    P_BID_KINGS_COURT,
    P_DEFENCE,
    P_FORESIGHT,
    P_NOISE,
    P_POWER,
    P_VERSION,
    P_WILDLINGS,
)
from gotsim.players.values import home_sea_threat
from gotsim.players.view import (
    DRAGON,
    FOOTMAN,
    KNIGHT,
    SHIP,
    SIEGE,
    card_slot_by_strength,
    danger,
    ensure_view,
    houses_in_play,
    jitter,
    lose_chance,
    power_income,
    value_for,
)

UNIT_WORTH = (1.0, 2.0, 1.0, 1.5)  # footman, knight, ship, siege engine
HOME_GUARD = 1.5  # second heuristic: worth of an army mustered in a threatened, unheld home


@njit
def _enemy_forts_near(g, t, house: int, a: int) -> int:
    """Castles and strongholds next to ``a`` held by other houses (targets for siege engines)."""
    n = 0
    for j in range(t.neighbours.shape[1]):
        b = t.neighbours[a, j]
        if b < 0:
            break
        if t.kind[b] == LAND and is_fort(g, t, b):
            c = controller(g, t, b)
            if c != house and (c >= 0 or g.neutral[b] == 0):
                n += 1
    return n


@njit
def _ship_worth(g, t, memo, house: int, s: int) -> float:
    """Worth of a new ship in sea (or port) ``s``: coasts it serves, enemy ships near."""
    v = 0.7
    sea = s if t.kind[s] == SEA else t.port_sea[s]
    if t.kind[s] == PORT:
        v -= 0.2  # bottled up until it sails
    mine = 0
    theirs = 0
    for j in range(t.neighbours.shape[1]):
        b = t.neighbours[sea, j]
        if b < 0:
            break
        if t.kind[b] == LAND and g.owner[b] == house:
            v += 0.1
        if g.owner[b] >= 0 and t.kind[b] != LAND:
            if g.owner[b] == house:
                mine += g.units[b, SHIP]
            else:
                theirs += g.units[b, SHIP]
    if g.owner[sea] >= 0 and g.owner[sea] != house:
        theirs += g.units[sea, SHIP]
    elif g.owner[sea] == house:
        mine += g.units[sea, SHIP]
    # rival fleets off this coast support their attacks and carry their armies: match them
    if theirs > mine:
        v += 0.25 * min(theirs - mine, 4)
    if g.owner[sea] == house:
        v += 0.1
    else:
        # armies in a coastal area with few land neighbours go nowhere without ships
        for j in range(t.neighbours.shape[1]):
            b = t.neighbours[sea, j]
            if b < 0:
                break
            if t.kind[b] == LAND and g.owner[b] == house and _land_neighbours(t, b) <= 1:
                v += 1.0
                break
    return v


@njit
def _land_neighbours(t, a: int) -> int:
    n = 0
    for j in range(t.neighbours.shape[1]):
        b = t.neighbours[a, j]
        if b < 0:
            break
        if t.kind[b] == LAND:
            n += 1
    return n


@njit
def muster(g, t, house: int, mask, params, memo) -> int:
    """MUSTER: knights where danger or attacks loom, footmen otherwise, ships where the sea is
    contested, siege engines next to enemy castles; upgrades when a point is left."""
    ensure_view(g, t, memo)
    area = g.ctx[0]
    points = g.ctx[1]
    d = danger(g, t, memo, house, area)
    guard = 0.0
    if params[P_VERSION] >= 2.0 and t.home[area] == house:
        # the second heuristic puts an army in a home held by its garrison alone when an attack
        # could beat the garrison (armies that ships could land there counted)
        d = max(d, home_sea_threat(g, t, house, area))
        if g.units[area, FOOTMAN] + g.units[area, KNIGHT] == 0 and d > g.garrison[area]:
            guard = HOME_GUARD
    front = min(d, 6.0) / 6.0
    forts = _enemy_forts_near(g, t, house, area)
    best = 0.0
    best_a = ACT_NONE
    for action in range(t.n_areas):
        if mask[action]:
            v = _ship_worth(g, t, memo, house, action)
            if v > best:
                best = v
                best_a = action
    cand = (ACT_FOOTMAN, ACT_KNIGHT, ACT_SIEGE, ACT_UPGRADE_KNIGHT, ACT_UPGRADE_SIEGE)
    for action in cand:
        if not mask[action]:
            continue
        if action == ACT_FOOTMAN:
            v = 1.0 + 0.3 * front + guard
            if points >= t.muster_cost[KNIGHT]:
                v -= 0.15  # a knight uses the points on one supply slot
        elif action == ACT_KNIGHT:
            v = 2.1 + 0.5 * front + guard
        elif action == ACT_SIEGE:
            v = 0.4 + (1.4 * params[P_AGGRESSION] + 0.4 if forts > 0 else 0.0)
        elif action == ACT_UPGRADE_KNIGHT:
            v = 1.1 + 0.3 * front
        else:
            v = 0.2 + (0.9 * params[P_AGGRESSION] if forts > 0 else 0.0)
        if v > best:
            best = v
            best_a = action
    return best_a


@njit
def _area_keep_worth(g, t, memo, house: int, a: int) -> float:
    """What a unit in ``a`` is worth keeping: the area's worth if it is the last unit, its
    danger."""
    v = 0.2 * danger(g, t, memo, house, a)
    if unit_count(g, a) <= 1:
        v += value_for(g, t, memo, house, a) * (0.5 if t.home[a] == house else 1.0)
    else:
        v += 0.1 * value_for(g, t, memo, house, a)
    return v


@njit
def supply_cut(g, t, house: int, mask, params, memo) -> int:
    ensure_view(g, t, memo)
    best = 1.0e9
    best_a = -1
    for a in range(t.n_areas):
        if mask[a]:
            v = _area_keep_worth(g, t, memo, house, a)
            if v < best:
                best = v
                best_a = a
    return best_a


@njit
def cheapest_unit(mask) -> int:
    """The unit type to lose first: footman, ship, siege engine, knight, dragon."""
    for u in (FOOTMAN, SHIP, SIEGE, KNIGHT, DRAGON):
        if mask[u]:
            return u
    return -1


@njit
def _max_other_power(g, house: int) -> int:
    best = 0
    for e in range(H):
        if e != house and g.in_play[e] and g.power[e] > best:
            best = g.power[e]
    return best


@njit
def _total_power(g) -> int:
    n = 0
    for e in range(H):
        if g.in_play[e]:
            n += g.power[e]
    return n


@njit
def bid(g, t, house: int, mask, params, memo) -> int:
    """BID: a track takes the house's share of power for it (more when it stands low), never
    more than outbids every rival; against the wildlings a fair share of the strength, more
    when the others' public power cannot cover theirs."""
    power = g.power[house]
    what = g.ctx[0]
    top = 0
    while top + 1 < mask.shape[0] and mask[top + 1]:
        top += 1
    if what == ws.WILDLINGS:
        strength = g.ctx[1]
        n = houses_in_play(g)
        everyone = _total_power(g)
        if everyone < strength:
            want = 1.0  # the attack cannot be stopped: just avoid bidding lowest
        else:
            # a fair share, or what the others (bidding their share, as far as their public
            # power goes) leave missing: losing costs every house units, the lowest more
            share = params[P_WILDLINGS] * strength / n
            others = 0.0
            for e in range(H):
                if e != house and g.in_play[e]:
                    others += min(float(g.power[e]), float(int(share + 0.5)))
            want = max(share, min(strength - others + 0.5, 0.6 * power))
        if power >= 3 and want < 1.0:
            want = 1.0
        b = int(want + 0.5)
        return max(0, min(b, top, power))
    b = _track_bid(g, t, house, what, params, top)
    if params[P_VERSION] >= 2.0 and params[P_FORESIGHT] > 0.5:
        b = _trimmed_bid(g, t, house, what, b, params)
    if params[P_VERSION] >= 2.0 and params[P_NOISE] > 0.0 and b > 0:
        b = _mixed_bid(g, house, b, min(top, int(g.power[house])), params[P_NOISE])
    return b


BID_SPREAD = 2.5  # a track bid varies by up to this many times ``noise`` (second heuristic)


@njit
def _mixed_bid(g, house: int, b: int, most: int, noise: float) -> int:
    """Second heuristic: the bid varied by up to ``BID_SPREAD`` × ``noise`` of itself (the house's
    own random stream), rounded at random, so that no rival can count on outbidding it by one."""
    x = b * jitter(g, house, BID_SPREAD * noise)
    lo = int(x)
    if jitter(g, house, 1.0) - 1.0 < 2.0 * (x - lo) - 1.0:
        lo += 1
    return max(0, min(lo, most))


@njit
def _track_bid(g, t, house: int, what: int, params, top: int) -> int:
    """The house's bid on influence track ``what``: its share of power for the track, more when
    it stands low, never more than outbids every rival (nor above ``top``)."""
    power = g.power[house]
    share = params[P_BID_IRON_THRONE]
    if what == 1:
        share = params[P_BID_FIEFDOMS]
    elif what == 2:
        share = params[P_BID_KINGS_COURT]
    pos = 0
    for p in range(t.players):
        if g.track[what, p] == house:
            pos = p
    need = 1.0 + 0.25 * pos  # the lower a house stands, the more a better place is worth
    if what == 2 and t.stars[min(pos, t.players - 1)] == 0:
        need += 0.3
    if what == 0 and pos == 0:
        need += 0.2  # the throne decides ties: worth keeping
    budget = power * share * need
    rival = _max_other_power(g, house)
    b = int(budget + 0.5)
    if b > rival + 1:
        b = rival + 1  # enough to outbid everyone
    return max(0, min(b, top, power))


@njit
def _place_with(g, house: int, b: int, bids) -> int:
    """The house's place (0 = top) on the track with bid ``b`` against the others' ``bids``
    (-1: not bidding); a tie counts as lost unless the house holds the Iron Throne, which
    breaks ties."""
    keeps_ties = g.track[0, 0] == house
    place = 0
    for e in range(H):
        if e == house or bids[e] < 0:
            continue
        if bids[e] > b or (bids[e] == b and not keeps_ties):
            place += 1
    return place


@njit
def _trimmed_bid(g, t, house: int, what: int, b: int, params) -> int:
    """Second heuristic with ``foresight``: the other houses' bids predicted by its own rule in
    their place (their public power and places, its parameters); the bid is cut to the least that
    still wins the place ``b`` wins against them, one token more as a margin, and to nothing when
    bidding nothing places as well."""
    bids = np.full(H, -1, np.int64)
    for e in range(H):
        if e != house and g.in_play[e]:
            bids[e] = _track_bid(g, t, e, what, params, g.power[e])
    want = _place_with(g, house, b, bids)
    if _place_with(g, house, 0, bids) <= want:
        return 0
    least = b
    while least > 0 and _place_with(g, house, least - 1, bids) <= want:
        least -= 1
    return min(b, least + 1)


@njit
def tie_order(g, t, house: int, mask, params, memo) -> int:
    """TIE_ORDER: the Iron Throne puts itself first, the weakest rival next; on wildling ties it
    names the strongest rival the lowest bidder and itself (else the weakest) the highest."""
    what = g.ctx[0]
    lowest_role = what == ws.WILDLINGS and g.ctx[1] == ws.ROLE_LOWEST
    if mask[house] and not lowest_role:
        return house
    best = -1.0e9
    best_h = -1
    for e in range(H):
        if not mask[e]:
            continue
        c = castles_held(g, t, e) + 0.05 * g.power[e]
        v = c if lowest_role else -c
        if lowest_role and e == house:
            v = -1.0e6
        if v > best:
            best = v
            best_h = e
    return best_h


@njit
def _income(g, t, house: int) -> int:
    n = 0
    for a in range(t.n_areas):
        if t.kind[a] == LAND and crowns_at(g, t, a) > 0 and controller(g, t, a) == house:
            n += crowns_at(g, t, a)
        elif t.kind[a] == PORT and g.owner[a] == house and g.units[a, SHIP] > 0:
            n += power_income(g, t, house, a)
    return n


@njit
def _muster_points(g, t, house: int) -> int:
    n = 0
    for a in range(t.n_areas):
        points = muster_points_at(g, t, a)
        if points > 0 and controller(g, t, a) == house:
            n += points
    return n


@njit
def _versus_others(g, house: int, mine: float, total: float) -> float:
    """My value minus the mean of the other houses'."""
    n = 0
    for e in range(H):
        if g.in_play[e]:
            n += 1
    if n <= 1:
        return mine
    return mine - (total - mine) / (n - 1)


@njit
def _burden_of_power(g, t, house: int) -> int:
    """The Burden of Power: reset the wildling threat (0) when it stands at 8 or more and this
    house is short of power for the bidding or gains no more from a mustering than the others;
    else every house musters (1) when it gains more than the others."""
    mus_total = 0.0
    pow_total = 0.0
    for e in range(H):
        if g.in_play[e]:
            mus_total += float(_muster_points(g, t, e))
            pow_total += float(g.power[e])
    vm = _versus_others(g, house, float(_muster_points(g, t, house)), mus_total)
    vp = _versus_others(g, house, float(g.power[house]), pow_total)
    if g.threat >= 8 and (vp < 0.0 or vm <= 0.0):
        return 0
    if vm > 0.0 or g.threat == 0:
        return 1
    return 0


@njit
def westeros_choice(g, t, house: int, mask, params, memo) -> int:
    """WESTEROS_CHOICE: the option that helps this house more than the others."""
    ensure_view(g, t, memo)
    card = g.ctx[0]
    if card == WesterosCard.A_THRONE_OF_BLADES:
        sup_total = 0.0
        mus_total = 0.0
        sup_mine = 0.0
        mus_mine = 0.0
        for e in range(H):
            if g.in_play[e]:
                s = float(barrels_held(g, t, e) - g.supply[e])
                m = float(_muster_points(g, t, e))
                sup_total += s
                mus_total += m
                if e == house:
                    sup_mine = s
                    mus_mine = m
        vs = 1.2 * _versus_others(g, house, sup_mine, sup_total)
        vm = 0.5 * _versus_others(g, house, mus_mine, mus_total)
        if vs > 0.0 and vs >= vm:
            return 0
        if vm > 0.0:
            return 1
        return 2
    if card == WesterosCard.THE_BURDEN_OF_POWER:
        return _burden_of_power(g, t, house)
    if card == WesterosCard.DARK_WINGS_DARK_WORDS:
        inc_total = 0.0
        inc_mine = 0.0
        pow_total = 0.0
        for e in range(H):
            if g.in_play[e]:
                i = float(_income(g, t, e))
                inc_total += i
                pow_total += g.power[e]
                if e == house:
                    inc_mine = i
        vg = _versus_others(g, house, inc_mine, inc_total) * (0.5 + params[P_POWER])
        vc = 0.3 * _versus_others(g, house, float(g.power[house]), pow_total) - 1.0
        if vg > 0.0 and vg >= vc:
            return 1
        if vc > 0.0:
            return 0
        return 2
    # Put to the Sword: forbid what the neighbours would use against this house
    mine_out = 0.0
    mine_in = 0.0
    for a in range(t.n_areas):
        if g.owner[a] == house:
            mine_in += danger(g, t, memo, house, a)
        elif g.owner[a] >= 0:
            mine_out += float(memo.threat[house, a])
    if mine_in > mine_out * (0.5 + params[P_AGGRESSION]):
        return 1
    if mine_out > 0.0:
        return 0
    return 2


@njit
def wildling_choice(g, t, house: int, mask, params, memo) -> int:
    card = g.ctx[0]
    if card == WildlingCard.PREEMPTIVE_RAID:
        units = 0
        for a in range(t.n_areas):
            if g.owner[a] == house:
                units += unit_count(g, a)
        best_pos = t.players
        for track in range(3):
            for p in range(t.players):
                if g.track[track, p] == house and p < best_pos:
                    best_pos = p
        return 0 if units >= 10 and best_pos == 0 else 1
    if card == WildlingCard.MASSING_ON_THE_MILKWATER:
        return card_slot_by_strength(t, house, mask, -1, -1)
    if card == WildlingCard.MAMMOTH_RIDERS:
        return card_slot_by_strength(t, house, mask, 1, ACT_NONE)
    # The Horde Descends: muster in the stronghold (else castle) most in danger
    ensure_view(g, t, memo)
    best_v = -1.0
    best_a = ACT_NONE
    for a in range(t.n_areas):
        if mask[a]:
            v = muster_points_at(g, t, a) + 0.2 * danger(g, t, memo, house, a)
            if v > best_v:
                best_v = v
                best_a = a
    return best_a


@njit
def destroy_unit(g, t, house: int, mask, params, memo) -> int:
    """DESTROY_UNIT: from the area where a unit is worth least."""
    ensure_view(g, t, memo)
    best = 1.0e9
    best_a = -1
    for a in range(t.n_areas):
        if mask[a]:
            cheapest = 9.0
            for u in range(4):
                if g.units[a, u] > 0 and UNIT_WORTH[u] < cheapest:
                    cheapest = UNIT_WORTH[u]
            v = cheapest + _area_keep_worth(g, t, memo, house, a)
            if v < best:
                best = v
                best_a = a
    return best_a


@njit
def crow_killers(g, t, house: int, mask, params, memo) -> int:
    """CROW_KILLERS: keep knights where they matter (lowest bidder), give up those that matter
    least (everyone else), upgrade where the danger is (highest bidder)."""
    ensure_view(g, t, memo)
    role = g.ctx[0]
    best = -1.0e9
    best_a = ACT_NONE if mask[ACT_NONE] else -1
    for a in range(t.n_areas):
        if not mask[a]:
            continue
        v = danger(g, t, memo, house, a) + 0.3 * value_for(g, t, memo, house, a)
        if role == ws.ROLE_OTHER:
            v = -v
        if v > best:
            best = v
            best_a = a
    return best_a


@njit
def _track_worth(t, track: int, pos: int) -> float:
    n = t.players
    if track == 2:
        return 1.2 * t.stars[min(pos, n - 1)] + (1.5 if pos == 0 else 0.0)
    w = 1.0 if track == 0 else 0.8
    return w * (n - 1 - pos) / (n - 1) * 2.0 + (2.0 if pos == 0 else 0.0)


@njit
def _position(g, track: int, house: int) -> int:
    for p in range(H):
        if g.track[track, p] == house:
            return p
    return H - 1


@njit
def track_choice(g, t, house: int, mask, params, memo) -> int:
    """TRACK_CHOICE: to the top where it gains most, to the bottom where it loses least, and an
    Iron Throne choosing for another house's drop picks the track where that house loses most."""
    code = g.ctx[0]
    who = g.ctx[1]
    best = -1.0e9
    best_k = -1
    for track in range(3):
        if not mask[track]:
            continue
        pos = _position(g, track, who)
        if code == ws.TC_KING_TOP:
            v = _track_worth(t, track, 0) - _track_worth(t, track, pos)
        elif code == ws.TC_KING_BOTTOM:
            v = -(_track_worth(t, track, pos) - _track_worth(t, track, t.players - 1))
        else:
            drop = min(pos + 2, t.players - 1)
            v = _track_worth(t, track, pos) - _track_worth(t, track, drop)
            if who == house:
                v = -v
        if v > best:
            best = v
            best_k = track
    return best_k


@njit
def consolidate_choice(g, t, house: int, mask, params, memo) -> int:
    """CONSOLIDATE_CHOICE: muster when danger is near or power is plentiful, else take power."""
    ensure_view(g, t, memo)
    a = g.ctx[0]
    d = danger(g, t, memo, house, a)
    points = muster_points_at(g, t, a)
    if not ws.can_muster(g, t, house, a, points):
        return 0
    income = power_income(g, t, house, a)
    muster_v = 0.8 * points * (0.6 + 0.3 * min(d, 4.0)) * (0.5 + params[P_DEFENCE])
    power_v = income * (0.3 + 0.7 * params[P_POWER]) * (1.5 if g.power[house] < 3 else 1.0)
    if lose_chance(d, 0.0) > 0.0:
        muster_v += 0.5
    return 1 if muster_v > power_v else 0


__all__ = [
    "bid",
    "cheapest_unit",
    "consolidate_choice",
    "crow_killers",
    "destroy_unit",
    "muster",
    "supply_cut",
    "tie_order",
    "track_choice",
    "westeros_choice",
    "wildling_choice",
]
