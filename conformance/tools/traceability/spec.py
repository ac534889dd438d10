"""What the suite may cite, and what one case is recorded as showing.

:class:`SpecIndex` is the spec side: the rule IDs of ``spec/rules.md`` (in spec order, with
titles), the option values of the catalog with their defaults, and the descriptive rules, which
describe and cannot forbid anything. :class:`CaseTrace` is the suite side: one case's citations,
the rules it shows allowing and forbidding, the option values it plays. :class:`Problem` is what
the gate refuses, as a value, so that one run reports every problem of the suite.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.bdd.model import RULE_TAG

#: Rules that describe the game's material or records rather than permit or forbid anything, so no
#: case can show them forbidding: each needs one case that depends on it (issue 6: "a rule that
#: only describes (the deck, the ranks) needs one case that depends on it"). Every other rule
#: needs a positive and a negative case.
DESCRIPTIVE: dict[str, str] = {
    "R-DECK-1": "the composition of the deck: what cards exist, nothing a move can break",
    "R-DECK-2": "the rank order; moves that break it are refused under R-BEAT-1",
    "R-DECK-3": "the card notation and twins; a bad card is a bad_request, not a rule",
    "R-DECK-5": "each card in one place: an invariant of every state, checked by "
    "conformance/suite/invariants/; no move is refused for it",
    "R-DEAL-2": "the deck order is an input: a determinism convention, nothing to refuse",
    "R-PLAY-6": "every state a complete position: the schema and the invariants of every state, "
    "checked by conformance/suite/invariants/; no move is refused for it",
    "R-END-5": "no end by repetition: a game simply goes on; only a harness cap is asked for",
}
# R-INFO-1 and R-INFO-2 were descriptive until fixtures gained the observe step: an observation
# shows them allowing (expect: what a player sees) and forbidding (absent: what he must not see).

_HEADING = re.compile(r"^###\s+(\S+)\s*(.*)$", re.MULTILINE)

FIXTURE = "fixture"
FEATURE = "feature"

#: Kinds of problem: a file or scenario the gate cannot count; a citation the spec does not have;
#: a fixture whose ``options:`` disagree with the ruleset it plays.
UNREADABLE = "unreadable"
UNKNOWN = "unknown"
INCONSISTENT = "inconsistent"


@dataclass(frozen=True)
class SpecIndex:
    """What the suite may cite: the rule IDs (in spec order, with titles), the option values of
    the catalog (as strings, in catalog order) with their defaults, and the descriptive rules."""

    rules: dict[str, str]
    options: dict[str, tuple[str, ...]]
    defaults: dict[str, str] = field(default_factory=dict)
    descriptive: Mapping[str, str] = field(default_factory=lambda: dict(DESCRIPTIVE))

    @classmethod
    def load(cls, rules_md: Path | None = None) -> SpecIndex:
        """The spec's register (``### R-...`` headings of rules.md) and the option catalog."""
        from reference_impl import specdata
        from reference_impl.rulesets import catalog_options

        path = rules_md or specdata.rules_path()
        rules = rules_from_markdown(path.read_text(encoding="utf-8"))
        if not rules:
            raise ValueError(f"{path}: no '### R-AREA-n Title' headings; is this the rulebook?")
        table = catalog_options()
        return cls(
            rules=rules,
            options={name: tuple(str(v) for v in spec["values"]) for name, spec in table.items()},
            defaults={name: str(spec["default"]) for name, spec in table.items()},
        )

    def needs_both(self, rule: str) -> bool:
        """False for a descriptive rule, which one dependent case covers."""
        return rule not in self.descriptive

    @property
    def areas(self) -> set[str]:
        """The rule areas (``BEAT`` of ``R-BEAT-1``), the names a feature's area tag may take."""
        return {m["area"] for m in map(RULE_TAG.match, self.rules) if m is not None}


def rules_from_markdown(text: str) -> dict[str, str]:
    """``{rule ID: title}`` from the ``### R-AREA-n Title`` headings, in document order."""
    return {m[1]: m[2].strip() for m in _HEADING.finditer(text) if RULE_TAG.match(m[1])}


@dataclass(frozen=True)
class Problem:
    """Something the gate refuses: where (file:line, case) and what to do."""

    where: str
    message: str
    kind: str = UNKNOWN

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass
class CaseTrace:
    """What one case shows: the rules it cites, allows, forbids; the option values it plays."""

    id: str
    source: str  # FIXTURE or FEATURE
    where: str
    cites: set[str] = field(default_factory=set)
    positive: set[str] = field(default_factory=set)
    negative: set[str] = field(default_factory=set)
    options: dict[str, str] = field(default_factory=dict)
    #: the table it plays at (:func:`conformance.tools.common_table.table_name`), or None when unknown
    table: str | None = None


def display_path(path: Path, root: Path | None) -> str:
    """``path`` relative to ``root`` when it lies under it, for messages that stay short."""
    if root is not None:
        try:
            return Path(path).resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            pass
    return Path(path).as_posix()


def check_rule(rule: Any, spec: SpecIndex, where: str, how: str, problems: list[Problem]) -> bool:
    """True when ``rule`` is a rule of the spec; else a problem saying ``how`` it was cited."""
    if isinstance(rule, str) and rule in spec.rules:
        return True
    problems.append(
        Problem(where, f"{how} cites {rule!r}, which is not a rule ID of spec/rules.md")
    )
    return False


def check_option(
    name: str, value: str, spec: SpecIndex, where: str, how: str, problems: list[Problem]
) -> bool:
    """True when ``name=value`` is a value of the catalog; else a problem saying ``how``."""
    if name not in spec.options:
        problems.append(
            Problem(
                where,
                f"{how} names option {name!r}, which the catalog (spec/ambiguities.yaml)"
                " does not have",
            )
        )
        return False
    if value not in spec.options[name]:
        values = ", ".join(spec.options[name])
        problems.append(
            Problem(where, f"{how} names {name}={value}, not a value of {name} ({values})")
        )
        return False
    return True
