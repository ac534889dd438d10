"""Expected-failure lists: the cases an engine knows it fails, and why.

A list is a YAML mapping from case ID (of any form: a fixture, a Gherkin scenario, a game
record, a perft position) to the expected failure reason (the ``signature`` the runner
prints with every failure, e.g. ``"step 2 refuse: accepted"``), or null for "fails, any reason".
A listed reason matches when the actual signature starts with it, so ``"step 2"`` accepts any
failure at step 2. The check is strict both ways (protobuf's conformance lists): a listed case
that passes, or fails for another reason, is reported and fails the run, so the list never goes
stale silently. ``--durak-update-xfail`` rewrites the list from the run.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

HEADER = """\
# Expected failures for durak-conformance (--durak-xfail / run --xfail).
# case id: the failure signature the runner reports (a prefix matches), or null for any failure.
# Rewritten by --durak-update-xfail / run --update-xfail: edit reasons freely, keep the ids.
"""


class XfailFileError(ValueError):
    """The list cannot be read; the message names the file and line."""


@dataclass(frozen=True)
class Verdict:
    """How a case's result stands against the list."""

    outcome: str  # "xfailed", "xpassed" (listed, passed), "mismatch" (listed, failed otherwise)
    reason: str


class XfailList:
    """The entries of one list file (empty when the file does not exist yet)."""

    def __init__(self, path: Path | str, entries: dict[str, str | None] | None = None):
        self.path = Path(path)
        self.entries: dict[str, str | None] = dict(entries or {})

    @classmethod
    def load(cls, path: Path | str, *, missing_ok: bool = False) -> XfailList:
        from reference_impl.specdata import SpecDataError, line_of, load_yaml

        path = Path(path)
        if not path.exists():
            if missing_ok:
                return cls(path)
            raise XfailFileError(f"{path}: the expected-failure list does not exist")
        try:
            document = load_yaml(path)
        except SpecDataError as exc:
            raise XfailFileError(str(exc)) from None
        if document is None:
            return cls(path)
        if not isinstance(document, dict):
            raise XfailFileError(f"{path}:1: an expected-failure list maps case ids to reasons")
        entries: dict[str, str | None] = {}
        for key, value in document.items():
            line = line_of(document, [key])
            if not isinstance(key, str):
                raise XfailFileError(f"{path}:{line}: case id {key!r} must be a string")
            if value is not None and not isinstance(value, str):
                raise XfailFileError(
                    f"{path}:{line}: the reason for {key} must be a string or null, "
                    f"got {type(value).__name__}"
                )
            entries[key] = value
        return cls(path, entries)

    def __contains__(self, case_id: str) -> bool:
        return case_id in self.entries

    def judge(self, case_id: str, failed: bool, signature: str | None) -> Verdict | None:
        """None when the case is not listed; else how its result compares with the entry."""
        if case_id not in self.entries:
            return None
        expected = self.entries[case_id]
        if not failed:
            return Verdict(
                "xpassed",
                f"listed as an expected failure ({expected or 'any reason'}) but it passes; "
                "remove it from the list (or run with --durak-update-xfail)",
            )
        actual = signature or ""
        if expected is None or actual.startswith(expected):
            return Verdict("xfailed", actual or "expected failure")
        return Verdict(
            "mismatch",
            f"listed as failing with {expected!r} but it fails with {actual!r}; "
            "update the reason (or run with --durak-update-xfail)",
        )

    def updated(self, results: dict[str, tuple[bool, str | None] | None]) -> XfailList:
        """A new list after a run. ``results`` maps each case the run judged to (failed,
        signature), or to None when it told nothing (unsupported, not run); cases outside the
        run keep their entries."""
        entries = dict(self.entries)
        for case_id, result in results.items():
            if result is None:
                continue
            failed, signature = result
            if failed:
                old = entries.get(case_id)
                keep = old is not None and signature is not None and signature.startswith(old)
                entries[case_id] = old if keep else signature
            else:
                entries.pop(case_id, None)
        return XfailList(self.path, entries)

    def dump(self) -> str:
        import yaml

        body = ""
        for case_id in sorted(self.entries):
            value = self.entries[case_id]
            text = "null" if value is None else yaml.safe_dump(value, width=10_000).strip()
            text = text.removesuffix("\n...").strip()
            body += f"{case_id}: {text}\n"
        return HEADER + body

    def save(self) -> None:
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(self.dump(), encoding="utf-8")
        tmp.replace(self.path)

    def as_json(self) -> dict[str, Any]:
        return dict(self.entries)
