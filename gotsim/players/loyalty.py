"""The heuristic's answers to Mother of Dragons' loyalty decisions (Westeros deck IV,
``engine.westeros.deck4``; ``docs/players.md``): Targaryen puts tokens where it stands or can
reach soon and pays for them while it keeps power for later; it cancels moves that carry a
token away from its armies; every other house moves tokens away from Targaryen's. Its Clash of
Kings bid is small and goes to the weakest house (fewest castles): a leader is held back, no
rival grows."""

from __future__ import annotations

from gotsim.engine.board_state import castles_held, controller
from gotsim.engine.state import ACT_FOOTMAN, ACT_NONE, H
from gotsim.engine.westeros.deck4 import TARGARYEN, LoyaltyStep
from gotsim.jit import njit
from gotsim.rules.ids import DRAGON, FOOTMAN, KNIGHT

SPARE_POWER = 2  # power Targaryen keeps for itself before it pays for a token
CLASH_BID_FROM = 6  # Targaryen bids 1 on a track when it has this much power


@njit
def _closeness(g, t, a: int) -> int:
    """How near Targaryen stands to ``a``: 3 it controls it, 2 its units next to it, 0 none."""
    if controller(g, t, a) == TARGARYEN:
        return 3
    for j in range(t.neighbours.shape[1]):
        b = t.neighbours[a, j]
        if b < 0:
            break
        if g.owner[b] == TARGARYEN:
            return 2
    return 0


@njit
def loyalty_choice(g, t, house: int, mask, params, memo) -> int:
    step = g.ctx[0]
    if step == LoyaltyStep.CHOICE or step == LoyaltyStep.HOME:
        if g.power[TARGARYEN] < SPARE_POWER and not (step == LoyaltyStep.HOME and g.westeros_loop):
            return ACT_NONE
        best, best_a = -1, ACT_NONE
        for a in range(t.n_areas):
            if mask[a]:
                c = _closeness(g, t, a)
                if c > best:
                    best, best_a = c, a
        return best_a
    if step == LoyaltyStep.FIRE:
        if mask[ACT_FOOTMAN]:
            return ACT_FOOTMAN
        n = 0
        for a in range(t.n_areas):
            n += g.units[a, DRAGON]
        if n >= 3 and g.game_round <= 5:  # a dragon for stronger dragons, early on
            for a in range(t.n_areas):
                if mask[a]:
                    return a
        return ACT_NONE
    if step == LoyaltyStep.MOVE_FROM or step == LoyaltyStep.MOVE_TO:
        towards = house == TARGARYEN
        best, best_a = -1, -1
        for a in range(t.n_areas):
            if mask[a]:
                c = _closeness(g, t, a)
                # from: the token nearest Targaryen's armies; to: nearer (Targaryen) or away
                v = c if step == LoyaltyStep.MOVE_FROM or towards else 3 - c
                if v > best:
                    best, best_a = v, a
        return best_a
    if step == LoyaltyStep.PLAY_AREA or step == LoyaltyStep.WATER:
        # a token next to its armies (it takes it with its next march), while it keeps power
        price = 1 if step == LoyaltyStep.PLAY_AREA else g.ctx[2]
        paid = step == LoyaltyStep.WATER and g.ctx[1] >= 0
        if not paid and g.power[TARGARYEN] - price < SPARE_POWER - 1:
            return ACT_NONE
        best, best_a = -1, ACT_NONE
        for a in range(t.n_areas):
            if mask[a]:
                c = _closeness(g, t, a)
                if c > best:
                    best, best_a = c, a
        if best < 2 and not paid:
            return ACT_NONE
        return best_a
    if step == LoyaltyStep.PLAY_HOUSE:
        return weakest_house(g, t, mask)
    if step == LoyaltyStep.PLAY_UNIT:
        return KNIGHT if mask[KNIGHT] else (FOOTMAN if mask[FOOTMAN] else -1)
    if step == LoyaltyStep.PLAN_HOUSE:
        if g.power[TARGARYEN] <= SPARE_POWER:
            return ACT_NONE
        return weakest_house(g, t, mask)
    if step == LoyaltyStep.PLAN_AREA:
        # the chosen house: far from Targaryen, in an area it holds itself where it can
        best, best_a = -1, -1
        for a in range(t.n_areas):
            if mask[a]:
                v = 2 * (3 - _closeness(g, t, a)) + (1 if controller(g, t, a) == house else 0)
                if v > best:
                    best, best_a = v, a
        return best_a
    if step == LoyaltyStep.CANCEL:
        source, dest, cost = g.ctx[1], g.ctx[2], g.ctx[3]
        if g.power[TARGARYEN] - cost >= SPARE_POWER and _closeness(g, t, source) > _closeness(
            g, t, dest
        ):
            return 1
        return 0
    return -1


@njit
def weakest_house(g, t, mask) -> int:
    """Of the houses marked in ``mask``, the one holding the fewest castles (-1: none)."""
    best, best_h = 1 << 30, -1
    for h in range(H):
        if mask[h]:
            c = castles_held(g, t, h)
            if c < best:
                best, best_h = c, h
    return best_h


@njit
def clash_bid(g, t, mask) -> int:
    """Targaryen's Clash of Kings bid (it stays last; the bid goes to other houses): 1 while it
    has power to spare, else 0."""
    return 1 if g.power[TARGARYEN] >= CLASH_BID_FROM and mask[1] else 0


@njit
def hand_out_to(g, t, mask) -> int:
    """TARGARYEN_BID: each power of its bid to the weakest house."""
    return weakest_house(g, t, mask)
