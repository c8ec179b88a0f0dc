"""Sets of areas (``engine.area_bits``) hold every area slot: Mother of Dragons' 75-area board
numbers areas past 63, which a single 64-bit word cannot hold. The transport walk and the
heuristic's march list are checked on that board's Essos, whose seas and lands are areas 61 … 74.
"""

from __future__ import annotations

import numpy as np
import pytest

from gotsim.engine.area_bits import (
    AREA_BITS,
    drop_lowest,
    has_bit,
    is_empty,
    lowest,
    no_bits,
    or_bits,
    read_bits,
    set_bit,
    write_bits,
)
from gotsim.engine.init import new_games
from gotsim.engine.marches import transport_reach_bits
from gotsim.engine.state import A_MAX, ACT_FOOTMAN, ACT_UPGRADE_SIEGE, N_ACTIONS
from gotsim.engine.tables import rules_table
from gotsim.engine.westeros import muster_bit
from gotsim.jit import njit
from gotsim.players.marching import reach_list
from gotsim.players.memo import new_memos
from gotsim.rules.board import AreaKind, load_board
from gotsim.rules.ids import FOOTMAN, SHIP

MOD8 = load_board("2e", board="mod8")


@njit
def _members(areas):
    """The set of ``areas`` (built in the order given), its members in area order, and its
    members tested one by one (``AREA_BITS`` flags)."""
    s = no_bits()
    for a in areas:
        s = set_bit(s, a)
    kept = np.zeros(2, np.int64)
    write_bits(kept, s)
    s = read_bits(kept)
    out = np.empty(len(areas), np.int64)
    n = 0
    rest = s
    while not is_empty(rest):
        out[n] = lowest(rest)
        rest = drop_lowest(rest)
        n += 1
    flags = np.zeros(AREA_BITS, np.bool_)
    for a in range(AREA_BITS):
        flags[a] = has_bit(s, a)
    return out[:n], flags


@pytest.mark.parametrize(
    "areas",
    [[], [0], [63], [64], [127], [70, 3, 64, 63, 0, 74], list(range(A_MAX))[::-1]],
)
def test_sets_hold_areas_past_63_in_area_order(areas: list[int]) -> None:
    order, flags = _members(np.array(areas, np.int64))
    assert order.tolist() == sorted(set(areas))
    assert np.flatnonzero(flags).tolist() == sorted(set(areas))


def test_union_and_the_largest_board() -> None:
    assert A_MAX >= MOD8.n_areas == 75 and AREA_BITS >= A_MAX
    essos = no_bits()
    for a in range(64, MOD8.n_areas):
        essos = set_bit(essos, a)
    both = or_bits(set_bit(no_bits(), 5), essos)
    assert [a for a in range(AREA_BITS) if has_bit(both, a)] == [5, *range(64, MOD8.n_areas)]
    assert is_empty(no_bits()) and not is_empty(essos)


def test_action_numbers_leave_room_for_every_area() -> None:
    assert A_MAX <= ACT_UPGRADE_SIEGE < ACT_FOOTMAN < N_ACTIONS
    # mustering's set: the areas, then the unit actions, all within the two words
    assert muster_bit(A_MAX - 1) == A_MAX - 1
    assert muster_bit(ACT_UPGRADE_SIEGE) == A_MAX and muster_bit(ACT_FOOTMAN) < AREA_BITS


def _mod8_game():
    """A 2e record emptied of units, and a rules record whose geography (what the transport walk
    and the march list read) is the 75-area board's."""
    t = rules_table("2e", 6).copy()[0]
    n = MOD8.n_areas
    t["n_areas"] = n
    t["kind"][:] = 0
    t["kind"][:n] = MOD8.kind
    t["neighbours"][:] = -1
    t["neighbours"][:n, : MOD8.neighbours.shape[1]] = MOD8.neighbours
    t["adjacent"][:] = 0
    t["adjacent"][:n, :n] = MOD8.adjacency
    g = new_games([np.random.SeedSequence(1)])[0]
    g["owner"][:] = -1
    g["units"][:] = 0
    g["routed"][:] = 0
    g["blocked"][:] = 0
    return g, t


def _reach_plain(g, t, house: int, origin: int) -> set[int]:
    """Land areas reachable from ``origin``: next door, or along a chain of the house's ships."""
    n = MOD8.n_areas
    out = set()
    seas = {origin}
    todo = [origin]
    while todo:
        here = todo.pop()
        for b in range(n):
            if not MOD8.adjacency[here, b] or b == origin:
                continue
            if MOD8.kind[b] == AreaKind.LAND:
                out.add(b)
            elif (
                MOD8.kind[b] == AreaKind.SEA
                and b not in seas
                and g["owner"][b] == house
                and g["units"][b, SHIP] > 0
            ):
                seas.add(b)
                todo.append(b)
    return out


@pytest.mark.parametrize(
    ("origin", "ships"),
    [
        ("volantis", ()),
        ("volantis", ("the_orange_shore",)),
        ("myr", ("the_orange_shore",)),  # the ships lie one sea off: no transport
        ("the_disputed_lands", ("sea_of_myrth", "bay_of_pentos")),
        ("sunspear", ("east_summer_sea", "the_orange_shore")),  # from Westeros to Volantis
    ],
)
def test_transport_and_march_list_past_area_63(origin: str, ships: tuple[str, ...]) -> None:
    g, t = _mod8_game()
    house = 0
    start = MOD8.index(origin)
    g["owner"][start] = house
    g["units"][start, FOOTMAN] = 1
    for sea in ships:
        s = MOD8.index(sea)
        g["owner"][s] = house
        g["units"][s, SHIP] = 1
    expected = _reach_plain(g, t, house, start)
    assert max(expected) >= 64
    bits = transport_reach_bits(g, t, house, start)
    assert {a for a in range(AREA_BITS) if has_bit(bits, a)} == expected
    # the heuristic's march list (and its set) from the same origin
    memo = new_memos(1)[0]
    n = reach_list(g, t, house, start, memo)
    listed = {int(a) for a in memo["reach"][:n]}
    kept = read_bits(memo["reach_bits"])
    assert listed == expected == {a for a in range(AREA_BITS) if has_bit(kept, a)}
