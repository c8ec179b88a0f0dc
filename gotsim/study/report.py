"""The text ``gotsim run`` prints at the end: the per-cell, per-house win-rate table and the
scenario's comparisons."""

from __future__ import annotations

import pandas as pd

from gotsim.study.scenario import Scenario, value_text

__all__ = ["format_report"]


def _table(scenario: Scenario, summary: pd.DataFrame) -> list[str]:
    axes = list(scenario.axes)
    header = ["cell", *axes, "house", "games", "wins", "win rate", "95 % CI", "by castles"]
    rows = []
    for _, r in summary.iterrows():
        by_castles = r["wins_castles"] / r["wins"] if r["wins"] else 0.0
        rows.append(
            [
                str(r["cell"]),
                *[value_text(r[a]) for a in axes],
                str(r["house"]),
                f"{r['games']:,}",
                f"{r['wins']:,}",
                f"{100 * r['win_rate']:.2f} %",
                f"[{100 * r['ci_low']:.2f}, {100 * r['ci_high']:.2f}]",
                f"{100 * by_castles:.0f} %",
            ]
        )
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(header)]
    numeric = {"cell", "games", "wins", "win rate", "by castles"}

    def line(cells: list[str]) -> str:
        out = []
        for i, text in enumerate(cells):
            right = header[i] in numeric
            out.append(text.rjust(widths[i]) if right else text.ljust(widths[i]))
        return "  ".join(out).rstrip()

    lines = [line(header)]
    previous = None
    for row in rows:
        if previous is not None and row[0] != previous:
            lines.append("")
        previous = row[0]
        lines.append(line(row))
    return lines


def _comparison_lines(comparisons: pd.DataFrame) -> list[str]:
    lines = []
    for _, r in comparisons.iterrows():
        within = [
            f"{c}={value_text(r[c])}" for c in comparisons.columns if c not in _COMPARE_FIELDS
        ]
        where = f" ({', '.join(within)})" if within else ""
        by, base, arm = r["by"], value_text(r["baseline"]), value_text(r["arm"])
        if str(r["method"]).startswith("paired blocks"):
            method = f"paired by block, {r['pairs']} blocks"
        elif str(r["method"]).startswith("paired games"):
            method = f"paired by game, {r['pairs']} games"
        else:
            method = "two-proportion z-test"
        lines.append(
            f"{str(r['house']).capitalize()}{where}: {by}={base} {100 * r['rate_baseline']:.2f} %"
            f" vs {by}={arm} {100 * r['rate_arm']:.2f} %; difference "
            f"{100 * r['difference']:+.2f} pp, 95 % CI [{100 * r['ci_low']:+.2f}, "
            f"{100 * r['ci_high']:+.2f}] pp, p = {r['p_value']:.3g} ({method})"
        )
    return lines


_COMPARE_FIELDS = {
    "house",
    "by",
    "baseline",
    "arm",
    "games_baseline",
    "wins_baseline",
    "rate_baseline",
    "games_arm",
    "wins_arm",
    "rate_arm",
    "difference",
    "se",
    "ci_low",
    "ci_high",
    "p_value",
    "method",
    "pairs",
}


def format_report(
    scenario: Scenario,
    summary: pd.DataFrame,
    comparisons: pd.DataFrame | None,
    *,
    out: str,
    seconds: float | None = None,
) -> str:
    """The end-of-run text: a heading, the win-rate table and any comparisons."""
    timing = f" in {seconds:.1f} s" if seconds is not None else ""
    quick = " (quick)" if scenario.quick else ""
    head = (
        f"{scenario.name}{quick}: {len(scenario.cells)} cell(s) × {scenario.games:,} games, "
        f"seed {scenario.seed}{timing} → {out}"
    )
    lines = [head, "", *_table(scenario, summary)]
    if comparisons is not None and len(comparisons):
        lines += ["", *_comparison_lines(comparisons)]
    return "\n".join(lines)
