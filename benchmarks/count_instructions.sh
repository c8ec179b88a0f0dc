#!/usr/bin/env bash
# Instructions the compiled kernels run for N seeded 6-player heuristic games on one core, counted
# by valgrind's callgrind: a number that repeats to within 0.01 % from run to run, where timings on
# a shared machine spread by several per cent. Use it to weigh a small change that keeps every
# game the same (benchmarks/check_identical.py): run it on the code before and after.
#
# Run from a checkout, in its environment: benchmarks/count_instructions.sh [games] (default 100;
# PYTHON: the interpreter, default python). Prints one JSON object. Needs valgrind (Debian:
# apt-get install valgrind). The kernels are compiled for a plain AVX2 target (valgrind
# does not run AVX-512 code) into their own cache, .numba-count/ in the checkout (a first run
# compiles, some minutes). Only calls into compiled code are counted (a short warm-up of 8 games
# and the loading of cached kernels included), not the Python around them.
set -euo pipefail
games="${1:-100}"
root="$(cd "$(dirname "$0")/.." && pwd)"
export NUMBA_CPU_NAME=haswell
export NUMBA_CPU_FEATURES="+64bit,+avx,+avx2,+bmi,+bmi2,+cmov,+crc32,+cx16,+cx8,+f16c,+fma,+fsgsbase,+fxsr,+lzcnt,+mmx,+movbe,+pclmul,+popcnt,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+xsave"
export NUMBA_NUM_THREADS=1 PYTHONHASHSEED=0
export NUMBA_CACHE_DIR="$root/.numba-count"
export PYTHONPATH="$root${PYTHONPATH:+:$PYTHONPATH}"
script='
import sys
from gotsim.engine.simulate import play_games
play_games(8, players=6, seed=1, n_jobs=1, policies="heuristic")
n = int(sys.argv[1])
if n:
    play_games(n, players=6, seed=12345, n_jobs=1, policies="heuristic")
'
"${PYTHON:-python}" -c "$script" 0  # compile (or load) the kernels outside valgrind
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
valgrind --tool=callgrind --toggle-collect='Dispatcher_call*' --callgrind-out-file="$out" \
    "${PYTHON:-python}" -c "$script" "$games" 2>/dev/null >/dev/null
total="$(sed -n 's/^summary: //p' "$out")"
echo "{\"games\": $games, \"instructions\": $total}"
