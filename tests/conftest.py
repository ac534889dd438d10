"""Hooks for the whole of the project's own test session.

Why work stealing: the tests differ in length by a factor of a thousand (a unit check against a
whole run of the suite through a subprocess), and xdist's default ``load`` schedule hands each
worker its share up front, so one worker is often left with seconds of work while the other
idles (12 s of a 57 s run, measured on 2 cores). With ``worksteal`` an idle worker takes from a
busy one's queue. A ``--dist`` given on the command line is kept.

Why ``gc.freeze`` after collection: collecting the tests leaves a large heap that lives until the
session ends (every fixture file loaded, every rulebook scenario compiled, the schemas and the
test items: about 230,000 objects). Each full garbage collection walks all of it, about 0.2 s a
time, and there are many: pytest runs one at the end of each in-process
``durak-conformance run`` a test starts, and the interpreter runs its own as the heap grows. Moved to the permanent generation, those objects are no longer walked; a cycle among
them is kept until the process exits, which a test process does soon anyway.
"""

from __future__ import annotations

import gc

import pytest


@pytest.hookimpl(tryfirst=True, optionalhook=True)  # a hook of xdist, absent under -p no:xdist
def pytest_xdist_make_scheduler(config, log):
    asked = any(arg == "--dist" or arg.startswith("--dist=") for arg in config.invocation_params.args)
    if config.getvalue("dist") != "load" or asked:
        return None
    from xdist.scheduler import WorkStealingScheduling

    return WorkStealingScheduling(config, log)


def pytest_collection_finish(session) -> None:
    gc.collect()
    gc.freeze()
