"""Schematic pictures of the board (areas, borders, icons, units, tokens) drawn with matplotlib."""

from __future__ import annotations

import os
import tempfile
import textwrap
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib import patheffects
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure, SubFigure
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, Patch, Polygon
from matplotlib.path import Path as MplPath
from matplotlib.transforms import Affine2D, ScaledTranslation, Transform
from numpy.typing import NDArray

from gotsim.rules.board import Board, load_board
from gotsim.rules.ids import BASE_HOUSES, AreaKind, House, Unit
from gotsim.rules.setup import Setup

__all__ = [
    "HOUSE_COLOURS",
    "draw_bare_board",
    "draw_board",
    "draw_position",
    "draw_setup",
    "save_board_picture",
]

HOUSE_COLOURS: dict[House, str] = {
    House.BARATHEON: "#f2c318",
    House.LANNISTER: "#b3202a",
    House.STARK: "#dfe3e6",
    House.GREYJOY: "#2e2e33",
    House.TYRELL: "#2f8a3b",
    House.MARTELL: "#eb7a1c",
    House.ARRYN: "#6aa9d8",
    House.TARGARYEN: "#7a1f2b",
}

# By house id, as a board's data names its home areas' houses; an id not listed is drawn grey.
HOUSE_ID_COLOURS: dict[str, str] = {house.id: colour for house, colour in HOUSE_COLOURS.items()}
_UNKNOWN_HOUSE_COLOUR = "#9e9e9e"

UNIT_LETTERS: dict[Unit, str] = {
    Unit.FOOTMAN: "F",
    Unit.KNIGHT: "K",
    Unit.SIEGE_ENGINE: "SE",
    Unit.SHIP: "S",
    Unit.DRAGON: "D",
}

_SEA_BACKGROUND = "#d4e6f1"
_LAND_FILL = "#efe4c8"
_LAND_EDGE = "#6b5a3a"
_SEA_FILL = "#a9cfe8"
_SEA_EDGE = "#3d7cad"
_INK = "#2b2118"
_SEA_INK = "#1f4e79"
_PORT_FILL = "#e8f2f9"
_BLOCKED_FILL = "#c9c4bb"
_BASE_WIDTH_IN = 9.0  # all point sizes below are tuned for a 9-inch-wide map


def _crown_path() -> MplPath:
    verts = [(-1.0, -0.6), (1.0, -0.6), (1.0, 0.7), (0.5, 0.05), (0.0, 0.8), (-0.5, 0.05)]
    verts += [(-1.0, 0.7), (-1.0, -0.6)]
    codes = [MplPath.MOVETO] + [MplPath.LINETO] * (len(verts) - 2) + [MplPath.CLOSEPOLY]
    return MplPath(verts, codes)


def _barrel_path() -> MplPath:
    verts = [(-0.45, -1.0), (0.45, -1.0), (0.7, -0.5), (0.7, 0.5), (0.45, 1.0), (-0.45, 1.0)]
    verts += [(-0.7, 0.5), (-0.7, -0.5), (-0.45, -1.0)]
    codes = [MplPath.MOVETO] + [MplPath.LINETO] * (len(verts) - 2) + [MplPath.CLOSEPOLY]
    return MplPath(verts, codes)


def _anchor_path() -> MplPath:
    ring = MplPath.circle((0.0, 0.78), 0.17)
    shaft = MplPath([(0.0, 0.61), (0.0, -0.85)], [MplPath.MOVETO, MplPath.LINETO])
    bar = MplPath([(-0.4, 0.35), (0.4, 0.35)], [MplPath.MOVETO, MplPath.LINETO])
    arc = MplPath.arc(195.0, 345.0).transformed(Affine2D().scale(0.75).translate(0.0, -0.1))
    return MplPath.make_compound_path(ring, shaft, bar, arc)


_CROWN = _crown_path()
_BARREL = _barrel_path()
_ANCHOR = _anchor_path()

# Marker styles; sizes in points for a 9-inch-wide map (scaled with the map).
_LAND_MARK = {"marker": "o", "ms": 15, "mec": _LAND_EDGE, "mew": 1.2, "zorder": 4}
_SEA_MARK = {"marker": "s", "ms": 15, "mec": _SEA_EDGE, "mew": 1.6, "zorder": 4}
_PORT_MARK = {"marker": "o", "ms": 12, "mec": _SEA_EDGE, "mew": 1.0, "zorder": 4}
_ANCHOR_MARK = {"marker": _ANCHOR, "ms": 8, "mfc": "none", "mew": 1.1, "zorder": 5}
_FORT = {"marker": "s", "mfc": "white", "mec": _INK, "zorder": 5}
_CASTLE_MARK = {**_FORT, "ms": 4.5, "mew": 0.9}
_STRONGHOLD_MARK = {**_FORT, "ms": 7.0, "mew": 1.8}
_KEEP_MARK = {**_FORT, "ms": 3.0, "mew": 0.7}
_BARREL_MARK = {"marker": _BARREL, "ms": 6, "mfc": "#9a6b3c", "mec": "#4a3018", "zorder": 5}
_CROWN_MARK = {"marker": _CROWN, "ms": 7, "mfc": "#e0b21f", "mec": "#6b5210", "zorder": 5}
_NEUTRAL_MARK = {"marker": "h", "ms": 16.5, "mfc": "#bdbdbd", "mec": "#4d4d4d", "zorder": 8}
_POWER_MARK = {"marker": "o", "ms": 8.5, "mec": "#c9a227", "mew": 1.8, "zorder": 8}
_BLOCKED_MARK = {"marker": "x", "mec": "#a01818", "mew": 2.4, "zorder": 7}
# Mother of Dragons: dragons (a flame-coloured triangle with their count), loyalty tokens (a
# violet badge with their count) and the Iron Bank's improvements (icons with a green edge)
_DRAGON_FACE = "#f0641e"
_DRAGON_MARK = {"marker": "^", "ms": 15, "mfc": _DRAGON_FACE, "mew": 1.6, "zorder": 8}
_LOYALTY_FACE = "#9c6ade"
_LOYALTY_MARK = {"marker": "D", "ms": 10, "mfc": _LOYALTY_FACE, "mec": "#3f1d6e", "mew": 1.2}
_IMPROVED_EDGE = "#12a150"
# 1st edition, A Clash of Kings: a fortification (a stone-coloured pentagon behind the area's
# mark, edged in its builder's colour) and a one-time order (a dark red box above the order)
_FORTIFICATION_MARK = {"marker": "p", "ms": 25, "mfc": "#a89a86", "mew": 2.2, "zorder": 3.8}
_ONE_TIME_FACE = "#7a2222"


def _text_colour(background: str) -> str:
    """Black or white, whichever reads better on ``background``."""
    r, g, b = to_rgb(background)
    return _INK if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else "white"


def _root_figure(ax: Axes) -> Figure:
    fig = ax.figure
    while isinstance(fig, SubFigure):
        fig = fig.figure
    if not isinstance(fig, Figure):
        raise TypeError("the axes are not part of a figure")
    return fig


def _layout(board: Board) -> NDArray[np.float64]:
    """Plot coordinates in board widths: x west→east, y north→south (``Board.position``).

    A map without drawing positions (all areas at one point) is laid out on a circle so that it
    still draws legibly.
    """
    pos = np.asarray(board.position, dtype=np.float64)
    if pos.shape[0] > 1 and np.ptp(pos, axis=0).max() < 1e-9:
        angle = np.linspace(0.0, 2.0 * np.pi, pos.shape[0], endpoint=False)
        return np.column_stack([0.5 + 0.45 * np.cos(angle), 0.5 + 0.45 * np.sin(angle)])
    return pos


def _wrap(name: str) -> str:
    return "\n".join(textwrap.wrap(name, 13)) if len(name) > 14 else name


def _units_label(counts: Mapping[Unit, int]) -> str:
    """The units as letters and counts (dragons are drawn apart, ``_DRAGON_MARK``)."""
    order = (Unit.FOOTMAN, Unit.KNIGHT, Unit.SIEGE_ENGINE, Unit.SHIP)
    return " ".join(f"{counts[u]}{UNIT_LETTERS[u]}" for u in order if counts.get(u, 0) > 0)


class _Painter:
    """Draws marks at an area position shifted by a fixed number of points."""

    def __init__(self, ax: Axes, fig: Figure, xy: NDArray[np.float64], scale: float) -> None:
        self.ax, self.fig, self.xy, self.s = ax, fig, xy, scale

    def shifted(self, dx: float, dy: float) -> Transform:
        offset = ScaledTranslation(dx * self.s / 72.0, dy * self.s / 72.0, self.fig.dpi_scale_trans)
        return self.ax.transData + offset

    def marker(self, i: int, dx: float, dy: float, **style: Any) -> None:
        style["ms"] = style.pop("ms", 6.0) * self.s
        style["mew"] = style.pop("mew", 0.8) * self.s
        x, y = self.xy[i]
        self.ax.plot([x], [y], linestyle="none", transform=self.shifted(dx, dy), **style)

    def text(self, i: int, dx: float, dy: float, label: str, size: float, **style: Any) -> None:
        x, y = self.xy[i]
        self.ax.annotate(
            label,
            (x, y),
            xytext=(dx * self.s, dy * self.s),
            textcoords="offset points",
            fontsize=size * self.s,
            ha=style.pop("ha", "center"),
            va=style.pop("va", "center"),
            annotation_clip=False,
            **style,
        )

    def boxed(self, i: int, dx: float, dy: float, label: str, face: str, **style: Any) -> None:
        box = {"boxstyle": "round,pad=0.22", "fc": face, "ec": style.pop("edge", _INK), "lw": 0.6}
        self.text(
            i,
            dx,
            dy,
            label,
            style.pop("size", 6.5),
            color=_text_colour(face),
            bbox=box,
            fontweight="bold",
            zorder=style.pop("zorder", 8),
            **style,
        )


def _inland(board: Board, pairs: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Which border pairs join two land areas."""
    land = board.kind == AreaKind.LAND
    return np.asarray(land[pairs[:, 0]] & land[pairs[:, 1]], dtype=bool)


def _land_shapes(ax: Axes, board: Board, xy: NDArray[np.float64], shown: NDArray[np.bool_]) -> None:
    """A parchment continent under the land areas, so that the coasts and the islands stand out
    from the sea (the map stores points, not outlines): discs at the land areas and on their
    shared borders, and the triangles of three mutually bordering land areas with no water in
    them."""
    land = np.flatnonzero(board.kind == AreaKind.LAND)
    water = xy[board.kind == AreaKind.SEA]  # (a port sits on its coast: no water there)
    if len(land) == 0:
        return
    width = float(np.ptp(xy[:, 0])) or 1.0
    pairs = np.asarray(board.border_pairs, dtype=np.int64).reshape(-1, 2)
    inland = _inland(board, pairs)
    centres = [xy[i] for i in land] + [xy[list(p)].mean(axis=0) for p in pairs[inland]]
    for centre in centres:
        near = float(np.min(np.hypot(*(water - centre).T))) if len(water) else np.inf
        radius = float(np.clip(0.6 * near, 0.04 * width, 0.085 * width))
        ax.add_patch(Circle(tuple(centre), radius, fc=_LAND_FILL, ec="none", zorder=0.5))
    adjacent = np.asarray(board.adjacency, dtype=bool)
    for a, b in pairs[inland]:
        for c in land[(land > max(a, b)) & adjacent[a, land] & adjacent[b, land]]:
            triangle = xy[[a, b, c]]
            if len(water) and MplPath(triangle).contains_points(water).any():
                continue
            ax.add_patch(Polygon(triangle, closed=True, fc=_LAND_FILL, ec="none", zorder=0.5))


def _borders(
    ax: Axes, board: Board, xy: NDArray[np.float64], scale: float, shown: NDArray[np.bool_]
) -> None:
    pairs = np.asarray(board.border_pairs, dtype=np.int64).reshape(-1, 2)
    pairs = pairs[shown[pairs[:, 0]] & shown[pairs[:, 1]]]
    both_land = _inland(board, pairs)
    for mask, colour, style in ((both_land, "#8a7f70", "-"), (~both_land, "#5b9bd0", "--")):
        segments = [xy[list(p)] for p in pairs[mask]]
        if segments:
            ax.add_collection(
                LineCollection(
                    segments,
                    colors=colour,
                    linewidths=0.7 * scale,
                    linestyles=style,
                    alpha=0.75,
                    zorder=1,
                )
            )


def _house_colour(house_id: str) -> str:
    return HOUSE_ID_COLOURS.get(house_id, _UNKNOWN_HOUSE_COLOUR)


def _legend_handles(
    houses: Iterable[tuple[str, str]],
    scale: float,
    *,
    ports: bool,
    homes: bool,
    extras: Iterable[str] = (),
) -> list[Any]:
    """The legend: ``houses`` as (name, colour) swatches, then the board's symbols."""
    handles: list[Any] = [Patch(fc=colour, ec=_INK, lw=0.6, label=name) for name, colour in houses]
    ms = 7.0 * scale

    def key(label: str, **style: Any) -> Line2D:
        style.setdefault("markersize", ms)
        return Line2D([], [], linestyle="none", label=label, **style)

    handles += [
        key("land area", marker="o", mfc=_LAND_FILL, mec=_LAND_EDGE),
        key("sea area", marker="s", mfc=_SEA_FILL, mec=_SEA_EDGE),
        *([key("port", marker=_ANCHOR, mfc="none", mec=_SEA_INK)] if ports else []),
        key("castle", marker="s", mfc="white", mec=_INK, markersize=ms * 0.55),
        key("stronghold", marker="s", mfc="white", mec=_INK, mew=2.0),
        key("supply barrel", marker=_BARREL, mfc="#9a6b3c", mec="#4a3018"),
        key("crown (power icon)", marker=_CROWN, mfc="#e0b21f", mec="#6b5210"),
        key("neutral force", marker="h", mfc="#bdbdbd", mec="#4d4d4d"),
        key("power token", marker="o", mfc="#bbbbbb", mec="#c9a227", mew=1.6),
        key("impassable", marker="x", mec="#a01818", mew=2.0),
        *([key("home area (ring)", marker="o", mfc="none", mec=_INK, mew=2.4)] if homes else []),
        Patch(fc="white", ec=_INK, lw=0.6, label="G2 garrison (strength)"),
        Patch(fc="white", ec=_INK, lw=0.6, label="F footman  K knight"),
        Patch(fc="white", ec=_INK, lw=0.6, label="S ship  SE siege engine"),
    ]
    shown = set(extras)
    if "dragons" in shown:
        handles.append(key("dragons (count)", marker="^", mfc=_DRAGON_FACE, mec=_INK))
    if "loyalty" in shown:
        handles.append(
            key("loyalty tokens (count)", marker="D", mfc=_LOYALTY_FACE, mec="#3f1d6e", mew=1.2)
        )
    if "improvements" in shown:
        handles.append(
            key("Iron Bank improvement", marker=_CROWN, mfc="#e0b21f", mec=_IMPROVED_EDGE, mew=2)
        )
    if "fortifications" in shown:
        handles.append(
            key("fortification (builder's edge)", marker="p", mfc="#a89a86", mec=_INK, mew=1.6)
        )
    if "one_time" in shown:
        handles.append(Patch(fc=_ONE_TIME_FACE, ec=_INK, lw=0.6, label="one-time order"))
    return handles


def _draw_area(
    paint: _Painter,
    board: Board,
    i: int,
    fill: str | None,
    halo: list[Any],
    *,
    faded: bool,
    improved: tuple[int, int, int] = (0, 0, 0),
) -> None:
    """The mark, name and printed icons of area ``i``; ``fill`` is its controller's colour;
    ``improved``: the Iron Bank's crowns and barrels added and castle level change, drawn with a
    green edge (a castle level changed: the new level's mark, edged green)."""
    kind = int(board.kind[i])
    name = _wrap(board.area_names[i])
    alpha = 0.6 if faded else 1.0
    if kind == AreaKind.SEA:
        paint.marker(i, 0, 0, mfc=fill or _SEA_FILL, **_SEA_MARK)
        style = {"color": _SEA_INK, "fontstyle": "italic"}
        paint.text(i, 0, -15, name, 6.6, path_effects=halo, alpha=alpha, zorder=6, **style)
        return
    if kind == AreaKind.PORT:
        paint.marker(i, 0, 0, mfc=fill or _PORT_FILL, **_PORT_MARK)
        ink = _SEA_INK if fill is None or _text_colour(fill) == _INK else "white"
        paint.marker(i, 0, 0, mec=ink, **_ANCHOR_MARK)
        paint.text(i, 0, -11.5, name, 5.3, color=_SEA_INK, path_effects=halo, alpha=alpha, zorder=6)
        return
    paint.marker(i, 0, 0, mfc=fill or _LAND_FILL, **_LAND_MARK)
    crowns, barrels, delta = improved
    level = (2 if board.stronghold[i] else 1 if board.castle[i] else 0) + delta
    edge = {"mec": _IMPROVED_EDGE} if delta else {}
    if level >= 2:
        paint.marker(i, 0, 0, **{**_STRONGHOLD_MARK, **edge})
        paint.marker(i, 0, 0, **_KEEP_MARK)
    elif level == 1:
        paint.marker(i, 0, 0, **{**_CASTLE_MARK, **edge})
    elif delta:  # a castle lost: its place ringed green
        paint.marker(i, 0, 0, **{**_CASTLE_MARK, "mfc": "none", **edge})
    style = {"color": _INK, "fontweight": "bold"}
    paint.text(i, 0, -15, name, 6.6, path_effects=halo, alpha=alpha, zorder=6, **style)
    printed_barrels, printed_crowns = int(board.supply[i]), int(board.crowns[i])
    for k in range(printed_barrels + barrels):
        added = {"mec": _IMPROVED_EDGE, "mew": 1.6} if k >= printed_barrels else {}
        paint.marker(i, -11.5, 3.5 - 7.0 * k, **{**_BARREL_MARK, **added})
    for k in range(printed_crowns + crowns):
        added = {"mec": _IMPROVED_EDGE, "mew": 1.6} if k >= printed_crowns else {}
        paint.marker(i, 11.5, 3.5 - 7.0 * k, **{**_CROWN_MARK, **added})


def draw_board(
    board: Board,
    *,
    units: Mapping[str, tuple[House, Mapping[Unit, int]]] | None = None,
    control: Mapping[str, House] | None = None,
    power_tokens: Mapping[str, House] | None = None,
    garrisons: Mapping[str, tuple[House, int]] | None = None,
    neutral_forces: Mapping[str, int] | None = None,
    impassable: Iterable[str] = (),
    orders: Mapping[str, str] | None = None,
    neutral_armies: Mapping[str, Mapping[Unit, int]] | None = None,
    loyalty: Mapping[str, int] | None = None,
    improvements: Mapping[str, tuple[int, int, int]] | None = None,
    fortifications: Iterable[str] = (),
    one_time_orders: Mapping[str, str] | None = None,
    vassals: Mapping[House, House | None] | None = None,
    homes: bool = False,
    ports: bool = True,
    title: str | None = None,
    ax: Axes | None = None,
    figsize: tuple[float, float] | None = None,
) -> Figure:
    """Draw the board; returns the matplotlib Figure.

    units: {area_id: (House, {Unit: n})}; control: {area_id: House} (areas coloured by controller,
    default: the house of the units there); power_tokens: {area_id: House}; garrisons:
    {area_id: (House, strength)}; neutral_forces: {area_id: strength}; impassable: area ids (drawn
    crossed out); orders: {area_id: str} label; neutral_armies: {area_id: {Unit: n}} units that
    belong to no house (1st edition), drawn in grey; loyalty: {area_id: n} Mother of Dragons'
    loyalty tokens (a violet badge with the count); improvements: {area_id: (crowns added,
    barrels added, castle level change)} the Iron Bank's (green-edged icons). Dragons in
    ``units`` are drawn apart from the other units, a flame-coloured triangle with their
    count. fortifications: area ids holding an A Clash of Kings fortification (a pentagon edged
    in the colour of the house whose units stand there, its builder); one_time_orders:
    {area_id: one-time order id} (a dark red box). vassals: {vassal: its commander or None}, named
    so in the legend ("Tyrell (vassal of Baratheon)"). homes: ring each home area in its house's
    colour with its printed garrison (``Board.home_of``, any house id). ports: False leaves the
    board's port areas out (the 1st-edition board without A Clash of Kings' ports), their
    borders too. North is at the top.
    Unknown area ids raise ``UnknownAreaError``. No pyplot state is touched: pass ``ax`` to draw
    into an existing figure. A wider board (``Board.image_width``, the 8-player board with
    Essos) gets a wider figure, with marks the size they have on the base board.
    """
    units = dict(units or {})
    owner = {area: house for area, (house, _) in units.items()}
    owner.update(control or {})
    power_tokens = dict(power_tokens or {})
    garrisons = dict(garrisons or {})
    neutral_forces = dict(neutral_forces or {})
    neutral_armies = dict(neutral_armies or {})
    orders = dict(orders or {})
    loyalty = {a: n for a, n in (loyalty or {}).items() if n}
    improvements = {a: v for a, v in (improvements or {}).items() if any(v)}
    forts = set(fortifications)
    one_time = dict(one_time_orders or {})
    blocked = {board.index(a) for a in impassable}
    tables = (units, owner, power_tokens, garrisons, neutral_forces, neutral_armies, orders)
    for table in (*tables, loyalty, improvements, forts, one_time):
        for area in table:
            board.index(area)
    shown = np.ones(board.n_areas, dtype=bool)
    if not ports:
        shown &= board.kind != AreaKind.PORT

    extras: set[str] = set()
    if loyalty:
        extras.add("loyalty")
    if improvements:
        extras.add("improvements")
    if forts:
        extras.add("fortifications")
    if one_time:
        extras.add("one_time")
    xy = _layout(board)
    lo, hi = xy.min(axis=0), xy.max(axis=0)
    span = float(np.ptp(xy, axis=0).max()) or 1.0
    pad = 0.045 * span
    width, height = float(hi[0] - lo[0] + 2 * pad), float(hi[1] - lo[1] + 2 * pad)

    own_figure = ax is None
    if ax is None:
        if figsize is None:
            wide = _BASE_WIDTH_IN * board.image_width
            figsize = (wide, wide * height / width + 1.6)
        fig = Figure(figsize=figsize, layout="constrained")
        ax = fig.add_subplot()
        map_width_in = min(figsize[0], (figsize[1] - 1.6) * width / height)
    else:
        fig = _root_figure(ax)
        map_width_in = ax.get_position().width * fig.get_figwidth()
    scale = float(np.clip(map_width_in / (_BASE_WIDTH_IN * board.image_width), 0.35, 3.0))
    paint = _Painter(ax, fig, xy, scale)

    ax.set_facecolor(_SEA_BACKGROUND)
    ax.set_xlim(lo[0] - pad, hi[0] + pad)
    ax.set_ylim(hi[1] + pad, lo[1] - pad)  # inverted: north (small y) at the top
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_edgecolor(_SEA_EDGE)

    _land_shapes(ax, board, xy, shown)
    _borders(ax, board, xy, scale, shown)
    halo = [patheffects.withStroke(linewidth=2.2 * scale, foreground="white", alpha=0.85)]

    for i, area in enumerate(board.area_ids):
        if not shown[i]:
            continue
        house = owner.get(area)
        fill = HOUSE_COLOURS[house] if house is not None else None
        if i in blocked:
            fill = fill or _BLOCKED_FILL
        improved = improvements.get(area, (0, 0, 0))
        _draw_area(paint, board, i, fill, halo, faded=i in blocked, improved=improved)
        top = 13.0
        if area in units:
            unit_house, counts = units[area]
            label = _units_label(counts)
            if label:
                paint.boxed(i, 0, top, label, HOUSE_COLOURS[unit_house])
                top += 11.0
            dragons = int(counts.get(Unit.DRAGON, 0))
            if dragons:
                colour = HOUSE_COLOURS[unit_house]
                paint.marker(i, 0, top + 2.5, mec=colour, **_DRAGON_MARK)
                paint.text(
                    i, 0, top + 1.0, str(dragons), 7.0, color=_INK, fontweight="bold", zorder=9
                )
                extras.add("dragons")
                top += 15.0
        if area in neutral_armies:
            label = _units_label(neutral_armies[area])
            if label:
                paint.boxed(i, 0, top, label, "#c8c8c8", edge="#4d4d4d")
                top += 11.0
        if area in neutral_forces:
            paint.marker(i, 0, top + 2.0, **_NEUTRAL_MARK)
            label = str(neutral_forces[area])
            paint.text(i, 0, top + 2.0, label, 8.5, color=_INK, fontweight="bold", zorder=9)
            top += 17.0
        if area in orders:
            paint.boxed(i, 0, top, orders[area], "#3b3b3b", edge="#c9a227", size=6.0)
            top += 10.0
        if area in one_time:
            label = one_time[area].replace("_", " ")
            paint.boxed(i, 0, top, label, _ONE_TIME_FACE, edge="#c9a227", size=6.0)
        if area in forts:
            builder = owner.get(area)
            edge = HOUSE_COLOURS[builder] if builder is not None else _INK
            paint.marker(i, 0, 0, mec=edge, **_FORTIFICATION_MARK)
        if area in garrisons:
            g_house, strength = garrisons[area]
            label = f"G{strength}"
            paint.boxed(i, -17.5, -2, label, HOUSE_COLOURS[g_house], size=6.0, ha="right")
        if area in power_tokens:
            paint.marker(i, 17, -6, mfc=HOUSE_COLOURS[power_tokens[area]], **_POWER_MARK)
        if area in loyalty:
            paint.marker(i, 19, 9, zorder=8, **_LOYALTY_MARK)
            label = str(loyalty[area])
            paint.text(i, 19, 9, label, 6.5, color="white", fontweight="bold", zorder=9)
        if i in blocked:
            size = 11.0 if board.kind[i] == AreaKind.PORT else 16.0
            paint.marker(i, 0, 0, ms=size, **_BLOCKED_MARK)
        home_house = board.home_of[i]
        if homes and home_house is not None:
            colour = _house_colour(home_house)
            paint.marker(i, 0, 0, marker="o", ms=20.0, mfc="none", mec=colour, mew=3.0, zorder=3.9)
            if board.home_garrison[i] and area not in garrisons:
                label = f"G{int(board.home_garrison[i])}"
                paint.boxed(i, -17.5, -2, label, colour, size=6.0, ha="right")

    played = sorted(
        {*owner.values(), *power_tokens.values(), *(h for h, _ in garrisons.values())}
    ) or ([] if homes else list(BASE_HOUSES))  # an empty board: the base game's houses
    vassals = dict(vassals or {})

    def label_of(h: House) -> str:
        if h not in vassals:
            return h.name.title()
        commander = vassals[h]
        of = "" if commander is None else f" of {commander.name.title()}"
        return f"{h.name.title()} (vassal{of})"

    legend_houses = [(label_of(h), HOUSE_COLOURS[h]) for h in played]
    if homes:
        named = {h.id for h in played}
        for home_house in dict.fromkeys(h for h in board.home_of if h is not None):
            if home_house not in named:
                legend_houses.append((home_house.title(), _house_colour(home_house)))
    handles = _legend_handles(
        legend_houses, scale, ports=bool((board.is_port & shown).any()), homes=homes, extras=extras
    )
    legend_style: dict[str, Any] = {
        "handles": handles,
        "fontsize": 7.5 * scale,
        "frameon": True,
        "facecolor": "white",
        "edgecolor": _SEA_EDGE,
        "title": "Houses and symbols",
        "title_fontsize": 8 * scale,
    }
    if own_figure:
        fig.legend(loc="outside lower center", ncols=5, **legend_style)
    else:
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.01), ncols=4, **legend_style)
    if title:
        ax.set_title(title, fontsize=13 * scale, fontweight="bold", color=_INK)
    return fig


# how a picture's title names an expansion's start
EXPANSION_TITLES = {
    "adwd": ", A Dance with Dragons",
    "affc": ", A Feast for Crows",
    "mod": ", Mother of Dragons",
}


def draw_setup(setup: Setup, board: Board | None = None, **kwargs: Any) -> Figure:
    """Draw the starting position of ``setup``: units, power tokens, garrisons, neutral forces,
    impassable areas, and the home areas of the houses in play as controlled; a 1st-edition
    board without the ports of A Clash of Kings (``ports=True`` draws them). ``kwargs`` go to
    ``draw_board`` and override what the setup gives."""
    board = board if board is not None else load_board(setup.edition, board=setup.board)
    units: dict[str, tuple[House, Mapping[Unit, int]]] = {}
    control: dict[str, House] = {}
    for house, placed in setup.units.items():
        for area, counts in placed.items():
            units[area] = (house, counts)
            control[area] = house
    for i in np.flatnonzero(board.home >= 0):
        home_house = House(int(board.home[i]))
        if home_house in setup.houses:
            control[board.area_ids[i]] = home_house
    for area, (g_house, _) in setup.garrisons.items():
        control.setdefault(area, g_house)
    for area, token_house in setup.power_tokens.items():
        control.setdefault(area, token_house)
    players = f"{setup.players} players"
    if setup.expansion == "adwd":
        players += ", A Dance with Dragons"
    named = EXPANSION_TITLES.get(setup.expansion or "", "")
    defaults: dict[str, Any] = {
        "units": units,
        "control": control,
        "power_tokens": dict(setup.power_tokens),
        "garrisons": dict(setup.garrisons),
        "neutral_forces": dict(setup.neutral_forces),
        "impassable": tuple(setup.impassable),
        "neutral_armies": dict(setup.neutral_armies),
        "loyalty": dict(setup.loyalty),
        "title": f"A Game of Thrones {setup.edition}{named}: starting position, {players}",
        "ports": setup.edition != "1e",  # (A Clash of Kings' ports: ``ports=True``)
    }
    defaults.update(kwargs)
    return draw_board(board, **defaults)


def draw_position(position: Any, **kwargs: Any) -> Figure:
    """Draw a position (``gotsim.engine.position.Position``): units and routed units, control,
    power tokens, garrisons, neutral forces and armies, impassable areas, orders, in Mother
    of Dragons loyalty tokens, dragons and the Iron Bank's improvements, and in the 1st edition
    A Clash of Kings' fortifications and one-time orders (its ports only with that module).
    ``kwargs`` go to ``draw_board``."""
    from gotsim.engine.position import control

    p = position
    units: dict[str, tuple[House, Mapping[Unit, int]]] = {}
    for area, house in p.occupants.items():
        counts = dict(p.units.get(area, {}))
        for unit, n in p.routed.get(area, {}).items():
            counts[unit] = counts.get(unit, 0) + n
        units[area] = (house, counts)
    setup = p.setup
    garrisons = {a: (setup.garrisons[a][0], n) for a, n in p.garrisons.items()}
    improved = {
        a: (p.crown_bonus.get(a, 0), p.barrel_bonus.get(a, 0), p.castle_delta.get(a, 0))
        for a in {*p.crown_bonus, *p.barrel_bonus, *p.castle_delta}
    }
    named = EXPANSION_TITLES.get(p.expansion or "", "")
    step = f", {p.step.id.replace('_', ' ')}" if p.step is not None else ""
    defaults: dict[str, Any] = {
        "units": units,
        "control": control(p),
        "power_tokens": dict(p.power_tokens),
        "garrisons": garrisons,
        "neutral_forces": dict(p.neutral_forces),
        "neutral_armies": dict(p.neutral_armies),
        "impassable": p.impassable,
        "orders": dict(p.orders),
        "loyalty": dict(p.loyalty),
        "improvements": improved,
        "fortifications": p.fortifications,
        "one_time_orders": dict(p.one_time_orders),
        "vassals": {v: p.commanders.get(v) for v in p.vassals},
        "title": p.name
        or f"A Game of Thrones {p.edition}{named}: round {p.round}, {p.phase.id}{step}",
        "ports": p.edition != "1e" or bool(p.variants.get("ports")),
    }
    defaults.update(kwargs)
    return draw_board(p.board, **defaults)


def draw_bare_board(board: Board, players: int | None = None, **kwargs: Any) -> Figure:
    """Draw ``board`` with nothing of a game on it: its areas, borders, printed icons, ports
    (on the 1st-edition board only with ``ports=True``: they are A Clash of Kings' module),
    home areas with their garrisons and, for ``players`` (default: the board's only player
    count, if it has one), its neutral force tokens and impassable areas. ``kwargs`` go to
    ``draw_board``. Home areas of houses the engine does not play yet are drawn too."""
    counts = board.player_counts()
    if players is None and len(counts) == 1:
        players = counts[0]
    forces: dict[str, int] = {}
    blocked: list[str] = []
    if players is not None:
        if players not in board.neutral_force:
            raise ValueError(f"the {board.name} board is for {list(counts)} players, not {players}")
        strength = board.neutral_force[players]
        forces = {board.area_ids[i]: int(strength[i]) for i in np.flatnonzero(strength)}
        blocked = [board.area_ids[i] for i in np.flatnonzero(board.impassable[players])]
    who = f", {players} players" if players is not None else ""
    defaults: dict[str, Any] = {
        "neutral_forces": forces,
        "impassable": blocked,
        "homes": True,
        "ports": board.edition != "1e",  # (the 1e ports are A Clash of Kings' module)
        "title": f"A Game of Thrones {board.edition}: {board.title or 'the board'}{who}",
    }
    defaults.update(kwargs)
    return draw_board(board, **defaults)


def save_board_picture(
    path: str | os.PathLike[str],
    setup: Setup,
    board: Board | None = None,
    dpi: int = 150,
    ports: bool | None = None,
) -> Path:
    """Write the starting position of ``setup`` as a PNG at ``path`` (atomically: a temporary
    file in the same folder, then ``os.replace``) and return the path. ``ports``: as
    ``draw_setup`` (None: the edition's own)."""
    extra = {} if ports is None else {"ports": ports}
    return save_figure(draw_setup(setup, board, **extra), path, dpi)


def save_figure(fig: Figure, path: str | os.PathLike[str], dpi: int = 150) -> Path:
    """Write ``fig`` as a PNG at ``path`` atomically (a temporary file, then ``os.replace``)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            fig.savefig(handle, format="png", dpi=dpi, facecolor="white")
        os.chmod(tmp_name, 0o644)  # mkstemp makes the file private; a picture is for sharing
        os.replace(tmp_name, target)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise
    return target


def draw_record(game: Any, **kwargs: Any) -> Figure:
    """Draw the current board of an engine game (``gotsim.engine.game.Game``): units, routed
    units, control, power tokens, garrisons, neutral forces, impassable areas and orders (with
    A Clash of Kings' fortifications and one-time orders)."""
    from gotsim.engine.board_state import controller
    from gotsim.engine.state import ONE_TIME_NAMES, ORDER_NAMES

    g, t, board = game.record, game.t, game.board
    units: dict[str, tuple[House, Mapping[Unit, int]]] = {}
    control: dict[str, House] = {}
    tokens: dict[str, House] = {}
    garrisons: dict[str, tuple[House, int]] = {}
    neutral: dict[str, int] = {}
    orders: dict[str, str] = {}
    loyalty: dict[str, int] = {}
    improvements: dict[str, tuple[int, int, int]] = {}
    forts: list[str] = []
    one_time: dict[str, str] = {}
    for a, area in enumerate(board.area_ids):
        if g.owner[a] >= 0:
            units[area] = (House(int(g.owner[a])), {u: int(g.units[a, u]) for u in Unit})
            if g.order[a] >= 0:
                orders[area] = ORDER_NAMES[int(g.order[a])]
        holder = int(controller(g, t, a))
        if holder >= 0:
            control[area] = House(holder)
        if g.power_token[a] >= 0:
            tokens[area] = House(int(g.power_token[a]))
        if g.garrison[a] > 0 and holder >= 0:
            garrisons[area] = (House(holder), int(g.garrison[a]))
        if g.neutral[a] > 0:
            neutral[area] = int(g.neutral[a])
        if g.loyalty[a] > 0:
            loyalty[area] = int(g.loyalty[a])
        improved = (int(g.crown_bonus[a]), int(g.barrel_bonus[a]), int(g.castle_delta[a]))
        if any(improved):
            improvements[area] = improved
        if g.fortification[a] > 0:
            forts.append(area)
        if g.one_time[a] >= 0:
            one_time[area] = ONE_TIME_NAMES[int(g.one_time[a])]
    defaults: dict[str, Any] = {
        "units": units,
        "control": control,
        "power_tokens": tokens,
        "garrisons": garrisons,
        "neutral_forces": neutral,
        "impassable": [board.area_ids[a] for a in range(board.n_areas) if g.blocked[a]],
        "orders": orders,
        "loyalty": loyalty,
        "improvements": improvements,
        "fortifications": forts,
        "one_time_orders": one_time,
        "title": f"Round {int(g.game_round)}",
        "ports": bool(t.ports),
    }
    defaults.update(kwargs)
    return draw_board(board, **defaults)


def save_record_picture(path: str | os.PathLike[str], game: Any, dpi: int = 100) -> Path:
    """Write the current board of an engine game as a PNG (atomically)."""
    return save_figure(draw_record(game), path, dpi)
