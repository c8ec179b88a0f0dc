"""Unit facts of an edition, read from its ``setup.json`` (``units``): each unit's combat
strength, a siege engine's strength when attacking a castle or stronghold, and (1st edition, A
Clash of Kings) an attacking knight's strength against a fortification. The engine's rules table,
the combat calculator and the players read them from here; no other module writes them down."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from gotsim.data import load_data
from gotsim.rules.ids import EDITIONS, Unit


class UnitDataError(ValueError):
    """An edition's unit facts are missing or not whole numbers."""


@dataclass(frozen=True)
class UnitFacts:
    """Combat strengths by ``Unit`` (footman, knight, ship, siege engine)."""

    strength: tuple[int, ...]
    siege_against_castle: int  # a siege engine attacking a castle or stronghold
    knight_against_fortification: int  # an attacking knight where a fortification stands

    def of(self, unit: Unit) -> int:
        return self.strength[unit]

    def army_strength(self, counts: Mapping[Unit, int]) -> int:
        """The strength of units fighting together (a 1st-edition neutral army, rules.md D8)."""
        return sum(self.strength[unit] * n for unit, n in counts.items())


def _whole(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise UnitDataError(f"{where}: a unit strength must be a whole number ≥ 0, got {value!r}")
    return value


@cache
def unit_facts(edition: str = "2e") -> UnitFacts:
    """The unit facts of ``edition`` (``"1e"`` or ``"2e"``).

    >>> facts = unit_facts("2e")
    >>> facts.of(Unit.KNIGHT), facts.of(Unit.SIEGE_ENGINE), facts.siege_against_castle
    (2, 0, 4)
    """
    if edition not in EDITIONS:
        raise UnitDataError(f"edition: unknown edition {edition!r}")
    units = load_data(edition, "setup.json")["units"]
    where = f"{edition}/setup.json units"
    strength = tuple(_whole(units[u.id]["strength"], f"{where}.{u.id}.strength") for u in Unit)
    siege = units[Unit.SIEGE_ENGINE.id]
    knight = units[Unit.KNIGHT.id]
    return UnitFacts(
        strength=strength,
        siege_against_castle=_whole(
            siege["strength_attacking_castle_or_stronghold"],
            f"{where}.siege_engine.strength_attacking_castle_or_stronghold",
        ),
        knight_against_fortification=_whole(
            knight.get("strength_attacking_fortification", strength[Unit.KNIGHT]),
            f"{where}.knight.strength_attacking_fortification",
        ),
    )


__all__ = ["UnitDataError", "UnitFacts", "unit_facts"]
