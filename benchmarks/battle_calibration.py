"""How well the heuristic's battle odds match what happens: at each attack the compiled heuristic
decides in the action phase (the first unit of a march sent into another house's or a neutral
force's area), its own estimate of the win chance (``players.view.win_chance`` of the board
margin ``players.marching.battle_margin`` it plans with) is logged, and the battle's outcome
(the attacker holds the area once the battle is over) is set beside it.

Run: ``python benchmarks/battle_calibration.py [--games N] [--seed S] [--policy P]``
(``--policy`` also takes a spec as JSON). Prints one JSON object: per band of the estimate, the
attacks, their mean estimate and the share won (``bands``); the same by round (``by_round``);
and the attacks most often made, with their mean estimate and share won (``most_common``), so a
blunder repeated game after game stands out. The games are played in Python decision by
decision, the compiled heuristic answering (about 0.2 s a game).
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from collections import defaultdict
from typing import Any

import numpy as np

from gotsim.engine.init import new_games_range
from gotsim.engine.machine import advance, apply_legal, legal
from gotsim.engine.state import N_ACTIONS, Decision
from gotsim.engine.tables import rules_table
from gotsim.players.heuristic import heuristic_action
from gotsim.players.marching import battle_margin
from gotsim.players.memo import new_memos
from gotsim.players.params import policy_table
from gotsim.players.values import defender_of
from gotsim.players.view import ensure_view, fiefdoms_higher, win_chance
from gotsim.rules.board import load_board
from gotsim.rules.ids import FOOTMAN, KNIGHT, SHIP, SIEGE, House

BANDS = (0.0, 0.2, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0001)


def _attacks_planned(g: Any, t: Any, memo: Any, house: int, origin: int, moves: Any) -> list:
    """(area, defender, estimate) of each attack in a march's planned moves."""
    out = []
    strength = t.unit_strength
    ensure_view(g, t, memo)
    for x in range(int(t.n_areas)):
        if moves[x].sum() == 0:
            continue
        e = int(defender_of(g, t, x))
        held = e >= 0 and e != house and (g.owner[x] == e or g.garrison[x] > 0)
        if not (g.neutral[x] > 0 or held):
            continue
        units = float(
            moves[x, FOOTMAN] * strength[FOOTMAN]
            + moves[x, KNIGHT] * strength[KNIGHT]
            + moves[x, SHIP] * strength[SHIP]
        )
        if memo.fort[x]:
            units += 4.0 * moves[x, SIEGE]
        margin = float(battle_margin(g, t, house, origin, x, units, memo))
        tie = e < 0 or bool(fiefdoms_higher(g, house, e))
        out.append((x, e, float(win_chance(memo, margin, house, e, tie))))
    return out


def calibrate(n_games: int, policy: Any, seed: int) -> dict[str, Any]:
    rules = rules_table("2e", 6)
    t = rules[0]
    _, params = policy_table(policy)
    params = np.array(params)
    games = new_games_range(seed, 0, n_games, players=6)
    memos = new_memos(n_games)
    mask = np.zeros(N_ACTIONS, np.bool_)
    rows: list[tuple[float, bool, int, int, int, int, int]] = []
    for i in range(n_games):
        g = games[i]
        memo = memos[i]
        pending: dict[int, tuple[int, float, int, int]] = {}  # area: attacker, estimate, ...
        last_area = -1
        while True:
            advance(g, t)
            if g.done or g.pending == Decision.NONE:
                break
            area = int(g.combat_area)
            if last_area >= 0 and area != last_area and last_area in pending:
                h, p, e, origin = pending.pop(last_area)
                won = int(g.owner[last_area]) == h
                rows.append((p, won, int(g.game_round), h, last_area, e, origin))
            last_area = area
            house = int(g.pending_house)
            kind = int(g.pending)
            legal(g, t, mask)
            before = (int(memo.march_key), int(memo.march_house))
            action = int(heuristic_action(g, t, house, mask, params[house], memo))
            planned = (int(memo.march_key), int(memo.march_house)) != before
            if kind == Decision.MARCH_UNIT and planned:
                origin = int(g.ctx[0])
                moves = np.array(memo.march_move[: t.n_areas])
                if action != origin:
                    moves[action, int(g.ctx[1])] += 1  # (the unit just sent)
                for x, e, p in _attacks_planned(g, t, memo, house, origin, moves):
                    pending[x] = (house, p, e, origin)
            apply_legal(g, t, action)
    return _summary(rows, n_games)


def _band(rows: list, lo: float, hi: float) -> dict[str, Any] | None:
    chosen = [r for r in rows if lo <= r[0] < hi]
    if not chosen:
        return None
    return {
        "estimate": f"{lo:.2f}-{min(hi, 1.0):.2f}",
        "attacks": len(chosen),
        "mean_estimate": round(float(np.mean([r[0] for r in chosen])), 3),
        "won": round(float(np.mean([r[1] for r in chosen])), 3),
    }


def _summary(rows: list, n_games: int) -> dict[str, Any]:
    bands = [_band(rows, lo, hi) for lo, hi in itertools.pairwise(BANDS)]
    by_round = []
    for rnd in range(1, 11):
        chosen = [r for r in rows if r[2] == rnd]
        if chosen:
            by_round.append(
                {
                    "round": rnd,
                    "attacks": len(chosen),
                    "mean_estimate": round(float(np.mean([r[0] for r in chosen])), 3),
                    "won": round(float(np.mean([r[1] for r in chosen])), 3),
                }
            )
    groups: dict[tuple[int, int, int, int, int], list] = defaultdict(list)
    for p, won, rnd, h, x, e, origin in rows:
        groups[(rnd, h, origin, x, e)].append((p, won))
    common = sorted(groups.items(), key=lambda kv: -len(kv[1]))[:5]
    names = load_board("2e").area_names
    most_common = [
        {
            "round": rnd,
            "attacker": House(h).id,
            "from_area": names[origin],
            "area": names[x],
            "defender": House(e).id if e >= 0 else "neutral",
            "attacks": len(seen),
            "mean_estimate": round(float(np.mean([s[0] for s in seen])), 3),
            "won": round(float(np.mean([s[1] for s in seen])), 3),
        }
        for (rnd, h, origin, x, e), seen in common
    ]
    return {
        "games": n_games,
        "attacks": len(rows),
        "mean_estimate": round(float(np.mean([r[0] for r in rows])), 4) if rows else None,
        "won": round(float(np.mean([r[1] for r in rows])), 4) if rows else None,
        "bands": [b for b in bands if b is not None],
        "by_round": by_round,
        "most_common": most_common,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--policy", default="heuristic", help="a policy name, or a spec as JSON")
    args = parser.parse_args()
    policy: Any = args.policy
    if policy.startswith("{"):
        policy = json.loads(policy)
    start = time.perf_counter()
    result = calibrate(args.games, policy, args.seed)
    result["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
