"""Shared helpers for the spec tests: the repository paths and the contract's tables."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ARCHITECTURE = REPO / "docs" / "architecture.md"


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    return text[start:] if end < 0 else text[start:end]


@pytest.fixture(scope="session")
def contract_options() -> dict:
    """The option table of docs/architecture.md: {option: {"values": [...], "default": ...}}.

    Values are kept as the contract writes them (strings); numeric ones are compared as strings.
    """
    text = _section(ARCHITECTURE.read_text(encoding="utf-8"), "## Options")
    table = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[1].startswith("`"):
            continue
        option = cells[1].strip("`")
        values = re.findall(r"`([^`]+)`", cells[2])
        default = cells[3].strip("`")
        table[option] = {"values": values, "default": default}
    assert table, "no option table found in docs/architecture.md"
    return table


@pytest.fixture(scope="session")
def register_ids() -> list[str]:
    """The rule IDs of the contract's register, in order."""
    text = _section(ARCHITECTURE.read_text(encoding="utf-8"), "## Rule ID register")
    ids = re.findall(r"^\| (R-[A-Z]+-\d+) \|", text, flags=re.MULTILINE)
    assert len(ids) > 50, "the register looks truncated"
    return ids
