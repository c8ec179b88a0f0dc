"""Positions of 1st-edition games with the A Clash of Kings modules (``docs/positions.md``,
``docs/rules.md`` K11): fortifications, siege engines, ports, one-time orders (placed, used,
Lion's Cunning's house), the look-ahead module's face-up Westeros cards and three-card combat,
read back from records at every boundary and resumed so that the game plays on the same; bad
values refused in one line; battle specs drawn from such positions."""

from __future__ import annotations

import copy
import dataclasses
import re
from collections import Counter
from pathlib import Path
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
from gotsim.engine import machine
from gotsim.engine.convert import (
    NotAtBoundaryError,
    position_from_record,
    position_rules,
    record_from_position,
)
from gotsim.engine.init import new_games
from gotsim.engine.invariants import violations
from gotsim.engine.position import (
    PositionError,
    RoundPhase,
    battle_from_position,
    deck_iv_cards,
    dump_position,
    load_position,
    starting_position,
)
from gotsim.engine.position.queries import _can_reach, dragon_strength
from gotsim.engine.state import Decision, Phase
from gotsim.engine.tables import WesterosCard, rules_table
from gotsim.play.runner import play_random_one
from gotsim.rules.ids import AreaKind, House, Unit
from gotsim.rules.variants import CLASH_OF_KINGS_VARIANTS

ALL = dict.fromkeys(CLASH_OF_KINGS_VARIANTS, True)


def _seen(p: Any, seen: Counter[str]) -> None:
    seen["positions"] += 1
    seen["fortification"] += bool(p.fortifications)
    seen["one_time_order"] += bool(p.one_time_orders)
    seen["one_time_used"] += any(p.one_time_used.values())
    seen["lions_cunning"] += p.lions_cunning is not None
    seen["siege_engine"] += any("siege_engine" in {u.id for u in c} for c in p.units.values())
    seen["port"] += any(a.startswith("port_of_") for a in p.occupants)


@pytest.mark.parametrize(("players", "seed"), [(3, 0), (4, 1), (5, 2), (5, 3), (5, 4)])
def test_clash_of_kings_records_round_trip_at_every_phase_boundary(players: int, seed: int) -> None:
    """Every module on: at each phase start of a random game the record reads back as a
    position, position → record → position is the identity, and the game resumed from the
    position (the hidden decks and streams copied over) plays out exactly like the original."""
    rules = rules_table("1e", players, ALL)
    games = new_games([np.random.SeedSequence(seed, spawn_key=(0,))], edition="1e", players=players)
    seen: Counter[str] = Counter()
    phases: set[RoundPhase] = set()
    for snapshot in phase_starts(games, rules[0]):
        where = f"round {int(snapshot[0].game_round)}, {Phase(int(snapshot[0].phase)).name}"
        try:
            p = position_from_record(snapshot, rules)
        except NotAtBoundaryError as exc:
            assert snapshot[0].phase == Phase.RAVEN, where  # (an area left without an order)
            assert "left without an order" in str(exc)
            continue
        assert dict(p.variants) == {**p.variants, **ALL}, where
        assert p.westeros_face_up is not None
        assert position_from_record(record_from_position(p, seed=5), rules) == p, where
        _seen(p, seen)
        phases.add(p.phase)
        if snapshot[0].done:
            continue
        differ = differ_when_played_out(snapshot.copy(), resumed_copy(snapshot, p), rules[0])
        assert differ == [], f"{where}: resumed game differs in {differ}"
    assert phases == set(RoundPhase)
    assert seen["one_time_used"] and seen["fortification"], seen


def test_clash_of_kings_records_round_trip_at_every_decision() -> None:
    """Every state of random games, decision by decision: where the record reads back as a
    position (one-time orders standing, Lion's Cunning named, mid-step restarts), it round trips
    and the resumed game plays out the same; across the games each module's state is seen."""
    seen: Counter[str] = Counter()
    refused = 0
    for players, seed in ((5, 11), (4, 12), (5, 13), (3, 14)):
        rules = rules_table("1e", players, ALL)
        games = new_games(
            [np.random.SeedSequence(seed, spawn_key=(0,))], edition="1e", players=players
        )
        positions, refusals = round_trips_at_every_decision(games, rules)
        for p in positions:
            _seen(p, seen)
        refused += len(refusals)
    for what in ("fortification", "one_time_order", "one_time_used", "siege_engine", "port"):
        assert seen[what], (what, seen)
    assert seen["positions"] > 200, seen
    assert refused > 0, "some mid-phase states are refused"


def _module_start(players: int = 5, **extra: Any) -> dict[str, Any]:
    spec = dump_position(starting_position("1e", players, modules=CLASH_OF_KINGS_VARIANTS))
    spec.update(extra)
    return spec


def test_a_start_with_modules_writes_and_resumes_them() -> None:
    """``starting_position(..., modules=...)`` writes the modules switched on (and only those),
    a record made from it plays under them, and a position without modules reads as before."""
    p = starting_position("1e", 4, modules=("fortifications", "one_time_orders"))
    spec = dump_position(p)
    assert spec["variants"] == {
        "tides_of_battle": False,
        "kings_court_swap": False,
        "fortifications": True,
        "one_time_orders": True,
    }
    assert spec["one_time_used"] == {} and spec["lions_cunning"] is None
    assert "westeros_face_up" not in spec
    t = position_rules(p)[0]
    assert t.fortifications and t.one_time_orders and not t.ports
    plain = dump_position(starting_position("1e", 4))
    assert set(plain["variants"]) == {"tides_of_battle", "kings_court_swap"}
    assert "one_time_used" not in plain
    with pytest.raises(PositionError, match=re.escape("variants.ports: a 1st-edition module")):
        starting_position("2e", 6, modules=("ports",))


def test_a_planning_position_resumes_after_the_one_time_placement() -> None:
    """A planning position with a one-time order standing resumes past their placement (the
    next decision is an ordinary order); without any order it asks for them first."""
    spec = _module_start()
    spec["areas"]["winterfell"]["one_time_order"] = "young_wolf"
    spec["one_time_used"] = {"stark": ["young_wolf"]}
    p = load_position(spec)
    games = record_from_position(p, seed=2)
    machine.advance(games[0], position_rules(p)[0])
    assert games[0].pending == Decision.PLACE_ORDER
    assert int(games[0].one_time[p.board.index("winterfell")]) == 4  # OneTimeOrder.YOUNG_WOLF
    fresh = record_from_position(starting_position("1e", 5, modules=("one_time_orders",)))
    machine.advance(fresh[0], rules_table("1e", 5, {"one_time_orders": True})[0])
    assert fresh[0].pending == Decision.ONE_TIME_ORDER


def test_face_up_westeros_cards_come_first() -> None:
    """The look-ahead module: each deck's face-up cards are drawn next, in order, the rest of
    the deck (the same cards) after them as the seed shuffled it."""
    face_up = [
        ["winter_is_coming", "supply", "mustering"],
        ["game_of_thrones", "clash_of_kings", "game_of_thrones"],
        ["wildlings_attack", "storm_of_swords", "wildlings_attack"],
    ]
    spec = _module_start(westeros_face_up=face_up, round=2)
    p = load_position(spec)
    assert p.westeros_face_up == tuple(tuple(d) for d in face_up)
    g = record_from_position(p, seed=7)[0]
    start = rules_table("1e", 5, ALL)[0].westeros_start
    for d, cards in enumerate(face_up):
        assert [WesterosCard(int(c)).name.lower() for c in g.westeros[d, :3]] == cards
        assert int(g.westeros_next[d]) == 0
        assert sorted(g.westeros[d]) == sorted(start[d, :10])
    assert position_from_record(record_from_position(p, seed=7), position_rules(p)) == p


BAD: list[tuple[str, Any, str]] = [
    (
        "fortification at sea",
        {"areas.bay_of_ice": {"house": "stark", "units": {"ship": 1}, "fortification": True}},
        "areas.bay_of_ice.fortification: fortifications stand on land areas only",
    ),
    (
        "fortification without units",
        {"areas.the_twins": {"power_token": "stark", "fortification": True}},
        "areas.the_twins.fortification: a fortification stands only with its builder's units",
    ),
    (
        "one-time order of another house",
        {"areas.winterfell.one_time_order": "iron_fleet", "one_time_used": {"stark": ["muster"]}},
        "areas.winterfell.one_time_order: iron_fleet is greyjoy's one-time order, not stark's",
    ),
    (
        "one-time order not marked used",
        {"areas.winterfell.one_time_order": "muster"},
        "areas.winterfell.one_time_order: muster stands on the board, so one_time_used.stark",
    ),
    (
        "two one-time orders of a house",
        {
            "areas.winterfell.one_time_order": "muster",
            "areas.white_harbor.one_time_order": "young_wolf",
            "one_time_used": {"stark": ["muster", "young_wolf"]},
        },
        "stark places one one-time order a round",
    ),
    (
        "a raid-icon one-time order after the raid step",
        {
            "phase": "action",
            "step": "march",
            "areas.winterfell.one_time_order": "young_wolf",
            "one_time_used": {"stark": ["young_wolf"]},
        },
        "young_wolf resolves in the raid step, before the march step",
    ),
    (
        "unknown one-time order",
        {"areas.winterfell.one_time_order": "youngwolf"},
        "unknown one-time order 'youngwolf'",
    ),
    (
        "a kind used twice",
        {"one_time_used": {"stark": ["muster", "muster"]}},
        "one_time_used.stark[1]: muster is placed once a game",
    ),
    (
        "Lion's Cunning in planning",
        {"lions_cunning": "stark", "one_time_used": {"lannister": ["lions_cunning"]}},
        "lions_cunning: Lion's Cunning acts in the action phase",
    ),
    (
        "Lion's Cunning never placed",
        {"phase": "action", "step": "march", "lions_cunning": "stark"},
        "lions_cunning: Lion's Cunning names a house once resolved",
    ),
    (
        "Lion's Cunning naming Lannister",
        {"phase": "action", "step": "march", "lions_cunning": "lannister"},
        "keeps another house from acting against Lannister",
    ),
    (
        "four siege engines",
        {"areas.winterfell.units": {"footman": 1, "siege_engine": 4}},
        "stark has 4 siege_engine units on the board (winterfell 4), its limit is 3",
    ),
    (
        "a face-up card of another deck",
        {
            "westeros_face_up": [
                ["supply", "supply", "clash_of_kings"],
                ["game_of_thrones"] * 3,
                ["wildlings_attack"] * 3,
            ]
        },
        "westeros_face_up[0][2]: 'clash_of_kings' is not a card of Westeros deck I",
    ),
    (
        "more copies than the deck holds",
        {"westeros_face_up": [["supply"] * 3, ["game_of_thrones"] * 3, ["storm_of_swords"] * 3]},
        "westeros_face_up[2][2]: deck III holds 2 storm_of_swords",
    ),
    (
        "two face-up cards",
        {"westeros_face_up": [["supply"] * 2, ["game_of_thrones"] * 3, ["wildlings_attack"] * 3]},
        "westeros_face_up[0]: must list the deck's 3 face-up cards",
    ),
    (
        "a hand of two with three-card combat",
        {"hands.stark": ["eddard_stark", "robb_stark"]},
        "hands.stark: with three-card combat a hand never holds fewer than 3 cards",
    ),
]


@pytest.mark.parametrize(("what", "change", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_module_values_are_one_clear_line(
    what: str, change: dict[str, Any], message: str
) -> None:
    start = _module_start(round=2)
    spec = changed(start, change)
    if "hands.stark" in change:  # (the rest of the deck discarded)
        deck = start["hands"]["stark"]
        spec["discards"]["stark"] = [c for c in deck if c not in change["hands.stark"]]
    with pytest.raises(PositionError) as exc:
        load_position(spec)
    assert message in str(exc.value)
    assert "\n" not in str(exc.value)


@pytest.mark.parametrize(
    ("module", "change", "message"),
    [
        (
            "fortifications",
            {"areas.winterfell.fortification": True},
            "fortifications come with the A Clash of Kings module (variants.fortifications)",
        ),
        (
            "one_time_orders",
            {"one_time_used": {"stark": ["muster"]}},
            "one-time orders come with the A Clash of Kings module (variants.one_time_orders)",
        ),
        (
            "ports",
            {"areas.port_of_winterfell": {"house": "stark", "units": {"ship": 1}}},
            "areas.port_of_winterfell: the 1st edition's ports come with the A Clash of Kings",
        ),
        (
            "siege_engines",
            {"areas.winterfell.units": {"footman": 1, "siege_engine": 1}},
            "the 1st edition's siege engines come with the A Clash of Kings module",
        ),
        (
            "westeros_lookahead",
            {
                "westeros_face_up": [
                    ["supply"] * 3,
                    ["game_of_thrones"] * 3,
                    ["storm_of_swords"] * 2,
                ]
            },
            "face-up Westeros cards come with the A Clash of Kings module",
        ),
    ],
)
def test_module_state_without_its_module_is_refused(
    module: str, change: dict[str, Any], message: str
) -> None:
    spec = changed(_module_start(round=2), change)
    del spec["variants"][module]
    with pytest.raises(PositionError, match=re.escape(message)):
        load_position(spec)
    two = dump_position(starting_position("2e", 6))
    two["variants"][module] = True
    with pytest.raises(PositionError, match=re.escape(f"variants.{module}: a 1st-edition module")):
        load_position(two)


def test_battle_specs_carry_the_modules_and_the_round() -> None:
    """A battle drawn from a 1st-edition position with the modules: the defender's own
    fortification, siege engines, three-card combat and Rains of Autumn go into the spec (and
    change the odds as the calculator computes them); the wildling threat always does."""
    spec = _module_start(round=3, phase="action", step="march", restriction="footmen_no_support")
    spec["wildling_threat"] = 6
    spec["areas"]["the_twins"] = {"house": "stark", "units": {"footman": 1}, "fortification": True}
    spec["areas"]["seagard"] = {
        "house": "lannister",
        "units": {"footman": 1, "knight": 1, "siege_engine": 1},
        "order": "march+0",
    }
    del spec["areas"]["lannisport"]  # (Lannister's starting army moved to Seagard)
    p = load_position(spec)
    battle = battle_from_position(p, "the_twins", attacker="lannister", from_area="seagard")
    assert battle["fortification"] is True
    assert battle["siege_engines"] is True and battle["three_card_combat"] is True
    assert battle["rains_of_autumn"] is True and battle["wildling_threat"] == 6
    assert battle["attacker"]["units"] == {"footman": 1, "knight": 1, "siege_engine": 1}
    # the fortification: +1 to its builder, the attacking knight counts 1, the siege engine 4
    without = {k: v for k, v in battle.items() if k != "fortification"}
    chances = [combat_odds(b, model="uniform").p_attacker_wins for b in (battle, without)]
    assert chances[0] > chances[1]  # (no castle at The Twins: the engine needs the token)
    no_siege = copy.deepcopy(battle)
    no_siege["attacker"]["units"] = {"footman": 1, "knight": 1}
    no_siege_without = {k: v for k, v in no_siege.items() if k != "fortification"}
    chances = [
        combat_odds(b, model="uniform").p_attacker_wins for b in (no_siege, no_siege_without)
    ]
    assert chances[0] < chances[1]
    del spec["areas"]["the_twins"]["fortification"]
    p = load_position(spec)
    battle = battle_from_position(p, "the_twins", attacker="lannister", from_area="seagard")
    assert "fortification" not in battle


def test_battle_specs_of_mother_of_dragons_carry_the_dragons_strength() -> None:
    """At 8 players a dragon's strength goes by the round and the tokens moved early (0 in
    round 1, 2 in round 4, 3 with one token moved, never above 5), and a battle spec drawn from
    a position says it; other games' specs do not."""
    start = dump_position(starting_position("2e", 8, expansion="mod"))
    for round_, boost, strength in ((1, 0, 0), (4, 0, 2), (4, 1, 3), (10, 2, 5)):
        spec = copy.deepcopy(start)
        spec.update(round=round_, phase="action", step="march", dragon_boost=boost)
        spec["westeros_deck_iv"] = list(deck_iv_cards())[: round_ - 1]
        spec["iron_bank"] = {"slots": [None, None, None], "loans": {}}
        p = load_position(spec)
        assert dragon_strength(p) == strength, (round_, boost)
        # a Baratheon footman next to Norvos attacks the dragon standing there
        board = p.board
        norvos = board.index("norvos")
        near = next(
            board.area_ids[j]
            for j in np.flatnonzero(board.adjacency[norvos])
            if board.kind[j] == AreaKind.LAND and board.area_ids[j] not in p.occupants
        )
        spec["areas"][near] = {"house": "baratheon", "units": {"footman": 1}, "order": "march+0"}
        p = load_position(spec)
        battle = battle_from_position(p, "norvos", attacker="baratheon", from_area=near)
        assert battle["dragon_strength"] == strength
        assert battle["defender"]["units"] == {"dragon": 1}
    six = load_position(dump_position(starting_position("2e", 6)))
    assert dragon_strength(six) == 0


def test_lions_cunning_reads_back_once_resolved() -> None:
    """A position in the march step after Lion's Cunning resolved names its house, and a record
    made from it keeps that house from marching on Lannister."""
    spec = _module_start(round=2, phase="action", step="march")
    spec["one_time_used"] = {"lannister": ["lions_cunning"]}
    spec["lions_cunning"] = "stark"
    p = load_position(spec)
    assert p.lions_cunning == House.STARK
    g = record_from_position(p, seed=1)
    assert int(g[0].lions_cunning) == House.STARK
    assert int(g[0].one_time_used[House.LANNISTER]) == 1 << 6
    back = position_from_record(g, position_rules(p))
    assert back.westeros_face_up is not None  # (the seed's cards, now fixed)
    assert dataclasses.replace(back, westeros_face_up=None) == p


def test_the_picture_draws_fortifications_one_time_orders_and_ports() -> None:
    """A position with the modules is drawn with its fortifications and one-time orders (each
    with its legend entry) and, with the ports module, the 1st edition's ports."""
    spec = _module_start()
    spec["areas"]["winterfell"].update(fortification=True, one_time_order="young_wolf")
    spec["one_time_used"] = {"stark": ["young_wolf"]}
    spec["areas"]["port_of_winterfell"] = {"house": "stark", "units": {"ship": 1}}
    fig = draw_position(load_position(spec))
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "fortification (builder's edge)" in legend and "one-time order" in legend
    assert "port" in legend
    assert "young wolf" in [t.get_text() for t in fig.axes[0].texts]
    plain = draw_position(starting_position("1e", 5))
    legend = [t.get_text() for t in plain.legends[0].get_texts()]
    assert not {"fortification (builder's edge)", "one-time order", "port"} & set(legend)


def test_the_example_position_plays_on() -> None:
    """``examples/positions/clash_of_kings_round6.json`` (every module) loads, round trips
    through a record, keeps every invariant where it starts and plays on to a finished game."""
    path = Path(__file__).resolve().parents[1] / "examples" / "positions"
    p = load_position(path / "clash_of_kings_round6.json")
    assert p.fortifications and p.one_time_orders and p.westeros_face_up is not None
    games = record_from_position(p, seed=4)
    t = position_rules(p)[0]
    assert violations(games[0], t) == []
    back = position_from_record(games, position_rules(p))
    assert dataclasses.replace(back, name=p.name, description=p.description) == p
    assert play_random_one(games[0], t, 1_000_000) > 0
    assert games[0].done and violations(games[0], t) == []


def test_siege_engines_never_sail_and_dragons_fly() -> None:
    """Battles drawn from positions reach as the engine marches: a 1st-edition siege engine
    never takes ship transport (K5), while a footman beside it may; a Mother of Dragons army of
    dragons alone flies to any land area (M11), and one with a footman does not."""
    start = _module_start()
    board = load_position(start).board
    taken = set(start["areas"])
    land, sea = AreaKind.LAND, AreaKind.SEA
    a, s, t = next(
        (a, s, t)
        for a in range(board.n_areas)
        for s in np.flatnonzero(board.adjacency[a])
        for t in np.flatnonzero(board.adjacency[s])
        if board.kind[a] == land
        and board.kind[s] == sea
        and board.kind[t] == land
        and t != a
        and not board.adjacency[a, t]
        and not {board.area_ids[x] for x in (a, s, t)} & taken
    )
    start["areas"][board.area_ids[a]] = {
        "house": "stark",
        "units": {"footman": 1, "siege_engine": 1},
    }
    start["areas"][board.area_ids[s]] = {"house": "stark", "units": {"ship": 1}}
    p = load_position(start)
    assert _can_reach(p, House.STARK, a, int(t), False, [Unit.FOOTMAN])
    assert not _can_reach(p, House.STARK, a, int(t), False, [Unit.FOOTMAN, Unit.SIEGE_ENGINE])
    assert not _can_reach(p, House.STARK, a, int(t), False, [Unit.SIEGE_ENGINE])

    spec = dump_position(starting_position("2e", 8, expansion="mod"))
    spec.update(round=3, phase="action", step="march", westeros_deck_iv=list(deck_iv_cards()[:2]))
    spec["iron_bank"] = {"slots": [None, None, None], "loans": {}}
    spec["areas"]["the_rhoyne"]["order"] = "march+0"
    spec["areas"]["pentos"]["order"] = "march-1"
    p = load_position(spec)
    battle = battle_from_position(p, "dragonstone", attacker="targaryen", from_area="the_rhoyne")
    assert battle["attacker"]["units"] == {"dragon": 2} and battle["dragon_strength"] == 1
    with pytest.raises(PositionError, match="cannot reach dragonstone"):
        battle_from_position(p, "dragonstone", attacker="targaryen", from_area="pentos")
