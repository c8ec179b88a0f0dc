"""``OddsResult`` as HTML for notebooks (``_repr_html_``): the odds, each side's card strategy,
the card-pair matrix as a heat map, the strength breakdown and the expected casualties."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from gotsim.rules.cards import house_card

if TYPE_CHECKING:
    from gotsim.odds.calculator import OddsResult

__all__ = ["card_label", "heat_colour", "odds_html"]

_STYLE = (
    "<style>.gotsim-odds table{border-collapse:collapse;margin:.3em 0 .8em}"
    ".gotsim-odds td,.gotsim-odds th{padding:.15em .5em;border:1px solid #ddd;text-align:right}"
    ".gotsim-odds th{background:#f4f1ea}.gotsim-odds .big{font-size:1.5em;font-weight:600}"
    ".gotsim-odds td.card,.gotsim-odds th.card{text-align:left}</style>"
)


def heat_colour(p: float) -> str:
    """A colour for a probability: red (0) through white (½) to blue (1), as in the figures.

    >>> heat_colour(0.0), heat_colour(0.5), heat_colour(1.0)
    ('#b2182b', '#f7f7f7', '#2166ac')
    """
    low, mid, high = (0xB2, 0x18, 0x2B), (0xF7, 0xF7, 0xF7), (0x21, 0x66, 0xAC)
    p = min(max(float(p), 0.0), 1.0)
    a, b, t = (low, mid, p * 2) if p < 0.5 else (mid, high, (p - 0.5) * 2)
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(a, b, strict=True))


def card_label(card_id: str, edition: str = "2e") -> str:
    """A house card's printed name (``tywin_lannister`` → ``Tywin Lannister``).

    >>> card_label("the_blackfish")
    'The Blackfish'
    """
    try:
        return house_card(edition, card_id).name
    except Exception:  # "(none)" or an id of another edition
        return card_id.replace("_", " ")


def _percent(p: float) -> str:
    return f"{100 * p:.1f} %"


def _strategy_table(who: str, strategy: dict[str, float], edition: str) -> str:
    rows = "".join(
        f"<tr><td class='card'>{html.escape(card_label(card, edition))}</td>"
        f"<td>{_percent(w)}</td></tr>"
        for card, w in sorted(strategy.items(), key=lambda kv: -kv[1])
        if w > 1e-9
    )
    return f"<table><tr><th class='card'>{who} plays</th><th>how often</th></tr>{rows}</table>"


def odds_html(result: OddsResult) -> str:
    """The whole result as one HTML fragment."""
    parts = [_STYLE, "<div class='gotsim-odds'>"]
    battle = result.battle
    edition = battle.edition if battle is not None else "2e"
    if battle is not None:
        attacker, defender = battle.houses
        against = defender.id.capitalize() if defender is not None else "a neutral force"
        tides = ", Tides of Battle" if battle.tides_of_battle else ""
        area = battle.area.replace("_", " ").title()
        parts.append(
            f"<p><b>{attacker.id.capitalize()}</b> attacks {html.escape(area)} held by "
            f"<b>{html.escape(against)}</b>{tides}</p>"
        )
    how = "exact" if result.exact else f"{result.n_samples:,} samples, ± {result.std_error:.4f}"
    parts.append(
        f"<p><span class='big'>P(attacker wins) {_percent(result.p_attacker_wins)}</span>"
        f" &nbsp; P(defender wins) {_percent(result.p_defender_wins)}"
        f" &nbsp; <i>model {html.escape(result.model)} ({how})</i>"
        + (
            f" &nbsp; game value {_percent(result.game_value)}"
            if result.game_value is not None
            else ""
        )
        + "</p>"
    )
    parts.append("<div style='display:flex;gap:1.5em;flex-wrap:wrap'>")
    parts.append(_strategy_table("attacker", result.attacker_strategy, edition))
    parts.append(_strategy_table("defender", result.defender_strategy, edition))
    parts.append("</div>")

    head = "".join(f"<th>{html.escape(card_label(c, edition))}</th>" for c in result.defender_cards)
    body = []
    for i, card in enumerate(result.attacker_cards):
        cells = "".join(
            f"<td style='background:{heat_colour(p)};color:"
            f"{'white' if abs(p - 0.5) > 0.3 else 'black'}'>{100 * p:.0f}</td>"
            for p in result.matrix[i]
        )
        label = html.escape(card_label(card, edition))
        body.append(f"<tr><th class='card'>{label}</th>{cells}</tr>")
    parts.append(
        "<p>P(attacker wins) in % for each pair of cards (rows: the attacker's card, columns: "
        "the defender's; red: the defender wins, blue: the attacker wins)</p>"
        f"<table class='matrix'><tr><th></th>{head}</tr>{''.join(body)}</table>"
    )
    breakdown = result.breakdown.loc[:, (result.breakdown != 0).any(axis=0)]
    parts.append("<p>Strength before cards (or with the fixed cards)</p>")
    parts.append(breakdown.to_html(border=0))
    rows = []
    for side in ("attacker", "defender"):
        lost = (result.casualties or {}).get(side, {}).get("expected_destroyed", {})
        shown = [f"{v:.2f} {u.replace('_', ' ')}" for u, v in lost.items() if v > 1e-9]
        rows.append(f"<tr><td class='card'>{side}</td><td>{', '.join(shown) or 'none'}</td></tr>")
    parts.append(f"<p>Expected units destroyed</p><table>{''.join(rows)}</table>")
    parts.append("</div>")
    return "".join(parts)
