"""Per-game random streams for the compiled engine: xoshiro256** seeded from ``SeedSequence``.

Each game record carries ``N_STREAMS`` generator states (nature first, then one per house), so a
game's draws never depend on which other games share its batch, thread or process.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from gotsim.engine.state import N_STREAMS
from gotsim.jit import njit


def seed_streams(seed: np.random.SeedSequence) -> NDArray[np.uint64]:
    """(N_STREAMS, 4) xoshiro256** states derived from one game's seed sequence.

    Stream ``k`` is the state ``seed.spawn(N_STREAMS)[k].generate_state(4, np.uint64)`` would
    give for a fresh copy of ``seed`` (the caller's sequence is left as it was), so the nature
    stream and each house's stream are independent of one another, and stream ``k`` depends on
    ``k`` alone, not on how many streams there are (the child's spawn key ends in ``k``).
    Computed by ``stream_states`` (compiled) for sequences with numpy's default pool size.
    """
    return seed_streams_batch([seed])[0]


def _uint32_words(value: int | Sequence[int]) -> list[int]:
    """A non-negative int (or a sequence of them) as 32-bit words, least significant first, as
    ``SeedSequence`` reads entropy and spawn keys."""
    if isinstance(value, int | np.integer):
        n = int(value)
        if n < 0:
            raise ValueError(f"seed words must be non-negative, got {n}")
        words = [n & 0xFFFFFFFF]
        n >>= 32
        while n:
            words.append(n & 0xFFFFFFFF)
            n >>= 32
        return words
    out: list[int] = []
    for v in value:
        out.extend(_uint32_words(v))
    return out


def seed_streams_batch(seeds: Sequence[np.random.SeedSequence]) -> NDArray[np.uint64]:
    """(len(seeds), N_STREAMS, 4) stream states, ``seed_streams`` of every seed at once."""
    out = np.zeros((len(seeds), N_STREAMS, 4), np.uint64)
    groups: dict[tuple[tuple[int, ...], int], list[int]] = {}
    keys: list[list[int]] = []
    for i, seed in enumerate(seeds):
        if seed.pool_size != POOL_SIZE or seed.entropy is None:
            fresh = np.random.SeedSequence(
                seed.entropy, spawn_key=seed.spawn_key, pool_size=seed.pool_size
            )
            for k, child in enumerate(fresh.spawn(N_STREAMS)):
                out[i, k] = child.generate_state(4, np.uint64)
            keys.append([])
            continue
        key = _uint32_words(seed.spawn_key)
        keys.append(key)
        entropy = tuple(_uint32_words(seed.entropy))
        groups.setdefault((entropy, len(key)), []).append(i)
    for (entropy, key_len), rows in groups.items():
        run = np.zeros(max(len(entropy), POOL_SIZE), np.uint32)
        run[: len(entropy)] = entropy
        key_words = np.array([keys[i] for i in rows], np.uint32).reshape(len(rows), key_len)
        stream_states(run, key_words, out, np.array(rows, np.int64))
    return _leave_zero(out)


def _leave_zero(out: NDArray[np.uint64]) -> NDArray[np.uint64]:
    """``out`` with every all-zero state (the one xoshiro cannot leave) made non-zero."""
    zero = ~out.any(axis=2)
    out[..., 0][zero] = 1
    return out


def range_streams(seed: int, first: int, n: int) -> NDArray[np.uint64]:
    """``seed_streams_batch`` of ``SeedSequence(seed, spawn_key=(i,))`` for ``i`` in ``first …
    first + n - 1`` (how ``simulate`` seeds its games), without making the sequences."""
    if n <= 0:
        return np.zeros((0, N_STREAMS, 4), np.uint64)
    entropy = _uint32_words(seed)
    if first < 0 or first + n > 1 << 64:
        raise ValueError(f"game numbers must lie in 0 … 2**64 - 1, got {first} … {first + n - 1}")
    out = np.zeros((n, N_STREAMS, 4), np.uint64)
    run = np.zeros(max(len(entropy), POOL_SIZE), np.uint32)
    run[: len(entropy)] = entropy
    index = np.arange(n, dtype=np.uint64) + np.uint64(first)
    # a spawn key word per 32 bits of the game number: one below 2**32, two from there on
    wide = index >= np.uint64(1 << 32)
    for rows, words in ((np.flatnonzero(~wide), 1), (np.flatnonzero(wide), 2)):
        if rows.size == 0:
            continue
        keys = np.empty((rows.size, words), np.uint32)
        keys[:, 0] = (index[rows] & np.uint64(0xFFFFFFFF)).astype(np.uint32)
        if words == 2:
            keys[:, 1] = (index[rows] >> np.uint64(32)).astype(np.uint32)
        stream_states(run, keys, out, rows.astype(np.int64))
    return _leave_zero(out)


POOL_SIZE = 4  # numpy's default SeedSequence pool
_INIT_A = np.uint32(0x43B0D7E5)
_MULT_A = np.uint32(0x931E8875)
_INIT_B = np.uint32(0x8B51F9DD)
_MULT_B = np.uint32(0x58F38DED)
_MIX_L = np.uint32(0xCA01F9DD)
_MIX_R = np.uint32(0x4973F715)


@njit
def _mix(x: np.uint32, y: np.uint32) -> np.uint32:
    r = np.uint32(_MIX_L * x - _MIX_R * y)
    return np.uint32(r ^ (r >> np.uint32(16)))


@njit
def _pool(entropy: NDArray[np.uint32], pool: NDArray[np.uint32]) -> None:
    """Mix ``entropy`` into the 4-word ``pool`` (SeedSequence's entropy mixing)."""
    h = np.uint32(_INIT_A)
    n = entropy.shape[0]
    for i in range(POOL_SIZE):
        v = entropy[i] if i < n else np.uint32(0)
        v = np.uint32(v ^ h)
        h = np.uint32(h * _MULT_A)
        v = np.uint32(v * h)
        pool[i] = np.uint32(v ^ (v >> np.uint32(16)))
    for src in range(POOL_SIZE):
        for dst in range(POOL_SIZE):
            if src != dst:
                v = np.uint32(pool[src] ^ h)
                h = np.uint32(h * _MULT_A)
                v = np.uint32(v * h)
                pool[dst] = _mix(pool[dst], np.uint32(v ^ (v >> np.uint32(16))))
    for src in range(POOL_SIZE, n):
        for dst in range(POOL_SIZE):
            v = np.uint32(entropy[src] ^ h)
            h = np.uint32(h * _MULT_A)
            v = np.uint32(v * h)
            pool[dst] = _mix(pool[dst], np.uint32(v ^ (v >> np.uint32(16))))


@njit
def stream_states(run_entropy, keys, out, rows) -> None:
    """``out[rows[j], k]`` = the 4-word uint64 state of child ``k`` of
    ``SeedSequence(entropy, spawn_key=keys[j])`` (``run_entropy``: the entropy as 32-bit words,
    zero-padded to the pool size), for every stream ``k``."""
    n_run = run_entropy.shape[0]
    n_key = keys.shape[1]
    assembled = np.zeros(n_run + n_key + 1, np.uint32)
    assembled[:n_run] = run_entropy
    pool = np.zeros(POOL_SIZE, np.uint32)
    for j in range(rows.shape[0]):
        assembled[n_run : n_run + n_key] = keys[j]
        for k in range(out.shape[1]):
            assembled[n_run + n_key] = np.uint32(k)
            _pool(assembled, pool)
            h = np.uint32(_INIT_B)
            for w in range(2 * out.shape[2]):
                v = np.uint32(pool[w % POOL_SIZE] ^ h)
                h = np.uint32(h * _MULT_B)
                v = np.uint32(v * h)
                v = np.uint32(v ^ (v >> np.uint32(16)))
                if w % 2 == 0:
                    out[rows[j], k, w // 2] = np.uint64(v)
                else:
                    out[rows[j], k, w // 2] |= np.uint64(v) << np.uint64(32)


@njit
def _rotl(x: np.uint64, k: int) -> np.uint64:
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit
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


@njit
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


@njit
def shuffle(rng: NDArray[np.uint64], stream: int, values: NDArray[np.int8], n: int) -> None:
    """Fisher–Yates shuffle of ``values[:n]`` in place."""
    for i in range(n - 1, 0, -1):
        j = below(rng, stream, i + 1)
        values[i], values[j] = values[j], values[i]


@njit
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
