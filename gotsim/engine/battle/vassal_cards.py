"""Mother of Dragons' vassal house cards in a battle (the ``vassals`` variant): a vassal in a
combat is dealt three of the seven (``gotsim.engine.vassals.deal_vassal_cards``, at the battle's
start) and its commander picks one (``Decision.HOUSE_CARD``: action ``v`` is vassal card
``VASSAL_CARD_FIRST + v``); no hand or discard pile is kept for it. Here: the legal picks,
Jaqen H'ghar's replacement (cancel step), Bronn's payment (before combat, the opponent's
``CARD_ABILITY``), and after the combat Beric Dondarrion's lost unit, Varys's Fiefdoms move and
Jon Connington's knight (the commander choosing the unit Beric loses and whether and where Jon
musters: ``CARD_ABILITY`` with the card's ability). Syrio Forel's strength is the combat code's
(``combat._syrio_forel``). Rulings: docs/rules.md V12-V19.
"""

from __future__ import annotations

from gotsim.engine import combat as cb
from gotsim.engine.battle.common import follow_track_change, side_house
from gotsim.engine.board_state import (
    LAND,
    army_sizes_fit,
    ask,
    controller,
    lose_power,
    vacate_and_settle,
)
from gotsim.engine.rng import below
from gotsim.engine.state import ACT_NONE, NATURE, Decision, U
from gotsim.jit import njit

A = cb.Ability
FIRST = cb.VASSAL_CARD_FIRST
BRONN_PAYS = 1  # CARD_ABILITY action of Bronn's opponent: pay 2 power (ACT_NONE: do not)
# Beric Dondarrion: the heuristic's choice of the unit the vassal loses, the first of these it
# has in the area
BERIC_ORDER = (cb.FOOTMAN, cb.SHIP, cb.SIEGE, cb.KNIGHT)
BERIC = int(A.BERIC_DONDARRION)
CONNINGTON = int(A.JON_CONNINGTON)


@njit
def vassal_side(g, side: int) -> bool:
    return g.battle[cb.VASSAL + side] != 0


@njit
def vassal_card_legal(g, side: int, excluded: int, mask) -> None:
    """HOUSE_CARD options of a vassal: its dealt cards still in its battle hand (``excluded``:
    the slot Tyrion cancelled, or -1)."""
    hand = g.battle[side * cb.SIDE + cb.HAND]
    for v in range(cb.VASSAL_CARD_COUNT):
        if (hand >> (FIRST + v)) & 1 and v != excluded:
            mask[v] = True


@njit
def card_slot(t, house: int, card: int, vassal: bool) -> int:
    """The HOUSE_CARD action of ``card``: its deck slot, a vassal card's 0-6 (-1 none)."""
    if vassal:
        return card - FIRST if cb.is_vassal_card(card) else -1
    for slot in range(7):
        if t.deck_card[house, slot] == card:
            return slot
    return -1


@njit
def jaqen_replaces(g, side: int) -> None:
    """Jaqen H'ghar: the opponent's card goes back to its hand (a vassal's: its dealt cards),
    and one picked at random there (nature's stream; maybe the same card) is played instead."""
    b = g.battle
    other = 1 - side
    oo = other * cb.SIDE
    if b[oo + cb.CARD] < 0:
        return
    cb.return_card_to_hand(b, other)
    hand = b[oo + cb.HAND]
    n = 0
    for c in range(64):
        if (hand >> c) & 1:
            n += 1
    k = below(g.rng, NATURE, n)
    for c in range(64):
        if (hand >> c) & 1:
            if k == 0:
                cb.play_card(b, other, c)
                return
            k -= 1


@njit
def bronn_asked(g, side: int) -> bool:
    """Bronn's opponent may pay: a player house (a vassal holds no power) with 2 power."""
    house = side_house(g, 1 - side)
    return house >= 0 and g.battle[cb.VASSAL + 1 - side] == 0 and g.power[house] >= cb.BRONN_PRICE


@njit
def bronn_paid(g, t, side: int) -> None:
    """Bronn's opponent pays 2 power: Bronn's strength is 0 (the card modifier takes it off)."""
    b = g.battle
    card = b[side * cb.SIDE + cb.CARD]
    cb.add_to_card(b, side, -t.card_strength[card], 0, 0, 0)
    lose_power(g, side_house(g, 1 - side), cb.BRONN_PRICE)
    b[(1 - side) * cb.SIDE + cb.POWER] -= cb.BRONN_PRICE


@njit
def beric_unit_kinds(g, area: int) -> int:
    """Beric Dondarrion: bit ``u`` set for each unit type standing (not routed) in ``area``, the
    types the vassal may lose one of."""
    kinds = 0
    for u in range(U):
        if g.units[area, u] - g.routed[area, u] > 0:
            kinds |= 1 << u
    return kinds


@njit
def beric_destroys(g, t, area: int, u: int) -> None:
    """Beric Dondarrion: one standing unit of type ``u`` in ``area`` is destroyed; an area left
    empty loses its order and owner (ports follow, B12)."""
    g.units[area, u] -= 1
    vacate_and_settle(g, t, area)


@njit
def _knights_on_board(g, t, house: int) -> int:
    n = 0
    for a in range(t.n_areas):
        if g.owner[a] == house:
            n += g.units[a, cb.KNIGHT]
    return n


@njit
def connington_areas(g, t, side: int) -> tuple[int, int]:
    """Where Jon Connington's knight may be mustered, (first, second), -1 for none: the land
    area the beaten vassal's units retreated to, and its home area while it controls it (S&R
    offers both); a knight must be left in its reserve and the army must stay within supply.
    The first is the heuristic's choice."""
    house = side_house(g, side)
    if _knights_on_board(g, t, house) >= t.unit_limits[house, cb.KNIGHT]:
        return -1, -1
    first = -1
    dest = g.battle_retreat_to if g.battle_retreating == side else -1
    if dest >= 0 and g.owner[dest] == house and t.kind[dest] == LAND:
        if army_sizes_fit(g, t, house, g.supply[house], dest, 1):
            first = dest
    for a in range(t.n_areas):
        if a != first and t.home[a] == house and t.kind[a] == LAND and controller(g, t, a) == house:
            if army_sizes_fit(g, t, house, g.supply[house], a, 1):
                if first < 0:
                    return a, -1
                return first, a
    return first, -1


@njit
def connington_musters(g, area: int, house: int) -> None:
    """Jon Connington: the beaten vassal musters a knight in ``area``."""
    g.owner[area] = house
    g.units[area, cb.KNIGHT] += 1


@njit
def vassal_after_combat(g, t, area: int) -> bool:
    """After the combat (the winner moved in, the casualties taken): Varys's vassal goes to the
    top of the Fiefdoms track; Beric Dondarrion's winner loses one of its units in the embattled
    ``area``, its commander choosing the type (``CARD_ABILITY``, ctx2 the area) when more than
    one stands there. True while that is asked; Jon Connington comes after it
    (``connington_asked``)."""
    b = g.battle
    for side in (cb.ATTACKER, cb.DEFENDER):
        if vassal_side(g, side) and cb.active_ability(b, side, t.card_ability) == A.VARYS:
            house = side_house(g, side)
            pos = -1
            for p in range(t.players):
                if g.track[1, p] == house:
                    pos = p
            for p in range(pos, 0, -1):
                g.track[1, p] = g.track[1, p - 1]
            if pos > 0:
                g.track[1, 0] = house
                follow_track_change(g, t, 1)
    side = g.battle_winner
    if not vassal_side(g, side) or cb.active_ability(b, side, t.card_ability) != BERIC:
        return False
    house = side_house(g, side)
    if g.owner[area] != house:
        return False
    kinds = beric_unit_kinds(g, area)
    if kinds & (kinds - 1):  # two types or more: the commander chooses
        ask(g, Decision.CARD_ABILITY, house, side, BERIC, area)
        return True
    for u in range(U):
        if (kinds >> u) & 1:
            beric_destroys(g, t, area, u)
    return False


@njit
def connington_asked(g, t) -> bool:
    """Jon Connington: a beaten vassal may muster a knight (``connington_areas``); its commander
    is asked where, or not at all (``CARD_ABILITY``, ACT_NONE), when it can. True when asked."""
    side = 1 - g.battle_winner
    if not vassal_side(g, side):
        return False
    if cb.active_ability(g.battle, side, t.card_ability) != CONNINGTON:
        return False
    first, _ = connington_areas(g, t, side)
    if first < 0:
        return False
    ask(g, Decision.CARD_ABILITY, side_house(g, side), side, CONNINGTON)
    return True


@njit
def vassal_ability_legal(g, t, side: int, ability: int, mask) -> None:
    """CARD_ABILITY options of Beric Dondarrion (a unit type standing in the area, ctx2) and
    Jon Connington (an area of ``connington_areas``, or ACT_NONE: not used)."""
    if ability == BERIC:
        kinds = beric_unit_kinds(g, g.ctx[2])
        for u in range(U):
            mask[u] = (kinds >> u) & 1 != 0
    else:
        first, second = connington_areas(g, t, side)
        for a in (first, second):
            if a >= 0:
                mask[a] = True
        mask[ACT_NONE] = True


@njit
def vassal_ability_apply(g, t, side: int, ability: int, action: int) -> None:
    """Apply Beric Dondarrion's or Jon Connington's CARD_ABILITY answer (not ACT_NONE)."""
    if ability == BERIC:
        beric_destroys(g, t, g.ctx[2], action)
    else:
        connington_musters(g, action, side_house(g, side))


__all__ = [
    "BERIC",
    "BERIC_ORDER",
    "BRONN_PAYS",
    "CONNINGTON",
    "beric_unit_kinds",
    "bronn_asked",
    "bronn_paid",
    "card_slot",
    "connington_areas",
    "connington_asked",
    "jaqen_replaces",
    "vassal_ability_apply",
    "vassal_ability_legal",
    "vassal_after_combat",
    "vassal_card_legal",
    "vassal_side",
]
