"""Exact enumeration of one battle's chance outcomes (Tides of Battle draws and the Valyrian Steel
Blade decision) once both house cards and their 'immediately' abilities are settled.

The blade rule (FAQ v2.0 step 4, C12): the holder first sees its own Tides card only and redraws
it when that gives the higher chance to win (``blade_redraw_chances``; keeping it on equal
chances); once both cards are shown, a holder that did not redraw takes +1 only when it turns a
loss into a win. A blade that cannot change the result is kept for later in the round.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from gotsim.engine.combat import (
    ALAYNE_WORTH,
    ATTACKER,
    BLADE_HOLDER,
    BLADE_USED,
    DEFENDER,
    FINAL_FIXED,
    N_PARTS,
    N_UNIT_TYPES,
    POWER,
    POWER_DELTA,
    SIDE,
    TIDES,
    add_chance_strength,
    alayne_may_pay,
    attacker_wins,
    blade_redraw_chances,
    board_and_card_strength,
    final_strength_gap,
    holds_home_after,
    power_after_combat,
    power_for_losing,
    power_for_winning,
    power_from_strength_gap,
    settle_losses,
)
from gotsim.jit import njit

MAX_LOST = 24  # casualty distribution bins: 0 … MAX_LOST units destroyed on one side
# misc statistics, in order
M_ATTACKER_WINS, M_BLADE_PLUS1, M_BLADE_REDRAW, M_POWER_ATTACKER, M_POWER_DEFENDER = range(5)
N_MISC = 5


def new_stats() -> tuple[NDArray[np.float64], ...]:
    """Zeroed accumulators: lost (2, 4), routed (2, 4), lost-count distribution (2, K), misc."""
    return (
        np.zeros((2, N_UNIT_TYPES)),
        np.zeros((2, N_UNIT_TYPES)),
        np.zeros((2, MAX_LOST + 1)),
        np.zeros(N_MISC),
    )


@njit
def _holder_wins(b, tides, base, parts, holder):
    add_chance_strength(b, tides, base, parts)
    return attacker_wins(b, parts) == (holder == ATTACKER)


@njit
def _accumulate(b, cards, tides, base, parts, weight, lost, routed, dist, misc):
    add_chance_strength(b, tides, base, parts)
    win = attacker_wins(b, parts)
    winner = ATTACKER if win else DEFENDER
    side_lost = parts[2:4, :N_UNIT_TYPES]
    side_routed = parts[4:6, :N_UNIT_TYPES]
    side_lost[:, :] = 0
    side_routed[:, :] = 0
    settle_losses(b, parts[:2], winner, cards[3], side_lost, side_routed, parts[6, :N_UNIT_TYPES])
    power = power_changes(b, winner, cards, final_strength_gap(parts))
    for side in (ATTACKER, DEFENDER):
        total = 0
        for u in range(N_UNIT_TYPES):
            lost[side, u] += weight * side_lost[side, u]
            routed[side, u] += weight * side_routed[side, u]
            total += side_lost[side, u]
        dist[side, min(total, MAX_LOST)] += weight
        misc[M_POWER_ATTACKER + side] += weight * power[side]
    if win:
        misc[M_ATTACKER_WINS] += weight


@njit
def power_changes(b, winner: int, cards, gap: int = 0):
    """Each side's power tokens gained (+) or paid (-) through card abilities in one outcome:
    what was paid before the strengths were compared (``POWER_DELTA``), Tywin's, Ser Jaime's or
    Anya Waynwood's win, Qarl the Maid's lost attack, then House Arryn's cards (A Feast for
    Crows; docs/rules.md F2): Alayne Stone paid when the opponent has ``ALAYNE_WORTH`` power
    tokens or more in hand, Littlefinger and Lysa Arryn after the combat; then (Mother of
    Dragons, docs/rules.md M1) Illyrio Mopatis's and Daenerys Targaryen's (deck B) ``gap``, the
    difference between the final strengths (the pool's limit is not counted)."""
    out = np.zeros(2, np.int64)
    hand = np.zeros(2, np.int64)  # power tokens in hand as the outcome goes on
    for side in (ATTACKER, DEFENDER):
        gain = power_for_winning(b, side, cards[3]) if side == winner else 0
        if side != winner:
            gain = power_for_losing(b, side, cards[3])  # Qarl the Maid
        out[side] = b[side * SIDE + POWER_DELTA] + gain
        hand[side] = b[side * SIDE + POWER] + gain
    loser = 1 - winner
    holds = holds_home_after(b, winner, winner)
    worth = hand[winner] >= 2 and hand[loser] >= ALAYNE_WORTH
    if worth and alayne_may_pay(b, winner, winner, cards[3], holds):
        out[winner] -= 2
        hand[winner] -= 2
        out[loser] -= hand[loser]
        hand[loser] = 0
    for side in (ATTACKER, DEFENDER):
        holds = holds_home_after(b, side, winner)
        gain = power_after_combat(b, side, cards, holds, hand[side], hand[1 - side])
        out[side] += gain
    for side in (ATTACKER, DEFENDER):
        hand[side] = b[side * SIDE + POWER] + out[side] - b[side * SIDE + POWER_DELTA]
    for side in (ATTACKER, DEFENDER):
        gain, loss = power_from_strength_gap(b, side, cards[3], gap, hand[1 - side])
        out[side] += gain
        hand[side] += gain
        out[1 - side] -= loss
        hand[1 - side] -= loss
    return out


@njit
def _holder(b) -> int:
    """The side holding an unused Valyrian Steel Blade, or -1 (also when a card fixes its
    final strength, Mance Rayder or Margaery Tyrell: the blade cannot be used then)."""
    for side in (ATTACKER, DEFENDER):
        if b[side * SIDE + BLADE_HOLDER] != 0 and b[side * SIDE + BLADE_USED] == 0:
            return side if b[FINAL_FIXED + side] == 0 else -1
    return -1


@njit
def redraw_choices(b, tides, tides_on, base, parts):
    """Per Tides card type of the blade holder: 1 if it redraws that card (step 4a)."""
    count = tides[0]
    choice = np.zeros(count.shape[0], np.int64)
    holder = _holder(b)
    if holder < 0 or not tides_on:
        return choice
    o = holder * SIDE
    own = b[o + TIDES]
    for ty in range(count.shape[0]):
        if count[ty] > 0:
            b[o + TIDES] = ty
            keep, redraw = blade_redraw_chances(b, tides, base, parts, holder)
            choice[ty] = 1 if redraw > keep else 0
    b[o + TIDES] = own
    return choice


@njit
def _with_blade(
    b, cards, tides, base, parts, weight, remaining, n_remaining, redraws, lost, routed, dist, misc
):
    """Accumulate one Tides draw (or the no-Tides battle), letting the holder use the blade:
    a redraw of its own card (``redraws``, decided before the reveal), else +1 after it."""
    holder = _holder(b)
    if holder < 0:
        _accumulate(b, cards, tides, base, parts, weight, lost, routed, dist, misc)
        return
    o = holder * SIDE
    drawn = b[o + TIDES]
    if drawn >= 0 and n_remaining > 0 and redraws[drawn] != 0:
        misc[M_BLADE_REDRAW] += weight
        for t in range(remaining.shape[0]):
            if remaining[t] > 0:
                b[o + TIDES] = t
                share = weight * remaining[t] / n_remaining
                _accumulate(b, cards, tides, base, parts, share, lost, routed, dist, misc)
        b[o + TIDES] = drawn
        return
    if not _holder_wins(b, tides, base, parts, holder):
        b[o + BLADE_USED] = 1
        if _holder_wins(b, tides, base, parts, holder):
            misc[M_BLADE_PLUS1] += weight
            _accumulate(b, cards, tides, base, parts, weight, lost, routed, dist, misc)
            b[o + BLADE_USED] = 0
            return
        b[o + BLADE_USED] = 0
    _accumulate(b, cards, tides, base, parts, weight, lost, routed, dist, misc)


@njit
def enumerate_outcomes(b, cards, tides, tides_on, lost, routed, dist, misc):
    """Add every chance outcome of battle ``b`` (cards fixed) to the accumulators, exactly.

    With Tides of Battle each side draws one card from the full deck without replacement; the
    holder's redraw comes from the 22 cards left. Returns P(attacker wins).
    """
    parts = np.zeros((7, N_PARTS), np.int64)  # rows 0-1 strengths, 2-6 work space
    base = np.zeros((2, N_PARTS), np.int64)
    board_and_card_strength(b, cards, base)
    before = misc[M_ATTACKER_WINS]
    count = tides[0]
    if not tides_on:
        empty = np.zeros(count.shape[0], np.int64)
        _with_blade(b, cards, tides, base, parts, 1.0, empty, 0, empty, lost, routed, dist, misc)
        return misc[M_ATTACKER_WINS] - before
    redraws = redraw_choices(b, tides, tides_on, base, np.zeros((2, N_PARTS), np.int64))
    n = 0
    for t in range(count.shape[0]):
        n += count[t]
    remaining = count.copy()
    for ta in range(count.shape[0]):
        for td in range(count.shape[0]):
            ways = count[ta] * (count[td] - (1 if ta == td else 0))
            if ways <= 0:
                continue
            b[ATTACKER * SIDE + TIDES] = ta
            b[DEFENDER * SIDE + TIDES] = td
            remaining[ta] -= 1
            remaining[td] -= 1
            weight = ways / (n * (n - 1))
            _with_blade(
                b,
                cards,
                tides,
                base,
                parts,
                weight,
                remaining,
                n - 2,
                redraws,
                lost,
                routed,
                dist,
                misc,
            )
            remaining[ta] += 1
            remaining[td] += 1
    b[ATTACKER * SIDE + TIDES] = -1
    b[DEFENDER * SIDE + TIDES] = -1
    return misc[M_ATTACKER_WINS] - before


@njit
def sample_outcomes(b, cards, tides, tides_on, draws_a, draws_d, redraws, wins):
    """Monte-Carlo counterpart of ``enumerate_outcomes`` for one card pair.

    ``draws_a``/``draws_d``/``redraws`` are pre-drawn Tides card types (distinct deck positions),
    one row per sample; ``wins`` receives 1 where the attacker wins.
    """
    parts = np.zeros((2, N_PARTS), np.int64)
    base = np.zeros((2, N_PARTS), np.int64)
    board_and_card_strength(b, cards, base)
    holder = _holder(b)
    choices = redraw_choices(b, tides, tides_on, base, parts)
    for i in range(wins.shape[0]):
        if tides_on:
            b[ATTACKER * SIDE + TIDES] = draws_a[i]
            b[DEFENDER * SIDE + TIDES] = draws_d[i]
        if holder >= 0 and tides_on and choices[b[holder * SIDE + TIDES]] != 0:
            # step 4a: the holder redraws its own card before the reveal (no +1 then)
            o = holder * SIDE
            drawn = b[o + TIDES]
            b[o + TIDES] = redraws[i]
            add_chance_strength(b, tides, base, parts)
            wins[i] = 1 if attacker_wins(b, parts) else 0
            b[o + TIDES] = drawn
            continue
        add_chance_strength(b, tides, base, parts)
        win = attacker_wins(b, parts)
        if holder >= 0 and win != (holder == ATTACKER):
            o = holder * SIDE
            b[o + BLADE_USED] = 1
            add_chance_strength(b, tides, base, parts)
            win = attacker_wins(b, parts)
            b[o + BLADE_USED] = 0
        wins[i] = 1 if win else 0
    b[ATTACKER * SIDE + TIDES] = -1
    b[DEFENDER * SIDE + TIDES] = -1
