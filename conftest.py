"""Setup for a test run split over processes (pytest-xdist: ``pytest -n 2``).

Each worker keeps its compiled kernels in a folder of its own, ``.numba-test-cache/<worker>``
(numba's ``NUMBA_CACHE_DIR``; the games and the CLI's processes started by its tests use it too).
Numba reads a kernel's cache index, adds the version it compiled and writes the index back
without a lock, so two processes saving different versions of one kernel at the same moment
could leave an entry naming the other's code. The folder is kept between runs, and a worker
starts it from the kernels already compiled beside the sources (``gotsim warmup``, or a run
without ``-n``), linked rather than copied: numba replaces a cache file, never writes into one.

A run in one process (no ``-n``) keeps numba's own place, beside the sources.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent
WORKER_CACHE = ROOT / ".numba-test-cache"


def _link_or_copy(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def seed_from_tree(cache: Path, root: Path = ROOT) -> int:
    """Link every kernel compiled beside the sources under ``root`` (gotsim's and the tests',
    with each folder's stamp of the sources it was compiled from) into ``cache``, where numba
    looks for that folder's kernels, unless a file of the same name is there already. Returns
    the files linked."""
    from numba.core.caching import UserProvidedCacheLocator

    linked = 0
    for folder in (root / "gotsim", root / "tests"):
        for pycache in folder.rglob("__pycache__"):
            files = [*pycache.glob("*.nb[ic]"), *pycache.glob("*gotsim-sources.sha256")]
            if not files:
                continue
            sub = UserProvidedCacheLocator.get_suitable_cache_subpath(
                str(pycache.parent / "any.py")
            )
            target = cache / sub
            target.mkdir(parents=True, exist_ok=True)
            for path in files:
                if not (target / path.name).exists():
                    _link_or_copy(path, target / path.name)
                    linked += 1
    return linked


def _worker_cache() -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return
    cache = WORKER_CACHE / worker
    cache.mkdir(parents=True, exist_ok=True)
    os.environ["NUMBA_CACHE_DIR"] = str(cache)  # before numba reads its configuration
    import numba

    numba.config.CACHE_DIR = str(cache)  # (in case a plugin imported numba already)
    seed_from_tree(cache)


_worker_cache()
