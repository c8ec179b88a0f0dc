"""Long invariant fuzz of the engine: many complete random games per player count and Tides of
Battle setting, checking every invariant at the end of each game.

Run: ``python benchmarks/fuzz_engine.py [--games N]``; prints the games played and violations.
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from gotsim.engine.init import new_games
from gotsim.engine.invariants import violations
from gotsim.engine.runner import play_random
from gotsim.engine.tables import rules_table


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=5000, help="games per setting")
    args = parser.parse_args()
    report = {"games": 0, "violations": 0, "unfinished": 0, "examples": []}
    for players in (3, 4, 5, 6):
        for tides in (False, True):
            rules = rules_table("2e", players, tides)
            seeds = [
                np.random.SeedSequence(99, spawn_key=(players, tides, i)) for i in range(args.games)
            ]
            games = new_games(seeds, players=players)
            play_random(games, rules, 1_000_000)
            report["games"] += len(games)
            report["unfinished"] += int((games.done == 0).sum())
            for i, g in enumerate(games):
                found = violations(g, rules[0])
                report["violations"] += len(found)
                if found and len(report["examples"]) < 10:
                    report["examples"].append([players, tides, i, found[:3]])
    print(json.dumps(report))


if __name__ == "__main__":
    main()
