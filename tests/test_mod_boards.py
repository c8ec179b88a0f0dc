"""The expansion boards: Mother of Dragons for 7 players (the Eyrie and the Bite overlays) and for
8 (with the Essos side board), and A Feast for Crows with a Port of The Eyrie; their pictures and
``gotsim board --expansion mod``."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gotsim.analysis.board_plot import draw_bare_board
from gotsim.cli import main
from gotsim.data import load_data
from gotsim.rules.board import (
    BOARDS,
    Board,
    BoardDataError,
    MapChangeError,
    apply_map_changes,
    board_spec,
    build_board,
    load_board,
)
from gotsim.rules.ids import AreaKind, House

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAPS = load_data("2e", "expansions.json")["maps"]
WESTEROS_CHANGES = MAPS["mother_of_dragons_westeros_changes"]
ESSOS = MAPS["essos"]
EYRIE_PORT = MAPS["feast_for_crows_eyrie_port"]
EXPANSION_BOARDS = ("mod7", "mod8", "affc_eyrie_port")


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def _mod(players: int) -> Board:
    return load_board("2e", board=f"mod{players}")


@pytest.mark.parametrize(
    ("board", "areas", "borders"),
    [
        ("mod7", WESTEROS_CHANGES["counts"]["areas"], WESTEROS_CHANGES["counts"]["borders"]),
        ("mod8", ESSOS["counts"]["full_8p_board_areas"], ESSOS["counts"]["full_8p_board_borders"]),
        ("affc_eyrie_port", 59, 145),
    ],
)
def test_counts_as_the_data_says(board: str, areas: int, borders: int) -> None:
    b = load_board("2e", board=board)
    assert (b.n_areas, len(b.borders)) == (areas, borders)
    assert b.name == board
    assert repr(b) == f"Board('2e', {board!r}, {areas} areas, {borders} borders)"


def test_the_numbers_of_the_data_files() -> None:
    """The expansion data's own figures: 61/152 and 75/188 areas/borders, 14 Essos areas with
    36 borders, 3 added areas and a net 9 more borders on the Westeros overlays."""
    assert (WESTEROS_CHANGES["counts"]["areas"], WESTEROS_CHANGES["counts"]["borders"]) == (61, 152)
    assert (
        (len(ESSOS["areas"]), len(ESSOS["borders"]))
        == (14, 36)
        == (
            ESSOS["counts"]["areas"],
            ESSOS["counts"]["borders"],
        )
    )
    assert (ESSOS["counts"]["full_8p_board_areas"], ESSOS["counts"]["full_8p_board_borders"]) == (
        75,
        188,
    )
    base = load_board("2e")
    added = len(WESTEROS_CHANGES["added_borders"]) - len(WESTEROS_CHANGES["removed_borders"])
    assert base.n_areas + len(WESTEROS_CHANGES["added_areas"]) == 61
    assert len(base.borders) + added == 152


@pytest.mark.parametrize("players", [7, 8])
def test_the_eyrie_overlay(players: int) -> None:
    """The Eyrie becomes a stronghold, Arryn's home area with a garrison of 4 and a port on The
    Narrow Sea; The Vale of Arryn (castle, crown) and The Bite are new."""
    b = _mod(players)
    eyrie = b.index("the_eyrie")
    assert (b.castle[eyrie], b.stronghold[eyrie], b.mustering_points[eyrie]) == (0, 1, 2)
    assert (b.supply[eyrie], b.crowns[eyrie]) == (1, 1)
    assert b.home_of[eyrie] == "arryn"
    assert b.home_garrison[eyrie] == 4
    port = b.port_of_area[eyrie]
    assert b.area_ids[port] == "port_of_the_eyrie"
    assert b.area_ids[b.port_sea[port]] == "the_narrow_sea"
    assert all(f[eyrie] == 0 for f in b.neutral_force.values())
    vale = b.index("the_vale_of_arryn")
    assert (b.kind[vale], b.castle[vale], b.crowns[vale], b.supply[vale]) == (
        AreaKind.LAND,
        1,
        1,
        0,
    )
    assert b.kind[b.index("the_bite")] == AreaKind.SEA
    # the houses the engine plays keep their home areas and garrisons
    base = load_board("2e")
    for i in np.flatnonzero(base.home >= 0):
        j = b.index(base.area_ids[i])
        assert (b.home[j], b.home_garrison[j]) == (base.home[i], base.home_garrison[i])


@pytest.mark.parametrize("players", [7, 8])
def test_the_bite_overlay(players: int) -> None:
    """White Harbor's port opens onto The Bite, which cuts Moat Cailin, The Twins and White
    Harbor off The Narrow Sea."""
    b = _mod(players)
    port = b.port_of_area[b.index("white_harbor")]
    assert b.area_ids[port] == "port_of_white_harbor"
    assert b.area_ids[b.port_sea[port]] == "the_bite"
    borders = set(b.borders)
    for pair in WESTEROS_CHANGES["removed_borders"]:
        assert _pair(*pair) not in borders
    for pair in WESTEROS_CHANGES["added_borders"]:
        assert _pair(*pair) in borders
    bite = b.index("the_bite")
    assert sorted(b.area_ids[j] for j in np.flatnonzero(b.adjacency[bite])) == [
        "moat_cailin",
        "port_of_white_harbor",
        "the_fingers",
        "the_narrow_sea",
        "the_twins",
        "white_harbor",
        "widows_watch",
    ]


def test_essos_and_its_links_to_westeros() -> None:
    b = _mod(8)
    borders = set(b.borders)
    for pair in ESSOS["borders"]:
        assert _pair(*pair) in borders
    essos = {a["id"] for a in ESSOS["areas"]}
    links = {
        pair for pair in borders if (pair[0] in essos) != (pair[1] in essos)
    }  # borders with one end in Essos and one in Westeros
    assert links == {_pair(*p) for p in ESSOS["links_to_westeros"]}
    assert len(links) == 7
    for a, c in links:  # Essos and Westeros meet only at sea
        assert b.kind[b.index(a)] == b.kind[b.index(c)] == AreaKind.SEA
    pentos = b.index("pentos")
    assert (b.home_of[pentos], b.home_garrison[pentos], b.stronghold[pentos]) == ("targaryen", 2, 1)
    assert b.neutral_force[8][b.index("braavos")] == 5
    assert b.neutral_force[8][b.index("kings_landing")] == 5
    for port, land, sea in [
        ("port_of_braavos", "braavos", "braavosian_coastlands"),
        ("port_of_pentos", "pentos", "bay_of_pentos"),
        ("port_of_volantis", "volantis", "the_orange_shore"),
    ]:
        p = b.index(port)
        assert (b.port_land[p], b.port_sea[p]) == (b.index(land), b.index(sea))
    assert "pentos" not in _mod(7).area_index


def test_the_seven_player_board_is_the_eight_player_board_without_essos() -> None:
    seven, eight = _mod(7), _mod(8)
    essos = {a["id"] for a in ESSOS["areas"]}
    assert eight.area_ids[: seven.n_areas] == seven.area_ids
    assert set(eight.area_ids) - set(seven.area_ids) == essos
    assert {p for p in eight.borders if not set(p) & essos} == set(seven.borders)


def test_eyrie_port_board() -> None:
    """A Feast for Crows' option: the base map plus a Port of The Eyrie on The Narrow Sea."""
    base, b = load_board("2e"), load_board("2e", board="affc_eyrie_port")
    assert set(b.area_ids) - set(base.area_ids) == {"port_of_the_eyrie"}
    assert set(b.borders) - set(base.borders) == {
        ("port_of_the_eyrie", "the_eyrie"),
        ("port_of_the_eyrie", "the_narrow_sea"),
    }
    eyrie = b.index("the_eyrie")
    assert b.area_ids[b.port_of_area[eyrie]] == "port_of_the_eyrie"
    assert (b.castle[eyrie], b.stronghold[eyrie], b.home[eyrie]) == (1, 0, -1)
    assert b.player_counts() == (4,)
    assert b.neutral_force[4][eyrie] == 6


@pytest.mark.parametrize("board", EXPANSION_BOARDS)
def test_positions_on_the_board(board: str) -> None:
    b = load_board("2e", board=board)
    spec = load_data("2e", "boards.json")["boards"][board]
    assert set(spec["drawing"]["positions"]) == set(b.area_ids)
    x, y = b.position[:, 0], b.position[:, 1]
    assert x.min() >= 0 and x.max() <= 1
    assert y.min() >= 0 and y.max() <= b.aspect_ratio
    assert len({tuple(p) for p in b.position}) == b.n_areas
    # north at the top, Dorne at the bottom, the Iron Islands west of Dragonstone
    at = {a: b.position[b.index(a)] for a in ("winterfell", "sunspear", "pyke", "dragonstone")}
    assert at["winterfell"][1] < at["sunspear"][1]
    assert at["pyke"][0] < at["dragonstone"][0]


def test_the_eight_player_board_is_wider_with_essos_in_the_east() -> None:
    seven, eight = _mod(7), _mod(8)
    assert eight.aspect_ratio == pytest.approx(1378 / 1204, abs=1e-4)
    assert seven.aspect_ratio == pytest.approx(1378 / 741, abs=1e-4)
    assert eight.image_width == pytest.approx(1204 / 741, abs=1e-4)
    essos = [eight.index(a["id"]) for a in ESSOS["areas"]]
    westeros_land = np.flatnonzero(eight.is_land)
    westeros_land = np.setdiff1d(westeros_land, essos)
    assert eight.position[essos, 0].min() > eight.position[westeros_land, 0].max()


def test_base_board_unchanged() -> None:
    base = load_board("2e")
    spec = load_data("2e", "map.json")
    assert base.name == "base" and base.title == ""
    assert base.area_ids == tuple(a["id"] for a in spec["areas"])
    assert base.borders == tuple(sorted(_pair(*p) for p in spec["borders"]))
    assert (base.n_areas, len(base.borders)) == (58, 143)
    assert repr(base) == "Board('2e', 58 areas, 143 borders)"
    assert base.player_counts() == (3, 4, 5, 6)
    assert load_board("2e", board="base") is load_board("2e", board="base")
    homes = {base.area_ids[i]: base.home_of[i] for i in range(base.n_areas) if base.home_of[i]}
    assert homes == {
        base.area_ids[i]: House(int(base.home[i])).id for i in np.flatnonzero(base.home >= 0)
    }


def test_boards_are_cached_and_read_only() -> None:
    assert _mod(8) is _mod(8)
    with pytest.raises(ValueError):
        _mod(8).adjacency[0, 1] = True


def test_unknown_board_is_refused() -> None:
    assert BOARDS["2e"] == ("base", *EXPANSION_BOARDS)
    with pytest.raises(ValueError, match="unknown board 'mod9'"):
        load_board("2e", board="mod9")
    with pytest.raises(ValueError, match="unknown board 'mod7'"):
        load_board("1e", board="mod7")


def test_home_areas_of_houses_the_engine_lacks() -> None:
    """Arryn and Targaryen are named by id; their numeric ``home`` entry is -1 until ``House``
    has them. A home area of a house the board does not name is refused."""
    b = _mod(8)
    for area, house in (("the_eyrie", "arryn"), ("pentos", "targaryen")):
        i = b.index(area)
        assert b.home_of[i] == house
        assert b.home[i] == (
            int(House[house.upper()]) if house.upper() in House.__members__ else -1
        )
    spec = board_spec("2e", "mod7")
    spec["houses"] = [h for h in spec["houses"] if h != "arryn"]
    with pytest.raises(BoardDataError, match="arryn"):
        build_board(spec)


def _tiny() -> dict[str, Any]:
    return {"areas": [{"id": "a"}, {"id": "b"}], "borders": [["a", "b"]]}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"changed_areas": [{"id": "z"}]}, "changed area 'z'"),
        ({"added_areas": [{"id": "a"}]}, "added area 'a'"),
        ({"areas": [{"id": "b"}]}, "added area 'b'"),
        ({"removed_borders": [["a", "z"]]}, "removed border"),
        ({"added_borders": [["b", "a"]]}, "added border"),
        ({"borders": [["a"]]}, "not a pair"),
    ],
)
def test_changes_that_do_not_fit_are_refused(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(MapChangeError, match=message):
        apply_map_changes(_tiny(), changes)


def test_changes_leave_the_map_they_change_alone() -> None:
    base = _tiny()
    new = apply_map_changes(base, {"changed_areas": [{"id": "a", "name": "A"}]})
    assert new["areas"][0] == {"id": "a", "name": "A"}
    assert base == _tiny()


def test_broken_overlay_fails_the_board_checks() -> None:
    """The composed map goes through ``build_board``: dropping The Bite's border with White
    Harbor leaves the port of White Harbor on a sea its land does not touch."""
    spec = board_spec("2e", "mod7")
    spec["borders"] = [p for p in spec["borders"] if _pair(*p) != ("the_bite", "white_harbor")]
    with pytest.raises(BoardDataError, match="port_of_white_harbor"):
        build_board(spec)


@pytest.mark.parametrize("board", EXPANSION_BOARDS)
def test_bare_board_picture(board: str) -> None:
    b = load_board("2e", board=board)
    fig = draw_bare_board(b)
    ax = fig.axes[0]
    texts = [" ".join(t.get_text().split()) for t in ax.texts]
    for name in b.area_names:
        assert name in texts, name
    garrisons = {f"G{int(g)}" for g in b.home_garrison if g}
    assert garrisons <= set(texts)
    players = b.player_counts()[0]
    assert ax.get_title().endswith(f"{players} players")
    (left, right), (bottom, top) = ax.get_xlim(), ax.get_ylim()
    assert bottom > top  # north at the top
    assert (bottom - top) / (right - left) == pytest.approx(b.aspect_ratio, rel=0.15)
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    if board == "mod8":
        assert {"Arryn", "Targaryen"} <= set(legend)
        assert fig.get_size_inches()[0] == pytest.approx(9.0 * b.image_width)


def test_bare_board_refuses_a_player_count_it_is_not_for() -> None:
    with pytest.raises(ValueError, match="not 6"):
        draw_bare_board(_mod(7), 6)


@pytest.mark.parametrize(("players", "what"), [(7, "starting position"), (8, "starting position")])
def test_cli_draws_the_mother_of_dragons_board(
    players: int, what: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / f"mod{players}.png"
    argv = ["board", "--expansion", "mod", "--players", str(players), "--out", str(out)]
    assert main([*argv, "--dpi", "40"]) == 0
    assert out.read_bytes()[:8] == PNG_SIGNATURE
    line = capsys.readouterr().out
    assert f"{players} players" in line and what in line
