"""In a real browser (headless Chromium, skipped where it is not installed): the page of
``gotsim play --html`` moves through the rounds with its slider, and JupyterLab opens
``notebooks/02_combat_odds.py`` as a notebook. Screenshots go to ``results/browser/``.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHOTS = REPO / "results" / "browser"
CHROMIUM = next(
    (p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None
)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed")


def _chromium(*args: str, timeout: float = 120) -> str:
    assert CHROMIUM is not None
    out = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=True,
    )
    return out.stdout


@pytest.fixture(scope="module")
def game_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from gotsim.cli import main

    page = tmp_path_factory.mktemp("page") / "game.html"
    assert main(["play", "--players", "3", "--seed", "1", "--html", str(page)]) == 0
    return page


def test_the_game_page_slider_moves_through_the_rounds(game_page: Path, tmp_path: Path) -> None:
    """A script moves the slider as a person would (value, then an input event); the picture,
    its label and the narration follow."""
    text = game_page.read_text(encoding="utf-8")
    frames = json.loads(re.search(r'id="frames">(.*?)</script>', text, re.S).group(1))  # type: ignore[union-attr]
    assert len(frames) >= 3
    moved = tmp_path / "moved.html"
    probe = (
        "<script>const s = document.getElementById('frame'); s.value = 2;"
        " s.dispatchEvent(new Event('input'));</script></body>"
    )
    moved.write_text(text.replace("</body>", probe), encoding="utf-8")
    dom = _chromium("--virtual-time-budget=5000", "--dump-dom", moved.as_uri())
    assert re.search(r'<img id="board"[^>]*data-frame="2"', dom)
    label = re.search(r'<span id="frame-label">(.*?)</span>', dom)
    assert label is not None and label.group(1).startswith(frames[2]["label"])
    first = html.escape(frames[2]["story"][0], quote=False)
    assert first in dom
    assert html.escape(frames[0]["story"][0], quote=False) not in dom.split('id="story"')[1]
    SHOTS.mkdir(parents=True, exist_ok=True)
    shot = SHOTS / "play_html_round3.png"
    _chromium("--window-size=1400,1000", f"--screenshot={shot}", moved.as_uri())
    assert shot.read_bytes()[:4] == b"\x89PNG"


def test_jupyterlab_opens_the_combat_notebook_as_a_notebook(tmp_path: Path) -> None:
    """With the shipped settings override, JupyterLab's Open (a double click) shows
    notebooks/02_combat_odds.py as a notebook with cells, not as a text editor."""
    if shutil.which("jupyter-lab") is None:
        pytest.skip("JupyterLab is not installed")
    overrides = tmp_path / "settings" / "overrides.d"
    overrides.mkdir(parents=True)
    shutil.copy(REPO / "jupyter" / "gotsim-notebooks.json", overrides)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [
            "jupyter-lab",
            "--no-browser",
            "--allow-root",
            f"--port={port}",
            "--ServerApp.ip=127.0.0.1",
            "--IdentityProvider.token=",
            "--ServerApp.password=",
            "--ServerApp.disable_check_xsrf=True",
            f"--LabApp.app_settings_dir={tmp_path / 'settings'}",
            f"--LabApp.user_settings_dir={tmp_path / 'user-settings'}",
            f"--LabApp.workspaces_dir={tmp_path / 'workspaces'}",
            f"--ServerApp.root_dir={REPO}",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 90
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/status", timeout=5).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise
                time.sleep(0.5)
        url = f"{base}/lab/tree/notebooks/02_combat_odds.py"
        dom = _chromium("--virtual-time-budget=60000", "--dump-dom", url, timeout=180)
        SHOTS.mkdir(parents=True, exist_ok=True)
        shot = SHOTS / "jupyterlab_02_combat_odds.png"
        _chromium(
            "--window-size=1400,1000",
            "--virtual-time-budget=60000",
            f"--screenshot={shot}",
            url,
            timeout=180,
        )
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert "jp-NotebookPanel" in dom, "the file did not open as a notebook"
    assert dom.count("jp-Cell ") + dom.count('jp-Cell"') >= 5
    assert "Combat odds" in dom
