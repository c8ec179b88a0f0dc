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
# # What the variants and player counts change
#
# Tides of Battle on/off and the King's Court swap (5 and 6 players), across 3–6 players: win-rate
# differences with 95 % intervals, battles per game and how games end. Each toggle is compared on
# the same games (common random numbers), paired by block.
#
# **Read this first.** Only the uniform random policy exists: these numbers test the rules and
# the pipeline, not the balance of the game. Set `POLICIES = "heuristic"` once it exists.

# %% tags=["parameters"]
import os
import tempfile
from pathlib import Path

QUICK = os.environ.get("GOTSIM_QUICK", "0") == "1"
POLICIES = "random"  # "heuristic" once it exists
GAMES = 150 if QUICK else 3000  # per cell
SEED = 505
JOBS = 1 if QUICK else 2

# %%
import matplotlib.pyplot as plt
import pandas as pd

import gotsim

ROOT = next(p for p in [Path.cwd(), *Path.cwd().parents] if (p / "pyproject.toml").exists())
FIG_DIR = None if QUICK else ROOT / "results" / "figures"
if FIG_DIR is not None:
    FIG_DIR.mkdir(parents=True, exist_ok=True)


def save(fig, name):
    """Full mode only: write a curated figure to results/figures/."""
    if FIG_DIR is not None:
        fig.savefig(FIG_DIR / name, dpi=100, bbox_inches="tight")


def study(name, grid, **fixed):
    scenario = {
        "name": name,
        "edition": "2e",
        "seed": SEED,
        "games": GAMES,
        "block_size": max(GAMES // 3, 1),
        "policies": POLICIES,
        "grid": grid,
        **fixed,
    }
    with tempfile.TemporaryDirectory() as tmp:
        return gotsim.run_study(scenario, jobs=JOBS, out=Path(tmp) / name).games


tides = study("tides", {"players": [3, 4, 5, 6], "tides_of_battle": [False, True]})
swap = study("swap", {"players": [5, 6], "kings_court_swap": [False, True]})


def differences(games, by):
    houses = sorted(h.removeprefix("castles_") for h in games.columns if h.startswith("castles_"))
    return pd.concat(
        [gotsim.compare(games, house=h, by=by, baseline=False) for h in houses],
        ignore_index=True,
    ).dropna(subset=["difference"])


# %% [markdown]
# ## Tides of Battle: win-rate differences (on − off) per player count

# %%
tides_diff = differences(tides, "tides_of_battle")
fig, ax = plt.subplots(figsize=(8, 4))
for k, (n, sub) in enumerate(tides_diff.groupby("players")):
    y = [sorted(set(tides_diff.house)).index(h) + (k - 1.5) * 0.18 for h in sub.house]
    ax.errorbar(
        sub.difference,
        y,
        xerr=[sub.difference - sub.ci_low, sub.ci_high - sub.difference],
        fmt="o",
        capsize=2,
        label=f"{n} players",
    )
ax.axvline(0, color="grey", lw=0.8)
ax.set_yticks(range(len(set(tides_diff.house))), sorted(set(tides_diff.house)))
ax.set_xlabel("win rate, Tides of Battle − without")
ax.legend(fontsize=8)
save(fig, "variants_tides_differences.png")
tides_diff[["players", "house", "difference", "ci_low", "ci_high", "p_value"]].round(3)

# %% [markdown]
# ## King's Court swap: win-rate differences (swapped − as set up)

# %%
swap_diff = differences(swap, "kings_court_swap")
swap_diff[["players", "house", "difference", "ci_low", "ci_high", "p_value"]].round(3)

# %% [markdown]
# ## Battles per game and end reasons

# %%
battles = tides.groupby(["players", "tides_of_battle"]).battles.mean().unstack()
ends = tides.groupby(["players", "tides_of_battle"]).end_reason.value_counts(normalize=True)
fig, ax = plt.subplots(figsize=(6, 3.5))
battles.plot.bar(ax=ax)
ax.set_ylabel("battles per game (mean)")
ax.set_title(f"Battles per game ({POLICIES} players)")
save(fig, "variants_battles.png")
display(battles.round(1))  # noqa: F821 (IPython builtin)
ends.unstack().round(3)

# %% [markdown]
# ## Conclusion

# %%
significant = tides_diff[tides_diff.p_value < 0.05]
extra = (battles[True] - battles[False]).mean()
castle_share = (tides.end_reason == "castles").groupby(tides.players).mean()
print(
    f"{len(tides)} game records over 3–6 players with Tides of Battle off and on, {len(swap)} "
    f"with the King's Court swap ({POLICIES} players).\n"
    f"Tides of Battle changes battles per game by {extra:+.2f} on average; "
    f"{len(significant)} of {len(tides_diff)} house × player-count win-rate differences have "
    f"p < 0.05 (about {0.05 * len(tides_diff):.1f} expected by chance).\n"
    f"The most significant swap effect is {swap_diff.loc[swap_diff.p_value.idxmin(), 'house']}'s "
    f"{swap_diff.loc[swap_diff.p_value.idxmin(), 'difference']:+.2%} at "
    f"{swap_diff.loc[swap_diff.p_value.idxmin(), 'players']} players. Games ending by castles: "
    + ", ".join(f"{n}p {s:.1%}" for n, s in castle_share.items())
    + ".\nRandom players: these are rule and pipeline checks, not balance findings."
)
