"""Power from Game of Thrones, bidding (the three influence tracks of Clash of Kings and the
wildlings), and Clash of Kings' placing of bids and ties on each track."""

from __future__ import annotations

import numpy as np

from gotsim.engine.board_state import (
    LAND,
    PORT,
    ask,
    controller,
    crowns_at,
    enemy_ships_in,
    gain_power,
    lose_power,
)
from gotsim.engine.state import (
    Decision,
)
from gotsim.engine.vassals import dominance_holder
from gotsim.engine.westeros.common import (
    WILDLINGS,
    in_play_mask,
    is_participant,
)
from gotsim.jit import njit
from gotsim.rules.ids import SHIP, House

# --- Game of Thrones ------------------------------------------------------------------------------


@njit
def power_income(g, t, house: int) -> int:
    """Game of Thrones: crowns in the areas ``house`` controls, plus 1 per port holding its ships
    whose sea holds no enemy ships."""
    n = 0
    for a in range(t.n_areas):
        if t.kind[a] == LAND:
            crowns = crowns_at(g, t, a)
            if crowns > 0 and controller(g, t, a) == house:
                n += crowns
        elif t.kind[a] == PORT:
            if (
                g.owner[a] == house
                and g.units[a, SHIP] > 0
                and not enemy_ships_in(g, t.port_sea[a], house)
            ):
                n += 1
    return n


@njit
def game_of_thrones(g, t) -> None:
    # incomes first, then gains, so every house is counted on the same board
    income = np.zeros(g.power.shape[0], np.int64)
    for p in range(t.players):
        house = g.track[0, p]
        if house >= 0:
            income[house] = power_income(g, t, house)
    for p in range(t.players):
        house = g.track[0, p]
        if house >= 0:
            gain_power(g, t, house, income[house])


# --- bidding (Clash of Kings and the wildlings) ---------------------------------------------------


@njit
def start_bidding(g, what: int, participants: int) -> None:
    g.bid_pos = 0
    g.bid_track = what
    g.participants = participants
    g.bid[:] = 0


@njit
def bidding_step(g, t) -> bool:
    """Secret bids, asked in turn order (a house without power bids 0 unasked). True when done."""
    while g.bid_pos < t.players:
        house = g.track[0, g.bid_pos]
        g.bid_pos += 1
        if house < 0 or not is_participant(g, house):
            continue
        if g.power[house] <= 0:
            g.bid[house] = 0
            continue
        what = g.bid_track
        ask(g, Decision.BID, house, what, g.wildling_strength if what == WILDLINGS else 0)
        return False
    return True


@njit
def pay_bids(g, t) -> int:
    """All bids go to the pool; returns their total."""
    total = 0
    for house in range(g.bid.shape[0]):
        if is_participant(g, house):
            total += lose_power(g, house, g.bid[house])
    return total


# --- Clash of Kings -------------------------------------------------------------------------------

TARGARYEN = int(House.TARGARYEN)


@njit
def top_unplaced_bid(g) -> int:
    best = -1
    for house in range(g.bid.shape[0]):
        if is_participant(g, house) and not (g.placed_mask >> house) & 1:
            best = max(best, g.bid[house])
    return best


@njit
def place(g, house: int) -> None:
    g.new_track[g.placed] = house
    g.placed += 1
    g.placed_mask |= 1 << house


@njit
def _order_step(g, t, track: int) -> bool:
    """Rebuild a track by bids, highest first; each tie is ordered by the Iron Throne holder (for
    the Iron Throne track the previous holder: the track is written only when complete)."""
    bidders = t.players - (1 if t.dragons else 0)  # Mother of Dragons: Targaryen goes last
    while g.placed < bidders:
        best = top_unplaced_bid(g)
        count = 0
        first = -1
        for house in range(g.bid.shape[0]):
            if (
                is_participant(g, house)
                and not (g.placed_mask >> house) & 1
                and g.bid[house] == best
            ):
                count += 1
                if first < 0:
                    first = house
        if count == 1:
            place(g, first)
        else:
            ask(g, Decision.TIE_ORDER, dominance_holder(g, t, 0), track, best)
            return False
    if g.placed < t.players:  # Targaryen, always last on every track (M14)
        place(g, TARGARYEN)
    return True


@njit
def hand_out_ok(g, house: int) -> bool:
    """Mother of Dragons: Targaryen may raise ``house``'s bid with its own (M14)."""
    return house != TARGARYEN and is_participant(g, house)


@njit
def hand_out(g, house: int) -> None:
    """One power of Targaryen's paid bid raises ``house``'s bid (it pays nothing more)."""
    g.bid[TARGARYEN] -= 1
    g.bid[house] += 1


@njit
def _hand_out_step(g, t, track: int) -> bool:
    """Mother of Dragons: Targaryen hands its whole bid out to the other bidders, one power at
    a time, then leaves the bidding (it goes last on the track, M14). True when done."""
    if g.bid[TARGARYEN] > 0:
        ask(g, Decision.TARGARYEN_BID, TARGARYEN, track, g.bid[TARGARYEN])
        return False
    g.participants = g.participants & ~np.int64(1 << TARGARYEN)
    return True


@njit
def clash_step(g, t) -> bool:
    """Clash of Kings: bid for the Iron Throne, then Fiefdoms, then King's Court. The top house
    of each track holds its dominance token (the Blade keeps its used flag). Mother of Dragons:
    Targaryen bids too, pays its bid and hands it out to the other houses' bids (sub-step 3)."""
    while g.westeros_loop < 3:
        track = g.westeros_loop
        sub = g.westeros_area
        if sub == 0:
            bidders = np.int64(in_play_mask(g, t))
            start_bidding(g, track, bidders)
            g.placed = 0
            g.placed_mask = 0
            g.westeros_area = 1
        elif sub == 1:
            if not bidding_step(g, t):
                return False
            pay_bids(g, t)
            g.westeros_area = 3 if t.dragons else 2
        elif sub == 3:
            if not _hand_out_step(g, t, track):
                return False
            g.westeros_area = 2
        else:
            if not _order_step(g, t, track):
                return False
            for i in range(t.players):
                g.track[track, i] = g.new_track[i]
            g.westeros_loop += 1
            g.westeros_area = 0
    return True
