"""Provenance for ``meta.json``: installed package versions and the source tree's git commit
(read from the ``.git`` folder, so no git program is needed)."""

from __future__ import annotations

import platform
from functools import lru_cache
from importlib import metadata
from pathlib import Path

__all__ = ["git_sha", "package_versions"]

PACKAGES = (
    "gotsim",
    "numpy",
    "numba",
    "pandas",
    "pyarrow",
    "scipy",
    "joblib",
    "matplotlib",
    "tqdm",
    "dask",
    "distributed",
)


@lru_cache(maxsize=1)
def package_versions() -> dict[str, str | None]:
    """Python's and each relevant package's version (``None`` when not installed)."""
    out: dict[str, str | None] = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def _git_dir(start: Path) -> Path | None:
    for folder in (start, *start.parents):
        candidate = folder / ".git"
        if candidate.is_dir():
            return candidate
        if candidate.is_file():  # a worktree or submodule: "gitdir: <path>"
            text = candidate.read_text(encoding="utf-8").strip()
            if text.startswith("gitdir:"):
                target = Path(text.removeprefix("gitdir:").strip())
                return target if target.is_absolute() else (folder / target).resolve()
    return None


def git_sha(start: Path | None = None) -> str | None:
    """The commit checked out in the git tree holding ``start`` (default: this package), or
    ``None`` when there is none (an installed wheel) or it cannot be read."""
    try:
        git = _git_dir((start or Path(__file__)).resolve().parent)
        if git is None:
            return None
        head = (git / "HEAD").read_text(encoding="utf-8").strip()
        if not head.startswith("ref:"):
            return head or None  # a detached HEAD holds the commit itself
        ref = head.removeprefix("ref:").strip()
        common = git
        commondir = git / "commondir"
        if commondir.is_file():
            common = (git / commondir.read_text(encoding="utf-8").strip()).resolve()
        for root in (git, common):
            loose = root / ref
            if loose.is_file():
                return loose.read_text(encoding="utf-8").strip()
        packed = common / "packed-refs"
        if packed.is_file():
            for line in packed.read_text(encoding="utf-8").splitlines():
                sha, _, name = line.partition(" ")
                if name == ref:
                    return sha
    except OSError:
        return None
    return None
