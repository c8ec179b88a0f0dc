"""The test run's own setup (``conftest.py``): under ``pytest -n`` every worker compiles into a
kernel cache of its own, started from the kernels compiled beside the sources."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numba
import pytest
from numba.core.caching import UserProvidedCacheLocator

ROOT = Path(__file__).resolve().parents[1]


def _setup():
    for module in list(sys.modules.values()):
        if getattr(module, "__file__", None) == str(ROOT / "conftest.py"):
            return module
    pytest.fail("the repository's conftest.py was not loaded")


def test_a_worker_compiles_into_a_cache_of_its_own() -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        pytest.skip("one process: numba's cache beside the sources")
    cache = _setup().WORKER_CACHE / worker
    assert os.environ["NUMBA_CACHE_DIR"] == str(cache)  # for the processes the tests start
    assert str(cache) == numba.config.CACHE_DIR


def test_a_workers_cache_starts_from_the_kernels_beside_the_sources(tmp_path: Path) -> None:
    tree = tmp_path / "checkout"
    kernels = tree / "gotsim" / "play" / "__pycache__"
    kernels.mkdir(parents=True)
    (kernels / "runner.play_random-42.py311.nbi").write_bytes(b"index")
    (kernels / "runner.play_random-42.py311.1.nbc").write_bytes(b"code")
    (kernels / "gotsim-sources.sha256").write_text("digest")
    (kernels / "runner.cpython-311.pyc").write_bytes(b"bytecode")  # not numba's
    (tree / "tests" / "__pycache__").mkdir(parents=True)  # no kernels: no folder made
    cache = tmp_path / "cache"
    assert _setup().seed_from_tree(cache, tree) == 3
    sub = cache / UserProvidedCacheLocator.get_suitable_cache_subpath(
        str(tree / "gotsim" / "play" / "runner.py")
    )
    assert sorted(p.name for p in sub.iterdir()) == [
        "gotsim-sources.sha256",
        "runner.play_random-42.py311.1.nbc",
        "runner.play_random-42.py311.nbi",
    ]
    assert [p.name for p in cache.iterdir()] == [sub.name]
    # a file the worker has already (compiled or replaced since) is left as it is
    (sub / "runner.play_random-42.py311.nbi").unlink()
    (sub / "runner.play_random-42.py311.nbi").write_bytes(b"newer index")
    assert _setup().seed_from_tree(cache, tree) == 0
    assert (sub / "runner.play_random-42.py311.nbi").read_bytes() == b"newer index"
    assert (kernels / "runner.play_random-42.py311.nbi").read_bytes() == b"index"
