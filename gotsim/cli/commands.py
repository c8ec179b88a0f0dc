"""What each ``gotsim`` subcommand does (``board``, ``cards``, ``combat``, ``play``, ``bench``,
``run``, ``verify``, ``report``, ``warmup``); each imports what it needs when it runs, so the
command starts at once."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from gotsim.cli.common import (
    PORTS,
    announce,
    check_edition,
    check_expansion,
    chosen_variants,
    distinct_outputs,
    fail,
    output,
    output_file,
    python_policy,
    say_status,
    write_bytes_file,
    write_text_file,
)
from gotsim.inputs import (
    InputError,
    atomic_write,
    check_output_file,
)
from gotsim.rules.variants import EIGHT_HOUSES, VASSALS


def cmd_board(args: argparse.Namespace) -> int:
    from gotsim.rules.board import load_board
    from gotsim.rules.setup import SetupDataError, load_setup
    from gotsim.rules.variants import EYRIE_PORT, expansion_board

    out = Path(args.out)
    if out.suffix.lower() != ".png":
        fail(f"--out {args.out!r}: the board picture is a PNG, give a path ending in .png")
    output(check_output_file, args.out, "--out")
    if args.position is not None:
        return _draw_position(args, out)
    if VASSALS in (args.variant or ()) or EIGHT_HOUSES in (args.variant or ()):
        return _draw_vassal_start(args, out)  # (a vassal game has its own player counts)
    check_expansion(args)
    port = EYRIE_PORT in (args.variant or ())
    if port and args.expansion != "affc":
        fail(f"--variant {EYRIE_PORT}: an A Feast for Crows option (--expansion affc)")
    ports = PORTS in (args.variant or ())
    if ports and args.edition != "1e":
        fail("--variant ports: a 1st-edition option (--edition 1e; 2nd-edition boards have ports)")
    try:
        setup = load_setup(
            args.edition,
            args.players,
            kings_court_swap=args.kings_court_swap,
            expansion=args.expansion,
        )
    except SetupDataError as exc:
        fail(f"--players {args.players}: {exc}")

    import matplotlib

    matplotlib.use("Agg")
    from gotsim.analysis.board_plot import save_board_picture

    board = load_board(args.edition, board=expansion_board(args.expansion, args.players, port))
    path = save_board_picture(out, setup, board, dpi=args.dpi, ports=ports or None)
    which = f", {args.expansion}" if args.expansion else ""
    which += ", The Eyrie's port" if port else ""
    which += ", A Clash of Kings' ports" if ports else ""
    print(f"wrote {path} ({args.edition}{which}, {args.players} players, starting position)")
    return 0


def _draw_vassal_start(args: argparse.Namespace, out: Path) -> int:
    """``gotsim board --variant vassals``: the start of a game with vassals (each named so in
    the legend); a game the rules do not have is one line, exit 2."""
    from gotsim.engine.position import starting_position

    variants = set(args.variant or ())
    if EIGHT_HOUSES in variants and VASSALS not in variants:
        fail(f"--variant {EIGHT_HOUSES}: a vassals option (add --variant {VASSALS})")
    try:
        position = starting_position(
            args.edition,
            args.players,
            expansion=args.expansion,
            vassals=True,
            eight_houses=EIGHT_HOUSES in variants,
            kings_court_swap=args.kings_court_swap,
        )
    except ValueError as exc:
        fail(f"--variant {VASSALS}: {str(exc).removeprefix('vassals: ')}")

    import matplotlib

    matplotlib.use("Agg")
    from gotsim.analysis.board_plot import draw_position, save_figure

    path = save_figure(draw_position(position), out, dpi=args.dpi)
    which = f", {args.expansion}" if args.expansion else ""
    print(f"wrote {path} ({args.edition}{which}, {args.players} players and vassals, start)")
    return 0


def _draw_position(args: argparse.Namespace, out: Path) -> int:
    """``gotsim board --position FILE``: that position; a bad one is one line, exit 2."""
    from gotsim.engine.position import PositionError, load_position
    from gotsim.inputs import read_json_file

    flags = (
        ("--edition", getattr(args, "edition_given", False)),
        ("--players", getattr(args, "players_given", False)),
        ("--expansion", args.expansion is not None),
        ("--kings-court-swap", args.kings_court_swap),
        ("--variant", bool(args.variant)),
    )
    given = [flag for flag, on in flags if on]
    if given:
        fail(f"--position: the position names its game; leave out {', '.join(given)}")
    try:
        position = load_position(read_json_file(args.position, "position"))
    except (InputError, PositionError) as exc:
        message = str(exc)
        fail(message if message.startswith(args.position) else f"{args.position}: {message}")
    import matplotlib

    matplotlib.use("Agg")
    from gotsim.analysis.board_plot import draw_position, save_figure

    path = save_figure(draw_position(position), out, args.dpi)
    print(f"wrote {path} ({position!r})")
    return 0


def cmd_cards(args: argparse.Namespace) -> int:
    from gotsim.rules.cards import house_cards, implemented_in

    if args.card_set != "base" and args.edition != "2e":
        names = {"affc": "A Feast for Crows", "mod": "Mother of Dragons"}
        name = names.get(args.card_set, "A Dance with Dragons")
        fail(f"--set {args.card_set}: the {name} house cards are 2nd-edition cards")
    rows: list[dict[str, Any]] = []
    for card in house_cards(args.edition, args.card_set):
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


def cmd_combat(args: argparse.Namespace) -> int:
    from gotsim.odds import BattleSpecError, combat_odds
    from gotsim.odds.report import format_odds
    from gotsim.odds.spec import parse_battle

    if args.samples is not None and args.samples <= 0:
        fail(f"--samples must be positive, got {args.samples}")
    source, spec = _combat_source(args)
    try:
        parse_battle(spec)  # a bad spec is one line, before any compile is announced
        announce("odds")
        result = combat_odds(spec, model=args.model, samples=args.samples, seed=args.seed)
    except BattleSpecError as exc:
        message = str(exc)
        fail(message if message.startswith(source) else f"{source}: {message}")
    if args.json:
        print(json.dumps(result.to_dict(), indent=1))
    else:
        print(format_odds(result))
    return 0


# --- combat --position: a battle drawn from a board position (docs/positions.md) ---

_POSITION_FLAGS = (("--area", "area"), ("--from", "from_area"), ("--attacker", "attacker"))
_POSITION_OPTIONAL = (("--units", "units"), ("--support", "support"))


def add_position_options(combat: argparse.ArgumentParser) -> None:
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
            fail(f"{flag}: expected comma-separated pairs such as {example}, got {text!r}")
        if key.strip() in out:
            fail(f"{flag}: {key.strip()} is given twice, in {text!r}")
        out[key.strip()] = value.strip()
    return out


def _combat_source(args: argparse.Namespace) -> tuple[str, Any]:
    """The battle to price and the name of its source: a BATTLE file, or --position options."""
    from gotsim.engine.position import PositionError, battle_from_position, load_position
    from gotsim.inputs import read_json_file

    flags = _POSITION_FLAGS + _POSITION_OPTIONAL
    given = [flag for flag, key in flags if getattr(args, key) is not None]
    if (args.battle is None) == (args.position is None):
        fail("combat: give either a BATTLE file or --position POS.json (exactly one)")
    if args.position is None:
        if given:
            fail(f"combat: {given[0]} goes with --position, not with a BATTLE file")
        return args.battle, Path(args.battle)
    missing = [flag for flag, key in _POSITION_FLAGS if getattr(args, key) is None]
    if missing:
        fail(f"combat --position: also give {', '.join(missing)}")
    units: dict[str, int] = {}
    for unit, count in _pairs(args.units, "--units", "footman=2,knight=1").items():
        if not (count.isascii() and count.isdigit()) or len(count) > 2 or int(count) > 20:
            fail(f"--units: {unit}={count!r} is not a whole number from 0 to 20")
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
        fail(message if message.startswith(args.position) else f"{args.position}: {message}")
    return args.position, spec


def cmd_play(args: argparse.Namespace) -> int:
    from gotsim.engine.game import Game

    check_edition(args)
    log = output_file(args.log, "--log")
    pictures = output_file(args.pictures, "--pictures", folder=True)
    page = output_file(args.html, "--html")
    events = output_file(args.json if args.json != "-" else None, "--json")
    distinct_outputs(**{"--log": log, "--json": events, "--html": page})
    announce("game")
    if args.policy == "heuristic":
        announce("heuristic_policy")
    game = Game(
        players=args.players,
        seed=args.seed,
        edition=args.edition,
        variants=chosen_variants(args),
        expansion=args.expansion,
    )
    policy = python_policy(args.policy)
    frames = None
    if pictures is not None or page is not None:
        frames = _play_with_pictures(game, pictures, policy)
    else:
        game.play(policy)
    summary = {
        "players": args.players,
        "edition": args.edition,
        "expansion": args.expansion,
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
        write_text_file(events, "\n".join(records) + "\n")
    if page is not None and frames is not None:
        from gotsim.analysis.board_plot import EXPANSION_TITLES
        from gotsim.analysis.game_page import game_page

        named = EXPANSION_TITLES.get(args.expansion or "", "")
        title = (
            f"gotsim play: {args.players} players, {args.edition}{named}, seed {args.seed}, "
            f"{args.policy} players — {str(summary['winner']).capitalize()} wins"
        )
        story, rounds = text.splitlines(), [event.round for event in game.log]
        write_text_file(page, game_page(frames, story, standings(game), title=title, rounds=rounds))
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


def standings(game: Any) -> list[dict[str, Any]]:
    """The houses of a finished (or running) ``Game`` at its current state: the winner first,
    then by castles and strongholds held, supply and power in hand; vassals (``vassal``) after
    the player houses, as they are ranked last (``docs/rules.md`` V9)."""
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
            "vassal": bool(game.t.vassal[house]),
        }
        for house in House
        if g.in_play[house]
    ]
    rows.sort(
        key=lambda r: (not r["winner"], r["vassal"], -r["castles"], -r["supply"], -r["power"])
    )
    return rows


def _standings_text(game: Any) -> str:
    rows = standings(game)
    lines = [
        f"Standings after round {int(game.record.game_round)}:",
        "    house      castles  supply  power  Iron Throne",
    ]
    for place, r in enumerate(rows, 1):
        mark = "  (winner)" if r["winner"] else "  (vassal)" if r["vassal"] else ""
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

    written: list[Path] = []

    def write(label: str, png: bytes) -> None:
        assert folder is not None
        name = "final.png" if label == "The end" else f"round_{int(label.split()[-1]):02d}.png"
        write_bytes_file(folder / name, png)
        written.append(folder / name)

    made = folder is not None and not folder.exists()
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    try:
        return play_with_frames(game, policy, dpi=80, on_picture=write if folder else None)
    except OSError:
        # a failed write (a full disk): nothing half-written stays, the pictures written so
        # far and a folder made for them included
        for path in written:
            path.unlink(missing_ok=True)
        if made and folder is not None:
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise


def cmd_bench(args: argparse.Namespace) -> int:
    import time

    from gotsim.play.simulate import play_games

    check_edition(args)
    if args.games <= 0:
        fail(f"--games must be positive, got {args.games}")
    if args.jobs <= 0:
        fail(f"--jobs must be positive, got {args.jobs}")
    if args.compare == args.policy:
        fail(f"--compare {args.compare}: the policy timed already; compare it with another")
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
        "variants": chosen_variants(args),
        "expansion": args.expansion,
    }
    policies = [args.policy] + ([args.compare] if args.compare else [])
    for policy in policies:
        say_status(args, f"warming up {policy} ({min(args.games, 64)} games)…")
        play_games(min(args.games, 64), **{**kw, "policies": policy})  # compile / warm up
    best = dict.fromkeys(policies, float("inf"))
    # with --compare, two alternating timings of each (the best of each counts), so that both
    # policies meet the machine in the same state
    for _ in range(2 if args.compare else 1):
        for policy in policies:
            say_status(args, f"timing {args.games:,} {policy} games…")
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


def cmd_run(args: argparse.Namespace) -> int:
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
        fail("run: give a SCENARIO file (or --verify DIR)")
    if args.jobs < 1:
        fail(f"--jobs must be at least 1, got {args.jobs}")
    if args.scheduler is not None and not args.scheduler.startswith(("tcp://", "tls://")):
        fail(f"--scheduler {args.scheduler!r}: expected an address such as tcp://HOST:8786")
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
        fail(str(exc))
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
        fail("run: give a SCENARIO file or --verify DIR, not both")
    folder = Path(args.verify)
    if not folder.exists():
        fail(f"--verify {args.verify!r}: no such folder")
    if not folder.is_dir():
        fail(f"--verify {args.verify!r}: is a file, not a results folder")
    result = verify_folder(folder)
    if result.ok:
        print(result.summary())
        return 0
    print(f"gotsim: error: {result.summary()}", file=sys.stderr)
    return 1


def cmd_report(args: argparse.Namespace) -> int:
    from gotsim.study.html_report import ReportError, report_page

    folder = Path(args.results)
    out = output_file(args.out, "--out") if args.out is not None else None
    try:
        page = report_page(folder)
    except ReportError as exc:
        fail(str(exc))
    out = out or folder / "report.html"
    write_text_file(out, page)
    print(f"wrote {out}")
    return 0


def cmd_warmup(args: argparse.Namespace) -> int:
    """Compile every kernel (or load it from numba's cache) so that later commands start at
    once: the batch loops of both players, the one-game engine, the combat calculator and the
    search player."""
    import time

    from gotsim.jit import ANNOUNCED_ENV, KERNEL_GROUPS, group_will_compile

    os.environ[ANNOUNCED_ENV] = ",".join(KERNEL_GROUPS)  # the lines below say it instead
    steps = {
        "random": _warm_random,
        "heuristic": _warm_heuristic,
        "game": _warm_game,
        "heuristic_policy": _warm_heuristic_policy,
        "odds": _warm_odds,
        "search": _warm_search,
    }
    start = time.perf_counter()
    compiled = 0
    for name, warm in steps.items():
        group = KERNEL_GROUPS[name]
        if group_will_compile(name):
            compiled += 1
            say_status(args, f"compiling {group.what} (about {group.duration} on 2 cores)…")
        else:
            say_status(args, f"{group.what}: in numba's cache, loading")
        began = time.perf_counter()
        warm()
        say_status(args, f"  done in {time.perf_counter() - began:.0f} s")
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


def _warm_search() -> None:
    from gotsim.play.simulate import simulate

    searcher = {"kind": "search", "rollouts": 1, "candidates": 2}
    simulate(1, players=3, policies={"default": "heuristic", "stark": searcher})


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
