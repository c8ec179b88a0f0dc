"""The rules a game is played by, as one value: ``Rules(edition, players, variants)``.

The variant names are read from here by the engine's rule tables, the command line, scenarios
and the analysis; a variant is switched on by naming it.

>>> Rules.of("2e", 6, {"tides_of_battle": True}).flags["tides_of_battle"]
True
>>> Rules("2e", 6, frozenset({"fortifications"}))
Traceback (most recent call last):
...
ValueError: fortifications is a 1st-edition (A Clash of Kings) variant; the 2nd edition has none
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from gotsim.data import EDITIONS
from gotsim.rules.iron_bank import IRON_BANK_PLAYABLE, iron_bank_refusal

# the house-card sets a game may be played with (``rules.cards.CARD_SETS``, kept equal there)
GAME_CARD_SETS: tuple[str, ...] = ("base", "adwd", "mod")

VARIANTS: tuple[str, ...] = (
    "tides_of_battle",
    "kings_court_swap",
    "fortifications",
    "siege_engines",
    "westeros_lookahead",
    "ports",
    "one_time_orders",
    "three_card_combat",
    "adwd_house_cards",
    "eyrie_port",
    "sea_orders",
    "iron_bank",
    "vassals",
    "eight_houses",
    "gift_power",
)
# the 1st edition's A Clash of Kings modules (each refused with the 2nd edition)
CLASH_OF_KINGS_VARIANTS: tuple[str, ...] = VARIANTS[2:8]
# 2nd edition: every house plays the A Dance with Dragons house cards instead of its base deck
ADWD_HOUSE_CARDS = "adwd_house_cards"


def played_card_set(expansion: str | None, adwd_house_cards: bool) -> str:
    """The house-card set a game plays when none is named: ``"adwd"`` with the
    ``adwd_house_cards`` variant, else ``"mod"`` in a Mother of Dragons game (Arryn's deck A),
    else ``"base"``. Games, positions and records read back all ask here.

    >>> played_card_set("mod", False), played_card_set("mod", True), played_card_set(None, False)
    ('mod', 'adwd', 'base')
    """
    if adwd_house_cards:
        return "adwd"
    return "mod" if expansion == "mod" else "base"


# Mother of Dragons' vassals (also Swords and Ravens' option for the base game): the houses on
# the board that no player takes are vassals, commanded each round by a player house
# (``gotsim.engine.vassals``; ``docs/rules.md`` V1…)
VASSALS = "vassals"
# player houses a vassal game is played by: the base game's 6-house board with 3-5 players,
# Mother of Dragons' 7-house board with 3-6 (the players are the houses of the base game's
# setup for that count; the six base houses at 6)
VASSAL_PLAYER_COUNTS: dict[str | None, tuple[int, ...]] = {None: (3, 4, 5), "mod": (3, 4, 5, 6)}
# the houses on the board in a vassal game, players and vassals together
VASSAL_BOARD_HOUSES: dict[str | None, int] = {None: 6, "mod": 7}
# Mother of Dragons' 8-house board (Essos and House Targaryen) in a vassal game: the option
# ``eight_houses`` with ``vassals``; House Targaryen is always a player house (the printed rules
# and Swords and Ravens: "targaryen-must-be-a-player-controlled-house"), so 4-7 players,
# Swords and Ravens' ``minPlayerCount`` at 8 (``docs/rules.md`` V21)
EIGHT_HOUSES = "eight_houses"
EIGHT_HOUSE_VASSAL_PLAYERS: tuple[int, ...] = (4, 5, 6, 7)


# A Feast for Crows: The Eyrie has a port on The Narrow Sea (board ``affc_eyrie_port``)
EYRIE_PORT = "eyrie_port"
# Mother of Dragons: every house has a march -1 and a support +0 token for sea areas only
SEA_ORDERS = "sea_orders"
# Mother of Dragons: the Iron Bank (loans, interest, its sea order token; 7 starting power tokens).
# S&R has it off at 7 players and locked on on the 8-house board (``iron_bank_default``).
IRON_BANK = "iron_bank"
# Mother of Dragons: players may give power tokens from their hand to one another (S&R's
# ``allowGiftingPowerTokens``, on by default in its Mother of Dragons games; forbidden in A Feast
# for Crows). Asked once a round, at the start of the planning phase (``gotsim.engine.gifts``).
GIFT_POWER = "gift_power"
# the 2nd edition's expansions a game can be played with (``expansion=``, ``--expansion``, a
# scenario's ``expansion``): name → the scenario's key in ``data/2e/expansions.json``. ``None``
# (or ``"base"``) is the base game.
EXPANSIONS: dict[str, str] = {
    "adwd": "a_dance_with_dragons",
    "affc": "a_feast_for_crows",
    "mod": "mother_of_dragons",
}
# the player counts each expansion is played by (Mother of Dragons: 7 with Arryn, 8 with
# Targaryen and Essos)
EXPANSION_PLAYER_COUNTS: dict[str, tuple[int, ...]] = {"adwd": (6,), "affc": (4,), "mod": (7, 8)}
# the number of players an expansion is played by unless a count is given
EXPANSION_PLAYERS: dict[str, int] = {name: n[0] for name, n in EXPANSION_PLAYER_COUNTS.items()}
# the variants an expansion plays with unless switched off (A Dance with Dragons: its house
# cards; Mother of Dragons: its sea order tokens and gifts of power tokens, on by default as in
# S&R)
_EXPANSION_DEFAULTS: dict[str, tuple[str, ...]] = {
    "adwd": (ADWD_HOUSE_CARDS,),
    "mod": (SEA_ORDERS, GIFT_POWER),
}
# what the 2nd edition refuses of them, after "the 2nd edition has"
_SECOND_EDITION_HAS = {
    "siege_engines": "them in its base game",
    "ports": "ports in its base game",
}


def iron_bank_default(expansion: str | None, players: int, eight_houses: bool = False) -> bool:
    """Whether a game of ``expansion`` at ``players`` plays the Iron Bank unless told otherwise:
    S&R locks it on when Mother of Dragons is played on the 8-house board (8 players, or fewer
    with vassals and ``eight_houses``: S&R's player count is then 8) and leaves it off at 7.

    >>> iron_bank_default("mod", 7), iron_bank_default(None, 6), iron_bank_default("mod", 5, True)
    (False, False, True)
    """
    return expansion == "mod" and (players == 8 or eight_houses) and IRON_BANK_PLAYABLE


def expansion_name(value: object) -> str | None:
    """``value`` as an expansion name (``EXPANSIONS``), ``None`` for the base game (``None`` or
    ``"base"``); anything else is refused (``ValueError``, naming the known ones)."""
    if value is None or value == "base":
        return None
    if isinstance(value, str) and value in EXPANSIONS:
        return value
    known = ", ".join(("base", *EXPANSIONS))
    raise ValueError(f"expansion: unknown expansion {value!r} (known: {known})")


def expansion_board(
    expansion: str | None,
    players: int,
    eyrie_port: bool = False,
    vassals: bool = False,
    eight_houses: bool = False,
) -> str:
    """The board (``rules.board.load_board``'s ``board``) of a game of ``expansion`` at
    ``players``: Mother of Dragons' ``"mod7"`` or ``"mod8"`` (with ``vassals``: ``"mod7"``, or
    ``"mod8"`` with ``eight_houses``), A Feast for Crows' ``"affc_eyrie_port"`` with its
    ``eyrie_port`` option, else the edition's own (``"base"``)."""
    if expansion == "mod" and vassals:
        return "mod8" if eight_houses else "mod7"
    if expansion == "mod":
        return f"mod{players}"
    return Rules.board_named(eyrie_port)


def variant_flags(variants: Mapping[str, bool] | None) -> dict[str, bool]:
    """Every variant switch with its default, ``variants`` applied; unknown keys and values that
    are not true or false are refused (``ValueError``)."""
    known = dict.fromkeys(VARIANTS, False)
    for key, value in (variants or {}).items():
        if key not in known:
            raise ValueError(f"variants: unknown variant {key!r} (known: {', '.join(known)})")
        if not isinstance(value, bool):
            raise ValueError(f"variants.{key}: must be true or false, got {value!r}")
        known[key] = value
    return known


@dataclass(frozen=True)
class Rules:
    """An edition, a player count and the variants switched on (``VARIANTS`` names). Frozen
    and hashable: the engine builds one rule table per value."""

    edition: str = "2e"
    players: int = 6
    variants: frozenset[str] = field(default_factory=frozenset)
    expansion: str | None = None  # ``EXPANSIONS`` name; None: the base game
    # a house-card set named outright (``rules.cards.CARD_SETS``; 2nd edition), e.g. ``"mod"``
    # for House Arryn's and House Targaryen's Mother of Dragons decks A; None: the set the
    # variants give (``card_set``)
    house_cards: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "variants", frozenset(self.variants))
        object.__setattr__(self, "expansion", expansion_name(self.expansion))
        if self.house_cards is not None:
            if self.house_cards not in GAME_CARD_SETS:
                known = ", ".join(GAME_CARD_SETS)
                raise ValueError(f"house_cards: unknown set {self.house_cards!r} (known: {known})")
            if self.edition != "2e":
                raise ValueError(f"house_cards {self.house_cards!r}: a 2nd-edition house-card set")
            if ADWD_HOUSE_CARDS in self.variants and self.house_cards != "adwd":
                raise ValueError(
                    f"house_cards {self.house_cards!r} with adwd_house_cards: two decks at once"
                )
        if EIGHT_HOUSES in self.variants and VASSALS not in self.variants:
            raise ValueError(
                "eight_houses (Mother of Dragons' 8-house board) is a vassals option: with 8 "
                "players every house is a player's (expansion mod, players 8)"
            )
        if VASSALS in self.variants:
            _check_vassals(self)
        elif self.expansion is not None:
            if self.edition != "2e":
                raise ValueError(f"expansion {self.expansion!r} is a 2nd-edition expansion")
            wanted = EXPANSION_PLAYER_COUNTS[self.expansion]
            if self.players not in wanted:
                raise ValueError(
                    f"expansion {self.expansion!r} is played by "
                    f"{' or '.join(map(str, wanted))} players, not {self.players}"
                )
            if "kings_court_swap" in self.variants:
                raise ValueError(
                    f"kings_court_swap changes the base game's setup; expansion "
                    f"{self.expansion!r} has its own tracks"
                )
        if self.edition not in EDITIONS:
            raise NotImplementedError(
                f"the engine plays the 1st and 2nd editions, not {self.edition!r}"
            )
        variant_flags(dict.fromkeys(self.variants, True))  # unknown names
        if self.edition == "1e" and "tides_of_battle" in self.variants:
            raise ValueError("Tides of Battle is a 2nd-edition variant; the 1st edition has none")
        if self.edition == "1e" and ADWD_HOUSE_CARDS in self.variants:
            raise ValueError(
                "adwd_house_cards (the A Dance with Dragons house cards) is a 2nd-edition variant"
            )
        if EYRIE_PORT in self.variants and self.expansion != "affc":
            raise ValueError(
                "eyrie_port (a port for The Eyrie) is an A Feast for Crows option (expansion affc)"
            )
        if SEA_ORDERS in self.variants and self.expansion != "mod":
            raise ValueError(
                "sea_orders (sea order tokens) is a Mother of Dragons option (expansion mod)"
            )
        if GIFT_POWER in self.variants and self.expansion != "mod":
            raise ValueError(
                "gift_power (gifts of power tokens) is a Mother of Dragons option (expansion mod)"
            )
        if IRON_BANK in self.variants:
            refusal = iron_bank_refusal(self.expansion)
            if refusal:
                raise ValueError(refusal)
        if self.edition == "2e":
            for name in CLASH_OF_KINGS_VARIANTS:
                if name in self.variants:
                    has = _SECOND_EDITION_HAS.get(name, "none")
                    raise ValueError(
                        f"{name} is a 1st-edition (A Clash of Kings) variant; the 2nd edition "
                        f"has {has}"
                    )

    @classmethod
    def of(
        cls,
        edition: str = "2e",
        players: int = 6,
        variants: Mapping[str, bool] | Iterable[str] | None = None,
        expansion: str | None = None,
        house_cards: str | None = None,
    ) -> Rules:
        """The rules of ``edition`` at ``players`` with ``variants``: a mapping of switches
        (``{"tides_of_battle": True}``, as in scenarios and ``simulate``) or the names on, and
        ``expansion``. An expansion's own options (A Dance with Dragons' house cards,
        ``adwd_house_cards``; Mother of Dragons' ``sea_orders`` and ``gift_power``) are on unless
        the mapping switches them off. ``house_cards`` names a house-card set outright
        (``"mod"``: the Mother of Dragons decks A)."""
        expansion = expansion_name(expansion)
        if variants is None or isinstance(variants, Mapping):
            flags = variant_flags(variants)
            for default in _EXPANSION_DEFAULTS.get(expansion or "", ()):
                if default not in (variants or {}):
                    flags[default] = True
            if IRON_BANK not in (variants or {}):
                eight = flags[VASSALS] and flags[EIGHT_HOUSES]
                flags[IRON_BANK] = iron_bank_default(expansion, players, eight)
            on = frozenset(k for k, on in flags.items() if on)
            return cls(edition, players, on, expansion, house_cards)
        return cls(edition, players, frozenset(variants), expansion, house_cards)

    @property
    def flags(self) -> dict[str, bool]:
        """Every variant switch, in ``VARIANTS`` order."""
        return {name: name in self.variants for name in VARIANTS}

    @property
    def card_set(self) -> str:
        """The house-card set the houses play (``rules.cards.CARD_SETS``): the one named by
        ``house_cards``, else ``"adwd"`` with the ``adwd_house_cards`` variant, else ``"mod"`` in
        a Mother of Dragons game (Arryn's deck A), else ``"base"``."""
        if self.house_cards is not None:
            return self.house_cards
        return played_card_set(self.expansion, ADWD_HOUSE_CARDS in self.variants)

    @property
    def board(self) -> str:
        """The board the game is played on (``rules.board.load_board``'s ``board``): ``"base"``
        for the edition's own, ``"affc_eyrie_port"`` with ``eyrie_port``, Mother of Dragons'
        ``"mod7"`` (``"mod8"``) by its player count."""
        return expansion_board(
            self.expansion,
            self.players,
            EYRIE_PORT in self.variants,
            VASSALS in self.variants,
            EIGHT_HOUSES in self.variants,
        )

    @property
    def board_houses(self) -> int:
        """The houses on the board: ``players``, and with ``vassals`` every house of the board
        (6 in the base game, 7 in Mother of Dragons, 8 with ``eight_houses``), the vassals
        among them."""
        if VASSALS in self.variants:
            return 8 if EIGHT_HOUSES in self.variants else VASSAL_BOARD_HOUSES[self.expansion]
        return self.players

    @staticmethod
    def board_named(eyrie_port: bool) -> str:
        """``board``'s name with or without the Eyrie port."""
        return "affc_eyrie_port" if eyrie_port else "base"

    def on(self, name: str) -> bool:
        """Whether the variant ``name`` is switched on (``ValueError`` for an unknown name)."""
        if name not in VARIANTS:
            raise ValueError(f"unknown variant {name!r} (known: {', '.join(VARIANTS)})")
        return name in self.variants


def _check_vassals(rules: Rules) -> None:
    """Refuse a ``vassals`` game the rules do not allow (one line, ``ValueError``)."""
    if rules.edition != "2e":
        raise ValueError(
            "vassals is a 2nd-edition variant (Mother of Dragons); the 1st edition has none"
        )
    if rules.expansion not in VASSAL_PLAYER_COUNTS:
        raise ValueError(
            f"vassals is played in the base game or Mother of Dragons (expansion mod), not "
            f"with expansion {rules.expansion!r}"
        )
    if EIGHT_HOUSES in rules.variants:
        if rules.expansion != "mod":
            raise ValueError(
                "eight_houses is Mother of Dragons' 8-house board (expansion mod), not "
                f"{'the base game' if rules.expansion is None else repr(rules.expansion)}"
            )
        wanted = EIGHT_HOUSE_VASSAL_PLAYERS
        if rules.players not in wanted:
            raise ValueError(
                f"vassals on Mother of Dragons' 8-house board is played by 4-7 players "
                f"(Targaryen always one of them; the other houses are the vassals), not "
                f"{rules.players}"
            )
        if "kings_court_swap" in rules.variants:
            raise ValueError(
                "kings_court_swap changes the 5-player track; a vassal game has its own"
            )
        return
    wanted = VASSAL_PLAYER_COUNTS[rules.expansion]
    if rules.players not in wanted:
        game = "Mother of Dragons" if rules.expansion else "the base game"
        raise ValueError(
            f"vassals in {game} is played by {min(wanted)}-{max(wanted)} players (the other "
            f"houses are the vassals), not {rules.players}"
        )
    if "kings_court_swap" in rules.variants:
        raise ValueError("kings_court_swap changes the 5-player track; a vassal game has its own")


__all__ = [
    "ADWD_HOUSE_CARDS",
    "CLASH_OF_KINGS_VARIANTS",
    "EIGHT_HOUSES",
    "EIGHT_HOUSE_VASSAL_PLAYERS",
    "EXPANSIONS",
    "EXPANSION_PLAYERS",
    "EXPANSION_PLAYER_COUNTS",
    "EYRIE_PORT",
    "GIFT_POWER",
    "IRON_BANK",
    "SEA_ORDERS",
    "VARIANTS",
    "VASSALS",
    "VASSAL_BOARD_HOUSES",
    "VASSAL_PLAYER_COUNTS",
    "Rules",
    "expansion_board",
    "expansion_name",
    "iron_bank_default",
    "variant_flags",
]
