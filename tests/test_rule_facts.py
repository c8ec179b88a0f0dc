"""Rules facts are read from ``gotsim/data`` once: the unit strengths (``rules.units``) reach the
rules table, the battle vector and the players from there, and no unit strength is written as a
literal in the engine, the calculator or the players."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import numpy as np
import pytest

from gotsim.data import load_data
from gotsim.engine import combat as cb
from gotsim.engine.tables import rules_table
from gotsim.rules.ids import FOOTMAN, KNIGHT, SHIP, SIEGE, Unit
from gotsim.rules.units import UnitDataError, unit_facts

PACKAGE = Path(__file__).resolve().parents[1] / "gotsim"
CHECKED = ("engine", "odds", "players")
UNIT_NAME = re.compile(r"\b(FOOTMAN|KNIGHT|SHIP|SIEGE|SIEGE_ENGINE)\b")
UNIT_WORD = re.compile(r"(footman|knight|ship|siege)", re.IGNORECASE)


def _int_constant(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int


def strength_literals(source: str) -> list[str]:
    """Places in ``source`` that write a unit strength down: an integer times a unit's count
    (``2 * live(g, a, KNIGHT)``), a table of integers keyed by units or named for a strength,
    or a number given to a variable named for a unit (``siege = 4 if …``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            for number, other in ((node.left, node.right), (node.right, node.left)):
                if (
                    _int_constant(number)
                    and number.value >= 2
                    and UNIT_NAME.search(ast.unparse(other))
                ):
                    found.append(ast.unparse(node))
        elif isinstance(node, ast.Dict):
            keys = " ".join(ast.unparse(k) for k in node.keys if k is not None)
            if UNIT_NAME.search(keys) and any(_int_constant(v) for v in node.values):
                found.append(ast.unparse(node))
        elif isinstance(node, ast.Assign):
            names = " ".join(ast.unparse(t) for t in node.targets)
            value = node.value
            numbers = [n for n in ast.walk(value) if _int_constant(n) and n.value >= 1]
            table = isinstance(value, (ast.Tuple, ast.List)) and len(numbers) >= 2
            if ("STRENGTH" in names.upper() and table) or (
                UNIT_WORD.search(names) and numbers and isinstance(value, ast.IfExp)
            ):
                found.append(ast.unparse(node))
    return found


def test_the_scan_sees_a_strength_written_down() -> None:
    source = (
        "s = live(g, a, FOOTMAN) + 2 * live(g, a, KNIGHT)\n"
        "siege = 4 if attacking else 0\n"
        "UNIT_STRENGTH = {Unit.FOOTMAN: 1, Unit.KNIGHT: 2}\n"
        "STRENGTHS = (1, 2, 1, 0)\n"
        "threat = g.threat + 2 * icons\n"
        "s = t.unit_strength[KNIGHT] * live(g, a, KNIGHT)\n"
    )
    assert len(strength_literals(source)) == 4


@pytest.mark.parametrize("folder", CHECKED)
def test_no_unit_strength_literal(folder: str) -> None:
    found = {
        str(path.relative_to(PACKAGE)): hits
        for path in sorted((PACKAGE / folder).rglob("*.py"))
        if (hits := strength_literals(path.read_text(encoding="utf-8")))
    }
    assert not found, f"unit strengths written down instead of read from rules.units: {found}"


@pytest.mark.parametrize("edition", ["1e", "2e"])
def test_unit_facts_come_from_the_data(edition: str) -> None:
    units = load_data(edition, "setup.json")["units"]
    facts = unit_facts(edition)
    # (a dragon's strength goes by the round: 0 here, docs/rules.md M10)
    assert facts.strength == tuple(units.get(u.id, {"strength": 0})["strength"] for u in Unit)
    assert (
        facts.siege_against_castle
        == units["siege_engine"]["strength_attacking_castle_or_stronghold"]
    )
    t = rules_table(edition, 4)[0]
    assert tuple(t.unit_strength) == facts.strength
    assert t.siege_castle_strength == facts.siege_against_castle
    assert t.fortified_knight_strength == facts.knight_against_fortification
    b = cb.new_battle(edition)
    assert (
        tuple(b[cb.STRENGTH : cb.STRENGTH + cb.N_UNIT_TYPES]) == facts.strength[: cb.N_UNIT_TYPES]
    )


def test_the_editions_agree_on_strengths_and_differ_on_fortifications() -> None:
    """Footman 1, knight 2, ship 1, siege engine 0 (4 attacking a castle) in both editions; an
    attacking knight counts 1 where a 1st-edition fortification stands (rules.md K2)."""
    first, second = unit_facts("1e"), unit_facts("2e")
    assert first.strength == second.strength == (1, 2, 1, 0, 0)  # (a dragon: by round)
    assert first.siege_against_castle == second.siege_against_castle == 4
    assert (first.knight_against_fortification, second.knight_against_fortification) == (1, 2)
    assert first.army_strength({Unit.FOOTMAN: 1, Unit.KNIGHT: 1, Unit.SHIP: 2}) == 5


def test_the_battle_fights_with_the_strengths_it_carries() -> None:
    """The combat code reads the strengths in the battle vector: a knight made 3 counts 3, as a
    marching unit and as a supporter; a siege engine counts its siege strength at a castle."""
    b = cb.new_battle("2e")
    b[cb.ATTACKER * cb.SIDE + cb.UNITS + KNIGHT] = 2
    b[cb.ATTACKER * cb.SIDE + cb.SUPPORT_OWN + KNIGHT] = 1
    b[cb.DEFENDER * cb.SIDE + cb.UNITS + FOOTMAN] = 1
    t = rules_table("2e", 6)[0]
    cards = (t.card_strength, t.card_swords, t.card_forts, t.card_ability, t.card_ref)
    out = np.zeros((2, cb.N_PARTS), np.int64)
    cb.board_and_card_strength(b, cards, out)
    assert (out[0, cb.P_UNITS], out[0, cb.P_SUPPORT]) == (4, 2)
    b[cb.STRENGTH + KNIGHT] = 3
    cb.board_and_card_strength(b, cards, out)
    assert (out[0, cb.P_UNITS], out[0, cb.P_SUPPORT]) == (6, 3)
    b[cb.ATTACKER * cb.SIDE + cb.UNITS + SIEGE] = 1
    b[cb.FORTIFIED] = 1
    cb.board_and_card_strength(b, cards, out)
    assert out[0, cb.P_UNITS] == 6 + 4
    b[cb.SIEGE_CASTLE] = 5
    cb.board_and_card_strength(b, cards, out)
    assert out[0, cb.P_UNITS] == 6 + 5
    assert out[1, cb.P_UNITS] == b[cb.STRENGTH + FOOTMAN] * 1
    assert b[cb.STRENGTH + SHIP] == 1


def test_bad_unit_facts_are_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import gotsim.rules.units as units_module

    data = load_data("2e", "setup.json")
    data["units"]["knight"]["strength"] = "two"
    monkeypatch.setattr(units_module, "load_data", lambda edition, name: data)
    units_module.unit_facts.cache_clear()
    try:
        with pytest.raises(UnitDataError, match=r"units\.knight\.strength: .* got 'two'"):
            units_module.unit_facts("2e")
    finally:
        units_module.unit_facts.cache_clear()


def test_mustering_costs_come_from_the_data() -> None:
    """New footman 1, knight 2, ship 1, siege engine 2; a footman becomes a knight (or siege
    engine) for 1. The 1st edition leaves a siege engine's costs unstated: the 2nd edition's."""
    for edition in ("1e", "2e"):
        facts = unit_facts(edition)
        t = rules_table(edition, 4)[0]
        assert facts.muster_cost == tuple(t.muster_cost) == (1, 2, 1, 2, 0)  # dragons: never
        assert facts.upgrade_cost == tuple(t.upgrade_cost) == (0, 1, 0, 1, 0)
    assert load_data("1e", "setup.json")["units"]["siege_engine"]["muster_cost"] is None


def test_mustering_reads_its_costs_from_the_rules_table() -> None:
    """Winterfell (2 points) at the start: a knight is offered and costs both points; priced at
    3 by the rules table, it is not offered, and a footman made a knight costs what the table
    says."""
    from gotsim.engine.area_bits import has_bit
    from gotsim.engine.init import new_games
    from gotsim.engine.state import ACT_FOOTMAN, ACT_KNIGHT, ACT_UPGRADE_KNIGHT
    from gotsim.engine.westeros import muster_actions, muster_bit
    from gotsim.rules.board import load_board
    from gotsim.rules.ids import House

    g = new_games([np.random.SeedSequence(1)])[0]
    winterfell = load_board("2e").index("winterfell")
    stark = int(House.STARK)
    t = rules_table("2e", 6).copy()[0]
    offered = muster_actions(g, t, stark, winterfell, 2)
    knight, footman = muster_bit(ACT_KNIGHT), muster_bit(ACT_FOOTMAN)
    upgrade = muster_bit(ACT_UPGRADE_KNIGHT)
    assert has_bit(offered, knight) and has_bit(offered, footman)
    t.muster_cost[KNIGHT] = 3
    offered = muster_actions(g, t, stark, winterfell, 2)
    assert not has_bit(offered, knight) and has_bit(offered, footman)
    assert has_bit(offered, upgrade)
    t.upgrade_cost[KNIGHT] = 3
    assert not has_bit(muster_actions(g, t, stark, winterfell, 2), upgrade)


def test_a_ports_capacity_comes_from_the_data() -> None:
    """A port holds at most 3 ships in both editions; mustering a ship into a port asks the
    rules table: with 2 ships there, a third fits, unless the table says 2."""
    from gotsim.engine.init import new_games
    from gotsim.engine.westeros.muster import _ship_target_ok
    from gotsim.rules.board import load_board
    from gotsim.rules.ids import House

    for edition in ("1e", "2e"):
        assert unit_facts(edition).port_capacity == rules_table(edition, 4)[0].port_ships == 3
    g = new_games([np.random.SeedSequence(1)])[0]
    board = load_board("2e")
    pyke, port = board.index("pyke"), board.index("port_of_pyke")
    greyjoy = int(House.GREYJOY)
    g.owner[port] = greyjoy
    g.units[port, SHIP] = 2
    t = rules_table("2e", 6).copy()[0]
    assert _ship_target_ok(g, t, greyjoy, pyke, port)
    t.port_ships = 2
    assert not _ship_target_ok(g, t, greyjoy, pyke, port)


def test_track_facts_come_from_the_data() -> None:
    """The wildling track's top (12), what an icon adds (2) and what a wildling victory takes off
    (4), the supply track's top (6) and the 20 power tokens of a house reach the rules table
    from setup.json; gaining power stops at the table's count."""
    from gotsim.engine.board_state import gain_power, power_tokens_on_board
    from gotsim.engine.init import new_games
    from gotsim.rules.ids import House

    for edition in ("1e", "2e"):
        spec = load_data(edition, "setup.json")
        t = rules_table(edition, 4)[0]
        assert t.threat_max == spec["wildling_track"]["max"] == 12
        assert t.threat_step == spec["wildling_track"]["step_per_wildling_icon"] == 2
        assert t.supply_max == len(spec["supply_track"]) - 1 == 6
    assert rules_table("2e", 6)[0].threat_drop == 4
    assert rules_table("1e", 5)[0].threat_drop == 12  # no value given: back to 0 (rules.md D9)
    games = new_games([np.random.SeedSequence(1)])
    g = games[0]
    t = rules_table("2e", 6).copy()[0]
    stark = int(House.STARK)
    assert list(t.power_total[:6]) == [20] * 6
    on_board = int(power_tokens_on_board(g, t, stark))
    in_hand = int(g.power[stark])
    assert gain_power(games.copy()[0], t, stark, 99) == 20 - in_hand - on_board
    t.power_total[stark] = 9
    assert gain_power(g, t, stark, 99) == 9 - in_hand - on_board
    assert g.power[stark] + on_board == 9


def test_rules_value() -> None:
    """``Rules(edition, players, variants)``: switches or names give the same value, one rule
    table per value, and the editions' variants are checked once, here."""
    from gotsim.rules.variants import VARIANTS, Rules

    tides = Rules.of("2e", 4, {"tides_of_battle": True, "kings_court_swap": False})
    named = Rules("2e", 4, frozenset({"tides_of_battle"}))
    assert tides == Rules.of("2e", 4, ["tides_of_battle"]) == named
    assert hash(tides) == hash(named)
    assert list(tides.flags) == list(VARIANTS)
    assert tides.on("tides_of_battle") and not tides.on("kings_court_swap")
    assert rules_table(tides) is rules_table("2e", 4, {"tides_of_battle": True})
    assert rules_table(tides)[0].tides_of_battle == 1
    assert rules_table("2e", 4)[0].tides_of_battle == 0
    with pytest.raises(ValueError, match="unknown variant 'tides'"):
        Rules.of("2e", 4, {"tides": True})
    with pytest.raises(ValueError, match=r"variants\.ports: must be true or false"):
        Rules.of("1e", 4, {"ports": 1})
    with pytest.raises(ValueError, match="the 1st edition has none"):
        Rules("1e", 4, frozenset({"tides_of_battle"}))
    with pytest.raises(ValueError, match="the 2nd edition has ports in its base game"):
        rules_table("2e", 4, {"ports": True})
    with pytest.raises(NotImplementedError, match="not '3e'"):
        Rules("3e")
    with pytest.raises(ValueError, match="unknown variant"):
        tides.on("dragons")
    clash = Rules.of("1e", 5, {"ports": True, "fortifications": True})
    t = rules_table(clash)[0]
    assert (t.ports, t.fortifications, t.siege_engines) == (1, 1, 0)
