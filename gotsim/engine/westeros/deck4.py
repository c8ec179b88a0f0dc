"""Mother of Dragons' Westeros deck IV (8 players; ``docs/rules.md`` M15).

Ten cards, each drawn once: one a Westeros phase, resolved after the cards of decks I–III
(``g.deck4``, shuffled at the start, ``g.deck4_next`` drawn so far, ``g.deck4_drawn`` this
round's card). Each card puts loyalty tokens on the areas printed on it, then offers House
Targaryen (or every house) what it prints, through ``Decision.LOYALTY`` decisions (ctx0 a
``LoyaltyStep``). Built: Domestic Disputes, Empty Promises, Southron Ambitions, Strongholds of
Resistance (Targaryen's paid placements), Fire Made Flesh (a dragon destroyed for strength, or
one back in Pentos), Scattering Dissent and Word Spreads Quickly (every house moves a token,
Targaryen may cancel each move), Playing with Fire (a token and another house's unit in an empty
area of Westeros), The Long Plan (another house puts two tokens in Westeros) and Watering the
Seed (two tokens next to rivers, for Targaryen's victory points in power).

The stage of the card in progress is kept in the Westeros phase's work counters
(``westeros_effect`` the stage, ``westeros_loop`` a count or turn position, ``westeros_area``
the houses chosen or the token's area)."""

from __future__ import annotations

from enum import IntEnum

from gotsim.engine import loyalty as ly
from gotsim.engine.board_state import LAND, ask, controller, lose_power
from gotsim.engine.dragons import MAX_DRAGON_STRENGTH
from gotsim.engine.state import ACT_FOOTMAN, ACT_NONE, Decision
from gotsim.engine.vassals import is_vassal
from gotsim.engine.westeros.common import remove_unit, units_of
from gotsim.jit import njit
from gotsim.rules.ids import DRAGON, FOOTMAN, SHIP, SIEGE, House


class Deck4Card(IntEnum):
    """Deck IV's cards in the order of ``expansions.json`` ``westeros_deck_IV.cards``."""

    DOMESTIC_DISPUTES = 0
    EMPTY_PROMISES = 1
    FIRE_MADE_FLESH = 2
    PLAYING_WITH_FIRE = 3
    SCATTERING_DISSENT = 4
    SOUTHRON_AMBITIONS = 5
    STRONGHOLDS_OF_RESISTANCE = 6
    THE_LONG_PLAN = 7
    WATERING_THE_SEED = 8
    WORD_SPREADS_QUICKLY = 9


class LoyaltyStep(IntEnum):
    """What a ``LOYALTY`` decision asks (its ctx0)."""

    CHOICE = 0  # Targaryen: ctx1, ctx2 the two areas; action one of them (pays 1) or ACT_NONE
    HOME = 1  # Targaryen: a home area of another house (the first pays 1), or ACT_NONE: stop
    FIRE = 2  # Targaryen: an area of its dragon to destroy (strength token), ACT_FOOTMAN a
    # dragon back in Pentos, or ACT_NONE
    MOVE_FROM = 3  # a house: an area with a loyalty token it moves
    MOVE_TO = 4  # ctx1 the area; action a land area next to it
    CANCEL = 5  # Targaryen: ctx1 from, ctx2 to, ctx3 the cost; action 1 cancel, 0 let it be
    PLAY_AREA = 6  # Targaryen (Playing with Fire): an uncontrolled land area of Westeros without
    # garrison or neutral force (pays 1, a token there), or ACT_NONE
    PLAY_HOUSE = 7  # Targaryen: ctx1 that area; action the House whose unit goes there
    PLAY_UNIT = 8  # that house: ctx1 the area; action the Unit (footman, knight, siege engine)
    PLAN_HOUSE = 9  # Targaryen (The Long Plan): the House that puts two tokens (pays 1), ACT_NONE
    PLAN_AREA = 10  # that house: ctx1 its first token's area (-1 none yet); action a land area
    # of Westeros
    WATER = 11  # Targaryen (Watering the Seed): ctx1 the first token's area (-1: not paid yet,
    # ACT_NONE declines), ctx2 the price; action a land area next to a river it does not control


N_DECK4 = 10
TARGARYEN = int(House.TARGARYEN)
S_DRAW, S_END, S_HOMES, S_MOVES, S_MOVE_DONE = 0, 1, 2, 3, 4
D_DOMESTIC, D_EMPTY, D_FIRE, D_PLAYING = 0, 1, 2, 3
D_SCATTERING, D_SOUTHRON, D_STRONGHOLDS, D_PLAN, D_WATER, D_WORD = 4, 5, 6, 7, 8, 9
MOVE_COST = (1, 2)  # Targaryen's price to cancel a move: Scattering Dissent, Word Spreads Quickly


@njit
def deck4_step(g, t) -> bool:
    """Draw and resolve this round's deck IV card; True when it is done (False: a decision is
    pending, the step goes on when it is answered)."""
    while g.pending == Decision.NONE:
        stage = g.westeros_effect
        if stage == S_DRAW:
            if g.deck4_next >= N_DECK4:
                g.deck4_drawn = -1
                return True
            card = g.deck4[g.deck4_next]
            g.deck4_next += 1
            g.deck4_drawn = card
            for k in range(t.deck4_fixed.shape[1]):
                a = t.deck4_fixed[card, k]
                if a >= 0:
                    ly.place(g, t, a, 1)
            g.westeros_effect = S_END
            g.westeros_loop = 0
            g.westeros_area = 0
            if card == D_EMPTY or card == D_SOUTHRON or card == D_STRONGHOLDS:
                if g.power[TARGARYEN] >= 1 and ly.loyalty_on_board(g, t) < ly.MAX_LOYALTY:
                    a, b = t.deck4_choice[card, 0], t.deck4_choice[card, 1]
                    ask(g, Decision.LOYALTY, TARGARYEN, LoyaltyStep.CHOICE, a, b)
            elif card == D_DOMESTIC:
                g.westeros_effect = S_HOMES
            elif card == D_FIRE:
                if _fire_options(g, t) > 0:
                    ask(g, Decision.LOYALTY, TARGARYEN, LoyaltyStep.FIRE)
            elif card == D_SCATTERING or card == D_WORD:
                g.westeros_effect = S_MOVES
            elif _paid_option(g, t, card):
                if card == D_PLAYING:
                    ask(g, Decision.LOYALTY, TARGARYEN, LoyaltyStep.PLAY_AREA)
                elif card == D_PLAN:
                    ask(g, Decision.LOYALTY, TARGARYEN, LoyaltyStep.PLAN_HOUSE)
                else:
                    ask(g, Decision.LOYALTY, TARGARYEN, LoyaltyStep.WATER, -1, water_price(g, t))
        elif stage == S_HOMES:
            g.westeros_effect = S_END
            if _home_options(g, t) > 0:
                g.westeros_effect = S_HOMES  # asked again after each home chosen
                ask(g, Decision.LOYALTY, TARGARYEN, LoyaltyStep.HOME)
        elif stage == S_MOVES:
            if g.westeros_loop >= t.players:
                ly.collect(g, t)  # after loyalty tokens move (S&R)
                g.westeros_effect = S_END
                continue
            p = g.westeros_loop
            if g.deck4_drawn == D_SCATTERING:  # reverse turn order
                p = t.players - 1 - p
            house = g.track[0, p]
            g.westeros_loop += 1
            if house >= 0 and any_move(g, t):
                ask(g, Decision.LOYALTY, house, LoyaltyStep.MOVE_FROM)
        else:
            return True
    return False


@njit
def _move_cost(g) -> int:
    return MOVE_COST[0] if g.deck4_drawn == D_SCATTERING else MOVE_COST[1]


@njit
def _land_next_to(t, a: int, b: int) -> bool:
    return b != a and t.kind[b] == LAND and t.adjacent[a, b] != 0


@njit
def _movable(t, g, a: int) -> bool:
    if g.loyalty[a] <= 0:
        return False
    for j in range(t.neighbours.shape[1]):
        b = t.neighbours[a, j]
        if b < 0:
            break
        if _land_next_to(t, a, b):
            return True
    return False


@njit
def any_move(g, t) -> bool:
    """Some loyalty token has a land area next to it to move to."""
    for a in range(t.n_areas):
        if _movable(t, g, a):
            return True
    return False


@njit
def _home_options(g, t) -> int:
    """The home areas Domestic Disputes may still take a token on (0 when done)."""
    chosen = g.westeros_loop
    if chosen >= 4 or ly.loyalty_on_board(g, t) >= ly.MAX_LOYALTY:
        return 0
    if chosen == 0 and g.power[TARGARYEN] < 1:
        return 0
    n = 0
    for a in range(t.n_areas):
        n += 1 if _home_ok(g, t, a) else 0
    return n


@njit
def _home_ok(g, t, a: int) -> bool:
    h = t.home[a]
    if h < 0 or h == TARGARYEN or not g.in_play[h] or t.kind[a] != LAND:
        return False
    return not (g.westeros_area >> h) & 1


@njit
def _fire_token_left(g, t) -> bool:
    r = min(max(int(g.game_round), 1), 10)
    return int(t.dragon_strength[r]) + int(g.dragon_boost) < MAX_DRAGON_STRENGTH


@njit
def _revive_ok(g, t) -> bool:
    home = t.restored_garrison_area
    if home < 0 or controller(g, t, home) != TARGARYEN:
        return False
    if g.owner[home] >= 0 and g.owner[home] != TARGARYEN:
        return False
    n = 0
    for a in range(t.n_areas):
        n += g.units[a, DRAGON]
    return n < t.unit_limits[TARGARYEN, DRAGON]


@njit
def _fire_options(g, t) -> int:
    n = 1 if _revive_ok(g, t) else 0
    if _fire_token_left(g, t):
        for a in range(t.n_areas):
            if g.owner[a] == TARGARYEN and g.units[a, DRAGON] > 0:
                n += 1
    return n


@njit
def _token_left(g, t) -> bool:
    return ly.loyalty_on_board(g, t) < ly.MAX_LOYALTY


@njit
def water_price(g, t) -> int:
    """Watering the Seed's price: Targaryen's place on the victory track (its points, M13)."""
    return ly.targaryen_points(g, t)


@njit
def play_area_ok(g, t, a: int) -> bool:
    """Playing with Fire: an uncontrolled land area of Westeros, no garrison, no neutral force."""
    return (
        t.westeros_land[a] != 0
        and controller(g, t, a) < 0
        and g.garrison[a] == 0
        and g.neutral[a] == 0
    )


@njit
def _other_house_ok(g, t, h: int) -> bool:
    return h != TARGARYEN and g.in_play[h] and not is_vassal(t, h)


@njit
def play_unit_ok(g, t, h: int, u: int) -> bool:
    """``h`` has a unit ``u`` (footman, knight, siege engine) left to put on the board."""
    return FOOTMAN <= u <= SIEGE and u != SHIP and units_of(g, t, h, u) < t.unit_limits[h, u]


@njit
def _play_house_ok(g, t, h: int) -> bool:
    if not _other_house_ok(g, t, h):
        return False
    for u in range(FOOTMAN, SIEGE + 1):
        if play_unit_ok(g, t, h, u):
            return True
    return False


@njit
def water_area_ok(g, t, a: int, other: int) -> bool:
    """Watering the Seed: a land area next to a river that Targaryen does not control, not
    ``other`` (the first token's area)."""
    return t.river_land[a] != 0 and controller(g, t, a) != TARGARYEN and a != other


@njit
def _paid_option(g, t, card: int) -> bool:
    """Playing with Fire, The Long Plan, Watering the Seed: Targaryen can pay for the card's
    option (power, a token left, and something to choose)."""
    if not _token_left(g, t):
        return False
    if card == D_WATER:
        if g.power[TARGARYEN] < water_price(g, t):
            return False
        return _water_left(g, t, -1)
    if (card != D_PLAYING and card != D_PLAN) or g.power[TARGARYEN] < 1:
        return False
    house_ok = False
    for h in range(g.in_play.shape[0]):
        if _play_house_ok(g, t, h) if card == D_PLAYING else _other_house_ok(g, t, h):
            house_ok = True
    if card == D_PLAN or not house_ok:
        return house_ok
    for a in range(t.n_areas):
        if play_area_ok(g, t, a):
            return True
    return False


@njit
def deck4_legal(g, t, mask) -> None:
    step = g.ctx[0]
    if step == LoyaltyStep.CHOICE:
        mask[g.ctx[1]] = True
        mask[g.ctx[2]] = True
        mask[ACT_NONE] = True
    elif step == LoyaltyStep.HOME:
        for a in range(t.n_areas):
            mask[a] = _home_ok(g, t, a)
        mask[ACT_NONE] = True
    elif step == LoyaltyStep.FIRE:
        if _fire_token_left(g, t):
            for a in range(t.n_areas):
                mask[a] = g.owner[a] == TARGARYEN and g.units[a, DRAGON] > 0
        mask[ACT_FOOTMAN] = _revive_ok(g, t)
        mask[ACT_NONE] = True
    elif step == LoyaltyStep.MOVE_FROM:
        for a in range(t.n_areas):
            mask[a] = _movable(t, g, a)
    elif step == LoyaltyStep.MOVE_TO:
        a = g.ctx[1]
        for j in range(t.neighbours.shape[1]):
            b = t.neighbours[a, j]
            if b < 0:
                break
            mask[b] = _land_next_to(t, a, b)
    elif step == LoyaltyStep.CANCEL:
        mask[0] = True
        mask[1] = True
    elif step == LoyaltyStep.PLAY_AREA:
        for a in range(t.n_areas):
            mask[a] = play_area_ok(g, t, a)
        mask[ACT_NONE] = True
    elif step == LoyaltyStep.PLAY_HOUSE:
        for h in range(g.in_play.shape[0]):
            mask[h] = _play_house_ok(g, t, h)
    elif step == LoyaltyStep.PLAY_UNIT:
        house = g.pending_house
        for u in range(FOOTMAN, SIEGE + 1):
            mask[u] = play_unit_ok(g, t, house, u)
    elif step == LoyaltyStep.PLAN_HOUSE:
        for h in range(g.in_play.shape[0]):
            mask[h] = _other_house_ok(g, t, h)
        mask[ACT_NONE] = True
    elif step == LoyaltyStep.PLAN_AREA:
        for a in range(t.n_areas):
            mask[a] = t.westeros_land[a] != 0 and a != g.ctx[1]
    elif step == LoyaltyStep.WATER:
        for a in range(t.n_areas):
            mask[a] = water_area_ok(g, t, a, g.ctx[1])
        mask[ACT_NONE] = g.ctx[1] < 0


@njit
def deck4_apply(g, t, house: int, action: int) -> None:
    step = g.ctx[0]
    if step == LoyaltyStep.CHOICE:
        if action != ACT_NONE:
            lose_power(g, TARGARYEN, 1)
            ly.place(g, t, action, 1)
    elif step == LoyaltyStep.HOME:
        if action == ACT_NONE:
            g.westeros_effect = S_END
        else:
            if g.westeros_loop == 0:
                lose_power(g, TARGARYEN, 1)
            ly.place(g, t, action, 1)
            g.westeros_loop += 1
            g.westeros_area |= 1 << int(t.home[action])
    elif step == LoyaltyStep.FIRE:
        if action == ACT_FOOTMAN:
            home = t.restored_garrison_area
            g.owner[home] = TARGARYEN
            g.units[home, DRAGON] += 1
        elif action != ACT_NONE:
            remove_unit(g, t, action, DRAGON)  # (an emptied area: order, owner, ports, B12)
            g.dragon_boost += 1
    elif step == LoyaltyStep.MOVE_FROM:
        ask(g, Decision.LOYALTY, house, LoyaltyStep.MOVE_TO, action)
    elif step == LoyaltyStep.MOVE_TO:
        source = g.ctx[1]
        cost = _move_cost(g)
        if house != TARGARYEN and g.power[TARGARYEN] >= cost:
            ask(g, Decision.LOYALTY, TARGARYEN, LoyaltyStep.CANCEL, source, action, cost)
        else:
            _move_token(g, source, action)
    elif step == LoyaltyStep.CANCEL:
        if action == 1:
            lose_power(g, TARGARYEN, g.ctx[3])
        else:
            _move_token(g, g.ctx[1], g.ctx[2])
    elif step == LoyaltyStep.PLAY_AREA:
        if action != ACT_NONE:
            lose_power(g, TARGARYEN, 1)
            ly.place(g, t, action, 1)
            ask(g, Decision.LOYALTY, TARGARYEN, LoyaltyStep.PLAY_HOUSE, action)
    elif step == LoyaltyStep.PLAY_HOUSE:
        ask(g, Decision.LOYALTY, action, LoyaltyStep.PLAY_UNIT, g.ctx[1])
    elif step == LoyaltyStep.PLAY_UNIT:
        a = g.ctx[1]
        g.owner[a] = house
        g.units[a, action] += 1
    elif step == LoyaltyStep.PLAN_HOUSE:
        if action != ACT_NONE:
            lose_power(g, TARGARYEN, 1)
            ask(g, Decision.LOYALTY, action, LoyaltyStep.PLAN_AREA, -1)
    elif step == LoyaltyStep.PLAN_AREA:
        ly.place(g, t, action, 1)
        if g.ctx[1] < 0 and _token_left(g, t):
            ask(g, Decision.LOYALTY, house, LoyaltyStep.PLAN_AREA, action)
    elif step == LoyaltyStep.WATER:
        if action != ACT_NONE:
            first = g.ctx[1] < 0
            if first:
                lose_power(g, TARGARYEN, g.ctx[2])
            ly.place(g, t, action, 1)
            if first and _token_left(g, t) and _water_left(g, t, action):
                ask(g, Decision.LOYALTY, TARGARYEN, LoyaltyStep.WATER, action, g.ctx[2])


@njit
def _move_token(g, source: int, dest: int) -> None:
    g.loyalty[source] -= 1
    g.loyalty[dest] += 1


@njit
def _water_left(g, t, other: int) -> bool:
    for a in range(t.n_areas):
        if water_area_ok(g, t, a, other):
            return True
    return False
