"""Where House Targaryen's loyalty tokens come from in all-heuristic 8-player Mother of Dragons
games: each token counted where it leaves the board for Targaryen's pile, by phase, by who held
the area just before (nobody, Targaryen, or another house: a battle) and by whether the units
standing there after are dragons alone.

``python benchmarks/loyalty_sources.py [GAMES]`` (150 by default; seeds 1,000 on, one game at a
time through ``Game``, about 2.5 s a game).
"""

import collections
import sys

import numpy as np

from gotsim.engine.game import Game
from gotsim.engine.state import Phase
from gotsim.players import HeuristicPolicy
from gotsim.rules.ids import House, Unit

TARGARYEN = int(House.TARGARYEN)


def main(n: int) -> None:
    counts: collections.Counter[tuple[str, str, str]] = collections.Counter()
    wins = collections.Counter()
    taken_per_game = []
    policy = HeuristicPolicy()
    for i in range(n):
        game = Game(players=8, seed=1000 + i, expansion="mod")
        g = game.record
        while not game.finished:
            loyalty, owner, taken = g.loyalty.copy(), g.owner.copy(), int(g.loyalty_taken)
            phase = Phase(int(g.phase)).name.lower()
            pending = game.pending
            assert pending is not None
            game.step(policy(game, pending))
            if int(g.loyalty_taken) == taken:
                continue
            for a in np.flatnonzero(g.loyalty < loyalty):
                before = int(owner[a])
                held = "held" if before == TARGARYEN else "nobody" if before < 0 else "battle"
                units = g.units[a]
                alone = units[Unit.DRAGON] > 0 and units[: Unit.DRAGON].sum() == 0
                kind = "dragons alone" if alone else "army"
                counts[(phase, held, kind)] += int(loyalty[a] - g.loyalty[a])
        taken_per_game.append(int(g.loyalty_taken))
        if game.winner == House.TARGARYEN:
            wins[game.end_reason] += 1
    total = sum(counts.values())
    for (phase, held, kind), k in counts.most_common():
        print(f"{phase:9} {held:7} {kind:14} {k:5} {k / total:6.1%}")
    mean = np.mean(taken_per_game)
    print(f"{n} games: {mean:.2f} tokens taken a game; Targaryen won {dict(wins)}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 150)
