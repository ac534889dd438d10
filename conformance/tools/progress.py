"""Progress bars for the long commands (``fuzz``, ``perft``, ``run``), on stderr, on a terminal only.

A fuzz campaign or a deep perft can run for minutes; a bar says it is alive and how far it got.
It is drawn with tqdm on standard error, and only when standard error is a terminal: a CI log, a
pipe or a file never gets one, and standard output (the report) is never touched, so what the
commands print is the same with or without it. The bar is erased when it ends.
"""

from __future__ import annotations

import sys
from typing import Any, Self


class _Stderr:
    """Standard error as it is at each write: pytest's capture swaps ``sys.stderr`` in and out
    during a run, and the bar must write to the one in place when it draws."""

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()

    def isatty(self) -> bool:
        return sys.stderr.isatty()


def on_terminal() -> bool:
    """Whether standard error is a terminal (where a bar may be drawn)."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced by an object without it, or closed
        return False


class Bar:
    """A progress bar of ``total`` steps named ``what``; draws nothing off a terminal."""

    def __init__(self, total: int | None, what: str, *, unit: str = "it", shown: bool | None = None):
        self._bar: Any = None
        if on_terminal() if shown is None else shown:
            from tqdm import tqdm

            self._bar = tqdm(
                total=total,
                desc=what,
                unit=unit,
                file=_Stderr(),
                leave=False,
                dynamic_ncols=True,
                mininterval=0,  # every step drawn: steps are games, positions, cases (cheap)
            )

    @property
    def shown(self) -> bool:
        return self._bar is not None

    def update(self, steps: int = 1, note: str | None = None) -> None:
        """Advance by ``steps``; ``note`` is shown after the bar (e.g. findings so far)."""
        if self._bar is not None:
            if note is not None:
                self._bar.set_postfix_str(note, refresh=False)
            self._bar.update(steps)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
