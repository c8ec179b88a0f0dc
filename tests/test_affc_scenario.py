"""A Feast for Crows as an expansion (``expansion="affc"``): its start (Arryn, the south
impassable), the objective cards dealt, scored and drawn, victory at 7 points and the round-10
ranking by points (``docs/rules.md`` F2, F3)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from enginecase import Case

import gotsim
from gotsim.data import load_data
from gotsim.engine import machine as mc
from gotsim.engine.convert import position_from_record, position_rules, record_from_position
from gotsim.engine.game import Game
from gotsim.engine.init import new_games, new_games_range
from gotsim.engine.invariants import violations
from gotsim.engine.objectives import in_hand
from gotsim.engine.position import (
    Position,
    PositionError,
    dump_position,
    load_position,
    starting_position,
)
from gotsim.engine.state import OBJ_DECK, EndReason, Phase
from gotsim.engine.tables import WesterosCard, rules_table
from gotsim.play.runner import play_random
from gotsim.players.heuristic import heuristic_action
from gotsim.players.memo import new_memos
from gotsim.players.params import defaults_for
from gotsim.rules.board import load_board
from gotsim.rules.ids import House, Unit
from gotsim.rules.objectives import Objective
from gotsim.rules.setup import load_setup
from gotsim.rules.variants import Rules
from gotsim.study import ScenarioError, load_scenario

SCENARIO = load_data("2e", "expansions.json")["scenarios"]["a_feast_for_crows"]
REFERENCE = Path(__file__).parents[2] / "shared" / "reference" / "agot2e" / "expansions.json"
BOARD = load_board("2e")
OURS = ("garrisons", "garrisons_replace_base", "neutral_forces", "house_records")


def affc(*, seed: int = 0) -> Case:
    """An emptied A Feast for Crows board with empty objective hands (without King's Landing's
    garrison, which defends only for the house holding it)."""
    c = Case(4, expansion="affc", seed=seed).garrison("kings_landing", 0)
    for house in ("baratheon", "lannister", "stark", "arryn"):
        c.objectives(house)
    return c


def at_round_end(c: Case, game_round: int = 1) -> Case:
    """``c`` right after its action phase: the A Feast for Crows steps come next."""
    c.phase("consolidate", game_round).advance()
    assert int(c.g.phase) == Phase.OBJECTIVES
    return c


# --- the start ------------------------------------------------------------------------------------


def test_affc_setup_is_the_scenarios_start() -> None:
    s = load_setup("2e", 4, expansion="affc")
    assert s.expansion == "affc" and s.max_rounds == 10 and s.victory_points == 7
    assert sorted(h.id for h in s.houses) == sorted(SCENARIO["houses"])
    for house in s.houses:
        want = {
            area: {Unit.from_id(u): n for u, n in counts.items()}
            for area, counts in SCENARIO["starting_units"][house.id].items()
        }
        assert {a: dict(c) for a, c in s.units[house].items()} == want
        assert s.supply[house] == SCENARIO["starting_supply"][house.id]
        assert s.power[house] == 5
        assert s.power_total[house] == (19 if house == House.ARRYN else 20)
    for track, order in SCENARIO["influence_tracks"].items():
        assert [h.id for h in s.tracks[track]] == order
    assert {a: h.id for a, h in s.power_tokens.items()} == dict.fromkeys(
        SCENARIO["power_tokens_on_board"]["lannister"], "lannister"
    )
    assert s.home_areas == {House.ARRYN: "the_eyrie"}
    assert set(s.impassable) == set(SCENARIO["impassable_areas"]) and len(s.impassable) == 14
    assert s.neutral_forces == {}
    assert s.garrisons == {
        "dragonstone": (House.BARATHEON, 2),
        "lannisport": (House.LANNISTER, 2),
        "winterfell": (House.STARK, 2),
        "the_eyrie": (House.ARRYN, 6),
        "kings_landing": (House.LANNISTER, 5),
    }


def test_affc_rules_table() -> None:
    """Arryn's home is The Eyrie; castles never win (7 points do); deck I is the scenario's."""
    t = rules_table("2e", 4, expansion="affc")[0]
    assert t.victory_points == 7 and t.castles_to_win > 20 and t.max_rounds == 10
    assert t.home[BOARD.index("the_eyrie")] == House.ARRYN
    assert t.power_total[House.ARRYN] == 19
    deck = sorted(WesterosCard(int(c)).name.lower() for c in t.westeros_start[0])
    want = sorted(
        c["id"] for c in SCENARIO["westeros_deck_I_replacement"]["cards"] for _ in range(c["count"])
    )
    assert deck == want
    assert rules_table("2e", 4)[0].victory_points == 0
    assert rules_table("2e", 4)[0].home[BOARD.index("the_eyrie")] == -1


def test_affc_scenario_data_matches_the_shared_reference() -> None:
    if not REFERENCE.exists():
        pytest.skip("the shared reference is not beside this checkout")
    reference = json.loads(REFERENCE.read_text())["scenarios"]["a_feast_for_crows"]
    assert {k: v for k, v in SCENARIO.items() if k not in OURS} == reference
    arryn = SCENARIO["house_records"]["arryn"]
    assert arryn["power_tokens_total"] == reference["power_tokens_total"]["arryn"]
    assert arryn["home_area"] == reference["home_areas"]["arryn"]


def test_affc_start_deals_five_objectives_and_keeps_three() -> None:
    games = new_games_range(3, 0, 4, players=4, expansion="affc")
    t = rules_table("2e", 4, expansion="affc")[0]
    for g in games:
        assert int(g.phase) == Phase.OBJECTIVES
        assert [in_hand(g, h) for h in (0, 1, 2, 6)] == [5, 5, 5, 5]
        assert (g.objective_at == OBJ_DECK).sum() == 8
        assert violations(g, t) == []
    c = Case(4, expansion="affc", seed=2, empty=False)
    for house in ("baratheon", "lannister", "arryn", "stark"):  # Iron Throne order
        for _ in range(2):
            assert c.advance().pending == f"{house} OBJECTIVE"
            assert len(c.options()) == len(c.hand_objectives(house))
            c.play(f"{house} OBJECTIVE {sorted(c.hand_objectives(house))[0]}")
    c.advance()
    assert int(c.g.phase) == Phase.PLANNING
    assert all(len(c.hand_objectives(h)) == 3 for h in ("baratheon", "lannister", "stark", "arryn"))
    assert (c.g.objective_at == OBJ_DECK).sum() == 16
    assert violations(c.g, c.t) == []


def test_affc_blocks_the_south_and_the_eyrie_defends_for_arryn() -> None:
    g = new_games_range(3, 0, 1, players=4, expansion="affc")[0]
    for area in SCENARIO["impassable_areas"]:
        assert g.blocked[BOARD.index(area)] == 1
    assert g.garrison[BOARD.index("the_eyrie")] == 6
    assert g.garrison[BOARD.index("kings_landing")] == 5
    assert g.neutral.sum() == 0
    assert g.owner[BOARD.index("the_eyrie")] == House.ARRYN


# --- scoring ------------------------------------------------------------------------------------


def test_special_objective_then_one_objective_card_then_drawing() -> None:
    """Lannister holds Lannisport and King's Landing (its special objective, +1) and Stark holds
    Storm's End (Stop the Storm, 3 points for Stark); each scores once, then draws back to 3."""
    c = affc()
    c.place(
        """
        lannisport     lannister  F
        kings_landing  lannister  F
        storms_end     stark      F
        winterfell     stark      F
        """
    )
    c.objectives("stark", "stop_the_storm", "arbor_gold", "the_throne")
    c.objectives("lannister", "take_the_black", "hold_court")
    at_round_end(c)
    c.advance()
    assert c.pending == "lannister OBJECTIVE"
    assert c.options() == {"pass", "score"}
    c.play("lannister OBJECTIVE score")
    assert c.g.vp[House.LANNISTER] == 1
    c.advance()
    # scoring in Iron Throne order: Lannister (Hold Court: King's Landing), then Stark
    assert c.pending == "lannister OBJECTIVE" and c.options() == {"hold_court", "none"}
    c.play("lannister OBJECTIVE hold_court")
    c.advance()
    assert c.pending == "stark OBJECTIVE" and c.options() == {"stop_the_storm", "none"}
    c.play("stark OBJECTIVE stop_the_storm")  # (and on to the end of the steps)
    assert c.g.vp[House.STARK] == 3 and c.g.vp[House.LANNISTER] == 2
    assert int(c.g.phase) == Phase.CLEANUP
    for house in ("baratheon", "lannister", "stark", "arryn"):
        assert len(c.hand_objectives(house)) == 3
    assert "stop_the_storm" not in c.hand_objectives("stark")
    assert violations(c.g, c.t) == []


def test_an_objective_card_not_met_cannot_be_scored() -> None:
    c = affc()
    c.place("winterfell stark F")
    c.objectives("stark", "stop_the_storm")
    for house in ("baratheon", "lannister", "arryn"):
        c.objectives(house)
    at_round_end(c).advance()
    assert c.pending is None and int(c.g.phase) == Phase.CLEANUP
    assert c.g.vp[House.STARK] == 0


def test_seven_points_win_at_once_ties_by_land_areas() -> None:
    c = affc()
    c.place(
        """
        storms_end   stark      F
        winterfell   stark      F
        white_harbor stark      F
        lannisport   lannister  F
        """
    )
    c.objectives("stark", "stop_the_storm")
    c.vp(stark=4, lannister=7)
    at_round_end(c, 3).advance()
    # Stark scores 3 (7 points) and holds more land areas than Lannister (also 7)
    c.play("stark OBJECTIVE stop_the_storm")
    assert int(c.g.phase) == Phase.CLEANUP and not c.g.done
    c.advance()
    assert c.g.done and c.g.winner == House.STARK
    assert c.g.end_reason == EndReason.OBJECTIVES


def test_castles_do_not_win_a_feast_for_crows() -> None:
    c = affc()
    forts = [
        a
        for a in BOARD.area_ids
        if BOARD.castle[BOARD.index(a)] and not c.g.blocked[BOARD.index(a)]
    ]
    c.place("\n".join(f"{a} baratheon F" for a in forts[:8]))
    mc.check_castle_victory(c.g, c.t)
    assert not c.g.done


def test_after_round_ten_the_most_points_win_then_the_iron_throne() -> None:
    c = affc()
    c.place("winterfell stark F\nwhite_harbor stark F\nthe_eyrie arryn F")
    c.vp(stark=3, arryn=3, baratheon=1)
    c.phase("cleanup", 10)
    mc._cleanup(c.g, c.t)
    assert c.g.done and c.g.end_reason == EndReason.ROUND10
    # tied at 3 points: Arryn sits above Stark on the Iron Throne track (land areas not counted)
    assert c.g.winner == House.ARRYN


# --- whole games --------------------------------------------------------------------------------


def test_affc_random_games_end_by_objectives_or_the_ranking() -> None:
    games = new_games_range(11, 0, 60, players=4, expansion="affc")
    t = rules_table("2e", 4, expansion="affc")
    play_random(games, t, 100_000)
    assert games.done.all()
    assert set(np.unique(games.end_reason)) <= {EndReason.OBJECTIVES, EndReason.ROUND10}
    for g in games:
        assert violations(g, t[0]) == []
        assert g.end_reason == EndReason.ROUND10 or g.vp[g.winner] >= 7


def test_affc_simulate_frame_and_refusals() -> None:
    df = gotsim.simulate(20, players=4, expansion="affc", policies="heuristic", seed=4)
    assert set(df.end_reason) <= {"objectives", "round10"}
    assert {"vp_arryn", "objectives_arryn", "castles_arryn"} <= set(df.columns)
    assert set(df.winner) <= {"baratheon", "lannister", "stark", "arryn"}
    with pytest.raises(ValueError, match="played by 4 players, not 6"):
        Rules.of("2e", 6, None, "affc")
    with pytest.raises(ValueError, match="played by 7 or 8 players, not 9"):
        Rules.of("2e", 9, None, "mod")


def _heuristic(c: Case) -> str:
    """The heuristic's answer to ``c``'s pending decision, in words."""
    mask = c.mask()
    house = int(c.g.pending_house)
    action = heuristic_action(c.g, c.t, house, mask, defaults_for(house).copy(), new_memos(1)[0])
    return c.word(int(action))


def test_heuristic_scores_and_keeps_the_best_objectives() -> None:
    """It puts back the card worth least (The Blade: no points for Stark), scores the card worth
    most of those met (Hold Court, 4, before Stop the Storm, 3) and its special objective."""
    c = Case(4, expansion="affc", seed=1, empty=False)
    for house, kept in (("baratheon", "cavalry_charge"), ("lannister", "land_grab")):
        c.objectives(house, kept)
    c.objectives("arryn", "the_raven")
    dealt = ("stop_the_storm", "the_blade", "hold_court", "take_the_black", "the_throne")
    c.objectives("stark", *dealt)
    c.advance()
    assert c.pending == "stark OBJECTIVE"
    assert _heuristic(c) == "the_blade"
    c = affc()
    c.place(
        """
        kings_landing  stark  F
        storms_end     stark  F
        winterfell     stark  F
        """
    )
    c.objectives("stark", "stop_the_storm", "hold_court", "the_blade")
    c.power(stark=9)
    at_round_end(c).advance()
    assert c.pending == "stark OBJECTIVE" and _heuristic(c) == "hold_court"


# --- positions ----------------------------------------------------------------------------------


def test_affc_starting_position_deals_when_resumed_and_round_trips() -> None:
    """The start has no objective hands yet: resumed, the game deals 5 to each house and waits
    for them to keep 3; a record at that point reads back as the start."""
    p = starting_position("2e", 4, expansion="affc")
    assert p.objectives is None and p.victory_points == dict.fromkeys(p.houses, 0)
    assert load_position(p.to_json()) == p
    g = record_from_position(p, seed=3)[0]
    t = position_rules(p)[0]
    assert int(g.phase) == Phase.OBJECTIVES and in_hand(g, int(House.ARRYN)) == 5
    assert position_from_record(g, t) == p
    assert violations(g, t) == []


def _next_position(game: Game) -> Position:
    """The position at the next phase boundary of ``game``, played on with the first legal
    action until there is one."""
    while True:
        try:
            return position_from_record(game.record, game.t)
        except ValueError:
            game.step(game.pending.legal[0])


def test_affc_position_of_a_game_in_progress_round_trips() -> None:
    game = Game(players=4, seed=8, expansion="affc")
    game.play(lambda game, pending: pending.legal[0], max_decisions=150)
    p = _next_position(game)
    assert p.objectives is not None and p.expansion == "affc"
    assert sum(len(c) for c in p.objectives.values()) == 12
    again = record_from_position(p, seed=1)[0]
    assert position_from_record(again, game.t) == p
    assert list(again.vp) == list(game.record.vp)
    assert (again.objective_at == game.record.objective_at).all()


FOUR = ["the_throne", "the_blade", "the_raven", "land_grab"]
TWICE = {"arryn": ["the_throne"]}


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"objectives": {"stark": ["nope"]}}, "unknown objective 'nope'"),
        (
            {"objectives": {"stark": ["the_throne", "the_blade", "the_raven", "land_grab"]}},
            "at most 3",
        ),
        (
            {
                "objectives": {"stark": ["the_throne"]},
                "objectives_scored": {"arryn": ["the_throne"]},
            },
            "already in",
        ),
        ({"victory_points": {"stark": -1}}, "victory_points.stark"),
        ({"round": 2}, "objectives: required"),
    ],
)
def test_affc_position_refusals(change, words) -> None:
    spec = dump_position(starting_position("2e", 4, expansion="affc"))
    with pytest.raises(PositionError, match=words):
        load_position({**spec, **change})


def test_objectives_only_in_a_feast_for_crows_position() -> None:
    spec = dump_position(starting_position("2e", 4))
    with pytest.raises(PositionError, match="only an A Feast for Crows position"):
        load_position({**spec, "victory_points": {"stark": 1}})


# --- The Eyrie's port (the eyrie_port option) ---------------------------------------------------

PORT_BOARD = load_board("2e", board="affc_eyrie_port")
EYRIE_PORT_AREA = PORT_BOARD.index("port_of_the_eyrie")


def test_eyrie_port_rules_table() -> None:
    """With the option The Eyrie has a port on The Narrow Sea (a 59th area) and Mercantile
    Ventures is worth 1 to Arryn instead of 2."""
    t = rules_table("2e", 4, {"eyrie_port": True}, "affc")[0]
    plain = rules_table("2e", 4, expansion="affc")[0]
    eyrie = BOARD.index("the_eyrie")
    assert t.n_areas == 59 and plain.n_areas == 58 and t.eyrie_port and not plain.eyrie_port
    assert t.port_of_area[eyrie] == EYRIE_PORT_AREA and plain.port_of_area[eyrie] == -1
    assert t.port_sea[EYRIE_PORT_AREA] == BOARD.index("the_narrow_sea")
    mercantile = int(Objective.MERCANTILE_VENTURES)
    assert t.objective_points[mercantile, House.ARRYN] == 1
    assert plain.objective_points[mercantile, House.ARRYN] == 2
    assert t.objective_points[mercantile, House.STARK] == 1


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: Rules.of("2e", 6, {"eyrie_port": True}), "A Feast for Crows option"),
        (lambda: Rules.of("2e", 6, {"eyrie_port": True}, "adwd"), "A Feast for Crows option"),
        (
            lambda: load_position(
                {**dump_position(starting_position("2e", 4)), "variants": {"eyrie_port": True}}
            ),
            "variants.eyrie_port",
        ),
    ],
)
def test_eyrie_port_only_with_a_feast_for_crows(make, words) -> None:
    with pytest.raises(ValueError, match=words):
        make()


def test_arryn_musters_a_ship_into_the_eyries_port() -> None:
    c = Case(4, expansion="affc", variants={"eyrie_port": True}).garrison("kings_landing", 0)
    for house in ("baratheon", "lannister", "stark", "arryn"):
        c.objectives(house)
    c.place("the_eyrie arryn K consolidate_power*")
    c.phase("consolidate")
    c.play(
        """
        arryn CONSOLIDATE_CHOICE muster
        arryn MUSTER port_of_the_eyrie
        """
    )
    assert c.at("port_of_the_eyrie") == "arryn S"


def test_eyrie_port_games_and_positions() -> None:
    """Random games with the port keep every invariant; a position with a ship in the port reads
    back and resumes on the port's board."""
    t = rules_table("2e", 4, {"eyrie_port": True}, "affc")
    seeds = [np.random.SeedSequence(21, spawn_key=(i,)) for i in range(60)]
    games = new_games(seeds, players=4, expansion="affc")
    play_random(games, t, 100_000)
    assert games.done.all()
    assert all(violations(g, t[0]) == [] for g in games)
    game = Game(players=4, seed=2, expansion="affc", variants={"eyrie_port": True})
    game.play(lambda game, pending: pending.legal[0], max_decisions=40)
    p = _next_position(game)
    assert p.variants["eyrie_port"] and p.board.n_areas == 59
    spec = dump_position(p)
    spec["areas"]["port_of_the_eyrie"] = {"house": "arryn", "units": {"ship": 1}}
    spec["areas"].setdefault("the_eyrie", {"house": "arryn", "units": {"footman": 1}})
    q = load_position(spec)
    g = record_from_position(q, seed=1)[0]
    assert g.units[EYRIE_PORT_AREA, Unit.SHIP] == 1 and g.owner[EYRIE_PORT_AREA] == House.ARRYN
    assert position_from_record(g, position_rules(q)) == q


def test_eyrie_port_in_scenarios() -> None:
    """A scenario switches the port on for A Feast for Crows cells and refuses it elsewhere; a
    cell without it keeps the results key it had before the option existed."""
    base = {"name": "x", "games": 10, "block_size": 10, "seed": 1}
    s = load_scenario({**base, "expansion": "affc", "variants": {"eyrie_port": True}})
    assert s.cells[0].variants["eyrie_port"] and s.cells[0].players == 4
    with pytest.raises(ScenarioError, match=r"eyrie_port.*A Feast for Crows"):
        load_scenario({**base, "variants": {"eyrie_port": True}})
    plain = load_scenario(base)
    assert "eyrie_port" not in json.dumps(plain.results_key())
