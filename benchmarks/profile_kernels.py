"""Where the compiled kernels spend their time, by function: N seeded games on one core sampled by
Linux ``perf`` (the CPU clock, 4,000 samples a second), the samples in numba's compiled code
named after the gotsim function they fall in.

Run: ``python benchmarks/profile_kernels.py [--games N] [--players P] [--policy P] [--top K]``.
Prints a table (the K largest shares of the samples taken while the games ran, each gotsim
function's own, the code that is not gotsim's in a few named lumps) and one JSON object. Needs
``perf`` (Debian: linux-perf; some virtual machines do not offer the CPU counters, the CPU
clock works everywhere) and ``nm`` (binutils). Only the timed games are sampled
(``perf record --control``), not the start-up.

``--lines FUNCTION`` (``orders._plan``, or any end of a gotsim function's dotted name) shows
where in that function the time goes, by source line: the kernels are compiled with line
information (``NUMBA_DEBUGINFO=1``) into a cache of their own (``gotsim-debuginfo`` in the
temporary directory; several minutes the first time, reused while the sources stay the same),
and each sample in the function is looked up with ``addr2line``. Lines of functions inlined into
it count as the line that calls them; samples the line information does not cover are shown as
``?``.

Numba's compiled code has no symbols that perf can see. The kernels come from numba's cache,
where each is kept as an ELF object: this script finds the objects of the loaded kernels, reads
their symbol tables with ``nm``, places them at the loaded addresses and writes the
``/tmp/perf-PID.map`` file that perf reads. A function inlined into its caller counts as its
caller.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import glob
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

SAMPLE_HZ = 4000
_NAME = re.compile(r"(\d+)")


def demangle(symbol: str) -> str:
    """``gotsim.players.marching.allocate`` from numba's mangled name (its ``_ZN…`` path)."""
    if not symbol.startswith("_ZN"):
        return symbol
    parts = []
    i = 3
    while i < len(symbol) and symbol[i].isdigit():
        m = _NAME.match(symbol, i)
        assert m is not None
        n = int(m.group(1))
        i = m.end()
        parts.append(symbol[i : i + n])
        i += n
    return ".".join(parts) if parts else symbol


def _elf_objects(raw: bytes):
    """The ELF objects stored in a numba cache file (each with its exact length)."""
    i = raw.find(b"\x7fELF")
    while i >= 0:
        # ELF64 header: e_shoff at 0x28, e_shentsize and e_shnum at 0x3A; section headers last
        shoff = struct.unpack_from("<Q", raw, i + 0x28)[0]
        shentsize, shnum = struct.unpack_from("<HH", raw, i + 0x3A)
        end = i + shoff + shentsize * shnum
        yield raw[i:end]
        i = raw.find(b"\x7fELF", end)


def _symbols(obj: bytes) -> dict[str, tuple[int, int, str]]:
    """Defined function symbols of an ELF object: name -> (value, size, section letter)."""
    with tempfile.NamedTemporaryFile(suffix=".o") as fh:
        fh.write(obj)
        fh.flush()
        out = subprocess.run(
            ["nm", "-S", "--defined-only", fh.name], capture_output=True, text=True, check=True
        ).stdout
    syms = {}
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[2] in "tTwW":
            syms[fields[3]] = (int(fields[0], 16), int(fields[1], 16), fields[2])
    return syms


def write_perf_map(keep: str | None = None) -> int:
    """Write ``/tmp/perf-PID.map`` for every loaded gotsim kernel; returns the symbols named.
    ``keep``: a folder to write each kernel's object into, with ``objects.json`` listing them
    (file, load address, symbols), for ``addr2line``."""
    from numba.core.registry import CPUDispatcher

    lines = []
    kept: list[dict[str, object]] = []
    for d in [o for o in gc.get_objects() if isinstance(o, CPUDispatcher)]:
        module = sys.modules.get(d.py_func.__module__)
        if module is None or not d.py_func.__module__.startswith("gotsim"):
            continue
        # numba's cache folder for the kernel (beside its source, or under NUMBA_CACHE_DIR)
        cache_path = getattr(getattr(d, "_cache", None), "_cache_path", None)
        cache = Path(cache_path) if cache_path else Path(module.__file__).parent / "__pycache__"
        stem = f"{d.py_func.__module__.rsplit('.', 1)[-1]}.{d.py_func.__name__}-"
        for cres in d.overloads.values():
            entry = cres.fndesc.llvm_func_name
            address = cres.library.get_pointer_to_function(entry)
            found = False
            for path in glob.glob(str(cache / f"{stem}*.nbc")):
                for obj in _elf_objects(Path(path).read_bytes()):
                    syms = _symbols(obj)
                    if entry not in syms:
                        continue
                    # the code of one object is loaded as one block: offsets are kept
                    base = address - syms[entry][0]
                    lines += [f"{base + v:x} {n:x} {name}" for name, (v, n, _) in syms.items()]
                    if keep is not None:
                        path_o = Path(keep) / f"kernel{len(kept)}.o"
                        path_o.write_bytes(obj)
                        spans = {name: [v, n] for name, (v, n, _) in syms.items()}
                        kept.append({"file": str(path_o), "base": base, "symbols": spans})
                    found = True
                    break
                if found:
                    break
    Path(f"/tmp/perf-{os.getpid()}.map").write_text("\n".join(lines) + "\n")
    if keep is not None:
        Path(keep, "objects.json").write_text(json.dumps(kept))
    return len(lines)


def child(args: argparse.Namespace) -> None:
    """Play the games under perf, sampling only the timed ones; then name the kernels."""
    import warnings

    from numba.core.errors import NumbaDebugInfoWarning

    from gotsim.play.simulate import play_games

    warnings.simplefilter("ignore", NumbaDebugInfoWarning)  # (numba's own helpers, by the score)

    kw = {"players": args.players, "n_jobs": 1, "policies": args.policy}
    play_games(8, seed=1, **kw)  # compile / load the kernels
    ctl = os.open(args.ctl, os.O_WRONLY)
    ack = os.open(args.ack, os.O_RDONLY)

    def command(word: bytes) -> None:
        os.write(ctl, word + b"\n")
        os.read(ack, 16)

    command(b"enable")
    start = time.perf_counter()
    play_games(args.games, seed=12345, **kw)
    elapsed = time.perf_counter() - start
    command(b"disable")
    named = write_perf_map(args.keep)
    print(json.dumps({"seconds": elapsed, "symbols": named, "pid": os.getpid()}))


def line_profile(data: str, keep: str, function: str, top: int) -> tuple[int, int, list]:
    """The samples in ``perf.data`` that fall in gotsim function ``function`` (a dotted name or
    its end), by source line: (samples in it, all samples, [(share, "file:line", text)])."""
    objects = json.loads(Path(keep, "objects.json").read_text())
    spans = []  # (start, end, object file, load address)
    for o in objects:
        for name, (value, size) in o["symbols"].items():
            full = demangle(name)
            if full == function or full.endswith("." + function.lstrip(".")):
                spans.append((o["base"] + value, o["base"] + value + size, o["file"], o["base"]))
    if not spans:
        sys.exit(f"profile_kernels: no compiled gotsim function named {function!r} ran")
    script = subprocess.run(
        ["perf", "script", "-i", data, "-F", "ip"], capture_output=True, text=True, check=True
    ).stdout.split()
    offsets: dict[str, list[int]] = defaultdict(list)
    total = 0
    for word in script:
        ip = int(word, 16)
        total += 1
        for start, end, path, base in spans:
            if start <= ip < end:
                offsets[path].append(ip - base)
                break
    counts: dict[str, int] = defaultdict(int)
    for path, offs in offsets.items():
        out = subprocess.run(
            ["addr2line", "-e", path, "-a"],
            input="\n".join(hex(x) for x in offs),
            capture_output=True,
            text=True,
            check=True,
        ).stdout.splitlines()
        for line in out:
            if not line.startswith("0x"):
                where = line.split(" (discriminator")[0]
                counts["?" if where.endswith(":?") or where.startswith("??") else where] += 1
    inside = sum(counts.values())
    rows = []
    for where, n in sorted(counts.items(), key=lambda kv: -kv[1])[:top]:
        text = ""
        if where != "?":
            file, _, number = where.rpartition(":")
            # (a source that moved or changed: the line's number alone)
            with contextlib.suppress(OSError, ValueError, IndexError):
                text = Path(file).read_text().splitlines()[int(number) - 1].strip()
            where = f"{Path(file).name}:{number}"
        rows.append((n / max(inside, 1), where, text))
    return inside, total, rows


def _lump(symbol: str, dso: str) -> str:
    if symbol.startswith("_ZN6gotsim"):
        return demangle(symbol)
    if "python" in dso:
        return "(Python interpreter)"
    if "kernel" in dso:
        return "(operating system)"
    if "libc" in dso or "ld-linux" in dso:
        return "(C library)"
    return f"(other: {dso})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--policy", default="heuristic", choices=("heuristic", "random"))
    parser.add_argument("--top", type=int, default=40, help="functions (or lines) shown")
    parser.add_argument(
        "--lines",
        metavar="FUNCTION",
        help="where in this gotsim function the time goes, by source line (orders._plan)",
    )
    parser.add_argument("--keep", help=argparse.SUPPRESS)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--ctl", help=argparse.SUPPRESS)
    parser.add_argument("--ack", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.games <= 0:
        parser.error(f"--games must be positive, got {args.games}")
    if args.child:
        child(args)
        return
    for tool in ("perf", "nm") + (("addr2line",) if args.lines else ()):
        if shutil.which(tool) is None:
            sys.exit(f"profile_kernels: needs {tool!r} on the PATH")
    env = dict(os.environ)
    if args.lines:
        # line information changes the compiled objects: a cache of their own
        env["NUMBA_DEBUGINFO"] = "1"
        env["NUMBA_CACHE_DIR"] = os.path.join(tempfile.gettempdir(), "gotsim-debuginfo")
        print(
            "kernels compiled with line information, cached in "
            f"{env['NUMBA_CACHE_DIR']} (several minutes the first time)",
            file=sys.stderr,
            flush=True,
        )
    with tempfile.TemporaryDirectory() as tmp:
        ctl, ack, data = (os.path.join(tmp, n) for n in ("ctl", "ack", "perf.data"))
        os.mkfifo(ctl)
        os.mkfifo(ack)
        record = ["perf", "record", "-q", "-e", "cpu-clock", "-F", str(SAMPLE_HZ), "-D", "-1"]
        record += ["--control", f"fifo:{ctl},{ack}", "-o", data, "--"]
        record += [sys.executable, __file__, "--child", "--ctl", ctl, "--ack", ack]
        record += ["--games", str(args.games), "--players", str(args.players)]
        record += ["--policy", args.policy]
        if args.lines:
            record += ["--keep", tmp]
        run = subprocess.run(
            record,
            stdout=subprocess.PIPE,
            stderr=None if args.lines else subprocess.PIPE,  # (compiling says so)
            text=True,
            env=env,
        )
        if run.returncode != 0:
            sys.exit(f"perf record failed: {(run.stderr or '').strip().splitlines()[-1:]}")
        timing = json.loads(run.stdout.strip().splitlines()[-1])
        if args.lines:
            inside, total, rows = line_profile(data, tmp, args.lines, args.top)
            Path(f"/tmp/perf-{timing['pid']}.map").unlink(missing_ok=True)
            us = 1e6 * timing["seconds"] / args.games
            print(
                f"{args.lines}: {100 * inside / max(total, 1):.1f} % of the samples "
                f"({inside} of {total}; {us:.0f} µs per game on one core, line information on)"
            )
            for share, where, text in rows:
                print(f"  {100 * share:5.1f}%  {where:<18} {text[:80]}")
            lines = {where: round(share, 4) for share, where, _ in rows}
            print(
                json.dumps(
                    {"function": args.lines, "share": inside / max(total, 1), "lines": lines}
                )
            )
            return
        report = subprocess.run(
            [
                "perf",
                "report",
                "-i",
                data,
                "--stdio",
                "--no-children",
                "-F",
                "overhead,dso,sym",
                "-t",
                "|",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    Path(f"/tmp/perf-{timing['pid']}.map").unlink(missing_ok=True)
    shares: dict[str, float] = defaultdict(float)
    for line in report.splitlines():
        fields = [f.strip() for f in line.split("|")]
        if len(fields) == 3 and fields[0].endswith("%"):
            symbol = fields[2].split(" ", 1)[-1]  # (after perf's "[.] ")
            shares[_lump(symbol, fields[1])] += float(fields[0][:-1])
    total = sum(shares.values()) or 1.0
    ranked = sorted(shares.items(), key=lambda kv: -kv[1])
    us = 1e6 * timing["seconds"] / args.games
    print(f"{us:.0f} µs per game on one core, {timing['symbols']} kernel symbols named")
    for name, share in ranked[: args.top]:
        print(f"  {100 * share / total:5.1f}%  {name}")
    print(
        json.dumps(
            {
                "games": args.games,
                "players": args.players,
                "policy": args.policy,
                "us_per_game": round(us),
                "shares": {k: round(v / total, 4) for k, v in ranked[: args.top]},
            }
        )
    )


if __name__ == "__main__":
    main()
