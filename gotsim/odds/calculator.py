"""Combat odds: exact win chances, casualties and card strategies for any battle.

``combat_odds(spec, model=...)`` resolves every pair of house cards the two sides may play with
the engine's combat code, enumerating Tides of Battle draws exactly, and combines the cells with a
card-choice model:

- ``fixed``: the cards given in the spec;
- ``uniform``: each side picks uniformly from its hand;
- ``equilibrium``: the zero-sum game on P(attacker wins), solved by linear programming.

Choices made inside a combat after the cards are revealed follow documented rules (the side that
chooses maximises its own chance to win; see ``docs/combat.md``): Tyrion's cancel and the
opponent's replacement card, Aeron's swap, the Queen of Thorns' target, Doran's track, and the
Valyrian Steel Blade (see ``gotsim.odds.exact``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from scipy.optimize import linprog

from gotsim.engine import combat as cb
from gotsim.odds import exact
from gotsim.odds.html import odds_html
from gotsim.odds.sampled import sample_battle
from gotsim.odds.spec import Battle, BattleSpecError, card_id, parse_battle
from gotsim.rules.ids import Unit

MODELS = ("fixed", "uniform", "equilibrium")
TRACK_PREFERENCE = ("iron_throne", "fiefdoms", "kings_court")


@dataclass
class Cell:
    """The resolved outcome of one pair of chosen cards."""

    p: float  # P(attacker wins)
    lost: NDArray[np.float64]  # (2, 4) expected units destroyed
    routed: NDArray[np.float64]  # (2, 4) expected units retreating routed
    dist: NDArray[np.float64]  # (2, K) distribution of units destroyed
    misc: NDArray[np.float64]  # exact.M_* statistics
    played: tuple[int, int]  # cards that end up fighting (-1 for none)
    notes: tuple[str, ...]  # choices made inside the combat
    battle: NDArray[np.int64]  # the vector after 'immediately' abilities (before Tides)


@dataclass
class OddsResult:
    """Odds of one battle under one card-choice model. Probabilities are exact unless sampled."""

    p_attacker_wins: float
    p_defender_wins: float
    model: str
    exact: bool
    n_samples: int
    std_error: float
    attacker_cards: tuple[str, ...]
    defender_cards: tuple[str, ...]
    matrix: NDArray[np.float64]  # (attacker card, defender card) → P(attacker wins)
    attacker_strategy: dict[str, float]
    defender_strategy: dict[str, float]
    game_value: float | None  # equilibrium value, None for other models
    breakdown: pd.DataFrame  # strength components per side (see ``breakdown_for``)
    casualties: dict[str, Any]
    power: dict[str, float]  # expected power gained (+) or paid (-) through cards
    blade: dict[str, float]  # how often the Valyrian Steel Blade is spent, and how
    notes: dict[str, tuple[str, ...]] = field(default_factory=dict)  # per cell "a|d": choices
    battle: Battle | None = field(default=None, repr=False)

    def _repr_html_(self) -> str:
        """The result in a notebook: odds, strategies, the card-pair heat map, the breakdown."""
        return odds_html(self)

    def matrix_frame(self) -> pd.DataFrame:
        """The card-pair matrix with card ids as labels."""
        return pd.DataFrame(self.matrix, index=self.attacker_cards, columns=self.defender_cards)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (the ``gotsim combat --json`` output)."""
        return {
            "p_attacker_wins": self.p_attacker_wins,
            "p_defender_wins": self.p_defender_wins,
            "model": self.model,
            "exact": self.exact,
            "n_samples": self.n_samples,
            "std_error": self.std_error,
            "matrix": {
                "attacker_cards": list(self.attacker_cards),
                "defender_cards": list(self.defender_cards),
                "p_attacker_wins": self.matrix.round(12).tolist(),
            },
            "attacker_strategy": self.attacker_strategy,
            "defender_strategy": self.defender_strategy,
            "game_value": self.game_value,
            "breakdown": {
                side: {k: int(v) for k, v in self.breakdown.loc[side].items()}
                for side in self.breakdown.index
            },
            "casualties": self.casualties,
            "power": self.power,
            "blade": self.blade,
            "notes": {k: list(v) for k, v in self.notes.items()},
        }


# --- resolving one pair of cards -----------------------------------------------------------------


class _Resolver:
    """Resolves card pairs of one battle with the documented choice rules (memoised per pair)."""

    def __init__(self, battle: Battle):
        self.battle = battle
        table = battle.card_table
        self.cards = table.arrays()
        self.tides = cb.tides_deck().arrays()
        self.ability = table.ability
        self.cache: dict[tuple[int, int], Cell] = {}

    # the chance layer
    def leaf(self, b: NDArray[np.int64], notes: tuple[str, ...]) -> Cell:
        lost, routed, dist, misc = exact.new_stats()
        work = b.copy()
        if self.battle.neutral_force:
            parts = np.zeros((2, cb.N_PARTS), np.int64)
            cb.strength_breakdown(work, self.cards, self.tides, parts)
            p = float(cb.attacker_wins(work, parts))
            misc[exact.M_ATTACKER_WINS] = p
            dist[:, 0] = 1.0
            # a beaten neutral army (1st edition) is destroyed; a token has no units
            army = work[cb.SIDE + cb.UNITS : cb.SIDE + cb.UNITS + cb.N_UNIT_TYPES]
            if p and army.any():
                lost[cb.DEFENDER] = army
                dist[cb.DEFENDER, 0] = 0.0
                dist[cb.DEFENDER, min(int(army.sum()), exact.MAX_LOST)] = 1.0
        else:
            p = exact.enumerate_outcomes(
                work, self.cards, self.tides, self.battle.tides_of_battle, lost, routed, dist, misc
            )
        played = (int(b[cb.CARD]), int(b[cb.SIDE + cb.CARD]))
        return Cell(float(p), lost, routed, dist, misc, played, notes, b)

    def value(self, cell: Cell, side: int) -> float:
        return cell.p if side == cb.ATTACKER else 1.0 - cell.p

    # the decision layers, in rule order: cancel, then 'immediately' in Iron Throne order
    def cell(self, card_a: int, card_d: int) -> Cell:
        key = (card_a, card_d)
        if key not in self.cache:
            b = self.battle.base.copy()
            cb.play_card(b, cb.ATTACKER, card_a)
            if card_d >= 0:
                cb.play_card(b, cb.DEFENDER, card_d)
            self.cache[key] = self.cancel_step(b, ())
        return self.cache[key]

    def order(self, b: NDArray[np.int64]) -> list[int]:
        return sorted((cb.ATTACKER, cb.DEFENDER), key=lambda s: b[s * cb.SIDE + cb.IRON_THRONE_POS])

    def cancel_step(self, b: NDArray[np.int64], notes: tuple[str, ...]) -> Cell:
        for side in self.order(b):
            if cb.active_ability(b, side, self.ability) == cb.Ability.QUEEN_OF_THORNS_1E:
                shown = int(b[(1 - side) * cb.SIDE + cb.CARD])
                cancelled = b.copy()
                if cb.cancel_opponent_text(cancelled, side, self.ability):
                    note = f"queen_of_thorns cancels the text of {self._id(shown)}"
                    return self.immediately_step(cancelled, self.order(cancelled), (*notes, note))
            other = 1 - side
            if cb.active_ability(b, side, self.ability) == cb.Ability.JAQEN_H_GHAR:
                return self.jaqen(b, side, notes)
            if cb.active_ability(b, side, self.ability) != cb.Ability.TYRION:
                continue
            if b[other * cb.SIDE + cb.CARD] < 0:
                continue
            keep = self.immediately_step(b, self.order(b), notes)
            cancelled = b.copy()
            shown = int(cancelled[other * cb.SIDE + cb.CARD])
            cb.return_card_to_hand(cancelled, other)
            options = [
                c
                for c in cb.house_cards_in(int(cancelled[other * cb.SIDE + cb.HAND]))
                if c != shown
            ]
            note = f"tyrion_lannister cancels {self._id(shown)}"
            if not options:
                replies = [
                    self.immediately_step(
                        cancelled, self.order(cancelled), (*notes, f"{note}; no card left")
                    )
                ]
            else:
                replies = []
                for card in options:
                    alt = cancelled.copy()
                    cb.play_card(alt, other, card)
                    alt[other * cb.SIDE + cb.HAND] |= cb.bit(shown)
                    replies.append(
                        self.immediately_step(
                            alt, self.order(alt), (*notes, f"{note}; {self._id(card)} replaces it")
                        )
                    )
            reply = max(replies, key=lambda c: self.value(c, other))
            return reply if self.value(reply, side) > self.value(keep, side) else keep
        return self.immediately_step(b, self.order(b), notes)

    def jaqen(self, b: NDArray[np.int64], side: int, notes: tuple[str, ...]) -> Cell:
        """Jaqen H'ghar (a vassal card): the opponent's card goes back to its hand and one of
        that hand, each alike likely (the returned card too), is played instead: the cell is
        the average of those (docs/rules.md V15)."""
        other = 1 - side
        oo = other * cb.SIDE
        if b[oo + cb.CARD] < 0:
            return self.immediately_step(b, self.order(b), notes)
        back = b.copy()
        cb.return_card_to_hand(back, other)
        cells = []
        for card in cb.house_cards_in(int(back[oo + cb.HAND])):
            alt = back.copy()
            cb.play_card(alt, other, card)
            note = f"jaqen_h_ghar: {self._id(card)} is played at random"
            cells.append(self.immediately_step(alt, self.order(alt), (*notes, note)))
        return _mix(cells)

    def immediately_step(
        self, b: NDArray[np.int64], queue: list[int], notes: tuple[str, ...]
    ) -> Cell:
        if not queue:
            return self.before_combat_step(b, self.order(b), notes)
        side, rest = queue[0], queue[1:]
        other = 1 - side
        ability = cb.active_ability(b, side, self.ability)
        o = side * cb.SIDE
        if ability == cb.Ability.MACE or ability == cb.Ability.LORAS_1E:
            after = b.copy()
            who = self._id(int(b[o + cb.CARD]))
            if cb.active_ability(b, other, self.ability) == cb.Ability.BLACKFISH:
                return self.immediately_step(
                    after, rest, (*notes, f"the_blackfish saves the footman from {who}")
                )
            if after[other * cb.SIDE + cb.UNITS + cb.FOOTMAN] == 0:
                return self.immediately_step(after, rest, (*notes, f"{who} finds no footman"))
            cb.mace_destroy_footman(after, other)
            return self.immediately_step(after, rest, (*notes, f"{who} destroys a footman"))
        if ability == cb.Ability.REEK:
            after = b.copy()
            if cb.reek_returns_ramsay(after, side, self.cards) >= 0:
                notes = (*notes, "reek brings ramsay_bolton back to the hand")
            return self.immediately_step(after, rest, notes)
        if ability == cb.Ability.BRIENNE_1E:
            after = b.copy()
            if cb.remove_defense_order(after, other):
                notes = (*notes, "brienne_of_tarth removes the defense order")
            return self.immediately_step(after, rest, notes)
        if ability == cb.Ability.AERON:
            keep = self.immediately_step(b, rest, notes)
            best = keep
            hand = cb.house_cards_in(int(b[o + cb.HAND]))
            if b[o + cb.POWER] >= 2:
                for card in hand:
                    alt = b.copy()
                    cb.discard_played_card(alt, side)
                    cb.play_card(alt, side, card)
                    alt[o + cb.POWER] -= 2
                    alt[o + cb.POWER_DELTA] -= 2
                    cell = self.immediately_step(
                        alt,
                        [side, *rest],
                        (*notes, f"aeron_damphair pays 2 power for {self._id(card)}"),
                    )
                    if self.value(cell, side) > self.value(best, side):
                        best = cell
            return best
        if ability == cb.Ability.QUEEN_OF_THORNS:
            targets = [s for s in self.battle.supporters if s.side == other and s.own_house]
            cells = [
                self.immediately_step(
                    b, rest, (*notes, "queen_of_thorns removes no supporting order")
                )
            ]
            for i, s in enumerate(sorted(targets, key=lambda s: -s.strength_hint)):
                alt = b.copy()
                cb.remove_support(alt, other, True, s.units, s.bonus)
                cells.append(
                    self.immediately_step(
                        alt,
                        rest,
                        (*notes, f"queen_of_thorns removes {s.house.id}'s support #{i + 1}"),
                    )
                )
            return max(cells, key=lambda c: self.value(c, side) + 1e-12 * (c is not cells[0]))
        if ability == cb.Ability.DORAN:
            cells = [
                self.immediately_step(
                    self.doran(b, side, t),
                    rest,
                    (*notes, f"doran_martell moves the opponent to the bottom of {t}"),
                )
                for t in TRACK_PREFERENCE
            ]
            return max(cells, key=lambda c: self.value(c, side))
        return self.immediately_step(b, rest, notes)

    def before_combat_step(
        self, b: NDArray[np.int64], queue: list[int], notes: tuple[str, ...]
    ) -> Cell:
        """A Dance with Dragons "before combat" abilities, in Iron Throne order: Stannis
        Baratheon and Walder Frey act on the support; Qyburn and Aeron Damphair choose what
        helps their side most (ties: spend less); so does Viserys Targaryen (Mother of Dragons:
        the card of the hand he throws away, the weakest of those helping most; none on a
        tie)."""
        if not queue:
            return self.leaf(b, notes)
        side, rest = queue[0], queue[1:]
        other = 1 - side
        o = side * cb.SIDE
        ability = cb.active_ability(b, side, self.ability)
        if ability == cb.Ability.STANNIS_DWD and b[o + cb.SUPPORTERS] == 0:
            after = b.copy()
            cb.clear_support(after, other)
            note = "stannis_baratheon_dwd removes every support order next to the battle"
            return self.before_combat_step(after, rest, (*notes, note))
        if ability == cb.Ability.WALDER_FREY and b[other * cb.SIDE + cb.SUPPORTERS] > 0:
            after = b.copy()
            moved = 0
            for s in self.battle.supporters:
                if s.side == other and not s.own_house:
                    cb.redirect_support(after, other, s.units, s.bonus)
                    moved += 1
            if moved:
                notes = (*notes, f"walder_frey takes over {moved} supporting order(s)")
            return self.before_combat_step(after, rest, notes)
        if ability == cb.Ability.QYBURN and b[o + cb.POWER] >= 2:
            best = self.before_combat_step(b, rest, notes)
            table = self.battle.card_table
            discarded = [
                *cb.house_cards_in(int(b[cb.DISCARDS])),
                *cb.house_cards_in(int(b[cb.SIDE + cb.DISCARDS])),
                *self.battle.other_discards,
            ]
            seen = set()
            for card in discarded:
                icons = (
                    int(table.strength[card]),
                    int(table.swords[card]),
                    int(table.fortifications[card]),
                )
                if icons in seen:
                    continue
                seen.add(icons)
                alt = b.copy()
                cb.add_to_card(alt, side, *icons, 2)
                note = f"qyburn pays 2 power for the numbers of {self._id(card)}"
                cell = self.before_combat_step(alt, rest, (*notes, note))
                if self.value(cell, side) > self.value(best, side):
                    best = cell
            return best
        if ability == cb.Ability.VISERYS_TARGARYEN:
            best = self.before_combat_step(b, rest, notes)
            table = self.battle.card_table
            hand = cb.house_cards_in(int(b[o + cb.HAND]))
            for card in sorted(hand, key=lambda c: (int(table.strength[c]), c)):
                strength = int(table.strength[card])
                if strength == 0:
                    continue
                alt = b.copy()
                cb.add_to_card(alt, side, strength, 0, 0, 0)
                alt[o + cb.HAND] &= ~cb.bit(card)
                alt[o + cb.DISCARDS] |= cb.bit(card)
                note = f"viserys_targaryen throws away {self._id(card)} for +{strength}"
                cell = self.before_combat_step(alt, rest, (*notes, note))
                if self.value(cell, side) > self.value(best, side):
                    best = cell
            return best
        if ability == cb.Ability.BRONN and b[cb.VASSAL + other] == 0:
            # the opponent pays 2 power to make Bronn 0 when that helps it (ties: keep them)
            best = self.before_combat_step(b, rest, notes)
            oo = other * cb.SIDE
            if b[oo + cb.POWER] >= cb.BRONN_PRICE:
                alt = b.copy()
                card = int(b[o + cb.CARD])
                cb.add_to_card(alt, side, -int(self.battle.card_table.strength[card]), 0, 0, 0)
                alt[oo + cb.POWER] -= cb.BRONN_PRICE
                alt[oo + cb.POWER_DELTA] -= cb.BRONN_PRICE
                note = "the opponent pays 2 power: bronn counts 0"
                cell = self.before_combat_step(alt, rest, (*notes, note))
                if self.value(cell, other) > self.value(best, other):
                    best = cell
            return best
        if ability == cb.Ability.AERON_DWD and b[o + cb.POWER] >= 1:
            best = self.before_combat_step(b, rest, notes)
            for x in range(1, int(b[o + cb.POWER]) + 1):
                alt = b.copy()
                cb.add_to_card(alt, side, x, 0, 0, x)
                note = f"aeron_damphair_dwd spends {x} power for +{x}"
                cell = self.before_combat_step(alt, rest, (*notes, note))
                if self.value(cell, side) > self.value(best, side):
                    best = cell
            return best
        return self.before_combat_step(b, rest, notes)

    def doran(self, b: NDArray[np.int64], side: int, track: str) -> NDArray[np.int64]:
        """Move the opponent to the bottom of ``track``; the blade follows the Fiefdoms top."""
        after = b.copy()
        other = 1 - side
        if track == "kings_court":
            return after
        houses = list(self.battle.tracks[track])
        victim = self.battle.houses[other]
        houses.remove(victim)  # type: ignore[arg-type]
        houses.append(victim)  # type: ignore[arg-type]
        slot = cb.IRON_THRONE_POS if track == "iron_throne" else cb.FIEFDOMS_POS
        for s in (cb.ATTACKER, cb.DEFENDER):
            after[s * cb.SIDE + slot] = houses.index(self.battle.houses[s])  # type: ignore[arg-type]
        if track == "fiefdoms" and after[other * cb.SIDE + cb.BLADE_HOLDER]:
            after[other * cb.SIDE + cb.BLADE_HOLDER] = 0
            after[side * cb.SIDE + cb.BLADE_HOLDER] = int(houses[0] == self.battle.houses[side])
        return after

    def _id(self, card: int) -> str:
        return card_id(self.battle, card) or "(no card)"


def _mix(cells: list[Cell]) -> Cell:
    """The cell of a uniform draw among ``cells`` (Jaqen H'ghar's random card): averaged
    chances, losses and statistics; the first cell's cards, notes and vector."""
    n = len(cells)
    first = cells[0]
    return Cell(
        sum(c.p for c in cells) / n,
        np.mean([c.lost for c in cells], axis=0),
        np.mean([c.routed for c in cells], axis=0),
        np.mean([c.dist for c in cells], axis=0),
        np.mean([c.misc for c in cells], axis=0),
        first.played,
        first.notes,
        first.battle,
    )


# --- card-choice models ---------------------------------------------------------------------------


def solve_matrix_game(
    matrix: NDArray[np.float64],
) -> tuple[NDArray[np.float64], NDArray[np.float64], float]:
    """Optimal mixed strategies of the zero-sum game where the row player maximises ``matrix``.

    One linear programme (HiGHS) for the row player: max v subject to x^T M[:, j] >= v for every
    column j, sum x = 1, x >= 0. The column player's optimal strategy is the dual of the column
    constraints. Returns (row strategy, column strategy, value).
    """
    n_rows, n_cols = matrix.shape
    c = np.zeros(n_rows + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-matrix.T, np.ones((n_cols, 1))])
    a_eq = np.hstack([np.ones((1, n_rows)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * n_rows + [(None, None)]
    res = linprog(
        c, A_ub=a_ub, b_ub=np.zeros(n_cols), A_eq=a_eq, b_eq=[1.0], bounds=bounds, method="highs"
    )
    if res.status != 0:
        raise RuntimeError(f"matrix game did not solve: {res.message}")
    x = np.clip(res.x[:-1], 0.0, None)
    y = np.clip(-res.ineqlin.marginals, 0.0, None)
    x, y = x / x.sum(), y / y.sum()
    return x, y, float(x @ matrix @ y)


def _capped_strategy(matrix: NDArray[np.float64], row_cap: float, col_cap: float) -> NDArray:
    """The row player's optimal strategy when no row nor column may be played with more than
    its cap (three-card combat: a card is one of three put down, so at most 1/3).

    The column player's best reply to ``x`` over the capped simplex is itself an LP; by its
    dual, the row player solves max u - col_cap * sum(w) subject to u - w_j <= (x^T M)_j,
    sum x = 1, 0 <= x <= row_cap, w >= 0.
    """
    n_rows, n_cols = matrix.shape
    # variables: x (n_rows), u, w (n_cols); minimise -(u - col_cap * sum w)
    c = np.concatenate([np.zeros(n_rows), [-1.0], np.full(n_cols, col_cap)])
    a_ub = np.hstack([-matrix.T, np.ones((n_cols, 1)), -np.eye(n_cols)])
    a_eq = np.concatenate([np.ones(n_rows), [0.0], np.zeros(n_cols)])[None, :]
    bounds = [(0.0, row_cap)] * n_rows + [(None, None)] + [(0.0, None)] * n_cols
    res = linprog(
        c, A_ub=a_ub, b_ub=np.zeros(n_cols), A_eq=a_eq, b_eq=[1.0], bounds=bounds, method="highs"
    )
    if res.status != 0:
        raise RuntimeError(f"matrix game did not solve: {res.message}")
    x = np.clip(res.x[:n_rows], 0.0, None)
    return x / x.sum()


def solve_capped_game(
    matrix: NDArray[np.float64], row_cap: float, col_cap: float
) -> tuple[NDArray[np.float64], NDArray[np.float64], float]:
    """Optimal strategies of the zero-sum game on ``matrix`` (rows maximise) when each row is
    played with probability at most ``row_cap`` and each column at most ``col_cap``.

    >>> x, y, v = solve_capped_game(np.eye(3)[:, ::-1], 1 / 3, 1 / 3)
    >>> round(v, 6), x.round(3).tolist()
    (0.333333, [0.333, 0.333, 0.333])
    """
    x = _capped_strategy(matrix, row_cap, col_cap)
    y = _capped_strategy(1.0 - matrix.T, col_cap, row_cap)
    return x, y, float(x @ matrix @ y)


def _strategies(
    battle: Battle, model: str, matrix: NDArray[np.float64]
) -> tuple[NDArray[np.float64], NDArray[np.float64], float | None]:
    n_a, n_d = matrix.shape
    if model == "uniform":
        return np.full(n_a, 1.0 / n_a), np.full(n_d, 1.0 / n_d), None
    if model == "fixed" and battle.three_card_combat:
        x, y = np.zeros(n_a), np.zeros(n_d)
        for side, vec in ((0, x), (1, y)):
            picks = battle.fixed_picks[side]
            if not picks:
                who = "attacker" if side == 0 else "defender"
                raise BattleSpecError(
                    f"{who}.card: required with model='fixed' (the cards put face down)"
                )
            for pick in picks:
                vec[battle.hands[side].index(pick)] = 1.0 / len(picks)
        return x, y, None
    if model == "fixed":
        x, y = np.zeros(n_a), np.zeros(n_d)
        for side, vec, hand in ((0, x, battle.hands[0]), (1, y, battle.hands[1])):
            card = battle.fixed_cards[side]
            if not hand:  # no house cards against a neutral force
                vec[0] = 1.0
                continue
            if card is None:
                who = "attacker" if side == 0 else "defender"
                raise BattleSpecError(f"{who}.card: required with model='fixed'")
            vec[hand.index(card)] = 1.0
        return x, y, None
    if battle.three_card_combat:
        return solve_capped_game(matrix, 1.0 / battle.picks(0), 1.0 / battle.picks(1))
    x, y, value = solve_matrix_game(matrix)
    return x, y, value


# --- the public function -----------------------------------------------------------------------


def combat_odds(
    spec: Mapping[str, Any] | str | Path | Battle,
    *,
    model: str = "uniform",
    samples: int | None = None,
    seed: int | np.random.SeedSequence | None = 0,
    batch: int = 100_000,
) -> OddsResult:
    """Odds of a battle under a card-choice model (``fixed``, ``uniform`` or ``equilibrium``).

    Exact by default. With ``samples=N`` the chance layer (card picks from the model's strategies,
    Tides draws, blade redraws) is sampled ``N`` times instead, in batches of ``batch``, and the
    result carries its standard error.

    >>> r = combat_odds({"area": "riverrun",
    ...     "attacker": {"house": "lannister", "units": {"knight": 2},
    ...                  "hand": ["ser_gregor_clegane"]},
    ...     "defender": {"house": "stark", "units": {"footman": 1}, "hand": ["catelyn_stark"]}})
    >>> r.p_attacker_wins
    1.0
    """
    if model not in MODELS:
        raise BattleSpecError(f"model: unknown model {model!r} (known: {', '.join(MODELS)})")
    battle = spec if isinstance(spec, Battle) else parse_battle(spec)
    resolver = _Resolver(battle)
    hand_a = battle.hands[0] or (-1,)
    hand_d = battle.hands[1] or (-1,)
    cells = [[resolver.cell(a, d) for d in hand_d] for a in hand_a]
    matrix = np.array([[c.p for c in row] for row in cells])
    x, y, value = _strategies(battle, model, matrix)
    weights = np.outer(x, y)

    lost = sum(
        weights[i, j] * cells[i][j].lost for i in range(len(hand_a)) for j in range(len(hand_d))
    )
    routed = sum(
        weights[i, j] * cells[i][j].routed for i in range(len(hand_a)) for j in range(len(hand_d))
    )
    dist = sum(
        weights[i, j] * cells[i][j].dist for i in range(len(hand_a)) for j in range(len(hand_d))
    )
    misc = sum(
        weights[i, j] * cells[i][j].misc for i in range(len(hand_a)) for j in range(len(hand_d))
    )
    p = float(x @ matrix @ y)
    exact_result, n_samples, std_error = True, 0, 0.0
    if samples:
        p, std_error = sample_battle(resolver, cells, x, y, samples, seed=seed, batch=batch)
        exact_result, n_samples = False, int(samples)

    ids_a = tuple(card_id(battle, c) or "(none)" for c in hand_a)
    ids_d = tuple(card_id(battle, c) or "(none)" for c in hand_d)
    representative = cells[int(np.argmax(x))][int(np.argmax(y))] if model == "fixed" else None
    return OddsResult(
        p_attacker_wins=p,
        p_defender_wins=1.0 - p,
        model=model,
        exact=exact_result,
        n_samples=n_samples,
        std_error=std_error,
        attacker_cards=ids_a,
        defender_cards=ids_d,
        matrix=matrix,
        attacker_strategy={c: float(v) for c, v in zip(ids_a, x, strict=True)},
        defender_strategy={c: float(v) for c, v in zip(ids_d, y, strict=True)},
        game_value=value,
        breakdown=breakdown_for(battle, None if representative is None else representative.battle),
        casualties=_casualties(lost, routed, dist),
        power={
            "attacker": float(misc[exact.M_POWER_ATTACKER]),
            "defender": float(misc[exact.M_POWER_DEFENDER]),
        },
        blade={
            "plus_one": float(misc[exact.M_BLADE_PLUS1]),
            "redraw": float(misc[exact.M_BLADE_REDRAW]),
        },
        notes={
            f"{ids_a[i]}|{ids_d[j]}": cells[i][j].notes
            for i in range(len(hand_a))
            for j in range(len(hand_d))
            if cells[i][j].notes
        },
        battle=battle,
    )


def breakdown_for(battle: Battle, vector: NDArray[np.int64] | None = None) -> pd.DataFrame:
    """Strength components per side for a battle vector (default: before any card is played).

    Rows ``attacker``/``defender``; columns ``gotsim.engine.combat.PART_NAMES``.
    """
    b = battle.base.copy() if vector is None else vector.copy()
    parts = np.zeros((2, cb.N_PARTS), np.int64)
    cb.strength_breakdown(b, battle.card_table.arrays(), cb.tides_deck().arrays(), parts)
    return pd.DataFrame(parts, index=["attacker", "defender"], columns=list(cb.PART_NAMES))


def card_pair_breakdown(
    battle: Battle, attacker_card: str, defender_card: str | None
) -> pd.DataFrame:
    """Strength components once these two cards are played and their abilities resolved."""
    table = battle.card_table
    resolver = _Resolver(battle)
    cell = resolver.cell(
        table.number(attacker_card), -1 if defender_card is None else table.number(defender_card)
    )
    return breakdown_for(battle, cell.battle)


# the unit types whose casualties the calculator counts (dragons fight, with their strength, but
# their casualties are not modelled here: docs/rules.md M11)
CASUALTY_UNITS = tuple(Unit)[: cb.N_UNIT_TYPES]


def _casualties(
    lost: NDArray[np.float64], routed: NDArray[np.float64], dist: NDArray[np.float64]
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for side, name in ((cb.ATTACKER, "attacker"), (cb.DEFENDER, "defender")):
        last = int(np.flatnonzero(dist[side] > 1e-15).max(initial=0))
        out[name] = {
            "expected_destroyed": {u.id: float(lost[side, u]) for u in CASUALTY_UNITS},
            "expected_routed": {u.id: float(routed[side, u]) for u in CASUALTY_UNITS},
            "destroyed_distribution": [float(v) for v in dist[side, : last + 1]],
        }
    return out
