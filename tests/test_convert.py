"""Positions ↔ engine records: round trips from the starts and from random games at every phase
boundary, resuming play from a position, ``simulate_from_position``, bad inputs, and engine
states the position loader refuses (regression tests of engine fixes)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from positioncase import differ_when_played_out, phase_starts, resumed_copy

import gotsim
from gotsim.engine import machine
from gotsim.engine.area_bits import has_bit
from gotsim.engine.board_state import castles_held as kernel_castles
from gotsim.engine.board_state import controller
from gotsim.engine.convert import (
    NotAtBoundaryError,
    boundary,
    position_from_record,
    position_rules,
    record_from_position,
)
from gotsim.engine.counters import PHASE_COUNTERS, WESTEROS_COUNTERS, all_clear
from gotsim.engine.game import Game, RandomPolicy
from gotsim.engine.init import new_games
from gotsim.engine.invariants import violations
from gotsim.engine.machine import advance, apply, legal
from gotsim.engine.marches import transport_reach_bits
from gotsim.engine.position import (
    ActionStep,
    Position,
    PositionError,
    RoundPhase,
    castles_held,
    control,
    dump_position,
    load_position,
    starting_position,
)
from gotsim.engine.position.queries import _can_reach
from gotsim.engine.rng import pick_from_mask
from gotsim.engine.state import ACT_NONE, N_ACTIONS, ORDER_NAMES, Decision, Phase, Restriction
from gotsim.engine.tables import rules_table
from gotsim.play.simulate import play_from_position, simulate_from_position
from gotsim.rules.board import load_board
from gotsim.rules.cards import house_deck
from gotsim.rules.ids import AreaKind, House

BOARD = load_board("2e")
EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "positions"


def spec_of(p: Position) -> dict[str, Any]:
    return dump_position(p)


# --- the starts --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_starting_positions_round_trip(players: int) -> None:
    p = starting_position("2e", players)
    games = record_from_position(p, seed=7)
    assert games.shape == (1,)
    assert position_from_record(games, position_rules(p)) == p
    assert (
        position_from_record(games[0], position_rules(p)[0]) == p
    )  # records work as well as arrays
    assert violations(games[0], position_rules(p)[0]) == []


@pytest.mark.parametrize(("players", "swap"), [(3, False), (4, False), (5, True), (6, False)])
def test_start_record_is_new_games_record(players: int, swap: bool) -> None:
    """From the start, the record is byte for byte ``new_games``': same decks, same streams."""
    p = starting_position("2e", players, kings_court_swap=swap)
    seed = np.random.SeedSequence(11, spawn_key=(3,))
    ours = record_from_position(p, seed)
    assert record_from_position(p, seed).tobytes() == ours.tobytes()  # the seed is not used up
    fresh = np.random.SeedSequence(11, spawn_key=(3,))
    theirs = new_games([fresh], players=players, kings_court_swap=swap)
    assert ours.tobytes() == theirs.tobytes()
    assert (
        record_from_position(p, 11).tobytes()
        == new_games(
            [np.random.SeedSequence(11, spawn_key=(0,))], players=players, kings_court_swap=swap
        ).tobytes()
    )
    back = position_from_record(ours, position_rules(p), kings_court_swap=swap)
    assert back == p


def test_example_position_record() -> None:
    """Riverrun, round 3: routed units count among the record's units, orders and hands become
    the engine's kinds and bit masks, and the march step begins with Baratheon's march."""
    p = load_position(EXAMPLES / "riverrun_round3.json")
    games = record_from_position(p)
    g, t = games[0], position_rules(p)[0]
    riverrun = BOARD.index("riverrun")
    assert list(g.units[riverrun][:4]) == [2, 1, 0, 0] and list(g.routed[riverrun][:4]) == [
        1,
        0,
        0,
        0,
    ]
    assert ORDER_NAMES[g.order[BOARD.index("lannisport")]] == "march+1"
    assert g.orders_used[House.STARK].sum() == sum(
        1 for a, h in p.occupants.items() if h == House.STARK and a in p.orders
    )
    assert bin(int(g.hand[House.STARK])).count("1") == len(p.hands[House.STARK])
    assert Phase(int(g.phase)) == Phase.MARCHES and g.turn == 0 and all_clear(g, PHASE_COUNTERS)
    assert violations(g, t) == []
    without_name = dataclasses.replace(p, name="", description="", raven_used=False)
    assert position_from_record(games, position_rules(p)) == without_name
    advance(g, t)
    assert g.pending == Decision.MARCH_FROM and g.pending_house == House.BARATHEON


def test_planning_goes_on_with_the_areas_left() -> None:
    """Orders in a planning position stay; only the areas without one are asked about."""
    spec = spec_of(starting_position("2e", 6))
    spec["areas"]["winterfell"]["order"] = "raid*"
    spec["areas"]["pyke"]["order"] = "defense+1"
    p = load_position(spec)
    games = record_from_position(p)
    g, t = games[0], position_rules(p)[0]
    asked = []
    mask = np.zeros(N_ACTIONS, np.bool_)
    advance(g, t)
    while g.pending == Decision.PLACE_ORDER:
        asked.append(BOARD.area_ids[g.ctx[0]])
        legal(g, t, mask)
        assert apply(g, t, int(np.flatnonzero(mask)[0]))
        advance(g, t)
    assert "winterfell" not in asked and "pyke" not in asked
    assert len(asked) == len(p.occupants) - 2
    assert ORDER_NAMES[g.order[BOARD.index("winterfell")]] == "raid*"
    assert g.pending == Decision.RAVEN


@pytest.mark.parametrize(
    ("step", "phase"),
    [("raid", Phase.RAIDS), ("march", Phase.MARCHES), ("consolidate_power", Phase.CONSOLIDATE)],
)
def test_action_steps_start_at_turn_zero(step: str, phase: Phase) -> None:
    spec = spec_of(starting_position("2e", 4))
    spec.update({"phase": "action", "step": step, "blade_used": True, "raven_used": True})
    p = load_position(spec)
    g = record_from_position(p)[0]
    assert (
        Phase(int(g.phase)) == phase
        and g.turn == 0
        and all_clear(g, PHASE_COUNTERS)
        and g.blade_used
    )
    back = position_from_record(g, position_rules(p))
    assert back == dataclasses.replace(p, raven_used=False)  # the record keeps no raven


def test_westeros_position_starts_the_phase() -> None:
    spec = spec_of(starting_position("2e", 5))
    spec.update({"round": 4, "phase": "westeros", "wildling_threat": 10})
    p = load_position(spec)
    games = record_from_position(p, seed=3)
    g, t = games[0], position_rules(p)[0]
    assert (
        Phase(int(g.phase)) == Phase.WESTEROS
        and all_clear(g, WESTEROS_COUNTERS)
        and g.game_round == 4
    )
    assert position_from_record(games, position_rules(p)) == p
    while g.phase == Phase.WESTEROS:  # play it through
        advance(g, t)
        if g.pending != Decision.NONE:
            mask = np.zeros(N_ACTIONS, np.bool_)
            legal(g, t, mask)
            machine.apply_legal(g, t, pick_from_mask(g.rng, 1 + g.pending_house, mask))
    assert g.game_round == 4 and (g.westeros_drawn >= 0).all()


# --- random games, snapshot at every phase boundary -------------------------------------------


def boundaries(players: int, seed: int, tides: bool) -> Iterator[tuple[np.recarray, Any]]:
    """A random game yielding a copy of the record at each phase start (``phase_starts``)."""
    rules = rules_table("2e", players, {"tides_of_battle": tides})
    games = new_games([np.random.SeedSequence(seed, spawn_key=(0,))], players=players)
    for snapshot in phase_starts(games, rules[0]):
        yield snapshot, rules


GAMES = [(3, 0, False), (4, 2, True), (5, 3, False), (6, 0, False), (6, 1, True)]


@pytest.mark.parametrize(("players", "seed", "tides"), GAMES)
def test_round_trips_at_every_phase_boundary(players: int, seed: int, tides: bool) -> None:
    """At each phase start of a random game: position → record → position is the identity, and
    the game resumed from the position (decks and streams copied over) plays out exactly like
    the original."""
    seen: set[tuple[RoundPhase, ActionStep | None]] = set()
    for games, rules in boundaries(players, seed, tides):
        t = rules[0]
        where = f"round {int(games[0].game_round)}, {Phase(int(games[0].phase)).name}"
        try:
            p = position_from_record(games, rules)
        except PositionError as exc:  # pragma: no cover - shows an engine state to fix
            pytest.fail(f"{where}: the engine reached a state the loader refuses: {exc}")
        assert position_from_record(record_from_position(p, seed=5), rules) == p, where
        seen.add((p.phase, p.step))
        if games[0].done:
            continue
        differ = differ_when_played_out(games.copy(), resumed_copy(games, p), t)
        assert differ == [], f"{where}: resumed game differs in {differ}"
    assert {s for ph, s in seen if ph == RoundPhase.ACTION} == set(ActionStep)
    assert {ph for ph, _ in seen} == set(RoundPhase)


@pytest.mark.parametrize(("players", "seed", "tides"), [(6, 3, False), (4, 7, True)])
def test_position_queries_agree_with_the_kernels(players: int, seed: int, tides: bool) -> None:
    """At each phase start of a random game, the position's questions get the compiled
    engine's answers: who controls each area (``board_state.controller``), castles held
    (``castles_held``), and for every house's land units the areas they can march to
    (``marches.transport_reach_bits``: next door or along the house's ships)."""
    checked = 0
    for games, rules in boundaries(players, seed, tides):
        g, t = games[0], rules[0]
        p = position_from_record(games, rules)
        held = control(p)
        for a, area in enumerate(BOARD.area_ids):
            mine = int(controller(g, t, a))
            assert held.get(area) == (House(mine) if mine >= 0 else None), area
        castles = castles_held(p)
        for house in p.houses:
            assert castles[house] == kernel_castles(g, t, int(house))
        for start, area in enumerate(BOARD.area_ids):
            house = p.occupants.get(area)
            if house is None or BOARD.kind[start] != AreaKind.LAND:
                continue
            bits = transport_reach_bits(g, t, int(house), start)
            for target in range(BOARD.n_areas):
                if BOARD.kind[target] != AreaKind.LAND or target == start:
                    continue
                expected = bool(has_bit(bits, target))
                assert _can_reach(p, house, start, target, False) == expected, (area, target)
                checked += 1
    assert checked > 1000


@pytest.mark.parametrize(("players", "seed"), [(6, 5), (4, 5)])
def test_round_trips_of_game_records_at_phase_changes(players: int, seed: int) -> None:
    """``Game`` stops at the first decision of a new phase; where that is still a boundary
    (planning, the raven, raids, marches, star consolidate choices) the position round trips."""
    game = Game(players=players, seed=seed)
    policy = RandomPolicy()
    last = (0, -1)
    taken = 0
    while game.pending is not None:
        now = (int(game.record.game_round), int(game.record.phase))
        if now != last:
            last = now
            try:
                phase, step = boundary(game.record, game.rules)
            except NotAtBoundaryError:
                phase = None
            if phase is not None:
                p = position_from_record(game.record, game.rules)
                assert (p.phase, p.step) == (phase, step)
                assert position_from_record(record_from_position(p), game.rules) == p
                taken += 1
        game.step(policy(game, game.pending))
    assert taken >= 30


def test_mid_phase_records_are_refused() -> None:
    game = Game(players=6, seed=2)
    policy = RandomPolicy()

    def step() -> None:
        pending = game.pending
        assert pending is not None
        game.step(policy(game, pending))

    while game.record.pending != Decision.MARCH_UNIT:
        step()
    with pytest.raises(NotAtBoundaryError, match="middle of the marches phase, MARCH_UNIT"):
        position_from_record(game.record, game.rules)
    while game.record.combat_area < 0:
        step()
    with pytest.raises(NotAtBoundaryError, match="battle is in progress"):
        boundary(game.record, game.rules)


def test_finished_game_position() -> None:
    game = Game(players=3, seed=3)
    game.play(RandomPolicy())
    p = position_from_record(game.record, game.rules)
    assert (p.round, p.phase, p.step) == (10, RoundPhase.ACTION, ActionStep.CONSOLIDATE_POWER)
    assert p.orders == {} and p.routed == {}


# --- simulate from a position -----------------------------------------------------------------


def test_simulate_from_position_is_deterministic() -> None:
    p = load_position(EXAMPLES / "riverrun_round3.json")
    a = simulate_from_position(p, 40, seed=4)
    b = simulate_from_position(p, 40, seed=4, n_jobs=2)
    pd.testing.assert_frame_equal(a, b)
    assert not a.equals(simulate_from_position(p, 40, seed=5))
    assert (a.end_round >= 3).all() and a.winner.notna().all()
    assert list(a.columns) == list(gotsim.simulate(2, players=6).columns)


def test_simulate_from_the_start_is_simulate() -> None:
    """From a starting position the games are those of ``gotsim.simulate``: same seeds."""
    ours = simulate_from_position(starting_position("2e", 4), 30, seed=8)
    pd.testing.assert_frame_equal(ours, gotsim.simulate(30, players=4, seed=8))
    tides = {"tides_of_battle": True}
    spec = spec_of(starting_position("2e", 5))
    spec["variants"]["tides_of_battle"] = True
    ours = simulate_from_position(load_position(spec), 20, seed=1)
    pd.testing.assert_frame_equal(ours, gotsim.simulate(20, players=5, seed=1, variants=tides))


def six_castles() -> Position:
    """Round 2, march step: Lannister holds six castles and strongholds (Lannisport, Seagard by
    its army, four by power tokens) and its army in Seagard has a march order next to Moat
    Cailin, the seventh, held by a Stark footman."""
    spec = spec_of(starting_position("2e", 6))
    spec.update({"round": 2, "phase": "action", "step": "march"})
    areas = spec["areas"]
    areas["seagard"] = {
        "house": "lannister",
        "units": {"footman": 1, "knight": 2},
        "order": "march+1",
    }
    areas["moat_cailin"] = {"house": "stark", "units": {"footman": 1}}
    for area in ("riverrun", "harrenhal", "crackclaw_point", "flints_finger"):
        areas[area] = {"power_token": "lannister"}
    spec["supply"]["lannister"] = 3
    return load_position(spec)


def test_six_castles_end_sooner() -> None:
    """Random games from the six-castle position end sooner than from the start (where random
    play nearly always lasts the ten rounds), most of them won by Lannister on castles."""
    p = six_castles()
    assert castles_held(p)[House.LANNISTER] == 6
    near = simulate_from_position(p, 200, seed=2)
    start = simulate_from_position(starting_position("2e", 6), 200, seed=2)
    assert near.end_round.mean() < start.end_round.mean() - 1  # random play: 8.4 against 10.0
    assert (near.end_reason == "castles").mean() > 0.2 > (start.end_reason == "castles").mean()
    won_now = (near.end_round == 2) & (near.winner == "lannister") & (near.end_reason == "castles")
    assert won_now.mean() > 0.05  # about one game in eight, in the very march step
    assert (near.winner == "lannister").mean() > 0.7


def test_play_from_position_records() -> None:
    p = six_castles()
    games = play_from_position(p, 10, seed=1)
    t = position_rules(p)[0]
    assert games.shape == (10,) and (games.done == 1).all()
    for g in games:
        assert violations(g, t) == []
    assert play_from_position(p, 0).shape == (0,)


# --- bad inputs -----------------------------------------------------------------------------------


def test_first_edition_position_resumes_and_reads_back() -> None:
    """A 1st-edition starting position resumes as the record ``new_games`` makes (Greyjoy's
    units as neutral forces at 4 players), plays on, and reads back as itself (the neutral
    force read as Greyjoy's army)."""
    p = starting_position("1e", 4)
    g = record_from_position(p, seed=3)
    fresh = new_games([np.random.SeedSequence(3, spawn_key=(0,))], edition="1e", players=4)
    for field in ("owner", "units", "neutral", "track", "power", "supply", "hand"):
        assert (g[field] == fresh[field]).all(), field
    assert int(position_rules(p)[0].edition) == 1
    assert len(simulate_from_position(p, 2)) == 2
    back = position_from_record(g[0], position_rules(p))
    assert back == p
    assert back.neutral_armies["pyke"] == p.neutral_armies["pyke"]


@pytest.mark.parametrize(("players", "seed"), [(3, 0), (4, 1), (5, 2), (5, 3)])
def test_first_edition_records_round_trip_at_every_phase_boundary(players: int, seed: int) -> None:
    """At each phase start of a random 1st-edition game the record reads back as a position,
    position → record → position is the identity, and the game resumed from the position plays
    out exactly like the original (Rains of Autumn's ``footmen_no_support`` included)."""
    rules = rules_table("1e", players)
    games = new_games([np.random.SeedSequence(seed, spawn_key=(0,))], edition="1e", players=players)
    seen: set[RoundPhase] = set()
    restrictions: set[str | None] = set()
    for snapshot in phase_starts(games, rules[0]):
        where = f"round {int(snapshot[0].game_round)}, {Phase(int(snapshot[0].phase)).name}"
        try:
            p = position_from_record(snapshot, rules)
        except NotAtBoundaryError as exc:
            # planning over with an area left without an order: a position would reopen it
            assert snapshot[0].phase == Phase.RAVEN, where
            assert "left without an order" in str(exc)
            continue
        assert p.edition == "1e", where
        assert position_from_record(record_from_position(p, seed=5), rules) == p, where
        seen.add(p.phase)
        restrictions.add(p.restriction)
        if snapshot[0].done:
            continue
        differ = differ_when_played_out(snapshot.copy(), resumed_copy(snapshot, p), rules[0])
        assert differ == [], f"{where}: resumed game differs in {differ}"
    assert seen == set(RoundPhase)
    assert len(restrictions) >= 2  # (None and at least one card's)


def test_first_edition_planning_with_an_area_left_without_an_order_is_no_boundary() -> None:
    """1st edition: an area may be left without an order (``none``); once planning has passed
    such an area, a position (which resumes planning from its start and would ask again) is
    refused until the raid step, with one line saying why."""
    game = Game(edition="1e", players=3, seed=4)
    while game.record.pending != Decision.PLACE_ORDER:
        game.step(RandomPolicy()(game, game.pending))
    assert position_from_record(game.record, game.rules).phase == RoundPhase.PLANNING
    game.step(ACT_NONE)  # the first area: no order
    assert game.record.pending == Decision.PLACE_ORDER
    with pytest.raises(NotAtBoundaryError, match="left without an order"):
        position_from_record(game.record, game.rules)
    while game.record.phase in (Phase.PLANNING, Phase.RAVEN):
        game.step(RandomPolicy()(game, game.pending))
    assert position_from_record(game.record, game.rules).phase == RoundPhase.ACTION


def test_first_edition_rains_of_autumn_restriction() -> None:
    """``footmen_no_support`` (the 1st edition's Rains of Autumn) forbids no order and reads
    back from the record's restriction bit; each edition refuses the other's restriction."""
    spec = dump_position(starting_position("1e", 5))
    spec["round"], spec["restriction"] = 2, "footmen_no_support"
    p = load_position(spec)
    g = record_from_position(p, seed=1)
    assert int(g[0].restrict) == int(Restriction.FOOTMEN_NO_SUPPORT)
    assert position_from_record(g, position_rules(p)) == p
    with pytest.raises(PositionError, match="'no_march_plus_one' is a 2e restriction"):
        load_position({**spec, "restriction": "no_march_plus_one"})
    spec2 = dump_position(starting_position("2e", 6))
    spec2["round"], spec2["restriction"] = 2, "footmen_no_support"
    with pytest.raises(PositionError, match="'footmen_no_support' is a 1e restriction"):
        load_position(spec2)


def test_first_edition_module_records_read_back_with_their_modules() -> None:
    """A record whose rules hold A Clash of Kings modules reads back as a position naming them
    (their state: ``tests/test_clash_positions.py``) and round trips."""
    rules = rules_table("1e", 5, {"fortifications": True, "ports": True})
    games = new_games([np.random.SeedSequence(0, spawn_key=(0,))], edition="1e", players=5)
    p = position_from_record(games, rules)
    assert p.variants["fortifications"] and p.variants["ports"]
    assert not p.variants["one_time_orders"] and p.westeros_face_up is None
    assert position_from_record(record_from_position(p), rules) == p


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"phase": "action"}, "step: resuming the action phase needs its step"),
        ({"step": "march"}, "step: a step is given only in the action phase"),
        ({"phase": "westeros", "round": 3, "step": "raid"}, "step: a step is given only"),
        ({"raven_used": True}, "raven_used: the raven is used after the planning phase"),
        (
            {"phase": "westeros", "round": 3, "restriction": "no_raid"},
            "restriction: at the start of the westeros phase",
        ),
        ({"step": "muster"}, "step: a step is given only in the action phase"),
        ({"phase": "action", "step": "muster"}, "step: must be one of"),
    ],
)
def test_unknown_phase_and_step_combinations(change: dict[str, Any], message: str) -> None:
    spec = spec_of(starting_position("2e", 6))
    spec.update(change)
    with pytest.raises(PositionError, match=message):
        record_from_position(spec)


def test_hand_built_position_is_validated_again() -> None:
    """A ``Position`` built by hand (not by the loader) goes through the loader's checks."""
    p = dataclasses.replace(starting_position("2e", 6), step=ActionStep.RAID)
    with pytest.raises(PositionError, match="step: a step is given only in the action phase"):
        record_from_position(p)
    q = dataclasses.replace(starting_position("2e", 6), phase=RoundPhase.ACTION)
    with pytest.raises(PositionError, match="needs its step"):
        simulate_from_position(q, 1)


def test_position_sources() -> None:
    """Paths, JSON text and dicts work as well as ``Position`` values."""
    path = EXAMPLES / "start_6p.json"
    a = record_from_position(path, 1)
    b = record_from_position(path.read_text(encoding="utf-8"), 1)
    c = record_from_position(json.loads(path.read_text(encoding="utf-8")), 1)
    assert a.tobytes() == b.tobytes() == c.tobytes()
    with pytest.raises(ValueError, match="n_games"):
        simulate_from_position(path, -1)


# --- engine states the loader refuses: regression tests of engine fixes, and one open bug -------


def drive(
    games: np.recarray,
    t: Any,
    prefer: Mapping[int, Callable[[Any, np.ndarray], int]],
    until: Callable[[Any], bool],
) -> None:
    """Answer decisions (a preferred action per decision kind, else the first legal) until
    ``until(g)`` holds or nothing is pending."""
    g = games[0]
    mask = np.zeros(N_ACTIONS, np.bool_)
    for _ in range(1000):
        advance(g, t)
        if until(g) or g.pending == Decision.NONE:
            return
        legal(g, t, mask)
        choose = prefer.get(int(g.pending))
        action = choose(g, mask) if choose else int(np.flatnonzero(mask)[0])
        assert apply(g, t, action), (Decision(int(g.pending)).name, action)
    raise AssertionError("no end in sight")


def march(origin: str, target: str) -> dict[int, Callable[[Any, np.ndarray], int]]:
    """Resolve the march order in ``origin`` (when it is the deciding house's) and send its
    units to ``target``; other march orders leave their units where they are."""
    a, b = BOARD.index(origin), BOARD.index(target)

    def pick_from(g: Any, mask: np.ndarray) -> int:
        return a if mask[a] else int(np.flatnonzero(mask)[0])

    def send(g: Any, mask: np.ndarray) -> int:
        return b if g.ctx[0] == a and mask[b] else int(g.ctx[0])

    return {Decision.MARCH_FROM: pick_from, Decision.MARCH_UNIT: send}


BARATHEON_MARCHES = {
    "dragonstone": {
        "house": "baratheon",
        "units": {"footman": 1, "knight": 1},
        "order": "march-1",
        "garrison": 2,
    },
    "kingswood": {"house": "baratheon", "units": {"footman": 1}, "order": "march+0"},
}


def baratheon_marches_again(area: str, house: House) -> Callable[[Any], bool]:
    """Stop at Baratheon's second march, once ``house`` holds ``area``."""
    a = BOARD.index(area)
    return lambda g: (
        g.pending == Decision.MARCH_FROM
        and g.pending_house == House.BARATHEON
        and g.owner[a] == house
    )


def battle_position(changes: Mapping[str, Any], **fields: Any) -> Position:
    spec = spec_of(starting_position("2e", 6))
    spec.update({"round": 2, "phase": "action", "step": "march"})
    for area, record in changes.items():
        if record is None:
            spec["areas"].pop(area, None)
        else:
            spec["areas"][area] = record
    for key, value in fields.items():
        spec[key].update(value)
    return load_position(spec)


def loadable(games: np.recarray, rules: np.recarray) -> None:
    """The position loader takes the board as it stands (an ``AssertionError`` if not)."""
    try:
        position_from_record(games, rules)
    except PositionError as exc:
        raise AssertionError(f"the loader refuses the record: {exc}") from None


def one_card(house: str, card: str, deck: list[str]) -> dict[str, Any]:
    return {"hands": {house: [card]}, "discards": {house: [c for c in deck if c != card]}}


def _deck(house: House) -> list[str]:
    return [c.id for c in house_deck("2e", house)]


def test_no_retreat_into_another_house_garrison() -> None:
    """A beaten army does not retreat into an empty home area holding another house's garrison
    (seen in random games before ``battle.retreat_ok`` checked control)."""
    tyrell, greyjoy = _deck(House.TYRELL), _deck(House.GREYJOY)
    hands = one_card("tyrell", "margaery_tyrell", tyrell)
    other = one_card("greyjoy", "balon_greyjoy", greyjoy)
    p = battle_position(
        {
            "lannisport": {"garrison": 2},
            "searoad_marches": {"house": "greyjoy", "units": {"footman": 1}},
            "the_reach": {"house": "tyrell", "units": {"knight": 3}, "order": "march+0"},
        },
        hands={**hands["hands"], **other["hands"]},
        discards={**hands["discards"], **other["discards"]},
    )
    games = record_from_position(p)
    t = position_rules(p)[0]
    drive(games, t, march("the_reach", "searoad_marches"), lambda g: g.pending == Decision.RETREAT)
    g = games[0]
    assert g.pending == Decision.RETREAT
    mask = np.zeros(N_ACTIONS, np.bool_)
    legal(g, t, mask)
    assert mask[BOARD.index("blackwater")]
    assert not mask[BOARD.index("lannisport")]


def test_peaceful_march_takes_the_port() -> None:
    """Marching peacefully into a land area takes its port from another house's ships (seen in
    random games before ``marches.move_units`` called ``port_taken``)."""
    p = battle_position(
        {
            "white_harbor": None,
            "port_of_white_harbor": {"house": "stark", "units": {"ship": 1}},
            "moat_cailin": {"house": "greyjoy", "units": {"footman": 1}, "order": "march+0"},
            **BARATHEON_MARCHES,
        }
    )
    games = record_from_position(p)
    rules = position_rules(p)
    until = baratheon_marches_again("white_harbor", House.GREYJOY)
    drive(games, rules[0], march("moat_cailin", "white_harbor"), until)
    assert until(games[0])
    assert games[0].owner[BOARD.index("port_of_white_harbor")] != House.STARK
    loadable(games, rules)


def test_taken_port_respects_supply() -> None:
    """Ships replacing a conquered port's ships must fit the conqueror's supply (seen in random
    games: Greyjoy takes Winterfell and its port at supply 1 with armies 3 and 2 already)."""
    greyjoy, stark = _deck(House.GREYJOY), _deck(House.STARK)
    a = one_card("greyjoy", "euron_crows_eye", greyjoy)
    b = one_card("stark", "catelyn_stark", stark)
    p = battle_position(
        {
            "winterfell": {"house": "stark", "units": {"footman": 1}, "garrison": 2},
            "port_of_winterfell": {"house": "stark", "units": {"ship": 2}},
            "moat_cailin": {"house": "greyjoy", "units": {"knight": 3}, "order": "march+0"},
            **BARATHEON_MARCHES,
        },
        hands={**a["hands"], **b["hands"]},
        discards={**a["discards"], **b["discards"]},
        supply={"greyjoy": 1},
    )
    games = record_from_position(p)
    rules = position_rules(p)
    until = baratheon_marches_again("winterfell", House.GREYJOY)
    drive(games, rules[0], march("moat_cailin", "winterfell"), until)
    assert until(games[0])
    loadable(games, rules)
