"""Long invariant fuzz of the engine: many complete random games per player count and Tides of
Battle setting (2nd edition) or per player count (1st edition), checking every invariant at the
end of each game.

Run: ``python benchmarks/fuzz_engine.py [--games N] [--edition 1e|2e|both] [--variant NAME]
[--expansion adwd|affc|mod] [--vassals --players N]`` (``--variant`` repeats; the A Clash of
Kings modules are 1st-edition variants; ``--vassals``: the base game's (or with ``--expansion
mod`` Mother of Dragons') board with ``--players`` player houses and the others vassals,
``--eight-houses`` Mother of Dragons' 8-house board with Targaryen a player, 4-7 players;
``--expansion`` plays the expansion's game, 6 players for adwd, 4 for
affc and 7 for mod (``--players 8``: the 8-player game with Targaryen), its own options on,
with and without Tides of Battle; ``--iron-bank``
with ``--expansion mod`` switches the Iron Bank on, the same as ``--variant iron_bank``); prints
the games played and violations. A setting the rules refuse (the Iron Bank outside Mother of
Dragons, say) stops the run with the rules' one line and exit status 2.

``--all`` plays every setting instead: the 2nd edition at 3 to 6 players with and without Tides
of Battle (and the King's Court swap at 5 and 6), the 1st edition at 3 to 5 players with no
module, each A Clash of Kings module alone and all of them together; ``--games`` per setting,
in chunks of ``--chunk`` games (memory stays flat), with a line per chunk on stderr. 28,000
games per setting gives 36 settings and 1,008,000 games. ``--state FILE`` records every finished
chunk, so a run that is stopped resumes where it was when started again with the same
arguments.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from gotsim.engine.init import new_games
from gotsim.engine.invariants import violations
from gotsim.engine.tables import rules_table
from gotsim.play.runner import play_random
from gotsim.rules.variants import (
    CLASH_OF_KINGS_VARIANTS,
    EXPANSION_PLAYERS,
    EXPANSIONS,
    IRON_BANK,
    Rules,
    variant_flags,
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=5000, help="games per setting")
    parser.add_argument("--edition", choices=("1e", "2e", "both"), default="2e")
    parser.add_argument("--variant", action="append", default=[], help="a variant switched on")
    parser.add_argument(
        "--expansion", choices=tuple(EXPANSIONS), help="a 2nd-edition expansion: its game"
    )
    parser.add_argument(
        "--iron-bank", action="store_true", help="with --expansion mod: the Iron Bank switched on"
    )
    parser.add_argument(
        "--vassals",
        action="store_true",
        help="the vassals variant: --players player houses, the board's other houses vassals "
        "(base game 3-5, --expansion mod 3-6)",
    )
    parser.add_argument(
        "--eight-houses",
        action="store_true",
        help="with --vassals --expansion mod: Mother of Dragons' 8-house board (Targaryen a "
        "player; --players 4-7)",
    )
    parser.add_argument(
        "--players",
        type=int,
        help="with --vassals: the player houses (default 4); else with --expansion: its player "
        "count (Mother of Dragons: 7 or 8)",
    )
    parser.add_argument("--all", action="store_true", help="every edition, count and variant")
    parser.add_argument("--chunk", type=int, default=5000, help="games played at once (--all)")
    parser.add_argument("--state", help="JSON file of finished chunks (--all): resumes a run")
    args = parser.parse_args()
    if args.all:
        print(json.dumps(fuzz_all(args.games, args.chunk, args.state)))
        return
    if args.iron_bank:
        args.variant.append(IRON_BANK)
    variant_flags(dict.fromkeys(args.variant, True))  # (unknown names refused)
    if IRON_BANK in args.variant:  # (refused while not playable: the rules' one line)
        players = EXPANSION_PLAYERS[args.expansion] if args.expansion else 6
        try:
            Rules.of("2e", players, dict.fromkeys(args.variant, True), args.expansion)
        except ValueError as error:
            parser.exit(2, f"fuzz_engine: {error}\n")
    # only the variants named: an expansion's own option stays on (A Dance with Dragons' house
    # cards, Mother of Dragons' sea orders)
    flags = dict.fromkeys(args.variant, True)
    if args.vassals:
        flags["vassals"] = True
    if args.eight_houses:
        flags["eight_houses"] = True
    if args.vassals or args.eight_houses:  # (a vassal game the rules refuse: their one line)
        try:
            Rules.of("2e", args.players or 4, flags, args.expansion)
        except ValueError as error:
            parser.exit(2, f"fuzz_engine: {error}\n")
    report = {
        "games": 0,
        "violations": 0,
        "unfinished": 0,
        "fortified_at_end": 0,
        "siege_engines_at_end": 0,
        "ships_in_ports_at_end": 0,
        "one_time_orders_placed": 0,
        "vassal_wins": 0,
        "vassal_battles": 0,
        "dragons_at_end": 0,
        "loyalty_taken_at_end": 0,
        "loyalty_wins": 0,
        "examples": [],
    }
    settings = []
    if args.vassals:
        players = args.players or 4
        settings += [("2e", players, tides) for tides in (False, True)]
    elif args.expansion:
        players = args.players or EXPANSION_PLAYERS[args.expansion]
        settings += [("2e", players, tides) for tides in (False, True)]
    elif args.edition in ("2e", "both"):
        settings += [("2e", p, tides) for p in (3, 4, 5, 6) for tides in (False, True)]
    if args.edition in ("1e", "both") and not args.expansion:
        settings += [("1e", p, False) for p in (3, 4, 5)]
    for edition, players, tides in settings:
        rules = rules_table(edition, players, {**flags, "tides_of_battle": tides}, args.expansion)
        # the 2e keys stay as they were, so its fuzz games do not change
        key = (players, tides) if edition == "2e" else (1, players)
        if args.vassals:  # (games of their own: the other settings' keys stay as they were)
            key = (players, tides, 100 + len(args.expansion or ""))
            if args.eight_houses:
                key = (players, tides, 108)
        seeds = [np.random.SeedSequence(99, spawn_key=(*key, i)) for i in range(args.games)]
        games = new_games(
            seeds,
            edition=edition,
            players=players,
            expansion=args.expansion,
            vassals=args.vassals,
            eight_houses=args.eight_houses,
            iron_bank=bool(rules[0].iron_bank),
        )
        play_random(games, rules, 1_000_000)
        report["games"] += len(games)
        report["unfinished"] += int((games.done == 0).sum())
        report["fortified_at_end"] += int((games.fortification > 0).sum())
        report["siege_engines_at_end"] += int(games.units[:, :, 3].sum())
        ports = np.flatnonzero(rules[0].kind[: rules[0].n_areas] == 2)
        report["ships_in_ports_at_end"] += int(games.units[:, ports, 2].sum())
        used = np.unpackbits(games.one_time_used.astype(np.uint16).view(np.uint8))
        report["one_time_orders_placed"] += int(used.sum())
        vassal = rules[0].vassal.astype(bool)
        won = games.winner[games.winner >= 0]
        report["vassal_wins"] += int(vassal[won].sum())
        report["vassal_battles"] += int(games.battles[:, vassal].sum())
        report["dragons_at_end"] += int(games.units[:, :, 4].sum())
        report["loyalty_taken_at_end"] += int(games.loyalty_taken.sum())
        report["loyalty_wins"] += int((games.end_reason == 4).sum())
        for i, g in enumerate(games):
            found = violations(g, rules[0])
            report["violations"] += len(found)
            if found and len(report["examples"]) < 10:
                report["examples"].append([edition, players, tides, i, found[:3]])
    print(json.dumps(report))


def all_settings() -> list[tuple[str, int, dict[str, bool]]]:
    """(edition, players, variants) of every setting ``--all`` plays."""
    out: list[tuple[str, int, dict[str, bool]]] = []
    for players in (3, 4, 5, 6):
        for tides in (False, True):
            out.append(("2e", players, {"tides_of_battle": tides}))
    for players in (5, 6):
        out.append(("2e", players, {"kings_court_swap": True}))
        out.append(("2e", players, {"kings_court_swap": True, "tides_of_battle": True}))
    modules: list[dict[str, bool]] = [{}]
    modules += [{name: True} for name in CLASH_OF_KINGS_VARIANTS]
    modules.append(dict.fromkeys(CLASH_OF_KINGS_VARIANTS, True))
    for players in (3, 4, 5):
        out += [("1e", players, m) for m in modules]
    return out


def fuzz_all(games: int, chunk: int, state: str | None = None) -> dict[str, object]:
    """``games`` random games in each of ``all_settings()``, invariants checked after each.

    With ``state`` (a JSON file), every finished chunk is recorded there (games, seconds,
    violations, unfinished games, up to three examples) and skipped when the run is started
    again: a run stopped part way resumes where it was, and its totals count each chunk once."""
    done: dict[str, dict[str, Any]] = {}
    if state and Path(state).exists():
        done = json.loads(Path(state).read_text())
    start = time.perf_counter()
    for index, (edition, players, variants) in enumerate(all_settings()):
        rules = rules_table(edition, players, variants)
        name = f"{edition} {players}p " + (",".join(k for k, v in variants.items() if v) or "-")
        for first in range(0, games, chunk):
            n = min(chunk, games - first)
            key = f"{name} | {first}+{n}"
            if key in done:
                continue
            began = time.perf_counter()
            seeds = [np.random.SeedSequence(2026, spawn_key=(index, first + i)) for i in range(n)]
            batch = new_games(
                seeds,
                edition=edition,
                players=players,
                kings_court_swap=variants.get("kings_court_swap", False),
            )
            play_random(batch, rules, 1_000_000)
            bad = 0
            examples: list[object] = []
            for i, g in enumerate(batch):
                found = violations(g, rules[0])
                bad += len(found)
                if found and len(examples) < 3:
                    examples.append([first + i, found[:3]])
            done[key] = {
                "games": n,
                "seconds": round(time.perf_counter() - began, 1),
                "violations": bad,
                "unfinished": int((batch.done == 0).sum()),
                "examples": examples,
            }
            if state:
                part = Path(state + ".part")
                part.write_text(json.dumps(done, indent=0))
                part.replace(state)
            total = sum(int(c["games"]) for c in done.values())
            print(
                f"{key}: {bad} violations; {total} games recorded, "
                f"{time.perf_counter() - start:.0f} s this run",
                file=sys.stderr,
                flush=True,
            )
    chunks = list(done.values())
    return {
        "settings": len(all_settings()),
        "games": sum(int(c["games"]) for c in chunks),
        "violations": sum(int(c["violations"]) for c in chunks),
        "unfinished": sum(int(c["unfinished"]) for c in chunks),
        "seconds_playing": round(sum(float(c["seconds"]) for c in chunks)),
        "examples": [c["examples"] for c in chunks if c["examples"]][:10],
    }


if __name__ == "__main__":
    main()
