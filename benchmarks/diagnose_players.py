"""How a player model plays, counted decision by decision over seeded 6-player games: the
measured leaks of the heuristic (issue "players that balance numbers can stand on") and the
habits behind its win shares.

- ``garrison_home_falls_per_game``: successful attacks on a home area held by its garrison alone
  (no unit of the home's house there when the battle began); ``garrison_home_falls_most``: the
  most common of them by home and round, and by home, attacker and route (by sea: carried by
  ships);
- ``ship_moves_reversed``: share of ship moves (a march moving ships) undone by the same house in
  the next round (ships moved back from where they went to where they came from); of them,
  ``…_peacefully`` (neither move into another house's fleet) and ``…_after_attack`` (the first
  move was an attack);
- ``empty_raids``: share of raids resolved with nothing to raid (no legal target but "none");
  ``empty_raids_next_to_enemies``: those with another house's area in reach all the same;
  ``empty_raids_of_star_raids``: the share among star raids; ``…_by_what_the_enemies_next_to_them
  _hold``: the orders in the enemy areas the empty raids reach (``no enemy``: none in reach);
- ``stars_used``: star orders on the board once the Messenger Raven has acted, as a share of
  the stars allowed (each house's King's Court place), and of those it could have placed (no
  more than the areas it gave orders to);
- ``kings_court_all_in`` / ``fiefdoms_zero``: bids of all its power on King's Court, of nothing on
  Fiefdoms (houses with power);
- ``support_given``: support decisions of houses not in the battle that backed a side, per game;
- ``aeron_swaps``: Aeron Damphair's swaps taken, of those offered;
- ``battle_in_round_1`` and the most common first-round battle; win shares, castle victories;
- ``search_choices`` (``--policy search``: Stark is the search player): per decision kind, for
  each heuristic variant (its place in ``players.search.VARIANTS``; 0 is the house's own
  heuristic), how often the search chose it of the searches that offered it as a distinct
  candidate: where the search departs from its heuristic.

Run: ``python benchmarks/diagnose_players.py [--games N] [--policy heuristic|heuristic_v1|search]
[--seed S]`` (``--policy`` also takes a spec as JSON: ``'{"kind": "heuristic", "foresight": 0}'``).
Prints one JSON object. The games are played in Python decision by decision (the compiled
heuristic answering), about 10 ms a heuristic game.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from typing import Any

import numpy as np

from gotsim.engine.init import new_games_range
from gotsim.engine.machine import (
    advance,
    apply_legal,
    legal,
    raid_reaches,
    stars_allowed,
    stars_used,
)
from gotsim.engine.rng import pick_from_mask
from gotsim.engine.state import ACT_NONE, N_ACTIONS, ORDER_TYPE, Decision, EndReason, Order, Track
from gotsim.engine.tables import rules_table
from gotsim.players.heuristic import heuristic_action
from gotsim.players.memo import new_memos
from gotsim.players.params import HEURISTIC, SEARCH, policy_table
from gotsim.players.search import Searcher, settings_table
from gotsim.rules.ids import BASE_HOUSES, House, OrderType, Unit


def order_word(kind: int) -> str:
    """An order kind's type in a word (``none``: no order)."""
    return "none" if kind < 0 else OrderType(int(ORDER_TYPE[kind])).name.lower()


def diagnose(n_games: int, policy: Any, seed: int) -> dict[str, Any]:
    players = 6
    rules = rules_table("2e", players)
    t = rules[0]
    kinds, params = policy_table(policy)
    params = np.array(params)
    searches = settings_table(policy)
    games = new_games_range(seed, 0, n_games, players=players)
    memos = new_memos(n_games)
    mask = np.zeros(N_ACTIONS, np.bool_)
    n_areas = int(t.n_areas)
    home = np.array(t.home[:n_areas])
    count: Counter[str] = Counter()
    first_battles: Counter[str] = Counter()
    home_falls: Counter[str] = Counter()
    empty_raid_next_to: Counter[str] = Counter()
    # the search player's choices where its candidates differed: per decision kind, how often
    # each heuristic variant (its place in search.VARIANTS) was offered and chosen
    offered: dict[str, Counter[int]] = {}
    chosen: dict[str, Counter[int]] = {}
    for i in range(n_games):
        g = games[i]
        memo = memos[i]
        searchers = {int(h): Searcher(searches[int(h)]) for h in np.flatnonzero(kinds == SEARCH)}
        ship_moves: list[tuple[int, int, int, int]] = []  # round, house, origin, destination
        ship_attacks: set[tuple[int, int, int, int]] = set()  # ... into another house's fleet
        battle: tuple[int, int, int] | None = None  # area, its home house, round: garrison only
        attack_from = -1
        ravens_seen: set[int] = set()
        while True:
            advance(g, t)
            if g.done or g.pending == Decision.NONE:
                break
            area = int(g.combat_area)
            if battle is None and area >= 0:
                owner = home[area]
                garrisoned = owner >= 0 and g.garrison[area] > 0
                if garrisoned and g.units[area].sum() == 0:
                    battle = (area, int(owner), int(g.game_round))
                    attack_from = int(g.combat_from)
                    count["garrison_home_attacks"] += 1
            elif battle is not None and area < 0:
                if int(g.owner[battle[0]]) not in (-1, battle[1]):
                    count["garrison_home_falls"] += 1
                    home_falls[f"{House(battle[1]).id} r{battle[2]}"] += 1
                    by = House(int(g.owner[battle[0]])).id
                    how = "by sea" if not t.adjacent[attack_from, battle[0]] else "by land"
                    home_falls[f"{House(battle[1]).id} to {by} {how}"] += 1
                battle = None
            house = int(g.pending_house)
            kind = int(g.pending)
            if legal(g, t, mask) == 0:
                raise RuntimeError(f"game {i}: a decision without legal action")
            rnd = int(g.game_round)
            if kind == Decision.RAVEN and rnd not in ravens_seen:
                ravens_seen.add(rnd)
                for h in range(len(House)):
                    if g.in_play[h]:
                        allowed = int(stars_allowed(g, t, h))
                        ordered = int(((g.owner[:n_areas] == h) & (g.order[:n_areas] >= 0)).sum())
                        count["stars_used"] += int(stars_used(g, h))
                        count["stars_allowed"] += allowed
                        count["stars_possible"] += min(allowed, ordered)
            if kinds[house] == SEARCH:
                action = searchers[house].choose(g, t, house, mask, memo, kinds, params)
            elif kinds[house] == HEURISTIC:
                action = int(heuristic_action(g, t, house, mask, params[house], memo))
            else:
                action = int(pick_from_mask(g.rng, 1 + house, mask))
            if kind == Decision.MARCH_UNIT and g.ctx[1] == Unit.SHIP and action != g.ctx[0]:
                ship_moves.append((rnd, house, int(g.ctx[0]), action))
                if int(g.owner[action]) not in (-1, house):
                    ship_attacks.add((rnd, house, int(g.ctx[0]), action))
            elif kind == Decision.RAID_TARGET and g.ctx[1] == 0:
                count["raids"] += 1
                count["raids_star"] += int(g.order[int(g.ctx[0])]) == Order.RAID_STAR
                targets = int(mask.sum()) - int(mask[ACT_NONE])
                count["empty_raids"] += targets == 0
                if targets == 0:
                    src = int(g.ctx[0])
                    near = [
                        int(x)
                        for x in t.neighbours[src]
                        if x >= 0 and int(g.owner[x]) not in (-1, house) and raid_reaches(t, src, x)
                    ]
                    count["empty_raids_near_enemy"] += bool(near)
                    count["empty_raids_star"] += int(g.order[src]) == Order.RAID_STAR
                    held = sorted({order_word(int(g.order[x])) for x in near}) or ["no enemy"]
                    empty_raid_next_to["+".join(held)] += 1
            elif kind == Decision.BID and int(g.power[house]) > 0:
                if g.ctx[0] == Track.KINGS_COURT:
                    count["kings_court_bids"] += 1
                    count["kings_court_all_in"] += action == int(g.power[house])
                elif g.ctx[0] == Track.FIEFDOMS:
                    count["fiefdoms_bids"] += 1
                    count["fiefdoms_zero"] += action == 0
            elif kind == Decision.SUPPORT_SIDE:
                count["support_decisions"] += 1
                count["support_given"] += action != 0
            elif kind == Decision.AERON:
                count["aeron_offered"] += 1
                count["aeron_swaps"] += action != 0
            apply_legal(g, t, action)
        for searcher in searchers.values():
            for decision, variants, variant in searcher.choices:
                name = Decision(decision).name
                offered.setdefault(name, Counter()).update(variants)
                chosen.setdefault(name, Counter())[variant] += 1
        moves = set(ship_moves)
        count["ship_moves"] += len(ship_moves)
        for r, h, a, b in ship_moves:
            if (r + 1, h, b, a) in moves:
                count["ship_moves_reversed"] += 1
                peaceful = (r, h, a, b) not in ship_attacks and (r + 1, h, b, a) not in ship_attacks
                count["ship_moves_reversed_peacefully"] += peaceful
                count["ship_moves_reversed_after_attack"] += (r, h, a, b) in ship_attacks
        fights = np.argwhere(g.history_battles[0] > 0)
        if len(fights):
            count["battle_in_round_1"] += 1
            for attacker, defender in fights:
                first_battles[f"{House(int(attacker)).id}->{House(int(defender)).id}"] += 1
    winners = Counter(int(w) for w in games.winner)
    share = lambda a, b: round(count[a] / max(1, count[b]), 4)  # noqa: E731
    return {
        "games": n_games,
        "policy": policy,
        "garrison_home_attacks_per_game": round(count["garrison_home_attacks"] / n_games, 3),
        "garrison_home_falls_per_game": round(count["garrison_home_falls"] / n_games, 3),
        "garrison_home_fall_rate": share("garrison_home_falls", "garrison_home_attacks"),
        "garrison_home_falls_most": dict(home_falls.most_common(12)),
        "ship_moves_reversed": share("ship_moves_reversed", "ship_moves"),
        "ship_moves_reversed_peacefully": share("ship_moves_reversed_peacefully", "ship_moves"),
        "ship_moves_reversed_after_attack": share("ship_moves_reversed_after_attack", "ship_moves"),
        "empty_raids": share("empty_raids", "raids"),
        "empty_raids_next_to_enemies": share("empty_raids_near_enemy", "raids"),
        "empty_raids_of_star_raids": share("empty_raids_star", "raids_star"),
        "empty_raids_by_what_the_enemies_next_to_them_hold": dict(
            empty_raid_next_to.most_common(8)
        ),
        "stars_used_of_allowed": share("stars_used", "stars_allowed"),
        "stars_used_of_possible": share("stars_used", "stars_possible"),
        "kings_court_all_in": share("kings_court_all_in", "kings_court_bids"),
        "fiefdoms_zero": share("fiefdoms_zero", "fiefdoms_bids"),
        "support_given_per_game": round(count["support_given"] / n_games, 3),
        "aeron_swaps": f"{count['aeron_swaps']} of {count['aeron_offered']}",
        "battle_in_round_1": round(count["battle_in_round_1"] / n_games, 4),
        "round_1_battles": dict(first_battles.most_common(3)),
        "win_share": {h.id: round(winners[int(h)] / n_games, 4) for h in BASE_HOUSES},
        "castle_victories": round(float((games.end_reason == EndReason.CASTLES).mean()), 4),
        "mean_end_round": round(float(games.game_round.mean()), 2),
        "search_choices": {
            name: {
                f"variant {v}": f"chosen {chosen[name][v]} of {offered[name][v]}"
                for v in sorted(offered[name])
            }
            for name in sorted(offered)
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--policy", default="heuristic")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    policy: Any = json.loads(args.policy) if args.policy.startswith("{") else args.policy
    if args.policy == "search":
        policy = {"default": "heuristic", "stark": "search"}
    start = time.perf_counter()
    result = diagnose(args.games, policy, args.seed)
    result["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
