"""The public entry points with the command's checks in front: ``gotsim.simulate`` and
``gotsim.combat_odds`` refuse what ``gotsim play``/``bench``/``combat`` refuse, with the same
one-line messages (``InputError``, a ``ValueError``), before anything is allocated."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from gotsim.inputs import InputError, seed_value, whole_number
from gotsim.odds import calculator as _odds
from gotsim.play import simulate as _play
from gotsim.rules.ids import HOUSE_IDS

__all__ = ["MAX_GAMES", "MAX_SAMPLES", "combat_odds", "simulate"]

MAX_GAMES = 10**8  # games in one call (each holds a record of a few kilobytes)
MAX_SAMPLES = 10**9
MAX_JOBS = 4096


def _check_policies(policies: Any, edition: str, players: int) -> None:
    """A policy for a house that is not playing is a mistake, not something to ignore."""
    from gotsim.rules.setup import SetupDataError, load_setup

    if not isinstance(policies, Mapping) or "kind" in policies:
        return
    try:
        playing = [h.id for h in load_setup(edition, players).houses]
    except (SetupDataError, ValueError, KeyError):
        return  # the engine names the bad edition or player count
    for house in policies:
        if house == "default":
            continue
        if house in HOUSE_IDS and house not in playing:  # (the engine names unknown ones)
            raise InputError(
                f"policies.{house}: {house} is not playing with {players} players "
                f"(houses: {', '.join(playing)})"
            )


@functools.wraps(_play.simulate)
def simulate(
    n_games: int,
    *,
    players: int = 6,
    edition: str = "2e",
    variants: Mapping[str, bool] | None = None,
    policies: str | Mapping[str, Any] = "random",
    seed: int = 0,
    n_jobs: int = 1,
) -> pd.DataFrame:
    n_games = whole_number(n_games, "n_games", 0, MAX_GAMES)
    players = whole_number(players, "players", 1, 99)
    seed = seed_value(seed)
    n_jobs = whole_number(n_jobs, "n_jobs", 1, MAX_JOBS)
    if not isinstance(edition, str):
        raise InputError(f"edition: expected '1e' or '2e', got {edition!r}")
    _check_policies(policies, edition, players)
    return _play.simulate(
        n_games,
        players=players,
        edition=edition,
        variants=variants,
        policies=policies,
        seed=seed,
        n_jobs=n_jobs,
    )


@functools.wraps(_odds.combat_odds)
def combat_odds(
    spec: Mapping[str, Any] | str | Path | Any,
    *,
    model: str = "uniform",
    samples: int | None = None,
    seed: int | np.random.SeedSequence | None = 0,
    batch: int = 100_000,
) -> _odds.OddsResult:
    if samples is not None:
        samples = whole_number(samples, "samples", 1, MAX_SAMPLES)
    if seed is not None and not isinstance(seed, np.random.SeedSequence):
        seed = seed_value(seed)
    batch = whole_number(batch, "batch", 1, 10**7)
    return _odds.combat_odds(spec, model=model, samples=samples, seed=seed, batch=batch)
