"""The Python side of the players: the ``Policy`` interface of ``Game.play``, the compiled
heuristic wrapped as such a policy, and policies made from specs.

A policy is any callable ``(game, pending) -> action``. It should decide from
``game.observation(pending.house)`` (the public board, its own hand, revealed orders) and
``pending`` (the decision, its context and legal actions); the record itself also holds hidden
facts (face-down orders, bids, deck order, other hands) that a fair policy does not read.

>>> from gotsim.engine.game import Game
>>> game = Game(players=6, seed=3)
>>> game.play(HeuristicPolicy())
>>> game.finished
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from gotsim.engine.game import Game, Pending, RandomPolicy
from gotsim.engine.state import N_ACTIONS
from gotsim.players.heuristic import heuristic_action
from gotsim.players.memo import new_memos
from gotsim.players.params import HEURISTIC, SEARCH, policy_kind, policy_params
from gotsim.players.search import SearchPolicy, settings_table
from gotsim.players.vassals import command_filter
from gotsim.rules.ids import House

MEMO_ATTRIBUTE = "_heuristic_memo"


@runtime_checkable
class Policy(Protocol):
    """Answers a pending decision of ``game`` with one of ``pending.legal``."""

    def __call__(self, game: Game, pending: Pending) -> int: ...


def game_memo(game: Game) -> Any:
    """The heuristic memo of ``game`` (made on first use and kept with the game, so that plans
    spanning several decisions survive between calls)."""
    memo = game.__dict__.get(MEMO_ATTRIBUTE)
    if memo is None:
        memo = new_memos(1)
        game.__dict__[MEMO_ATTRIBUTE] = memo
    return memo[0]


class HeuristicPolicy:
    """The compiled heuristic as a Python policy: the same choices as in compiled batch play
    (``simulate(policies="heuristic")``) for the same game and parameters.

    ``params`` is a spec mapping (``{"aggression": 0.8}``, ``{"kind": "heuristic_v1"}``), a
    parameter array (every house plays it), or None for the defaults: each house its own tuned
    set for the game's edition, player count and expansion
    (``gotsim.players.params.defaults_for``).
    """

    def __init__(self, params: Mapping[str, Any] | NDArray[np.float64] | None = None) -> None:
        self.spec: dict[str, Any] | None = None
        if params is None or isinstance(params, Mapping):
            self.spec = dict(params or {})
            self.spec.setdefault("kind", "heuristic")
            self.params = policy_params(self.spec)
        else:
            self.params = np.asarray(params, np.float64).copy()
            if self.params.shape != policy_params().shape:
                raise ValueError(f"params: expected {policy_params().shape[0]} values")
        # each house's row by (edition, players, expansion): a spec's defaults depend on the game
        self._rows: dict[tuple[str, int, str | None], list[NDArray[np.float64]]] = {}

    def params_for(
        self, house: int, edition: str = "2e", players: int = 6, expansion: str | None = None
    ) -> NDArray[np.float64]:
        """The parameters ``house`` plays with in a game of ``edition``, ``players`` and
        ``expansion``."""
        key = (edition, players, expansion)
        rows = self._rows.get(key)
        if rows is None:
            if self.spec is None:
                rows = [self.params] * len(House)
            else:
                rows = [policy_params(self.spec, h, edition, players, expansion) for h in House]
            self._rows[key] = rows
        return rows[int(house)]

    def __call__(self, game: Game, pending: Pending) -> int:
        mask = np.zeros(N_ACTIONS, np.bool_)
        mask[list(pending.legal)] = True
        house = int(pending.house)
        params = self.params_for(house, game.edition, game.players, game.expansion)
        action = int(heuristic_action(game.record, game.t, house, mask, params, game_memo(game)))
        if game.t.vassals:  # as in batch play: never against an ally (docs/rules.md V11)
            action = int(command_filter(game.record, game.t, house, action, mask))
        return action

    def __repr__(self) -> str:
        if self.spec is not None:
            return f"HeuristicPolicy({self.spec})"
        return f"HeuristicPolicy({self.params.tolist()})"


def make_policy(spec: str | Mapping[str, Any]) -> Policy:
    """A Python policy for one spec (``"random"``, ``"heuristic"``, ``"search"`` or a mapping)."""
    kind = policy_kind(spec)
    if kind == HEURISTIC:
        return HeuristicPolicy({"kind": spec} if isinstance(spec, str) else spec)
    if kind == SEARCH:
        return SearchPolicy({} if isinstance(spec, str) else spec)
    return RandomPolicy()


def policies_for(
    policies: str | Mapping[str, Any],
    edition: str = "2e",
    players: int = 6,
    expansion: str | None = None,
) -> dict[House, Policy]:
    """One Python policy per house from a ``simulate``-style ``policies`` argument, for games of
    ``edition``, ``players`` and ``expansion`` (a heuristic house's defaults depend on them)."""
    from gotsim.players.params import policy_table

    kinds, params = policy_table(policies, edition, players, expansion)
    searches = settings_table(policies)
    out: dict[House, Policy] = {}
    for house in House:
        if kinds[house] == SEARCH:
            out[house] = SearchPolicy(searches[int(house)])
        elif kinds[house] == HEURISTIC:
            out[house] = HeuristicPolicy(params[house])
        else:
            out[house] = RandomPolicy()
    return out


__all__ = ["HeuristicPolicy", "Policy", "RandomPolicy", "game_memo", "make_policy", "policies_for"]
