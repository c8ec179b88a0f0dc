"""Per-house win rates of all-heuristic Mother of Dragons games (seed 2015, the Iron Bank on by
default), how games end and Targaryen's share of wins by loyalty.

``python benchmarks/mod_rates.py N [PLAYERS]`` (PLAYERS 8 by default).
"""

import sys
import time

import gotsim
from gotsim.analysis import win_rates

n = int(sys.argv[1])
players = int(sys.argv[2]) if len(sys.argv) > 2 else 8
start = time.time()
g = gotsim.simulate(n, players=players, expansion="mod", policies="heuristic", seed=2015, n_jobs=2)
print(f"{n} games in {time.time() - start:.0f} s")
r = win_rates(g)
print(r[["house", "wins", "win_rate", "ci_low", "ci_high"]].round(4).to_string())
ends = g.end_reason.value_counts(normalize=True).round(4).to_dict()
print(ends, "mean end round", g.end_round.mean())
tw = g[g.winner == "targaryen"]
by_loyalty = (tw.end_reason == "loyalty").sum()
print("targaryen wins", len(tw), "by loyalty", by_loyalty, f"{by_loyalty / max(len(tw), 1):.4f}")
