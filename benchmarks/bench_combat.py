"""Speed of the combat-odds calculator: exact uniform and equilibrium odds for two full 7-card
hands with Tides of Battle, and the sampled path's battles per second.

Run: ``python benchmarks/bench_combat.py [--repeat N]``. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import time

from gotsim.odds import combat_odds

FULL_HANDS = {
    "area": "riverrun",
    "tides_of_battle": True,
    "attacker": {"house": "lannister", "units": {"footman": 2, "knight": 1}, "order": "march+1"},
    "defender": {"house": "stark", "units": {"footman": 1, "knight": 1}, "order": "defense+1"},
    "support": [
        {"house": "greyjoy", "side": "attacker", "units": {"ship": 1}, "order": "support+0"}
    ],
    "fiefdoms": ["stark", "lannister", "greyjoy"],
    "iron_throne": ["lannister", "stark", "greyjoy"],
}


def per_call(model: str, repeat: int) -> float:
    combat_odds(FULL_HANDS, model=model)  # warm-up: compile / load the numba cache
    start = time.perf_counter()
    for _ in range(repeat):
        combat_odds(FULL_HANDS, model=model)
    return (time.perf_counter() - start) / repeat


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--samples", type=int, default=2_000_000)
    args = parser.parse_args()
    combat_odds(FULL_HANDS, samples=10_000)
    start = time.perf_counter()
    combat_odds(FULL_HANDS, samples=args.samples)
    sampled = args.samples / (time.perf_counter() - start)
    print(
        json.dumps(
            {
                "exact_uniform_ms": round(1000 * per_call("uniform", args.repeat), 2),
                "exact_equilibrium_ms": round(1000 * per_call("equilibrium", args.repeat), 2),
                "sampled_battles_per_s": round(sampled),
                "hands": "7 x 7",
                "tides_of_battle": True,
            }
        )
    )


if __name__ == "__main__":
    main()
