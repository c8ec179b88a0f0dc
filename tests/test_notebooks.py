"""Every notebook in notebooks/ runs top to bottom in quick mode (GOTSIM_QUICK=1).

The notebooks are jupytext py:percent files; each is converted in memory and executed with
nbclient in its own folder. Quick mode writes no figures, so the tree stays clean. The heuristic
players the notebooks use are compiled once here first (numba keeps them in its disk cache), so
a cold cache costs minutes once, not inside a notebook cell.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

import gotsim

jupytext = pytest.importorskip("jupytext")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.py"))


@pytest.fixture(scope="module", autouse=True)
def quick_mode() -> Iterator[None]:
    previous = os.environ.get("GOTSIM_QUICK")
    os.environ["GOTSIM_QUICK"] = "1"
    yield
    if previous is None:
        del os.environ["GOTSIM_QUICK"]
    else:
        os.environ["GOTSIM_QUICK"] = previous


@pytest.fixture(scope="module", autouse=True)
def compiled_players() -> None:
    """Compile (or load from numba's cache) the heuristic players before any notebook runs."""
    gotsim.simulate(1, players=3, policies="heuristic")


def test_notebooks_exist() -> None:
    assert len(NOTEBOOKS) >= 5


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_in_quick_mode(path: Path) -> None:
    notebook = jupytext.read(path)
    client = nbclient.NotebookClient(
        notebook,
        timeout=300,  # per cell; with the players compiled, whole notebooks take seconds
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()  # raises CellExecutionError on the first failing cell
    last = notebook.cells[-1]
    assert last.cell_type == "code" and last.outputs, "the notebook ends with a printed conclusion"
