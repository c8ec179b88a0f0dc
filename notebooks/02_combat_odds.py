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
# # Combat odds
#
# The exact combat-odds calculator (`gotsim.combat_odds`, fields in `docs/combat.md`): one
# battle, the chance that the attacker wins under a card-choice model (`fixed`, `uniform`,
# `equilibrium`), and how it moves with army strength, house cards, Tides of Battle and the
# Valyrian Steel Blade. Everything here is exact probability, not simulation — no players are
# involved, so these numbers do not depend on any player model.

# %% tags=["parameters"]
import os
from pathlib import Path

QUICK = os.environ.get("GOTSIM_QUICK", "0") == "1"
BATTLE = "examples/battles/riverrun.json"  # the battle the calculator form starts from
MODEL = "equilibrium"  # fixed | uniform | equilibrium
MAX_STRENGTH = 4 if QUICK else 8  # attacker unit strength swept in the strength curve
PAIRS = [("lannister", "stark", "riverrun"), ("tyrell", "martell", "dornish_marches")]

# %%
import copy
import json

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import gotsim
from gotsim.analysis.notebook import figure_folder, repository_file
from gotsim.analysis.plots import draw_matrix, percent_axis

FIG_DIR = figure_folder(QUICK)  # results/figures/ of the checkout; None in quick mode


def save(fig, name):
    """Full mode only: write a curated figure to results/figures/."""
    if FIG_DIR is not None:
        fig.savefig(FIG_DIR / name, dpi=100, bbox_inches="tight")


spec = json.loads(repository_file(BATTLE).read_text())

# %% [markdown]
# ## The calculator
# A form over the battle above (`gotsim.analysis.combat_form`): houses, area, units per side,
# orders, a supporting house, the hands, Tides of Battle, the Valyrian Steel Blade's holder and
# the card-choice model. Change any field and the odds below follow: the chance of each side,
# how often each card is played, the card-pair matrix and the strength breakdown.

# %%
from gotsim.analysis.combat_form import CombatForm

form = CombatForm(spec, model=MODEL)
form.widget

# %% [markdown]
# The same result as a value (`gotsim.combat_odds`), shown by its own HTML view:

# %%
form.result

# %% [markdown]
# ## P(attacker wins) against strength difference
# Lannister attacks Riverrun, held by Stark with two footmen (strength 2), both sides with their
# full seven-card hands, no orders or support. The attacker's strength grows from 1 to
# `MAX_STRENGTH` (knights count 2, footmen 1).


# %%
def units_of(strength):
    knights, footmen = divmod(strength, 2)
    return {k: v for k, v in {"knight": knights, "footman": footmen}.items() if v}


curve = []
for tides in (False, True):
    for model in ("uniform", "equilibrium"):
        for s in range(1, MAX_STRENGTH + 1):
            battle = {
                "area": "riverrun",
                "tides_of_battle": tides,
                "attacker": {"house": "lannister", "units": units_of(s)},
                "defender": {"house": "stark", "units": {"footman": 2}},
            }
            p = gotsim.combat_odds(battle, model=model).p_attacker_wins
            curve.append({"difference": s - 2, "model": model, "tides": tides, "p": p})
curve = pd.DataFrame(curve)
fig, ax = plt.subplots(figsize=(7, 4))
for (model, tides), sub in curve.groupby(["model", "tides"]):
    ax.plot(
        sub.difference,
        sub.p,
        marker="o",
        ls="--" if tides else "-",
        label=f"{model}{', Tides of Battle' if tides else ''}",
    )
ax.set_xlabel("attacker unit strength − defender unit strength")
ax.set_ylabel("P(attacker wins), exact")
percent_axis(ax)
ax.set_title("Lannister attacks Stark at Riverrun, full hands, by card-choice model")
ax.legend(fontsize=8)
save(fig, "combat_strength_curve.png")
curve.pivot_table(index="difference", columns=["model", "tides"], values="p").round(3)

# %% [markdown]
# ## Card matrices and equilibrium strategies
# For two house pairs with equal armies (a knight and a footman each side, full hands): the 7×7
# matrix of P(attacker wins) for each pair of cards, and the equilibrium mix of each side. Tides
# of Battle is on: without it every cell is 0 or 1 (the battle is decided by the cards alone) and
# the equilibrium is a pure strategy.

# %%
fig, axes = plt.subplots(1, len(PAIRS), figsize=(7.5 * len(PAIRS), 6), layout="constrained")
equilibria = {}
for ax, (attacker, defender, area) in zip(np.atleast_1d(axes), PAIRS, strict=True):
    battle = {
        "area": area,
        "tides_of_battle": True,
        "attacker": {"house": attacker, "units": {"knight": 1, "footman": 1}},
        "defender": {"house": defender, "units": {"knight": 1, "footman": 1}},
    }
    r = gotsim.combat_odds(battle, model="equilibrium")
    draw_matrix(ax, r.matrix_frame(), label="P(attacker wins), exact (cells in %)")
    ax.set_title(
        f"{attacker.capitalize()} attacks {defender.capitalize()}, Tides of Battle: "
        f"equilibrium value {r.game_value:.0%}",
        fontsize=10,
    )
    equilibria[f"{attacker} vs {defender}"] = r
save(fig, "combat_card_matrices.png")
pd.DataFrame(
    [
        {"battle": name, "side": side, "card": card, "played": share}
        for name, r in equilibria.items()
        for side, strategy in (("attacker", r.attacker_strategy), ("defender", r.defender_strategy))
        for card, share in strategy.items()
        if share > 1e-6
    ]
).set_index(["battle", "side", "card"]).style.format("{:.0%}")

# %% [markdown]
# ## What Tides of Battle and the Valyrian Steel Blade change
# The same battle (`BATTLE`) with Tides of Battle off and on, and the blade with a bystander, the
# attacker or the defender.

# %%
rows = []
for tides in (False, True):
    for holder in ("greyjoy", spec["attacker"]["house"], spec["defender"]["house"]):
        battle = copy.deepcopy(spec)
        battle["tides_of_battle"] = tides
        battle["blade_holder"] = holder
        for model in ("uniform", "equilibrium"):
            p = gotsim.combat_odds(battle, model=model).p_attacker_wins
            rows.append({"tides": tides, "blade": holder, "model": model, "p": p})
variants = pd.DataFrame(rows).pivot_table(index=["tides", "blade"], columns="model", values="p")
variants.round(3)

# %% [markdown]
# ## Conclusion

# %%
uni = curve[(curve.model == "uniform") & ~curve.tides].set_index("difference").p
uni_t = curve[(curve.model == "uniform") & curve.tides].set_index("difference").p
even = variants.loc[(False, "greyjoy"), "equilibrium"]
even_t = variants.loc[(True, "greyjoy"), "equilibrium"]
print(
    f"With equal unit strength and both hands played uniformly at random, Lannister takes "
    f"Riverrun {uni.get(0, float('nan')):.1%} of the time without Tides of Battle and "
    f"{uni_t.get(0, float('nan')):.1%} with it; two points of strength ahead it is "
    f"{uni.get(2, float('nan')):.1%} / {uni_t.get(2, float('nan')):.1%}.\n"
    f"In '{spec['name']}' under equilibrium play, Tides of Battle moves the attacker from "
    f"{even:.1%} to {even_t:.1%} (blade with a bystander); giving the blade to the attacker "
    f"gives {variants.loc[(True, spec['attacker']['house']), 'equilibrium']:.1%}, to the defender "
    f"{variants.loc[(True, spec['defender']['house']), 'equilibrium']:.1%}."
)
