"""Sets of areas as bits of two 64-bit words, ``(low, high)``: bit ``a`` for area ``a`` (areas
0 … 63 in the low word, 64 … 127 in the high one), so that every area slot fits (``A_MAX`` 75 for
Mother of Dragons' largest board). A set is a plain tuple, kept in registers in the hot loops
(no allocation); a record or memo keeps one in an ``np.int64`` field of shape ``(2,)``
(``read_bits``, ``write_bits``).

>>> s = set_bit(set_bit(no_bits(), 70), 3)
>>> bool(has_bit(s, 70)), bool(has_bit(s, 69)), int(lowest(s)), int(lowest(drop_lowest(s)))
(True, False, 3, 70)
"""

from __future__ import annotations

import numba
import numpy as np

# plain Python (NUMBA_DISABLE_JIT=1): numba's intrinsic has no Python body
if getattr(numba.config, "DISABLE_JIT", False):

    def trailing_zeros(x: int) -> int:
        """The number of zero bits below the lowest set bit of ``x`` (not 0)."""
        x = int(x)
        return (x & -x).bit_length() - 1

else:
    from numba.cpython.unsafe.numbers import trailing_zeros  # type: ignore[assignment]

from gotsim.engine.state import A_MAX
from gotsim.jit import njit

AREA_BITS = 128  # bits in a set: two words
assert A_MAX <= AREA_BITS


@njit(inline="always")
def no_bits():
    """The empty set."""
    return (np.int64(0), np.int64(0))


@njit(inline="always")
def set_bit(s, a: int):
    """``s`` with bit ``a`` (0 … 127) set."""
    bit = np.int64(1) << (a & 63)
    high = a >= 64
    return (s[0] | (np.int64(0) if high else bit), s[1] | (bit if high else np.int64(0)))


@njit(inline="always")
def has_bit(s, a: int) -> bool:
    """Whether bit ``a`` (0 … 127) of ``s`` is set."""
    word = s[1] if a >= 64 else s[0]
    return ((word >> (a & 63)) & 1) != 0


@njit(inline="always")
def or_bits(s, r):
    """The union of ``s`` and ``r``."""
    return (s[0] | r[0], s[1] | r[1])


@njit(inline="always")
def is_empty(s) -> bool:
    return (s[0] | s[1]) == 0


@njit(inline="always")
def lowest(s) -> int:
    """The lowest set bit of ``s`` (not empty): with ``drop_lowest``, the members in order."""
    if s[0] != 0:
        return trailing_zeros(s[0])
    return 64 + trailing_zeros(s[1])


@njit(inline="always")
def drop_lowest(s):
    """``s`` without its lowest set bit (not empty)."""
    if s[0] != 0:
        return (s[0] & (s[0] - 1), s[1])
    return (s[0], s[1] & (s[1] - 1))


@njit(inline="always")
def read_bits(words):
    """The set kept in ``words`` (an ``np.int64`` array of 2)."""
    return (words[0], words[1])


@njit(inline="always")
def write_bits(words, s) -> None:
    """Keep ``s`` in ``words`` (an ``np.int64`` array of 2)."""
    words[0] = s[0]
    words[1] = s[1]


__all__ = [
    "AREA_BITS",
    "drop_lowest",
    "has_bit",
    "is_empty",
    "lowest",
    "no_bits",
    "or_bits",
    "read_bits",
    "set_bit",
    "write_bits",
]
