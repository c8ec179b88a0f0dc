"""Where a notebook finds the repository's files (example battles, scenarios) and writes its
figures, inside a gotsim checkout or in a copy of the notebook anywhere else.

A notebook first looks beside itself (the current folder), then in the gotsim checkout that
holds the current folder or the installed package (an editable install); outside one, a file it
needs says so in one sentence instead of failing with a bare ``StopIteration``.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["RepositoryFileError", "figure_folder", "repository", "repository_file"]


class RepositoryFileError(FileNotFoundError):
    """A file of the gotsim repository that is neither beside the notebook nor in a checkout."""


def _is_checkout(folder: Path) -> bool:
    project = folder / "pyproject.toml"
    if not project.is_file() or not (folder / "gotsim").is_dir():
        return False
    try:
        return 'name = "gotsim"' in project.read_text(encoding="utf-8")
    except OSError:
        return False


def repository(start: Path | None = None) -> Path | None:
    """The gotsim checkout holding ``start`` (default: the current folder), else the one holding
    the imported package (an editable install), else None."""
    here = (start or Path.cwd()).resolve()
    package = Path(__file__).resolve().parents[1]
    for folder in [here, *here.parents, package.parent]:
        if _is_checkout(folder):
            return folder
    return None


def repository_file(relative: str | Path, start: Path | None = None) -> Path:
    """The repository file ``relative`` (such as ``examples/battles/riverrun.json``): beside the
    notebook (relative to the current folder) if it is there, else in the checkout.

    Raises ``RepositoryFileError`` naming the file and what to do when neither has it."""
    here = (start or Path.cwd()).resolve()
    relative = Path(relative)
    candidates = [here / relative, here / relative.name]
    root = repository(here)
    if root is not None:
        candidates.insert(0, root / relative)
    for path in candidates:
        if path.is_file():
            return path
    raise RepositoryFileError(
        f"{relative.as_posix()}: this notebook reads it from the gotsim repository, and it is "
        f"neither in {here} nor in a gotsim checkout; copy it beside the notebook, or open the "
        "notebook inside a clone of the repository"
    )


def figure_folder(quick: bool, start: Path | None = None) -> Path | None:
    """Where a notebook's full run writes its figures: ``results/figures/`` of the checkout, or
    of the current folder outside one (made if missing). None in quick mode (no figures)."""
    if quick:
        return None
    here = (start or Path.cwd()).resolve()
    folder = (repository(here) or here) / "results" / "figures"
    folder.mkdir(parents=True, exist_ok=True)
    return folder
