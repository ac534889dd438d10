"""Two-way traceability between the spec and the suite: which cases show each rule and each option
value, and what the suite cites that the spec does not have.

The suite is only worth running if every rule of ``spec/rules.md`` is exercised both ways (an
engine that allows too much and one that forbids too much must each fail some case) and every
option value is played by a case where it matters. This package reads the YAML fixtures (through
:mod:`conformance.suite.loader`, the runner's own loader) and the Gherkin features (through
:mod:`conformance.bdd.model`, on pytest-bdd's parser, the one that runs them), records what each
case shows, and builds a coverage table. The gate (``tests/trace``) fails on every gap it
reports; ``tools/gen_coverage_doc.py`` renders it as ``docs/coverage.md``.

- :mod:`.spec`: what may be cited (:class:`SpecIndex`, the descriptive rules) and what a case
  shows (:class:`CaseTrace`, :class:`Problem`);
- :mod:`.fixtures`, :mod:`.features`: the traces of the fixture cases and of the scenarios;
- :mod:`.coverage`: the table and its gaps (:func:`collect`, :func:`build`, :class:`Coverage`);
- :mod:`.render`: the table as text and as docs/coverage.md;
- :mod:`.command`: ``durak-conformance coverage``.

The names below are the package's interface; importers use them from here.

Definitions (docs/coverage.md repeats them):

- A **case** is a fixture case (its ``id``) or a Gherkin scenario; an outline counts once per
  Examples row (each row is a test of its own).
- A case **cites** a rule when the rule is in its ``rules:`` list (fixture) or an ``@R-...`` tag of
  its Feature, Rule or Scenario (feature), or when one of its refusals names it (fixture ``refuse``
  step ``rule:``, feature ``Then the move is refused citing R-...``).
- A case is **positive** for a rule it cites in ``rules:``/tags (it shows the rule allowing
  something) when it has a step that shows a move, a set-up or a sight being allowed: fixture
  ``move``, ``legal_includes``, a non-empty ``legal``, an ``observe`` step with ``expect`` (what
  the player may see), or a start from a ``deck`` or ``seed`` that is not ``start_refused`` (a
  new game the engine must set up); feature ``When`` move (or ``the players play:``)
  not refused, ``Then ... may <move>``, ``... may only ...``, ``only ... may move``, ``the legal
  moves are exactly:``, ``... sees ...``, or ``When the game is dealt`` not followed by ``the
  game cannot be set up``.
- A case is **negative** for a rule (it shows the rule forbidding something) when it has a refusal
  citing that rule (fixture ``refuse`` or ``start_refused`` with ``rule:``), or it cites the rule
  in ``rules:``/tags and has a step that shows something not allowed: fixture ``legal_excludes``,
  ``legal`` (an exact set shows what is missing from it too), or an ``observe`` step with
  ``absent`` (what the player must not see); feature ``... may not ...``, ``... has no move``,
  ``nobody may move``, ``... may only ...``, ``only ... may move``, ``the legal moves are
  exactly:``, ``the game cannot be set up``, or a sight denied (``... sees no ...``, ``... but not
  which``).
  A refusal counts only for the rule it names (a refusal citing R-PLAY-4 says nothing about the
  other rules of the case).
- A case **depends on** every rule it cites.
- A case **discriminates** ``option=value`` when its fixture ``options:`` mapping names that value,
  or (feature) an ``@opt:<option>=<value>`` tag on its Feature, Rule or Scenario names it, or one of
  its steps reads ``the option <option> is <value>`` (the way an outline puts an option value in an
  Examples column).

The gate:

- every rule needs a positive and a negative case, except the **descriptive rules** of
  :data:`DESCRIPTIVE` (spec/rules.md does not mark them; the list and its reasons live in
  :mod:`.spec`), which
  need one case that depends on them;
- every option value of the catalog needs a discriminating case;
- no case may cite a rule ID that spec/rules.md lacks, or an option or value the catalog lacks; a
  fixture's ``options:`` must agree with the ruleset it plays (a case cannot discriminate a value
  it does not use); tags on ``Examples`` (which pytest-bdd's hooks never see) and tags or option
  steps outside the grammar of :mod:`conformance.bdd.model` are refused;
- every fixture file and feature file must load, and no scenario may be hidden by a later one of
  the same name: what the gate cannot read hides its cases.
"""

from conformance.tools.traceability.command import add_cli_arguments, main, run_cli
from conformance.tools.traceability.coverage import (
    Coverage,
    OptionRow,
    RuleRow,
    build,
    collect,
    default_sources,
    repo_root,
)
from conformance.tools.traceability.features import feature_traces
from conformance.tools.traceability.fixtures import fixture_traces
from conformance.tools.traceability.render import render_markdown, render_text
from conformance.tools.traceability.spec import (
    DESCRIPTIVE,
    FEATURE,
    FIXTURE,
    INCONSISTENT,
    UNKNOWN,
    UNREADABLE,
    CaseTrace,
    Problem,
    SpecIndex,
    rules_from_markdown,
)

__all__ = [
    "DESCRIPTIVE",
    "FEATURE",
    "FIXTURE",
    "INCONSISTENT",
    "UNKNOWN",
    "UNREADABLE",
    "CaseTrace",
    "Coverage",
    "OptionRow",
    "Problem",
    "RuleRow",
    "SpecIndex",
    "add_cli_arguments",
    "build",
    "collect",
    "default_sources",
    "feature_traces",
    "fixture_traces",
    "main",
    "render_markdown",
    "render_text",
    "repo_root",
    "rules_from_markdown",
    "run_cli",
]
