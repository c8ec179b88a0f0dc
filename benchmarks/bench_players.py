"""The players' targets, measured: a heuristic house against five random ones in every seat, the
win shares and castle victories of all-heuristic games, parameter variants in a tournament, and
complete heuristic games per second.

Run: ``python benchmarks/bench_players.py [--seat-games N] [--games N] [--variant-games N]
[--speed-games N] [--jobs J]``. Prints one JSON object (and a readable summary on stderr).

``--search-games N`` (0 by default: minutes per 100 games) adds the search player, in every
seat in turn, against five heuristics: its win rate with a 95 % Wilson interval, the heuristic's
own win rate in the same seats and seeds, and seconds per game. ``--search-only`` skips the rest.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from typing import Any

import numpy as np

from gotsim.engine.state import EndReason
from gotsim.play.simulate import play_games
from gotsim.play.tournament import play_seated, seat_table, variant_tournament
from gotsim.rules.ids import BASE_HOUSES, House

VARIANTS: dict[str, Any] = {
    "default": "heuristic",
    "aggressive": {"aggression": 0.9, "risk": 0.8},
    "cautious": {"aggression": 0.3, "defence": 0.9, "risk": 0.2},
    "thrifty": {"card_thrift": 1.0, "power": 0.9},
    "spendthrift": {"card_thrift": 0.0, "bid_iron_throne": 0.6, "bid_kings_court": 0.6},
    "random": "random",
}


def against_random(n_games: int, jobs: int) -> dict[str, Any]:
    table = seat_table("heuristic", n_games, players=6, seed=2024, n_jobs=jobs)
    return {
        "games_per_seat": n_games,
        "win_rate_by_seat": {r.house: round(r.win_rate, 4) for r in table.itertuples()},
        "win_rate_mean": round(float(table.win_rate.mean()), 4),
        "castle_wins_share": round(float(table.castle_wins.sum() / table.wins.sum()), 4),
    }


def all_heuristic(n_games: int, jobs: int) -> dict[str, Any]:
    games = play_games(n_games, players=6, seed=77, n_jobs=jobs, policies="heuristic")
    wins = Counter(int(w) for w in games.winner)
    return {
        "games": n_games,
        "win_share": {h.id: round(wins[h] / n_games, 4) for h in BASE_HOUSES},
        "castle_victory_share": round(float((games.end_reason == EndReason.CASTLES).mean()), 4),
        "mean_end_round": round(float(games.game_round.mean()), 2),
        "battles_per_game": round(float(games.battles.sum(axis=1).mean() / 2), 1),
    }


def tournament(n_games: int, jobs: int) -> dict[str, Any]:
    table = variant_tournament(VARIANTS, n_games, players=6, seed=5, n_jobs=jobs)
    return {
        "games": n_games,
        "variants": {
            r.variant: {"win_share": round(r.win_share, 4), "elo": round(r.elo, 1)}
            for r in table.itertuples()
        },
    }


def speed(n_games: int, jobs: int) -> dict[str, Any]:
    out: dict[str, Any] = {"games": n_games, "jobs": jobs}
    for policy in ("random", "heuristic"):
        play_games(64, players=6, n_jobs=jobs, policies=policy)  # compile / load the cache
        best = float("inf")
        for _ in range(2):
            start = time.perf_counter()
            play_games(n_games, players=6, n_jobs=jobs, seed=12345, policies=policy)
            best = min(best, time.perf_counter() - start)
        out[f"{policy}_games_per_s"] = round(n_games / best, 1)
    return out


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (round(centre - half, 4), round(centre + half, 4))


def search_vs_heuristic(n_games: int, jobs: int, rollouts: int) -> dict[str, Any]:
    """The search player in each of the six seats in turn (``n_games`` in all) against five
    default heuristics, and the heuristic in the same seats and seeds."""
    spec = {"kind": "search", "rollouts": rollouts}
    seats = rotation_seats(n_games)
    start = time.perf_counter()
    searched = play_seated(seats, [spec, "heuristic"], players=6, seed=31, n_jobs=jobs)
    seconds = time.perf_counter() - start
    plain = play_seated(seats, ["heuristic", "heuristic"], players=6, seed=31, n_jobs=jobs)
    seat = np.argmin(seats, axis=1)  # the house playing specs[0]
    wins = int((searched.winner == seat).sum())
    base = int((plain.winner == seat).sum())
    return {
        "games": n_games,
        "rollouts": rollouts,
        "search_win_rate": round(wins / n_games, 4),
        "search_ci95": wilson(wins, n_games),
        "heuristic_win_rate_same_seats": round(base / n_games, 4),
        "heuristic_ci95": wilson(base, n_games),
        "seconds_per_game": round(seconds / n_games, 2),
        "jobs": jobs,
    }


def v2_vs_v1(n_games: int, jobs: int) -> dict[str, Any]:
    """The second heuristic in each of the six seats in turn against five ``heuristic_v1``."""
    seats = rotation_seats(n_games)
    games = play_seated(seats, ["heuristic", "heuristic_v1"], players=6, seed=41, n_jobs=jobs)
    seat = np.argmin(seats, axis=1)
    wins = int((games.winner == seat).sum())
    by_house = {h.id: round(float((games.winner[seat == h] == h).mean()), 4) for h in BASE_HOUSES}
    return {
        "games": n_games,
        "v2_win_rate": round(wins / n_games, 4),
        "ci95": wilson(wins, n_games),
        "by_seat": by_house,
    }


def win_share_tables(n_games: int, jobs: int) -> dict[str, Any]:
    """All-heuristic win shares at 3, 4, 5 and 6 players."""
    out: dict[str, Any] = {}
    for players in (3, 4, 5, 6):
        games = play_games(n_games, players=players, seed=78, n_jobs=jobs, policies="heuristic")
        wins = Counter(int(w) for w in games.winner)
        in_play = [h for h in House if games.in_play[0, h]]
        out[f"{players}p"] = {h.id: round(wins[h] / n_games, 4) for h in in_play}
    return out


def rotation_seats(n_games: int) -> np.ndarray:
    """Game i: house i mod 6 plays spec 0, every other house spec 1."""
    seats = np.ones((n_games, len(BASE_HOUSES)), np.int64)
    seats[np.arange(n_games), np.arange(n_games) % len(BASE_HOUSES)] = 0
    return seats


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seat-games", type=int, default=300)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--variant-games", type=int, default=1800)
    parser.add_argument("--speed-games", type=int, default=4000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--search-games", type=int, default=0)
    parser.add_argument("--search-rollouts", type=int, default=16)
    parser.add_argument("--search-only", action="store_true")
    parser.add_argument(
        "--v2-only",
        action="store_true",
        help="only the second heuristic against five v1 (--games games) and the win-share "
        "tables at 3-6 players (--games each)",
    )
    args = parser.parse_args()
    if args.v2_only:
        found = {
            "v2_vs_v1": v2_vs_v1(args.games, args.jobs),
            "against_random": against_random(args.seat_games, args.jobs),
            "win_shares": win_share_tables(args.games, args.jobs),
        }
        print(json.dumps(found))
        return
    if args.search_only:
        found = search_vs_heuristic(args.search_games, args.jobs, args.search_rollouts)
        print(json.dumps({"search_vs_heuristic": found}))
        return
    result = {
        "against_random": against_random(args.seat_games, args.jobs),
        "all_heuristic": all_heuristic(args.games, args.jobs),
        "variant_tournament": tournament(args.variant_games, args.jobs),
        "speed": speed(args.speed_games, args.jobs),
    }
    if args.search_games:
        result["search_vs_heuristic"] = search_vs_heuristic(
            args.search_games, args.jobs, args.search_rollouts
        )
    print(json.dumps(result))
    ar, ah = result["against_random"], result["all_heuristic"]
    print(
        f"vs random: {ar['win_rate_mean']:.1%} mean; all heuristic: "
        + ", ".join(f"{h} {s:.1%}" for h, s in ah["win_share"].items())
        + f"; castle victories {ah['castle_victory_share']:.1%}; "
        + f"{result['speed']['heuristic_games_per_s']} heuristic games/s",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
