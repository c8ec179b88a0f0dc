"""Every compiled kernel of gotsim is built by ``gotsim.jit.njit``, with the project's options."""

from __future__ import annotations

import importlib
import os
import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

import numba
from numba.core.caching import NullCache
from numba.core.registry import CPUDispatcher

import gotsim
from gotsim.jit import OPTIONS, ROOT, STAMP, cache_dirs, drop_stale_kernels, sources_digest


def _dispatchers() -> dict[str, CPUDispatcher]:
    found = {}
    for info in pkgutil.walk_packages(gotsim.__path__, "gotsim."):
        if info.name.endswith(".__main__"):
            continue  # ``python -m`` entry points run the command when imported
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, CPUDispatcher) and value.py_func.__module__ == info.name:
                found[f"{info.name}.{name}"] = value
    return found


def test_every_kernel_uses_the_project_options():
    kernels = _dispatchers()
    assert len(kernels) > 300  # the engine, the players and the odds code
    for name, kernel in kernels.items():
        assert kernel.targetoptions.get("error_model") == OPTIONS["error_model"], name
        assert not isinstance(kernel._cache, NullCache), name  # compiled once, kept on disk


# --- cached kernels tied to every source -------------------------------------------------------


def _tree(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "pkg"
    (root / "sub").mkdir(parents=True)
    (root / "a.py").write_text("x = 1\n")
    (root / "sub" / "b.py").write_text("y = 2\n")
    cache = root / "sub" / "__pycache__"
    cache.mkdir()
    for name in ("b.f-1.py311.nbi", "b.f-1.py311.1.nbc", "c.g-3.py311.nbi"):
        (cache / name).write_bytes(b"kernel")
    (cache / "b.cpython-311.pyc").write_bytes(b"bytecode")
    return root, cache


def test_digest_follows_every_source_and_its_name(tmp_path):
    root, _ = _tree(tmp_path)
    first = sources_digest(root)
    assert sources_digest.__wrapped__(root) == first
    (root / "a.py").write_text("x = 2\n")  # a module the kernel's own file does not change with
    changed = sources_digest.__wrapped__(root)
    (root / "a.py").rename(root / "c.py")
    renamed = sources_digest.__wrapped__(root)
    assert len({first, changed, renamed}) == 3


def test_stale_kernels_are_dropped_and_current_ones_kept(tmp_path):
    root, cache = _tree(tmp_path)
    digest = sources_digest.__wrapped__(root)
    # no stamp: kernels of unknown sources go, bytecode stays
    assert drop_stale_kernels(cache, digest) == 3
    assert sorted(p.name for p in cache.iterdir()) == ["b.cpython-311.pyc", STAMP]
    (cache / "b.f-1.py311.nbi").write_bytes(b"kernel")
    assert drop_stale_kernels(cache, digest) == 0  # compiled from these sources: kept
    assert (cache / "b.f-1.py311.nbi").exists()
    assert drop_stale_kernels(cache, "other sources") == 1
    assert not (cache / "b.f-1.py311.nbi").exists()


def test_a_modules_own_kernels_go_by_its_prefix(tmp_path):
    _, cache = _tree(tmp_path)
    assert drop_stale_kernels(cache, "d", prefix="b.") == 2
    assert (cache / "c.g-3.py311.nbi").exists()  # another module's kernels are left alone
    assert (cache / ("b." + STAMP)).read_text() == "d"
    assert drop_stale_kernels(tmp_path / "nowhere" / "__pycache__", "d") == 0


def test_cache_dirs_include_numba_cache_dir(tmp_path, monkeypatch):
    source = tmp_path / "m.py"
    monkeypatch.setattr(numba.config, "CACHE_DIR", "")  # (a test worker of `pytest -n` sets one)
    assert cache_dirs(source) == [tmp_path / "__pycache__"]
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "cache"))
    dirs = cache_dirs(source)
    assert len(dirs) == 2 and dirs[1].parent == tmp_path / "cache"


_CALLER = """
from gotsim.jit import njit
from {callee} import value

@njit
def caller():
    return value()
"""


def test_an_edit_in_a_called_module_reaches_a_cached_kernel(tmp_path):
    """A kernel compiled and cached, then the module it calls edited (not its own file): the
    next process runs the edited code, not the cached copy of the old one."""
    shutil.copytree(ROOT, tmp_path / "gotsim", ignore=shutil.ignore_patterns("__pycache__"))
    probe = tmp_path / "gotsim" / "probe"  # inside the package: the digest covers it
    probe.mkdir()
    (probe / "__init__.py").write_text("")
    callee = probe / "callee.py"
    callee.write_text("from gotsim.jit import njit\n\n@njit\ndef value():\n    return 1\n")
    (probe / "main.py").write_text(_CALLER.format(callee="gotsim.probe.callee"))
    run = [sys.executable, "-c", "from gotsim.probe.main import caller; print(caller())"]
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    env.pop("NUMBA_CACHE_DIR", None)
    env.pop("NUMBA_DISABLE_JIT", None)

    def result() -> str:
        done = subprocess.run(run, env=env, capture_output=True, text=True, cwd=tmp_path)
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    assert result() == "1\n"
    assert list((probe / "__pycache__").glob("main.caller*.nbi"))  # the caller was cached
    callee.write_text(callee.read_text().replace("return 1", "return 2"))
    assert result() == "2\n"
