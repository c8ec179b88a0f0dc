"""Per-game random streams for the compiled engine: xoshiro256** seeded from ``SeedSequence``.

Each game record carries ``N_STREAMS`` generator states (nature first, then one per house), so a
game's draws never depend on which other games share its batch, thread or process.
"""

from __future__ import annotations

import numba
import numpy as np
from numpy.typing import NDArray

from gotsim.engine.state import N_STREAMS


def seed_streams(seed: np.random.SeedSequence) -> NDArray[np.uint64]:
    """(N_STREAMS, 4) xoshiro256** states derived from one game's seed sequence.

    Stream ``k`` comes from ``seed.spawn`` order, so the nature stream and each house's stream
    are independent of one another.
    """
    states = np.zeros((N_STREAMS, 4), np.uint64)
    # spawn from a copy: the caller's sequence is left as it was (same seed, same game)
    fresh = np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key, pool_size=seed.pool_size)
    for k, child in enumerate(fresh.spawn(N_STREAMS)):
        words = child.generate_state(4, np.uint64)
        if not words.any():  # the all-zero state is the one xoshiro cannot leave
            words[0] = 1
        states[k] = words
    return states


@numba.njit(cache=True)
def _rotl(x: np.uint64, k: int) -> np.uint64:
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@numba.njit(cache=True)
def next_u64(rng: NDArray[np.uint64], stream: int) -> np.uint64:
    """The next 64 random bits of ``stream`` (xoshiro256**), advancing its state in place."""
    s = rng[stream]
    result = _rotl(s[1] * np.uint64(5), 7) * np.uint64(9)
    t = s[1] << np.uint64(17)
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


@numba.njit(cache=True)
def below(rng: NDArray[np.uint64], stream: int, n: int) -> int:
    """A uniform integer in ``0 … n-1`` (unbiased: rejection on the top bits)."""
    if n <= 1:
        return 0
    bound = np.uint64(n)
    limit = np.uint64(0xFFFFFFFFFFFFFFFF) - (np.uint64(0xFFFFFFFFFFFFFFFF) % bound)
    x = next_u64(rng, stream)
    while x >= limit:
        x = next_u64(rng, stream)
    return int(np.int64(x % bound))


@numba.njit(cache=True)
def shuffle(rng: NDArray[np.uint64], stream: int, values: NDArray[np.int8], n: int) -> None:
    """Fisher–Yates shuffle of ``values[:n]`` in place."""
    for i in range(n - 1, 0, -1):
        j = below(rng, stream, i + 1)
        values[i], values[j] = values[j], values[i]


@numba.njit(cache=True)
def pick_from_mask(rng: NDArray[np.uint64], stream: int, mask: NDArray[np.bool_]) -> int:
    """A uniformly chosen index where ``mask`` is True; -1 if none."""
    count = 0
    for i in range(mask.shape[0]):
        if mask[i]:
            count += 1
    if count == 0:
        return -1
    k = below(rng, stream, count)
    for i in range(mask.shape[0]):
        if mask[i]:
            if k == 0:
                return i
            k -= 1
    return -1


assert N_STREAMS >= 1
