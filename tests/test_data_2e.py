"""Invariants of the packaged 2nd-edition data (gotsim/data/2e) as loaded by the package."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from gotsim.data import DataFileError, load_data
from gotsim.rules.board import load_board
from gotsim.rules.cards import TIMINGS, house_cards, house_deck
from gotsim.rules.ids import BASE_HOUSES, AreaKind, House, Unit
from gotsim.rules.setup import TRACKS, SetupDataError, load_setup

REFERENCE_MAP = Path("/work/shared/reference/agot2e/map.json")

HOME_AREAS = {
    "dragonstone": House.BARATHEON,
    "lannisport": House.LANNISTER,
    "winterfell": House.STARK,
    "pyke": House.GREYJOY,
    "highgarden": House.TYRELL,
    "sunspear": House.MARTELL,
}
HOUSES_IN_PLAY = {
    3: ("baratheon", "lannister", "stark"),
    4: ("baratheon", "lannister", "stark", "greyjoy"),
    5: ("baratheon", "lannister", "stark", "greyjoy", "tyrell"),
    6: ("baratheon", "lannister", "stark", "greyjoy", "tyrell", "martell"),
}
STARS = {3: (3, 2, 1), 4: (3, 2, 1, 0), 5: (3, 3, 2, 1, 0), 6: (3, 3, 2, 1, 0, 0)}


@pytest.fixture(scope="module")
def board():
    return load_board("2e")


@pytest.fixture(scope="module")
def raw_map():
    return load_data("2e", "map.json")


def _ids(board, mask) -> set[str]:
    return {board.area_ids[i] for i in np.flatnonzero(mask)}


# --- board -------------------------------------------------------------------------------------


def test_area_counts(board) -> None:
    """58 areas: 38 land, 12 sea, 8 ports."""
    assert board.n_areas == 58
    assert len(set(board.area_ids)) == 58
    assert int(board.is_land.sum()) == 38
    assert int(board.is_sea.sum()) == 12
    assert int(board.is_port.sum()) == 8


def test_border_count_and_kinds(board) -> None:
    """143 borders: 63 land-land, 52 land-sea, 12 sea-sea and 16 port borders (2 per port)."""
    assert len(board.borders) == 143
    assert board.border_pairs.shape == (143, 2)
    kinds = Counter(
        tuple(sorted(AreaKind(int(board.kind[i])).id for i in pair)) for pair in board.border_pairs
    )
    assert kinds == {
        ("land", "land"): 63,
        ("land", "sea"): 52,
        ("sea", "sea"): 12,
        ("land", "port"): 8,
        ("port", "sea"): 8,
    }


def test_icon_totals(board) -> None:
    """10 castles, 10 strongholds, 24 supply barrels, 19 crowns."""
    assert int(board.castle.sum()) == 10
    assert int(board.stronghold.sum()) == 10
    assert int(board.victory_area.sum()) == 20
    assert int(board.supply.sum()) == 24
    assert int(board.crowns.sum()) == 19
    assert _ids(board, board.stronghold) == {
        "dragonstone",
        "highgarden",
        "kings_landing",
        "lannisport",
        "oldtown",
        "pyke",
        "riverrun",
        "seagard",
        "sunspear",
        "winterfell",
    }
    assert _ids(board, board.castle) == {
        "crackclaw_point",
        "flints_finger",
        "harrenhal",
        "moat_cailin",
        "starfall",
        "storms_end",
        "the_eyrie",
        "the_reach",
        "white_harbor",
        "yronwood",
    }


def test_icons_only_on_land(board) -> None:
    """Seas and ports carry no castle, stronghold, barrel or crown."""
    not_land = ~board.is_land
    for table in (board.castle, board.stronghold, board.supply, board.crowns):
        assert int(table[not_land].sum()) == 0


def test_borders_canonical_and_unique(board, raw_map) -> None:
    """Every border is (a, b) with a < b, no pair repeats, and the list equals the file's."""
    assert all(a < b for a, b in board.borders)
    assert len(set(board.borders)) == 143
    assert list(board.borders) == sorted(board.borders)
    assert set(board.borders) == {tuple(p) for p in raw_map["borders"]}
    for (a, b), (i, j) in zip(board.borders, board.border_pairs, strict=True):
        assert (board.area_ids[i], board.area_ids[j]) == (a, b)


def test_adjacency_symmetric_with_false_diagonal(board) -> None:
    """The adjacency matrix is 58x58, symmetric, False on the diagonal, 2 entries per border."""
    adj = board.adjacency
    assert adj.shape == (58, 58)
    assert adj.dtype == np.bool_
    assert np.array_equal(adj, adj.T)
    assert not adj.diagonal().any()
    assert int(adj.sum()) == 2 * 143


def test_neighbours_table_matches_adjacency(board) -> None:
    """Each neighbours row lists exactly the adjacency row's areas, ascending, then -1 padding."""
    assert board.neighbours.shape == (58, 11)
    assert int(board.n_neighbours.max()) == 11
    assert board.area_ids[int(np.argmax(board.n_neighbours))] == "the_narrow_sea"
    assert np.array_equal(board.n_neighbours, board.adjacency.sum(axis=1))
    for i in range(board.n_areas):
        row = board.neighbours[i]
        k = int(board.n_neighbours[i])
        assert row[:k].tolist() == np.flatnonzero(board.adjacency[i]).tolist()
        assert (row[k:] == -1).all()


def test_every_port_borders_exactly_its_land_and_sea(board, raw_map) -> None:
    """Each of the 8 ports borders only its land (which has a castle or stronghold) and its sea."""
    records = {a["id"]: a for a in raw_map["areas"]}
    ports = np.flatnonzero(board.is_port)
    assert len(ports) == 8
    for p in ports:
        pid = board.area_ids[p]
        land, sea = int(board.port_land[p]), int(board.port_sea[p])
        assert board.area_ids[land] == records[pid]["port_of"]
        assert board.area_ids[sea] == records[pid]["port_sea"]
        assert board.kind[land] == AreaKind.LAND
        assert board.kind[sea] == AreaKind.SEA
        assert np.flatnonzero(board.adjacency[p]).tolist() == sorted((land, sea))
        assert board.adjacency[land, sea]
        assert board.victory_area[land]


def test_port_tables_consistent(board, raw_map) -> None:
    """port_of_area, port_land and port_sea point at each other and match the map's port fields."""
    records = {a["id"]: a for a in raw_map["areas"]}
    with_port = np.flatnonzero(board.port_of_area >= 0)
    assert _ids(board, board.port_of_area >= 0) == {
        "dragonstone",
        "lannisport",
        "oldtown",
        "pyke",
        "storms_end",
        "sunspear",
        "white_harbor",
        "winterfell",
    }
    for land in with_port:
        port = int(board.port_of_area[land])
        assert board.is_port[port]
        assert board.port_land[port] == land
        assert records[board.area_ids[land]]["port"] == board.area_ids[port]
    assert (board.port_land[~board.is_port] == -1).all()
    assert (board.port_sea[~board.is_port] == -1).all()
    assert (board.port_land[board.is_port] >= 0).all()
    assert (board.port_sea[board.is_port] >= 0).all()
    assert (board.port_of_area[~board.is_land] == -1).all()


def test_mustering_points(board, raw_map) -> None:
    """Mustering points are castle 1, stronghold 2, else 0, and agree with the file's field."""
    assert np.array_equal(board.mustering_points, board.castle + 2 * board.stronghold)
    assert int(board.mustering_points.sum()) == 30
    from_file = [a["mustering_points"] for a in raw_map["areas"]]
    assert board.mustering_points.tolist() == from_file


def test_home_areas(board) -> None:
    """Exactly six home areas, one per house, each with garrison 2; no other area has a garrison."""
    homes = {board.area_ids[i]: House(int(board.home[i])) for i in np.flatnonzero(board.home >= 0)}
    assert homes == HOME_AREAS
    assert _ids(board, board.home_garrison > 0) == set(HOME_AREAS)
    assert board.home_garrison[board.home >= 0].tolist() == [2] * 6
    assert int(board.home_garrison.sum()) == 12


def test_adjacency_spot_checks(board) -> None:
    """A few borders as printed: Winterfell-Moat Cailin yes, Pyke-Riverrun no, Port of Pyke only
    Pyke and Ironman's Bay, Pyke (an island) only its sea and port, The Eyrie only two areas."""
    adj, ix = board.adjacency, board.index
    assert adj[ix("winterfell"), ix("moat_cailin")]
    assert adj[ix("kings_landing"), ix("blackwater_bay")]
    assert adj[ix("the_narrow_sea"), ix("the_eyrie")]
    assert not adj[ix("pyke"), ix("riverrun")]
    assert not adj[ix("winterfell"), ix("kings_landing")]
    assert not adj[ix("three_towers"), ix("starfall")]

    def around(area_id: str) -> set[str]:
        return _ids(board, board.adjacency[ix(area_id)])

    assert around("port_of_pyke") == {"pyke", "ironmans_bay"}
    assert around("pyke") == {"port_of_pyke", "ironmans_bay"}
    assert around("the_eyrie") == {"the_mountains_of_the_moon", "the_narrow_sea"}
    assert around("winterfell") == {
        "bay_of_ice",
        "castle_black",
        "karhold",
        "moat_cailin",
        "port_of_winterfell",
        "the_shivering_sea",
        "the_stony_shore",
        "white_harbor",
    }


def test_tables_are_read_only(board) -> None:
    """Writing into any board array or per-player-count table raises ValueError."""
    arrays = {k: v for k, v in vars(board).items() if isinstance(v, np.ndarray)}
    assert len(arrays) == 16
    for name, array in arrays.items():
        assert not array.flags.writeable, name
        with pytest.raises(ValueError):
            array[(0,) * array.ndim] = array[(0,) * array.ndim]
    for per_count in (board.neutral_force, board.impassable):
        for table in per_count.values():
            with pytest.raises(ValueError):
                table[0] = table[0]
        with pytest.raises(TypeError):
            per_count[7] = per_count[6]  # type: ignore[index]


def test_load_board_is_cached() -> None:
    """``load_board`` returns the very same Board object on a second call."""
    assert load_board("2e") is load_board("2e")


def test_board_neutral_and_impassable_tables(board) -> None:
    """Board tables: 3p has 16 impassable areas (12 land + 4 ports), none for 4-6; neutral forces
    number 2/12/9/2 for 3/4/5/6 players, with King's Landing 5 and The Eyrie 6 at every count."""
    assert board.player_counts() == (3, 4, 5, 6)
    assert {p: int(t.sum()) for p, t in board.impassable.items()} == {3: 16, 4: 0, 5: 0, 6: 0}
    assert int((board.impassable[3] & board.is_port).sum()) == 4
    counts = {p: int((t > 0).sum()) for p, t in board.neutral_force.items()}
    assert counts == {3: 2, 4: 12, 5: 9, 6: 2}
    for p in (3, 4, 5, 6):
        assert board.neutral_force[p][board.index("kings_landing")] == 5
        assert board.neutral_force[p][board.index("the_eyrie")] == 6
    assert board.neutral_force[4][board.index("storms_end")] == 4
    assert board.neutral_force[5][board.index("storms_end")] == 0


def test_positions_inside_drawing(board) -> None:
    """Every area's point lies in x 0..1 and y 0..aspect_ratio, and no two areas share a point."""
    assert board.aspect_ratio == pytest.approx(1.8596)
    x, y = board.position[:, 0], board.position[:, 1]
    assert ((x >= 0) & (x <= 1)).all()
    assert ((y >= 0) & (y <= board.aspect_ratio)).all()
    assert len({tuple(p) for p in board.position.tolist()}) == 58


def test_positions_geography(board) -> None:
    """Winterfell is north of King's Landing, which is north of Sunspear; Pyke is west of
    Dragonstone (y grows southward, x eastward)."""

    def pos(area_id: str) -> np.ndarray:
        return board.position[board.index(area_id)]

    assert pos("winterfell")[1] < pos("kings_landing")[1] < pos("sunspear")[1]
    assert pos("castle_black")[1] < pos("winterfell")[1]
    assert pos("pyke")[0] < pos("dragonstone")[0]
    assert pos("lannisport")[0] < pos("kings_landing")[0]


def test_borders_match_reference_map() -> None:
    """The packaged border set equals the reference map's (skipped without the reference copy)."""
    if not REFERENCE_MAP.exists():
        pytest.skip(f"{REFERENCE_MAP} not available")
    reference = json.loads(REFERENCE_MAP.read_text(encoding="utf-8"))
    expected = {tuple(sorted(p)) for p in reference["borders"]}
    assert len(expected) == 143
    assert set(load_board("2e").borders) == expected


# --- house cards -------------------------------------------------------------------------------


def test_house_card_counts_and_strengths() -> None:
    """42 house cards, 7 per house, each house's strengths 4,3,2,2,1,1,0; ids unique."""
    cards = house_cards("2e")
    assert len(cards) == 42
    assert len({c.id for c in cards}) == 42
    for house in BASE_HOUSES:
        deck = house_deck("2e", house)
        assert len(deck) == 7, house
        assert sorted((c.strength for c in deck), reverse=True) == [4, 3, 2, 2, 1, 1, 0], house


def test_house_card_icons_per_house() -> None:
    """Sword and fortification totals per house, as printed on the 2nd-edition cards."""
    totals = {
        house.id: (
            sum(c.swords for c in house_deck("2e", house)),
            sum(c.fortifications for c in house_deck("2e", house)),
        )
        for house in BASE_HOUSES
    }
    assert totals == {
        "baratheon": (2, 1),
        "lannister": (4, 2),
        "stark": (3, 2),
        "greyjoy": (2, 1),
        "tyrell": (3, 2),
        "martell": (4, 2),
    }


def test_house_card_timings() -> None:
    """Every card with an ability has an effect tag and a timing from TIMINGS; plain cards have
    neither; the variants file's timing vocabulary is exactly TIMINGS, the base file's the same
    less "before_combat" (an A Dance with Dragons step no base card has)."""
    variants = load_data("2e", "house_cards_variants.json")["timing_vocabulary"]
    assert tuple(variants) == TIMINGS
    base = tuple(t for t in TIMINGS if t != "before_combat")
    assert tuple(load_data("2e", "house_cards.json")["timing_vocabulary"]) == base
    with_ability = [c for c in house_cards("2e") if c.ability]
    assert len(with_ability) == 24
    for card in house_cards("2e"):
        if card.ability:
            assert card.timing in TIMINGS, card.id
            assert card.effect, card.id
        else:
            assert card.timing is None and card.effect is None, card.id
    assert {c.id: c.timing for c in house_cards("2e") if c.strength == 4} == {
        "stannis_baratheon": "strength",
        "tywin_lannister": "after_winner",
        "eddard_stark": None,
        "euron_crows_eye": None,
        "mace_tyrell": "immediately",
        "the_red_viper": None,
    }


# --- orders ------------------------------------------------------------------------------------


def test_order_tokens() -> None:
    """15 tokens per house: 3 each of march, defense, support, raid, consolidate power; 5 special,
    one per type."""
    orders = load_data("2e", "orders.json")
    tokens = orders["tokens"]
    assert orders["tokens_per_house"] == 15
    assert sum(t["count"] for t in tokens) == 15
    per_type = Counter()
    special = Counter()
    for t in tokens:
        per_type[t["type"]] += t["count"]
        if t["special"]:
            special[t["type"]] += t["count"]
    assert per_type == {
        "march": 3,
        "defense": 3,
        "support": 3,
        "raid": 3,
        "consolidate_power": 3,
    }
    assert sum(special.values()) == 5
    assert set(special.values()) == {1}
    assert len({t["id"] for t in tokens}) == len(tokens) == 11
    modifiers = {t["id"]: t["modifier"] for t in tokens if t["type"] in ("march", "defense")}
    assert modifiers == {
        "march_minus_1": -1,
        "march_0": 0,
        "march_plus_1": 1,
        "defense_plus_1": 1,
        "defense_plus_2": 2,
    }


def test_special_order_limits() -> None:
    """Stars per King's Court position for 3/4/5/6 players, the same in orders and setups."""
    limits = load_data("2e", "orders.json")["special_order_limit_by_kings_court_position"]
    assert {int(p): tuple(v) for p, v in limits.items()} == STARS
    for players, stars in STARS.items():
        assert load_setup("2e", players).stars == stars


# --- Westeros, wildling and Tides of Battle decks ----------------------------------------------


def test_westeros_decks() -> None:
    """Three decks of 10 cards; wildling icons 3, 3 and 5; Winter Is Coming once in I and II,
    Wildlings Attack 3 times in III."""
    decks = load_data("2e", "westeros_cards.json")["decks"]
    assert [d["deck"] for d in decks] == ["I", "II", "III"]
    for deck in decks:
        assert deck["size"] == 10
        assert sum(c["count"] for c in deck["cards"]) == 10
        assert len({c["id"] for c in deck["cards"]}) == len(deck["cards"])
    icons = [sum(c["count"] for c in d["cards"] if c["wildling_icon"]) for d in decks]
    assert icons == [3, 3, 5]
    counts = [{c["id"]: c["count"] for c in d["cards"]} for d in decks]
    assert counts[0]["winter_is_coming"] == 1
    assert counts[1]["winter_is_coming"] == 1
    assert counts[2]["wildlings_attack"] == 3
    assert counts[0]["supply"] == counts[0]["mustering"] == 3
    assert counts[1]["clash_of_kings"] == counts[1]["game_of_thrones"] == 3


def test_wildling_cards() -> None:
    """Nine wildling cards, one copy each, every one with all three bidder outcomes."""
    data = load_data("2e", "wildling_cards.json")
    cards = data["cards"]
    assert data["deck_size"] == 9
    assert len(cards) == 9
    assert len({c["id"] for c in cards}) == 9
    for card in cards:
        for side in ("lowest_bidder", "everyone_else", "highest_bidder"):
            assert card[side]["effect"], (card["id"], side)


def test_tides_of_battle_deck() -> None:
    """The Tides of Battle deck has 24 cards: 8 blank, 4+4 one-point, 4 twos, 2 threes, 2 skulls."""
    data = load_data("2e", "tides_of_battle.json")
    assert data["deck_size"] == 24
    assert sum(c["count"] for c in data["cards"]) == 24
    assert {c["id"]: c["count"] for c in data["cards"]} == {
        "zero": 8,
        "one_sword": 4,
        "one_fortification": 4,
        "two": 4,
        "three": 2,
        "skull": 2,
    }


# --- supply ------------------------------------------------------------------------------------


def test_supply_table() -> None:
    """Supply levels 0-6 with the allowed armies of the data; each list largest first; each level
    allows at least what the one below allows; level 6 is 4,3,2,2,2."""
    raw = load_data("2e", "setup.json")["supply_track"]
    assert [level["level"] for level in raw] == list(range(7))
    table = load_setup("2e", 6).supply_table
    assert table == (
        (2, 2),
        (3, 2),
        (3, 2, 2),
        (3, 2, 2, 2),
        (3, 3, 2, 2),
        (4, 3, 2, 2),
        (4, 3, 2, 2, 2),
    )
    for level, armies in zip(raw, table, strict=True):
        assert list(armies) == sorted(armies, reverse=True)
        assert level["max_armies"] == len(armies)
        assert level["largest_army"] == armies[0]
    for lower, higher in itertools.pairwise(table):
        assert len(higher) >= len(lower)
        assert all(h >= lo for h, lo in zip(higher, lower, strict=False))


# --- setups ------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_setup_houses_and_tracks(players: int) -> None:
    """Houses in play per player count; every track lists exactly them, in the 6-player order
    with absent houses removed; dominance holders are the tracks' leaders."""
    setup = load_setup("2e", players)
    raw = load_data("2e", "setup.json")
    assert setup.players == players
    assert tuple(h.id for h in setup.houses) == HOUSES_IN_PLAY[players]
    assert set(setup.tracks) == set(TRACKS)
    for track in TRACKS:
        order = [h.id for h in setup.tracks[track]]
        assert sorted(order) == sorted(HOUSES_IN_PLAY[players]), track
        full = raw["influence_tracks_6p"][track]
        assert order == [h for h in full if h in HOUSES_IN_PLAY[players]], track
    holders = raw["player_counts"][str(players)]["dominance_token_holders"]
    assert holders == {
        "iron_throne": setup.dominance_holder("iron_throne").id,
        "valyrian_steel_blade": setup.dominance_holder("fiefdoms").id,
        "messenger_raven": setup.dominance_holder("kings_court").id,
    }
    assert setup.dominance_holder("iron_throne") == House.BARATHEON
    assert setup.dominance_holder("kings_court") == House.LANNISTER


def test_setup_six_player_tracks() -> None:
    """The 6-player starting tracks as printed on the house screens."""
    tracks = {t: [h.id for h in v] for t, v in load_setup("2e", 6).tracks.items()}
    assert tracks == {
        "iron_throne": ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell"],
        "fiefdoms": ["greyjoy", "tyrell", "martell", "stark", "baratheon", "lannister"],
        "kings_court": ["lannister", "stark", "martell", "baratheon", "tyrell", "greyjoy"],
    }


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_setup_power_supply_and_limits(players: int) -> None:
    """Every house starts with 5 power of 20; supply 2 except Stark 1; unit limits 10/5/6/2."""
    setup = load_setup("2e", players)
    assert setup.power == dict.fromkeys(setup.houses, 5)
    assert setup.power_total == dict.fromkeys(setup.houses, 20)
    assert setup.supply == {h: (1 if h == House.STARK else 2) for h in setup.houses}
    limits = {Unit.FOOTMAN: 10, Unit.KNIGHT: 5, Unit.SHIP: 6, Unit.SIEGE_ENGINE: 2}
    assert all(setup.unit_limits[h] == limits for h in setup.houses)
    assert (setup.castles_to_win, setup.max_rounds, setup.wildling_threat) == (7, 10, 2)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_setup_units_on_legal_areas(players: int, board) -> None:
    """Ships stand on seas or ports, land units on land; no starting unit on an impassable area,
    a neutral force, or another house's area."""
    setup = load_setup("2e", players)
    owner: dict[str, House] = {}
    for house, placed in setup.units.items():
        assert house in setup.houses
        for area, units in placed.items():
            assert area not in owner, area
            owner[area] = house
            i = board.index(area)
            assert area not in setup.impassable
            assert area not in setup.neutral_forces
            assert not board.impassable[players][i]
            for unit, n in units.items():
                assert n > 0
                if unit == Unit.SHIP:
                    assert board.kind[i] in (AreaKind.SEA, AreaKind.PORT), (house, area)
                else:
                    assert board.kind[i] == AreaKind.LAND, (house, area, unit)


@pytest.mark.parametrize(
    ("players", "ships"),
    [(3, {"baratheon": 2, "lannister": 1, "stark": 1}), (6, {"lannister": 2, "greyjoy": 2})],
)
def test_setup_unit_totals(players: int, ships: dict[str, int]) -> None:
    """Each house starts with 2 footmen and 1 knight; ship totals as in the data (3p drops the
    Lannister ship in Port of Lannisport)."""
    setup = load_setup("2e", players)
    for house, placed in setup.units.items():
        total = Counter()
        for units in placed.values():
            total.update(units)
        assert total[Unit.FOOTMAN] == 2, house
        assert total[Unit.KNIGHT] == 1, house
        assert total[Unit.SIEGE_ENGINE] == 0, house
        if house.id in ships:
            assert total[Unit.SHIP] == ships[house.id], house
    lannister = setup.units[House.LANNISTER]
    assert ("port_of_lannisport" in lannister) == (players != 3)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_setup_garrisons_on_home_areas(players: int, board) -> None:
    """Garrisons of strength 2 sit exactly on the home areas of the houses in play."""
    setup = load_setup("2e", players)
    expected = {area: (house, 2) for area, house in HOME_AREAS.items() if house in setup.houses}
    assert setup.garrisons == expected
    assert len(setup.garrisons) == players
    for area, (house, _) in setup.garrisons.items():
        assert board.home[board.index(area)] == house


def test_setup_neutral_forces() -> None:
    """Neutral forces per player count, and the same as the board's per-count table."""
    assert load_setup("2e", 6).neutral_forces == {"kings_landing": 5, "the_eyrie": 6}
    assert load_setup("2e", 3).neutral_forces == {"kings_landing": 5, "the_eyrie": 6}
    assert load_setup("2e", 5).neutral_forces == {
        "kings_landing": 5,
        "princes_pass": 3,
        "salt_shore": 3,
        "starfall": 3,
        "sunspear": 5,
        "the_boneway": 3,
        "the_eyrie": 6,
        "three_towers": 3,
        "yronwood": 3,
    }
    four = load_setup("2e", 4).neutral_forces
    assert len(four) == 12
    assert sum(four.values()) == 44
    assert four["storms_end"] == 4
    assert "highgarden" not in four
    board = load_board("2e")
    for players in (3, 4, 5, 6):
        table = board.neutral_force[players]
        from_board = {board.area_ids[i]: int(table[i]) for i in np.flatnonzero(table)}
        assert load_setup("2e", players).neutral_forces == from_board, players


def test_setup_three_player_impassable() -> None:
    """The 3-player game blocks 16 areas (12 land + 4 ports), the same as the board's table."""
    setup = load_setup("2e", 3)
    assert len(setup.impassable) == 16
    assert len(set(setup.impassable)) == 16
    board = load_board("2e")
    assert set(setup.impassable) == _ids(board, board.impassable[3])
    assert {"pyke", "highgarden", "sunspear", "port_of_pyke"} <= set(setup.impassable)
    for players in (4, 5, 6):
        assert load_setup("2e", players).impassable == ()


def test_kings_court_swap_at_five_players() -> None:
    """The 5-player swap exchanges Tyrell and Greyjoy on King's Court only."""
    plain = load_setup("2e", 5)
    swapped = load_setup("2e", 5, kings_court_swap=True)
    assert [h.id for h in plain.tracks["kings_court"]] == [
        "lannister",
        "stark",
        "baratheon",
        "tyrell",
        "greyjoy",
    ]
    assert [h.id for h in swapped.tracks["kings_court"]] == [
        "lannister",
        "stark",
        "baratheon",
        "greyjoy",
        "tyrell",
    ]
    assert swapped.tracks["iron_throne"] == plain.tracks["iron_throne"]
    assert swapped.tracks["fiefdoms"] == plain.tracks["fiefdoms"]
    assert swapped.stars == plain.stars


def test_kings_court_swap_needs_both_houses() -> None:
    """The swap at 4 players (no Tyrell) raises SetupDataError."""
    with pytest.raises(SetupDataError, match="tyrell"):
        load_setup("2e", 4, kings_court_swap=True)


def test_setup_for_seven_players_raises() -> None:
    """There is no 7-player 2e setup: SetupDataError naming the player count."""
    with pytest.raises(SetupDataError) as exc:
        load_setup("2e", 7)
    assert "7 players" in str(exc.value)


# --- data files --------------------------------------------------------------------------------


def test_unknown_edition_raises() -> None:
    """``load_data`` for an edition that does not exist raises DataFileError naming it."""
    with pytest.raises(DataFileError, match="3e"):
        load_data("3e", "map.json")


def test_missing_file_raises() -> None:
    """``load_data`` for a file the edition lacks raises DataFileError naming it."""
    with pytest.raises(DataFileError, match=r"nope\.json"):
        load_data("2e", "nope.json")


def test_load_data_returns_fresh_copies() -> None:
    """Changing a loaded dict does not change what the next load returns."""
    first = load_data("2e", "map.json")
    first["counts"]["areas"] = 0
    first["borders"].clear()
    second = load_data("2e", "map.json")
    assert second["counts"]["areas"] == 58
    assert len(second["borders"]) == 143
