"""The Gherkin rulebook features, run against any engine.

- :func:`features_dir`: where the ``.feature`` files are (a checkout's ``features/``, or the
  copy a wheel packs as ``conformance/_features``);
- :mod:`conformance.bdd.model`: the one reading of the features' structure (scenarios with their
  file and line, tags, rule IDs, options, game) and the grammar of tags and option steps;
- :mod:`conformance.bdd.steps`: the engine-agnostic step definitions;
- :mod:`conformance.bdd.routes`: the routes to the scenarios' start positions (``routes.yaml``
  next to the features), for engines that play only in game sessions;
- :mod:`conformance.bdd.plugin`: the pytest hooks that turn ``@R-...``/``@opt:...`` tags into
  markers, and a fallback ``durak_engine`` fixture (the in-process reference engine);
- :func:`suite_path`: a test module binding every feature, for the runner to hand to pytest.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent


class FeaturesNotFound(FileNotFoundError):
    """Neither the checkout's ``features/`` nor the wheel's ``conformance/_features`` exists."""


def features_dir() -> Path:
    """The directory of the rulebook ``.feature`` files."""
    candidates = [_PACKAGE / "_features", _PACKAGE.parent / "features"]
    for candidate in candidates:
        if candidate.is_dir() and any(candidate.glob("*.feature")):
            return candidate
    looked = ", ".join(str(c) for c in candidates)
    raise FeaturesNotFound(
        f"the Gherkin features were not found (looked in {looked}); install durak-conformance "
        "from a checkout or a wheel that packs features/"
    )


def feature_files() -> list[Path]:
    """Every rulebook feature file, sorted by name."""
    return sorted(features_dir().glob("*.feature"))


def suite_path() -> Path:
    """The test module that binds every feature; pass it to pytest with ``-p
    conformance.bdd.plugin`` (or a plugin providing ``durak_engine``) to run the rulebook."""
    return Path(__file__).resolve().parent / "suite.py"
