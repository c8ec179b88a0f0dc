"""The per-game random streams: the compiled SeedSequence derivation gives numpy's states."""

from __future__ import annotations

import numpy as np
import pytest

from gotsim.engine.rng import _uint32_words, range_streams, seed_streams, seed_streams_batch
from gotsim.engine.state import N_STREAMS


def _numpy_streams(seed: np.random.SeedSequence) -> np.ndarray:
    fresh = np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key, pool_size=seed.pool_size)
    return np.array([c.generate_state(4, np.uint64) for c in fresh.spawn(N_STREAMS)])


SEEDS = [
    *(np.random.SeedSequence(7, spawn_key=(i,)) for i in range(20)),
    *(np.random.SeedSequence(2**100 + 12345, spawn_key=(i,)) for i in range(3)),
    *(
        np.random.SeedSequence(99, spawn_key=(p, t, i))
        for p in (3, 6)
        for t in (0, 1)
        for i in (0, 5)
    ),
    np.random.SeedSequence(0, spawn_key=(2**40 + 5,)),
    np.random.SeedSequence(123, spawn_key=()),
    np.random.SeedSequence(2**200 - 1, spawn_key=(3, 4)),
    np.random.SeedSequence(5, spawn_key=(1,), pool_size=8),  # not the default pool: numpy path
]


def test_batch_states_equal_numpy_seed_sequence() -> None:
    fast = seed_streams_batch(SEEDS)
    for i, seed in enumerate(SEEDS):
        assert np.array_equal(fast[i], _numpy_streams(seed)), (i, seed)


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_single_seed_and_caller_sequence_untouched(seed: np.random.SeedSequence) -> None:
    spawned = seed.n_children_spawned
    assert np.array_equal(seed_streams(seed), _numpy_streams(seed))
    assert seed.n_children_spawned == spawned


def test_seed_words_are_little_endian_32_bit() -> None:
    assert _uint32_words(0) == [0]
    assert _uint32_words(2**32 + 7) == [7, 1]
    assert _uint32_words((1, 2**33)) == [1, 0, 2]
    with pytest.raises(ValueError, match="non-negative"):
        _uint32_words(-1)


@pytest.mark.parametrize(
    ("seed", "first", "n"),
    [(0, 0, 40), (12345, 1000, 7), (2**100 + 3, 2**32 - 3, 6), (9, 2**40, 2), (1, 5, 0)],
)
def test_range_states_equal_numpy_seed_sequence(seed: int, first: int, n: int) -> None:
    """The games' streams made without sequences (one spawn-key word below 2**32, two above)."""
    fast = range_streams(seed, first, n)
    assert fast.shape == (n, N_STREAMS, 4)
    for i in range(n):
        expected = _numpy_streams(np.random.SeedSequence(seed, spawn_key=(first + i,)))
        assert np.array_equal(fast[i], expected), (seed, first + i)


def test_range_states_refuse_negative_game_numbers() -> None:
    with pytest.raises(ValueError, match="game numbers"):
        range_streams(1, -1, 3)
    with pytest.raises(ValueError, match="non-negative"):
        range_streams(-1, 0, 3)
