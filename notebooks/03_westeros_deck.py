# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # The Westeros decks and the wildlings
#
# How often each Westeros card comes up per round (exact and simulated), how often Winter Is
# Coming reshuffles a deck, how many Mustering, Supply, Clash of Kings and Game of Thrones events
# a game sees, the wildling threat over a game, whether early deck events go with a house's
# chances, and what the Messenger Raven's look at the wildling deck is worth.
#
# **Read this first.** Every house is played by gotsim's heuristic player (`docs/players.md`), a
# rule-based model of sensible play. The deck statistics hardly depend on the players (only
# through how long games last); the win rates and the raven's worth describe the game as the
# heuristic plays it. `POLICIES = "random"` gives the rules-only baseline.

# %% tags=["parameters"]
import os
import tempfile
from pathlib import Path

QUICK = os.environ.get("GOTSIM_QUICK", "0") == "1"
POLICIES = "heuristic"  # or "random": uniform among the legal actions (a rules baseline)
PLAYERS = 6
GAMES = 300 if QUICK else 10000
SEED = 303
JOBS = int(os.environ.get("GOTSIM_JOBS", 1 if QUICK else 2))  # worker processes

# %%
import json

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import gotsim
from gotsim.analysis.notebook import figure_folder
from gotsim.analysis.plots import percent_axis, players_title, points_axis
from gotsim.analysis.history import raven_looks
from gotsim.analysis.westeros import westeros_chances
from gotsim.analysis.stats import wilson_interval, win_rates

FIG_DIR = figure_folder(QUICK)  # results/figures/ of the checkout; None in quick mode


def save(fig, name):
    """Full mode only: write a curated figure to results/figures/."""
    if FIG_DIR is not None:
        fig.savefig(FIG_DIR / name, dpi=100, bbox_inches="tight")


scenario = {
    "name": "westeros_notebook",
    "edition": "2e",
    "players": PLAYERS,
    "seed": SEED,
    "games": GAMES,
    "block_size": min(GAMES, 500),
    "policies": POLICIES,
}
with tempfile.TemporaryDirectory() as tmp:
    study = gotsim.run_study(scenario, jobs=JOBS, out=Path(tmp) / "study")
games, rounds = study.games, study.rounds
drawn = rounds[rounds["round"] >= 2]  # no Westeros phase in round 1

# %% [markdown]
# ## Chance of each card per round: exact vs simulated
# Each deck has 10 cards and a game draws at most 9 of them (rounds 2–10). Winter Is Coming (one
# card in decks I and II) reshuffles its deck and a replacement is drawn. The exact chances
# (`gotsim.analysis.westeros.westeros_chances`) model that: every other card of its deck is
# resolved with chance `count / 9` in every round (they are exchangeable, and the card resolved
# is never Winter Is Coming), deck III's with `count / 10`; Winter Is Coming itself is *drawn*
# more often as the round number grows, since the fewer cards remain since the last shuffle, the
# likelier it is on top. Below, `resolved` compares the card resolved (`westeros_<deck>`), and
# for Winter Is Coming how often it was drawn (`winter_<deck>` > 0), averaged over rounds 2–10
# (the exact figure weighted by the rounds the simulated games reached).

# %%
cards_file = Path(gotsim.__file__).parent / "data" / "2e" / "westeros_cards.json"  # package data
decks = json.loads(cards_file.read_text())["decks"]
exact = westeros_chances("2e")
exact["chance"] = exact.drawn  # resolved for every card but Winter Is Coming: drawn
rounds_reached = drawn["round"].value_counts().sort_index()
rows = []
for k, deck in enumerate(decks, start=1):
    column = drawn[f"westeros_{k}"]
    for card in deck["cards"]:
        if card["id"] == "winter_is_coming":
            seen = (drawn[f"winter_{k}"] > 0).mean()  # drawn, then replaced
        else:
            seen = (column == card["id"]).mean()
        by_round = exact[(exact.deck == deck["deck"]) & (exact.card == card["id"])]
        weighted = np.average(
            by_round.set_index("round").chance.loc[rounds_reached.index], weights=rounds_reached
        )
        rows.append(
            {
                "deck": deck["deck"],
                "card": card["id"],
                "count / size": card["count"] / deck["size"],
                "exact": weighted,
                "simulated": seen,
            }
        )
per_card = pd.DataFrame(rows)
per_card.round(3)

# %%
fig, axes = plt.subplots(1, 3, figsize=(15, 4), sharey=True)
for ax, (k, deck) in zip(axes, enumerate(decks, start=1), strict=True):
    share = pd.crosstab(drawn["round"], drawn[f"westeros_{k}"], normalize="index")
    for j, card in enumerate(deck["cards"]):
        line = exact[(exact.deck == deck["deck"]) & (exact.card == card["id"])]
        if card["id"] in share:
            ax.plot(share.index, share[card["id"]], marker=".", color=f"C{j}", label=card["name"])
            ax.plot(line["round"], line.chance, color=f"C{j}", ls=":", lw=1)
        elif card["id"] == "winter_is_coming":
            winter_drawn = (drawn[f"winter_{k}"] > 0).groupby(drawn["round"]).mean()
            ax.plot(winter_drawn.index, winter_drawn, "kx", label="Winter Is Coming (drawn)")
            ax.plot(line["round"], line.chance, "k:", lw=1)
    ax.set_title(f"Westeros deck {deck['deck']} (dotted: exact)")
    ax.set_xlabel("round")
    ax.legend(fontsize=6)
axes[0].set_ylabel("share of games")
percent_axis(axes[0])
fig.suptitle(
    players_title("Westeros cards resolved per round", policies=POLICIES,
                  games=drawn.game.nunique())
)
save(fig, "westeros_cards_by_round.png")

# %% [markdown]
# ## Winter Is Coming
# How often it is drawn per round and deck (simulated, and exact), and how many reshuffles a game
# sees. A round's count is 2 when the replacement drawn after the reshuffle is Winter Is Coming
# again.

# %%
winter = drawn.groupby("round")[["winter_1", "winter_2"]].apply(lambda w: (w > 0).mean())
winter["exact"] = (
    exact[(exact.deck == "I") & (exact.card == "winter_is_coming")].set_index("round").drawn
)
winter_per_game = drawn.groupby("game")[["winter_1", "winter_2"]].sum()
display(winter.round(3))  # noqa: F821 (IPython builtin)
winter_per_game.describe().loc[["mean", "max"]].round(2)

# %% [markdown]
# ## Events per game

# %%
events = {"mustering": 1, "supply": 1, "clash_of_kings": 2, "game_of_thrones": 2}
counts = pd.DataFrame(
    {card: (drawn[f"westeros_{k}"] == card).groupby(drawn.game).sum() for card, k in events.items()}
)
counts.describe().loc[["mean", "min", "max"]].round(2)

# %% [markdown]
# ## Wildling threat and attacks

# %%
threat = rounds.pivot(index="round", columns="game", values="wildling_threat")
attacks = rounds.groupby("game").wildling_attacks.sum()
fig, axes = plt.subplots(1, 2, figsize=(11, 3.5))
axes[0].plot(threat.index, threat.iloc[:, :30], color="grey", alpha=0.3)
axes[0].plot(threat.index, threat.mean(axis=1), color="C3", lw=2, label="mean")
axes[0].set_xlabel("round")
axes[0].set_ylabel("wildling threat (end of round)")
axes[0].legend()
attacks.value_counts(normalize=True).sort_index().plot.bar(ax=axes[1])
axes[1].set_xlabel("wildling attacks in the game")
axes[1].set_ylabel("share of games")
percent_axis(axes[1])
fig.suptitle(
    players_title("Wildling threat and attacks", policies=POLICIES, games=attacks.size)
)
save(fig, "wildling_threat.png")
results = rounds.wildling_result.value_counts()
results

# %% [markdown]
# ## Win rate by house, conditioned on an early Mustering
# Does a Mustering in round 2 (deck I) go with a different winner? Each arm is a different set of
# games, so the difference is unpaired.

# %%
early = drawn[(drawn["round"] == 2)].set_index("game").westeros_1 == "mustering"
games["mustering_round2"] = games.game.map(early).fillna(False).astype(bool)
conditioned = win_rates(games, by=["mustering_round2"])
conditioned.pivot(index="house", columns="mustering_round2", values="win_rate").round(3)

# %%
diffs = pd.concat(
    [
        gotsim.compare(games, house=h, by="mustering_round2", paired=False)
        for h in sorted(set(conditioned.house))
    ],
    ignore_index=True,
)
diffs[["house", "difference", "ci_low", "ci_high", "p_value"]].round(3)

# %% [markdown]
# ## The Messenger Raven
# Each round the top of King's Court may keep its orders, swap one of them, or look at the top
# wildling card and either leave it on top or bury it at the bottom of the deck
# (`raven_use` in the round history).

# %%
uses = rounds.raven_use.value_counts(normalize=True)
uses.round(3)

# %% [markdown]
# ### What the look is worth
# For every look, the next wildling attack in a later round (`raven_looks`): which card it
# revealed, whether the wildlings won, and whether the raven holder won the game. A kept card is
# the one the next attack reveals (unless a later look buries it), so the holder attacks knowing
# the card; a buried one is replaced by an unknown card.
#
# **Confounding.** The holder *chooses* to bury after seeing the card and its own position, so
# "buried" and "kept" games differ in more than the raven: the card seen, who holds King's Court
# (the strongest houses bid for it) and how the game stands. The comparison by card seen removes
# the first; the rest remains, so these are associations, not the causal worth of the raven.

# %%
looks = raven_looks(rounds, games)
n_looks = len(looks)
bury_rate = (
    looks.groupby("card")
    .buried.agg(["mean", "size"])
    .rename(columns={"mean": "bury_rate", "size": "looks"})
)
bury_rate.sort_values("bury_rate").round(3)


# %%
def rate_with_ci(flags):
    """Share of True in a boolean Series with its Wilson 95 % interval."""
    flags = flags.dropna().astype(bool)
    low, high = wilson_interval(int(flags.sum()), len(flags))
    return pd.Series({"n": len(flags), "rate": flags.mean(), "ci_low": low, "ci_high": high})


attacked_later = looks.dropna(subset=["next_attack_result"])
outcomes = pd.DataFrame(
    {
        ("wildlings win the next attack", kept_or_buried): rate_with_ci(
            sub.next_attack_result == "wildlings"
        )
        for kept_or_buried, sub in attacked_later.groupby(
            attacked_later.buried.map({True: "buried", False: "kept"})
        )
    }
    | {
        ("holder wins the game", kept_or_buried): rate_with_ci(sub.holder_won)
        for kept_or_buried, sub in looks.groupby(looks.buried.map({True: "buried", False: "kept"}))
    }
).T
outcomes.round(3)

# %% [markdown]
# The same holder's result, card by card (cards seen at least 30 times each way), so that the
# card seen is held fixed: the difference buried − kept in the holder's win rate. A game holds
# several looks, usually by the same holder, and they are counted as if independent, so these
# intervals are somewhat too narrow.

# %%
by_card = (
    looks.groupby(["card", "buried"]).holder_won.agg(["mean", "size"]).unstack("buried").dropna()
)
by_card = by_card[(by_card[("size", True)] >= 30) & (by_card[("size", False)] >= 30)]
card_effect = pd.DataFrame(
    {
        "kept": by_card[("mean", False)],
        "buried": by_card[("mean", True)],
        "difference": by_card[("mean", True)] - by_card[("mean", False)],
        "se": np.sqrt(
            by_card[("mean", True)] * (1 - by_card[("mean", True)]) / by_card[("size", True)]
            + by_card[("mean", False)] * (1 - by_card[("mean", False)]) / by_card[("size", False)]
        ),
    }
)
card_effect["ci_low"] = card_effect.difference - 1.96 * card_effect.se
card_effect["ci_high"] = card_effect.difference + 1.96 * card_effect.se
fig, ax = plt.subplots(figsize=(7, 3.5))
if len(card_effect):
    ax.errorbar(
        card_effect.difference,
        np.arange(len(card_effect)),
        xerr=1.96 * card_effect.se,
        fmt="o",
        capsize=3,
    )
    ax.set_yticks(np.arange(len(card_effect)), card_effect.index)
ax.axvline(0, color="grey", lw=0.8)
ax.set_xlabel("raven holder's win rate, buried − kept (same card seen; 95 % CI)")
points_axis(ax)
ax.set_title(players_title("The Messenger Raven's look", policies=POLICIES, games=GAMES))
save(fig, "raven_look.png")
card_effect.round(3)

# %% [markdown]
# ## Conclusion

# %%
gap = (per_card.simulated - per_card.exact).abs()
worst = gap.idxmax()
row = per_card.loc[worst]
best_diff = diffs.loc[diffs.p_value.idxmin()]
winter_share = per_card[per_card.card == "winter_is_coming"].set_index("deck")
winter_exact = exact[(exact.deck == "I") & (exact.card == "winter_is_coming")].set_index("round")


def outcome(what, arm):
    """A row of ``outcomes`` (None when that arm had no looks)."""
    return outcomes.loc[(what, arm)] if (what, arm) in outcomes.index else None


kept_attack = outcome("wildlings win the next attack", "kept")
buried_attack = outcome("wildlings win the next attack", "buried")
kept_win = outcome("holder wins the game", "kept")
buried_win = outcome("holder wins the game", "buried")


def fmt(r):
    return "—" if r is None else f"{r.rate:.1%} (CI {r.ci_low:.1%}–{r.ci_high:.1%}, n = {r.n:.0f})"


look_share = uses.get("look_keep", 0) + uses.get("look_bury", 0)
significant_cards = card_effect[(card_effect.ci_low > 0) | (card_effect.ci_high < 0)]
print(
    f"{len(games)} games ({POLICIES} players). Simulated card frequencies match the exact "
    f"chances (Winter Is Coming's reshuffle modelled) to within {gap.max():.1%} "
    f"(largest gap: {row.card} in deck {row.deck}, {row.simulated:.1%} vs {row.exact:.1%}); "
    f"the cards of decks I and II are resolved with chance count/9, not count/10. Winter Is "
    f"Coming is drawn in "
    + " and ".join(
        f"{r.simulated:.1%} of rounds from deck {d} (exact {r.exact:.1%})"
        for d, r in winter_share.iterrows()
    )
    + f", rising from {winter_exact.drawn[2]:.0%} in round 2 to {winter_exact.drawn[10]:.1%} in "
    f"round 10 (exact); {winter_per_game.sum(axis=1).mean():.2f} reshuffles per game.\n"
    f"A game sees on average {counts.mustering.mean():.1f} Musterings, {counts.supply.mean():.1f} "
    f"Supplies, {counts.clash_of_kings.mean():.1f} Clashes of Kings and "
    f"{counts.game_of_thrones.mean():.1f} Games of Thrones; {attacks.mean():.2f} wildling attacks "
    f"on average.\n"
    f"The largest win-rate shift after a round-2 Mustering is {best_diff.house}'s "
    f"{best_diff.difference:+.1%} (p = {best_diff.p_value:.2g}).\n"
    f"The Messenger Raven's holder looks at the wildling deck in {look_share:.1%} "
    f"of rounds ({n_looks} looks) and buries {looks.buried.mean():.1%} of what it sees. The "
    f"wildlings win the next attack after a kept card {fmt(kept_attack)}, after a buried one "
    f"{fmt(buried_attack)}; the holder wins the game {fmt(kept_win)} after keeping and "
    f"{fmt(buried_win)} after burying. Card by card, {len(significant_cards)} of "
    f"{len(card_effect)} cards show a buried − kept difference in the holder's win rate whose "
    "95 % interval excludes 0"
    + (
        f" (differences from {card_effect.difference.min():+.1%} to "
        f"{card_effect.difference.max():+.1%})"
        if len(card_effect)
        else ""
    )
    + ". These are associations (the holder chooses after seeing the card and its position, "
    "and looks of one game are not independent), not the causal worth of the look."
)
