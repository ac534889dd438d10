"""What must hold of every state an engine returns, whatever the case being run expects.

A fixture's ``expect`` step pins the fields its author chose; a state can be wrong elsewhere (a
card copied into a second hand, a defender who is also the attacker) and still pass every step.
:func:`state_problems` is the judge's own reading of what the rules say about *any* state, so the
runner can check each state an engine answers with:

- the shape: the state validates against ``spec/schema/state.schema.json`` (R-PLAY-6), read
  through :mod:`conformance.contract.schemas` (:mod:`.schema`, fast by :mod:`.predicate`);
- every seat a state names is a seat of the game (R-PLAY-6) and the player count suits the deck
  and the teams (R-DECK-4);
- card conservation: every card of the ruleset's deck is in exactly one place, a hand, the talon,
  the table or the discard pile, and no other card appears (R-DECK-5);
- the trump card is the talon's last card while the talon holds cards (R-TRUMP-2); known cards
  are cards of their hand (R-INFO-3); team indices follow the ``teams`` seating (R-TEAM-1);
- the bout's roles: the defender is not the main attacker and holds cards (R-ROLE-2), nor his
  partner (R-TEAM-2); he never passes (R-THROW-3); the opening cards are the opener's
  (R-ATTACK-2); without transfers the main attacker is the opener (R-ROLE-5) and no table card is
  the defender's (R-PLAY-4); seats that emptied their hand hold no cards (R-OUT-2);
- the discard pile holds whole pairs, an attack card and its defence each (R-BOUT-1);
- going out: players who went out hold no cards, nobody is out while the talon holds cards
  (R-OUT-1), nobody is listed twice (R-OUT-3);
- the result: the game over means no bout (R-END-1); at most one player (team) holds cards and
  that one is the fool (R-END-1, R-END-2, R-TEAM-3); a fool with no cards only under ``tie:
  defender_fool``, and ``draw`` exactly when there is no fool (R-END-3); ``finishing_order`` is
  ``finished`` and the winners are players who went out, never the fool (R-END-4);
  ``epaulettes`` null exactly with ``epaulettes: off`` (R-END-6).

Only what is certain in every legal position is checked: after a transfer the defender may have
put cards on the table himself, and the bout's opener may be the defender, so neither is a
problem with ``transfer: on``; the attack cap is not checked either (with two packs a transfer
under ``transfer_capacity: hand`` may take the table past it, R-TRANSFER-3).

The module never raises on a JSON value: a malformed state gives problems. When the schema fails
for a top-level field, the checks that read that field are skipped (their findings would only
repeat the schema's).

This is the judge's reading, independent of the reference engine's ``validate_state``: it uses
only :mod:`conformance.contract` (the card notation, the canonical text, the seats) and the
spec's schemas. The checks live by subject: :mod:`.checks` (cards and seats), :mod:`.bout`,
:mod:`.ending`; :mod:`.facts` reads a state for them.
"""

from __future__ import annotations

from typing import Any

from conformance.suite.invariants import bout, checks, ending
from conformance.suite.invariants.facts import Check, Facts
from conformance.suite.invariants.problems import Problem
from conformance.suite.invariants.schema import ALL, schema_problems

__all__ = ["Problem", "state_problems", "summarise"]

#: The checks in the order their problems are listed: each names the fields it reads.
CHECKS: tuple[Check, ...] = (
    checks.player_count,
    checks.teams,
    checks.conservation,
    checks.trump_card,
    checks.trump_last,
    checks.discard_pairs,
    checks.known,
    checks.dealer,
    checks.finished,
    bout.bout,
    ending.over_means_no_bout,
    ending.result,
)


def state_problems(state: Any) -> list[Problem]:
    """Every way ``state`` breaks the state schema or an invariant of the rules (empty when it
    is a state some legal game could be in, as far as a single state shows).

    Schema problems come first, sorted by pointer; then the invariants, field by field.
    """
    problems, broken = schema_problems(state)
    if broken is ALL:
        return problems
    facts = Facts(state, broken)
    for check in CHECKS:
        if facts.has(*check.needs):
            check(facts, problems)
    return problems


def summarise(problems: list[Problem], limit: int = 5) -> tuple[list[str], str]:
    """The rules ``problems`` break (first appearance first) and a one-line text of the first
    ``limit`` of them, for a failure message: the runner's and the scenarios' alike."""
    rules = list(dict.fromkeys(problem.rule for problem in problems))
    shown = "; ".join(str(problem) for problem in problems[:limit])
    if len(problems) > limit:
        shown += f"; and {len(problems) - limit} more"
    return rules, shown
