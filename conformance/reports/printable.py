"""Text an engine wrote (its name, its messages, its stderr) made safe to show.

An engine chooses every byte of its hello and its error messages, so printed raw they could colour
the terminal, move the cursor or set the window title (ESC, CSI, OSC ... BEL), and a lone
surrogate (``"\\ud800"`` is valid JSON) cannot even be encoded to write it out. :func:`printable`
shows each such character as a Python-style escape (``\\x1b``, ``\\x07``, ``\\x9b``, ``\\ud800``)
so the reader sees what the engine sent and nothing acts on it. Line breaks and tabs are kept:
multi-line text (a stderr tail, a failure) stays readable. The terminal summary, failure texts,
replay's output and the HTML and Markdown reports all pass engine text through it.
"""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, the C1 controls, and the surrogates (never text alone).
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: object) -> str:
    """``str(text)`` with every control character and surrogate shown escaped."""
    return _UNSAFE.sub(_escape, str(text))


def printable_line(text: object) -> str:
    """:func:`printable` for one line: a line break or a tab is shown escaped too."""
    return printable(text).replace("\n", "\\n").replace("\t", "\\t")
