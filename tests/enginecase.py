"""A tiny language for engine cases: a board written in words, decisions answered in words, the
board read back in words. Used by ``test_engine_casebook.py``.

Board lines (``Case.place``), one area per line::

    the_reach     lannister  F  2Kr  march-1     # area, house, units, optional order

Units are ``<n><letter>[r]``: F footman, K knight, S ship, E siege engine; a trailing ``r``
marks routed units (``2Fr`` = two routed footmen). Orders use the engine's names
(``ORDER_NAMES``: march-1, march+0, march+1, defense+1, defense+2, support+0, support+1, raid,
raid*, consolidate_power, consolidate_power*).

Decision lines (``Case.play``), one decision per line::

    lannister MARCH_FROM the_reach
    lannister MARCH_UNIT F blackwater     # optional unit letter: checks which unit is asked
    stark     HOUSE_CARD ser_rodrick_cassel

Each line advances the engine to its next decision, checks that the decision is of that kind and
for that house, that the action is legal, and applies it. Actions are words: area ids, card ids
(the deciding house's deck; Patchface: the loser's), track ids, unit letters or names, house ids,
``none``, ``stay`` (a marching unit that stays), the small vocabularies below, or plain numbers.
Decisions listed in ``Case.auto`` (by default: leave no power token, keep the Valyrian Steel
Blade) are answered automatically unless the next line asks for them; every answer, automatic
or not, is recorded in ``Case.log``.

By default ``advance`` stops at the end of the phase in progress (the record is then at the
start of the next phase, untouched by it), so a test sees the board right after, say, the last
march. ``through=True`` runs ``machine.advance`` across phases instead.

Read back: ``at(area)`` gives ``"house 2F Kr"`` (or ``""``), ``order_at``, ``token_at``,
``hand_of``/``discard_of`` (card id sets), ``track_of``, ``power_of``, ``pending``,
``options()`` (the legal actions in words).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from gotsim.engine import combat as cb
from gotsim.engine import machine as mc
from gotsim.engine import objectives as ob
from gotsim.engine.board_state import controller
from gotsim.engine.counters import clear_phase_counters
from gotsim.engine.init import new_games, new_games_range
from gotsim.engine.invariants import violations
from gotsim.engine.state import (
    ACT_FOOTMAN,
    ACT_KNIGHT,
    ACT_NONE,
    ACT_SIEGE,
    ACT_UPGRADE_KNIGHT,
    ACT_UPGRADE_SIEGE,
    N_ACTIONS,
    OBJ_DECK,
    OBJ_SCORED,
    ONE_TIME_NAMES,
    ORDER_NAMES,
    Decision,
    ObjectiveStep,
    OneTimeOrder,
    Phase,
)
from gotsim.engine.tables import WesterosCard, WildlingCard, board_of, rules_table
from gotsim.rules.board import load_board
from gotsim.rules.cards import card_table, house_deck, vassal_cards
from gotsim.rules.ids import House
from gotsim.rules.objectives import Objective
from gotsim.rules.variants import Rules

BOARD = load_board("2e")
AREAS = BOARD.area_ids
UNIT_LETTERS = "FKSE"  # footman, knight, ship, siege Engine (Unit order)
UNIT_NAMES = ("footman", "knight", "ship", "siege_engine")
ORDER_BY_NAME = {name: kind for kind, name in enumerate(ORDER_NAMES)}
TRACKS = ("iron_throne", "fiefdoms", "kings_court")
DECK = {h: tuple(c.id for c in house_deck("2e", h)) for h in House}
VASSAL_IDS = tuple(c.id for c in vassal_cards())  # HOUSE_CARD actions 0-6 of a vassal


def deck_ids(edition: str, card_set: str = "base") -> dict[House, tuple[str, ...]]:
    """Each house's card ids in deck-slot order (empty for a house without cards)."""
    return {h: tuple(c.id for c in house_deck(edition, h, card_set)) for h in House}


_UNIT_TOKEN = re.compile(r"^(\d*)([FKSE])(r?)$")

# action words of the small two- or three-way decisions
SMALL = {
    Decision.LEAVE_POWER: ("no", "yes"),
    Decision.SUPPORT_SIDE: ("nobody", "attacker", "defender"),
    Decision.TYRION: ("keep", "cancel"),
    Decision.BLADE: ("keep", "plus1", "redraw"),
    Decision.CONSOLIDATE_CHOICE: ("power", "muster"),
    Decision.RAVEN: ("keep", "replace", "look"),
    Decision.RAVEN_BURY: ("top", "bottom"),
}
MUSTER_WORDS = {
    "footman": ACT_FOOTMAN,
    "knight": ACT_KNIGHT,
    "siege": ACT_SIEGE,
    "upgrade_knight": ACT_UPGRADE_KNIGHT,
    "upgrade_siege": ACT_UPGRADE_SIEGE,
}
AREA_KINDS = {
    Decision.RAVEN_AREA,
    Decision.RAID_FROM,
    Decision.RAID_TARGET,
    Decision.MARCH_FROM,
    Decision.MARCH_UNIT,
    Decision.QUEEN_OF_THORNS,
    Decision.RETREAT,
    Decision.RENLY,
    Decision.CERSEI,
    Decision.SUPPLY_CUT,
    Decision.DESTROY_UNIT,
    Decision.CROW_KILLERS,
    Decision.ONE_TIME_AREA,
    Decision.ONE_TIME_MOVE,
}
UNIT_KINDS = {Decision.CASUALTY, Decision.SUPPLY_CUT_UNIT, Decision.DESTROY_UNIT_TYPE}
TRACK_KINDS = {Decision.DORAN, Decision.TRACK_CHOICE}


def house_of(name: str | int) -> int:
    return int(name) if isinstance(name, int) else int(House.from_id(name))


def area(name: str) -> int:
    return BOARD.index(name)


def units_text(units, routed) -> str:
    """``"2F Kr"``: unrouted then routed counts per unit type."""
    parts = []
    for u, letter in enumerate(UNIT_LETTERS):
        fresh, down = int(units[u]) - int(routed[u]), int(routed[u])
        if fresh:
            parts.append(f"{fresh if fresh > 1 else ''}{letter}")
        if down:
            parts.append(f"{down if down > 1 else ''}{letter}r")
    return " ".join(parts)


class Case:
    """One game record on the real board of ``edition`` (2nd edition by default; ``expansion``:
    a 2nd-edition expansion's start), emptied (no units, orders or power tokens; garrisons,
    neutral forces, tracks, power and full hands as in the setup) unless ``empty=False``."""

    def __init__(
        self,
        players: int = 6,
        *,
        tides: bool = False,
        seed: int = 0,
        empty=True,
        edition: str = "2e",
        variants: dict[str, bool] | None = None,
        expansion: str | None = None,
        house_cards: str | None = None,
    ):
        self.edition = edition
        chosen = Rules.of(
            edition, players, {**(variants or {}), "tides_of_battle": tides}, expansion, house_cards
        )
        self.rules = rules_table(chosen)
        self.card_set = chosen.card_set
        self.t = self.rules[0]
        self.board = board_of(self.t)  # (A Feast for Crows' Eyrie port adds an area)
        self.deck = DECK if edition == "2e" else deck_ids(edition)
        if self.card_set != "base":
            self.deck = deck_ids(edition, self.card_set)
        self.games = new_games(
            [np.random.SeedSequence(seed, spawn_key=(0,))],
            edition=edition,
            players=players,
            expansion=expansion,
            vassals=chosen.on("vassals"),
            iron_bank=chosen.on("iron_bank"),
        )
        self.g = self.games[0]
        self.log: list[str] = []
        # answered without a script line unless a line names them (Mother of Dragons' gifts of
        # power tokens open every planning phase: no gift)
        self.auto: dict[Decision, str] = {
            Decision.LEAVE_POWER: "no",
            Decision.BLADE: "keep",
            Decision.GIFT_POWER: "none",
        }
        if empty:
            self.clear()

    def _area(self, name: str) -> int:
        return self.board.index(name)

    # --- building the record ----------------------------------------------------------------

    def clear(self) -> Case:
        g = self.g
        g.owner[:] = -1
        g.units[:] = 0
        g.routed[:] = 0
        g.order[:] = -1
        g.orders_used[:] = 0
        g.power_token[:] = -1
        g.marched[:] = 0
        return self

    def place(self, text: str) -> Case:
        """Units (and an order) per line: ``area house units... [order]``."""
        g = self.g
        for line in text.strip().splitlines():
            line = line.split("#")[0].strip()
            if not line:
                continue
            name, house, *rest = line.split()
            a, h = self._area(name), house_of(house)
            order = None
            for tok in rest:
                if tok in ORDER_BY_NAME:
                    order = ORDER_BY_NAME[tok]
                    continue
                m = _UNIT_TOKEN.match(tok)
                if not m:
                    raise ValueError(f"{line!r}: {tok!r} is neither units nor an order")
                n = int(m.group(1) or 1)
                u = UNIT_LETTERS.index(m.group(2))
                g.units[a, u] += n
                if m.group(3):
                    g.routed[a, u] += n
            g.owner[a] = h if g.units[a].sum() > 0 else -1
            if order is not None:
                assert g.owner[a] == h, f"{line!r}: an order needs units"
                if g.order[a] >= 0:
                    g.orders_used[h, g.order[a]] -= 1
                g.order[a] = order
                g.orders_used[h, order] += 1
        return self

    def token(self, area_name: str, house: str) -> Case:
        self.g.power_token[self._area(area_name)] = house_of(house)
        return self

    def garrison(self, area_name: str, strength: int) -> Case:
        self.g.garrison[self._area(area_name)] = strength
        return self

    def fortify(self, area_name: str, house: str) -> Case:
        """A fortification of ``house`` (1e fortifications variant) in the area."""
        self.g.fortification[self._area(area_name)] = house_of(house) + 1
        return self

    def fortified(self, area_name: str) -> str | None:
        """The house whose fortification stands in the area, None if none."""
        f = int(self.g.fortification[self._area(area_name)])
        return House(f - 1).name.lower() if f else None

    def neutral(self, area_name: str, strength: int) -> Case:
        self.g.neutral[self._area(area_name)] = strength
        return self

    def power(self, **by_house: int) -> Case:
        for house, n in by_house.items():
            self.g.power[house_of(house)] = n
        return self

    def supply(self, **by_house: int) -> Case:
        for house, n in by_house.items():
            self.g.supply[house_of(house)] = n
        return self

    def hand(self, house: str, *cards: str, discard: tuple[str, ...] | None = None) -> Case:
        """Exactly ``cards`` in hand; ``discard`` in the discard pile (default: every other card
        of the deck). A card in neither is out of the game."""
        h = house_of(house)
        deck = self.deck[House(h)]
        rest = [c for c in deck if c not in cards] if discard is None else list(discard)
        self.g.hand[h] = sum(1 << deck.index(c) for c in cards)
        self.g.discard[h] = sum(1 << deck.index(c) for c in rest)
        return self

    def track(self, name: str, houses: str) -> Case:
        order = [house_of(h) for h in houses.split()]
        assert len(order) == self.t.players, order
        self.g.track[TRACKS.index(name), : len(order)] = order
        return self

    def tracks(self, houses: str) -> Case:
        for name in TRACKS:
            self.track(name, houses)
        return self

    def phase(self, name: str, game_round: int | None = None) -> Case:
        g = self.g
        g.phase = Phase[name.upper()]
        clear_phase_counters(g)
        g.turn = 0
        g.passes = 0
        g.pending = Decision.NONE
        g.pending_house = -1
        if game_round is not None:
            g.game_round = game_round
        return self

    def objectives(self, house: str, *cards: str, scored: tuple[str, ...] = ()) -> Case:
        """A Feast for Crows: ``house``'s objective hand is ``cards`` (``Objective`` names, lower
        case) and it has scored ``scored``; its other cards go back to the deck."""
        g, h = self.g, house_of(house)
        for k in range(len(Objective)):
            if g.objective_at[k] in (h, OBJ_SCORED + h):
                g.objective_at[k] = OBJ_DECK
        for name in cards:
            g.objective_at[Objective[name.upper()]] = h
        for name in scored:
            g.objective_at[Objective[name.upper()]] = OBJ_SCORED + h
        return self

    def hand_objectives(self, house: str) -> set[str]:
        """The objective cards in ``house``'s hand."""
        h = house_of(house)
        return {o.id for o in Objective if self.g.objective_at[o] == h}

    def vp(self, **by_house: int) -> Case:
        """A Feast for Crows: set victory points."""
        for name, n in by_house.items():
            self.g.vp[house_of(name)] = n
        return self

    def westeros(self, *cards: str) -> Case:
        """Put Westeros cards (``WesterosCard`` names, lower case) on top of decks I, II, III."""
        for d, card in enumerate(cards):
            self.g.westeros[d, 0] = WesterosCard[card.upper()]
            self.g.westeros_next[d] = 0
        return self

    def wildlings(self, *cards: str) -> Case:
        """Put wildling cards (``WildlingCard`` names, lower case) on top, in this order."""
        top = [int(WildlingCard[c.upper()]) for c in cards]
        rest = [int(c) for c in self.g.wildlings if int(c) not in top]
        self.g.wildlings[:] = [*top, *rest]
        return self

    # --- driving decisions ------------------------------------------------------------------

    def advance(self, through: bool = False) -> Case:
        """Run to the next decision; stop when the phase in progress ends (or the game)."""
        g, t = self.g, self.t
        if through:
            mc.advance(g, t)
            return self
        start = int(g.phase)
        steppers: dict[int, Callable] = {
            Phase.PLANNING: mc._planning,
            Phase.RAVEN: mc._raven,
            Phase.RAIDS: mc._raids,
            Phase.MARCHES: mc._marches,
            Phase.CONSOLIDATE: mc._consolidate,
            Phase.CLEANUP: mc._cleanup,
            Phase.WESTEROS: mc._westeros,
            Phase.OBJECTIVES: ob.objectives_step,
        }
        for _ in range(100_000):
            if g.pending != Decision.NONE or g.done or int(g.phase) != start:
                return self
            steppers[start](g, t)
        raise AssertionError("the engine did not stop")

    @property
    def pending(self) -> str | None:
        g = self.g
        if g.pending == Decision.NONE:
            return None
        return f"{House(int(g.pending_house)).id} {Decision(int(g.pending)).name}"

    def mask(self) -> np.ndarray:
        mask = np.zeros(N_ACTIONS, np.bool_)
        mc.legal(self.g, self.t, mask)
        return mask

    def options(self) -> set[str]:
        """The pending decision's legal actions, in words."""
        return {self.word(int(a)) for a in np.flatnonzero(self.mask())}

    def word(self, action: int) -> str:
        g = self.g
        kind = Decision(int(g.pending))
        house = int(g.pending_house)
        if action == ACT_NONE:
            return "none"
        if kind == Decision.CONSOLIDATE_CHOICE and g.ctx[1] == 1:
            return ("power", "fortify")[action]
        if kind == Decision.OBJECTIVE:
            if g.ctx[0] == ObjectiveStep.SPECIAL:
                return ("pass", "score")[action]
            return Objective(action).id
        if kind in SMALL:
            return SMALL[kind][action]
        if kind in (Decision.PLACE_ORDER, Decision.RAVEN_ORDER):
            return ORDER_NAMES[action]
        if kind in (Decision.MARCH_UNIT, Decision.ONE_TIME_MOVE) and action == g.ctx[0]:
            return "stay"
        if kind == Decision.ONE_TIME_ORDER:
            return ONE_TIME_NAMES[action]
        if kind == Decision.ONE_TIME_TARGET:
            return self._one_time_target_word(action)
        if kind in AREA_KINDS:
            return self.board.area_ids[action]
        if kind == Decision.HOUSE_CARD and g.battle[cb.VASSAL + int(g.ctx[0])]:
            return VASSAL_IDS[action]  # a vassal's dealt vassal card
        if kind == Decision.HOUSE_CARD:
            return self.deck[House(house)][action]
        if kind == Decision.AERON:
            return "keep" if action == 0 else self.deck[House(house)][action - 1]
        if kind == Decision.CARD_ABILITY:
            return self._card_ability_word(action)
        if kind == Decision.PATCHFACE:
            return self.deck[House(int(g.ctx[0]))][action]
        if kind in UNIT_KINDS:
            return UNIT_LETTERS[action]
        if kind in TRACK_KINDS:
            return TRACKS[action]
        if kind in (Decision.TIE_ORDER, Decision.CLAIM_VASSAL, Decision.TARGARYEN_BID):
            return House(action).id
        if kind == Decision.GIFT_POWER and g.ctx[0] == 0:
            return House(action).id  # (then the number of tokens)
        if kind == Decision.MUSTER:
            for name, code in MUSTER_WORDS.items():
                if code == action:
                    return name
            return self.board.area_ids[action]
        return str(action)

    def action(self, word: str) -> int:
        """The action number of ``word`` for the pending decision."""
        g = self.g
        kind = Decision(int(g.pending))
        house = int(g.pending_house)
        if word == "none":
            return ACT_NONE
        if kind == Decision.CONSOLIDATE_CHOICE and word == "fortify":
            return 1
        if kind == Decision.OBJECTIVE:
            if g.ctx[0] == ObjectiveStep.SPECIAL:
                return ("pass", "score").index(word)
            return int(Objective[word.upper()])
        if kind in SMALL and word in SMALL[kind]:
            return SMALL[kind].index(word)
        if kind in (Decision.PLACE_ORDER, Decision.RAVEN_ORDER) and word in ORDER_BY_NAME:
            return ORDER_BY_NAME[word]
        if word == "stay" and kind in (Decision.MARCH_UNIT, Decision.ONE_TIME_MOVE):
            return int(g.ctx[0])
        if kind == Decision.ONE_TIME_ORDER and word in ONE_TIME_NAMES:
            return ONE_TIME_NAMES.index(word)
        if kind == Decision.ONE_TIME_TARGET:
            for a in range(N_ACTIONS):
                if self._one_time_target_word(a) == word:
                    return a
        if kind == Decision.AERON and word == "keep":
            return 0
        if kind == Decision.CARD_ABILITY:
            for a in range(N_ACTIONS):
                if self._card_ability_word(a) == word:
                    return a
        if kind == Decision.HOUSE_CARD and word in VASSAL_IDS:
            return VASSAL_IDS.index(word)
        if kind in (Decision.HOUSE_CARD, Decision.AERON, Decision.PATCHFACE) or (
            kind == Decision.WILDLING_CHOICE and word in self.deck[House(house)]
        ):
            owner = int(g.ctx[0]) if kind == Decision.PATCHFACE else house
            slot = self.deck[House(owner)].index(word)
            return slot + 1 if kind == Decision.AERON else slot
        if kind in UNIT_KINDS:
            return UNIT_NAMES.index(word) if word in UNIT_NAMES else UNIT_LETTERS.index(word)
        if kind in TRACK_KINDS:
            return TRACKS.index(word)
        if kind in (Decision.TIE_ORDER, Decision.CLAIM_VASSAL, Decision.TARGARYEN_BID):
            return house_of(word)
        if kind == Decision.GIFT_POWER and g.ctx[0] == 0:
            return house_of(word)
        if kind == Decision.MUSTER and word in MUSTER_WORDS:
            return MUSTER_WORDS[word]
        if word in self.board.area_index:
            return self._area(word)
        return int(word)

    def _card_ability_word(self, action: int) -> str:
        """CARD_ABILITY actions (A Dance with Dragons cards): Ser Ilyn Payne areas (and a
        vassal's Jon Connington's), a vassal's Beric Dondarrion unit letters, Qyburn card
        ids, Melisandre the card ids of her deck, Ser Gerris track ids, Rodrik the Reader's
        second stage Westeros card names; numbers otherwise (Aeron's power, Jon Snow, Reek,
        Rodrik's deck)."""
        g = self.g
        ability = cb.Ability(int(g.ctx[1]))
        house = House(int(g.pending_house))
        if action == ACT_NONE:
            return "none"
        wants_area = ability in (cb.Ability.ILYN_PAYNE, cb.Ability.JON_CONNINGTON)
        if wants_area and action < self.board.n_areas:
            return self.board.area_ids[action]
        if ability == cb.Ability.BERIC_DONDARRION and action < len(UNIT_LETTERS):
            return UNIT_LETTERS[action]
        if ability == cb.Ability.QYBURN and action < len(self.card_ids):
            return self.card_ids[action]
        if ability == cb.Ability.MELISANDRE_DWD and action < 7:
            return self.deck[house][action]
        if ability == cb.Ability.GERRIS_DRINKWATER and action < 3:
            return TRACKS[action]
        if ability == cb.Ability.RODRIK_THE_READER and g.ctx[2] == 1 and action < 15:
            return WesterosCard(action).name.lower()
        # Mother of Dragons: Viserys and Missandei name cards of their own deck, Robert Arryn
        # one of the opponent's ("alone" when it has no discards), Lysa Arryn "keep"
        if ability in (cb.Ability.VISERYS_TARGARYEN, cb.Ability.MISSANDEI) and action < 7:
            return self.deck[house][action]
        if ability == cb.Ability.ROBERT_ARRYN:
            opponent = House(int(g.battle[(1 - int(g.ctx[0])) * cb.SIDE + cb.HOUSE]))
            return "alone" if action == 7 else self.deck[opponent][action]
        if ability == cb.Ability.LYSA_ARRYN_MOD and action == 1:
            return "keep"
        return str(action)

    @property
    def card_ids(self) -> tuple[str, ...]:
        """The card ids by card number (the rules table's card set)."""
        return card_table(self.edition, self.card_set).ids

    def _one_time_target_word(self, action: int) -> str:
        """ONE_TIME_TARGET actions: areas (Iron Fleet, Soul of R'hllor), houses (Lion's
        Cunning, Power of Highgarden's demands) or card ids (Power of Highgarden's discard)."""
        g = self.g
        kind = OneTimeOrder(int(g.ctx[0]))
        if kind in (OneTimeOrder.IRON_FLEET, OneTimeOrder.SOUL_OF_RHLLOR):
            return self.board.area_ids[action] if action < self.board.n_areas else str(action)
        if kind == OneTimeOrder.POWER_OF_HIGHGARDEN and int(g.ctx[2]) == 0:
            deck = self.deck[House(int(g.pending_house))]
            return deck[action] if action < len(deck) else str(action)
        return House(action).id if action < len(House) else str(action)

    def one_time(self, area_name: str, house: str, kind: str) -> Case:
        """A one-time order (1e one_time_orders variant) of ``house`` on the area, marked used."""
        k = ONE_TIME_NAMES.index(kind)
        self.g.one_time[self._area(area_name)] = k
        self.g.one_time_used[house_of(house)] |= 1 << k
        return self

    def one_time_at(self, area_name: str) -> str | None:
        k = int(self.g.one_time[self._area(area_name)])
        return None if k < 0 else ONE_TIME_NAMES[k]

    def _parse(self, line: str) -> tuple[str, Decision, list[str]]:
        house, kind, *rest = line.split()
        return house, Decision[kind], rest

    def _answer_auto(self, want: tuple[str, Decision] | None) -> bool:
        g = self.g
        if g.pending == Decision.NONE:
            return False
        kind = Decision(int(g.pending))
        here = (House(int(g.pending_house)).id, kind)
        if kind not in self.auto or here == want:
            return False
        self._apply(self.auto[kind], auto=True)
        return True

    def _apply(self, word: str, auto: bool = False) -> None:
        g = self.g
        action = self.action(word)
        mask = self.mask()
        assert 0 <= action < N_ACTIONS and mask[action], (
            f"{self.pending}: {word!r} is not legal; legal: {sorted(self.options())}"
        )
        self.log.append(f"{self.pending} {word}" + (" (auto)" if auto else ""))
        assert mc.apply(g, self.t, action)

    def step(self, line: str) -> Case:
        """Advance to the next decision and answer it as ``line`` says."""
        house, kind, rest = self._parse(line)
        want = (house, kind)
        self.advance()
        while self._answer_auto(want):
            self.advance()
        assert self.pending == f"{house} {kind.name}", (
            f"expected {house} {kind.name}, engine asks {self.pending}; log: {self.log}"
        )
        if kind in (Decision.MARCH_UNIT, Decision.ONE_TIME_MOVE) and len(rest) == 2:
            letter, word = rest
            assert UNIT_LETTERS[int(self.g.ctx[1])] == letter, (line, int(self.g.ctx[1]))
        else:
            (word,) = rest
        self._apply(word)
        return self

    def play(self, text: str = "") -> Case:
        """Answer each line's decision in turn, then advance (answering ``auto`` decisions) to
        the next unscripted decision or the end of the phase; outside a battle the record must
        then keep every invariant."""
        for line in text.strip().splitlines():
            line = line.split("#")[0].strip()
            if line:
                self.step(line)
        self.settle()
        return self

    def settle(self) -> Case:
        self.advance()
        while self._answer_auto(None):
            self.advance()
        if self.g.combat_area < 0:
            assert violations(self.g, self.t) == [], violations(self.g, self.t)
        return self

    def expect(self, line: str) -> Case:
        """Advance and check the next decision is ``house KIND`` (nothing applied)."""
        house, kind = line.split()
        self.advance()
        while self._answer_auto((house, Decision[kind])):
            self.advance()
        assert self.pending == line, f"expected {line}, engine asks {self.pending}"
        return self

    def refuse(self, line: str) -> Case:
        """The decision ``house KIND`` is pending and ``action`` is not legal: ``apply`` refuses
        it and changes nothing."""
        house, kind, (word,) = self._parse(line)
        self.expect(f"{house} {kind.name}")
        action = self.action(word)
        before = self.g.tobytes()
        assert not mc.apply(self.g, self.t, action), f"{line} was accepted"
        assert self.g.tobytes() == before
        return self

    # --- reading the record -----------------------------------------------------------------

    def at(self, area_name: str) -> str:
        a = self._area(area_name)
        g = self.g
        if g.owner[a] < 0:
            assert g.units[a].sum() == 0
            return ""
        return f"{House(int(g.owner[a])).id} {units_text(g.units[a], g.routed[a])}"

    def order_at(self, area_name: str) -> str | None:
        kind = int(self.g.order[self._area(area_name)])
        return None if kind < 0 else ORDER_NAMES[kind]

    def token_at(self, area_name: str) -> str | None:
        h = int(self.g.power_token[self._area(area_name)])
        return None if h < 0 else House(h).id

    def controller(self, area_name: str) -> str | None:
        h = int(controller(self.g, self.t, self._area(area_name)))
        return None if h < 0 else House(h).id

    def hand_of(self, house: str) -> set[str]:
        h = house_of(house)
        return {c for i, c in enumerate(self.deck[House(h)]) if (int(self.g.hand[h]) >> i) & 1}

    def discard_of(self, house: str) -> set[str]:
        h = house_of(house)
        return {c for i, c in enumerate(self.deck[House(h)]) if (int(self.g.discard[h]) >> i) & 1}

    def power_of(self, house: str) -> int:
        return int(self.g.power[house_of(house)])

    def orders_used(self, house: str, order: str) -> int:
        return int(self.g.orders_used[house_of(house), ORDER_BY_NAME[order]])

    def track_of(self, name: str) -> list[str]:
        row = self.g.track[TRACKS.index(name), : self.t.players]
        return [House(int(h)).id for h in row]

    def count(self, house: str, letter: str) -> int:
        """Units of one type the house has on the board."""
        h, u = house_of(house), UNIT_LETTERS.index(letter)
        return int(self.g.units[: self.t.n_areas, u][self.g.owner[: self.t.n_areas] == h].sum())

    def totals(self) -> tuple[int, int]:
        """Attacker and defender strength of the battle vector as it stands (valid once cards
        are chosen and before casualties are taken)."""
        parts = np.zeros((2, cb.N_PARTS), np.int64)
        b = self.g.battle
        t = self.t
        cards = (t.card_strength, t.card_swords, t.card_forts, t.card_ability, t.card_ref)
        tides = (t.tides_count, t.tides_strength, t.tides_swords, t.tides_forts, t.tides_skulls)
        cb.strength_breakdown(b, cards, tides, parts)
        return int(parts[0, cb.P_TOTAL]), int(parts[1, cb.P_TOTAL])

    def asked(self, kind: str) -> list[str]:
        """The log lines of decisions of ``kind`` answered so far."""
        return [line for line in self.log if line.split()[1] == kind]


def against_sunspear(
    yronwood: str = "F K march+1", salt_shore: str = "greyjoy F support+0"
) -> Case:
    """5 players, the marches: Tyrell's ``yronwood`` units and order next to Sunspear's
    neutral force (5) and ``salt_shore``'s house, units and order, the neutral forces of
    Yronwood and Salt Shore taken off (the casebook's attacks on a neutral force, C11)."""
    c = Case(5).phase("marches").neutral("yronwood", 0).neutral("salt_shore", 0)
    return c.place(f"yronwood tyrell {yronwood}\nsalt_shore {salt_shore}")


def seated_for_greyjoy(
    house: int, n: int, seed: int, card_set: str = "base"
) -> tuple[np.recarray, np.recarray]:
    """``n`` 6-player starts where ``house`` takes over all of Greyjoy's (units, tokens, orders,
    places on the tracks, power, supply, a full hand of its ``card_set`` deck, Greyjoy's home
    areas and pieces in the rules record). The rules come back read-only, as ``rules_table``
    gives them: a writable table is a type of its own to numba, for which the batch loops would
    be compiled again (minutes)."""
    rules = rules_table(Rules("2e", 6, house_cards=card_set)).copy()
    t = rules[0]
    t.unit_limits[house] = t.unit_limits[House.GREYJOY]
    t.power_total[house] = t.power_total[House.GREYJOY]
    t.home[t.home == House.GREYJOY] = house
    rules.flags.writeable = False
    games = new_games_range(seed, 0, n, players=6)
    for g in games:
        for name in ("owner", "power_token", "track"):
            g[name][g[name] == House.GREYJOY] = house
        for name in ("in_play", "power", "supply", "hand", "discard", "orders_used"):
            g[name][house] = g[name][House.GREYJOY]
            g[name][House.GREYJOY] = 0
    return games, rules
