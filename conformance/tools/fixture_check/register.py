"""What a fixture may cite, read from the contract's own text: the rule-ID register of
docs/architecture.md (plus any rule spec/rules.md defines), its option table, and the presets of
spec/rulesets/.

This is the checker's reading, made from the documents an engine author reads, not from
:mod:`reference_impl.rulesets` or :mod:`conformance.tools.traceability`: a case the contract's
text does not allow is caught even when the spec data or the runner reads it the same wrong way.
It reads a checkout (docs/ is not packed into a wheel).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from conformance.suite import PACKAGE_DIR

#: The checkout the contract's documents are read from.
ROOT = PACKAGE_DIR.parent

_REGISTER_ROW = re.compile(r"^\|\s*(R-[A-Z]+-\d+)\s*\|")
#: a rule is defined where its ID opens a heading or a list, bold or table item of spec/rules.md
_RULE_DEFINED = re.compile(r"^\s*(?:#+\s*|[-*]\s*|\*\*|\|\s*)\**\s*(R-[A-Z]+-\d+)\b")


def load_register(root: Path = ROOT) -> set[str]:
    """Rule IDs of the contract's register plus any defined in spec/rules.md."""
    ids: set[str] = set()
    arch = (root / "docs" / "architecture.md").read_text(encoding="utf-8")
    for line in arch.splitlines():
        m = _REGISTER_ROW.match(line)
        if m:
            ids.add(m.group(1))
    rules = root / "spec" / "rules.md"
    if rules.exists():
        for line in rules.read_text(encoding="utf-8").splitlines():
            m = _RULE_DEFINED.match(line)
            if m:
                ids.add(m.group(1))
    return ids


def load_options(root: Path = ROOT) -> dict[str, tuple[list[str], str]]:
    """Option name -> (values, podkidnoy default) from the contract's option table."""
    opts: dict[str, tuple[list[str], str]] = {}
    arch = (root / "docs" / "architecture.md").read_text(encoding="utf-8")
    for line in arch.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[1].startswith("`"):
            continue
        name = cells[1].strip("`")
        values = re.findall(r"`([^`]+)`", cells[2])
        default = cells[3].strip("`")
        opts[name] = (values, default)
    return opts


def load_preset(name: str, root: Path = ROOT) -> dict[str, str] | None:
    """A named ruleset's option values from spec/rulesets/<name>.yaml, or None if not there yet."""
    path = root / "spec" / "rulesets" / f"{name}.yaml"
    if not path.exists():
        return None
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    if not isinstance(data, dict):
        return {}
    out: dict[str, str] = {}
    if data.get("preset"):  # a ruleset defined as another preset plus overrides
        out.update(load_preset(str(data["preset"]), root) or {})
    for key in ("options", "overrides"):
        for k, v in (data.get(key) or {}).items():
            out[str(k)] = option_str(v)
    return out


def option_str(value: Any) -> str:
    """An option value as text; YAML 1.1 readers turn bare on/off into booleans."""
    if value is True:
        return "on"
    if value is False:
        return "off"
    return str(value)


def effective_options(ruleset: Any, root: Path = ROOT) -> dict[str, str]:
    """Every option's value for a case's ruleset: defaults, then the preset, then overrides."""
    table = load_options(root)
    opts = {k: v[1] for k, v in table.items()}
    if isinstance(ruleset, str):
        ruleset = {"preset": ruleset}
    if not isinstance(ruleset, dict):
        return opts
    preset = ruleset.get("preset")
    if preset:
        values = load_preset(preset, root)
        if values:
            opts.update({k: v for k, v in values.items() if k in opts})
    for k, v in (ruleset.get("overrides") or {}).items():
        opts[str(k)] = option_str(v)
    if "options" in ruleset and isinstance(ruleset["options"], dict):
        opts.update({str(k): str(v) for k, v in ruleset["options"].items()})
    return opts
