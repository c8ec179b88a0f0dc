"""Mother of Dragons as an expansion (``expansion="mod"``): the 7-player game with Arryn on the
Westeros board with the Eyrie and the Bite overlays (``docs/rules.md`` M8). The 8-player game
(Targaryen, Essos): ``tests/test_mod8.py``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gotsim.data import load_data
from gotsim.rules.board import load_board
from gotsim.rules.ids import BASE_HOUSES, House, Unit
from gotsim.rules.setup import load_setup
from gotsim.rules.variants import Rules

SCENARIO = load_data("2e", "expansions.json")["scenarios"]["mother_of_dragons"]
REFERENCE = Path(__file__).parents[2] / "shared" / "reference" / "agot2e" / "expansions.json"
# the fields the package adds to the reference's scenario, restating its facts for the loader
OURS = (
    "house_records",
    "garrisons",
    "neutral_forces",
    "impassable_areas",
    "normalized_fields_note",
)


def test_mod_setup_is_the_scenarios_seven_player_start() -> None:
    s = load_setup("2e", 7, expansion="mod")
    assert s.expansion == "mod" and s.board == "mod7"
    assert s.max_rounds == 10 and s.castles_to_win == 7 and s.victory_points == 0
    assert s.houses == (*BASE_HOUSES, House.ARRYN)
    board = load_board("2e", board="mod7")
    for house in s.houses:
        want = {
            area: {Unit.from_id(u): n for u, n in counts.items()}
            for area, counts in SCENARIO["starting_units"][house.id].items()
        }
        assert {a: dict(c) for a, c in s.units[house].items()} == want
        for area in want:
            board.index(area)  # every area is on the 7-player board
        assert s.supply[house] == SCENARIO["starting_supply"][house.id]
        assert s.power[house] == SCENARIO["starting_power_tokens_available"]["without_iron_bank"]
        assert s.power_total[house] == SCENARIO["power_tokens_total"] == 20
    for track, order in SCENARIO["influence_tracks"]["7"].items():
        assert [h.id for h in s.tracks[track]] == order
    assert s.stars == tuple(SCENARIO["kings_court_special_orders_by_position"]["7"])
    assert s.stars == (3, 3, 2, 1, 0, 0, 0)
    limits = SCENARIO["unit_limits"]["arryn"]
    assert {u.id: n for u, n in s.unit_limits[House.ARRYN].items()} == limits


def test_mod_garrisons_neutral_forces_and_homes() -> None:
    s = load_setup("2e", 7, expansion="mod")
    homes = {"baratheon": "dragonstone", "lannister": "lannisport", "stark": "winterfell"}
    homes |= {"greyjoy": "pyke", "tyrell": "highgarden", "martell": "sunspear"}
    want = {area: (House.from_id(h), 2) for h, area in homes.items()}
    want["the_eyrie"] = (House.ARRYN, 4)
    assert dict(s.garrisons) == want
    assert dict(s.neutral_forces) == {"kings_landing": 5}  # not The Eyrie's base-game token
    assert s.impassable == ()
    board = load_board("2e", board="mod7")
    eyrie = board.index("the_eyrie")
    assert board.home[eyrie] == House.ARRYN and board.stronghold[eyrie]
    assert dict(s.home_areas) == {}  # the 7-player board itself makes The Eyrie Arryn's home


@pytest.mark.skipif(not REFERENCE.exists(), reason="the shared reference is not at hand")
def test_mod_scenario_data_is_the_references() -> None:
    reference = json.loads(REFERENCE.read_text())["scenarios"]["mother_of_dragons"]
    ours = {k: v for k, v in SCENARIO.items() if k not in OURS}
    assert ours == reference


def test_mod_restated_fields_agree_with_the_scenario() -> None:
    records = SCENARIO["house_records"]
    for house in ("arryn", "targaryen"):
        record = records[house]
        assert record["home_area"] == SCENARIO["home_areas"][house]
        assert record["power_tokens_total"] == SCENARIO["power_tokens_total"]
        assert record["starting_supply"] == SCENARIO["starting_supply"][house]
        limits = {u: n for u, n in record["unit_limits"].items() if n}
        assert limits == {u: n for u, n in SCENARIO["unit_limits"][house].items() if u != "dragon"}
    listed = {g["area"]: g["strength"] for g in SCENARIO["garrisons_and_neutral_forces"]}
    for g in SCENARIO["garrisons"]:
        assert listed[g["area"]] == g["strength"]
    for forces in SCENARIO["neutral_forces"].values():
        for n in forces:
            assert listed[n["area"]] == n["strength"]
    assert [n["area"] for n in SCENARIO["neutral_forces"]["7"]] == ["kings_landing"]


def test_mod_rules_player_counts() -> None:
    assert Rules.of("2e", 7, expansion="mod").board == "mod7"
    assert Rules.of("2e", 8, expansion="mod").board == "mod8"  # M10: the 8-player game
    with pytest.raises(ValueError, match="played by 7 or 8 players, not 6"):
        Rules.of("2e", 6, expansion="mod")
    with pytest.raises(ValueError, match="A Clash of Kings"):
        Rules.of("2e", 7, {"ports": True}, expansion="mod")


def test_policies_name_the_expansions_houses() -> None:
    """An expansion's own house takes a policy by name (Arryn, heuristic, against six random
    houses wins most 7-player games), and a house not in the game is refused."""
    import gotsim
    from gotsim.inputs import InputError

    games = gotsim.simulate(
        40, players=7, expansion="mod", policies={"default": "random", "arryn": "heuristic"}
    )
    assert (games.winner == "arryn").mean() > 0.5
    with pytest.raises(InputError, match="targaryen is not playing with 7 players"):
        gotsim.simulate(2, players=7, expansion="mod", policies={"targaryen": "heuristic"})


def test_mod_scenario_cells_take_seven_players_and_sea_orders(tmp_path: Path) -> None:
    from gotsim.study import ScenarioError, load_scenario

    path = tmp_path / "mod.toml"
    path.write_text('name = "m"\nseed = 1\nexpansion = "mod"\ngames = 10\n')
    (cell,) = load_scenario(path).cells
    assert cell.players == 7 and cell.variants["sea_orders"]
    off = "[variants]\nsea_orders = false\n"
    path.write_text(f'name = "m"\nseed = 1\nexpansion = "mod"\ngames = 10\n{off}')
    (cell,) = load_scenario(path).cells
    assert not cell.variants["sea_orders"]
    path.write_text('name = "m"\nseed = 1\ngames = 10\n[variants]\nsea_orders = true\n')
    with pytest.raises(ScenarioError, match="Mother of Dragons option"):
        load_scenario(path)
    path.write_text('name = "m"\nseed = 1\nexpansion = "mod"\nplayers = 8\ngames = 10\n')
    (cell,) = load_scenario(path).cells
    assert cell.players == 8


def test_mod_games_play_arryns_mother_of_dragons_deck() -> None:
    """Arryn plays its Mother of Dragons deck A (M1), or its A Feast for Crows deck with the A
    Dance with Dragons cards (S&R's adwdHouseCards option); positions hold the same hands."""
    from gotsim.engine.game import Game
    from gotsim.engine.position import dump_position, starting_position

    assert Rules.of("2e", 7, expansion="mod").card_set == "mod"
    assert Rules.of("2e", 7, {"adwd_house_cards": True}, expansion="mod").card_set == "adwd"
    assert Game(players=7, seed=1, expansion="mod").card_set == "mod"
    hand = dump_position(starting_position("2e", 7, expansion="mod"))["hands"]["arryn"]
    assert "lysa_arryn_mod" in hand and "robert_arryn" in hand and "littlefinger" not in hand


def test_mod_positions_hold_the_cards_out_of_the_game() -> None:
    """A Mother of Dragons position lists the house cards that left the game (Robert Arryn's,
    Khal Drogo, Viserys Targaryen's thrown card) under ``out_of_game``: in neither hand nor
    discards, the record holds them nowhere and reads back the same. Other games refuse the key,
    and a card both out of the game and in a hand is refused."""
    from gotsim.engine.convert import position_from_record, position_rules, record_from_position
    from gotsim.engine.invariants import violations
    from gotsim.engine.position import PositionError, dump_position, load_position
    from gotsim.engine.position import starting_position as start

    spec = dump_position(start("2e", 7, expansion="mod"))
    assert "out_of_game" not in spec
    spec["hands"]["arryn"].remove("robert_arryn")
    spec["out_of_game"] = {"arryn": ["robert_arryn"]}
    p = load_position(spec)
    assert p.out_of_game[House.ARRYN] == ("robert_arryn",)
    assert dump_position(p)["out_of_game"] == {"arryn": ["robert_arryn"]}
    assert load_position(dump_position(p)) == p
    games = record_from_position(p, seed=7)
    assert bin(int(games[0].hand[House.ARRYN])).count("1") == 6  # Robert: in neither set
    assert int(games[0].discard[House.ARRYN]) == 0
    assert position_from_record(games, position_rules(p)) == p
    assert violations(games[0], position_rules(p)[0]) == []

    twice = json.loads(json.dumps(spec))
    twice["hands"]["arryn"].append("robert_arryn")
    with pytest.raises(PositionError, match="already in the hand"):
        load_position(twice)
    base = dump_position(start("2e", 6))
    base["out_of_game"] = {"stark": [base["hands"]["stark"].pop()]}
    with pytest.raises(PositionError, match="only in Mother of Dragons"):
        load_position(base)
