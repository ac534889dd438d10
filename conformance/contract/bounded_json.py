"""JSON read from someone else (a request, an engine's answer, a report, a record) with its
nesting bounded before it is parsed.

Python's JSON parser recurses once per level, so a line of 100,000 ``[`` raises RecursionError
from deep inside the parser, and code that walks the value afterwards recurses again. Nothing the
project reads needs more than a dozen levels (a state is five deep), so text nested deeper than
:data:`MAX_NESTING` is refused up front as :class:`TooDeep`, a ``ValueError`` whose message says
what and what to do: every reader that already turns "not JSON" into a clear error or a fault
handles it the same way, and no RecursionError is ever caught.

``NaN``, ``Infinity`` and ``-Infinity`` are not JSON (RFC 8259) though Python reads and writes them;
:func:`loads` refuses them unless asked to accept them, so nothing parsed here echoes back as
invalid JSON.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

#: The deepest nesting of arrays and objects accepted (spec/protocol.md P-6).
MAX_NESTING = 100

# A JSON string (with its escapes), removed before brackets are counted: a "[" inside a string
# opens nothing. The unrolled form keeps the regular expression linear on long strings.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


class TooDeep(ValueError):
    """JSON text nested deeper than the limit; refused without being parsed."""

    def __init__(self, depth: int, limit: int):
        self.depth = depth
        self.limit = limit
        super().__init__(
            f"the JSON is nested {depth} levels deep; at most {limit} levels are accepted "
            "(flatten the value)"
        )


def nesting_depth(text: str | bytes, limit: int = MAX_NESTING) -> int:
    """The deepest nesting of ``[``/``{`` in JSON text, strings not counted. Text holding no more
    brackets than ``limit`` cannot be deeper: for it the count of brackets (made in C, a bound
    of the depth that is enough to compare with ``limit``) is answered instead."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
    opened = data.count(b"[") + data.count(b"{")
    if opened <= limit:
        return opened
    brackets = _STRING.sub(b"", data).translate(None, _NOT_BRACKETS)
    return max(accumulate(_STEP[b] for b in brackets), default=0)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON (RFC 8259 has no NaN or Infinity); write a number")


def loads(
    text: str | bytes, *, limit: int = MAX_NESTING, constants: bool = False, **options: Any
) -> Any:
    """``json.loads`` refusing text nested deeper than ``limit`` (:class:`TooDeep`) and, unless
    ``constants``, the non-JSON constants NaN and Infinity; ``options`` go to ``json.loads``.
    Raises ``ValueError`` (or ``UnicodeDecodeError``, a subclass) for anything that is not
    acceptable JSON."""
    depth = nesting_depth(text, limit)
    if depth > limit:
        raise TooDeep(depth, limit)
    if not constants:
        options["parse_constant"] = _refuse_constant
    return json.loads(text, **options)
