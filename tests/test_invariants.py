"""The invariant checker the engine's fuzz tests stand on (``gotsim.engine.invariants``): a
starting record breaks none, and each way of breaking one is named, in a line that says where."""

from __future__ import annotations

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


SEA_TOKEN = int(np.flatnonzero(ORDER_SEA_ONLY)[0])  # (Mother of Dragons' sea order tokens)
TOO_MANY_KNIGHTS = int(T.unit_limits[STARK, KNIGHT]) + 1
Edit = tuple[str, tuple[int, ...], int]  # a field, where in it (() for a whole value), what

# (what is broken, the edits that break a starting record so, the start of the line naming it)
CASES: list[tuple[str, list[Edit], str]] = [
    (
        "units without an owner",
        [("units", (CASTLE_BLACK, FOOTMAN), 1)],
        f"area {CASTLE_BLACK}: owner -1 but 1 units",
    ),
    (
        "more routed than standing",
        [("routed", (WINTERFELL, KNIGHT), 2)],
        f"area {WINTERFELL}: units [1, 1, 0, 0, 0] routed [0, 2, 0, 0, 0]",
    ),
    ("a ship on land", [("units", (WINTERFELL, SHIP), 1)], f"area {WINTERFELL}: ships on land"),
    (
        "a footman at sea",
        [("units", (SHIVERING_SEA, FOOTMAN), 1)],
        f"area {SHIVERING_SEA}: land units at sea or in a port",
    ),
    (
        "four ships in a port",
        [("owner", (PORT,), BARATHEON), ("units", (PORT, SHIP), 4)],
        f"area {PORT}: 4 ships in a port",
    ),
    (
        "an order without units",
        [("order", (CASTLE_BLACK,), Order.RAID)],
        f"area {CASTLE_BLACK}: an order without units",
    ),
    (
        "units beside a neutral force",
        [("owner", (KINGS_LANDING,), STARK), ("units", (KINGS_LANDING, FOOTMAN), 1)],
        f"area {KINGS_LANDING}: units beside a neutral force",
    ),
    (
        "a garrison nobody holds",
        [("garrison", (CASTLE_BLACK,), 2)],
        f"area {CASTLE_BLACK}: a garrison that defends no house",
    ),
    (
        "a power token at sea",
        [("power_token", (SHIVERING_SEA,), STARK)],
        f"area {SHIVERING_SEA}: a power token off land",
    ),
    (
        "ships in another house's port",
        [("owner", (PORT,), STARK), ("units", (PORT, SHIP), 1)],
        f"area {PORT}: ships in a port whose land area {DRAGONSTONE} is not theirs",
    ),
    ("a house missing on a track", [("track", (1, 0), -1)], "track 1:"),
    (
        "power beyond the tokens",
        [("power", (STARK,), 21)],
        f"house {STARK}: power 21 + 0 tokens on the board",
    ),
    (
        "more knights than the box holds",
        [("units", (WINTERFELL, KNIGHT), TOO_MANY_KNIGHTS)],
        f"house {STARK}: {TOO_MANY_KNIGHTS} units of type {KNIGHT}",
    ),
    (
        "an order not counted",
        [("order", (WINTERFELL,), Order.MARCH_ZERO)],
        f"house {STARK}: orders [0, 1,",
    ),
    (
        "a sea order token on land",
        [("order", (WINTERFELL,), SEA_TOKEN), ("orders_used", (STARK, SEA_TOKEN), 1)],
        f"house {STARK}: a sea order token in area {WINTERFELL}, not a sea",
    ),
    (
        "a card in hand and discarded",
        [("discard", (STARK,), 1)],
        f"house {STARK}: a card both in hand and discarded",
    ),
    ("supply off the track", [("supply", (STARK,), 7)], f"house {STARK}: supply 7"),
    ("a wildling threat off the track", [("threat", (), 3)], "wildling threat 3"),
]


def test_a_starting_record_breaks_nothing() -> None:
    assert violations(start(), T) == []


@pytest.mark.parametrize(("edits", "line"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_broken_invariant_is_named(edits: list[Edit], line: str) -> None:
    g = start()
    for field, where, value in edits:
        if where:
            g[field][where] = value
        else:
            g[field] = value
    found = violations(g, T)
    assert any(v.startswith(line) for v in found), found
