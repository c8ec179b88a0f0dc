"""Monte-Carlo path of the odds calculator: sample card picks and Tides of Battle draws.

Randomness comes in fixed blocks of ``BLOCK`` samples, block ``k`` drawn from
``SeedSequence(seed, spawn_key=(k,))``; ``batch`` sets how many samples (whole blocks) are resolved
in one compiled call. A result depends on the seed and the number of samples only, never on the
batch size.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from gotsim.engine import combat as cb
from gotsim.odds import exact

if TYPE_CHECKING:
    from gotsim.odds.calculator import Cell, _Resolver

BLOCK = 1 << 12


def _root_entropy(seed: int | np.random.SeedSequence | None) -> Any:
    if isinstance(seed, np.random.SeedSequence):
        return seed.entropy
    return 0 if seed is None else seed


def _distinct_positions(rng: np.random.Generator, n: int, deck: int) -> NDArray[np.int64]:
    """Three distinct deck positions per sample (attacker draw, defender draw, blade redraw)."""
    a = rng.integers(0, deck, n)
    d = rng.integers(0, deck - 1, n)
    d += d >= a
    r = rng.integers(0, deck - 2, n)
    low, high = np.minimum(a, d), np.maximum(a, d)
    r += r >= low
    r += r >= high
    return np.stack([a, d, r])


def _draw_block(
    x: NDArray[np.float64], y: NDArray[np.float64], n: int, rng: np.random.Generator
) -> NDArray[np.int64]:
    """Rows: attacker card, defender card, attacker Tides, defender Tides, redraw Tides."""
    count = cb.tides_deck().counts
    deck_types = np.repeat(np.arange(count.shape[0]), count)
    pick_a = rng.choice(len(x), size=n, p=x)
    pick_d = rng.choice(len(y), size=n, p=y)
    positions = _distinct_positions(rng, n, deck_types.shape[0])
    return np.vstack([pick_a, pick_d, deck_types[positions]])


def _resolve_batch(resolver: _Resolver, cells: list[list[Cell]], drawn: NDArray[np.int64]) -> int:
    """Attacker wins among the sampled battles ``drawn`` (columns of ``_draw_block`` rows)."""
    pick_a, pick_d, draws = drawn[0], drawn[1], drawn[2:]
    tides_on = resolver.battle.tides_of_battle
    wins = 0
    for i in range(len(cells)):
        for j in range(len(cells[0])):
            chosen = np.flatnonzero((pick_a == i) & (pick_d == j))
            if chosen.size == 0:
                continue
            out = np.zeros(chosen.size, np.int64)
            b = cells[i][j].battle.copy()
            exact.sample_outcomes(
                b,
                resolver.cards,
                resolver.tides,
                tides_on,
                draws[0, chosen],
                draws[1, chosen],
                draws[2, chosen],
                out,
            )
            wins += int(out.sum())
    return wins


def sample_battle(
    resolver: _Resolver,
    cells: list[list[Cell]],
    x: NDArray[np.float64],
    y: NDArray[np.float64],
    samples: int,
    *,
    seed: int | np.random.SeedSequence | None = 0,
    batch: int = 100_000,
) -> tuple[float, float]:
    """P(attacker wins) over ``samples`` sampled battles and its standard error."""
    if samples <= 0 or batch <= 0:
        raise ValueError("samples and batch must be positive")
    entropy = _root_entropy(seed)
    wins, done, block = 0, 0, 0
    blocks_per_batch = max(1, batch // BLOCK)
    while done < samples:
        drawn = []
        for _ in range(blocks_per_batch):
            if done >= samples:
                break
            n = min(BLOCK, samples - done)
            rng = np.random.default_rng(np.random.SeedSequence(entropy, spawn_key=(block,)))
            drawn.append(_draw_block(x, y, n, rng))
            done += n
            block += 1
        wins += _resolve_batch(resolver, cells, np.hstack(drawn))
    p = wins / samples
    return p, float(np.sqrt(max(p * (1.0 - p), 1e-300) / samples))
