"""Perft for Durak: count move sequences from named positions, through any :class:`Engine`.

The counting definition is normative in ``spec/perft.md``: ``perft(s, d)`` is the number of
sequences of exactly ``d`` legal moves (of all players, R-PLAY-1) from the state ``s``; ``divide``
splits it by first move, to find where two engines part.

- :mod:`~conformance.tools.perft.count`: :func:`perft` and :func:`divide` on an engine (a count
  is also a check: a move listed twice or a listed move refused stops it with the move path);
- :mod:`~conformance.tools.perft.positions`: the YAML positions of ``conformance/perft/`` read,
  one problem per malformed position, and a position's start built on an engine;
- :mod:`~conformance.tools.perft.check`: positions counted at their expected depths, gated on the
  engine's claims, the first divergence from the reference found;
- :mod:`~conformance.tools.perft.command`: the ``durak-conformance perft`` subcommand
  (``python -m conformance.tools.perft`` on the reference engine).

``durak-conformance run`` checks each position at its ``suite_depth`` as a case of the one runner
(:mod:`conformance.suite.compile`). This package is the one import path for all of it.
"""

from conformance.tools.perft.check import (
    Descent,
    PositionResult,
    descend,
    format_results,
    position_applicability,
    run_positions,
)
from conformance.tools.perft.command import add_cli_arguments, run_cli
from conformance.tools.perft.count import (
    DivideEntry,
    PerftError,
    divide,
    perft,
)
from conformance.tools.perft.positions import (
    PerftPosition,
    PositionsError,
    load_file,
    load_positions,
    start_state,
)

__all__ = [
    "Descent",
    "DivideEntry",
    "PerftError",
    "PerftPosition",
    "PositionResult",
    "PositionsError",
    "add_cli_arguments",
    "descend",
    "divide",
    "format_results",
    "load_file",
    "load_positions",
    "perft",
    "position_applicability",
    "run_cli",
    "run_positions",
    "start_state",
]
