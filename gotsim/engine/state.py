"""Game state as one numpy record per game, and the engine's fixed vocabularies.

A batch of games is a 1-D array of ``STATE_DTYPE`` (axis ``G``). Each record holds every fact of
one game — board, tokens, tracks, hands, decks, the pending decision and the loop counters of the
phase in progress — in small integer fields, so the compiled engine can run, stop at any decision
and resume. Axes inside a record: ``A`` areas (``A_MAX`` slots; a board uses the first
``n_areas``), ``H`` houses (``House`` order), ``U`` unit types (``Unit`` order), ``T`` the three
influence tracks (``Track`` order).
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np

from gotsim.data import load_data
from gotsim.engine.combat import BATTLE_LEN
from gotsim.engine.counters import (
    ONE_TIME_COUNTERS,
    PHASE_COUNTERS,
    WESTEROS_COUNTERS,
    WESTEROS_WORK,
)
from gotsim.rules.ids import OrderType

A_MAX = 75  # area slots (the 2e board has 58 areas, 59 with A Feast for Crows' Eyrie port, 61
# and 75 on Mother of Dragons' boards; the 1e board 45 and 8 module ports). Sets of areas are
# kept as bits of two 64-bit words (engine.area_bits: up to 128)
H = 8  # every House; a game puts 3 to 8 of them in play (Arryn: A Feast for Crows, Mother of
# Dragons; Targaryen: Mother of Dragons at 8 players and its 8-house vassal board)
U = 5  # footmen, knights, ships, siege engines and (Mother of Dragons) dragons
N_ACTIONS = 81  # every decision's options are numbered 0 … N_ACTIONS - 1 (the areas, then the
# six special actions ACT_UPGRADE_SIEGE … ACT_NONE)
N_LOANS = 12  # Mother of Dragons' Iron Bank: loan cards (rules.iron_bank.LOAN_CARDS)
N_LOAN_SLOTS = 3  # … and face-up loan slots
CTX = 8  # context slots of a pending decision
N_STREAMS = 1 + H  # random streams: nature, then one per house (its policy)
NATURE = 0
HISTORY_COLUMNS = 16
H_WESTEROS, H_THREAT, H_ATTACKS, H_ATTACK_RESULT, H_LEADERS, H_ATTACK_CARD = 0, 3, 4, 5, 6, 9
H_WINTER, H_RAVEN_HOLDER, H_RAVEN_USE, H_RAVEN_CARD = 10, 13, 14, 15


class Track(IntEnum):
    IRON_THRONE = 0
    FIEFDOMS = 1
    KINGS_COURT = 2


class Phase(IntEnum):
    SETUP = 0
    WESTEROS = 1
    PLANNING = 2
    RAVEN = 3
    RAIDS = 4
    MARCHES = 5
    CONSOLIDATE = 6
    CLEANUP = 7
    GAME_OVER = 8
    # A Feast for Crows: the objective cards kept at the start, and the steps after the action
    # phase (supply, special objectives, objectives, drawing); ``engine.objectives``
    OBJECTIVES = 9


class EndReason(IntEnum):
    NONE = 0
    CASTLES = 1
    ROUND10 = 2  # decided by the ranking after the last round (10; 6 in A Dance with Dragons)
    OBJECTIVES = 3  # A Feast for Crows: 7 victory points scored with objectives
    LOYALTY = 4  # Mother of Dragons: House Targaryen's 7 loyalty tokens


class Order(IntEnum):
    """The kinds of order token: the base game's eleven (15 tokens per house; see
    ``ORDER_COUNT``) and Mother of Dragons' two sea order tokens (``sea_orders``: one of each
    per house, placed in sea areas only, ``ORDER_SEA_ONLY``), then the Iron Bank's order token
    (``iron_bank``: one per house, sea areas only; no star, no strength)."""

    MARCH_MINUS = 0
    MARCH_ZERO = 1
    MARCH_PLUS = 2  # star
    DEFENSE_ONE = 3
    DEFENSE_TWO = 4  # star
    SUPPORT_ZERO = 5
    SUPPORT_ONE = 6  # star
    RAID = 7
    RAID_STAR = 8  # star
    CONSOLIDATE = 9
    CONSOLIDATE_STAR = 10  # star
    SEA_MARCH_MINUS = 11  # Mother of Dragons: a march -1 for a sea area
    SEA_SUPPORT_ZERO = 12  # Mother of Dragons: a support +0 for a sea area
    SEA_IRON_BANK = 13  # Mother of Dragons' Iron Bank token (``iron_bank``): buys a loan (IB5)


N_ORDER_KINDS = len(Order)
N_BASE_ORDER_KINDS = 11  # the base game's kinds, ``Order`` 0 … 10
# each kind's token in the data (``data/2e/orders.json`` ``tokens``; the 1st edition's fifteen
# tokens are the same), in ``Order`` order: the facts below are read from there
ORDER_TOKEN_IDS = (
    "march_minus_1",
    "march_0",
    "march_plus_1",
    "defense_plus_1",
    "defense_plus_2",
    "support_0",
    "support_plus_1",
    "raid",
    "raid_special",
    "consolidate_power",
    "consolidate_power_special",
    # Mother of Dragons' sea order tokens (``data/2e/expansions.json`` ``components.sea_orders``)
    "sea_march_minus_1",
    "sea_support",
    "sea_iron_bank",  # the Iron Bank's (``components.sea_orders`` too; count 1 with the bank)
)


def _order_tables() -> tuple[np.ndarray, ...]:
    tokens = {token["id"]: token for token in load_data("2e", "orders.json")["tokens"]}
    base = ORDER_TOKEN_IDS[:N_BASE_ORDER_KINDS]
    if sorted(tokens) != sorted(base):
        raise ValueError(
            f"2e/orders.json tokens {sorted(tokens)} are not the engine's {list(base)}"
        )
    sea = load_data("2e", "expansions.json")["components"]["sea_orders"]["tokens"]
    for token in sea:
        if token["id"] in ORDER_TOKEN_IDS:
            tokens[token["id"]] = {**token, "count": 1}  # one of each per house
    rows = [tokens[token_id] for token_id in ORDER_TOKEN_IDS]
    tables = (
        np.array([row["count"] for row in rows], np.int8),  # tokens of each kind
        np.array([row["special"] for row in rows], np.int8),  # a star order
        np.array([row.get("modifier", 0) for row in rows], np.int8),
        np.array([OrderType.from_id(row["type"]) for row in rows], np.int8),
        np.array([row.get("restricted_to") == "sea" for row in rows], np.int8),  # sea areas only
    )
    for table in tables:
        table.setflags(write=False)
    return tables


ORDER_COUNT, ORDER_STAR, ORDER_BONUS, ORDER_TYPE, ORDER_SEA_ONLY = _order_tables()
ORDER_MARCH, ORDER_SUPPORT = int(OrderType.MARCH), int(OrderType.SUPPORT)  # ORDER_TYPE values


ORDER_NAMES = (
    "march-1",
    "march+0",
    "march+1",
    "defense+1",
    "defense+2",
    "support+0",
    "support+1",
    "raid",
    "raid*",
    "consolidate_power",
    "consolidate_power*",
    "sea_march-1",
    "sea_support+0",
    "sea_iron_bank",
)


class RavenUse(IntEnum):
    """What the Messenger Raven's holder did in a round (``history`` column ``H_RAVEN_USE``)."""

    UNSEEN = 0  # the record did not see the round's raven step (a game resumed after it)
    NOTHING = 1  # kept its orders and did not look
    REPLACED_ORDER = 2
    KEPT_WILDLING_CARD = 3  # looked at the top wildling card and left it on top
    BURIED_WILDLING_CARD = 4  # looked and put it at the bottom of the deck


class OneTimeOrder(IntEnum):
    """A Clash of Kings one-time orders (1e variant ``one_time_orders``): the three common kinds
    every house has, then the house ones (``ONE_TIME_HOUSE``). Each is placed at most once a
    game; ``ONE_TIME_TYPE`` is the step (order type) its corner icon resolves in."""

    MUSTER = 0
    SUPPLY_TRAIN = 1
    FORCED_MARCH = 2
    IRON_FLEET = 3  # Greyjoy
    YOUNG_WOLF = 4  # Stark
    POWER_OF_HIGHGARDEN = 5  # Tyrell
    LIONS_CUNNING = 6  # Lannister
    SOUL_OF_RHLLOR = 7  # Baratheon


N_ONE_TIME = len(OneTimeOrder)
ONE_TIME_TYPE = np.array([5, 5, 1, 4, 4, 5, 4, 4], np.int8)  # rules.ids.OrderType of the icon
ONE_TIME_HOUSE = np.array([-1, -1, -1, 3, 2, 4, 1, 0], np.int8)  # House, -1 for every house
ONE_TIME_NAMES = tuple(kind.name.lower() for kind in OneTimeOrder)
for _table in (ONE_TIME_TYPE, ONE_TIME_HOUSE):
    _table.setflags(write=False)


class Restriction(IntEnum):
    """Bits of ``restrict``: orders that Westeros deck III forbids this round."""

    NO_DEFENSE = 1
    NO_MARCH_PLUS = 2
    NO_RAID = 4
    NO_SUPPORT = 8
    NO_CONSOLIDATE = 16
    FOOTMEN_NO_SUPPORT = 32  # 1st-edition Rains of Autumn: supporting footmen add no strength


class Decision(IntEnum):
    """Kinds of pending decision. ``ctx`` and the meaning of the action number are per kind."""

    NONE = 0
    PLACE_ORDER = 1  # ctx0 area; action = Order kind (1e also ACT_NONE: no order there)
    RAVEN = 2  # action 0 keep, 1 replace an order, 2 look at the top wildling card
    RAVEN_AREA = 3  # action = area whose order is replaced
    RAVEN_ORDER = 4  # ctx0 area; action = Order kind put there instead
    RAVEN_BURY = 5  # ctx0 wildling card seen; action 0 leave on top, 1 put at the bottom
    RAID_FROM = 6  # action = area of the raid order resolved now
    RAID_TARGET = 7  # ctx0 raid area, ctx1 1 for a 1e star raid's second target; action = area
    # raided, or ACT_NONE (no effect)
    MARCH_FROM = 8  # action = area of the march order resolved now
    MARCH_UNIT = 9  # ctx0 origin, ctx1 unit type; action = destination area (origin: stay)
    LEAVE_POWER = 10  # ctx0 origin; action 0 no, 1 leave a power token
    SUPPORT_SIDE = 11  # ctx0 combat area; action 0 nobody, 1 attacker, 2 defender
    HOUSE_CARD = 12  # ctx0 side; action = card slot 0-6 in the house's deck
    TYRION = 13  # action 0 keep, 1 cancel the opponent's card
    AERON = 14  # action 0 keep, 1-7 pay 2 power and play card slot (action - 1)
    QUEEN_OF_THORNS = 15  # action = area of the opponent's order to remove, ACT_NONE none
    DORAN = 16  # action = Track
    BLADE = 17  # ctx0 side, ctx1 0: step 4a, own Tides card seen (action 0 keep, 2 redraw);
    # 1: step 4c, both cards seen (action 0 keep, 1 +1 strength)
    CASUALTY = 18  # ctx0 side, ctx1 losses left, ctx2 1 if lost to a retreat's supply; action =
    # Unit to destroy
    RETREAT = 19  # ctx0 choosing side, ctx1 retreating side; action = area to retreat into
    RENLY = 20  # action = area of a footman to upgrade, ACT_NONE none
    CERSEI = 21  # action = area of the loser's order to remove (1e Asha: an adjacent support or
    # consolidate power order), ACT_NONE none
    PATCHFACE = 22  # ctx0 the house whose card slots are offered; action = card slot, ACT_NONE
    # none. ctx1 0: Patchface discards from the opponent's hand; 1: 1e Melisandre, the same for 1
    # power; 2: 1e Maester Luwin takes a card of his own discards back (ctx2 the winner's side)
    MUSTER = 23  # ctx0 area, ctx1 points left; action: area (ship there) or ACT_* unit codes
    SUPPLY_CUT = 24  # action = area of an army to shrink by one unit
    SUPPLY_CUT_UNIT = 25  # ctx0 area; action = Unit to destroy
    BID = 26  # ctx0 Track (or 3 for the wildlings); action = power bid
    TIE_ORDER = 27  # ctx0 Track; action = House placed next among the tied
    WESTEROS_CHOICE = 28  # ctx0 card; action = option index of the card
    WILDLING_CHOICE = 29  # ctx0 wildling card, ctx1 role; action = option index
    DESTROY_UNIT = 30  # ctx0 units left to destroy; action = area (one unit there)
    DESTROY_UNIT_TYPE = 31  # ctx0 area; action = Unit
    CROW_KILLERS = 32  # action = area of a knight to downgrade (or upgrade a footman)
    TRACK_CHOICE = 33  # action = Track
    CONSOLIDATE_CHOICE = 34  # ctx0 area of a star consolidate order; action 0 power, 1 muster.
    # ctx1 1: 1e A Clash of Kings fortifications, any consolidate order on land; action 0 power,
    # 1 build a fortification there instead (no power)
    # 1e A Clash of Kings one-time orders (gotsim.engine.one_time):
    ONE_TIME_ORDER = 35  # planning, before the other orders; action = OneTimeOrder, ACT_NONE none
    ONE_TIME_AREA = 36  # ctx0 OneTimeOrder; action = area it is placed on
    ONE_TIME_TARGET = 37  # ctx0 OneTimeOrder, ctx1 its area, ctx2 step; action per kind: an area
    # (Iron Fleet, Soul of R'hllor), a House (Lion's Cunning, Power of Highgarden's demands), a
    # card slot (Power of Highgarden's discard); ACT_NONE none / stop
    ONE_TIME_MOVE = 38  # ctx0 area the unit stands in, ctx1 unit type, ctx2 OneTimeOrder (Young
    # Wolf, Forced March), ctx3 its area; action = destination (ctx0: stay)
    # 2e A Dance with Dragons house cards (gotsim.engine.battle.adwd):
    CARD_ABILITY = 39  # ctx0 side, ctx1 the card's Ability, ctx2 stage, ctx3 (Rodrik) the deck;
    # action per ability: Aeron Damphair the power spent; Qyburn the card number copied; Ser
    # Ilyn Payne the area of the footman destroyed; Jon Snow 0 nothing, 1 threat down, 2 up;
    # Rodrik the Reader (stage 0) the Westeros deck, (stage 1) the WesterosCard put on top; Ser
    # Gerris Drinkwater the Track; Reek 0 discard him, 1 back to hand; Melisandre the deck slot
    # bought back; (A Feast for Crows, House Arryn) Alayne Stone 1 pay 2 power. ACT_NONE: the
    # ability is not used
    # 2e A Feast for Crows objective cards (gotsim.engine.objectives):
    OBJECTIVE = 40  # ctx0 ObjectiveStep; action: an Objective number (the card moved or
    # scored), or for SPECIAL 0 pass, 1 score; ACT_NONE: score nothing (SCORE)
    # vassals variant (gotsim.engine.vassals):
    CLAIM_VASSAL = 41  # ctx0 claims left; action = House of the vassal claimed, ACT_NONE: pass
    # the claims left on to the next player
    # 2e Mother of Dragons' Westeros deck IV (gotsim.engine.westeros.deck4)
    LOYALTY = 42  # ctx0 LoyaltyStep; action per step: an area, ACT_FOOTMAN, ACT_NONE, 0/1, a
    # House (Playing with Fire, The Long Plan), a Unit (Playing with Fire)
    # 2e Mother of Dragons' Iron Bank (docs/rules.md IB1-IB9; gotsim.engine.iron_bank and, for
    # a loan card's choices, gotsim.engine.loans):
    BUY_LOAN = 43  # ctx0 area of the Iron Bank order; action = loan slot 0-2, ACT_NONE none
    PAY_DEBT = 44  # ctx0 step (0: an area, 1: a unit type), ctx1 the debtor, ctx2 the area
    # chosen, ctx3 units still owed; action = area with the debtor's units, then Unit
    LOAN = 45  # ctx0 LoanStep, ctx1 the LoanCard, ctx2 the step's count (a sellsword's place in
    # the card's list, improvements put), ctx3 an area chosen before (-1 none) or the deck seen;
    # action per step: an area, ACT_NONE (nothing more), a deck, an arrangement, 0/1
    # 2e Mother of Dragons' Clash of Kings (gotsim.engine.westeros.bidding)
    TARGARYEN_BID = 46  # ctx0 Track, ctx1 power of Targaryen's bid left to hand out; action =
    # House whose bid one of them raises
    # 2e Mother of Dragons' gifts of power tokens (``gift_power``; gotsim.engine.gifts)
    GIFT_POWER = 47  # ctx0 step (0: the receiver, 1: how many), ctx1 the receiver; action = a
    # House (ACT_NONE: no gift), then the number of power tokens given


class ObjectiveStep(IntEnum):
    """What an ``OBJECTIVE`` decision asks (its ctx0)."""

    RETURN = 0  # put a card of the hand back into the deck (the start; New Information)
    SPECIAL = 1  # score the special objective (action 1) or not (0)
    SCORE = 2  # score one objective card of the hand whose condition is met, or none
    POOL_PUT = 3  # Shifting Ambitions: put a card of the hand into the pool
    POOL_TAKE = 4  # Shifting Ambitions: take a card of the pool into the hand


N_OBJECTIVES = 28  # A Feast for Crows objective cards (rules.objectives.Objective)
# where an objective card lies (``objective_at``): in the deck, a house's hand (the House), scored
# by a house (OBJ_SCORED + House) or in the Shifting Ambitions pool
OBJ_DECK = -1
OBJ_SCORED = 8  # = H: scored cards are H + house
OBJ_POOL = 16  # = 2 H

N_DECISIONS = len(Decision)
# special action numbers above the area range
ACT_NONE = N_ACTIONS - 1  # "none" / "done"
ACT_FOOTMAN = N_ACTIONS - 2  # muster a footman here
ACT_KNIGHT = N_ACTIONS - 3  # muster a knight here
ACT_UPGRADE_KNIGHT = N_ACTIONS - 4  # turn a footman here into a knight
ACT_SIEGE = N_ACTIONS - 5  # muster a siege engine here
ACT_UPGRADE_SIEGE = N_ACTIONS - 6  # turn a footman here into a siege engine
assert A_MAX <= ACT_UPGRADE_SIEGE
assert OBJ_SCORED == H and OBJ_POOL == 2 * H and N_OBJECTIVES < ACT_NONE


def state_dtype(
    houses: int = H, areas: int = A_MAX, order_kinds: int = N_ORDER_KINDS, units: int = U
) -> np.dtype:
    """The record type of one game. Every field: name, dtype, shape, meaning.

    ``houses`` sizes every house axis (``H``, and the ``1 + H`` random streams), ``areas``
    every area axis (``A_MAX``) and ``order_kinds`` the order-kind axis (``N_ORDER_KINDS``);
    other values give the layout of a record with fewer houses, area slots or order kinds, for
    comparing with one kept from before they were added (``benchmarks/check_identical.py
    --houses``, ``--areas``, ``--order-kinds``). ``units`` sizes the unit axis (``U``); 4 gives
    the layout from before Mother of Dragons' dragons, without the fields of the 8-player game
    that came with them (loyalty tokens, Westeros deck IV, dragon strength; ``--units``). The
    engine reads ``STATE_DTYPE`` only."""
    H = houses  # the house axis, named as in the legend
    U = units  # the unit axis
    A_MAX = areas  # the area axis
    N_ORDER_KINDS = order_kinds  # the order-kind axis
    N_STREAMS = 1 + houses
    fields = [
        # --- flow --------------------------------------------------------------------------
        ("game_round", np.int8, ()),  # 1 … 10 (not "round": np.record has a round method)
        ("phase", np.int8, ()),  # Phase
        # where the phase in progress stands (engine.counters.PHASE_COUNTERS: their meanings)
        *((name, np.int16, ()) for name in PHASE_COUNTERS),
        ("turn", np.int8, ()),  # position on the Iron Throne track whose turn it is
        ("passes", np.int8, ()),  # consecutive houses with nothing left in the current step
        ("done", np.uint8, ()),
        ("winner", np.int8, ()),  # House, -1 while running
        ("end_reason", np.int8, ()),  # EndReason
        ("pending", np.int8, ()),  # Decision awaited
        ("pending_house", np.int8, ()),  # House that decides
        ("ctx", np.int16, (CTX,)),  # context of the pending decision
        # --- houses ---------------------------------------------------------------------------
        ("in_play", np.uint8, (H,)),
        ("power", np.int8, (H,)),  # power tokens in hand
        ("supply", np.int8, (H,)),  # supply track position 0 … 6
        ("track", np.int8, (3, H)),  # houses top to bottom per Track, -1 past the last
        ("hand", np.uint8, (H,)),  # bit i: the house's i-th card (deck order) is in hand
        ("discard", np.uint8, (H,)),  # bit i: … is in the discard pile
        ("orders_used", np.int8, (H, N_ORDER_KINDS)),  # tokens of each Order kind on the board
        ("bid", np.int8, (H,)),  # hidden bids of the bidding in progress
        ("blade_used", np.uint8, ()),
        ("restrict", np.int8, ()),  # Restriction bits for this round's planning
        # --- board (first n_areas slots used) -------------------------------------------------
        ("owner", np.int8, (A_MAX,)),  # House whose units stand in the area, -1 if none
        ("units", np.int8, (A_MAX, U)),  # units by type (routed ones included)
        ("routed", np.int8, (A_MAX, U)),  # of which routed
        ("order", np.int8, (A_MAX,)),  # Order kind on the area, -1 if none (owner's)
        ("power_token", np.int8, (A_MAX,)),  # House with a power token there, -1 if none
        ("garrison", np.int8, (A_MAX,)),  # garrison strength (home areas)
        ("neutral", np.int8, (A_MAX,)),  # neutral force token strength, 0 if none
        ("blocked", np.uint8, (A_MAX,)),  # impassable this game
        ("marched", np.uint8, (A_MAX,)),  # units here arrived by a march this round
        # 1e fortifications variant: 1 + the House whose fortification stands there, 0 none
        ("fortification", np.int8, (A_MAX,)),
        # 1e one-time orders variant: the OneTimeOrder on the area (its owner's), -1 none; bit k
        # of one_time_used: the house has placed its kind-k order (each once a game); the house
        # Lion's Cunning keeps from acting against Lannister this round (-1 none); the counters
        # of the one-time order being resolved (gotsim.engine.one_time)
        ("one_time", np.int8, (A_MAX,)),
        ("one_time_used", np.uint16, (H,)),
        # Mother of Dragons' Iron Bank improvements (docs/rules.md IB9): crowns and supply
        # barrels added to each area, and the change of its castle level (+1 a castle upgraded
        # to a stronghold, -1 a level lost); all zero without the Iron Bank, where the board's
        # own facts (engine.tables) stand alone
        ("crown_bonus", np.int8, (A_MAX,)),
        ("barrel_bonus", np.int8, (A_MAX,)),
        ("castle_delta", np.int8, (A_MAX,)),
        # 1 once any improvement is on the board (set with them: board_state.add_improvement),
        # so that games without the Iron Bank read the board's facts alone, as fast as before
        ("improved", np.uint8, ()),
        ("lions_cunning", np.int8, ()),
        *((name, np.int16, ()) for name in ONE_TIME_COUNTERS),
        # --- decks ----------------------------------------------------------------------------
        ("westeros", np.int8, (3, 10)),  # card numbers per deck, drawn from index 0 up
        ("westeros_next", np.int8, (3,)),
        ("westeros_drawn", np.int8, (3,)),  # cards drawn this round (-1 none)
        ("wildlings", np.int8, (9,)),  # wildling card numbers, top first
        ("threat", np.int8, ()),  # wildling threat 0 … 12
        # A Feast for Crows: where each objective card lies (OBJ_DECK, a House: in its hand,
        # OBJ_SCORED + House: scored, OBJ_POOL), and each house's victory points
        ("objective_at", np.int8, (N_OBJECTIVES,)),
        ("vp", np.int8, (H,)),
        # the Westeros phase and wildling attack: where they stand, their work space
        # (engine.counters.WESTEROS_COUNTERS and WESTEROS_WORK)
        *((name, np.int16, ()) for name in WESTEROS_COUNTERS),
        *((name, np.int16, (H,) if name == "new_track" else ()) for name in WESTEROS_WORK),
        # --- combat in progress -------------------------------------------------------------
        ("battle", np.int64, (BATTLE_LEN,)),  # combat.new_battle() layout
        ("combat_area", np.int8, ()),
        ("combat_from", np.int8, ()),
        ("combat_step", np.int8, ()),
        ("losses", np.int8, (2,)),  # casualties each side (attacker, defender) still has to take
        ("support_side", np.int8, (A_MAX,)),  # per supporting area: 0 none, 1 att, 2 def
        ("moving", np.int8, (A_MAX, U)),  # units of the march in progress, by destination
        # work space of marches.transport_walk: the land areas listed, the seas still to walk
        ("walk_lands", np.int16, (A_MAX,)),
        ("walk_seas", np.int16, (A_MAX,)),
        # 1e three-card combat variant: bit i, deck slot i put down face down by each side
        ("card_picks", np.uint8, (2,)),
        # vassals variant (gotsim.engine.vassals): per House the player house commanding it
        # this round (-1: not a vassal, or not claimed yet); the claiming's place (0 not begun
        # this round, k the k-th player house in Iron Throne order, CLAIMS_DONE) and the claims
        # the player asked may still make
        ("commander", np.int8, (H,)),
        ("claim_turn", np.int8, ()),
        ("claim_left", np.int8, ()),
        # Mother of Dragons' Iron Bank (engine.iron_bank, docs/rules.md IB2-IB7): the loan deck
        # (card numbers, rules.iron_bank.LOAN_CARDS order, top first; loan_deck_n of them), the
        # three face-up slots (-1 empty), each house's loans held (bit per card), and the
        # interest's place in a Westeros phase (debt_pos 0 not begun, 1 + the turn-order
        # position of the debtor, players + 1 done; debt_left its units still owed)
        ("loan_deck", np.int8, (N_LOANS,)),
        ("loan_deck_n", np.int8, ()),
        ("loan_slot", np.int8, (N_LOAN_SLOTS,)),
        ("loans_held", np.uint16, (H,)),
        ("debt_pos", np.int8, ()),
        ("debt_left", np.int8, ()),
        # Mother of Dragons' gifts of power tokens (engine.gifts, docs/rules.md M19): the place
        # in the planning phase's turn order of the next house offered a gift (0 not begun,
        # GIFTS_DONE done)
        ("gift_turn", np.int8, ()),
        # --- statistics ------------------------------------------------------------------------
        # per round r (row r-1), columns H_*: Westeros cards drawn I-III (after any Winter Is
        # Coming), threat at round end, wildling attacks, last attack's result (1 Night's Watch,
        # 2 wildlings), track leaders, last wildling card revealed, times Winter Is Coming was
        # drawn from deck I-III, the Messenger Raven's holder, its use (RavenUse) and the
        # wildling card it looked at (-1 none)
        ("history", np.int8, (10, HISTORY_COLUMNS)),
        ("history_castles", np.int8, (10, H)),  # castles held per house at round end
        ("history_stars", np.int8, (10, H)),  # star orders on the board once the raven has acted
        ("history_battles", np.uint8, (10, H, H)),  # battles per round [attacker, defender]
        # castles and strongholds a house held at the previous round's end (the start of the
        # game for round 1) and no longer holds at this round's end, however they were lost
        ("history_castles_lost", np.int8, (10, H)),
        ("history_castles_lost_in_battle", np.int8, (10, H)),  # … taken from it in a battle
        # per castle or stronghold area: 1 + the House controlling it when the last round ended
        # (or round 1 began), 0 nobody or not yet seen; the baseline of history_castles_lost
        ("castle_holder", np.int8, (A_MAX,)),
        ("battles", np.int16, (H,)),  # battles fought as attacker or defender
        ("battles_won", np.int16, (H,)),
        # --- randomness -------------------------------------------------------------------------
        ("rng", np.uint64, (N_STREAMS, 4)),  # xoshiro256** states: nature, then per house
    ]
    if units > 4:  # Mother of Dragons at 8 players (engine.loyalty, engine.westeros.deck4)
        fields += [
            ("loyalty", np.int8, (A_MAX,)),  # loyalty tokens on each area
            ("loyalty_taken", np.int8, ()),  # loyalty tokens Targaryen has collected
            ("loyalty_placed", np.int8, ()),  # loyalty tokens ever put on the board
            ("deck4", np.int8, (10,)),  # Westeros deck IV's cards, drawn from index 0 up
            ("deck4_next", np.int8, ()),  # deck IV cards drawn so far
            ("deck4_drawn", np.int8, ()),  # deck IV card drawn this round (-1 none)
            ("dragon_boost", np.int8, ()),  # dragon strength tokens moved early (Fire Made Flesh)
        ]
    # widest first, so that every field sits at a multiple of its own width (the record is
    # packed: a field's offset is the sum of the widths before it)
    fields.sort(key=lambda f: -np.dtype(f[1]).itemsize)
    return np.dtype([(name, dtype, shape) for name, dtype, shape in fields])


STATE_DTYPE = state_dtype()
