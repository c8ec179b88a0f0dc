"""Tournaments between policies: one policy against a field of others in every seat (win rate
per seat), and policy variants against each other in rotating seats (win shares and Elo).

Games are seeded like ``simulate`` (game ``i`` from ``SeedSequence(seed, spawn_key=(i,))``), so
a table depends only on its arguments, never on ``n_jobs``.

>>> table = seat_table("heuristic", n_games=2, players=3, seed=1)
>>> sorted(table.columns)[:3]
['castle_wins', 'castles', 'end_round']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from gotsim.engine.init import new_games
from gotsim.engine.state import EndReason
from gotsim.engine.tables import rules_table
from gotsim.play.runner import castle_table, play_policies, pool_threads, threads
from gotsim.players.memo import new_memos
from gotsim.players.params import N_PARAMS, SEARCH, policy_kind, policy_params
from gotsim.rules.ids import BASE_HOUSES, House
from gotsim.rules.setup import load_setup
from gotsim.rules.variants import Rules

MAX_DECISIONS = 1_000_000
BATCH = 1024
Spec = str | Mapping[str, Any]


def houses_in_play(players: int, edition: str = "2e", expansion: str | None = None) -> list[House]:
    """The houses of a ``players``-player game (of ``expansion``), in ``House`` order."""
    return sorted(load_setup(edition, players, expansion=expansion).houses)


def seat_columns(houses: Sequence[House]) -> int:
    """Columns of a seat table for games of ``houses``: one per house of the base game, or up to
    the last of ``houses`` when one comes after them."""
    return max(len(BASE_HOUSES), max(houses, default=0) + 1)


def _every_house(seats: NDArray[np.int64]) -> NDArray[np.int64]:
    """``seats`` with a column for every ``House``: the columns it lacks (houses it leaves out,
    which are not in play) name spec 0."""
    seats = np.asarray(seats, np.int64)
    if seats.ndim != 2 or seats.shape[1] > len(House):
        raise ValueError(f"seats: expected (games, at most {len(House)}), got {seats.shape}")
    out = np.zeros((len(seats), len(House)), np.int64)
    out[:, : seats.shape[1]] = seats
    return out


def play_seated(
    seats: NDArray[np.int64],
    specs: Sequence[Spec],
    *,
    players: int = 6,
    edition: str = "2e",
    seed: int = 0,
    first_game: int = 0,
    n_jobs: int = 1,
    expansion: str | None = None,
) -> np.recarray:
    """Finished records of games ``first_game …`` where, in game ``i``, house ``h`` plays
    ``specs[seats[i, h]]`` (``seats``: (games, 6) indices into ``specs``, a column per house of the
    base game, or more for a house after them; houses not in play are ignored; ``expansion``: a
    2nd-edition expansion's game, as in ``simulate``, with its options on)."""
    given = np.asarray(seats, np.int64)  # its columns choose the search player's path
    seats = _every_house(given)
    kinds_of = np.array([policy_kind(s) for s in specs], np.int8)
    # (spec, house) → parameters: a heuristic spec takes each house's own tuned defaults
    chosen = Rules.of(edition, players, None, expansion)
    by_house = np.array(
        [
            [policy_params(s, h, edition, players, chosen.expansion) for h in range(len(House))]
            for s in specs
        ],
        np.float64,
    ).reshape(len(specs), len(House), N_PARAMS)
    rules = rules_table(chosen)
    out = []
    memos = new_memos(pool_threads())  # the heuristic's work space, one per thread
    with threads(n_jobs):
        for start in range(0, len(seats), BATCH):
            stop = min(start + BATCH, len(seats))
            seqs = [
                np.random.SeedSequence(seed, spawn_key=(first_game + i,))
                for i in range(start, stop)
            ]
            games = new_games(
                seqs,
                edition=edition,
                players=players,
                expansion=chosen.expansion,
                iron_bank=chosen.on("iron_bank"),
            )
            block = seats[start:stop]
            params = np.ascontiguousarray(by_house[block, np.arange(len(House))])
            if (kinds_of[given[start:stop]] == SEARCH).any():
                _play_seated_search(games, rules, block, specs, kinds_of, params)
                out.append(games)
                continue
            play_policies(
                games,
                rules,
                np.ascontiguousarray(kinds_of[block]),
                params,
                memos,
                MAX_DECISIONS,
            )
            out.append(games)
    return np.concatenate(out).view(np.recarray) if out else new_games([])


def _play_seated_search(
    games: np.recarray,
    rules: np.recarray,
    block: NDArray[np.int64],
    specs: Sequence[Spec],
    kinds_of: NDArray[np.int8],
    params: NDArray[np.float64],
) -> None:
    """``play_seated``'s games where a seat plays the search player, one game at a time
    (``params``: (games, H, N) each house's parameters)."""
    from gotsim.players.search import play_with_search, search_settings

    for i in range(len(games)):
        seats = block[i]
        settings = {
            h: search_settings(specs[s]) for h, s in enumerate(seats) if kinds_of[s] == SEARCH
        }
        play_with_search(
            games[i : i + 1].view(np.recarray),
            rules,
            np.ascontiguousarray(kinds_of[seats]),
            np.ascontiguousarray(params[i]),
            settings,
        )


def seat_table(
    spec: Spec = "heuristic",
    n_games: int = 100,
    *,
    against: Spec = "random",
    players: int = 6,
    seed: int = 0,
    n_jobs: int = 1,
    expansion: str | None = None,
) -> pd.DataFrame:
    """``spec`` in each seat in turn against ``against`` in all others: ``n_games`` games per
    seat (of ``expansion``, as in ``simulate``). One row per house: games, wins, win_rate,
    castle_wins (won by castles), castles (mean held at the end), end_round (mean)."""
    rules = rules_table("2e", players, None, expansion)
    houses = houses_in_play(players, "2e", expansion)
    rows = []
    for k, house in enumerate(houses):
        seats = np.ones((n_games, seat_columns(houses)), np.int64)
        seats[:, house] = 0
        games = play_seated(
            seats,
            [spec, against],
            players=players,
            seed=seed,
            first_game=k * n_games,
            n_jobs=n_jobs,
            expansion=expansion,
        )
        won = games.winner == house
        castles = castle_table(games, rules)[:, house] if n_games else np.zeros(0)
        rows.append(
            {
                "house": house.id,
                "games": n_games,
                "wins": int(won.sum()),
                "win_rate": float(won.mean()) if n_games else float("nan"),
                "castle_wins": int((won & (games.end_reason == EndReason.CASTLES)).sum()),
                "castles": float(castles.mean()) if n_games else float("nan"),
                "end_round": float(games.game_round.mean()) if n_games else float("nan"),
            }
        )
    return pd.DataFrame(rows)


def rotation(n_games: int, n_variants: int, players: int) -> NDArray[np.int64]:
    """Seat assignment of a variant tournament: in game ``i`` the ``s``-th house in play plays
    variant ``(s + i) % n_variants`` — every variant visits every seat equally often when
    ``n_games`` is a multiple of ``n_variants * players``."""
    houses = houses_in_play(players)
    seats = np.zeros((n_games, seat_columns(houses)), np.int64)
    for i in range(n_games):
        # shift the whole pattern every n_variants games, so seats and variants mix
        shift = i + i // max(n_variants, 1)
        for s, house in enumerate(houses):
            seats[i, house] = (s + shift) % n_variants
    return seats


def variant_tournament(
    variants: Mapping[str, Spec],
    n_games: int = 120,
    *,
    players: int = 6,
    seed: int = 0,
    n_jobs: int = 1,
) -> pd.DataFrame:
    """Policy variants against each other in rotating seats. One row per variant: seats
    (house-games played), wins, win_share (wins per seat played, 1/players if all were equal),
    castle_wins, elo (Bradley–Terry over the pairwise results: the winner of a game beats every
    other seat's variant; mean 1500)."""
    names = list(variants)
    if len(names) < 2:
        raise ValueError("variant_tournament needs at least two variants")
    seats = rotation(n_games, len(names), players)
    games = play_seated(
        seats, [variants[n] for n in names], players=players, seed=seed, n_jobs=n_jobs
    )
    houses = houses_in_play(players)
    k = len(names)
    played = np.zeros(k, np.int64)
    wins = np.zeros(k, np.int64)
    castle_wins = np.zeros(k, np.int64)
    beat = np.zeros((k, k))
    for i, g in enumerate(games):
        for house in houses:
            played[seats[i, house]] += 1
        w = int(g.winner)
        if w < 0:
            continue
        v = seats[i, w]
        wins[v] += 1
        if g.end_reason == EndReason.CASTLES:
            castle_wins[v] += 1
        for house in houses:
            if house != w and seats[i, house] != v:
                beat[v, seats[i, house]] += 1
    elo = elo_ratings(beat)
    return pd.DataFrame(
        {
            "variant": names,
            "seats": played,
            "wins": wins,
            "win_share": wins / np.maximum(played, 1),
            "castle_wins": castle_wins,
            "elo": elo,
        }
    )


def elo_ratings(beat: NDArray[np.float64], prior: float = 0.5, iters: int = 500) -> np.ndarray:
    """Elo-scale ratings (mean 1500) from a pairwise win matrix ``beat[i, j]`` (times ``i``
    beat ``j``), fitted as a Bradley–Terry model by minorisation–maximisation; ``prior`` pseudo
    wins each way keep unbeaten players finite."""
    k = beat.shape[0]
    w = beat + prior * (1 - np.eye(k))
    n = w + w.T
    strength = np.ones(k)
    for _ in range(iters):
        denom = (n / (strength[:, None] + strength[None, :])).sum(axis=1)
        new = w.sum(axis=1) / np.maximum(denom, 1e-12)
        new /= np.exp(np.log(new).mean())
        if np.allclose(new, strength, rtol=1e-10):
            strength = new
            break
        strength = new
    return 1500.0 + 400.0 * np.log10(strength)


__all__ = ["elo_ratings", "play_seated", "rotation", "seat_table", "variant_tournament"]
