"""An engine that can only play its own games (engines/session_only.py: the kit's toy engine with
no ``setup`` and no remembered positions, hello ``positions: false``) runs, in sessions, every
fixture case that starts from a deal, and each case that starts from a position through its
route (``reached_by``); the position cases without one are left to the engines that are set up
from states, reported unsupported, not failed."""

from __future__ import annotations

import pytest

from conformance.engines.gating import Support
from conformance.engines.process import SubprocessEngine
from conformance.engines.session import POSITIONS_BLOCKER, SessionEngine
from conformance.engines.session import starts_from_position as from_position
from conformance.suite import FIXTURES_DIR
from conformance.suite.cases import CaseRunner
from conformance.suite.loader import load_paths

from .helpers import SESSION_ONLY


@pytest.fixture(scope="module")
def results():
    cases, problems = load_paths([FIXTURES_DIR])
    assert not problems
    engine = SessionEngine(SubprocessEngine(SESSION_ONLY, timeout=30))
    hello = engine.hello()
    assert hello["supports"]["positions"] is False and hello["supports"]["sessions"] is True
    runner = CaseRunner(engine, Support.from_hello(hello))
    out = {case.id: (case, runner.run(case)) for case in cases}
    stats = engine.stats()
    engine.close()
    return out, stats


@pytest.mark.slow
def test_every_case_dealt_in_the_case_passes_in_sessions(results):
    out, stats = results
    dealt = {k: r for k, (c, r) in out.items() if not from_position(c.start)}
    played = [k for k, (c, _) in out.items() if k in dealt and c.start_refused is None]
    assert len(dealt) >= 50 and len(played) >= 40
    assert {k: r.message for k, r in dealt.items() if r.outcome != "passed"} == {}
    assert stats.counts["opened"] >= len(played) and stats.counts["stateless"] == 0


@pytest.mark.slow
def test_every_case_that_starts_from_a_position_is_left_unsupported(results):
    out, stats = results
    positioned = {k: r for k, (c, r) in out.items() if from_position(c.start) and not c.reached_by}
    assert positioned
    assert {r.outcome for r in positioned.values()} == {"unsupported"}
    assert all(POSITIONS_BLOCKER in r.to_json()["blockers"] for r in positioned.values())
    assert stats.counts["unreached"] == 0  # the gate never sent the engine a state it lacks


@pytest.mark.slow
def test_a_position_case_with_a_route_passes_through_it(results):
    """A route (``reached_by``) is a deal and moves: the session engine plays them, and the
    case then runs from the position reached."""
    out, _ = results
    routed = {k: r for k, (c, r) in out.items() if from_position(c.start) and c.reached_by}
    assert routed
    assert {k: r.message for k, r in routed.items() if r.outcome != "passed"} == {}
