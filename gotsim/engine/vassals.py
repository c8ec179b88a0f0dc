"""Vassals (Mother of Dragons; Swords and Ravens' option for the base game): the houses on the
board no player takes, commanded each round by a player house.

At the start of every planning phase the players claim the vassals in Iron Throne order
(``claim_step``); a vassal places its four vassal order tokens (``vassal_order_free``), never
holds power or a dominance token (``dominance_holder``), never bids against the wildlings and
never wins. Its decisions are pending in its own name and answered by its commander's policy
(``deciding_house``). The rules decisions are ``docs/rules.md`` V1-V20; the vassal house
cards (V12-V20) are dealt here (``deal_vassal_cards``) and played in ``battle.vassal_cards``.
"""

from __future__ import annotations

from gotsim.engine import combat as cb
from gotsim.engine.board_state import ask
from gotsim.engine.rng import below
from gotsim.engine.state import ACT_NONE, NATURE, Decision, H, Order
from gotsim.jit import njit

CLAIMS_DONE = 100  # ``claim_turn`` once every vassal has its commander this round


@njit(inline="always")
def is_vassal(t, house: int) -> bool:
    return house >= 0 and t.vassal[house] != 0


@njit
def dominance_holder(g, t, track: int) -> int:
    """The house holding ``track``'s dominance token (Iron Throne, Valyrian Steel Blade,
    Messenger Raven): the top of the track, or with vassals the best-placed player house (V7)."""
    if not t.vassals:
        return g.track[track, 0]
    for p in range(t.players):
        house = g.track[track, p]
        if house >= 0 and not t.vassal[house]:
            return house
    return g.track[track, 0]


@njit
def deciding_house(g, t, house: int) -> int:
    """The house whose policy answers a decision pending for ``house``: its commander for a
    claimed vassal (V2), else the house itself."""
    if t.vassals and house >= 0 and t.vassal[house] and g.commander[house] >= 0:
        return g.commander[house]
    return house


@njit
def allied(g, t, a: int, b: int) -> bool:
    """Whether houses ``a`` and ``b`` stand together this round: a vassal and its commander, or
    two vassals of one commander (the heuristic never attacks or raids an ally, V11)."""
    if not t.vassals or a < 0 or b < 0 or a == b:
        return False
    ca = g.commander[a] if t.vassal[a] else a
    cb = g.commander[b] if t.vassal[b] else b
    return ca >= 0 and ca == cb


@njit
def bidders_mask(g, t) -> int:
    """The houses that bid against the wildlings (bit per House): every house on the tracks
    but the vassals (V8)."""
    mask = 0
    for p in range(t.players):
        house = g.track[0, p]
        if house >= 0 and not t.vassal[house]:
            mask |= 1 << house
    return mask


# --- vassal order tokens (V5) ----------------------------------------------------------------
# march +0; one raid / support +1 token (either); one defense +1 / muster token (a defense +1
# order, or a consolidate power order that musters and yields no power); defense +3. The engine
# keeps them as the base kinds MARCH_ZERO, RAID or SUPPORT_ONE, DEFENSE_ONE or CONSOLIDATE and
# DEFENSE_TWO (worth +3 for a vassal, ``vassal_defense_bonus``); no star or sea orders.


@njit(inline="always")
def vassal_token(kind: int) -> int:
    """The vassal order token an order kind stands for (0-3), -1 for a kind a vassal lacks."""
    if kind == Order.MARCH_ZERO:
        return 0
    if kind == Order.RAID or kind == Order.SUPPORT_ONE:
        return 1
    if kind == Order.DEFENSE_ONE or kind == Order.CONSOLIDATE:
        return 2
    if kind == Order.DEFENSE_TWO:
        return 3
    return -1


@njit
def vassal_order_free(g, house: int, kind: int, replacing: int) -> bool:
    """Whether vassal ``house`` still has the token for an order of ``kind`` (``replacing``: a
    kind taken back at the same time, or -1)."""
    token = vassal_token(kind)
    if token < 0:
        return False
    used = 0
    for k in range(Order.SEA_MARCH_MINUS):
        if vassal_token(k) == token:
            used += g.orders_used[house, k]
    if replacing >= 0 and vassal_token(replacing) == token:
        used -= 1
    return used < 1


@njit(inline="always")
def vassal_defense_bonus(t, house: int, kind: int) -> int:
    """A defense order's bonus: +1 / +2 by the token, a vassal's defense +3 token +3."""
    bonus = kind - Order.DEFENSE_ONE + 1
    if kind == Order.DEFENSE_TWO and is_vassal(t, house):
        return 3
    return bonus


# --- claiming (V2) -----------------------------------------------------------------------------


@njit
def _counts(t) -> tuple[int, int]:
    players, vassals = 0, 0
    for h in range(H):
        if t.vassal[h]:
            vassals += 1
    players = t.players - vassals
    return players, vassals


@njit
def claim_share(t, k: int) -> int:
    """The claims the ``k``-th player house in Iron Throne order (1-based) may make of its own:
    floor(vassals / players), one more for the first (vassals mod players)."""
    players, vassals = _counts(t)
    return vassals // players + (1 if k <= vassals % players else 0)


@njit
def player_at(g, t, k: int) -> int:
    """The ``k``-th player house (1-based) on the Iron Throne track, -1 past the last."""
    seen = 0
    for p in range(t.players):
        house = g.track[0, p]
        if house >= 0 and not t.vassal[house]:
            seen += 1
            if seen == k:
                return house
    return -1


@njit
def _unclaimed(g, t) -> int:
    n = 0
    for h in range(H):
        if t.vassal[h] and g.commander[h] < 0:
            n += 1
    return n


@njit
def claim_step(g, t) -> bool:
    """Share the vassals out at the start of a planning phase; True while a ``CLAIM_VASSAL``
    decision is pending. Each player in Iron Throne order may claim its share; claims it
    passes on go to the next player; the last player takes whatever is left."""
    if g.claim_turn == CLAIMS_DONE:
        return False
    players, _ = _counts(t)
    if g.claim_turn == 0:
        for h in range(H):
            if t.vassal[h]:
                g.commander[h] = -1
        g.claim_turn = 1
        g.claim_left = claim_share(t, 1)
    while g.claim_turn <= players:
        house = player_at(g, t, g.claim_turn)
        if g.claim_turn == players:
            for h in range(H):
                if t.vassal[h] and g.commander[h] < 0:
                    g.commander[h] = house
            break
        if g.claim_left > 0 and _unclaimed(g, t) > 0:
            ask(g, Decision.CLAIM_VASSAL, house, g.claim_left)
            return True
        _next_claimer(g, t)
    g.claim_turn = CLAIMS_DONE
    return False


@njit
def _next_claimer(g, t) -> None:
    carried = g.claim_left
    g.claim_turn += 1
    g.claim_left = claim_share(t, g.claim_turn) + carried


@njit
def claim_legal(g, t, mask) -> None:
    for h in range(H):
        mask[h] = t.vassal[h] != 0 and g.commander[h] < 0
    mask[ACT_NONE] = True


@njit
def claim_apply(g, t, house: int, action: int) -> None:
    if action == ACT_NONE:
        _next_claimer(g, t)
        return
    g.commander[action] = house
    g.claim_left -= 1


@njit
def end_of_planning(g) -> None:
    """The claims are made anew at the next planning phase."""
    g.claim_turn = 0
    g.claim_left = 0


# --- the vassal house cards (V12-V19; their abilities: ``battle.vassal_cards``) ----------------

VASSAL_HAND = 3  # the vassal cards dealt to a vassal for each combat


@njit
def deal_vassal_cards(g, t, side: int) -> None:
    """A vassal in a battle (``side``) is dealt 3 of the 7 vassal cards at random (nature's
    stream) as its battle hand; it keeps no discard pile (V12)."""
    b = g.battle
    o = side * cb.SIDE
    b[cb.VASSAL + side] = 1
    b[o + cb.HAND] = 0
    b[o + cb.DISCARDS] = 0
    left = cb.VASSAL_CARD_COUNT
    for _ in range(VASSAL_HAND):
        k = below(g.rng, NATURE, left)
        for v in range(cb.VASSAL_CARD_COUNT):
            card = cb.VASSAL_CARD_FIRST + v
            if not (b[o + cb.HAND] >> card) & 1:
                if k == 0:
                    b[o + cb.HAND] |= cb.bit(card)
                    break
                k -= 1
        left -= 1
