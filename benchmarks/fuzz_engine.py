"""Long invariant fuzz of the engine: many complete random games per player count and Tides of
Battle setting (2nd edition) or per player count (1st edition), checking every invariant at the
end of each game.

Run: ``python benchmarks/fuzz_engine.py [--games N] [--edition 1e|2e|both] [--variant NAME]``
(``--variant`` repeats; the A Clash of Kings modules are 1st-edition variants); prints the games
played and violations.
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from gotsim.engine.init import new_games
from gotsim.engine.invariants import violations
from gotsim.engine.runner import play_random
from gotsim.engine.tables import rules_for, variant_flags


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=5000, help="games per setting")
    parser.add_argument("--edition", choices=("1e", "2e", "both"), default="2e")
    parser.add_argument("--variant", action="append", default=[], help="a variant switched on")
    args = parser.parse_args()
    flags = variant_flags(dict.fromkeys(args.variant, True))
    report = {
        "games": 0,
        "violations": 0,
        "unfinished": 0,
        "fortified_at_end": 0,
        "siege_engines_at_end": 0,
        "ships_in_ports_at_end": 0,
        "one_time_orders_placed": 0,
        "examples": [],
    }
    settings = []
    if args.edition in ("2e", "both"):
        settings += [("2e", p, tides) for p in (3, 4, 5, 6) for tides in (False, True)]
    if args.edition in ("1e", "both"):
        settings += [("1e", p, False) for p in (3, 4, 5)]
    for edition, players, tides in settings:
        rules = rules_for(edition, players, {**flags, "tides_of_battle": tides})
        # the 2e keys stay as they were, so its fuzz games do not change
        key = (players, tides) if edition == "2e" else (1, players)
        seeds = [np.random.SeedSequence(99, spawn_key=(*key, i)) for i in range(args.games)]
        games = new_games(seeds, edition=edition, players=players)
        play_random(games, rules, 1_000_000)
        report["games"] += len(games)
        report["unfinished"] += int((games.done == 0).sum())
        report["fortified_at_end"] += int((games.fortification > 0).sum())
        report["siege_engines_at_end"] += int(games.units[:, :, 3].sum())
        ports = np.flatnonzero(rules[0].kind[: rules[0].n_areas] == 2)
        report["ships_in_ports_at_end"] += int(games.units[:, ports, 2].sum())
        used = np.unpackbits(games.one_time_used.astype(np.uint16).view(np.uint8))
        report["one_time_orders_placed"] += int(used.sum())
        for i, g in enumerate(games):
            found = violations(g, rules[0])
            report["violations"] += len(found)
            if found and len(report["examples"]) < 10:
                report["examples"].append([edition, players, tides, i, found[:3]])
    print(json.dumps(report))


if __name__ == "__main__":
    main()
