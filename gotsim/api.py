"""The public entry points with the command's checks in front: ``gotsim.simulate`` and
``gotsim.combat_odds`` refuse what ``gotsim play``/``bench``/``combat`` refuse, with the same
one-line messages (``InputError``, a ``ValueError``), before anything is allocated."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from gotsim.inputs import seed_value, whole_number
from gotsim.odds import calculator as _odds
from gotsim.play import simulate as _play
from gotsim.play.simulate import MAX_GAMES

__all__ = ["MAX_GAMES", "MAX_SAMPLES", "combat_odds", "simulate"]

MAX_SAMPLES = 10**9


# ``simulate`` checks its arguments itself (gotsim.play.simulate), as the command does
simulate = _play.simulate


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
