"""One game driven from Python, one decision at a time: for custom policies in a notebook,
narrated logs (``gotsim play``), replays and tests. Same compiled rules as the batch path.

>>> game = Game(players=6, seed=1)
>>> game.pending.kind.name, game.pending.house.id
('PLACE_ORDER', 'baratheon')
>>> game.play(RandomPolicy())
>>> game.finished
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gotsim.engine import combat as cb
from gotsim.engine.init import new_games
from gotsim.engine.machine import advance, apply, legal
from gotsim.engine.rng import pick_from_mask
from gotsim.engine.state import (
    ACT_FOOTMAN,
    ACT_KNIGHT,
    ACT_NONE,
    ACT_SIEGE,
    ACT_UPGRADE_KNIGHT,
    ACT_UPGRADE_SIEGE,
    N_ACTIONS,
    ONE_TIME_NAMES,
    ORDER_NAMES,
    Decision,
    EndReason,
    OneTimeOrder,
    Phase,
)
from gotsim.engine.tables import WesterosCard, WildlingCard, rules_for, variant_flags
from gotsim.rules.board import load_board
from gotsim.rules.cards import house_deck
from gotsim.rules.ids import House, Unit

TRACK_NAMES = ("iron_throne", "fiefdoms", "kings_court")


class IllegalActionError(ValueError):
    """An action that is not among the pending decision's legal options."""


@dataclass(frozen=True)
class Pending:
    """A decision the engine waits for: its kind, who decides, context and legal actions."""

    kind: Decision
    house: House
    context: tuple[int, ...]
    legal: tuple[int, ...]


@dataclass
class Event:
    round: int
    phase: str
    kind: str
    house: str
    action: int
    text: str


Policy = Callable[["Game", Pending], int]


class RandomPolicy:
    """Uniform over the legal actions, drawing from the deciding house's own stream."""

    def __call__(self, game: Game, pending: Pending) -> int:
        mask = np.zeros(N_ACTIONS, np.bool_)
        mask[list(pending.legal)] = True
        return int(pick_from_mask(game.record.rng, 1 + int(pending.house), mask))


@dataclass
class Game:
    """A single game record with its rules; ``pending`` is the decision awaited."""

    players: int = 6
    seed: int | np.random.SeedSequence = 0
    variants: Mapping[str, bool] | None = None
    edition: str = "2e"
    log: list[Event] = field(default_factory=list)

    def __post_init__(self) -> None:
        flags = variant_flags(self.variants)
        seq = (
            self.seed
            if isinstance(self.seed, np.random.SeedSequence)
            else (np.random.SeedSequence(self.seed, spawn_key=(0,)))
        )
        self.rules = rules_for(self.edition, self.players, flags)
        self.games = new_games(
            [seq],
            edition=self.edition,
            players=self.players,
            kings_court_swap=flags["kings_court_swap"],
        )
        self.board = load_board(self.edition)
        self._advance()

    @property
    def record(self) -> Any:
        return self.games[0]

    @property
    def t(self) -> Any:
        return self.rules[0]

    @property
    def finished(self) -> bool:
        return bool(self.record.done)

    @property
    def winner(self) -> House | None:
        w = int(self.record.winner)
        return House(w) if w >= 0 else None

    @property
    def end_reason(self) -> str:
        return EndReason(int(self.record.end_reason)).name.lower()

    def _advance(self, quiet: bool = False) -> None:
        if not quiet:
            self._seen = (int(self.record.game_round), int(self.record.phase))
        advance(self.record, self.t)
        if not quiet:
            self._note_phase_change()

    def _note_phase_change(self) -> None:
        now = (int(self.record.game_round), int(self.record.phase))
        if getattr(self, "_seen", None) != now:
            self._note_phase(now)
        self._seen = now

    def _note_phase(self, after: tuple[int, int]) -> None:
        g = self.record
        if after[1] == Phase.PLANNING and after[0] > 1:
            drawn = [WesterosCard(int(c)).name.lower() for c in g.westeros_drawn if c >= 0]
            line = g.history[after[0] - 1]
            if line[4]:  # a wildling attack this round
                who = ("", "the Night's Watch", "the wildlings")[int(line[5])]
                # the 1st edition has no wildling deck (-1): the attack has a fixed outcome
                card = WildlingCard(int(line[9])).name.lower() if line[9] >= 0 else "1st edition"
                self._event("wildlings", -1, f"wildlings attack: {card}, {who} win")
            self._event(
                "westeros",
                -1,
                f"Westeros cards: {', '.join(drawn)}; wildling threat {int(g.threat)}",
            )
        if after[1] == Phase.GAME_OVER:
            winner = self.winner.id if self.winner is not None else "nobody"
            self._event("game_over", -1, f"{winner} wins ({self.end_reason})")

    @property
    def pending(self) -> Pending | None:
        g = self.record
        if g.pending == Decision.NONE:
            return None
        mask = np.zeros(N_ACTIONS, np.bool_)
        legal(g, self.t, mask)
        return Pending(
            Decision(int(g.pending)),
            House(int(g.pending_house)),
            tuple(int(x) for x in g.ctx),
            tuple(int(a) for a in np.flatnonzero(mask)),
        )

    def step(self, action: int) -> None:
        """Apply one action to the pending decision (``IllegalActionError`` if not legal)."""
        pending = self.pending
        if pending is None:
            raise IllegalActionError("no decision is pending")
        if action not in pending.legal:
            raise IllegalActionError(
                f"{action} is not a legal {pending.kind.name} action for {pending.house.id}; "
                f"legal: {list(pending.legal)}"
            )
        text = self.describe(pending, action)
        in_battle = int(self.record.combat_area)
        fought_in = (int(self.record.game_round), int(self.record.phase))
        apply(self.record, self.t, action)
        self._event(pending.kind.name, action, f"{pending.house.id}: {text}", pending.house)
        if in_battle < 0:
            self._advance()
            return
        finished = self.record.combat_area < 0
        if not finished:
            self._advance(quiet=True)
            finished = self.record.combat_area < 0
        if finished:  # logged under the round and phase it was fought in
            self._event("battle", -1, self._battle_text(in_battle), when=fought_in)
        self._note_phase_change()

    def play(self, policy: Policy | Mapping[House, Policy], max_decisions: int = 100_000) -> None:
        """Run to the end (or to a phase not yet built) with one policy or one per house."""
        for _ in range(max_decisions):
            pending = self.pending
            if pending is None:
                return
            chooser = policy[pending.house] if isinstance(policy, Mapping) else policy
            self.step(chooser(self, pending))

    @property
    def actions(self) -> list[int]:
        """Every decision's action so far, in order: with the seed, the whole game."""
        return [e.action for e in self.log if e.house]

    def observation(self, house: House) -> dict[str, Any]:
        """What ``house`` may see: the public board (units, routed units, power tokens,
        garrisons, neutral forces, tracks, power, supply, discards, wildling threat), orders
        once revealed (its own always), its own hand. Never deck order or others' hidden
        choices (face-down orders during planning, bids)."""
        g = self.record
        n = self.board.n_areas
        planning = int(g.phase) == Phase.PLANNING
        orders = np.array(g.order[:n])
        one_time = np.array(g.one_time[:n])
        if planning:
            orders[np.array(g.owner[:n]) != int(house)] = -1
            one_time[np.array(g.owner[:n]) != int(house)] = -1
        return {
            "round": int(g.game_round),
            "phase": Phase(int(g.phase)).name.lower(),
            "owner": np.array(g.owner[:n]),
            "units": np.array(g.units[:n]),
            "routed": np.array(g.routed[:n]),
            "orders": orders,
            "one_time_orders": one_time,  # OneTimeOrder per area, -1 none (1e variant)
            "power_tokens": np.array(g.power_token[:n]),
            "garrisons": np.array(g.garrison[:n]),
            "neutral_forces": np.array(g.neutral[:n]),
            "tracks": np.array(g.track),
            "power": np.array(g.power),
            "supply": np.array(g.supply),
            "discards": np.array(g.discard),
            "hand": int(g.hand[int(house)]),
            "wildling_threat": int(g.threat),
            "blade_used": bool(g.blade_used),
        }

    # --- narration ------------------------------------------------------------------------

    def _event(
        self,
        kind: str,
        action: int,
        text: str,
        house: House | None = None,
        when: tuple[int, int] | None = None,
    ) -> None:
        g = self.record
        game_round, phase = when if when is not None else (int(g.game_round), int(g.phase))
        self.log.append(
            Event(
                game_round,
                Phase(phase).name.lower(),
                kind,
                house.id if house is not None else "",
                action,
                text,
            )
        )

    def _area(self, a: int) -> str:
        return self.board.area_names[a] if 0 <= a < self.board.n_areas else str(a)

    def _card(self, house: House, slot: int) -> str:
        return house_deck(self.edition, house)[slot].name

    def describe(self, pending: Pending, action: int) -> str:
        """The action in words."""
        kind, ctx, house = pending.kind, pending.context, pending.house
        if kind == Decision.PLACE_ORDER:
            if action == ACT_NONE:  # 1st edition: an area may stay without an order
                return f"no order in {self._area(ctx[0])}"
            return f"order {ORDER_NAMES[action]} in {self._area(ctx[0])}"
        if kind in (Decision.RAID_FROM, Decision.MARCH_FROM):
            return f"resolves the order in {self._area(action)}"
        if kind == Decision.RAID_TARGET:
            return "raids nothing" if action == ACT_NONE else f"raids {self._area(action)}"
        if kind == Decision.MARCH_UNIT:
            unit = Unit(ctx[1]).id
            where = "stays" if action == ctx[0] else f"to {self._area(action)}"
            return f"{unit} from {self._area(ctx[0])} {where}"
        if kind == Decision.LEAVE_POWER:
            return "leaves a power token" if action else "leaves no power token"
        if kind == Decision.SUPPORT_SIDE:
            return f"supports {('nobody', 'the attacker', 'the defender')[action]}"
        if kind == Decision.HOUSE_CARD:
            if action == ACT_NONE:
                return "plays no card"
            if self.t.three_card_combat and ctx[1] < 0:
                return f"puts {self._card(house, action)} face down"
            return f"plays {self._card(house, action)}"
        if kind == Decision.ONE_TIME_ORDER:
            if action == ACT_NONE:
                return "places no one-time order"
            return f"places the one-time order {ONE_TIME_NAMES[action]}"
        if kind == Decision.ONE_TIME_AREA:
            return f"{ONE_TIME_NAMES[ctx[0]]} goes in {self._area(action)}"
        if kind == Decision.ONE_TIME_MOVE:
            unit = Unit(ctx[1]).id
            where = "stays" if action == ctx[0] else f"to {self._area(action)}"
            return f"{ONE_TIME_NAMES[ctx[2]]}: {unit} from {self._area(ctx[0])} {where}"
        if kind == Decision.ONE_TIME_TARGET:
            order = OneTimeOrder(ctx[0])
            name = ONE_TIME_NAMES[order]
            if action == ACT_NONE:
                return f"{name}: nothing more"
            if order in (OneTimeOrder.IRON_FLEET, OneTimeOrder.SOUL_OF_RHLLOR):
                return f"{name} removes the order in {self._area(action)}"
            if order == OneTimeOrder.POWER_OF_HIGHGARDEN and ctx[2] == 0:
                return f"{name}: discards {self._card(house, action)}"
            if order == OneTimeOrder.POWER_OF_HIGHGARDEN:
                return f"{name}: takes 1 power from {House(action).id}"
            return f"{name} names {House(action).id}"
        if kind == Decision.CASUALTY:
            return f"loses a {Unit(action).id}"
        if kind == Decision.RETREAT:
            return f"retreats to {self._area(action)}"
        if kind == Decision.BLADE:
            return (
                "keeps the Valyrian Steel Blade",
                "uses the blade: +1",
                "uses the blade: redraws Tides of Battle",
            )[action]
        if kind == Decision.BID:
            return f"bids {action}"
        if kind == Decision.MUSTER:
            names = {
                ACT_NONE: "done",
                ACT_FOOTMAN: "footman",
                ACT_KNIGHT: "knight",
                ACT_UPGRADE_KNIGHT: "footman → knight",
                ACT_SIEGE: "siege engine",
                ACT_UPGRADE_SIEGE: "footman → siege engine",
            }
            what = names.get(action, f"ship into {self._area(action)}")
            return f"musters in {self._area(ctx[0])}: {what}"
        if kind == Decision.CONSOLIDATE_CHOICE:
            return ("takes power", "musters instead")[action] + f" in {self._area(ctx[0])}"
        if kind == Decision.TYRION:
            return ("keeps the opponent's card", "cancels the opponent's card")[action]
        if kind == Decision.DORAN:
            return f"sends the opponent to the bottom of {TRACK_NAMES[action]}"
        if kind == Decision.RAVEN:
            return ("keeps its orders", "replaces an order", "looks at the wildling deck")[action]
        if kind == Decision.RAVEN_BURY:
            return f"{'buries' if action else 'keeps'} {WildlingCard(ctx[0]).name.lower()}"
        return f"{kind.name.lower()} {action}"

    def _battle_text(self, area: int) -> str:
        g = self.record
        b = np.array(g.battle)
        parts = np.zeros((2, cb.N_PARTS), np.int64)
        t = self.t
        cb.strength_breakdown(
            b,
            (t.card_strength, t.card_swords, t.card_forts, t.card_ability, t.card_ref),
            (t.tides_count, t.tides_strength, t.tides_swords, t.tides_forts, t.tides_skulls),
            parts,
        )
        att = House(int(b[cb.HOUSE]))
        if b[cb.SIDE + cb.HOUSE] < 0:  # an attack on a neutral force
            taken = "taken" if cb.attacker_wins(b, parts) else "holds"
            return (
                f"attack on the neutral force in {self._area(area)}: {att.id} "
                f"{parts[0, cb.P_TOTAL]} vs {parts[1, cb.P_TOTAL]} — {taken}"
            )
        dfn = House(int(b[cb.SIDE + cb.HOUSE]))
        winner = att if cb.attacker_wins(b, parts) else dfn

        def side(s: int, house: House) -> str:
            names = dict(zip(cb.PART_NAMES, parts[s], strict=True))
            shown = ", ".join(f"{k} {v}" for k, v in names.items() if v and k != "total")
            return f"{house.id} {names['total']} ({shown})"

        return f"battle for {self._area(area)}: {side(0, att)} vs {side(1, dfn)} — {winner.id} wins"

    def narrative(self) -> str:
        return "\n".join(f"R{e.round} {e.phase:<12} {e.text}" for e in self.log)


def replay(
    actions: list[int],
    *,
    players: int = 6,
    seed: int = 0,
    variants: Mapping[str, bool] | None = None,
    edition: str = "2e",
) -> Game:
    """The game that ``actions`` (``Game.actions``) make from ``seed``: the same record, move
    for move."""
    game = Game(players=players, seed=seed, variants=variants, edition=edition)
    for action in actions:
        game.step(action)
    return game


def random_game(
    players: int = 6,
    seed: int = 0,
    variants: Mapping[str, bool] | None = None,
    edition: str = "2e",
) -> Game:
    game = Game(players=players, seed=seed, variants=variants, edition=edition)
    game.play(RandomPolicy())
    return game


__all__ = [
    "TRACK_NAMES",
    "Game",
    "IllegalActionError",
    "Pending",
    "RandomPolicy",
    "random_game",
    "replay",
]
