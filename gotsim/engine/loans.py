"""PLACEHOLDER for the Iron Bank's loan cards (``docs/rules.md`` IB8).

This module is a placeholder, replaced by the loan cards' module (the twelve cards' effects and
their ``Decision.LOAN`` steps). Until then every loan bought resolves as the Customs Officer:
its buyer takes 10 power tokens from the pool (as many as it owns room for).

``start_loan`` is called by the buy (``engine.iron_bank.buy_apply``) once the consolidate power
phase's counters have moved past the Iron Bank order, so a loan that leaves a decision pending
resumes that phase when its decisions end.
"""

from __future__ import annotations

from gotsim.engine.board_state import gain_power
from gotsim.jit import njit

CUSTOMS_OFFICER_POWER = 10  # rules.iron_bank.LOAN_TERMS["customs_officer"]["power"]


@njit
def start_loan(g, t, house: int, card: int) -> None:
    """Resolve loan ``card`` just bought by ``house`` (placeholder: 10 power for every card)."""
    gain_power(g, t, house, CUSTOMS_OFFICER_POWER)


__all__ = ["CUSTOMS_OFFICER_POWER", "start_loan"]
