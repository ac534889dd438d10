"""Check the rulebook features without an engine: every step has exactly one definition, and
every scenario's Given steps describe a valid position or deal.

A scenario whose position cannot be built (a card placed twice, an odd discard pile, a player out
while the talon still holds cards) would otherwise only show up as a failure against some engine,
looking like an engine bug. Running the Given steps alone, here, catches it where it was written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pytest_bdd.steps import step_function_context_registry

from conformance.bdd.context import ScenarioGame
from conformance.bdd.model import RULE_TAG, Scenario, scenarios
from conformance.bdd.position import PositionError
from conformance.bdd.support import resolve


def definitions_for(step: Any) -> list[Any]:
    """The step definitions (pytest-bdd contexts) whose pattern matches ``step``."""
    import conformance.bdd.steps  # noqa: F401 - registers the definitions

    return [
        ctx
        for ctx in step_function_context_registry.values()
        if (ctx.type is None or ctx.type == step.type) and ctx.parser.is_matching(step.name)
    ]


def check_steps(rendered: Scenario) -> list[str]:
    """Problems with the step texts: no definition, or more than one."""
    problems = []
    for step in rendered.steps:
        found = definitions_for(step)
        if len(found) != 1:
            what = "no step definition" if not found else f"{len(found)} step definitions"
            problems.append(
                f"{rendered.where}: line {step.line_number} '{step.keyword} {step.name}' "
                f"matches {what}"
            )
    return problems


def check_position(rendered: Scenario) -> list[str]:
    """Run the Given steps on a game without an engine and build the state or deck."""
    game = ScenarioGame(engine=None, tag_options=dict(rendered.tag_options))  # type: ignore[arg-type]
    try:
        for step in rendered.steps:
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


def coverage(paths: list[Path] | None = None) -> dict[str, dict[str, set[str]]]:
    """Which rules and option values each area's scenarios show.

    ``{"BEAT": {"rules": {"R-BEAT-1", ...}, "options": {"beat_order=any", ...},
    "scenarios": {"beat.feature:12 ...", ...}}}``; options come from ``@opt:`` tags and from
    ``the option X is V`` steps (outline rows).
    """
    table: dict[str, dict[str, set[str]]] = {}
    for rendered in scenarios(paths):
        area = rendered.path.stem.upper()
        entry = table.setdefault(area, {"rules": set(), "options": set(), "scenarios": set()})
        entry["scenarios"].add(rendered.where)
        entry["rules"].update(rendered.rules)
        entry["options"].update(f"{k}={v}" for k, v in rendered.tag_options.items())
        entry["options"].update(f"{o.name}={o.value}" for o in rendered.step_options)
    return table


def coverage_markdown(paths: list[Path] | None = None) -> str:
    """The coverage table of docs/features.md (regenerate with ``python -m conformance.bdd.dryrun``)."""

    def rule_key(rule: str) -> tuple[str, int]:
        m = RULE_TAG.match(rule)
        return (m["area"], int(m["number"])) if m else (rule, 0)

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
