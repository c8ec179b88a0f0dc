"""Public names a package loads on first use, so that importing it (or the ``gotsim`` command)
does not import numba and the engine before they are needed."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(
    package: str, namespace: dict[str, Any], public: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A package's ``__getattr__`` and ``__dir__``: ``public`` maps each name to the module that
    defines it; a name is imported the first time it is asked for and kept in ``namespace``
    (the package's globals)."""

    def getattr_(name: str) -> Any:
        module = public.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def dir_() -> list[str]:
        return sorted({*namespace, *public})

    return getattr_, dir_


__all__ = ["lazy_names"]
