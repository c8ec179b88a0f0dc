"""Bad battle specs: each gives one BattleSpecError line naming the field, and the CLI exits 2."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from gotsim.cli import main
from gotsim.odds import BattleSpecError, combat_odds, parse_battle

GOOD = {
    "area": "riverrun",
    "attacker": {
        "house": "lannister",
        "units": {"footman": 2, "knight": 1},
        "order": "march+1",
        "hand": ["tywin_lannister", "ser_gregor_clegane"],
    },
    "defender": {
        "house": "stark",
        "units": {"footman": 1, "knight": 1},
        "order": "defense+1",
        "hand": ["eddard_stark", "robb_stark"],
    },
    "support": [
        {"house": "greyjoy", "side": "attacker", "units": {"ship": 1}, "order": "support+1"}
    ],
    "fiefdoms": ["stark", "lannister"],
    "iron_throne": ["lannister", "stark"],
}


def mutate(change: Callable[[dict], object]) -> dict:
    spec = copy.deepcopy(GOOD)
    change(spec)
    return spec


BAD: list[tuple[str, Callable[[dict], object], str]] = [
    (
        "unknown top-level key",
        lambda s: s.update(tides_of_batle=True),
        "did you mean 'tides_of_battle'",
    ),
    ("unknown edition", lambda s: s.update(edition="3e"), "edition"),
    ("unknown area", lambda s: s.update(area="riverun"), "did you mean 'riverrun'"),
    ("missing area", lambda s: s.pop("area"), "area: required"),
    ("unknown attacker house", lambda s: s["attacker"].update(house="tully"), "attacker.house"),
    (
        "house fights itself",
        lambda s: s["defender"].update(house="lannister"),
        "cannot attack itself",
    ),
    (
        "unknown unit type",
        lambda s: s["attacker"]["units"].update(dragon=1),
        "attacker.units.dragon",
    ),
    (
        "negative units",
        lambda s: s["defender"]["units"].update(footman=-1),
        "defender.units.footman",
    ),
    (
        "fractional units",
        lambda s: s["attacker"]["units"].update(knight=1.5),
        "attacker.units.knight",
    ),
    ("ships on land", lambda s: s["attacker"]["units"].update(ship=1), "ships cannot fight"),
    ("land units at sea", lambda s: s.update(area="the_golden_sound"), "land units cannot fight"),
    ("attacker without units", lambda s: s["attacker"].update(units={}), "at least one unit"),
    (
        "attacker order not a march",
        lambda s: s["attacker"].update(order="defense+1"),
        "attacker.order",
    ),
    ("unknown defender order", lambda s: s["defender"].update(order="defense+3"), "defender.order"),
    (
        "card of another house",
        lambda s: s["attacker"]["hand"].append("eddard_stark"),
        "attacker.hand[2]",
    ),
    ("card twice in hand", lambda s: s["defender"]["hand"].append("robb_stark"), "listed twice"),
    ("card not in hand", lambda s: s["attacker"].update(card="the_hound"), "attacker.card"),
    ("empty hand", lambda s: s["defender"].update(hand=[]), "defender.hand"),
    (
        "card in hand and discards",
        lambda s: s.update(discards={"stark": ["robb_stark"]}),
        "discard pile",
    ),
    ("support for the enemy", lambda s: s["support"][0].update(house="stark"), "support[0].house"),
    ("support side unknown", lambda s: s["support"][0].update(side="both"), "support[0].side"),
    (
        "support order invalid",
        lambda s: s["support"][0].update(order="support+2"),
        "support[0].order",
    ),
    ("mixed supporting area", lambda s: s["support"][0]["units"].update(footman=1), "either ships"),
    (
        "track missing a combatant",
        lambda s: s.update(fiefdoms=["stark"]),
        "fiefdoms: must list lannister",
    ),
    (
        "track lists a house twice",
        lambda s: s.update(iron_throne=["stark", "stark", "lannister"]),
        "twice",
    ),
    ("garrison away from home", lambda s: s["defender"].update(garrison=2), "defender.garrison"),
    ("tides not a bool", lambda s: s.update(tides_of_battle="yes"), "tides_of_battle"),
    ("blade holder unknown", lambda s: s.update(blade_holder="dragons"), "blade_holder"),
    (
        "cards against a neutral force",
        lambda s: s.update(defender={"neutral_force": 5}),
        "neutral force",
    ),
    (
        "side not an object",
        lambda s: s.update(attacker=["lannister"]),
        "attacker: must be an object",
    ),
]


@pytest.mark.parametrize(("case", "change", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_spec_names_the_field(
    case: str, change: Callable[[dict], object], message: str
) -> None:
    """Each broken spec raises one BattleSpecError whose single line names what is wrong."""
    with pytest.raises(BattleSpecError) as info:
        parse_battle(mutate(change))
    text = str(info.value)
    assert message in text
    assert "\n" not in text


def test_the_good_spec_is_good() -> None:
    assert parse_battle(GOOD).houses[0].id == "lannister"


def test_unknown_model() -> None:
    with pytest.raises(BattleSpecError, match="model"):
        combat_odds(GOOD, model="nash")


def test_cli_bad_spec_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The CLI prints one error line naming the file and field, and exits with status 2."""
    path = tmp_path / "battle.json"
    path.write_text(json.dumps(mutate(lambda s: s["attacker"].update(house="tully"))))
    with pytest.raises(SystemExit) as info:
        main(["combat", str(path)])
    assert info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "attacker.house" in err[0] and str(path) in err[0]


def test_cli_broken_json_and_missing_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{ not json")
    for target in (str(path), str(tmp_path / "missing.json")):
        with pytest.raises(SystemExit) as info:
            main(["combat", target])
        assert info.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 2
    assert "not valid JSON" in lines[0] and "no such battle file" in lines[1]


def test_cli_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["combat", "x.json", "--model", "nash"], ["combat", "x.json", "--samples", "0"]):
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 2
