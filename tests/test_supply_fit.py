"""Supply: the allocation-free army check equals the plain sorted comparison."""

from __future__ import annotations

import numpy as np

from gotsim.engine.board_state import armies_fit
from gotsim.engine.tables import rules_table


def _sorted_fit(counts: np.ndarray, allowed: np.ndarray) -> bool:
    sizes = sorted((int(n) for n in counts if n >= 2), reverse=True)
    return all(k < len(allowed) and allowed[k] > 0 and n <= allowed[k] for k, n in enumerate(sizes))


def test_armies_fit_equals_the_sorted_comparison_on_every_supply_level() -> None:
    table = rules_table("2e", 6)[0]["supply_table"]
    rng = np.random.default_rng(5)
    checked = {True: 0, False: 0}
    for level in range(table.shape[0]):
        for _ in range(400):
            counts = rng.integers(0, 6, size=12) * (rng.random(12) < 0.4)
            expected = _sorted_fit(counts, table[level])
            assert armies_fit(counts, table[level]) == expected, (level, counts, table[level])
            checked[expected] += 1
    assert min(checked.values()) > 200  # both answers well represented
