"""A Clash of Kings one-time orders (1st-edition module ``one_time_orders``, ``docs/rules.md``
O1–O12): their names, whose each is and the step its corner icon resolves in. The engine keeps
the same facts as arrays (``engine.state.OneTimeOrder``, ``ONE_TIME_HOUSE``, ``ONE_TIME_TYPE``;
``engine.convert`` checks that both agree).

>>> ONE_TIME_OWNER["young_wolf"].id, ONE_TIME_ICON["forced_march"].id
('stark', 'march')
>>> [kind for kind in ONE_TIME_KINDS if ONE_TIME_OWNER[kind] is None]
['muster', 'supply_train', 'forced_march']
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from gotsim.rules.ids import House, OrderType

# in the engine's order (``engine.state.OneTimeOrder``): the three every house has, then the
# houses' own
ONE_TIME_KINDS: tuple[str, ...] = (
    "muster",
    "supply_train",
    "forced_march",
    "iron_fleet",
    "young_wolf",
    "power_of_highgarden",
    "lions_cunning",
    "soul_of_rhllor",
)
ONE_TIME_OWNER: Mapping[str, House | None] = MappingProxyType(
    {
        "muster": None,
        "supply_train": None,
        "forced_march": None,
        "iron_fleet": House.GREYJOY,
        "young_wolf": House.STARK,
        "power_of_highgarden": House.TYRELL,
        "lions_cunning": House.LANNISTER,
        "soul_of_rhllor": House.BARATHEON,
    }
)
ONE_TIME_ICON: Mapping[str, OrderType] = MappingProxyType(
    {
        "muster": OrderType.CONSOLIDATE_POWER,
        "supply_train": OrderType.CONSOLIDATE_POWER,
        "forced_march": OrderType.MARCH,
        "iron_fleet": OrderType.RAID,
        "young_wolf": OrderType.RAID,
        "power_of_highgarden": OrderType.CONSOLIDATE_POWER,
        "lions_cunning": OrderType.RAID,
        "soul_of_rhllor": OrderType.RAID,
    }
)


def kinds_of(house: House) -> tuple[str, ...]:
    """The one-time orders ``house`` has: the three common ones and its own (none for a house
    the module gives none, as Martell in gotsim).

    >>> kinds_of(House.LANNISTER)
    ('muster', 'supply_train', 'forced_march', 'lions_cunning')
    """
    return tuple(k for k in ONE_TIME_KINDS if ONE_TIME_OWNER[k] in (None, house))


__all__ = ["ONE_TIME_ICON", "ONE_TIME_KINDS", "ONE_TIME_OWNER", "kinds_of"]
