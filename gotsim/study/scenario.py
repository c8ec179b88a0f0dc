"""Study scenarios: a TOML file (or a dict) validated into a grid of cells, each cell one complete
set of game parameters, with the seed, games per cell and block size that fix every game.

Every key is documented in ``docs/scenarios.md``. Bad input raises ``ScenarioError`` whose
message is one line naming the file, the key and the reason.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import math
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NoReturn

from gotsim.data import EDITIONS, load_data
from gotsim.inputs import InputError, did_you_mean, parse_toml, read_json_file, read_text_file
from gotsim.players.params import PARAM_NAMES, PARAMS, SEARCH_KNOBS
from gotsim.players.search import search_settings
from gotsim.rules.ids import HOUSE_IDS, House
from gotsim.rules.setup import load_setup
from gotsim.rules.variants import (
    ADWD_HOUSE_CARDS,
    CLASH_OF_KINGS_VARIANTS,
    EIGHT_HOUSES,
    EXPANSION_PLAYERS,
    EYRIE_PORT,
    GIFT_POWER,
    IRON_BANK,
    SEA_ORDERS,
    VASSALS,
    Rules,
    expansion_name,
    iron_bank_default,
)

__all__ = [
    "GRID_AXES",
    "Cell",
    "Compare",
    "Scenario",
    "ScenarioError",
    "load_scenario",
]

PLAYABLE_EDITIONS: tuple[str, ...] = ("1e", "2e")
EDITION_NAMES: Mapping[str, str] = {"1e": "1st edition", "2e": "2nd edition"}
# policy kind → its parameters and their types (random takes none)
POLICY_KINDS: Mapping[str, Mapping[str, type]] = {
    "random": {},
    "heuristic": {name: float for name in PARAM_NAMES},
    "heuristic_v1": {name: float for name in PARAM_NAMES},
    "search": {**{name: float for name in PARAM_NAMES}, **dict.fromkeys(SEARCH_KNOBS, int)},
}

TOP_KEYS: tuple[str, ...] = (
    "name",
    "description",
    "edition",
    "expansion",
    "players",
    "seed",
    "games",
    "block_size",
    "quick_games",
    "start_position",
    "setup",
    "variants",
    "policies",
    "grid",
    "compare",
)
SETUP_KEYS: tuple[str, ...] = ("houses", "kings_court_swap")
# the 1st edition's A Clash of Kings modules and the 2nd edition's A Dance with Dragons house
# cards, A Feast for Crows' Eyrie port and Mother of Dragons' sea orders, Iron Bank, gifts of
# power tokens, vassals and their 8-house board, each a [variants] switch and a [grid] axis (a
# cell's ``modules``)
MODULES: tuple[str, ...] = (
    *CLASH_OF_KINGS_VARIANTS,
    ADWD_HOUSE_CARDS,
    EYRIE_PORT,
    SEA_ORDERS,
    IRON_BANK,
    GIFT_POWER,
    VASSALS,
    EIGHT_HOUSES,
)
VARIANT_KEYS: tuple[str, ...] = ("tides_of_battle", *MODULES)
COMPARE_KEYS: tuple[str, ...] = ("by", "houses", "baseline")
# grid axis → where a fixed value of the same parameter is written
GRID_AXES: Mapping[str, str] = {
    "edition": "edition",
    "expansion": "expansion",
    "players": "players",
    "tides_of_battle": "variants.tides_of_battle",
    "kings_court_swap": "setup.kings_court_swap",
    "policies": "policies",
    **{module: f"variants.{module}" for module in MODULES},
}
DEFAULT_BLOCK_SIZE = 500
# limits checked before anything is built: a grid or a game count past them is a typo
MAX_GAMES = 10**9  # games per cell
MAX_BLOCK_SIZE = 10**6  # games in one compiled batch
MAX_CELLS = 10_000
MAX_BLOCKS = 10**6  # blocks of all cells
QUICK_FRACTION = 20  # --quick plays 1/20 of the games per cell, at least one block
RESULTS_FORMAT = 1  # bump when the block files change shape
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


class ScenarioError(ValueError):
    """A scenario that cannot run: one line naming the file, the key and the reason."""

    def __init__(self, source: str, key: str, reason: str) -> None:
        self.source = source
        self.key = key
        self.reason = reason
        super().__init__(f"{source}: {key}: {reason}")


PolicySpec = Mapping[str, Mapping[str, Any]]  # "default" or house id → {"kind": ..., params}


@dataclass(frozen=True)
class Cell:
    """One cell of the grid: the parameters every game of the cell is played with."""

    index: int
    edition: str
    players: int
    tides_of_battle: bool
    kings_court_swap: bool
    policies: PolicySpec = field(hash=False)
    # the modules switched on in this cell (A Clash of Kings, 1st edition; the A Dance with
    # Dragons house cards, 2nd edition), in ``MODULES`` order
    modules: tuple[str, ...] = ()
    expansion: str | None = None  # ``rules.variants.EXPANSIONS`` name; None: the base game

    @property
    def variants(self) -> dict[str, bool]:
        """The engine's variant switches for this cell."""
        return {
            "tides_of_battle": self.tides_of_battle,
            "kings_court_swap": self.kings_court_swap,
            **{module: module in self.modules for module in MODULES},
        }

    @property
    def policy_label(self) -> str:
        """The cell's policies as one string (see ``policy_label``)."""
        return policy_label(self.policies)

    def params(self) -> dict[str, Any]:
        """The cell's parameters as the columns of ``games.parquet`` (without ``cell``)."""
        return {
            "edition": self.edition,
            "expansion": self.expansion or "base",
            "players": self.players,
            "tides_of_battle": self.tides_of_battle,
            "kings_court_swap": self.kings_court_swap,
            "policies": self.policy_label,
            **{module: module in self.modules for module in MODULES},
        }

    def label(self, axes: Iterable[str]) -> str:
        """The grid values that tell this cell apart, e.g. ``players=4, tides_of_battle=true``."""
        parts = [f"{axis}={value_text(self.params()[axis])}" for axis in axes]
        return ", ".join(parts) if parts else "all games"


def _cell_key(cell: Cell) -> dict[str, Any]:
    """A cell's part of ``Scenario.results_key``: its parameters, the base game's expansion left
    out (so that a base-game study keeps the hash it had before expansions existed)."""
    key = cell.params() | {"policies": dict(cell.policies)}
    if cell.expansion is None:
        del key["expansion"]
    for option in (EYRIE_PORT, SEA_ORDERS, IRON_BANK, GIFT_POWER, VASSALS, EIGHT_HOUSES):
        if not key[option]:
            del key[option]
    return key


@dataclass(frozen=True)
class Compare:
    """Which comparison ``gotsim run`` prints: houses' win rates across the arms of one axis."""

    by: str
    houses: tuple[str, ...]
    baseline: Any = None


@dataclass(frozen=True)
class Block:
    """Games ``first_game … first_game + n_games - 1`` of one cell."""

    cell: int
    block: int
    first_game: int
    n_games: int


@dataclass(frozen=True)
class Scenario:
    """A validated study: its cells, seed, games per cell and block size."""

    name: str
    source: str
    seed: int
    games: int
    block_size: int
    axes: tuple[str, ...]
    cells: tuple[Cell, ...]
    description: str = ""
    quick_games: int | None = None
    start_position: str | None = None
    position: Mapping[str, Any] | None = field(default=None, hash=False)
    compare: Compare | None = None
    quick: bool = False

    @property
    def n_blocks(self) -> int:
        """Blocks per cell."""
        return math.ceil(self.games / self.block_size)

    def blocks(self) -> list[Block]:
        """Every block of every cell, cells first; block ``b`` of every cell holds the same game
        indices (and so the same random numbers)."""
        out = []
        for cell in self.cells:
            for b in range(self.n_blocks):
                first = b * self.block_size
                out.append(Block(cell.index, b, first, min(self.block_size, self.games - first)))
        return out

    def with_quick(self) -> Scenario:
        """The quick version: ``quick_games`` per cell (default 1/20, at least one block)."""
        games = self.quick_games
        if games is None:
            games = max(math.ceil(self.games / QUICK_FRACTION), min(self.games, self.block_size))
        return replace(self, games=min(games, self.games), quick=True)

    def results_key(self) -> dict[str, Any]:
        """Everything the results depend on (not the name, description or report settings)."""
        return {
            "format": RESULTS_FORMAT,
            "seed": self.seed,
            "games": self.games,
            "block_size": self.block_size,
            "cells": [_cell_key(cell) for cell in self.cells],
            "position": self.position,
        }

    @property
    def hash(self) -> str:
        """SHA-256 of ``results_key()``: two scenarios with the same hash give the same games."""
        text = json.dumps(self.results_key(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def to_dict(self) -> dict[str, Any]:
        """The resolved scenario as JSON-ready data (written beside the results)."""
        return {
            "name": self.name,
            "description": self.description,
            "source": self.source,
            "seed": self.seed,
            "games": self.games,
            "block_size": self.block_size,
            "quick": self.quick,
            "axes": list(self.axes),
            "cells": [{"cell": c.index, **c.params()} for c in self.cells],
            "start_position": self.start_position,
            "compare": None
            if self.compare is None
            else {
                "by": self.compare.by,
                "houses": list(self.compare.houses),
                "baseline": self.compare.baseline,
            },
            "hash": self.hash,
        }


def policy_label(policies: PolicySpec) -> str:
    """``"random"`` when every house plays one kind without parameters, else compact JSON.

    >>> policy_label({"default": {"kind": "random"}, "stark": {"kind": "random"}})
    'random'
    """
    specs = list(policies.values())
    if all(len(s) == 1 for s in specs) and len({s["kind"] for s in specs}) == 1:
        return str(specs[0]["kind"])
    return json.dumps(policies, sort_keys=True, separators=(",", ":"))


def value_text(value: Any) -> str:
    """A cell value as a scenario file spells it (``true``/``false`` for booleans).

    >>> value_text(True), value_text(5)
    ('true', '5')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _hint(value: object, choices: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest choice (or one the value begins), else ``""``."""
    return did_you_mean(value, choices, prefix=True)


def _type_name(value: Any) -> str:
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string"}
    if isinstance(value, Mapping):
        return "a table"
    if isinstance(value, list):
        return "an array"
    return names.get(type(value), type(value).__name__)


@functools.cache
def _player_counts(edition: str) -> tuple[int, ...]:
    return tuple(sorted(int(n) for n in load_data(edition, "setup.json")["player_counts"]))


class _Reader:
    """Reads one scenario's raw data, raising ``ScenarioError`` on the first problem."""

    def __init__(self, source: str, folder: Path | None) -> None:
        self.source = source
        self.folder = folder

    def fail(self, key: str, reason: str) -> NoReturn:
        raise ScenarioError(self.source, key, reason)

    def table(self, value: Any, key: str, allowed: Sequence[str]) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            self.fail(key, f"expected a table, got {_type_name(value)}")
        for name in value:
            if name not in allowed:
                where = f"{key}.{name}" if key else name
                self.fail(where, f"unknown key{_hint(name, allowed)}")
        return value

    def string(self, value: Any, key: str) -> str:
        if not isinstance(value, str):
            self.fail(key, f"expected a string, got {_type_name(value)} ({value!r})")
        return value

    def integer(self, value: Any, key: str, low: int, high: int | None = None) -> int:
        if type(value) is not int:
            self.fail(key, f"expected an integer, got {_type_name(value)} ({value!r})")
        if value < low or (high is not None and value > high):
            bound = f"between {low:,} and {high:,}" if high is not None else f"at least {low:,}"
            shown = f"{value:,}" if value.bit_length() <= 128 else "a number that long"
            self.fail(key, f"must be {bound}, got {shown}")
        return value

    def boolean(self, value: Any, key: str) -> bool:
        if not isinstance(value, bool):
            self.fail(key, f"expected true or false, got {_type_name(value)} ({value!r})")
        return value

    def edition(self, value: Any, key: str) -> str:
        edition = self.string(value, key)
        if edition not in EDITIONS:
            known = ", ".join(EDITIONS)
            self.fail(
                key, f"unknown edition {edition!r}{_hint(edition, EDITIONS)} (known: {known})"
            )
        if edition not in PLAYABLE_EDITIONS:
            self.fail(
                key,
                f"the {EDITION_NAMES[edition]} is not playable yet: the engine plays the 2nd "
                "edition only (the 1st edition is added when it lands)",
            )
        return edition

    def house(self, value: Any, key: str) -> str:
        house = self.string(value, key)
        if house not in HOUSE_IDS:
            self.fail(
                key,
                f"unknown house {house!r}{_hint(house, HOUSE_IDS)} (houses of the game: "
                f"{', '.join(HOUSE_IDS)})",
            )
        return house

    def policy(self, value: Any, key: str) -> dict[str, Any]:
        if isinstance(value, str):
            kind, params = value, {}
        elif isinstance(value, Mapping):
            if "kind" not in value:
                self.fail(key, "a policy table needs a 'kind' (e.g. kind = \"random\")")
            kind = self.string(value["kind"], f"{key}.kind")
            params = {k: v for k, v in value.items() if k != "kind"}
        else:
            self.fail(key, f"expected a policy kind or a table, got {_type_name(value)}")
        if kind not in POLICY_KINDS:
            known = ", ".join(POLICY_KINDS)
            self.fail(key, f"unknown policy {kind!r}{_hint(kind, POLICY_KINDS)} (known: {known})")
        allowed = POLICY_KINDS[kind]
        spec: dict[str, Any] = {"kind": kind}
        for name, param in params.items():
            if name not in allowed:
                takes = ", ".join(allowed) if allowed else "none"
                self.fail(
                    f"{key}.{name}",
                    f"unknown parameter for policy {kind!r}{_hint(name, allowed)} "
                    f"(parameters: {takes})",
                )
            if allowed[name] is float:
                if isinstance(param, bool) or not isinstance(param, int | float):
                    self.fail(f"{key}.{name}", f"expected a number, got {_type_name(param)}")
                p = PARAMS[PARAM_NAMES.index(name)]
                if not p.low <= param <= p.high:
                    self.fail(f"{key}.{name}", f"{param} is outside its range [{p.low}, {p.high}]")
                param = float(param)
            elif not isinstance(param, allowed[name]) or isinstance(param, bool) != (
                allowed[name] is bool
            ):
                self.fail(f"{key}.{name}", f"expected {allowed[name].__name__}")
            spec[name] = param
        if kind == "search":
            try:
                search_settings(spec)
            except ValueError as exc:
                self.fail(key, str(exc))
        return spec

    def policies(self, value: Any, key: str) -> dict[str, dict[str, Any]]:
        if isinstance(value, str):
            return {"default": self.policy(value, key)}
        if not isinstance(value, Mapping):
            self.fail(
                key,
                f'expected a policy kind ("random") or a table of house = policy, got '
                f"{_type_name(value)}",
            )
        if "kind" in value:  # one policy table for every house
            return {"default": self.policy(value, key)}
        if not value:
            self.fail(key, "empty table: name a policy for 'default' or for houses")
        out: dict[str, dict[str, Any]] = {}
        for house, spec in value.items():
            if house != "default" and house not in HOUSE_IDS:
                choices = (*HOUSE_IDS, "default")
                self.fail(
                    f"{key}.{house}",
                    f"unknown house{_hint(house, choices)} (use a house id or 'default')",
                )
            out[house] = self.policy(spec, f"{key}.{house}")
        out.setdefault("default", {"kind": "random"})
        return dict(sorted(out.items()))

    def expansion(self, value: Any, key: str) -> str | None:
        """An expansion name (``None`` for ``"base"``)."""
        text = self.string(value, key)
        try:
            return expansion_name(text)
        except ValueError as error:
            self.fail(key, str(error).removeprefix("expansion: "))

    def axis_value(self, axis: str, value: Any, key: str) -> Any:
        if axis == "edition":
            return self.edition(value, key)
        if axis == "expansion":
            return self.expansion(value, key)
        if axis == "players":
            return self.integer(value, key, 1, 99)
        if axis == "policies":
            return self.policies(value, key)
        return self.boolean(value, key)

    def position(self, value: Any, key: str) -> tuple[str, dict[str, Any]]:
        from gotsim.engine.position import PositionError, dump_position, load_position

        text = self.string(value, key)
        path = Path(text)
        if not path.is_absolute() and self.folder is not None:
            path = self.folder / path  # relative to the scenario file, wherever gotsim runs
        if not path.exists():
            self.fail(key, f"no position file {text!r} (looked for {str(path)!r})")
        try:
            position = load_position(read_json_file(path))
        except InputError as exc:
            self.fail(key, f"{text}: {str(exc).removeprefix(f'{path}: ')}")
        except PositionError as exc:
            self.fail(key, f"{text}: {exc}")
        except RecursionError:
            self.fail(key, f"{text}: nested too deeply")
        return text, dump_position(position)


def _read_toml(path: Path) -> dict[str, Any]:
    source = str(path)
    try:
        text = read_text_file(path)
    except InputError as exc:
        reason = "no such scenario file" if str(exc) == "no such file" else str(exc)
        raise ScenarioError(source, "file", reason) from None
    try:
        return parse_toml(text)
    except InputError as exc:
        raise ScenarioError(source, "file", str(exc)) from None
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(source, "TOML", str(exc)) from None


def load_scenario(source: str | Path | Mapping[str, Any]) -> Scenario:
    """Read and validate a scenario from a TOML file or a dict of the same shape.

    >>> s = load_scenario({"name": "demo", "seed": 1, "games": 100,
    ...                    "grid": {"players": [3, 4], "tides_of_battle": [False, True]}})
    >>> [c.label(s.axes) for c in s.cells]  # doctest: +NORMALIZE_WHITESPACE
    ['players=3, tides_of_battle=false', 'players=3, tides_of_battle=true',
     'players=4, tides_of_battle=false', 'players=4, tides_of_battle=true']
    """
    if isinstance(source, Mapping):
        raw: Mapping[str, Any] = source
        label = "scenario"
        folder = None
    else:
        path = Path(source)
        raw = _read_toml(path)
        label = str(source)
        folder = path.parent
    return _build(_Reader(label, folder), raw)


def _build(r: _Reader, raw: Mapping[str, Any]) -> Scenario:
    r.table(raw, "", TOP_KEYS)
    for required in ("name", "seed", "games"):
        if required not in raw:
            r.fail(required, "required key is missing")
    name = r.string(raw["name"], "name")
    if not _NAME.match(name):
        r.fail(
            "name",
            f"{name!r} names the results folder: use letters, digits, '_', '-' and '.' only",
        )
    description = r.string(raw.get("description", ""), "description")
    seed = r.integer(raw["seed"], "seed", 0, 2**63 - 1)
    games = r.integer(raw["games"], "games", 1, MAX_GAMES)
    block_size = r.integer(
        raw.get("block_size", DEFAULT_BLOCK_SIZE), "block_size", 1, MAX_BLOCK_SIZE
    )
    quick_games = None
    if "quick_games" in raw:
        quick_games = r.integer(raw["quick_games"], "quick_games", 1, MAX_GAMES)
        if quick_games > games:
            r.fail("quick_games", f"must not exceed games ({games}), got {quick_games}")

    setup = r.table(raw.get("setup", {}), "setup", SETUP_KEYS)
    if isinstance(raw.get("variants"), Mapping) and "kings_court_swap" in raw["variants"]:
        r.fail(
            "variants.kings_court_swap",
            "the swap changes the starting setup: write it under [setup] (or as a [grid] axis)",
        )
    variants = r.table(raw.get("variants", {}), "variants", VARIANT_KEYS)
    grid = r.table(raw.get("grid", {}), "grid", tuple(GRID_AXES))

    fixed: dict[str, Any] = {
        "edition": r.edition(raw.get("edition", "2e"), "edition"),
        "expansion": r.expansion(raw.get("expansion", "base"), "expansion"),
        "players": r.integer(raw.get("players", 6), "players", 1, 99),
        "tides_of_battle": r.boolean(
            variants.get("tides_of_battle", False), "variants.tides_of_battle"
        ),
        "kings_court_swap": r.boolean(
            setup.get("kings_court_swap", False), "setup.kings_court_swap"
        ),
        "policies": r.policies(raw.get("policies", "random"), "policies"),
        **{m: r.boolean(variants.get(m, False), f"variants.{m}") for m in MODULES},
    }
    given = {
        "edition": "edition" in raw,
        "expansion": "expansion" in raw,
        "players": "players" in raw,
        "tides_of_battle": "tides_of_battle" in variants,
        "kings_court_swap": "kings_court_swap" in setup,
        "policies": "policies" in raw,
        **{m: m in variants for m in MODULES},
    }
    axes: dict[str, list[Any]] = {}
    for axis, values in grid.items():
        key = f"grid.{axis}"
        if given[axis]:
            r.fail(
                key,
                f"{axis} is also set by '{GRID_AXES[axis]}': give a parameter one fixed value "
                "or a list of grid values, not both",
            )
        if not isinstance(values, list) or not values:
            r.fail(key, f"expected a non-empty array of values, got {_type_name(values)}")
        if len(values) > MAX_CELLS:
            r.fail(key, f"{len(values):,} values: a grid has at most {MAX_CELLS:,} cells")
        parsed = [r.axis_value(axis, v, f"{key}[{i}]") for i, v in enumerate(values)]
        for i, value in enumerate(parsed):
            if value in parsed[:i]:
                r.fail(key, f"value {value_text(values[i])} is listed twice")
        axes[axis] = parsed

    n_cells = math.prod(len(values) for values in axes.values())
    if n_cells > MAX_CELLS:
        sizes = " × ".join(str(len(values)) for values in axes.values())
        r.fail("grid", f"{sizes} = {n_cells:,} cells; a grid has at most {MAX_CELLS:,}")
    n_blocks = n_cells * math.ceil(games / block_size)
    if n_blocks > MAX_BLOCKS:
        r.fail(
            "block_size",
            f"{n_cells:,} cell(s) × {math.ceil(games / block_size):,} blocks of {block_size:,} "
            f"games = {n_blocks:,} blocks; at most {MAX_BLOCKS:,} (raise block_size)",
        )

    start_position = position = None
    if "start_position" in raw:
        start_position, position = r.position(raw["start_position"], "start_position")
        # the position's own edition, player count and Tides of Battle switch, unless the
        # scenario says
        if not given["edition"] and "edition" not in axes:
            fixed["edition"] = position.get("edition", "2e")
        if not given["players"] and "players" not in axes:
            fixed["players"] = position["players"]
        if not given["tides_of_battle"] and "tides_of_battle" not in axes:
            fixed["tides_of_battle"] = bool(position["variants"]["tides_of_battle"])
        if not given["expansion"] and "expansion" not in axes:
            fixed["expansion"] = position.get("expansion")
        if not given[ADWD_HOUSE_CARDS] and ADWD_HOUSE_CARDS not in axes:
            fixed[ADWD_HOUSE_CARDS] = bool(position["variants"].get(ADWD_HOUSE_CARDS, False))
            given[ADWD_HOUSE_CARDS] = True  # the position's hands say which cards
        if not given[SEA_ORDERS] and SEA_ORDERS not in axes:
            fixed[SEA_ORDERS] = bool(position["variants"].get(SEA_ORDERS, False))
            given[SEA_ORDERS] = True
        if not given[IRON_BANK] and IRON_BANK not in axes:
            fixed[IRON_BANK] = bool(position["variants"].get(IRON_BANK, False))
            given[IRON_BANK] = True  # the position says whether its game has the Iron Bank

    cells = []
    for index, combination in enumerate(itertools.product(*axes.values())):
        values = fixed | dict(zip(axes, combination, strict=True))
        if not given["players"] and "players" not in axes and values["expansion"]:
            values["players"] = EXPANSION_PLAYERS[values["expansion"]]  # its own count
        cards_set = given[ADWD_HOUSE_CARDS] or ADWD_HOUSE_CARDS in axes
        if values["expansion"] == "adwd" and not cards_set:
            values[ADWD_HOUSE_CARDS] = True  # the expansion's own cards, unless switched off
        for option in (SEA_ORDERS, GIFT_POWER):  # Mother of Dragons' own, unless switched off
            if values["expansion"] == "mod" and not (given[option] or option in axes):
                values[option] = True
        bank_set = given[IRON_BANK] or IRON_BANK in axes
        if not bank_set:  # the Iron Bank as Rules has it (IB1)
            eight = values[VASSALS] and values[EIGHT_HOUSES]
            values[IRON_BANK] = iron_bank_default(values["expansion"], values["players"], eight)
        modules = tuple(m for m in MODULES if values.pop(m))
        cell = Cell(index=index, modules=modules, **values)
        _check_cell(r, cell, axes, setup, position)
        cells.append(cell)

    compare = None
    if "compare" in raw:
        compare = _compare(r, raw["compare"], axes, cells)
    return Scenario(
        name=name,
        source=r.source,
        seed=seed,
        games=games,
        block_size=block_size,
        axes=tuple(axes),
        cells=tuple(cells),
        description=description,
        quick_games=quick_games,
        start_position=start_position,
        position=position,
        compare=compare,
    )


def _key(axis: str, axes: Mapping[str, Any]) -> str:
    return f"grid.{axis}" if axis in axes else GRID_AXES[axis]


def _player_houses(cell: Cell) -> list[str]:
    """The houses a cell's players play (with vassals: not the vassals)."""
    setup = load_setup(
        cell.edition,
        cell.players,
        expansion=cell.expansion,
        vassals=VASSALS in cell.modules,
        eight_houses=EIGHT_HOUSES in cell.modules,
    )
    return [h.id for h in setup.houses if h not in setup.vassals]


def _check_cell(
    r: _Reader,
    cell: Cell,
    axes: Mapping[str, Any],
    setup: Mapping[str, Any],
    position: Mapping[str, Any] | None,
) -> None:
    """Refuse a cell whose parameters cannot be played together."""
    where = f" (cell {cell.label(axes)})" if axes else ""
    edition_name = EDITION_NAMES[cell.edition]
    counts = _player_counts(cell.edition)
    if cell.players not in counts and cell.expansion is None:  # (an expansion: its own counts)
        r.fail(
            _key("players", axes),
            f"{cell.players} players: the {edition_name} base game is played by "
            f"{counts[0]} to {counts[-1]} players{where}",
        )
    if EYRIE_PORT in cell.modules and cell.expansion != "affc":
        r.fail(
            _key(EYRIE_PORT, axes),
            f'The Eyrie\'s port is an A Feast for Crows option (expansion = "affc"){where}',
        )
    if SEA_ORDERS in cell.modules and cell.expansion != "mod":
        r.fail(
            _key(SEA_ORDERS, axes),
            f'sea orders are a Mother of Dragons option (expansion = "mod"){where}',
        )
    if GIFT_POWER in cell.modules and cell.expansion != "mod":
        r.fail(
            _key(GIFT_POWER, axes),
            f'gifts of power tokens are a Mother of Dragons option (expansion = "mod"){where}',
        )
    if IRON_BANK in cell.modules and cell.expansion != "mod":
        r.fail(
            _key(IRON_BANK, axes),
            f'the Iron Bank is a Mother of Dragons option (expansion = "mod"){where}',
        )
    vassals = VASSALS in cell.modules
    if EIGHT_HOUSES in cell.modules and not vassals:
        r.fail(
            _key(EIGHT_HOUSES, axes),
            "eight_houses (Mother of Dragons' 8-house board) is a vassals option: add "
            f"vassals = true{where}",
        )
    if vassals:
        try:
            Rules.of(cell.edition, cell.players, cell.variants, cell.expansion)
        except (ValueError, NotImplementedError) as error:
            r.fail(_key(VASSALS, axes), f"{error}{where}")
    elif cell.expansion is not None:
        try:
            Rules.of(cell.edition, cell.players, cell.variants, cell.expansion)
        except ValueError as error:
            r.fail(_key("expansion", axes), f"{str(error).removeprefix('expansion: ')}{where}")
    houses = _player_houses(cell)  # (with vassals: not the vassals)
    if cell.kings_court_swap:
        absent = [h for h in ("tyrell", "greyjoy") if h not in houses]
        if absent:
            r.fail(
                _key("kings_court_swap", axes),
                f"the swap exchanges tyrell and greyjoy on the King's Court track, but "
                f"{' and '.join(absent)} {'is' if len(absent) == 1 else 'are'} not playing with "
                f"{cell.players} players{where}",
            )
    if cell.edition == "1e" and cell.tides_of_battle:
        r.fail(
            _key("tides_of_battle", axes),
            f"Tides of Battle is a 2nd-edition variant; the 1st edition has none{where}",
        )
    for module in cell.modules:
        if module in (EYRIE_PORT, SEA_ORDERS, IRON_BANK, GIFT_POWER, VASSALS, EIGHT_HOUSES):
            continue  # (checked with the expansion above)
        if module == ADWD_HOUSE_CARDS:
            if cell.edition != "2e":
                r.fail(
                    _key(module, axes),
                    f"the A Dance with Dragons house cards are a 2nd-edition variant{where}",
                )
        elif cell.edition == "2e":
            r.fail(
                _key(module, axes),
                f"{module} is a 1st-edition (A Clash of Kings) module; the 2nd edition has "
                f"{'ports in its base game' if module == 'ports' else 'none'}{where}",
            )
    if "houses" in setup:
        listed = setup["houses"]
        if not isinstance(listed, list):
            r.fail("setup.houses", f"expected an array of house ids, got {_type_name(listed)}")
        ids = [r.house(h, f"setup.houses[{i}]") for i, h in enumerate(listed)]
        if sorted(ids) != sorted(houses):
            r.fail(
                "setup.houses",
                f"in the {edition_name} the houses are fixed by the player count: "
                f"{cell.players} players means {', '.join(houses)}{where}",
            )
    for house in cell.policies:
        if house != "default" and house not in houses:
            r.fail(
                f"{_key('policies', axes)}.{house}",
                f"{house} is not playing with {cell.players} players "
                f"(houses: {', '.join(houses)}){where}",
            )
    if position is not None:
        if cell.edition != position.get("edition", "2e"):
            r.fail(
                _key("edition", axes),
                f"start_position is a {position.get('edition', '2e')} position, the cell plays "
                f"the {edition_name}{where}",
            )
        if cell.players != position["players"]:
            r.fail(
                _key("players", axes),
                f"start_position is a {position['players']}-player position, the cell has "
                f"{cell.players} players{where}",
            )
        if cell.kings_court_swap:
            r.fail(
                _key("kings_court_swap", axes),
                f"start_position fixes the influence tracks; the swap applies to the starting "
                f"setup only{where}",
            )
        if cell.expansion != position.get("expansion"):
            r.fail(
                _key("expansion", axes),
                f"start_position is a {position.get('expansion') or 'base'}-game position, the "
                f"cell plays {cell.expansion or 'the base game'}{where}",
            )
        bank = bool(position["variants"].get(IRON_BANK, False))
        if (IRON_BANK in cell.modules) != bank:
            r.fail(
                _key(IRON_BANK, axes),
                f"start_position is of a game {'with' if bank else 'without'} the Iron Bank; "
                f"the cell plays {'without' if bank else 'with'} it{where}",
            )
        held = bool(position["variants"].get(ADWD_HOUSE_CARDS, False))
        if (ADWD_HOUSE_CARDS in cell.modules) != held:
            r.fail(
                _key(ADWD_HOUSE_CARDS, axes),
                f"start_position holds {'A Dance with Dragons' if held else 'base-deck'} hands; "
                f"the cell plays the {'base' if held else 'A Dance with Dragons'} cards{where}",
            )


def _compare(
    r: _Reader, value: Any, axes: Mapping[str, list[Any]], cells: Sequence[Cell]
) -> Compare:
    spec = r.table(value, "compare", COMPARE_KEYS)
    if "by" not in spec:
        r.fail("compare.by", "required key is missing (the grid axis whose arms are compared)")
    by = r.string(spec["by"], "compare.by")
    if by not in axes:
        grid = ", ".join(axes) or "none"
        r.fail("compare.by", f"{by!r} is not a grid axis{_hint(by, axes)} (grid axes: {grid})")
    if len(axes[by]) < 2:
        r.fail("compare.by", f"grid.{by} has one value: nothing to compare")
    in_every_cell = [h.id for h in House if all(h.id in _player_houses(c) for c in cells)]
    houses: list[str] = list(in_every_cell)
    if "houses" in spec:
        listed = spec["houses"]
        if not isinstance(listed, list) or not listed:
            r.fail("compare.houses", f"expected a non-empty array, got {_type_name(listed)}")
        houses = [r.house(h, f"compare.houses[{i}]") for i, h in enumerate(listed)]
        for i, house in enumerate(houses):
            if house not in in_every_cell:
                r.fail(f"compare.houses[{i}]", f"{house} does not play in every cell")
    baseline = None
    if "baseline" in spec:
        baseline = r.axis_value(by, spec["baseline"], "compare.baseline")
        if baseline not in axes[by]:
            r.fail(
                "compare.baseline", f"{value_text(spec['baseline'])} is not a value of grid.{by}"
            )
        if by == "policies":
            baseline = policy_label(baseline)
        if by == "expansion":
            baseline = baseline or "base"  # the games' column word for the base game
    return Compare(by=by, houses=tuple(houses), baseline=baseline)
