"""A battle's shared pieces: its steps and cursors (``g.battle_*`` fields), hands and discards,
starting a battle and gathering support, the Tides of Battle draw and the three-card step."""

from __future__ import annotations

import numpy as np

from gotsim.engine import combat as cb
from gotsim.engine.board_state import (
    LAND,
    PORT,
    SEA,
    ask,
    controller,
    is_fort,
    unit_count,
)
from gotsim.engine.dragons import set_dragons
from gotsim.engine.loyalty import keep_targaryen_last
from gotsim.engine.marches import (
    is_march_kind,
    is_support_order,
    supports_into,
)
from gotsim.engine.rng import below
from gotsim.engine.state import NATURE, ORDER_BONUS, Decision, Restriction
from gotsim.engine.vassals import (
    deal_vassal_cards,
    dominance_holder,
    is_vassal,
    vassal_defense_bonus,
)
from gotsim.jit import njit
from gotsim.rules.ids import DRAGON, House

SUPPORT, CARDS, CANCEL, IMMEDIATELY, TIDES, BLADE, RESOLVE = 0, 1, 2, 3, 4, 5, 6
CASUALTIES, AFTER, RETREAT, FINISH, OVER, RETREAT_LOSS = 7, 8, 9, 10, 11, 12
BEFORE_COMBAT = 13  # A Dance with Dragons: "before combat" abilities, after IMMEDIATELY
# after FINISH: a vassal's Jon Connington (VASSALS_AFTER), then Patchface and the A Dance with
# Dragons and Mother of Dragons cards' choices after the combat (LATE)
VASSALS_AFTER, LATE = 14, 15
BLADE_REDRAW_STAGE, BLADE_PLUS_ONE_STAGE = 0, 1  # BLADE decision ctx1 (FAQ v2.0 step 4a, 4c)
RETREAT_LOSS_FLAG = 1  # CASUALTY decision ctx2: units lost to a retreat that breaks supply
SIDE_NONE = 3  # support_side value: decided to support nobody
FOOTMEN_NO_SUPPORT = int(Restriction.FOOTMEN_NO_SUPPORT)
LANNISTER = int(House.LANNISTER)


@njit
def hand_mask(t, house: int, slots: int) -> np.int64:
    """Card-number bit mask (combat layout) of a house's deck-slot bit mask."""
    mask = np.int64(0)
    for slot in range(7):
        if (slots >> slot) & 1:
            mask |= cb.bit(t.deck_card[house, slot])
    return mask


@njit
def slot_of(t, house: int, card: int) -> int:
    for slot in range(7):
        if t.deck_card[house, slot] == card:
            return slot
    return -1


@njit
def start_battle(g, t, origin: int, target: int, attacker: int) -> None:
    """Fill ``g.battle`` for ``attacker``'s units planned into ``target`` from ``origin``."""
    b = g.battle
    b[:] = 0
    cb.set_unit_strengths(b, t.unit_strength, t.siege_castle_strength, t.fortified_knight_strength)
    for side in (cb.ATTACKER, cb.DEFENDER):
        o = side * cb.SIDE
        b[o + cb.CARD] = -1
        b[o + cb.TIDES] = -1
    defender = g.owner[target]
    if defender < 0:
        # a garrison defending an empty area: its home area's house, or (A Dance with Dragons'
        # Storm's End and Oldtown) the house whose power token holds it
        defender = controller(g, t, target)
    a, d = 0, cb.SIDE
    b[a + cb.HOUSE] = attacker
    b[d + cb.HOUSE] = defender
    for u in range(cb.N_UNIT_TYPES):
        b[a + cb.UNITS + u] = g.moving[target, u]
        if g.owner[target] == defender:
            b[d + cb.UNITS + u] = g.units[target, u] - g.routed[target, u]
            b[d + cb.ROUTED + u] = g.routed[target, u]
    if t.dragons:  # Mother of Dragons at 8 players
        set_dragons(g, t, b, target, defender)
    march = g.order[origin]
    b[a + cb.ORDER_BONUS] = ORDER_BONUS[march] if is_march_kind(march) else 0
    defense = g.order[target] if g.owner[target] == defender else -1
    if defense == 3 or defense == 4:
        b[d + cb.HAS_DEFENSE] = 1
        b[d + cb.ORDER_BONUS] = vassal_defense_bonus(t, defender, defense)
    b[d + cb.GARRISON] = g.garrison[target]
    b[cb.FORTIFIED] = 1 if is_fort(g, t, target) else 0
    if g.fortification[target] > 0 and g.fortification[target] - 1 == defender:
        b[cb.FORTIFIED] |= cb.FORTIFICATION_TOKEN
    b[cb.SEA_BATTLE] = 1 if t.kind[target] != LAND else 0
    b[cb.FIRST_EDITION] = 1 if t.edition == 1 else 0
    b[cb.RAINS] = 1 if g.restrict & FOOTMEN_NO_SUPPORT else 0
    # A Dance with Dragons: Mance Rayder's threat, Margaery Tyrell's home area or power token
    b[cb.THREAT] = g.threat
    held = t.home[target] == defender or g.power_token[target] == defender
    b[cb.DEFENDER_HOLDS] = 1 if held else 0
    for side, house in ((cb.ATTACKER, np.int64(attacker)), (cb.DEFENDER, np.int64(defender))):
        o = side * cb.SIDE
        b[o + cb.HAND] = hand_mask(t, house, g.hand[house])
        b[o + cb.DISCARDS] = hand_mask(t, house, g.discard[house])
        b[o + cb.POWER] = g.power[house]
        for p in range(t.players):
            if g.track[0, p] == house:
                b[o + cb.IRON_THRONE_POS] = p
            if g.track[1, p] == house:
                b[o + cb.FIEFDOMS_POS] = p
        b[o + cb.BLADE_HOLDER] = (
            1 if (dominance_holder(g, t, 1) == house and not g.blade_used) else 0
        )
        if t.vassals and is_vassal(t, house):  # the vassal house cards (V12)
            deal_vassal_cards(g, t, side)
    g.combat_area = target
    g.combat_from = origin
    g.combat_step = SUPPORT
    g.battle_cursor = 0
    g.battle_winner = -1
    g.battle_retreating = -1
    g.battle_retreat_to = origin
    g.support_side[:] = 0
    g.battles[attacker] += 1
    g.battles[defender] += 1
    g.history_battles[g.game_round - 1, attacker, defender] += 1


@njit
def add_support(g, t, area: int, side: int) -> None:
    """Count the support order in ``area`` for ``side`` of the battle."""
    b = g.battle
    own = g.owner[area] == b[side * cb.SIDE + cb.HOUSE]
    o = side * cb.SIDE + (cb.SUPPORT_OWN if own else cb.SUPPORT_ALLY)
    for u in range(cb.N_UNIT_TYPES):
        b[o + u] += g.units[area, u] - g.routed[area, u]
    b[cb.DRAGON_SUPPORT + side] += g.units[area, DRAGON] - g.routed[area, DRAGON]
    b[side * cb.SIDE + cb.SUPPORT_BONUS] += 1 if g.order[area] == 6 else 0
    b[side * cb.SIDE + cb.SUPPORTERS] += 1
    if t.vassals and not own and not is_vassal(t, g.owner[area]):  # (Syrio Forel, V14)
        footmen = g.units[area, cb.FOOTMAN] - g.routed[area, cb.FOOTMAN]
        b[cb.NON_VASSAL_ALLY_FOOTMEN + side] += footmen


@njit
def next_undecided_supporter(g, t) -> int:
    """The next area whose support for the battle is still undecided, counting the combatants'
    own support orders at once; -1 when every supporter has chosen."""
    target = g.combat_area
    b = g.battle
    while g.battle_cursor < t.n_areas:
        a = g.battle_cursor
        if g.support_side[a] == 0 and is_support_order(g, a) and supports_into(t, a, target):
            house = g.owner[a]
            if house == b[cb.HOUSE]:
                g.support_side[a] = 1
                add_support(g, t, a, cb.ATTACKER)
            elif house == b[cb.SIDE + cb.HOUSE]:
                g.support_side[a] = 2
                add_support(g, t, a, cb.DEFENDER)
            else:
                return a
        g.battle_cursor += 1
    return -1


@njit
def decide_support(g, t, house: int, choice: int) -> None:
    """A third house's support orders around the battle all back ``choice`` (0 nobody, 1
    attacker, 2 defender)."""
    for a in range(t.n_areas):
        if (
            g.owner[a] == house
            and g.support_side[a] == 0
            and is_support_order(g, a)
            and supports_into(t, a, g.combat_area)
        ):
            g.support_side[a] = SIDE_NONE if choice == 0 else choice
            if choice != 0:
                add_support(g, t, a, choice - 1)


@njit
def destroy_in_battle(g, side: int, unit: int) -> None:
    """Remove one fighting unit of ``side`` from the board; before the strengths are compared
    (Mace Tyrell) from the battle vector too, which afterwards keeps the battle as it was fought
    (the narration reads it)."""
    target, origin = g.combat_area, g.combat_from
    b = g.battle
    if side == cb.ATTACKER:
        g.moving[target, unit] -= 1
        g.units[origin, unit] -= 1
    else:
        # always a fighting unit: routed units are never casualties (C10, E3)
        g.units[target, unit] -= 1
    if g.combat_step == IMMEDIATELY and b[side * cb.SIDE + cb.UNITS + unit] > 0:
        b[side * cb.SIDE + cb.UNITS + unit] -= 1


@njit
def recycle_hand(g, house: int, just_played: int) -> None:
    """When a house has played its last card, its other discards (not ``just_played``, a deck
    slot or -1) return to its hand."""
    if g.hand[house] == 0:
        keep = np.uint8(0) if just_played < 0 else np.uint8(1 << just_played)
        g.hand[house] = g.discard[house] & np.uint8(~keep & 0x7F)
        g.discard[house] = keep


@njit
def recycle_by_rules(g, t, house: int, just_played: int) -> None:
    """The discards come back by the rules in play once a card is gone from the hand: 2e when the
    hand is empty, all but ``just_played`` (a deck slot, or -1); 1e when it is empty, all seven
    (D10); 1e three-card combat when fewer than three are left, all of them (T2)."""
    if t.three_card_combat:
        left = 0
        for slot in range(7):
            left += (g.hand[house] >> slot) & 1
        if left < 3:
            g.hand[house] |= g.discard[house]
            g.discard[house] = 0
    else:
        recycle_hand(g, house, just_played if t.edition == 2 else -1)


@njit
def discard_card(g, t, house: int, card: int) -> None:
    slot = slot_of(t, house, card)
    if slot >= 0:
        g.hand[house] &= np.uint8(~(1 << slot) & 0x7F)
        g.discard[house] |= np.uint8(1 << slot)


@njit
def retreat_ok(
    g, t, house: int, target: int, dest: int, barred: int, naval: bool, ships: int
) -> bool:
    """Units of ``house`` in the battle for ``target`` may retreat into ``dest``: adjacent (land
    units also by their own ships), not ``barred`` (the attacker's origin, for a defender), not
    blocked, no neutral force, not controlled by another house (units, power token or home
    area). Ships retreat into a sea, or into a port whose land area the house controls, with at
    most 3 ships there afterwards (B8; S&R ``getValidRetreatRegions``)."""
    if dest == target or dest == barred or g.blocked[dest] or g.neutral[dest] > 0:
        return False
    holder = controller(g, t, dest)
    if holder >= 0 and holder != house:
        return False  # another house's units, power token or home area
    if naval:
        if not t.adjacent[target, dest]:
            return False
        if t.kind[dest] == PORT:
            if controller(g, t, t.port_land[dest]) != house:
                return False
            here = g.units[dest, cb.SHIP] if g.owner[dest] == house else 0
            return here + ships <= t.port_ships
        return t.kind[dest] == SEA
    return t.kind[dest] == LAND


@njit
def units_left_in(g, area: int) -> int:
    return unit_count(g, area)


@njit
def card_arrays(t):
    return (t.card_strength, t.card_swords, t.card_forts, t.card_ability, t.card_ref)


@njit
def tides_arrays(t):
    return (t.tides_count, t.tides_strength, t.tides_swords, t.tides_forts, t.tides_skulls)


@njit
def side_house(g, side: int) -> int:
    return g.battle[side * cb.SIDE + cb.HOUSE]


@njit
def iron_throne_first(g) -> int:
    b = g.battle
    return cb.ATTACKER if b[cb.IRON_THRONE_POS] < b[cb.SIDE + cb.IRON_THRONE_POS] else cb.DEFENDER


@njit
def follow_track_change(g, t, track: int) -> None:
    """After a house card moved houses on ``track`` mid-battle (Doran Martell, Ser Gerris
    Drinkwater): the battle's Iron Throne and Fiefdoms positions and the blade's holder follow
    (Mother of Dragons: Targaryen back in the last space first)."""
    keep_targaryen_last(g, t, track)
    b = g.battle
    for s in (cb.ATTACKER, cb.DEFENDER):
        h = side_house(g, s)
        for p in range(t.players):
            if g.track[track, p] == h:
                if track == 0:
                    b[s * cb.SIDE + cb.IRON_THRONE_POS] = p
                elif track == 1:
                    b[s * cb.SIDE + cb.FIEFDOMS_POS] = p
        b[s * cb.SIDE + cb.BLADE_HOLDER] = (
            1 if (dominance_holder(g, t, 1) == h and not g.blade_used) else 0
        )


@njit(inline="always")
def next_side(g) -> int:
    """The next side to act in a step where both act in Iron Throne order (``g.battle_cursor``
    counts the sides that have); -1 once both have."""
    if g.battle_cursor >= 2:
        return -1
    first = iron_throne_first(g)
    side = first if g.battle_cursor == 0 else 1 - first
    g.battle_cursor += 1
    return side


@njit
def draw_tides(g, t, also_out: int) -> int:
    """One Tides of Battle card type from the full deck less the cards already drawn (and
    ``also_out``, a card set aside for a redraw, or -1)."""
    b = g.battle
    remaining = t.tides_count.copy()
    for side in (cb.ATTACKER, cb.DEFENDER):
        if b[side * cb.SIDE + cb.TIDES] >= 0:
            remaining[b[side * cb.SIDE + cb.TIDES]] -= 1
    if also_out >= 0:
        remaining[also_out] -= 1
    k = below(g.rng, NATURE, int(remaining.sum()))
    for ty in range(remaining.shape[0]):
        if k < remaining[ty]:
            return ty
        k -= remaining[ty]
    return 0


@njit
def three_card_step(g, t) -> bool:
    """Three-card combat (1e A Clash of Kings battle variant): each side puts three cards of its
    hand face down (all it has, if fewer), one at a time (True while asking); then one of each
    side's cards is drawn at random to fight and the others go back to the hand."""
    b = g.battle
    while g.battle_cursor < 2:
        side = g.battle_cursor
        hand = b[side * cb.SIDE + cb.HAND]
        house = side_house(g, side)
        in_hand = 0
        for slot in range(7):
            in_hand += (hand >> t.deck_card[house, slot]) & 1
        picked = 0
        for slot in range(7):
            picked += (g.card_picks[side] >> slot) & 1
        if picked < min(3, in_hand):
            ask(g, Decision.HOUSE_CARD, house, side, -1)
            g.ctx[2] = picked
            return True
        g.battle_cursor += 1
    for side in (cb.ATTACKER, cb.DEFENDER):
        picks = g.card_picks[side]
        n = 0
        for slot in range(7):
            n += (picks >> slot) & 1
        if n > 0:
            k = below(g.rng, NATURE, n)
            for slot in range(7):
                if (picks >> slot) & 1:
                    if k == 0:
                        cb.play_card(b, side, t.deck_card[side_house(g, side), slot])
                        break
                    k -= 1
        g.card_picks[side] = 0
    return False
