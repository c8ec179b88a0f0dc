"""Exact chances of the Westeros cards per round, with Winter Is Coming's reshuffle modelled.

The engine draws the top card of each deck in rounds 2–10; Winter Is Coming shuffles its whole
deck (itself included) and a replacement is drawn at once, again until the card is not Winter
Is Coming. Two facts make this exact and cheap:

* the cards that are not Winter Is Coming are exchangeable, and the card resolved is always one
  of them, so a card with ``count`` copies is resolved with chance ``count / (size - w)`` in
  every round (``w`` copies of Winter Is Coming in the deck; ``count / size`` without it);
* whether Winter Is Coming comes up depends only on how many cards were drawn since the last
  shuffle (none of them Winter Is Coming): with ``k`` drawn, it is on top with chance
  ``w / (size - k)``; after a shuffle it comes up again with chance ``w / size`` each time. A
  small Markov chain over ``k`` gives each round's chance.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from gotsim.data import load_data
from gotsim.rules.variants import EXPANSIONS

__all__ = ["westeros_chances"]

WINTER = "winter_is_coming"
FIRST_ROUND, LAST_ROUND = 2, 10  # no Westeros phase in round 1


def westeros_chances(edition: str = "2e", expansion: str | None = None) -> pd.DataFrame:
    """One row per deck, round (2–10) and card: ``deck`` (I, II, III), ``round``, ``card``,
    ``resolved`` (the chance that the card is the one resolved that round; 0 for Winter Is
    Coming), ``drawn`` (the chance that it is drawn at least once that round) and
    ``expected_draws`` (the expected number of times it is drawn that round). All exact.
    ``expansion="affc"``: A Feast for Crows' deck I (no Winter Is Coming) in place of deck I.

    >>> c = westeros_chances("2e")
    >>> row = c[(c.deck == "I") & (c["round"] == 3) & (c.card == "winter_is_coming")].iloc[0]
    >>> print(f"{row.drawn:.4f} {row.expected_draws:.4f}")
    0.1111 0.1235
    >>> print(f"{c[(c.deck == 'I') & (c.card == 'mustering')].resolved.iloc[0]:.4f}")
    0.3333
    >>> f = westeros_chances("2e", "affc")
    >>> print(f"{f[(f.deck == 'I') & (f.card == 'rally_the_men')].resolved.iloc[0]:.4f}")
    0.2000
    """
    if edition != "2e":
        raise ValueError(f"westeros_chances: only the 2nd edition's decks, got {edition!r}")
    decks = list(load_data(edition, "westeros_cards.json")["decks"])
    if expansion is not None:
        scenario = load_data("2e", "expansions.json")["scenarios"][EXPANSIONS[expansion]]
        if "westeros_deck_I_replacement" in scenario:
            decks[0] = {"deck": "I", **scenario["westeros_deck_I_replacement"]}
    rows = []
    for deck in decks:
        size = int(deck["size"])
        counts = {c["id"]: int(c["count"]) for c in deck["cards"]}
        w = counts.get(WINTER, 0)
        # chance of each number k of cards drawn since the last shuffle, before the round
        since_shuffle = np.zeros(size + 1)
        since_shuffle[0] = 1.0
        for game_round in range(FIRST_ROUND, LAST_ROUND + 1):
            on_top = np.array([w / (size - k) if k < size else 0.0 for k in range(size + 1)])
            drawn = float(since_shuffle @ on_top)
            again = w / (size - w) if w else 0.0  # expected further draws after a shuffle
            expected = drawn * (1.0 + again)
            after = np.zeros(size + 1)
            after[1] += drawn  # shuffled, and a card that is not Winter Is Coming drawn
            after[1:] += (since_shuffle * (1.0 - on_top))[:-1]
            since_shuffle = after
            for card, count in counts.items():
                winter = card == WINTER
                rows.append(
                    {
                        "deck": deck["deck"],
                        "round": game_round,
                        "card": card,
                        "resolved": 0.0 if winter else count / (size - w),
                        "drawn": drawn if winter else count / (size - w),
                        "expected_draws": expected if winter else count / (size - w),
                    }
                )
    return pd.DataFrame(rows)
