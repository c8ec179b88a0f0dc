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

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gotsim.data import load_data
from gotsim.engine import combat as cb
from gotsim.engine.battle.mod import ROBERT_ALONE
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
    OBJ_SCORED,
    Decision,
    EndReason,
    ObjectiveStep,
    OneTimeOrder,
    Phase,
)
from gotsim.engine.tables import WesterosCard, WildlingCard, rules_table
from gotsim.engine.vassals import deciding_house
from gotsim.engine.westeros import WILDLINGS_1E
from gotsim.rules.board import load_board
from gotsim.rules.cards import game_cards, house_deck, vassal_cards
from gotsim.rules.ids import EDITIONS, House, Unit
from gotsim.rules.iron_bank import LOAN_CARDS
from gotsim.rules.objectives import objectives
from gotsim.rules.setup import load_setup
from gotsim.rules.variants import Rules

TRACK_NAMES = ("iron_throne", "fiefdoms", "kings_court")
# A Dance with Dragons abilities whose CARD_ABILITY action 0 means "not used"
ADWD_ZERO_UNUSED = (cb.Ability.JON_SNOW, cb.Ability.REEK)

# --- the game's words for the engine's codes (narration) -----------------------------------------

TRACK_WORDS = ("the Iron Throne track", "the Fiefdoms track", "the King's Court track")
ORDER_WORDS = (
    "March −1",
    "March +0",
    "March +1 ★",
    "Defense +1",
    "Defense +2 ★",
    "Support +0",
    "Support +1 ★",
    "Raid",
    "Raid ★",
    "Consolidate Power",
    "Consolidate Power ★",
    "Sea March −1",
    "Sea Support +0",
    "the Iron Bank order",
)
ONE_TIME_WORDS = (
    "Muster",
    "Supply Train",
    "Forced March",
    "Iron Fleet",
    "Young Wolf",
    "Power of Highgarden",
    "Lion's Cunning",
    "Soul of R'hllor",
)
PHASE_WORDS = {
    "setup": "setup",
    "westeros": "Westeros",
    "planning": "planning",
    "raven": "raven",
    "raids": "raids",
    "marches": "marches",
    "consolidate": "consolidate",
    "cleanup": "cleanup",
    "game_over": "game end",
}
WESTEROS_OPTIONS = {  # WESTEROS_CHOICE: what each option of a choice card does
    WesterosCard.A_THRONE_OF_BLADES: (
        "every house adjusts its supply",
        "every house musters",
        "nothing happens",
    ),
    WesterosCard.DARK_WINGS_DARK_WORDS: (
        "a Clash of Kings: bidding on the influence tracks",
        "a Game of Thrones: power for crowns",
        "nothing happens",
    ),
    WesterosCard.PUT_TO_THE_SWORD: (
        "no Defense orders this round",
        "no March +1 orders this round",
        "nothing happens",
    ),
    WesterosCard.THE_BURDEN_OF_POWER: (
        "the wildling threat drops to 0",
        "every house musters",
    ),
}


@functools.cache
def card_names() -> dict[str, str]:
    """The printed names of the Westeros and wildling cards of every edition, by id."""
    names: dict[str, str] = {}
    for edition in EDITIONS:
        try:
            decks = load_data(edition, "westeros_cards.json")["decks"]
        except Exception:  # an edition without a Westeros data file
            continue
        for deck in decks:
            for card in deck["cards"]:
                names.setdefault(card["id"], card.get("name", card["id"]))
    for scenario in load_data("2e", "expansions.json")["scenarios"].values():
        for card in scenario.get("westeros_deck_I_replacement", {}).get("cards", ()):
            names.setdefault(card["id"], card.get("name", card["id"]))
    for card in load_data("2e", "wildling_cards.json")["cards"]:
        names.setdefault(card["id"], card.get("name", card["id"]))
    return names


def card_words(card: WesterosCard | WildlingCard) -> str:
    """A Westeros or wildling card's printed name (``A Throne of Blades``)."""
    ident = card.name.lower()
    return card_names().get(ident, ident.replace("_", " ").capitalize())


def unit_words(unit: int) -> str:
    """A unit type in words (``siege engine``)."""
    return Unit(unit).id.replace("_", " ")


def _points_words(n: int) -> str:
    return f"{n} victory point{'' if n == 1 else 's'}"


def house_words(house: int | House) -> str:
    """A house's name (``Lannister``)."""
    return House(int(house)).id.capitalize()


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
    expansion: str | None = None  # ``rules.variants.EXPANSIONS`` name; None: the base game

    def __post_init__(self) -> None:
        rules = Rules.of(self.edition, self.players, self.variants, self.expansion)
        self.expansion = rules.expansion
        seq = (
            self.seed
            if isinstance(self.seed, np.random.SeedSequence)
            else (np.random.SeedSequence(self.seed, spawn_key=(0,)))
        )
        self.rules = rules_table(rules)
        self.card_set = rules.card_set
        self.games = new_games(
            [seq],
            edition=self.edition,
            players=self.players,
            kings_court_swap=rules.on("kings_court_swap"),
            expansion=rules.expansion,
            vassals=rules.on("vassals"),
            eight_houses=rules.on("eight_houses"),
            iron_bank=rules.on("iron_bank"),
        )
        self.board = load_board(self.edition, board=rules.board)
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
        """``castles``, ``objectives`` (A Feast for Crows' 7 victory points), ``round<N>``
        (decided by the ranking after the last round, ``round10`` or A Dance with Dragons'
        ``round6``), or ``none`` while the game goes on."""
        reason = EndReason(int(self.record.end_reason))
        if reason == EndReason.ROUND10:
            return f"round{int(self.t.max_rounds)}"
        return reason.name.lower()

    def _advance(self, quiet: bool = False) -> None:
        if not quiet:
            self._seen = (int(self.record.game_round), int(self.record.phase))
        advance(self.record, self.t)
        if not quiet:
            self._note_phase_change()

    def _note_phase_change(self) -> None:
        now = (int(self.record.game_round), int(self.record.phase))
        before = getattr(self, "_seen", None)
        if before != now:
            if before is not None and before[1] == Phase.OBJECTIVES and self.t.victory_points:
                self._note_points(before)
            self._note_phase(now)
        self._seen = now

    def _note_points(self, when: tuple[int, int]) -> None:
        """A Feast for Crows: the victory points and objective cards once a round's objective
        steps (or the start's choice of cards) are over."""
        g = self.record
        houses = [House(int(h)) for h in g.track[0] if h >= 0]
        held = ", ".join(
            f"{h.id} {int(g.vp[h])} ({int((g.objective_at == OBJ_SCORED + h).sum())} scored)"
            for h in houses
        )
        self._event("objectives", -1, f"victory points: {held}", when=when)

    def _note_phase(self, after: tuple[int, int]) -> None:
        g = self.record
        if after[1] == Phase.PLANNING and after[0] > 1:
            drawn = [card_words(WesterosCard(int(c))) for c in g.westeros_drawn if c >= 0]
            line = g.history[after[0] - 1]
            if line[4]:  # a wildling attack this round
                who = ("", "the Night's Watch", "the wildlings")[int(line[5])]
                # the 1st edition has no wildling deck (-1): the attack has a fixed outcome
                card = card_words(WildlingCard(int(line[9]))) if line[9] >= 0 else "1st edition"
                self._event("wildlings", -1, f"the wildlings attack ({card}): {who} win")
            self._event(
                "westeros",
                -1,
                f"Westeros cards: {', '.join(drawn)}; the wildling threat stands at "
                f"{int(g.threat)}",
            )
        if after[1] == Phase.GAME_OVER:
            winner = house_words(self.winner) if self.winner is not None else "nobody"
            why = {
                "castles": "holds the castles and strongholds needed to win",
                "objectives": f"scores {int(self.t.victory_points)} victory points",
                "loyalty": f"holds {int(self.t.loyalty_to_win)} loyalty tokens",
                f"round{int(self.t.max_rounds)}": f"leads after round {int(self.t.max_rounds)}",
            }.get(self.end_reason, self.end_reason)
            self._event("game_over", -1, f"{winner} wins ({why})")

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
        if isinstance(policy, Mapping):
            policy = self._policies_by_house(policy)
        elif not callable(policy):
            raise ValueError(
                f"policy must be a policy (a callable) or a mapping of house to policy, "
                f"not {type(policy).__name__}"
            )
        for _ in range(max_decisions):
            pending = self.pending
            if pending is None:
                return
            # a vassal's decisions: its commander's policy (docs/rules.md V2)
            who = House(int(deciding_house(self.record, self.t, int(pending.house))))
            chooser = policy[who] if isinstance(policy, Mapping) else policy
            self.step(chooser(self, pending))

    def _policies_by_house(self, policy: Mapping[Any, Policy]) -> dict[House, Policy]:
        """``policy`` keyed by ``House``, with one callable for each house in play (names
        such as ``"stark"`` are accepted as keys)."""
        setup = load_setup(
            self.edition,
            self.players,
            expansion=self.expansion,
            vassals=bool(self.t.vassals),
            eight_houses=bool(self.t.vassals) and int(self.t.players) == 8,
        )
        in_play = sorted(h for h in setup.houses if h not in setup.vassals)  # (vassals: V2)
        by_house: dict[House, Policy] = {}
        for key, chooser in policy.items():
            try:
                house = key if isinstance(key, House) else House[str(key).upper()]
            except KeyError:
                raise ValueError(f"policy: {key!r} is not a house") from None
            if house not in in_play:
                raise ValueError(
                    f"policy: {house.id} is not in a {self.players}-player {self.edition} game"
                )
            if not callable(chooser):
                raise ValueError(f"policy for {house.id}: not a policy (a callable)")
            by_house[house] = chooser
        missing = [h.id for h in in_play if h not in by_house]
        if missing:
            raise ValueError(f"policy: no policy for {', '.join(missing)}")
        return by_house

    @property
    def actions(self) -> list[int]:
        """Every decision's action so far, in order: with the seed, the whole game."""
        return [e.action for e in self.log if e.house]

    def observation(self, house: House) -> dict[str, Any]:
        """What ``house`` may see: the public board (units, routed units, power tokens,
        garrisons, neutral forces, tracks, power, supply, discards, wildling threat; A Feast for
        Crows: victory points and objective cards scored), orders once revealed (its own
        always), its own hand (and objective cards, ``Objective`` numbers). Never deck order or
        others' hidden choices (face-down orders during planning, bids, objective hands)."""
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
            # A Feast for Crows: everyone's victory points, its own objective hand, the scored
            "victory_points": np.array(g.vp),
            "objectives": [int(k) for k in np.flatnonzero(np.asarray(g.objective_at) == house)],
            "objectives_scored": np.array(
                [(np.asarray(g.objective_at) == OBJ_SCORED + h).sum() for h in range(len(House))]
            ),
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
        if self.t.vassals and self.t.vassal[house]:  # a vassal's dealt vassal card (V12)
            return vassal_cards()[slot].name
        return house_deck(self.edition, house, self.card_set)[slot].name

    def describe(self, pending: Pending, action: int) -> str:
        """The action in the game's words (``places March +1 ★ in Dragonstone``)."""
        kind, ctx, house = pending.kind, pending.context, pending.house
        area = self._area
        if kind == Decision.PLACE_ORDER:
            if action == ACT_NONE:  # 1st edition: an area may stay without an order
                return f"leaves {area(ctx[0])} without an order"
            return f"places {ORDER_WORDS[action]} in {area(ctx[0])}"
        if kind == Decision.RAVEN:
            return (
                "keeps its orders (Messenger Raven)",
                "uses the Messenger Raven to replace an order",
                "uses the Messenger Raven to look at the top wildling card",
            )[action]
        if kind == Decision.RAVEN_AREA:
            return f"replaces its order in {area(action)}"
        if kind == Decision.RAVEN_ORDER:
            return f"puts {ORDER_WORDS[action]} in {area(ctx[0])} instead"
        if kind == Decision.RAVEN_BURY:
            where = "at the bottom of the deck" if action else "on top"
            return f"leaves the wildling card {card_words(WildlingCard(ctx[0]))} {where}"
        if kind == Decision.RAID_FROM:
            return f"resolves its Raid in {area(action)}"
        if kind == Decision.MARCH_FROM:
            return f"resolves its March in {area(action)}"
        if kind == Decision.RAID_TARGET:
            return "raids nothing" if action == ACT_NONE else f"raids {area(action)}"
        if kind == Decision.MARCH_UNIT:
            unit = unit_words(ctx[1])
            if action == ctx[0]:
                return f"keeps a {unit} in {area(ctx[0])}"
            return f"marches a {unit} from {area(ctx[0])} to {area(action)}"
        if kind == Decision.LEAVE_POWER:
            left = "leaves a power token" if action else "leaves no power token"
            return f"{left} in {area(ctx[0])}"
        if kind == Decision.SUPPORT_SIDE:
            return f"supports {('nobody', 'the attacker', 'the defender')[action]}"
        if kind == Decision.HOUSE_CARD:
            if action == ACT_NONE:
                return "plays no house card"
            if self.t.three_card_combat and ctx[1] < 0:
                return f"puts {self._card(house, action)} face down"
            return f"plays {self._card(house, action)}"
        if kind == Decision.TYRION:
            return ("lets the opponent's card stand", "cancels the opponent's card")[action]
        if kind == Decision.AERON:
            if action == 0:
                return "keeps Aeron Damphair"
            return f"pays 2 power to play {self._card(house, action - 1)} instead of Aeron"
        if kind == Decision.QUEEN_OF_THORNS:
            if action == ACT_NONE:
                return "removes no order (Queen of Thorns)"
            return f"removes the order in {area(action)} (Queen of Thorns)"
        if kind == Decision.DORAN:
            return f"sends the opponent to the bottom of {TRACK_WORDS[action]} (Doran)"
        if kind == Decision.BLADE:
            return (
                "keeps the Valyrian Steel Blade unused",
                "uses the Valyrian Steel Blade: +1 strength",
                "uses the Valyrian Steel Blade: draws Tides of Battle again",
            )[action]
        if kind == Decision.CASUALTY:  # ctx: the side, not an area
            battle = area(int(self.record.combat_area))
            if ctx[2] == 1:
                return f"loses a {unit_words(action)} to supply, retreating from {battle}"
            return f"loses a {unit_words(action)} in the battle for {battle}"
        if kind == Decision.RETREAT:  # ctx: the choosing side and the retreating side
            battle = area(int(self.record.combat_area))
            if ctx[0] == ctx[1]:
                return f"retreats from {battle} to {area(action)}"
            beaten = house_words(House(int(self.record.battle[ctx[1] * cb.SIDE + cb.HOUSE])))
            return f"sends {beaten} retreating from {battle} to {area(action)} (Robb Stark)"
        if kind == Decision.RENLY:
            if action == ACT_NONE:
                return "upgrades no footman (Renly)"
            return f"turns a footman in {area(action)} into a knight (Renly)"
        if kind == Decision.CERSEI:
            if action == ACT_NONE:
                return "removes no order"
            return f"removes the loser's order in {area(action)}"
        if kind == Decision.PATCHFACE:
            owner = House(ctx[0])
            if action == ACT_NONE:
                return "takes no card"
            card = self._card(owner, action)
            if ctx[1] == 1:
                return f"pays 1 power to make {house_words(owner)} discard {card} (Melisandre)"
            if ctx[1] == 2:
                return f"takes {card} back from its discards (Maester Luwin)"
            return f"makes {house_words(owner)} discard {card} (Patchface)"
        if kind == Decision.MUSTER:
            names = {
                ACT_NONE: "is done mustering",
                ACT_FOOTMAN: "musters a footman",
                ACT_KNIGHT: "musters a knight",
                ACT_UPGRADE_KNIGHT: "turns a footman into a knight",
                ACT_SIEGE: "musters a siege engine",
                ACT_UPGRADE_SIEGE: "turns a footman into a siege engine",
            }
            what = names.get(action, f"musters a ship into {area(action)}")
            return f"{what} in {area(ctx[0])}"
        if kind == Decision.SUPPLY_CUT:
            return f"shrinks its army in {area(action)} to fit its supply"
        if kind == Decision.SUPPLY_CUT_UNIT:
            return f"removes a {unit_words(action)} from {area(ctx[0])} (supply)"
        if kind == Decision.BID:
            if ctx[0] == 3:
                return f"bids {action} power against the wildlings"
            return f"bids {action} power for {TRACK_WORDS[ctx[0]]}"
        if kind == Decision.TIE_ORDER:
            if ctx[0] == 3:
                role = "lowest" if ctx[1] == 0 else "highest"
                return f"names {house_words(action)} the {role} bidder (Iron Throne)"
            return f"places {house_words(action)} next on {TRACK_WORDS[ctx[0]]} (a tied bid)"
        if kind == Decision.WESTEROS_CHOICE:
            drawn = WesterosCard(ctx[0])
            options = WESTEROS_OPTIONS.get(drawn)
            chosen = options[action] if options and action < len(options) else f"option {action}"
            return f"chooses for {card_words(drawn)}: {chosen}"
        if kind == Decision.WILDLING_CHOICE:
            return self._wildling_choice(house, ctx, action)
        if kind == Decision.DESTROY_UNIT:
            return f"destroys a unit of its own in {area(action)}"
        if kind == Decision.DESTROY_UNIT_TYPE:
            return f"destroys a {unit_words(action)} of its own in {area(ctx[0])}"
        if kind == Decision.CROW_KILLERS:
            if ctx[0] == 2:
                if action == ACT_NONE:
                    return "upgrades no more footmen (Crow Killers)"
                return f"turns a footman in {area(action)} into a knight (Crow Killers)"
            return f"gives up a knight in {area(action)} (Crow Killers)"
        if kind == Decision.TRACK_CHOICE:
            if ctx[0] == 0:
                return f"moves to the top of {TRACK_WORDS[action]} (A King Beyond the Wall)"
            if ctx[0] == 1:
                return f"moves to the bottom of {TRACK_WORDS[action]} (A King Beyond the Wall)"
            return f"drops {house_words(ctx[1])} 2 places on {TRACK_WORDS[action]}"
        if kind == Decision.CONSOLIDATE_CHOICE:
            if ctx[1] == 1:
                what = ("takes power", "builds a fortification")[action]
            else:
                what = ("takes power", "musters instead")[action]
            return f"{what} in {area(ctx[0])}"
        if kind == Decision.ONE_TIME_ORDER:
            if action == ACT_NONE:
                return "places no one-time order"
            return f"places the one-time order {ONE_TIME_WORDS[action]}"
        if kind == Decision.ONE_TIME_AREA:
            return f"puts {ONE_TIME_WORDS[ctx[0]]} in {area(action)}"
        if kind == Decision.ONE_TIME_MOVE:
            unit = unit_words(ctx[1])
            name = ONE_TIME_WORDS[ctx[2]]
            if action == ctx[0]:
                return f"{name}: keeps a {unit} in {area(ctx[0])}"
            return f"{name}: marches a {unit} from {area(ctx[0])} to {area(action)}"
        if kind == Decision.ONE_TIME_TARGET:
            order = OneTimeOrder(ctx[0])
            name = ONE_TIME_WORDS[order]
            if action == ACT_NONE:
                return f"{name}: nothing more"
            if order in (OneTimeOrder.IRON_FLEET, OneTimeOrder.SOUL_OF_RHLLOR):
                return f"{name} removes the order in {area(action)}"
            if order == OneTimeOrder.POWER_OF_HIGHGARDEN and ctx[2] == 0:
                return f"{name}: discards {self._card(house, action)}"
            if order == OneTimeOrder.POWER_OF_HIGHGARDEN:
                return f"{name}: takes 1 power from {house_words(action)}"
            return f"{name} names {house_words(action)}"
        if kind == Decision.CARD_ABILITY:
            return self._card_ability(house, ctx, action)
        if kind == Decision.CLAIM_VASSAL:
            if action == ACT_NONE:
                return "passes on its claims to the next player"
            return f"claims {house_words(action)} as its vassal this round"
        if kind == Decision.TARGARYEN_BID:
            return f"hands 1 power of its bid to {house_words(action)}"
        if kind == Decision.GIFT_POWER:
            if ctx[0] == 0:
                return (
                    "gives no power"
                    if action == ACT_NONE
                    else f"chooses to give power to {house_words(action)}"
                )
            return f"gives {action} power to {house_words(ctx[1])}"
        if kind == Decision.OBJECTIVE:
            return self._objective(house, ctx, action)
        if kind == Decision.LOYALTY:
            return _loyalty_words(ctx, action, area)
        if kind == Decision.LOAN:
            return _loan_words(ctx, action, area)
        if kind == Decision.BUY_LOAN:
            if action == ACT_NONE:
                return f"buys no loan (Iron Bank order in {area(ctx[0])})"
            card = LOAN_CARDS[int(self.record.loan_slot[action])].replace("_", " ")
            return f"buys the loan {card} from slot {action + 1} of the Iron Bank"
        if kind == Decision.PAY_DEBT:
            debtor = house_words(ctx[1])
            if ctx[0] == 0:
                return f"destroys a unit of {debtor} in {area(action)} (unpaid interest)"
            return (
                f"destroys a {unit_words(action)} of {debtor} in {area(ctx[2])} (unpaid interest)"
            )
        return f"decides {kind.name.lower().replace('_', ' ')}: option {action}"

    def _objective(self, house: House, ctx: tuple[int, ...], action: int) -> str:
        """An OBJECTIVE decision (A Feast for Crows) in words, with the points it leaves."""
        step = ObjectiveStep(ctx[0])
        points = int(self.record.vp[int(house)])  # before the action
        if step == ObjectiveStep.SPECIAL:
            if action == 0:
                return "does not score its special objective"
            return f"scores its special objective ({_points_words(points + 1)})"
        if action == ACT_NONE:
            return "scores no objective card"
        card = objectives()[action]
        if step == ObjectiveStep.SCORE:
            gain = int(self.t.objective_points[action, int(house)])
            return f"scores the objective {card.name} ({_points_words(points + gain)})"
        if step == ObjectiveStep.POOL_PUT:
            return "puts an objective card into the pool"
        if step == ObjectiveStep.POOL_TAKE:
            return f"takes the objective {card.name} from the pool"
        return "puts an objective card back into the deck"

    def _card_ability(self, house: House, ctx: tuple[int, ...], action: int) -> str:
        """A CARD_ABILITY (A Dance with Dragons card) in words: ctx1 the ability, ctx2 its
        stage."""
        ability = cb.Ability(ctx[1])
        if ability == cb.Ability.AERON_DWD:
            return f"spends {action} power for +{action} strength (Aeron Damphair)"
        if action == ACT_NONE or (ability in ADWD_ZERO_UNUSED and action == 0):
            return f"does not use {ability.name.lower().replace('_', ' ')}"
        if ability == cb.Ability.QYBURN:
            card = game_cards(self.edition, self.card_set)[action]
            return f"pays 2 power for the numbers of {card.name} (Qyburn)"
        if ability == cb.Ability.ILYN_PAYNE:
            return f"destroys a footman in {self._area(action)} (Ser Ilyn Payne)"
        if ability == cb.Ability.JON_SNOW:
            return f"moves the wildling threat {('', 'down', 'up')[action]} (Jon Snow)"
        if ability == cb.Ability.RODRIK_THE_READER and ctx[2] == 0:
            return f"looks through Westeros deck {'I' * (action + 1)} (Rodrik the Reader)"
        if ability == cb.Ability.RODRIK_THE_READER:
            return f"puts {card_words(WesterosCard(action))} on top (Rodrik the Reader)"
        if ability == cb.Ability.GERRIS_DRINKWATER:
            return f"moves up on {TRACK_WORDS[action]} (Ser Gerris Drinkwater)"
        if ability == cb.Ability.REEK:
            return "takes Reek back into its hand"
        if ability == cb.Ability.ALAYNE_STONE:
            return (
                "pays 2 power: the opponent discards every power token in its hand (Alayne Stone)"
            )
        if ability == cb.Ability.VISERYS_TARGARYEN:
            return f"throws away {self._card(house, action)} for its strength (Viserys Targaryen)"
        if ability == cb.Ability.LYSA_ARRYN_MOD:
            return "takes Lysa Arryn back into its hand"
        if ability == cb.Ability.MISSANDEI:
            return f"takes {self._card(house, action)} back from its discards (Missandei)"
        if ability == cb.Ability.BERIC_DONDARRION:
            return f"loses a {unit_words(action)} in {self._area(ctx[2])} (Beric Dondarrion)"
        if ability == cb.Ability.JON_CONNINGTON:
            return f"musters a knight in {self._area(action)} (Jon Connington)"
        if ability == cb.Ability.ROBERT_ARRYN:
            if action == ROBERT_ALONE:
                return "takes Robert Arryn out of the game"
            opponent = House(int(self.record.battle[(1 - ctx[0]) * cb.SIDE + cb.HOUSE]))
            taken = self._card(opponent, action)
            return f"takes Robert Arryn and {taken} out of the game (Robert Arryn)"
        return f"pays power to take {self._card(house, action)} back (Melisandre)"

    def _wildling_choice(self, house: House, ctx: tuple[int, ...], action: int) -> str:
        """A WILDLING_CHOICE in words: ctx0 the wildling card (``WILDLINGS_1E``: the 1st
        edition's fixed victory, whose highest bidder may take a card back), ctx1 the role."""
        if ctx[0] == WILDLINGS_1E:
            beaten = "(the wildlings beaten)"
            if action == ACT_NONE:
                return f"takes no card back {beaten}"
            return f"takes {self._card(house, action)} back from its discards {beaten}"
        card = WildlingCard(ctx[0])
        name = card_words(card)
        if card == WildlingCard.PREEMPTIVE_RAID:
            chosen = ("destroys 2 of its units", "drops 2 places on its highest track")[action]
            return f"{chosen} ({name})"
        if card == WildlingCard.MASSING_ON_THE_MILKWATER:
            return f"discards {self._card(house, action)} ({name})"
        if card == WildlingCard.MAMMOTH_RIDERS:
            if action == ACT_NONE:
                return f"takes no card back ({name})"
            return f"takes {self._card(house, action)} back from its discards ({name})"
        if card == WildlingCard.THE_HORDE_DESCENDS:
            if action == ACT_NONE:
                return f"musters nowhere ({name})"
            return f"musters in {self._area(action)} ({name})"
        return f"chooses option {action} of {name}"

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
            if taken == "holds" and t.edition == 2:  # the plan was void (docs/rules.md C11)
                taken += "; the march is planned again"
            return (
                f"attack on the neutral force in {self._area(area)}: {att.id} "
                f"{parts[0, cb.P_TOTAL]} vs {parts[1, cb.P_TOTAL]} — {taken}"
            )
        dfn = House(int(b[cb.SIDE + cb.HOUSE]))
        winner = att if cb.attacker_wins(b, parts) else dfn

        def side(s: int, house: House) -> str:
            names = dict(zip(cb.PART_NAMES, parts[s], strict=True))
            shown = ", ".join(
                f"{k.replace('_', ' ')} {v:+d}" for k, v in names.items() if v and k != "total"
            )
            return f"{house_words(house)} {names['total']}" + (f" ({shown})" if shown else "")

        return (
            f"battle for {self._area(area)}: {side(0, att)} against {side(1, dfn)}; "
            f"{house_words(winner)} wins"
        )

    def narrative(self) -> str:
        """The log in words, one line per event: round, phase, who did what."""
        lines = []
        phase = "setup"
        for e in self.log:
            if e.kind != "battle" or e.phase != "game_over":
                phase = e.phase  # a battle that ends the game was fought in the phase before
            text = e.text
            if e.house and text.startswith(e.house + ": "):
                text = f"{house_words(House.from_id(e.house))} {text[len(e.house) + 2 :]}"
            lines.append(f"R{e.round:<2} {PHASE_WORDS.get(phase, phase):<11} {text}")
        return "\n".join(lines)


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
    "ORDER_WORDS",
    "TRACK_NAMES",
    "TRACK_WORDS",
    "Game",
    "IllegalActionError",
    "Pending",
    "RandomPolicy",
    "random_game",
    "replay",
]


def _loyalty_words(ctx: tuple[int, ...], action: int, area: Any) -> str:
    """A LOYALTY decision (Mother of Dragons' Westeros deck IV) in words."""
    from gotsim.engine.westeros.deck4 import LoyaltyStep

    step = LoyaltyStep(ctx[0])
    if step == LoyaltyStep.CANCEL:
        return f"pays {ctx[3]} power to stop the move" if action == 1 else "lets the move be"
    if action == ACT_NONE:
        return "does nothing more"
    if step == LoyaltyStep.FIRE:
        if action == ACT_FOOTMAN:
            return "puts a dragon back in Pentos"
        return f"destroys its dragon in {area(action)} for stronger dragons"
    if step == LoyaltyStep.MOVE_FROM:
        return f"moves the loyalty token in {area(action)}"
    if step == LoyaltyStep.MOVE_TO:
        return f"to {area(action)}"
    if step == LoyaltyStep.PLAY_HOUSE:
        return f"has {house_words(action)} put a unit there"
    if step == LoyaltyStep.PLAY_UNIT:
        return f"puts a {unit_words(action)} in {area(ctx[1])}"
    if step == LoyaltyStep.PLAN_HOUSE:
        return f"pays 1 power: {house_words(action)} puts two loyalty tokens"
    if step == LoyaltyStep.WATER and ctx[1] < 0:
        return f"pays {ctx[2]} power and puts a loyalty token in {area(action)}"
    return f"puts a loyalty token in {area(action)}"


def _loan_words(ctx: tuple[int, ...], action: int, area: Any) -> str:
    """A LOAN decision (an Iron Bank loan card, ``engine.loans``) in words."""
    from gotsim.engine.loans import SELLSWORDS, LoanCard, LoanStep

    step = LoanStep(ctx[0])
    card = LoanCard(ctx[1]).name.replace("_", " ").title()
    if step == LoanStep.SELLSWORD:
        unit = unit_words(int(SELLSWORDS[ctx[1], ctx[2]]))
        if action == ACT_NONE:
            return f"{card}: leaves a {unit} unplaced"
        return f"{card}: places a {unit} in {area(action)}"
    if action == ACT_NONE:
        return f"{card}: destroys nothing more"
    if step == LoanStep.IMPROVEMENT_KIND:
        kind = "power" if action == 1 else "supply"
        return f"{card}: a {kind} improvement in {area(ctx[3])}"
    if step == LoanStep.SPY_DECK:
        return f"{card}: looks at the top of Westeros deck {['I', 'II', 'III', 'IV'][action]}"
    if step == LoanStep.SPY_ARRANGE:
        return f"{card}: arranges the two cards seen (option {action})"
    words = {
        LoanStep.POWER_IMPROVEMENT: "a power improvement in",
        LoanStep.SUPPLY_IMPROVEMENT: "a supply improvement in",
        LoanStep.UPGRADE: "upgrades the castle of",
        LoanStep.DEGRADE: "degrades the castle of",
        LoanStep.FACELESS_KNIGHT: "destroys the knight in",
        LoanStep.FACELESS_FOOTMAN: "destroys the footman in",
    }[step]
    return f"{card}: {words} {area(action)}"
