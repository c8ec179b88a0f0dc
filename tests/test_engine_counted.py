"""Counted shortcuts of the engine against their plain recounts: castles held per house in one
pass, barrels over the barrel list, supply fits without sorting, the transport reach as a bit
set, march destinations (all of them, or one asked on its own), retreats and muster options
from army summaries and candidate lists, star orders counted once, the rules table's derived
lists, and reset heuristic memos. Random games of both editions are stepped decision by
decision and every shortcut is compared with a from-scratch count of the same fact (written
here the plain way: work arrays, every area, every action).
"""

# ruff: noqa: SIM109, SIM114

from __future__ import annotations

import numpy as np
import pytest

from gotsim.engine import combat as cb
from gotsim.engine.area_bits import has_bit
from gotsim.engine.battle import retreat_ok, side_house
from gotsim.engine.board_state import (
    LAND,
    PORT,
    SEA,
    armies_fit,
    army_summary,
    barrels_held,
    castles_by_house,
    castles_held,
    controller,
    summary_fits_with,
    unit_count,
)
from gotsim.engine.init import new_games
from gotsim.engine.machine import (
    advance,
    apply_legal,
    legal,
    order_allowed,
    order_allowed_counted,
    stars_allowed,
    stars_used,
)
from gotsim.engine.marches import (
    is_attack,
    march_destination_ok,
    neutral_within_reach,
    transport_reach,
    transport_reach_bits,
)
from gotsim.engine.rng import pick_from_mask
from gotsim.engine.state import (
    ACT_FOOTMAN,
    ACT_KNIGHT,
    ACT_NONE,
    ACT_SIEGE,
    ACT_UPGRADE_KNIGHT,
    ACT_UPGRADE_SIEGE,
    N_ACTIONS,
    N_ORDER_KINDS,
    ORDER_COUNT,
    ORDER_SEA_ONLY,
    ORDER_STAR,
    ORDER_TYPE,
    Decision,
    Order,
    Restriction,
)
from gotsim.engine.tables import rules_table
from gotsim.engine.westeros import (
    armies_within_supply,
    can_muster,
    muster_actions,
    muster_allowed,
    muster_bit,
    supply_excess,
)
from gotsim.jit import njit
from gotsim.play.runner import play_policies, play_policies_reused, pool_threads
from gotsim.players.memo import FRESH_WORDS, MEMO_DTYPE, fresh_memo, new_memos, reset_memos
from gotsim.players.params import policy_table
from gotsim.rules.board import load_board

FOOTMAN, KNIGHT, SHIP, SIEGE = 0, 1, 2, 3
# checks that failed, by kind
CASTLES, REACH, MARCH, MUSTER, RETREAT, ORDERS = range(6)
N_CHECKS = 6


# --- the plain recounts -------------------------------------------------------------------------


@njit
def castles_plain(g, t, house: int) -> int:
    n = 0
    for a in range(t.n_areas):
        if (t.castle[a] or t.stronghold[a]) and controller(g, t, a) == house:
            n += 1
    return n


@njit
def barrels_plain(g, t, house: int) -> int:
    n = 0
    for a in range(t.n_areas):
        if t.kind[a] == LAND and controller(g, t, a) == house:
            n += t.barrels[a]
    return min(n, 6)


@njit
def reach_plain(g, t, house: int, origin: int):
    """Land areas reachable from ``origin``: adjacent land, and land next to a chain of seas with
    the house's ships touching ``origin`` (a breadth-first search with work arrays)."""
    n = t.n_areas
    reach = np.zeros(n, np.bool_)
    seen = np.zeros(n, np.bool_)
    queue = np.zeros(n, np.int64)
    tail = 0
    for b in range(n):
        if t.adjacent[origin, b]:
            if t.kind[b] == LAND:
                reach[b] = True
            elif t.kind[b] == SEA and g.owner[b] == house and g.units[b, SHIP] > 0:
                seen[b] = True
                queue[tail] = b
                tail += 1
    head = 0
    while head < tail:
        sea = queue[head]
        head += 1
        for b in range(n):
            if not t.adjacent[sea, b]:
                continue
            if t.kind[b] == LAND:
                reach[b] = True
            elif t.kind[b] == SEA and not seen[b] and g.owner[b] == house and g.units[b, SHIP] > 0:
                seen[b] = True
                queue[tail] = b
                tail += 1
    reach[origin] = False
    return reach


@njit
def march_mask_plain(g, t, house: int, origin: int, unit: int, mask) -> None:
    """Every area checked in turn, the supply with the whole count array recounted per area."""
    n = t.n_areas
    reach = reach_plain(g, t, house, origin)
    counts = np.zeros(n, np.int64)
    leaving = 0
    for a in range(n):
        m = g.moving[a, 0] + g.moving[a, 1] + g.moving[a, 2] + g.moving[a, 3]
        counts[a] = m + (unit_count(g, a) if g.owner[a] == house else 0)
        leaving += m
    counts[origin] -= leaving
    mask[:] = False
    for dest in range(n):
        ok = True
        if dest == origin:
            mask[dest] = True
            continue
        if g.blocked[dest]:
            ok = False
        elif unit == SHIP:
            if not t.adjacent[origin, dest]:
                ok = False
            elif t.kind[dest] == PORT:
                ships = g.units[dest, SHIP] if g.owner[dest] == house else 0
                if controller(g, t, t.port_land[dest]) != house:
                    ok = False
                elif ships + g.moving[dest, SHIP] >= 3:
                    ok = False
            elif t.kind[dest] != SEA:
                ok = False
        elif not reach[dest]:
            ok = False
        if ok and is_attack(g, t, house, dest):
            if g.march_target >= 0 and g.march_target != dest:
                ok = False
            elif unit == SHIP and g.neutral[dest] > 0 and t.edition == 2:
                ok = False
            elif g.neutral[dest] > 0 and t.edition == 2:
                # the rule, not a shortcut; none after a plan attacking one fell short
                ok = not g.march_replanned and neutral_within_reach(g, t, house, origin, dest)
        if ok:
            counts[dest] += 1
            counts[origin] -= 1
            ok = armies_fit(counts, t.supply_table[g.supply[house]])
            counts[dest] -= 1
            counts[origin] += 1
        if t.edition == 1 and unit == SIEGE and not t.adjacent[origin, dest]:
            ok = False
        mask[dest] = ok


@njit
def army_fits_plain(g, t, house: int, area: int) -> bool:
    counts = np.zeros(t.n_areas, np.int64)
    for a in range(t.n_areas):
        if g.owner[a] == house:
            counts[a] = unit_count(g, a)
    counts[area] += 1
    return armies_fit(counts, t.supply_table[g.supply[house]])


@njit
def muster_plain(g, t, house: int, area: int, points: int, action: int) -> bool:
    """A muster action checked from the rules: cost, the reserve counted over the board, supply,
    and for a ship an adjacent free sea or the area's own port with room."""
    if points < 1:
        return False
    on_board = np.zeros(4, np.int64)
    for a in range(t.n_areas):
        if g.owner[a] == house:
            for u in range(4):
                on_board[u] += g.units[a, u]
    left = np.zeros(4, np.int64)
    for u in range(4):
        left[u] = t.unit_limits[house, u] - on_board[u]
    if action == ACT_FOOTMAN:
        return left[FOOTMAN] > 0 and army_fits_plain(g, t, house, area)
    if action == ACT_KNIGHT:
        return points >= 2 and left[KNIGHT] > 0 and army_fits_plain(g, t, house, area)
    if action == ACT_SIEGE:
        return points >= 2 and left[SIEGE] > 0 and army_fits_plain(g, t, house, area)
    if action == ACT_UPGRADE_KNIGHT or action == ACT_UPGRADE_SIEGE:
        u = KNIGHT if action == ACT_UPGRADE_KNIGHT else SIEGE
        return g.owner[area] == house and g.units[area, FOOTMAN] > 0 and left[u] > 0
    if action < 0 or action >= t.n_areas or left[SHIP] <= 0:
        return False
    s = action
    if s == area or g.blocked[s]:
        return False
    if t.kind[s] == SEA:
        if not t.adjacent[area, s]:
            return False
    elif t.kind[s] != PORT or t.port_land[s] != area:
        return False
    if (g.owner[s] >= 0 and g.owner[s] != house) or g.neutral[s] > 0:
        return False
    if t.kind[s] == PORT and g.units[s, SHIP] >= 3:
        return False
    return army_fits_plain(g, t, house, s)


@njit
def retreat_plain(g, t, mask) -> int:
    """Every area checked, the supply recounted afresh with the survivors (less the losses tried
    one by one) added to each; the areas losing fewest units are legal."""
    target, origin = g.combat_area, g.combat_from
    side = g.ctx[1]
    house = side_house(g, side)
    naval = t.kind[target] != LAND
    reach = reach_plain(g, t, house, target)
    survivors = 0
    counts = np.zeros(t.n_areas, np.int64)
    for a in range(t.n_areas):
        if g.owner[a] == house and a != target:
            counts[a] = unit_count(g, a)
    for u in range(4):
        if u != SIEGE:
            if side == 0:
                survivors += g.moving[target, u]
            else:
                survivors += g.units[target, u] - g.routed[target, u]
    if side == 0:
        for u in range(4):
            counts[origin] -= g.moving[target, u]
    loss = np.full(t.n_areas, 1 << 20, np.int64)
    best = 1 << 20
    for dest in range(t.n_areas):
        if side == 0 and dest == origin:
            ok = True
        else:
            barred = origin if side == 1 else -1
            ok = retreat_ok(g, t, house, target, dest, barred, naval, survivors)
            ok = ok and (naval or reach[dest])
        if ok:
            for lost in range(survivors + 1):
                counts[dest] += survivors - lost
                fits = armies_fit(counts, t.supply_table[g.supply[house]])
                counts[dest] -= survivors - lost
                if fits or lost == survivors:
                    loss[dest] = lost
                    break
            best = min(best, loss[dest])
    n = 0
    for dest in range(t.n_areas):
        mask[dest] = loss[dest] == best and best < (1 << 20)
        n += mask[dest]
    return n


SEA_IRON_BANK = int(Order.SEA_IRON_BANK)


@njit
def order_allowed_plain(g, t, house: int, area: int, kind: int, replacing: int) -> bool:
    """The star orders in use counted afresh (the replaced one given back), then the tokens and
    this round's restrictions."""
    tokens = ORDER_COUNT[kind] if not ORDER_SEA_ONLY[kind] or t.sea_orders else 0
    if kind == SEA_IRON_BANK:  # (Mother of Dragons' Iron Bank token: only with the bank)
        tokens = ORDER_COUNT[kind] if t.iron_bank else 0
    if g.orders_used[house, kind] - (1 if kind == replacing else 0) >= tokens:
        return False
    if ORDER_SEA_ONLY[kind] and t.kind[area] != 1:  # (Mother of Dragons' sea tokens: seas only)
        return False
    if ORDER_STAR[kind]:
        in_use = 0
        for k in range(N_ORDER_KINDS):
            if ORDER_STAR[k]:
                in_use += g.orders_used[house, k]
        if replacing >= 0 and ORDER_STAR[replacing]:
            in_use -= 1
        if in_use >= stars_allowed(g, t, house):
            return False
    kind_type = ORDER_TYPE[kind]
    if kind_type == 5 and t.edition == 1 and t.kind[area] != LAND:
        return False
    r = g.restrict
    if kind_type == 2 and r & Restriction.NO_DEFENSE:
        return False
    if kind == 2 and r & Restriction.NO_MARCH_PLUS:
        return False
    if kind_type == 4 and r & Restriction.NO_RAID:
        return False
    if kind_type == 3 and r & Restriction.NO_SUPPORT:
        return False
    return not (kind_type == 5 and r & Restriction.NO_CONSOLIDATE)


# --- the harness --------------------------------------------------------------------------------


@njit
def _check_state(g, t, bad, seen) -> None:
    """Compare every shortcut with its recount in the state of ``g``."""
    n = t.n_areas
    packed = castles_by_house(g, t)
    for house in range(6):
        seen[CASTLES] += 1
        plain = castles_plain(g, t, house)
        if ((packed >> (8 * house)) & 0xFF) != plain or castles_held(g, t, house) != plain:
            bad[CASTLES] += 1
        if barrels_held(g, t, house) != barrels_plain(g, t, house):
            bad[CASTLES] += 1
        if g.in_play[house] and armies_within_supply(g, t, house) != (
            supply_excess(g, t, house, g.supply[house], -1) == 0
        ):
            bad[CASTLES] += 1
    reach = np.zeros(n, np.bool_)
    for a in range(n):
        house = g.owner[a]
        if house < 0 or t.kind[a] != LAND:
            continue
        seen[REACH] += 1
        bits = transport_reach_bits(g, t, house, a)
        transport_reach(g, t, house, a, reach)
        plain = reach_plain(g, t, house, a)
        for b in range(n):
            if has_bit(bits, b) != plain[b] or reach[b] != plain[b]:
                bad[REACH] += 1
                break
        # muster options of the house's castle areas, with every number of points
        if t.muster_points[a] > 0:
            for points in range(3):
                seen[MUSTER] += 1
                actions = muster_actions(g, t, house, a, points)
                any_plain = False
                for action in range(ACT_NONE):
                    any_plain = any_plain or muster_plain(g, t, house, a, points, action)
                mine = points > 0 and controller(g, t, a) == house
                if can_muster(g, t, house, a, points) != (mine and any_plain):
                    bad[MUSTER] += 1
                for action in range(ACT_NONE):
                    bit = muster_bit(action)
                    fast = bit >= 0 and has_bit(actions, bit)
                    if fast != muster_plain(g, t, house, a, points, action):
                        bad[MUSTER] += 1
                        break
                    if muster_allowed(g, t, house, a, points, action) != fast:
                        bad[MUSTER] += 1
                        break
        # star orders counted once against counting them per kind
        free = stars_allowed(g, t, house) - stars_used(g, house)
        for r in range(2):
            replacing = -1 if r == 0 else int(g.order[a])
            for kind in range(N_ORDER_KINDS):
                seen[ORDERS] += 1
                plain_ok = order_allowed_plain(g, t, house, a, kind, replacing)
                fast = order_allowed_counted(g, t, house, a, kind, replacing, free)
                if fast != plain_ok or order_allowed(g, t, house, a, kind, replacing) != plain_ok:
                    bad[ORDERS] += 1


@njit
def _play_and_check(games, rules, bad, seen, every: int) -> None:
    t = rules[0]
    mask = np.zeros(N_ACTIONS, np.bool_)
    plain = np.zeros(N_ACTIONS, np.bool_)
    for i in range(games.shape[0]):
        g = games[i]
        made = 0
        while made < 100_000:
            advance(g, t)
            if g.done or g.pending == Decision.NONE:
                break
            legal(g, t, mask)
            kind = g.pending
            if kind == Decision.MARCH_UNIT:
                seen[MARCH] += 1
                house, origin, unit = g.pending_house, g.ctx[0], g.ctx[1]
                march_mask_plain(g, t, house, origin, unit, plain)
                for a in range(N_ACTIONS):
                    if mask[a] != plain[a]:
                        bad[MARCH] += 1
                        break
                reach = transport_reach_bits(g, t, house, origin)
                for a in range(t.n_areas):  # one destination asked on its own
                    if march_destination_ok(g, t, house, origin, unit, a, reach) != plain[a]:
                        bad[MARCH] += 1
                        break
            elif kind == Decision.RETREAT:
                seen[RETREAT] += 1
                plain[:] = False
                retreat_plain(g, t, plain)
                for a in range(N_ACTIONS):
                    if mask[a] != plain[a]:
                        bad[RETREAT] += 1
                        break
            elif kind == Decision.MUSTER:
                seen[MUSTER] += 1
                house, area, points = g.pending_house, g.ctx[0], g.ctx[1]
                for action in range(ACT_NONE):
                    if mask[action] != muster_plain(g, t, house, area, points, action):
                        bad[MUSTER] += 1
                        break
            if made % every == 0:
                _check_state(g, t, bad, seen)
            apply_legal(g, t, pick_from_mask(g.rng, 1 + g.pending_house, mask))
            made += 1


@pytest.mark.parametrize(
    ("edition", "players", "variants", "expansion"),
    [
        ("2e", 6, {}, None),
        ("2e", 4, {"tides_of_battle": True}, None),
        ("2e", 3, {}, None),
        ("1e", 5, {}, None),
        ("1e", 3, {"fortifications": True, "siege_engines": True}, None),
        ("2e", 7, {}, "mod"),  # Mother of Dragons: 61 areas, sea order tokens
    ],
)
def test_counted_shortcuts_agree_with_recounts(
    edition: str, players: int, variants: dict, expansion: str | None
) -> None:
    """In random games, at every decision of the kinds concerned and at every 7th decision for
    the whole board, each shortcut gives what its plain recount gives."""
    rules = rules_table(edition, players, variants, expansion)
    seeds = [np.random.SeedSequence(99, spawn_key=(i,)) for i in range(25)]
    games = new_games(seeds, edition=edition, players=players, expansion=expansion)
    bad = np.zeros(N_CHECKS, np.int64)
    seen = np.zeros(N_CHECKS, np.int64)
    _play_and_check(games, rules, bad, seen, 7)
    assert (games.done == 1).all()
    assert bad.tolist() == [0] * N_CHECKS, (bad, seen)
    assert (seen > 0).all(), seen  # every shortcut was exercised


def test_army_summary_matches_armies_fit() -> None:
    """Growing one area's count from a summary answers what counting the changed array does."""
    rng = np.random.default_rng(5)
    table = rules_table("2e", 6)[0]["supply_table"]
    for _ in range(3000):
        counts = rng.integers(0, 5, size=12).astype(np.int64)
        level = int(rng.integers(0, 7))
        area = int(rng.integers(0, 12))
        added = int(rng.integers(0, 4))
        summary = army_summary(counts)
        grown = counts.copy()
        grown[area] += added
        expected = armies_fit(grown, table[level])
        assert summary_fits_with(summary, int(counts[area]), added, table[level]) == expected


@pytest.mark.parametrize("edition", ["1e", "2e"])
def test_rules_table_lists(edition: str) -> None:
    """The castle list and the ships' muster targets are what the board says."""
    board = load_board(edition)
    t = rules_table(edition, 3)[0]
    n = board.n_areas
    forts = [a for a in range(n) if board.castle[a] or board.stronghold[a]]
    assert t["n_forts"] == len(forts)
    assert t["forts"][: len(forts)].tolist() == forts
    assert (t["forts"][len(forts) :] == -1).all()
    seas = [a for a in range(n) if board.kind[a] == SEA]
    assert t["n_seas"] == len(seas)
    assert t["seas"][: len(seas)].tolist() == seas
    barrels = [a for a in range(n) if board.kind[a] == LAND and board.supply[a] > 0]
    assert t["n_barrel_areas"] == len(barrels)
    assert t["barrel_areas"][: len(barrels)].tolist() == barrels
    for a in range(n):
        row = [s for s in t["ship_targets"][a] if s >= 0]
        expected = [
            s
            for s in range(n)
            if (board.kind[s] == SEA and board.adjacency[a, s])
            or (board.kind[s] == PORT and board.port_land[s] == a)
        ]
        assert row == expected, a
        near = [b for b in t["fort_neighbours"][a] if b >= 0]
        forts_next = [
            b
            for b in board.neighbours[a]
            if b >= 0 and board.kind[b] == LAND and (board.castle[b] or board.stronghold[b])
        ]
        assert near == forts_next, a


def test_reset_memos_makes_them_fresh() -> None:
    """A memo used by a game and reset is byte for byte a new one, but for the work space after
    ``FRESH_WORDS`` (read only where a key before it says it is filled)."""
    memos = new_memos(pool_threads())  # one per thread: the batch loop plays in these
    rules = rules_table("2e", 6)
    games = new_games([np.random.SeedSequence(4, spawn_key=(i,)) for i in range(3)])
    kinds, params = policy_table("heuristic")
    play_policies(
        games,
        rules,
        np.ascontiguousarray(np.broadcast_to(kinds, (3, *kinds.shape))),
        np.ascontiguousarray(np.broadcast_to(params, (3, *params.shape))),
        memos,
        1_000_000,
    )

    def head(m: np.ndarray) -> bytes:
        return m.view(np.uint64).reshape(len(m), -1)[:, :FRESH_WORDS].tobytes()

    fresh = new_memos(len(memos))
    assert head(memos) != head(fresh)
    assert memos.tobytes() != fresh.tobytes()
    reset_memos(memos)
    assert head(memos) == head(fresh)
    assert (memos.ev_key == -1).all()  # (the kept evaluations dropped)


def test_reused_memos_play_as_fresh_ones() -> None:
    """Memos left by other games, one per thread and made fresh by it before each game, play
    the same games as fresh ones."""
    rules = rules_table("2e", 6)
    kinds, params = policy_table("heuristic")
    kinds_n = np.ascontiguousarray(np.broadcast_to(kinds, (4, *kinds.shape)))
    params_n = np.ascontiguousarray(np.broadcast_to(params, (4, *params.shape)))

    def games(first: int) -> np.recarray:
        return new_games(
            [np.random.SeedSequence(4, spawn_key=(i,)) for i in range(first, first + 4)]
        )

    fresh = games(10)
    play_policies(fresh, rules, kinds_n, params_n, new_memos(4), 1_000_000)
    memos = new_memos(max(4, pool_threads()))  # one per thread at least
    play_policies(games(0), rules, kinds_n, params_n, memos, 1_000_000)  # dirty them
    reused = games(10)
    words = memos.view(np.uint64).reshape(len(memos), -1)
    play_policies_reused(reused, rules, kinds_n, params_n, memos, words, fresh_memo(rules), 10**6)
    assert reused.tobytes() == fresh.tobytes()
    memo = np.zeros(1, MEMO_DTYPE)
    memo.view(np.uint64)[:FRESH_WORDS] = fresh_memo(rules)
    assert memo["ready"] == 1


def test_ship_strengths_match_ship_strength() -> None:
    """Salladhor Saan looked for once per strength count gives every side's ship strengths."""
    t = rules_table("2e", 6)[0]
    ability = t["card_ability"]
    salladhor = [c for c in range(len(ability)) if ability[c] == cb.Ability.SALLADHOR]
    other = [c for c in range(len(ability)) if ability[c] != cb.Ability.SALLADHOR]
    rng = np.random.default_rng(3)
    for _ in range(400):
        b = cb.new_battle()
        for side in (cb.ATTACKER, cb.DEFENDER):
            o = side * cb.SIDE
            pick = rng.integers(3)
            b[o + cb.CARD] = -1 if pick == 0 else int(rng.choice(salladhor if pick == 1 else other))
            b[o + cb.TEXT_IGNORED] = int(rng.integers(2)) if rng.random() < 0.2 else 0
            b[o + cb.SUPPORTERS] = int(rng.integers(2))
        own_att, own_def, allies = cb.ship_strengths(b, ability)
        assert own_att == cb._ship_strength(b, cb.ATTACKER, False, ability)
        assert own_def == cb._ship_strength(b, cb.DEFENDER, False, ability)
        assert allies == cb._ship_strength(b, cb.ATTACKER, True, ability)
        assert allies == cb._ship_strength(b, cb.DEFENDER, True, ability)
