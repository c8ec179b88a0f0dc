"""Players for the engine: the uniform random policy and the parameterised heuristic, the search
player and a Python ``Policy`` interface for custom players. Tournaments between them are batch
play: ``gotsim.play.tournament``."""

from gotsim.players.params import PARAM_NAMES, PARAMS, policy_params, policy_table
from gotsim.players.policy import HeuristicPolicy, Policy, RandomPolicy, make_policy

__all__ = [
    "PARAMS",
    "PARAM_NAMES",
    "HeuristicPolicy",
    "Policy",
    "RandomPolicy",
    "make_policy",
    "policy_params",
    "policy_table",
]
