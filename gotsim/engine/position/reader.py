"""Reading a position (``gotsim.position/v1`` JSON, a file or a mapping): every field
checked, every problem one ``PositionError`` line naming the field; and the starting position
of an edition and player count."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from gotsim.data import load_data
from gotsim.engine.position.model import (
    AREA_KEYS,
    FORMAT,
    IMPROVEMENTS,
    IRON_BANK_KEYS,
    REQUIRED_KEYS,
    RESOLVED_BEFORE,
    RESTRICTION_EDITION,
    RESTRICTIONS,
    TOP_KEYS,
    VARIANTS,
    ActionStep,
    Position,
    PositionError,
    RoundPhase,
    UnitCounts,
    check_keys,
    deck_iv_cards,
    fail,
    forbidden_by,
    hint,
    order_tokens,
    read_bool,
    read_house,
    read_int,
    read_object,
)
from gotsim.engine.position.queries import control
from gotsim.rules.board import load_board
from gotsim.rules.cards import game_cards, house_deck
from gotsim.rules.ids import EDITIONS, AreaKind, House, Unit
from gotsim.rules.iron_bank import LOAN_CARDS, N_SLOTS, STARTING_POWER_TOKENS
from gotsim.rules.objectives import Objective
from gotsim.rules.one_time import ONE_TIME_ICON, ONE_TIME_KINDS, ONE_TIME_OWNER, kinds_of
from gotsim.rules.setup import TRACKS, Setup, SetupDataError, load_setup
from gotsim.rules.units import unit_facts
from gotsim.rules.variants import (
    CLASH_OF_KINGS_VARIANTS,
    EXPANSION_PLAYER_COUNTS,
    Rules,
    expansion_board,
    expansion_name,
    iron_bank_default,
    played_card_set,
)

CardsByHouse = dict[House, tuple[str, ...]]
MAX_LOYALTY = 20  # loyalty tokens on the board at most (``components.loyalty_tokens``)
MAX_DRAGON_BOOST = 5  # dragon strength tokens (the round track holds five)
MAX_FORTIFICATIONS = 9  # A Clash of Kings' fortification tokens, for all houses (K1)
FACE_UP = 3  # the look-ahead module's face-up cards per Westeros deck (K9)
THREE_CARDS = 3  # three-card combat: a hand never holds fewer (T2)


def siege_engine_limit(edition: str, house: House, modules: Collection[str]) -> int | None:
    """A 1st-edition house's siege engines with the A Clash of Kings ``siege_engines`` module
    (K5: the data's ``unit_limits_with_clash_of_kings``); None where the setup's limit holds."""
    if edition != "1e" or "siege_engines" not in modules:
        return None
    limits = load_data("1e", "setup.json")["houses"][house.id]["unit_limits_with_clash_of_kings"]
    return int(limits["siege_engine"])


def needs_module(where: str, what: str, module: str) -> Exception:
    """The one line refusing a 1st-edition position's ``what`` without its A Clash of Kings
    ``module``."""
    return fail(where, f"{what} come with the A Clash of Kings module (variants.{module})")


def _ids_within(
    listed: list[Any],
    where: str,
    allowed: Mapping[str, int],
    what: str,
    too_many: Callable[[str, int], str],
) -> None:
    """Each item of ``listed`` one of ``allowed``'s ids, listed at most its count of times; else
    one line (``what`` the ids are; ``too_many(id, count)`` the line for one copy too many)."""
    for i, item in enumerate(listed):
        if not isinstance(item, str) or item not in allowed:
            raise fail(f"{where}[{i}]", f"{item!r} is not {what}{hint(item, list(allowed))}")
        if listed[: i + 1].count(item) > allowed[item]:
            raise fail(f"{where}[{i}]", too_many(item, allowed[item]))


def westeros_decks(edition: str) -> tuple[dict[str, int], ...]:
    """Each Westeros deck's card ids with their counts (I, II, III)."""
    decks = load_data(edition, "westeros_cards.json")["decks"]
    return tuple({c["id"]: int(c["count"]) for c in deck["cards"]} for deck in decks)


def _read_spec(source: Mapping[str, Any] | str | Path) -> Mapping[str, Any]:
    if isinstance(source, Path) or (
        isinstance(source, str) and not source.lstrip().startswith("{")
    ):
        try:
            text = Path(source).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise PositionError(f"{source}: no such position file") from None
        except OSError as exc:
            raise PositionError(f"{source}: cannot read ({exc.strerror})") from None
        where = str(source)
    elif isinstance(source, str):
        text, where = source, "position"
    else:
        return read_object(source, "position")
    try:
        return read_object(json.loads(text), "position")
    except json.JSONDecodeError as exc:
        raise PositionError(f"{where}: not valid JSON ({exc.msg} at line {exc.lineno})") from None


class _Reader:
    """Validates one position dict field by field; ``position()`` returns the result."""

    def __init__(self, spec: Mapping[str, Any]) -> None:
        check_keys(spec, TOP_KEYS, "")
        for key in REQUIRED_KEYS:
            if key not in spec:
                raise fail(key, "required")
        self.spec = spec
        fmt = spec.get("format", FORMAT)
        if fmt != FORMAT:
            raise fail("format", f"must be {FORMAT!r}, got {fmt!r}")
        edition = spec.get("edition", "2e")
        if edition not in EDITIONS:
            raise fail(
                "edition",
                f"unknown edition {edition!r} (known: {', '.join(EDITIONS)})"
                f"{hint(edition, EDITIONS)}",
            )
        self.edition: str = edition
        self.board = load_board(edition)
        players = spec["players"]
        counts = self.board.player_counts()
        raw_variants = read_object(spec.get("variants", {}), "variants")
        self.vassal_game = read_bool(raw_variants.get("vassals", False), "variants.vassals")
        self.eight_houses = read_bool(
            raw_variants.get("eight_houses", False), "variants.eight_houses"
        )
        # an expansion has its own player counts (Mother of Dragons' 7), and so has a game with
        # vassals: read_expansion refuses any other count in the expansion's or vassals' words
        own = spec.get("expansion") in EXPANSION_PLAYER_COUNTS or self.vassal_game
        if (
            isinstance(players, bool)
            or not isinstance(players, int)
            or not (own or players in counts)
        ):
            known = ", ".join(str(n) for n in counts)
            raise fail("players", f"{edition} has setups for {known} players, got {players!r}")
        self.players: int = players
        self.expansion = self.read_expansion()
        vassals, eight = self.vassal_game, self.eight_houses
        board = expansion_board(self.expansion, players, False, vassals, eight)
        self.board = load_board(edition, board=board)
        try:
            self.setup = load_setup(
                edition, players, expansion=self.expansion, vassals=vassals, eight_houses=eight
            )
        except SetupDataError as exc:  # pragma: no cover - packaged data is validated
            raise fail("players", str(exc)) from None
        self.vassals = self.setup.vassals
        self.houses = self.setup.houses
        variants = self.variants()
        self.modules = frozenset(n for n in CLASH_OF_KINGS_VARIANTS if variants[n])
        self.card_set = played_card_set(self.expansion, variants["adwd_house_cards"])
        self.sea_orders: bool = variants["sea_orders"]  # Mother of Dragons' sea order tokens
        self.bank: bool = variants["iron_bank"]  # Mother of Dragons' Iron Bank
        if variants["eyrie_port"]:  # A Feast for Crows: the board with The Eyrie's port
            self.board = load_board(edition, board=expansion_board(self.expansion, players, True))
        self.deck_order = {c.id: i for i, c in enumerate(game_cards(edition, self.card_set))}

    def read_expansion(self) -> str | None:
        """The position's expansion (``rules.variants.EXPANSIONS``; none: the base game)."""
        raw = self.spec.get("expansion")
        try:
            expansion = expansion_name(raw)
        except ValueError as exc:
            raise fail("expansion", str(exc).removeprefix("expansion: ")) from None
        if self.eight_houses and not self.vassal_game:
            raise fail("variants.eight_houses", "a vassals option (variants.vassals)")
        if self.vassal_game:  # (the vassal game's own player counts and boards, V1, V21)
            flags = {"vassals": True, "eight_houses": self.eight_houses}
            try:
                Rules.of(self.edition, self.players, flags, expansion)
            except ValueError as exc:
                raise fail("variants.vassals", str(exc).removeprefix("vassals: ")) from None
            return expansion
        try:
            Rules.of(self.edition, self.players, None, expansion)
        except ValueError as exc:
            raise fail("expansion", str(exc).removeprefix("expansion: ")) from None
        return expansion

    # -- small field readers

    def house(self, value: Any, where: str) -> House:
        return read_house(value, where, self.houses, self.players)

    def per_house(self, key: str, *, required: bool = True) -> dict[House, Any]:
        raw = read_object(self.spec.get(key, {}), key)
        out: dict[House, Any] = {}
        for name, value in raw.items():
            out[self.house(name, f"{key}.{name}")] = value
        if required:
            for house in self.houses:
                if house not in out:
                    raise fail(f"{key}.{house.id}", "required (a house in play)")
        return out

    def unit_counts(self, value: Any, where: str, area: int) -> dict[Unit, int]:
        out: dict[Unit, int] = {}
        kind = self.board.kind[area]
        for key, n in read_object(value, where).items():
            try:
                unit = Unit.from_id(key)
            except ValueError:
                ids = [u.id for u in Unit]
                raise fail(f"{where}.{key}", f"unknown unit type{hint(key, ids)}") from None
            n = read_int(n, f"{where}.{key}", 0, 99)
            if n == 0:
                continue
            if unit == Unit.SHIP and kind == AreaKind.LAND:
                raise fail(f"{where}.{key}", "ships cannot stand on land")
            if unit != Unit.SHIP and kind == AreaKind.SEA:
                raise fail(f"{where}.{key}", "land units cannot stand at sea")
            if unit != Unit.SHIP and kind == AreaKind.PORT:
                raise fail(f"{where}.{key}", "land units cannot stand in a port")
            out[unit] = n
        return {u: out[u] for u in sorted(out)}

    # -- the whole position

    def position(self) -> Position:
        spec = self.spec
        variants = self.variants()
        round_ = read_int(spec["round"], "round", 1, self.setup.max_rounds)
        phase, step = self.phase()
        if round_ == 1 and phase == RoundPhase.WESTEROS:
            raise fail("phase", "round 1 has no westeros phase")
        restriction = spec.get("restriction")
        if restriction is not None and restriction not in RESTRICTIONS:
            raise fail(
                "restriction",
                f"unknown restriction {restriction!r} (known: null, {', '.join(RESTRICTIONS)})"
                f"{hint(restriction, RESTRICTIONS)}",
            )
        only = RESTRICTION_EDITION.get(restriction or "")
        if only is not None and only != self.edition:
            raise fail(
                "restriction",
                f"{restriction!r} is a {only} restriction; this is a {self.edition} position",
            )
        blade_used = read_bool(spec.get("blade_used", False), "blade_used")
        if blade_used and phase != RoundPhase.ACTION:
            raise fail("blade_used", "the blade is used in combat, in the action phase only")
        raven_used = read_bool(spec.get("raven_used", False), "raven_used")
        if raven_used and phase == RoundPhase.WESTEROS:
            raise fail("raven_used", "the raven is used after orders are revealed")
        top, icon = self.setup.threat_max, self.setup.threat_step
        threat = read_int(spec["wildling_threat"], "wildling_threat", 0, top)
        if threat % icon:
            raise fail(
                "wildling_threat", f"must be a multiple of {icon} from 0 to {top}, got {threat}"
            )
        tracks = self.tracks()
        power = self.power()
        supply = {
            h: read_int(v, f"supply.{h.id}", 0, len(self.setup.supply_table) - 1)
            for h, v in self.per_house("supply").items()
        }
        hands, discards, out_of_game = self.cards()
        points, objectives, scored = self.objectives(round_, phase)
        impassable = self.impassable()
        areas = self.areas(phase, set(impassable))
        taken, boost, deck_iv = self.loyalty(round_, phase, areas["loyalty"])
        loan_slots, loans = self.iron_bank(round_)
        commanders = self.commanders(phase, bool(areas["orders"]))
        used, lions = self.one_time(
            phase, step, areas["one_time_orders"], areas["occupants"], restriction
        )
        face_up = self.face_up()
        position = Position(
            edition=self.edition,
            players=self.players,
            houses=self.houses,
            variants=MappingProxyType(variants),
            round=round_,
            phase=phase,
            step=step,
            occupants=MappingProxyType(areas["occupants"]),
            units=_frozen_counts(areas["units"]),
            routed=_frozen_counts(areas["routed"]),
            orders=MappingProxyType(areas["orders"]),
            power_tokens=MappingProxyType(areas["power_tokens"]),
            garrisons=MappingProxyType(areas["garrisons"]),
            neutral_forces=MappingProxyType(areas["neutral_forces"]),
            neutral_armies=_frozen_counts(areas["neutral_armies"]),
            impassable=impassable,
            tracks=MappingProxyType(tracks),
            blade_used=blade_used,
            raven_used=raven_used,
            power=MappingProxyType(_in_order(power, self.houses)),
            supply=MappingProxyType(_in_order(supply, self.houses)),
            hands=MappingProxyType(hands),
            discards=MappingProxyType(discards),
            out_of_game=MappingProxyType(out_of_game),
            wildling_threat=threat,
            restriction=restriction,
            name=self.text("name"),
            description=self.text("description"),
            expansion=self.expansion,
            victory_points=MappingProxyType(points),
            objectives=None if objectives is None else MappingProxyType(objectives),
            objectives_scored=MappingProxyType(scored),
            loyalty=MappingProxyType(areas["loyalty"]),
            loyalty_taken=taken,
            dragon_boost=boost,
            deck_iv=deck_iv,
            **{key: MappingProxyType(areas[key]) for key in IMPROVEMENTS},
            loan_slots=loan_slots,
            loans=MappingProxyType(loans),
            fortifications=tuple(areas["fortifications"]),
            one_time_orders=MappingProxyType(areas["one_time_orders"]),
            one_time_used=MappingProxyType(used),
            lions_cunning=lions,
            westeros_face_up=face_up,
            commanders=MappingProxyType(commanders),
        )
        _check_board(position, self.setup)
        return position

    def power(self) -> dict[House, int]:
        """Power tokens in hand: every player house's; a vassal holds none (V10), so its may
        be left out (or be 0)."""
        raw = self.per_house("power", required=False)
        out: dict[House, int] = {}
        for house in self.houses:
            where = f"power.{house.id}"
            if house in self.vassals:
                if read_int(raw.get(house, 0), where, 0, 20):
                    raise fail(where, "a vassal holds no power (V10)")
                out[house] = 0
                continue
            if house not in raw:
                raise fail(where, "required (a house in play)")
            out[house] = read_int(raw[house], where, 0, self.setup.power_total[house])
        return out

    def commanders(self, phase: RoundPhase, ordered: bool) -> dict[House, House]:
        """Vassals (V2): ``commanders``, each vassal's commander, a player house. They are
        claimed at the start of each planning phase, so a planning position names them once an
        order stands (the claims made) and not before; any other position names every vassal's
        (in the Westeros phase, last round's)."""
        raw = self.spec.get("commanders")
        if not self.vassals:
            if raw is not None:
                raise fail("commanders", "only a game with vassals (variants.vassals) has them")
            return {}
        listed = self.per_house("commanders", required=False)
        out: dict[House, House] = {}
        for vassal, value in listed.items():
            where = f"commanders.{vassal.id}"
            if vassal not in self.vassals:
                raise fail(where, f"{vassal.id} is a player house, not a vassal")
            commander = self.house(value, where)
            if commander in self.vassals:
                raise fail(where, f"a vassal is commanded by a player house, not {commander.id}")
            out[vassal] = commander
        claimed = phase != RoundPhase.PLANNING or ordered
        if not claimed and out:
            raise fail(
                "commanders",
                "the vassals are claimed at the start of the planning phase: none is named in "
                "a planning position before any order stands",
            )
        if claimed:
            missing = [v.id for v in self.vassals if v not in out]
            if missing:
                raise fail(
                    "commanders", f"every vassal's commander is named; missing {', '.join(missing)}"
                )
        return {v: out[v] for v in self.vassals if v in out}

    def objectives(
        self, round_: int, phase: RoundPhase
    ) -> tuple[dict[House, int], dict[House, tuple[str, ...]] | None, dict[House, tuple[str, ...]]]:
        """A Feast for Crows: ``victory_points`` (0 when left out), ``objectives`` (the hands, at
        most 3 cards each; left out only at the start, round 1 planning with no order placed,
        when the cards are still to be dealt) and ``objectives_scored``; no card twice."""
        keys = ("victory_points", "objectives", "objectives_scored")
        if self.expansion != "affc":
            for key in keys:
                if key in self.spec:
                    raise fail(key, "only an A Feast for Crows position (expansion affc) has it")
            return {}, None, {}
        points = {
            h: read_int(
                self.per_house("victory_points", required=False).get(h, 0),
                f"victory_points.{h.id}",
                0,
                99,
            )
            for h in self.houses
        }
        ids = [o.id for o in Objective]
        seen: dict[str, str] = {}

        def cards(key: str, most: int) -> dict[House, tuple[str, ...]]:
            raw = self.per_house(key, required=False)
            out: dict[House, tuple[str, ...]] = {}
            for house in self.houses:
                listed = raw.get(house, [])
                where = f"{key}.{house.id}"
                if not isinstance(listed, list):
                    raise fail(where, "must be a list of objective card ids")
                if len(listed) > most:
                    raise fail(where, f"at most {most} objective cards, got {len(listed)}")
                for i, card in enumerate(listed):
                    if card not in ids:
                        raise fail(f"{where}[{i}]", f"unknown objective {card!r}{hint(card, ids)}")
                    if card in seen:
                        raise fail(f"{where}[{i}]", f"{card} is already in {seen[card]}")
                    seen[card] = where
                out[house] = tuple(listed)
            return out

        hands = None
        if "objectives" in self.spec:
            hands = cards("objectives", 3)
        elif (
            round_ != 1
            or phase != RoundPhase.PLANNING
            or (
                self.spec["areas"]
                and any(isinstance(r, dict) and "order" in r for r in self.spec["areas"].values())
            )
        ):
            raise fail(
                "objectives",
                "required in an A Feast for Crows position after the start (the objective "
                "cards in each hand)",
            )
        scored = cards("objectives_scored", len(ids))
        return points, hands, scored

    def loyalty(
        self, round_: int, phase: RoundPhase, on_board: Mapping[str, int]
    ) -> tuple[int, int, tuple[str, ...]]:
        """Mother of Dragons at 8 players: ``loyalty_taken``, ``dragon_boost`` and
        ``westeros_deck_iv`` (the cards drawn so far, one each Westeros phase from round 2), with
        ``loyalty_placed`` (not kept: it is the tokens on the board and taken) checked if given."""
        keys = ("loyalty_taken", "loyalty_placed", "dragon_boost", "westeros_deck_iv")
        if not self.setup.loyalty_to_win:
            for key in keys:
                if key in self.spec:
                    raise fail(key, "only Mother of Dragons' 8-player game has it (Targaryen)")
            return 0, 0, ()
        total = sum(on_board.values())
        if total > MAX_LOYALTY:
            raise fail("areas", f"{total} loyalty tokens on the board, at most {MAX_LOYALTY}")
        taken = read_int(self.spec.get("loyalty_taken", 0), "loyalty_taken", 0, 99)
        if "loyalty_placed" in self.spec:
            placed = read_int(self.spec["loyalty_placed"], "loyalty_placed", 0, 999)
            if placed != total + taken:
                raise fail(
                    "loyalty_placed",
                    f"{placed}, but {total} on the board and {taken} taken make {total + taken}",
                )
        boost = read_int(self.spec.get("dragon_boost", 0), "dragon_boost", 0, MAX_DRAGON_BOOST)
        raw = self.spec.get("westeros_deck_iv", [])
        where = "westeros_deck_iv"
        if not isinstance(raw, list):
            raise fail(where, "must be the list of deck IV card ids drawn so far, in order")
        ids = deck_iv_cards()
        for i, card in enumerate(raw):
            if not isinstance(card, str) or card not in ids:
                raise fail(f"{where}[{i}]", f"unknown deck IV card {card!r}{hint(card, ids)}")
            if card in raw[:i]:
                raise fail(f"{where}[{i}]", f"{card} is drawn once (deck IV cards never return)")
        drawn = max(0, round_ - (2 if phase == RoundPhase.WESTEROS else 1))
        drawn = min(drawn, len(ids))
        if len(raw) != drawn:
            moment = f"round {round_}, {phase.id} phase"
            raise fail(
                where,
                f"{moment}: {drawn} deck IV cards are drawn by now (one each Westeros phase "
                f"from round 2), got {len(raw)}",
            )
        return taken, boost, tuple(raw)

    def iron_bank(
        self, round_: int
    ) -> tuple[tuple[str | None, ...] | None, dict[House, tuple[str, ...]]]:
        """The Iron Bank (``docs/rules.md`` IB10): ``iron_bank.slots``, the three slots' loan
        cards (null: empty), and ``iron_bank.loans``, each house's loans held; each card once.
        The slots may be left out only in round 1 while no loan is held (they are then as set
        up, the first slot's card dealt from the loan deck when the game resumes). One card
        enters the first slot each round and slides one slot along a round later, so by round
        ``r`` a card stands in slot ``k`` (from 0) only if ``k < r`` and at most ``r`` cards are
        out of the deck."""
        raw = self.spec.get("iron_bank")
        if not self.bank:
            if raw is not None:
                raise fail(
                    "iron_bank", "only a game with the Iron Bank (variants.iron_bank) has it"
                )
            return None, {}
        bank = read_object({} if raw is None else raw, "iron_bank")
        check_keys(bank, IRON_BANK_KEYS, "iron_bank.")
        seen: dict[str, str] = {}

        def card(value: Any, where: str) -> str:
            if not isinstance(value, str) or value not in LOAN_CARDS:
                raise fail(where, f"unknown loan card {value!r}{hint(value, LOAN_CARDS)}")
            if value in seen:
                raise fail(where, f"{value} is listed twice (also {seen[value]})")
            seen[value] = where
            return value

        slots: tuple[str | None, ...] | None = None
        if "slots" in bank:
            listed = bank["slots"]
            where = "iron_bank.slots"
            if not isinstance(listed, list):
                raise fail(
                    where, "must be the list of the 3 slots' loan cards, null for an empty one"
                )
            if len(listed) != N_SLOTS:
                raise fail(where, f"the Iron Bank has {N_SLOTS} loan slots, got {len(listed)}")
            for k, value in enumerate(listed):
                if value is None:
                    continue
                card(value, f"{where}[{k}]")
                if k >= round_:
                    raise fail(
                        f"{where}[{k}]",
                        f"a loan card reaches slot {k + 1} in round {k + 1} at the earliest "
                        f"(one slide a round), not in round {round_}",
                    )
            slots = tuple(listed)
        held = read_object(bank.get("loans", {}), "iron_bank.loans")
        loans: dict[House, tuple[str, ...]] = {}
        for name, listed in held.items():
            where = f"iron_bank.loans.{name}"
            house = self.house(name, where)
            if not isinstance(listed, list):
                raise fail(where, "must be a list of loan card ids")
            cards = {card(value, f"{where}[{i}]") for i, value in enumerate(listed)}
            if cards:
                loans[house] = tuple(c for c in LOAN_CARDS if c in cards)
        if slots is None and (round_ > 1 or loans):
            raise fail(
                "iron_bank.slots",
                "required after round 1 or once a loan is held (the 3 slots' loan cards, null "
                "for an empty one)",
            )
        if len(seen) > round_:
            raise fail(
                "iron_bank",
                f"{len(seen)} loan cards in the slots and held by round {round_}; one leaves the "
                "loan deck each round at most",
            )
        return slots, {h: loans[h] for h in self.houses if h in loans}

    def text(self, key: str) -> str:
        value = self.spec.get(key, "")
        if not isinstance(value, str):
            raise fail(key, f"must be a string, got {type(value).__name__}")
        return value

    def variants(self) -> dict[str, bool]:
        raw = read_object(self.spec.get("variants", {}), "variants")
        check_keys(raw, VARIANTS, "variants.")
        # an expansion's own options are on unless switched off (A Dance with Dragons' house
        # cards, Mother of Dragons' sea orders and gifts of power tokens); the Iron Bank as the
        # rules default it (IB1: on in Mother of Dragons at 8 players)
        own = {"adwd": ("adwd_house_cards",), "mod": ("sea_orders", "gift_power")}
        defaults = {key: key in own.get(self.expansion or "", ()) for key in VARIANTS}
        defaults["iron_bank"] = iron_bank_default(self.expansion, self.players, self.eight_houses)
        out = {key: read_bool(raw.get(key, defaults[key]), f"variants.{key}") for key in VARIANTS}
        if out["kings_court_swap"] and self.expansion is not None:
            raise fail(
                "variants.kings_court_swap",
                f"changes the base game's setup; expansion {self.expansion!r} has its own tracks",
            )
        if out["kings_court_swap"] and not {House.TYRELL, House.GREYJOY} <= set(self.houses):
            raise fail("variants.kings_court_swap", "needs both Tyrell and Greyjoy in play to swap")
        if out["adwd_house_cards"] and self.edition != "2e":
            raise fail("variants.adwd_house_cards", "the A Dance with Dragons cards are 2e cards")
        if out["eyrie_port"] and self.expansion != "affc":
            raise fail("variants.eyrie_port", "an A Feast for Crows option (expansion affc)")
        if out["sea_orders"] and self.expansion != "mod":
            raise fail("variants.sea_orders", "a Mother of Dragons option (expansion mod)")
        if out["gift_power"] and self.expansion != "mod":
            raise fail("variants.gift_power", "a Mother of Dragons option (expansion mod)")
        if out["iron_bank"] and self.expansion != "mod":
            raise fail("variants.iron_bank", "a Mother of Dragons option (expansion mod)")
        for name in CLASH_OF_KINGS_VARIANTS:
            if out[name] and self.edition != "1e":
                raise fail(
                    f"variants.{name}",
                    "a 1st-edition module (A Clash of Kings); this is a 2e position",
                )
        return out

    def phase(self) -> tuple[RoundPhase, ActionStep | None]:
        raw = self.spec["phase"]
        ids = [p.id for p in RoundPhase]
        if raw not in ids:
            raise fail("phase", f"must be one of {', '.join(ids)}, got {raw!r}{hint(raw, ids)}")
        phase = RoundPhase[raw.upper()]
        raw_step = self.spec.get("step")
        if raw_step is None:
            return phase, None
        if phase != RoundPhase.ACTION:
            raise fail("step", f"a step is given only in the action phase, not {phase.id}")
        steps = [s.id for s in ActionStep]
        if raw_step not in steps:
            raise fail(
                "step",
                f"must be one of {', '.join(steps)}, got {raw_step!r}{hint(raw_step, steps)}",
            )
        return phase, ActionStep[raw_step.upper()]

    def tracks(self) -> dict[str, tuple[House, ...]]:
        raw = read_object(self.spec["tracks"], "tracks")
        check_keys(raw, TRACKS, "tracks.")
        out: dict[str, tuple[House, ...]] = {}
        for track in TRACKS:
            where = f"tracks.{track}"
            if track not in raw:
                raise fail(where, "required")
            order = raw[track]
            if not isinstance(order, list):
                raise fail(where, "must be a list of house ids, top to bottom")
            houses = [self.house(h, f"{where}[{i}]") for i, h in enumerate(order)]
            for i, house in enumerate(houses):
                if house in houses[:i]:
                    raise fail(f"{where}[{i}]", f"lists {house.id} twice")
            missing = [h.id for h in self.houses if h not in houses]
            if missing:
                raise fail(where, f"must list every house in play; missing {', '.join(missing)}")
            out[track] = tuple(houses)
        return out

    def cards(self) -> tuple[CardsByHouse, CardsByHouse, CardsByHouse]:
        """The hands, the discard piles and (Mother of Dragons) the cards out of the game. A
        vassal fights with the vassal cards and never plays its own (V12): its hand may be left
        out while it is whole (a card ability may still discard one of them)."""
        hands_raw = self.per_house("hands", required=False)
        discards_raw = self.per_house("discards", required=False)
        out_raw = self.per_house("out_of_game", required=False)
        if out_raw and self.expansion != "mod":
            raise fail("out_of_game", "house cards leave the game only in Mother of Dragons")
        hands: CardsByHouse = {}
        discards: CardsByHouse = {}
        out_of_game: CardsByHouse = {}
        places = {
            "hands": "in the hand",
            "discards": "in the discards",
            "out_of_game": "out of the game",
        }
        for house in self.houses:
            deck = [c.id for c in house_deck(self.edition, house, self.card_set)]
            if house not in hands_raw:
                if house not in self.vassals:
                    raise fail(f"hands.{house.id}", "required (a house in play)")
                hands_raw[house] = deck
            seen: dict[str, str] = {}
            for key, raw in (
                ("hands", hands_raw[house]),
                ("discards", discards_raw.get(house)),
                ("out_of_game", out_raw.get(house)),
            ):
                where = f"{key}.{house.id}"
                if raw is None:
                    continue
                if not isinstance(raw, list):
                    raise fail(where, "must be a list of house card ids")
                for i, card in enumerate(raw):
                    if not isinstance(card, str) or card not in self.deck_order:
                        raise fail(f"{where}[{i}]", f"unknown card {card!r}{hint(card, deck)}")
                    if card not in deck:
                        raise fail(f"{where}[{i}]", f"{card!r} is not a {house.id} house card")
                    if card in seen:
                        raise fail(f"{where}[{i}]", f"{card!r} is already {places[seen[card]]}")
                    seen[card] = key
            missing = [c for c in deck if c not in seen]
            nor_out = " nor out of the game" if out_raw else ""
            if missing:
                raise fail(
                    f"hands.{house.id}",
                    f"cards neither in hand nor discarded{nor_out}: {', '.join(missing)}",
                )
            hand = tuple(c for c in deck if seen[c] == "hands")
            if not hand:
                raise fail(f"hands.{house.id}", "a hand is never empty (discards come back)")
            least = min(THREE_CARDS, len(deck))
            if "three_card_combat" in self.modules and len(hand) < least:
                raise fail(
                    f"hands.{house.id}",
                    f"with three-card combat a hand never holds fewer than {least} cards (the "
                    "discards come back)",
                )
            hands[house] = hand
            discards[house] = tuple(c for c in deck if seen[c] == "discards")
            gone = tuple(c for c in deck if seen[c] == "out_of_game")
            if gone:
                out_of_game[house] = gone
        return hands, discards, out_of_game

    def impassable(self) -> tuple[str, ...]:
        expected = tuple(a for a in self.board.area_ids if a in set(self.setup.impassable))
        raw = self.spec.get("impassable")
        if raw is None:
            return expected
        if not isinstance(raw, list):
            raise fail("impassable", "must be a list of area ids")
        for i, area in enumerate(raw):
            if area not in self.board.area_index:
                raise fail(
                    f"impassable[{i}]", f"unknown area {area!r}{hint(area, self.board.area_ids)}"
                )
            if area not in expected:
                raise fail(
                    f"impassable[{i}]",
                    f"{area!r} is not impassable with {self.players} players",
                )
        missing = [a for a in expected if a not in raw]
        if missing:
            raise fail(
                "impassable",
                f"with {self.players} players these areas are impassable too: {', '.join(missing)}",
            )
        return expected

    def areas(self, phase: RoundPhase, impassable: set[str]) -> dict[str, dict[str, Any]]:
        raw = read_object(self.spec["areas"], "areas")
        board = self.board
        out: dict[str, dict[str, Any]] = {
            key: {}
            for key in (
                "occupants",
                "units",
                "routed",
                "orders",
                "power_tokens",
                "garrisons",
                "neutral_forces",
                "neutral_armies",
                "loyalty",
                *IMPROVEMENTS,
                "fortifications",
                "one_time_orders",
            )
        }
        modules = self.modules
        tokens = order_tokens(self.edition, sea_orders=self.sea_orders, iron_bank=self.bank)
        for area_id in sorted(raw, key=lambda a: board.area_index.get(a, -1)):
            where = f"areas.{area_id}"
            if area_id not in board.area_index:
                raise fail(where, f"unknown area{hint(area_id, board.area_ids)}")
            record = read_object(raw[area_id], where)
            check_keys(record, AREA_KEYS, f"{where}.")
            if not record:
                raise fail(where, "empty area record (leave empty areas out)")
            if area_id in impassable:
                raise fail(where, f"{area_id} cannot be entered with {self.players} players")
            i = board.index(area_id)
            if self.edition == "1e" and board.kind[i] == AreaKind.PORT and "ports" not in modules:
                raise needs_module(where, "the 1st edition's ports", "ports")
            units = self.unit_counts(record.get("units", {}), f"{where}.units", i)
            routed = self.unit_counts(record.get("routed", {}), f"{where}.routed", i)
            occupant: House | None = None
            if "house" in record:
                value = record["house"]
                if isinstance(value, list):
                    raise fail(f"{where}.house", "units of two houses cannot share an area")
                occupant = self.house(value, f"{where}.house")
                if not units and not routed:
                    raise fail(f"{where}.house", f"no {occupant.id} units stand here")
            elif units:
                raise fail(f"{where}.house", "required where units stand (whose units?)")
            elif routed:
                raise fail(f"{where}.routed", "routed units need their house's area ('house')")
            if routed and phase != RoundPhase.ACTION:
                raise fail(f"{where}.routed", "units are routed only during the action phase")
            if occupant is not None:
                out["occupants"][area_id] = occupant
                if units:
                    out["units"][area_id] = units
                if routed:
                    out["routed"][area_id] = routed
            if "order" in record:
                order = record["order"]
                if order == "sea_iron_bank" and not self.bank:
                    raise fail(
                        f"{where}.order",
                        "sea_iron_bank is the Iron Bank's order token; this game plays without "
                        "the Iron Bank (variants.iron_bank)",
                    )
                if not isinstance(order, str) or order not in tokens:
                    raise fail(
                        f"{where}.order",
                        f"unknown order {order!r} (known: {', '.join(tokens)})"
                        f"{hint(order, tokens)}",
                    )
                if occupant is None or not units:
                    raise fail(f"{where}.order", "an order needs units of its house here")
                if tokens[order].sea_only and board.kind[i] != AreaKind.SEA:
                    raise fail(f"{where}.order", f"{order} is a sea order token (sea areas only)")
                if phase == RoundPhase.WESTEROS:
                    raise fail(f"{where}.order", "no orders stand in the westeros phase")
                out["orders"][area_id] = order
            if "power_token" in record:
                token = self.house(record["power_token"], f"{where}.power_token")
                if board.kind[i] != AreaKind.LAND:
                    raise fail(f"{where}.power_token", "power tokens stand on land areas only")
                if occupant is not None and occupant != token:
                    raise fail(
                        f"{where}.power_token",
                        f"a {token.id} power token cannot stand with {occupant.id} units",
                    )
                if token in self.vassals:
                    raise fail(f"{where}.power_token", "a vassal has no power tokens (V10)")
                out["power_tokens"][area_id] = token
            if "garrison" in record:
                token_house = out["power_tokens"].get(area_id)
                out["garrisons"][area_id] = self.garrison(record, area_id, occupant, token_house)
            if "neutral_force" in record:
                out["neutral_forces"][area_id] = self.neutral_force(record, area_id)
            if "neutral_army" in record:
                out["neutral_armies"][area_id] = self.neutral_army(record, area_id)
            if "loyalty" in record:
                where_loyalty = f"{where}.loyalty"
                if not self.setup.loyalty_to_win:
                    raise fail(
                        where_loyalty,
                        "loyalty tokens come with Mother of Dragons' 8-player game (House "
                        "Targaryen is not in play)",
                    )
                n = read_int(record["loyalty"], where_loyalty, 0, MAX_LOYALTY)
                if n and board.kind[i] != AreaKind.LAND:
                    raise fail(where_loyalty, "loyalty tokens lie on land areas only")
                if n:
                    out["loyalty"][area_id] = n
            for key in IMPROVEMENTS:
                if key in record:
                    value = self.improvement(record[key], key, area_id)
                    if value:
                        out[key][area_id] = value
            if read_bool(record.get("fortification", False), f"{where}.fortification"):
                self.fortification(area_id, occupant)
                out["fortifications"][area_id] = True
            if "one_time_order" in record:
                kind = self.one_time_order(record["one_time_order"], area_id, occupant, phase)
                out["one_time_orders"][area_id] = kind
        if len(out["fortifications"]) > MAX_FORTIFICATIONS:
            raise fail(
                "areas",
                f"{len(out['fortifications'])} fortifications on the board; the module has "
                f"{MAX_FORTIFICATIONS} tokens",
            )
        return out

    def fortification(self, area_id: str, occupant: House | None) -> None:
        """A Clash of Kings (K1-K3): on land, where its builder's units stand."""
        where = f"areas.{area_id}.fortification"
        if "fortifications" not in self.modules:
            raise needs_module(where, "fortifications", "fortifications")
        if self.board.kind[self.board.index(area_id)] != AreaKind.LAND:
            raise fail(where, "fortifications stand on land areas only")
        if occupant is None:
            raise fail(
                where,
                "a fortification stands only with its builder's units (it goes when they leave)",
            )

    def one_time_order(
        self, value: Any, area_id: str, occupant: House | None, phase: RoundPhase
    ) -> str:
        """A Clash of Kings (O1, O2): the kind of one of its house's one-time orders, on an area
        holding that house's units, never a port; placed in the planning phase before the other
        orders, gone by the round's end."""
        where = f"areas.{area_id}.one_time_order"
        if "one_time_orders" not in self.modules:
            raise needs_module(where, "one-time orders", "one_time_orders")
        if not isinstance(value, str) or value not in ONE_TIME_KINDS:
            raise fail(
                where,
                f"unknown one-time order {value!r} (known: {', '.join(ONE_TIME_KINDS)})"
                f"{hint(value, ONE_TIME_KINDS)}",
            )
        if occupant is None:
            raise fail(where, "a one-time order needs units of its house here")
        if value not in kinds_of(occupant):
            owner = ONE_TIME_OWNER[value]
            raise fail(
                where,
                f"{value} is {owner.id if owner else 'nobody'}'s one-time order, not "
                f"{occupant.id}'s",
            )
        if self.board.kind[self.board.index(area_id)] == AreaKind.PORT:
            raise fail(where, "one-time orders never go in a port")
        if phase == RoundPhase.WESTEROS:
            raise fail(where, "no orders stand in the westeros phase")
        return value

    def one_time(
        self,
        phase: RoundPhase,
        step: ActionStep | None,
        placed: Mapping[str, str],
        occupants: Mapping[str, House],
        restriction: str | None,
    ) -> tuple[dict[House, tuple[str, ...]], House | None]:
        """A Clash of Kings one-time orders (O1-O7): ``one_time_used``, the kinds each house has
        placed this game (each once; those on the board among them), and ``lions_cunning``, the
        house Lion's Cunning keeps from acting against Lannister this round (after it resolved
        in the raid step)."""
        if "one_time_orders" not in self.modules:
            for key in ("one_time_used", "lions_cunning"):
                if key in self.spec:
                    raise needs_module(key, "one-time orders", "one_time_orders")
            return {}, None
        used: dict[House, tuple[str, ...]] = {}
        for house, listed in self.per_house("one_time_used", required=False).items():
            where = f"one_time_used.{house.id}"
            if not isinstance(listed, list):
                raise fail(where, "must be the list of one-time orders the house has placed")
            own = kinds_of(house)
            _ids_within(
                listed,
                where,
                dict.fromkeys(own, 1),
                f"one of {house.id}'s one-time orders ({', '.join(own)})",
                lambda kind, _: f"{kind} is placed once a game",
            )
            if listed:
                used[house] = tuple(k for k in ONE_TIME_KINDS if k in listed)
        on_board: dict[House, str] = {}
        for area_id, kind in placed.items():
            where = f"areas.{area_id}.one_time_order"
            house = occupants[area_id]
            if kind not in used.get(house, ()):
                raise fail(
                    where, f"{kind} stands on the board, so one_time_used.{house.id} lists it"
                )
            if house in on_board:
                raise fail(
                    where, f"{house.id} places one one-time order a round ({on_board[house]} too)"
                )
            on_board[house] = kind
            icon = ONE_TIME_ICON[kind]
            if step is not None and icon in RESOLVED_BEFORE[step]:
                raise fail(
                    where, f"{kind} resolves in the {icon.id} step, before the {step.id} step"
                )
            blocked = RESTRICTIONS.get(restriction or "", (None, None))
            if blocked[0] == icon and blocked[1] is None:
                raise fail(where, f"{kind} is forbidden this round (restriction {restriction})")
        raw = self.spec.get("lions_cunning")
        if raw is None:
            return used, None
        where = "lions_cunning"
        target = self.house(raw, where)
        if target == House.LANNISTER:
            raise fail(where, "Lion's Cunning keeps another house from acting against Lannister")
        if phase != RoundPhase.ACTION:
            raise fail(where, "Lion's Cunning acts in the action phase, from the raid step")
        if (
            "lions_cunning" not in used.get(House.LANNISTER, ())
            or "lions_cunning" in placed.values()
        ):
            raise fail(
                where,
                "Lion's Cunning names a house once resolved (one_time_used.lannister lists it, "
                "and it no longer stands on the board)",
            )
        return used, target

    def face_up(self) -> tuple[tuple[str, ...], ...] | None:
        """The look-ahead module (K9): each Westeros deck's three face-up cards, next first;
        left out, the decks fall as the seed shuffles them."""
        raw = self.spec.get("westeros_face_up")
        where = "westeros_face_up"
        if "westeros_lookahead" not in self.modules:
            if raw is not None:
                raise needs_module(where, "face-up Westeros cards", "westeros_lookahead")
            return None
        if raw is None:
            return None
        decks = westeros_decks(self.edition)
        if not isinstance(raw, list) or len(raw) != len(decks):
            raise fail(
                where, f"must be {len(decks)} lists (decks I, II, III) of {FACE_UP} card ids each"
            )
        out = []
        for d, (cards, deck) in enumerate(zip(raw, decks, strict=True)):
            at = f"{where}[{d}]"
            if not isinstance(cards, list) or len(cards) != FACE_UP:
                raise fail(at, f"must list the deck's {FACE_UP} face-up cards, next first")
            name = "I" * (d + 1)

            def too_many(card: str, n: int, name: str = name) -> str:
                return f"deck {name} holds {n} {card}"

            _ids_within(cards, at, deck, f"a card of Westeros deck {name}", too_many)
            out.append(tuple(cards))
        return tuple(out)

    def improvement(self, value: Any, key: str, area_id: str) -> int:
        """An Iron Bank improvement of a land area (``docs/rules.md`` IB9): crowns or barrels
        added (0-9), or the change of its castle level, which stays within 0-2."""
        where = f"areas.{area_id}.{key}"
        if self.expansion != "mod":
            raise fail(where, "improvements come with the Iron Bank's loans (expansion mod)")
        i = self.board.index(area_id)
        if key == "castle_delta":
            delta = read_int(value, where, -2, 2)
            level = 2 if self.board.stronghold[i] else 1 if self.board.castle[i] else 0
            if not 0 <= level + delta <= 2:
                raise fail(
                    where,
                    f"{area_id}'s castle level {level} changed by {delta:+d} is outside 0-2 "
                    "(none, castle, stronghold)",
                )
        else:
            delta = read_int(value, where, 0, 9)
        if delta and self.board.kind[i] != AreaKind.LAND:
            raise fail(where, "improvements stand on land areas only")
        return delta

    def garrison(
        self,
        record: Mapping[str, Any],
        area_id: str,
        occupant: House | None,
        token: House | None,
    ) -> int:
        where = f"areas.{area_id}.garrison"
        strength = read_int(record["garrison"], where, 1, 9)
        if area_id not in self.setup.garrisons:
            if self.board.home[self.board.index(area_id)] < 0:
                raise fail(where, f"{area_id} is not a home area")
            raise fail(where, f"{area_id} has no garrison with {self.players} players")
        house, printed = self.setup.garrisons[area_id]
        if strength != printed:
            raise fail(where, f"the {house.id} garrison has strength {printed}, got {strength}")
        for other, what in ((occupant, "units"), (token, "power token")):
            if other is not None and other != house:
                raise fail(
                    where, f"the {house.id} garrison is removed once {other.id} {what} stand here"
                )
        return strength

    def neutral_force(self, record: Mapping[str, Any], area_id: str) -> int:
        where = f"areas.{area_id}.neutral_force"
        strength = read_int(record["neutral_force"], where, 1, 20)
        printed = self.setup.neutral_forces.get(area_id)
        if printed is None:
            raise fail(where, f"no neutral force starts in {area_id} with {self.players} players")
        if strength != printed:
            raise fail(where, f"the token in {area_id} has strength {printed}, got {strength}")
        for key in ("house", "power_token", "neutral_army"):
            if key in record:
                raise fail(where, f"a neutral force cannot share its area ({key} given)")
        return strength

    def neutral_army(self, record: Mapping[str, Any], area_id: str) -> dict[Unit, int]:
        where = f"areas.{area_id}.neutral_army"
        start = self.setup.neutral_armies.get(area_id)
        if start is None:
            raise fail(
                where,
                f"no neutral army starts in {area_id} ({self.edition}, {self.players} players)",
            )
        units = self.unit_counts(record["neutral_army"], where, self.board.index(area_id))
        if not units:
            raise fail(where, "a neutral army needs at least one unit")
        for unit, n in units.items():
            if n > start.get(unit, 0):
                raise fail(f"{where}.{unit.id}", f"only {start.get(unit, 0)} start here")
        for key in ("house", "power_token"):
            if key in record:
                raise fail(where, f"a neutral army cannot share its area ({key} given)")
        return units


def _in_order(values: Mapping[House, Any], houses: tuple[House, ...]) -> dict[House, Any]:
    return {h: values[h] for h in houses}


def _frozen_counts(table: Mapping[str, Mapping[Unit, int]]) -> Mapping[str, UnitCounts]:
    return MappingProxyType({a: MappingProxyType(dict(c)) for a, c in table.items()})


def _armies_fit(armies: list[int], allowed: tuple[int, ...]) -> bool:
    """Whether armies (sizes of 2+) fit a supply level's allowed sizes.

    >>> _armies_fit([3, 2], (3, 2)), _armies_fit([3, 3], (3, 2)), _armies_fit([2, 2, 2], (3, 2))
    (True, False, False)
    """
    got = sorted(armies, reverse=True)
    cap = sorted(allowed, reverse=True)
    return len(got) <= len(cap) and all(a <= b for a, b in zip(got, cap, strict=False))


def _check_board(p: Position, setup: Setup) -> None:
    """Cross-area rules: ports, unit limits, order tokens and stars, power, supply."""
    board = p.board
    held = control(p)
    sea_orders = bool(p.variants.get("sea_orders"))
    tokens = order_tokens(p.edition, sea_orders=sea_orders, iron_bank=p.iron_bank)
    for area, house in p.occupants.items():
        i = board.index(area)
        if board.kind[i] != AreaKind.PORT:
            continue
        ships = p.units.get(area, {}).get(Unit.SHIP, 0) + p.routed.get(area, {}).get(Unit.SHIP, 0)
        capacity = unit_facts(p.edition).port_capacity
        if ships > capacity:
            raise fail(f"areas.{area}.units.ship", f"a port holds at most {capacity} ships")
        land = board.area_ids[board.port_land[i]]
        owner = held.get(land)
        if owner is not None and owner != house:
            raise fail(
                f"areas.{area}.house",
                f"{house.id} ships cannot stay in {area} while {owner.id} controls {land}",
            )
    for area, name in p.orders.items():
        token = tokens[name]
        if forbidden_by(p.restriction, token):
            raise fail(
                f"areas.{area}.order",
                f"{name!r} is forbidden this round (restriction {p.restriction})",
            )
        if p.step is not None and token.kind in RESOLVED_BEFORE[p.step]:
            raise fail(
                f"areas.{area}.order",
                f"{token.kind.id} orders are all resolved before the {p.step.id} step",
            )
    for house in p.houses:
        areas = [a for a in board.area_ids if p.occupants.get(a) == house]
        for unit in Unit:
            where = [
                a for a in areas if p.units.get(a, {}).get(unit) or p.routed.get(a, {}).get(unit)
            ]
            total = sum(
                p.units.get(a, {}).get(unit, 0) + p.routed.get(a, {}).get(unit, 0) for a in where
            )
            limit = setup.unit_limits[house].get(unit, 0)
            if unit == Unit.SIEGE_ENGINE:
                modules = [n for n in CLASH_OF_KINGS_VARIANTS if p.variants.get(n)]
                limit = siege_engine_limit(p.edition, house, modules) or limit
                if total and p.edition == "1e" and "siege_engines" not in modules:
                    raise needs_module(
                        f"areas.{where[0]}.units.siege_engine",
                        "the 1st edition's siege engines",
                        "siege_engines",
                    )
            if total > limit:
                counts = ", ".join(
                    f"{a} {p.units.get(a, {}).get(unit, 0) + p.routed.get(a, {}).get(unit, 0)}"
                    for a in where
                )
                raise fail(
                    f"areas.*.units.{unit.id}",
                    f"{house.id} has {total} {unit.id} units on the board ({counts}), its "
                    f"limit is {limit}",
                )
        placed = [a for a in areas if a in p.orders]
        if house in p.vassals:
            _check_vassal_orders(house, {a: p.orders[a] for a in placed})
            continue
        for name, token in tokens.items():
            using = [a for a in placed if p.orders[a] == name]
            if len(using) > token.count:
                raise fail(
                    f"areas.{using[-1]}.order",
                    f"{house.id} has {len(using)} {name!r} orders on the board but only "
                    f"{token.count} such tokens",
                )
        stars = [a for a in placed if tokens[p.orders[a]].special]
        rank = p.tracks["kings_court"].index(house)
        # checked while orders are placed; in the action phase Doran Martell may since have
        # moved the house down King's Court
        if p.phase.id == "planning" and len(stars) > setup.stars[rank]:
            raise fail(
                f"areas.{stars[-1]}.order",
                f"{house.id} has {len(stars)} special orders but King's Court position "
                f"{rank + 1} allows {setup.stars[rank]}",
            )
        on_board = sum(1 for h in p.power_tokens.values() if h == house)
        if p.power[house] + on_board > setup.power_total[house]:
            raise fail(
                f"power.{house.id}",
                f"{p.power[house]} in hand and {on_board} power tokens on the board exceed "
                f"{house.id}'s {setup.power_total[house]} tokens",
            )
        armies = []
        for area in areas:
            size = sum(p.units.get(area, {}).values()) + sum(p.routed.get(area, {}).values())
            if size >= 2:
                armies.append(size)
        allowed = setup.supply_table[p.supply[house]]
        if not _armies_fit(armies, allowed):
            sizes = ", ".join(str(n) for n in sorted(armies, reverse=True))
            raise fail(
                f"supply.{house.id}",
                f"{house.id}'s armies ({sizes}) exceed supply level {p.supply[house]}, which "
                f"allows {', '.join(map(str, allowed))}",
            )


# A vassal's four order tokens (V5), as the order names that stand for each: march +0; one raid
# or support +1; one defense +1 or muster (consolidate power); the defense +3 (the engine's
# defense+2 kind, worth 3 for a vassal, V6)
VASSAL_TOKENS: tuple[tuple[str, ...], ...] = (
    ("march+0",),
    ("raid", "support+1"),
    ("defense+1", "consolidate_power"),
    ("defense+2",),
)


def _check_vassal_orders(house: House, orders: Mapping[str, str]) -> None:
    """A vassal's orders on the board: only its four tokens, each once (V5); no star order and
    no King's Court limit."""
    used: dict[int, str] = {}
    for area, name in orders.items():
        where = f"areas.{area}.order"
        token = next((k for k, names in enumerate(VASSAL_TOKENS) if name in names), None)
        if token is None:
            known = " ".join("/".join(names) for names in VASSAL_TOKENS)
            raise fail(where, f"{house.id} is a vassal: its order tokens are {known}, not {name}")
        if token in used:
            raise fail(
                where,
                f"{house.id} is a vassal with one {'/'.join(VASSAL_TOKENS[token])} token "
                f"({used[token]} already)",
            )
        used[token] = f"{name} in {area}"


def load_position(source: Mapping[str, Any] | str | Path) -> Position:
    """Validate a position (a dict, JSON text, or a path to a JSON file) into a ``Position``.

    >>> from gotsim.engine.position import dump_position
    >>> p = load_position(dump_position(starting_position("2e", 3)))
    >>> p.players, [h.id for h in p.houses]
    (3, ['baratheon', 'lannister', 'stark'])
    >>> load_position('{"players": 7}')
    Traceback (most recent call last):
    ...
    gotsim.engine.position.PositionError: round: required
    """
    return _Reader(_read_spec(source)).position()


# --- dumping ---------------------------------------------------------------------------------


def starting_position(
    edition: str = "2e",
    players: int = 6,
    *,
    kings_court_swap: bool = False,
    expansion: str | None = None,
    iron_bank: bool | None = None,
    modules: Collection[str] = (),
    vassals: bool = False,
    eight_houses: bool = False,
) -> Position:
    """The position at the start of round 1 (planning phase), built from ``load_setup``
    (``expansion``: a 2nd-edition expansion's own start, with its house cards; ``iron_bank``:
    Mother of Dragons with or without the Iron Bank, by default as the rules have it, on at 8
    players: 7 power tokens in hand, the loan slots dealt when the game resumes; ``modules``:
    the 1st edition's A Clash of Kings modules in play, ``rules.variants.CLASH_OF_KINGS_VARIANTS``
    names, the face-up Westeros cards of the look-ahead module left to the seed; ``vassals``
    (with ``eight_houses``): ``players`` player houses and the board's other houses vassals,
    ``rules.setup.vassal_setup``, none claimed yet).

    >>> p = starting_position("2e", 4)
    >>> p.neutral_forces["storms_end"], p.power[House.STARK], p.wildling_threat
    (4, 5, 2)
    >>> bank = starting_position("2e", 8, expansion="mod")
    >>> bank.iron_bank, bank.power[House.TARGARYEN], bank.loan_slots
    (True, 7, None)
    """
    flags = {"vassals": True, "eight_houses": eight_houses} if vassals else None
    rules = Rules.of(edition, players, flags, expansion_name(expansion))  # (refusals: one line)
    setup = load_setup(
        edition,
        players,
        kings_court_swap=kings_court_swap,
        expansion=expansion,
        vassals=vassals,
        eight_houses=eight_houses,
    )
    for name in modules:
        if name not in CLASH_OF_KINGS_VARIANTS:
            known = ", ".join(CLASH_OF_KINGS_VARIANTS)
            raise fail("variants", f"unknown A Clash of Kings module {name!r} (known: {known})")
        if edition != "1e":
            raise fail(f"variants.{name}", "a 1st-edition module (A Clash of Kings)")
    default = iron_bank_default(setup.expansion, players, vassals and eight_houses)
    bank = default if iron_bank is None else iron_bank
    if bank and setup.expansion != "mod":
        raise fail("variants.iron_bank", "a Mother of Dragons option (expansion mod)")
    power = {
        h: 0 if h in setup.vassals else STARTING_POWER_TOKENS if bank else setup.power[h]
        for h in setup.houses
    }
    cards = rules.card_set
    board = load_board(edition, board=setup.board)
    occupants: dict[str, House] = {}
    units: dict[str, dict[Unit, int]] = {}
    for house in setup.houses:
        for area, counts in setup.units[house].items():
            occupants[area] = house
            units[area] = {u: counts[u] for u in sorted(counts) if counts[u]}

    def by_board(table: Mapping[str, Any]) -> dict[str, Any]:
        return {a: table[a] for a in board.area_ids if a in table}

    return Position(
        edition=edition,
        players=players,
        houses=setup.houses,
        variants=MappingProxyType(
            {
                "tides_of_battle": False,
                "kings_court_swap": kings_court_swap,
                "adwd_house_cards": cards == "adwd",
                "eyrie_port": False,
                "sea_orders": setup.expansion == "mod",
                "iron_bank": bank,
                "gift_power": setup.expansion == "mod",
                "vassals": vassals,
                "eight_houses": vassals and eight_houses,
                **{name: name in modules for name in CLASH_OF_KINGS_VARIANTS},
            }
        ),
        round=1,
        phase=RoundPhase.PLANNING,
        step=None,
        occupants=MappingProxyType(by_board(occupants)),
        units=_frozen_counts(by_board(units)),
        routed=MappingProxyType({}),
        orders=MappingProxyType({}),
        power_tokens=MappingProxyType(by_board(dict(setup.power_tokens))),
        garrisons=MappingProxyType(by_board({a: s for a, (_, s) in setup.garrisons.items()})),
        neutral_forces=MappingProxyType(by_board(setup.neutral_forces)),
        neutral_armies=_frozen_counts(by_board(setup.neutral_armies)),
        impassable=tuple(a for a in board.area_ids if a in set(setup.impassable)),
        tracks=MappingProxyType({t: setup.tracks[t] for t in TRACKS}),
        blade_used=False,
        raven_used=False,
        power=MappingProxyType(power),
        supply=MappingProxyType({h: setup.supply[h] for h in setup.houses}),
        hands=MappingProxyType(
            {h: tuple(c.id for c in house_deck(edition, h, cards)) for h in setup.houses}
        ),
        discards=MappingProxyType({h: () for h in setup.houses}),
        wildling_threat=setup.wildling_threat,
        restriction=None,
        expansion=setup.expansion,
        victory_points=MappingProxyType(
            dict.fromkeys(setup.houses, 0) if setup.victory_points else {}
        ),
        objectives_scored=MappingProxyType(
            dict.fromkeys(setup.houses, ()) if setup.victory_points else {}
        ),
        loyalty=MappingProxyType(by_board(dict(setup.loyalty))),
    )


# --- control ---------------------------------------------------------------------------------
