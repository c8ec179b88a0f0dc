"""The plots every gotsim figure shares, for the notebooks and the study figures alike: houses in
the game's order and colours (``HOUSE_COLOURS``), rates on percent axes with the confidence level
of every interval named, titles that say who played and how many games, and card matrices as
heat maps with a colour bar.

>>> ordered_houses(["stark", "baratheon", "martell"])
['baratheon', 'stark', 'martell']
>>> players_title("Win rate per house", policies="heuristic", games=2000)
'Win rate per house — heuristic players, 2,000 games'
>>> interval_label("win rate", level=0.95)
'win rate (Wilson 95 % CI)'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.colorbar import Colorbar
from matplotlib.patches import Patch
from matplotlib.ticker import FuncFormatter, PercentFormatter

from gotsim.analysis.board_plot import HOUSE_COLOURS
from gotsim.rules.ids import House

__all__ = [
    "HOUSE_COLOURS",
    "HOUSE_ORDER",
    "card_label",
    "draw_differences_by_house",
    "draw_house_differences",
    "draw_house_rates",
    "draw_matrix",
    "house_colour",
    "house_label",
    "interval_label",
    "ordered_houses",
    "percent_axis",
    "players_title",
    "points_axis",
    "policy_words",
]

HOUSE_ORDER: tuple[str, ...] = tuple(h.id for h in House)  # the game's order, everywhere


def house_colour(house: str | House) -> str:
    """The house's colour (``HOUSE_COLOURS``) by id or ``House``."""
    return HOUSE_COLOURS[house if isinstance(house, House) else House.from_id(house)]


def house_label(house: str | House) -> str:
    """The house's name as a label (``Lannister``)."""
    return (house.id if isinstance(house, House) else house).capitalize()


def ordered_houses(houses: Iterable[str]) -> list[str]:
    """House ids in the game's order (``HOUSE_ORDER``), each once."""
    given = set(houses)
    return [h for h in HOUSE_ORDER if h in given]


def card_label(card_id: str) -> str:
    """A card id as a readable label (``ser_gregor_clegane`` → ``Ser Gregor Clegane``)."""
    small = {"of", "the", "and"}
    words = card_id.split("_")
    return " ".join(w if (i and w in small) else w[:1].upper() + w[1:] for i, w in enumerate(words))


def policy_words(policies: str | Mapping[str, Any]) -> str:
    """Who played, in words: ``heuristic``, ``random`` or ``mixed``."""
    if isinstance(policies, str):
        return policies
    kinds = set()
    for spec in policies.values():
        kinds.add(spec if isinstance(spec, str) else str(spec.get("kind", "heuristic")))
    return kinds.pop() if len(kinds) == 1 else "mixed"


def players_title(
    what: str, *, policies: str | Mapping[str, Any], games: int, per: str | None = None
) -> str:
    """A figure title naming the player model and the game count (``per`` such as ``"cell"``)."""
    count = f"{games:,} games" + (f" per {per}" if per else "")
    return f"{what} — {policy_words(policies)} players, {count}"


def interval_label(what: str, *, level: float = 0.95, method: str = "Wilson") -> str:
    """An axis label naming the interval drawn and its confidence level."""
    return f"{what} ({method} {level:.0%} CI)".replace("%", " %")


def percent_axis(ax: Axes, axis: str = "y", *, decimals: int | None = None) -> None:
    """Show shares (0–1) on ``axis`` as percentages, with ``decimals`` places, or by default as
    few as each tick needs (2.5 %, 5 %, 7.5 %: no two ticks read the same).

    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> percent_axis(ax)
    >>> [ax.yaxis.get_major_formatter()(v) for v in (0.025, 0.05, 0.1234)]
    ['2.5%', '5%', '12.34%']
    >>> plt.close(fig)
    """
    target = ax.yaxis if axis == "y" else ax.xaxis
    if decimals is not None:
        target.set_major_formatter(PercentFormatter(1.0, decimals=decimals))
        return
    target.set_major_formatter(FuncFormatter(lambda v, _: f"{_fewest_places(100 * v)}%"))


def _fewest_places(value: float) -> str:
    """``value`` with the fewest decimal places (at most 2) that show it as it is."""
    for places in (0, 1):
        if abs(value - round(value, places)) < 1e-9:
            return f"{value:.{places}f}"
    return f"{value:.2f}"


def points_axis(ax: Axes, axis: str = "x") -> None:
    """Show differences of shares (−1…1) on ``axis`` as signed percentage points."""
    target = ax.yaxis if axis == "y" else ax.xaxis
    target.set_major_formatter(FuncFormatter(lambda v, _: f"{100 * v:+.0f} pp" if v else "0"))


def draw_house_rates(
    ax: Axes,
    rates: pd.DataFrame,
    *,
    group: str | None = None,
    fair: Mapping[Any, float] | float | None = None,
    level: float = 0.95,
    what: str = "win rate",
) -> None:
    """Win rates per house as bars in the house colours with their intervals (``rates``:
    columns ``house, win_rate, ci_low, ci_high`` and, with ``group``, one more column whose
    values are drawn side by side, lighter to darker). ``fair``: the even share as a dashed
    line, one value or one per group value."""
    houses = ordered_houses(rates["house"])
    values = list(dict.fromkeys(rates[group])) if group else [None]
    width = 0.8 / len(values)
    x0 = np.arange(len(houses))
    for k, value in enumerate(values):
        part = rates if group is None else rates[rates[group] == value]
        part = part.set_index("house").reindex(houses)
        x = x0 + (k - (len(values) - 1) / 2) * width
        rate = part["win_rate"].to_numpy(float)
        low, high = part["ci_low"].to_numpy(float), part["ci_high"].to_numpy(float)
        error = np.maximum(np.vstack([rate - low, high - rate]), 0.0)
        alpha = 1.0 if len(values) == 1 else 0.35 + 0.65 * k / (len(values) - 1)
        ax.bar(
            x,
            rate,
            width,
            color=[house_colour(h) for h in houses],
            alpha=alpha,
            edgecolor="black",
            linewidth=0.6,
        )
        ax.errorbar(x, rate, yerr=error, fmt="none", ecolor="black", capsize=2, linewidth=0.9)
        share = fair.get(value) if isinstance(fair, Mapping) else fair
        if share is not None:
            ax.hlines(
                share,
                x.min() - width / 2,
                x.max() + width / 2,
                colors="grey",
                linestyles="dashed",
                linewidth=0.8,
            )
    ax.set_xticks(x0, [house_label(h) for h in houses])
    if len(houses) > 6:  # (seven or eight names do not fit side by side)
        ax.tick_params(axis="x", labelrotation=30)
        for label in ax.get_xticklabels():
            label.set_horizontalalignment("right")
    ax.set_ylabel(interval_label(what, level=level))
    percent_axis(ax)
    if group is not None and len(values) > 1:
        handles = [
            Patch(
                facecolor="grey",
                alpha=0.35 + 0.65 * k / (len(values) - 1),
                edgecolor="black",
                label=f"{group} {value}",
            )
            for k, value in enumerate(values)
        ]
        ax.legend(handles=handles, fontsize=8)


def draw_house_differences(
    ax: Axes,
    frame: pd.DataFrame,
    labels: Sequence[str],
    *,
    level: float = 0.95,
    what: str = "difference in win rate",
) -> None:
    """Differences in win rate (``frame``: ``house, difference, ci_low, ci_high``, shares) as
    points in the house colours with their intervals, one row per label, top to bottom."""
    y = np.arange(len(frame))[::-1]
    diff = frame["difference"].to_numpy(float)
    low, high = frame["ci_low"].to_numpy(float), frame["ci_high"].to_numpy(float)
    error = np.maximum(np.vstack([diff - low, high - diff]), 0.0)
    ax.errorbar(diff, y, xerr=error, fmt="none", ecolor="black", capsize=3, linewidth=1)
    ax.scatter(diff, y, c=[house_colour(h) for h in frame["house"]], edgecolors="black", zorder=3)
    ax.axvline(0, color="grey", linewidth=0.8)
    ax.set_yticks(y, list(labels), fontsize=8)
    ax.set_xlabel(f"{what}, percentage points ({level:.0%} CI)".replace("%", " %"))
    points_axis(ax)


def draw_matrix(
    ax: Axes,
    matrix: pd.DataFrame,
    *,
    label: str = "P(attacker wins)",
    rows: str = "attacker's card",
    columns: str = "defender's card",
    cmap: str = "RdBu",
    vmin: float = 0.0,
    vmax: float = 1.0,
    annotate: bool = True,
) -> Colorbar:
    """A matrix of shares as a heat map with readable card labels, each cell annotated in %,
    and a colour bar in %; returns the colour bar."""
    image = ax.imshow(matrix.to_numpy(float), vmin=vmin, vmax=vmax, cmap=cmap, aspect="auto")
    ax.set_xticks(
        range(matrix.shape[1]),
        [card_label(str(c)) for c in matrix.columns],
        rotation=45,
        ha="right",
        fontsize=8,
    )
    ax.set_yticks(range(matrix.shape[0]), [card_label(str(r)) for r in matrix.index], fontsize=8)
    ax.set_xlabel(columns)
    ax.set_ylabel(rows)
    if annotate:
        values = matrix.to_numpy(float)
        middle = (vmin + vmax) / 2
        span = vmax - vmin or 1.0
        for i in range(values.shape[0]):
            for j in range(values.shape[1]):
                strong = abs(values[i, j] - middle) > 0.3 * span
                ax.text(
                    j,
                    i,
                    f"{100 * values[i, j]:.0f}",
                    ha="center",
                    va="center",
                    fontsize=7,
                    color="white" if strong else "black",
                )
    bar = ax.figure.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    bar.set_label(label)
    bar.formatter = PercentFormatter(1.0)
    bar.update_ticks()
    return bar


MARKERS = ("o", "s", "^", "D", "v", "P")


def draw_differences_by_house(
    ax: Axes,
    frame: pd.DataFrame,
    *,
    group: str | None = None,
    level: float = 0.95,
    what: str = "difference in win rate",
    group_label: Mapping[Any, str] | None = None,
) -> None:
    """Differences in win rate (``frame``: ``house, difference, ci_low, ci_high``) with one
    row per house in the game's order; with ``group``, one point per value of that column on
    each row, told apart by marker (``group_label`` names them in the legend)."""
    houses = ordered_houses(frame["house"])
    values = list(dict.fromkeys(frame[group])) if group else [None]
    step = 0.7 / max(len(values), 1)
    for k, value in enumerate(values):
        part = frame if group is None else frame[frame[group] == value]
        part = part.set_index("house").reindex(houses).dropna(subset=["difference"])
        row = {h: len(houses) - 1 - i for i, h in enumerate(houses)}
        y = np.array([row[h] for h in part.index]) - (k - (len(values) - 1) / 2) * step
        diff = part["difference"].to_numpy(float)
        error = np.maximum(
            np.vstack([diff - part["ci_low"].to_numpy(float), part["ci_high"] - diff]), 0.0
        )
        ax.errorbar(diff, y, xerr=error, fmt="none", ecolor="black", capsize=2, linewidth=0.9)
        name = None if value is None else (group_label or {}).get(value, f"{group} {value}")
        ax.scatter(
            diff,
            y,
            c=[house_colour(h) for h in part.index],
            marker=MARKERS[k % len(MARKERS)],
            edgecolors="black",
            zorder=3,
            label=name,
        )
    ax.axvline(0, color="grey", linewidth=0.8)
    ax.set_yticks(np.arange(len(houses))[::-1], [house_label(h) for h in houses])
    ax.set_xlabel(f"{what}, percentage points ({level:.0%} CI)".replace("%", " %"))
    points_axis(ax)
    if group is not None and len(values) > 1:
        legend = ax.legend(fontsize=8)
        for handle in legend.legend_handles:
            if handle is not None:
                handle.set_facecolor("lightgrey")  # type: ignore[attr-defined]
