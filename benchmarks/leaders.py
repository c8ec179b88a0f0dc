"""What a house near victory gains and loses in a round, under the search player and under the
heuristic.

Seeded games are played twice: once with one house searching (the house in seat ``seed %
players``), once with every house the heuristic. Each round that a house begins (at its
planning phase) holding ``--castles`` or more castles and strongholds is a *leader round*; for
it the script counts the castles the house took that round (from a house with units there, from
a house without units there, or from nobody), the castles it lost, whether it won in that
round, and for every castle it held: the order it placed there, whether another house's march
order stood next to it, and whether it fell. The rounds are counted apart for the searching
house (``search``), the other houses of those games (``field``) and the same seat's house in the
all-heuristic games (``heuristic``). Where the search's lead comes from near the end of a game
is then in plain numbers (``docs/players.md``).

Run: ``python benchmarks/leaders.py --games 300 [--first 2000] [--castles 5] [--rollouts 16]``
(about 1.5 s a seed on one core, its searching game and its heuristic one). Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter, defaultdict
from typing import Any

from gotsim.engine.board_state import controller, is_fort
from gotsim.engine.game import Game
from gotsim.engine.state import ORDER_TYPE, H, Phase
from gotsim.players.policy import policies_for
from gotsim.players.search import SearchPolicy
from gotsim.rules.ids import House, OrderType

FIRST_SEED = 2000


def leader_rounds(
    seed: int, castles: int, search: dict[str, Any] | None, players: int = 6
) -> list[dict[str, Any]]:
    """One game: a row per round a house began holding ``castles`` or more castles (``search``:
    the search player's spec for the house in seat ``seed % players``; None: every house the
    heuristic)."""
    game = Game(players=players, seed=seed)
    t = game.t
    record = game.record
    seat = [h for h in range(H) if record.in_play[h]][seed % players]
    policy = policies_for("heuristic")
    if search is not None:
        policy[House(seat)] = SearchPolicy(search)
    forts = [a for a in range(t.n_areas) if is_fort(record, t, a)]
    rows: list[dict[str, Any]] = []
    open_rows: dict[int, dict[str, Any]] = {}
    this_round = -1
    orders_seen = False
    while not game.finished:
        r = int(record.game_round)
        if int(record.phase) == int(Phase.PLANNING) and this_round != r:
            this_round = r
            orders_seen = False
            held = {a: controller(record, t, a) for a in forts}
            for h in range(H):
                mine = [a for a in forts if held[a] == h]
                if len(mine) >= castles:
                    open_rows[h] = {
                        "round": r,
                        "house": House(h).name.lower(),
                        "side": _side(h, seat, search),
                        "castles": len(mine),
                        "held": {a: {"units": int(record.units[a].sum())} for a in mine},
                        "before": {a: (held[a], int(record.units[a].sum())) for a in forts},
                    }
        if open_rows and not orders_seen and int(record.phase) in (Phase.RAIDS, Phase.MARCHES):
            orders_seen = True
            for h, row in open_rows.items():
                for a, fort in row["held"].items():
                    fort["order"] = order_kind(int(record.order[a]))
                    fort["threatened"] = any(
                        t.adjacent[b, a]
                        and record.owner[b] not in (-1, h)
                        and order_kind(int(record.order[b])) == "march"
                        for b in range(t.n_areas)
                    )
        pending = game.pending
        assert pending is not None
        game.step(policy[pending.house](game, pending))
        if open_rows and (game.finished or int(record.game_round) > this_round):
            winner = game.winner
            for h, row in open_rows.items():
                gained: Counter[str] = Counter()
                for a in forts:
                    was, units = row["before"][a]
                    if was != h and controller(record, t, a) == h:
                        source = "nobody" if was < 0 else ("army" if units > 0 else "no army")
                        gained[source] += 1
                lost = 0
                for a, fort in row["held"].items():
                    fort["lost"] = controller(record, t, a) != h
                    lost += fort["lost"]
                rows.append(
                    {
                        "round": row["round"],
                        "house": row["house"],
                        "side": row["side"],
                        "castles": row["castles"],
                        "castles_after": sum(controller(record, t, a) == h for a in forts),
                        "gained": dict(gained),
                        "lost": lost,
                        "won": winner is not None and int(winner) == h,
                        "held": [f for f in row["held"].values() if "order" in f],
                    }
                )
            open_rows = {}
    return rows


def order_kind(k: int) -> str:
    """The type of order kind ``k`` ("march", "defense", "support", "raid",
    "consolidate_power", "iron_bank"; "none" for -1)."""
    return OrderType(int(ORDER_TYPE[k]) if k >= 0 else 0).name.lower()


def _side(house: int, seat: int, search: dict[str, Any] | None) -> str:
    if house != seat:
        return "field" if search is not None else "others"
    return "search" if search is not None else "heuristic"


def compare(
    games: int, first: int = FIRST_SEED, castles: int = 5, rollouts: int = 16, points: int = 31
) -> dict[str, Any]:
    """``leader_rounds`` for seeds ``first`` on, with the seat's house searching (``rollouts`` a
    candidate, at the ``points`` the search knob names) and with every house the heuristic,
    counted per side and castles held at the start of the round."""
    spec = {"kind": "search", "rollouts": rollouts, "points": points}
    rows: list[dict[str, Any]] = []
    for seed in range(first, first + games):
        rows += leader_rounds(seed, castles, spec)
        rows += leader_rounds(seed, castles, None)
    grouped: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        grouped[row["side"], row["castles"]].append(row)
    out: dict[str, Any] = {"games": games, "first_seed": first, "castles": castles}
    for (side, k), group in sorted(grouped.items()):
        n = len(group)
        gained: Counter[str] = Counter()
        for row in group:
            gained.update(row["gained"])
        forts = [f for row in group for f in row["held"]]
        by_order: dict[str, dict[str, Any]] = {}
        for name in sorted({f["order"] for f in forts}):
            mine = [f for f in forts if f["order"] == name]
            threatened = [f for f in mine if f["threatened"]]
            by_order[name] = {
                "share": round(len(mine) / len(forts), 3),
                "threatened": len(threatened),
                "fell_when_threatened": round(
                    sum(f["lost"] for f in threatened) / max(1, len(threatened)), 3
                ),
            }
        out.setdefault(side, {})[str(k)] = {
            "rounds": n,
            "won_in_round": sum(row["won"] for row in group),
            "gained_per_round": round(sum(gained.values()) / n, 3),
            "gained_from": dict(gained),
            "lost_per_round": round(sum(row["lost"] for row in group) / n, 3),
            "orders_on_castles": by_order,
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first", type=int, default=FIRST_SEED)
    parser.add_argument("--castles", type=int, default=5)
    parser.add_argument("--rollouts", type=int, default=16)
    args = parser.parse_args()
    if args.games < 1 or args.rollouts < 1 or not 1 <= args.castles <= 7 or args.first < 0:
        parser.error(
            "--games and --rollouts must be at least 1, --castles 1 to 7, --first at least 0"
        )
    start = time.perf_counter()
    out = compare(args.games, args.first, args.castles, args.rollouts)
    out["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
