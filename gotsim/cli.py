"""The ``gotsim`` command: studies, single games, benchmarks, combat odds, board pictures and
house-card lists.

Bad input anywhere gives one line naming what is wrong and exit status 2; nothing is written.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from gotsim.data import EDITIONS
from gotsim.inputs import (
    MAX_SEED,
    InputError,
    atomic_write,
    check_output_file,
    check_output_folder,
    int_argument,
)

EXIT_BAD_INPUT = 2
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, as a Unix tool killed by a closed pipe


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """``--help`` shows every option's default, except for flags and options without one."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default in (None, False, argparse.SUPPRESS) or action.nargs == 0:
            return action.help
        return super()._get_help_string(action)


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump), exit status 2, and defaults in help."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("gotsim").strip()  # "gotsim: error:" says gotsim
        _fail(f"{command}: {message}" if command else message)


def _fail(message: str) -> NoReturn:
    print(f"gotsim: error: {message}", file=sys.stderr)
    raise SystemExit(EXIT_BAD_INPUT)


def _output(check: Any, path: str, flag: str) -> Path:
    """An output path checked before anything is computed (one line, exit 2 when it cannot
    be; a folder we may not write in is the environment's failure: exit 1, from ``main``)."""
    try:
        return Path(check(path, flag))
    except InputError as exc:
        _fail(str(exc))


def _players(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--players must be a whole number, got {text!r}"
        ) from None
    return value


def _cmd_board(args: argparse.Namespace) -> int:
    from gotsim.rules.setup import SetupDataError, load_setup

    out = Path(args.out)
    if out.suffix.lower() != ".png":
        _fail(f"--out {args.out!r}: the board picture is a PNG, give a path ending in .png")
    _output(check_output_file, args.out, "--out")
    try:
        setup = load_setup(args.edition, args.players, kings_court_swap=args.kings_court_swap)
    except SetupDataError as exc:
        _fail(f"--players {args.players}: {exc}")

    import matplotlib

    matplotlib.use("Agg")
    from gotsim.analysis.board_plot import save_board_picture

    path = save_board_picture(out, setup, dpi=args.dpi)
    print(f"wrote {path} ({args.edition}, {args.players} players, starting position)")
    return 0


def _cmd_cards(args: argparse.Namespace) -> int:
    from gotsim.engine.combat import implemented_in
    from gotsim.rules.cards import house_cards

    rows: list[dict[str, Any]] = []
    for card in house_cards(args.edition):
        rows.append(
            {
                "house": card.house.id,
                "id": card.id,
                "name": card.name,
                "strength": card.strength,
                "swords": card.swords,
                "fortifications": card.fortifications,
                "ability": card.ability,
                "timing": card.timing,
                "effect": card.effect,
                "implemented_in": implemented_in(card.effect, args.edition),
            }
        )
    if args.json:
        print(json.dumps(rows, indent=1, ensure_ascii=False))
        return 0
    house = None
    for row in rows:
        if row["house"] != house:
            house = row["house"]
            print(f"\n{house.capitalize()}")
        icons = f"{row['strength']}  swords {row['swords']}  forts {row['fortifications']}"
        print(f"  {row['name']:<22} {icons}  {row['ability'] or ''}")
    return 0


def _cmd_combat(args: argparse.Namespace) -> int:
    from gotsim.odds import BattleSpecError, combat_odds
    from gotsim.odds.report import format_odds
    from gotsim.odds.spec import parse_battle

    if args.samples is not None and args.samples <= 0:
        _fail(f"--samples must be positive, got {args.samples}")
    source, spec = _combat_source(args)
    try:
        parse_battle(spec)  # a bad spec is one line, before any compile is announced
        _announce("odds")
        result = combat_odds(spec, model=args.model, samples=args.samples, seed=args.seed)
    except BattleSpecError as exc:
        message = str(exc)
        _fail(message if message.startswith(source) else f"{source}: {message}")
    if args.json:
        print(json.dumps(result.to_dict(), indent=1))
    else:
        print(format_odds(result))
    return 0


# --- combat --position: a battle drawn from a board position (docs/positions.md) ---

_POSITION_FLAGS = (("--area", "area"), ("--from", "from_area"), ("--attacker", "attacker"))
_POSITION_OPTIONAL = (("--units", "units"), ("--support", "support"))


def _add_position_options(combat: argparse.ArgumentParser) -> None:
    combat.add_argument("--position", help="board position (JSON, see docs/positions.md)")
    combat.add_argument("--area", help="with --position: the area attacked")
    combat.add_argument("--from", dest="from_area", help="with --position: the marching area")
    combat.add_argument("--attacker", help="with --position: the marching house")
    combat.add_argument("--units", help="with --position: units marching, e.g. footman=2,knight=1")
    combat.add_argument(
        "--support", help="with --position: third houses' support, e.g. greyjoy=attacker"
    )


def _pairs(text: str | None, flag: str, example: str) -> dict[str, str]:
    if text is None:
        return {}
    out: dict[str, str] = {}
    for item in text.split(","):
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            _fail(f"{flag}: expected comma-separated pairs such as {example}, got {text!r}")
        if key.strip() in out:
            _fail(f"{flag}: {key.strip()} is given twice, in {text!r}")
        out[key.strip()] = value.strip()
    return out


def _combat_source(args: argparse.Namespace) -> tuple[str, Any]:
    """The battle to price and the name of its source: a BATTLE file, or --position options."""
    from gotsim.engine.position import PositionError, battle_from_position, load_position
    from gotsim.inputs import read_json_file

    flags = _POSITION_FLAGS + _POSITION_OPTIONAL
    given = [flag for flag, key in flags if getattr(args, key) is not None]
    if (args.battle is None) == (args.position is None):
        _fail("combat: give either a BATTLE file or --position POS.json (exactly one)")
    if args.position is None:
        if given:
            _fail(f"combat: {given[0]} goes with --position, not with a BATTLE file")
        return args.battle, Path(args.battle)
    missing = [flag for flag, key in _POSITION_FLAGS if getattr(args, key) is None]
    if missing:
        _fail(f"combat --position: also give {', '.join(missing)}")
    units: dict[str, int] = {}
    for unit, count in _pairs(args.units, "--units", "footman=2,knight=1").items():
        if not (count.isascii() and count.isdigit()) or len(count) > 2 or int(count) > 20:
            _fail(f"--units: {unit}={count!r} is not a whole number from 0 to 20")
        units[unit] = int(count)
    try:
        position = load_position(read_json_file(args.position, "position"))
        spec = battle_from_position(
            position,
            args.area,
            attacker=args.attacker,
            from_area=args.from_area,
            units=units or None,
            support=_pairs(args.support, "--support", "greyjoy=attacker"),
        )
    except (InputError, PositionError) as exc:
        message = str(exc)
        _fail(message if message.startswith(args.position) else f"{args.position}: {message}")
    return args.position, spec


def _announce(group: str) -> None:
    """One line on stderr when the kernels of ``group`` (``gotsim.jit.KERNEL_GROUPS``) are about
    to compile in this process."""
    from gotsim.jit import announce_compile

    announce_compile(group)


def _early_compile_notice(args: argparse.Namespace) -> None:
    """Say at once, before numba and the engine are imported, which kernels ``bench`` will
    compile when that is certain from the files (``gotsim.jit.surely_compiles``). Commands that
    read an input first (``run``, ``play``, ``combat``) announce their compile once the input is
    known to be good, so that bad input is still one line."""
    from gotsim.jit import announce_if_surely_compiles

    if args.command == "bench":
        announce_if_surely_compiles(getattr(args, "policy", "random"))


def _status(args: argparse.Namespace, text: str) -> None:
    """A progress line on stderr, unless ``--quiet``."""
    if not getattr(args, "quiet", False):
        print(text, file=sys.stderr, flush=True)


def _python_policy(name: str) -> Any:
    """The Python policy every house plays in ``gotsim play``."""
    from gotsim.players import make_policy

    return make_policy(name)


def _check_edition(args: argparse.Namespace) -> None:
    """One line for a player count, policy or variant the edition does not have."""
    counts = (3, 4, 5) if args.edition == "1e" else (3, 4, 5, 6)
    name = "1st" if args.edition == "1e" else "2nd"
    if args.players not in counts:
        _fail(
            f"--players {args.players}: the {name} edition is played by 3 to {counts[-1]} players"
        )
    if args.edition == "1e" and getattr(args, "tides", False):
        _fail("--tides: Tides of Battle is a 2nd-edition variant")
    for module in args.variant or ():
        if args.edition == "2e":
            _fail(
                f"--variant {module}: an A Clash of Kings module of the 1st edition (--edition 1e)"
            )


def _variants(args: argparse.Namespace) -> dict[str, bool]:
    """The engine variants of ``gotsim play`` and ``gotsim bench``."""
    return {
        "tides_of_battle": getattr(args, "tides", False),
        **dict.fromkeys(args.variant or (), True),
    }


def _cmd_play(args: argparse.Namespace) -> int:
    from gotsim.engine.game import Game

    _check_edition(args)
    log = _output(check_output_file, args.log, "--log") if args.log else None
    pictures = _output(check_output_folder, args.pictures, "--pictures") if args.pictures else None
    page = _output_file(args.html, "--html", ".html")
    events = _output_file(args.json if args.json != "-" else None, "--json", ".jsonl")
    _announce("game")
    if args.policy == "heuristic":
        _announce("heuristic_policy")
    game = Game(
        players=args.players,
        seed=args.seed,
        edition=args.edition,
        variants=_variants(args),
    )
    policy = _python_policy(args.policy)
    frames = None
    if pictures is not None or page is not None:
        frames = _play_with_pictures(game, pictures, policy)
    else:
        game.play(policy)
    summary = {
        "players": args.players,
        "edition": args.edition,
        "seed": args.seed,
        "winner": game.winner.id if game.winner is not None else None,
        "end_round": int(game.record.game_round),
        "end_reason": game.end_reason,
        "decisions": sum(1 for e in game.log if e.house),
        "battles": int(game.record.battles.sum()) // 2,
    }
    text = game.narrative()
    if log is not None:
        atomic_write(log, lambda tmp: tmp.write_text(text + "\n", encoding="utf-8"))
    if events is not None:
        lines = text.splitlines()
        records = [
            json.dumps({**vars(event), "words": line}, ensure_ascii=False)
            for event, line in zip(game.log, lines, strict=True)
        ]
        _write_text(events, "\n".join(records) + "\n")
    if page is not None and frames is not None:
        from gotsim.analysis.game_page import game_page

        title = (
            f"gotsim play: {args.players} players, {args.edition}, seed {args.seed}, "
            f"{args.policy} players — {str(summary['winner']).capitalize()} wins"
        )
        story, rounds = text.splitlines(), [event.round for event in game.log]
        _write_text(page, game_page(frames, story, standings(game), title=title, rounds=rounds))
    written = [str(p) for p in (log, events, page) if p is not None]
    if args.json == "-":
        print(json.dumps(summary, indent=1))
    elif not written:
        print(text)
        print()
        print(_standings_text(game))
    else:
        print(f"wrote {', '.join(written)}; {summary['winner']} wins ({summary['end_reason']})")
        print(_standings_text(game))
    return 0


def _output_file(value: str | None, flag: str, suffix: str) -> Path | None:
    """The file an option writes, checked before the game is played."""
    if value is None:
        return None
    path = Path(value)
    if path.is_dir():
        _fail(f"{flag} {value!r} is a folder; give a file name such as game{suffix}")
    if not path.parent.exists():
        _fail(f"{flag} {value!r}: folder {str(path.parent)!r} does not exist")
    return path


def _write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (a temporary file, then a rename)."""
    tmp = path.with_name(path.name + ".part")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def standings(game: Any) -> list[dict[str, Any]]:
    """The houses of a finished (or running) ``Game`` at its current state: the winner first,
    then by castles and strongholds held, supply and power in hand."""
    from gotsim.play.runner import castle_table
    from gotsim.rules.ids import House

    g = game.record
    castles = castle_table(game.games, game.rules)[0]
    rows = [
        {
            "house": house.id,
            "castles": int(castles[house]),
            "supply": int(g.supply[house]),
            "power": int(g.power[house]),
            "iron_throne": int(list(g.track[0]).index(house)) + 1,
            "winner": game.winner == house,
        }
        for house in House
        if g.in_play[house]
    ]
    rows.sort(key=lambda r: (not r["winner"], -r["castles"], -r["supply"], -r["power"]))
    return rows


def _standings_text(game: Any) -> str:
    rows = standings(game)
    lines = [
        f"Standings after round {int(game.record.game_round)}:",
        "    house      castles  supply  power  Iron Throne",
    ]
    for place, r in enumerate(rows, 1):
        mark = "  (winner)" if r["winner"] else ""
        lines.append(
            f"{place:>2}. {r['house'].capitalize():<10} {r['castles']:>7} {r['supply']:>7} "
            f"{r['power']:>6} {r['iron_throne']:>12}{mark}"
        )
    return "\n".join(lines)


def _play_with_pictures(game: Any, folder: Path | None, policy: Any) -> list[Any]:
    """Play on, taking a board picture at the start of every round's planning phase and at the
    end (written to ``folder`` as round_NN.png and final.png when given); returns the frames of
    ``gotsim play --html``."""
    import matplotlib

    matplotlib.use("Agg")
    from gotsim.analysis.game_page import play_with_frames

    def write(label: str, png: bytes) -> None:
        assert folder is not None
        name = "final.png" if label == "The end" else f"round_{int(label.split()[-1]):02d}.png"
        _write_bytes(folder / name, png)

    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    return play_with_frames(game, policy, dpi=80, on_picture=write if folder else None)


def _write_bytes(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".part")
    tmp.write_bytes(data)
    tmp.replace(path)


# the 1st edition's A Clash of Kings modules: gotsim.engine.tables.CLASH_OF_KINGS_VARIANTS,
# written out so that the command starts without importing the engine (a test keeps them equal)
CLASH_OF_KINGS_VARIANTS = (
    "fortifications",
    "siege_engines",
    "westeros_lookahead",
    "ports",
    "one_time_orders",
    "three_card_combat",
)


def _variant_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant",
        action="append",
        choices=CLASH_OF_KINGS_VARIANTS,
        metavar="MODULE",
        help="an A Clash of Kings module of the 1st edition (repeat for several): "
        + ", ".join(CLASH_OF_KINGS_VARIANTS),
    )


def _cmd_bench(args: argparse.Namespace) -> int:
    import time

    from gotsim.play.simulate import play_games

    _check_edition(args)
    if args.games <= 0:
        _fail(f"--games must be positive, got {args.games}")
    if args.jobs <= 0:
        _fail(f"--jobs must be positive, got {args.jobs}")
    from gotsim.study.runner import capped_jobs

    if capped_jobs(args.jobs) < args.jobs:
        print(
            f"gotsim: note: --jobs {args.jobs} capped at {capped_jobs(args.jobs)}, the cores "
            "this machine has",
            file=sys.stderr,
        )
        args.jobs = capped_jobs(args.jobs)
    kw = {
        "players": args.players,
        "edition": args.edition,
        "n_jobs": args.jobs,
        "policies": args.policy,
        "variants": _variants(args),
    }
    policies = [args.policy] + ([args.compare] if args.compare else [])
    for policy in policies:
        _status(args, f"warming up {policy} ({min(args.games, 64)} games)…")
        play_games(min(args.games, 64), **{**kw, "policies": policy})  # compile / warm up
    best = dict.fromkeys(policies, float("inf"))
    # with --compare, two alternating timings of each (the best of each counts), so that both
    # policies meet the machine in the same state
    for _ in range(2 if args.compare else 1):
        for policy in policies:
            _status(args, f"timing {args.games:,} {policy} games…")
            start = time.perf_counter()
            play_games(args.games, seed=12345, **{**kw, "policies": policy})
            best[policy] = min(best[policy], time.perf_counter() - start)
    elapsed = best[args.policy]
    result: dict[str, Any] = {
        "games_per_s": round(args.games / elapsed, 1),
        "games": args.games,
        "players": args.players,
        "edition": args.edition,
        "policy": args.policy,
        "jobs": args.jobs,
        "seconds": round(elapsed, 3),
    }
    line = (
        f"{result['games_per_s']:,} games/s ({args.games} games, {args.players} players, "
        f"{args.policy} policy, {args.jobs} jobs)"
    )
    if args.compare:
        other = round(args.games / best[args.compare], 1)
        ratio = best[args.compare] / elapsed
        result.update(compare=args.compare, compare_games_per_s=other, ratio=round(ratio, 4))
        line = (
            f"{args.policy}: {result['games_per_s']:,} games/s; {args.compare}: {other:,} "
            f"games/s; {args.policy} runs at {ratio:.1%} of {args.compare}'s rate ({args.games} "
            f"games each, best of 2, {args.players} players, {args.jobs} jobs)"
        )
    print(json.dumps(result) if args.json else line)
    return 0


def _cmd_run(args: argparse.Namespace) -> int:
    import signal
    import time

    from gotsim.study import (
        ScenarioError,
        StudyBackendError,
        StudyOutputError,
        load_scenario,
        run_study,
    )
    from gotsim.study.report import format_report
    from gotsim.study.runner import StudyInterrupted

    if args.verify is not None:
        return _verify(args)
    if args.scenario is None:
        _fail("run: give a SCENARIO file (or --verify DIR)")
    if args.jobs < 1:
        _fail(f"--jobs must be at least 1, got {args.jobs}")
    if args.scheduler is not None and not args.scheduler.startswith(("tcp://", "tls://")):
        _fail(f"--scheduler {args.scheduler!r}: expected an address such as tcp://HOST:8786")
    start = time.perf_counter()

    def terminated(signum: int, frame: object) -> None:
        raise KeyboardInterrupt  # SIGTERM stops the run as Ctrl-C does: the lock is let go

    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        scenario = load_scenario(args.scenario)
        result = run_study(
            scenario,
            jobs=args.jobs,
            out=args.out,
            scheduler=args.scheduler,
            dask_local=args.dask_local,
            quick=args.quick,
            force=args.force,
            progress=not args.quiet,
            allow_engine_change=args.allow_engine_change,
            notes=lambda text: print(f"gotsim: note: {text}", file=sys.stderr),
        )
    except (ScenarioError, StudyOutputError, StudyBackendError) as exc:
        _fail(str(exc))
    except StudyInterrupted as exc:
        print(f"\ngotsim: {exc}", file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        print("\ngotsim: interrupted before any game was played", file=sys.stderr)
        return 130
    finally:
        signal.signal(signal.SIGTERM, previous)
    report = format_report(
        result.scenario,
        result.summary,
        result.comparisons,
        out=str(result.out),
        seconds=time.perf_counter() - start,
    )
    print(report)
    return 0


def _verify(args: argparse.Namespace) -> int:
    """``gotsim run --verify DIR``: exit 0 when the folder proves itself, else 1."""
    from gotsim.study.store import verify_folder

    if args.scenario is not None:
        _fail("run: give a SCENARIO file or --verify DIR, not both")
    result = verify_folder(args.verify)
    if result.ok:
        print(result.summary())
        return 0
    print(f"gotsim: error: {result.summary()}", file=sys.stderr)
    return 1


def _cmd_report(args: argparse.Namespace) -> int:
    from gotsim.study.html_report import ReportError, report_page

    folder = Path(args.results)
    try:
        page = report_page(folder)
    except ReportError as exc:
        _fail(str(exc))
    out = Path(args.out) if args.out else folder / "report.html"
    if out.is_dir() or not out.parent.exists():
        _fail(f"--out {str(out)!r}: give a file in an existing folder")
    _write_text(out, page)
    print(f"wrote {out}")
    return 0


def _cmd_warmup(args: argparse.Namespace) -> int:
    """Compile every kernel (or load it from numba's cache) so that later commands start at
    once: the batch loops of both players, the one-game engine and the combat calculator."""
    import time

    from gotsim.jit import ANNOUNCED_ENV, KERNEL_GROUPS, group_will_compile

    os.environ[ANNOUNCED_ENV] = ",".join(KERNEL_GROUPS)  # the lines below say it instead
    steps = {
        "random": _warm_random,
        "heuristic": _warm_heuristic,
        "game": _warm_game,
        "heuristic_policy": _warm_heuristic_policy,
        "odds": _warm_odds,
    }
    start = time.perf_counter()
    compiled = 0
    for name, warm in steps.items():
        group = KERNEL_GROUPS[name]
        if group_will_compile(name):
            compiled += 1
            _status(args, f"compiling {group.what} (about {group.minutes} min on 2 cores)…")
        else:
            _status(args, f"{group.what}: in numba's cache, loading")
        began = time.perf_counter()
        warm()
        _status(args, f"  done in {time.perf_counter() - began:.0f} s")
    total = time.perf_counter() - start
    print(
        f"gotsim kernels ready ({compiled} of {len(steps)} groups compiled, {total:.0f} s); "
        "they stay in numba's cache beside the sources until a gotsim source changes"
    )
    return 0


def _warm_random() -> None:
    from gotsim.play.simulate import simulate

    simulate(1, players=3, policies="random")


def _warm_heuristic() -> None:
    from gotsim.play.simulate import simulate

    simulate(1, players=3, policies="heuristic")


def _warm_game() -> None:
    from gotsim.engine.game import Game, RandomPolicy

    game = Game(players=3, seed=0)
    for _ in range(40):  # orders, then the first raids and marches
        pending = game.pending
        if pending is None:
            break
        game.step(RandomPolicy()(game, pending))


def _warm_heuristic_policy() -> None:
    from gotsim.engine.game import Game
    from gotsim.players import make_policy

    game = Game(players=3, seed=0)
    policy = make_policy("heuristic")
    pending = game.pending
    if pending is not None:
        game.step(policy(game, pending))


WARMUP_BATTLE: dict[str, Any] = {  # cards, support, Tides and the blade: every code path
    "area": "riverrun",
    "tides_of_battle": True,
    "attacker": {
        "house": "lannister",
        "units": {"footman": 2, "knight": 1},
        "order": "march+0",
        "hand": ["tywin_lannister", "tyrion_lannister", "cersei_lannister"],
    },
    "defender": {
        "house": "stark",
        "units": {"footman": 1},
        "order": "defense+1",
        "hand": ["eddard_stark", "the_blackfish", "catelyn_stark"],
    },
    "support": [
        {"house": "greyjoy", "side": "attacker", "units": {"ship": 1}, "order": "support+0"}
    ],
    "blade_holder": "lannister",
}


def _warm_odds() -> None:
    from gotsim.odds import combat_odds

    for model in ("uniform", "equilibrium"):
        combat_odds(WARMUP_BATTLE, model=model)
    combat_odds(WARMUP_BATTLE, samples=64)


def build_parser() -> argparse.ArgumentParser:
    from gotsim import __version__

    parser = _Parser(
        prog="gotsim",
        description="A Game of Thrones: The Board Game: simulator, combat odds and studies.",
        epilog="`gotsim COMMAND --help` describes a command. The first command that plays games "
        "compiles its kernels (minutes, once); `gotsim warmup` does it ahead.",
    )
    parser.add_argument("--version", action="version", version=f"gotsim {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    board = sub.add_parser("board", help="draw the starting position as a PNG")
    board.add_argument("--edition", choices=EDITIONS, default="2e", help="rules edition")
    board.add_argument("--players", type=_players, default=6, help="number of players")
    board.add_argument("--out", default="board.png", help="PNG path")
    board.add_argument(
        "--dpi", type=int_argument("--dpi", 10, 1200), default=150, help="picture resolution"
    )
    board.add_argument(
        "--kings-court-swap", action="store_true", help="swap Tyrell and Greyjoy on King's Court"
    )
    board.set_defaults(run=_cmd_board)

    cards = sub.add_parser("cards", help="list the house cards")
    cards.add_argument("--edition", choices=EDITIONS, default="2e", help="rules edition")
    cards.add_argument("--json", action="store_true", help="print JSON instead of a table")
    cards.set_defaults(run=_cmd_cards)

    combat = sub.add_parser("combat", help="exact odds of a battle given as JSON")
    combat.add_argument("battle", nargs="?", help="battle spec (JSON file, see docs/combat.md)")
    _add_position_options(combat)
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
    combat.set_defaults(run=_cmd_combat)

    play = sub.add_parser("play", help="play one game and narrate it")
    play.add_argument("--players", type=_players, default=6, help="number of players")
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
    _variant_argument(play)
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
    play.set_defaults(run=_cmd_play)

    bench = sub.add_parser("bench", help="measure complete games per second")
    bench.add_argument("--players", type=_players, default=6, help="number of players")
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
    _variant_argument(bench)
    bench.add_argument("--json", action="store_true", help="print the result as JSON")
    bench.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    bench.set_defaults(run=_cmd_bench)

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
        "--force", action="store_true", help="replace another scenario's results (only ours)"
    )
    run.add_argument(
        "--allow-engine-change",
        action="store_true",
        help="keep finished blocks played by another version of the engine",
    )
    run.add_argument("--verify", metavar="DIR", help="check a results folder against its manifest")
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    run.set_defaults(run=_cmd_run)

    report = sub.add_parser(
        "report", help="write one HTML page of a study's results (tables, figures, provenance)"
    )
    report.add_argument("results", help="a study's results folder (gotsim run writes it)")
    report.add_argument("--out", help="the page to write (default RESULTS/report.html)")
    report.set_defaults(run=_cmd_report)

    warmup = sub.add_parser(
        "warmup",
        help="compile every kernel ahead (minutes, once; kept in numba's cache)",
        description="Compile the kernels of both players' batch loops, the one-game engine and "
        "the combat calculator, so that later commands start at once. Compiled code stays in "
        "numba's cache beside the sources until a gotsim source changes.",
    )
    warmup.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    warmup.set_defaults(run=_cmd_warmup)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from gotsim.inputs import os_error_text

    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # bare `gotsim`: what it can do
        parser.print_help(sys.stderr)
        return EXIT_BAD_INPUT
    _early_compile_notice(args)
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
        print(f"gotsim: error: {text}", file=sys.stderr)
        return code
    return status


if __name__ == "__main__":
    raise SystemExit(main())
