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
# # The Lannister swap (5 players)
#
# Is Lannister worse off at five players unless Tyrell and Greyjoy swap places on the King's
# Court track? `scenarios/lannister_swap.toml` plays the same games (common random numbers) with
# the track as set up and with the swap, and compares every house's win rate, paired by block.
#
# **Read this first.** Every house is played by gotsim's heuristic player (`docs/players.md`), a
# rule-based model of sensible play: the answer is the swap's effect *as the heuristic plays
# the game*. `POLICIES = "random"` gives the rules-only baseline. The 1st edition, where the
# question was first asked, follows at the end (`scenarios/lannister_swap_1e.toml`).

# %% tags=["parameters"]
import os
import tempfile
import tomllib
from pathlib import Path

QUICK = os.environ.get("GOTSIM_QUICK", "0") == "1"
POLICIES = "heuristic"  # or "random": uniform among the legal actions (a rules baseline)
GAMES = 300 if QUICK else None  # None: the scenario's own count (10,000 per arm)
JOBS = int(os.environ.get("GOTSIM_JOBS", 1 if QUICK else 2))  # worker processes
MODEL_GAMES = 150 if QUICK else None  # None: lannister_swap_models.toml's own count (4,000)

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import gotsim
from gotsim.analysis.notebook import figure_folder, repository_file
from gotsim.analysis.plots import (
    draw_differences_by_house,
    draw_house_rates,
    house_colour,
    house_label,
    ordered_houses,
    players_title,
)
from gotsim.analysis.stats import win_rates

FIG_DIR = figure_folder(QUICK)  # results/figures/ of the checkout; None in quick mode


def save(fig, name):
    """Full mode only: write a curated figure to results/figures/."""
    if FIG_DIR is not None:
        fig.savefig(FIG_DIR / name, dpi=100, bbox_inches="tight")


scenario = tomllib.loads(repository_file("scenarios/lannister_swap.toml").read_text())
# the scenario's grid runs both editions; the 2nd edition's cells first, the 1st's at the end
# (the same cells, from scenarios/lannister_swap_1e.toml)
del scenario["grid"]["edition"]
scenario["edition"] = "2e"
scenario["policies"] = POLICIES
if GAMES is not None:
    scenario["games"] = GAMES
    scenario["block_size"] = min(GAMES // 3, scenario["block_size"])  # a few blocks to pair
with tempfile.TemporaryDirectory() as tmp:
    study = gotsim.run_study(scenario, jobs=JOBS, out=Path(tmp) / "study")
games, rounds = study.games, study.rounds
games.groupby("kings_court_swap").size()

# %% [markdown]
# ## Win rate per house, as set up vs swapped

# %%
rates = win_rates(games, by=["kings_court_swap"])
houses = ordered_houses(rates.house)
fig, ax = plt.subplots(figsize=(8, 4))
# light bars: King's Court as set up; dark: Tyrell and Greyjoy swapped; dashed: 1/5
arms = rates.assign(arm=rates.kings_court_swap.map({False: "as set up", True: "swapped"}))
draw_house_rates(ax, arms.sort_values("kings_court_swap"), group="arm", fair=1 / 5)
ax.set_title(
    players_title("5 players, King's Court swap", policies=POLICIES, games=len(games) // 2,
                  per="arm")
)
save(fig, "lannister_swap_win_rates.png")
rates.pivot(index="house", columns="kings_court_swap", values="win_rate").round(3)

# %% [markdown]
# ## Differences (swapped − as set up), paired by block, with 95 % intervals and p-values

# %%
diffs = pd.concat(
    [gotsim.compare(games, house=h, by="kings_court_swap", baseline=False) for h in houses],
    ignore_index=True,
)
COLUMNS = ["house", "rate_baseline", "rate_arm", "difference", "ci_low", "ci_high", "p_value"]
diffs[[*COLUMNS, "method"]].round(4)

# %%
fig, ax = plt.subplots(figsize=(7, 3.5))
draw_differences_by_house(ax, diffs, what="win rate, swapped − as set up")
ax.set_title(
    players_title("King's Court swap, paired by block", policies=POLICIES,
                  games=len(games) // 2, per="arm")
)
save(fig, "lannister_swap_differences.png")

# %% [markdown]
# ## Mechanism
# The swap changes who sits where on King's Court, i.e. how many star (special) orders each
# house may place and who holds the Messenger Raven. The round history records, per round, the
# star orders each house has on the board, battles by attacker and defender, and the castles and
# strongholds each house lost (in battle, and in all). Game *i* of both arms shares its decks and
# draws, so each measure is compared game by game: the mean difference (swapped − as set up) with
# a 95 % interval. "Lost in battle" counts every castle taken from Lannister in a battle, even
# one it had itself taken earlier in the round; "lost (all ways)" counts the castles it held at
# the previous round's end (the start, in round 1) and no longer holds at this one's — so in
# round 1, where Lannister mostly loses castles it has just marched into, the two differ most.

# %%
ARM = {False: "as set up", True: "swapped"}
per_game = rounds.groupby(["kings_court_swap", "game"]).sum(numeric_only=True)
MEASURES = {
    "Lannister star orders": "stars_lannister",
    "Greyjoy star orders": "stars_greyjoy",
    "Tyrell star orders": "stars_tyrell",
    "Greyjoy → Lannister battles": "attacks_greyjoy_on_lannister",
    "Lannister → Greyjoy battles": "attacks_lannister_on_greyjoy",
    "Lannister castles lost in battle": "castles_lost_in_battle_lannister",
    "Lannister castles lost (all ways)": "castles_lost_lannister",
}


def paired_mean_difference(column):
    """Per-game means in each arm and the paired difference with a 95 % interval."""
    arms = per_game[column].unstack("kings_court_swap")
    both = arms.dropna()
    diff = both[True] - both[False]
    half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff))
    return {
        "as set up": arms[False].mean(),
        "swapped": arms[True].mean(),
        "difference": diff.mean(),
        "ci_low": diff.mean() - half,
        "ci_high": diff.mean() + half,
    }


mechanism = pd.DataFrame({name: paired_mean_difference(c) for name, c in MEASURES.items()}).T
mechanism.round(3)

# %%
star_columns = [f"stars_{h}" for h in houses]
stars_by_round = rounds.groupby(["kings_court_swap", "round"])[star_columns].mean()
lost_by_round = rounds.groupby(["kings_court_swap", "round"])[
    ["castles_lost_lannister", "castles_lost_in_battle_lannister"]
].mean()
battles_by_round = rounds.groupby(["kings_court_swap", "round"])[
    ["attacks_greyjoy_on_lannister", "attacks_lannister_on_greyjoy"]
].mean()
fig, axes = plt.subplots(1, 3, figsize=(16, 4))
stars = rounds.groupby("kings_court_swap")[star_columns].mean().T
stars.index = houses
stars.columns = [ARM[c] for c in stars.columns]
for k, arm in enumerate(stars.columns):
    axes[0].bar(
        np.arange(len(houses)) + (k - 0.5) * 0.38,
        stars[arm],
        0.38,
        color=[house_colour(h) for h in houses],
        alpha=0.45 + 0.55 * k,
        edgecolor="black",
        linewidth=0.6,
        label=f"{arm} (lighter)" if k == 0 else arm,
    )
axes[0].set_xticks(np.arange(len(houses)), [house_label(h) for h in houses])
axes[0].legend(fontsize=7)
axes[0].set_ylabel("star orders on the board per round")
axes[0].set_title("Star orders per house")
for swap, style in ((False, "-"), (True, "--")):
    sub = battles_by_round.loc[swap]
    axes[1].plot(
        sub.index,
        sub.attacks_greyjoy_on_lannister,
        style,
        color=house_colour("greyjoy"),
        label=f"Greyjoy → Lannister, {ARM[swap]}",
    )
    axes[1].plot(
        sub.index,
        sub.attacks_lannister_on_greyjoy,
        style,
        color=house_colour("lannister"),
        label=f"Lannister → Greyjoy, {ARM[swap]}",
    )
    lost = lost_by_round.loc[swap]
    axes[2].plot(
        lost.index, lost.castles_lost_lannister, style, color="C1", label=f"all ways, {ARM[swap]}"
    )
    axes[2].plot(
        lost.index,
        lost.castles_lost_in_battle_lannister,
        style,
        color="C3",
        label=f"in battle, {ARM[swap]}",
    )
axes[1].set_xlabel("round")
axes[1].set_ylabel("battles per game still running")
axes[1].set_title("Battles between Greyjoy and Lannister")
axes[1].legend(fontsize=7)
axes[2].set_xlabel("round")
axes[2].set_ylabel("castles lost per game still running")
axes[2].set_title("Lannister castles and strongholds lost")
axes[2].legend(fontsize=7)
fig.suptitle(
    players_title("Mechanism of the King's Court swap", policies=POLICIES,
                  games=len(games) // 2, per="arm")
)
save(fig, "lannister_swap_mechanism.png")
stars_by_round.unstack("kings_court_swap").round(2)

# %% [markdown]
# End reasons and castles at the end, per arm:

# %%
mech = rates.pivot(
    index="house",
    columns="kings_court_swap",
    values=["mean_castles", "wins_castles", "wins_round10"],
)
mech.round(2)

# %% [markdown]
# ## The 1st edition
# The 5-player errata of the 1st edition puts Tyrell 4th and Greyjoy 5th on King's Court; the
# printed start cards have them the other way round (`docs/rules.md` D7). The same players
# play the 1st-edition base game (`POLICIES`).

# %%
scenario_1e = tomllib.loads(repository_file("scenarios/lannister_swap_1e.toml").read_text())
scenario_1e["policies"] = POLICIES
if GAMES is not None:
    scenario_1e["games"] = GAMES
    scenario_1e["block_size"] = min(GAMES // 3, scenario_1e["block_size"])
with tempfile.TemporaryDirectory() as tmp:
    games_1e = gotsim.run_study(scenario_1e, jobs=JOBS, out=Path(tmp) / "study_1e").games
houses_1e = sorted(set(win_rates(games_1e, by=["kings_court_swap"]).house))
diffs_1e = pd.concat(
    [gotsim.compare(games_1e, house=h, by="kings_court_swap", baseline=False) for h in houses_1e],
    ignore_index=True,
)
battles_1e = games_1e.groupby("kings_court_swap").battles.mean()
castle_share_1e = (games_1e.end_reason == "castles").mean()
diffs_1e[COLUMNS].round(4)

# %%
fig, ax = plt.subplots(figsize=(7, 3.8))
both = pd.concat([diffs.assign(edition="2nd edition"), diffs_1e.assign(edition="1st edition")])
draw_differences_by_house(
    ax, both, group="edition", what="win rate, swapped − as set up",
    group_label={"2nd edition": "2nd edition", "1st edition": "1st edition"},
)
ax.set_title(
    players_title("King's Court swap in both editions", policies=POLICIES,
                  games=len(games) // 2, per="arm")
)
save(fig, "lannister_swap_editions.png")

# %% [markdown]
# ## Under each player model
# Is the answer about the game or about the players? `scenarios/lannister_swap_models.toml`
# asks the same question (2nd edition) under the tuned second heuristic, the first heuristic
# and random play, each model's arms on common seeds. `models_sign` says whether the models
# agree on the direction of each house's change (`agree`: every model's interval on the same
# side of zero; `partly`: some find a change, the others cannot tell; `opposite`; `no effect`),
# and `models_size` whether they agree on its size (Cochran's Q, 95 %).

# %%
models_scenario = tomllib.loads(
    repository_file("scenarios/lannister_swap_models.toml").read_text()
)
if MODEL_GAMES is not None:
    models_scenario["games"] = MODEL_GAMES
    models_scenario["block_size"] = min(MODEL_GAMES // 3, models_scenario["block_size"])
with tempfile.TemporaryDirectory() as tmp:
    by_model = gotsim.run_study(models_scenario, jobs=JOBS, out=Path(tmp) / "models")
model_diffs = by_model.comparisons
MODEL_NAMES = list(dict.fromkeys(model_diffs.policies))
fig, ax = plt.subplots(figsize=(7, 3.8))
draw_differences_by_house(
    ax, model_diffs, group="policies", what="win rate, swapped − as set up",
    group_label={m: m for m in MODEL_NAMES},
)
ax.set_title(f"King's Court swap under each player model — {by_model.scenario.games:,} paired "
             "games per arm")
save(fig, "lannister_swap_models.png")
model_diffs[["house", "policies", "difference", "ci_low", "ci_high", "p_value", "models_sign",
             "models_size"]].round(4)

# %% [markdown]
# ## Conclusion

# %%
lan = diffs.set_index("house").loc["lannister"]
lan_1e = diffs_1e.set_index("house").loc["lannister"]
strongest = diffs.loc[diffs.p_value.idxmin()]
significant = diffs[diffs.p_value < 0.05]


def measure(name):
    m = mechanism.loc[name]
    return (
        f"{m['as set up']:.2f} → {m['swapped']:.2f} per game "
        f"({m.difference:+.2f}, CI {m.ci_low:+.2f} to {m.ci_high:+.2f})"
    )


print(
    f"{len(games) // 2} paired games per arm ({POLICIES} players, 2nd edition). Swapping Tyrell "
    f"and Greyjoy changes Lannister's win rate by {lan.difference:+.2%} "
    f"(95 % CI {lan.ci_low:+.2%} to {lan.ci_high:+.2%}, p = {lan.p_value:.2g}); "
    f"{len(significant)} of {len(diffs)} houses' differences have p < 0.05, the most significant "
    f"being {strongest.house}'s {strongest.difference:+.2%} (p = {strongest.p_value:.2g}).\n"
    f"Mechanism: Greyjoy's star orders go {measure('Greyjoy star orders')}, Tyrell's "
    f"{measure('Tyrell star orders')}, Lannister's {measure('Lannister star orders')}; "
    f"Greyjoy → Lannister battles {measure('Greyjoy → Lannister battles')}, Lannister → Greyjoy "
    f"{measure('Lannister → Greyjoy battles')}; Lannister castles lost in battle "
    f"{measure('Lannister castles lost in battle')}, in all "
    f"{measure('Lannister castles lost (all ways)')}.\n"
    f"1st edition ({len(games_1e) // 2} paired games per arm, {POLICIES} players, errata track "
    f"as set up vs the printed one): Lannister {lan_1e.difference:+.2%} "
    f"(95 % CI {lan_1e.ci_low:+.2%} to {lan_1e.ci_high:+.2%}, p = {lan_1e.p_value:.2g}); "
    f"{battles_1e.mean():.1f} battles a game, castle victories in {castle_share_1e:.1%} of games.\n"
    f"Under the player models {', '.join(MODEL_NAMES)}: Lannister's change "
    + ", ".join(
        f"{r.difference:+.2%} ({r.policies})"
        for r in model_diffs[model_diffs.house == "lannister"].itertuples()
    )
    + "; the models' verdict on its direction: "
    + str(model_diffs.loc[model_diffs.house == "lannister", "models_sign"].iloc[0])
    + "."
)
