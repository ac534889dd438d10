"""pytest hooks for the rulebook features.

- Tags: pytest-bdd turns every Gherkin tag into a pytest marker of the same name, but ``@R-BEAT-1``
  and ``@opt:attack_limit=six`` are not marker names pytest can register (a colon ends a name in
  the ``markers`` ini list), so each would warn. :func:`pytest_bdd_apply_tag` turns them into the
  registered markers ``durak_rule("R-BEAT-1")`` and ``durak_option("attack_limit", "six")``, which
  reports and ``-m durak_rule`` can read.
- Area tags (``@BEAT`` on a feature) become ``durak_area("BEAT")``.
- ``durak_engine``: the runner's plugin (``conformance.pytest_plugin``, loaded by its entry
  point) provides the engine chosen with ``--durak-engine``; if that plugin is disabled,
  :mod:`conformance.bdd.fallback_engine` provides the in-process reference engine.

Load with ``-p conformance.bdd.plugin``, or import these names into a ``conftest.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from conformance.bdd.model import AREA, OPTION, RULE, GherkinError, option_of_step, read_tag


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "durak_rule(rule_id): the rule a rulebook scenario shows")
    config.addinivalue_line(
        "markers", "durak_option(name, value): an option a rulebook scenario needs"
    )
    config.addinivalue_line("markers", "durak_area(area): the rule area of a rulebook feature")
    _register_fallback_engine(config)


@pytest.hookimpl(tryfirst=True)
def pytest_bdd_apply_tag(tag: str, function: Any) -> Any:
    """Rule, option and area tags become ``durak_rule``/``durak_option``/``durak_area`` markers.
    A tag outside the grammar of :mod:`conformance.bdd.model` is left to pytest-bdd (a marker of
    its name, which pytest warns about); the model reports it with its file and line, and a
    malformed ``@opt:`` tag fails its scenario when the scenario reads its options."""
    try:
        read = read_tag(tag)
    except GherkinError:
        return None
    if read.kind == OPTION:
        pytest.mark.durak_option(read.name, read.value)(function)
    elif read.kind == RULE:
        pytest.mark.durak_rule(tag)(function)
    elif read.kind == AREA:
        pytest.mark.durak_area(tag)(function)
    return True


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """An outline row that sets an option in a step (``the option pile_on is <pile_on>``) gets
    the ``durak_option`` marker of that row's value, as a tag would give, so reports count the
    row under its option value."""
    try:
        from pytest_bdd.scenario import scenario_wrapper_template_registry
    except ImportError:  # pragma: no cover - another pytest-bdd layout
        return
    for item in items:
        callspec = getattr(item, "callspec", None)
        example = callspec.params.get("_pytest_bdd_example") if callspec is not None else None
        if not example:
            continue
        try:
            template = scenario_wrapper_template_registry.get(getattr(item, "function", None))
        except TypeError:
            template = None
        if template is None:
            continue
        for step in template.render(example).steps:
            try:
                option = option_of_step(step.name)
            except GherkinError:
                continue  # no step definition matches it either: the scenario fails there
            if option is not None:
                item.add_marker(pytest.mark.durak_option(*option))


def _register_fallback_engine(config: pytest.Config) -> None:
    """Without the runner's plugin (``-p no:durak_conformance``), still offer an engine."""
    if not config.pluginmanager.hasplugin("durak_conformance"):
        config.pluginmanager.import_plugin("conformance.bdd.fallback_engine")
