"""The game's fixed vocabularies as IntEnums: houses, unit types, area kinds, order types.

Integer values index the ``H`` (house) and ``U`` (unit type) axes of every table and state array;
``.id`` gives the snake_case id used in data files, scenario files and the public contract.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Self

from gotsim.data import EDITIONS  # the data layer owns the edition list


class _Named(IntEnum):
    @property
    def id(self) -> str:
        return self.name.lower()

    @classmethod
    def from_id(cls, text: str) -> Self:
        try:
            return cls[text.upper()]
        except KeyError:
            known = ", ".join(m.id for m in cls)
            raise ValueError(f"unknown {cls.__name__.lower()} {text!r} (known: {known})") from None


class House(_Named):
    BARATHEON = 0
    LANNISTER = 1
    STARK = 2
    GREYJOY = 3
    TYRELL = 4
    MARTELL = 5
    # not in play in any game gotsim plays yet: Arryn comes with the expansions A Feast for Crows
    # and Mother of Dragons, Targaryen with Mother of Dragons
    ARRYN = 6
    TARGARYEN = 7


class Unit(_Named):
    FOOTMAN = 0
    KNIGHT = 1
    SHIP = 2
    SIEGE_ENGINE = 3
    # Mother of Dragons: House Targaryen's dragons (strength by round, never mustered)
    DRAGON = 4


# the unit numbers as plain ints, for the compiled kernels (one definition: ``Unit``)
FOOTMAN, KNIGHT, SHIP, SIEGE, DRAGON = (
    int(Unit.FOOTMAN),
    int(Unit.KNIGHT),
    int(Unit.SHIP),
    int(Unit.SIEGE_ENGINE),
    int(Unit.DRAGON),
)


class AreaKind(_Named):
    LAND = 0
    SEA = 1
    PORT = 2


class OrderType(_Named):
    NONE = 0
    MARCH = 1
    DEFENSE = 2
    SUPPORT = 3
    RAID = 4
    CONSOLIDATE_POWER = 5
    IRON_BANK = 6  # Mother of Dragons' Iron Bank order token (resolved with consolidate power)


HOUSE_IDS: tuple[str, ...] = tuple(h.id for h in House)
# the six houses of the 2nd edition's base game (the 1st edition's five and Martell)
BASE_HOUSES: tuple[House, ...] = tuple(h for h in House if h <= House.MARTELL)
UNIT_IDS: tuple[str, ...] = tuple(u.id for u in Unit)

__all__ = [
    "BASE_HOUSES",
    "EDITIONS",
    "HOUSE_IDS",
    "UNIT_IDS",
    "AreaKind",
    "House",
    "OrderType",
    "Unit",
]
