"""What a house sees on the public board, in numbers: area values, unit strengths, the strength
each house can bring against each area, and the win chance of a battle over public hands.

Compiled (numba). Everything here reads only public facts: units, garrisons, neutral forces,
power tokens, tracks, discards — never orders during planning, bids, decks or hands of others.
"""

# ruff: noqa: SIM102, SIM110

from __future__ import annotations

import numpy as np

from gotsim.engine.board_state import (
    LAND,
    PORT,
    SEA,
    barrels_at,
    castle_level,
    castles_held,
    controller,
    crowns_at,
    is_fort,
    unit_count,
)
from gotsim.engine.dragons import dragon_strength
from gotsim.engine.loyalty import targaryen_points
from gotsim.engine.rng import next_u64
from gotsim.engine.state import H, Phase, U
from gotsim.jit import njit
from gotsim.players.objectives import objective_values
from gotsim.players.params import GUESS, P_VERSION
from gotsim.rules.ids import DRAGON, FOOTMAN, KNIGHT, SHIP, SIEGE, House

CASTLE_VALUE = 3.0
STRONGHOLD_EXTRA = 1.0
BARREL_VALUE = 0.7
CROWN_VALUE = 0.5
LAND_VALUE = 0.4
HOME_BONUS = 2.5
SEA_VALUE = 0.5
SEA_PER_COAST = 0.15
# Mother of Dragons: what a loyalty token on an area adds to its worth for Targaryen (its
# victory: 7 of them), whatever the distance from Pentos (docs/players.md)
LOYALTY_VALUE = 2.5
TARGARYEN = int(House.TARGARYEN)
# Mother of Dragons: what a loyalty token is worth to every other house kept from Targaryen
# (``loyalty_denial``): DENY_VALUE each, times 1 + Targaryen's victory points / DENY_GROWTH,
# and DENY_WIN more where the tokens would bring it to its winning total
DENY_VALUE = 1.0
DENY_GROWTH = 3.0
DENY_WIN = 3.0
NEAR_HOME = 2  # steps from the home area at full worth
FAR_STEP = 0.08  # worth lost per step beyond
FAR_FLOOR = 0.5

# Order kinds as plain ints (IntEnum members do not unify with int8 in compiled code)
O_MARCH_MINUS = 0
O_MARCH_ZERO = 1
O_MARCH_PLUS = 2
O_DEFENSE_ONE = 3
O_DEFENSE_TWO = 4
O_SUPPORT_ZERO = 5
O_SUPPORT_ONE = 6
O_RAID = 7
O_RAID_STAR = 8
O_CONSOLIDATE = 9
O_CONSOLIDATE_STAR = 10
O_SEA_MARCH = 11  # Mother of Dragons' sea order tokens (sea areas only)
O_SEA_SUPPORT = 12


@njit
def jitter(g, house: int, noise: float) -> float:
    """A factor in ``1 ± noise``, from ``house``'s own random stream (1.0 without noise)."""
    if noise <= 0.0:
        return 1.0
    u = float(next_u64(g.rng, 1 + house) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
    return 1.0 + noise * (2.0 * u - 1.0)


@njit
def init_memo(t, memo) -> None:
    """Fill the memo's static tables (once per game)."""
    if memo.ready:
        return
    for a in range(t.n_areas):
        fort = t.castle[a] != 0 or t.stronghold[a] != 0
        memo.fort[a] = 1 if fort else 0
        if t.kind[a] == LAND:
            v = LAND_VALUE + BARREL_VALUE * t.barrels[a] + CROWN_VALUE * t.crowns[a]
            if fort:
                v += CASTLE_VALUE
            if t.stronghold[a]:
                v += STRONGHOLD_EXTRA
        elif t.kind[a] == SEA:
            coast = 0
            for j in range(t.neighbours.shape[1]):
                b = t.neighbours[a, j]
                if b < 0:
                    break
                if t.kind[b] == LAND:
                    coast += 1
            v = SEA_VALUE + SEA_PER_COAST * coast
        else:
            v = 0.3
        memo.base_value[a] = v
    # areas far from home are worth less: harder to hold, to supply and to defend in time
    dist = np.full(t.n_areas, -1, np.int64)
    queue = np.zeros(t.n_areas, np.int64)
    for house in range(H):
        memo.reach_scale[house, :] = 1.0
        home = -1
        for a in range(t.n_areas):
            if t.home[a] == house and t.kind[a] == LAND:
                home = a
        if home < 0:
            continue
        dist[:] = -1
        dist[home] = 0
        queue[0] = home
        head = 0
        tail = 1
        while head < tail:
            a = queue[head]
            head += 1
            for j in range(t.neighbours.shape[1]):
                b = t.neighbours[a, j]
                if b < 0:
                    break
                if dist[b] < 0:
                    dist[b] = dist[a] + 1
                    queue[tail] = b
                    tail += 1
        for a in range(t.n_areas):
            if dist[a] > NEAR_HOME:
                memo.reach_scale[house, a] = max(FAR_FLOOR, 1.0 - FAR_STEP * (dist[a] - NEAR_HOME))
    # each house's own defaults in this edition, player count and expansion: the parameters its
    # orders are predicted with
    memo.guess_params[:, :] = GUESS[t.edition - 1, t.players, t.expansion]
    memo.ready = 1


@njit
def init_memos(t, memos) -> None:
    """``init_memo`` for a batch of memos: the tables depend on the board only, so they are
    worked out once and copied."""
    source = -1  # the first fresh memo, filled by init_memo (ready ones keep their tables)
    for i in range(memos.shape[0]):
        memo = memos[i]
        if memo.ready:
            continue
        if source < 0:
            init_memo(t, memo)
            source = i
            continue
        first = memos[source]
        memo.base_value[:] = first.base_value
        memo.fort[:] = first.fort
        memo.reach_scale[:, :] = first.reach_scale
        memo.guess_params[:, :] = first.guess_params
        memo.ready = 1


# the second heuristic's endgame (docs/players.md): in the last round of a game ranked by castles
# only the ranking after the round's marches counts, and while one castle more wins the game
# every castle is worth it
FINAL_CASTLE = 6.0  # last round: a castle or stronghold
FINAL_LAND = 0.5  # last round: any other land area (the ranking's first tie-break)
WIN_CASTLE = 8.0  # one castle short of victory: more for each castle or stronghold
DENY_CASTLE = 8.0  # a rival one castle short of victory: more for each own castle it can reach
PENULT_CASTLE = 3.0  # the round before the last: more for each castle or stronghold


@njit(inline="always")
def castles_ranked(t) -> bool:
    """The game is won by castles, at once or in the last round's ranking: not A Feast for
    Crows' points, Mother of Dragons' loyalty race or a game with vassals."""
    return t.victory_points == 0 and t.loyalty_to_win == 0 and t.vassals == 0


@njit
def final_round(g, t, memo, house: int) -> bool:
    """The second heuristic plays ``house``'s last round: after its marches only the ranking
    counts (castles and strongholds, then land areas), so a unit lost, a position held or a
    crown is worth nothing any more."""
    return (
        memo.params[house, P_VERSION] >= 2.0 and g.game_round >= t.max_rounds and castles_ranked(t)
    )


@njit
def near_win(t, memo, house: int) -> bool:
    """The second heuristic plays ``house`` one castle or stronghold short of victory."""
    return (
        memo.params[house, P_VERSION] >= 2.0
        and castles_ranked(t)
        and memo.castles[house] >= t.castles_to_win - 1
    )


@njit
def value_for(g, t, memo, house: int, a: int) -> float:
    """Worth of area ``a`` to ``house``: the static value, more for its own home and for
    castles as it nears victory, less far from home (the second heuristic's last round: what
    the ranking counts, ``final_round``)."""
    if final_round(g, t, memo, house):
        if memo.fort[a]:
            return FINAL_CASTLE
        return FINAL_LAND if t.kind[a] == LAND else 0.0
    v = float(memo.base_value[a] + memo.objective_value[house, a])
    if t.home[a] == house:
        v += HOME_BONUS
    if memo.fort[a]:
        v += 0.25 * memo.castles[house]
    if t.loyalty_to_win != 0:  # Mother of Dragons at 8 players: the loyalty race
        if house == TARGARYEN:  # its victory
            return v * float(memo.reach_scale[house, a]) + LOYALTY_VALUE * g.loyalty[a]
        if g.loyalty[a] > 0:
            return v * float(memo.reach_scale[house, a]) + loyalty_denial(g, t, house, a)
    v *= float(memo.reach_scale[house, a])
    if memo.fort[a] and memo.params[house, P_VERSION] >= 2.0 and castles_ranked(t):
        if near_win(t, memo, house):
            v += WIN_CASTLE
        if memo.near_win_bits & ~(1 << house) and _rival_near_win(g, t, memo, house, a):
            v += DENY_CASTLE
        if g.game_round == t.max_rounds - 1:  # what it holds now it may keep to the ranking
            v += PENULT_CASTLE
    return v


@njit
def _rival_near_win(g, t, memo, house: int, a: int) -> bool:
    """Whether ``a`` is ``house``'s and another house one castle short of victory could bring
    strength against it (``memo.threat``): holding it keeps that house from winning."""
    if controller(g, t, a) != house:
        return False
    for e in range(H):
        if e != house and (memo.near_win_bits >> e) & 1 and memo.threat[e, a] > 0.0:
            return True
    return False


@njit
def loyalty_denial(g, t, house: int, a: int) -> float:
    """Mother of Dragons: worth to ``house`` (not Targaryen) of keeping the loyalty tokens in
    ``a`` from Targaryen, whose dragons fly to any land area: it takes the tokens of every area it
    controls, so an area held by ``house``, by nobody or by Targaryen (its tokens not yet taken)
    is worth holding or taking; one another house holds is denied already. The worth grows with
    Targaryen's victory points toward ``t.loyalty_to_win``, and jumps where these tokens would
    win it the game (docs/players.md)."""
    n = g.loyalty[a]
    if n <= 0 or not g.in_play[TARGARYEN]:
        return 0.0
    c = controller(g, t, a)
    if c >= 0 and c != house and c != TARGARYEN:
        return 0.0
    vp = targaryen_points(g, t)
    v = DENY_VALUE * n * (1.0 + vp / DENY_GROWTH)
    if vp + n >= t.loyalty_to_win:
        v += DENY_WIN
    return v


@njit
def live(g, a: int, u: int) -> int:
    """Units of type ``u`` in ``a`` that can fight (not routed)."""
    return g.units[a, u] - g.routed[a, u]


@njit
def army_strength(g, t, a: int) -> int:
    """Strength of the units in ``a`` that can fight, by the rules table's unit strengths
    (siege engines at their strength outside a siege)."""
    s = 0
    for u in range(U):
        s += t.unit_strength[u] * live(g, a, u)
    if g.units[a, DRAGON] > 0:  # Mother of Dragons: at this round's strength
        s += dragon_strength(g, t) * live(g, a, DRAGON)
    return s


@njit
def land_strength(g, t, a: int) -> int:
    """``army_strength`` without ships (what marches out of ``a`` by land)."""
    return army_strength(g, t, a) - t.unit_strength[SHIP] * live(g, a, SHIP)


@njit
def hold_strength(g, t, a: int) -> int:
    """Defending strength of the units in ``a`` (siege engines add nothing) plus the garrison."""
    return army_strength(g, t, a) + g.garrison[a]


@njit
def attack_strength(g, t, a: int, target: int) -> int:
    """Strength the units in ``a`` add to an attack on ``target`` (siege engines 4 against a
    castle or stronghold)."""
    s = army_strength(g, t, a)
    if is_fort(g, t, target):
        s += (t.siege_castle_strength - t.unit_strength[SIEGE]) * live(g, a, SIEGE)
    return s


@njit
def support_reaches(t, source: int, target: int) -> bool:
    """Units in ``source`` can join a battle in adjacent ``target`` (land never into sea, a port
    never into its own land area)."""
    if not t.adjacent[source, target]:
        return False
    if t.kind[source] == LAND:
        return t.kind[target] == LAND
    return not (t.kind[source] == PORT and t.kind[target] == LAND)


VIEW_PHASE = 512  # view keys per round and phase: 64 counts of march orders left × 8 of battles


@njit
def ensure_view(g, t, memo) -> None:
    """Bring the cached view up to date: ``memo.pot`` and ``memo.threat`` once per round and
    phase (the board does not change during planning, little in a Westeros phase); castles
    held and public hands also after every march resolved. In the action phase the danger to
    an area is counted afresh from its neighbours (``danger``), so the full view is not rebuilt
    per march. The key (``VIEW_PHASE`` of them per round and phase) dates the board: in the
    action phase by the march orders left, one fewer after every march resolved, and the
    battles fought, since Ser Loras Tyrell moves his winning march order on instead (once per
    pass through Tyrell's hand, so the last three bits of the count are enough)."""
    if not memo.ready:
        init_memo(t, memo)
    phase_key = (int(g.game_round) * 16 + int(g.phase)) * VIEW_PHASE
    if g.phase != Phase.MARCHES:
        if memo.view_key != phase_key:
            if t.victory_points:  # A Feast for Crows: the hands change between phases only
                objective_values(g, t, memo)
            if same_board(g, t, memo):
                refresh_counts(g, t, memo)  # pot and threat are what they were (raids, ravens)
            else:
                refresh_view(g, t, memo)
            memo.view_key = phase_key
        return
    orders = 0
    marching = 0  # houses with march orders still on the board, as bits
    for e in range(H):  # (an order stands only where its house has units: the engine's count)
        m = int(g.orders_used[e, O_MARCH_MINUS]) + int(g.orders_used[e, O_MARCH_ZERO])
        m += int(g.orders_used[e, O_MARCH_PLUS]) + int(g.orders_used[e, O_SEA_MARCH])
        orders += m
        marching |= (1 << e) if m > 0 else 0
    memo.marching = marching
    fought = 0
    for e in range(H):
        fought += int(g.battles[e])
    key = phase_key + orders * 8 + (fought // 2) % 8  # (each battle counted for both sides)
    if memo.view_key == key:
        return
    seen = memo.view_key // VIEW_PHASE
    if seen != int(g.game_round) * 16 + int(g.phase) and seen < (
        int(g.game_round) * 16 + Phase.PLANNING
    ):
        refresh_view(g, t, memo)  # a memo that missed this round's planning
    else:
        refresh_counts(g, t, memo)
    memo.view_key = key


@njit
def refresh_counts(g, t, memo) -> None:
    """Castles held per house and public hands (cheap parts of the view), and the worth of
    areas the Iron Bank's improvements changed."""
    memo.castles[:] = 0
    for i in range(t.n_forts):
        a = t.forts[i]
        c = controller(g, t, a)
        if c >= 0 and is_fort(g, t, a):
            memo.castles[c] += 1
    memo.near_win_bits = 0
    if castles_ranked(t):
        for e in range(H):
            if memo.castles[e] >= t.castles_to_win - 1:
                memo.near_win_bits |= 1 << e
    refresh_improved(g, t, memo)
    refresh_cards(g, t, memo)


@njit
def refresh_improved(g, t, memo) -> None:
    """The static worth and castle flag of every area an improvement changed (IB9): the memo's
    tables are the board's (``init_memo``), this game's crowns, barrels and castle level differ
    there. (Improvements are never taken back, so an area without them keeps the board's.)"""
    if g.improved == 0:
        return
    for a in range(t.n_areas):
        if g.crown_bonus[a] == 0 and g.barrel_bonus[a] == 0 and g.castle_delta[a] == 0:
            continue
        level = castle_level(g, t, a)
        memo.fort[a] = 1 if level > 0 else 0
        if t.kind[a] == LAND:
            v = LAND_VALUE + BARREL_VALUE * barrels_at(g, t, a) + CROWN_VALUE * crowns_at(g, t, a)
            if level > 0:
                v += CASTLE_VALUE
            if level == 2:
                v += STRONGHOLD_EXTRA
            memo.base_value[a] = v


@njit
def same_board(g, t, memo) -> bool:
    """Whether the board is the one ``refresh_view`` last counted pot and threat from (what
    they read of it: owners, units, routed units, houses in play)."""
    if not memo.view_board_set:
        return False
    for a in range(t.n_areas):
        if memo.view_owner[a] != g.owner[a]:
            return False
        for u in range(U):
            if memo.view_units[a, u] != g.units[a, u] or memo.view_routed[a, u] != g.routed[a, u]:
                return False
    for e in range(H):
        if memo.view_in_play[e] != g.in_play[e]:
            return False
    return True


@njit
def _keep_board(g, t, memo) -> None:
    """Note the board of this ``refresh_view`` (``same_board``)."""
    for a in range(t.n_areas):
        memo.view_owner[a] = g.owner[a]
        for u in range(U):
            memo.view_units[a, u] = g.units[a, u]
            memo.view_routed[a, u] = g.routed[a, u]
    for e in range(H):
        memo.view_in_play[e] = g.in_play[e]
    memo.view_board_set = 1


@njit
def _dragon_flights(g, t, memo) -> None:
    """Mother of Dragons (M11): an army of dragons alone may march to any land area, so it
    threatens every one (like a transported army: at its strength, added to ``pot`` where it
    stands next door)."""
    for b in range(t.n_areas):
        e = g.owner[b]
        if t.kind[b] != LAND or e < 0 or live(g, b, DRAGON) == 0:
            continue
        if live(g, b, FOOTMAN) + live(g, b, KNIGHT) + live(g, b, SIEGE) > 0:
            continue
        strength = army_strength(g, t, b)
        for a in range(t.n_areas):
            if t.kind[a] != LAND or a == b:
                continue
            memo.marcher[a] |= 1 << e
            if not t.adjacent[b, a] and strength > memo.threat[e, a]:
                memo.threat[e, a] = strength


@njit
def refresh_view(g, t, memo) -> None:
    n = t.n_areas
    _keep_board(g, t, memo)
    refresh_improved(g, t, memo)  # (the threat below reads memo.fort)
    pot = memo.pot
    threat = memo.threat
    pot[:, :] = 0.0
    threat[:, :] = 0.0
    # marchers: bit per house that has units able to march into the area
    marcher = memo.marcher
    marcher[:] = 0
    for b in range(n):
        e = g.owner[b]
        if e < 0:
            continue
        if unit_count(g, b) == 0:
            continue
        land = t.kind[b] == LAND
        plain = army_strength(g, t, b)
        siege = live(g, b, SIEGE)
        movers = live(g, b, FOOTMAN) + live(g, b, KNIGHT) + siege + live(g, b, SHIP)
        for j in range(t.neighbours.shape[1]):
            a = t.neighbours[b, j]
            if a < 0:
                break
            if land:
                if t.kind[a] != LAND:
                    continue
            elif t.kind[b] == PORT and t.kind[a] == LAND:
                continue
            add = plain
            if land and memo.fort[a]:
                add += 4 * siege
            pot[e, a] += add
            if movers > 0:
                if land or t.kind[a] == SEA:
                    marcher[a] |= 1 << e
    # transport: land units next to a chain of seas holding the house's ships reach every coast
    # of the chain (each chain: its strongest army, which may land anywhere along it)
    comp = memo.stack  # work space: chain number of each sea, -1 none
    for a in range(n):
        comp[a] = -1
    queue = memo.reach
    width = t.neighbours.shape[1]
    for s0 in range(n):
        if t.kind[s0] != SEA or comp[s0] >= 0:
            continue
        e = g.owner[s0]
        if e < 0 or g.units[s0, SHIP] == 0:
            continue
        # the chain of e's seas around s0
        comp[s0] = s0
        head = 0
        tail = 1
        queue[0] = s0
        while head < tail:
            sea = queue[head]
            head += 1
            for j in range(width):
                b = t.neighbours[sea, j]
                if b < 0:
                    break
                if t.kind[b] == SEA and comp[b] < 0 and g.owner[b] == e and g.units[b, SHIP] > 0:
                    comp[b] = s0
                    queue[tail] = b
                    tail += 1
        # its strongest army on the coast
        best = 0
        best_siege = 0
        best_area = -1
        for q in range(tail):
            sea = queue[q]
            for j in range(width):
                b = t.neighbours[sea, j]
                if b < 0:
                    break
                if t.kind[b] == LAND and g.owner[b] == e:
                    army = land_strength(g, t, b)
                    if army > best:
                        best = army
                        best_siege = live(g, b, SIEGE)
                        best_area = b
        if best_area < 0:
            continue
        for q in range(tail):
            sea = queue[q]
            for j in range(width):
                a = t.neighbours[sea, j]
                if a < 0:
                    break
                if t.kind[a] != LAND or a == best_area or t.adjacent[best_area, a]:
                    continue
                s_a = best + (4 * best_siege if memo.fort[a] else 0)
                if s_a > threat[e, a]:
                    threat[e, a] = s_a  # best transported army (added to pot below)
                marcher[a] |= 1 << e
    if t.dragons:
        _dragon_flights(g, t, memo)
    for a in range(n):
        # with the largest threat to the area and the largest of any other house (``danger``)
        top = 0.0
        who = -1
        second = 0.0
        # a house that cannot march in keeps threat 0 there (only marchers were given any), and
        # a 0 changes neither the largest threat nor the second
        bits = marcher[a]
        for e in range(H):
            if (bits >> e) == 0:
                break  # (no marcher left among the houses from e on)
            if not (bits >> e) & 1:
                continue
            threat[e, a] += pot[e, a]
            if g.in_play[e]:
                v = threat[e, a]
                if v > top:
                    second = top
                    top = v
                    who = e
                elif v > second:
                    second = v
        memo.thr_top[a] = top
        memo.thr_top_house[a] = who
        memo.thr_second[a] = second
    refresh_counts(g, t, memo)


@njit
def refresh_cards(g, t, memo) -> None:
    """The stronger half of every house's public hand, for quick win chances."""
    for e in range(H):
        if g.in_play[e]:
            hand = public_hand(g, t, e)
            if hand != memo.hand_key[e]:
                memo.n_top[e] = _strengths(t, e, hand, memo.cards_top[e], True)
                memo.hand_key[e] = hand


@njit
def danger(g, t, memo, house: int, a: int) -> float:
    """The largest strength one other house could bring against ``a``: from the cached view,
    or in the action phase (the board changing with every march) counted from the units next
    to it."""
    if g.phase == Phase.MARCHES:
        return local_danger(g, t, memo, house, a)
    return view_danger(memo, house, a)  # the largest threat of another house in play


@njit
def view_danger(memo, house: int, a: int) -> float:
    """``danger`` from the view (``refresh_view``: armies that ships can carry included) in
    every phase."""
    if memo.thr_top_house[a] == house:
        return float(memo.thr_second[a])
    return float(memo.thr_top[a])


@njit
def local_danger(g, t, memo, house: int, a: int) -> float:
    """``danger`` from the units next to ``a`` only (no transport): per other house, the sum of
    what its neighbouring units could add to an attack, if one of them can march in."""
    sums = memo.hsum
    sums[:] = 0.0
    marcher = 0
    for j in range(t.neighbours.shape[1]):
        b = t.neighbours[a, j]
        if b < 0:
            break
        e = g.owner[b]
        if e < 0 or e == house:
            continue
        marcher |= add_local_danger(g, t, memo, a, b, e, sums)
    return largest_marcher(sums, marcher)


@njit(inline="always")
def add_local_danger(g, t, memo, a: int, b: int, e: int, sums) -> int:
    """``local_danger``'s part of the neighbour ``b`` of ``a``, held by the other house ``e``:
    adds to ``sums[e]`` what its units could bring to an attack on ``a`` (by march or support);
    returns ``e``'s bit if they could march in, else 0."""
    land_a = t.kind[a] == LAND
    land_b = t.kind[b] == LAND
    if land_b and not land_a:
        return 0
    if t.kind[b] == PORT and land_a:
        return 0
    s = army_strength(g, t, b)
    if land_b and memo.fort[a]:
        s += (t.siege_castle_strength - t.unit_strength[SIEGE]) * live(g, b, SIEGE)
    sums[e] += s
    return (1 << e) if land_b == land_a else 0


@njit(inline="always")
def largest_marcher(sums, marcher: int) -> float:
    """The largest ``sums[e]`` of a house ``e`` whose bit is set in ``marcher`` (0.0 if none)."""
    best = 0.0
    for e in range(H):
        if (marcher >> e) & 1 and sums[e] > best:
            best = sums[e]
    return best


@njit
def danger_house(g, memo, house: int, a: int) -> int:
    """The other house that could bring the most strength against ``a`` (-1 none)."""
    best = 0.0
    who = -1
    for e in range(H):
        if e != house and g.in_play[e] and memo.threat[e, a] > best:
            best = memo.threat[e, a]
            who = e
    return who


@njit
def lose_chance(threat: float, hold: float) -> float:
    """Rough chance that an area held with ``hold`` falls to an attack of ``threat``: the
    chance the attack succeeds (cards and orders spread it over a few points) times the chance
    it comes, which grows with that success chance."""
    if threat <= 0.0:
        return 0.0
    d = float(threat) + 1.0 - float(hold)
    p = 0.5 + d / 6.0
    if p < 0.0:
        p = 0.0
    elif p > 1.0:
        p = 1.0
    # attackers pick battles they can win: the better the odds, the likelier the attack
    return p * (0.3 + 0.6 * p)


@njit
def public_hand(g, t, house: int) -> int:
    """Deck slots of ``house``'s cards not in its discard pile (its hand as others know it,
    possibly with the card it is playing now)."""
    return 0x7F & ~int(g.discard[house])


@njit
def card_strength(t, house: int, slot: int) -> int:
    return t.card_strength[t.deck_card[house, slot]]


@njit
def win_chance(memo, margin: float, house: int, opp: int, tie_mine: bool) -> float:
    """Chance that ``house`` wins a battle whose board strengths differ by ``margin`` (its own
    minus the other side's), both sides playing one of the stronger half of their public hands
    (the cards a house plays when a battle matters), uniformly. ``opp < 0`` is a neutral force
    (no cards, ties to the attacker). Fractional margins (expected support) are smoothed over
    one point: each card pair adds ``clamp(margin + difference ± 0.25 + 0.5, 0, 1)``, a sum
    that is linear between whole numbers and is kept as 13 points per pair of houses."""
    x = margin + (0.75 if tie_mine else 0.25)
    if opp < 0:
        return 0.0 if x < 0.0 else (1.0 if x > 1.0 else x)
    if memo.wc_key[house, opp] != _hands_key(memo, house, opp):
        _fill_win_table(memo, house, opp)
    if x <= -6.0:
        return memo.wc_table[house, opp, 0]
    if x >= 6.0:
        return memo.wc_table[house, opp, 12]
    k = int(np.floor(x))
    f = x - k
    lo = memo.wc_table[house, opp, k + 6]
    return lo + f * (memo.wc_table[house, opp, k + 7] - lo)


@njit
def _fill_win_table(memo, house: int, opp: int) -> None:
    n_mine = memo.n_top[house]
    n_theirs = memo.n_top[opp]
    # at whole margins a card pair adds 1 when the difference beats the margin, else 0: count
    # the pairs by difference (strengths 0 … 4 or so; offset by 8) and add up from the top
    pairs = memo.wc_pairs
    pairs[:] = 0
    for j in range(n_theirs):
        for i in range(n_mine):
            pairs[memo.cards_top[house, i] - memo.cards_top[opp, j] + 8] += 1
    for k in range(13):
        # pairs with difference >= 7 - k (k - 6 + difference >= 1)
        total = 0
        for d in range(max(0, 7 - k + 8), pairs.shape[0]):
            total += pairs[d]
        memo.wc_table[house, opp, k] = total / (n_mine * n_theirs)
    memo.wc_key[house, opp] = _hands_key(memo, house, opp)


@njit
def _hands_key(memo, house: int, opp: int) -> int:
    """The two public hands a win table was filled from (a table depends on nothing else)."""
    return (memo.hand_key[house] + 1) * 256 + memo.hand_key[opp] + 1


@njit
def _strengths(t, house: int, slots: int, out, top_half: bool) -> int:
    """Printed strengths of ``house``'s cards in ``slots`` into ``out``, only the stronger half
    with ``top_half`` (the cards a house plays when a battle matters); a lone 0 if none."""
    n = 0
    for s in range(7):
        if (slots >> s) & 1:
            out[n] = card_strength(t, house, s)
            n += 1
    if n == 0:
        out[0] = 0
        return 1
    if top_half and n > 1:
        for i in range(1, n):  # insertion sort, strongest first
            x = out[i]
            j = i - 1
            while j >= 0 and out[j] < x:
                out[j + 1] = out[j]
                j -= 1
            out[j + 1] = x
        n = (n + 1) // 2
    return n


@njit
def fiefdoms_higher(g, house: int, other: int) -> bool:
    """``house`` stands above ``other`` on the Fiefdoms track (it wins tied battles)."""
    for p in range(H):
        if g.track[1, p] == house:
            return True
        if g.track[1, p] == other:
            return False
    return False


@njit
def power_income(g, t, house: int, a: int) -> int:
    """Power a consolidate power order in ``a`` would bring."""
    if t.kind[a] == LAND:
        return 1 + crowns_at(g, t, a)
    if t.kind[a] == PORT:
        s = t.port_sea[a]
        if g.owner[s] >= 0 and g.owner[s] != house and g.units[s, SHIP] > 0:
            return 0
        return 1
    return 0


@njit
def leader_castles(g, t, house: int) -> int:
    """The most castles any other house holds."""
    best = 0
    for e in range(H):
        if e != house and g.in_play[e]:
            c = castles_held(g, t, e)
            if c > best:
                best = c
    return best


@njit
def card_slot_by_strength(t, house: int, mask, sign: int, none: int) -> int:
    """The deck slot in ``mask`` whose card of ``house`` is strongest (``sign`` 1) or weakest
    (``sign`` -1), the first of equals; ``none`` if the mask offers no slot."""
    best = -1000
    best_s = none
    for s in range(7):
        if mask[s]:
            v = sign * t.card_strength[t.deck_card[house, s]]
            if v > best:
                best = v
                best_s = s
    return best_s


@njit
def houses_in_play(g) -> int:
    n = 0
    for e in range(H):
        if g.in_play[e]:
            n += 1
    return n


__all__ = [
    "danger",
    "ensure_view",
    "hold_strength",
    "init_memo",
    "public_hand",
    "value_for",
    "win_chance",
]
