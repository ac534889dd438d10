"""Coverage at each table: which rules the suite shows at 2 players with one 36-card pack (the
table most real engines play, and often the only one), and how many at the others.

An engine that plays only the common table runs only the cases written for it, so every rule
that applies there must be shown there allowing and forbidding (or once, for a descriptive rule),
or the suite cannot tell such an engine it breaks it. The traceability gate fails on a rule the
common table lacks, except the few below that cannot be shown there, each with its reason; an
exception the suite does show after all is a gap too (the list must stay true).
"""

from __future__ import annotations

from typing import Any

COMMON = "2 players, 36 cards"

#: Rules no case at the common table can show (or show forbidding), and why.
EXCEPTIONS: dict[str, str] = {
    "R-DECK-3": "twins need two packs",
    "R-TRUMP-3": "no talon needs six players with 36 cards",
    "R-THROW-4": "one eligible attacker: priority has one holder",
    "R-THROW-6": "the only attacker's pass closes the bout, so no pass is ever pending to expire",
    "R-END-5": "two players never repeat a position: a take moves cards one way, a defence "
    "discards them",
    "R-TEAM-1": "teams need four or six players",
    "R-TEAM-2": "teams need four or six players",
    "R-TEAM-3": "teams need four or six players",
}


def table_name(players: Any, ruleset: Any) -> str | None:
    """``"2 players, 36 cards"``, ``"4 players, 24 cards x2, teams 2v2"``...; None when the
    ruleset cannot be resolved (the traceability gate reports that case elsewhere)."""
    from reference_impl.rulesets import resolve_ruleset

    try:
        options = resolve_ruleset(ruleset)["options"]
    except ValueError:
        return None
    name = f"{players} players, {options['deck_size']} cards"
    if int(options["decks"]) != 1:
        name += f" x{options['decks']}"
    if options["teams"] != "none":
        name += f", teams {options['teams']}"
    return name


def _shown(coverage: Any, table: str | None) -> dict[str, tuple[bool, bool]]:
    """Rule -> (shown allowing, shown forbidding) by the cases at ``table`` (all when None)."""
    shown = {rule: (False, False) for rule in coverage.spec.rules}
    for trace in coverage.traces:
        if table is not None and trace.table != table:
            continue
        for rule, (positive, negative) in shown.items():
            shown[rule] = (positive or rule in trace.positive, negative or rule in trace.negative)
    return shown


def _complete(coverage: Any, rule: str, sides: tuple[bool, bool]) -> bool:
    positive, negative = sides
    return positive and (negative or not coverage.spec.needs_both(rule))


def common_table_gaps(coverage: Any) -> list[str]:
    """Each rule the common table lacks a side of (a rule the whole suite lacks is a gap of its
    own), and each stale exception."""
    gaps = []
    everywhere = _shown(coverage, None)
    for rule, sides in _shown(coverage, COMMON).items():
        if not _complete(coverage, rule, everywhere[rule]):
            continue  # a gap of the whole suite, reported as such
        complete = _complete(coverage, rule, sides)
        if rule in EXCEPTIONS:
            if complete:
                gaps.append(
                    f"{rule} is shown at {COMMON} after all: drop it from "
                    "conformance/tools/common_table.py EXCEPTIONS"
                )
            continue
        if not complete:
            missing = [
                side
                for side, have, needed in (
                    ("allowing", sides[0], True),
                    ("forbidding", sides[1], coverage.spec.needs_both(rule)),
                )
                if needed and not have
            ]
            gaps.append(f"{rule}: no case at {COMMON} shows it {' or '.join(missing)}")
    return gaps


def tables_summary(coverage: Any) -> dict[str, str]:
    """Each table the suite plays at -> how many rules its cases show completely."""
    tables = sorted({t.table for t in coverage.traces if t.table is not None}, key=_table_key)
    total = len(coverage.spec.rules)
    out = {}
    for table in tables:
        shown = _shown(coverage, table)
        done = sum(_complete(coverage, rule, sides) for rule, sides in shown.items())
        cases = sum(t.table == table for t in coverage.traces)
        out[table] = f"{done}/{total} rules, {cases} cases"
    return out


def _table_key(name: str) -> tuple:
    players, _, rest = name.partition(" players, ")
    return (name != COMMON, rest, int(players) if players.isdigit() else 0)
