"""A study's figures: win rate per house in every cell with Wilson 95 % intervals, and the
compared differences with their intervals; drawn on matplotlib ``Figure`` objects (Agg, no
pyplot state) with the shared plots of ``gotsim.analysis.plots``.

Regenerate a study's figures from its results folder, without playing a game::

    python -m gotsim.study.figures results/lannister_swap
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from gotsim.analysis.board_plot import save_figure
from gotsim.analysis.plots import (
    draw_house_differences,
    draw_house_rates,
    ordered_houses,
    players_title,
)
from gotsim.study.scenario import Scenario, value_text

__all__ = ["draw_differences", "draw_win_rates", "redraw", "save_figures"]


def _policies(scenario: Scenario) -> str:
    labels = {cell.policy_label for cell in scenario.cells}
    return labels.pop() if len(labels) == 1 else "mixed"


def draw_win_rates(scenario: Scenario, summary: pd.DataFrame) -> Figure:
    """One panel per cell: each house's win rate with its interval, and the even share
    (1 / players) as a dashed line."""
    n = len(scenario.cells)
    columns = min(4, n)
    rows = math.ceil(n / columns)
    fig = Figure(figsize=(3.6 * columns, 2.9 * rows + 0.4), layout="constrained")
    axes = fig.subplots(rows, columns, squeeze=False, sharey=True)
    top = float(summary["ci_high"].max()) if len(summary) else 1.0
    for cell, ax in zip(scenario.cells, axes.flat, strict=False):
        part = summary[summary["cell"] == cell.index]
        part = part.set_index("house").loc[ordered_houses(part["house"])].reset_index()
        draw_house_rates(ax, part, fair=1 / cell.players)
        ax.tick_params(axis="x", rotation=45)
        ax.set_title(cell.label(scenario.axes), fontsize=9)
        ax.set_ylim(0, min(1.0, top * 1.15 + 0.02))
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    for ax in axes.flat[1:]:
        ax.set_ylabel("")
    fig.suptitle(
        players_title(
            f"{scenario.name}: win rate per house",
            policies=_policies(scenario),
            games=scenario.games,
            per="cell",
        )
    )
    return fig


def draw_differences(scenario: Scenario, comparisons: pd.DataFrame) -> Figure:
    """Each compared house's difference in win rate (arm minus baseline), with its interval."""
    labels = []
    for _, row in comparisons.iterrows():
        within = [
            f"{a}={value_text(row[a])}" for a in scenario.axes if a in row.index and a != row["by"]
        ]
        stratum = f" ({', '.join(within)})" if within else ""
        by, arm, baseline = row["by"], value_text(row["arm"]), value_text(row["baseline"])
        labels.append(f"{str(row['house']).capitalize()}: {by}={arm} − {baseline}{stratum}")
    fig = Figure(figsize=(7.5, 1.5 + 0.35 * len(comparisons)), layout="constrained")
    ax = fig.subplots()
    draw_house_differences(ax, comparisons, labels, what="arm − baseline")
    ax.set_title(
        players_title(
            f"{scenario.name}: by {comparisons['by'].iloc[0]}",
            policies=_policies(scenario),
            games=scenario.games,
            per="cell",
        ),
        fontsize=10,
    )
    return fig


def save_figures(
    folder: Path, scenario: Scenario, summary: pd.DataFrame, comparisons: pd.DataFrame | None
) -> list[Path]:
    """Write ``win_rates.png`` (and ``differences.png`` when the scenario compares arms)."""
    paths = [save_figure(draw_win_rates(scenario, summary), folder / "win_rates.png")]
    if comparisons is not None and len(comparisons):
        paths.append(
            save_figure(draw_differences(scenario, comparisons), folder / "differences.png")
        )
    return paths


def redraw(results: Path) -> list[Path]:
    """Draw a finished study's figures again into its ``figures/`` from its tables
    (``summary.csv``, ``comparisons.csv``) and the scenario file named in ``scenario.json``,
    without playing a game. Raises ``ValueError`` when that file no longer describes these
    results (another hash)."""
    from gotsim.study.scenario import load_scenario

    marker = json.loads((results / "scenario.json").read_text(encoding="utf-8"))
    scenario = load_scenario(marker["source"])
    if marker.get("quick"):
        scenario = scenario.with_quick()
    if scenario.hash != marker.get("hash"):
        raise ValueError(
            f"{marker['source']} has changed since {results} was written; run the study again"
        )
    summary = pd.read_csv(results / "summary.csv")
    comparisons_path = results / "comparisons.csv"
    comparisons = pd.read_csv(comparisons_path) if comparisons_path.exists() else None
    return save_figures(results / "figures", scenario, summary, comparisons)


if __name__ == "__main__":
    for folder in sys.argv[1:] or ["results/quickstart"]:
        for path in redraw(Path(folder)):
            print(f"wrote {path}")
