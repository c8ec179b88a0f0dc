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
# **Read this first.** Only the uniform random policy exists: these win rates test the rules and
# the pipeline, not the balance of the game. Set `POLICIES = "heuristic"` once it exists.
# 2nd edition now; the 1st edition is added when it lands (`edition = ["1e", "2e"]` in the grid).

# %% tags=["parameters"]
import os
import tempfile
import tomllib
from pathlib import Path

QUICK = os.environ.get("GOTSIM_QUICK", "0") == "1"
POLICIES = "random"  # "heuristic" once it exists
GAMES = 300 if QUICK else None  # None: the scenario's own count (10,000 per arm)
JOBS = 1 if QUICK else 2

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import gotsim
from gotsim.analysis.stats import win_rates

ROOT = next(p for p in [Path.cwd(), *Path.cwd().parents] if (p / "pyproject.toml").exists())
FIG_DIR = None if QUICK else ROOT / "results" / "figures"
if FIG_DIR is not None:
    FIG_DIR.mkdir(parents=True, exist_ok=True)


def save(fig, name):
    """Full mode only: write a curated figure to results/figures/."""
    if FIG_DIR is not None:
        fig.savefig(FIG_DIR / name, dpi=100, bbox_inches="tight")


scenario = tomllib.loads((ROOT / "scenarios/lannister_swap.toml").read_text())
scenario["policies"] = POLICIES
if GAMES is not None:
    scenario["games"] = GAMES
    scenario["block_size"] = min(GAMES // 3, scenario["block_size"])  # a few blocks to pair
with tempfile.TemporaryDirectory() as tmp:
    study = gotsim.run_study(scenario, jobs=JOBS, out=Path(tmp) / "study")
games = study.games
games.groupby("kings_court_swap").size()

# %% [markdown]
# ## Win rate per house, as set up vs swapped

# %%
rates = win_rates(games, by=["kings_court_swap"])
houses = sorted(set(rates.house))
fig, ax = plt.subplots(figsize=(8, 4))
for k, swap in enumerate((False, True)):
    sub = rates[rates.kings_court_swap == swap].set_index("house").reindex(houses)
    x = np.arange(len(houses)) + (k - 0.5) * 0.38
    ax.bar(
        x,
        sub.win_rate,
        0.38,
        yerr=[sub.win_rate - sub.ci_low, sub.ci_high - sub.win_rate],
        capsize=3,
        label="Tyrell/Greyjoy swapped" if swap else "as set up",
    )
ax.axhline(1 / 5, color="grey", ls=":", lw=0.8)
ax.set_xticks(np.arange(len(houses)), houses)
ax.set_ylabel("win rate")
ax.set_title(f"5 players, King's Court swap ({POLICIES} players, {len(games) // 2} games per arm)")
ax.legend(fontsize=8)
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
ax.errorbar(
    diffs.difference,
    np.arange(len(diffs)),
    xerr=[diffs.difference - diffs.ci_low, diffs.ci_high - diffs.difference],
    fmt="o",
    capsize=3,
)
ax.axvline(0, color="grey", lw=0.8)
ax.set_yticks(np.arange(len(diffs)), diffs.house)
ax.set_xlabel("win rate, swapped − as set up")
save(fig, "lannister_swap_differences.png")

# %% [markdown]
# ## Mechanism
# The swap changes who sits where on King's Court, i.e. who gets the special (star) orders and
# how many. The study output does not record orders, so the mechanism cannot be read from it:
# that would need per-round counts of star orders placed per house (a column in `rounds`), or a
# loop over narrated `gotsim.Game` runs. What the data do allow is the end reason and castles:

# %%
mech = rates.pivot(
    index="house",
    columns="kings_court_swap",
    values=["mean_castles", "wins_castles", "wins_round10"],
)
mech.round(2)

# %% [markdown]
# ## Conclusion

# %%
lan = diffs.set_index("house").loc["lannister"]
strongest = diffs.loc[diffs.p_value.idxmin()]
print(
    f"{len(games) // 2} paired games per arm ({POLICIES} players, 2nd edition). Swapping Tyrell "
    f"and Greyjoy changes Lannister's win rate by {lan.difference:+.2%} "
    f"(95 % CI {lan.ci_low:+.2%} to {lan.ci_high:+.2%}, p = {lan.p_value:.2g}).\n"
    f"The largest change is {strongest.house}'s {strongest.difference:+.2%} "
    f"(p = {strongest.p_value:.2g}).\n"
    "With random players this shows that the swap is applied and measured correctly; whether "
    "Lannister needs it is a question for the heuristic players. 1st edition: added when it lands."
)
