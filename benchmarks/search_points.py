"""Where the search player's gain over its own heuristic comes from.

The search player searches at five kinds of point (orders, bids, raids, marches, musters). This
plays it in each seat in turn against five default heuristics, searching at some kinds of point
only (the search knob ``points``; the heuristic answers the others), on the seeds of
``bench_players.py --search-only``, and logs, wherever its choice differed from its own
heuristic's, what the chosen stretch did differently: order types swapped (area by area), march
destinations (stay, into an empty or own area, into another house's), power tokens left, raid
targets, bid sizes, musters.

Run: ``python benchmarks/search_points.py --points orders --games 300 [--jobs 2]`` (``--points``:
any of ``orders,bids,raids,marches,musters``, comma separated, or ``all``). Prints one JSON
object: the win rates (95 % Wilson) and the counted patterns.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

import gotsim.players.search as search
from gotsim.engine.machine import advance, apply_legal, legal
from gotsim.engine.state import ACT_NONE, N_ACTIONS, Decision, Order
from gotsim.play.tournament import play_seated

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_players import rotation_seats, wilson

KINDS = {
    "orders": Decision.PLACE_ORDER,
    "bids": Decision.BID,
    "raids": Decision.RAID_FROM,
    "marches": Decision.MARCH_FROM,
    "musters": Decision.MUSTER,
}
TYPE = {
    Order.MARCH_MINUS: "march",
    Order.MARCH_ZERO: "march",
    Order.MARCH_PLUS: "march*",
    Order.DEFENSE_ONE: "defend",
    Order.DEFENSE_TWO: "defend*",
    Order.SUPPORT_ZERO: "support",
    Order.SUPPORT_ONE: "support*",
    Order.RAID: "raid",
    Order.RAID_STAR: "raid*",
    Order.CONSOLIDATE: "power",
    Order.CONSOLIDATE_STAR: "power*",
}
PATTERNS: Counter[str] = Counter()


def _replay(g: Any, t: Any, house: int, stretch: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """(decision, ctx0, action) of the stretch played on a copy of ``g``."""
    c = np.array([g]).view(np.recarray)[0]
    mask = np.zeros(N_ACTIONS, np.bool_)
    out = []
    for action in stretch:
        advance(c, t)
        if c.pending == Decision.NONE or c.pending_house != house:
            break
        legal(c, t, mask)
        if not mask[action]:
            break
        out.append((int(c.pending), int(c.ctx[0]), int(action)))
        apply_legal(c, t, action)
    return out


def _describe(g: Any, t: Any, house: int, steps: list[tuple[int, int, int]]) -> Counter[str]:
    """What a stretch does, as countable features."""
    out: Counter[str] = Counter()
    for kind, ctx0, action in steps:
        if kind == Decision.MARCH_UNIT:
            if action == ctx0:
                out["unit stays"] += 1
            elif int(g.owner[action]) < 0:
                out["unit into empty land/sea" + (" (garrison)" if g.garrison[action] else "")] += 1
            elif int(g.owner[action]) == house:
                out["unit into own area"] += 1
            else:
                out["unit attacks a house"] += 1
        elif kind == Decision.LEAVE_POWER:
            out["leaves power token" if action else "no power token left"] += 1
        elif kind == Decision.RAID_TARGET:
            if action == ACT_NONE or action >= int(t.n_areas):
                out["raid: no target"] += 1
            else:
                out[f"raid: {TYPE.get(int(g.order[action]), '?')}"] += 1
        elif kind == Decision.BID:
            out[f"bid track {ctx0}"] += int(action)
        elif kind == Decision.MUSTER:
            what = "ship" if action < int(t.n_areas) else f"code {N_ACTIONS - action}"
            out[f"muster: {what}"] += 1
        elif kind == Decision.HOUSE_CARD:
            out["house card (in stretch)"] += 1
    return out


class Probe(search.Searcher):
    """A search player that counts how its choices differ from its own heuristic's."""

    def choose(self, g, t, house, mask, memo, kinds, params):  # type: ignore[no-untyped-def]
        now = (int(g.game_round), int(g.phase))
        planned = bool(self.plan) and self.stamp == now
        kind = int(g.pending)
        if planned or not search.can_search(g, t, self.settings.points):
            return super().choose(g, t, house, mask, memo, kinds, params)
        before = np.array([g]).view(np.recarray)[0]
        stretches: list[tuple[int, ...]] = []
        original = self._candidates

        def keep(*a: Any) -> list[tuple[int, ...]]:
            stretches.extend(original(*a))
            return stretches

        self._candidates = keep  # type: ignore[method-assign]
        n = len(self.choices)
        action = super().choose(g, t, house, mask, memo, kinds, params)
        del self._candidates
        name = Decision(kind).name
        PATTERNS[f"{name}: searches"] += 1
        if len(self.choices) == n:
            return action
        _, offered, chosen = self.choices[-1]
        if chosen == offered[0]:
            PATTERNS[f"{name}: own heuristic kept"] += 1
            return action
        PATTERNS[f"{name}: other variant chosen"] += 1
        best = offered.index(chosen)
        own = _replay(before, t, house, stretches[0])
        alt = _replay(before, t, house, stretches[best])
        if kind == Decision.PLACE_ORDER:
            a = {ctx0: act for k, ctx0, act in own if k == Decision.PLACE_ORDER}
            b = {ctx0: act for k, ctx0, act in alt if k == Decision.PLACE_ORDER}
            for area in a:
                if area in b and a[area] != b[area]:
                    x, y = TYPE.get(a[area], "?"), TYPE.get(b[area], "?")
                    home = " (home)" if int(t.home[area]) == house else ""
                    PATTERNS[f"order {x} -> {y}{home}"] += 1
        else:
            da, db = _describe(before, t, house, own), _describe(before, t, house, alt)
            if kind == Decision.MARCH_FROM and own and alt and own[0][2] != alt[0][2]:
                PATTERNS["march: another order resolved first"] += 1
            for key in set(da) | set(db):
                diff = db[key] - da[key]
                if diff:
                    PATTERNS[f"{name} chosen {'more' if diff > 0 else 'less'}: {key}"] += abs(diff)
        return action


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--points", default="all")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rollouts", type=int, default=16)
    args = parser.parse_args()
    names = list(KINDS) if args.points == "all" else args.points.split(",")
    points = sum(search.POINT_BITS[KINDS[name]] for name in names)
    search.Searcher = Probe  # type: ignore[misc]
    seats = rotation_seats(args.games)
    spec = {"kind": "search", "rollouts": args.rollouts, "points": points}
    start = time.perf_counter()
    games = play_seated(seats, [spec, "heuristic"], players=6, seed=31, n_jobs=args.jobs)
    seconds = time.perf_counter() - start
    seat = np.argmin(seats, axis=1)
    wins = int((games.winner == seat).sum())
    print(
        json.dumps(
            {
                "points": names,
                "games": args.games,
                "search_win_rate": round(wins / args.games, 4),
                "search_ci95": wilson(wins, args.games),
                "seconds_per_game": round(seconds / args.games, 2),
                "patterns": dict(PATTERNS.most_common()),
            }
        )
    )


if __name__ == "__main__":
    main()
