"""Where the specification's data files live.

The spec (`spec/` at the repository root) is the single source of truth for option names, rulesets
and schemas. In a checkout or an editable install it sits next to the package; in a built wheel
pyproject force-includes it as `reference_impl/_spec`. Everything that reads spec data asks this
module for the path, so the two layouts behave the same.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


class SpecDataNotFound(FileNotFoundError):
    """The spec directory is missing: neither a checkout's `spec/` nor the wheel's `_spec`."""


def _looks_like_spec(path: Path) -> bool:
    return (path / "ambiguities.yaml").is_file() and (path / "rulesets").is_dir()


@cache
def spec_dir() -> Path:
    """The directory holding `rules.md`, `ambiguities.yaml`, `rulesets/` and `schema/`.

    Looks first at the repository's `spec/` beside the package (checkout, editable install), then
    at the copy packed into the wheel (`reference_impl/_spec`).
    """
    candidates = [_PACKAGE_DIR.parent / "spec", _PACKAGE_DIR / "_spec"]
    for candidate in candidates:
        if _looks_like_spec(candidate):
            return candidate
    looked = ", ".join(str(c) for c in candidates)
    raise SpecDataNotFound(
        f"spec data not found (looked in {looked}); install the package from a checkout or a "
        "wheel that includes the spec"
    )


def ambiguities_path() -> Path:
    """Path of the ambiguity catalog, `ambiguities.yaml`."""
    return spec_dir() / "ambiguities.yaml"


def rulesets_dir() -> Path:
    """Directory of the named rulesets (`<name>.yaml`)."""
    return spec_dir() / "rulesets"


def schema_dir() -> Path:
    """Directory of the JSON Schemas (`*.schema.json`)."""
    return spec_dir() / "schema"


def schema_path(name: str) -> Path:
    """Path of one schema, e.g. `schema_path("ruleset")` -> `.../schema/ruleset.schema.json`."""
    return schema_dir() / f"{name}.schema.json"


def rules_path() -> Path:
    """Path of the normative prose, `rules.md`."""
    return spec_dir() / "rules.md"


# --------------------------------------------------------------------------- YAML with line numbers


class SpecDataError(ValueError):
    """Spec data (a YAML file or an in-memory ruleset) is malformed.

    `where` says where: `path:line` for files, a JSON pointer for in-memory data. The message
    always starts with it so a user can jump to the spot.
    """

    def __init__(self, where: str, message: str):
        self.where = where
        self.detail = message
        super().__init__(f"{where}: {message}" if where else message)


class LineDict(dict):
    """A YAML mapping that remembers the 1-based line of itself and of each key."""

    line: int = 0

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.key_lines: dict = {}


class LineList(list):
    """A YAML sequence that remembers the 1-based line of itself and of each item."""

    line: int = 0

    def __init__(self, *args):
        super().__init__(*args)
        self.item_lines: list[int] = []


def _make_loader():
    import re

    import yaml

    class LineLoader(_base_loader(yaml)):
        """SafeLoader that records line numbers and reads booleans the YAML 1.2 way.

        YAML 1.1 (PyYAML's default) reads unquoted `on`/`off`/`yes`/`no` as booleans; option values
        such as `transfer: on` must stay strings, so only `true`/`false` are booleans here.
        """

    bool_tag = "tag:yaml.org,2002:bool"
    LineLoader.yaml_implicit_resolvers = {
        first: [(tag, rx) for tag, rx in resolvers if tag != bool_tag]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    LineLoader.add_implicit_resolver(
        bool_tag, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
    )

    def construct_map(loader, node):
        loader.flatten_mapping(node)
        mapping = LineDict()
        mapping.line = node.start_mark.line + 1
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            line = key_node.start_mark.line + 1
            try:
                hash(key)
            except TypeError:
                raise yaml.constructor.ConstructorError(
                    None, None, "a mapping key must be a plain value", key_node.start_mark
                ) from None
            if key in mapping:
                raise yaml.constructor.ConstructorError(
                    None, None,
                    f"duplicate key {key!r} (first at line {mapping.key_lines[key]})",
                    key_node.start_mark,
                )
            mapping[key] = loader.construct_object(value_node, deep=True)
            mapping.key_lines[key] = line
        return mapping

    def construct_seq(loader, node):
        seq = LineList(loader.construct_object(child, deep=True) for child in node.value)
        seq.line = node.start_mark.line + 1
        seq.item_lines = [child.start_mark.line + 1 for child in node.value]
        return seq

    LineLoader.add_constructor("tag:yaml.org,2002:map", construct_map)
    LineLoader.add_constructor("tag:yaml.org,2002:seq", construct_seq)
    return LineLoader


#: the deepest nesting of mappings and sequences a YAML file may have
MAX_YAML_DEPTH = 64
#: how many nodes all the aliases of one YAML file may stand for together (an alias repeats its
#: anchor's node and everything under it; nine aliases of nine aliases of ... is a "billion
#: laughs" bomb that a half-kilobyte file can hold)
MAX_ALIAS_NODES = 10_000
#: the longest integer read (Python's own limit on reading integers from text is 4300 digits)
MAX_NUMBER_DIGITS = 4000


class _Budget:
    """The limits of one YAML load, checked on the parser's events as they come, so a file
    nested too deep or whose aliases expand too far is refused at its line before anything is
    built from it: no RecursionError, no MemoryError."""

    def __init__(self):
        self.open: list[list] = []  # per open collection: [nodes so far, its anchor]
        self.sizes: dict = {}  # anchor -> nodes under it
        self.aliased = 0

    def see(self, event, yaml) -> None:
        if isinstance(event, yaml.CollectionStartEvent):
            if len(self.open) >= MAX_YAML_DEPTH:
                self._refuse(yaml, event, f"nested deeper than {MAX_YAML_DEPTH} levels; flatten it")
            self.open.append([1, event.anchor])
        elif isinstance(event, yaml.CollectionEndEvent):
            size, anchor = self.open.pop()
            self._add(size, anchor)
        elif isinstance(event, yaml.AliasEvent):
            size = self.sizes.get(event.anchor, 1)
            self.aliased += size
            if self.aliased > MAX_ALIAS_NODES:
                self._refuse(
                    yaml,
                    event,
                    f"the aliases of this file stand for more than {MAX_ALIAS_NODES} nodes; "
                    "write the repeated part out, or alias less of it",
                )
            self._add(size, None)
        elif isinstance(event, yaml.ScalarEvent):
            if not event.style and len(event.value) > MAX_NUMBER_DIGITS:  # plain: None or ""
                digits = event.value.lstrip("+-").replace("_", "")
                if digits.isdigit():  # Python refuses to read an integer this long
                    self._refuse(
                        yaml,
                        event,
                        f"a number of {len(digits)} digits; at most {MAX_NUMBER_DIGITS} are read",
                    )
            self._add(1, event.anchor)

    def _add(self, size: int, anchor) -> None:
        if anchor is not None:
            self.sizes[anchor] = size
        if self.open:
            self.open[-1][0] += size

    @staticmethod
    def _refuse(yaml, event, problem: str):
        raise yaml.composer.ComposerError(None, None, problem, event.start_mark)


def _base_loader(yaml):
    """libyaml's parser where PyYAML has it (PyPI's wheels do): about ten times faster than the
    pure-Python one, which matters since the suite reads every fixture file at collection."""
    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _within_budget(text: str, yaml) -> None:
    """Every parser event of ``text`` through a :class:`_Budget`, before anything is composed:
    the composer (libyaml's, in C) then never sees a file too deep or too aliased."""
    budget = _Budget()
    try:
        for event in yaml.parse(text, Loader=_base_loader(yaml)):
            budget.see(event, yaml)
    except yaml.MarkedYAMLError as exc:
        if "nesting depth" not in str(exc.problem):  # libyaml's own limit, deeper than ours
            raise
        problem = f"nested deeper than {MAX_YAML_DEPTH} levels; flatten it"
        raise yaml.composer.ComposerError(None, None, problem, exc.problem_mark) from None


_LOADER = None


def load_yaml(path: Path | str):
    """Load one YAML file safely, keeping line numbers (`LineDict`, `LineList`).

    A syntax error, a duplicate key or an unreadable file raises `SpecDataError` whose `where` is
    `path:line`.
    """
    global _LOADER
    import yaml

    if _LOADER is None:
        _LOADER = _make_loader()
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SpecDataError(str(path), f"cannot read the file ({exc.strerror})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise SpecDataError(
            f"{path}:{line}",
            f"the file is not UTF-8 (byte 0x{data[exc.start]:02x}: {exc.reason}); "
            "save it as UTF-8",
        ) from None
    try:
        _within_budget(text, yaml)
        return yaml.load(text, Loader=_LOADER)  # the loader is a (C)SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 0
        problem = exc.problem or exc.context or "invalid YAML"
        raise SpecDataError(f"{path}:{line}", f"invalid YAML: {problem}") from None
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow (NUL, a control)
        line = text[: exc.position].count("\n") + 1
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        raise SpecDataError(
            f"{path}:{line}",
            f"invalid YAML: character #x{code:04x} is not allowed in YAML; "
            "remove it",
        ) from None
    except yaml.YAMLError as exc:
        raise SpecDataError(str(path), f"invalid YAML: {exc}") from None


def line_of(document, pointer: list) -> int:
    """Best line number for the element at `pointer` (a list of keys/indices) in a loaded YAML
    document: the line of the deepest existing element on the path (0 if none known)."""
    node = document
    line = getattr(document, "line", 0)
    for part in pointer:
        if isinstance(node, LineDict) and part in node:
            line = node.key_lines.get(part, line)
            node = node[part]
        elif isinstance(node, LineList) and isinstance(part, int) and 0 <= part < len(node):
            line = node.item_lines[part]
            node = node[part]
        else:
            break
    return line
