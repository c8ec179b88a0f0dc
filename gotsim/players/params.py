"""Policy specs: the named heuristic parameters, their defaults and ranges, and validation.

A house's policy is ``"random"``, ``"heuristic"`` or a mapping such as
``{"kind": "heuristic", "aggression": 0.8}``. ``policy_params`` turns one spec into the float
array the compiled heuristic reads (``PARAM_NAMES`` order); ``policy_table`` turns the
``policies`` argument of ``simulate`` into one policy kind and one parameter row per house.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from gotsim.rules.ids import House
from gotsim.rules.variants import EXPANSIONS

RANDOM, HEURISTIC, SEARCH = 0, 1, 2
# policy names and the compiled kind each plays; ``heuristic_v1`` is the first heuristic, kept
# playable (its parameter set, ``V1_DEFAULTS``, with every later addition switched off) so that
# results made with it can be reproduced and compared
KINDS = {"random": RANDOM, "heuristic": HEURISTIC, "heuristic_v1": HEURISTIC, "search": SEARCH}
# the search player's own settings in its spec (``gotsim.players.search``); its heuristic
# parameters are those of its rollouts' own house and of its candidates' base
SEARCH_KNOBS = {
    "rollouts": (1, 4096),
    "candidates": (1, 16),
    "horizon": (0, 10),
    "seed": (0, 2**31),
    "points": (0, 63),
}


@dataclass(frozen=True)
class Param:
    name: str
    default: float
    low: float
    high: float
    doc: str


PARAMS: tuple[Param, ...] = (
    Param(
        "aggression",
        0.6,
        0.0,
        1.0,
        "How readily the house attacks: the win chance it asks of a battle falls from about 75 % "
        "(0) to about 35 % (1), and conquests weigh more against staying put.",
    ),
    Param(
        "defence",
        0.5,
        0.0,
        1.0,
        "Weight of protecting threatened own areas: defence and support orders at home, units "
        "kept back, mustering where the danger is.",
    ),
    Param(
        "expansion",
        0.7,
        0.0,
        1.0,
        "Value of moving into empty areas (supply, crowns, castles, land count): an area taken "
        "is worth 0.3 + expansion times its worth (at 0.7 its full worth).",
    ),
    Param(
        "risk",
        0.5,
        0.0,
        1.0,
        "Risk tolerance: how little the house weighs what it may lose (units in a lost battle, "
        "areas left open behind a march).",
    ),
    Param(
        "bid_iron_throne",
        0.25,
        0.0,
        1.0,
        "Share of its power the house is willing to bid on the Iron Throne track.",
    ),
    Param(
        "bid_fiefdoms",
        0.2,
        0.0,
        1.0,
        "Share of its power the house is willing to bid on the Fiefdoms track.",
    ),
    Param(
        "bid_kings_court",
        0.35,
        0.0,
        1.0,
        "Share of its power the house is willing to bid on the King's Court track.",
    ),
    Param(
        "wildlings",
        1.0,
        0.0,
        3.0,
        "Wildling contribution: multiple of a fair share (attack strength / houses) the house "
        "bids against the wildlings; it covers more (up to 60 % of its power) when the others' "
        "public power cannot pay their shares.",
    ),
    Param(
        "card_thrift",
        0.5,
        0.0,
        1.0,
        "Card-play style: 0 plays the card with the best win chance; 1 saves strong cards, playing "
        "the weakest card that still wins often enough.",
    ),
    Param(
        "power",
        0.5,
        0.0,
        1.0,
        "Value of power tokens: consolidate power orders, power tokens left on areas.",
    ),
    Param(
        "noise",
        0.2,
        0.0,
        1.0,
        "Unpredictability: the worth of each order and of each area to move into is varied by up "
        "to this fraction (the house's own random stream), so openings differ between games; the "
        "second heuristic also varies each influence-track bid by up to 2.5 times it "
        "(westeros.BID_SPREAD); 0 plays the same position the same way every time.",
    ),
    Param(
        "version",
        2.0,
        1.0,
        2.0,
        "Which heuristic plays: 1 the first (``heuristic_v1``), 2 the second, which also spends "
        "star orders left over once every area has its order, guards its home areas against "
        "armies that ships can carry there (also after taking a sea next to them), raids where "
        "orders are likely raidable, takes back a raid with nothing to raid with the Raven, "
        "keeps its fleets still unless a move gains clearly more, leaves the house furthest "
        "behind alone while others lead, plays the last round for the ranking (its castles worth "
        "more in the round before it) and a castle short of victory for the win, holds its "
        "castles against another house one castle short, and in its endgame weighs its attacks "
        "against the defences its neighbours are predicted to make.",
    ),
    Param(
        "foresight",
        1.0,
        0.0,
        2.0,
        "Second heuristic: above 0.5, before it plans its orders it predicts the orders of the "
        "houses next to it (the plan the heuristic would make in their place with their own "
        "defaults, from the public board) and places its raids by that prediction; games then "
        "take about 14 % longer. Above 1.5, a cheap prediction instead, from simple facts "
        "of each area (reach of other houses, strength there; not yet measured for strength). "
        "Below 0.5, a neighbour's order counts as raidable by its strength alone.",
    ),
)

PARAM_NAMES: tuple[str, ...] = tuple(p.name for p in PARAMS)
N_PARAMS = len(PARAMS)
DEFAULTS: NDArray[np.float64] = np.array([p.default for p in PARAMS], np.float64)
DEFAULTS.setflags(write=False)
# the first heuristic's parameters (its defaults as they were when the second was begun)
V1_DEFAULTS: NDArray[np.float64] = np.array(
    [0.6, 0.5, 0.7, 0.5, 0.25, 0.2, 0.35, 1.0, 0.5, 0.5, 0.2, 1.0, 0.0], np.float64
)
V1_DEFAULTS.setflags(write=False)
# indices for the compiled code
(
    P_AGGRESSION,
    P_DEFENCE,
    P_EXPANSION,
    P_RISK,
    P_BID_IRON_THRONE,
    P_BID_FIEFDOMS,
    P_BID_KINGS_COURT,
    P_WILDLINGS,
    P_CARD_THRIFT,
    P_POWER,
    P_NOISE,
    P_VERSION,
    P_FORESIGHT,
) = range(N_PARAMS)


def _did_you_mean(word: str, known: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(word, known, n=1, cutoff=0.5)
    return f"; did you mean {close[0]!r}?" if close else ""


def policy_kind(spec: str | Mapping[str, Any]) -> int:
    """``RANDOM``, ``HEURISTIC`` or ``SEARCH`` for one house's spec (``ValueError`` for anything
    else)."""
    kind = spec if isinstance(spec, str) else spec.get("kind", "heuristic")
    if not isinstance(kind, str) or kind not in KINDS:
        raise ValueError(
            f"unknown policy kind {kind!r} (known: {', '.join(KINDS)})"
            + (_did_you_mean(kind, tuple(KINDS)) if isinstance(kind, str) else "")
        )
    return KINDS[kind]


def _house_rows(houses: Mapping[str, Any]) -> dict[int, NDArray[np.float64]]:
    """Parameter rows per house from a tuning result's ``houses`` (``DEFAULTS`` for the rest)."""
    rows: dict[int, NDArray[np.float64]] = {}
    for house_id, entry in houses.items():
        row = DEFAULTS.copy()
        for name, value in entry["params"].items():
            row[PARAM_NAMES.index(name)] = float(value)
        row.setflags(write=False)
        rows[int(House[house_id.upper()])] = row
    return rows


def _tuning_result(edition: str, name: str) -> dict[str, Any] | None:
    """A tuning result kept with the game's data (``gotsim/data/<edition>/<name>``), if any."""
    path = Path(__file__).resolve().parent.parent / "data" / edition / name
    return json.loads(path.read_text()) if path.exists() else None


def _tuned_defaults() -> dict[int, NDArray[np.float64]]:
    """The second heuristic's parameters per house, as ``tools/tune_heuristic.py`` found them
    (``gotsim/data/2e/heuristic_v2.json``, which says how); houses it does not name keep
    ``DEFAULTS``."""
    found = _tuning_result("2e", "heuristic_v2.json")
    return {} if found is None else _house_rows(found["houses"])


def _tuned_by_players(edition: str, name: str) -> dict[int, dict[int, NDArray[np.float64]]]:
    """Parameter sets per house tuned for one player count of ``edition``, by player count
    (``gotsim/data/<edition>/<name>``, which says how)."""
    found = _tuning_result(edition, name)
    if found is None:
        return {}
    return {int(n): _house_rows(entry["houses"]) for n, entry in found["players"].items()}


HOUSE_DEFAULTS = _tuned_defaults()
# sets tuned for one player count: the 1st edition's at 3-5 players, the 2nd edition's at 5 (its
# other player counts play the six-player sets above)
HOUSE_DEFAULTS_BY_PLAYERS = {
    "1e": _tuned_by_players("1e", "heuristic.json"),
    "2e": _tuned_by_players("2e", "heuristic_v2_by_players.json"),
}
# sets tuned for a 2nd-edition expansion's game, by expansion (A Feast for Crows' 4 players)
HOUSE_DEFAULTS_BY_EXPANSION = {
    expansion: _house_rows(found["houses"])
    for expansion, found in (("affc", _tuning_result("2e", "heuristic_v2_affc.json")),)
    if found is not None
}


def defaults_for(
    house: int | None, edition: str = "2e", players: int = 6, expansion: str | None = None
) -> NDArray[np.float64]:
    """The parameters of ``"heuristic"`` for ``house`` in a game of ``edition``, ``players``
    and ``expansion``: its set tuned for that expansion where there is one (A Feast for Crows),
    else for that edition and player count (the 1st edition at 3-5 players, the 2nd at 5), else
    its 2nd-edition six-player set, else ``DEFAULTS``."""
    if house is None:
        return DEFAULTS
    return _tuned_set(house, edition, players, expansion)[1]


def defaults_source(
    house: int, edition: str = "2e", players: int = 6, expansion: str | None = None
) -> str:
    """Where ``defaults_for``'s set comes from, in words (``"tuned for 1e at 5 players"``)."""
    return _tuned_set(house, edition, players, expansion)[0]


def _tuned_set(
    house: int, edition: str, players: int, expansion: str | None
) -> tuple[str, NDArray[np.float64]]:
    for source, tuned in (
        (f"tuned for {expansion}", HOUSE_DEFAULTS_BY_EXPANSION.get(expansion or "", {})),
        (
            f"tuned for {edition} at {players} players",
            HOUSE_DEFAULTS_BY_PLAYERS.get(edition, {}).get(players, {}),
        ),
        ("tuned for 2e at 6 players", HOUSE_DEFAULTS),
    ):
        if int(house) in tuned:
            return source, tuned[int(house)]
    return "hand-set (DEFAULTS)", DEFAULTS


def _guess_tables() -> NDArray[np.float64]:
    """Every house's ``defaults_for`` row by edition (1e, 2e), player count (0-8) and expansion
    (0 the base game, k the k-th of ``EXPANSIONS``, as the rules table's ``expansion``), read
    only: the parameters the second heuristic predicts another house's orders with in such a
    game (``view.init_memo`` copies a game's rows into its memo)."""
    expansions = (None, *EXPANSIONS)
    out = np.array(
        [
            [
                [[defaults_for(h, edition, n, e) for h in range(len(House))] for e in expansions]
                for n in range(9)
            ]
            for edition in ("1e", "2e")
        ],
        np.float64,
    )
    out.setflags(write=False)
    return out


GUESS = _guess_tables()


def policy_params(
    spec: str | Mapping[str, Any] | None = None,
    house: int | None = None,
    edition: str = "2e",
    players: int = 6,
    expansion: str | None = None,
) -> NDArray[np.float64]:
    """The heuristic parameter array (``PARAM_NAMES`` order) of one house's policy spec.

    ``spec`` is a policy name or a mapping with an optional ``kind`` (default ``"heuristic"``)
    and any of the named parameters; missing parameters take their defaults: ``house``'s tuned
    set in a game of ``edition``, ``players`` and ``expansion`` for ``"heuristic"`` and ``"search"``
    (``defaults_for``), the frozen first set for
    ``"heuristic_v1"``. Unknown names, non-numbers and values outside a parameter's range raise
    ``ValueError``.

    >>> policy_params({"kind": "heuristic", "aggression": 0.8})[PARAM_NAMES.index("aggression")]
    np.float64(0.8)
    >>> policy_params({"agression": 0.8})
    Traceback (most recent call last):
    ...
    ValueError: unknown heuristic parameter 'agression'; did you mean 'aggression'?
    """
    name = "heuristic" if spec is None else spec if isinstance(spec, str) else None
    if isinstance(spec, Mapping):
        name = spec.get("kind", "heuristic")
    tuned = defaults_for(house, edition, players, expansion)
    out = (V1_DEFAULTS if name == "heuristic_v1" else tuned).copy()
    if spec is None or isinstance(spec, str):
        if spec is not None:
            policy_kind(spec)
        return out
    if not isinstance(spec, Mapping):
        raise ValueError(f"policy spec must be a name or a mapping, got {spec!r}")
    search = policy_kind(spec) == SEARCH
    by_name = {p.name: i for i, p in enumerate(PARAMS)}
    for key, value in spec.items():
        if key == "kind" or (search and key in SEARCH_KNOBS):
            continue
        if key not in by_name:
            raise ValueError(
                f"unknown heuristic parameter {key!r}" + _did_you_mean(str(key), PARAM_NAMES)
            )
        p = PARAMS[by_name[key]]
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"heuristic parameter {key!r} must be a number, got {value!r}")
        if not p.low <= float(value) <= p.high:
            raise ValueError(
                f"heuristic parameter {key!r} = {value} outside its range [{p.low}, {p.high}]"
            )
        out[by_name[key]] = float(value)
    return out


def policy_table(
    policies: str | Mapping[str, Any],
    edition: str = "2e",
    players: int = 6,
    expansion: str | None = None,
) -> tuple[NDArray[np.int8], NDArray[np.float64]]:
    """Per-house policy kinds (H,) and parameter rows (H, N_PARAMS) of a ``policies`` argument.

    ``policies`` is one spec for every house (``"random"``, ``"heuristic"``, or a mapping with a
    ``kind``), or a mapping from house id to spec; the key ``"default"`` there sets the houses
    not named (otherwise ``"random"``).
    """
    kinds = np.zeros(len(House), np.int8)
    params = np.tile(DEFAULTS, (len(House), 1))
    if isinstance(policies, str) or (isinstance(policies, Mapping) and "kind" in policies):
        per_house: dict[str, Any] = {"default": policies}
    elif isinstance(policies, Mapping):
        per_house = dict(policies)
    else:
        raise ValueError(f"policies: expected a policy name or a mapping, got {policies!r}")
    default = per_house.pop("default", "random")
    for house in House:
        spec = per_house.get(house.id, default)
        kinds[house] = policy_kind(spec)
        params[house] = policy_params(spec, house, edition, players, expansion)
    for key in per_house:
        if key not in {h.id for h in House}:
            raise ValueError(
                f"policies: unknown house {key!r}"
                + _did_you_mean(str(key), tuple(h.id for h in House))
            )
    return kinds, params


__all__ = [
    "DEFAULTS",
    "GUESS",
    "HEURISTIC",
    "HOUSE_DEFAULTS",
    "HOUSE_DEFAULTS_BY_EXPANSION",
    "HOUSE_DEFAULTS_BY_PLAYERS",
    "N_PARAMS",
    "PARAMS",
    "PARAM_NAMES",
    "P_FORESIGHT",
    "P_NOISE",
    "P_VERSION",
    "RANDOM",
    "SEARCH",
    "SEARCH_KNOBS",
    "V1_DEFAULTS",
    "defaults_for",
    "defaults_source",
    "policy_kind",
    "policy_params",
    "policy_table",
]
