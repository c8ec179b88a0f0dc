"""Questions asked of the per-round history (``rounds_frame``, a study's ``rounds.parquet``):
what came of the Messenger Raven's looks at the wildling deck.

A game is identified by ``cell`` and ``game`` in a study's tables, by ``game`` alone in
``rounds_frame``'s.
"""

from __future__ import annotations

import pandas as pd

__all__ = ["raven_looks"]


def _game_key(rounds: pd.DataFrame) -> list[str]:
    return ["cell", "game"] if "cell" in rounds.columns else ["game"]


def raven_looks(rounds: pd.DataFrame, games: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per round in which the Messenger Raven's holder looked at the top wildling card.

    Columns: the game key, ``round``, ``holder``, ``card`` (the card seen), ``buried`` (put at
    the bottom of the deck rather than left on top), and the next wildling attack in a later
    round of the same game — ``next_attack_round``, ``next_attack_card`` (the card it
    revealed), ``next_attack_result`` (``nights_watch`` or ``wildlings``) — all missing when the
    game ended first. With ``games`` (a frame with the game key and ``winner``): ``holder_won``.

    >>> rounds = pd.DataFrame({
    ...     "game": [0, 0, 0], "round": [1, 2, 3],
    ...     "raven_use": ["look_bury", "nothing", "nothing"],
    ...     "raven_holder": ["lannister", "lannister", "stark"],
    ...     "raven_card": ["crow_killers", None, None],
    ...     "wildling_attacks": [0, 0, 1],
    ...     "wildling_card": [None, None, "mammoth_riders"],
    ...     "wildling_result": [None, None, "wildlings"]})
    >>> raven_looks(rounds)[["round", "card", "buried", "next_attack_card"]].to_dict("records")
    [{'round': 1, 'card': 'crow_killers', 'buried': True, 'next_attack_card': 'mammoth_riders'}]
    """
    key = _game_key(rounds)
    r = rounds.sort_values([*key, "round"]).reset_index(drop=True)
    by_game = [r[k] for k in key]
    attacked = r["wildling_attacks"] > 0
    later: dict[str, pd.Series] = {}
    for column, name in (
        ("round", "next_attack_round"),
        ("wildling_card", "next_attack_card"),
        ("wildling_result", "next_attack_result"),
    ):
        at_attack = r[column].where(attacked)
        # the value of the next attacking row after this one, within the game
        later[name] = at_attack.groupby(by_game).shift(-1).groupby(by_game).bfill()
    looked = r["raven_use"].isin(["look_keep", "look_bury"])
    out = pd.DataFrame(
        {
            **{k: r[k] for k in key},
            "round": r["round"],
            "holder": r["raven_holder"],
            "card": r["raven_card"],
            "buried": r["raven_use"] == "look_bury",
            **later,
        }
    )[looked].reset_index(drop=True)
    out["next_attack_round"] = out["next_attack_round"].astype("Int64")
    if games is not None:
        winners = games[[*key, "winner"]]
        out = out.merge(winners, on=key, how="left")
        out["holder_won"] = out.pop("winner") == out["holder"]
    return out
