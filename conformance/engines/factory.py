"""Turning an ``--engine`` argument into an :class:`~conformance.engines.base.Engine`.

- nothing, ``reference`` or ``reference:inprocess``: the reference engine in this process;
- ``python:MODULE:NAME``: an engine built in this process by calling ``MODULE.NAME()`` (an
  ``Engine``, or an object with the functions of ``reference_impl.api``, which gets wrapped); this
  is how the project's tests run deliberately wrong engines, and how a Python engine can skip the
  process protocol;
- anything else: a command line, started as a process speaking spec/protocol.md.

Every engine made here is wrapped in a :class:`~conformance.engines.session.SessionEngine`: an
engine whose hello claims ``sessions`` is then played through its own games (spec/protocol.md
section 7) by every consumer, without any of them knowing, and any other engine is passed through
untouched. ``sessions=False``, or the environment variable ``DURAK_CONFORMANCE_SESSIONS=off``,
keeps every request stateless, to compare the two modes on one engine. Inside it, a
:class:`~conformance.engines.bookkeeping.KeptFields` fills in the bookkeeping an engine's hello
says it does not keep (P-16 ``keeps``), and passes everything through when it says nothing.
"""

from __future__ import annotations

import importlib
from typing import Any

from conformance.engines.base import Engine, InProcessEngine
from conformance.engines.bookkeeping import KeptFields
from conformance.engines.process import SubprocessEngine
from conformance.engines.session import SessionEngine, sessions_wanted


class EngineSpecError(ValueError):
    """An ``--engine`` argument that names no engine; the run stops with a usage error."""


def make_engine(
    spec: str | None, *, sessions: bool | None = None, **process_options: Any
) -> Engine:
    """The engine ``spec`` names; ``process_options`` go to :class:`SubprocessEngine`.

    ``sessions``: None follows ``DURAK_CONFORMANCE_SESSIONS`` (sessions unless it says ``off``);
    False never wraps, so the engine is asked statelessly even if it keeps games.
    """
    engine = KeptFields(_make(spec, process_options))  # inside: sessions see filled states
    wanted = sessions_wanted() if sessions is None else sessions
    return SessionEngine(engine) if wanted else engine


def _make(spec: str | None, process_options: dict[str, Any]) -> Engine:
    if spec is None or spec.strip() in ("", "reference", "reference:inprocess"):
        return InProcessEngine()
    spec = spec.strip()
    if spec.startswith("python:"):
        target = spec[len("python:") :]
        module_name, _, attr = target.partition(":")
        if not module_name or not attr:
            raise EngineSpecError(
                f"{spec!r}: write python:MODULE:NAME, e.g. python:mypkg.engine:make"
            )
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise EngineSpecError(f"{spec!r}: cannot import {module_name}: {exc}") from None
        factory = getattr(module, attr, None)
        if factory is None:
            raise EngineSpecError(f"{spec!r}: {module_name} has no {attr}")
        built = factory() if callable(factory) else factory
        if isinstance(built, Engine):
            return built
        if all(hasattr(built, name) for name in ("new_game", "legal_moves", "apply")):
            return InProcessEngine(built)
        raise EngineSpecError(f"{spec!r}: {attr} gave neither an Engine nor an engine API object")
    return SubprocessEngine(spec, **process_options)
