"""Unit facts of an edition, read from its ``setup.json`` (``units``): each unit's combat
strength, a siege engine's strength when attacking a castle or stronghold, (1st edition, A
Clash of Kings) an attacking knight's strength against a fortification, what mustering each
unit costs (new, or upgraded from a footman) and how many ships a port holds. The engine's rules
table, the combat calculator and the players read them from here; no other module writes them
down.

The 1st edition does not state a siege engine's mustering cost (``muster_cost`` null): the 2nd
edition's is used (``docs/rules.md`` K6)."""

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
    """Combat strengths by ``Unit`` (footman, knight, ship, siege engine, dragon: 0 here, its
    strength goes by the round)."""

    strength: tuple[int, ...]
    siege_against_castle: int  # a siege engine attacking a castle or stronghold
    knight_against_fortification: int  # an attacking knight where a fortification stands
    muster_cost: tuple[int, ...]  # mustering points a new unit costs, by Unit
    upgrade_cost: tuple[int, ...]  # points to turn a footman into the unit (0: not possible)
    port_capacity: int  # ships a port holds at most

    def of(self, unit: Unit) -> int:
        return self.strength[unit]

    def army_strength(self, counts: Mapping[Unit, int]) -> int:
        """The strength of units fighting together (a 1st-edition neutral army, rules.md D8)."""
        return sum(self.strength[unit] * n for unit, n in counts.items())


def _whole(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise UnitDataError(f"{where}: a unit strength must be a whole number ≥ 0, got {value!r}")
    return value


# Mother of Dragons' dragons: no printed strength (it grows with the round, the rules table's
# ``dragon_strength``), never mustered nor upgraded to (``docs/rules.md`` M10)
_DRAGON = {Unit.DRAGON.id: {"strength": 0, "muster_cost": 0, "upgrade_from_footman_cost": 0}}


@cache
def unit_facts(edition: str = "2e") -> UnitFacts:
    """The unit facts of ``edition`` (``"1e"`` or ``"2e"``).

    >>> facts = unit_facts("2e")
    >>> facts.of(Unit.KNIGHT), facts.of(Unit.SIEGE_ENGINE), facts.siege_against_castle
    (2, 0, 4)
    """
    if edition not in EDITIONS:
        raise UnitDataError(f"edition: unknown edition {edition!r}")
    units = {**_DRAGON, **load_data(edition, "setup.json")["units"]}
    where = f"{edition}/setup.json units"
    strength = tuple(_whole(units[u.id]["strength"], f"{where}.{u.id}.strength") for u in Unit)
    siege = units[Unit.SIEGE_ENGINE.id]
    knight = units[Unit.KNIGHT.id]
    # for what the 1st edition leaves unstated
    second = {**_DRAGON, **load_data("2e", "setup.json")["units"]}

    def cost(unit: Unit, key: str) -> int:
        value = units[unit.id].get(key)
        if value is None:  # unstated: the 2nd edition's, or not possible (0) there either
            value = second[unit.id].get(key)
        return _whole(value or 0, f"{where}.{unit.id}.{key}")

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
        muster_cost=tuple(cost(u, "muster_cost") for u in Unit),
        upgrade_cost=tuple(cost(u, "upgrade_from_footman_cost") for u in Unit),
        port_capacity=_whole(units[Unit.SHIP.id]["port_capacity"], f"{where}.ship.port_capacity"),
    )


__all__ = ["UnitDataError", "UnitFacts", "unit_facts"]
