"""The heuristic's per-game work record: static area values, the cached board view and the plans
that span several decisions (a house's orders for the round, the units of the march in hand).

The engine asks one decision at a time; planning all of a house's orders (or all units of a
march) once and reading the plan back keeps the per-decision cost low. Every cached part carries
a key (round, phase, house, origin) and is rebuilt when the key does not match, so a fresh memo
is always valid and the cache never changes what the heuristic decides.
"""

from __future__ import annotations

import numpy as np

from gotsim.engine.combat import BATTLE_LEN, N_PARTS
from gotsim.engine.state import A_MAX, N_ACTIONS, N_ORDER_KINDS, H, U
from gotsim.players.params import N_PARAMS

# the numbers kept per area of an order plan's evaluation (orders.EV_*): six, then the march's
# result (marching.R_LEN)
N_EV = 14

MEMO_DTYPE = np.dtype(
    [
        ("ready", np.uint8),  # static tables filled
        # the houses' parameter rows, copied here by the batch loop: a row of a record field
        # carries no reference count, so passing it down every scorer costs nothing
        ("params", np.float64, (H, N_PARAMS)),
        ("mask", np.uint8, (N_ACTIONS,)),  # the batch loop's legal-action mask (the same reason)
        ("base_value", np.float32, (A_MAX,)),  # worth of holding an area, for any house
        ("fort", np.uint8, (A_MAX,)),  # castle or stronghold
        ("reach_scale", np.float32, (H, A_MAX)),  # worth factor by distance from each home
        # A Feast for Crows: worth each house adds to an area for the objectives it holds
        # (players.objectives.objective_values, with the view)
        ("objective_value", np.float32, (H, A_MAX)),
        ("view_key", np.int32),  # the cached view's board (view.ensure_view), -1 none
        ("marching", np.int64),  # in the action phase, houses with march orders left (bits)
        ("pot", np.float32, (H, A_MAX)),  # strength each house's adjacent units can bring
        ("threat", np.float32, (H, A_MAX)),  # pot plus transported armies, 0 without a marcher
        # per area, from threat: the largest (its house) and the largest of any other house, so
        # that the danger to any house is one look-up
        ("thr_top", np.float32, (A_MAX,)),
        ("thr_top_house", np.int8, (A_MAX,)),
        ("thr_second", np.float32, (A_MAX,)),
        ("marcher", np.int64, (A_MAX,)),  # work space of the view: houses able to march in
        # the board pot and threat were counted from (what they read of it): a new phase on the
        # same board keeps them (view_board_set: 1 once counted)
        ("view_owner", np.int8, (A_MAX,)),
        ("view_units", np.int8, (A_MAX, U)),
        ("view_routed", np.int8, (A_MAX, U)),
        ("view_in_play", np.uint8, (H,)),
        ("view_board_set", np.uint8),
        ("plan_key", np.int32, (H,)),  # round of the house's order plan, 0 none
        ("plan", np.int8, (H, A_MAX)),  # planned Order kind per area, -1 none
        ("plan_target", np.int8, (H, A_MAX)),  # intended attack target of a march origin
        ("plan_value", np.float64, (H, A_MAX)),  # planned worth of a march origin
        ("march_key", np.int32),  # marching.march_key of the march plan, -1 none
        ("march_house", np.int8),
        ("march_move", np.int8, (A_MAX, U)),  # planned units per destination
        # (area_bits sets, two words each)
        ("march_reach", np.int64, (2,)),  # transport_reach_bits of the planned march's origin
        ("march_dests", np.int64, (2,)),  # the march plan's listed destinations
        ("tyrion_key", np.int32),  # the battle in which this game's Tyrion already cancelled
        ("castles", np.int32, (H,)),  # castles held per house, with the view
        ("near_win_bits", np.int32),  # houses one castle short of victory (castle games)
        ("hsum", np.float64, (H,)),  # per-house sums (local danger)
        ("sup_sum", np.float64, (H,)),  # per-house revealed supports into a battle area
        # work space of the march planner (no allocations in the hot loop)
        ("reach", np.int16, (A_MAX,)),  # areas a march can go, listed
        ("reach_bits", np.int64, (2,)),  # ... and as an area_bits set
        ("reach_listed", np.uint8),  # reach and reach_bits hold the march being evaluated
        # 1 while the house's own order plan counts its attacks again against the defences its
        # neighbours are predicted to make (orders._plan, its endgame; marching.evaluate_march)
        ("pred_margin", np.uint8),
        ("stack", np.int16, (A_MAX,)),
        ("sent", np.float64, (A_MAX,)),  # strength sent to each destination so far
        ("cand_v", np.float64, (A_MAX,)),  # per listed destination: worth, threat, position
        ("cand_t", np.float64, (A_MAX,)),
        ("cand_p", np.float64, (A_MAX,)),
        ("cand_g", np.float64, (A_MAX,)),  # worth of the next unit sent there
        # per destination, cached per view and house: kind (0 battle, 1 to take, 2 own), worth,
        # threat, position worth, own strength there
        ("d_key", np.int32, (A_MAX,)),
        ("d_kind", np.int8, (A_MAX,)),
        ("d_val", np.float32, (A_MAX,)),
        ("d_thr", np.float32, (A_MAX,)),
        ("d_pos", np.float32, (A_MAX,)),
        ("d_hold", np.float32, (A_MAX,)),
        # … and for a battle: defender, its estimated strength, the fixed part of the gain, the
        # defender's lead, whether the house wins ties against it
        ("d_def", np.int8, (A_MAX,)),
        ("d_str", np.float32, (A_MAX,)),
        ("d_gain", np.float32, (A_MAX,)),
        ("d_lead", np.float32, (A_MAX,)),
        ("d_tie", np.uint8, (A_MAX,)),
        ("move_a", np.int8, (A_MAX, U)),
        ("move_b", np.int8, (A_MAX, U)),
        ("avail", np.int64, (U,)),
        ("left", np.int64, (U,)),
        # the stronger half of each house's public hand (card strengths, strongest first)
        ("cards_top", np.int64, (H, 7)),
        ("n_top", np.int64, (H,)),
        ("hand_key", np.int32, (H,)),  # the public hand cards_top was taken from, -1 none
        # win chance against each opponent, piecewise linear in the margin: values at 13 points,
        # kept while both public hands stay the same
        ("wc_table", np.float64, (H, H, 13)),
        ("wc_key", np.int32, (H, H)),
        ("wc_pairs", np.int64, (17,)),  # work space: card pairs by strength difference + 8
        # work space of the order planner
        ("p_areas", np.int64, (A_MAX,)),
        ("p_score", np.float64, (A_MAX, N_ORDER_KINDS)),
        ("p_done", np.uint8, (A_MAX,)),
        ("p_num", np.float64, (8, A_MAX)),  # strength, target, margin, gain, peaceful, alt, …
        ("p_hold", np.float64, (A_MAX,)),  # defence added by the orders planned so far
        ("p_claim", np.float64, (A_MAX,)),  # chance a planned raid takes the order there
        ("p_mood", np.float64, (2, A_MAX)),  # the noise factors of each area's raid worths
        # the other houses' orders as the second heuristic predicts them (orders._predict_orders)
        ("pred_key", np.int32, (H,)),  # round of the prediction, 0 none
        ("pred", np.int8, (H, A_MAX)),  # predicted Order kind per area, -1 none
        ("pred_params", np.float64, (N_PARAMS,)),  # work space: a house's row, kept
        # each house's own defaults (its tuned set of "heuristic" in the game's edition and player
        # count), the parameters its orders are predicted with (filled by view.init_memo)
        ("guess_params", np.float64, (H, N_PARAMS)),
        ("pred_save", np.int8, (2, A_MAX)),  # work space: the other house's own plan, kept
        ("pred_value", np.float64, (A_MAX,)),
        ("p_left", np.int64, (N_ORDER_KINDS,)),
        ("p_usable", np.uint8, (N_ORDER_KINDS,)),
        ("p_ok", np.uint8, (N_ORDER_KINDS,)),
        # work space of the card choice
        ("b_copy", np.int64, (BATTLE_LEN,)),
        ("b_parts", np.int64, (2, N_PARTS)),
        ("b_cards", np.int64, (4, 7)),
        ("b_table", np.int64, (7, 7)),
        # each area's evaluation in the second heuristic's order plan (orders._plan: its defence,
        # consolidate power and march worths without noise), kept per house for the view and
        # parameters it was made with, and shared by the house's own plan and the prediction of
        # it: the view key (-1 none) here, the rest after FRESH_WORDS
        ("ev_key", np.int32, (H,)),
        ("ev_params", np.float64, (H, N_PARAMS)),
        ("ev_ok", np.uint8, (H, A_MAX)),  # the area's evaluation is filled
        ("ev", np.float64, (H, A_MAX, N_EV)),
    ],
    align=True,
)
assert MEMO_DTYPE.itemsize % 8 == 0  # (aligned: a whole number of 64-bit words, reset_memos)
# a reused memo is made fresh by its first FRESH_WORDS words: the fields after them are read only
# where a key before them says they are filled
_FIELDS = MEMO_DTYPE.fields
assert _FIELDS is not None and _FIELDS["ev_params"][1] % 8 == 0
FRESH_WORDS = _FIELDS["ev_params"][1] // 8


def new_memos(n: int) -> np.recarray:
    """``n`` fresh memos (one per game in flight)."""
    memos = np.zeros(n, MEMO_DTYPE).view(np.recarray)
    reset_memos(memos)
    return memos


def reset_memos(memos: np.ndarray) -> None:
    """Make ``memos`` fresh again, for more games (reusing the memory saves allocating and
    first touching some 54 kB a memo; the work space after ``FRESH_WORDS`` is left as it is).
    The batch loop does this per thread, before each game, with ``fresh_memo``."""
    # as 64-bit words: a structured assignment goes field by field, several times slower
    words = memos.view(np.uint64).reshape(len(memos), -1)
    words[:, :FRESH_WORDS] = _FRESH.view(np.uint64)[:FRESH_WORDS]


def fresh_memo(rules: np.ndarray) -> np.ndarray:
    """A fresh memo's first ``FRESH_WORDS`` 64-bit words, the board's tables of ``rules`` filled
    in (what a memo is after its game's first decision): ``play_policies_reused`` copies them over
    reused memos (the rest is work space read only where a key in them says it is filled)."""
    from gotsim.players.view import init_memos

    memo = _FRESH.copy().view(np.recarray)
    init_memos(rules[0], memo)
    return memo.view(np.uint64)[:FRESH_WORDS].copy()


def _fresh_memo() -> np.ndarray:
    memo = np.zeros(1, MEMO_DTYPE)
    for key in ("view_key", "march_key", "tyrion_key", "d_key", "wc_key", "hand_key", "ev_key"):
        memo[key] = -1
    memo.setflags(write=False)
    return memo


_FRESH = _fresh_memo()

__all__ = ["FRESH_WORDS", "MEMO_DTYPE", "N_EV", "fresh_memo", "new_memos", "reset_memos"]
