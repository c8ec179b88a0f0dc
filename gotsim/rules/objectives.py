"""A Feast for Crows' objective cards as data: the 28 objectives (what a house must hold, and the
victory points each house scores for it) and the four houses' special objectives.

The facts are ``data/2e/expansions.json`` (``scenarios.a_feast_for_crows``: ``objectives``,
``special_objectives``); ``Objective`` numbers the cards in that order, the numbers the
compiled evaluator (``gotsim.engine.objectives``) uses. Houses are named by id, Arryn included.

>>> objectives()[Objective.ARBOR_GOLD].points["arryn"]
4
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from gotsim.data import load_data


class Objective(IntEnum):
    """The objective cards in data order (the numbers the engine stores)."""

    STOP_THE_STORM = 0
    CAVALRY_CHARGE = 1
    BACKDOOR_POLITICS = 2
    HOME_INVASION = 3
    LAND_GRAB = 4
    ARBOR_GOLD = 5
    EXTEND_YOUR_REACH = 6
    TAKE_THE_BLACK = 7
    THE_RAVEN = 8
    SUPPORT_THE_CROWN = 9
    THE_THRONE = 10
    THE_BLADE = 11
    HOLD_COURT = 12
    CROSSING_GUARD = 13
    NAVAL_SUPERIORITY = 14
    PULL_THE_WEEDS = 15
    AMPLE_HARVEST = 16
    MERCANTILE_VENTURES = 17
    A_FIRM_GRIP = 18
    A_STALWART_POSITION = 19
    SPREADING_THE_WEALTH = 20
    PROTECT_THE_NECK = 21
    NOTHING_BUT_GHOSTS = 22
    THE_FINAL_HOUR = 23
    THE_PEOPLES_CHOSEN = 24
    A_MOUNTAINOUS_TASK = 25
    A_RIPER_FRUIT = 26
    FRIENDLY_CONFINES = 27

    @property
    def id(self) -> str:
        return self.name.lower()


@dataclass(frozen=True)
class ObjectiveCard:
    """One objective card: its condition in words and the points per house id."""

    objective: Objective
    name: str
    condition: str
    points: Mapping[str, int]


@dataclass(frozen=True)
class SpecialObjective:
    """A house's own objective, scorable every round it holds."""

    house: str
    condition: str
    points: int


def _scenario() -> Mapping[str, Any]:
    return load_data("2e", "expansions.json")["scenarios"]["a_feast_for_crows"]


@lru_cache(maxsize=1)
def objectives() -> tuple[ObjectiveCard, ...]:
    """The 28 objective cards in ``Objective`` order (``ValueError`` if the data disagree)."""
    records = _scenario()["objectives"]
    if [r["id"] for r in records] != [o.id for o in Objective]:
        raise ValueError("expansions.json: the objective cards are not those of Objective")
    return tuple(
        ObjectiveCard(
            objective=Objective(i),
            name=r["name"],
            condition=r["condition"],
            points=MappingProxyType(dict(r["victory_points"])),
        )
        for i, r in enumerate(records)
    )


@lru_cache(maxsize=1)
def special_objectives() -> Mapping[str, SpecialObjective]:
    """Each A Feast for Crows house's special objective, by house id."""
    return MappingProxyType(
        {
            house: SpecialObjective(house, r["condition"], int(r["victory_points"]))
            for house, r in _scenario()["special_objectives"].items()
        }
    )


__all__ = ["Objective", "ObjectiveCard", "SpecialObjective", "objectives", "special_objectives"]
