"""What the rules say about a fixture case before any engine sees it.

The fixture schema checks a case's shape; this checks what the schema cannot: that every rule
it cites is a rule of spec/rules.md, that its ruleset resolves (a known preset, known options,
allowed values), and that its start is a position or a deck the rules allow. A case that fails
here is the fixture's fault, so it is a broken case at the line of the fault, never a failure
blamed on the engine that would have been sent it. A refused start (``start_refused``) is wrong
on purpose and is left to the engine.

The judges are the spec's own readings: the rule IDs are the ``### R-...`` headings of
spec/rules.md (:func:`conformance.tools.traceability.spec.rules_from_markdown`), the ruleset is
resolved by :func:`reference_impl.rulesets.resolve_ruleset` and a start state validated by
:func:`reference_impl.validate.validate_state` under it, as the runner will send it.
"""

from __future__ import annotations

import copy
from collections import Counter
from functools import cache
from typing import Any

from conformance.contract.canonical import pointer_parts
from conformance.contract.cards import CardError, deck
from reference_impl.specdata import line_of, rules_path

#: (line, message) of one fault found in a case
Fault = tuple[int, str]


@cache
def spec_rule_ids() -> frozenset[str]:
    """The rule IDs spec/rules.md defines."""
    from conformance.tools.traceability.spec import rules_from_markdown

    return frozenset(rules_from_markdown(rules_path().read_text(encoding="utf-8")))


def case_faults(raw: dict[str, Any], document: Any, base: list[Any]) -> list[Fault]:
    """Every fault of a schema-valid case ``raw`` (found at ``base`` in ``document``)."""
    faults = _unknown_rules(raw, document, base)
    ruleset, problem = _resolved(raw, document, base)
    if problem is not None:
        refused = raw.get("start_refused") or {}
        # a refused start may name a ruleset the rules refuse: new_game must answer bad_request
        # (a player-count refusal, R-DECK-4, needs a ruleset that resolves to count against)
        bad_ruleset = refused.get("code") == "bad_request" and refused.get("rule") != "R-DECK-4"
        return faults if bad_ruleset else [*faults, problem]
    start = raw["start"]
    if raw.get("start_refused") is None:
        if "state" in start:
            faults += _state_faults(start["state"], ruleset, document, base + ["start", "state"])
        if "deck" in start:
            faults += _deck_faults(start["deck"], ruleset, document, base + ["start", "deck"])
    elif "overwrite" in start:
        faults += _overwrite_faults(start, ruleset, document, base + ["start", "overwrite"])
    return faults


def _overwrite_faults(
    start: dict[str, Any], ruleset: dict[str, Any], document: Any, where: list[Any]
) -> list[Fault]:
    """Each ``start.overwrite`` pointer must name a member of an object the start state (with
    the case's ruleset put in) has: a value set nowhere would send another state than the case
    says."""
    from conformance.contract.canonical import resolve

    state = {**start["state"], "ruleset": ruleset}
    return [
        (
            line_of(document, where + [pointer]),
            (
                f"start/overwrite {pointer}: the start state has no object at "
                f"{parent or '(the root)'} to set it in; point at a member of one "
                "(e.g. /ruleset/name)"
            ),
        )
        for pointer in start["overwrite"]
        for parent in [pointer.rsplit("/", 1)[0]]
        if not isinstance(resolve(state, parent)[0], dict)
    ]


def _unknown_rules(raw: dict[str, Any], document: Any, base: list[Any]) -> list[Fault]:
    known = spec_rule_ids()
    return [
        (
            line_of(document, base + ["rules"]),
            (
                f"rules: {rule} is not a rule of spec/rules.md; cite a rule ID it defines "
                "(### R-AREA-n headings)"
            ),
        )
        for rule in raw["rules"]
        if rule not in known
    ]


def _resolved(
    raw: dict[str, Any], document: Any, base: list[Any]
) -> tuple[dict[str, Any], Fault | None]:
    """The case's resolved ruleset, or the fault at the line of the ruleset key at fault."""
    from reference_impl.rulesets import RulesetError, resolve_ruleset

    try:
        return resolve_ruleset(copy.deepcopy(raw["ruleset"])), None
    except RulesetError as exc:
        parts: list[Any] = []
        if exc.where.startswith("/"):
            parts = [int(p) if p.isdigit() else p for p in pointer_parts(exc.where)]
        line = line_of(document, base + ["ruleset", *parts])
        return {}, (line, f"ruleset: {exc.detail}")


def _state_faults(
    state: Any, ruleset: dict[str, Any], document: Any, where: list[Any]
) -> list[Fault]:
    """The start state as the runner sends it (with the case's resolved ruleset), validated."""
    from reference_impl.errors import InvalidState
    from reference_impl.validate import validate_state

    sent = copy.deepcopy(state)
    sent["ruleset"] = ruleset
    try:
        validate_state(sent)
    except InvalidState as exc:
        parts = [int(p) if p.isdigit() else p for p in pointer_parts(exc.pointer or "")]
        line = line_of(document, where + parts)
        at = "/".join(["start/state", *map(str, parts)])
        return [
            (
                line,
                (
                    f"{at}: the start state is not a valid state under the case's ruleset: "
                    f"{exc.message}; fix the state (docs/architecture.md, State)"
                ),
            )
        ]
    return []


def _deck_faults(
    cards: list[Any], ruleset: dict[str, Any], document: Any, where: list[Any]
) -> list[Fault]:
    """A start deck is every card of the ruleset's deck once (R-DECK-1), in deal order."""
    options = ruleset["options"]
    try:
        wanted = deck(int(options["deck_size"]), int(options["decks"]))
    except (CardError, ValueError):
        return []  # the ruleset's own fault, reported by resolving it
    allowed, seen, faults = set(wanted), Counter(), []
    for index, card in enumerate(cards):
        seen[card] += 1
        if card not in allowed:
            message = f"{card!r} is not a card of this ruleset's {len(wanted)}-card deck"
        elif seen[card] == 2:
            message = f"{card} appears twice"
        else:
            continue
        faults.append((line_of(document, where + [index]), f"start/deck/{index}: {message}"))
    if not faults and len(cards) != len(wanted):
        faults.append(
            (
                line_of(document, where),
                f"start/deck: {len(cards)} cards; this ruleset's deck has {len(wanted)} (R-DECK-1)",
            )
        )
    if faults:
        faults[0] = (faults[0][0], faults[0][1] + " (a start deck is the whole deck in deal order)")
    return faults
