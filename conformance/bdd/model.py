"""The one reading of the rulebook's Gherkin: a feature file read once, with pytest-bdd's own parser
(the one that runs it), into scenarios that know their file and line, their tags (inherited from
Feature, Rule and Scenario), the rule IDs and option values those tags name, the options their
steps set (an outline's Examples column), and the preset and player count of their game.

The traceability gate, the dry run, the pytest hooks and the tests all read the features through
this module, so they cannot disagree on what a tag or a step means. It also holds THE grammar of
the tags and of the steps whose words carry structure:

- ``@R-<AREA>-<n>`` cites a rule, ``@opt:<option>=<value>`` asks for an option value, ``@<AREA>``
  names the rule area of a feature; any other tag is a problem that names its file and line
  (a tag the gate cannot read would silently drop what it was meant to say);
- ``the option <option> is <value>`` sets an option in a step, ``a <N>-player <preset> game``
  names the game.

A problem is a value (:class:`GherkinProblem`), never an exception from :func:`read_feature`, so a
reader can report every problem of the suite at once. What is valid against the spec (is
``R-BEAT-9`` a rule? is ``six`` a value of ``attack_limit``?) is not this module's business: the
spec index of :mod:`conformance.tools.traceability` decides that.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from pytest_bdd.exceptions import GherkinParseError
from pytest_bdd.gherkin_parser import get_gherkin_document
from pytest_bdd.parser import FeatureParser

# ------------------------------------------------------------------------------------ grammar

RULE_TAG = re.compile(r"^R-(?P<area>[A-Z]+)-(?P<number>\d+)$")
OPT_TAG = re.compile(r"^opt:(?P<name>[a-z_0-9]+)=(?P<value>[A-Za-z0-9_]+)$")
AREA_TAG = re.compile(r"^[A-Z]+$")
OPTION_STEP = re.compile(r"^the option (?P<name>[a-z_0-9]+) is (?P<value>[A-Za-z0-9_]+)$")
GAME_STEP = re.compile(r"^a (?P<players>\d+)-player (?P<preset>[a-z_0-9-]+) game$")

#: The fixture schema's bound on a case ID.
CASE_ID_LENGTH = 80


def scenario_case_id(path: Path | str, label: str) -> str:
    """A scenario's case ID, in the fixture schema's form (lower-case words joined by "-", at
    most 80 characters): the feature file's stem and the scenario's label as a slug, so
    ``--case``, the reports, the expected-failure lists and ``export`` name it alike. A long
    label keeps its first words and a short hash of the whole: the ID is stable while the
    label is, and two labels never share one."""
    name = f"{Path(path).stem}: {label}" if label else Path(path).stem
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "scenario"
    if len(slug) <= CASE_ID_LENGTH:
        return slug
    digest = hashlib.sha1(name.encode("utf-8")).hexdigest()[:8]
    return slug[: CASE_ID_LENGTH - len(digest) - 1].rstrip("-") + "-" + digest


RULE = "rule"
OPTION = "option"
AREA = "area"

#: Kinds of :class:`GherkinProblem`: a file pytest-bdd cannot parse; a scenario pytest-bdd never
#: runs (a later one of the same name replaces it); a tag or option step outside the grammar,
#: a tag where pytest-bdd's hooks never see it (Examples), or two values asked for one option.
UNPARSABLE = "unparsable"
HIDDEN = "hidden"
MALFORMED = "malformed"


class GherkinError(ValueError):
    """A tag or a step outside the grammar; the message says what it should look like."""


@dataclass(frozen=True)
class Tag:
    """A tag of the grammar: a rule ID, an option value asked for, or a rule area."""

    text: str
    kind: str  # RULE, OPTION or AREA
    name: str  # the rule ID, the option's name or the area
    value: str | None = None  # the option's value


def read_tag(text: str) -> Tag:
    """The meaning of a tag (written without its ``@``); :class:`GherkinError` outside the
    grammar."""
    if RULE_TAG.match(text):
        return Tag(text, RULE, text)
    if text.startswith("opt:"):
        m = OPT_TAG.match(text)
        if m is None:
            raise GherkinError(f"tag @{text} is not @opt:<option>=<value>")
        return Tag(text, OPTION, m["name"], m["value"])
    if AREA_TAG.match(text):
        return Tag(text, AREA, text)
    if text.startswith("R-"):
        raise GherkinError(f"tag @{text} is not @R-<AREA>-<number>")
    raise GherkinError(
        f"tag @{text} is neither a rule (@R-<AREA>-<number>), an option (@opt:<option>=<value>) "
        "nor an area (@<AREA>)"
    )


def options_from_tags(tags: Iterable[str]) -> dict[str, str]:
    """``{"attack_limit": "six"}`` from ``@opt:attack_limit=six``. A malformed ``@opt:`` tag, or
    two values for one option, is a :class:`GherkinError`; tags that ask for no option are not
    this function's business."""
    out: dict[str, str] = {}
    for text in sorted(tags):
        if not text.startswith("opt:"):
            continue
        tag = read_tag(text)
        if tag.name in out and out[tag.name] != tag.value:
            raise GherkinError(
                f"tags ask for two values of option {tag.name}: {out[tag.name]} and {tag.value}"
            )
        out[tag.name] = str(tag.value)
    return out


def option_of_step(text: str) -> tuple[str, str] | None:
    """``(option, value)`` of a ``the option <option> is <value>`` step, None for another step;
    :class:`GherkinError` for a step that starts so but breaks the grammar."""
    m = OPTION_STEP.match(text.strip())
    if m is not None:
        return m["name"], m["value"]
    if text.strip().startswith("the option "):
        raise GherkinError(
            f"step '{text.strip()}' is not 'the option <option> is <value>' "
            "(option: a-z, 0-9, _; value: letters, digits, _)"
        )
    return None


def inherited_tags(template: Any) -> frozenset[str]:
    """The tags a pytest-bdd scenario template carries: its own, its Rule's and its Feature's
    (pytest-bdd applies these three; never an Examples' tags)."""
    tags = set(template.tags) | set(template.feature.tags)
    if template.rule is not None:
        tags |= set(template.rule.tags)
    return frozenset(tags)


# ------------------------------------------------------------------------------- the model


@dataclass(frozen=True)
class GherkinProblem:
    """Something in a feature file no reader can count: where (file, line) and what to do."""

    path: Path
    line: int | None
    message: str
    kind: str = MALFORMED

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}" if self.line is not None else str(self.path)

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass(frozen=True)
class StepOption:
    """An option value set by a step (``the option pile_on is <pile_on>``), with its line."""

    name: str
    value: str
    line: int


@dataclass(frozen=True)
class Game:
    """The game a scenario sets up: ``a <players>-player <preset> game``."""

    players: int
    preset: str


@dataclass(eq=False)
class Outline:
    """A Scenario or Scenario Outline as written: its tags and what they name, read once for all
    its rows. Only the tags of the grammar are in ``rules``, ``areas`` and ``tag_options``; the
    others are problems of the file."""

    path: Path
    feature: Any  # pytest-bdd Feature
    template: Any  # pytest-bdd ScenarioTemplate
    tags: frozenset[str]
    rules: tuple[str, ...]
    areas: tuple[str, ...]
    tag_options: Mapping[str, str]
    rows: list[Scenario] = field(default_factory=list)

    @property
    def line(self) -> int:
        return self.template.line_number

    @property
    def name(self) -> str:
        return self.template.name


@dataclass(frozen=True, eq=False)
class Scenario:
    """One runnable scenario: a plain scenario, or one Examples row of an outline (pytest-bdd
    runs each row as a test of its own), with its steps rendered with the row's values."""

    outline: Outline
    example: Mapping[str, str]
    rendered: Any  # pytest-bdd Scenario
    label: str  # the rendered name, plus the row's values when two rows render alike
    step_options: tuple[StepOption, ...]
    game: Game | None

    @property
    def path(self) -> Path:
        return self.outline.path

    @property
    def line(self) -> int:
        return self.outline.line

    @property
    def tags(self) -> frozenset[str]:
        return self.outline.tags

    @property
    def rules(self) -> tuple[str, ...]:
        return self.outline.rules

    @property
    def tag_options(self) -> Mapping[str, str]:
        return self.outline.tag_options

    @property
    def steps(self) -> list[Any]:
        return self.rendered.steps

    @property
    def case_id(self) -> str:
        return scenario_case_id(self.path, self.label)

    @property
    def options(self) -> dict[str, str]:
        """Every option value the scenario asks for: its tags', then its steps' (a step wins)."""
        return {**self.tag_options, **{o.name: o.value for o in self.step_options}}

    @property
    def where(self) -> str:
        """``beat.feature:12: A low card is refused [beat_order=any]`` for messages and test ids."""
        row = ", ".join(f"{k}={v}" for k, v in self.example.items())
        return f"{self.path.name}:{self.line}: {self.outline.name}" + (f" [{row}]" if row else "")


@dataclass(frozen=True, eq=False)
class FeatureFile:
    """One feature file: its outlines (none when it cannot be parsed) and its problems."""

    path: Path
    feature: Any | None  # pytest-bdd Feature
    outlines: tuple[Outline, ...]
    problems: tuple[GherkinProblem, ...]

    @property
    def scenarios(self) -> list[Scenario]:
        return [row for outline in self.outlines for row in outline.rows]

    @property
    def tags(self) -> frozenset[str]:
        return frozenset(self.feature.tags) if self.feature is not None else frozenset()


# ----------------------------------------------------------------------------------- reading


def feature_paths(paths: Iterable[Path | str] | None = None) -> list[Path]:
    """The ``.feature`` files of ``paths`` (folders searched recursively, in name order); by
    default every rulebook feature."""
    if paths is None:
        from conformance.bdd import feature_files

        return feature_files()
    out: list[Path] = []
    for p in map(Path, paths):
        out += sorted(p.rglob("*.feature")) if p.is_dir() else [p]
    return out


def read_features(paths: Iterable[Path | str] | None = None) -> list[FeatureFile]:
    """Every feature file of ``paths`` (default: the rulebook), read once each."""
    return [read_feature(path) for path in feature_paths(paths)]


def scenarios(paths: Iterable[Path | str] | None = None) -> list[Scenario]:
    """Every runnable scenario of ``paths`` (default: the rulebook), outline rows one by one."""
    return [s for feature in read_features(paths) for s in feature.scenarios]


def template_of(function: Any) -> Any:
    """pytest-bdd's template of a scenario test function (its steps, feature and line), or None
    for any other function."""
    try:
        from pytest_bdd.scenario import scenario_wrapper_template_registry

        return scenario_wrapper_template_registry.get(function)
    except (ImportError, TypeError):  # another pytest-bdd layout; an unhashable function
        return None


def item_scenario(item: Any) -> Scenario | None:
    """The scenario a pytest-bdd test item runs, as this module reads it (an outline's row with
    the item's Examples values), or None for any other test."""
    template = template_of(getattr(item, "function", None))
    if template is None:
        return None
    callspec = getattr(item, "callspec", None)
    example = callspec.params.get("_pytest_bdd_example") if callspec is not None else None
    for scenario in _read_once(template.feature.filename).scenarios:
        if scenario.line == template.line_number and dict(scenario.example) == (example or {}):
            return scenario
    return None


@cache
def _read_once(filename: str) -> FeatureFile:
    return read_feature(filename)


def read_feature(path: Path | str) -> FeatureFile:
    """Parse one feature file with pytest-bdd's parser and read its structure; a file that does
    not parse is a feature with no outlines and one :data:`UNPARSABLE` problem."""
    path = Path(path)
    reader = _Reader(str(path.parent), path.name)
    try:
        feature = reader.parse()
    except (GherkinParseError, OSError, UnicodeDecodeError) as exc:  # its text names the line
        return FeatureFile(path, None, (), (GherkinProblem(path, None, str(exc), UNPARSABLE),))
    problems = _document_problems(path, reader.gherkin_document(), feature)
    outlines = []
    for template in feature.scenarios.values():
        outline, found = _outline(path, feature, template)
        outlines.append(outline)
        problems += found
    return FeatureFile(path, feature, tuple(outlines), tuple(problems))


class _Reader(FeatureParser):
    """pytest-bdd's parser, keeping the Gherkin document it parsed: the document has what the
    parsed feature drops (the line of each tag, the scenarios a later one of the same name
    replaces)."""

    _document: Any = None

    def _parse_feature_file(self) -> Any:
        self._document = super()._parse_feature_file()
        return self._document

    def gherkin_document(self) -> Any:
        if self._document is None:  # a pytest-bdd that parses another way: parse it again
            self._document = get_gherkin_document(self.abs_filename, self.encoding)
        return self._document


def _document_problems(path: Path, document: Any, feature: Any) -> list[GherkinProblem]:
    """Tags outside the grammar or on Examples, and scenarios hidden by a later namesake."""
    problems: list[GherkinProblem] = []
    kept = {t.line_number for t in feature.scenarios.values()}
    for kind, holder in _tag_holders(document.feature):
        for tag in holder.tags:
            text, line = tag.name.lstrip("@"), tag.location.line
            if kind == "examples":
                message = (
                    f"tag @{text} on Examples is never applied by pytest-bdd; put it on the "
                    "Scenario, Rule or Feature, or set the option in a step"
                )
                problems.append(GherkinProblem(path, line, message))
                continue
            try:
                read_tag(text)
            except GherkinError as exc:
                problems.append(GherkinProblem(path, line, str(exc)))
        if kind == "scenario" and holder.location.line not in kept:
            message = (
                f"scenario {holder.name!r} is hidden by a later scenario of the same name "
                "(pytest-bdd keeps one per name); rename one of them"
            )
            problems.append(GherkinProblem(path, holder.location.line, message, HIDDEN))
    return problems


def _tag_holders(feature: Any) -> list[tuple[str, Any]]:
    """``(kind, node)`` of the Feature, its Rules, their Scenarios and their Examples tables, in
    file order."""
    out: list[tuple[str, Any]] = [("feature", feature)]
    for child in feature.children:
        if child.rule is not None:
            out.append(("rule", child.rule))
            scenarios = [c.scenario for c in child.rule.children if c.scenario is not None]
        else:
            scenarios = [child.scenario] if child.scenario is not None else []
        for scenario in scenarios:
            out.append(("scenario", scenario))
            out += [("examples", examples) for examples in scenario.examples]
    return out


def _outline(path: Path, feature: Any, template: Any) -> tuple[Outline, list[GherkinProblem]]:
    """A scenario template and its rows; an option asked for twice is a problem."""
    problems: list[GherkinProblem] = []
    tags = inherited_tags(template)
    read = []
    for text in sorted(tags):
        try:
            read.append(read_tag(text))
        except GherkinError:
            pass  # reported where the tag is written
    options: dict[str, str] = {}
    for tag in (t for t in read if t.kind == OPTION):
        if tag.name in options and options[tag.name] != tag.value:
            problems.append(
                GherkinProblem(
                    path,
                    template.line_number,
                    f"tags ask for two values of option {tag.name}: {options[tag.name]} and "
                    f"{tag.value}",
                )
            )
        options[tag.name] = str(tag.value)
    outline = Outline(
        path,
        feature,
        template,
        tags,
        tuple(t.name for t in read if t.kind == RULE),
        tuple(t.name for t in read if t.kind == AREA),
        options,
    )
    contexts = [c for e in template.examples for c in e.as_contexts()] or [{}]
    rendered = [template.render(context) for context in contexts]
    names = [r.name for r in rendered]
    for context, scenario in zip(contexts, rendered, strict=True):
        label = scenario.name
        if context and names.count(label) > 1:
            label += " [" + ", ".join(f"{k}={v}" for k, v in context.items()) + "]"
        step_options, found = _step_options(path, scenario.steps)
        problems += found
        row = Scenario(outline, context, scenario, label, step_options, _game(scenario.steps))
        outline.rows.append(row)
    return outline, list(dict.fromkeys(problems))  # a row-independent step: reported once


def _step_options(path: Path, steps: Sequence[Any]) -> tuple[tuple[StepOption, ...], list]:
    out, problems = [], []
    for step in steps:
        try:
            found = option_of_step(step.name)
        except GherkinError as exc:
            problems.append(GherkinProblem(path, step.line_number, str(exc)))
            continue
        if found is not None:
            out.append(StepOption(found[0], found[1], step.line_number))
    return tuple(out), problems


def _game(steps: Sequence[Any]) -> Game | None:
    """The scenario's ``a N-player <preset> game`` step, the first if several."""
    for step in steps:
        m = GAME_STEP.match(step.name.strip())
        if m is not None:
            return Game(int(m["players"]), m["preset"])
    return None
