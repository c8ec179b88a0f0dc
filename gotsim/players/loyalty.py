"""The heuristic's answers to Mother of Dragons' loyalty decisions (Westeros deck IV,
``engine.westeros.deck4``; ``docs/players.md``): Targaryen puts tokens where it stands or can
reach soon and pays for them while it keeps power for later; it cancels moves that carry a
token away from its armies; every other house moves tokens away from Targaryen's."""

from __future__ import annotations

from gotsim.engine.board_state import controller
from gotsim.engine.state import ACT_FOOTMAN, ACT_NONE
from gotsim.engine.westeros.deck4 import TARGARYEN, LoyaltyStep
from gotsim.jit import njit
from gotsim.rules.ids import DRAGON

SPARE_POWER = 2  # power Targaryen keeps for itself before it pays for a token


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
    if step == LoyaltyStep.CANCEL:
        source, dest, cost = g.ctx[1], g.ctx[2], g.ctx[3]
        if g.power[TARGARYEN] - cost >= SPARE_POWER and _closeness(g, t, source) > _closeness(
            g, t, dest
        ):
            return 1
        return 0
    return -1
