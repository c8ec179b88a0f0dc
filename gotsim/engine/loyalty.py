"""Mother of Dragons' loyalty tokens and House Targaryen's victory (8 players;
``docs/rules.md`` M12, M13).

Loyalty tokens lie on land areas (``g.loyalty``, at most ``MAX_LOYALTY`` on the board).
Targaryen takes the tokens of every area it controls (``collect``: after each resolved march,
after loyalty tokens move, at the end of each Westeros phase, as S&R does), keeping them in
``g.loyalty_taken``. Its victory points are those tokens and 1 more while it controls its home
area (Pentos); with ``t.loyalty_to_win`` it wins at once. It does not count castles: the castle
victory and the round-10 ranking's castles are the other houses'; in the ranking Targaryen's
victory points stand in for castles. Pentos's garrison comes back whenever Targaryen controls
Pentos again."""

from __future__ import annotations

from gotsim.engine.board_state import controller
from gotsim.jit import njit
from gotsim.rules.ids import House

TARGARYEN = int(House.TARGARYEN)
MAX_LOYALTY = 20  # loyalty tokens on the board at most (components.loyalty_tokens)


@njit
def loyalty_on_board(g, t) -> int:
    n = 0
    for a in range(t.n_areas):
        n += g.loyalty[a]
    return n


@njit
def targaryen_points(g, t) -> int:
    """Targaryen's victory points: the loyalty tokens it has taken, and 1 while it controls its
    home area (the permanent loyalty token of Pentos)."""
    home = t.restored_garrison_area
    held = 1 if home >= 0 and controller(g, t, home) == TARGARYEN else 0
    return int(g.loyalty_taken) + held


@njit
def collect(g, t) -> None:
    """Targaryen takes the loyalty tokens of the areas it controls; Pentos's garrison returns
    when Targaryen controls it. Nothing outside Mother of Dragons at 8 players."""
    if t.loyalty_to_win == 0 or not g.in_play[TARGARYEN]:
        return
    for a in range(t.n_areas):
        if g.loyalty[a] > 0 and controller(g, t, a) == TARGARYEN:
            g.loyalty_taken += g.loyalty[a]
            g.loyalty[a] = 0
    home = t.restored_garrison_area
    if home >= 0 and controller(g, t, home) == TARGARYEN:
        g.garrison[home] = t.restored_garrison


@njit
def loyalty_victory(g, t) -> bool:
    """Targaryen holds ``t.loyalty_to_win`` victory points."""
    if t.loyalty_to_win == 0 or not g.in_play[TARGARYEN]:
        return False
    return targaryen_points(g, t) >= t.loyalty_to_win


@njit
def place(g, t, a: int, n: int) -> int:
    """Put up to ``n`` loyalty tokens on land area ``a`` while the board holds fewer than
    ``MAX_LOYALTY``; the number placed."""
    placed = 0
    while placed < n and loyalty_on_board(g, t) < MAX_LOYALTY:
        g.loyalty[a] += 1
        g.loyalty_placed += 1
        placed += 1
    return placed


@njit
def ranking_castles(g, t, house: int, castles: int) -> int:
    """What stands for castles in the round-10 ranking: Targaryen's victory points in a game
    with loyalty tokens, else the castles."""
    if t.loyalty_to_win != 0 and house == TARGARYEN:
        return targaryen_points(g, t)
    return castles


@njit
def keep_targaryen_last(g, t, track: int) -> None:
    """Mother of Dragons at 8 players: Targaryen stays in the last space of ``track`` whatever
    moved it (a house card, a wildling card; S&R re-sorts every track so, M14); the houses
    below it move up one place."""
    if not t.dragons:
        return
    n = t.players
    for p in range(n - 1):
        if g.track[track, p] == TARGARYEN:
            for i in range(p, n - 1):
                g.track[track, i] = g.track[track, i + 1]
            g.track[track, n - 1] = TARGARYEN
            return
