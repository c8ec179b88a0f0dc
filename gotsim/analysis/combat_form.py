"""The combat calculator as a notebook form (ipywidgets): houses, area, units per side, orders,
a supporting house, hands, Tides of Battle, the blade holder and the card-choice model; the
odds (``OddsResult``, shown as HTML) follow every change.

``battle_from_form`` turns the form's values into a battle spec (``docs/combat.md``) and needs
no widgets; ``CombatForm`` builds the widgets around it.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from gotsim.odds import MODELS, BattleSpecError, combat_odds
from gotsim.odds.spec import ATTACK_ORDERS, DEFENDER_ORDERS, SUPPORT_ORDERS
from gotsim.rules.board import load_board
from gotsim.rules.cards import house_deck
from gotsim.rules.ids import BASE_HOUSES, House, Unit

__all__ = ["CombatForm", "battle_from_form", "form_values"]

UNITS = tuple(u.id for u in Unit)
HOUSES = tuple(h.id for h in BASE_HOUSES)


def form_values(spec: Mapping[str, Any]) -> dict[str, Any]:
    """The form's values for a battle spec (its first supporting house only)."""
    support = (spec.get("support") or [{}])[0]
    values: dict[str, Any] = {
        "area": spec["area"],
        "tides_of_battle": bool(spec.get("tides_of_battle", False)),
        "blade_holder": spec.get("blade_holder"),
        "supporter": support.get("house"),
        "support_side": support.get("side", "attacker"),
        "support_order": support.get("order", "support+0"),
        "support_units": dict(support.get("units", {})),
    }
    edition = spec.get("edition", "2e")
    card_set = _card_set(spec)
    for side, default_order in (("attacker", "march+0"), ("defender", "none")):
        house = spec[side]["house"]
        values[side] = house
        values[f"{side}_units"] = dict(spec[side].get("units", {}))
        values[f"{side}_order"] = spec[side].get("order", default_order)
        deck = [card.id for card in house_deck(edition, House.from_id(house), card_set)]
        values[f"{side}_hand"] = tuple(spec[side].get("hand", deck))
    return values


def _card_set(spec: Mapping[str, Any]) -> str:
    """The house-card set of a spec: the A Dance with Dragons decks with ``adwd_house_cards``."""
    return "adwd" if spec.get("adwd_house_cards") else "base"


def battle_from_form(values: Mapping[str, Any], base: Mapping[str, Any]) -> dict[str, Any]:
    """A battle spec from the form's ``values``, keeping ``base``'s other fields (edition,
    tracks, the A Dance with Dragons switch and the wildling threat; discards of the houses still
    fighting, less the cards now in hand)."""
    fighting = {values["attacker"], values["defender"], values.get("supporter")} - {None}
    spec: dict[str, Any] = {
        k: copy.deepcopy(v)
        for k, v in base.items()
        if k in ("edition", "adwd_house_cards", "wildling_threat")
        or (k in ("fiefdoms", "iron_throne") and fighting <= set(v))
    }  # a track without a house now fighting falls back to the starting order
    spec["area"] = values["area"]
    spec["tides_of_battle"] = bool(values["tides_of_battle"])
    hands = {}
    for side in ("attacker", "defender"):
        units = {u: int(n) for u, n in values[f"{side}_units"].items() if int(n) > 0}
        hands[side] = list(values[f"{side}_hand"])
        spec[side] = {
            "house": values[side],
            "units": units,
            "order": values[f"{side}_order"],
            "hand": hands[side],
        }
    discards = {
        house: [card for card in cards if card not in hands.get(_side_of(values, house), [])]
        for house, cards in (base.get("discards") or {}).items()
        if house in (values["attacker"], values["defender"])
    }
    if any(discards.values()):
        spec["discards"] = {house: cards for house, cards in discards.items() if cards}
    if values.get("blade_holder"):
        spec["blade_holder"] = values["blade_holder"]
    support_units = {u: int(n) for u, n in values["support_units"].items() if int(n) > 0}
    if values.get("supporter") and support_units:
        spec["support"] = [
            {
                "house": values["supporter"],
                "side": values["support_side"],
                "units": support_units,
                "order": values["support_order"],
            }
        ]
    return spec


def _side_of(values: Mapping[str, Any], house: str) -> str:
    return "attacker" if values["attacker"] == house else "defender"


class CombatForm:
    """The form over a battle ``spec`` (a dict as in ``docs/combat.md``): ``widget`` to display,
    ``result`` the odds of the current values (None while they describe no legal battle, then
    ``error`` says why). ``update()`` recomputes; every change of a field calls it."""

    def __init__(self, spec: Mapping[str, Any], *, model: str = "equilibrium") -> None:
        import ipywidgets as w

        self.base = dict(spec)
        self.edition = str(spec.get("edition", "2e"))
        self.result: Any = None
        self.error: str | None = None
        values = form_values(spec)
        board = load_board(self.edition)
        areas = [
            (name, ident) for ident, name in zip(board.area_ids, board.area_names, strict=True)
        ]
        houses = [(h.capitalize(), h) for h in HOUSES]
        maybe = [("nobody", None), *houses]
        self.fields: dict[str, Any] = {
            "area": w.Dropdown(options=areas, value=values["area"], description="area"),
            "model": w.Dropdown(options=list(MODELS), value=model, description="model"),
            "tides_of_battle": w.Checkbox(value=values["tides_of_battle"], description="Tides"),
            "blade_holder": w.Dropdown(
                options=maybe, value=values["blade_holder"], description="blade"
            ),
            "supporter": w.Dropdown(
                options=maybe, value=values["supporter"], description="support"
            ),
            "support_side": w.Dropdown(
                options=["attacker", "defender"], value=values["support_side"], description="for"
            ),
            "support_order": w.Dropdown(
                options=list(SUPPORT_ORDERS), value=values["support_order"], description="order"
            ),
        }
        self.units: dict[str, dict[str, Any]] = {}
        for group in ("attacker", "defender", "support"):
            counts = values[f"{group}_units"]
            self.units[group] = {
                u: w.BoundedIntText(
                    value=int(counts.get(u, 0)), min=0, max=10, description=u.replace("_", " ")
                )
                for u in UNITS
            }
        orders = {"attacker": list(ATTACK_ORDERS), "defender": list(DEFENDER_ORDERS)}
        self.hands: dict[str, Any] = {}
        columns = []
        for side in ("attacker", "defender"):
            self.fields[side] = w.Dropdown(options=houses, value=values[side], description=side)
            self.fields[f"{side}_order"] = w.Dropdown(
                options=orders[side], value=values[f"{side}_order"], description="order"
            )
            self.hands[side] = w.SelectMultiple(
                options=self._cards(values[side]),
                value=values[f"{side}_hand"],
                rows=7,
                description="hand",
            )
            columns.append(
                w.VBox(
                    [
                        self.fields[side],
                        self.fields[f"{side}_order"],
                        *self.units[side].values(),
                        self.hands[side],
                    ]
                )
            )
        support = w.VBox(
            [
                self.fields["supporter"],
                self.fields["support_side"],
                self.fields["support_order"],
                *self.units["support"].values(),
            ]
        )
        top = w.HBox([self.fields[k] for k in ("area", "model", "tides_of_battle", "blade_holder")])
        self.output = w.Output()
        self.widget = w.VBox([top, w.HBox([*columns, support]), self.output])
        for side in ("attacker", "defender"):
            self.fields[side].observe(self._house_changed(side), names="value")
        for widget in [
            *self.fields.values(),
            *self.hands.values(),
            *(u for group in self.units.values() for u in group.values()),
        ]:
            widget.observe(lambda _change: self.update(), names="value")
        self.update()

    def _cards(self, house: str) -> list[tuple[str, str]]:
        deck = house_deck(self.edition, House.from_id(house), _card_set(self.base))
        return [(c.name, c.id) for c in deck]

    def _house_changed(self, side: str) -> Any:
        def changed(change: Mapping[str, Any]) -> None:
            cards = self._cards(change["new"])
            self.hands[side].options = cards
            self.hands[side].value = tuple(ident for _, ident in cards)

        return changed

    def values(self) -> dict[str, Any]:
        """The form's current values (``battle_from_form``'s input)."""
        out = {k: f.value for k, f in self.fields.items() if k != "model"}
        for group, widgets in self.units.items():
            out[f"{group}_units"] = {u: widget.value for u, widget in widgets.items()}
        for side, hand in self.hands.items():
            out[f"{side}_hand"] = tuple(hand.value)
        return out

    def update(self) -> None:
        """Price the battle the form describes and show it (or what is wrong with it)."""
        from IPython.display import HTML, display

        try:
            spec = battle_from_form(self.values(), self.base)
            self.result, self.error = combat_odds(spec, model=self.fields["model"].value), None
        except BattleSpecError as exc:
            self.result, self.error = None, str(exc)
        self.output.clear_output(wait=True)
        with self.output:
            if self.result is not None:
                display(self.result)
            else:
                display(HTML(f"<p style='color:#a01818'>{self.error}</p>"))
