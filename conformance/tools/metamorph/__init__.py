"""Metamorphic checks: an engine's answers at a position against its answers at a transformed one.

No expected values are needed: from a position P, a transformation T gives a position T(P) that
the rules treat alike, so an engine's legal set, next states, refusals and observations at T(P)
must be the transformed ones of P (:mod:`~conformance.tools.metamorph.checks`). The
transformations (:mod:`~conformance.tools.metamorph.transforms`) relabel the suits, turn the
seats round, exchange twins of two packs and reorder the talon's face-down cards. Positions come
from random games of every preset walked on the reference engine
(:mod:`~conformance.tools.metamorph.walk`, the fuzzer's planning and loop); when an engine's two
answers do not transform alike, the reference engine judges which of them breaks the rules and
that position becomes an ordinary fixture with the reference's answer
(:mod:`~conformance.tools.metamorph.judge`; the campaign and its fixtures are the fuzzer's,
:mod:`~conformance.tools.metamorph.campaign`). :mod:`~conformance.tools.metamorph.command` is the
``durak-conformance metamorph`` subcommand.
"""

from conformance.tools.metamorph.campaign import Metamorph
from conformance.tools.metamorph.checks import Break, check_apply, check_legal, check_observe
from conformance.tools.metamorph.command import add_cli_arguments, run_cli
from conformance.tools.metamorph.judge import judge
from conformance.tools.metamorph.transforms import BUILDERS, KINDS, Transform
from conformance.tools.metamorph.walk import CheckConfig, MetamorphReport, Walk

__all__ = [
    "BUILDERS",
    "KINDS",
    "Break",
    "CheckConfig",
    "Metamorph",
    "MetamorphReport",
    "Transform",
    "Walk",
    "add_cli_arguments",
    "check_apply",
    "check_legal",
    "check_observe",
    "judge",
    "run_cli",
]
