"""Checks on the packaged 1st-edition data files (gotsim/data/1e), read as plain JSON."""

import json
from importlib.resources import files

import pytest

HOUSES = ("baratheon", "lannister", "stark", "greyjoy", "tyrell")
LAND_UNITS = ("footman", "knight", "siege_engine")


def load(name):
    return json.loads((files("gotsim.data") / "1e" / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def board():
    return load("map.json")


@pytest.fixture(scope="module")
def areas(board):
    return {a["id"]: a for a in board["areas"]}


@pytest.fixture(scope="module")
def setup():
    return load("setup.json")


def test_area_counts(board, areas):
    assert len(board["areas"]) == len(areas) == 53
    kinds = [a["kind"] for a in board["areas"]]
    assert kinds.count("land") == 34
    assert kinds.count("sea") == 11
    assert kinds.count("port") == 8
    counts = board["counts"]
    assert (counts["areas"], counts["land"], counts["sea"], counts["port"]) == (53, 34, 11, 8)
    assert counts["castles"] == sum(a["castle"] for a in board["areas"])
    assert counts["strongholds"] == sum(a["stronghold"] for a in board["areas"])
    assert counts["supply_barrels"] == sum(a["supply"] for a in board["areas"])
    assert counts["crowns"] == sum(a["crowns"] for a in board["areas"])


def test_borders_canonical_unique_and_known(board, areas):
    borders = board["borders"]
    assert len(borders) == board["counts"]["borders"] == 110 + 2 * 8  # base board + ports
    pairs = [tuple(b) for b in borders]
    assert all(len(p) == 2 and p[0] < p[1] for p in pairs)
    assert len(set(pairs)) == len(pairs)
    assert pairs == sorted(pairs)
    assert all(a in areas and b in areas for a, b in pairs)


def test_ports_are_the_clash_of_kings_module_after_the_base_board(board, areas):
    """The 8 port areas come last (the base board's 45 keep their indices) and belong to the
    ports module; each port belongs to a castle or stronghold and opens onto one of its seas."""
    ports = [a for a in board["areas"] if a["kind"] == "port"]
    assert [a["id"] for a in board["areas"][45:]] == [a["id"] for a in ports]
    for port in ports:
        assert port["module"] == "clash_of_kings_ports"
        land, sea = areas[port["port_of"]], areas[port["port_sea"]]
        assert land["port"] == port["id"] and (land["castle"] or land["stronghold"])
        assert sorted([land["id"], sea["id"]]) in board["borders"]


def test_islands_have_no_land_neighbours(board, areas):
    for a, b in board["borders"]:
        if areas[a]["kind"] == areas[b]["kind"] == "land":
            assert not areas[a]["island"] and not areas[b]["island"], (a, b)


def test_positions_inside_drawing_box(board):
    aspect = board["drawing"]["aspect_ratio"]
    for a in board["areas"]:
        x, y = a["position"]
        assert 0 <= x <= 1 and 0 <= y <= aspect, a["id"]


def test_sea_areas_have_no_icons(board):
    for a in board["areas"]:
        if a["kind"] == "sea":
            assert (a["castle"], a["stronghold"], a["supply"], a["crowns"]) == (0, 0, 0, 0), a["id"]


def test_house_cards():
    cards = load("house_cards.json")["houses"]
    assert sorted(cards) == sorted(HOUSES)
    all_cards = [c for hand in cards.values() for c in hand]
    assert len(all_cards) == 35
    assert len({c["id"] for c in all_cards}) == 35
    vocabulary = set(load("house_cards.json")["timing_vocabulary"])
    for house, hand in cards.items():
        assert len(hand) == 7, house
        assert sorted((c["strength"] for c in hand), reverse=True) == [3, 2, 2, 1, 1, 0, 0]
        for c in hand:
            assert c["timing"] is None or c["timing"] in vocabulary, c["id"]
            assert (c["ability"] is None) == (c["effect"] is None), c["id"]


def test_westeros_decks_have_ten_cards():
    decks = load("westeros_cards.json")["decks"]
    assert [d["deck"] for d in decks] == ["I", "II", "III"]
    for d in decks:
        assert d["size"] == 10
        assert sum(c["count"] for c in d["cards"]) == 10, d["deck"]
        assert {"winter_is_coming", "last_days_of_summer"} <= {c["id"] for c in d["cards"]}


def test_starting_units_stand_on_legal_areas(setup, areas):
    for house, info in setup["houses"].items():
        assert areas[info["home_area"]]["home_of"] == house
        for area, units in info["starting_units"].items():
            assert area in areas, (house, area)
            if areas[area]["kind"] == "sea":
                assert all(units[u] == 0 for u in LAND_UNITS), (house, area)
            else:
                assert units["ship"] == 0, (house, area)


def test_starting_supply_equals_barrels(setup, areas):
    expected = {"stark": 1, "baratheon": 1, "lannister": 2, "greyjoy": 2, "tyrell": 3}
    for house, info in setup["houses"].items():
        barrels = sum(
            areas[a]["supply"] for a in info["starting_units"] if areas[a]["kind"] == "land"
        )
        assert barrels == info["starting_supply"] == expected[house], house


def test_player_counts(setup, areas):
    pcs = setup["player_counts"]
    assert sorted(pcs) == ["3", "4", "5"]
    assert set(pcs["5"]["houses"]) == set(HOUSES)
    assert set(pcs["4"]["houses"]) == set(HOUSES) - {"greyjoy"}
    assert set(pcs["3"]["houses"]) == set(HOUSES) - {"greyjoy", "tyrell"}
    for n, pc in pcs.items():
        for track in pc["influence_tracks"].values():
            assert sorted(track) == sorted(pc["houses"]), n
        assert len(pc["kings_court_special_orders_by_position"]) == int(n)
        for nf in pc["neutral_forces"]:
            assert areas[nf["area"]]["neutral_force"][n] == nf["strength"]
        absent = set(HOUSES) - set(pc["houses"])
        assert {army["house"] for army in pc["neutral_armies_of_absent_houses"]} == absent
        assert all(army["area"] in areas for army in pc["neutral_armies_of_absent_houses"])
    assert pcs["3"]["castles_and_strongholds_to_win"] == 8
    assert pcs["4"]["castles_and_strongholds_to_win"] == 7
    assert pcs["5"]["castles_and_strongholds_to_win"] == 7
