"""identify tells an engine its dialect: run on an engine that claims fill_in_turn drawing but
plays one_at_a_time, it names one_at_a_time from the cases' own expectations, leaves every other
option at what the engine plays, and the hello it prints makes the one_at_a_time cases run."""

from __future__ import annotations

import sys

from conformance.engines.gating import Support
from conformance.suite.cases import CaseRunner
from conformance.suite.loader import load_paths
from conformance.tools.identify import FIXTURES, honest_hello, identify

from .helpers import ENGINES

sys.path.insert(0, str(ENGINES))
import narrow_engine

CASES, PROBLEMS = load_paths([FIXTURES])


def test_the_fixtures_load():
    assert PROBLEMS == [] and CASES


def test_an_engine_drawing_one_at_a_time_is_told_so():
    engine = narrow_engine.make_one_at_a_time()
    hello = engine.hello()
    verdicts = identify(engine, Support.from_hello(hello), CASES)
    draw = verdicts["draw_order"]
    assert draw.plays == "one_at_a_time" and draw.sent == "fill_in_turn"
    assert draw.bugs and draw.misclaimed and not draw.failed.get("one_at_a_time")
    played = {"tie": "draw", "pile_on": "allowed", "attack_limit": "six_five_first"}
    for option, value in played.items():
        assert verdicts[option].plays == value, verdicts[option].summary()
    assert not any(v.inconsistent for v in verdicts.values())
    claimed = honest_hello(hello, verdicts)["supports"]["options"]
    assert claimed == {"draw_order": ["one_at_a_time"]}


def test_the_printed_hello_runs_the_cases_of_the_value_identified():
    engine = narrow_engine.make_one_at_a_time()
    hello = honest_hello(engine.hello(), identify(engine, Support.from_hello(engine.hello()), CASES))
    runner = CaseRunner(engine, Support.from_hello(hello))
    about = [c for c in CASES if c.options.get("draw_order") == "one_at_a_time"]
    outcomes = {c.id: runner.run(c).outcome for c in about}
    assert "passed" in outcomes.values() and "failed" not in outcomes.values(), outcomes


def test_an_engine_playing_its_claims_gets_its_claims_back():
    engine = narrow_engine.make()
    verdicts = identify(engine, Support.from_hello(engine.hello()), CASES)
    assert honest_hello(engine.hello(), verdicts)["supports"]["options"] == {}
    assert not any(v.inconsistent for v in verdicts.values())
