"""How well a house turns a lead into victory, with the heuristic, parameter variants of it, and
the search player, measured on the same positions.

Positions: seeded all-heuristic 6-player games, taken at the start of every round (from round
2) in which a house holds ``--castles`` or more castles and strongholds; that house is the
position's *leader*. Each position is played on ``--continuations`` times, each time with every
fact hidden from the leader resampled (the undrawn Westeros and wildling cards reshuffled, every
random stream reseeded, the leader's own included). The continuations are the same for every
variant (common random numbers), so a variant's difference from the default is the play, not the
luck, and it comes with a paired 95 % interval.

Variants: ``--leader name=value …`` changes the leader's heuristic parameters from the position
on (``aggression=+0.3`` adds, ``noise=0`` sets; kept in each parameter's range), ``--field …`` the
other houses'; ``--search POINTS`` lets the leader search instead (the search knob ``points``: 1
orders, 2 bids, 12 raids and marches, 16 musters, 31 all) on every ``--every``-th position, with
``--rollouts`` a candidate. The search is minutes per hundred positions; the heuristic runs some
3,000 continuations a second on two cores.

Run: ``python benchmarks/endgame.py --games 4000 [--castles 5] [--continuations 4] [--leader …]
[--field …] [--search 31 --every 50 --rollouts 16]``. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

import numpy as np
from numpy.typing import NDArray

from gotsim.engine.init import new_games_range
from gotsim.engine.state import H
from gotsim.engine.tables import rules_table
from gotsim.players.memo import new_memos
from gotsim.players.params import HEURISTIC, PARAMS, SEARCH, defaults_for
from gotsim.players.search import (
    ALL_POINTS,
    SearchSettings,
    castles_of,
    play_forced,
    play_with_search,
    resample_hidden,
)

SEED = 31
FIRST = 100_000  # the positions' games: apart from the seeds the other benchmarks use
NAMES = [p.name for p in PARAMS]


def rules_for(players: int = 6) -> np.recarray:
    """The compiled rules table of the base game, as a writable batch of one (a read-only array
    is a type of its own to the compiled heuristic)."""
    return np.array(rules_table("2e", players)).view(np.recarray)


def defaults() -> NDArray[np.float64]:
    """Every house's default heuristic parameters, (H, parameters)."""
    return np.array([defaults_for(h) for h in range(H)])


def play_heuristic(games: np.recarray, rules: np.recarray, params: NDArray[Any], stop: int) -> None:
    """Play every record of ``games`` in place with the compiled heuristic (``params``: (H, N) or
    (G, H, N)) until round ``stop`` begins (0: to the end)."""
    n = len(games)
    kinds = np.full((n, H), HEURISTIC, np.int8)
    if params.ndim == 2:
        params = np.array(np.broadcast_to(params, (n, *params.shape)), order="C")
    forced = np.full((n, 1), -1, np.int64)
    play_forced(games, rules, kinds, params, new_memos(n), 0, forced, np.zeros(n, np.int64), stop)


def positions(
    games: int, castles: int, rules: np.recarray, first: int = FIRST
) -> tuple[np.recarray, NDArray[np.int64], NDArray[np.int64]]:
    """The positions of ``games`` all-heuristic games (seeds ``first`` on): the records, their
    leaders and rounds."""
    batch = new_games_range(SEED, first, games, players=6)
    params = defaults()
    records, leaders, rounds = [], [], []
    for r in range(2, int(rules[0].max_rounds) + 1):
        play_heuristic(batch, rules, params, r)
        live = ~batch.done.astype(bool)
        for h in np.flatnonzero(batch[0].in_play):
            for i in np.flatnonzero(live & (castles_of(batch, rules, int(h)) >= castles)):
                records.append(batch[i].copy())  # (np.array of a record is a view)
                leaders.append(int(h))
                rounds.append(r)
    if not records:
        return (
            np.zeros(0, batch.dtype).view(np.recarray),
            np.zeros(0, np.int64),
            np.zeros(0, np.int64),
        )
    return np.array(records).view(np.recarray), np.array(leaders), np.array(rounds)


def continuations(
    records: np.recarray, leaders: NDArray[np.int64], k: int, rules: np.recarray
) -> tuple[np.recarray, NDArray[np.int64]]:
    """``k`` copies of each position, continuation ``i`` of position ``j`` with the hidden facts
    drawn from its own numbers ``(j, i)`` (the same for every variant)."""
    games = np.repeat(records, k).view(np.recarray)
    lead = np.repeat(leaders, k)
    t = rules[0]
    for row in range(len(games)):
        rng = np.random.default_rng([SEED, *divmod(row, k)])
        house = int(lead[row])
        resample_hidden(games[row], t, house, rng, take_back=False)
        games[row].rng[1 + house] = rng.integers(
            1, 2**63, size=games[row].rng.shape[1], dtype=np.uint64
        )
    return games, lead


def shifted(changes: list[str]) -> NDArray[np.float64]:
    """Every house's defaults with ``changes`` (``name=+x`` adds, ``name=x`` sets), in range."""
    params = defaults()
    for change in changes:
        name, _, value = change.partition("=")
        try:
            j, x = NAMES.index(name), float(value)
        except ValueError:
            raise ValueError(
                f"not a parameter change (name=value or name=+x): {change!r}"
            ) from None
        column = params[:, j] + x if value[0] in "+-" else np.full(H, x)
        params[:, j] = np.clip(column, PARAMS[j].low, PARAMS[j].high)
    return params


def leader_wins(
    games: np.recarray,
    lead: NDArray[np.int64],
    rules: np.recarray,
    leader: list[str],
    field: list[str],
    search: int = 0,
    rollouts: int = 16,
) -> NDArray[np.float64]:
    """Play the continuations ``games`` to the end (the leader with its parameters changed by
    ``leader``, the others by ``field``; searching at the points ``search`` when not 0) and return
    for each whether its leader won."""
    games = games.copy().view(np.recarray)
    mine, theirs = shifted(leader), shifted(field)
    params = np.array(np.broadcast_to(theirs, (len(games), *theirs.shape)), order="C")
    rows = np.arange(len(games))
    params[rows, lead] = mine[lead]
    if search:
        kinds = np.full((len(games), H), HEURISTIC, np.int8)
        kinds[rows, lead] = SEARCH
        settings = {h: SearchSettings(rollouts=rollouts, points=search) for h in range(H)}
        play_with_search(games, rules, kinds, params, settings)
    else:
        play_heuristic(games, rules, params, 0)
    return (games.winner == lead).astype(np.float64)


def paired(a: NDArray[np.float64], b: NDArray[np.float64], k: int) -> dict[str, float]:
    """Win rates of ``a`` and ``b`` on the same continuations and the difference with its 95 %
    interval, counted per position (``k`` continuations each)."""
    d = (a - b).reshape(-1, k).mean(axis=1)
    half = 1.96 * float(d.std(ddof=1)) / math.sqrt(len(d)) if len(d) > 1 else float("nan")
    return {
        "rate": round(float(a.mean()), 4),
        "default": round(float(b.mean()), 4),
        "difference": round(float(d.mean()), 4),
        "interval": [round(float(d.mean()) - half, 4), round(float(d.mean()) + half, 4)],
    }


def measure(
    games: int,
    castles: int = 5,
    k: int = 4,
    leader: list[str] | None = None,
    field: list[str] | None = None,
    search: int = 0,
    every: int = 50,
    rollouts: int = 16,
    first: int = FIRST,
) -> dict[str, Any]:
    """The default heuristic leader's win rate from the positions of ``games`` games, and the
    variant's (``leader``/``field`` changes, or the leader searching) on the same continuations."""
    rules = rules_for()
    records, leaders, rounds = positions(games, castles, rules, first)
    out: dict[str, Any] = {
        "games": games,
        "castles": castles,
        "positions": len(leaders),
        "continuations": k,
        "rounds": {str(r): int((rounds == r).sum()) for r in np.unique(rounds)},
    }
    if not len(leaders):
        return out
    conts, lead = continuations(records, leaders, k, rules)
    start = time.perf_counter()
    base = leader_wins(conts, lead, rules, [], [])
    out["default"] = round(float(base.mean()), 4)
    out["seconds_default"] = round(time.perf_counter() - start, 1)
    if leader or field:
        out["variant"] = {"leader": leader or [], "field": field or []}
        out["variant"] |= paired(
            leader_wins(conts, lead, rules, leader or [], field or []), base, k
        )
    if search:
        pick = np.arange(0, len(leaders), every)
        rows = (pick[:, None] * k + np.arange(k)).ravel()
        start = time.perf_counter()
        won = leader_wins(conts[rows], lead[rows], rules, [], field or [], search, rollouts)
        out["search"] = {"points": search, "positions": len(pick), "rollouts": rollouts}
        out["search"] |= paired(won, base[rows], k)
        out["search"]["seconds"] = round(time.perf_counter() - start, 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games", type=int, default=4000, help="seeded games the positions come from (4000)"
    )
    parser.add_argument(
        "--first", type=int, default=FIRST, help=f"the first game's number ({FIRST:,})"
    )
    parser.add_argument(
        "--castles", type=int, default=5, help="castles a house holds to lead a position (5)"
    )
    parser.add_argument(
        "--continuations", type=int, default=4, help="times each position is played on (4)"
    )
    parser.add_argument(
        "--leader",
        nargs="*",
        default=[],
        metavar="NAME=VALUE",
        help="the leader's parameters changed (aggression=+0.3 adds, noise=0 sets)",
    )
    parser.add_argument(
        "--field",
        nargs="*",
        default=[],
        metavar="NAME=VALUE",
        help="the other houses' parameters changed, the same way",
    )
    parser.add_argument(
        "--search",
        type=int,
        default=0,
        metavar="POINTS",
        help=f"the leader searches at these points (1 orders, 2 bids, 12 raids and marches, "
        f"16 musters, {ALL_POINTS} all; 0 none)",
    )
    parser.add_argument(
        "--every", type=int, default=50, help="the search plays every N-th position (50)"
    )
    parser.add_argument(
        "--rollouts", type=int, default=16, help="the search's rollouts a candidate (16)"
    )
    args = parser.parse_args()
    if args.games < 1 or args.continuations < 1 or args.every < 1 or args.rollouts < 1:
        parser.error("--games, --continuations, --every and --rollouts must be at least 1")
    if not 1 <= args.castles <= 7 or args.first < 0 or not 0 <= args.search <= ALL_POINTS:
        parser.error(f"--castles 1 to 7, --first at least 0, --search 0 to {ALL_POINTS}")
    try:
        shifted(args.leader + args.field)
    except ValueError as error:
        parser.error(str(error))
    out = measure(
        args.games,
        args.castles,
        args.continuations,
        args.leader,
        args.field,
        args.search,
        args.every,
        args.rollouts,
        args.first,
    )
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
