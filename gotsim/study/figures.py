"""A study's figures: win rate per house in every cell with Wilson 95 % intervals, and the
compared differences with their intervals; drawn on matplotlib ``Figure`` objects (Agg, no
pyplot state)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from gotsim.analysis.board_plot import HOUSE_COLOURS, save_figure
from gotsim.rules.ids import House
from gotsim.study.scenario import Scenario, value_text

__all__ = ["draw_differences", "draw_win_rates", "save_figures"]


def draw_win_rates(scenario: Scenario, summary: pd.DataFrame) -> Figure:
    """One panel per cell: each house's win rate with its interval, and the even share
    (1 / players) as a dashed line."""
    n = len(scenario.cells)
    columns = min(4, n)
    rows = math.ceil(n / columns)
    fig = Figure(figsize=(3.6 * columns, 2.9 * rows), layout="constrained")
    axes = fig.subplots(rows, columns, squeeze=False, sharey=True)
    top = float(summary["ci_high"].max()) if len(summary) else 1.0
    for cell, ax in zip(scenario.cells, axes.flat, strict=False):
        part = summary[summary["cell"] == cell.index]
        x = np.arange(len(part))
        rate = part["win_rate"].to_numpy(float)
        low, high = part["ci_low"].to_numpy(float), part["ci_high"].to_numpy(float)
        error = np.maximum(np.vstack([rate - low, high - rate]), 0.0)
        colours = [HOUSE_COLOURS[House.from_id(h)] for h in part["house"]]
        ax.bar(x, rate, color=colours, edgecolor="black", linewidth=0.6)
        ax.errorbar(x, rate, yerr=error, fmt="none", ecolor="black", capsize=3, linewidth=1)
        ax.axhline(1 / cell.players, color="grey", linestyle="--", linewidth=0.8)
        ax.set_xticks(x, [h.capitalize() for h in part["house"]], rotation=45, ha="right")
        ax.set_title(cell.label(scenario.axes), fontsize=9)
        ax.set_ylim(0, min(1.0, top * 1.15 + 0.02))
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    for ax in axes[:, 0]:
        ax.set_ylabel("win rate (Wilson 95 % CI)")
    fig.suptitle(f"{scenario.name}: {scenario.games:,} games per cell")
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
        labels.append(f"{row['house']}: {by}={arm} − {baseline}{stratum}")
    y = np.arange(len(comparisons))[::-1]
    diff = comparisons["difference"].to_numpy(float) * 100
    low = comparisons["ci_low"].to_numpy(float) * 100
    high = comparisons["ci_high"].to_numpy(float) * 100
    error = np.maximum(np.vstack([diff - low, high - diff]), 0.0)
    fig = Figure(figsize=(7.5, 1.2 + 0.35 * len(comparisons)), layout="constrained")
    ax = fig.subplots()
    colours = [HOUSE_COLOURS[House.from_id(h)] for h in comparisons["house"]]
    ax.errorbar(diff, y, xerr=error, fmt="none", ecolor="black", capsize=3, linewidth=1)
    ax.scatter(diff, y, c=colours, edgecolors="black", zorder=3)
    ax.axvline(0, color="grey", linewidth=0.8)
    ax.set_yticks(y, labels, fontsize=8)
    ax.set_xlabel("difference in win rate, percentage points (95 % CI)")
    ax.set_title(f"{scenario.name}: by {comparisons['by'].iloc[0]}")
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
