"""The Iron Bank of Mother of Dragons as rule facts: the twelve loan cards, the three loan slots
and what each costs, how the slots slide each round, the interest and which house chooses the
units an unpaid interest destroys (``docs/rules.md`` IB1–IB9).

The engine plays the Iron Bank (``gotsim.engine.iron_bank``, ``IRON_BANK_PLAYABLE``); outside
Mother of Dragons the variant is refused with ``iron_bank_refusal``'s one line. The functions
here are the reference the engine's kernels follow.

>>> LOAN_CARDS[0], SLOT_COSTS, STARTING_POWER_TOKENS
('customs_officer', (7, 4, 1), 7)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from gotsim.data import load_data

_DATA = load_data("2e", "expansions.json")
_COMPONENT = _DATA["components"]["iron_bank"]

# the twelve loan cards by id, in the data's order (a card's index is its number in a deck)
LOAN_CARDS: tuple[str, ...] = tuple(card["id"] for card in _COMPONENT["loan_cards"])
# what each card does, as printed (``expansions.json`` ``components.iron_bank.loan_cards``)
LOAN_EFFECTS: dict[str, str] = {card["id"]: card["effect"] for card in _COMPONENT["loan_cards"]}
# What each card gives, in numbers, for the engine's resolution (IB8): power taken, units placed
# (the sellswords: in areas the house controls, each where its kind may stand, within the
# house's unit limits and supply; S&R ``ExecuteLoanGameState``, ``PlaceSellswordsGameState``),
# power and supply improvements put, castles upgraded and degraded, Westeros cards looked at,
# units destroyed, steps up the supply track. Every card's choices are policy decisions.
LOAN_TERMS: dict[str, dict[str, object]] = {
    "customs_officer": {"power": 10},
    "expert_artificer": {"power": 8, "power_improvements": 1},
    "full_host": {"units": ("footman", "knight", "siege_engine", "ship")},
    "loyal_maester": {"supply_improvements": 2},
    "master_at_arms": {"castle_upgrades": 2},
    "pyromancer": {"castle_degrades": 1, "power_or_supply_improvements": 1},
    "savvy_steward": {"supply_improvements": 1, "supply_steps": 1},
    "sea_raiders": {"units": ("footman", "ship", "ship", "ship")},
    "siege_engineers": {"units": ("footman", "siege_engine", "siege_engine")},
    "spymaster": {"westeros_cards_seen": 2},
    "the_faceless_men": {"destroy": ("knight", "footman")},
    "vanguard_cavalry": {"units": ("knight", "knight", "knight")},
}
# the power a loan costs in each of the three slots (the newest card is in the first)
SLOT_COSTS: tuple[int, ...] = tuple(int(c) for c in _COMPONENT["slot_costs_power"])
N_SLOTS: int = int(_COMPONENT["loan_slots"])
# power tokens in hand at the start of a Mother of Dragons game with the Iron Bank (5 without)
STARTING_POWER_TOKENS: int = int(
    _DATA["scenarios"]["mother_of_dragons"]["starting_power_tokens_available"]["with_iron_bank"]
)
# the area whose controller pays 1 less for every slot (on the 8-player board only)
BRAAVOS = "braavos"
# an empty loan slot
EMPTY = -1

# Whether the engine plays the Iron Bank. While it does not, ``Rules`` refuses the variant with
# ``iron_bank_refusal``'s line. (The loans resolve through ``gotsim.engine.loans``.)
IRON_BANK_PLAYABLE = True
# what the engine still lacks, named in the refusal while ``IRON_BANK_PLAYABLE`` is false
NOT_BUILT: tuple[str, ...] = ()


def iron_bank_refusal(expansion: str | None) -> str | None:
    """The one line that refuses ``iron_bank`` in a game of ``expansion``, or ``None`` where
    the game may play it.

    >>> iron_bank_refusal(None)
    'iron_bank (the Iron Bank) is a Mother of Dragons option (expansion mod)'
    >>> iron_bank_refusal("mod") is None
    True
    """
    if expansion != "mod":
        return "iron_bank (the Iron Bank) is a Mother of Dragons option (expansion mod)"
    if not IRON_BANK_PLAYABLE:
        return "the Iron Bank is not playable yet: the engine lacks " + ", ".join(NOT_BUILT)
    return None


def new_loan_deck(rng: np.random.Generator) -> tuple[int, ...]:
    """The loan deck shuffled by ``rng`` (the game's nature stream): card indices, top first.

    >>> sorted(new_loan_deck(np.random.default_rng(1))) == list(range(12))
    True
    """
    return tuple(int(card) for card in rng.permutation(len(LOAN_CARDS)))


def slide_slots(
    deck: Sequence[int], slots: Sequence[int]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The deck and slots after the start of a round (IB2): the top card enters the first slot,
    the others slide one slot along, and the card pushed out of the last slot goes under the
    deck. An empty deck adds nothing (the slots still slide, the first one left empty).

    >>> slide_slots((4, 5, 6), (1, 2, 3))
    ((5, 6, 3), (4, 1, 2))
    >>> slide_slots((), (EMPTY, 2, EMPTY))
    ((), (-1, -1, 2))
    """
    top = deck[0] if deck else EMPTY
    pushed = slots[-1]
    rest = tuple(deck[1:])
    if pushed != EMPTY:
        rest = (*rest, pushed)
    return rest, (top, *slots[:-1])


def loan_costs(controls_braavos: bool) -> tuple[int, ...]:
    """What each slot costs a house (IB3): ``SLOT_COSTS``, 1 less for Braavos' controller.

    >>> loan_costs(False), loan_costs(True)
    ((7, 4, 1), (6, 3, 0))
    """
    return tuple(cost - int(controls_braavos) for cost in SLOT_COSTS)


def purchasable(
    power: int, slots: Sequence[int], controls_braavos: bool = False
) -> list[tuple[int, int, int]]:
    """The loans a house with ``power`` tokens in hand may buy: ``(slot, card, cost)`` for each
    slot holding a card the house can pay for (IB4).

    >>> purchasable(4, (0, EMPTY, 7))
    [(2, 7, 1)]
    """
    costs = loan_costs(controls_braavos)
    return [
        (slot, card, costs[slot])
        for slot, card in enumerate(slots)
        if card != EMPTY and power >= costs[slot]
    ]


def interest(loans_held: int, power: int) -> tuple[int, int]:
    """``(paid, unpaid)`` interest of a house with ``loans_held`` loans and ``power`` tokens in
    hand at the start of a Westeros phase (IB6): 1 power per loan, as much as it has; each unpaid
    token destroys one of its units.

    >>> interest(3, 5), interest(3, 1), interest(0, 0)
    ((3, 0), (1, 2), (0, 0))
    """
    paid = min(loans_held, power)
    return paid, loans_held - paid


def interest_chooser(fiefdoms: Sequence[int], debtor: int) -> int:
    """The house that chooses which of ``debtor``'s units an unpaid interest destroys (IB7): the
    best-placed other house on the Fiefdoms track (``fiefdoms``: houses, first place first).

    >>> interest_chooser((3, 1, 0), 3), interest_chooser((3, 1, 0), 1)
    (1, 3)
    """
    return next(house for house in fiefdoms if house != debtor)


__all__ = [
    "BRAAVOS",
    "EMPTY",
    "IRON_BANK_PLAYABLE",
    "LOAN_CARDS",
    "LOAN_EFFECTS",
    "LOAN_TERMS",
    "NOT_BUILT",
    "N_SLOTS",
    "SLOT_COSTS",
    "STARTING_POWER_TOKENS",
    "interest",
    "interest_chooser",
    "iron_bank_refusal",
    "loan_costs",
    "new_loan_deck",
    "purchasable",
    "slide_slots",
]
