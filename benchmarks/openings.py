"""How one house opens under the search player and under its own heuristic.

The same seeded games are played twice up to the start of round ``rounds + 1``: once with the
house searching, once with it playing its heuristic, the other houses the heuristic both times.
For each it counts the orders the house placed each round (area and order), the house's moves
of the action phase as the game narrates them (its marches, in the order it resolved them, and
the battles they led to), and the areas it holds at the start of each later round. Where the two
differ is where the search gains on the heuristic in the opening: for Stark at 6 players, the
search resolves White Harbor's march first, so that its footman takes Moat Cailin and Winterfell's
knight follows it (``docs/players.md``).

Run: ``python benchmarks/openings.py --house stark --games 30 [--rounds 2] [--rollouts 16]``
(about 15 s a game on one core for two rounds). Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from typing import Any

from gotsim.engine.game import Game
from gotsim.engine.state import ORDER_NAMES, Phase
from gotsim.players.policy import policies_for
from gotsim.players.search import SearchPolicy
from gotsim.rules.ids import House

FIRST_SEED = 1000
ACTION_PHASES = {int(Phase.RAIDS), int(Phase.MARCHES), int(Phase.CONSOLIDATE)}


def opening(
    house: House, seed: int, rounds: int, search: dict[str, Any] | None, players: int = 6
) -> dict[str, Any]:
    """One game up to the start of round ``rounds + 1``: ``house``'s orders each round, its
    action-phase moves narrated, and the areas it holds at the start of each round after the
    first (``search``: the search player's spec for the house; None: its heuristic)."""
    game = Game(players=players, seed=seed)
    policy = policies_for("heuristic")
    if search is not None:
        policy[house] = SearchPolicy(search)
    record = game.record
    names = game.board.area_names
    orders: dict[int, list[str]] = {}
    moves: dict[int, list[str]] = {}
    held: dict[int, list[str]] = {}
    while not game.finished and int(record.game_round) <= rounds:
        r = int(record.game_round)
        if int(record.phase) in ACTION_PHASES and r not in orders:
            orders[r] = sorted(
                f"{names[a]} {ORDER_NAMES[int(record.order[a])]}"
                for a in range(game.t.n_areas)
                if record.owner[a] == house and record.order[a] >= 0
            )
        pending = game.pending
        assert pending is not None
        action = policy[pending.house](game, pending)
        if pending.house == house and int(record.phase) in ACTION_PHASES:
            moves.setdefault(r, []).append(game.describe(pending, action))
        game.step(action)
        if int(record.game_round) > r:
            held[r + 1] = sorted(
                names[a] for a in range(game.t.n_areas) if record.owner[a] == house
            )
    return {"orders": orders, "moves": moves, "held": held}


def compare(
    house: House, games: int, rounds: int = 2, rollouts: int = 16, points: int = 31
) -> dict[str, Any]:
    """``opening`` for seeds ``FIRST_SEED`` on, with the house searching (``rollouts`` a
    candidate, at the ``points`` the search knob names) and with its heuristic: per side and
    round, how often each order, each move line and each area held came up, most often first;
    and the games whose openings differ."""
    spec = {"kind": "search", "rollouts": rollouts, "points": points}
    out: dict[str, Any] = {"house": house.name.lower(), "games": games, "rounds": rounds}
    lines: dict[str, list[dict[str, Any]]] = {"search": [], "heuristic": []}
    for seed in range(FIRST_SEED, FIRST_SEED + games):
        lines["search"].append(opening(house, seed, rounds, spec))
        lines["heuristic"].append(opening(house, seed, rounds, None))
    for side, played in lines.items():
        counted: dict[str, Any] = {}
        for key in ("orders", "moves", "held"):
            by_round: dict[str, dict[str, int]] = {}
            for r in range(1, rounds + 2):
                seen: Counter[str] = Counter()
                for game in played:
                    seen.update(game[key].get(r, []))
                if seen:
                    by_round[str(r)] = dict(seen.most_common())
            counted[key] = by_round
        out[side] = counted
    out["games_differing"] = sum(
        s != h for s, h in zip(lines["search"], lines["heuristic"], strict=True)
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--house", default="stark", choices=[h.name.lower() for h in House])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--rollouts", type=int, default=16)
    args = parser.parse_args()
    if args.games < 1 or args.rounds < 1 or args.rollouts < 1:
        parser.error("--games, --rounds and --rollouts must be at least 1")
    start = time.perf_counter()
    out = compare(House[args.house.upper()], args.games, args.rounds, args.rollouts)
    out["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
