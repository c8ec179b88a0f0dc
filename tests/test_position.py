"""Board positions: the JSON format's round trips, the validator on broken positions, control and
castles, battle specs drawn from a position and their odds, and ``gotsim combat --position``."""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gotsim.cli import main
from gotsim.engine.position import (
    Position,
    PositionError,
    RoundPhase,
    battle_from_position,
    castles_held,
    control,
    dump_position,
    load_position,
    order_tokens,
    starting_position,
)
from gotsim.engine.position import model as position_model
from gotsim.engine.position import reader as position_reader
from gotsim.odds import combat_odds
from gotsim.rules.board import load_board
from gotsim.rules.ids import House, Unit
from gotsim.rules.setup import load_setup

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "positions"
RIVERRUN = EXAMPLES / "riverrun_round3.json"
STARTS = [("2e", n) for n in (3, 4, 5, 6)] + [("1e", n) for n in (3, 4, 5)]


def example() -> dict[str, Any]:
    return json.loads(RIVERRUN.read_text(encoding="utf-8"))


# --- round trips and the starting position ---------------------------------------------------


@pytest.mark.parametrize(("edition", "players"), STARTS)
def test_starting_position_round_trips(edition: str, players: int) -> None:
    """dump → load gives back an equal position, through a dict and through JSON text."""
    p = starting_position(edition, players)
    assert load_position(dump_position(p)) == p
    assert load_position(p.to_json()) == p
    assert (p.round, p.phase, p.step) == (1, RoundPhase.PLANNING, None)


def test_kings_court_swap_start_round_trips() -> None:
    p = starting_position("2e", 5, kings_court_swap=True)
    assert load_position(dump_position(p)) == p
    assert (
        p.tracks["kings_court"] == load_setup("2e", 5, kings_court_swap=True).tracks["kings_court"]
    )
    assert p.tracks["kings_court"] != load_setup("2e", 5).tracks["kings_court"]
    assert p.variants["kings_court_swap"] is True


def test_starting_position_follows_the_setup() -> None:
    setup = load_setup("2e", 3)
    p = starting_position("2e", 3)
    assert p.houses == setup.houses
    assert set(p.impassable) == set(setup.impassable)
    assert dict(p.neutral_forces) == dict(setup.neutral_forces)
    assert {a: s for a, s in p.garrisons.items()} == {a: s for a, (_, s) in setup.garrisons.items()}
    assert p.power == {h: 5 for h in setup.houses}
    assert p.supply == setup.supply
    assert p.wildling_threat == setup.wildling_threat
    assert all(len(hand) == 7 and not p.discards[h] for h, hand in p.hands.items())


def test_example_files_load_and_round_trip() -> None:
    start = load_position(EXAMPLES / "start_6p.json")
    assert dump_position(start) | {"name": "", "description": ""} == dump_position(
        starting_position("2e", 6)
    ) | {"name": "", "description": ""}
    mid = load_position(RIVERRUN)
    assert load_position(mid.to_json()) == mid
    assert (mid.round, mid.phase.id, mid.step and mid.step.id) == (3, "action", "march")


@pytest.mark.parametrize(("edition", "players"), STARTS)
def test_starting_control_and_castles(edition: str, players: int) -> None:
    """Each house controls its starting areas and home area; castles_held counts the castles and
    strongholds among them."""
    p = starting_position(edition, players)
    board = load_board(edition)
    setup = load_setup(edition, players)
    held = control(p)
    castles = castles_held(p)
    for house in setup.houses:
        mine = set(setup.units[house])
        mine |= {a for i, a in enumerate(board.area_ids) if board.home[i] == house}
        assert {a for a, h in held.items() if h == house} == mine
        expected = sum(1 for a in mine if board.victory_area[board.index(a)])
        assert castles[house] == expected
    for area in setup.neutral_forces:
        assert area not in held


def test_control_of_tokens_and_home_areas() -> None:
    p = load_position(RIVERRUN)
    held = control(p)
    assert held["harrenhal"] == House.LANNISTER  # power token only
    assert held["seagard"] == House.GREYJOY  # units
    assert held["riverrun"] == House.STARK
    assert "storms_end" not in held  # empty, not a home area
    assert "kings_landing" not in held  # neutral force
    castles = castles_held(p)
    assert sum(castles.values()) == sum(
        1 for a in held if load_board("2e").victory_area[load_board("2e").index(a)]
    )


def test_unit_table_and_order_tokens() -> None:
    p = load_position(RIVERRUN)
    table = p.unit_table()
    board = load_board("2e")
    assert table.shape == (board.n_areas, len(House), len(Unit))
    assert table[board.index("lannisport"), House.LANNISTER, Unit.FOOTMAN] == 2
    assert p.unit_table(routed=True)[board.index("riverrun"), House.STARK, Unit.FOOTMAN] == 1
    assert int(np.sum(p.unit_table(routed=True))) == 1
    tokens = order_tokens("2e")
    assert sum(t.count for t in tokens.values()) == 15
    assert {n for n, t in tokens.items() if t.special} == {
        "march+1",
        "defense+2",
        "support+1",
        "raid*",
        "consolidate_power*",
    }


def test_load_position_reads_paths_and_text(tmp_path: Path) -> None:
    p = load_position(RIVERRUN)
    assert load_position(str(RIVERRUN)) == p
    assert load_position(RIVERRUN.read_text(encoding="utf-8")) == p
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(PositionError, match="not valid JSON"):
        load_position(bad)
    with pytest.raises(PositionError, match="no such position file"):
        load_position(tmp_path / "missing.json")
    assert isinstance(p, Position)
    assert "round 3" in repr(p)


# --- the validator on broken positions -------------------------------------------------------

Edit = Callable[[dict[str, Any]], None]


def put(path: str, value: Any) -> Edit:
    """Set a dotted path (``areas.riverrun.house``) to ``value``."""

    def edit(spec: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node = spec
        for key in parents:
            node = node.setdefault(key, {})
        node[last] = value

    return edit


def drop(path: str) -> Edit:
    def edit(spec: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node = spec
        for key in parents:
            node = node[key]
        del node[last]

    return edit


def both(*edits: Edit) -> Edit:
    def edit(spec: dict[str, Any]) -> None:
        for e in edits:
            e(spec)

    return edit


BAD: list[tuple[str, Edit, str, str]] = [
    ("typo at top", put("wildling_threats", 2), "wildling_threats", "did you mean"),
    ("missing field", drop("round"), "round", "required"),
    ("bad format", put("format", "fen"), "format", "gotsim.position/v1"),
    ("unknown edition", put("edition", "3e"), "edition", "unknown edition"),
    ("player count", put("players", 7), "players", "setups for"),
    ("variant typo", put("variants.tide_of_battle", True), "variants.tide_of_battle", "did"),
    ("unknown area", put("areas.winterfel", {"power_token": "stark"}), "areas.winterfel", "did"),
    ("area field typo", put("areas.riverrun.unit", {}), "areas.riverrun.unit", "did you mean"),
    ("unknown house", put("areas.riverrun.house", "starck"), "areas.riverrun.house", "unknown"),
    ("two houses", put("areas.riverrun.house", ["stark", "greyjoy"]), "areas.riverrun.house", ""),
    ("unknown unit", put("areas.riverrun.units.archer", 1), "areas.riverrun.units.archer", ""),
    ("ship on land", put("areas.winterfell.units.ship", 1), "areas.winterfell.units.ship", "land"),
    (
        "footman at sea",
        put("areas.the_golden_sound.units.footman", 1),
        "areas.the_golden_sound.units.footman",
        "at sea",
    ),
    (
        "knight in port",
        put("areas.port_of_pyke.units.knight", 1),
        "areas.port_of_pyke.units.knight",
        "port",
    ),
    ("units without house", drop("areas.riverrun.house"), "areas.riverrun.house", "required"),
    (
        "house without units",
        put("areas.karhold.house", "stark"),
        "areas.karhold.house",
        "no stark units",
    ),
    (
        "foreign power token",
        put("areas.riverrun.power_token", "lannister"),
        "areas.riverrun.power_token",
        "cannot stand with stark units",
    ),
    (
        "token at sea",
        put("areas.the_golden_sound.power_token", "greyjoy"),
        "areas.the_golden_sound.power_token",
        "land areas only",
    ),
    ("unknown order", put("areas.lannisport.order", "march+2"), "areas.lannisport.order", "did"),
    (
        "order without units",
        put("areas.harrenhal.order", "raid"),
        "areas.harrenhal.order",
        "needs units",
    ),
    (
        "third defense+1",
        put("areas.white_harbor.order", "defense+1"),
        "areas.white_harbor.order",
        "only 2",
    ),
    (
        "too many stars while planning",
        both(
            put("areas.pyke.order", "defense+2"),
            put("phase", "planning"),
            drop("step"),
            drop("areas.riverrun.routed"),
        ),
        "areas.pyke.order",
        "special",
    ),
    (
        "restricted order",
        put("restriction", "no_defense"),
        "areas.highgarden.order",
        "no_defense",
    ),
    ("unknown restriction", put("restriction", "no_marching"), "restriction", "unknown"),
    ("raid in march step", put("areas.seagard.order", "raid"), "areas.seagard.order", "resolved"),
    (
        "orders in westeros",
        both(
            put("phase", "westeros"),
            drop("step"),
            drop("areas.riverrun.routed"),
            put("raven_used", False),
        ),
        "areas.dornish_marches.order",
        "westeros",
    ),
    ("step outside action", put("phase", "planning"), "step", "action phase"),
    ("unknown phase", both(put("phase", "combat"), drop("step")), "phase", "must be one of"),
    (
        "routed outside action",
        both(put("phase", "planning"), drop("step")),
        "areas.riverrun.routed",
        "action phase",
    ),
    (
        "routed without house",
        put("areas.harrenhal.routed", {"footman": 1}),
        "areas.harrenhal.routed",
        "house",
    ),
    ("power above 20", put("power.stark", 21), "power.stark", "0 to 20"),
    ("power plus tokens", put("power.stark", 20), "power.stark", "exceed"),
    ("power not listed", drop("power.martell"), "power.martell", "required"),
    ("house not in play", put("supply.targaryen", 1), "supply.targaryen", "not in play"),
    ("supply above 6", put("supply.stark", 7), "supply.stark", "0 to 6"),
    ("armies over supply", put("supply.stark", 0), "supply.stark", "exceed supply level 0"),
    (
        "unit limit",
        both(put("areas.lannisport.units.knight", 5), put("supply.lannister", 6)),
        "areas.*.units.knight",
        "lannister has 6 knight units on the board (lannisport 5, searoad_marches 1), its "
        "limit is 5",
    ),
    (
        "four ships in a port",
        put("areas.port_of_pyke.units.ship", 4),
        "areas.port_of_pyke.units.ship",
        "at most 3",
    ),
    (
        "port of a land held by another house",
        put("areas.port_of_lannisport.house", "greyjoy"),
        "areas.port_of_lannisport.house",
        "lannister controls lannisport",
    ),
    ("garrison off home", put("areas.riverrun.garrison", 2), "areas.riverrun.garrison", "home"),
    (
        "garrison strength",
        put("areas.winterfell.garrison", 3),
        "areas.winterfell.garrison",
        "strength 2",
    ),
    (
        "garrison under enemy units",
        both(put("areas.winterfell.house", "greyjoy"), drop("areas.winterfell.order")),
        "areas.winterfell.garrison",
        "removed",
    ),
    (
        "neutral force with units",
        put("areas.kings_landing.house", "baratheon"),
        "areas.kings_landing.house",
        "no baratheon units",
    ),
    (
        "neutral force and units",
        both(
            put("areas.kings_landing.house", "baratheon"),
            put("areas.kings_landing.units", {"footman": 1}),
        ),
        "areas.kings_landing.neutral_force",
        "cannot share",
    ),
    (
        "neutral force elsewhere",
        put("areas.storms_end", {"neutral_force": 4}),
        "areas.storms_end.neutral_force",
        "no neutral force starts",
    ),
    (
        "neutral army in 2e",
        put("areas.storms_end", {"neutral_army": {"footman": 1}}),
        "areas.storms_end.neutral_army",
        "no neutral army",
    ),
    (
        "track misses a house",
        put("tracks.fiefdoms", ["greyjoy", "stark", "tyrell", "martell", "baratheon"]),
        "tracks.fiefdoms",
        "missing lannister",
    ),
    (
        "track repeats a house",
        put(
            "tracks.iron_throne",
            ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell", "stark"],
        ),
        "tracks.iron_throne[6]",
        "twice",
    ),
    ("track missing", drop("tracks.kings_court"), "tracks.kings_court", "required"),
    (
        "card of another house",
        put("hands.stark", ["tywin_lannister"]),
        "hands.stark[0]",
        "not a stark house card",
    ),
    ("unknown card", put("hands.stark", ["ned_stark"]), "hands.stark[0]", "unknown card"),
    (
        "card missing from both piles",
        put("discards.stark", ["roose_bolton"]),
        "hands.stark",
        "greatjon_umber",
    ),
    (
        "card in hand and discards",
        put("discards.stark", ["roose_bolton", "greatjon_umber", "eddard_stark"]),
        "discards.stark[2]",
        "already in the hand",
    ),
    (
        "empty hand",
        both(
            put("hands.tyrell", []),
            put(
                "discards.tyrell",
                [
                    "mace_tyrell",
                    "ser_loras_tyrell",
                    "randyll_tarly",
                    "ser_garlan_tyrell",
                    "margaery_tyrell",
                    "alester_florent",
                    "queen_of_thorns",
                ],
            ),
        ),
        "hands.tyrell",
        "never empty",
    ),
    ("odd wildling threat", put("wildling_threat", 5), "wildling_threat", "a multiple of 2"),
    ("wildling threat above 12", put("wildling_threat", 14), "wildling_threat", "0 to 12"),
    ("round 11", put("round", 11), "round", "1 to 10"),
    (
        "blade used in planning",
        both(
            put("phase", "planning"),
            drop("step"),
            drop("areas.riverrun.routed"),
            put("blade_used", True),
        ),
        "blade_used",
        "action phase",
    ),
    ("impassable in 6p", put("impassable", ["pyke"]), "impassable[0]", "not impassable"),
    (
        "round 1 westeros",
        both(put("round", 1), put("phase", "westeros"), drop("step")),
        "phase",
        "round 1",
    ),
]


@pytest.mark.parametrize(
    ("edit", "field", "words"),
    [pytest.param(e, f, w, id=name) for name, e, f, w in BAD],
)
def test_bad_positions_name_the_field(edit: Edit, field: str, words: str) -> None:
    spec = example()
    edit(spec)
    with pytest.raises(PositionError) as info:
        load_position(spec)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{field}: "), message
    assert words in message


def test_bad_three_player_positions() -> None:
    """Houses out of play and impassable areas of the 3-player board."""
    spec = dump_position(starting_position("2e", 3))
    spec["areas"]["pyke"] = {"house": "stark", "units": {"footman": 1}}
    with pytest.raises(PositionError, match=r"^areas\.pyke: pyke cannot be entered"):
        load_position(spec)
    spec = dump_position(starting_position("2e", 3))
    spec["areas"]["harrenhal"] = {"power_token": "greyjoy"}
    with pytest.raises(PositionError, match=r"^areas\.harrenhal\.power_token: greyjoy is not in"):
        load_position(spec)
    spec = dump_position(starting_position("2e", 3))
    spec["impassable"] = spec["impassable"][1:]
    with pytest.raises(PositionError, match=r"^impassable: .*dornish_marches"):
        load_position(spec)


def test_the_validated_example_is_consistent() -> None:
    """The example counts every order token of each house within its limits."""
    p = load_position(RIVERRUN)
    tokens = order_tokens("2e")
    for house in p.houses:
        names = [o for a, o in p.orders.items() if p.occupants[a] == house]
        for name, token in tokens.items():
            assert names.count(name) <= token.count


# --- battles drawn from a position -----------------------------------------------------------

LANNISTER_HAND = [
    "tywin_lannister",
    "ser_gregor_clegane",
    "ser_jaime_lannister",
    "tyrion_lannister",
    "cersei_lannister",
]
STARK_HAND = ["eddard_stark", "robb_stark", "ser_rodrick_cassel", "the_blackfish", "catelyn_stark"]
HAND_WRITTEN = {
    "area": "riverrun",
    "attacker": {
        "house": "lannister",
        "units": {"footman": 2, "knight": 1},
        "order": "march+1",
        "hand": LANNISTER_HAND,
        "power": 6,
    },
    "defender": {
        "house": "stark",
        "units": {"footman": 1, "knight": 1},
        "routed": {"footman": 1},
        "order": "defense+1",
        "hand": STARK_HAND,
        "power": 3,
    },
    "support": [
        {"house": "lannister", "side": "attacker", "units": {"footman": 1}, "order": "support+0"}
    ],
    "fiefdoms": ["greyjoy", "stark", "tyrell", "martell", "baratheon", "lannister"],
    "iron_throne": ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell"],
    "discards": {
        "lannister": ["the_hound", "ser_kevan_lannister"],
        "stark": ["roose_bolton", "greatjon_umber"],
    },
}


def test_battle_from_the_example() -> None:
    """Lannister marches everything in Lannisport into Riverrun; its own support in Stoney Sept
    counts, Greyjoy's ships in The Golden Sound stay out unless asked."""
    p = load_position(RIVERRUN)
    spec = battle_from_position(p, "riverrun", attacker="lannister", from_area="lannisport")
    assert spec["attacker"]["units"] == {"footman": 2, "knight": 1}
    assert spec["attacker"]["order"] == "march+1"
    assert spec["defender"]["house"] == "stark"
    assert spec["defender"]["routed"] == {"footman": 1}
    assert spec["defender"]["order"] == "defense+1"
    assert "garrison" not in spec["defender"]
    assert [s["house"] for s in spec["support"]] == ["lannister"]
    assert spec["blade_holder"] == "greyjoy" and spec["blade_used"] is False
    assert spec["tides_of_battle"] is False


@pytest.mark.parametrize("model", ["uniform", "equilibrium"])
def test_odds_equal_the_hand_written_spec(model: str) -> None:
    p = load_position(RIVERRUN)
    drawn = combat_odds(
        battle_from_position(p, "riverrun", attacker="lannister", from_area="lannisport"),
        model=model,
    )
    written = combat_odds(HAND_WRITTEN, model=model)
    assert drawn.p_attacker_wins == pytest.approx(written.p_attacker_wins)
    np.testing.assert_allclose(drawn.matrix, written.matrix)
    assert drawn.casualties == written.casualties


@pytest.mark.parametrize(
    ("support", "side", "extra"),
    [
        ({}, None, 0),
        ({"greyjoy": "attacker"}, "attacker", 2),
        ({"greyjoy": "defender"}, "defender", 2),
    ],
)
def test_third_house_support_by_choice(
    support: dict[str, str], side: str | None, extra: int
) -> None:
    p = load_position(RIVERRUN)
    spec = battle_from_position(
        p, "riverrun", attacker="lannister", from_area="lannisport", support=support
    )
    greyjoy = [s for s in spec["support"] if s["house"] == "greyjoy"]
    if side is None:
        assert greyjoy == []
    else:
        assert greyjoy == [
            {"house": "greyjoy", "side": side, "units": {"ship": 2}, "order": "support+0"}
        ]
    hand_written = copy.deepcopy(HAND_WRITTEN)
    hand_written["support"] = hand_written["support"] + greyjoy
    drawn = combat_odds(spec)
    assert drawn.p_attacker_wins == pytest.approx(combat_odds(hand_written).p_attacker_wins)
    plain = combat_odds(HAND_WRITTEN).breakdown
    shift = (
        drawn.breakdown.loc[side or "attacker", "support"]
        - plain.loc[side or "attacker", "support"]
    )
    assert shift == extra


def test_chosen_units_march() -> None:
    p = load_position(RIVERRUN)
    spec = battle_from_position(
        p, "riverrun", attacker=House.LANNISTER, from_area="lannisport", units={"knight": 1}
    )
    assert spec["attacker"]["units"] == {"knight": 1}
    assert combat_odds(spec).p_attacker_wins < combat_odds(HAND_WRITTEN).p_attacker_wins


def _home_attack(*, defenders: bool) -> Position:
    """6-player start in the action phase: a Tyrell footman in Salt Shore marches on Sunspear."""
    spec = dump_position(starting_position("2e", 6))
    spec.update(phase="action", step="march", round=2)
    spec["areas"]["salt_shore"] = {"house": "tyrell", "units": {"footman": 1}, "order": "march+0"}
    if not defenders:
        spec["areas"]["sunspear"] = {"garrison": 2}
        spec["areas"]["yronwood"] = {"house": "martell", "units": {"footman": 2, "knight": 1}}
    return load_position(spec)


def test_garrison_defends_with_the_units() -> None:
    p = _home_attack(defenders=True)
    spec = battle_from_position(p, "sunspear", attacker="tyrell", from_area="salt_shore")
    assert spec["defender"] == {
        "house": "martell",
        "units": {"footman": 1, "knight": 1},
        "order": "none",
        "garrison": 2,
        "hand": [c for c in dump_position(p)["hands"]["martell"]],
        "discards": [],
        "power": 5,
    }
    assert combat_odds(spec).breakdown.loc["defender", "garrison"] == 2


def test_garrison_alone_is_a_battle() -> None:
    p = _home_attack(defenders=False)
    assert control(p)["sunspear"] == House.MARTELL
    spec = battle_from_position(p, "sunspear", attacker="tyrell", from_area="salt_shore")
    assert spec["defender"]["units"] == {} and spec["defender"]["garrison"] == 2
    result = combat_odds(spec)
    assert 0.0 <= result.p_attacker_wins < 1.0


def test_neutral_force_battle() -> None:
    p = load_position(RIVERRUN)
    spec = battle_from_position(p, "kings_landing", attacker="baratheon", from_area="kingswood")
    assert spec["defender"] == {"neutral_force": 5}
    assert "hand" not in spec["attacker"]
    assert spec["support"] == [
        {"house": "baratheon", "side": "attacker", "units": {"ship": 1}, "order": "support+0"}
    ]
    assert combat_odds(spec).p_attacker_wins == 0.0  # 1 + 2 + 1 against 5


def test_march_by_sea_transport() -> None:
    """Greyjoy land units in Pyke reach Riverrun over their ship in Ironman's Bay."""
    spec = example()
    spec["areas"]["pyke"]["order"] = "march+0"
    spec["areas"]["ironmans_bay"]["order"] = "march-1"
    p = load_position(spec)
    battle = battle_from_position(p, "riverrun", attacker="greyjoy", from_area="pyke")
    assert battle["attacker"]["units"] == {"footman": 1, "knight": 1}
    assert [s["side"] for s in battle["support"] if s["house"] == "greyjoy"] == ["attacker"]
    with pytest.raises(PositionError, match="cannot reach the_twins"):
        battle_from_position(p, "the_twins", attacker="greyjoy", from_area="pyke")


def _stark_marches() -> Position:
    spec = example()
    spec["areas"]["riverrun"]["order"] = "march+0"
    spec["areas"]["moat_cailin"]["order"] = "march-1"
    return load_position(spec)


@pytest.mark.parametrize(
    ("kwargs", "field", "words"),
    [
        (dict(area="harrenhal", attacker="stark", from_area="riverrun"), "area", "not defended"),
        (dict(area="stoney_sept", attacker="lannister", from_area="lannisport"), "area", "own"),
        (dict(area="riverrun", attacker="greyjoy", from_area="seagard"), "from_area", "march"),
        (dict(area="riverrun", attacker="lannister", from_area="harrenhal"), "from_area", "no"),
        (dict(area="seagard", attacker="lannister", from_area="lannisport"), "area", "reach"),
        (dict(area="the_golden_sound", attacker="lannister", from_area="lannisport"), "area", ""),
        (dict(area="riverun", attacker="lannister", from_area="lannisport"), "area", "did you"),
        (dict(area="riverrun", attacker="targaryen", from_area="lannisport"), "attacker", ""),
        (
            dict(
                area="riverrun", attacker="lannister", from_area="lannisport", units={"knight": 2}
            ),
            "units.knight",
            "only 1",
        ),
        (
            dict(area="riverrun", attacker="lannister", from_area="lannisport", units={"ship": 1}),
            "units.ship",
            "only 0",
        ),
        (
            dict(area="riverrun", attacker="lannister", from_area="lannisport", units={}),
            "units",
            "at least one",
        ),
        (
            dict(
                area="riverrun",
                attacker="lannister",
                from_area="lannisport",
                support={"tyrell": "attacker"},
            ),
            "support.tyrell",
            "no tyrell support order",
        ),
        (
            dict(
                area="riverrun",
                attacker="lannister",
                from_area="lannisport",
                support={"stark": "attacker"},
            ),
            "support.stark",
            "opponent",
        ),
        (
            dict(
                area="riverrun",
                attacker="lannister",
                from_area="lannisport",
                support={"greyjoy": "both"},
            ),
            "support.greyjoy",
            "must be",
        ),
        (
            dict(
                area="kings_landing",
                attacker="baratheon",
                from_area="kingswood",
                support={"greyjoy": "defender"},
            ),
            "support.greyjoy",
            "neutral force",
        ),
    ],
)
def test_battle_errors(kwargs: dict[str, Any], field: str, words: str) -> None:
    p = _stark_marches()
    area = kwargs.pop("area")
    with pytest.raises(PositionError) as info:
        battle_from_position(p, area, **kwargs)
    message = str(info.value)
    assert message.startswith(f"{field}: ") and words in message, message


def test_empty_area_is_no_battle() -> None:
    spec = example()
    spec["areas"]["kingswood"]["order"] = "march+0"
    p = load_position(spec)
    with pytest.raises(PositionError, match=r"^area: no battle: storms_end is not defended$"):
        battle_from_position(p, "storms_end", attacker="baratheon", from_area="kingswood")


# --- gotsim combat --position ----------------------------------------------------------------

ARGS = ["combat", "--position", str(RIVERRUN), "--area", "riverrun", "--from", "lannisport"]


def test_cli_position_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [*ARGS, "--attacker", "lannister", "--support", "greyjoy=attacker", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    spec = battle_from_position(
        load_position(RIVERRUN),
        "riverrun",
        attacker="lannister",
        from_area="lannisport",
        support={"greyjoy": "attacker"},
    )
    assert out["p_attacker_wins"] == pytest.approx(combat_odds(spec).p_attacker_wins)


def test_cli_position_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*ARGS, "--attacker", "lannister", "--units", "footman=1,knight=1"]) == 0
    assert "P(attacker wins)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([*ARGS, "--attacker", "stark"], "from_area: no standing stark units in lannisport"),
        ([*ARGS, "--attacker", "lannister", "--units", "footman=9"], "units.footman: only 2"),
        ([*ARGS, "--attacker", "lannister", "--units", "footman"], "--units: expected"),
        ([*ARGS, "--attacker", "lannister", "--support", "tyrell=attacker"], "support.tyrell"),
        (ARGS, "also give --attacker"),
        (["combat"], "exactly one"),
        (["combat", str(RIVERRUN), "--position", str(RIVERRUN)], "exactly one"),
        (["combat", "examples/battles/riverrun.json", "--area", "riverrun"], "--area goes with"),
        (
            [
                "combat",
                "--position",
                "no/such.json",
                "--area",
                "a",
                "--from",
                "b",
                "--attacker",
                "c",
            ],
            "no such position file",
        ),
    ],
)
def test_cli_position_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0], err


def test_cli_bad_position_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = example()
    spec["areas"]["winterfell"]["units"]["ship"] = 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(spec), encoding="utf-8")
    argv = ["combat", "--position", str(bad), "--area", "riverrun", "--from", "lannisport"]
    with pytest.raises(SystemExit) as info:
        main([*argv, "--attacker", "lannister"])
    assert info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"gotsim: error: {bad}: areas.winterfell.units.ship: ships cannot stand on land")


def test_neutral_armies_of_the_1st_edition(monkeypatch: pytest.MonkeyPatch) -> None:
    """1e, 3 players: the absent houses' units stay as neutral armies. ``load_setup`` does not
    read them from the data file yet, so the setup is patched with two of them here."""
    real = load_setup("1e", 3)
    armies = {"pyke": {Unit.FOOTMAN: 1, Unit.KNIGHT: 1}, "ironmans_bay": {Unit.SHIP: 2}}
    patched = dataclasses.replace(real, neutral_armies=armies)
    for module in (position_model, position_reader):  # the setup the position package reads
        monkeypatch.setattr(module, "load_setup", lambda *args, **kwargs: patched)
    p = starting_position("1e", 3)
    assert load_position(dump_position(p)) == p
    assert dump_position(p)["areas"]["pyke"] == {"neutral_army": {"footman": 1, "knight": 1}}
    assert "pyke" not in control(p)
    spec = dump_position(p)
    spec["areas"]["pyke"]["neutral_army"]["knight"] = 2
    with pytest.raises(PositionError, match=r"^areas\.pyke\.neutral_army\.knight: only 1"):
        load_position(spec)
    spec = dump_position(p)
    spec["areas"]["pyke"]["power_token"] = "stark"
    with pytest.raises(PositionError, match=r"^areas\.pyke\.neutral_army: .*power_token"):
        load_position(spec)
