"""Speed and memory of the engine: complete random games per second on all cores and on one,
per player count, and the bytes each game in flight takes.

Run: ``python benchmarks/bench_engine.py [--games N]``. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import time

from gotsim.engine.state import STATE_DTYPE
from gotsim.play.simulate import play_games


def rate(games: int, players: int, jobs: int) -> float:
    play_games(64, players=players, n_jobs=jobs)  # compile / load the numba cache
    start = time.perf_counter()
    play_games(games, players=players, n_jobs=jobs, seed=2024)
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=8000)
    args = parser.parse_args()
    out = {
        f"games_per_s_{p}p_{j}core": round(rate(args.games, p, j)) for p in (6, 3) for j in (2, 1)
    }
    out["bytes_per_game_in_flight"] = STATE_DTYPE.itemsize
    print(json.dumps(out))


if __name__ == "__main__":
    main()
