"""Tune the heuristic's parameters per house by CMA-ES (the ``cma`` package) against a league.

For each house, the parameters (all but ``noise``, ``version`` and ``foresight``, scaled to their
ranges) are searched by CMA-ES. A candidate is scored by the games it plays in that house's seat,
every other seat held by a member of the league (``heuristic_v1`` by default; ``--league`` adds
more specs from a JSON file, the seats drawn in turn): its wins plus 0.05 a castle held at the
end, per game. Within a generation every candidate plays the same seeded games (common random
numbers); every generation draws new ones. The distribution's mean after the last generation is
the result; it is then validated on games none of the search saw, against the league and beside
the league's own player in the same seats and seeds.

Run: ``python tools/tune_heuristic.py [--houses stark,lannister] [--generations 12]
[--popsize 8] [--games 600] [--validate 3000] [--jobs 2] [--league FILE] [--start FILE]
[--edition 2e] [--players 6] [--expansion mod|affc|adwd] [--out FILE]``. ``--start`` begins
each house from its parameters in an earlier result (a second round against a league that holds
the first round's players, ``"heuristic"``), or with ``--start defaults`` from the set it plays
now in a game of that edition, player count and expansion. A league member may also be
``{"tuned": FILE}``: each house of the league played by its parameters in that earlier result (a
round against the sets of the one before it where they are not the defaults, as for the 1st
edition). Writes a
JSON file of the tuned parameters per house with how they were found
(``gotsim/data/2e/heuristic_v2.json`` is where the defaults of ``"heuristic"`` are read from;
``gotsim/data/1e/heuristic.json`` holds one such result per player count for the 1st edition,
``gotsim/data/2e/heuristic_v2_by_players.json`` the 2nd edition's 5-player one,
``gotsim/data/2e/heuristic_v2_affc.json`` A Feast for Crows'; rounds not adopted are kept in
``tools/tuned/``)
and prints one line per generation.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from gotsim.engine.tables import rules_table
from gotsim.play.runner import castle_table
from gotsim.play.tournament import houses_in_play, play_seated
from gotsim.players.params import PARAMS, V1_DEFAULTS, defaults_for
from gotsim.rules.ids import House
from gotsim.rules.setup import SetupDataError

FIXED = ("noise", "version", "foresight")  # not tuned: noise keeps openings apart, version
# picks the rules, foresight trades speed for raids
TUNED = [p for p in PARAMS if p.name not in FIXED]


def spec_of(x: np.ndarray) -> dict[str, Any]:
    """The heuristic spec of a point of the unit cube (one coordinate per tuned parameter)."""
    spec: dict[str, Any] = {"kind": "heuristic", "version": 2.0}
    for p, v in zip(TUNED, np.clip(x, 0.0, 1.0), strict=True):
        spec[p.name] = round(p.low + float(v) * (p.high - p.low), 4)
    return spec


def unit_of(values: dict[str, float]) -> np.ndarray:
    return np.array([(values[p.name] - p.low) / (p.high - p.low) for p in TUNED])


def member_specs(member: Any) -> list[Any]:
    """A league member's spec for each house, in ``House`` order (``{"tuned": FILE}``: each
    house's parameters in that earlier result, the defaults for a house it does not name)."""
    if isinstance(member, dict) and "tuned" in member:
        sets = json.loads(Path(member["tuned"]).read_text())["houses"]
        return [
            {"kind": "heuristic", **sets[h.id]["params"]} if h.id in sets else "heuristic"
            for h in House
        ]
    return [member] * len(House)


def score(
    spec: Any,
    house: House,
    league: list[Any],
    games: int,
    seed: int,
    args: argparse.Namespace,
) -> tuple[float, int]:
    """(wins + 0.05 castles per game, wins) of ``spec`` in ``house``'s seat against ``league``."""
    per_house = [member_specs(m) for m in league]
    specs = [spec] + [s for member in per_house for s in member]
    n = len(House)
    seats = np.ones((games, n), np.int64)
    for i in range(games):
        for h in range(n):
            seats[i, h] = 1 + ((i + h) % len(league)) * n + h
    seats[:, house] = 0
    records = play_seated(
        seats,
        specs,
        players=args.players,
        edition=args.edition,
        seed=seed,
        n_jobs=args.jobs,
        expansion=args.expansion,
    )
    rules = rules_table(args.edition, args.players, None, args.expansion)
    castles = castle_table(records, rules)[:, house]
    wins = int((records.winner == house).sum())
    return (wins + 0.05 * float(castles.sum())) / games, wins


def wilson(wins: int, n: int, z: float = 1.96) -> list[float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [round(centre - half, 4), round(centre + half, 4)]


def tune_house(
    house: House, league: list[Any], args: argparse.Namespace, start: dict[str, Any]
) -> dict[str, Any]:
    import cma

    first = {p.name: float(V1_DEFAULTS[i]) for i, p in enumerate(PARAMS)}
    first.update(start.get(house.id, {}))
    es = cma.CMAEvolutionStrategy(
        unit_of(first),
        args.sigma,
        {
            "bounds": [0.0, 1.0],
            "popsize": args.popsize,
            "seed": 1 + int(house),
            "verbose": -9,
        },
    )
    history = []
    for generation in range(args.generations):
        xs = es.ask()
        seed = 10_000 * (1 + int(house)) + generation
        scores = [score(spec_of(x), house, league, args.games, seed, args)[0] for x in xs]
        es.tell(xs, [-s for s in scores])
        history.append([round(max(scores), 4), round(float(np.mean(scores)), 4)])
        print(
            f"{house.id} generation {generation + 1}/{args.generations}: best "
            f"{max(scores):.3f}, mean {np.mean(scores):.3f}",
            file=sys.stderr,
            flush=True,
        )
    found = spec_of(es.result.xfavorite)
    seed = 99_000 + int(house)  # games no generation played
    _, wins = score(found, house, league, args.validate, seed, args)
    _, base = score(member_specs(league[0])[house], house, league, args.validate, seed, args)
    return {
        "params": {k: v for k, v in found.items() if k != "kind"},
        "validation": {
            "games": args.validate,
            "win_rate": round(wins / args.validate, 4),
            "ci95": wilson(wins, args.validate),
            "league_player_win_rate": round(base / args.validate, 4),
            "league_player_ci95": wilson(base, args.validate),
        },
        "history_best_mean": history,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--houses", default="all", help="comma-separated house ids, or all")
    parser.add_argument("--generations", type=int, default=12)
    parser.add_argument("--popsize", type=int, default=8)
    parser.add_argument("--sigma", type=float, default=0.2, help="initial step (unit cube)")
    parser.add_argument("--games", type=int, default=600, help="games per candidate")
    parser.add_argument("--validate", type=int, default=3000, help="validation games per house")
    parser.add_argument("--league", help="JSON list of opponent specs (default heuristic_v1)")
    parser.add_argument(
        "--start",
        help="an earlier result: each house starts from its values; defaults: from its set now",
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--edition", choices=("2e", "1e"), default="2e")
    parser.add_argument("--players", type=int, default=6, help="players a game")
    parser.add_argument(
        "--expansion",
        choices=("mod", "affc", "adwd"),
        help="a 2nd-edition expansion's game (mod: 7 or 8 players; affc: 4; adwd: 6)",
    )
    parser.add_argument("--out", default="heuristic_v2.json")
    args = parser.parse_args()
    league: list[Any] = ["heuristic_v1"]
    if args.league:
        league = json.loads(Path(args.league).read_text())
    if args.expansion is not None and args.edition != "2e":
        parser.error("--expansion: the expansions are played with the 2nd edition")
    try:
        houses = houses_in_play(args.players, args.edition, args.expansion)
    except SetupDataError as exc:
        parser.error(f"--players: {exc}")
    start: dict[str, Any] = {}
    if args.start == "defaults":
        start = {
            h.id: {
                p.name: float(v)
                for p, v in zip(
                    PARAMS, defaults_for(h, args.edition, args.players, args.expansion), strict=True
                )
            }
            for h in houses
        }
    elif args.start:
        earlier = json.loads(Path(args.start).read_text())["houses"]
        start = {house_id: found["params"] for house_id, found in earlier.items()}
    if args.houses != "all":
        houses = [House[h.strip().upper()] for h in args.houses.split(",")]
    began = time.perf_counter()
    out: dict[str, Any] = {
        "how": (
            "CMA-ES per house (tools/tune_heuristic.py): the house's parameters against the "
            f"other {args.players - 1} seats of the league ({args.edition}), wins + 0.05 castles "
            "a game, common seeds per generation, the distribution's mean after the last "
            "generation; validated on unseen seeds"
        ),
        "command": " ".join(sys.argv),
        "date": datetime.date.today().isoformat(),
        "league": league,
        "start": args.start or "heuristic_v1",
        "edition": args.edition,
        "players": args.players,
        "expansion": args.expansion,
        "settings": {
            "generations": args.generations,
            "popsize": args.popsize,
            "sigma": args.sigma,
            "games_per_candidate": args.games,
            "validation_games": args.validate,
        },
        "houses": {},
    }
    for house in houses:
        out["houses"][house.id] = tune_house(house, league, args, start)
        Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    out["seconds"] = round(time.perf_counter() - began)
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    for house_id, found in out["houses"].items():
        v = found["validation"]
        print(
            f"{house_id}: {v['win_rate']:.1%} {v['ci95']} against the league "
            f"(its own player {v['league_player_win_rate']:.1%})"
        )


if __name__ == "__main__":
    main()
