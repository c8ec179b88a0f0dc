"""Combat odds on top of the engine's combat code: exact enumeration, card-choice models,
Monte-Carlo cross-check."""

from gotsim.odds.calculator import (
    MODELS,
    OddsResult,
    breakdown_for,
    card_pair_breakdown,
    combat_odds,
    solve_matrix_game,
)
from gotsim.odds.spec import Battle, BattleSpecError, parse_battle

__all__ = [
    "MODELS",
    "Battle",
    "BattleSpecError",
    "OddsResult",
    "breakdown_for",
    "card_pair_breakdown",
    "combat_odds",
    "parse_battle",
    "solve_matrix_game",
]
