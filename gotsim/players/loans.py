"""The heuristic's answers to the Iron Bank's loan cards (``engine.loans``, ``docs/players.md``):
sellswords go where they guard its castles and homes or join its armies; improvements and
upgraded castles go to its own safest castles; the Pyromancer burns the leader's castle; the
Spymaster keeps the Westeros cards that help it on top and puts the others under; the Faceless
Men kill the leader's knight and footman."""

from __future__ import annotations

from gotsim.engine.board_state import LAND, castle_level, castles_held, controller
from gotsim.engine.loans import POWER_KIND, SUPPLY_KIND, LoanStep
from gotsim.engine.state import ACT_NONE, H
from gotsim.engine.tables import WesterosCard
from gotsim.jit import njit
from gotsim.players.westeros import _income, _muster_points, _versus_others

NOBODY_WORTH = -1.0e9


@njit
def _enemies_next_to(g, t, house: int, a: int) -> int:
    """Other houses' units in the areas next to ``a``."""
    n = 0
    for j in range(t.neighbours.shape[1]):
        b = t.neighbours[a, j]
        if b < 0:
            break
        if g.owner[b] >= 0 and g.owner[b] != house:
            for u in range(g.units.shape[1]):
                n += g.units[b, u]
    return n


@njit
def _own_castles_next_to(g, t, house: int, a: int) -> int:
    n = 0
    for j in range(t.neighbours.shape[1]):
        b = t.neighbours[a, j]
        if b < 0:
            break
        if castle_level(g, t, b) > 0 and controller(g, t, b) == house:
            n += 1
    return n


@njit
def _leader(g, t, house: int) -> int:
    """The other house holding the most castles (the first in Iron Throne order on a tie)."""
    best, best_e = -1, -1
    for p in range(H):
        e = g.track[0, p]
        if e < 0 or e == house or not g.in_play[e]:
            continue
        c = castles_held(g, t, e)
        if c > best:
            best, best_e = c, int(e)
    return best_e


@njit
def _safe_own_area(g, t, house: int, a: int) -> float:
    """An improvement's worth in ``a``: its own land, castles and home first, away from enemies."""
    if controller(g, t, a) != house:
        return 0.0
    v = 10.0 + 3.0 * castle_level(g, t, a) + (2.0 if t.home[a] == house else 0.0)
    return v - 0.5 * _enemies_next_to(g, t, house, a)


@njit
def _sellsword_worth(g, t, house: int, a: int) -> float:
    """A sellsword's worth in ``a``: guarding a castle or home under threat, or joining an army."""
    if t.kind[a] == LAND:
        v = 3.0 * castle_level(g, t, a) + (2.0 if t.home[a] == house else 0.0)
    else:
        v = 2.0 * _own_castles_next_to(g, t, house, a)
    v += 1.0 * _enemies_next_to(g, t, house, a)
    if g.owner[a] == house:
        for u in range(g.units.shape[1]):
            v += 0.5 * g.units[a, u]
    return v


@njit
def _card_worth(g, t, house: int, deck: int, card: int) -> float:
    """A Westeros card's worth to ``house`` drawn next: a Mustering or Supply or Game of Thrones
    it gains by more than the others, less a wildling icon; deck IV's cards are left alone."""
    if deck == 3:
        return 0.0
    v = 0.0
    if card == WesterosCard.MUSTERING or card == WesterosCard.MUSTERING_AFFC:
        total = 0.0
        for e in range(H):
            if g.in_play[e]:
                total += float(_muster_points(g, t, e))
        v = _versus_others(g, house, float(_muster_points(g, t, house)), total)
    elif card == WesterosCard.GAME_OF_THRONES:
        total = 0.0
        for e in range(H):
            if g.in_play[e]:
                total += float(_income(g, t, e))
        v = _versus_others(g, house, float(_income(g, t, house)), total)
    elif card == WesterosCard.SUPPLY:
        v = 0.0
        for a in range(t.n_areas):
            if t.kind[a] == LAND and controller(g, t, a) == house:
                v += float(t.barrels[a] + g.barrel_bonus[a])
        v = min(v, float(t.supply_max)) - float(g.supply[house])
    if t.westeros_icon[card]:
        v -= 0.3
    return v


@njit
def _arrangement(vx: float, vy: float) -> int:
    """Spymaster: the cards worth something on top, the better first; the others under."""
    if vx >= 0.0 and vy >= 0.0:
        return 0 if vx >= vy else 1
    if vx >= 0.0:
        return 2
    if vy >= 0.0:
        return 3
    return 4


@njit
def _best_area(g, t, house: int, mask, step: int, leader: int) -> int:
    best, best_a = NOBODY_WORTH, ACT_NONE
    for a in range(t.n_areas):
        if not mask[a]:
            continue
        c = controller(g, t, a)
        if step == LoanStep.SELLSWORD:
            v = _sellsword_worth(g, t, house, a)
        elif step == LoanStep.UPGRADE:
            v = _safe_own_area(g, t, house, a) if c == house else (1.0 if c < 0 else -5.0)
        elif step == LoanStep.DEGRADE:
            v = 10.0 if c == leader else (5.0 if c >= 0 and c != house else 1.0)
            v = -10.0 if c == house else v
        elif step == LoanStep.FACELESS_KNIGHT or step == LoanStep.FACELESS_FOOTMAN:
            if g.owner[a] == house:
                continue  # never its own
            v = 10.0 if g.owner[a] == leader else 1.0
            v += 0.1 * castle_level(g, t, a)
        else:  # an improvement
            v = _safe_own_area(g, t, house, a)
        if v > best:
            best, best_a = v, a
    return best_a


@njit
def loan_choice(g, t, house: int, mask, params, memo) -> int:
    """The heuristic's ``LOAN`` action (``mask``: the legal ones)."""
    step = g.ctx[0]
    leader = _leader(g, t, house)
    if step == LoanStep.IMPROVEMENT_KIND:
        a = g.ctx[3]
        if controller(g, t, a) == house and g.supply[house] < t.supply_max:
            return SUPPLY_KIND
        return POWER_KIND  # (a crown helps an enemy less than a barrel)
    if step == LoanStep.SPY_DECK:
        for d in range(4):
            if mask[d]:
                return d
        return -1
    if step == LoanStep.SPY_ARRANGE:
        d = g.ctx[3]
        if d < 3:
            top = g.westeros_next[d]
            x, y = g.westeros[d, top], g.westeros[d, top + 1]
        else:
            top = g.deck4_next
            x, y = g.deck4[top], g.deck4[top + 1]
        return _arrangement(_card_worth(g, t, house, d, x), _card_worth(g, t, house, d, y))
    return _best_area(g, t, house, mask, step, leader)


__all__ = ["loan_choice"]
