"""One HTML page of a finished study (``gotsim report RESULTS_DIR``): the per-cell, per-house
win-rate table with its Wilson 95 % intervals, the comparisons with their intervals and
p-values, the study's figures (embedded, so the page stands alone) and the provenance
(``meta.json``). It reads the results folder only and plays no game."""

from __future__ import annotations

import base64
import html
import json
from pathlib import Path
from typing import Any

import pandas as pd

from gotsim.study.report import COMPARE_FIELDS
from gotsim.study.store import verify_folder

__all__ = ["ReportError", "report_page"]

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.2em; color: #2b2118; max-width: 75em; }
table { border-collapse: collapse; margin: .4em 0 1.2em; font-size: .9em; }
td, th { padding: .15em .6em; border-bottom: 1px solid #ddd3bd; text-align: right; }
th { background: #f4f1ea; } td.text, th.text { text-align: left; }
img { max-width: 100%; border: 1px solid #ddd3bd; margin: .3em 0 1em; }
.swatch { display: inline-block; width: .8em; height: .8em; margin-right: .4em; }
"""


class ReportError(ValueError):
    """A folder that is not a finished study's results (the message says what is missing)."""


def _read(folder: Path) -> tuple[dict[str, Any], dict[str, Any], pd.DataFrame, pd.DataFrame | None]:
    if not folder.is_dir():
        raise ReportError(f"{folder}: no such folder")
    missing = [n for n in ("scenario.json", "summary.csv") if not (folder / n).is_file()]
    if missing:
        raise ReportError(
            f"{folder}: not a finished study's results (no {' or '.join(missing)}); "
            "gotsim run SCENARIO writes them"
        )
    verified = verify_folder(folder)
    if not verified.ok:
        more = f" (and {len(verified.problems) - 1} more)" if len(verified.problems) > 1 else ""
        raise ReportError(
            f"{folder}: the results do not prove themselves: {verified.problems[0]}{more}; "
            "gotsim run SCENARIO --out with this folder repairs what a run wrote "
            "(gotsim run --verify lists every problem)"
        )
    try:
        scenario = json.loads((folder / "scenario.json").read_text(encoding="utf-8"))
        meta_path = folder / "meta.json"
        meta = json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.is_file() else {}
        summary = pd.read_csv(folder / "summary.csv")
        comparisons_path = folder / "comparisons.csv"
        comparisons = pd.read_csv(comparisons_path) if comparisons_path.is_file() else None
    except (UnicodeDecodeError, ValueError) as exc:  # (JSON and CSV errors are ValueErrors)
        raise ReportError(f"{folder}: a damaged table or record ({exc})") from None
    if not isinstance(scenario, dict) or not isinstance(meta, dict):
        raise ReportError(f"{folder}: scenario.json and meta.json must each hold a JSON object")
    if not isinstance(scenario.get("axes", []), list) or not isinstance(
        scenario.get("cells", []), list
    ):
        raise ReportError(f"{folder}: scenario.json's axes and cells must be lists")
    needed = ("cell", "house", "games", "wins", "win_rate", "ci_low", "ci_high", "wins_castles")
    missing = [c for c in needed if c not in summary]
    if missing:
        raise ReportError(f"{folder}: summary.csv lacks the column(s) {', '.join(missing)}")
    return scenario, meta, summary, comparisons


def _pct(p: float) -> str:
    return f"{100 * p:.2f} %"


def _summary_table(summary: pd.DataFrame, axes: list[str]) -> str:
    from gotsim.analysis.plots import house_colour

    head = "".join(f"<th class='text'>{html.escape(a)}</th>" for a in ["cell", *axes, "house"])
    head += "<th>games</th><th>wins</th><th>win rate</th><th>95 % CI (Wilson)</th>"
    head += "<th>wins by castles</th>"
    models = "models_sign" in summary.columns
    if models:
        head += _MODELS_HEAD.replace("sign?", "sign against the fair share?")
    rows = []
    for _, r in summary.iterrows():
        cells = "".join(f"<td class='text'>{html.escape(str(r[a]))}</td>" for a in ["cell", *axes])
        house = str(r["house"])
        by_castles = r["wins_castles"] / r["wins"] if r["wins"] else 0.0
        rows.append(
            f"<tr>{cells}<td class='text'><span class='swatch' style='background:"
            f"{house_colour(house)}'></span>{html.escape(house.capitalize())}</td>"
            f"<td>{int(r['games']):,}</td><td>{int(r['wins']):,}</td>"
            f"<td>{_pct(r['win_rate'])}</td>"
            f"<td>[{_pct(r['ci_low'])}, {_pct(r['ci_high'])}]</td>"
            f"<td>{100 * by_castles:.0f} %</td>" + (_models_cells(r) if models else "") + "</tr>"
        )
    return f"<table id='summary'><tr>{head}</tr>{''.join(rows)}</table>"


def _models_cells(r: pd.Series) -> str:
    """The player-model agreement of one row (``model_agreement``'s columns)."""
    return (
        f"<td class='text'>{html.escape(str(r['models_sign']))}</td>"
        f"<td>{100 * r['models_spread']:.2f} pp</td>"
        f"<td class='text'>{html.escape(str(r['models_size']))}</td>"
    )


_MODELS_HEAD = (
    "<th class='text' title='do the player models agree in sign?'>models: sign</th>"
    "<th title='largest minus smallest estimate across the player models'>models: spread</th>"
    "<th class='text' title=\"Cochran's Q test across the player models\">models: size</th>"
)


def _comparison_table(comparisons: pd.DataFrame) -> str:
    within = [c for c in comparisons.columns if c not in COMPARE_FIELDS]
    models = "models_sign" in comparisons.columns
    head = (
        "<tr><th class='text'>house</th>"
        + "".join(f"<th class='text'>{html.escape(c)}</th>" for c in within)
        + "<th class='text'>by</th><th>baseline</th><th>arm</th>"
        "<th>difference</th><th>95 % CI</th><th>p</th><th class='text'>method</th>"
        + (_MODELS_HEAD if models else "")
        + "</tr>"
    )
    rows = []
    for _, r in comparisons.iterrows():
        where = "".join(f"<td class='text'>{html.escape(str(r[c]))}</td>" for c in within)
        rows.append(
            f"<tr><td class='text'>{html.escape(str(r['house']).capitalize())}</td>{where}"
            f"<td class='text'>{html.escape(str(r['by']))}: {html.escape(str(r['baseline']))}"
            f" → {html.escape(str(r['arm']))}</td>"
            f"<td>{_pct(r['rate_baseline'])}</td><td>{_pct(r['rate_arm'])}</td>"
            f"<td>{100 * r['difference']:+.2f} pp</td>"
            f"<td>[{100 * r['ci_low']:+.2f}, {100 * r['ci_high']:+.2f}] pp</td>"
            f"<td>{r['p_value']:.3g}</td><td class='text'>{html.escape(str(r['method']))}</td>"
            + (_models_cells(r) if models else "")
            + "</tr>"
        )
    return f"<table id='comparisons'>{head}{''.join(rows)}</table>"


def _players_tables(entries: list[dict[str, Any]]) -> str:
    """One table per line-up of ``meta.json``'s ``players``: every parameter (rows) of every
    house (columns) that played the heuristic or the search player."""
    parts = []
    for entry in entries:
        houses = entry.get("houses", {})
        cells = ", ".join(str(c) for c in entry.get("cells", []))
        where = f"cell(s) {cells}: {entry.get('edition')}, {entry.get('players')} players"
        played = {h: p for h, p in houses.items() if "params" in p}
        if not played:
            kinds = ", ".join(sorted({str(p.get("kind")) for p in houses.values()}))
            parts.append(f"<p>{html.escape(where)}: every house {html.escape(kinds)}.</p>")
            continue
        parts.append(f"<p>{html.escape(where)}</p>")
        head = "<tr><th class='text'></th>" + "".join(
            f"<th>{html.escape(h.capitalize())}</th>" for h in houses
        )
        rows = [head + "</tr>"]
        for key in ("kind", "set"):
            rows.append(
                f"<tr><th class='text'>{key}</th>"
                + "".join(f"<td>{html.escape(str(p.get(key, '')))}</td>" for p in houses.values())
                + "</tr>"
            )
        names = list(next(iter(played.values()))["params"])
        knobs = sorted({k for p in played.values() for k in p.get("knobs", {})})
        for group, key in ((names, "params"), (knobs, "knobs")):
            for name in group:
                cells_html = "".join(
                    f"<td>{_number(name, p[key][name])}</td>"
                    if name in p.get(key, {})
                    else "<td></td>"
                    for p in houses.values()
                )
                rows.append(f"<tr><th class='text'>{html.escape(name)}</th>{cells_html}</tr>")
        parts.append(f"<table class='players'>{''.join(rows)}</table>")
    return "".join(parts)


def _number(name: str, value: Any) -> str:
    """A parameter's value as the page shows it: two decimals, the switches whole."""
    if name in ("version", "foresight") and isinstance(value, float) and value.is_integer():
        return str(int(value))
    return f"{value:.2f}" if isinstance(value, float) else html.escape(str(value))


def _meta_table(scenario: dict[str, Any], meta: dict[str, Any]) -> str:
    keys = [
        ("scenario file", scenario.get("source")),
        ("games per cell", scenario.get("games")),
        ("cells", len(scenario.get("cells", []))),
        ("root entropy (seed)", meta.get("root_entropy", scenario.get("seed"))),
        ("seeding", meta.get("seeding")),
        ("gotsim", meta.get("gotsim_version")),
        ("git SHA", meta.get("git_sha")),
        ("backend", meta.get("backend")),
        ("finished", meta.get("finished")),
        ("seconds (this run)", meta.get("seconds_this_run")),
        ("scenario hash", scenario.get("hash")),
    ]
    packages = meta.get("packages") or {}
    keys += [(name, version) for name, version in packages.items() if version]
    rows = "".join(
        f"<tr><th class='text'>{html.escape(k)}</th><td class='text'>{html.escape(str(v))}</td>"
        "</tr>"
        for k, v in keys
        if v is not None
    )
    return f"<table id='meta'>{rows}</table>"


def report_page(folder: Path) -> str:
    """The HTML page of the study in ``folder`` (``ReportError`` if it holds no results)."""
    scenario, meta, summary, comparisons = _read(folder)
    axes = [a for a in scenario.get("axes", []) if a in summary.columns]
    policies = sorted({str(p) for p in summary.get("policies", pd.Series(dtype=str)).unique()})
    name = str(scenario.get("name", folder.name))
    title = f"gotsim study {name}"
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
    ]
    if scenario.get("description"):
        parts.append(f"<p>{html.escape(str(scenario['description']))}</p>")
    parts.append(
        f"<p>{len(scenario.get('cells', [])) or summary['cell'].nunique()} cell(s) × "
        f"{int(scenario.get('games', 0)):,} games, played by {html.escape(', '.join(policies))}"
        " players.</p>"
    )
    parts.append("<h2>Win rate per house</h2>")
    parts.append(_summary_table(summary, axes))
    if comparisons is not None and len(comparisons):
        parts.append("<h2>Comparisons</h2>")
        parts.append(_comparison_table(comparisons))
    figures = sorted((folder / "figures").glob("*.png"))
    if figures:
        parts.append("<h2>Figures</h2>")
        for path in figures:
            data = base64.b64encode(path.read_bytes()).decode("ascii")
            parts.append(f"<img alt='{html.escape(path.stem)}' src='data:image/png;base64,{data}'>")
    if meta.get("players"):
        parts.append("<h2>Players</h2>")
        parts.append(
            "<p>What each house played: the policy and the value of every parameter "
            "(<code>docs/players.md</code>; the defaults of <code>heuristic</code> depend on "
            "the edition, the player count and gotsim's version).</p>"
        )
        parts.append(_players_tables(meta["players"]))
    parts.append("<h2>Provenance</h2>")
    parts.append(_meta_table(scenario, meta))
    parts.append("</body></html>")
    return "\n".join(parts)
