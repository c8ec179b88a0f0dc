"""The map validator (``build_board``) on a small valid map and on deliberately broken copies."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

from gotsim.rules.board import (
    AreaFieldError,
    AsymmetricBorderError,
    BoardDataError,
    CountMismatchError,
    DisconnectedBoardError,
    DuplicateAreaError,
    DuplicateBorderError,
    PortError,
    SelfBorderError,
    UnknownAreaError,
    build_board,
)
from gotsim.rules.ids import AreaKind, House

ERROR_CLASSES = (
    AreaFieldError,
    DuplicateAreaError,
    UnknownAreaError,
    SelfBorderError,
    DuplicateBorderError,
    AsymmetricBorderError,
    PortError,
    DisconnectedBoardError,
    CountMismatchError,
)


def _area(area_id: str, kind: str = "land", **fields: Any) -> dict[str, Any]:
    record = {"id": area_id, "name": area_id.title(), "kind": kind}
    record.update(fields)
    return record


@pytest.fixture
def spec() -> dict[str, Any]:
    """A valid 7-area map: 4 land areas, 2 seas and the port of a_land on north_sea.

    a_land - b_land - c_land - d_land - a_land is a ring of land; north_sea touches a and b,
    south_sea touches c and d, the two seas touch, and port_a sits between a_land and north_sea.
    """
    return {
        "areas": [
            _area(
                "a_land",
                castle=1,
                supply=1,
                crowns=1,
                home_of="stark",
                home_garrison=2,
                position=[0.2, 0.3],
            ),
            _area("b_land", stronghold=1, supply=2, position=[0.8, 0.3]),
            _area("c_land", crowns=2, position=[0.8, 0.9]),
            _area("d_land", neutral_force={"4": 3}, impassable_in_player_counts=[3]),
            _area("north_sea", "sea"),
            _area("south_sea", "sea"),
            _area("port_a", "port", port_of="a_land", port_sea="north_sea"),
        ],
        "borders": [
            ["a_land", "b_land"],
            ["b_land", "c_land"],
            ["c_land", "d_land"],
            ["a_land", "d_land"],
            ["a_land", "north_sea"],
            ["b_land", "north_sea"],
            ["north_sea", "south_sea"],
            ["c_land", "south_sea"],
            ["d_land", "south_sea"],
            ["a_land", "port_a"],
            ["port_a", "north_sea"],
        ],
        "drawing": {"aspect_ratio": 1.5},
    }


def _record(spec: dict[str, Any], area_id: str) -> dict[str, Any]:
    return next(a for a in spec["areas"] if a["id"] == area_id)


def _adjacency_form(spec: dict[str, Any]) -> dict[str, Any]:
    """The same map with its borders given as a symmetric ``adjacency`` dict."""
    other = copy.deepcopy(spec)
    adjacency: dict[str, list[str]] = {a["id"]: [] for a in other["areas"]}
    for a, b in other.pop("borders"):
        adjacency[a].append(b)
        adjacency[b].append(a)
    other["adjacency"] = adjacency
    return other


def _neighbour_ids(board, area_id: str) -> list[str]:
    row = board.neighbours[board.index(area_id)]
    return sorted(board.area_ids[j] for j in row if j >= 0)


def test_valid_fixture_builds_with_expected_tables(spec) -> None:
    """The fixture map builds: 7 areas (4 land, 2 sea, 1 port), 11 canonical borders, icon totals,
    neighbour lists, port links, home, mustering points and per-player-count tables."""
    board = build_board(spec)
    assert board.edition == "custom"
    assert board.n_areas == 7
    assert board.area_ids == (
        "a_land",
        "b_land",
        "c_land",
        "d_land",
        "north_sea",
        "south_sea",
        "port_a",
    )
    assert (int(board.is_land.sum()), int(board.is_sea.sum()), int(board.is_port.sum())) == (
        4,
        2,
        1,
    )
    assert len(board.borders) == 11
    assert board.borders[0] == ("a_land", "b_land")
    assert ("north_sea", "port_a") in board.borders  # given as [port_a, north_sea]
    assert all(a < b for a, b in board.borders)
    assert list(board.borders) == sorted(board.borders)
    assert (int(board.castle.sum()), int(board.stronghold.sum())) == (1, 1)
    assert (int(board.supply.sum()), int(board.crowns.sum())) == (3, 3)
    assert board.mustering_points.tolist() == [1, 2, 0, 0, 0, 0, 0]
    assert board.victory_area.tolist() == [True, True, False, False, False, False, False]

    assert _neighbour_ids(board, "a_land") == ["b_land", "d_land", "north_sea", "port_a"]
    assert _neighbour_ids(board, "north_sea") == ["a_land", "b_land", "port_a", "south_sea"]
    assert _neighbour_ids(board, "port_a") == ["a_land", "north_sea"]
    assert board.n_neighbours.tolist() == [4, 3, 3, 3, 4, 3, 2]
    assert board.neighbours.shape == (7, 4)
    assert board.neighbours[board.index("port_a")].tolist() == [0, 4, -1, -1]
    assert np.array_equal(board.adjacency, board.adjacency.T)
    assert int(board.adjacency.sum()) == 22

    a, port = board.index("a_land"), board.index("port_a")
    assert board.port_of_area.tolist() == [port, -1, -1, -1, -1, -1, -1]
    assert board.port_land.tolist() == [-1, -1, -1, -1, -1, -1, a]
    assert board.port_sea.tolist() == [-1, -1, -1, -1, -1, -1, board.index("north_sea")]
    assert board.kind[port] == AreaKind.PORT

    assert board.home.tolist() == [House.STARK, -1, -1, -1, -1, -1, -1]
    assert board.home_garrison.tolist() == [2, 0, 0, 0, 0, 0, 0]
    assert board.player_counts() == (3, 4, 5, 6)
    assert board.neutral_force[4].tolist() == [0, 0, 0, 3, 0, 0, 0]
    assert int(board.neutral_force[5].sum()) == 0
    assert board.impassable[3].tolist() == [False, False, False, True, False, False, False]
    assert board.aspect_ratio == 1.5
    assert board.position[board.index("c_land")].tolist() == [0.8, 0.9]
    assert board.position[board.index("port_a")].tolist() == [0.0, 0.0]


def test_matching_declared_counts_build(spec) -> None:
    """Declared ``counts`` that agree with the records are accepted."""
    spec["counts"] = {
        "areas": 7,
        "land": 4,
        "sea": 2,
        "port": 1,
        "borders": 11,
        "castles": 1,
        "strongholds": 1,
        "supply_barrels": 3,
        "crowns": 3,
    }
    assert len(build_board(spec).borders) == 11


def test_error_classes_are_board_data_and_value_errors() -> None:
    """Every validator error is a BoardDataError and so a ValueError."""
    assert issubclass(BoardDataError, ValueError)
    for cls in ERROR_CLASSES:
        assert issubclass(cls, BoardDataError), cls
        assert issubclass(cls, ValueError), cls


def test_index_of_unknown_area_raises(spec) -> None:
    """``board.index`` of an id the map lacks raises UnknownAreaError naming the id."""
    board = build_board(spec)
    assert board.index("c_land") == 2
    with pytest.raises(UnknownAreaError, match="nowhere"):
        board.index("nowhere")


def test_duplicate_area_id(spec) -> None:
    """Two records with the same id raise DuplicateAreaError naming it."""
    spec["areas"].append(_area("c_land"))
    with pytest.raises(DuplicateAreaError) as exc:
        build_board(spec)
    assert "'c_land'" in str(exc.value)


def test_bad_kind(spec) -> None:
    """A kind other than land/sea/port raises AreaFieldError naming the area and the kind."""
    _record(spec, "c_land")["kind"] = "swamp"
    with pytest.raises(AreaFieldError) as exc:
        build_board(spec)
    assert "'c_land'" in str(exc.value)
    assert "swamp" in str(exc.value)


def test_negative_supply(spec) -> None:
    """A negative supply count raises AreaFieldError naming the area and the field."""
    _record(spec, "b_land")["supply"] = -1
    with pytest.raises(AreaFieldError) as exc:
        build_board(spec)
    assert "'b_land'" in str(exc.value)
    assert "supply" in str(exc.value)


def test_castle_and_stronghold_both_set(spec) -> None:
    """An area with castle 1 and stronghold 1 raises AreaFieldError naming it."""
    _record(spec, "b_land")["castle"] = 1
    with pytest.raises(AreaFieldError) as exc:
        build_board(spec)
    assert "'b_land'" in str(exc.value)


def test_sea_with_crowns(spec) -> None:
    """A sea area carrying a crown icon raises AreaFieldError naming the sea."""
    _record(spec, "south_sea")["crowns"] = 1
    with pytest.raises(AreaFieldError) as exc:
        build_board(spec)
    assert "'south_sea'" in str(exc.value)


def test_unknown_home_house(spec) -> None:
    """``home_of`` naming an unknown house raises AreaFieldError naming the area and the house."""
    _record(spec, "a_land")["home_of"] = "tully"
    with pytest.raises(AreaFieldError) as exc:
        build_board(spec)
    assert "'a_land'" in str(exc.value)
    assert "tully" in str(exc.value)


def test_border_to_unknown_area(spec) -> None:
    """A border naming an id without a record raises UnknownAreaError naming that id."""
    spec["borders"].append(["b_land", "nowhere"])
    with pytest.raises(UnknownAreaError) as exc:
        build_board(spec)
    assert "'nowhere'" in str(exc.value)


def test_self_border(spec) -> None:
    """A border from an area to itself raises SelfBorderError naming the area."""
    spec["borders"].append(["c_land", "c_land"])
    with pytest.raises(SelfBorderError) as exc:
        build_board(spec)
    assert "'c_land'" in str(exc.value)


def test_same_border_twice_in_reverse_order(spec) -> None:
    """[b, a] after [a, b] is the same border twice: DuplicateBorderError naming both ends."""
    spec["borders"].append(["b_land", "a_land"])
    with pytest.raises(DuplicateBorderError) as exc:
        build_board(spec)
    assert "'a_land'" in str(exc.value)
    assert "'b_land'" in str(exc.value)


def test_symmetric_adjacency_dict_builds_the_same_board(spec) -> None:
    """A symmetric ``adjacency`` dict gives the same borders and tables as the pairs form."""
    pairs = build_board(spec)
    adjacency = build_board(_adjacency_form(spec))
    assert adjacency.area_ids == pairs.area_ids
    assert adjacency.borders == pairs.borders
    assert len(adjacency.borders) == 11
    for name in ("adjacency", "neighbours", "n_neighbours", "border_pairs"):
        assert np.array_equal(getattr(adjacency, name), getattr(pairs, name)), name
    for name in ("port_of_area", "port_land", "port_sea", "kind", "mustering_points"):
        assert np.array_equal(getattr(adjacency, name), getattr(pairs, name)), name


def test_asymmetric_adjacency_dict(spec) -> None:
    """An adjacency dict where c lists d but d does not list c raises AsymmetricBorderError."""
    other = _adjacency_form(spec)
    other["adjacency"]["d_land"].remove("c_land")
    with pytest.raises(AsymmetricBorderError) as exc:
        build_board(other)
    assert "'c_land'" in str(exc.value)
    assert "'d_land'" in str(exc.value)


def test_port_bordering_a_third_area(spec) -> None:
    """A port touching an area besides its land and its sea raises PortError naming the port."""
    spec["borders"].append(["b_land", "port_a"])
    with pytest.raises(PortError) as exc:
        build_board(spec)
    assert "'port_a'" in str(exc.value)
    assert "b_land" in str(exc.value)


def test_port_whose_land_has_no_castle(spec) -> None:
    """A port on a land area without castle or stronghold raises PortError naming port and land."""
    _record(spec, "a_land")["castle"] = 0
    with pytest.raises(PortError) as exc:
        build_board(spec)
    assert "'port_a'" in str(exc.value)
    assert "'a_land'" in str(exc.value)


def test_port_of_unknown_area(spec) -> None:
    """``port_of`` naming an id without a record raises UnknownAreaError naming that id."""
    _record(spec, "port_a")["port_of"] = "atlantis"
    with pytest.raises(UnknownAreaError) as exc:
        build_board(spec)
    assert "'atlantis'" in str(exc.value)
    assert "'port_a'" in str(exc.value)


def test_disconnected_areas(spec) -> None:
    """Two islands that only border each other raise DisconnectedBoardError naming both."""
    spec["areas"] += [_area("isle_one"), _area("isle_two")]
    spec["borders"].append(["isle_one", "isle_two"])
    with pytest.raises(DisconnectedBoardError) as exc:
        build_board(spec)
    assert "'isle_one'" in str(exc.value)
    assert "'isle_two'" in str(exc.value)
    assert "a_land" not in str(exc.value).split(":", 1)[1]


def test_declared_counts_that_disagree(spec) -> None:
    """A declared border count of 12 for a map with 11 raises CountMismatchError naming the key."""
    spec["counts"] = {"areas": 7, "borders": 12}
    with pytest.raises(CountMismatchError) as exc:
        build_board(spec)
    assert "borders" in str(exc.value)
    assert "12" in str(exc.value)
    assert "11" in str(exc.value)


def test_neutral_force_for_unknown_player_count(spec) -> None:
    """A neutral force keyed by 7 players on a 3-6 player map raises AreaFieldError naming it."""
    _record(spec, "d_land")["neutral_force"] = {"4": 3, "7": 2}
    with pytest.raises(AreaFieldError) as exc:
        build_board(spec)
    assert "'d_land'" in str(exc.value)
    assert "7" in str(exc.value)
