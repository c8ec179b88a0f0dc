"""The game's facts as packaged JSON files, one folder per edition (``1e``, ``2e``).

Each file carries a ``provenance`` key pointing to the ``PROVENANCE.md`` beside it. Loading is
cached; callers get fresh copies they may not mutate the cache through.
"""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from importlib import resources
from typing import Any

EDITIONS: tuple[str, ...] = ("1e", "2e")


class DataFileError(ValueError):
    """A packaged or user-supplied data file is missing or is not valid JSON."""


@lru_cache(maxsize=64)
def _read(edition: str, name: str) -> Any:
    path = resources.files(__name__) / edition / name
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataFileError(f"no data file {edition}/{name} in gotsim.data") from None
    except json.JSONDecodeError as exc:
        raise DataFileError(f"data file {edition}/{name} is not valid JSON: {exc}") from None


def load_data(edition: str, name: str) -> Any:
    """The parsed JSON data file ``name`` (e.g. ``"map.json"``) of ``edition``, as a fresh copy.

    >>> load_data("2e", "map.json")["counts"]["areas"]
    58
    """
    if edition not in EDITIONS:
        raise DataFileError(f"unknown edition {edition!r} (known: {', '.join(EDITIONS)})")
    return copy.deepcopy(_read(edition, name))
