"""Shortcuts of the compiled heuristic against their plain recounts: the action phase's danger and
enemy marches in one pass, every house's supports in one pass, the position worth from the
castle neighbours, the support worths of the order plan recounted only where a planned order
changed them, a march's reach kept while its units are assigned, the march orders left read
from the engine's token counts, the march to resolve and each unit's destination chosen
without the legal mask, the raid worths from the march targets listed once, and the board
tables copied to a batch of memos. Heuristic games are stepped decision by decision, as the
batch loop plays them, and each shortcut is compared with the plain count of the same thing.
"""

# ruff: noqa: SIM109

from __future__ import annotations

import numpy as np

from gotsim.engine.area_bits import has_bit, read_bits
from gotsim.engine.board_state import LAND, SEA, controller
from gotsim.engine.init import new_games
from gotsim.engine.machine import advance, apply_legal, legal
from gotsim.engine.marches import transport_reach_bits
from gotsim.engine.state import N_ACTIONS, ORDER_TYPE, Decision, Phase
from gotsim.engine.tables import rules_table
from gotsim.jit import njit
from gotsim.players.heuristic import (
    heuristic_action,
    heuristic_march_from,
    heuristic_march_unit,
    heuristic_place_order,
)
from gotsim.players.marching import (
    _danger_and_marches,
    enemy_marches_next_to,
    march_key,
    plan_march,
    supports_by_house,
)
from gotsim.players.memo import new_memos
from gotsim.players.orders import plan_orders
from gotsim.players.params import DEFAULTS
from gotsim.players.raids import _march_targets, _raid_value
from gotsim.players.values import lead_of, position_value
from gotsim.players.view import (
    O_CONSOLIDATE_STAR,
    O_SUPPORT_ONE,
    O_SUPPORT_ZERO,
    attack_strength,
    ensure_view,
    final_round,
    init_memo,
    init_memos,
    local_danger,
    support_reaches,
)

DANGER, SUPPORTS, POSITION, PLAN, REACH, MARCHING, MARCH_FROM, MARCH_UNIT, RAID = range(9)
N_CHECKS = 9


@njit
def supports_plain(g, t, x: int, house: int, exclude: int) -> float:
    """Strength of ``house``'s revealed support orders that can join a battle in ``x``."""
    s = 0.0
    for b in range(t.n_areas):
        if not t.adjacent[x, b] or b == exclude or g.owner[b] != house:
            continue
        k = g.order[b]
        if (k == O_SUPPORT_ZERO or k == O_SUPPORT_ONE) and support_reaches(t, b, x):
            s += attack_strength(g, t, b, x)
            if k == O_SUPPORT_ONE:
                s += 1.0
    return s


@njit
def position_plain(g, t, memo, house: int, a: int) -> float:
    """``position_value`` with every neighbour looked at (nothing in the second heuristic's
    last round)."""
    if final_round(g, t, memo, house):
        return 0.0
    v = 0.0
    if t.kind[a] != LAND:
        if t.kind[a] != SEA:
            return 0.0
        for y in range(t.n_areas):
            if t.adjacent[a, y] and t.kind[y] == LAND and g.owner[y] == house:
                v += 0.25
        return v
    for y in range(t.n_areas):
        if t.adjacent[a, y] and (t.castle[y] or t.stronghold[y]) and t.kind[y] == LAND:
            c = controller(g, t, y)
            if c != house:
                v += 0.1 * memo.base_value[y]
                if c >= 0:
                    v += 0.1 * lead_of(g, t, memo, house, c)
    return v


@njit
def raid_value_plain(g, t, house: int, x: int, memo) -> float:
    """``_raid_value`` with every march origin of the house looked at for each target."""
    kind = g.order[x]
    kt = ORDER_TYPE[kind]
    if kt == 5:
        return 1.2 + (0.4 if kind == O_CONSOLIDATE_STAR else 0.0)
    targeted = False
    for a in range(t.n_areas):
        y = memo.plan_target[house, a]
        marching = y >= 0 and g.owner[a] == house and 0 <= g.order[a] <= 2
        if marching and (y == x or support_reaches(t, x, y)):
            targeted = True
    if kt == 3:
        near_me = False
        for y in range(t.n_areas):
            if t.adjacent[x, y] and g.owner[y] == house and support_reaches(t, x, y):
                near_me = True
        return 0.5 + (1.0 if targeted else 0.0) + (0.4 if near_me else 0.0)
    if kt == 4:
        return 0.6
    if kt == 2:
        return 1.5 if targeted else 0.3
    return 0.1


@njit
def _check(g, t, memo, bad, seen) -> None:
    sup = memo.sup_sum
    if g.phase == Phase.MARCHES:
        ensure_view(g, t, memo)  # as the heuristic does before it looks at the action phase
        # the march orders left and their houses, as the view counts them from the tokens
        seen[MARCHING] += 1
        marching = 0
        for a in range(t.n_areas):
            if 0 <= g.order[a] <= 2:
                if g.owner[a] < 0:
                    bad[MARCHING] += 1  # an order without units would escape the count
                else:
                    marching |= 1 << g.owner[a]
        if marching != memo.marching:
            bad[MARCHING] += 1
    for a in range(t.n_areas):
        for house in range(6):
            if not g.in_play[house]:
                continue
            seen[POSITION] += 1
            if position_value(g, t, memo, house, a) != position_plain(g, t, memo, house, a):
                bad[POSITION] += 1
            if g.phase == Phase.MARCHES:
                seen[DANGER] += 1
                d, now = _danger_and_marches(g, t, memo, house, a)
                if d != local_danger(g, t, memo, house, a):
                    bad[DANGER] += 1
                if now != enemy_marches_next_to(g, t, house, a):
                    bad[DANGER] += 1
            exclude = a if a % 3 == 0 else -1  # with and without a marching origin left out
            supports_by_house(g, t, a, house, exclude, sup)
            for e in range(6):
                seen[SUPPORTS] += 1
                if sup[e] != supports_plain(g, t, a, e, exclude if e == house else -1):
                    bad[SUPPORTS] += 1


@njit
def _play(games, rules, params, memos, spare_g, spare_m, bad, seen) -> None:
    """Heuristic games; at every few decisions the shortcuts are checked, and before each order
    plan the plan is also made with every support worth recounted, on copies."""
    t = rules[0]
    mask = np.zeros(N_ACTIONS, np.bool_)
    for i in range(games.shape[0]):
        g = games[i]
        memo = memos[i]
        made = 0
        while made < 100_000:
            advance(g, t)
            if g.done or g.pending == Decision.NONE:
                break
            legal(g, t, mask)
            house = np.int64(g.pending_house)
            if g.pending == Decision.PLACE_ORDER and memo.plan_key[house] != g.game_round:
                seen[PLAN] += 1
                spare_g[0] = g
                spare_m[0] = memo
                spare_m[1] = memo
                spare_g[1] = g
                plan_orders(spare_g[0], t, house, params, spare_m[0])
                plan_orders(spare_g[1], t, house, params, spare_m[1], True)
                for a in range(t.n_areas):
                    if spare_m[0].plan[house, a] != spare_m[1].plan[house, a]:
                        bad[PLAN] += 1
                        break
            if made % 5 == 0 and memo.ready:
                _check(g, t, memo, bad, seen)
            if g.pending == Decision.MARCH_UNIT:
                origin = g.ctx[0]
                kept = memo.march_key == march_key(g, origin) and memo.march_house == house
                if kept and t.kind[origin] == LAND:  # (ships do not read the reach)
                    # the march's reach kept in the memo is still the board's, less the blocked
                    # areas (which the engine refuses before it looks at the reach)
                    seen[REACH] += 1
                    reach = transport_reach_bits(g, t, house, origin)
                    kept_reach = read_bits(memo.march_reach)
                    for a in range(t.n_areas):
                        if has_bit(kept_reach, a) != (has_bit(reach, a) and not g.blocked[a]):
                            bad[REACH] += 1
                            break
                # answered as the batch loop does, without the mask, and checked against it and
                # against the plan's first destination in area order that the mask allows
                if not kept:
                    plan_march(g, t, house, origin, params, memo)
                unit = g.ctx[1]
                plain = origin
                for d in range(t.n_areas):
                    if d != origin and memo.march_move[d, unit] > 0 and mask[d]:
                        plain = d
                        break
                action = heuristic_march_unit(g, t, house, params, memo)
                seen[MARCH_UNIT] += 1
                if not mask[action]:
                    bad[REACH] += 1
                if action != plain:
                    bad[MARCH_UNIT] += 1
            elif g.pending == Decision.MARCH_FROM:
                seen[MARCH_FROM] += 1
                action = heuristic_march_from(g, t, house, params, memo)
                if action != heuristic_action(g, t, house, mask, params, memo):
                    bad[MARCH_FROM] += 1
            elif g.pending == Decision.RAID_FROM or g.pending == Decision.RAID_TARGET:
                targets = _march_targets(g, t, house, memo)
                for x in range(t.n_areas):
                    if g.order[x] >= 0 and g.owner[x] >= 0 and g.owner[x] != house:
                        seen[RAID] += 1
                        v = _raid_value(g, t, house, -1, x, memo, targets)
                        if v != raid_value_plain(g, t, house, x, memo):
                            bad[RAID] += 1
                action = heuristic_action(g, t, house, mask, params, memo)
            elif g.pending == Decision.PLACE_ORDER and made % 2 == 0:
                action = heuristic_place_order(g, t, house, mask, params, memo)
            else:
                action = heuristic_action(g, t, house, mask, params, memo)
            apply_legal(g, t, action)
            made += 1


def test_heuristic_shortcuts_agree_with_recounts() -> None:
    for edition, players in (("2e", 6), ("2e", 4), ("1e", 5)):
        rules = rules_table(edition, players)
        games = new_games(
            [np.random.SeedSequence(7, spawn_key=(i,)) for i in range(12)],
            edition=edition,
            players=players,
        )
        bad = np.zeros(N_CHECKS, np.int64)
        seen = np.zeros(N_CHECKS, np.int64)
        spare_g = np.zeros(2, games.dtype).view(np.recarray)
        spare_m = new_memos(2)
        _play(games, rules, np.array(DEFAULTS), new_memos(12), spare_g, spare_m, bad, seen)
        assert (games.done == 1).all()
        assert bad.tolist() == [0] * N_CHECKS, (edition, players, bad, seen)
        assert (seen > 0).all(), seen


def test_init_memos_copies_what_init_memo_fills() -> None:
    t = rules_table("2e", 5)[0]
    batch = new_memos(4)
    init_memos(t, batch)
    for i in range(4):
        one = new_memos(1)
        init_memo(t, one[0])
        assert batch[i].tobytes() == one[0].tobytes()
