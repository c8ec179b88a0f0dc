"""Positions of games with vassals (``docs/positions.md``, ``docs/rules.md`` V22): which houses
are vassals (by the player count, V1), each vassal's commander, its four order tokens, no power
and no hand of its own, read back from records at every boundary and resumed so that the game
plays on the same; bad values refused in one line; battle specs naming the vassals."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import numpy as np
import pytest
from positioncase import (
    changed,
    differ_when_played_out,
    phase_starts,
    resumed_copy,
    round_trips_at_every_decision,
)

from gotsim import combat_odds
from gotsim.analysis.board_plot import draw_position
from gotsim.cli import main
from gotsim.engine import machine
from gotsim.engine.convert import (
    position_from_record,
    position_rules,
    record_from_position,
)
from gotsim.engine.init import new_games
from gotsim.engine.position import (
    PositionError,
    RoundPhase,
    battle_from_position,
    dump_position,
    load_position,
    starting_position,
)
from gotsim.engine.state import Decision, Phase
from gotsim.engine.tables import rules_table
from gotsim.rules.ids import AreaKind, House

# (players, expansion, eight houses)
GAMES = [(3, None, False), (4, None, False), (5, None, False), (6, "mod", False), (4, "mod", True)]


def _game(players: int, expansion: str | None, eight: bool, seed: int) -> tuple[Any, Any]:
    variants = {"vassals": True, **({"eight_houses": True} if eight else {})}
    rules = rules_table("2e", players, variants, expansion)
    games = new_games(
        [np.random.SeedSequence(seed, spawn_key=(0,))],
        players=players,
        expansion=expansion,
        vassals=True,
        eight_houses=eight,
    )
    return games, rules


@pytest.mark.parametrize(("players", "expansion", "eight"), GAMES)
def test_vassal_records_round_trip_at_every_phase_boundary(
    players: int, expansion: str | None, eight: bool
) -> None:
    """At each phase start of a random game with vassals the record reads back as a position
    of ``players`` players with the board's other houses vassals, position → record → position
    is the identity, and the game resumed from it plays out exactly like the original."""
    games, rules = _game(players, expansion, eight, players)
    phases: set[RoundPhase] = set()
    named = 0
    for snapshot in phase_starts(games, rules[0]):
        where = f"round {int(snapshot[0].game_round)}, {Phase(int(snapshot[0].phase)).name}"
        p = position_from_record(snapshot, rules)
        assert p.players == players and p.variants["vassals"], where
        assert len(p.vassals) == len(p.houses) - players, where
        assert set(p.commanders) in (set(), set(p.vassals)), where
        named += bool(p.commanders)
        assert position_from_record(record_from_position(p, seed=5), rules) == p, where
        phases.add(p.phase)
        if snapshot[0].done:
            continue
        differ = differ_when_played_out(snapshot.copy(), resumed_copy(snapshot, p), rules[0])
        assert differ == [], f"{where}: resumed game differs in {differ}"
    assert phases == set(RoundPhase)
    assert named > 0


@pytest.mark.parametrize(
    ("players", "expansion", "eight", "seed"), [(4, None, False, 21), (5, "mod", True, 22)]
)
def test_vassal_records_round_trip_at_every_decision(
    players: int, expansion: str | None, eight: bool, seed: int
) -> None:
    """Every state of a random game with vassals, decision by decision: where the record reads
    back as a position (planning with orders standing and the vassals claimed, mid-step
    restarts), it round trips and the resumed game plays out the same; the claims, and the
    planning past them before any order, are refused as boundaries."""
    games, rules = _game(players, expansion, eight, seed)
    positions, refusals = round_trips_at_every_decision(games, rules)
    seen = Counter(f"{p.phase.id} {'commanders' if p.commanders else 'none'}" for p in positions)
    seen["claims"] = sum("vassals" in r for r in refusals)
    assert seen["planning commanders"] and seen["action commanders"], seen
    assert seen["claims"], seen  # (the claims and the planning past them before any order)


def test_a_vassal_start_and_its_written_form() -> None:
    """``starting_position(..., vassals=True)``: every house of the board in play, the others
    than the players' vassals with no power and no commander yet; the JSON leaves out what a
    vassal never has (power, its own hand) and reads back equal."""
    p = starting_position("2e", 4, vassals=True)
    assert p.players == 4 and len(p.houses) == 6
    assert p.vassals == (House.TYRELL, House.MARTELL)
    assert p.power[House.TYRELL] == 0 and p.commanders == {}
    spec = dump_position(p)
    assert spec["variants"]["vassals"] is True and "eight_houses" not in spec["variants"]
    assert "tyrell" not in spec["power"] and "tyrell" not in spec["hands"]
    assert spec["commanders"] == {}
    assert load_position(spec) == p
    t = position_rules(p)[0]
    assert t.vassals and list(np.flatnonzero(t.vassal)) == [House.TYRELL, House.MARTELL]
    eight = starting_position("2e", 5, expansion="mod", vassals=True, eight_houses=True)
    assert House.TARGARYEN in eight.houses and House.TARGARYEN not in eight.vassals
    assert eight.iron_bank and load_position(dump_position(eight)) == eight
    plain = dump_position(starting_position("2e", 4))
    assert "vassals" not in plain["variants"] and "commanders" not in plain


def _action(players: int = 4) -> dict[str, Any]:
    spec = dump_position(starting_position("2e", players, vassals=True))
    spec.update(round=2, phase="action", step="march")
    spec["commanders"] = {"tyrell": "baratheon", "martell": "stark"}
    return spec


BAD: list[tuple[str, dict[str, Any], str]] = [
    (
        "commander of a player",
        {"commanders.stark": "baratheon"},
        "commanders.stark: stark is a player house",
    ),
    (
        "a vassal commanding",
        {"commanders.tyrell": "martell"},
        "a vassal is commanded by a player house",
    ),
    (
        "a commander missing",
        {"commanders.martell": None},
        "every vassal's commander is named; missing martell",
    ),
    ("power of a vassal", {"power.tyrell": 2}, "power.tyrell: a vassal holds no power"),
    (
        "a vassal's power token",
        {"areas.the_reach": {"power_token": "tyrell"}},
        "areas.the_reach.power_token: a vassal has no power tokens",
    ),
    (
        "a vassal's cards missing",
        {"hands.tyrell": ["mace_tyrell"], "discards.tyrell": ["ser_loras_tyrell"]},
        "hands.tyrell: cards neither in hand nor discarded",
    ),
    (
        "eight houses without vassals",
        {"variants.vassals": None, "variants.eight_houses": True},
        "variants.eight_houses: a vassals option",
    ),
    ("six players with vassals", {"players": 6}, "variants.vassals:"),
    (
        "commanders without vassals",
        {"variants.vassals": None, "players": 6},
        "commanders: only a game with vassals",
    ),
]


@pytest.mark.parametrize(("what", "change", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_vassal_values_are_one_clear_line(
    what: str, change: dict[str, Any], message: str
) -> None:
    spec = changed(_action(), change)
    if what == "commanders without vassals":  # (the 6-player start, Tyrell and Martell players)
        base = dump_position(starting_position("2e", 6))
        spec = {**base, "round": 2, "commanders": {"tyrell": "baratheon"}}
    with pytest.raises(PositionError) as exc:
        load_position(spec)
    assert message in str(exc.value) and "\n" not in str(exc.value)


def test_vassal_orders_and_claims() -> None:
    """A vassal's orders are its four tokens, each once (V5): a raid and a support +1 together,
    or a star order, are refused; a planning position names the commanders once an order stands
    and not before."""
    spec = _action()
    spec["step"] = "raid"
    tyrell = [a for a, r in spec["areas"].items() if r.get("house") == "tyrell" and r.get("units")]
    spec["areas"][tyrell[0]]["order"] = "raid"
    spec["areas"][tyrell[1]]["order"] = "support+1"
    with pytest.raises(
        PositionError, match=re.escape("tyrell is a vassal with one raid/support+1 token")
    ):
        load_position(spec)
    spec["areas"][tyrell[1]]["order"] = "defense+2"
    assert load_position(spec).orders[tyrell[1]] == "defense+2"
    spec["areas"][tyrell[1]]["order"] = "consolidate_power*"
    with pytest.raises(PositionError, match="tyrell is a vassal: its order tokens are"):
        load_position(spec)
    planning = dump_position(starting_position("2e", 4, vassals=True))
    planning["commanders"] = {"tyrell": "baratheon", "martell": "stark"}
    with pytest.raises(
        PositionError, match="none is named in a planning position before any order"
    ):
        load_position(planning)
    planning["areas"][tyrell[0]]["order"] = "march+0"
    p = load_position(planning)
    g = record_from_position(p, seed=1)
    machine.advance(g[0], position_rules(p)[0])
    assert g[0].pending == Decision.PLACE_ORDER  # (the claims made: no CLAIM_VASSAL asked)
    assert [int(g[0].commander[h]) for h in (House.TYRELL, House.MARTELL)] == [0, 2]


def test_battle_specs_name_the_vassals() -> None:
    """A battle drawn from a position against a vassal names it among the vassals, with no hand,
    discards or power for its side, and the calculator takes it."""
    spec = _action()
    p = load_position(spec)
    board = p.board
    target, attacker = next(
        (b, a)
        for b in board.area_ids
        if p.occupants.get(b) in p.vassals and board.kind[board.index(b)] == AreaKind.LAND
        for a in board.area_ids
        if a not in p.occupants
        and a not in p.power_tokens
        and a not in p.neutral_forces
        and board.kind[board.index(a)] == AreaKind.LAND
        and board.adjacency[board.index(a), board.index(b)]
    )
    spec["areas"][attacker] = {"house": "lannister", "units": {"footman": 1}, "order": "march+0"}
    p = load_position(spec)
    battle = battle_from_position(p, target, attacker="lannister", from_area=attacker)
    assert battle["vassals"] == [p.occupants[target].id]
    assert not {"hand", "discards", "power"} & set(battle["defender"])
    assert {"hand", "power"} <= set(battle["attacker"])
    odds = combat_odds(battle, model="uniform")
    assert 0.0 <= odds.p_attacker_wins <= 1.0


def test_the_picture_names_the_vassals_and_their_commanders() -> None:
    """``gotsim board --position`` of a vassal game: the legend names each vassal, with its
    commander once the vassals are claimed."""
    fig = draw_position(load_position(_action()))
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "Tyrell (vassal of Baratheon)" in legend and "Martell (vassal of Stark)" in legend
    assert "Baratheon" in legend
    start = draw_position(starting_position("2e", 4, vassals=True))
    assert "Tyrell (vassal)" in [t.get_text() for t in start.legends[0].get_texts()]


def test_the_board_command_draws_a_vassal_start(tmp_path: Any, capsys: Any) -> None:
    """``gotsim board --variant vassals`` draws the start of a vassal game (the 8-house board with
    ``eight_houses``); a game the rules do not have is one line, exit 2."""
    out = tmp_path / "vassals.png"
    assert main(["board", "--players", "4", "--variant", "vassals", "--out", str(out)]) == 0
    assert out.read_bytes()[:4] == b"\x89PNG"
    args = ["board", "--expansion", "mod", "--players", "5", "--variant", "vassals"]
    assert main([*args, "--variant", "eight_houses", "--out", str(out)]) == 0
    for bad, message in (
        (["--players", "6", "--variant", "vassals"], "is played by 3-5 players"),
        (["--players", "4", "--variant", "eight_houses"], "a vassals option"),
    ):
        with pytest.raises(SystemExit) as exc:
            main(["board", *bad, "--out", str(out)])
        assert exc.value.code == 2
        assert message in capsys.readouterr().err
