"""The ``gotsim`` command: studies, single games, benchmarks, combat odds, board pictures and
house-card lists.

Bad input anywhere gives one line naming what is wrong and exit status 2; nothing is written.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from gotsim.cli.commands import (
    add_position_options,
    cmd_bench,
    cmd_board,
    cmd_cards,
    cmd_combat,
    cmd_play,
    cmd_report,
    cmd_run,
    cmd_warmup,
    standings,
)
from gotsim.cli.common import (
    CLASH_OF_KINGS_VARIANTS,
    EXIT_BAD_INPUT,
    EXIT_BROKEN_PIPE,
    PORTS,
    Parser,
    early_compile_notice,
    expansion_argument,
    player_count,
    short,
    variant_argument,
)
from gotsim.data import EDITIONS
from gotsim.inputs import (
    MAX_SEED,
    int_argument,
)
from gotsim.rules.variants import EIGHT_HOUSES, EXPANSION_PLAYERS, EYRIE_PORT, VASSALS


def build_parser() -> argparse.ArgumentParser:
    from gotsim import __version__

    parser = Parser(
        prog="gotsim",
        description="A Game of Thrones: The Board Game: simulator, combat odds and studies.",
        epilog="`gotsim COMMAND --help` describes a command. The first command that plays games "
        "compiles its kernels (minutes, once); `gotsim warmup` does it ahead.",
    )
    parser.add_argument("--version", action="version", version=f"gotsim {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)

    board = sub.add_parser(
        "board",
        help="draw the starting position (or a position) as a PNG",
        description="Draw the starting position of a game as a PNG: units, power tokens, "
        "garrisons, neutral forces. With --expansion mod: Mother of Dragons' 7-player start "
        "(Westeros with the Eyrie and the Bite overlays); with --players 8 its 8-player start "
        "(and the Essos side board: dragons, loyalty tokens). With --position FILE: that "
        "position (docs/positions.md), with its orders, loyalty tokens, the Iron Bank's "
        "improvements and A Clash of Kings' fortifications and one-time orders.",
    )
    board.add_argument(
        "--position",
        default=None,
        metavar="FILE",
        help="draw this position (gotsim.position/v1 JSON) instead of a starting position",
    )
    board.add_argument(
        "--edition", choices=EDITIONS, default=None, help="rules edition (default: 2e)"
    )
    board.add_argument(
        "--players",
        type=player_count,
        default=None,
        help="number of players (default 6; an expansion's own count with --expansion)",
    )
    board.add_argument("--out", default="board.png", help="PNG path")
    board.add_argument(
        "--dpi", type=int_argument("--dpi", 10, 1200), default=150, help="picture resolution"
    )
    board.add_argument(
        "--kings-court-swap", action="store_true", help="swap Tyrell and Greyjoy on King's Court"
    )
    expansion_argument(board)
    board.add_argument(
        "--variant",
        action="append",
        choices=(EYRIE_PORT, PORTS, VASSALS, EIGHT_HOUSES),
        metavar="OPTION",
        help="eyrie_port: with --expansion affc, The Eyrie's port on The Narrow Sea; ports: "
        "with --edition 1e, A Clash of Kings' eight ports; vassals: --players player houses, "
        "the board's others vassals (with eight_houses and --expansion mod: the 8-house board)",
    )
    board.set_defaults(run=cmd_board)

    cards = sub.add_parser("cards", help="list the house cards")
    cards.add_argument("--edition", choices=EDITIONS, default="2e", help="rules edition")
    cards.add_argument(
        "--set",
        dest="card_set",
        choices=("base", "adwd", "mod", "affc"),
        default="base",
        help="house-card set: base (the edition's decks), adwd (the 2nd edition's A Dance "
        "with Dragons decks, the adwd_house_cards variant), mod (Mother of Dragons: Arryn's and "
        "Targaryen's decks A, Targaryen's deck B) or affc (House Arryn's A Feast for Crows deck)",
    )
    cards.add_argument("--json", action="store_true", help="print JSON instead of a table")
    cards.set_defaults(run=cmd_cards)

    combat = sub.add_parser("combat", help="exact odds of a battle given as JSON")
    combat.add_argument("battle", nargs="?", help="battle spec (JSON file, see docs/combat.md)")
    add_position_options(combat)
    combat.add_argument(
        "--model",
        choices=("fixed", "uniform", "equilibrium"),
        default="uniform",
        help="how the sides choose house cards: fixed (the cards given), uniform (any card in "
        "hand, equally likely) or equilibrium (the best mixed strategies)",
    )
    combat.add_argument("--json", action="store_true", help="print the result as JSON")
    combat.add_argument(
        "--samples",
        type=int_argument("--samples", 1, 10**9),
        default=None,
        help="sample N battles instead of enumerating",
    )
    combat.add_argument(
        "--seed", type=int_argument("--seed", 0, MAX_SEED), default=0, help="seed of --samples"
    )
    combat.set_defaults(run=cmd_combat)

    play = sub.add_parser("play", help="play one game and narrate it")
    play.add_argument(
        "--players",
        type=player_count,
        default=None,
        help="number of players (default 6; an expansion's own count with --expansion)",
    )
    play.add_argument(
        "--seed", type=int_argument("--seed", 0, MAX_SEED), default=0, help="the game's seed"
    )
    play.add_argument("--edition", choices=EDITIONS, default="2e", help="rules edition")
    play.add_argument(
        "--policy",
        choices=("random", "heuristic", "search"),
        default="random",
        help="who plays (search: seconds a game)",
    )
    play.add_argument("--tides", action="store_true", help="Tides of Battle variant")
    expansion_argument(play)
    variant_argument(play)
    play.add_argument("--log", help="write the narrated log to this file")
    play.add_argument(
        "--json",
        nargs="?",
        const="-",
        metavar="FILE",
        help="with FILE: write every event of the game to FILE as JSON lines; alone: print a "
        "JSON summary",
    )
    play.add_argument("--pictures", help="folder for a board picture per round")
    play.add_argument(
        "--html",
        metavar="FILE",
        help="write one self-contained page: the board every round, a slider, the narration "
        "and the standings",
    )
    play.set_defaults(run=cmd_play)

    bench = sub.add_parser("bench", help="measure complete games per second")
    bench.add_argument(
        "--players",
        type=player_count,
        default=None,
        help="number of players (default 6; an expansion's own count with --expansion)",
    )
    bench.add_argument(
        "--games", type=int_argument("--games", 1, 10**7), default=4000, help="games timed"
    )
    bench.add_argument("--edition", choices=EDITIONS, default="2e", help="rules edition")
    bench.add_argument(
        "--policy",
        choices=("random", "heuristic", "heuristic_v1"),
        default="random",
        help="who plays",
    )
    bench.add_argument(
        "--compare",
        choices=("random", "heuristic", "heuristic_v1"),
        help="also time this policy in the same run and print the ratio of the two rates",
    )
    bench.add_argument(
        "--jobs",
        type=int_argument("--jobs", 1, 4096),
        default=2,
        help="threads (capped at the cores)",
    )
    expansion_argument(bench)
    variant_argument(bench)
    bench.add_argument("--json", action="store_true", help="print the result as JSON")
    bench.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    bench.set_defaults(run=cmd_bench)

    run = sub.add_parser("run", help="run a study scenario (TOML) into results/<name>/")
    run.add_argument("scenario", nargs="?", help="scenario file (TOML, see docs/scenarios.md)")
    run.add_argument("--jobs", type=int, default=1, help="worker processes (capped at the cores)")
    where = run.add_mutually_exclusive_group()
    where.add_argument("--scheduler", help="dask.distributed scheduler, tcp://HOST:PORT")
    where.add_argument(
        "--dask-local", action="store_true", help="a local dask cluster (2 workers, loopback)"
    )
    run.add_argument("--out", help="results folder (default results/<name>/)")
    run.add_argument(
        "--quick", action="store_true", help="1/20 of the games, results/<name>-quick/"
    )
    run.add_argument(
        "--force",
        action="store_true",
        help="replace another scenario's results, or blocks played by another version of the "
        "engine (only ours)",
    )
    run.add_argument(
        "--allow-engine-change",
        action="store_true",
        help="keep finished blocks played by another version of the engine",
    )
    run.add_argument("--verify", metavar="DIR", help="check a results folder against its manifest")
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    run.set_defaults(run=cmd_run)

    report = sub.add_parser(
        "report", help="write one HTML page of a study's results (tables, figures, provenance)"
    )
    report.add_argument("results", help="a study's results folder (gotsim run writes it)")
    report.add_argument("--out", help="the page to write (default RESULTS/report.html)")
    report.set_defaults(run=cmd_report)

    warmup = sub.add_parser(
        "warmup",
        help="compile every kernel ahead (minutes, once; kept in numba's cache)",
        description="Compile the kernels of both players' batch loops, the one-game engine and "
        "the combat calculator, so that later commands start at once. Compiled code stays in "
        "numba's cache beside the sources until a gotsim source changes.",
    )
    warmup.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    warmup.set_defaults(run=cmd_warmup)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from gotsim.inputs import os_error_text

    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # bare `gotsim`: what it can do
        parser.print_help(sys.stderr)
        return EXIT_BAD_INPUT
    # what was given, not defaulted (``board --position`` refuses options the position names)
    args.players_given = getattr(args, "players", None) is not None
    args.edition_given = getattr(args, "edition", None) is not None
    if hasattr(args, "edition") and args.edition is None:
        args.edition = "2e"
    if getattr(args, "players", 0) is None:  # A Feast for Crows is played by 4
        args.players = EXPANSION_PLAYERS.get(args.expansion or "", 6)
    early_compile_notice(args)
    try:
        status = int(args.run(args))
        sys.stdout.flush()  # a closed pipe shows here, not at interpreter exit
    except BrokenPipeError:
        # the reader went away (`gotsim combat … | head -1`): stop quietly, as Unix tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except OSError as exc:  # a read or write the checks could not foresee: one line
        code, text = os_error_text(exc)
        print(f"gotsim: error: {short(text)}", file=sys.stderr)
        return code
    return status


__all__ = ["CLASH_OF_KINGS_VARIANTS", "EXIT_BAD_INPUT", "build_parser", "main", "standings"]
