"""Automatic single-point faults: the suite's score on mistakes nobody chose (issue 12 item 5).

The planted mutants of ``tools/mutants.py`` were written by people who knew the suite, so a table
of them all caught overstates its power. This tool makes faults without choosing them: every
comparison operator, boolean operator, small integer constant and ``True``/``False`` in
``reference_impl/*.py`` is a *site*; a seeded sample of sites is taken, each changed at that one
place (``<`` to ``<=``, ``==`` to ``!=``, ``and`` to ``or``, ``n`` to ``n + 1``, ...), and each
faulty copy is judged by the whole suite exactly as a planted mutant is (same builder, same
workers, same report reading).

A fault the suite does not catch is a *survivor*. Some survivors change nothing an engine
answers (an equivalent fault: a bound that is never reached, a check repeated elsewhere), so each
survivor is then compared with the reference: first in random games (``durak-conformance fuzz``
machinery, in process), then, since games only ever send the reference's own states and moves,
off the beaten track (``tools/fault_probes.py``): states one small change away from real ones
(the validator), moves the rules refuse on real positions (the diagnosis), malformed requests
(the codec and the API), observations. One answer that differs as the suite compares answers
proves the fault changes behaviour: a gap of the suite. A fault that differs only where the
protocol leaves the engine free (an error's pointer, a bad_request's rule) is reported apart and
not scored; one with no difference found is to triage by reading. The score is caught /
(caught + survivors that change behaviour).

Usage::

    python tools/faults.py --sample 40 --seed 2026        # sample, judge, print the table
    python tools/faults.py --list --sample 40 --seed 2026 # the faults only, without running
    python tools/faults.py --sample 40 --seed 2026 --only auto-x-1-compare-9,auto-y-2-constant-7
    python tools/faults.py --sample 40 --seed 2026 --only ... --no-suite  # probe known survivors

Exit status: 0 when the run completed (whatever the score), 2 for a usage error.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path


def _load_mutants():
    """tools/mutants.py (the planted mutants' builder, workers and report reading), by its path:
    the project's tests have a package named ``mutants`` too."""
    name = "durak_tools_mutants"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("mutants.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


mutants = _load_mutants()

ENGINE_DIR = mutants.ENGINE_DIR

#: comparison operators and the one each becomes
COMPARE_SWAP = {
    ast.Lt: "<=", ast.LtE: "<", ast.Gt: ">=", ast.GtE: ">",
    ast.Eq: "!=", ast.NotEq: "==", ast.In: "not in", ast.NotIn: "in",
}
#: integer constants up to this size are sites (larger ones are table data, not logic)
SMALL_INT = 64


@dataclass(frozen=True)
class Site:
    """One place a fault can be made: ``old`` at character ``at`` of ``file`` becomes ``new``."""

    file: str
    line: int
    at: int
    old: str
    new: str
    kind: str

    @property
    def id(self) -> str:
        return f"auto-{Path(self.file).stem}-{self.line}-{self.kind}-{self.at}"

    def mutant(self) -> mutants.Mutant:
        what = f"reference_impl/{self.file}:{self.line}: `{self.old}` -> `{self.new}`"
        return mutants.Mutant(self.id, "R-AUTO-0", self.file, self.old, self.new, what, self.at)


def _offsets(text: str) -> list[int]:
    """Character offset of the start of each line (index 0 is line 1)."""
    starts, total = [], 0
    for line in text.splitlines(keepends=True):
        starts.append(total)
        total += len(line)
    return starts


def _docstring_nodes(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = getattr(node, "body", [])
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def sites_in(file: str, text: str) -> list[Site]:
    """Every site of one engine file, in source order."""
    tree = ast.parse(text)
    starts = _offsets(text)
    docstrings = _docstring_nodes(tree)
    found: list[Site] = []

    def at(line: int, col: int) -> int:
        return starts[line - 1] + col

    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            lefts = [node.left, *node.comparators[:-1]]
            for left, op, right in zip(lefts, node.ops, node.comparators, strict=True):
                new = COMPARE_SWAP.get(type(op))
                if new is None or left.end_lineno != right.lineno:
                    continue
                begin, end = at(left.end_lineno, left.end_col_offset), at(right.lineno,
                                                                           right.col_offset)
                gap = text[begin:end]
                old = gap.strip()
                if old.split() != _op_text(op).split():  # a comment or a bracket between
                    continue
                offset = begin + gap.index(old)
                found.append(Site(file, left.end_lineno, offset, old, new, "compare"))
        elif isinstance(node, ast.BoolOp) and len(node.values) == 2:
            a, b = node.values
            if a.end_lineno != b.lineno:
                continue
            begin, end = at(a.end_lineno, a.end_col_offset), at(b.lineno, b.col_offset)
            gap = text[begin:end]
            old = "and" if isinstance(node.op, ast.And) else "or"
            if gap.strip() != old:
                continue
            found.append(Site(file, a.end_lineno, begin + gap.index(old), old,
                              "or" if old == "and" else "and", "boolean"))
        elif isinstance(node, ast.Constant) and id(node) not in docstrings:
            offset = at(node.lineno, node.col_offset)
            source = text[offset:at(node.end_lineno, node.end_col_offset)]
            if isinstance(node.value, bool):
                found.append(Site(file, node.lineno, offset, source, str(not node.value),
                                  "constant"))
            elif isinstance(node.value, int) and 0 <= node.value <= SMALL_INT and source.isdigit():
                found.append(Site(file, node.lineno, offset, source, str(node.value + 1),
                                  "constant"))
    return sorted(found, key=lambda s: s.at)


def _op_text(op: ast.cmpop) -> str:
    return {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==",
            ast.NotEq: "!=", ast.In: "in", ast.NotIn: "not in"}[type(op)]


def all_sites() -> list[Site]:
    found = []
    for path in sorted(ENGINE_DIR.glob("*.py")):
        found += sites_in(path.name, path.read_text(encoding="utf-8"))
    return found


def sample(seed: int, size: int) -> list[Site]:
    """``size`` sites drawn with ``seed`` from every site of the engine, in source order."""
    every = all_sites()
    chosen = random.Random(seed).sample(every, min(size, len(every)))
    return sorted(chosen, key=lambda s: (s.file, s.at))


def behaviour_differs(engine: str, root: Path, games: int, seed: int) -> bool:
    """True when random games show the faulty copy disagreeing with the reference."""
    from conformance.engines.base import InProcessEngine
    from conformance.engines.factory import make_engine
    from conformance.tools.fuzz import FuzzConfig, Fuzzer

    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    candidate = make_engine(engine)
    reference = InProcessEngine()
    try:
        config = FuzzConfig(games=games, seed=seed, rulesets=[], players=[], probes=2,
                            max_moves=400, deal="deck", vary_options=True)
        fuzzer = Fuzzer(reference, candidate, config)
        if fuzzer.greet():
            return True  # the copy cannot even greet: that is a difference
        report = fuzzer.run()
        return bool(report.findings or report.gave_up)
    finally:
        candidate.close()
        reference.close()


def _fault_engine(package: str, root: Path):
    """The engine of the faulty copy ``package`` built under ``root``, in process."""
    import importlib

    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    return importlib.import_module(f"{package}._engine").make()


def _load_probes():
    """tools/fault_probes.py, by its path (tools/ is no package)."""
    name = "durak_tools_fault_probes"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            name, Path(__file__).with_name("fault_probes.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def triage(fault: mutants.Mutant, root: Path, games: int, seed: int, prober) -> tuple[str, str]:
    """(verdict, what shows it) for a survivor: ``gap`` (some answer differs as the suite
    compares answers), ``weak`` (only a pointer or a bad_request rule differs) or ``same``."""
    if behaviour_differs(f"python:{fault.package}._engine:make", root, games, seed):
        return "gap", f"random games ({games}) disagree"
    engine = _fault_engine(fault.package, root)
    try:
        found = prober.first_difference(engine)
    finally:
        engine.close()
    if found is None:
        return "same", f"no difference in {games} games nor in the probes"
    return ("weak" if found.weak else "gap"), found.describe()


def select(chosen: list[Site], only: str | None) -> list[Site]:
    """The sampled faults named in ``only`` (comma-separated IDs); SystemExit naming any that is
    not in the sample."""
    if not only:
        return chosen
    wanted = [i.strip() for i in only.split(",") if i.strip()]
    known = {s.id: s for s in chosen}
    unknown = [i for i in wanted if i not in known]
    if unknown:
        raise SystemExit(f"faults: not in this sample: {', '.join(unknown)} (see --list with the "
                         "same --sample and --seed)")
    return [known[i] for i in wanted]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python tools/faults.py", description=__doc__.split(
        "\n\n")[0])
    parser.add_argument("--sample", type=int, default=40, help="faults to draw (default 40)")
    parser.add_argument("--seed", type=int, default=2026, help="the sample's seed")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--games", type=int, default=30,
                        help="random games to look for a difference in each survivor")
    parser.add_argument("--list", action="store_true", help="list the sampled faults and exit")
    parser.add_argument("--only", metavar="IDS",
                        help="judge only these faults of the sample (comma-separated IDs)")
    parser.add_argument("--no-suite", action="store_true",
                        help="the faults are known survivors: skip the suite, only look for a "
                             "behaviour change")
    parser.add_argument("--keep", metavar="DIR", help="keep the copies and reports in DIR")
    args = parser.parse_args(argv)
    if args.sample < 1 or args.jobs < 1:
        print("faults: --sample and --jobs must be at least 1", file=sys.stderr)
        return 2
    chosen = sample(args.seed, args.sample)
    print(f"{len(all_sites())} sites in reference_impl; {len(chosen)} sampled with seed "
          f"{args.seed}", file=sys.stderr)
    chosen = select(chosen, args.only)
    if args.list:
        for site in chosen:
            print(f"{site.id}  {site.mutant().what}")
        return 0
    root = Path(args.keep).resolve() if args.keep else None
    if root is not None:
        root.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    faults = [site.mutant() for site in chosen]
    import tempfile

    root = root or Path(tempfile.mkdtemp(prefix="durak-faults-"))
    if args.no_suite:
        for fault in faults:
            mutants.build(fault, root)
        judged = [None] * len(faults)
    else:
        verdicts = mutants.run_all(faults, jobs=args.jobs, root=root, scope="suite")
        control, judged = verdicts[0], verdicts[1:]
        if not control.ok:
            print(f"faults: the unpatched copy does not pass: {control.status}", file=sys.stderr)
            return 2
    prober = None
    rows, notes, caught, gaps, weak, same, broken = [], [], 0, [], [], [], 0
    for fault, verdict in zip(faults, judged, strict=True):
        if verdict is not None and verdict.problem:
            broken += 1
            rows.append(f"| `{fault.id}` | {fault.what} | broken run ({verdict.problem}) |")
            continue
        if verdict is not None and verdict.caught:
            caught += 1
            rows.append(f"| `{fault.id}` | {fault.what} | caught ({len(verdict.failing)} "
                        "failing) |")
            continue
        if prober is None:
            prober = _load_probes().Prober(games=args.games, seed=args.seed)
        kind, shown = triage(fault, root, args.games, args.seed, prober)
        {"gap": gaps, "weak": weak, "same": same}[kind].append(fault)
        status = {"gap": "SURVIVED, changes behaviour",
                  "weak": "survived, differs only where the protocol leaves it open",
                  "same": "survived, no difference found"}[kind]
        survivor = "survivor" if verdict is not None else "known survivor (suite not run)"
        rows.append(f"| `{fault.id}` | {fault.what} | {status} |")
        notes.append(f"- `{fault.id}` ({survivor}): {shown}")
    scored = caught + len(gaps)
    print("| fault | change | verdict |\n|---|---|---|")
    print("\n".join(rows))
    if notes:
        print("\nsurvivors:\n" + "\n".join(notes))
    score = f"{caught}/{scored} = {100 * caught / scored:.0f}%" if scored else "n/a"
    print(f"\nscore: {score} of the faults that change behaviour caught; "
          f"{len(gaps)} survivors change behaviour, {len(weak)} differ only in a pointer or a "
          f"bad_request rule, {len(same)} with no difference found, {broken} broken run(s); "
          f"{time.perf_counter() - started:.0f} s on {args.jobs} worker(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
