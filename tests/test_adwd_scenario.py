"""A Dance with Dragons as an expansion (``expansion="adwd"``): its start, its six rounds, the
garrisons of Storm's End and Oldtown, and the one vocabulary in the API, the command line and
scenarios (``docs/rules.md`` A20–A23)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from enginecase import Case
from test_reliability import run_cli as run

import gotsim
from gotsim.data import load_data
from gotsim.engine.game import Game
from gotsim.engine.init import new_games
from gotsim.engine.invariants import violations
from gotsim.engine.tables import rules_table
from gotsim.inputs import InputError
from gotsim.play.runner import play_random
from gotsim.rules.board import load_board
from gotsim.rules.ids import House, Unit
from gotsim.rules.setup import load_setup
from gotsim.rules.variants import Rules
from gotsim.study import load_scenario, run_study

SCENARIO = load_data("2e", "expansions.json")["scenarios"]["a_dance_with_dragons"]
REFERENCE = Path(__file__).parents[2] / "shared" / "reference" / "agot2e" / "expansions.json"
BOARD = load_board("2e")


def adwd_marches() -> Case:
    """An emptied A Dance with Dragons board in the marches, the garrisoned Storm's End and
    Oldtown still held by their houses' power tokens."""
    c = Case(6, expansion="adwd").phase("marches")
    return c.token("storms_end", "baratheon").token("oldtown", "tyrell")


def adwd_records(n: int, seed: int = 5) -> np.recarray:
    seeds = [np.random.SeedSequence(seed, spawn_key=(i,)) for i in range(n)]
    return new_games(seeds, players=6, expansion="adwd")


# --- the start ------------------------------------------------------------------------------------


def test_adwd_setup_is_the_scenarios_start() -> None:
    """Units, supply, power in hand and on the board, tracks and rounds are the scenario's;
    the 6-player base start is not used."""
    s = load_setup("2e", 6, expansion="adwd")
    assert s.expansion == "adwd" and s.max_rounds == 6 and s.castles_to_win == 7
    assert sorted(h.id for h in s.houses) == sorted(SCENARIO["houses"])
    for house in s.houses:
        want = {
            area: {Unit.from_id(u): n for u, n in counts.items()}
            for area, counts in SCENARIO["starting_units"][house.id].items()
        }
        assert {a: dict(c) for a, c in s.units[house].items()} == want
        assert s.supply[house] == SCENARIO["starting_supply"][house.id]
        assert s.power[house] == 5
        assert s.power_total[house] == 20
    tokens = {area: h for h, areas in SCENARIO["power_tokens_on_board"].items() for area in areas}
    assert {a: h.id for a, h in s.power_tokens.items()} == tokens
    for track, order in SCENARIO["influence_tracks"].items():
        assert [h.id for h in s.tracks[track]] == order
    assert s.dominance_holder("iron_throne") == House.LANNISTER
    base = load_setup("2e", 6)
    assert base.power_tokens == {} and base.max_rounds == 10 and base.expansion is None
    assert s.units != base.units


def test_adwd_scenario_data_matches_the_shared_reference() -> None:
    """The package's scenario is the reference's, plus the structured garrison and neutral
    force lists gotsim reads (skipped where the shared reference is not at hand)."""
    if not REFERENCE.exists():
        pytest.skip("the shared reference is not beside this checkout")
    reference = json.loads(REFERENCE.read_text())["scenarios"]["a_dance_with_dragons"]
    ours = {k: v for k, v in SCENARIO.items() if k not in ("garrisons", "neutral_forces")}
    assert ours == reference
    notes = {g["area"]: g["strength"] for g in reference["garrisons_and_neutral_forces"]}
    assert {g["area"]: g["strength"] for g in SCENARIO["garrisons"]} == {
        "storms_end": notes["storms_end"],
        "oldtown": notes["oldtown"],
    }
    assert notes["kings_landing"] == 0 and notes["the_eyrie"] == 6


def test_adwd_garrisons_and_neutral_forces() -> None:
    """Storm's End (4) and Oldtown (3) carry garrisons beside the six home garrisons (2);
    The Eyrie keeps its neutral force (6), King's Landing has none (Lannister stands there)."""
    s = load_setup("2e", 6, expansion="adwd")
    assert s.garrisons["storms_end"] == (House.BARATHEON, 4)
    assert s.garrisons["oldtown"] == (House.TYRELL, 3)
    assert {a for a, (_, n) in s.garrisons.items() if n == 2} == {
        "dragonstone",
        "lannisport",
        "winterfell",
        "pyke",
        "highgarden",
        "sunspear",
    }
    assert s.neutral_forces == {"the_eyrie": 6}
    g = adwd_records(1)[0]
    t = rules_table("2e", 6, expansion="adwd")[0]
    assert g.garrison[BOARD.index("storms_end")] == 4
    assert g.garrison[BOARD.index("oldtown")] == 3
    assert g.neutral[BOARD.index("kings_landing")] == 0
    assert g.neutral[BOARD.index("the_eyrie")] == 6
    assert g.owner[BOARD.index("kings_landing")] == House.LANNISTER
    for area, house in s.power_tokens.items():
        assert g.power_token[BOARD.index(area)] == house
    assert (g.power_token >= 0).sum() == 13
    assert violations(g, t) == []


def test_adwd_rules_table_six_rounds_and_its_cards() -> None:
    """The expansion plays 6 rounds with its own house cards unless they are switched off."""
    t = rules_table("2e", 6, expansion="adwd")[0]
    assert t.max_rounds == 6 and t.castles_to_win == 7 and t.adwd_house_cards
    off = rules_table("2e", 6, {"adwd_house_cards": False}, "adwd")[0]
    assert off.max_rounds == 6 and not off.adwd_house_cards
    assert Rules.of("2e", 6, None, "adwd").card_set == "adwd"
    assert Rules.of("2e", 6, None, "base") == Rules.of("2e", 6)
    assert rules_table("2e", 6)[0].max_rounds == 10


@pytest.mark.parametrize(
    ("edition", "players", "variants", "expansion", "message"),
    [
        ("2e", 5, None, "adwd", "played by 6 players, not 5"),
        ("1e", 6, None, "adwd", "2nd-edition expansion"),
        ("2e", 6, None, "affc", "played by 4 players, not 6"),
        ("2e", 9, None, "mod", "played by 7 or 8 players, not 9"),
        ("2e", 6, None, "dragons", "unknown expansion 'dragons'"),
        ("2e", 6, {"kings_court_swap": True}, "adwd", "has its own tracks"),
    ],
)
def test_adwd_refusals(edition, players, variants, expansion, message) -> None:
    with pytest.raises(ValueError, match=message):
        Rules.of(edition, players, variants, expansion)


# --- the garrisons in play ------------------------------------------------------------------------


def test_adwd_storms_end_garrison_defends_for_the_token_holder() -> None:
    """An attack on an empty Storm's End held by a Baratheon power token is a battle against
    Baratheon with the garrison's 4; won, the garrison and the token go (A21)."""
    c = adwd_marches()
    c.place("kingswood tyrell 2K march+0")
    assert c.t.max_rounds == 6
    c.play("""
        tyrell MARCH_FROM kingswood
        tyrell MARCH_UNIT K storms_end
        tyrell MARCH_UNIT K storms_end
        tyrell HOUSE_CARD mace_tyrell_dwd
        baratheon HOUSE_CARD ser_axell_florent
    """)
    g = c.g
    assert c.at("storms_end") == "tyrell 2K"
    assert g.garrison[BOARD.index("storms_end")] == 0
    assert c.token_at("storms_end") is None


def test_adwd_oldtown_garrison_holds_with_its_house() -> None:
    """Oldtown's garrison (3) adds to Tyrell's units there and stays when the attack fails."""
    c = adwd_marches()
    c.place("""
        three_towers martell F march+0
        oldtown      tyrell F
    """)
    c.play("""
        martell MARCH_FROM three_towers
        martell MARCH_UNIT F oldtown
        martell HOUSE_CARD big_man
        tyrell HOUSE_CARD ser_jon_fossoway
    """)
    assert c.at("oldtown") == "tyrell F"
    assert c.g.garrison[BOARD.index("oldtown")] == 3


def test_adwd_own_house_enters_its_garrisoned_area_without_a_battle() -> None:
    c = adwd_marches()
    c.place("kingswood baratheon F march+0")
    c.play("""
        baratheon MARCH_FROM kingswood
        baratheon MARCH_UNIT F storms_end
    """)
    assert c.at("storms_end") == "baratheon F"
    assert c.g.garrison[BOARD.index("storms_end")] == 4


# --- whole games ----------------------------------------------------------------------------------


def test_adwd_random_games_end_by_round_6_with_no_violation() -> None:
    games = adwd_records(200)
    t = rules_table("2e", 6, expansion="adwd")
    play_random(games, t, 1_000_000)
    assert games.done.all()
    assert games.game_round.max() <= 6
    ranked = games.end_reason == 2
    assert (games.game_round[ranked] == 6).all() and ranked.any()
    for g in games:
        assert violations(g, t[0]) == []


def test_adwd_simulate_columns_and_end_reasons() -> None:
    df = gotsim.simulate(60, players=6, expansion="adwd", policies="heuristic", seed=3)
    assert set(df.end_reason) <= {"castles", "round6"} and "round6" in set(df.end_reason)
    assert df.end_round.max() <= 6
    assert (df.end_round[df.end_reason == "round6"] == 6).all()
    again = gotsim.simulate(60, players=6, expansion="adwd", policies="heuristic", seed=3, n_jobs=2)
    assert df.equals(again)
    base = gotsim.simulate(20, players=6, seed=3)
    adwd = gotsim.simulate(20, players=6, seed=3, expansion="adwd")
    assert not base.equals(adwd)
    with pytest.raises(InputError, match="played by 6 players"):
        gotsim.simulate(5, players=4, expansion="adwd")


def test_adwd_game_narrates_six_rounds() -> None:
    game = Game(seed=4, expansion="adwd")
    assert game.card_set == "adwd" and game.expansion == "adwd"
    game.play(lambda game, pending: pending.legal[0])
    assert game.finished and int(game.record.game_round) <= 6
    last = game.log[-1].text
    assert game.end_reason in ("castles", "round6")
    if game.end_reason == "round6":
        assert "leads after round 6" in last


# --- command line and scenarios -------------------------------------------------------------------


def test_adwd_cli_play_board_and_refusals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(["play", "--expansion", "adwd", "--seed", "2", "--json"], capsys)
    assert status == 0
    summary = json.loads(out)
    assert summary["end_reason"] in ("castles", "round6") and summary["end_round"] <= 6
    assert summary["expansion"] == "adwd"
    picture = tmp_path / "adwd.png"
    status, out, _ = run(["board", "--expansion", "adwd", "--out", str(picture)], capsys)
    assert status == 0 and picture.stat().st_size > 10_000 and "adwd" in out
    for argv, words in [
        (["play", "--expansion", "adwd", "--players", "4"], "played by 6 players, not 4"),
        (["bench", "--expansion", "mod", "--players", "9"], "played by 7 or 8 players, not 9"),
        (["bench", "--expansion", "affc", "--players", "6"], "played by 4 players, not 6"),
        (["play", "--expansion", "nope"], "unknown expansion 'nope'"),
        (["board", "--expansion", "adwd", "--kings-court-swap", "--out", str(picture)], "swap"),
    ]:
        status, out, err = run(argv, capsys)
        assert status == 2, argv
        assert words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_adwd_scenario_grid_axis(tmp_path: Path) -> None:
    """``expansion`` is a scenario key and a grid axis; the ADwD cells play its cards unless
    the scenario switches them off; the base cells keep their old results hash."""
    spec = {
        "name": "adwd-vs-base",
        "seed": 3,
        "games": 12,
        "block_size": 6,
        "players": 6,
        "grid": {"expansion": ["base", "adwd"]},
        "compare": {"by": "expansion"},
    }
    s = load_scenario(spec)
    assert [c.expansion for c in s.cells] == [None, "adwd"]
    assert [c.modules for c in s.cells] == [(), ("adwd_house_cards",)]
    off = load_scenario({**spec, "variants": {"adwd_house_cards": False}})
    assert [c.modules for c in off.cells] == [(), ()]
    plain = {k: v for k, v in spec.items() if k not in ("grid", "compare")}
    assert load_scenario(plain).hash == load_scenario({**plain, "expansion": "base"}).hash
    result = run_study(spec, out=tmp_path / "out")
    games = result.games
    assert set(games.expansion) == {"base", "adwd"}
    adwd = games[games.expansion == "adwd"]
    assert adwd.end_round.max() <= 6 and set(adwd.end_reason) <= {"castles", "round6"}
    assert "wins_round6" in result.summary.columns or "round6" not in set(adwd.end_reason)
    with pytest.raises(ValueError, match="played by 6 players"):
        load_scenario({**plain, "players": 5, "expansion": "adwd"})


# --- positions ------------------------------------------------------------------------------------


def test_adwd_starting_position_round_trips_and_replays_simulate() -> None:
    """The ADwD start as a position (``expansion`` and the ADwD hands in its JSON) loads back
    equal, holds the record ``new_games`` makes, reads back from it, and played from, gives
    ``simulate``'s own games (A23)."""
    from gotsim.engine.convert import (
        POSITION_FIELDS,
        position_from_record,
        position_rules,
        record_from_position,
    )
    from gotsim.engine.position import dump_position, load_position, starting_position
    from gotsim.play.simulate import simulate_from_position

    p = starting_position("2e", 6, expansion="adwd")
    spec = dump_position(p)
    assert spec["expansion"] == "adwd" and spec["variants"]["adwd_house_cards"] is True
    assert "ramsay_bolton" in spec["hands"]["stark"]
    assert spec["areas"]["storms_end"]["garrison"] == 4
    assert spec["areas"]["storms_end"]["power_token"] == "baratheon"
    assert load_position(spec) == p
    base = dump_position(starting_position("2e", 6))
    assert "expansion" not in base and "adwd_house_cards" not in base["variants"]
    record = record_from_position(p, seed=7)
    made = new_games([np.random.SeedSequence(7, spawn_key=(0,))], players=6, expansion="adwd")
    for name in POSITION_FIELDS:
        assert np.array_equal(record[name], made[name]), name
    t = position_rules(p)
    assert t[0].max_rounds == 6 and t[0].adwd_house_cards
    assert position_from_record(record, t) == p
    played = simulate_from_position(p, 30, seed=9)
    assert played.equals(gotsim.simulate(30, players=6, expansion="adwd", seed=9))


def test_adwd_position_refusals() -> None:
    from gotsim.engine.position import (
        PositionError,
        dump_position,
        load_position,
        starting_position,
    )

    spec = dump_position(starting_position("2e", 6, expansion="adwd"))
    for change, words in [
        ({"expansion": "mod"}, "expansion 'mod' is played by 7 or 8 players, not 6"),
        ({"expansion": "mod", "players": 9}, "played by 7 or 8 players, not 9"),
        ({"players": 5}, "players"),
        ({"variants": {"kings_court_swap": True}}, "has its own tracks"),
        ({"variants": {"adwd_house_cards": False}}, "unknown card"),
        ({"round": 7}, "round"),
    ]:
        with pytest.raises(PositionError, match=words):
            load_position({**spec, **change})
    off = dump_position(starting_position("2e", 6))
    off["expansion"] = "adwd"
    with pytest.raises(PositionError, match="unknown card"):
        load_position(off)  # base-deck hands in an ADwD game (its cards are on by default)


def test_adwd_battle_from_a_position_at_storms_end() -> None:
    """Tyrell's knight from Kingswood on Storm's End at the ADwD start: the garrison (4) and
    Baratheon's footman and power token defend; the spec plays the ADwD decks."""
    from gotsim.engine.position import (
        battle_from_position,
        dump_position,
        load_position,
        starting_position,
    )
    from gotsim.odds import combat_odds

    start = dump_position(starting_position("2e", 6, expansion="adwd"))
    start["areas"]["kingswood"]["order"] = "march+0"
    p = load_position({**start, "phase": "action", "step": "march"})
    spec = battle_from_position(p, "storms_end", from_area="kingswood", attacker="tyrell")
    assert spec["adwd_house_cards"] is True
    assert spec["defender"]["house"] == "baratheon" and spec["defender"]["garrison"] == 4
    assert spec["defender"]["power_token"] is True
    result = combat_odds(spec)
    assert 0.0 <= result.p_attacker_wins < 0.5


def test_adwd_scenario_from_an_adwd_position(tmp_path: Path) -> None:
    """A scenario starting from an ADwD position plays the expansion; a base-game cell is
    refused with it."""
    from gotsim.engine.position import starting_position

    path = tmp_path / "adwd_start.json"
    path.write_text(starting_position("2e", 6, expansion="adwd").to_json())
    spec = {"name": "from-adwd", "seed": 2, "games": 6, "start_position": str(path)}
    s = load_scenario(spec)
    assert s.cells[0].expansion == "adwd" and s.cells[0].modules == ("adwd_house_cards",)
    games = run_study(spec, out=tmp_path / "out").games
    assert set(games.expansion) == {"adwd"} and games.end_round.max() <= 6
    with pytest.raises(ValueError, match="adwd-game position"):
        load_scenario({**spec, "expansion": "base"})
