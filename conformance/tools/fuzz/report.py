"""The totals of a fuzz campaign and their text.

A campaign keeps one finding per cause (signature), the one reached after the fewest moves, and
counts how often each cause was met: the text lists the causes most frequent first, because the
cause met in most games is usually the one to fix first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from conformance.tools.findings import Finding


@dataclass
class FuzzReport:
    """Totals of a fuzz run and the findings kept (one per signature, the shallowest)."""

    seed: int
    games: int = 0
    finished: int = 0
    #: games with at least one disagreement (each game goes on from the reference's state)
    stopped: int = 0
    #: how many times each root cause (finding signature) was met, over every game
    causes: dict[str, int] = field(default_factory=dict)
    capped: int = 0
    moves: int = 0
    probes: int = 0
    elapsed: float = 0.0
    findings: dict[str, Finding] = field(default_factory=dict)
    paths: dict[str, Path] = field(default_factory=dict)
    reproduces: dict[str, str] = field(default_factory=dict)
    reference_problems: list[str] = field(default_factory=list)
    gave_up: str | None = None
    combos: list[tuple[str, int]] = field(default_factory=list)

    @property
    def games_per_second(self) -> float:
        return self.games / self.elapsed if self.elapsed else 0.0


def format_report(report: FuzzReport) -> str:
    lines = []
    if report.gave_up:
        lines.append(f"stopped: {report.gave_up}")
    ranked = sorted(report.findings.items(), key=lambda item: -report.causes.get(item[0], 1))
    if ranked:
        met = sum(report.causes.values())
        lines.append(f"{len(ranked)} cause(s) of {met} disagreement(s), most frequent first:")
    for signature, finding in ranked:
        path = report.paths.get(signature)
        repro = report.reproduces.get(signature)
        lines.append(
            f"  {report.causes.get(signature, 1)} x [{signature}] {', '.join(finding.rules)}: "
            f"shallowest in game {finding.game}, {finding.depth} moves deep"
            + (f": {path}" if path else "")
            + (f" (reproduces: {repro})" if repro else "")
        )
    for problem in report.reference_problems[:10]:
        lines.append(f"reference problem: {problem}")
    lines.append(
        f"{report.games} game(s) ({report.finished} finished, {report.stopped} with a "
        f"disagreement, {report.capped} cut at the move cap), {report.moves} moves, "
        f"{report.probes} probes, {len(report.findings)} finding(s) "
        f"in {report.elapsed:.1f} s ({report.games_per_second:.2f} games/s)"
    )
    return "\n".join(lines)
