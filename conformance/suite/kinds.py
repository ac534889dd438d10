"""The kinds of case step, and what a step of each kind shows about the rules.

A step is a mapping holding exactly one kind key (``move``, ``legal``...) and its companions
(``rule`` and ``code`` beside ``refuse``, ``expect``, ``absent`` or ``code`` beside ``observe``, a
``note`` anywhere). The loader (:mod:`conformance.suite.loader`) checks steps against
``spec/schema/fixture.schema.json`` and names them by :func:`step_kinds`; the runner judges each
kind with its handler (:mod:`conformance.suite.handlers`); the traceability gate reads
:data:`POLARITY` and :func:`polarity` to tell whether a case shows a rule allowing something,
forbidding something, or both, so that a rule's positive and negative cases are counted from the
same declaration whatever form the case was written in (YAML fixture, Gherkin scenario).
"""

from __future__ import annotations

from typing import Any

#: The kinds of step, in the order the contract lists them.
STEP_KINDS = (
    "legal",
    "legal_includes",
    "legal_excludes",
    "move",
    "refuse",
    "expect",
    "result",
    "observe",
    "movers",
    "check",
    "bout",
    "redeal",
    "perft",
)

#: Seats a step may name by their role rather than by number (a move's ``player``, the
#: ``player`` of a ``legal`` or ``bout`` step, a ``movers`` entry, the observer): JSON pointers
#: into the state the step is judged in. A Gherkin scenario says "the defender beats 7C with 9C"
#: and means whoever defends when the move is made; the case says the same without an engine.
SEAT_ROLES = ("/bout/attacker", "/bout/defender")

#: What a step shows about the rules its case cites (``rules:`` or tags).
ALLOWS = "allows"  # a move, a set-up or a sight the rules allow
FORBIDS = "forbids"  # something the rules do not allow
BOTH = "both"  # an exact set: what is in it is allowed, what is not is forbidden
NEITHER = "neither"  # a check of where the moves led, which permits or forbids nothing

#: Kind -> what its steps show. :func:`polarity` refines it by a step's content (an empty exact
#: set allows nothing; an observation allows with ``expect`` and forbids with ``absent``,
#: ``hides_unseen`` or ``code``, a refused request). A ``refuse`` forbids only for the rule it
#: cites (the traceability gate credits that rule alone).
POLARITY: dict[str, str] = {
    "legal": BOTH,
    "legal_includes": ALLOWS,
    "legal_excludes": FORBIDS,
    "move": ALLOWS,
    "refuse": FORBIDS,
    "expect": NEITHER,
    "result": NEITHER,
    "observe": BOTH,
    "movers": BOTH,
    "check": NEITHER,
    "bout": NEITHER,
    "redeal": NEITHER,
    "perft": BOTH,  # an exact count of the move tree: a move missing or extra changes it
}


def step_kinds(step: Any) -> list[str]:
    """The step kinds a step mapping holds (exactly one in a valid step)."""
    kinds = [key for key in STEP_KINDS if key in step]
    if "observe" in kinds and "expect" in kinds:
        kinds.remove("expect")  # the observation's expected fields, not a state check
    return kinds


def polarity(kind: str, data: dict[str, Any]) -> tuple[bool, bool]:
    """(allows, forbids): whether the step ``data`` of ``kind`` shows a rule allowing
    something and whether it shows one forbidding something."""
    declared = POLARITY[kind]
    allows = declared in (ALLOWS, BOTH)
    forbids = declared in (FORBIDS, BOTH)
    if kind in ("legal", "movers") and not data.get(kind):
        allows = False  # nothing is legal (nobody may move): only what is forbidden is shown
    if kind == "observe":
        allows = "expect" in data
        forbids = "absent" in data or bool(data.get("hides_unseen")) or "code" in data
    return allows, forbids
