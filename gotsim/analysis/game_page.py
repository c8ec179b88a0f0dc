"""One self-contained HTML page of a played game (``gotsim play --html FILE``): the board at the
start of every round's planning and at the end, as PNG pictures embedded in the page, a slider
over them, the narration of each round beside its picture, and the final standings. The page
needs no network and no other file.
"""

from __future__ import annotations

import base64
import html
import io
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Frame", "game_page", "play_with_frames"]


@dataclass(frozen=True)
class Frame:
    """One picture of the game: its label, the board as PNG bytes, where the log stood when it
    was taken (its length, ``Game.log``) and the round it shows (0 for the end)."""

    label: str
    png: bytes
    first_event: int
    round: int = 0


def _png(game: Any, dpi: int) -> bytes:
    from gotsim.analysis.board_plot import draw_record

    fig = draw_record(game)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, facecolor="white")
    return buffer.getvalue()


def play_with_frames(
    game: Any,
    policy: Callable[[Any, Any], int],
    *,
    dpi: int = 70,
    on_picture: Callable[[str, bytes], None] | None = None,
) -> list[Frame]:
    """Play ``game`` to the end with ``policy``, taking a picture of the board at the start of
    every round's planning phase and one at the end (``on_picture(label, png)`` is called with
    each, e.g. to write it to a file too)."""
    from gotsim.engine.state import Phase

    frames: list[Frame] = []

    def take(label: str, round_: int) -> None:
        png = _png(game, dpi)
        frames.append(Frame(label, png, len(game.log), round_))
        if on_picture is not None:
            on_picture(label, png)

    seen = 0
    while True:
        g = game.record
        if int(g.game_round) != seen and int(g.phase) == Phase.PLANNING:
            seen = int(g.game_round)
            take(f"Round {seen}", seen)
        pending = game.pending
        if pending is None:
            break
        game.step(policy(game, pending))
    take("The end", 0)
    return frames


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.2em; color: #2b2118; background: #faf7f0; }
h1 { font-size: 1.3em; margin: 0 0 .3em; }
.controls { display: flex; align-items: center; gap: .6em; margin: .6em 0; }
.controls input[type=range] { flex: 1; max-width: 40em; }
.main { display: flex; gap: 1em; align-items: flex-start; }
.main img { max-width: 62vw; height: auto; border: 1px solid #b9ab8c; background: white; }
.story { flex: 1; max-height: 85vh; overflow-y: auto; font-size: .85em; }
.story ol { padding-left: 1.6em; margin: 0; }
table { border-collapse: collapse; margin-top: .6em; }
td, th { padding: .15em .7em; text-align: right; border-bottom: 1px solid #ddd3bd; }
td:first-child, th:first-child { text-align: left; }
.swatch { display: inline-block; width: .8em; height: .8em; margin-right: .4em; }
"""

_SCRIPT = """
const frames = JSON.parse(document.getElementById("frames").textContent);
const slider = document.getElementById("frame");
const board = document.getElementById("board");
const label = document.getElementById("frame-label");
const story = document.getElementById("story");
function show(i) {
  i = Math.max(0, Math.min(frames.length - 1, Number(i)));
  slider.value = i;
  board.src = "data:image/png;base64," + frames[i].png;
  board.alt = "the board, " + frames[i].label;
  board.dataset.frame = i;
  label.textContent = frames[i].label + " (" + (i + 1) + " of " + frames.length + ")";
  story.innerHTML = "";
  for (const line of frames[i].story) {
    const item = document.createElement("li");
    item.textContent = line;
    story.appendChild(item);
  }
}
slider.addEventListener("input", () => show(slider.value));
document.getElementById("previous").addEventListener("click", () => show(+slider.value - 1));
document.getElementById("next").addEventListener("click", () => show(+slider.value + 1));
document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowLeft") show(+slider.value - 1);
  if (e.key === "ArrowRight") show(+slider.value + 1);
});
show(0);
"""


def game_page(
    frames: Sequence[Frame],
    story: Sequence[str],
    standings: Sequence[dict[str, Any]],
    *,
    title: str,
    rounds: Sequence[int] | None = None,
) -> str:
    """The HTML page: ``frames`` (from ``play_with_frames``), the narration lines (one per
    event of ``Game.log``, as ``Game.narrative`` gives them) and the standings rows
    (``gotsim.cli.standings``). With ``rounds`` (each event's round) a round's picture comes
    with that round's whole narration, its Westeros phase included; without, with the events
    up to the next picture."""
    from gotsim.analysis.plots import house_colour

    data = []
    for k, frame in enumerate(frames):
        stop = frames[k + 1].first_event if k + 1 < len(frames) else len(story)
        lines = list(story[frame.first_event : stop])
        if rounds is not None and frame.round:
            lines = [line for line, r in zip(story, rounds, strict=True) if r == frame.round]
        if k == len(frames) - 1:  # the end: how the game ended
            lines = list(story[frame.first_event :]) or list(story[-1:])
        data.append(
            {
                "label": frame.label,
                "png": base64.b64encode(frame.png).decode("ascii"),
                "story": lines,
            }
        )
    payload = json.dumps(data).replace("</", "<\\/")  # no early end of the script element
    rows = "\n".join(
        "<tr><td><span class='swatch' style='background:{colour}'></span>{house}{mark}</td>"
        "<td>{castles}</td><td>{supply}</td><td>{power}</td><td>{throne}</td></tr>".format(
            colour=house_colour(r["house"]),
            house=html.escape(str(r["house"]).capitalize()),
            mark=" (winner)" if r["winner"] else " (vassal)" if r.get("vassal") else "",
            castles=r["castles"],
            supply=r["supply"],
            power=r["power"],
            throne=r["iron_throne"],
        )
        for r in standings
    )
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{html.escape(title)}</title>
<style>{_STYLE}</style>
</head>
<body>
<h1>{html.escape(title)}</h1>
<div class="controls">
<button id="previous" type="button" aria-label="previous picture">&larr;</button>
<input id="frame" type="range" min="0" max="{len(frames) - 1}" value="0" step="1"
 aria-label="round">
<button id="next" type="button" aria-label="next picture">&rarr;</button>
<span id="frame-label"></span>
</div>
<div class="main">
<img id="board" alt="the board" src="">
<div class="story"><ol id="story"></ol></div>
</div>
<h2>Standings at the end</h2>
<table id="standings">
<tr><th>house</th><th>castles</th><th>supply</th><th>power</th><th>Iron Throne</th></tr>
{rows}
</table>
<script type="application/json" id="frames">{payload}</script>
<script>{_SCRIPT}</script>
</body>
</html>
"""
