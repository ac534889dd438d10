"""mkdocs hooks: the generated pages of the docs site, and links that leave docs/ kept working.

Two pages are generated at build time so that nothing generated is committed and they cannot go
stale: ``spec/rules.md`` is the rulebook with, under each rule, the cases that show it allowing,
forbidding and citing it; ``ambiguity-explorer.md`` lists every option of the catalog with, for each
value, what it means and the cases whose position tells it apart from the other values. Both read
the traceability index (:mod:`conformance.tools.traceability`), the same one docs/coverage.md and
the coverage gate are made from.

The pages in docs/ link to the spec as ``../spec/rules.md``, which is right when reading the
repository; the site mirrors the repository's layout (docs/ at the root, spec/ and the other
folders beside it), so such a link is rewritten to the same file's place in the site, and the file
it names is added to the site (a Markdown file as a page, anything else copied as is, a folder as a
generated listing). A link to a file the repository does not have is left alone, so
``mkdocs build --strict`` still fails on it.
"""

from __future__ import annotations

import posixpath
import re
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from mkdocs.structure.files import File, Files

#: ``[text](target)`` and ``![alt](target)`` with a target free of spaces
_LINK = re.compile(r"(\]\()([^)\s]+)(\))")
_FENCE = re.compile(r"^(```|~~~)")
_RULE_HEADING = re.compile(r"^### (R-[A-Z]+-\d+)\b.*$", re.MULTILINE)
RULES_PAGE = "spec/rules.md"
EXPLORER_PAGE = "ambiguity-explorer.md"

# site path -> repository path of every page made here (docs/ pages map by prefix)
_generated: dict[str, str] = {}


def _root(config: Any) -> Path:
    return Path(config["config_file_path"]).resolve().parent


def _coverage() -> Any:
    """The suite traced now: once per build, so `mkdocs serve` shows edited fixtures."""
    from conformance.tools.traceability import collect

    _fixture_descriptions.cache_clear()
    return collect()


def _repo_path(site_path: str) -> str:
    """The repository path of a page of the site."""
    return _generated.get(site_path, "docs/" + site_path)


def _site_path(repo_path: str) -> str:
    """Where a repository file sits in the site: docs/ at the root, everything else beside it."""
    return repo_path.removeprefix("docs/")


def _target(page_repo: str, target: str, root: Path) -> tuple[str, str] | None:
    """``(repository path, fragment)`` of a relative link to a file the repository has; None for
    links to the web, within the page, or to nothing."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith(("#", "/")):
        return None
    path, _, fragment = target.partition("#")
    repo = posixpath.normpath(posixpath.join(posixpath.dirname(page_repo), path))
    if not path or repo.startswith("..") or not (root / repo).exists():
        return None
    return repo, fragment


def _links(markdown: str) -> list[tuple[int, int, str]]:
    """``(start, end, target)`` of each link target outside fenced code blocks."""
    out, fenced, offset = [], False, 0
    for line in markdown.splitlines(keepends=True):
        if _FENCE.match(line.lstrip()):
            fenced = not fenced
        elif not fenced:
            out += [(offset + m.start(2), offset + m.end(2), m[2]) for m in _LINK.finditer(line)]
        offset += len(line)
    return out


def _rewrite(markdown: str, page_site: str, root: Path) -> str:
    page_repo = _repo_path(page_site)
    for start, end, target in reversed(_links(markdown)):
        found = _target(page_repo, target, root)
        if found is None:
            continue
        repo, fragment = found
        site = _site_path(repo)
        if (root / repo).is_dir():
            site = posixpath.join(site, "index.md")
        new = posixpath.relpath(site, posixpath.dirname(page_site) or ".")
        markdown = markdown[:start] + new + ("#" + fragment if fragment else "") + markdown[end:]
    return markdown


def _add_page(files: Files, config: Any, site: str, repo: str, content: str) -> None:
    _generated[site] = repo
    if files.get_file_from_path(site) is None:
        files.append(File.generated(config, site, content=content))


def _listing(root: Path, repo: str) -> str:
    folder = root / repo
    entries = sorted(p for p in folder.iterdir() if not p.name.startswith((".", "__")))
    lines = [f"# `{repo}/`", "", f"The files of `{repo}/` in the repository.", ""]
    lines += [f"- [`{p.name}`]({p.name}{'/index.md' if p.is_dir() else ''})" for p in entries]
    return "\n".join(lines) + "\n"


def _add_target(files: Files, config: Any, root: Path, repo: str) -> None:
    """The repository file or folder ``repo`` made part of the site, once."""
    site = _site_path(repo)
    path = root / repo
    if path.is_dir():
        index = posixpath.join(site, "index.md")
        if index in _generated:
            return
        _add_page(files, config, index, posixpath.join(repo, "index.md"), _listing(root, repo))
        for child in sorted(path.iterdir()):
            if not child.name.startswith((".", "__")):
                _add_target(files, config, root, posixpath.join(repo, child.name))
    elif path.suffix == ".md":
        if site not in _generated:
            _add_page(files, config, site, repo, path.read_text(encoding="utf-8"))
            _add_targets_of(files, config, root, site)
    elif files.get_file_from_path(site) is None:
        files.append(File.generated(config, site, abs_src_path=str(path)))


def _add_targets_of(files: Files, config: Any, root: Path, site: str) -> None:
    file = files.get_file_from_path(site)
    text = file.content_string if file is not None else ""
    for _, _, target in _links(text):
        found = _target(_repo_path(site), target, root)
        if found is not None and not found[0].startswith("docs/"):
            _add_target(files, config, root, found[0])


# ------------------------------------------------------------------ generated pages


def _code(text: str) -> str:
    return "`" + " ".join(str(text).split()).replace("`", "'") + "`"


def _case_ids(ids: list[str], where: dict[str, str]) -> str:
    return ", ".join(f"{_code(i)} ({_code(where[i].split(' (')[0])})" for i in ids) or "none"


def rules_page(root: Path, coverage: Any) -> str:
    """spec/rules.md with a block of the rule's cases under each ``### R-...`` heading."""
    text = (root / RULES_PAGE).read_text(encoding="utf-8")
    rows = {row.rule: row for row in coverage.rules}
    where = {trace.id: trace.where for trace in coverage.traces}

    def block(match: re.Match[str]) -> str:
        row = rows.get(match[1])
        if row is None:
            return match[0]
        counts = (
            f"{len(row.positive)} allowing, {len(row.negative)} forbidding, {len(row.cases)} citing"
        )
        status = "" if not row.missing else " (missing " + "; ".join(row.missing_short) + ")"
        lines = [
            match[0],
            "",
            f'??? example "Cases of {row.rule}: {counts}{status}"',
            f"    **Allowing**: {_case_ids(row.positive, where)}",
            "",
            f"    **Forbidding**: {_case_ids(row.negative, where)}",
            "",
            f"    **Citing**: {_case_ids(row.cases, where)}",
            "",
        ]
        return "\n".join(lines)

    intro = (
        '!!! info "Generated page"\n'
        "    The rulebook `spec/rules.md`, with the cases of the suite under each rule (run them "
        "with `durak-conformance run --case ID`). The cases are traced from "
        "`conformance/fixtures/` and `features/` when the site is built, as on the "
        "[coverage page](../coverage.md).\n\n"
    )
    body = _RULE_HEADING.sub(block, text)
    first = body.index("\n") + 1
    return body[:first] + "\n" + intro + body[first:]


@cache
def _fixture_descriptions(root: Path, path: str) -> dict[str, str]:
    data = yaml.safe_load((root / path).read_text(encoding="utf-8")) or {}
    return {
        case["id"]: " ".join(str(case.get("description", "")).split())
        for case in data.get("cases", [])
        if isinstance(case, dict) and "id" in case
    }


def _case_text(root: Path, trace: Any) -> str:
    """What a case says about its position: a fixture's description, a scenario's title line."""
    path, _, line = trace.where.split(" (")[0].partition(":")
    if trace.source == "fixture":
        return _fixture_descriptions(root, path).get(trace.id, "")
    lines = (root / path).read_text(encoding="utf-8").splitlines()
    number = int(line) if line.isdigit() else 0
    return lines[number - 1].strip() if 0 < number <= len(lines) else ""


def _count(cases: int) -> str:
    return f"{cases} cases tell" if cases != 1 else "1 case tells"


def _rule_links(rules: list[str], coverage: Any) -> str:
    """Rule IDs linked to their heading on the rules page (the anchor toc makes of it)."""
    from markdown.extensions.toc import slugify

    titles = coverage.spec.rules
    return ", ".join(
        f"[{rule}]({RULES_PAGE}#{slugify(f'{rule} {titles[rule]}', '-')})"
        if rule in titles
        else rule
        for rule in rules
    )


def explorer_page(root: Path, coverage: Any) -> str:
    """Every option of the catalog: its question, and per value what it allows and the cases
    whose position tells it apart."""
    catalog = yaml.safe_load((root / "spec/ambiguities.yaml").read_text(encoding="utf-8"))
    by_value: dict[tuple[str, str], list[Any]] = {}
    for trace in coverage.traces:
        for option, value in trace.options.items():
            by_value.setdefault((option, value), []).append(trace)
    out = [
        "# Ambiguity explorer",
        "",
        (
            "Every option of the ambiguity catalog (`spec/ambiguities.yaml`; the whole entries, with "
            "sources and rationale, are on the [catalog page](ambiguities.md)): the question, what "
            "each value allows, and the cases of the suite whose position tells that value apart "
            "from the others, each with what it shows there. A case runs against an engine when "
            "the engine's `hello` claims the value (`durak-conformance run --case ID`)."
        ),
        "",
    ]
    for entry in catalog["ambiguities"]:
        if entry.get("status") != "option":
            continue
        option = entry["option"]
        out += [
            f"## `{option}`",
            "",
            (
                f"{' '.join(str(entry.get('question', '')).split())} "
                f"Default: `{entry.get('default')}`. Catalog entry: "
                f"[{entry['id']}](ambiguities.md#{entry['id'].lower()}); rules: "
                f"{_rule_links(entry.get('rules') or [], coverage) or '-'}."
            ),
            "",
        ]
        for value in entry.get("options", []):
            name = str(value["name"])
            cases = by_value.get((option, name), [])
            default = " (default)" if str(entry.get("default")) == name else ""
            out += [
                f"### `{option}: {name}`{default}",
                "",
                " ".join(str(value.get("description", "")).split()),
                "",
                f'??? example "{_count(len(cases))} `{name}` apart"',
            ]
            for trace in cases:
                text = _case_text(root, trace)
                out.append(
                    f"    - {_code(trace.id)} ({_code(trace.where.split(' (')[0])})"
                    + (f": {text}" if text else "")
                )
            if not cases:
                out.append("    No case yet: the coverage gate reports this value as a gap.")
            out.append("")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ the hooks


def on_files(files: Files, config: Any) -> Files:
    """Add the generated pages and every repository file a page links to outside docs/."""
    root = _root(config)
    _generated.clear()
    coverage = _coverage()
    _add_page(files, config, RULES_PAGE, RULES_PAGE, rules_page(root, coverage))
    _add_page(files, config, EXPLORER_PAGE, "docs/" + EXPLORER_PAGE, explorer_page(root, coverage))
    for extra in ("spec/protocol.md", "spec/perft.md"):
        _add_target(files, config, root, extra)
    for file in list(files.documentation_pages()):
        _add_targets_of(files, config, root, file.src_uri)
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """Links that leave docs/ pointed at the same file's place in the site."""
    return _rewrite(markdown, page.file.src_uri, _root(config))
