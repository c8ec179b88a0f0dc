"""Positions of Mother of Dragons games with the Iron Bank (``docs/rules.md`` IB10,
``docs/positions.md``): the loan cards face up in the three slots and the loans each house holds,
written, read back, checked, carried to and from engine records (the loan deck's order hidden
like the Westeros decks', the other cards shuffled from the seed), resumed, and played from in a
study."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from positioncase import differ_when_played_out, phase_starts, resumed_copy

from gotsim.cli import main
from gotsim.engine.convert import (
    NotAtBoundaryError,
    boundary,
    position_from_record,
    position_rules,
    position_spec,
    record_from_position,
)
from gotsim.engine.init import new_games
from gotsim.engine.invariants import violations
from gotsim.engine.iron_bank import interest_step
from gotsim.engine.position import (
    PositionError,
    RoundPhase,
    dump_position,
    load_position,
    starting_position,
)
from gotsim.engine.state import Order, Phase
from gotsim.engine.tables import rules_table
from gotsim.rules.board import load_board
from gotsim.rules.ids import House
from gotsim.rules.iron_bank import LOAN_CARDS

BOARD7 = load_board("2e", board="mod7")
RULES7 = rules_table("2e", 7, {"iron_bank": True}, expansion="mod")


def bank7(**changes: Any) -> dict[str, Any]:
    """A hand-made round-5 planning position of a 7-player game with the Iron Bank: two slots
    filled, Stark holding one loan and Lannister two."""
    spec = dump_position(starting_position("2e", 7, expansion="mod", iron_bank=True))
    spec["round"] = 5
    spec["iron_bank"] = {
        "slots": ["customs_officer", None, "spymaster"],
        "loans": {"stark": ["pyromancer"], "lannister": ["loyal_maester", "full_host"]},
    }
    spec.update(changes)
    return spec


def card(name: str) -> int:
    return LOAN_CARDS.index(name)


# --- written and read back ---------------------------------------------------------------------


def test_ib10_a_mid_game_position_round_trips_its_slots_and_loans() -> None:
    """IB10: the slots (null an empty one) and the loans held read into the ``Position`` and
    write back in canonical order (houses in setup order, cards in ``LOAN_CARDS`` order)."""
    p = load_position(bank7())
    assert p.iron_bank and p.variants["iron_bank"]
    assert p.loan_slots == ("customs_officer", None, "spymaster")
    assert dict(p.loans) == {
        House.LANNISTER: ("full_host", "loyal_maester"),
        House.STARK: ("pyromancer",),
    }
    assert load_position(p.to_json()) == p
    written = json.loads(p.to_json())
    assert written["variants"]["iron_bank"] is True
    assert written["iron_bank"] == {
        "slots": ["customs_officer", None, "spymaster"],
        "loans": {"lannister": ["full_host", "loyal_maester"], "stark": ["pyromancer"]},
    }
    assert load_position(bank7(iron_bank={"slots": [None, None, None]})).loans == {}


def test_ib10_the_eight_player_game_has_the_iron_bank_unless_switched_off() -> None:
    """IB10 with IB1: an 8-player position plays the Iron Bank unless ``variants.iron_bank`` is
    false; a 7-player one does not unless it is true. Other games write nothing of it."""
    start8 = starting_position("2e", 8, expansion="mod")
    assert start8.iron_bank and start8.power[House.TARGARYEN] == 7
    assert start8.loan_slots is None and dump_position(start8)["iron_bank"] == {"loans": {}}
    spec = dump_position(start8)
    del spec["variants"]["iron_bank"]
    assert load_position(spec).iron_bank  # the default at 8 players
    off = starting_position("2e", 8, expansion="mod", iron_bank=False)
    assert not off.iron_bank and off.power[House.TARGARYEN] == 5
    assert "iron_bank" not in dump_position(off) and load_position(off.to_json()) == off
    seven = dump_position(starting_position("2e", 7, expansion="mod"))
    assert seven["variants"]["iron_bank"] is False and "iron_bank" not in seven
    assert "iron_bank" not in dump_position(starting_position("2e", 6))["variants"]


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(spec: dict[str, Any]) -> None:
        *where, key = path.split(".")
        target = spec
        for part in where:
            target = target.setdefault(part, {})
        target[key] = value

    return change


def _raid_step(spec: dict[str, Any]) -> None:
    spec["phase"], spec["step"] = "action", "raid"


BAD: list[tuple[Callable[[dict[str, Any]], None], str]] = [
    (
        _set("iron_bank.slots", ["customs_oficer", None, None]),
        "iron_bank.slots[0]: unknown loan card 'customs_oficer' (did you mean 'customs_officer'?)",
    ),
    (
        _set("iron_bank.loans.stark", ["customs_officer"]),
        "iron_bank.loans.stark[0]: customs_officer is listed twice (also iron_bank.slots[0])",
    ),
    (
        _set("iron_bank.loans.stark", ["savvy_steward", "savvy_steward"]),
        "iron_bank.loans.stark[1]: savvy_steward is listed twice (also iron_bank.loans.stark[0])",
    ),
    (_set("iron_bank.loans.stark", ["dragon"]), "iron_bank.loans.stark[0]: unknown loan card"),
    (_set("iron_bank.loans.stark", "pyromancer"), "iron_bank.loans.stark: must be a list"),
    (
        _set("iron_bank.slots", ["customs_officer", None, None, "spymaster"]),
        "iron_bank.slots: the Iron Bank has 3 loan slots, got 4",
    ),
    (_set("iron_bank.slots", "spymaster"), "iron_bank.slots: must be the list of the 3 slots"),
    (
        lambda s: s.update(round=2),
        "iron_bank.slots[2]: a loan card reaches slot 3 in round 3 at the earliest",
    ),
    (
        _set("iron_bank.loans.greyjoy", ["vanguard_cavalry", "sea_raiders"]),
        "iron_bank: 7 loan cards in the slots and held by round 5; one leaves the loan deck",
    ),
    (
        lambda s: s["iron_bank"].pop("slots"),
        "iron_bank.slots: required after round 1 or once a loan is held",
    ),
    (
        _set("iron_bank.loans.targaryen", ["sea_raiders"]),
        "iron_bank.loans.targaryen: targaryen is not in play with 7 players",
    ),
    (_set("iron_bank.slot", []), "iron_bank.slot: unknown field (did you mean 'slots'?)"),
    (
        lambda s: (_raid_step(s), _set("areas.winterfell.order", "sea_iron_bank")(s)),
        "areas.winterfell.order: sea_iron_bank is a sea order token (sea areas only)",
    ),
    (
        lambda s: (
            _raid_step(s),
            _set("areas.the_shivering_sea.order", "sea_iron_bank")(s),
            _set("areas.shipbreaker_bay.order", "sea_iron_bank")(s),
            _set("areas.shipbreaker_bay.house", "stark")(s),
        ),
        "areas.the_shivering_sea.order: stark has 2 'sea_iron_bank' orders",
    ),
]


@pytest.mark.parametrize(("change", "message"), BAD)
def test_ib10_bad_iron_bank_fields_are_one_clear_line(
    change: Callable[[dict[str, Any]], None], message: str
) -> None:
    spec = bank7()
    change(spec)
    with pytest.raises(PositionError) as caught:
        load_position(spec)
    text = str(caught.value)
    assert message in text and "\n" not in text, text


def _seven(**variants: bool) -> dict[str, Any]:
    spec = dump_position(starting_position("2e", 7, expansion="mod"))
    spec["variants"].update(variants)
    return spec


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            lambda: {**_seven(), "iron_bank": {"loans": {}}},
            "iron_bank: only a game with the Iron Bank (variants.iron_bank) has it",
        ),
        (
            lambda: {
                **dump_position(starting_position("2e", 8, expansion="mod", iron_bank=False)),
                "iron_bank": {"slots": [None, None, None]},
            },
            "iron_bank: only a game with the Iron Bank (variants.iron_bank) has it",
        ),
        (
            lambda: (
                _with(_with(_seven(), "phase", "action"), "step", "raid")
                | {"areas": {**_seven()["areas"], "the_shivering_sea": _order("sea_iron_bank")}}
            ),
            "areas.the_shivering_sea.order: sea_iron_bank is the Iron Bank's order token; this "
            "game plays without the Iron Bank (variants.iron_bank)",
        ),
        (
            lambda: _with(dump_position(starting_position("2e", 6)), "variants.iron_bank", True),
            "variants.iron_bank: a Mother of Dragons option (expansion mod)",
        ),
    ],
)
def test_ib10_games_without_the_iron_bank_refuse_its_fields(
    spec: Callable[[], dict[str, Any]], message: str
) -> None:
    with pytest.raises(PositionError) as caught:
        load_position(spec())
    assert str(caught.value) == message


def _with(spec: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    _set(path, value)(spec)
    return spec


def _order(name: str) -> dict[str, Any]:
    return {"house": "stark", "units": {"ship": 1}, "order": name}


def test_ib10_the_iron_bank_token_stands_in_a_sea() -> None:
    """IB10 with IB5: ``sea_iron_bank`` is read as an order of a game with the Iron Bank (in
    a sea area) and put in the record as ``Order.SEA_IRON_BANK``, counted as used."""
    spec = bank7(phase="action", step="consolidate_power")
    spec["areas"]["the_shivering_sea"] = _order("sea_iron_bank")
    p = load_position(spec)
    assert p.orders["the_shivering_sea"] == "sea_iron_bank"
    g = record_from_position(p)[0]
    sea = BOARD7.index("the_shivering_sea")
    assert g.order[sea] == Order.SEA_IRON_BANK
    assert g.orders_used[House.STARK, Order.SEA_IRON_BANK] == 1
    assert position_from_record(g, RULES7) == p


def test_ib10_the_command_line_refuses_a_bad_iron_bank_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bank7(iron_bank={"slots": ["spymastr", None, None]})))
    with pytest.raises(SystemExit) as caught:
        main(["board", "--position", str(path), "--out", str(tmp_path / "x.png")])
    assert caught.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        f"gotsim: error: {path}: iron_bank.slots[0]: unknown loan card 'spymastr' (did you mean "
        "'spymaster'?)"
    ]


# --- positions and engine records ---------------------------------------------------------------


def test_ib10_a_position_resumes_with_its_slots_loans_and_the_rest_in_the_deck() -> None:
    """IB10: the record holds the position's slots and loans; the other seven cards make up
    the loan deck in the order ``new_games`` shuffled them from the same seed (its first slot's
    card, then its deck), so the same seed gives the same deck; the record keeps every
    invariant and reads back as the position."""
    p = load_position(bank7())
    g = record_from_position(p, seed=4)[0]
    assert g.loan_slot.tolist() == [card("customs_officer"), -1, card("spymaster")]
    assert g.loans_held[House.STARK] == 1 << card("pyromancer")
    assert g.loans_held[House.LANNISTER] == (1 << card("full_host")) | (1 << card("loyal_maester"))
    assert int(g.loans_held.sum()) == int(g.loans_held[House.STARK] + g.loans_held[House.LANNISTER])
    out = {card(c) for c in ("customs_officer", "spymaster", "pyromancer", "full_host")}
    out.add(card("loyal_maester"))
    fresh = new_games(
        [np.random.SeedSequence(4, spawn_key=(0,))], players=7, expansion="mod", iron_bank=True
    )[0]
    shuffled = [int(fresh.loan_slot[0]), *fresh.loan_deck[: fresh.loan_deck_n].tolist()]
    assert g.loan_deck_n == 7
    assert g.loan_deck[:7].tolist() == [c for c in shuffled if c not in out]
    assert g.loan_deck[7:].tolist() == [-1] * 5
    assert record_from_position(p, seed=4).tobytes() == record_from_position(p, seed=4).tobytes()
    other = record_from_position(p, seed=5)[0]
    assert sorted(other.loan_deck[:7]) == sorted(g.loan_deck[:7])
    assert other.loan_deck[:7].tolist() != g.loan_deck[:7].tolist()
    assert violations(g, RULES7[0]) == []
    assert position_from_record(record_from_position(p, seed=9), RULES7) == p
    assert position_rules(p)[0].iron_bank == 1


def test_ib10_the_start_deals_the_first_slot_from_the_seed() -> None:
    """IB10 with IB2: the 8-player start leaves its slots unfixed, so the record made from it is
    byte for byte ``new_games``' (7 power tokens, the loan deck shuffled after every other deck,
    its top card in the first slot); read back, the record fixes the dealt card."""
    p = starting_position("2e", 8, expansion="mod")
    seed = np.random.SeedSequence(11, spawn_key=(3,))
    ours = record_from_position(p, seed)
    theirs = new_games([np.random.SeedSequence(11, spawn_key=(3,))], players=8, expansion="mod")
    assert ours.tobytes() == theirs.tobytes()
    back = position_from_record(ours, position_rules(p))
    assert back.loan_slots == (LOAN_CARDS[int(ours[0].loan_slot[0])], None, None)
    assert dataclasses.replace(back, loan_slots=None) == p


def test_ib10_the_interest_is_charged_from_a_westeros_position_only() -> None:
    """IB10 with IB6: the interest is paid at the start of the Westeros phase, so a Westeros
    position's record has it still to pay (``debt_pos`` 0) and pays it: Stark 1 power, Lannister
    2. After the Westeros phase the record has it paid (``debt_pos`` players + 1), as the engine
    leaves it; round 1 has none yet."""
    t = RULES7[0]
    g = record_from_position(bank7(phase="westeros"))[0]
    assert (g.debt_pos, g.debt_left) == (0, 0)
    assert interest_step(g, t) is False
    assert (g.power[House.STARK], g.power[House.LANNISTER], g.power[House.TYRELL]) == (6, 5, 7)
    assert g.debt_pos == 8
    assert record_from_position(bank7())[0].debt_pos == 8
    start = load_position(_seven(iron_bank=True))
    assert record_from_position(start)[0].debt_pos == 0


def test_ib10_a_record_in_the_middle_of_the_interest_is_no_boundary() -> None:
    """A Westeros record whose interest has begun (a debt's unit just chosen, nothing pending)
    stands in the middle of the phase: no position describes it."""
    t = RULES7[0]
    g = record_from_position(bank7(phase="westeros"))[0]
    assert boundary(g, t) == (RoundPhase.WESTEROS, None)
    g.debt_pos = 3
    with pytest.raises(NotAtBoundaryError, match="middle of the westeros phase"):
        boundary(g, t)


def test_ib10_a_vassal_holding_loans_is_refused() -> None:
    """A record whose vassal holds a loan (the engine never lets one buy) is refused in one
    line rather than written as a player's loans."""
    rules = rules_table("2e", 5, {"vassals": True, "iron_bank": True}, expansion="mod")
    games = new_games(
        [np.random.SeedSequence(2, spawn_key=(0,))],
        players=5,
        expansion="mod",
        vassals=True,
        iron_bank=True,
    )
    vassal = next(h for h in House if rules[0].vassal[h])
    games[0].loans_held[vassal] = 1 << card("pyromancer")
    refusal = f"iron_bank.loans.{vassal.id}: a vassal holds no loans"
    with pytest.raises(PositionError, match=refusal):
        position_spec(games, rules)


def boundaries7(seed: int) -> Iterator[np.recarray]:
    """A random 7-player game with the Iron Bank, a copy of the record at each phase start
    (``phase_starts``)."""
    games = new_games(
        [np.random.SeedSequence(seed, spawn_key=(0,))], players=7, expansion="mod", iron_bank=True
    )
    return phase_starts(games, RULES7[0])


@pytest.mark.parametrize("seed", [1, 3])
def test_ib10_records_round_trip_at_every_phase_boundary(seed: int) -> None:
    """At each phase start of a random 7-player game with the Iron Bank: the record's position
    reads back its slots and loans held; position → record → position is the identity; and the
    game resumed from the position (the loan deck's order and the other hidden decks copied
    over) plays out exactly like the original, every invariant kept."""
    t = RULES7[0]
    seen_loans = seen_slots = 0
    for games in boundaries7(seed):
        g = games[0]
        where = f"round {int(g.game_round)}, {Phase(int(g.phase)).name}"
        p = position_from_record(games, RULES7)
        assert p.loan_slots == tuple(None if c < 0 else LOAN_CARDS[c] for c in g.loan_slot), where
        held = {h: int(g.loans_held[h]) for h in p.houses if g.loans_held[h]}
        assert {h: sum(1 << card(c) for c in cards) for h, cards in p.loans.items()} == held
        seen_loans += sum(len(cards) for cards in p.loans.values()) >= 2
        seen_slots += sum(c is not None for c in p.loan_slots) >= 2
        assert position_from_record(record_from_position(p, seed=5), RULES7) == p, where
        if g.done:
            continue
        again = resumed_copy(games, p)
        assert again[0].loan_deck_n == g.loan_deck_n, where
        differ = differ_when_played_out(games.copy(), again, t)
        assert differ == [], f"{where}: resumed game differs in {differ}"
        assert violations(again[0], t) == []
    assert seen_loans and seen_slots


# --- studies from a position --------------------------------------------------------------------


def test_ib10_a_study_from_an_iron_bank_position_plays_it(tmp_path: Path) -> None:
    """A scenario's ``start_position`` of an Iron Bank game plays with the Iron Bank, each game
    its own loan deck from its seed, as ``simulate_from_position``; a cell without it is
    refused."""
    from gotsim.play.simulate import simulate_from_position
    from gotsim.study import ScenarioError, load_scenario, run_study

    path = tmp_path / "bank.json"
    path.write_text(json.dumps(bank7()))
    spec = {"name": "bank", "seed": 3, "games": 6, "block_size": 4, "start_position": str(path)}
    (cell,) = load_scenario(spec).cells
    assert "iron_bank" in cell.modules and cell.players == 7
    result = run_study(spec, out=tmp_path / "out")
    expected = simulate_from_position(path, 6, 3)
    assert result.games["winner"].tolist() == expected["winner"].tolist()
    assert result.rounds["round"].min() == 5
    with pytest.raises(ScenarioError, match="start_position is of a game with the Iron Bank"):
        load_scenario({**spec, "variants": {"iron_bank": False}})
