"""The plugin in another project (issue 14): naming an engine where no case of the suite is
collected is a usage error that says how to run the suite, never a silent green run; without
an engine the plugin leaves that project's tests alone."""

from __future__ import annotations

import subprocess
import sys

import pytest


def _pytest(folder, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        check=False,
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.slow
def test_an_engine_named_where_no_case_is_collected_is_a_usage_error(tmp_path):
    (tmp_path / "test_own.py").write_text("def test_own():\n    assert True\n")
    named = _pytest(tmp_path, "--durak-engine", "reference")
    assert named.returncode == 4, named.stdout + named.stderr
    assert "durak-conformance run --engine CMD" in named.stdout + named.stderr
    alone = _pytest(tmp_path)
    assert alone.returncode == 0 and "1 passed" in alone.stdout
