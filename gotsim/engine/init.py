"""Starting records: a batch of games at the start of round 1, from the setup and seeds.

``new_games(n, edition, players, variants, seeds)`` returns ``n`` records of ``STATE_DTYPE``;
game ``i`` draws only from the streams seeded by ``seeds[i]`` (a ``SeedSequence``), so a game is
the same whatever batch it is made in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from gotsim.engine.iron_bank import slide_slots
from gotsim.engine.objectives import deal_objectives
from gotsim.engine.rng import range_streams, seed_streams_batch, shuffle
from gotsim.engine.state import N_LOANS, NATURE, OBJ_DECK, STATE_DTYPE, Decision, Phase
from gotsim.engine.tables import rules_table
from gotsim.jit import njit
from gotsim.rules.board import Board, load_board
from gotsim.rules.ids import Unit
from gotsim.rules.iron_bank import STARTING_POWER_TOKENS
from gotsim.rules.setup import Setup, load_setup
from gotsim.rules.units import unit_facts
from gotsim.rules.variants import iron_bank_default


def place_neutral_forces(
    g: NDArray[np.void],
    board: Board,
    edition: str,
    forces: Mapping[str, int],
    armies: Mapping[str, Mapping[Unit, int]],
) -> None:
    """Put the neutral force tokens (``forces``: area → strength) on a record, and the armies
    that stand as neutral forces (1st edition, 3/4 players: an absent house's units stay as a
    neutral force of their strength, by the edition's unit strengths, rules.md D8)."""
    for area, strength in forces.items():
        g["neutral"][board.index(area)] = strength
    for area, counts in armies.items():
        g["neutral"][board.index(area)] = unit_facts(edition).army_strength(counts)


def _vassal_variants(setup: Setup) -> dict[str, bool] | None:
    """The variants of a vassal setup's rule table (the 8-house board: ``eight_houses``)."""
    if not setup.vassals:
        return None
    return {"vassals": True, **({"eight_houses": True} if setup.board == "mod8" else {})}


def _starting_record(setup: Setup) -> NDArray[np.void]:
    """The round-1 record of a setup, before any shuffling (decks in data order)."""
    board = load_board(setup.edition, board=setup.board)
    rules = rules_table(
        setup.edition,
        setup.players - len(setup.vassals),
        _vassal_variants(setup),
        expansion=setup.expansion,
    )[0]
    g = np.zeros((), STATE_DTYPE)
    g["game_round"] = 1
    g["phase"] = Phase.PLANNING
    g["winner"] = -1
    g["pending"] = Decision.NONE
    g["pending_house"] = -1
    g["owner"][:] = -1
    g["order"][:] = -1
    g["power_token"][:] = -1
    g["combat_area"] = -1
    g["combat_from"] = -1
    g["one_time"][:] = -1
    g["lions_cunning"] = -1
    g["track"][:] = -1
    g["commander"][:] = -1
    for t, track in enumerate(("iron_throne", "fiefdoms", "kings_court")):
        for pos, house in enumerate(setup.tracks[track]):
            g["track"][t, pos] = house
    for house in setup.houses:
        g["in_play"][house] = 1
        g["power"][house] = setup.power[house]
        g["supply"][house] = setup.supply[house]
        g["hand"][house] = 0x7F
        for area, counts in setup.units[house].items():
            a = board.index(area)
            g["owner"][a] = house
            for unit, n in counts.items():
                g["units"][a, unit] = n
    for area, house in setup.power_tokens.items():
        g["power_token"][board.index(area)] = house
    for area, (_house, strength) in setup.garrisons.items():
        g["garrison"][board.index(area)] = strength
    place_neutral_forces(g, board, setup.edition, setup.neutral_forces, setup.neutral_armies)
    for area in setup.impassable:
        g["blocked"][board.index(area)] = 1
    g["westeros"][:] = rules["westeros_start"]
    g["westeros_drawn"][:] = -1
    g["wildlings"][:] = np.arange(9)
    g["threat"] = setup.wildling_threat
    g["objective_at"][:] = OBJ_DECK
    for area, count in setup.loyalty.items():  # Mother of Dragons at 8 players
        g["loyalty"][board.index(area)] = count
        g["loyalty_placed"] += count
    g["deck4_drawn"] = -1
    g["loan_deck"][:] = -1
    g["loan_slot"][:] = -1
    return g


def new_games(
    seeds: Sequence[np.random.SeedSequence],
    *,
    edition: str = "2e",
    players: int = 6,
    kings_court_swap: bool = False,
    expansion: str | None = None,
    vassals: bool = False,
    eight_houses: bool = False,
    iron_bank: bool | None = None,
) -> np.recarray:
    """A batch of round-1 records, one per seed, with shuffled Westeros and wildling decks
    (``expansion``: the start of a 2nd-edition expansion, ``rules.variants.EXPANSIONS``;
    ``vassals``: ``players`` player houses, the board's other houses vassals; ``eight_houses``:
    with ``vassals``, Mother of Dragons' 8-house board; ``iron_bank``: Mother of Dragons' Iron
    Bank, its loan deck shuffled and 7 power tokens in hand, IB1; by default as ``Rules`` has
    it, ``iron_bank_default``: on at 8 players)."""
    return _games_from(
        seed_streams_batch(seeds),
        edition,
        players,
        kings_court_swap,
        expansion,
        vassals,
        eight_houses,
        iron_bank,
    )


def new_games_range(
    seed: int,
    first: int,
    n: int,
    *,
    edition: str = "2e",
    players: int = 6,
    kings_court_swap: bool = False,
    expansion: str | None = None,
    vassals: bool = False,
    eight_houses: bool = False,
    iron_bank: bool | None = None,
) -> np.recarray:
    """``new_games`` for games ``first … first + n - 1`` seeded as ``simulate`` seeds them,
    ``SeedSequence(seed, spawn_key=(i,))``, without making the sequences."""
    return _games_from(
        range_streams(seed, first, n),
        edition,
        players,
        kings_court_swap,
        expansion,
        vassals,
        eight_houses,
        iron_bank,
    )


def _games_from(
    streams: NDArray[np.uint64],
    edition: str,
    players: int,
    kings_court_swap: bool,
    expansion: str | None,
    vassals: bool = False,
    eight_houses: bool = False,
    iron_bank: bool | None = None,
) -> np.recarray:
    setup = load_setup(
        edition,
        players,
        kings_court_swap=kings_court_swap,
        expansion=expansion,
        vassals=vassals,
        eight_houses=eight_houses,
    )
    start = _starting_record(setup)
    games = np.empty(len(streams), STATE_DTYPE).view(np.recarray)
    games[:] = start
    games["rng"] = streams
    _shuffle_decks(games)
    if setup.loyalty_to_win:  # Mother of Dragons at 8 players: Westeros deck IV
        _shuffle_deck4(games)
    if setup.victory_points:  # A Feast for Crows: the objective cards are dealt
        _deal(games, rules_table(edition, players, expansion=setup.expansion))
    if iron_bank is None:  # (the rules' default: on in 8-player Mother of Dragons games)
        iron_bank = iron_bank_default(setup.expansion, players, vassals and eight_houses)
    if iron_bank:  # Mother of Dragons' Iron Bank: after every other shuffle (IB1, IB2)
        for house in setup.houses:
            if house not in setup.vassals:
                games["power"][:, house] = STARTING_POWER_TOKENS
        _shuffle_loans(games)
    return games


@njit
def _shuffle_loans(games) -> None:
    """The Iron Bank's loan deck, shuffled after every other deck (nature stream), and round
    1's slide: its top card in the first slot (IB2)."""
    for i in range(games.shape[0]):
        g = games[i]
        for k in range(N_LOANS):
            g.loan_deck[k] = k
        shuffle(g.rng, NATURE, g.loan_deck, N_LOANS)
        g.loan_deck_n = N_LOANS
        slide_slots(g)


@njit
def _deal(games, rules) -> None:
    t = rules[0]
    for i in range(games.shape[0]):
        deal_objectives(games[i], t)


@njit
def _shuffle_deck4(games) -> None:
    """Mother of Dragons at 8 players: Westeros deck IV's ten cards, shuffled after the other
    decks (nature stream)."""
    for i in range(games.shape[0]):
        g = games[i]
        for k in range(10):
            g.deck4[k] = k
        shuffle(g.rng, NATURE, g.deck4, 10)


@njit
def _shuffle_decks(games) -> None:
    """Shuffle every game's three Westeros decks and the wildling deck (nature stream)."""
    for i in range(games.shape[0]):
        g = games[i]
        for d in range(3):
            shuffle(g.rng, NATURE, g.westeros[d], 10)
        shuffle(g.rng, NATURE, g.wildlings, 9)
