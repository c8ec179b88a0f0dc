"""The text ``gotsim run`` prints at the end: the per-cell, per-house win-rate table and the
scenario's comparisons."""

from __future__ import annotations

import pandas as pd

from gotsim.analysis.stats import MODEL_COLUMN
from gotsim.study.scenario import Scenario, value_text

# the columns model_agreement adds
MODEL_FIELDS = ("models", "models_sign", "models_spread", "models_size_p", "models_size")

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
        within = [f"{c}={value_text(r[c])}" for c in comparisons.columns if c not in COMPARE_FIELDS]
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


COMPARE_FIELDS = {
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
    *MODEL_FIELDS,
}

_SIGN_TEXT = {
    "agree": "every model finds it, in the same direction",
    "opposite": "the models find it in OPPOSITE directions",
    "partly": "some models find it, the others cannot tell",
    "no effect": "no model finds it",
}


def _spread(r: pd.Series) -> str:
    size = "sizes similar" if r["models_size"] == "similar" else "sizes differ"
    return f"spread {100 * r['models_spread']:.2f} pp, {size} (p = {r['models_size_p']:.3g})"


def _model_lines(
    scenario: Scenario, summary: pd.DataFrame, comparisons: pd.DataFrame | None
) -> list[str]:
    """Per question, whether the player models give one answer (several ``policies``)."""
    lines: list[str] = []
    others = [a for a in scenario.axes if a != MODEL_COLUMN]
    if "models_sign" in summary.columns:
        lines.append("Player models, each house against its fair share (1 / players):")
        for _, r in summary.drop_duplicates([*others, "house"]).iterrows():
            where = ", ".join(f"{a}={value_text(r[a])}" for a in others)
            where = f" ({where})" if where else ""
            lines.append(
                f"  {str(r['house']).capitalize()}{where}: {r['models']} models; "
                f"{_SIGN_TEXT[r['models_sign']]}; {_spread(r)}"
            )
    if comparisons is not None and "models_sign" in comparisons.columns:
        if lines:
            lines.append("")
        lines.append("Player models, each comparison:")
        keys = [c for c in comparisons.columns if c not in COMPARE_FIELDS and c != MODEL_COLUMN]
        for _, r in comparisons.drop_duplicates([*keys, "house", "arm"]).iterrows():
            where = ", ".join(f"{c}={value_text(r[c])}" for c in keys)
            where = f" ({where})" if where else ""
            lines.append(
                f"  {str(r['house']).capitalize()}{where}, {r['by']}={value_text(r['baseline'])}"
                f" → {value_text(r['arm'])}: {r['models']} models; "
                f"{_SIGN_TEXT[r['models_sign']]}; {_spread(r)}"
            )
    return lines


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
    models = _model_lines(scenario, summary, comparisons)
    if models:
        lines += ["", *models]
    return "\n".join(lines)
