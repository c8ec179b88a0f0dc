"""Mother of Dragons' Iron Bank (``iron_bank``; ``docs/rules.md`` IB1–IB10): the variant plays
in Mother of Dragons games (refused in one line elsewhere), the rule facts (slots, costs,
interest, who chooses the units an unpaid interest destroys) and the engine's casebook: slots
sliding, the Iron Bank order token, buying a loan, interest and the units debts destroy."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from enginecase import Case, house_of

from gotsim.cli import main
from gotsim.engine import iron_bank as ib_engine
from gotsim.engine.invariants import violations
from gotsim.engine.state import (
    ORDER_BONUS,
    ORDER_NAMES,
    ORDER_SEA_ONLY,
    ORDER_STAR,
    Decision,
    Order,
    Phase,
)
from gotsim.engine.tables import rules_table
from gotsim.rules import iron_bank as ib
from gotsim.rules.variants import VARIANTS, Rules, iron_bank_default

ROOT = Path(__file__).resolve().parents[1]


def test_ib1_the_variant_plays_in_mother_of_dragons_and_is_refused_elsewhere() -> None:
    """IB1: ``iron_bank`` is a variant of Mother of Dragons games; in any other game it is
    refused in one line as a Mother of Dragons option."""
    assert "iron_bank" in VARIANTS
    assert ib.IRON_BANK_PLAYABLE and ib.iron_bank_refusal("mod") is None
    assert Rules.of("2e", 7, {"iron_bank": True}, expansion="mod").on("iron_bank")
    for players, expansion in ((6, None), (4, "affc"), (6, "adwd")):
        with pytest.raises(ValueError, match="a Mother of Dragons option"):
            Rules.of("2e", players, {"iron_bank": True}, expansion=expansion)


def test_ib1_default_off_at_seven_players_on_at_eight() -> None:
    """IB1: S&R leaves the Iron Bank off at 7 players and locks it on at 8."""
    assert Rules.of("2e", 7, None, "mod").variants == frozenset({"sea_orders", "gift_power"})
    assert Rules.of("2e", 7, {"iron_bank": False}, "mod").variants == frozenset(
        {"sea_orders", "gift_power"}
    )
    assert not iron_bank_default("mod", 7)
    assert iron_bank_default("mod", 8)
    assert Rules.of("2e", 8, None, "mod").on("iron_bank")
    assert not iron_bank_default(None, 6)


def test_ib1_default_on_on_the_eight_house_board_with_vassals(tmp_path: Path) -> None:
    """IB1, V21: S&R's player count is 8 on the 8-house board, vassals included, so the Iron Bank
    is on there by default (Rules, the starting records, scenarios), off on the 7-house board."""
    from gotsim.engine.init import new_games
    from gotsim.study.scenario import load_scenario

    eight = {"vassals": True, "eight_houses": True}
    assert iron_bank_default("mod", 5, True)
    assert Rules.of("2e", 5, eight, "mod").on("iron_bank")
    assert not Rules.of("2e", 5, {**eight, "iron_bank": False}, "mod").on("iron_bank")
    assert not Rules.of("2e", 5, {"vassals": True}, "mod").on("iron_bank")
    seeds = [np.random.SeedSequence(11, spawn_key=(k,)) for k in range(2)]
    games = new_games(seeds, players=5, expansion="mod", vassals=True, eight_houses=True)
    assert (games.loan_deck_n > 0).all()
    assert (games.power[:, 7] == 7).all()  # a player's 7 tokens (IB1)
    seven = new_games(seeds[:1], players=5, expansion="mod", vassals=True)
    assert (seven.loan_deck_n == 0).all()
    path = tmp_path / "v8.toml"
    path.write_text(
        'name = "v8"\nseed = 1\nexpansion = "mod"\nplayers = 5\ngames = 10\n'
        "[variants]\nvassals = true\neight_houses = true\n"
    )
    (cell,) = load_scenario(path).cells
    assert "iron_bank" in cell.modules and "eight_houses" in cell.modules


def test_ib1_seven_power_tokens_and_the_loan_deck_at_the_start() -> None:
    """IB1, IB2: 7 power tokens in hand with the Iron Bank (5 without); the loan deck shuffled
    from the nature stream after every other deck, so the other decks are the same with or
    without it, and round 1 starts with its top card in the first slot."""
    from gotsim.engine.init import new_games

    seeds = [np.random.SeedSequence(11, spawn_key=(0,))]
    on = new_games(seeds, players=7, expansion="mod", iron_bank=True)[0]
    off = new_games(seeds, players=7, expansion="mod")[0]
    assert on.power[:7].tolist() == [7] * 7 and off.power[:7].tolist() == [5] * 7
    assert (on.westeros == off.westeros).all() and (on.wildlings == off.wildlings).all()
    assert on.loan_deck_n == 11 and on.loan_slot[1] == on.loan_slot[2] == ib.EMPTY
    assert sorted([*on.loan_deck[:11], on.loan_slot[0]]) == list(range(12))


def test_ib1_simulate_plays_it() -> None:
    import gotsim

    frame = gotsim.simulate(2, players=7, expansion="mod", variants={"iron_bank": True})
    assert len(frame) == 2


def test_ib1_the_command_refuses_it_outside_mother_of_dragons(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as info:
        main(["play", "--variant", "iron_bank"])
    assert info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "a Mother of Dragons option" in err[0]


def test_ib1_scenarios_take_it(tmp_path: Path) -> None:
    from gotsim.study import ScenarioError, load_scenario

    path = tmp_path / "bank.toml"
    on = "[variants]\niron_bank = true\n"
    path.write_text(f'name = "b"\nseed = 1\nexpansion = "mod"\ngames = 10\n{on}')
    (cell,) = load_scenario(path).cells
    assert cell.variants["iron_bank"]
    path.write_text(f'name = "b"\nseed = 1\ngames = 10\n{on}')
    with pytest.raises(ScenarioError, match="Mother of Dragons option"):
        load_scenario(path)
    path.write_text('name = "b"\nseed = 1\nexpansion = "mod"\ngames = 10\n')
    (cell,) = load_scenario(path).cells
    assert not cell.variants["iron_bank"]
    assert "iron_bank" not in load_scenario(path).results_key()["cells"][0]


def test_ib1_the_fuzz_refuses_it_outside_mother_of_dragons() -> None:
    """``fuzz_engine.py --iron-bank`` without ``--expansion mod``: the rules' line, status 2."""
    run = subprocess.run(
        [sys.executable, "benchmarks/fuzz_engine.py", "--iron-bank"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 2 and "a Mother of Dragons option" in run.stderr


def test_ib2_the_twelve_loan_cards_and_three_slots() -> None:
    """IB2: twelve loan cards, three slots costing 7, 4 and 1 power; 7 power tokens at start."""
    assert len(ib.LOAN_CARDS) == len(set(ib.LOAN_CARDS)) == 12
    assert set(ib.LOAN_EFFECTS) == set(ib.LOAN_CARDS)
    assert "the_faceless_men" in ib.LOAN_CARDS and "customs_officer" in ib.LOAN_CARDS
    assert ib.SLOT_COSTS == (7, 4, 1) and ib.N_SLOTS == 3
    assert ib.STARTING_POWER_TOKENS == 7


def test_ib2_the_deck_is_shuffled_from_the_games_stream() -> None:
    one = ib.new_loan_deck(np.random.default_rng(7))
    assert one == ib.new_loan_deck(np.random.default_rng(7))
    assert sorted(one) == list(range(12))


def test_ib2_slots_slide_and_the_pushed_card_goes_under_the_deck() -> None:
    """IB2: each round the top card enters the first slot; a card bought leaves its slot empty;
    the card pushed out of the third slot goes under the deck, so no card is lost."""
    deck = ib.new_loan_deck(np.random.default_rng(3))
    slots: tuple[int, ...] = (ib.EMPTY,) * 3
    deck, slots = ib.slide_slots(deck, slots)  # round 1: one card, costing 7
    assert slots[0] == ib.new_loan_deck(np.random.default_rng(3))[0]
    assert slots[1:] == (ib.EMPTY, ib.EMPTY)
    for _ in range(30):
        deck, slots = ib.slide_slots(deck, slots)
        held = [card for card in slots if card != ib.EMPTY]
        assert sorted((*deck, *held)) == list(range(12))
    bought = (slots[0], ib.EMPTY, slots[2])  # the middle loan bought
    deck2, slots2 = ib.slide_slots(deck, bought)
    assert slots2[1:] == (slots[0], ib.EMPTY) and deck2[-1] == slots[2]


def test_ib3_braavos_pays_one_less_in_every_slot() -> None:
    assert ib.loan_costs(False) == (7, 4, 1)
    assert ib.loan_costs(True) == (6, 3, 0)


def test_ib4_a_house_buys_only_what_it_can_pay() -> None:
    slots = (5, 8, ib.EMPTY)
    assert ib.purchasable(3, slots) == []
    assert ib.purchasable(4, slots) == [(1, 8, 4)]
    assert ib.purchasable(7, slots) == [(0, 5, 7), (1, 8, 4)]
    assert ib.purchasable(6, slots, controls_braavos=True) == [(0, 5, 6), (1, 8, 3)]


def test_ib6_interest_one_power_per_loan_the_rest_unpaid() -> None:
    assert ib.interest(2, 9) == (2, 0)
    assert ib.interest(3, 1) == (1, 2)
    assert ib.interest(1, 0) == (0, 1)


def test_ib7_the_best_placed_other_house_on_fiefdoms_chooses() -> None:
    fiefdoms = (4, 2, 0, 6, 1, 3, 5)
    assert ib.interest_chooser(fiefdoms, 0) == 4
    assert ib.interest_chooser(fiefdoms, 4) == 2


def test_ib8_each_loan_cards_terms_match_its_printed_effect() -> None:
    """IB8: the numbers the engine is to resolve each card by say what its text says."""
    assert set(ib.LOAN_TERMS) == set(ib.LOAN_CARDS)
    words = {1: "one", 2: "two", 3: "three"}
    for card, terms in ib.LOAN_TERMS.items():
        text = ib.LOAN_EFFECTS[card].lower()
        if "power" in terms:
            assert f"take {terms['power']} power tokens" in text, card
        units = terms.get("units", ())
        assert isinstance(units, tuple)
        for unit in set(units):
            count = units.count(unit)
            name = unit.replace("_", " ") + ("s" if count > 1 else "")
            assert f"{words[count]} {name}" in text, (card, name)
        if "supply_improvements" in terms:
            assert "supply improvement" in text, card
    assert ib.LOAN_TERMS["the_faceless_men"]["destroy"] == ("knight", "footman")


def test_every_ib_decision_names_tests_that_exist() -> None:
    """Each IB row of ``docs/rules.md`` names tests of this file (or of the loan cards'
    ``test_iron_bank_loans.py``, ``test_iron_bank_improvements.py``, IB9's casebook, or
    ``test_iron_bank_positions.py``, IB10's), or says it is not built."""
    import re

    defined = set(globals())
    for other in ("test_iron_bank_improvements.py", "test_iron_bank_positions.py"):
        text = (Path(__file__).parent / other).read_text("utf-8")
        defined |= set(re.findall(r"^def (test_\w+)", text, re.M))

    rows = [
        line
        for line in (ROOT / "docs" / "rules.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("| IB")
    ]
    assert [row.split("|")[1].strip() for row in rows] == [f"IB{i}" for i in range(1, 11)]
    loans = (ROOT / "tests" / "test_iron_bank_loans.py").read_text(encoding="utf-8")
    for row in rows:
        names = re.findall(r"`(test_\w+)`", row.split("|")[-2])
        assert names or "not built" in row.split("|")[-2], row[:6]
        for name in names:  # (the loan cards' casebook has its own file)
            assert name in defined or f"def {name}(" in loans, name


# --- the engine's casebook (gotsim.engine.iron_bank) ---------------------------------------------


def bank(players: int = 7, *, iron_bank: bool = True) -> Case:
    """An empty Mother of Dragons board with the Iron Bank (or, ``iron_bank=False``, without)."""
    return Case(players, expansion="mod", variants={"iron_bank": iron_bank})


def slots(c: Case, *cards: int) -> Case:
    """Put ``cards`` in the three slots (``ib.EMPTY`` for none); the rest make up the deck."""
    c.g.loan_slot[:] = cards
    rest = [card for card in range(12) if card not in cards]
    c.g.loan_deck[:] = -1
    c.g.loan_deck[: len(rest)] = rest
    c.g.loan_deck_n = len(rest)
    c.g.loans_held[:] = 0
    return c


def hold(c: Case, house: str, *cards: int) -> Case:
    """``house`` holds ``cards`` (taken from the deck)."""
    deck = [int(x) for x in c.g.loan_deck[: c.g.loan_deck_n] if x not in cards]
    c.g.loan_deck[:] = -1
    c.g.loan_deck[: len(deck)] = deck
    c.g.loan_deck_n = len(deck)
    for card in cards:
        c.g.loans_held[house_of(house)] |= 1 << card
    return c


def test_ib2_engine_slots_slide_at_the_start_of_each_round() -> None:
    """IB2 in play: at the end of round 1's cleanup the deck's top card enters the first slot,
    the others slide and the card pushed out of the third goes under the deck."""
    c = slots(bank(), 3, ib.EMPTY, 7).phase("cleanup", 1)
    c.place("winterfell stark F")
    deck = tuple(int(x) for x in c.g.loan_deck[: c.g.loan_deck_n])
    c.advance()
    assert int(c.g.phase) == Phase.WESTEROS and c.g.game_round == 2
    want_deck, want_slots = ib.slide_slots(deck, (3, ib.EMPTY, 7))
    assert tuple(int(x) for x in c.g.loan_slot) == want_slots == (deck[0], 3, ib.EMPTY)
    assert tuple(int(x) for x in c.g.loan_deck[: c.g.loan_deck_n]) == want_deck
    assert want_deck[-1] == 7
    assert violations(c.g, c.t) == []


def test_ib5_the_iron_bank_token_only_in_seas_and_only_with_the_bank() -> None:
    assert int(Order.SEA_IRON_BANK) == 13 and ORDER_NAMES[13] == "sea_iron_bank"
    assert ORDER_SEA_ONLY[13] == 1 and ORDER_STAR[13] == 0 and ORDER_BONUS[13] == 0
    for iron_bank in (True, False):
        c = bank(iron_bank=iron_bank)
        c.place("""
            the_shivering_sea  stark S
            winterfell         stark F
        """)
        c.phase("planning", 1).settle()  # (no gift of power tokens)
        seen = set()
        while c.pending == "stark PLACE_ORDER":
            here = c.board.area_ids[int(c.g.ctx[0])]
            options = c.options()
            seen.add(here)
            if here == "winterfell" or not iron_bank:
                assert "sea_iron_bank" not in options
                c.step("stark PLACE_ORDER defense+1")
            else:
                assert "sea_iron_bank" in options
                c.step("stark PLACE_ORDER sea_iron_bank")
                assert c.orders_used("stark", "sea_iron_bank") == 1
            c.advance()
        assert seen == {"the_shivering_sea", "winterfell"}


def test_ib5_a_raid_removes_the_token_and_gains_no_power() -> None:
    c = bank().phase("raids")
    c.place("""
        the_narrow_sea     greyjoy S raid
        the_bite           stark S sea_iron_bank
    """)
    power = c.power_of("greyjoy"), c.power_of("stark")
    c.play("greyjoy RAID_FROM the_narrow_sea")
    c.expect("greyjoy RAID_TARGET")
    assert "the_bite" in c.options()
    c.play("greyjoy RAID_TARGET the_bite")
    assert c.order_at("the_bite") is None and c.orders_used("stark", "sea_iron_bank") == 0
    assert (c.power_of("greyjoy"), c.power_of("stark")) == power


def test_ib4_buying_a_loan_pays_its_slot_and_records_it() -> None:
    """IB4: the Iron Bank order resolves with the consolidate power orders in turn order; the
    house buys a slot it can pay for (4 power for the second), the card is held, its slot left
    empty, and the card resolves (here the Customs Officer: 10 power)."""
    c = slots(bank(), 3, 0, 8).phase("consolidate", 1).power(stark=5)
    c.place("the_shivering_sea  stark S sea_iron_bank")
    c.expect("stark BUY_LOAN")
    assert c.options() == {"1", "2", "none"}  # the first slot's 7 is more than it has
    c.play("stark BUY_LOAN 1")
    assert c.g.loans_held[house_of("stark")] == 1 << 0 and ib_engine.loans_count(c.g, 2) == 1
    assert tuple(int(x) for x in c.g.loan_slot) == (3, ib.EMPTY, 8)
    assert c.order_at("the_shivering_sea") is None
    assert c.power_of("stark") == 5 - 4 + 10  # the slot's cost paid, the loan's 10 taken
    assert int(c.g.phase) != Phase.CONSOLIDATE


def test_ib4_no_decision_when_nothing_is_affordable() -> None:
    c = slots(bank(), 3, 5, ib.EMPTY).phase("consolidate", 1).power(stark=3)
    c.place("the_shivering_sea  stark S sea_iron_bank")
    c.advance()
    assert c.pending is None and int(c.g.phase) != Phase.CONSOLIDATE
    assert c.order_at("the_shivering_sea") is None and c.power_of("stark") == 3
    assert not c.g.loans_held.any()


def test_ib4_the_house_may_buy_nothing() -> None:
    c = slots(bank(), 3, 5, 8).phase("consolidate", 1).power(stark=9)
    c.place("the_shivering_sea  stark S sea_iron_bank")
    c.play("stark BUY_LOAN none")
    assert c.power_of("stark") == 9 and not c.g.loans_held.any()
    assert tuple(int(x) for x in c.g.loan_slot) == (3, 5, 8)


def test_ib3_braavos_controller_pays_one_less_in_play() -> None:
    """IB3 on the 8-player board: a house holding Braavos buys the second slot for 3."""
    c = slots(bank(8), 3, 0, 8).phase("consolidate", 1).power(stark=3).neutral("braavos", 0)
    c.place("""
        the_shivering_sea  stark S sea_iron_bank
        braavos            stark F
    """)
    c.expect("stark BUY_LOAN")
    assert c.options() == {"1", "2", "none"}
    c.play("stark BUY_LOAN 1")
    assert c.power_of("stark") == 3 - 3 + 10
    c = slots(bank(8), 3, 5, 8).phase("consolidate", 1).power(stark=3)
    c.place("the_shivering_sea  stark S sea_iron_bank")
    c.expect("stark BUY_LOAN")
    assert c.options() == {"2", "none"}  # without Braavos the second slot costs 4


def westeros_round_2(c: Case) -> Case:
    return c.phase("westeros", 2)


def test_ib6_interest_is_paid_at_the_start_of_the_westeros_phase() -> None:
    """IB6: 1 power per loan to the pool, before the Westeros cards are drawn."""
    c = hold(slots(bank(), ib.EMPTY, ib.EMPTY, ib.EMPTY), "stark", 0, 4)
    c.place("winterfell stark F")
    c.power(stark=5, lannister=4)
    hold(c, "lannister", 6)
    westeros_round_2(c)
    c.g.debt_pos = 0
    assert not ib_engine.interest_step(c.g, c.t)
    assert (c.power_of("stark"), c.power_of("lannister")) == (3, 3)
    assert c.count("stark", "F") == 1
    assert c.g.debt_pos == c.t.players + 1


def test_ib7_unpaid_interest_destroys_units_chosen_by_the_best_placed_other_on_fiefdoms() -> None:
    """IB7: Stark owes 2 loans with 1 power: 1 paid, one unit destroyed, chosen by the
    best-placed house on the Fiefdoms track other than Stark (Greyjoy, second after Stark),
    before any Westeros card is drawn."""
    c = hold(slots(bank(), ib.EMPTY, ib.EMPTY, ib.EMPTY), "stark", 2, 9)
    c.place("""
        winterfell    stark F K
        white_harbor  stark F
    """)
    c.power(stark=1)
    c.track("fiefdoms", "stark greyjoy lannister baratheon tyrell martell arryn")
    westeros_round_2(c)
    c.expect("greyjoy PAY_DEBT")
    assert c.power_of("stark") == 0
    assert (c.g.westeros_next == 0).all()  # no card drawn yet
    assert c.options() == {str(c.board.index(a)) for a in ("winterfell", "white_harbor")}
    c.step("greyjoy PAY_DEBT winterfell")
    c.expect("greyjoy PAY_DEBT")
    assert c.options() == {"0", "1"}  # a footman or the knight
    c.step("greyjoy PAY_DEBT 1")
    assert c.at("winterfell") == "stark F" and c.at("white_harbor") == "stark F"
    assert violations(c.g, c.t) == []


def test_ib7_no_decision_without_a_choice() -> None:
    """Stark owes 2 with no power and has two footmen in one area: both go, nobody asked."""
    c = hold(slots(bank(), ib.EMPTY, ib.EMPTY, ib.EMPTY), "stark", 2, 9)
    c.place("winterfell stark 3F")
    c.power(stark=0)
    westeros_round_2(c)
    c.g.debt_pos = 0
    assert not ib_engine.interest_step(c.g, c.t)
    assert c.at("winterfell") == "stark F" and c.power_of("stark") == 0


def test_ib7_the_castle_victory_is_checked_after_the_interest() -> None:
    """A house already holding the castles to win wins once the interest is paid, before any
    Westeros card is drawn (S&R ``PayDebtsGameState``: winning conditions after each debt)."""
    c = hold(slots(bank(), ib.EMPTY, ib.EMPTY, ib.EMPTY), "stark", 2, 9)  # two loans
    c.place("winterfell stark F\nwhite_harbor stark F")
    c.power(stark=0)
    forts = [a for a in range(int(c.t.n_areas)) if c.t.castle[a] or c.t.stronghold[a]]
    forts = [a for a in forts if c.g.owner[a] < 0 and c.g.garrison[a] == 0]
    for a in forts[: int(c.t.castles_to_win)]:
        c.place(f"{c.board.area_ids[a]} greyjoy F")
    westeros_round_2(c)
    c.advance(through=True)
    assert c.g.done and c.g.winner == house_of("greyjoy") and c.g.end_reason == 1
    assert (c.g.westeros_next == 0).all()
    assert c.count("stark", "F") == 0


def test_ib_invariants_count_every_loan_card_once() -> None:
    c = slots(bank(), 3, 5, 8)
    assert violations(c.g, c.t) == []
    c.g.loans_held[0] = 1 << 3  # a card both in a slot and held
    assert any("loan cards" in v for v in violations(c.g, c.t))


def test_ib_players_answer_the_bank_legally() -> None:
    """Random and heuristic players in 7-player games with the Iron Bank: every action legal,
    the invariants kept; loans are bought."""
    from gotsim.engine.game import Game
    from gotsim.players import HeuristicPolicy, RandomPolicy

    t = rules_table("2e", 7, {"iron_bank": True}, expansion="mod")[0]
    bought = 0
    for policy in (RandomPolicy(), HeuristicPolicy()):
        game = Game(players=7, seed=5, expansion="mod", variants={"iron_bank": True})
        while game.pending is not None and game.record.game_round <= 5:
            pending = game.pending
            action = policy(game, pending)
            assert action in pending.legal
            if pending.kind == Decision.BUY_LOAN and action != 80:
                bought += 1
            game.step(action)
            assert violations(game.record, t) == []
    assert bought > 0


def test_ib10_positions_of_an_iron_bank_game_are_written_and_read() -> None:
    """IB10: a position of an Iron Bank game is written from its record (the slots and the
    loans held) and read back; the Iron Bank at 7 players is a position's variant."""
    from gotsim.engine.convert import position_from_record, record_from_position
    from gotsim.engine.position import dump_position, load_position, starting_position

    spec = dump_position(starting_position("2e", 7, expansion="mod"))
    p = load_position({**spec, "variants": {**spec["variants"], "iron_bank": True}})
    assert p.iron_bank and p.loan_slots is None
    c = hold(slots(bank(), 3, ib.EMPTY, 7), "stark", 5)
    c.phase("planning", 3)
    back = position_from_record(c.g, c.rules)
    assert back.iron_bank
    assert back.loan_slots == (ib.LOAN_CARDS[3], None, ib.LOAN_CARDS[7])
    assert dict(back.loans) == {house_of("stark"): (ib.LOAN_CARDS[5],)}
    again = record_from_position(back)[0]
    assert again.loan_slot.tolist() == [3, -1, 7] and again.loans_held[house_of("stark")] == 32
    assert sorted(again.loan_deck[: again.loan_deck_n]) == [0, 1, 2, 4, 6, 8, 9, 10, 11]


def test_ib5_no_consolidate_power_does_not_forbid_the_iron_bank_token() -> None:
    """The token is a kind of its own (S&R ``IronBankOrderType``): a round without consolidate
    power orders (Westeros deck III) still offers it."""
    from gotsim.engine.state import Restriction

    c = bank()
    c.place("the_shivering_sea  stark S")
    c.phase("planning", 1)
    c.g.restrict = Restriction.NO_CONSOLIDATE
    c.settle()  # (no gift of power tokens)
    assert c.pending == "stark PLACE_ORDER"
    assert "sea_iron_bank" in c.options() and "consolidate_power" not in c.options()
