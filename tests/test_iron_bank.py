"""Mother of Dragons' Iron Bank (``iron_bank``; ``docs/rules.md`` IB1–IB9): the variant is
refused in one line until the engine plays every loan card, and the rule facts the engine is to
follow (slots, costs, interest, who chooses the units an unpaid interest destroys)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gotsim.cli import main
from gotsim.rules import iron_bank as ib
from gotsim.rules.variants import VARIANTS, Rules, iron_bank_default

ROOT = Path(__file__).resolve().parents[1]
NOT_PLAYABLE = "the Iron Bank is not playable yet: "


def test_ib1_the_variant_is_refused_in_one_line_until_playable() -> None:
    """IB1: ``iron_bank`` is a variant; with ``expansion="mod"`` it is refused as not
    playable yet, naming what the engine lacks; in any other game as a Mother of Dragons option."""
    assert "iron_bank" in VARIANTS
    assert not ib.IRON_BANK_PLAYABLE
    with pytest.raises(ValueError, match=f"^{NOT_PLAYABLE}.*the twelve loan cards"):
        Rules.of("2e", 7, {"iron_bank": True}, expansion="mod")
    for players, expansion in ((6, None), (4, "affc"), (6, "adwd")):
        with pytest.raises(ValueError, match="a Mother of Dragons option"):
            Rules.of("2e", players, {"iron_bank": True}, expansion=expansion)


def test_ib1_default_off_at_seven_players_games_unchanged() -> None:
    """IB1: S&R leaves the Iron Bank off at 7 players (on, locked, at 8 once the 8-player game
    and the Iron Bank are both playable): a 7-player game's rules are the sea orders alone."""
    assert Rules.of("2e", 7, None, "mod").variants == frozenset({"sea_orders"})
    assert Rules.of("2e", 7, {"iron_bank": False}, "mod").variants == frozenset({"sea_orders"})
    assert not iron_bank_default("mod", 7)
    assert not iron_bank_default("mod", 8)  # (not while the Iron Bank is unplayable)
    assert not iron_bank_default(None, 6)


def test_ib1_simulate_refuses_it() -> None:
    import gotsim

    with pytest.raises(ValueError, match=NOT_PLAYABLE):
        gotsim.simulate(2, players=7, expansion="mod", variants={"iron_bank": True})


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--expansion", "mod", "--variant", "iron_bank"], NOT_PLAYABLE),
        (["bench", "--expansion", "mod", "--variant", "iron_bank"], NOT_PLAYABLE),
        (["play", "--variant", "iron_bank"], "a Mother of Dragons option"),
    ],
)
def test_ib1_the_command_refuses_it(
    argv: list[str],
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_ib1_scenarios_refuse_it(tmp_path: Path) -> None:
    from gotsim.study import ScenarioError, load_scenario

    path = tmp_path / "bank.toml"
    on = "[variants]\niron_bank = true\n"
    path.write_text(f'name = "b"\nseed = 1\nexpansion = "mod"\ngames = 10\n{on}')
    with pytest.raises(ScenarioError, match=NOT_PLAYABLE):
        load_scenario(path)
    path.write_text(f'name = "b"\nseed = 1\ngames = 10\n{on}')
    with pytest.raises(ScenarioError, match="Mother of Dragons option"):
        load_scenario(path)
    path.write_text('name = "b"\nseed = 1\nexpansion = "mod"\ngames = 10\n')
    (cell,) = load_scenario(path).cells
    assert not cell.variants["iron_bank"]
    assert "iron_bank" not in load_scenario(path).results_key()["cells"][0]


def test_ib1_the_fuzz_refuses_it() -> None:
    """``fuzz_engine.py --expansion mod --iron-bank``: the rules' line, exit status 2."""
    run = subprocess.run(
        [sys.executable, "benchmarks/fuzz_engine.py", "--expansion", "mod", "--iron-bank"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 2 and NOT_PLAYABLE in run.stderr


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
    """Each IB row of ``docs/rules.md`` names tests of this file (or of
    ``test_iron_bank_improvements.py``, IB9's casebook), or says it is not built."""
    import re

    improvements = (Path(__file__).parent / "test_iron_bank_improvements.py").read_text("utf-8")
    defined = set(globals()) | set(re.findall(r"^def (test_\w+)", improvements, re.M))

    rows = [
        line
        for line in (ROOT / "docs" / "rules.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("| IB")
    ]
    assert [row.split("|")[1].strip() for row in rows] == [f"IB{i}" for i in range(1, 10)]
    for row in rows:
        names = re.findall(r"`(test_\w+)`", row.split("|")[-2])
        assert names or "not built" in row.split("|")[-2], row[:6]
        for name in names:
            assert name in defined, name
