"""House cards as frozen records, per edition; numbers live in data, abilities in the engine.

``house_cards(edition)`` gives every card; ``house_card(edition, card_id)`` one card;
``house_deck(edition, house)`` a house's seven.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from gotsim.data import load_data
from gotsim.rules.ids import House


class CardDataError(ValueError):
    """A card file is malformed, or a card id is unknown."""


TIMINGS: tuple[str, ...] = (
    "cancel",
    "immediately",
    "strength",
    "after_winner",
    "casualties",
    "retreat",
    "post_combat",
)


@dataclass(frozen=True)
class HouseCard:
    id: str
    house: House
    name: str
    strength: int
    swords: int
    fortifications: int
    ability: str | None  # paraphrased card text
    effect: str | None  # snake_case tag of the ability, None for a plain card
    timing: str | None  # one of TIMINGS
    params: Mapping[str, Any]


def _card(house: House, record: Mapping[str, Any]) -> HouseCard:
    for key in ("strength", "swords", "fortifications"):
        value = record.get(key)
        if not isinstance(value, int) or not 0 <= value <= 9:
            raise CardDataError(f"card {record.get('id')!r}: {key} must be 0-9, got {value!r}")
    timing = record.get("timing")
    if timing is not None and timing not in TIMINGS:
        raise CardDataError(f"card {record['id']!r}: unknown timing {timing!r}")
    return HouseCard(
        id=record["id"],
        house=house,
        name=record["name"],
        strength=record["strength"],
        swords=record["swords"],
        fortifications=record["fortifications"],
        ability=record.get("ability"),
        effect=record.get("effect"),
        timing=timing,
        params=MappingProxyType(dict(record.get("params") or {})),
    )


@lru_cache(maxsize=4)
def house_cards(edition: str = "2e") -> tuple[HouseCard, ...]:
    """Every house card of the edition, house by house in ``House`` order."""
    data = load_data(edition, "house_cards.json")
    cards: list[HouseCard] = []
    for house_id, records in data["houses"].items():
        house = House.from_id(house_id)
        cards.extend(_card(house, r) for r in records)
    cards.sort(key=lambda c: c.house)
    ids = [c.id for c in cards]
    if len(set(ids)) != len(ids):
        raise CardDataError(f"{edition} house cards repeat an id")
    return tuple(cards)


@lru_cache(maxsize=4)
def _by_id(edition: str) -> Mapping[str, HouseCard]:
    return MappingProxyType({c.id: c for c in house_cards(edition)})


def house_card(edition: str, card_id: str) -> HouseCard:
    try:
        return _by_id(edition)[card_id]
    except KeyError:
        raise CardDataError(f"unknown {edition} house card {card_id!r}") from None


def house_deck(edition: str, house: House) -> tuple[HouseCard, ...]:
    return tuple(c for c in house_cards(edition) if c.house == house)
