"""Check the rulebook features without an engine: every step has exactly one definition, and
every scenario's Given steps describe a valid position or deal.

A scenario whose position cannot be built (a card placed twice, an odd discard pile, a player out
while the talon still holds cards) would otherwise only show up as a failure against some engine,
looking like an engine bug. Running the Given steps alone, here, catches it where it was written.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_bdd.feature import get_features
from pytest_bdd.steps import step_function_context_registry

from conformance.bdd import feature_files
from conformance.bdd.context import ScenarioGame
from conformance.bdd.position import PositionError
from conformance.bdd.support import options_from_tags, resolve


@dataclass(frozen=True)
class RenderedScenario:
    """One runnable scenario: an outline is rendered once per Examples row."""

    path: Path
    feature: Any
    template: Any
    scenario: Any
    example: dict[str, str]

    @property
    def tags(self) -> set[str]:
        tags = set(self.template.tags) | set(self.feature.tags)
        if self.template.rule is not None:
            tags |= set(self.template.rule.tags)
        return tags

    @property
    def where(self) -> str:
        row = f" [{', '.join(f'{k}={v}' for k, v in self.example.items())}]" if self.example else ""
        return f"{self.path.name}:{self.template.line_number}: {self.template.name}{row}"


def rendered_scenarios(paths: list[Path] | None = None) -> Iterator[RenderedScenario]:
    """Every scenario of the given feature files (default: all), outlines expanded."""
    for path in paths or feature_files():
        for feature in get_features([str(path)]):
            for template in feature.scenarios.values():
                contexts = [c for e in template.examples for c in e.as_contexts()] or [{}]
                for context in contexts:
                    yield RenderedScenario(
                        path, feature, template, template.render(context), context
                    )


def definitions_for(step: Any) -> list[Any]:
    """The step definitions (pytest-bdd contexts) whose pattern matches ``step``."""
    import conformance.bdd.steps  # noqa: F401 - registers the definitions

    return [
        ctx
        for ctx in step_function_context_registry.values()
        if (ctx.type is None or ctx.type == step.type) and ctx.parser.is_matching(step.name)
    ]


def check_steps(rendered: RenderedScenario) -> list[str]:
    """Problems with the step texts: no definition, or more than one."""
    problems = []
    for step in rendered.scenario.steps:
        found = definitions_for(step)
        if len(found) != 1:
            what = "no step definition" if not found else f"{len(found)} step definitions"
            problems.append(
                f"{rendered.where}: line {step.line_number} '{step.keyword} {step.name}' "
                f"matches {what}"
            )
    return problems


def check_position(rendered: RenderedScenario) -> list[str]:
    """Run the Given steps on a game without an engine and build the state or deck."""
    game = ScenarioGame(engine=None, tag_options=options_from_tags(rendered.tags))  # type: ignore[arg-type]
    try:
        for step in rendered.scenario.steps:
            if step.type != "given":
                continue
            found = definitions_for(step)
            if len(found) != 1:
                continue  # reported by check_steps
            ctx = found[0]
            args = {
                key: ctx.converters.get(key, lambda v: v)(value)
                for key, value in ctx.parser.parse_arguments(step.name).items()
            }
            ctx.step_func(durak_game=game, **args)
        spec = game.spec
        if spec.players is None:
            return [f"{rendered.where}: no 'Given a N-player <preset> game' step"]
        ruleset = resolve(spec.ruleset_request())
        if spec.starts_with_deal():
            spec.build_deck(ruleset["options"])
        else:
            spec.build_state(ruleset)
    except (PositionError, ValueError) as exc:
        return [f"{rendered.where}: {exc}"]
    return []


_OPTION_STEP = r"the option (?P<name>[a-z_0-9]+) is (?P<value>[A-Za-z0-9_]+)"


def coverage(paths: list[Path] | None = None) -> dict[str, dict[str, set[str]]]:
    """Which rules and option values each area's scenarios show.

    ``{"BEAT": {"rules": {"R-BEAT-1", ...}, "options": {"beat_order=any", ...},
    "scenarios": {"beat.feature:12 ...", ...}}}``; options come from ``@opt:`` tags and from
    ``the option X is V`` steps (outline rows).
    """
    import re

    from conformance.bdd.support import OPT_TAG, RULE_TAG

    table: dict[str, dict[str, set[str]]] = {}
    for rendered in rendered_scenarios(paths):
        area = rendered.path.stem.upper()
        entry = table.setdefault(area, {"rules": set(), "options": set(), "scenarios": set()})
        entry["scenarios"].add(rendered.where)
        for tag in rendered.tags:
            if RULE_TAG.match(tag):
                entry["rules"].add(tag)
            elif (m := OPT_TAG.match(tag)) is not None:
                entry["options"].add(f"{m.group('name')}={m.group('value')}")
        for step in rendered.scenario.steps:
            m = re.fullmatch(_OPTION_STEP, step.name)
            if m:
                entry["options"].add(f"{m.group('name')}={m.group('value')}")
    return table


def coverage_markdown(paths: list[Path] | None = None) -> str:
    """The coverage table of docs/features.md (regenerate with ``python -m conformance.bdd.dryrun``)."""

    def rule_key(rule: str) -> tuple[str, int]:
        _, area, number = rule.split("-")
        return area, int(number)

    lines = [
        "| feature | scenarios (outline rows) | rules | option values shown |",
        "|---|---|---|---|",
    ]
    table = coverage(paths)
    for area in sorted(table):
        entry = table[area]
        rules = ", ".join(sorted(entry["rules"], key=rule_key))
        options = ", ".join(f"`{o}`" for o in sorted(entry["options"])) or "(defaults)"
        lines.append(
            f"| `{area.lower()}.feature` | {len(entry['scenarios'])} | {rules} | {options} |"
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(coverage_markdown(), end="")
