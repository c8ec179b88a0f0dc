"""What the heuristic's moves are worth: an attack (win chance, gain, loss, the victim's lead),
leaving an area, one more unit in an area, and a unit's place on the way to enemy castles.

Compiled (numba); shared by order planning and march resolution.
"""

from __future__ import annotations

from gotsim.engine.board_state import LAND, SEA, controller, is_fort
from gotsim.engine.loyalty import TARGARYEN, targaryen_points
from gotsim.jit import njit
from gotsim.players.params import P_AGGRESSION, P_DEFENCE, P_EXPANSION, P_RISK, P_VERSION
from gotsim.players.view import (
    CASTLE_VALUE,
    SHIP,
    SIEGE,
    danger,
    final_round,
    hold_strength,
    land_strength,
    live,
    lose_chance,
    loyalty_denial,
    value_for,
)

LEAD_FREE = 3  # castles a house may hold before the others start to mind its lead
LEAD_WEIGHT = 1.0  # worth per castle beyond LEAD_FREE of taking one from its holder
NEAR_WIN_BONUS = 3.0
# Mother of Dragons at 8 players: every other house weighs Targaryen's lead this many times
# (the lead it takes from Essos and the loyalty race, which no rule of the game sets back)
TARGARYEN_LEAD = 3.0
EXPOSURE = 0.4  # worth of a unit put at risk, per strength point
WEAK_SPARE = 1.0  # second heuristic: less worth per area worth of attacking the last house
GRUDGE = 1.5  # second heuristic: more worth per area worth of attacking a house that attacked it
GRUDGE_ROUNDS = 3  # ... this round or in the two before
HOME_RISK = 1.0  # second heuristic: the least weight of losing its home (``vacate_cost``)
DENY_NEAR = 0.1  # Mother of Dragons: worth per strength point next to a loyalty token's denial


@njit
def min_win(params) -> float:
    """The win chance an attack must promise, by aggression."""
    return 0.75 - 0.4 * params[P_AGGRESSION]


@njit
def defender_of(g, t, x: int) -> int:
    """House defending ``x`` (its units, else its garrison's: the house controlling the area,
    else the home area's house); -1 neutral force."""
    if g.neutral[x] > 0:
        return -1
    if g.owner[x] >= 0:
        return g.owner[x]
    if g.garrison[x] > 0:
        return controller(g, t, x)
    return t.home[x]


@njit
def lead_of(g, t, memo, house: int, rival: int) -> float:
    """How much ``rival``'s castle lead should worry ``house`` (0 for modest holdings, rising
    steeply as it nears victory; Targaryen's ``TARGARYEN_LEAD`` times in the loyalty race)."""
    if rival < 0 or rival == house:
        return 0.0
    c = memo.castles[rival]
    if t.loyalty_to_win != 0 and rival == TARGARYEN:
        # Mother of Dragons: Targaryen races for loyalty tokens; its victory points count as
        # castles where they are more (docs/players.md)
        c = max(c, targaryen_points(g, t))
    v = LEAD_WEIGHT * max(0, c - LEAD_FREE)
    if c >= t.castles_to_win - 1:
        v += NEAR_WIN_BONUS
    # after the last round the most castles wins: a castle taken from a house that holds more
    # than this one counts twice in that race, the more so the nearer the end
    if c > memo.castles[house]:
        v += CASTLE_VALUE * g.game_round / t.max_rounds
    if t.loyalty_to_win != 0 and rival == TARGARYEN and not (t.vassals and t.vassal[rival]):
        v *= TARGARYEN_LEAD  # (a vassal Targaryen wins nothing: no more than any other house)
    return v


@njit(inline="always")
def attack_value(gain: float, loss: float, p: float, params, lead: float) -> float:
    """Expected worth of an attack won with chance ``p``; against a leader (``lead``) a lower
    chance is accepted."""
    aggr = params[P_AGGRESSION]
    v = p * gain * (0.6 + 0.8 * aggr) - (1.0 - p) * loss * (1.2 - params[P_RISK])
    need = min_win(params) - 0.05 * float(lead)
    if p < need:
        v -= (need - p) * gain * 2.0
    return v


@njit
def attack_gain(g, t, memo, house: int, x: int, units: float) -> float:
    """Worth of taking ``x`` by force with ``units`` strength: the area as far as it can be
    held afterwards, the defenders beaten, the loss to its holder (more when the holder
    leads)."""
    keep = 1.0 - lose_chance(danger(g, t, memo, house, x), units)
    return value_for(g, t, memo, house, x) * keep + attack_gain_fixed(g, t, memo, house, x)


@njit
def attack_gain_fixed(g, t, memo, house: int, x: int) -> float:
    """The part of ``attack_gain`` that does not depend on the attackers: the defenders beaten,
    the area denied to its holder, the holder's lead."""
    gain = 0.3 * hold_strength(g, t, x)
    holder = controller(g, t, x)
    if holder >= 0 and holder != house:
        gain += 0.3 * float(memo.base_value[x])  # denied to a rival
        if memo.fort[x]:
            gain += lead_of(g, t, memo, house, holder)
        if memo.params[house, P_VERSION] >= 2.0 and _trailing(g, memo, house, holder):
            # the second heuristic leaves the house furthest behind alone while others lead:
            # what it loses goes to no rival that matters
            gain -= WEAK_SPARE * float(memo.base_value[x])
        if (
            memo.params[house, P_VERSION] >= 2.0
            and t.home[x] != holder
            and _attacked_lately(g, holder, house)
        ):
            # the second heuristic answers a house that attacked it lately (not at that house's
            # home, which its home guard weighs already)
            gain += GRUDGE * float(memo.base_value[x])
    return gain


@njit
def _attacked_lately(g, attacker: int, defender: int) -> bool:
    """``attacker`` attacked ``defender`` this round or in the ``GRUDGE_ROUNDS`` - 1 before it
    (battles are public: the record counts them by round, attacker and defender)."""
    last = int(g.game_round) - 1
    for r in range(max(0, last - GRUDGE_ROUNDS + 1), last + 1):
        if g.history_battles[r, attacker, defender] > 0:
            return True
    return False


@njit
def _trailing(g, memo, house: int, holder: int) -> bool:
    """``holder`` holds the fewest castles of the houses in play, at least two fewer than
    ``house``."""
    c = memo.castles[holder]
    if c + 2 > memo.castles[house]:
        return False
    for e in range(memo.castles.shape[0]):
        if e != holder and g.in_play[e] and memo.castles[e] < c:
            return False
    return True


@njit
def _coast_army(g, t, e: int, sea: int, a: int) -> int:
    """Strength of ``e``'s strongest army on a coast of ``sea`` (not ``a``) attacking ``a`` (a
    castle or stronghold: siege engines count 4)."""
    best = 0
    # (a home: a castle or stronghold on every board, unless a loan took its castle away)
    siege_extra = t.siege_castle_strength - t.unit_strength[SIEGE]
    if g.castle_delta[a] != 0 and not is_fort(g, t, a):
        siege_extra = 0
    for j in range(t.neighbours.shape[1]):
        b = t.neighbours[sea, j]
        if b < 0:
            break
        if b != a and t.kind[b] == LAND and g.owner[b] == e:
            army = land_strength(g, t, b)
            army += siege_extra * live(g, b, SIEGE)
            if army > best:
                best = army
    return best


@njit
def home_sea_threat(g, t, house: int, a: int) -> float:
    """The strongest army another house could land in ``a`` this round by first moving ships
    into a sea next to it (empty, or held by ``house``: half counted, that fleet must lose
    first) from a sea next to that one, then carrying an army from that sea's coasts."""
    worst = 0.0
    width = t.neighbours.shape[1]
    for j in range(width):
        s = t.neighbours[a, j]
        if s < 0:
            break
        if t.kind[s] != SEA:
            continue
        mine = g.owner[s] == house
        if g.owner[s] >= 0 and not mine:
            continue  # held by another house: the view counts it already
        for k in range(width):
            s2 = t.neighbours[s, k]
            if s2 < 0:
                break
            e = g.owner[s2]
            if t.kind[s2] != SEA or e < 0 or e == house or g.units[s2, SHIP] == 0:
                continue
            army = max(_coast_army(g, t, e, s, a), _coast_army(g, t, e, s2, a))
            w = 0.5 * army if mine else float(army)
            if w > worst:
                worst = w
    return worst


@njit
def vacate_cost(g, t, memo, house: int, a: int, params, threat: float) -> float:
    """Expected loss from leaving ``a`` without units facing ``threat`` (a power token keeps a
    non-home land area; a home area keeps its garrison)."""
    if t.kind[a] != LAND:
        return 0.0
    v = value_for(g, t, memo, house, a)
    home = t.home[a] == house
    risk = 1.2 - params[P_RISK]
    if home and params[P_VERSION] >= 2.0:
        # the second heuristic counts armies that ships could bring after first taking a sea
        # next to its home, and never weighs its home's loss at less than HOME_RISK
        threat = max(threat, home_sea_threat(g, t, house, a))
        risk = max(risk, HOME_RISK)
    p = lose_chance(threat, float(g.garrison[a]))
    cost = v * p * risk
    if not home:
        if g.power[house] > 0:
            cost = 0.25 * cost + 0.1
        else:
            cost += 0.3 * v  # control is lost with the last unit
    return cost


@njit
def position_value(g, t, memo, house: int, a: int) -> float:
    """Worth of a unit of strength 1 standing in ``a``: on land, on the way to conquests (the
    castles and strongholds next to it held by others); at sea, next to the house's armies."""
    if final_round(g, t, memo, house):
        return 0.0
    if t.kind[a] != LAND:
        if t.kind[a] != SEA:
            return 0.0
        # a ship next to the house's armies carries and supports them
        v = 0.0
        for j in range(t.neighbours.shape[1]):
            y = t.neighbours[a, j]
            if y < 0:
                break
            if t.kind[y] == LAND and g.owner[y] == house:
                v += 0.25
        return v
    v = 0.0
    if t.loyalty_to_win != 0 and house != TARGARYEN:
        # Mother of Dragons: next to loyalty tokens, to take or hold them before Targaryen
        for j in range(t.neighbours.shape[1]):
            y = t.neighbours[a, j]
            if y < 0:
                break
            if g.loyalty[y] > 0:
                v += DENY_NEAR * loyalty_denial(g, t, house, y)
    for j in range(t.fort_neighbours.shape[1]):  # the castles and strongholds next to it
        y = t.fort_neighbours[a, j]
        if y < 0:
            break
        if not is_fort(g, t, y):
            continue  # (its castle taken away by a loan)
        c = controller(g, t, y)
        if c != house:
            v += 0.1 * float(memo.base_value[y])
            if c >= 0:
                v += 0.1 * lead_of(g, t, memo, house, c)
    return v


@njit
def first_unit_value(g, t, memo, house: int, x: int, s: float, params, threat: float) -> float:
    """Worth of moving strength ``s`` into ``x`` where ``house`` has nothing: control of the
    area (more if it takes a rival's power token), if it can be held."""
    if controller(g, t, x) == house:
        return 0.0
    v = value_for(g, t, memo, house, x)
    if g.power_token[x] >= 0 and g.power_token[x] != house:
        v += 0.5
    v *= 0.3 + params[P_EXPANSION]
    p = lose_chance(threat, s)
    # a lone unit where the enemy can strike is likely lost with the area
    return v * (1.0 - p) - EXPOSURE * s * p * (1.2 - params[P_RISK])


@njit
def more_units_value(
    g, t, memo, house: int, x: int, hold: float, s: float, params, threat: float
) -> float:
    """Worth of adding strength ``s`` to ``hold`` already in ``x`` facing ``threat``."""
    if threat <= 0.0:
        return 0.0
    v = value_for(g, t, memo, house, x)
    return (
        v * (lose_chance(threat, hold) - lose_chance(threat, hold + s)) * (0.3 + params[P_DEFENCE])
    )


__all__ = [
    "attack_gain",
    "attack_gain_fixed",
    "attack_value",
    "defender_of",
    "first_unit_value",
    "home_sea_threat",
    "lead_of",
    "min_win",
    "more_units_value",
    "position_value",
    "vacate_cost",
]
