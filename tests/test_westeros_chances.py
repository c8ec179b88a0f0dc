"""``gotsim.analysis.westeros.westeros_chances``: exact per-round chances of the Westeros cards,
Winter Is Coming's reshuffle included, against the engine's own draws (``draw_cards`` for rounds
2–10 on fresh records, no play in between) and against hand-worked values."""

from __future__ import annotations

import numpy as np
import pytest

from gotsim.analysis.westeros import westeros_chances
from gotsim.engine import westeros as ws
from gotsim.engine.init import new_games
from gotsim.engine.state import H_WINTER
from gotsim.engine.tables import WesterosCard, rules_table

EXACT = westeros_chances("2e")


def test_chances_by_hand() -> None:
    """Deck I, Winter Is Coming: round 2 1/10; round 3 1/9 (one card, not it, drawn since the
    shuffle); round 4 8/9 · 1/8 + 1/9 · 1/9. Every card of a deck with it is resolved with chance
    count/9, of deck III count/10; the chances of the cards resolved sum to 1."""
    winter = EXACT[(EXACT.deck == "I") & (EXACT.card == "winter_is_coming")].set_index("round")
    assert winter.drawn[2] == pytest.approx(0.1)
    assert winter.drawn[3] == pytest.approx(1 / 9)
    assert winter.drawn[4] == pytest.approx(8 / 9 / 8 + 1 / 81)
    assert winter.expected_draws[2] == pytest.approx(0.1 * 10 / 9)
    assert (winter.resolved == 0).all()
    assert EXACT.groupby(["deck", "round"]).resolved.sum().to_numpy() == pytest.approx(1.0)
    supply = EXACT[(EXACT.deck == "I") & (EXACT.card == "supply")]
    assert supply.resolved.to_numpy() == pytest.approx(3 / 9)
    storm = EXACT[(EXACT.deck == "III") & (EXACT.card == "wildlings_attack")]
    assert storm.resolved.to_numpy() == pytest.approx(3 / 10)
    with pytest.raises(ValueError, match="2nd edition"):
        westeros_chances("1e")


def test_chances_match_the_engine_draws() -> None:
    """4,000 records drawn through rounds 2–10 by the engine: every card's resolved share and
    Winter Is Coming's drawn share per round lie within 4.5 standard errors of the exact
    chances."""
    n = 4000
    t = rules_table("2e", 6)[0]
    games = new_games([np.random.SeedSequence(21, spawn_key=(i,)) for i in range(n)])
    resolved = np.zeros((9, 3, len(WesterosCard)))
    winter = np.zeros((9, 3))
    for g in games:
        for r in range(9):
            g.game_round = r + 2
            ws.draw_cards(g, t)
            for d in range(3):
                resolved[r, d, int(g.westeros_drawn[d])] += 1
                winter[r, d] += g.history[r + 1, H_WINTER + d] > 0
    decks = {"I": 0, "II": 1, "III": 2}
    for row in EXACT.itertuples():
        r, d = row.round - 2, decks[row.deck]
        if row.card == "winter_is_coming":
            p, seen = row.drawn, winter[r, d] / n
        else:
            p, seen = row.resolved, resolved[r, d, WesterosCard[row.card.upper()]] / n
        assert abs(seen - p) <= 4.5 * np.sqrt(p * (1 - p) / n) + 1e-12, row
