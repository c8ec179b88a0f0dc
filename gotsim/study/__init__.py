"""Balance studies: scenario files expanded into grids of cells, played in seeded blocks
(resumable, identical on any backend) into tidy result tables."""

from gotsim.study.runner import StudyBackendError, StudyResult, play_block, run_study
from gotsim.study.scenario import Cell, Scenario, ScenarioError, load_scenario
from gotsim.study.store import StudyOutputError

__all__ = [
    "Cell",
    "Scenario",
    "ScenarioError",
    "StudyBackendError",
    "StudyOutputError",
    "StudyResult",
    "load_scenario",
    "play_block",
    "run_study",
]
