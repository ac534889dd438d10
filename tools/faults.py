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

A fault may make the engine loop or eat memory. Each fault's suite run has a time limit (five
times the unfaulted copy's run, at least a minute, or ``--fault-seconds``) and each worker a
memory limit; a worker past its limit is killed, one that dies takes only its current fault with
it, and fresh workers take the rest. A fault that hung or crashed in process is then judged as a
real engine is: the suite up to its first failure with the copy served as a process
(``durak-conformance serve``), where the runner's per-request timeout and crash detection
apply; it counts as caught only if that run fails. A survivor's games and probes have a limit
too (``--triage-seconds``): a copy that hangs or dies on the reference's own questions is a gap.

Usage::

    python tools/faults.py --sample 40 --seed 2026        # sample, judge, print the table
    python tools/faults.py --list --sample 40 --seed 2026 # the faults only, without running
    python tools/faults.py --sample 40 --seed 2026 --only auto-x-1-compare-9,auto-y-2-constant-7
    python tools/faults.py --sample 40 --seed 2026 --only ... --no-suite  # probe known survivors
    python tools/faults.py --sample 160 --seed 7919 --fault-seconds 120    # a fixed time limit

Exit status: 0 when the run completed (whatever the score), 2 for a usage error.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import os
import random
import selectors
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from conformance.pytest_plugin import INCOMPLETE_EXIT, UNUSABLE_EXIT


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


def triage(package: str, root: Path, games: int, seed: int, prober) -> tuple[str, str]:
    """(verdict, what shows it) for the survivor built as ``package``: ``gap`` (some answer
    differs as the suite compares answers), ``weak`` (only a pointer or a bad_request rule
    differs) or ``same``."""
    if behaviour_differs(f"python:{package}._engine:make", root, games, seed):
        return "gap", f"random games ({games}) disagree"
    engine = _fault_engine(package, root)
    try:
        found = prober.first_difference(engine)
    finally:
        engine.close()
    if found is None:
        return "same", f"no difference in {games} games nor in the probes"
    return ("weak" if found.weak else "gap"), found.describe()


# --------------------------------------------------------------------------- time-limited workers

#: a worker's answer line starts with this (the suite's own output may share the pipe)
MARK = "@@fault "
#: a run's exit statuses that are verdicts, not broken runs (conformance.pytest_plugin): the
#: runner found the engine unusable (its hello refused, or it cannot start), which fails the run
#: as surely as a failing case; or the run is incomplete, nothing failing but too few cases
#: inside the hello's claim, which is an engine claiming less than it plays (P-16 allows it)
UNUSABLE_WORDS = "the run stops, the engine is unusable (its hello refused, or it cannot start)"
#: address space a worker (and the engine processes of a confirmation run) may take: a fault that
#: allocates without end (a loop appending moves) dies of MemoryError in its own process, which
#: is judged as a crash, instead of exhausting the shared machine
MEMORY_BYTES = 4 << 30
#: the per-fault time limit is this many times the unfaulted copy's suite run ...
LIMIT_FACTOR = 5
#: ... and never below this many seconds (a loaded machine slows every run alike)
LIMIT_FLOOR = 60.0


def _limit_memory() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))


@dataclass
class Outcome:
    """How one task given to a worker ended: ``done`` (``result`` is what the worker answered),
    ``hung`` (killed at its time limit) or ``crashed`` (the worker died during it)."""

    task: str
    status: str
    seconds: float
    result: object = None
    detail: str = ""


@dataclass
class _Worker:
    proc: subprocess.Popen
    log: Path
    buffer: bytes = b""
    task: str | None = None
    started: float = 0.0
    ready: bool = False  # the worker said so once its imports were done

    def send(self, task: str) -> None:
        self.task, self.started = task, time.monotonic()
        self.proc.stdin.write(task.encode() + b"\n")
        self.proc.stdin.flush()

    def lines(self, chunk: bytes) -> list[str]:
        self.buffer += chunk
        *whole, self.buffer = self.buffer.split(b"\n")
        return [line.decode("utf-8", "replace") for line in whole]

    def kill(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)  # the worker and any engine it started
        except ProcessLookupError:
            pass
        self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):
            try:
                pipe.close()
            except OSError:
                pass

    def last_words(self) -> str:
        """Why the worker died: a MemoryError, else the last line it wrote to stderr, else its
        exit status."""
        status = self.proc.poll()
        text = self.log.read_text(encoding="utf-8", errors="replace") if self.log.is_file() else ""
        if "MemoryError" in text:
            return f"MemoryError (more than {MEMORY_BYTES >> 30} GB), exit status {status}"
        tail = [s.strip() for s in text.splitlines() if s.strip()][-1:]
        return tail[0] if tail else f"exit status {status}"


def run_tasks(tasks: list[str], argv: list[str], *, jobs: int, limit: float, env: dict,
              cwd: Path, logs: Path, on_done=None) -> dict[str, Outcome]:
    """Hand ``tasks`` one at a time to up to ``jobs`` workers started as ``argv`` (each says
    ``{"ready": true}`` on a :data:`MARK` line once started, then reads a task a line on stdin
    and answers ``{"task": ..., "result": ...}`` on a :data:`MARK` line); every task gets an
    :class:`Outcome`. A worker past ``limit`` seconds on one task is killed and the task is
    ``hung``; a worker that dies takes only its current task with it (``crashed``). Either way a
    fresh worker takes the rest, so one fault never costs the run."""
    pending = list(tasks)
    outcomes: dict[str, Outcome] = {}
    selector = selectors.DefaultSelector()
    workers: list[_Worker] = []
    idle_deaths = 0

    def spawn() -> None:
        log = logs / f"worker-{len(outcomes)}-{len(workers)}-{time.monotonic_ns()}.err"
        with open(log, "wb") as err:
            proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=err, env=env, cwd=str(cwd), start_new_session=True,
                                    preexec_fn=_limit_memory)  # noqa: PLW1509 (no threads)
        worker = _Worker(proc, log)
        selector.register(proc.stdout, selectors.EVENT_READ, worker)
        workers.append(worker)

    def finish(worker: _Worker, status: str, result=None, detail: str = "") -> None:
        outcome = Outcome(worker.task, status, time.monotonic() - worker.started, result, detail)
        outcomes[worker.task] = outcome
        worker.task = None
        if on_done is not None:
            on_done(outcome)

    def retire(worker: _Worker) -> None:
        selector.unregister(worker.proc.stdout)
        worker.kill()
        workers.remove(worker)
        if pending and len(workers) < jobs:
            spawn()

    def died_idle(worker: _Worker) -> None:
        """A worker that died before it was ready or between tasks: no task is to blame, but a
        worker that cannot start stops the run instead of judging every fault a crash."""
        nonlocal idle_deaths
        idle_deaths += 1
        if idle_deaths > jobs + 2:
            raise RuntimeError(f"fault workers die before any task: {worker.last_words()} "
                               f"({worker.log})")
        retire(worker)

    try:
        for _ in range(min(jobs, len(pending))):
            spawn()
        while pending or any(w.task for w in workers):
            for worker in workers.copy():
                if worker.ready and worker.task is None and pending:
                    task = pending.pop(0)
                    try:
                        worker.send(task)
                    except OSError:  # died between tasks: the next task is not to blame
                        pending.insert(0, task)
                        worker.task = None
                        died_idle(worker)
            busy = [w for w in workers if w.task]
            wait = min((w.started + limit for w in busy), default=time.monotonic() + 1)
            for key, _ in selector.select(max(0.0, wait - time.monotonic())):
                worker = key.data
                chunk = os.read(key.fd, 1 << 16)
                if not chunk:  # the worker is gone
                    worker.proc.wait()
                    if worker.task:
                        finish(worker, "crashed", detail=f"the worker died: {worker.last_words()}")
                        retire(worker)
                    else:
                        died_idle(worker)
                    continue
                for line in worker.lines(chunk):
                    if line.startswith(MARK):
                        answer = json.loads(line[len(MARK):])
                        if answer.get("ready"):
                            worker.ready = True
                        elif answer.get("task") == worker.task:
                            finish(worker, "done", answer.get("result"))
            now = time.monotonic()
            for worker in workers.copy():
                if worker.task and now - worker.started > limit:
                    finish(worker, "hung", detail=f"no answer within {limit:.0f} s")
                    retire(worker)
    finally:
        for worker in workers.copy():
            selector.unregister(worker.proc.stdout)
            try:
                worker.proc.stdin.close()  # end of tasks: the worker's loop ends
                worker.proc.wait(timeout=30)
            except (OSError, subprocess.TimeoutExpired):
                pass
            worker.kill()
        selector.close()
    return outcomes


def _worker_argv(root: Path, kind: str, games: int, seed: int) -> list[str]:
    return [sys.executable, str(Path(__file__).resolve()), "_worker", kind, str(root),
            str(games), str(seed)]


def _worker_env(root: Path) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(root), str(mutants.ROOT)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    return env


def _package(task: str) -> str:
    return mutants.PACKAGE_PREFIX + task.replace("-", "_")


def worker(kind: str, root: Path, games: int, seed: int) -> int:
    """Read fault IDs (or ``control``) from stdin, one a line; for each, ``suite``: run the whole
    suite on its copy with a JSON report under ``root/reports``; ``triage``: look for a behaviour
    change. Answer one :data:`MARK` line per task."""
    import contextlib
    import io

    out = sys.stdout
    sys.path.insert(0, str(root))
    prober = None
    if kind == "suite":
        import pytest

        mutants._cache_fixture_files()
    out.write(MARK + json.dumps({"ready": True}) + "\n")
    out.flush()
    for line in sys.stdin:
        task = line.strip()
        if not task:
            continue
        started = time.perf_counter()
        log = io.StringIO()
        with contextlib.redirect_stdout(log):
            if kind == "suite":
                report = root / "reports" / f"{task}.jsonl"
                pytest.main(mutants._suite_argv(f"python:{_package(task)}._engine:make", report))
                result = {"seconds": time.perf_counter() - started}
            else:
                if prober is None:
                    prober = _load_probes().Prober(games=games, seed=seed)
                result = list(triage(_package(task), root, games, seed, prober))
        (root / "reports" / f"{task}.{kind}.log").write_text(log.getvalue(), encoding="utf-8")
        out.write(MARK + json.dumps({"task": task, "result": result}) + "\n")
        out.flush()
    return 0


def through_serve(fault: mutants.Mutant, root: Path, seconds: float) -> tuple[bool | None, str]:
    """Judge a fault that hung or crashed in process as a real engine is judged: the suite, up to
    its first failure, on the copy served as a process (``durak-conformance serve``), where the
    runner's per-request timeout and crash detection apply. (True, the first failing case) when
    the suite fails it; (False, ...) when it passes; (None, why) when even that gives no verdict
    within ``seconds``."""
    report = root / "reports" / f"{fault.id}.serve.jsonl"
    report.unlink(missing_ok=True)
    cli = [sys.executable, "-m", "conformance"]
    served = " ".join(cli + ["serve", "--engine", f"python:{fault.package}._engine:make"])
    argv = cli + ["run", "--engine", served, "-x", "--min-share", "0", "--json", str(report)]
    with open(root / "reports" / f"{fault.id}.serve.log", "wb") as log:
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=_worker_env(root),
                                cwd=str(root), start_new_session=True, preexec_fn=_limit_memory)  # noqa: PLW1509 (no threads)
        try:
            proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return None, f"no verdict through serve within {seconds:.0f} s either"
    verdict = mutants.read_verdict(fault, report, seconds)
    if verdict.exitstatus == UNUSABLE_EXIT:
        return True, f"through serve {UNUSABLE_WORDS} ({verdict.exitstatus})"
    if verdict.problem:
        return None, f"through serve: {verdict.problem}"
    if not verdict.failing:
        return False, f"through serve the suite passes ({verdict.total} cases)"
    first = verdict.failing[0]
    return True, f"through serve `{first.get('id')}` {first.get('outcome')}: " + str(
        first.get("signature") or first.get("message") or "")[:120]


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


def _progress(total: int):
    """A callback printing one line per finished task on stderr (a long run is watched by it)."""
    count = [0]

    def show(outcome: Outcome) -> None:
        count[0] += 1
        extra = f" ({outcome.detail})" if outcome.detail else ""
        print(f"[{count[0]}/{total}] {outcome.task}: {outcome.status} in {outcome.seconds:.0f} s"
              f"{extra}", file=sys.stderr, flush=True)

    return show


def judge_suite(faults: list[mutants.Mutant], root: Path, jobs: int,
                fault_seconds: float | None) -> dict:
    """The suite's verdict on each fault, by ID: ``("verdict", Verdict)`` for a run that ended,
    ``("hung" | "crashed", detail, caught)`` for one that did not, where ``caught`` is the verdict
    through serve (:func:`through_serve`: True, False or None for none). SystemExit when the
    unfaulted copy does not pass."""
    env, logs = _worker_env(root), root / "reports"
    suite = _worker_argv(root, "suite", 0, 0)
    ran = run_tasks([mutants.CONTROL], suite, jobs=1, limit=fault_seconds or 3600.0, env=env,
                    cwd=root, logs=logs)[mutants.CONTROL]
    control = mutants.read_verdict(None, logs / f"{mutants.CONTROL}.jsonl", ran.seconds)
    if ran.status != "done" or not control.ok:
        raise SystemExit(f"faults: the unpatched copy does not pass: {ran.status} "
                         f"{ran.detail or control.status}")
    limit = fault_seconds or max(LIMIT_FLOOR, LIMIT_FACTOR * ran.seconds)
    print(f"unfaulted copy: {ran.seconds:.0f} s; limit per fault: {limit:.0f} s", file=sys.stderr)
    outcomes = run_tasks([f.id for f in faults], suite, jobs=jobs, limit=limit, env=env, cwd=root,
                         logs=logs, on_done=_progress(len(faults)))
    judged = {}
    for fault in faults:
        outcome = outcomes[fault.id]
        if outcome.status == "done":
            judged[fault.id] = ("verdict", mutants.read_verdict(
                fault, logs / f"{fault.id}.jsonl", outcome.seconds))
            continue
        caught, shown = through_serve(fault, root, max(600.0, 10 * limit))
        print(f"{fault.id}: {outcome.status} in process; {shown}", file=sys.stderr, flush=True)
        judged[fault.id] = (outcome.status, f"{outcome.detail}; {shown}", caught)
    return judged


def judge_survivors(faults: list[mutants.Mutant], root: Path, jobs: int, games: int, seed: int,
                    seconds: float) -> dict[str, tuple[str, str]]:
    """(kind, what shows it) for each survivor (:func:`triage`), each in a time-limited worker.
    A copy that hangs or crashes where the reference answers (the games and probes are the
    reference's questions) is a ``gap``: through serve it would time out or die there."""
    outcomes = run_tasks([f.id for f in faults], _worker_argv(root, "triage", games, seed),
                         jobs=jobs, limit=seconds, env=_worker_env(root), cwd=root,
                         logs=root / "reports", on_done=_progress(len(faults)))
    found = {}
    for fault in faults:
        outcome = outcomes[fault.id]
        if outcome.status == "done":
            found[fault.id] = tuple(outcome.result)
        else:
            shown = (f"the copy {outcome.status} in the games and probes ({outcome.detail}) "
                     "where the reference answers")
            found[fault.id] = ("gap", shown)
    return found


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["_worker"]:
        return worker(argv[1], Path(argv[2]), int(argv[3]), int(argv[4]))
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
    parser.add_argument("--fault-seconds", type=float, metavar="S",
                        help=f"time limit of one fault's suite run (default {LIMIT_FACTOR} times "
                             f"the unfaulted copy's, at least {LIMIT_FLOOR:.0f} s)")
    parser.add_argument("--triage-seconds", type=float, default=600.0, metavar="S",
                        help="time limit of one survivor's games and probes (default 600)")
    parser.add_argument("--keep", metavar="DIR", help="keep the copies and reports in DIR")
    args = parser.parse_args(argv)
    if args.sample < 1 or args.jobs < 1:
        print("faults: --sample and --jobs must be at least 1", file=sys.stderr)
        return 2
    for name in ("fault_seconds", "triage_seconds"):
        if getattr(args, name) is not None and getattr(args, name) <= 0:
            print(f"faults: --{name.replace('_', '-')} must be positive", file=sys.stderr)
            return 2
    chosen = sample(args.seed, args.sample)
    print(f"{len(all_sites())} sites in reference_impl; {len(chosen)} sampled with seed "
          f"{args.seed}", file=sys.stderr)
    chosen = select(chosen, args.only)
    if args.list:
        for site in chosen:
            print(f"{site.id}  {site.mutant().what}")
        return 0
    import tempfile

    started = time.perf_counter()
    root = Path(args.keep).resolve() if args.keep else Path(tempfile.mkdtemp(
        prefix="durak-faults-"))
    root.mkdir(parents=True, exist_ok=True)
    faults = [site.mutant() for site in chosen]
    mutants.build_all(faults, root)
    (root / "reports").mkdir(exist_ok=True)
    for stale in (root / "reports").glob("*"):
        stale.unlink()
    judged = {} if args.no_suite else judge_suite(faults, root, args.jobs, args.fault_seconds)
    rows = {}
    for fault in faults:
        how = judged.get(fault.id)
        if how is None:
            continue
        if how[0] == "verdict":
            verdict = how[1]
            if verdict.exitstatus == UNUSABLE_EXIT:
                rows[fault.id] = ("caught", f"caught: {UNUSABLE_WORDS}")
            elif verdict.exitstatus == INCOMPLETE_EXIT:
                less = "claims less: the run is incomplete (too few cases inside its claim ran)"
                rows[fault.id] = ("less", less)
            elif verdict.problem:
                rows[fault.id] = ("broken", f"broken run ({verdict.problem})")
            elif verdict.caught:
                rows[fault.id] = ("caught", f"caught ({len(verdict.failing)} failing)")
            continue
        status, detail, caught = how
        if caught:
            rows[fault.id] = (status, f"caught: {status} in process; {detail}")
        elif caught is None:
            rows[fault.id] = ("broken", f"{status} in process, no verdict: {detail}")
    survivors = [f for f in faults if f.id not in rows]
    found = judge_survivors(survivors, root, args.jobs, args.games, args.seed,
                            args.triage_seconds) if survivors else {}
    notes = []
    for fault in survivors:
        kind, shown = found[fault.id]
        rows[fault.id] = (kind, {"gap": "SURVIVED, changes behaviour",
                                 "weak": "survived, differs only where the protocol leaves it "
                                         "open",
                                 "same": "survived, no difference found"}[kind])
        survivor = "survivor" if judged else "known survivor (suite not run)"
        notes.append(f"- `{fault.id}` ({survivor}): {shown}")
    kinds = [rows[f.id][0] for f in faults]
    caught = sum(k in ("caught", "hung", "crashed") for k in kinds)
    gaps = kinds.count("gap")
    print("| fault | change | verdict |\n|---|---|---|")
    print("\n".join(f"| `{f.id}` | {f.what} | {rows[f.id][1]} |" for f in faults))
    if notes:
        print("\nsurvivors:\n" + "\n".join(notes))
    scored = caught + gaps
    score = f"{caught}/{scored} = {100 * caught / scored:.0f}%" if scored else "n/a"
    print(f"\nscore: {score} of the faults that change behaviour caught "
          f"({kinds.count('hung')} by a hang, {kinds.count('crashed')} by a crash, each "
          f"confirmed through serve); {gaps} survivors change behaviour, {kinds.count('weak')} "
          f"differ only in a pointer or a bad_request rule, {kinds.count('same')} with no "
          f"difference found, {kinds.count('less')} claim(s) less than the copy plays "
          f"(P-16 allows it; out of the figure), {kinds.count('broken')} broken run(s); "
          f"{time.perf_counter() - started:.0f} s on {args.jobs} worker(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
