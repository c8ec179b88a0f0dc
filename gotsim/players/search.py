"""The search player: determinized Monte-Carlo search over the compiled engine, with heuristic
rollouts.

At each of its **search points** — the first order of a planning phase, each bid, the start of
each raid and march it resolves, each muster — the house makes a few **candidates**: the stretch
of decisions its heuristic would take from here (all its orders, one bid, one march with every
unit's destination) under parameter variants (more or less aggressive, defensive, risky,
frugal, noisy). Distinct stretches only are kept. Each candidate is then played out
``rollouts`` times: the game is copied, every fact the house may not see is **resampled** from
its own view (the undrawn Westeros and wildling cards reshuffled, every other random stream
reseeded, face-down orders and secret bids already given taken back and given again by the
other houses' heuristic), the candidate's decisions are made, and the compiled heuristic plays
every house to the end (or ``horizon`` rounds on). A rollout scores 1 for a win plus 0.05 a
castle held at its end (cut off early: the house's share of all castles held instead of the
win); in A Feast for Crows victory points take the castles' place (and the other houses'
objective hands are dealt again from the cards the house cannot see). The candidate with the
best mean is played; the same resampled games serve every candidate (common random numbers),
so the comparison is between the candidates, not the luck. A commander searches its vassals'
decisions the same way (variant ``vassals``): the vassal's heuristic makes the candidates, the
commander's view is resampled and its win scores them.

Fair: nothing hidden is read — the resampling overwrites every hidden fact whatever it was (a
test scrambles them and checks the choice is the same). Reproducible: the search's random
numbers come from ``seed`` and the house's own random stream, so a game depends only on its
seed, never on ``n_jobs`` (rollouts of one search run in parallel, each on its own record).

The player is slow by design (it is the yardstick the heuristic is measured by): seconds per
game, ``docs/players.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
from numpy.typing import NDArray

from gotsim.engine.board_state import castles_held
from gotsim.engine.machine import advance, apply_legal, legal
from gotsim.engine.state import N_ACTIONS, OBJ_DECK, Decision, H, Phase
from gotsim.engine.vassals import deciding_house
from gotsim.jit import njit
from gotsim.players.heuristic import heuristic_action, load_params, policy_turn
from gotsim.players.memo import new_memos
from gotsim.players.params import (
    HEURISTIC,
    PARAMS,
    RANDOM,
    SEARCH,
    SEARCH_KNOBS,
    defaults_for,
    policy_kind,
    policy_params,
)
from gotsim.players.vassals import command_filter
from gotsim.players.view import init_memos
from gotsim.rules.ids import BASE_HOUSES

MAX_STRETCH = 64  # decisions in one candidate at most
WIN, CASTLE = 1.0, 0.05  # a rollout's score: a win, and each castle held at its end

# the decisions where the search player searches, and the parameter variants it tries there
# (name: change, added to the house's own parameters and kept in range); the first is always
# the house's own heuristic
_LOW = {p.name: p.low for p in PARAMS}
_HIGH = {p.name: p.high for p in PARAMS}
_NAMES = [p.name for p in PARAMS]
_BIDS = ("bid_iron_throne", "bid_fiefdoms", "bid_kings_court", "wildlings")
VARIANTS: dict[int, tuple[dict[str, float], ...]] = {
    Decision.PLACE_ORDER: (
        {},
        {"aggression": 0.3},
        {"defence": 0.35},
        {"aggression": -0.3},
        {"power": 0.4},
        {"noise": 0.3},
        {"risk": 0.35, "expansion": 0.25},
        {"defence": -0.35},
        {"noise": 0.3, "aggression": 0.15},
        {"expansion": -0.4},
    ),
    Decision.BID: (
        {},
        dict.fromkeys(_BIDS, -1.0),
        dict.fromkeys(_BIDS, 0.25),
        dict.fromkeys(_BIDS, -0.12),
        dict.fromkeys(_BIDS, 0.6),
        {"wildlings": 1.0},
    ),
    Decision.MARCH_FROM: (
        {},
        {"aggression": 0.3},
        {"aggression": -0.3},
        {"risk": 0.35},
        {"expansion": 0.3},
        {"risk": -0.35},
        {"expansion": -0.4},
    ),
    Decision.MUSTER: (
        {},
        {"defence": 0.4},
        {"aggression": 0.3},
        {"defence": -0.4},
    ),
}
VARIANTS[Decision.RAID_FROM] = VARIANTS[Decision.MARCH_FROM]
SEARCH_POINTS = frozenset(VARIANTS)
# the ``points`` knob: a sum of these bits, the kinds of search point searched (the heuristic
# answers the others)
POINT_BITS: dict[int, int] = {
    Decision.PLACE_ORDER: 1,
    Decision.BID: 2,
    Decision.RAID_FROM: 4,
    Decision.MARCH_FROM: 8,
    Decision.MUSTER: 16,
}
# and a commander's searches for its vassals' decisions (V2), at the kinds above
VASSAL_POINTS = 32
ALL_POINTS = sum(POINT_BITS.values()) + VASSAL_POINTS


@dataclass(frozen=True)
class SearchSettings:
    """The search player's knobs: ``rollouts`` per candidate, ``candidates`` tried at most (the
    house's own heuristic first, then parameter variants), ``horizon`` rounds a rollout plays
    before it is scored on castles (0: to the end), ``seed`` mixed into its random numbers,
    ``points`` the kinds of search point it searches at (a sum of ``POINT_BITS``: orders 1, bids
    2, raids 4, marches 8, musters 16; and 32, ``VASSAL_POINTS``, its vassals' decisions too;
    the heuristic answers the others) and ``params`` (the
    heuristic parameters of its own house, the base of every variant)."""

    rollouts: int = 16
    candidates: int = 6
    horizon: int = 0
    seed: int = 0
    points: int = ALL_POINTS
    params: tuple[float, ...] = tuple(p.default for p in PARAMS)


def search_settings(spec: str | Mapping[str, Any]) -> SearchSettings:
    """The settings of a ``"search"`` spec (``{"kind": "search", "rollouts": 32}``); knobs out
    of range, or not whole numbers, raise ``ValueError``."""
    if policy_kind(spec) != SEARCH:
        raise ValueError(f"not a search player's spec: {spec!r}")
    knobs: dict[str, int] = {}
    if isinstance(spec, Mapping):
        for key, (low, high) in SEARCH_KNOBS.items():
            if key not in spec:
                continue
            value = spec[key]
            if isinstance(value, bool) or not isinstance(value, int | np.integer):
                raise ValueError(f"search parameter {key!r} must be a whole number, got {value!r}")
            if not low <= int(value) <= high:
                raise ValueError(f"search parameter {key!r} = {value} outside [{low}, {high}]")
            knobs[key] = int(value)
    params = tuple(float(x) for x in policy_params(spec))
    return SearchSettings(**knobs, params=params)


# --- compiled rollouts --------------------------------------------------------------------------


@njit
def play_forced_one(g, t, kinds, params, memo, house, forced, n_forced, stop_round, max_decisions):
    """``play_policies_one`` where ``house`` first makes the decisions ``forced[:n_forced]`` (as
    they come; the heuristic takes over if one is not legal), stopping at the start of round
    ``stop_round`` (0: at the end). Returns the decisions made, -1 on one without legal action."""
    mask = memo.mask[:].view(np.bool_)
    load_params(memo, params)
    made = 0
    k = 0
    while made < max_decisions:
        advance(g, t)
        if g.done or g.pending == Decision.NONE:
            return made
        if stop_round > 0 and g.game_round >= stop_round:
            return made
        who = np.int64(g.pending_house)
        if who == house and k < n_forced:
            action = forced[k]
            k += 1
            legal(g, t, mask)
            if 0 <= action < N_ACTIONS and mask[action]:
                apply_legal(g, t, action)
                made += 1
                continue
            k = n_forced  # the stretch does not fit this game: the heuristic plays on
        if not policy_turn(g, t, kinds, mask, memo):
            return -1
        made += 1
    return made


@njit
def play_to_search(g, t, kinds, memo, max_decisions):
    """Play ``g`` on while no house of kind ``SEARCH`` decides (for a vassal: its commander):
    each other house by its policy (``kinds``: every house's kind; ``memo.params``: the houses'
    parameter rows, ``load_params``). Returns 1 when a searching house's decision is pending, 0
    when the game is over or nothing is pending, -1 on a decision without legal action and -2
    after ``max_decisions`` decisions."""
    mask = memo.mask[:].view(np.bool_)
    for _ in range(max_decisions):
        advance(g, t)
        if g.done or g.pending == Decision.NONE:
            return 0
        house = np.int64(g.pending_house)
        if kinds[np.int64(deciding_house(g, t, house))] == SEARCH:
            return 1
        if not policy_turn(g, t, kinds, mask, memo):
            return -1
    return -2


@njit
def heuristic_stretch(g, t, house, params, memo, mask, vassal, single, out):
    """The decisions ``house``'s heuristic (``params``) makes from the pending one on, into
    ``out``, played on ``g`` until another house decides, the round or phase changes, or the
    game ends (``single``: the first alone, not played; ``vassal``: a claimed vassal, its
    decisions turned aside where they would hurt an ally, V11). Returns how many."""
    now_round = g.game_round
    now_phase = g.phase
    n = 0
    while n < out.shape[0]:
        if g.pending == Decision.NONE or g.pending_house != house:
            break
        if g.game_round != now_round or g.phase != now_phase or g.done:
            break
        if legal(g, t, mask) == 0:
            break
        action = heuristic_action(g, t, house, mask, params, memo)
        if vassal:
            action = command_filter(g, t, house, action, mask)
        out[n] = action
        n += 1
        if single:
            break
        apply_legal(g, t, action)
        advance(g, t)
    return n


@njit(parallel=True)
def play_forced(games, rules, kinds, params, memos, house, forced, n_forced, stop_round):
    """``play_forced_one`` for every game of a batch, in parallel (``forced``: (G, L) actions,
    ``n_forced``: (G,) how many of them; one memo per game)."""
    out = np.zeros(games.shape[0], np.int64)
    init_memos(rules[0], memos)
    for i in numba.prange(games.shape[0]):
        out[i] = play_forced_one(
            games[i],
            rules[0],
            kinds[i],
            params[i],
            memos[i],
            house,
            forced[i],
            n_forced[i],
            stop_round,
            1_000_000,
        )
    return out


@njit
def castles_of(games, rules, house: int):
    """Castles and strongholds ``house`` holds in each game of a batch."""
    out = np.zeros(games.shape[0], np.int64)
    for i in range(games.shape[0]):
        out[i] = castles_held(games[i], rules[0], house)
    return out


@njit
def castle_counts(games, rules):
    """Castles and strongholds all houses in play hold, per game."""
    out = np.zeros(games.shape[0], np.int64)
    for i in range(games.shape[0]):
        for house in range(games[i].in_play.shape[0]):
            if games[i].in_play[house]:
                out[i] += castles_held(games[i], rules[0], house)
    return out


# --- what the house may not see, resampled ------------------------------------------------------


def _shuffle_cards(row: NDArray[Any], first: int, rng: np.random.Generator) -> None:
    """Reshuffle the cards of ``row`` from ``first`` on (empty slots, -1, stay where they are),
    whatever their order was."""
    slots = np.flatnonzero(row[first:] >= 0) + first
    cards = np.sort(row[slots])
    rng.shuffle(cards)
    row[slots] = cards


def _deal_hidden_objectives(g: Any, house: int, rng: np.random.Generator) -> None:
    """A Feast for Crows: the other houses' objective hands are hidden from ``house``; the cards
    it cannot see (those hands and the deck) are dealt again, each hand keeping its size."""
    at = g.objective_at
    hidden = np.flatnonzero((at == OBJ_DECK) | ((at >= 0) & (at < H) & (at != house)))
    places = at[hidden].copy()
    rng.shuffle(places)
    at[hidden] = places


def resample_hidden(
    g: Any, t: Any, house: int, rng: np.random.Generator, *, take_back: bool = True
) -> None:
    """Overwrite, in the record ``g``, every fact ``house`` may not see with one drawn from
    ``rng`` (the result depends on the hidden facts not at all): the undrawn Westeros cards and
    the wildling deck are reshuffled (and, in A Feast for Crows, the objective cards of the other
    hands dealt again from those and the deck), every random stream but the house's own is
    reseeded (but
    those of Arryn and Targaryen when they are not in play: nothing draws from them, and ``rng``
    then makes the same draws as for a record without them), and in a planning phase every
    other house's face-down orders (in a bidding, every secret bid) are taken back, to be given
    again when the game goes on (``take_back=False``: left as they are)."""
    for deck in range(g.westeros.shape[0]):
        _shuffle_cards(g.westeros[deck], int(g.westeros_next[deck]), rng)
    _shuffle_cards(g.wildlings, 0, rng)
    if t.victory_points:
        _deal_hidden_objectives(g, house, rng)
    for stream in range(g.rng.shape[0]):
        owner = stream - 1  # the stream's house (-1: nature)
        if owner == house or (owner >= len(BASE_HOUSES) and not g.in_play[owner]):
            continue
        g.rng[stream] = rng.integers(1, 2**63, size=4, dtype=np.uint64)
    if not take_back:
        return
    if g.phase == Phase.PLANNING and g.pending == Decision.PLACE_ORDER:
        n = int(t.n_areas)
        for a in range(n):
            owner = int(g.owner[a])
            if owner >= 0 and owner != house and g.order[a] >= 0:
                g.orders_used[owner, g.order[a]] -= 1
                g.order[a] = -1
        g.loop_house = 0  # planning asks again from the top of the Iron Throne track
        g.loop_area = 0
        g.pending = Decision.NONE
        g.pending_house = -1
    elif g.pending == Decision.BID:
        g.bid[:] = 0
        g.bid_pos = 0  # the bidding asks again from the top
        g.pending = Decision.NONE
        g.pending_house = -1


def can_search(g: Any, t: Any, points: int = ALL_POINTS) -> bool:
    """Whether the pending decision is a search point of a kind in ``points`` (a sum of
    ``POINT_BITS``, and ``VASSAL_POINTS`` for a vassal's decision) whose hidden facts
    ``resample_hidden`` covers (one-time orders of A Clash of Kings, placed face down before the
    others, are not)."""
    kind = int(g.pending)
    if kind not in SEARCH_POINTS or not points & POINT_BITS[kind]:
        return False
    if t.vassals and t.vassal[g.pending_house] and not points & VASSAL_POINTS:
        return False
    return not (kind == Decision.PLACE_ORDER and t.one_time_orders)


# --- the player ---------------------------------------------------------------------------------


def commander_view(g: Any, t: Any, house: int) -> int:
    """For a decision of ``house``: its commander when it is a claimed vassal (who searches for
    it, V2), else -1 (the house decides for itself)."""
    who = int(deciding_house(g, t, house))
    return -1 if who == house else who


def _variant(base: NDArray[np.float64], change: Mapping[str, float]) -> NDArray[np.float64]:
    out = base.copy()
    for name, delta in change.items():
        i = _NAMES.index(name)
        out[i] = min(_HIGH[name], max(_LOW[name], out[i] + delta))
    return out


class Searcher:
    """The search player of one house in one game: ``choose`` answers its decisions, keeping the
    rest of the stretch it chose (its remaining orders, the units of its march) between calls.
    ``view``: for a vassal's decisions (V2), its commander, whose view is resampled and whose
    win is counted (the vassal's own heuristic, ``params``, makes the candidates); -1 for the
    house's own decisions."""

    def __init__(
        self, settings: SearchSettings, params: NDArray[np.float64] | None = None, view: int = -1
    ) -> None:
        self.settings = settings
        # its own heuristic: ``params`` (the house's row of the policy table), else the spec's
        self.params = np.array(settings.params if params is None else params, np.float64)
        self.view = view
        self.plan: list[int] = []
        self.stamp: tuple[int, int] = (-1, -1)
        self.searches = 0
        self.rollouts_played = 0
        # (decision kind, variant offered, variant chosen) per search whose candidates differed:
        # where the search departs from its own heuristic (``benchmarks/search_choices.py``)
        self.choices: list[tuple[int, tuple[int, ...], int]] = []
        self._variant_of: list[int] = []

    def choose(
        self,
        g: Any,
        t: Any,
        house: int,
        mask: NDArray[np.bool_],
        memo: Any,
        kinds: NDArray[np.int8],
        params: NDArray[np.float64],
    ) -> int:
        """A legal action of ``house`` for the pending decision of the record ``g`` (``mask``: its
        legal actions; ``memo``: the game's heuristic memo; ``kinds``, ``params``: every house's
        policy kind and heuristic parameters, the model of the others in rollouts)."""
        now = (int(g.game_round), int(g.phase))
        if self.plan and self.stamp == now:
            action = self.plan.pop(0)
            if mask[action]:
                return action
        self.plan = []
        if not can_search(g, t, self.settings.points):
            return self._heuristic(g, t, house, mask, self.params, memo)
        stretches = self._candidates(g, t, house, memo)
        best = 0
        if len(stretches) > 1:
            best = self._best(g, t, house, stretches, kinds, params)
            offered = tuple(self._variant_of)
            self.choices.append((int(g.pending), offered, offered[best]))
        self.plan = list(stretches[best][1:])
        self.stamp = now
        action = stretches[best][0]
        if mask[action]:
            return action
        return self._heuristic(g, t, house, mask, self.params, memo)

    def _heuristic(
        self,
        g: Any,
        t: Any,
        house: int,
        mask: NDArray[np.bool_],
        params: NDArray[np.float64],
        memo: Any,
    ) -> int:
        """The heuristic's action (a vassal's turned aside where it would hurt an ally, as a
        heuristic commander's is)."""
        action = int(heuristic_action(g, t, house, mask, params, memo))
        if self.view >= 0:
            action = int(command_filter(g, t, house, action, mask))
        return action

    def _seer(self, house: int) -> int:
        """The house whose view is resampled and whose win counts: ``house``, or for a vassal's
        decisions its commander."""
        return house if self.view < 0 else self.view

    def _rng(self, g: Any, house: int, salt: int) -> np.random.Generator:
        """The search's random numbers: from its seed, the own stream of the house that sees
        (a vassal's commander for the vassal's decisions) and where the game is (so the same
        game and seed search alike, whatever else runs)."""
        words = [int(x) for x in g.rng[1 + self._seer(house)]]
        where = [int(g.game_round), int(g.phase), int(g.pending), *(int(c) for c in g.ctx), salt]
        if self.view >= 0:
            where.append(100 + house)  # (each vassal of the commander its own numbers)
        return np.random.default_rng([self.settings.seed, *words, *where])

    def _candidates(self, g: Any, t: Any, house: int, memo: Any) -> list[tuple[int, ...]]:
        """The distinct stretches of decisions the house's heuristic variants make from here (its
        own parameters first), each played on a copy until another house decides or the phase
        ends; at a bid, the bid alone (the last bidder's bid ends the bidding, which reads the
        other houses' secret bids: what the house decides after it must not be chosen here)."""
        variants = VARIANTS[int(g.pending)][: self.settings.candidates]
        out: list[tuple[int, ...]] = []
        self._variant_of = []  # the variant (its place in VARIANTS) each stretch came from
        mask = np.zeros(N_ACTIONS, np.bool_)
        actions = np.zeros(MAX_STRETCH, np.int64)
        single = int(g.pending) == Decision.BID
        for k, change in enumerate(variants):
            params = _variant(self.params, change)
            copy = np.array([g]).view(np.recarray)
            c = copy[0]
            # what happens between the house's decisions (a battle's draws) must not depend
            # on the hidden facts either; the house's own heuristic never reads the others'
            # face-down orders or bids, so they may stay
            resample_hidden(c, t, self._seer(house), self._rng(g, house, 999), take_back=False)
            m = np.array([memo]).view(np.recarray)[0]
            if "noise" in change:  # a noisy variant draws its noise from a stream of its own
                c.rng[1 + house] = self._rng(g, house, 1000 + k).integers(
                    1, 2**63, size=4, dtype=np.uint64
                )
            n = heuristic_stretch(c, t, house, params, m, mask, self.view >= 0, single, actions)
            stretch = tuple(int(a) for a in actions[:n])
            if stretch and stretch not in out:
                out.append(stretch)
                self._variant_of.append(k)
        return out

    def _best(
        self,
        g: Any,
        t: Any,
        house: int,
        stretches: list[tuple[int, ...]],
        kinds: NDArray[np.int8],
        params: NDArray[np.float64],
    ) -> int:
        """Index of the stretch with the best mean rollout score (of the house that sees)."""
        r = self.settings.rollouts
        k = len(stretches)
        rng = self._rng(g, house, 0)
        seer = self._seer(house)
        base = np.repeat(np.array([g]), r).view(np.recarray)
        rules = np.array([t]).view(np.recarray)
        for i in range(r):
            resample_hidden(base[i], rules[0], seer, rng)
        games = np.tile(base, k).view(np.recarray)  # candidate j, rollout i: row j * r + i
        forced = np.full((k * r, MAX_STRETCH), -1, np.int64)
        n_forced = np.zeros(k * r, np.int64)
        for j, stretch in enumerate(stretches):
            forced[j * r : (j + 1) * r, : len(stretch)] = stretch
            n_forced[j * r : (j + 1) * r] = len(stretch)
        model = np.where(kinds == RANDOM, RANDOM, HEURISTIC).astype(np.int8)
        rows = params.copy()
        rows[house] = self.params
        kinds_n = np.array(np.broadcast_to(model, (k * r, *model.shape)), order="C")
        params_n = np.array(np.broadcast_to(rows, (k * r, *rows.shape)), order="C")
        stop = int(g.game_round) + self.settings.horizon if self.settings.horizon else 0
        play_forced(
            games, rules, kinds_n, params_n, new_memos(k * r), house, forced, n_forced, stop
        )
        if t.victory_points:  # A Feast for Crows: points, not castles, decide
            own = games.vp[:, seer].astype(np.float64)
            total = games.vp.sum(axis=1).astype(np.float64)
        else:
            own = castles_of(games, rules, seer).astype(np.float64)
            total = castle_counts(games, rules).astype(np.float64)
        won = np.where(
            games.done.astype(bool),
            (games.winner == seer).astype(np.float64),
            own / np.maximum(1.0, total),
        )
        score = (WIN * won + CASTLE * own).reshape(k, r).mean(axis=1)
        self.searches += 1
        self.rollouts_played += k * r
        return int(np.argmax(score))


class SearchPolicy:
    """The search player as a Python policy (``Game.play``). It models every other house as the
    default heuristic. ``spec``: a search spec mapping (``{"rollouts": 32}``) or settings."""

    def __init__(self, spec: Mapping[str, Any] | SearchSettings | None = None) -> None:
        self._spec: dict[str, Any] | None = None
        if isinstance(spec, SearchSettings):
            self.settings = spec
        else:
            self._spec = {**(spec or {}), "kind": "search"}
            self.settings = search_settings(self._spec)
        # per game and house (and for a vassal's decisions, its commander of the moment)
        self._searchers: dict[tuple[int, int, int], Searcher] = {}
        self._memos: dict[int, Any] = {}  # its own heuristic memo per game

    def __call__(self, game: Any, pending: Any) -> int:
        house = int(pending.house)
        memo = self._memos.get(id(game))
        if memo is None:
            memo = self._memos[id(game)] = new_memos(1)[0]
        mask = np.zeros(N_ACTIONS, np.bool_)
        mask[list(pending.legal)] = True
        g, t = game.record, game.t
        view = commander_view(g, t, house)  # a vassal: its commander searches for it
        searcher = self._searchers.get((id(game), house, view))
        edition, players, expansion = game.edition, game.players, game.expansion
        if searcher is None:
            if view >= 0:
                row: NDArray[np.float64] | None = defaults_for(
                    house, edition, players, expansion
                ).copy()
            else:
                row = (
                    None
                    if self._spec is None
                    else policy_params(self._spec, house, edition, players, expansion)
                )
            searcher = Searcher(self.settings, row, view)
            self._searchers[(id(game), house, view)] = searcher
        kinds = np.full(H, HEURISTIC, np.int8)
        # the others: the heuristic
        params = np.array([defaults_for(h, edition, players, expansion) for h in range(H)])
        params[house] = searcher.params
        if view >= 0 and self._spec is not None:
            params[view] = policy_params(self._spec, view, edition, players, expansion)
        return searcher.choose(game.record, game.t, house, mask, memo, kinds, params)

    def __repr__(self) -> str:
        s = self.settings
        return (
            f"SearchPolicy(rollouts={s.rollouts}, candidates={s.candidates}, horizon={s.horizon})"
        )


# --- games with search players ------------------------------------------------------------------


def play_with_search(
    games: np.recarray,
    rules: np.recarray,
    kinds: NDArray[np.int8],
    params: NDArray[np.float64],
    settings: Mapping[int, SearchSettings],
    max_decisions: int = 1_000_000,
) -> None:
    """Play every record of ``games`` to the end in place: houses of kind ``SEARCH`` by a
    ``Searcher`` (``settings[house]``), decision by decision, the others by their compiled
    policy, the stretch between two searching decisions in one compiled call
    (``play_to_search``; ``max_decisions``: the most one stretch may take). ``kinds``: (H,) or
    (G, H); ``params``: (H, N) or (G, H, N)."""
    t = rules[0]
    mask = np.zeros(N_ACTIONS, np.bool_)
    kinds_g = np.broadcast_to(kinds, (len(games), kinds.shape[-1]))
    params_g = np.broadcast_to(params, (len(games), *params.shape[-2:]))
    memos = new_memos(len(games))
    for i in range(len(games)):
        g = games[i]
        memo = memos[i]
        # writable copies: a read-only array is a type of its own in numba, for which the
        # whole heuristic would be compiled a second time
        kinds_i = np.array(kinds_g[i])
        params_i = np.array(params_g[i])
        load_params(memo, params_i)
        # per house deciding and view (-1, or for a vassal its commander), made when needed
        searchers: dict[tuple[int, int], Searcher] = {}
        while True:
            # the other houses' decisions in compiled code, up to the next searching house's
            status = play_to_search(g, t, kinds_i, memo, max_decisions)
            if status == 0:
                break
            if status == -2:
                raise RuntimeError(f"game {i}: more than {max_decisions} decisions in a row")
            house = int(g.pending_house)
            if status < 0 or legal(g, t, mask) == 0:
                raise RuntimeError(f"game {i}: a decision without legal action")
            view = commander_view(g, t, house)  # a vassal: its commander's (rules.md V2)
            who = house if view < 0 else view
            searcher = searchers.get((house, view))
            if searcher is None:
                searcher = Searcher(settings[who], params_i[house], view)
                searchers[(house, view)] = searcher
            apply_legal(g, t, searcher.choose(g, t, house, mask, memo, kinds_i, params_i))


def settings_table(policies: str | Mapping[str, Any]) -> dict[int, SearchSettings]:
    """The search settings of each house that plays ``"search"`` in a ``simulate``-style
    ``policies`` argument (empty when none does)."""
    from gotsim.rules.ids import House

    if isinstance(policies, str) or (isinstance(policies, Mapping) and "kind" in policies):
        per_house: dict[str, Any] = {"default": policies}
    else:
        per_house = dict(policies)
    default = per_house.get("default", "random")
    out: dict[int, SearchSettings] = {}
    for house in House:
        spec = per_house.get(house.id, default)
        if policy_kind(spec) == SEARCH:
            out[int(house)] = search_settings(spec)
    return out


__all__ = [
    "ALL_POINTS",
    "POINT_BITS",
    "SEARCH_POINTS",
    "VARIANTS",
    "SearchPolicy",
    "SearchSettings",
    "Searcher",
    "can_search",
    "play_forced",
    "play_with_search",
    "resample_hidden",
    "search_settings",
    "settings_table",
]
