"""The shared plots: houses in the game's order and colours, percent axes, intervals with their
level, titles naming the players and games, card matrices with a colour bar; and the study
figures drawn with them."""

from __future__ import annotations

from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_hex
from matplotlib.figure import Figure

from gotsim.analysis import HOUSE_COLOURS, HOUSE_ORDER
from gotsim.analysis.plots import (
    card_label,
    draw_differences_by_house,
    draw_house_differences,
    draw_house_rates,
    draw_matrix,
    house_colour,
    players_title,
)
from gotsim.rules.ids import House

matplotlib.use("Agg")


def _rates(group: list[int] | None = None) -> pd.DataFrame:
    houses = ["stark", "baratheon", "lannister"]  # not in the game's order on purpose
    rows = []
    for value in group or [None]:
        for k, house in enumerate(houses):
            rate = 0.2 + 0.1 * k
            row = {"house": house, "win_rate": rate, "ci_low": rate - 0.05, "ci_high": rate + 0.04}
            if value is not None:
                row["players"] = value
            rows.append(row)
    return pd.DataFrame(rows)


def test_house_order_and_colours_are_the_games() -> None:
    assert tuple(h.id for h in House) == HOUSE_ORDER
    assert house_colour("lannister") == HOUSE_COLOURS[House.LANNISTER]


def test_rates_are_bars_in_house_order_and_colours_on_a_percent_axis() -> None:
    fig = Figure()
    ax = fig.subplots()
    draw_house_rates(ax, _rates(), fair=1 / 3)
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels == ["Baratheon", "Lannister", "Stark"]
    colours = [to_hex(p.get_facecolor()) for p in ax.patches]
    order = (House.BARATHEON, House.LANNISTER, House.STARK)
    assert colours == [to_hex(HOUSE_COLOURS[h]) for h in order]
    assert ax.yaxis.get_major_formatter()(0.25, 0) == "25%"
    assert "95 % CI" in ax.get_ylabel()
    assert len(ax.collections) >= 2  # the intervals and the fair-share line


def test_grouped_rates_shade_each_group_and_name_it() -> None:
    fig = Figure()
    ax = fig.subplots()
    draw_house_rates(ax, _rates([3, 6]), group="players", fair={3: 1 / 3, 6: 1 / 6})
    assert len(ax.patches) == 6
    alphas = sorted({p.get_alpha() for p in ax.patches})
    assert len(alphas) == 2
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["players 3", "players 6"]


def test_differences_in_points_with_the_level_named() -> None:
    frame = pd.DataFrame(
        {
            "house": ["tyrell", "lannister"],
            "difference": [0.02, -0.01],
            "ci_low": [0.0, -0.03],
            "ci_high": [0.04, 0.01],
        }
    )
    fig = Figure()
    ax = fig.subplots()
    draw_house_differences(ax, frame, ["a", "b"])
    assert ax.xaxis.get_major_formatter()(0.02, 0) == "+2 pp"
    assert "95 % CI" in ax.get_xlabel()
    fig2 = Figure()
    ax2 = fig2.subplots()
    both = pd.concat([frame.assign(edition="2e"), frame.assign(edition="1e")])
    draw_differences_by_house(ax2, both, group="edition", level=0.9)
    rows = {t.get_text(): t.get_position()[1] for t in ax2.get_yticklabels()}
    assert rows["Lannister"] > rows["Tyrell"]  # the game's order, top to bottom
    assert "90 % CI" in ax2.get_xlabel()
    assert len(ax2.get_legend().get_texts()) == 2


def test_matrix_has_a_colour_bar_in_percent_and_readable_cards() -> None:
    matrix = pd.DataFrame(
        np.array([[0.5, 1.0], [0.0, 0.25]]),
        index=["tywin_lannister", "ser_gregor_clegane"],
        columns=["eddard_stark", "the_blackfish"],
    )
    fig = Figure()
    ax = fig.subplots()
    bar = draw_matrix(ax, matrix)
    assert bar.ax.get_ylabel() == "P(attacker wins)"
    assert bar.formatter(0.5, 0) == "50%"
    assert [t.get_text() for t in ax.get_yticklabels()] == ["Tywin Lannister", "Ser Gregor Clegane"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["Eddard Stark", "The Blackfish"]
    assert sorted(t.get_text() for t in ax.texts) == ["0", "100", "25", "50"]


def test_titles_name_the_players_and_the_games() -> None:
    assert players_title("Win rate", policies="random", games=500, per="cell") == (
        "Win rate — random players, 500 games per cell"
    )
    assert "mixed players" in players_title(
        "x", policies={"stark": "heuristic", "default": "random"}, games=1
    )
    assert card_label("the_queen_of_thorns") == "The Queen of Thorns"


def test_study_figures_name_players_and_games_and_redraw_from_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A study's figures come from its tables; ``redraw`` writes them again from the folder."""
    import json

    from gotsim.study.figures import draw_win_rates, redraw
    from gotsim.study.scenario import load_scenario

    source = tmp_path / "tiny.toml"
    source.write_text('name = "tiny"\nplayers = 3\nseed = 1\ngames = 40\npolicies = "heuristic"\n')
    scenario = load_scenario(source)
    summary = _rates().assign(cell=0, games=40, wins=8)
    fig = draw_win_rates(scenario, summary)
    assert fig._suptitle is not None
    title = fig._suptitle.get_text()
    assert title == "tiny: win rate per house — heuristic players, 40 games per cell"
    results = tmp_path / "results"
    results.mkdir()
    summary.to_csv(results / "summary.csv", index=False)
    marker = {"source": str(source), "quick": False, "hash": scenario.hash}
    (results / "scenario.json").write_text(json.dumps(marker))
    paths = redraw(results)
    assert [p.name for p in paths] == ["win_rates.png"]
    assert paths[0].read_bytes()[:4] == b"\x89PNG"
    source.write_text(source.read_text().replace("games = 40", "games = 41"))
    with pytest.raises(ValueError, match="has changed"):
        redraw(results)
