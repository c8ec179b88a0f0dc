"""A readable text report of combat odds (the default ``gotsim combat`` output)."""

from __future__ import annotations

from gotsim.odds.calculator import OddsResult
from gotsim.rules.ids import Unit


def _pct(p: float) -> str:
    return f"{100.0 * p:6.2f} %"


def format_odds(result: OddsResult) -> str:
    """The odds, both strategies, the card matrix and the breakdown as aligned text."""
    battle = result.battle
    lines = []
    if battle is not None:
        att, dfn = battle.houses
        defender = dfn.id if dfn is not None else f"neutral force {battle.neutral_force}"
        tides = ", Tides of Battle" if battle.tides_of_battle else ""
        lines.append(f"{att.id} attacks {battle.area} held by {defender}{tides}")
    how = "exact" if result.exact else f"{result.n_samples:,} samples, s.e. {result.std_error:.4f}"
    lines.append(f"model {result.model} ({how})")
    lines.append(f"  P(attacker wins) {_pct(result.p_attacker_wins)}")
    lines.append(f"  P(defender wins) {_pct(result.p_defender_wins)}")
    if result.game_value is not None:
        lines.append(f"  game value       {_pct(result.game_value)}")
    for side, strategy in (
        ("attacker", result.attacker_strategy),
        ("defender", result.defender_strategy),
    ):
        played = {c: p for c, p in strategy.items() if p > 1e-9}
        text = ", ".join(f"{c} {100 * p:.1f}%" for c, p in played.items())
        lines.append(f"{side} plays: {text}")
    frame = result.matrix_frame()
    if frame.size > 1:
        lines.append("\nP(attacker wins) by card pair (rows attacker, columns defender):")
        lines.append((frame * 100).round(1).to_string())
    lines.append("\nstrength before house cards:" if result.model != "fixed" else "\nstrength:")
    lines.append(result.breakdown.to_string())
    lines.append("\nexpected casualties (destroyed / routed):")
    for side in ("attacker", "defender"):
        c = result.casualties[side]
        parts = [
            f"{u.id} {c['expected_destroyed'][u.id]:.2f}/{c['expected_routed'][u.id]:.2f}"
            for u in Unit
            if c["expected_destroyed"].get(u.id) or c["expected_routed"].get(u.id)
        ]
        lines.append(f"  {side}: {', '.join(parts) if parts else 'none'}")
    if any(result.power.values()):
        power = ", ".join(f"{k} {v:+.2f}" for k, v in result.power.items())
        lines.append(f"expected power from cards: {power}")
    if any(result.blade.values()):
        lines.append(
            f"Valyrian Steel Blade: +1 in {_pct(result.blade['plus_one'])}, "
            f"redraw in {_pct(result.blade['redraw'])} of battles"
        )
    return "\n".join(lines)
