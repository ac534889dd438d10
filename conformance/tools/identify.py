"""``durak-conformance identify``: which value of each option an engine really plays.

Engine authors rarely know which variant they wrote. For every option, the fixture cases that
declare they discriminate one of its values (their ``options:``) are run on the engine under the
value the engine plays by its claim, and judged by their own expectations, written for the value
they declare. A case about ``throw_in_timing: all_beaten`` that passes on an engine claiming only
``any_time`` says the engine plays ``all_beaten`` there. Per option, the value whose cases all
pass while every other value's cases fail somewhere is the engine's; none such means it plays no
value consistently (the cases that show it are listed).

Each case still goes through the one gate (:mod:`conformance.suite.applicability`) for every other
option, as if the engine claimed the value under test; the reference engine confirms the case
depends on the option before it counts. The answers judged are the cases' own, never the
reference's.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from dataclasses import dataclass, field
from typing import Any

from conformance.engines.base import Engine, InProcessEngine
from conformance.engines.gating import HelloError, Support
from conformance.suite import FIXTURES_DIR as FIXTURES
from conformance.suite.applicability import decide
from conformance.suite.cases import CaseRunner
from conformance.suite.loader import Case, load_paths

#: Options fixed by the cards or the seating: a case cannot be sent under another value.
UNSUBSTITUTABLE = ("deck_size", "decks", "teams")


@dataclass
class OptionVerdict:
    """The cases run for each value of one option, and what they say."""

    option: str
    sent: str  # the value the engine was sent (its claim)
    passed: dict[str, list[str]] = field(default_factory=dict)  # value -> case ids
    failed: dict[str, list[str]] = field(default_factory=dict)
    #: failures set aside: the case also depends on another option the engine plays otherwise
    explained: dict[str, str] = field(default_factory=dict)  # case id -> that option
    #: cases of the value the engine is sent that it fails. They speak against the claim only
    #: when another value's cases all pass (the engine plays that one); otherwise they are bugs
    #: inside the claim, which ``run`` reports, and say nothing of the dialect.
    bugs: list[str] = field(default_factory=list)

    def _failed(self) -> set[str]:
        failed = set(self.failed)
        others = [v for v in self.passed if v != self.sent and v not in failed]
        if self.bugs and others:
            failed.add(self.sent)
        return failed

    @property
    def misclaimed(self) -> bool:
        """The claimed value's failures are evidence of another value, not bugs."""
        return self.sent in self._failed() and self.sent not in self.failed

    def values_tried(self) -> list[str]:
        return sorted(set(self.passed) | self._failed())

    def _consistent(self) -> list[str]:
        failed = self._failed()
        return [v for v in self.values_tried() if v not in failed and v in self.passed]

    @property
    def plays(self) -> str | None:
        """The value the cases say the engine plays, or None when they do not tell."""
        tried, consistent, failed = self.values_tried(), self._consistent(), self._failed()
        others_fail = all(v in failed for v in tried if v not in consistent)
        if len(consistent) == 1 and others_fail and len(tried) > 1:
            return consistent[0]
        if not consistent and tried and self.sent not in tried:
            return self.sent  # every other value's cases fail: the one it is sent, unshown
        return None

    @property
    def inconsistent(self) -> bool:
        """Some value's cases pass and fail by turns, and no value's cases all pass."""
        return not self._consistent() and any(v in self.passed for v in self.values_tried())

    def summary(self) -> str:
        tried, consistent = self.values_tried(), self._consistent()
        if self.inconsistent:
            return "plays none of them consistently"
        if self.plays is not None and self.plays not in tried:
            return f"plays {self.plays} (the cases of every other value fail; none shows it)"
        if self.plays is not None:
            return f"plays {self.plays}"
        if len(tried) < 2:
            return "cannot tell: the cases that run show only one value"
        return "cannot tell apart: " + ", ".join(consistent) + " (every case of each passes)"


@dataclass(frozen=True)
class _Trial:
    case: Case
    option: str
    value: str
    sent: str
    ok: bool


def _reference_holds(reference: CaseRunner, case: Case):
    def holds(substitution: dict[str, Any]) -> bool:
        return reference.run(CaseRunner.substitute(case, substitution)).ok

    return holds


def identify(
    engine: Engine, support: Support, cases: list[Case], options: list[str] | None = None
) -> dict[str, OptionVerdict]:
    """Option -> verdict for the options the cases discriminate (all, or those named)."""
    from reference_impl import rulesets

    catalog, defaults = rulesets.catalog_options(), rulesets.default_options()
    reference = CaseRunner(InProcessEngine(), Support.everything())
    judge = CaseRunner(engine, Support.everything())
    trials: list[_Trial] = []
    for case in cases:
        observes = any(step.kind == "observe" for step in case.steps)
        if case.start_refused is not None or (observes and not support.observe):
            continue
        resolved = rulesets.resolve_ruleset(case.ruleset)["options"]
        for option, declared in case.options.items():
            if option in UNSUBSTITUTABLE or (options and option not in options):
                continue
            value = str(resolved[option])
            claimed = sorted(support.option_values(option, defaults[option]))
            sent = value if value in claimed else (claimed[0] if len(claimed) == 1 else None)
            if sent is None or str(declared) != value:
                continue
            typed_sent = next(v for v in catalog[option]["values"] if str(v) == sent)
            if sent != value and reference.run(CaseRunner.substitute(case, {option: typed_sent})).ok:
                continue  # the case does not tell these two values apart
            pretend = dataclasses.replace(
                support, options={**support.options, option: frozenset(claimed) | {value}}
            )
            plan = decide(
                resolved,
                case.players,
                pretend,
                _reference_holds(reference, case),
                catalog=catalog,
                defaults=defaults,
                needs=pretend.declined(case.players, case.start),
            )
            if not plan.runs:
                continue
            sent_case = CaseRunner.substitute(case, {**plan.substituted, option: typed_sent})
            trials.append(_Trial(case, option, value, sent, judge.run(sent_case).ok))
    return _verdicts(trials, reference)


def _verdicts(trials: list[_Trial], reference: CaseRunner) -> dict[str, OptionVerdict]:
    """Tally the trials per option; then, once, set aside the failures that another option
    explains: the engine plays that option at another value than the case's, and the case's
    verdict depends on it (the reference fails the case under the value the engine plays), so
    that option, not this one, may be what fails it. Then tally again."""
    from reference_impl.rulesets import catalog_options, resolve_ruleset

    catalog = catalog_options()

    def tally(explained_by: dict[tuple[str, str], str]) -> dict[str, OptionVerdict]:
        verdicts: dict[str, OptionVerdict] = {}
        for trial in trials:
            verdict = verdicts.setdefault(trial.option, OptionVerdict(trial.option, trial.sent))
            if not trial.ok and trial.value == trial.sent:
                verdict.bugs.append(trial.case.id)
                continue
            other = explained_by.get((trial.option, trial.case.id))
            if not trial.ok and other is not None:
                verdict.explained[trial.case.id] = other
                continue
            bucket = verdict.passed if trial.ok else verdict.failed
            bucket.setdefault(trial.value, []).append(trial.case.id)
        return dict(sorted(verdicts.items()))

    first = tally({})
    plays = {option: v.plays for option, v in first.items() if v.plays is not None}
    explained: dict[tuple[str, str], str] = {}
    for trial in (t for t in trials if not t.ok):
        resolved = resolve_ruleset(trial.case.ruleset)["options"]
        for other, played in plays.items():
            if other == trial.option or str(resolved[other]) == played:
                continue
            value = next(v for v in catalog[other]["values"] if str(v) == played)
            if not reference.run(CaseRunner.substitute(trial.case, {other: value})).ok:
                explained[(trial.option, trial.case.id)] = other
                break
    return tally(explained)


def honest_hello(hello: dict[str, Any], verdicts: dict[str, OptionVerdict]) -> dict[str, Any]:
    """The engine's hello with ``supports.options`` claiming the values identified."""
    from reference_impl.rulesets import default_options

    defaults = default_options()
    supports = dict(hello.get("supports") or {})
    options = dict(supports.get("options") or {})
    for option, verdict in verdicts.items():
        plays = verdict.plays
        if plays is None:
            continue
        if plays == str(defaults[option]):
            options.pop(option, None)
        else:
            options[option] = [plays]
    supports["options"] = options
    return {key: hello[key] for key in ("protocol", "engine") if key in hello} | {
        "supports": supports
    }


def format_verdicts(verdicts: dict[str, OptionVerdict]) -> str:
    lines = []
    for option, verdict in verdicts.items():
        lines.append(f"{option}: {verdict.summary()}  (sent as {verdict.sent})")
        for value in verdict.values_tried():
            passed = verdict.passed.get(value, [])
            failed = verdict.failed.get(value, [])
            shown = ", ".join(failed[:3]) + (" ..." if len(failed) > 3 else "")
            tail = f"; failing: {shown}" if failed else ""
            lines.append(f"    {value}: {len(passed)} pass, {len(failed)} fail{tail}")
        for case_id, other in sorted(verdict.explained.items()):
            lines.append(f"    (set aside: {case_id} fails by {other})")
        if verdict.bugs:
            shown = ", ".join(verdict.bugs[:3]) + (" ..." if len(verdict.bugs) > 3 else "")
            if verdict.misclaimed:
                lines.append(f"    {verdict.sent} (claimed): fails {shown}")
            else:
                lines.append(f"    (fails inside its claim, a bug for run to show: {shown})")
    return "\n".join(lines) if lines else "no case tells any option's values apart on this engine"


def add_cli_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--option", action="append", default=[], help="only this option (repeat)"
    )
    parser.add_argument(
        "--fixtures", action="append", default=[], metavar="DIR", help="also these cases"
    )


def run_cli(engine: Engine, args: argparse.Namespace, out: Any = None) -> int:
    """0 when every option tried is identified, 1 when one is played inconsistently, 2 for a
    usage error."""
    out = out or sys.stdout
    try:
        hello = engine.hello()
        support = Support.from_hello(hello)
    except HelloError as exc:
        print(f"error: the engine's hello is unusable: {exc}", file=out)
        return 2
    cases, problems = load_paths([FIXTURES, *args.fixtures])
    for problem in problems:
        print(f"broken fixture skipped: {problem}", file=out)
    verdicts = identify(engine, support, cases, args.option or None)
    print(format_verdicts(verdicts), file=out)
    print("\nthe hello that follows from these cases:", file=out)
    print(json.dumps(honest_hello(hello, verdicts), indent=2, sort_keys=True), file=out)
    return 1 if any(v.inconsistent for v in verdicts.values()) else 0
