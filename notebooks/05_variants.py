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
# differences with 95 % intervals, battles per game and how games end; then the 1st edition's
# A Clash of Kings modules (ports, one-time orders, three-card combat) at 5 players; the 2nd
# edition's A Dance with Dragons expansion against the base 6-player game; A Feast for Crows
# (4 players with Arryn, won on objectives); Mother of Dragons at 7 (Arryn) and 8 players
# (Targaryen in Essos, won on loyalty tokens); and vassals, which keep all six houses on the board
# of a 4-player game. Each toggle is compared on the same games (common random numbers), paired
# by block.
#
# **Read this first.** Every house is played by gotsim's heuristic player (`docs/players.md`), a
# rule-based model of sensible play: the effects below are those of the variants *as the
# heuristic plays the game*. `POLICIES = "random"` gives the rules-only baseline.

# %% tags=["parameters"]
import os
import tempfile
from pathlib import Path

QUICK = os.environ.get("GOTSIM_QUICK", "0") == "1"
POLICIES = "heuristic"  # or "random": uniform among the legal actions (a rules baseline)
GAMES = 150 if QUICK else 3000  # per cell
SEED = 505
JOBS = int(os.environ.get("GOTSIM_JOBS", 1 if QUICK else 2))  # worker processes

# %%
import matplotlib.pyplot as plt
import pandas as pd

import gotsim
from gotsim.analysis.notebook import figure_folder
from gotsim.analysis.plots import draw_differences_by_house, draw_house_rates, players_title
from gotsim.analysis.stats import win_rates

FIG_DIR = figure_folder(QUICK)  # results/figures/ of the checkout; None in quick mode


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
MODULES = ["ports", "one_time_orders", "three_card_combat"]
clash = study("clash", dict.fromkeys(MODULES, [False, True]), edition="1e", players=5)
adwd = study("adwd", {"expansion": ["base", "adwd"]}, players=6)
affc = study("affc", {"expansion": ["affc"]})  # 4 players, the expansion's own count
mod = study("mod", {"expansion": ["mod"]})  # Mother of Dragons: 7 players, with sea orders
mod8 = study("mod8", {"expansion": ["mod"]}, players=8)  # Targaryen in Essos, the Iron Bank
# vassals: 4 players with Tyrell and Martell on the board as vassals, or left out
vassals = study("vassals", {"vassals": [False, True]}, players=4)


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
draw_differences_by_house(
    ax, tides_diff, group="players", what="win rate, Tides of Battle − without",
    group_label={n: f"{n} players" for n in (3, 4, 5, 6)},
)
ax.set_title(players_title("Tides of Battle", policies=POLICIES, games=GAMES, per="cell"))
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
ax.set_title(players_title("Battles per game", policies=POLICIES, games=GAMES, per="cell"))
save(fig, "variants_battles.png")
display(battles.round(1))  # noqa: F821 (IPython builtin)
ends.unstack().round(3)

# %% [markdown]
# ## A Clash of Kings modules (1st edition, 5 players): win-rate differences (on − off)
# Each module is compared with the same games without it, within every setting of the other two
# (four strata per module), and the strata are pooled here by their mean difference.

# %%
clash_diff = pd.concat(
    [differences(clash, m).assign(module=m) for m in MODULES], ignore_index=True
)
pooled = clash_diff.groupby(["module", "house"]).agg(
    difference=("difference", "mean"),
    ci_low=("ci_low", "mean"),
    ci_high=("ci_high", "mean"),
    strata_p05=("p_value", lambda p: int((p < 0.05).sum())),
)
fig, ax = plt.subplots(figsize=(8, 4))
draw_differences_by_house(
    ax, pooled.reset_index(), group="module",
    what="win rate, module on − off (mean over the other modules' settings)",
    group_label={m: m.replace("_", " ") for m in MODULES},
)
ax.set_title(
    players_title("A Clash of Kings modules, 1st edition, 5 players", policies=POLICIES,
                  games=GAMES, per="cell")
)
save(fig, "variants_clash_of_kings.png")
pooled.round(3)

# %% [markdown]
# ## A Dance with Dragons (6 players): win rates in the base game and in the expansion
# The expansion starts later in the story (its own units, power tokens on the board, tracks and
# garrisons at Storm's End and Oldtown), lasts 6 rounds and plays its own house cards. The two
# arms are different games: the bars are each game's win rates, not a paired effect.

# %%
adwd_rates = win_rates(adwd, by=["expansion"])
fig, ax = plt.subplots(figsize=(8, 4))
draw_house_rates(ax, adwd_rates, group="expansion", fair=1 / 6)
ax.set_title(players_title("Base game vs A Dance with Dragons, 6 players", policies=POLICIES,
                           games=GAMES, per="arm"))
save(fig, "variants_adwd_win_rates.png")
adwd_ends = adwd.groupby("expansion").end_reason.value_counts(normalize=True).unstack()
display(adwd_ends.round(3))  # noqa: F821 (IPython builtin)
adwd_rates.pivot(index="house", columns="expansion", values="win_rate").round(3)

# %% [markdown]
# ## A Feast for Crows (4 players): who wins, and how
# Arryn, Baratheon, Lannister and Stark race to 7 victory points scored with objective cards (a
# secret hand of 3, one special objective per house scorable every round); after round 10 the
# most points win. The south is impassable. Win rates per house, how games end (`objectives`:
# 7 points; `round10`: the ranking), and the points each house holds at the end.

# %%
affc_rates = win_rates(affc, by=["expansion"])
AFFC_HOUSES = ["baratheon", "lannister", "stark", "arryn"]  # the bars' order
fig, axes = plt.subplots(1, 2, figsize=(11, 4))
draw_house_rates(axes[0], affc_rates, group="expansion", fair=1 / 4)
axes[0].set_title(players_title("A Feast for Crows, 4 players", policies=POLICIES, games=GAMES,
                                per="arm"))
points = affc[[f"vp_{h}" for h in AFFC_HOUSES]].rename(columns=lambda c: c.removeprefix("vp_"))
axes[1].boxplot([points[h] for h in AFFC_HOUSES], tick_labels=[h.capitalize() for h in AFFC_HOUSES])
axes[1].axhline(7, color="grey", lw=0.8, ls="--")
axes[1].set_ylabel("victory points at the end")
axes[1].set_title("Victory points when the game ends")
save(fig, "variants_affc.png")
affc_ends = affc.end_reason.value_counts(normalize=True)
objective_wins = ((affc.end_reason == "objectives") & (affc.end_round < 10)).mean()
display(affc_ends.round(3))  # noqa: F821 (IPython builtin)
affc_rates[["house", "win_rate", "ci_low", "ci_high"]].round(3)

# %% [markdown]
# ## Mother of Dragons (7 players): who wins with Arryn on the board
# House Arryn joins the six on the board with the Eyrie and the Bite overlays (The Eyrie its
# stronghold with a port, The Vale of Arryn, The Bite between the North and the Vale); every
# house also has a march −1 and a support +0 for its fleets (the sea order tokens). 7 castles
# win, else the ranking after round 10. Win rates per house, and the castles each house holds
# when the game ends.

# %%
mod_rates = win_rates(mod, by=["expansion"])
MOD_HOUSES = ["baratheon", "lannister", "stark", "greyjoy", "tyrell", "martell", "arryn"]
fig, axes = plt.subplots(1, 2, figsize=(11, 4))
draw_house_rates(axes[0], mod_rates, group="expansion", fair=1 / 7)
axes[0].set_title(players_title("Mother of Dragons, 7 players", policies=POLICIES, games=GAMES,
                                per="arm"))
held = mod[[f"castles_{h}" for h in MOD_HOUSES]].rename(columns=lambda c: c.removeprefix("castles_"))
axes[1].boxplot([held[h] for h in MOD_HOUSES], tick_labels=[h.capitalize() for h in MOD_HOUSES])
axes[1].axhline(7, color="grey", lw=0.8, ls="--")
axes[1].set_ylabel("castles and strongholds at the end")
axes[1].set_title("Castles held when the game ends")
axes[1].tick_params(axis="x", labelrotation=30)
save(fig, "variants_mod.png")
display(mod.end_reason.value_counts(normalize=True).round(3))  # noqa: F821 (IPython builtin)
mod_rates[["house", "win_rate", "ci_low", "ci_high"]].round(3)

# %% [markdown]
# ## Mother of Dragons (8 players): Targaryen in Essos
# House Targaryen joins from Essos with three dragons (strength 0 in round 1 rising to 5 in round
# 10) and wins with 7 loyalty tokens (Pentos counts one) instead of castles; Westeros deck IV
# puts loyalty tokens on the map each round. Played with the Iron Bank, which the rules switch on
# at 8 players. Win rates per house, and how the games end.

# %%
mod8_rates = win_rates(mod8, by=["expansion"])
fig, axes = plt.subplots(1, 2, figsize=(11, 4))
draw_house_rates(axes[0], mod8_rates, group="expansion", fair=1 / 8)
axes[0].set_title(players_title("Mother of Dragons, 8 players", policies=POLICIES, games=GAMES,
                                per="arm"))
mod8_ends = mod8.end_reason.value_counts(normalize=True)
axes[1].bar(mod8_ends.index, mod8_ends.values, color="grey")
axes[1].set_ylabel("share of games")
axes[1].set_title("How the 8-player games end")
save(fig, "variants_mod8.png")
targaryen_wins = mod8[mod8.winner == "targaryen"]
by_loyalty = (targaryen_wins.end_reason == "loyalty").mean() if len(targaryen_wins) else float("nan")
display(mod8_ends.round(3))  # noqa: F821 (IPython builtin)
mod8_rates[["house", "win_rate", "ci_low", "ci_high"]].round(3)

# %% [markdown]
# ## Vassals (4 players): what changes when the two houses nobody plays stay on the board
# Without vassals a 4-player game leaves Tyrell and Martell out (the south is theirs to take);
# with the `vassals` variant they stay on the board as vassals, claimed by a player each
# planning phase and played by its policy, never winning (docs/rules.md V1–V20). Win rates of
# the four player houses both ways, and the difference (with vassals − without) with Wilson
# intervals.

# %%
VASSAL_PLAYERS = ["baratheon", "greyjoy", "lannister", "stark"]
vassal_rates = win_rates(vassals, by=["vassals"])
vassal_rates = vassal_rates[vassal_rates.house.isin(VASSAL_PLAYERS)]
vassal_diff = pd.concat(
    [gotsim.compare(vassals, house=h, by="vassals", baseline=False) for h in VASSAL_PLAYERS],
    ignore_index=True,
)
fig, axes = plt.subplots(1, 2, figsize=(11, 4))
draw_house_rates(axes[0], vassal_rates, group="vassals", fair=1 / 4)
axes[0].set_title(players_title("4 players, without and with vassals", policies=POLICIES,
                                games=GAMES, per="arm"))
draw_differences_by_house(axes[1], vassal_diff, what="win rate, with vassals − without")
axes[1].set_title("What the vassals change")
save(fig, "variants_vassals.png")
display(vassals.groupby("vassals").end_reason.value_counts(normalize=True).unstack().round(3))  # noqa: F821
vassal_diff[["house", "difference", "ci_low", "ci_high", "p_value"]].round(3)

# %% [markdown]
# ## Conclusion

# %%
significant = tides_diff[tides_diff.p_value < 0.05]
swap_significant = swap_diff[swap_diff.p_value < 0.05]
extra = battles[True] - battles[False]
castle_share = (tides.end_reason == "castles").groupby(tides.players).mean()
top_swap = swap_diff.loc[swap_diff.p_value.idxmin()]
top_tides = tides_diff.loc[tides_diff.p_value.idxmin()]
print(
    f"{len(tides)} game records over 3–6 players with Tides of Battle off and on, {len(swap)} "
    f"with the King's Court swap at 5 and 6 players ({POLICIES} players).\n"
    "Tides of Battle changes battles per game by "
    + ", ".join(f"{d:+.2f} at {n}" for n, d in extra.items())
    + f" players; {len(significant)} of {len(tides_diff)} house × player-count win-rate "
    f"differences have p < 0.05 (about {0.05 * len(tides_diff):.1f} expected by chance), the "
    f"strongest {top_tides.house}'s {top_tides.difference:+.2%} at {top_tides.players} players "
    f"(p = {top_tides.p_value:.2g}).\n"
    f"The King's Court swap: {len(swap_significant)} of {len(swap_diff)} differences have "
    f"p < 0.05; the most significant is {top_swap.house}'s {top_swap.difference:+.2%} at "
    f"{top_swap.players} players (p = {top_swap.p_value:.2g}).\n"
    "Games ending by castles (Tides of Battle off and on together): "
    + ", ".join(f"{n}p {s:.1%}" for n, s in castle_share.items())
    + ".\n1st edition, A Clash of Kings modules (mean difference over the other two modules' "
    "settings): "
    + "; ".join(
        f"{m}: largest {row.name} {row.difference:+.2%} ({int(row.strata_p05)} of 4 strata p < 0.05)"
        for m in MODULES
        for row in [pooled.loc[m].assign(size=pooled.loc[m].difference.abs()).nlargest(1, "size").iloc[0]]
    )
    + ".\nA Dance with Dragons (6 players, 6 rounds) against the base game: "
    + "; ".join(
        f"{row.house} {row.base:.1%} → {row.adwd:.1%}"
        for row in adwd_rates.pivot(index="house", columns="expansion", values="win_rate")
        .reset_index()
        .itertuples()
    )
    + f"; games ending by castles {(adwd[adwd.expansion == 'adwd'].end_reason == 'castles').mean():.1%}"
    + f" (base {(adwd[adwd.expansion == 'base'].end_reason == 'castles').mean():.1%})."
    + "\nA Feast for Crows (4 players): "
    + "; ".join(f"{row.house} {row.win_rate:.1%}" for row in affc_rates.itertuples())
    + f"; won on objectives before round 10 in {objective_wins:.1%} of games, by 7 points at all"
    + f" in {(affc.end_reason == 'objectives').mean():.1%}."
    + "\nMother of Dragons (7 players): "
    + "; ".join(f"{row.house} {row.win_rate:.1%}" for row in mod_rates.itertuples())
    + f"; games ending by castles {(mod.end_reason == 'castles').mean():.1%}."
    + "\nMother of Dragons (8 players, with the Iron Bank): "
    + "; ".join(f"{row.house} {row.win_rate:.1%}" for row in mod8_rates.itertuples())
    + f"; Targaryen's wins by its loyalty tokens {by_loyalty:.1%}; games ending by loyalty "
    f"{(mod8.end_reason == 'loyalty').mean():.1%}, by castles "
    f"{(mod8.end_reason == 'castles').mean():.1%}."
    + "\nVassals at 4 players (Tyrell and Martell on the board as vassals), win rate with − "
    "without: "
    + "; ".join(
        f"{row.house} {row.difference:+.1%} (p = {row.p_value:.2g})"
        for row in vassal_diff.itertuples()
    )
    + "."
    + ("" if POLICIES == "heuristic" else "\nRandom players: rule and pipeline checks only.")
)
