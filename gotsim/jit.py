"""How gotsim compiles its kernels: ``@njit`` is ``numba.njit`` with the project's options, so
every kernel is built the same way.

- ``cache=True``: compiled code is kept on disk beside the sources and reused by later runs.
- ``error_model="numpy"``: a division by zero gives ``inf``/``nan`` (0 for integers) instead of
  raising. The engine and the players never divide by zero, and without a check before every
  division the heuristic players run about 19 % faster (same results, game for game).

Numba checks a cached kernel only against its own source file, yet the kernel holds the code of
every function it calls, from any module. So the caches are tied to all of gotsim's sources and
data files: when any of them changed since a directory's kernels were compiled, those kernels
are dropped (``drop_stale_kernels``) before the first kernel there is defined, and compiled
afresh. This covers the caches beside the sources and under ``NUMBA_CACHE_DIR``, for gotsim's
own modules and for any module defining kernels with this ``njit`` (tests, a notebook's
helpers).

``NUMBA_DISABLE_JIT=1`` still runs every kernel as plain Python.

Compiling takes minutes, so the first call that will compile says so on stderr, once per
process and group of kernels (``announce_compile``); ``will_compile`` tells cheaply, from the
kernels' compiled signatures and numba's cache index, whether a call will compile.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import inspect
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

OPTIONS: dict[str, Any] = {"cache": True, "error_model": "numpy"}
ROOT = Path(__file__).resolve().parent  # the gotsim package
STAMP = "gotsim-sources.sha256"  # the sources the kernels beside it were compiled from
_checked: set[Path] = set()


@functools.cache
def sources_digest(root: Path = ROOT) -> str:
    """SHA-256 over the names and contents of every Python source and JSON data file under
    ``root`` (tables read at import can end up in compiled code as constants)."""
    digest = hashlib.sha256()
    files = [*root.rglob("*.py"), *root.rglob("*.json")]
    for path in sorted(p for p in files if "__pycache__" not in p.parts):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def cache_dirs(source: Path) -> list[Path]:
    """Where numba may keep the kernels of the module ``source``: ``__pycache__`` beside it,
    and its directory under ``NUMBA_CACHE_DIR`` when that is set."""
    import numba
    from numba.core.caching import UserProvidedCacheLocator

    dirs = [source.parent / "__pycache__"]
    user_dir = getattr(numba.config, "CACHE_DIR", "")  # (set from the environment at import)
    if user_dir:
        sub = UserProvidedCacheLocator.get_suitable_cache_subpath(str(source))
        dirs.append(Path(user_dir) / sub)
    return dirs


def drop_stale_kernels(cache_dir: Path, digest: str, prefix: str = "") -> int:
    """Remove the cached kernels in ``cache_dir`` (those whose file name starts with ``prefix``)
    unless its stamp says they were compiled from sources with ``digest``; then stamp it.
    Returns the files removed."""
    stamp = cache_dir / (prefix + STAMP)
    try:
        if stamp.read_text() == digest:
            return 0
    except OSError:
        pass
    removed = 0
    if cache_dir.is_dir():
        for path in cache_dir.glob(prefix + "*.nb[ic]"):
            try:
                path.unlink()
                removed += 1
            except OSError:
                pass  # gone already (another process), or not ours to remove
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        stamp.write_text(digest)
    except OSError:
        pass  # a read-only place: numba keeps its kernels elsewhere then
    return removed


def _forget_stale(func: Callable[..., Any]) -> None:
    """``drop_stale_kernels`` for the module defining ``func``, once per process: a gotsim
    package's kernels all together, another module's by its file name."""
    try:
        source = Path(inspect.getfile(func)).resolve()
    except (TypeError, OSError):
        return
    inside = ROOT in source.parents
    key = source.parent if inside else source
    if key in _checked:
        return
    _checked.add(key)
    prefix = "" if inside else source.stem + "."
    for directory in cache_dirs(source):
        drop_stale_kernels(directory, sources_digest(), prefix)


def njit(func: Callable[..., Any] | None = None, /, **options: Any) -> Any:
    """``numba.njit`` with ``OPTIONS`` (overridden or extended by ``options``): use as ``@njit``
    or ``@njit(parallel=True)``."""
    import numba

    merged = {**OPTIONS, **options}
    compile_ = numba.njit(**merged)

    def build(f: Callable[..., Any]) -> Any:
        if merged.get("cache"):
            _forget_stale(f)
        return _one_version_per_kind(compile_(f))

    return build if func is None else build(func)


def _widened(ty: Any) -> Any:
    """The argument type a kernel is compiled for when another kernel calls it with ``ty``: a
    constant (``Literal[int](3)``) as its plain type, and a signed integer narrower than 64 bits
    (a field of the game record: int8, int16) as int64."""
    from numba.core import types

    ty = types.unliteral(ty)
    if isinstance(ty, types.Integer) and getattr(ty, "signed", False) and ty.bitwidth < 64:  # type: ignore[attr-defined]
        return types.int64
    return ty


def _one_version_per_kind(dispatcher: Any) -> Any:
    """Make ``dispatcher``, when called from compiled code, compile one version for all integer
    widths and constants of an argument instead of one per combination met (numba's default:
    ``ask(g, kind, house, 2, -1)`` and ``ask(g, kind, house, area, 0)`` were two compiles,
    and one function was compiled for 23 such combinations). The caller converts its arguments;
    the results are the same (numba computes with small integers as int64 anyway), the compile
    is about half as long."""
    if not hasattr(dispatcher, "get_call_template"):
        return dispatcher  # NUMBA_DISABLE_JIT: the plain Python function
    plain = dispatcher.get_call_template

    def get_call_template(args: tuple[Any, ...], kws: dict[str, Any]) -> Any:
        return plain(tuple(_widened(a) for a in args), {k: _widened(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


# --- saying when kernels compile ------------------------------------------------------------------


@dataclass(frozen=True)
class KernelGroup:
    """Kernels compiled together by one way in: what they are, in words, the entry points (module
    and names) whose first call compiles them, and roughly how long a cold compile takes on two
    cores, in minutes, from a faster machine to a slower one (``minutes``; measured on fresh
    clones: the heuristic players' kernels alone took 4 minutes on a 2-core Intel Xeon and
    9.9 on a slower 2-core AMD EPYC, the random players' 2 and 4.9; the other groups' slower
    figure is their faster one times the same 2.5)."""

    what: str
    module: str
    kernels: tuple[str, ...]
    minutes: tuple[int, int]

    @property
    def duration(self) -> str:
        """``minutes`` in words: "4–10 minutes"."""
        low, high = self.minutes
        return f"{low}–{high} minutes" if low != high else f"{low} minute{'s' if low != 1 else ''}"


KERNEL_GROUPS: dict[str, KernelGroup] = {
    "random": KernelGroup(
        "the random players' kernels", "gotsim.play.runner", ("play_random",), (2, 5)
    ),
    "heuristic": KernelGroup(  # play_games and play_batch both play through the reused loop
        "the heuristic players' kernels", "gotsim.play.runner", ("play_policies_reused",), (4, 10)
    ),
    "game": KernelGroup(
        "the one-game engine", "gotsim.engine.machine", ("advance", "legal", "apply"), (2, 5)
    ),
    "heuristic_policy": KernelGroup(
        "the heuristic player for one game",
        "gotsim.players.heuristic",
        ("heuristic_action",),
        (6, 15),
    ),
    "odds": KernelGroup(
        "the combat calculator", "gotsim.odds.exact", ("enumerate_outcomes",), (1, 1)
    ),
    "search": KernelGroup(  # games with a search player: its rollouts and the stretches between
        "the search player's kernels",
        "gotsim.players.search",
        ("play_to_search", "play_forced"),
        (4, 10),
    ),
}
ANNOUNCED_ENV = "GOTSIM_COMPILE_ANNOUNCED"  # groups announced by this process or its parents


def will_compile(kernel: Any) -> bool:
    """Whether calling the numba dispatcher ``kernel`` will compile it: nothing compiled in this
    process yet, and no usable entry in numba's cache on disk (none there, dropped as stale, or
    made from an older file or for another CPU). Reads one small index file; compiles nothing.
    """
    import numba

    if getattr(numba.config, "DISABLE_JIT", False) or not hasattr(kernel, "signatures"):
        return False
    if kernel.signatures:
        return False
    cache = getattr(kernel, "_cache", None)
    try:
        overloads = cache._cache_file._load_index()  # type: ignore[union-attr]
    except Exception:
        return True  # no disk cache, or a numba whose cache reads differently
    if not overloads:
        return True
    try:
        magic = kernel.targetctx.codegen().magic_tuple()
        return all(key[1] != magic for key in overloads)
    except Exception:
        return False


def group_will_compile(name: str) -> bool:
    """Whether the first call of the kernel group ``name`` (a ``KERNEL_GROUPS`` key) compiles."""
    group = KERNEL_GROUPS[name]
    module = importlib.import_module(group.module)
    return any(will_compile(getattr(module, kernel)) for kernel in group.kernels)


def surely_compiles(name: str) -> bool:
    """Whether the kernel group ``name`` will certainly compile, told from files alone, before
    numba or the engine is imported (so that ``gotsim`` can say so within a second): its
    package's kernels are stale (stamped for other sources, or not stamped) and will be dropped,
    or an entry kernel has no cache index, or an index older than its source file. False when
    unsure; ``will_compile`` then decides once the kernels are defined."""
    if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0") or os.environ.get(
        "NUMBA_CACHE_DIR"
    ):
        return False
    group = KERNEL_GROUPS[name]
    source = ROOT.joinpath(*group.module.split(".")[1:]).with_suffix(".py")
    cache = source.parent / "__pycache__"
    try:
        if (cache / STAMP).read_text() != sources_digest():
            return True
    except OSError:
        return True
    try:
        changed = source.stat().st_mtime
    except OSError:
        return False
    for kernel in group.kernels:
        indexes = list(cache.glob(f"{source.stem}.{kernel}-*.nbi"))
        if not indexes or all(i.stat().st_mtime < changed for i in indexes):
            return True
    return False


def announce_if_surely_compiles(name: str, *, stream: Any = None) -> bool:
    """``announce_compile`` from files alone (``surely_compiles``): the line comes at once, even
    before numba is imported. Returns whether it was announced now or before."""
    if not surely_compiles(name):
        return False
    _say(name, stream)
    return True


def _say(name: str, stream: Any) -> None:
    announced = set(filter(None, os.environ.get(ANNOUNCED_ENV, "").split(",")))
    if name not in announced:
        os.environ[ANNOUNCED_ENV] = ",".join(sorted(announced | {name}))
        print(compile_message(name), file=stream or sys.stderr, flush=True)


def compile_message(name: str) -> str:
    """The line ``announce_compile`` prints for the group ``name``."""
    group = KERNEL_GROUPS[name]
    return (
        f"gotsim: compiling {group.what} (first run only, about {group.duration} on 2 cores; "
        "`gotsim warmup` compiles everything ahead)"
    )


def announce_compile(name: str, *, stream: Any = None) -> bool:
    """Print ``compile_message(name)`` on stderr when the group's next call will compile, once
    per process and group. Returns whether it will compile (announced now or before).

    The groups announced are noted in the environment (``ANNOUNCED_ENV``), so worker processes
    started afterwards (``gotsim run --jobs N``) do not repeat the line."""
    if not group_will_compile(name):
        return False
    _say(name, stream)
    return True


__all__ = [
    "ANNOUNCED_ENV",
    "KERNEL_GROUPS",
    "OPTIONS",
    "KernelGroup",
    "announce_compile",
    "announce_if_surely_compiles",
    "cache_dirs",
    "compile_message",
    "drop_stale_kernels",
    "group_will_compile",
    "njit",
    "sources_digest",
    "surely_compiles",
    "will_compile",
]
