"""Where a heuristic game's time goes: the engine's steps (advance, legal options, apply) and
the heuristic's answer to each decision kind, timed with the monotonic clock around every call
of the batch loop (``engine.runner.play_policies_one``, played the same way on one core).

Run: ``python benchmarks/time_decisions.py [--games N] [--players P] [--edition E]``. Prints a
table (share of the timed time, ns per decision, decisions per game) and one JSON object.
Linux or macOS (the clock is read through the C library's ``clock_gettime``). The two clock
reads per step cost some 20 ns each, so the shares of very cheap decisions read high.
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import json
import time

import numba
import numpy as np

from gotsim.engine.init import new_games
from gotsim.engine.machine import advance, apply_legal, legal
from gotsim.engine.state import Decision
from gotsim.engine.tables import rules_table
from gotsim.players.heuristic import (
    heuristic_action,
    heuristic_march_from,
    heuristic_march_unit,
    heuristic_place_order,
)
from gotsim.players.memo import new_memos
from gotsim.players.params import policy_table
from gotsim.players.view import init_memos

_libc = ctypes.CDLL(ctypes.util.find_library("c"))
_clock_gettime = _libc.clock_gettime
_clock_gettime.argtypes = [ctypes.c_int, ctypes.c_void_p]
_clock_gettime.restype = ctypes.c_int
CLOCK_MONOTONIC = 1
ADVANCE, LEGAL, APPLY = 0, 1, 2


@numba.njit
def _now(buf) -> int:
    _clock_gettime(CLOCK_MONOTONIC, buf.ctypes)
    return buf[0] * 1_000_000_000 + buf[1]


@numba.njit
def _timed_game(g, t, params, memo, policy_ns, engine_ns, counts, buf) -> None:
    mask = memo.mask[:].view(np.bool_)
    memo.params[:, :] = params
    while True:
        start = _now(buf)
        advance(g, t)
        asked = _now(buf)
        engine_ns[ADVANCE] += asked - start
        if g.done or g.pending == Decision.NONE:
            return
        house = np.int64(g.pending_house)  # (as the batch loop does)
        kind = g.pending
        counts[kind] += 1
        if kind == Decision.MARCH_UNIT:
            action = heuristic_march_unit(g, t, house, memo.params[house], memo)
        elif kind == Decision.MARCH_FROM:
            action = heuristic_march_from(g, t, house, memo.params[house], memo)
        elif kind == Decision.PLACE_ORDER:
            action = heuristic_place_order(g, t, house, mask, memo.params[house], memo)
        else:
            legal(g, t, mask)
            options = _now(buf)
            engine_ns[LEGAL] += options - asked
            asked = options
            action = heuristic_action(g, t, house, mask, memo.params[house], memo)
        answered = _now(buf)
        policy_ns[kind] += answered - asked
        apply_legal(g, t, action)
        engine_ns[APPLY] += _now(buf) - answered


@numba.njit
def _timed_batch(games, rules, params, memos, policy_ns, engine_ns, counts, buf) -> None:
    init_memos(rules[0], memos)
    for i in range(games.shape[0]):
        _timed_game(games[i], rules[0], params, memos[i], policy_ns, engine_ns, counts, buf)


def time_decisions(n_games: int, players: int, edition: str, seed: int = 12345) -> dict:
    _, params = policy_table("heuristic")
    rules = rules_table(edition, players)
    seeds = [np.random.SeedSequence(seed, spawn_key=(i,)) for i in range(n_games)]
    games = new_games(seeds, edition=edition, players=players)
    policy_ns = np.zeros(64, np.int64)
    engine_ns = np.zeros(3, np.int64)
    counts = np.zeros(64, np.int64)
    start = time.perf_counter()
    _timed_batch(
        games,
        rules,
        params,
        new_memos(n_games),
        policy_ns,
        engine_ns,
        counts,
        np.zeros(2, np.int64),
    )
    wall = time.perf_counter() - start
    timed = int(policy_ns.sum() + engine_ns.sum())
    kinds = {
        Decision(k).name.lower(): {
            "share": round(policy_ns[k] / timed, 4),
            "ns_per_decision": round(policy_ns[k] / counts[k]),
            "per_game": round(counts[k] / n_games, 1),
        }
        for k in np.argsort(-policy_ns)
        if counts[k]
    }
    return {
        "games": n_games,
        "players": players,
        "edition": edition,
        "us_per_game": round(wall / n_games * 1e6),
        "engine_share": {
            name: round(engine_ns[i] / timed, 4)
            for i, name in ((ADVANCE, "advance"), (LEGAL, "legal"), (APPLY, "apply"))
        },
        "heuristic": kinds,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--edition", choices=("2e", "1e"), default="2e")
    args = parser.parse_args()
    time_decisions(10, args.players, args.edition)  # compile
    out = time_decisions(args.games, args.players, args.edition)
    print(f"{out['us_per_game']} µs per game on one core", flush=True)
    for name, share in out["engine_share"].items():
        print(f"  engine {name:14s} {share:6.1%}")
    for name, row in out["heuristic"].items():
        print(
            f"  {name:21s} {row['share']:6.1%} {row['ns_per_decision']:8,} ns"
            f" {row['per_game']:7.1f} a game"
        )
    print(json.dumps(out))


if __name__ == "__main__":
    main()
