"""Plain Python (``NUMBA_DISABLE_JIT=1``, for stepping through a kernel in a debugger) plays the
same games as the compiled kernels: the random and heuristic players, both editions and the
expansions. numpy keeps a narrow type where numba widens it (an ``int8`` field plus a Python
int stays ``int8``, a ``float32`` one times a Python float stays ``float32``), so every place
that mixes them widens by hand; a game that drifts shows one that does not."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from typing import Any

from gotsim.play.simulate import play_games

# (seed, first game, games, play_games keywords)
CASES: list[tuple[int, int, int, dict[str, Any]]] = [
    (7, 0, 2, {"players": 6, "policies": "heuristic"}),
    (7, 3, 1, {"players": 3, "policies": "heuristic"}),
    (11, 0, 1, {"players": 6, "policies": "random"}),
    (11, 0, 1, {"players": 6, "expansion": "adwd", "policies": "heuristic"}),
    (11, 1, 1, {"players": 4, "expansion": "affc", "policies": "heuristic"}),
    (11, 0, 1, {"players": 7, "expansion": "mod", "policies": "heuristic"}),
    (11, 1, 1, {"players": 4, "variants": {"vassals": True}, "policies": "heuristic"}),
    (11, 1, 1, {"players": 4, "edition": "1e", "policies": "heuristic"}),
]

_PLAIN = """
import hashlib, json, sys, warnings
warnings.simplefilter("ignore")  # (the random streams' unsigned arithmetic wraps on purpose)
from gotsim.play.simulate import play_games
out = []
for seed, first, n, kw in json.loads(sys.argv[1]):
    games = play_games(n, seed=seed, first_game=first, **kw)
    out.append(hashlib.sha256(games.tobytes()).hexdigest())
print(json.dumps(out))
"""


def _digests_compiled() -> list[str]:
    out = []
    for seed, first, n, kw in CASES:
        games = play_games(n, seed=seed, first_game=first, **kw)
        out.append(hashlib.sha256(games.tobytes()).hexdigest())
    return out


def test_plain_python_plays_the_compiled_games() -> None:
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run(
        [sys.executable, "-c", _PLAIN, json.dumps(CASES)],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    plain = json.loads(done.stdout.strip().splitlines()[-1])
    compiled = _digests_compiled()
    differ = [CASES[i] for i, (p, c) in enumerate(zip(plain, compiled, strict=True)) if p != c]
    assert not differ, f"plain Python plays other games than the compiled kernels: {differ}"
