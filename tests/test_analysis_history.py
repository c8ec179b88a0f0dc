"""``gotsim.analysis.history.raven_looks``: each look at the wildling deck, matched with the next
wildling attack of the same game and the game's winner."""

from __future__ import annotations

import pandas as pd

from gotsim.analysis.history import raven_looks


def rounds_of(cell: int, game: int, lines: list[tuple]) -> pd.DataFrame:
    """Round lines ``(raven_use, holder, card, attacks, wildling_card, result)`` from round 1."""
    columns = [
        "raven_use",
        "raven_holder",
        "raven_card",
        "wildling_attacks",
        "wildling_card",
        "wildling_result",
    ]
    frame = pd.DataFrame(lines, columns=columns)
    frame.insert(0, "round", range(1, len(lines) + 1))
    frame.insert(0, "game", game)
    frame.insert(0, "cell", cell)
    return frame


def test_raven_looks_pairs_each_look_with_the_next_attack_of_its_game() -> None:
    """Game 0 of cell 0: Stark buries Crow Killers in round 1 and keeps Mammoth Riders in
    round 3; the wildlings attack in round 2 (Silence at the Wall, Night's Watch wins) and round
    4 (Mammoth Riders, wildlings win). Game 0 of cell 1 (same game number, other cell) has a
    look in its last round and no later attack. An attack in the look's own round came before
    the raven and does not count."""
    rounds = pd.concat(
        [
            rounds_of(
                0,
                0,
                [
                    ("look_bury", "stark", "crow_killers", 0, None, None),
                    ("nothing", "stark", None, 1, "silence_at_the_wall", "nights_watch"),
                    ("look_keep", "stark", "mammoth_riders", 0, None, None),
                    ("replace_order", "stark", None, 1, "mammoth_riders", "wildlings"),
                ],
            ),
            rounds_of(
                1,
                0,
                [
                    ("nothing", "lannister", None, 0, None, None),
                    ("look_keep", "lannister", "preemptive_raid", 1, "crow_killers", "wildlings"),
                ],
            ),
        ],
        ignore_index=True,
    ).sample(frac=1, random_state=1)  # any row order
    games = pd.DataFrame({"cell": [0, 1], "game": [0, 0], "winner": ["stark", "baratheon"]})
    looks = raven_looks(rounds, games)
    assert looks[["cell", "round", "card", "buried"]].values.tolist() == [
        [0, 1, "crow_killers", True],
        [0, 3, "mammoth_riders", False],
        [1, 2, "preemptive_raid", False],
    ]
    assert looks.next_attack_round.tolist()[:2] == [2, 4]
    assert looks.next_attack_card.tolist()[:2] == ["silence_at_the_wall", "mammoth_riders"]
    assert looks.next_attack_result.tolist()[:2] == ["nights_watch", "wildlings"]
    assert (
        looks.loc[2, ["next_attack_round", "next_attack_card", "next_attack_result"]].isna().all()
    )
    assert looks.holder_won.tolist() == [True, True, False]


def test_raven_looks_without_looks_is_empty() -> None:
    rounds = rounds_of(0, 0, [("nothing", "stark", None, 0, None, None)]).drop(columns="cell")
    looks = raven_looks(rounds)
    assert looks.empty and "holder_won" not in looks.columns
    assert {"game", "round", "holder", "card", "buried", "next_attack_result"} <= set(looks.columns)
