"""Compiled batch play: every game of a batch runs to its end (or to a phase not yet built), each
decision answered by the house's policy. ``play_random`` is the uniform random policy."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import numba
import numpy as np

from gotsim.engine.board_state import castles_held
from gotsim.engine.machine import advance, apply_legal, legal
from gotsim.engine.rng import pick_from_mask
from gotsim.engine.state import N_ACTIONS, Decision, H
from gotsim.jit import njit
from gotsim.players.heuristic import load_params, policy_turn
from gotsim.players.memo import fresh_memo, new_memos


@njit
def play_random_one(g, t, max_decisions: int) -> int:
    """Play one game with uniform random legal actions; returns the decisions made (-1 if a
    decision had no legal action, which is an engine bug)."""
    mask = np.zeros(N_ACTIONS, np.bool_)
    made = 0
    while made < max_decisions:
        advance(g, t)
        if g.done or g.pending == Decision.NONE:
            return made
        if legal(g, t, mask) == 0:
            return -1
        action = pick_from_mask(g.rng, 1 + g.pending_house, mask)
        apply_legal(g, t, action)
        made += 1
    return made


@njit(parallel=True)
def play_random(games, rules, max_decisions: int):
    """Play every game of ``games`` in parallel; the decision count per game. ``rules`` is the
    rule record wrapped in a 1-element array (records cross into parallel loops that way)."""
    out = np.zeros(games.shape[0], np.int64)
    for i in numba.prange(games.shape[0]):
        out[i] = play_random_one(games[i], rules[0], max_decisions)
    return out


@njit
def castle_table(games, rules):
    """Castles and strongholds each house controls, per game: (G, H)."""
    out = np.zeros((games.shape[0], H), np.int64)
    t = rules[0]
    for i in range(games.shape[0]):
        for house in range(H):
            if games[i].in_play[house]:
                out[i, house] = castles_held(games[i], t, house)
    return out


# --- mixed policies (random and heuristic players, gotsim.players) -----------------------------
# Kept apart from ``play_random`` so the all-random path stays exactly as it was.


@njit
def play_policies_one(g, t, kinds, params, memo, max_decisions: int) -> int:
    """Play one game, each decision answered by the deciding house's policy (``kinds[house]``:
    0 random, 1 heuristic with ``params[house]``); returns the decisions made (-1 on a decision
    without legal action)."""
    # the mask and the parameter rows live in the memo record: arrays taken from a record
    # carry no reference count, which every call taking them would otherwise update
    mask = memo.mask[:].view(np.bool_)
    load_params(memo, params)
    made = 0
    while made < max_decisions:
        advance(g, t)
        if g.done or g.pending == Decision.NONE:
            return made
        if not policy_turn(g, t, kinds, mask, memo):
            return -1
        made += 1
    return made


def play_policies(games, rules, kinds, params, memos, max_decisions: int):
    """``play_random`` with per-house policies: ``kinds`` (G, H) policy kind per game and house,
    ``params`` (G, H, N_PARAMS) heuristic parameters; ``memos`` work space for the heuristic, one
    per thread of numba's pool (more are fine; with fewer or ``None``, new ones are taken). The
    games are played by ``play_policies_reused``, the one compiled batch loop, which makes a
    memo fresh before each game: what ``memos`` held before changes nothing."""
    if memos is None or len(memos) < pool_threads():
        memos = new_memos(pool_threads())
    words = memos.view(np.uint64).reshape(len(memos), -1)
    return play_policies_reused(
        games, rules, kinds, params, memos, words, fresh_memo(rules), max_decisions
    )


@njit(parallel=True)
def play_policies_reused(games, rules, kinds, params, memos, words, fresh, max_decisions: int):
    """The heuristic's batch loop, which ``play_policies`` calls: one memo per thread
    (``memos``: ``numba.config.NUMBA_NUM_THREADS`` of them at least), made fresh by its thread
    just before each game it plays: ``words`` is ``memos`` as (threads, words) uint64,
    ``fresh`` a fresh memo's words with the board's tables filled in
    (``gotsim.players.memo.fresh_memo``). A game reads only its fresh memo, so which thread
    plays it changes nothing; the memos stay in the threads' caches."""
    out = np.zeros(games.shape[0], np.int64)
    for i in numba.prange(games.shape[0]):
        m = numba.get_thread_id()
        for w in range(fresh.shape[0]):
            words[m, w] = fresh[w]
        out[i] = play_policies_one(games[i], rules[0], kinds[i], params[i], memos[m], max_decisions)
    return out


def pool_threads() -> int:
    """Threads in numba's pool (the most a parallel loop can use)."""
    return max(1, int(getattr(numba.config, "NUMBA_NUM_THREADS", 1)))


@contextlib.contextmanager
def threads(n_jobs: int) -> Iterator[int]:
    """Inside the block numba's parallel loops use ``n_jobs`` threads (at most the pool's); the
    count set before is restored after. Yields the pool's size."""
    previous = numba.get_num_threads()
    cores = pool_threads()
    numba.set_num_threads(max(1, min(n_jobs, cores)))
    try:
        yield cores
    finally:
        numba.set_num_threads(previous)
