"""How the heuristic commands vassals (``docs/rules.md`` V11): it claims the strongest vassal
left, and a vassal it commands never marches on, raids or supports against its commander (nor
the commander against it), and supports its commander's side in a battle it can reach."""

from __future__ import annotations

from gotsim.engine import combat as cb
from gotsim.engine.state import ACT_NONE, Decision, H, U
from gotsim.engine.vassals import allied
from gotsim.jit import njit


@njit
def claim_choice(g, t, house: int, mask) -> int:
    """The unclaimed vassal with the most units on the board (never a pass while one is left)."""
    best, best_units = ACT_NONE, -1
    for v in range(H):
        if not mask[v]:
            continue
        units = 0
        for a in range(t.n_areas):
            if g.owner[a] == v:
                for u in range(U):
                    units += g.units[a, u]
        if units > best_units:
            best, best_units = v, units
    return best


@njit
def command_filter(g, t, house: int, action: int, mask) -> int:
    """``action`` of ``house`` (the heuristic's), turned aside where it would hurt an ally: a
    march into an ally's area stays put, a raid on an ally raids nothing, support goes to the
    ally's side of a battle."""
    kind = g.pending
    if kind == Decision.MARCH_UNIT:
        origin = g.ctx[0]
        ally = g.owner[action] if g.owner[action] >= 0 else g.power_token[action]
        if action != origin and allied(g, t, house, ally):
            return origin
    elif kind == Decision.RAID_TARGET:
        if action != ACT_NONE and allied(g, t, house, g.owner[action]):
            return ACT_NONE
    elif kind == Decision.SUPPORT_SIDE:
        attacker = g.battle[cb.ATTACKER * cb.SIDE + cb.HOUSE]
        defender = g.battle[cb.DEFENDER * cb.SIDE + cb.HOUSE]
        if allied(g, t, house, attacker) and mask[1]:
            return 1
        if allied(g, t, house, defender) and mask[2]:
            return 2
    return action
