"""Mother of Dragons' dragons (House Targaryen's, 8 players): their strength by round, their
place in a battle, and the march of an army of dragons alone (``docs/rules.md`` M10, M11).

Dragons are the unit type ``Unit.DRAGON`` on the board (``g.units[a, DRAGON]``). In a battle
vector they have their own slots (``combat.DRAGONS``, ``DRAGON_SUPPORT``, ``DRAGON_STRENGTH``),
so the base unit slots keep their layout."""

from __future__ import annotations

from gotsim.engine import combat as cb
from gotsim.jit import njit
from gotsim.rules.ids import DRAGON

MAX_DRAGON_STRENGTH = 5  # the five dragon strength tokens


@njit
def dragon_strength(g, t) -> int:
    """A dragon's strength now: the dragon strength tokens whose round has come
    (``dragon_strength.by_round_default``), and those Fire Made Flesh moved early, at most 5."""
    r = min(max(int(g.game_round), 1), 10)
    return min(MAX_DRAGON_STRENGTH, int(t.dragon_strength[r]) + int(g.dragon_boost))


@njit
def set_dragons(g, t, b, target: int, defender: int) -> None:
    """The dragons of a battle at ``target``: the attacker's marching ones, the defender's
    standing there (not routed), and their strength this round."""
    b[cb.DRAGON_STRENGTH] = dragon_strength(g, t)
    b[cb.DRAGONS + cb.ATTACKER] = g.moving[target, DRAGON]
    if g.owner[target] == defender:
        b[cb.DRAGONS + cb.DEFENDER] = g.units[target, DRAGON] - g.routed[target, DRAGON]
