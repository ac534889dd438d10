"""Every rulebook scenario (features/*.feature) against the in-process reference engine."""

from pytest_bdd import scenarios

from conformance.bdd import features_dir

# the step definitions are fixtures: they must be visible in this module
from conformance.bdd.steps import *

scenarios(str(features_dir()))
