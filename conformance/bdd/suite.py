"""Binds every rulebook feature as pytest tests (a module the runner hands to pytest by path).

The engine is the ``durak_engine`` fixture: the runner's plugin supplies the engine chosen with
``--durak-engine``; :mod:`conformance.bdd.plugin` falls back to the in-process reference engine.
"""

from pytest_bdd import scenarios

from conformance.bdd import features_dir

# the step definitions are fixtures: they must be visible in this module
from conformance.bdd.steps import *

scenarios(str(features_dir()))
