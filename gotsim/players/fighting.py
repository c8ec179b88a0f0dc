"""The heuristic in battle: whom a third house supports, which house card to play (win chance
from the combat code against the opponent's public hand, weighed against what the card is worth
later), every card ability's choice, the Valyrian Steel Blade, casualties and retreats.

Compiled (numba). The opponent's card is read only once it is revealed (Tyrion's cancel, Aeron,
the blade); before that only its public hand (deck less discards) counts.
"""

# ruff: noqa: SIM109

from __future__ import annotations

import numpy as np

from gotsim.engine import combat as cb
from gotsim.engine.battle import card_arrays, side_house, tides_arrays
from gotsim.engine.battle.adwd import RODRIK_DECK
from gotsim.engine.battle.vassal_cards import BERIC, BERIC_ORDER, CONNINGTON, connington_areas
from gotsim.engine.board_state import (
    LAND,
    barrels_at,
    castles_held,
    controller,
    crowns_at,
    muster_points_at,
    unit_count,
)
from gotsim.engine.state import ACT_NONE, N_ACTIONS
from gotsim.engine.tables import WesterosCard
from gotsim.jit import njit
from gotsim.players.params import P_AGGRESSION, P_CARD_THRIFT
from gotsim.players.view import (
    O_CONSOLIDATE,
    O_CONSOLIDATE_STAR,
    O_DEFENSE_ONE,
    O_DEFENSE_TWO,
    O_RAID,
    O_RAID_STAR,
    O_SUPPORT_ONE,
    O_SUPPORT_ZERO,
    card_slot_by_strength,
    danger,
    ensure_view,
    hold_strength,
    public_hand,
    value_for,
)
from gotsim.rules.ids import DRAGON


@njit
def _rival_score(g, t, memo, me: int, e: int) -> float:
    """How much ``e`` threatens ``me``: its castles and its units next to mine."""
    if e < 0:
        return -1.0
    s = 1.0 * castles_held(g, t, e)
    near = 0.0
    for a in range(t.n_areas):
        if g.owner[a] == me:
            near += float(memo.threat[e, a])
    return s + 0.15 * near


@njit
def support_side(g, t, house: int, mask, params, memo) -> int:
    """SUPPORT_SIDE: back the side that threatens this house less, when the difference is
    clear; stay out otherwise."""
    ensure_view(g, t, memo)
    att = g.battle[cb.HOUSE]
    dfn = g.battle[cb.SIDE + cb.HOUSE]
    if dfn < 0:
        return 0  # an attack on a neutral force: nothing gained by helping it
    ra = _rival_score(g, t, memo, house, att)
    rd = _rival_score(g, t, memo, house, dfn)
    if ra - rd > 1.0 and mask[2]:
        return 2
    if rd - ra > 1.0 and mask[1]:  # (Lion's Cunning may forbid backing the attacker)
        return 1
    return 0


@njit
def _stake(g, t, memo, house: int) -> float:
    """What the battle in progress is worth to ``house``: the area and the units in it."""
    area = g.combat_area
    b = g.battle
    units = 0.0
    for side in range(2):
        o = side * cb.SIDE
        fighting = 0
        for u in range(cb.SIEGE):  # footmen, knights and ships at their strength
            fighting += t.unit_strength[u] * b[o + cb.UNITS + u]
        units += fighting
        units += b[o + cb.UNITS + cb.SIEGE]
    return value_for(g, t, memo, house, area) + 0.5 * units


@njit
def _plain(ability: int) -> bool:
    """A card whose only effect on the strengths is its printed number (the combat code is
    asked about the others)."""
    return not (
        ability == cb.Ability.STANNIS
        or ability == cb.Ability.DAVOS
        or ability == cb.Ability.THEON
        or ability == cb.Ability.CATELYN
        or ability == cb.Ability.KEVAN
        or ability == cb.Ability.VICTARION
        or ability == cb.Ability.SALLADHOR
        or ability >= cb.Ability.ILYN_PAYNE  # A Dance with Dragons: read every one in full
    )


@njit(inline="always")
def _card_effects(t, b, cards, parts, deck_house, side, slots, base_own, base_other, own, other):
    """For each deck slot of ``deck_house`` (fighting on ``side``) in ``slots``: ``own[c]`` that
    side's total with the slot's card played, ``other[c]`` the change the card makes to the
    other side's total (``base_own``, ``base_other``: the totals without cards). Leaves the
    side's card unplayed in ``b``."""
    ability = t.card_ability
    opposite = 1 - side
    slot = side * cb.SIDE + cb.CARD
    for c in range(7):
        if (slots >> c) & 1:
            card = t.deck_card[deck_house, c]
            if _plain(ability[card]):
                own[c] = base_own + t.card_strength[card]
                other[c] = 0
                continue
            b[slot] = card
            cb.board_and_card_strength(b, cards, parts)
            own[c] = parts[side, cb.P_TOTAL]
            other[c] = parts[opposite, cb.P_TOTAL] - base_other
    b[slot] = -1


@njit
def card_win_table(g, t, house: int, side: int, my_slots: int, opp_slots: int, out, memo) -> None:
    """``out[c, d]``: 1 if ``house`` (``side``) wins playing deck slot ``c`` against the
    opponent's slot ``d`` (board as it stands; the blade spent by whoever holds it).

    Each card's effect on both totals is measured alone (one strength breakdown per card);
    pairs add them up, with the cross effects (Balon Greyjoy, Mace Tyrell) applied on top.
    """
    b = memo.b_copy
    b[:] = g.battle
    other = 1 - side
    mo = side * cb.SIDE
    oo = other * cb.SIDE
    opp = b[oo + cb.HOUSE]
    cards = card_arrays(t)
    parts = memo.b_parts
    ability = t.card_ability
    blade_mine = 1 if (b[mo + cb.BLADE_HOLDER] != 0 and not g.blade_used) else 0
    blade_theirs = 1 if (b[oo + cb.BLADE_HOLDER] != 0 and not g.blade_used) else 0
    b[mo + cb.CARD] = -1
    b[oo + cb.CARD] = -1
    b[mo + cb.TEXT_IGNORED] = 0
    b[oo + cb.TEXT_IGNORED] = 0
    cb.board_and_card_strength(b, cards, parts)
    base_mine = parts[side, cb.P_TOTAL]
    base_theirs = parts[other, cb.P_TOTAL]
    mine_c = memo.b_cards[0]  # my total with my card c
    theirs_c = memo.b_cards[1]  # change of their total caused by my card c
    _card_effects(
        t, b, cards, parts, house, side, my_slots, base_mine, base_theirs, mine_c, theirs_c
    )
    theirs_d = memo.b_cards[2]
    mine_d = memo.b_cards[3]
    _card_effects(
        t, b, cards, parts, opp, other, opp_slots, base_theirs, base_mine, theirs_d, mine_d
    )
    my_fief = b[mo + cb.FIEFDOMS_POS] < b[oo + cb.FIEFDOMS_POS]
    foot_theirs = b[oo + cb.UNITS + cb.FOOTMAN] > 0
    foot_mine = b[mo + cb.UNITS + cb.FOOTMAN] > 0
    out[:, :] = 0
    for c in range(7):
        if not (my_slots >> c) & 1:
            continue
        mc = t.deck_card[house, c]
        am = ability[mc]
        for d in range(7):
            if not (opp_slots >> d) & 1:
                continue
            oc = t.deck_card[opp, d]
            ao = ability[oc]
            mine = mine_c[c] + mine_d[d] + blade_mine
            theirs = theirs_d[d] + theirs_c[c] + blade_theirs
            if ao == cb.Ability.BALON:
                mine -= t.card_strength[mc]
            if am == cb.Ability.BALON:
                theirs -= t.card_strength[oc]
            if am == cb.Ability.MACE and ao != cb.Ability.BLACKFISH and foot_theirs:
                theirs -= 1
            if ao == cb.Ability.MACE and am != cb.Ability.BLACKFISH and foot_mine:
                mine -= 1
            if mine > theirs or (mine == theirs and my_fief):
                out[c, d] = 1


@njit
def _hand_size(slots: int) -> int:
    n = 0
    for s in range(7):
        if (slots >> s) & 1:
            n += 1
    return n


@njit
def house_card(g, t, house: int, mask, params, memo) -> int:
    """HOUSE_CARD: the card whose win chance (opponent's card uniform over its public hand, or
    known after Tyrion's cancel) times the stake beats what keeping the card is worth."""
    if mask[ACT_NONE]:
        return ACT_NONE
    only = -1
    for s in range(7):
        if mask[s]:
            only = s if only == -1 else -2
    if only >= 0:
        return only  # the last card in hand
    if g.battle[cb.VASSAL + g.ctx[0]] != 0:
        return vassal_card(g, t, mask)
    ensure_view(g, t, memo)
    side = g.ctx[0]
    other = 1 - side
    b = g.battle
    opp = b[other * cb.SIDE + cb.HOUSE]
    my_slots = 0
    for s in range(7):
        if mask[s]:
            my_slots |= 1 << s
    if g.ctx[1] >= 0 and b[other * cb.SIDE + cb.CARD] >= 0:
        opp_slots = 0
        for s in range(7):
            if t.deck_card[opp, s] == b[other * cb.SIDE + cb.CARD]:
                opp_slots = 1 << s  # revealed (it cancelled ours)
    else:
        opp_slots = public_hand(g, t, opp)
    table = memo.b_table
    card_win_table(g, t, house, side, my_slots, opp_slots, table, memo)
    n_opp = _hand_size(opp_slots)
    stake = _stake(g, t, memo, house)
    hand_left = _hand_size(int(g.hand[house])) - 1
    thrift = 0.2 + 1.2 * params[P_CARD_THRIFT]
    best = -1.0e9
    best_s = -1
    for c in range(7):
        if not mask[c]:
            continue
        wins = 0
        for d in range(7):
            wins += table[c, d]
        p = wins / max(n_opp, 1)
        card = t.deck_card[house, c]
        strength = t.card_strength[card]
        # a strong card kept is worth more while many battles remain before the hand returns
        keep = thrift * 0.35 * strength * min(hand_left, 4) / 4.0
        swords = t.card_swords[card]
        forts = t.card_forts[card]
        v = p * stake * (0.8 + 0.4 * params[P_AGGRESSION]) - keep
        v += 0.15 * swords * p + 0.15 * forts * (1.0 - p)
        ab = t.card_ability[card]
        if ab == cb.Ability.TYWIN:
            v += 0.4 * p
        elif ab == cb.Ability.ROOSE:
            v += 0.3 * (1.0 - p)
        elif ab == cb.Ability.BLACKFISH:
            v += 0.2 * (1.0 - p)
        if v > best:
            best = v
            best_s = c
    return best_s


@njit
def vassal_card(g, t, mask) -> int:
    """HOUSE_CARD of a vassal (its dealt vassal cards, docs/rules.md V13): the strongest useful
    card — printed strength (a sword 0.3, a fort 0.2), Bronn worth 0.5 against a player house
    that can pay 2 power, Syrio Forel defending 1 + the non-vassal footmen it zeroes, Beric
    Dondarrion 0.5 less (the unit it costs), Jaqen H'ghar, Varys and Jon Connington a little
    more than printed."""
    b = g.battle
    side = g.ctx[0]
    other = 1 - side
    best, best_v = -1.0e9, ACT_NONE
    for v in range(cb.VASSAL_CARD_COUNT):
        if not mask[v]:
            continue
        card = cb.VASSAL_CARD_FIRST + v
        ab = t.card_ability[card]
        value = t.card_strength[card] + 0.3 * t.card_swords[card] + 0.2 * t.card_forts[card]
        if ab == cb.Ability.BRONN:
            opp = b[other * cb.SIDE + cb.HOUSE]
            if opp >= 0 and b[cb.VASSAL + other] == 0 and g.power[opp] >= cb.BRONN_PRICE:
                value = 0.5
        elif ab == cb.Ability.SYRIO_FOREL and side == cb.DEFENDER:
            # the opponent's zeroed footmen, less its own side's non-vassal supporters'
            zeroed = b[cb.NON_VASSAL_ALLY_FOOTMEN + other] - b[cb.NON_VASSAL_ALLY_FOOTMEN + side]
            if b[cb.VASSAL + other] == 0:
                zeroed += b[other * cb.SIDE + cb.UNITS + cb.FOOTMAN]
                zeroed += b[other * cb.SIDE + cb.SUPPORT_OWN + cb.FOOTMAN]
            value += zeroed
        elif ab == cb.Ability.BERIC_DONDARRION:
            value -= 0.5
        elif ab == cb.Ability.JAQEN_H_GHAR:
            value += 0.5
        elif ab == cb.Ability.VARYS or ab == cb.Ability.JON_CONNINGTON:
            value += 0.4
        if value > best:
            best, best_v = value, v
    return best_v


@njit
def _current_win(g, t, side: int, extra: int) -> bool:
    """With both cards revealed: does ``side`` win (``extra`` strength added to it)?"""
    b = g.battle
    parts = np.zeros((2, cb.N_PARTS), np.int64)
    cb.strength_breakdown(b, card_arrays(t), tides_arrays(t), parts)
    mine = parts[side, cb.P_TOTAL] + extra
    theirs = parts[1 - side, cb.P_TOTAL]
    if mine != theirs:
        return mine > theirs
    return b[side * cb.SIDE + cb.FIEFDOMS_POS] < b[(1 - side) * cb.SIDE + cb.FIEFDOMS_POS]


@njit
def tyrion(g, t, house: int, mask, params, memo) -> int:
    """TYRION: cancel the revealed card when a replacement from the rest of the opponent's hand
    is likely weaker."""
    side = g.ctx[0]
    other = 1 - side
    b = g.battle
    opp = b[other * cb.SIDE + cb.HOUSE]
    their = b[other * cb.SIDE + cb.CARD]
    if their < 0:
        return 0
    # Tyrion cancels once per battle; the engine may ask again after the new card (see docs)
    key = (int(g.game_round) * 128 + int(g.combat_area)) * 128 + int(g.combat_from)
    if memo.tyrion_key == key:
        return 0
    slot = -1
    for s in range(7):
        if t.deck_card[opp, s] == their:
            slot = s
    rest = public_hand(g, t, opp) & ~(1 << slot) if slot >= 0 else public_hand(g, t, opp)
    my_slot = -1
    for s in range(7):
        if t.deck_card[house, s] == b[side * cb.SIDE + cb.CARD]:
            my_slot = s
    if my_slot < 0 or rest == 0:
        return 0
    table = memo.b_table
    card_win_table(g, t, house, side, 1 << my_slot, (1 << slot) | rest, table, memo)
    now = table[my_slot, slot]
    wins = 0
    n = 0
    for d in range(7):
        if (rest >> d) & 1:
            wins += table[my_slot, d]
            n += 1
    later = wins / n
    if later > now + 0.01 or (now == 0 and t.card_strength[their] >= 3):
        memo.tyrion_key = key
        return 1
    return 0


@njit
def aeron(g, t, house: int, mask, params, memo) -> int:
    """AERON: pay 2 power to swap for another card when that turns a likely loss into a win."""
    side = g.ctx[0]
    other = 1 - side
    b = g.battle
    opp = b[other * cb.SIDE + cb.HOUSE]
    my_slots = 0
    for s in range(7):
        if mask[1 + s]:
            my_slots |= 1 << s
    if my_slots == 0:
        return 0
    aeron_slot = -1
    for s in range(7):
        if t.deck_card[house, s] == b[side * cb.SIDE + cb.CARD]:
            aeron_slot = s
    opp_slots = public_hand(g, t, opp)
    if b[other * cb.SIDE + cb.CARD] >= 0:
        for s in range(7):
            if t.deck_card[opp, s] == b[other * cb.SIDE + cb.CARD]:
                opp_slots = 1 << s
    table = memo.b_table
    mine = my_slots | ((1 << aeron_slot) if aeron_slot >= 0 else 0)
    card_win_table(g, t, house, side, mine, opp_slots, table, memo)
    n = max(_hand_size(opp_slots), 1)
    base = 0.0
    if aeron_slot >= 0:
        for d in range(7):
            base += table[aeron_slot, d]
        base /= n
    best = base + 0.25  # 2 power is worth something
    best_a = 0
    for s in range(7):
        if (my_slots >> s) & 1:
            w = 0.0
            for d in range(7):
                w += table[s, d]
            w /= n
            w -= 0.05 * t.card_strength[t.deck_card[house, s]]
            if w > best:
                best = w
                best_a = 1 + s
    return best_a


@njit
def queen_of_thorns(g, t, house: int, mask, params, memo) -> int:
    """QUEEN_OF_THORNS: remove the opponent's order that matters most: a support in this
    battle, a march that threatens, a consolidate, a defence, a raid."""
    if mask[ACT_NONE]:
        return ACT_NONE
    side = g.ctx[0]
    best = -1.0
    best_a = -1
    for a in range(t.n_areas):
        if not mask[a]:
            continue
        k = g.order[a]
        v = 0.2
        if k == O_SUPPORT_ZERO or k == O_SUPPORT_ONE:
            v = 0.6
            if g.support_side[a] == 2 - side:
                v = 3.0 + hold_strength(g, t, a)
        elif 0 <= k <= 2:
            v = 1.5 + 0.3 * hold_strength(g, t, a)
        elif k == O_CONSOLIDATE or k == O_CONSOLIDATE_STAR:
            v = 1.0
        elif k == O_DEFENSE_ONE or k == O_DEFENSE_TWO:
            v = 0.8
        elif k == O_RAID or k == O_RAID_STAR:
            v = 0.5
        if v > best:
            best = v
            best_a = a
    return best_a


@njit
def _track_worth(g, t, track: int, pos: int) -> float:
    """What standing at ``pos`` on ``track`` is worth (top places most)."""
    n = t.players
    if track == 2:
        return 1.2 * t.stars[pos] + (1.5 if pos == 0 else 0.0)
    w = 1.0 if track == 0 else 0.8
    return w * (n - 1 - pos) / (n - 1) * 2.0 + (2.0 if pos == 0 else 0.0)


@njit
def doran(g, t, house: int, mask, params, memo) -> int:
    """DORAN: the track where the opponent stands to lose most (Fiefdoms first when it decides
    this battle's tie or the blade)."""
    side = g.ctx[0]
    opp = side_house(g, 1 - side)
    best = -1.0
    best_k = 0
    for track in range(3):
        if not mask[track]:
            continue
        pos = 0
        for p in range(t.players):
            if g.track[track, p] == opp:
                pos = p
        v = _track_worth(g, t, track, pos) - _track_worth(g, t, track, t.players - 1)
        if track == 1 and pos < t.players - 1:
            v += 1.0  # the tie (and the blade, if it holds it) in this battle
        if v > best:
            best = v
            best_k = track
    return best_k


@njit
def blade(g, t, house: int, mask, params, memo) -> int:
    """BLADE: before the reveal (only its own Tides card seen), redraw when that wins more often
    than keeping the card with +1 to come; after it, +1 when it turns the battle."""
    side = g.ctx[0]
    if mask[2]:
        b = g.battle
        base = np.zeros((2, cb.N_PARTS), np.int64)
        parts = np.zeros((2, cb.N_PARTS), np.int64)
        cb.board_and_card_strength(b, card_arrays(t), base)
        keep, redraw = cb.blade_redraw_chances(b, tides_arrays(t), base, parts, side)
        return 2 if redraw > keep else 0
    if _current_win(g, t, side, 0):
        return 0
    if _current_win(g, t, side, 1):
        return 1
    return 0


@njit
def casualty(g, t, house: int, mask, params, memo) -> int:
    """CASUALTY: losers lose what could not retreat anyway (siege engines) and the cheapest
    units; winners keep their knights."""
    side = g.ctx[0]
    winner = g.battle_winner
    order = cb.WINNER_CASUALTY_ORDER if side == winner else cb.LOSER_CASUALTY_ORDER
    for u in order:
        if mask[u]:
            return u
    if mask[DRAGON]:  # Mother of Dragons: a dragon goes last
        return DRAGON
    return -1


@njit
def retreat(g, t, house: int, mask, params, memo) -> int:
    """RETREAT: an own retreat goes where the units are safest and worth most; Robb Stark's
    owner sends the enemy where it is worth least."""
    ensure_view(g, t, memo)
    chooser_side = g.ctx[0]
    loser = g.battle[g.ctx[1] * cb.SIDE + cb.HOUSE]
    own = chooser_side == g.ctx[1]
    best = -1.0e9
    best_a = -1
    for a in range(t.n_areas):
        if not mask[a]:
            continue
        v = value_for(g, t, memo, loser, a) - danger(g, t, memo, loser, a) * 0.5
        if g.owner[a] == loser:
            v += 0.3 * unit_count(g, a)
        if not own:
            v = -v
        if v > best:
            best = v
            best_a = a
    return best_a


@njit
def renly(g, t, house: int, mask, params, memo) -> int:
    for a in range(t.n_areas):
        if mask[a]:
            return a
    return ACT_NONE


@njit
def cersei(g, t, house: int, mask, params, memo) -> int:
    """CERSEI: remove the loser's order that threatens or helps it most."""
    best = 0.3
    best_a = ACT_NONE
    for a in range(t.n_areas):
        if not mask[a]:
            continue
        k = g.order[a]
        near = False
        for j in range(t.neighbours.shape[1]):
            y = t.neighbours[a, j]
            if y < 0:
                break
            if g.owner[y] == house:
                near = True
        v = 0.4
        if 0 <= k <= 2:
            v = 1.0 + (1.5 + 0.3 * hold_strength(g, t, a) if near else 0.0)
        elif k == O_CONSOLIDATE_STAR:
            v = 1.6
        elif k == O_CONSOLIDATE:
            v = 1.0 + 0.3 * (crowns_at(g, t, a) if t.kind[a] == LAND else 0)
        elif k == O_SUPPORT_ZERO or k == O_SUPPORT_ONE:
            v = 0.7 + (1.0 if near else 0.0)
        elif k == O_DEFENSE_ONE or k == O_DEFENSE_TWO:
            v = 0.5 + (0.8 if near else 0.0)
        if v > best:
            best = v
            best_a = a
    return best_a


@njit
def patchface(g, t, house: int, mask, params, memo) -> int:
    """PATCHFACE: discard the loser's strongest card (Patchface looks at its hand)."""
    return card_slot_by_strength(t, g.ctx[0], mask, 1, ACT_NONE)


@njit
def mod_card_ability(g, t, house: int, side: int, ability: int, mask) -> int:
    """CARD_ABILITY of a Mother of Dragons card: Viserys Targaryen throws away the weakest card
    of the hand whose printed strength wins the battle as it stands (none if no card does);
    Lysa Arryn goes back to the hand; Missandei takes back the strongest discarded card; Robert
    Arryn takes the opponent's card out of the game (the first of the lowest)."""
    if ability == cb.Ability.VISERYS_TARGARYEN:
        best, best_slot = 99, ACT_NONE
        for slot in range(7):
            if mask[slot]:
                strength = t.card_strength[t.deck_card[house, slot]]
                if strength < best and _current_win(g, t, side, strength):
                    best, best_slot = strength, slot
        return best_slot
    if ability == cb.Ability.MISSANDEI:
        best, best_slot = -1, ACT_NONE
        for slot in range(7):
            if mask[slot] and t.card_strength[t.deck_card[house, slot]] > best:
                best, best_slot = t.card_strength[t.deck_card[house, slot]], slot
        return best_slot
    for x in range(ACT_NONE):  # Lysa Arryn (1), Robert Arryn (a slot, or 7 alone)
        if mask[x]:
            return x
    return ACT_NONE


@njit
def card_ability(g, t, house: int, mask, params, memo) -> int:
    """CARD_ABILITY (A Dance with Dragons): Aeron spends the least power that wins the battle as
    it stands (none if no amount does); Qyburn copies the strongest discarded card when it has
    strength 2 or more; Ser Ilyn Payne destroys a footman, the battle's first; Jon Snow lowers
    the threat; Ser Gerris climbs the Iron Throne first; Reek goes back to the hand; Melisandre
    buys back her dearest affordable card of strength 2 or more keeping a power token; Rodrik
    the Reader stacks the card the house gains most by (``rodrik_card``); Alayne Stone (A Feast
    for Crows) pays when the opponent has 3 power tokens or more in hand; the Mother of
    Dragons cards as ``mod_card_ability``; a vassal's Beric Dondarrion loses its cheapest unit
    (``BERIC_ORDER``) and Jon Connington musters where the vassal's units retreated, else in
    its home area."""
    side = g.ctx[0]
    ability = g.ctx[1]
    if ability == cb.Ability.AERON_DWD:
        for x in range(N_ACTIONS):
            if mask[x] and _current_win(g, t, side, x):
                return x
        return 0
    if ability == cb.Ability.QYBURN:
        best = 1
        best_c = ACT_NONE
        for c in range(ACT_NONE):
            if mask[c] and t.card_strength[c] > best:
                best = t.card_strength[c]
                best_c = c
        return best_c
    if ability == cb.Ability.ILYN_PAYNE:
        if mask[g.combat_area]:
            return g.combat_area
        for a in range(t.n_areas):
            if mask[a]:
                return a
        return ACT_NONE
    if ability == cb.Ability.JON_SNOW:
        return 1 if mask[1] else 0
    if ability == cb.Ability.GERRIS_DRINKWATER:
        for track in range(3):
            if mask[track]:
                return track
        return ACT_NONE
    if ability == cb.Ability.REEK:
        return 1
    if ability == cb.Ability.RODRIK_THE_READER:
        deck, card = rodrik_card(g, t, house)
        if g.ctx[2] == RODRIK_DECK:
            return deck if deck >= 0 else ACT_NONE
        return card if card >= 0 and mask[card] else -1
    if ability == cb.Ability.ALAYNE_STONE:
        # pay 2 when the opponent loses more than that (cb.ALAYNE_WORTH, as the calculator)
        opponent = g.battle[(1 - side) * cb.SIDE + cb.HOUSE]
        rich = opponent >= 0 and g.power[opponent] >= cb.ALAYNE_WORTH
        return 1 if mask[1] and rich else ACT_NONE
    if ability == cb.Ability.BRONN:  # (asked of Bronn's opponent) pay when it turns the battle
        payer = 1 - side
        bronn = t.card_strength[g.battle[side * cb.SIDE + cb.CARD]]
        turns = _current_win(g, t, payer, bronn) and not _current_win(g, t, payer, 0)
        return 1 if mask[1] and turns else ACT_NONE
    if ability == BERIC:  # (a vassal's) it loses its cheapest unit
        for u in BERIC_ORDER:
            if mask[u]:
                return u
        return -1
    if ability == CONNINGTON:  # (a vassal's) the knight where its units retreated, else home
        first, _ = connington_areas(g, t, side)
        return first if first >= 0 and mask[first] else ACT_NONE
    if ability >= cb.Ability.LYSA_ARRYN_MOD:
        return mod_card_ability(g, t, house, side, ability, mask)
    if ability == cb.Ability.MELISANDRE_DWD:
        best = 1
        best_s = ACT_NONE
        for slot in range(7):
            if mask[slot]:
                strength = t.card_strength[t.deck_card[house, slot]]
                if strength > best and strength < g.power[house]:
                    best = strength
                    best_s = slot
        return best_s
    return -1


MUSTERING = int(WesterosCard.MUSTERING)
SUPPLY = int(WesterosCard.SUPPLY)
GAME_OF_THRONES = int(WesterosCard.GAME_OF_THRONES)


@njit
def _left_in_deck(g, d: int, kind: int) -> bool:
    """Whether a card of ``kind`` is still to be drawn from Westeros deck ``d``."""
    found = False
    for i in range(g.westeros_next[d], g.westeros.shape[1]):
        found = found or g.westeros[d, i] == kind
    return found


@njit
def rodrik_card(g, t, house: int) -> tuple[int, int]:
    """Rodrik the Reader's deck and card for the second heuristic, the first of these still in
    its deck: Mustering (deck I) when the house holds 2 or more castle or stronghold areas;
    Supply (deck I) when its barrels are more than its supply level; Game of Thrones (deck II)
    when it holds 2 or more crowns. Else (-1, -1): the deck stays as it is."""
    forts = 0
    barrels = 0
    crowns = 0
    for a in range(t.n_areas):
        if t.kind[a] == LAND and controller(g, t, a) == house:
            forts += 1 if muster_points_at(g, t, a) > 0 else 0
            barrels += barrels_at(g, t, a)
            crowns += crowns_at(g, t, a)
    if forts >= 2 and _left_in_deck(g, 0, MUSTERING):
        return 0, MUSTERING
    if barrels > g.supply[house] and _left_in_deck(g, 0, SUPPLY):
        return 0, SUPPLY
    if crowns >= 2 and _left_in_deck(g, 1, GAME_OF_THRONES):
        return 1, GAME_OF_THRONES
    return -1, -1


__all__ = [
    "aeron",
    "blade",
    "card_ability",
    "card_win_table",
    "casualty",
    "cersei",
    "doran",
    "house_card",
    "patchface",
    "queen_of_thorns",
    "renly",
    "retreat",
    "rodrik_card",
    "support_side",
    "tyrion",
]
