"""Players for the engine: the uniform random policy and the parameterised heuristic, a Python
``Policy`` interface for custom players, and tournaments between them (``tournament``)."""

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
