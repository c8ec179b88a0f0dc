"""The invariant checker the engine's fuzz tests stand on (``gotsim.engine.invariants``): a
starting record breaks none, and each way of breaking one is named, in a line that says where."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from gotsim.engine.init import new_games
from gotsim.engine.invariants import violations
from gotsim.engine.state import ORDER_SEA_ONLY, Order
from gotsim.engine.tables import rules_table
from gotsim.rules.board import load_board
from gotsim.rules.ids import FOOTMAN, KNIGHT, SHIP, House

BOARD = load_board("2e")
T = rules_table("2e", 6)[0]
WINTERFELL = BOARD.index("winterfell")  # Stark: a footman, a knight, a garrison
SHIVERING_SEA = BOARD.index("the_shivering_sea")  # a Stark ship
DRAGONSTONE = BOARD.index("dragonstone")  # Baratheon's
PORT = BOARD.index("port_of_dragonstone")
KINGS_LANDING = BOARD.index("kings_landing")  # a neutral force (5)
CASTLE_BLACK = BOARD.index("castle_black")  # nobody's
STARK, BARATHEON = int(House.STARK), int(House.BARATHEON)


def start() -> np.record:
    return new_games([np.random.SeedSequence(1)])[0]


def _ships_in_port(g: np.record, house: int, ships: int) -> None:
    g.owner[PORT] = house
    g.units[PORT, SHIP] = ships


def _stark_orders(g: np.record) -> None:
    g.order[WINTERFELL] = Order.MARCH_ZERO  # placed, but not counted as used


def _sea_token_on_land(g: np.record) -> None:
    kind = int(np.flatnonzero(ORDER_SEA_ONLY)[0])  # (Mother of Dragons' sea order tokens)
    g.order[WINTERFELL] = kind
    g.orders_used[STARK, kind] = 1


def _too_many_knights(g: np.record) -> None:
    g.units[WINTERFELL, KNIGHT] = T.unit_limits[STARK, KNIGHT] + 1


CASES: list[tuple[str, Callable[[np.record], None], str]] = [
    (
        "units without an owner",
        lambda g: g.units[CASTLE_BLACK].__setitem__(FOOTMAN, 1),
        f"area {CASTLE_BLACK}: owner -1 but 1 units",
    ),
    (
        "more routed than standing",
        lambda g: g.routed[WINTERFELL].__setitem__(KNIGHT, 2),
        f"area {WINTERFELL}: units [1, 1, 0, 0, 0] routed [0, 2, 0, 0, 0]",
    ),
    (
        "a ship on land",
        lambda g: g.units[WINTERFELL].__setitem__(SHIP, 1),
        f"area {WINTERFELL}: ships on land",
    ),
    (
        "a footman at sea",
        lambda g: g.units[SHIVERING_SEA].__setitem__(FOOTMAN, 1),
        f"area {SHIVERING_SEA}: land units at sea or in a port",
    ),
    ("four ships in a port", lambda g: _ships_in_port(g, BARATHEON, 4), f"area {PORT}: 4 ships"),
    (
        "an order without units",
        lambda g: g.order.__setitem__(CASTLE_BLACK, Order.RAID),
        f"area {CASTLE_BLACK}: an order without units",
    ),
    (
        "units beside a neutral force",
        lambda g: (
            g.owner.__setitem__(KINGS_LANDING, STARK),
            g.units[KINGS_LANDING].__setitem__(0, 1),
        ),
        f"area {KINGS_LANDING}: units beside a neutral force",
    ),
    (
        "a garrison nobody holds",
        lambda g: g.garrison.__setitem__(CASTLE_BLACK, 2),
        f"area {CASTLE_BLACK}: a garrison that defends no house",
    ),
    (
        "a power token at sea",
        lambda g: g.power_token.__setitem__(SHIVERING_SEA, STARK),
        f"area {SHIVERING_SEA}: a power token off land",
    ),
    (
        "ships in another house's port",
        lambda g: _ships_in_port(g, STARK, 1),
        f"area {PORT}: ships in a port whose land area {DRAGONSTONE} is not theirs",
    ),
    ("a house missing on a track", lambda g: g.track[1].__setitem__(0, -1), "track 1:"),
    (
        "power beyond the tokens",
        lambda g: g.power.__setitem__(STARK, 21),
        f"house {STARK}: power 21 + 0 tokens on the board",
    ),
    (
        "more knights than the box holds",
        _too_many_knights,
        f"house {STARK}: {T.unit_limits[STARK, KNIGHT] + 1} units of type {KNIGHT}",
    ),
    ("an order not counted", _stark_orders, f"house {STARK}: orders [0, 1,"),
    ("a sea order token on land", _sea_token_on_land, f"house {STARK}: a sea order token"),
    (
        "a card in hand and discarded",
        lambda g: g.discard.__setitem__(STARK, 1),
        f"house {STARK}: a card both in hand and discarded",
    ),
    ("supply off the track", lambda g: g.supply.__setitem__(STARK, 7), f"house {STARK}: supply 7"),
    ("a wildling threat off the track", lambda g: setattr(g, "threat", 3), "wildling threat 3"),
]


def test_a_starting_record_breaks_nothing() -> None:
    assert violations(start(), T) == []


@pytest.mark.parametrize(
    ("broken", "line"), [(c[1], c[2]) for c in CASES], ids=[c[0] for c in CASES]
)
def test_each_broken_invariant_is_named(broken: Callable[[np.record], None], line: str) -> None:
    g = start()
    broken(g)
    found = violations(g, T)
    assert any(v.startswith(line) for v in found), found
