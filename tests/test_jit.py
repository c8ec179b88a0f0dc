"""Every compiled kernel of gotsim is built by ``gotsim.jit.njit``, with the project's options."""

from __future__ import annotations

import importlib
import pkgutil

from numba.core.caching import NullCache
from numba.core.registry import CPUDispatcher

import gotsim
from gotsim.jit import OPTIONS


def _dispatchers() -> dict[str, CPUDispatcher]:
    found = {}
    for info in pkgutil.walk_packages(gotsim.__path__, "gotsim."):
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
