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
# # Win rates by house and player count
#
# Who wins, when, and how — per house for 3 to 6 players (2nd edition).
#
# **Read this first.** Every house is played by gotsim's heuristic player (`docs/players.md`): a
# rule-based player that plans its orders, fights with the combat odds and bids by need. It is
# a model of sensible play, not of expert play, so the numbers below describe the game *as the
# heuristic plays it*. `POLICIES = "random"` (every decision uniform among the legal actions)
# gives the rules-only baseline.

# %% tags=["parameters"]
import os
import tempfile
from pathlib import Path

QUICK = os.environ.get("GOTSIM_QUICK", "0") == "1"
POLICIES = "heuristic"  # or "random": uniform among the legal actions (a rules baseline)
PLAYER_COUNTS = [3, 4, 5, 6]
GAMES = 200 if QUICK else 4000  # per player count
HEATMAP_GAMES = 200 if QUICK else 4000  # 6-player games for the end-of-game board heat map
MODELS = ["heuristic", "heuristic_v1", "random"]  # player models compared at 6 players
MODEL_GAMES = 120 if QUICK else 3000  # 6-player games per model
SEED = 101
JOBS = int(os.environ.get("GOTSIM_JOBS", 1 if QUICK else 2))  # worker processes

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import gotsim
from gotsim.analysis.notebook import figure_folder
from gotsim.analysis.plots import (
    draw_house_rates,
    house_colour,
    house_label,
    percent_axis,
    players_title,
)
from gotsim.analysis.stats import win_rates
from gotsim.play.simulate import play_games
from gotsim.rules.ids import BASE_HOUSES

FIG_DIR = figure_folder(QUICK)  # results/figures/ of the checkout; None in quick mode


def save(fig, name):
    """Full mode only: write a curated figure to results/figures/."""
    if FIG_DIR is not None:
        fig.savefig(FIG_DIR / name, dpi=100, bbox_inches="tight")


# %% [markdown]
# ## The games
# One study over the player counts (a scenario given as a dict), written to a temporary folder.

# %%
scenario = {
    "name": "win_rates_notebook",
    "edition": "2e",
    "seed": SEED,
    "games": GAMES,
    "block_size": min(GAMES, 500),
    "policies": POLICIES,
    "grid": {"players": PLAYER_COUNTS},
}
with tempfile.TemporaryDirectory() as tmp:
    study = gotsim.run_study(scenario, jobs=JOBS, out=Path(tmp) / "study")
games = study.games
len(games)

# %% [markdown]
# ## Win rate per house and player count
# Wilson 95 % intervals. With `n` players a house that wins "fairly" wins `1/n` of the games
# (dashed lines).

# %%
rates = win_rates(games, by=["players"])
table = rates.pivot(index="house", columns="players", values="win_rate")
table.style.format("{:.1%}", na_rep="—") if not QUICK else table.round(3)

# %%
fig, ax = plt.subplots(figsize=(8, 4))
# bars lighter to darker for 3 … 6 players; dashed: the fair share 1/n of each player count
draw_house_rates(ax, rates, group="players", fair={n: 1 / n for n in PLAYER_COUNTS})
ax.set_title(
    players_title("Win rate per house and player count", policies=POLICIES, games=GAMES,
                  per="player count")
)
save(fig, "win_rates_by_players.png")

# %% [markdown]
# ## When games end
# A game ends when a house holds seven castles and strongholds, or after round 10.

# %%
ends = pd.crosstab(games.players, games.end_round, normalize="index")
fig, ax = plt.subplots(figsize=(7, 3.5))
for n, row in ends.iterrows():
    ax.plot(row.index, row.values, marker="o", label=f"{n} players")
ax.set_xlabel("end round")
ax.set_ylabel("share of games")
percent_axis(ax)
ax.set_title(
    players_title("Round the game ends in", policies=POLICIES, games=GAMES, per="player count")
)
ax.legend(fontsize=8)
save(fig, "end_round.png")
reasons = pd.crosstab(games.players, games.end_reason, normalize="index")
reasons

# %% [markdown]
# ## Castle wins vs round-10 wins, and castles held at the end

# %%
by_reason = rates.set_index(["players", "house"])[["wins_castles", "wins_round10", "mean_castles"]]
by_reason.unstack("players").round(2)

# %% [markdown]
# ## Where houses stand at the end (6 players)
# The fraction of games in which each area is held (units there, or a power token) by each house
# at the game's end. Drawn as a scatter over the board's area positions, sized by frequency.
# This part reads the raw game records (`play_games`, with the same players).

# %%
board = gotsim.load_board("2e")
records = play_games(HEATMAP_GAMES, players=6, seed=SEED, n_jobs=JOBS, policies=POLICIES)
n_areas = len(board.area_ids)
owner = records.owner[:, :n_areas]
holder = np.where(owner >= 0, owner, records.power_token[:, :n_areas])
held = pd.DataFrame(
    {h.id: (holder == int(h)).mean(axis=0) for h in BASE_HOUSES}, index=list(board.area_ids)
)
xy = np.asarray(board.position, dtype=float)
fig, axes = plt.subplots(2, 3, figsize=(12, 10), sharex=True, sharey=True)
for ax, house in zip(axes.flat, held.columns, strict=True):
    ax.scatter(xy[:, 0], xy[:, 1], s=4, c="lightgrey")
    size = 400 * held[house].to_numpy()
    ax.scatter(xy[:, 0], xy[:, 1], s=size, alpha=0.7, c=house_colour(house), edgecolors="black",
               linewidths=0.3)
    ax.set_title(house_label(house))
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
axes[0, 0].invert_yaxis()  # positions count down from the north; the y axis is shared (once)
fig.suptitle(
    players_title("Areas held at the game's end (dot size: share of games), 6 players",
                  policies=POLICIES, games=HEATMAP_GAMES)
)
save(fig, "end_control_map.png")
held.idxmax(axis=0).to_frame("most held area").assign(share=held.max(axis=0).round(2))

# %% [markdown]
# ## Win rates per player model (6 players)
# The same 6-player games (common seeds) under three player models: the tuned second heuristic,
# the first heuristic (`heuristic_v1`) and random play. Where the models disagree, a win rate
# says more about the players than about the game. `models_sign` answers "above or below the
# fair share 1/6?" across the models (`agree`, `partly`, `opposite`, `no effect`), and
# `models_size` says whether the models' distances from the fair share are one size (Cochran's
# Q, 95 %).

# %%
model_study = {
    "name": "win_rates_models",
    "edition": "2e",
    "players": 6,
    "seed": SEED,
    "games": MODEL_GAMES,
    "block_size": min(MODEL_GAMES, 500),
    "grid": {"policies": MODELS},
}
with tempfile.TemporaryDirectory() as tmp:
    by_model = gotsim.run_study(model_study, jobs=JOBS, out=Path(tmp) / "study").summary
fig, ax = plt.subplots(figsize=(9, 4))
# bars lighter to darker: heuristic, heuristic_v1, random; dashed: 1/6
draw_house_rates(ax, by_model, group="policies", fair=1 / 6)
ax.set_title(f"Win rate per house under each player model — 6 players, {MODEL_GAMES:,} games "
             "per model")
save(fig, "win_rates_by_model.png")
agreement = by_model.pivot(index="house", columns="policies", values="win_rate")
agreement = agreement[MODELS].join(
    by_model.drop_duplicates("house").set_index("house")[["models_sign", "models_size"]]
)
agreement.round(3)

# %% [markdown]
# ## Conclusion

# %%
six = rates[rates.players == 6].set_index("house")
best, worst = six.win_rate.idxmax(), six.win_rate.idxmin()
fair = 1 / rates.players
unfair = rates[(rates.ci_low > fair) | (rates.ci_high < fair)]
spread = rates.groupby("players").win_rate.agg(lambda r: r.max() - r.min())
castle_share = (games.end_reason == "castles").groupby(games.players).mean()
mean_end = games.end_round.mean()
top_area = held.max(axis=0).sort_values(ascending=False)
print(
    f"{len(games)} games with {POLICIES} players. At 6 players {best} wins most often "
    f"({six.win_rate[best]:.1%}, CI {six.ci_low[best]:.1%}–{six.ci_high[best]:.1%}) and {worst} "
    f"least ({six.win_rate[worst]:.1%}, CI {six.ci_low[worst]:.1%}–{six.ci_high[worst]:.1%}); "
    f"a fair share would be {1 / 6:.1%}.\n"
    f"{len(unfair)} of {len(rates)} house × player-count win rates have a 95 % interval that "
    f"excludes the fair share 1/n; the gap between the best and the worst house is "
    + ", ".join(f"{s:.1%} at {n}" for n, s in spread.items())
    + " players.\n"
    "Games ending by castles: "
    + ", ".join(f"{s:.1%} at {n}" for n, s in castle_share.items())
    + f" players (the rest after round 10); the mean end round is {mean_end:.1f}.\n"
    f"At the end of 6-player games the most firmly held area is {held[top_area.index[0]].idxmax()} "
    f"({top_area.index[0]}, {top_area.iloc[0]:.0%} of games).\n"
    f"Across the player models {', '.join(MODELS)} the houses' places against the fair share "
    f"agree for {int((agreement.models_sign == 'agree').sum())} of {len(agreement)} houses"
    + (
        "."
        if POLICIES == "heuristic"
        else ".\nRandom players: these numbers check the rules and the pipeline, not the balance."
    )
)
