"""The calculator in a notebook: the form's values make the battle spec, the form prices what
it shows, and ``OddsResult`` shows itself as HTML (odds, strategies, heat map, breakdown)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gotsim.analysis.combat_form import battle_from_form, form_values
from gotsim.odds import combat_odds
from gotsim.odds.html import heat_colour

RIVERRUN = json.loads(
    (Path(__file__).resolve().parents[1] / "examples" / "battles" / "riverrun.json").read_text()
)


def test_the_form_values_give_back_the_battle() -> None:
    spec = battle_from_form(form_values(RIVERRUN), RIVERRUN)
    assert combat_odds(spec, model="equilibrium").p_attacker_wins == pytest.approx(
        combat_odds(RIVERRUN, model="equilibrium").p_attacker_wins
    )


def test_the_form_drops_what_no_longer_fits() -> None:
    values = form_values(RIVERRUN) | {"attacker": "tyrell", "supporter": None}
    values["attacker_hand"] = ("mace_tyrell", "queen_of_thorns")
    values["attacker_units"] = {"footman": 1, "knight": 0}
    spec = battle_from_form(values, RIVERRUN)
    assert "fiefdoms" not in spec  # the example's tracks have no Tyrell
    assert "support" not in spec and spec["attacker"]["units"] == {"footman": 1}
    assert "lannister" not in spec.get("discards", {})
    assert 0.0 <= combat_odds(spec).p_attacker_wins <= 1.0


def test_odds_show_themselves_as_html() -> None:
    result = combat_odds(RIVERRUN, model="equilibrium")
    page = result._repr_html_()
    assert "P(attacker wins) 64.5 %" in page
    assert "model equilibrium (exact)" in page
    assert "Tywin Lannister" in page and "Eddard Stark" in page  # card names, not ids
    matrix = page.split("class='matrix'")[1].split("</table>")[0]
    assert matrix.count("<tr><th class='card'>") == len(result.attacker_cards)  # one row each
    assert heat_colour(1.0) in page  # a certain win is drawn in blue
    assert "Expected units destroyed" in page
    assert not re.search(r"array\(|OddsResult\(", page)


def test_the_form_prices_its_battle_and_says_what_is_wrong() -> None:
    pytest.importorskip("ipywidgets")
    from gotsim.analysis.combat_form import CombatForm

    form = CombatForm(RIVERRUN, model="uniform")
    assert form.error is None
    first = form.result.p_attacker_wins
    form.fields["model"].value = "equilibrium"
    assert form.result.model == "equilibrium"
    form.units["attacker"]["knight"].value = 3
    assert form.result.p_attacker_wins > first
    form.fields["attacker"].value = "tyrell"  # the hand follows the house
    assert "mace_tyrell" in form.hands["attacker"].value
    for widget in form.units["attacker"].values():
        widget.value = 0
    assert form.result is None and "at least one unit" in str(form.error)
