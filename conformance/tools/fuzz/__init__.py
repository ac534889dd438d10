"""Differential fuzzing: random games on the reference engine and an engine under test, in step.

Each game is planned from ``(seed, game index)`` alone, inside what both engines claim
(:mod:`~conformance.tools.fuzz.planning`), so any game can be played again on its own
(``--game K``). Both engines deal; then, position by position, the fuzzer compares their legal
sets, their refusals of a few moves outside the legal set (:mod:`~conformance.tools.fuzz.probes`)
and the states after one legal move chosen at random (:mod:`~conformance.tools.fuzz.play`, judged
by :mod:`~conformance.tools.fuzz.compare`). Each disagreement becomes a
:class:`~conformance.tools.findings.Finding`, a minimal YAML fixture; a campaign keeps the
shallowest finding of each cause and checks that its fixture reproduces
(:mod:`~conformance.tools.fuzz.campaign`, totals in :mod:`~conformance.tools.fuzz.report`).
:mod:`~conformance.tools.fuzz.command` is the ``durak-conformance fuzz`` subcommand.

This package is the one import path for all of it.
"""

from conformance.tools.fuzz.campaign import Fuzzer
from conformance.tools.fuzz.command import add_cli_arguments, run_cli
from conformance.tools.fuzz.planning import (
    FuzzConfig,
    GamePlan,
    fit_to_claims,
    game_choices,
    parse_rulesets,
    plan_game,
)
from conformance.tools.fuzz.probes import probe_moves
from conformance.tools.fuzz.report import FuzzReport, format_report

__all__ = [
    "FuzzConfig",
    "FuzzReport",
    "Fuzzer",
    "GamePlan",
    "add_cli_arguments",
    "fit_to_claims",
    "format_report",
    "game_choices",
    "parse_rulesets",
    "plan_game",
    "probe_moves",
    "run_cli",
]
