"""``gotsim.simulate``: many complete games with the compiled engine, one DataFrame row per game.

Game ``i`` is seeded by ``SeedSequence(seed, spawn_key=(i,))``, so a game's result depends only on
``seed`` and ``i`` — never on ``n_jobs`` or on which other games share its batch.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from gotsim.engine.convert import (
    PositionSource,
    position_records,
    position_rules,
    resumable_position,
)
from gotsim.engine.init import new_games_range
from gotsim.engine.state import (
    H_ATTACK_CARD,
    H_ATTACK_RESULT,
    H_ATTACKS,
    H_LEADERS,
    H_RAVEN_CARD,
    H_RAVEN_HOLDER,
    H_RAVEN_USE,
    H_THREAT,
    H_WESTEROS,
    H_WINTER,
    OBJ_SCORED,
    STATE_DTYPE,
    EndReason,
    Phase,
    RavenUse,
)
from gotsim.engine.tables import WesterosCard, WildlingCard, expansion_of, rules_table
from gotsim.inputs import InputError, seed_value, whole_number
from gotsim.play.runner import castle_table, play_policies, play_random, threads
from gotsim.rules.ids import BASE_HOUSES, HOUSE_IDS, House
from gotsim.rules.setup import SetupDataError, load_setup
from gotsim.rules.variants import Rules

MAX_DECISIONS = 1_000_000
MAX_GAMES = 10**8  # games in one call (each holds a record of a few kilobytes)
MAX_JOBS = 4096
BATCH = 1024


class EngineIncompleteError(RuntimeError):
    """A game stopped in a phase the engine cannot play yet."""


def _policies(
    policies: str | Mapping[str, Any],
    edition: str = "2e",
    players: int = 6,
    expansion: str | None = None,
) -> tuple[np.ndarray, np.ndarray] | None:
    """Per-house policy kinds and heuristic parameters (``gotsim.players.params``; a heuristic
    house's defaults are its tuned set for ``edition``, ``players`` and ``expansion``), or None
    when every house plays at random (the original ``play_random`` path)."""
    from gotsim.players.params import RANDOM, policy_table

    if not isinstance(policies, str | Mapping):
        raise ValueError(f"policies: expected 'random' or a mapping, got {policies!r}")
    kinds, params = policy_table(policies, edition, players, expansion)
    if (kinds == RANDOM).all():
        return None
    return kinds, params


def _searches(policies: str | Mapping[str, Any]) -> dict[int, Any]:
    """The search settings of the houses that play the search player (none: empty)."""
    from gotsim.players.search import settings_table

    return settings_table(policies)


def _kernel_group(policies: str | Mapping[str, Any]) -> str:
    """The ``gotsim.jit.KERNEL_GROUPS`` key of the loop that plays ``policies``: the search
    player's when a house searches, else the batch loop's."""
    if _searches(policies):
        return "search"
    return "random" if _policies(policies) is None else "heuristic"


def will_compile(policies: str | Mapping[str, Any] = "random") -> bool:
    """Whether playing games with ``policies`` in this process compiles kernels first."""
    from gotsim.jit import group_will_compile

    return group_will_compile(_kernel_group(policies))


def announce_compile(policies: str | Mapping[str, Any] = "random") -> bool:
    """Say once on stderr that the kernels for ``policies`` are about to compile
    (``gotsim.jit.announce_compile``); returns whether they will."""
    from gotsim.jit import announce_compile as announce

    return announce(_kernel_group(policies))


def play_games(
    n_games: int,
    *,
    players: int = 6,
    edition: str = "2e",
    variants: Mapping[str, bool] | None = None,
    seed: int = 0,
    first_game: int = 0,
    n_jobs: int = 1,
    policies: str | Mapping[str, Any] = "random",
    expansion: str | None = None,
) -> np.recarray:
    """Finished game records ``first_game … first_game + n_games - 1``, each house playing its
    policy (``policies`` as in ``simulate``; all random by default)."""
    chosen = Rules.of(edition, players, variants, expansion)
    table = _policies(policies, edition, players, chosen.expansion)
    searches = _searches(policies)
    if n_games > 0:
        announce_compile(policies)
    rules = rules_table(chosen)
    out = new_games_range(
        seed,
        first_game,
        max(n_games, 0),
        edition=edition,
        players=players,
        kings_court_swap=chosen.on("kings_court_swap"),
        expansion=chosen.expansion,
        vassals=chosen.on("vassals"),
        eight_houses=chosen.on("eight_houses"),
        iron_bank=chosen.on("iron_bank"),
    )
    memos = None  # the heuristic's memos, one per thread, made fresh before every game
    with threads(n_jobs) as cores:
        for start in range(first_game, first_game + n_games, BATCH):
            stop = min(start + BATCH, first_game + n_games)
            games = out[start - first_game : stop - first_game].view(np.recarray)  # in place
            if table is not None and memos is None:
                from gotsim.players.memo import new_memos

                memos = new_memos(cores)
            _play_table(games, rules, table, memos, searches)
            stuck = np.flatnonzero(games.done == 0)
            if stuck.size:
                phase = Phase(int(games.phase[stuck[0]])).name.lower()
                raise EngineIncompleteError(
                    f"game {start + stuck[0]} stopped in the {phase} phase, which the engine "
                    "cannot play yet"
                )
    return out


def play_batch(
    games: np.recarray, rules: np.recarray, policies: str | Mapping[str, Any] = "random"
) -> None:
    """Play a batch of records to the end in place, each house by its policy (``policies`` as
    in ``simulate``), on the threads numba is set to use (the heuristic with one memo per
    thread, as in ``play_games``: the same compiled batch loop)."""
    edition = f"{int(rules[0].edition)}e"  # (the rules table holds 1 or 2)
    table = _policies(policies, edition, int(rules[0].players), expansion_of(rules[0]))
    if len(games):
        announce_compile(policies)
    _play_table(games, rules, table, None, _searches(policies))


def _play_table(
    games: np.recarray,
    rules: np.recarray,
    table: tuple[np.ndarray, np.ndarray] | None,
    memos: np.ndarray | None = None,
    searches: Mapping[int, Any] | None = None,
) -> None:
    """Play ``games`` to the end; ``memos`` (one per thread of numba's pool) is work space for
    the heuristic, made fresh here; ``searches``: the ``SearchSettings`` of each house playing
    the search player (``gotsim.players.search``)."""
    if table is None:
        play_random(games, rules, MAX_DECISIONS)
        return
    from gotsim.players.params import SEARCH

    kinds, params = table
    if (kinds == SEARCH).any():  # the searching houses from Python, the rest compiled
        from gotsim.players.search import play_with_search

        play_with_search(games, rules, kinds, params, searches or {})
        return
    n = len(games)
    # fresh, writable, C-ordered copies: a read-only array (which ascontiguousarray returns for
    # a batch of one game) or another layout is a type of its own in numba, for which the whole
    # batch loop would be compiled again
    kinds_n = np.array(np.broadcast_to(kinds, (n, *kinds.shape)), order="C")
    params_n = np.array(np.broadcast_to(params, (n, *params.shape)), order="C")
    play_policies(games, rules, kinds_n, params_n, memos, MAX_DECISIONS)


def end_reason_names(max_rounds: int = 10) -> dict[EndReason, str]:
    """The ``end_reason`` words: ``castles``, ``objectives`` (A Feast for Crows: 7 victory
    points), and ``round<N>`` for a game decided by the ranking after its last round
    (``round10``; ``round6`` in A Dance with Dragons)."""
    return {
        EndReason.CASTLES: "castles",
        EndReason.OBJECTIVES: "objectives",
        EndReason.ROUND10: f"round{max_rounds}",
        EndReason.LOYALTY: "loyalty",  # Mother of Dragons: Targaryen's 7 loyalty tokens
    }


def games_frame(
    games: np.recarray,
    *,
    players: int,
    edition: str = "2e",
    seed: int = 0,
    first_game: int = 0,
    expansion: str | None = None,
    variants: Mapping[str, bool] | None = None,
) -> pd.DataFrame:
    """One row per finished game record (the ``simulate`` columns; with the ``vassals``
    variant also ``vassal_houses``, the vassals, comma-separated: never a winner)."""
    n_games = len(games)
    vassal_game = bool((variants or {}).get("vassals"))
    eight = vassal_game and bool((variants or {}).get("eight_houses"))
    rules = rules_table(
        edition,
        players,
        ({"vassals": True, "eight_houses": True} if eight else {"vassals": True})
        if vassal_game
        else None,
        expansion=expansion,
    )
    # no record to ask: the columns of the base game's six houses
    in_play = [h for h in House if games.in_play[0, h]] if n_games else list(BASE_HOUSES)
    reasons = end_reason_names(int(rules[0].max_rounds))
    index = np.arange(first_game, first_game + n_games)
    frame: dict[str, Any] = {
        "game": index,
        "seed_key": [f"{seed}:{i}" for i in index],
        "players": players,
        "edition": edition,
        "winner": [House(int(w)).id if w >= 0 else None for w in games.winner],
        "end_round": games.game_round.astype(int),
        "end_reason": [reasons.get(EndReason(int(r)), "none") for r in games.end_reason],
    }
    castles = castle_table(games, rules) if n_games else np.zeros((0, len(House)), int)
    for house in in_play:
        frame[f"castles_{house.id}"] = castles[:, house]
        frame[f"power_{house.id}"] = games.power[:, house].astype(int)
        frame[f"supply_{house.id}"] = games.supply[:, house].astype(int)
        frame[f"battles_{house.id}"] = games.battles[:, house].astype(int)
        if rules[0].loyalty_to_win and house == House.TARGARYEN:  # Mother of Dragons
            frame["loyalty_targaryen"] = games.loyalty_taken.astype(int)
        if rules[0].victory_points:  # A Feast for Crows: victory points, objectives scored
            frame[f"vp_{house.id}"] = games.vp[:, house].astype(int)
            frame[f"objectives_{house.id}"] = (games.objective_at == OBJ_SCORED + house).sum(1)
    frame["battles"] = games.battles.sum(axis=1) // 2
    if vassal_game:
        frame["vassal_houses"] = ",".join(h.id for h in House if rules[0].vassal[h])
    return pd.DataFrame(frame)


WESTEROS_IDS = tuple(card.name.lower() for card in WesterosCard)
WILDLING_IDS = tuple(card.name.lower() for card in WildlingCard)
ATTACK_RESULTS = (None, "nights_watch", "wildlings")
RAVEN_USES = (None, "nothing", "replace_order", "look_keep", "look_bury")  # by RavenUse


def _names(ids: tuple[str | None, ...], codes: np.ndarray) -> np.ndarray:
    """Codes as names from ``ids``; -1 (nothing) as None."""
    table = np.array([*ids, None], dtype=object)
    return table[np.where(codes >= 0, codes, len(ids))]


def rounds_frame(games: np.recarray, *, first_game: int = 0) -> pd.DataFrame:
    """One row per game and round played (every column is described in ``docs/scenarios.md``).

    ``game, round``; ``westeros_1 … westeros_3``: the Westeros card resolved from deck I–III
    (the replacement when Winter Is Coming was drawn; None in round 1) and ``winter_1 …
    winter_3``: times Winter Is Coming was drawn from that deck; ``wildling_threat`` at the
    round's end, ``wildling_attacks``, the last attack's ``wildling_result``
    (``nights_watch``/``wildlings``) and the ``wildling_card`` it revealed; the leaders of
    ``iron_throne, fiefdoms, kings_court`` at the round's end; ``raven_holder`` (who used the
    Messenger Raven), ``raven_use`` (``nothing``, ``replace_order``, ``look_keep``,
    ``look_bury``; None where the record did not see it) and ``raven_card`` (the wildling card
    it looked at). Per house in play: ``castles_<house>`` held at the round's end,
    ``castles_lost_<house>`` (held at the previous round's end, or the game's start, and not at
    this round's end), ``castles_lost_in_battle_<house>`` (taken from it in battles this
    round), ``stars_<house>`` (star orders on the board once the raven has acted); per ordered
    pair of houses in play ``attacks_<attacker>_on_<defender>``: battles fought this round.
    """
    played = np.arange(10)[None, :] < games.game_round[:, None]
    gi, ri = np.nonzero(played)  # game-major, like the rows of the game records
    line = games.history[gi, ri].astype(np.int64)
    frame: dict[str, Any] = {"game": first_game + gi, "round": ri + 1}
    for d in range(3):
        frame[f"westeros_{d + 1}"] = _names(WESTEROS_IDS, line[:, H_WESTEROS + d])
    for d in range(3):
        frame[f"winter_{d + 1}"] = line[:, H_WINTER + d]
    frame["wildling_threat"] = line[:, H_THREAT]
    frame["wildling_attacks"] = line[:, H_ATTACKS]
    frame["wildling_result"] = np.array(ATTACK_RESULTS, dtype=object)[line[:, H_ATTACK_RESULT]]
    attacked = line[:, H_ATTACKS] > 0
    frame["wildling_card"] = _names(WILDLING_IDS, np.where(attacked, line[:, H_ATTACK_CARD], -1))
    house_ids = tuple(h.id for h in House)
    for k, track in enumerate(("iron_throne", "fiefdoms", "kings_court")):
        frame[track] = _names(house_ids, line[:, H_LEADERS + k])
    use = line[:, H_RAVEN_USE]
    seen = use != RavenUse.UNSEEN
    looked = (use == RavenUse.KEPT_WILDLING_CARD) | (use == RavenUse.BURIED_WILDLING_CARD)
    frame["raven_holder"] = _names(house_ids, np.where(seen, line[:, H_RAVEN_HOLDER], -1))
    frame["raven_use"] = np.array(RAVEN_USES, dtype=object)[use]
    frame["raven_card"] = _names(WILDLING_IDS, np.where(looked, line[:, H_RAVEN_CARD], -1))
    in_play = [h for h in House if len(games) and games.in_play[0, h]]
    per_house = {
        "castles": games.history_castles,
        "castles_lost": games.history_castles_lost,
        "castles_lost_in_battle": games.history_castles_lost_in_battle,
        "stars": games.history_stars,
    }
    for name, table in per_house.items():
        for house in in_play:
            frame[f"{name}_{house.id}"] = table[gi, ri, house].astype(np.int64)
    battles = games.history_battles[gi, ri].astype(np.int64)
    for attacker in in_play:
        for defender in in_play:
            if attacker != defender:
                column = f"attacks_{attacker.id}_on_{defender.id}"
                frame[column] = battles[:, attacker, defender]
    return pd.DataFrame(frame)


def _check_policies(
    policies: Any,
    edition: str,
    players: int,
    expansion: str | None = None,
    vassals: bool = False,
    eight_houses: bool = False,
) -> None:
    """A policy for a house that is not playing is a mistake, not something to ignore (a
    vassal is played by its commander's policy, ``docs/rules.md`` V2)."""
    if not isinstance(policies, Mapping) or "kind" in policies:
        return
    try:
        setup = load_setup(
            edition, players, expansion=expansion, vassals=vassals, eight_houses=eight_houses
        )
    except (SetupDataError, ValueError, KeyError):
        return  # the engine names the bad edition or player count
    playing = [h.id for h in setup.houses if h not in setup.vassals]
    for house in policies:
        if house == "default":
            continue
        if house in (h.id for h in setup.vassals):
            raise InputError(
                f"policies.{house}: {house} is a vassal with {players} players; its commander's "
                f"policy plays it (player houses: {', '.join(playing)})"
            )
        if house in HOUSE_IDS and house not in playing:  # (the engine names unknown ones)
            raise InputError(
                f"policies.{house}: {house} is not playing with {players} players "
                f"(houses: {', '.join(playing)})"
            )


def simulate(
    n_games: int,
    *,
    players: int = 6,
    edition: str = "2e",
    expansion: str | None = None,
    variants: Mapping[str, bool] | None = None,
    policies: str | Mapping[str, Any] = "random",
    seed: int = 0,
    n_jobs: int = 1,
) -> pd.DataFrame:
    """Play ``n_games`` complete games; one row per game.

    ``policies``: ``"random"`` (default), ``"heuristic"``, ``"search"``, one spec mapping for
    every house (``{"kind": "heuristic", "aggression": 0.8}``, ``{"kind": "search",
    "rollouts": 32}``), or a mapping from house id to spec, where the key ``"default"`` sets the
    houses not named (otherwise random). Parameters: ``gotsim.players.params``,
    ``gotsim.players.search`` and ``docs/players.md``. The search player is slow (seconds a
    game); give it a few houses of a small sample.

    Columns: ``game, seed_key, players, edition, winner, end_round, end_reason`` (``castles`` or
    ``round10``; ``round6`` in A Dance with Dragons), per house in play ``castles_<house>,
    power_<house>, supply_<house>, battles_<house>``, and ``battles`` (battles fought in the
    game).

    ``expansion``: ``None`` (the base game) or ``"adwd"`` (A Dance with Dragons: 6 players, its
    own start and 6 rounds, the houses playing its house cards unless ``variants`` says
    ``{"adwd_house_cards": False}``); ``docs/rules.md``.
    """
    # the command's checks, with its one-line messages (InputError, a ValueError), before anything
    # is allocated
    n_games = whole_number(n_games, "n_games", 0, MAX_GAMES)
    players = whole_number(players, "players", 1, 99)
    seed = seed_value(seed)
    n_jobs = whole_number(n_jobs, "n_jobs", 1, MAX_JOBS)
    if not isinstance(edition, str):
        raise InputError(f"edition: expected '1e' or '2e', got {edition!r}")
    try:
        expansion = Rules.of(edition, players, variants, expansion).expansion
    except NotImplementedError:
        pass  # the engine names the edition
    except ValueError as error:
        raise InputError(str(error)) from None
    given = variants or {}
    _check_policies(
        policies,
        edition,
        players,
        expansion,
        bool(given.get("vassals")),
        bool(given.get("vassals")) and bool(given.get("eight_houses")),
    )
    _policies(policies)  # bad specs fail before any game is played
    games = play_games(
        n_games,
        players=players,
        edition=edition,
        variants=variants,
        seed=seed,
        n_jobs=n_jobs,
        policies=policies,
        expansion=expansion,
    )
    return games_frame(
        games,
        players=players,
        edition=edition,
        seed=seed,
        expansion=expansion,
        variants=variants,
    )


# --- simulation from a position ----------------------------------------------------------------


def play_from_position(
    position: PositionSource, n_games: int, seed: int = 0, *, n_jobs: int = 1
) -> np.recarray:
    """Finished records of ``n_games`` random games from the position; game ``i`` is seeded by
    ``SeedSequence(seed, spawn_key=(i,))`` (decks and every house's choices), so it depends only
    on ``seed`` and ``i``."""
    if isinstance(n_games, bool) or not isinstance(n_games, int) or n_games < 0:
        raise ValueError(f"n_games must be a whole number ≥ 0, got {n_games!r}")
    p = resumable_position(position)
    rules = position_rules(p)
    out = []
    with threads(n_jobs):
        for start in range(0, n_games, BATCH):
            stop = min(start + BATCH, n_games)
            seeds = [np.random.SeedSequence(seed, spawn_key=(i,)) for i in range(start, stop)]
            games = position_records(p, seeds)
            play_random(games, rules, MAX_DECISIONS)
            stuck = np.flatnonzero(games.done == 0)
            if stuck.size:
                phase = Phase(int(games.phase[stuck[0]])).name.lower()
                raise EngineIncompleteError(
                    f"game {start + stuck[0]} stopped in the {phase} phase without finishing"
                )
            out.append(games)
    if not out:
        return np.empty(0, STATE_DTYPE).view(np.recarray)
    return np.concatenate(out).view(np.recarray)


def simulate_from_position(
    position: PositionSource, n_games: int, seed: int = 0, *, n_jobs: int = 1
) -> pd.DataFrame:
    """From this board, who wins? Play ``n_games`` random games from the position (compiled
    runner) and return one row per game with the columns of ``gotsim.simulate``: ``game,
    seed_key, players, edition, winner, end_round, end_reason``, per house in play
    ``castles_<house>, power_<house>, supply_<house>, battles_<house>`` (battles counted from
    the position on), and ``battles``.

    From the starting position this is ``gotsim.simulate`` itself: same seeds, same games.
    """
    p = resumable_position(position)
    games = play_from_position(p, n_games, seed, n_jobs=n_jobs)
    return games_frame(
        games, players=p.players, edition=p.edition, seed=seed, expansion=p.expansion
    )
