"""The Westeros decks and the phase's flow: drawing (winter reshuffles, the look-ahead of
Web of Lies), each card's effect in turn, and the end of the phase."""

from __future__ import annotations

import numpy as np

from gotsim.engine.board_state import (
    ask,
)
from gotsim.engine.counters import clear_phase_counters, clear_westeros
from gotsim.engine.rng import shuffle
from gotsim.engine.state import (
    H_WINTER,
    NATURE,
    Decision,
    Phase,
)
from gotsim.engine.tables import WesterosCard
from gotsim.engine.vassals import dominance_holder
from gotsim.engine.westeros.bidding import clash_step, game_of_thrones
from gotsim.engine.westeros.common import (
    DECK_SIZE,
    E_ATTACK,
    E_ATTACK_OVER,
    E_CLASH,
    E_CLASH_START,
    E_DONE,
    E_FAMINE,
    E_GAME_OF_THRONES,
    E_MUSTER,
    E_MUSTER_START,
    E_NEW_INFO,
    E_NEW_INFO_RETURN,
    E_RALLY,
    E_RALLY_START,
    E_RECONCILE,
    E_SHIFT_PUT,
    E_SHIFT_START,
    E_SHIFT_TAKE,
    E_START,
    E_SUPPLY,
    E_WAIT,
    FOOTMEN_NO_SUPPORT,
    NO_CONSOLIDATE,
    NO_DEFENSE,
    NO_MARCH_PLUS,
    NO_RAID,
    NO_SUPPORT,
    STEP_ATTACK,
    STEP_CARDS,
    STEP_DRAW,
    STEP_FINISH,
)
from gotsim.engine.westeros.deck4 import deck4_step
from gotsim.engine.westeros.feast import (
    famine,
    ironborn_raid,
    new_information_draw,
    new_information_return_step,
    shifting_put_step,
    shifting_take_step,
)
from gotsim.engine.westeros.muster import mustering_step
from gotsim.engine.westeros.supply import reconcile_step, set_supply_levels
from gotsim.engine.westeros.wildlings import start_wildling_attack, wildling_attack_step
from gotsim.jit import njit

# --- the Westeros phase ---------------------------------------------------------------------------


@njit
def _reshuffle(g, d: int) -> None:
    shuffle(g.rng, NATURE, g.westeros[d], DECK_SIZE)
    g.westeros_next[d] = 0


@njit
def _lookahead_winter(g, d: int) -> None:
    """1e look-ahead variant, Winter Is Coming just drawn: the deck is shuffled without the two
    cards still face up, and the next draw (position 0) is the replacement; the two face-up
    cards follow it (K9). Afterwards the deck cycles as usual."""
    first = g.westeros_next[d] % DECK_SIZE
    up1 = g.westeros[d, first]
    up2 = g.westeros[d, (first + 1) % DECK_SIZE]
    pool = np.empty(DECK_SIZE - 2, np.int8)
    for i in range(DECK_SIZE - 2):
        pool[i] = g.westeros[d, (first + 2 + i) % DECK_SIZE]
    shuffle(g.rng, NATURE, pool, DECK_SIZE - 2)
    g.westeros[d, 0] = pool[0]
    g.westeros[d, 1] = up1
    g.westeros[d, 2] = up2
    for i in range(1, DECK_SIZE - 2):
        g.westeros[d, 2 + i] = pool[i]
    g.westeros_next[d] = 0


@njit
def _draw(g, d: int, lookahead: bool = False) -> int:
    """The top card of deck ``d``. Drawn cards stay below ``westeros_next``; a spent deck (not
    reached in 10 rounds) is reshuffled whole. With the 1e look-ahead variant a resolved card
    goes under its deck, so the deck is a cycle starting at ``westeros_next`` (K9)."""
    if g.westeros_next[d] >= DECK_SIZE:
        if lookahead:
            g.westeros_next[d] = 0
        else:
            _reshuffle(g, d)
    card = g.westeros[d, g.westeros_next[d]]
    g.westeros_next[d] += 1
    return card


@njit
def draw_cards(g, t) -> int:
    """Draw the top card of decks I, II, III. Winter Is Coming is resolved at once: its deck is
    shuffled whole (this card included) and a replacement drawn. Returns the wildling icons."""
    icons = 0
    lookahead = t.westeros_lookahead != 0
    for d in range(3):
        card = _draw(g, d, lookahead)
        while card == WesterosCard.WINTER_IS_COMING:
            g.history[g.game_round - 1, H_WINTER + d] += 1
            if lookahead:
                _lookahead_winter(g, d)
            else:
                _reshuffle(g, d)
            card = _draw(g, d, lookahead)
        g.westeros_drawn[d] = card
        if t.westeros_icon[card]:
            icons += 1
    return icons


@njit
def _ask_choice(g, card: int, house: int) -> int:
    ask(g, Decision.WESTEROS_CHOICE, house, card)
    return E_WAIT


@njit
def _start_feast_card(g, t, card: int) -> int:
    """Begin resolving a card of A Feast for Crows' deck I other than its Mustering."""
    if card == WesterosCard.RALLY_THE_MEN:
        return E_RALLY_START
    if card == WesterosCard.THE_BURDEN_OF_POWER:
        return _ask_choice(g, card, dominance_holder(g, t, 0))  # Iron Throne holder
    if card == WesterosCard.FAMINE:
        return E_FAMINE
    if card == WesterosCard.IRONBORN_RAID:
        ironborn_raid(g, t)
    elif card == WesterosCard.SHIFTING_AMBITIONS:
        return E_SHIFT_START
    elif card == WesterosCard.NEW_INFORMATION:
        return E_NEW_INFO
    return E_DONE


@njit
def _start_card(g, t, card: int) -> int:
    """Begin resolving a Westeros card; returns the effect to run next (``E_*``)."""
    if card == WesterosCard.SUPPLY:
        return E_SUPPLY
    if card == WesterosCard.MUSTERING or card == WesterosCard.MUSTERING_AFFC:
        return E_MUSTER_START
    if card == WesterosCard.A_THRONE_OF_BLADES:
        return _ask_choice(g, card, dominance_holder(g, t, 0))  # Iron Throne holder
    if card == WesterosCard.GAME_OF_THRONES:
        return E_GAME_OF_THRONES
    if card == WesterosCard.DARK_WINGS_DARK_WORDS:
        return _ask_choice(g, card, dominance_holder(g, t, 2))  # Messenger Raven holder
    if card == WesterosCard.CLASH_OF_KINGS:
        return E_CLASH_START
    if card == WesterosCard.PUT_TO_THE_SWORD:
        return _ask_choice(g, card, dominance_holder(g, t, 1))  # Valyrian Steel Blade holder
    if card == WesterosCard.STORM_OF_SWORDS:
        g.restrict |= NO_DEFENSE
    elif card == WesterosCard.RAINS_OF_AUTUMN:
        # 2e: no March +1 orders; 1e: supporting footmen add no strength (E12)
        g.restrict |= NO_MARCH_PLUS if t.edition == 2 else FOOTMEN_NO_SUPPORT
    elif card == WesterosCard.SEA_OF_STORMS:
        g.restrict |= NO_RAID
    elif card == WesterosCard.WEB_OF_LIES:
        g.restrict |= NO_SUPPORT
    elif card == WesterosCard.FEAST_FOR_CROWS:
        g.restrict |= NO_CONSOLIDATE
    elif card == WesterosCard.WILDLINGS_ATTACK:
        start_wildling_attack(g, t, g.threat)
        return E_ATTACK
    elif card >= WesterosCard.RALLY_THE_MEN:
        return _start_feast_card(g, t, card)
    return E_DONE  # Last Days of Summer (Winter Is Coming was resolved when drawn)


@njit
def _feast_effect(g, t, effect: int) -> bool:
    """One step of an effect of A Feast for Crows' deck I (``effect`` >= ``E_RALLY_START``);
    False when it stopped at a decision."""
    if effect == E_RALLY_START:
        g.westeros_loop = 0
        g.westeros_area = 0
        g.westeros_effect = E_RALLY
    elif effect == E_RALLY:
        if not mustering_step(g, t, True):
            return False
        g.westeros_effect = E_DONE
    elif effect == E_FAMINE:
        famine(g, t)
        g.recon_pos = 0
        g.westeros_effect = E_RECONCILE
    elif effect == E_SHIFT_START:
        g.westeros_loop = 0
        g.participants = 0
        g.westeros_effect = E_SHIFT_PUT
    elif effect == E_SHIFT_PUT:
        if not shifting_put_step(g, t):
            return False
        g.westeros_loop = 0
        g.westeros_effect = E_SHIFT_TAKE
    elif effect == E_SHIFT_TAKE:
        if not shifting_take_step(g, t):
            return False
        g.westeros_effect = E_DONE
    elif effect == E_NEW_INFO:
        new_information_draw(g, t)
        g.westeros_loop = 0
        g.westeros_effect = E_NEW_INFO_RETURN
    elif effect == E_NEW_INFO_RETURN:
        if not new_information_return_step(g, t):
            return False
        g.westeros_effect = E_DONE
    return True


@njit
def _resolve_card(g, t) -> bool:
    """Resolve the card of deck ``g.westeros_card``; True when it is done."""
    while g.pending == Decision.NONE:
        effect = g.westeros_effect
        if effect == E_START:
            g.westeros_effect = _start_card(g, t, g.westeros_drawn[g.westeros_card])
        elif effect == E_SUPPLY:
            set_supply_levels(g, t)
            g.recon_pos = 0
            g.westeros_effect = E_RECONCILE
        elif effect == E_RECONCILE:
            if not reconcile_step(g, t):
                return False
            g.westeros_effect = E_DONE
        elif effect == E_MUSTER_START:
            g.westeros_loop = 0
            g.westeros_area = 0
            g.westeros_effect = E_MUSTER
        elif effect == E_MUSTER:
            if not mustering_step(g, t):
                return False
            g.westeros_effect = E_DONE
        elif effect >= E_RALLY_START:
            if not _feast_effect(g, t, effect):
                return False
        elif effect == E_GAME_OF_THRONES:
            game_of_thrones(g, t)
            g.westeros_effect = E_DONE
        elif effect == E_CLASH_START:
            g.westeros_loop = 0
            g.westeros_area = 0
            g.westeros_effect = E_CLASH
        elif effect == E_CLASH:
            if not clash_step(g, t):
                return False
            g.westeros_effect = E_DONE
        elif effect == E_ATTACK:
            if not wildling_attack_step(g, t):
                return False
            g.westeros_effect = E_ATTACK_OVER
        elif effect == E_WAIT:
            return False
        else:
            return True
    return False


@njit
def _finish(g) -> None:
    g.phase = Phase.PLANNING
    clear_phase_counters(g)
    clear_westeros(g)
    g.bid[:] = 0
    g.turn = 0


@njit
def westeros_phase(g, t) -> bool:
    """The Westeros phase: draw I, II, III; the threat rises 2 per wildling icon (max 12) and the
    wildlings attack at once if it reaches 12; the cards are resolved I, II, III; then planning.

    Returns True when it stops after a wildling attack or at the phase's end, so that the
    machine checks ports and the castle victory again (supply and wildling losses can hand an
    area back, S&R issue #1626); called again, it goes on where it stopped."""
    while g.pending == Decision.NONE and g.phase == Phase.WESTEROS:
        step = g.westeros_step
        if step == STEP_DRAW:
            icons = draw_cards(g, t)
            g.westeros_step = STEP_CARDS
            g.westeros_card = 0
            g.westeros_effect = E_START
            if icons > 0:
                g.threat = min(t.threat_max, g.threat + t.threat_step * icons)
                if g.threat >= t.threat_max and t.edition == 2:  # 1e: no attack at the top (D9)
                    start_wildling_attack(g, t, g.threat)
                    g.westeros_step = STEP_ATTACK
        elif step == STEP_ATTACK:
            if not wildling_attack_step(g, t):
                return False
            g.westeros_step = STEP_CARDS
            return True
        elif step == STEP_CARDS:
            if g.westeros_card >= (4 if t.loyalty_to_win else 3):
                g.westeros_step = STEP_FINISH
            elif g.westeros_card == 3:  # Mother of Dragons at 8 players: deck IV
                if not deck4_step(g, t):
                    return False
                g.westeros_card += 1
                g.westeros_effect = E_START
            elif _resolve_card(g, t):
                attacked = g.westeros_effect == E_ATTACK_OVER
                g.westeros_card += 1
                g.westeros_effect = E_START
                if attacked:
                    return True
            else:
                return False
        else:
            _finish(g)
            return True
    return False
