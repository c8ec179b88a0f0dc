"""Board pictures: every area drawn and named, tokens shown, PNG files written atomically."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

from pathlib import Path

import numpy as np
import pytest
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from gotsim.analysis.board_plot import HOUSE_COLOURS, draw_board, draw_setup, save_board_picture
from gotsim.rules.board import UnknownAreaError, build_board, load_board
from gotsim.rules.ids import House, Unit
from gotsim.rules.setup import load_setup

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _texts(fig: Figure) -> list[str]:
    """All texts on the map axes, line breaks folded into spaces."""
    ax = fig.axes[0]
    return [" ".join(t.get_text().split()) for t in ax.texts]


def _map_axes(fig: Figure) -> Axes:
    return fig.axes[0]


def test_house_colours_cover_every_house() -> None:
    assert set(HOUSE_COLOURS) == set(House)
    assert len(set(HOUSE_COLOURS.values())) == len(House)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_draw_setup_names_every_area_and_neutral_force(players: int) -> None:
    board = load_board("2e")
    setup = load_setup("2e", players)
    fig = draw_setup(setup)
    assert isinstance(fig, Figure)
    texts = _texts(fig)
    for name in board.area_names:
        assert name in texts, name
    # one label per area (names), plus neutral force strengths, unit and garrison boxes
    neutral = [t for t in texts if t.isdigit()]
    assert sorted(neutral) == sorted(str(s) for s in setup.neutral_forces.values())
    for area, (_, strength) in setup.garrisons.items():
        assert f"G{strength}" in texts, area
    assert "1F 1K" in texts
    # portrait map, north up: the y axis runs from south (bottom) to north (top)
    width, height = fig.get_size_inches()
    assert height > width
    bottom, top = _map_axes(fig).get_ylim()
    assert bottom > top
    assert _map_axes(fig).get_title().endswith(f"{players} players")


def test_area_markers_one_per_area() -> None:
    board = load_board("2e")
    fig = draw_board(board)
    ax = _map_axes(fig)
    centres = {
        (round(float(x), 6), round(float(y), 6))
        for line in ax.lines
        for x, y in np.asarray(line.get_xydata(), dtype=float)
    }
    assert len(centres) == board.n_areas
    assert len([t for t in _texts(fig) if t]) == board.n_areas


def test_westeros_orientation() -> None:
    """Winterfell above King's Landing above Sunspear; Pyke west of Dragonstone."""
    board = load_board("2e")
    fig = draw_board(board)
    ax = _map_axes(fig)
    screen = {
        " ".join(t.get_text().split()): ax.transData.transform(t.xy)  # type: ignore[attr-defined]
        for t in ax.texts
    }
    assert screen["Winterfell"][1] > screen["King's Landing"][1] > screen["Sunspear"][1]
    assert screen["Pyke"][0] < screen["Dragonstone"][0]
    (left, right), (bottom, top) = ax.get_xlim(), ax.get_ylim()
    assert (bottom - top) / (right - left) == pytest.approx(board.aspect_ratio, rel=0.15)


def test_draw_board_with_every_kind_of_token() -> None:
    board = load_board("2e")
    fig = draw_board(
        board,
        units={"harrenhal": (House.LANNISTER, {Unit.FOOTMAN: 2, Unit.SIEGE_ENGINE: 1})},
        control={"riverrun": House.TYRELL},
        power_tokens={"riverrun": House.STARK},
        garrisons={"winterfell": (House.STARK, 3)},
        neutral_forces={"the_eyrie": 6},
        impassable=["kings_landing"],
        orders={"harrenhal": "March +1"},
        title="A test",
    )
    texts = _texts(fig)
    assert "2F 1SE" in texts
    assert "G3" in texts
    assert "6" in texts
    assert "March +1" in texts
    assert _map_axes(fig).get_title() == "A test"


def test_draw_board_rejects_unknown_areas() -> None:
    with pytest.raises(UnknownAreaError):
        draw_board(load_board("2e"), neutral_forces={"atlantis": 3})


def test_draw_into_given_axes() -> None:
    fig = Figure(figsize=(10, 9))
    left, right = fig.subplots(1, 2)
    assert draw_setup(load_setup("2e", 4), ax=left) is fig
    assert draw_setup(load_setup("2e", 5), ax=right) is fig
    assert "Highgarden" in [" ".join(t.get_text().split()) for t in right.texts]


def test_save_board_picture_writes_png_atomically(tmp_path: Path) -> None:
    target = tmp_path / "pictures" / "board.png"
    out = save_board_picture(target, load_setup("2e", 6), dpi=40)
    assert out == target
    data = target.read_bytes()
    assert data.startswith(PNG_SIGNATURE)
    assert len(data) > 1000
    assert [p.name for p in target.parent.iterdir()] == ["board.png"]


def test_board_without_positions_or_ports() -> None:
    """Any valid board draws, even one without drawing positions (laid out on a circle)."""
    spec = {
        "areas": [
            {"id": "a", "name": "Alpha", "kind": "land", "castle": 1, "supply": 1},
            {"id": "b", "name": "Beta", "kind": "land", "stronghold": 1, "crowns": 2},
            {"id": "c", "name": "Gamma", "kind": "sea"},
        ],
        "borders": [["a", "b"], ["a", "c"], ["b", "c"]],
    }
    board = build_board(spec)
    fig = draw_board(board, units={"c": (House.GREYJOY, {Unit.SHIP: 2})})
    texts = _texts(fig)
    assert {"Alpha", "Beta", "Gamma", "2S"} <= set(texts)


def test_first_edition_board() -> None:
    board = load_board("1e")
    fig = draw_board(board, title="1e")
    texts = _texts(fig)
    for name in board.area_names:
        assert name in texts, name
    (left, right), (bottom, top) = _map_axes(fig).get_xlim(), _map_axes(fig).get_ylim()
    assert 1.2 < (bottom - top) / (right - left) < 3.0  # portrait, not stretched twice


def _port_names(board_edition: str = "1e") -> set[str]:
    from gotsim.rules.ids import AreaKind

    board = load_board(board_edition)
    return {n for n, k in zip(board.area_names, board.kind, strict=True) if k == AreaKind.PORT}


def _legend_labels(fig: Figure) -> list[str]:
    return [t.get_text() for legend in fig.legends for t in legend.get_texts()]


def test_first_edition_pictures_draw_ports_only_with_their_module() -> None:
    """The 1st-edition board's ports belong to A Clash of Kings' ``ports`` module: its
    starting position, its positions (which carry no module) and games without the module leave
    them out (no mark, name, border or legend key); with it they are drawn."""
    from gotsim.analysis.board_plot import draw_bare_board, draw_position, draw_record
    from gotsim.engine.game import Game
    from gotsim.engine.position import starting_position

    ports = _port_names()
    assert len(ports) == 8
    setup = load_setup("1e", 5)
    without = draw_setup(setup)
    assert not ports & set(_texts(without))
    assert "port" not in _legend_labels(without)
    with_ports = draw_setup(setup, ports=True)
    assert ports <= set(_texts(with_ports))
    assert "port" in _legend_labels(with_ports)
    assert not ports & set(_texts(draw_bare_board(load_board("1e"), 5)))

    assert not ports & set(_texts(draw_position(starting_position("1e", 5))))

    assert not ports & set(_texts(draw_record(Game(edition="1e", players=5))))
    game = Game(edition="1e", players=5, variants={"ports": True})
    assert ports <= set(_texts(draw_record(game)))
    # the 2nd edition's ports are part of its board
    assert _port_names("2e") <= set(_texts(draw_setup(load_setup("2e", 6))))
