"""Helpers of the combat casebooks (``test_combat_casebook*.py``): battle specs built from
small pieces, and readers of a result's breakdown, casualties and notes."""

from __future__ import annotations

from typing import Any


def side(
    house: str,
    units: dict[str, int],
    card: str | None = None,
    *,
    hand: list[str] | None = None,
    order: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """One combatant; the hand defaults to just the played card."""
    out: dict[str, Any] = {"house": house, "units": units}
    if card is not None:
        out["card"] = card
        out["hand"] = hand if hand is not None else [card]
    elif hand is not None:
        out["hand"] = hand
    if order is not None:
        out["order"] = order
    out.update(extra)
    return out


def support(house: str, to: str, units: dict[str, int], order: str = "support+0") -> dict[str, Any]:
    return {"house": house, "side": to, "units": units, "order": order}


def make_spec(
    area: str,
    attacker: dict[str, Any],
    defender: dict[str, Any],
    *,
    fiefdoms: list[str] | None,
    iron_throne: list[str] | None = None,
    supports: tuple[dict[str, Any], ...] = (),
    blade: bool = False,
    edition: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A battle spec; ``fiefdoms=None`` keeps the edition's default tracks. Unless ``blade``,
    nobody may spend the Valyrian Steel Blade (the result is then deterministic)."""
    spec: dict[str, Any] = {"edition": edition} if edition else {}
    spec |= {"area": area, "attacker": attacker, "defender": defender, "support": list(supports)}
    if fiefdoms is not None:
        spec["fiefdoms"] = fiefdoms
        spec["iron_throne"] = iron_throne if iron_throne is not None else list(fiefdoms)
    if not blade:
        spec["blade_used"] = True
    spec.update(extra)
    return spec


def parts(result, who: str) -> dict[str, int]:
    return {k: int(v) for k, v in result.breakdown.loc[who].items()}


def check(result, who: str, **expected: int) -> None:
    got = parts(result, who)
    assert {k: got[k] for k in expected} == expected, got


def destroyed(result, who: str) -> dict[str, float]:
    return {u: v for u, v in result.casualties[who]["expected_destroyed"].items() if v}


def routed(result, who: str) -> dict[str, float]:
    return {u: v for u, v in result.casualties[who]["expected_routed"].items() if v}


def all_notes(result) -> list[str]:
    return [n for notes in result.notes.values() for n in notes]
