"""docs/adapter-kit.md stays true: its shuffle vectors are the shuffle's, and its line counts of
the durakgame adapter and the toy engine are the files'."""

from __future__ import annotations

import re

from conformance.contract.cards import deck
from conformance.contract.shuffle import shuffle, splitmix64

from .helpers import ROOT, TOY

TEXT = (ROOT / "docs" / "adapter-kit.md").read_text(encoding="utf-8")


def test_the_vectors_printed_in_the_docs_are_the_shuffles():
    printed = re.findall(r"^seed (\d+), deck (\d+): ((?:\w\w )+\w\w)$", TEXT, re.MULTILINE)
    seeds = {int(seed) for seed, _, _ in printed}
    assert {0, 1, 42, 2**64 - 1} <= seeds
    for seed, size, cards in printed:
        assert cards.split() == shuffle(deck(int(size)), int(seed)), seed


def test_the_line_counts_printed_are_the_files():
    for label, path in (("examples/durakgame/adapter.py` on the kit", ROOT / "examples" /
                         "durakgame" / "adapter.py"), ("tests/kit/toy_engine.py`", TOY)):
        printed = re.search(re.escape(label) + r"[^|]*\| (\d+) \|", TEXT)
        assert printed, label
        assert int(printed.group(1)) == len(path.read_text(encoding="utf-8").splitlines())
    assert len((ROOT / "examples" / "durakgame" / "adapter.py").read_text().splitlines()) <= 150


def test_the_shuffle_printed_in_python_is_the_shuffle():
    block = re.search(r"```python\n(MASK = .*?def shuffle\(cards, seed\):.*?)```", TEXT, re.DOTALL)
    assert block, "the page lost its shuffle"
    scope: dict = {}
    exec(block.group(1), scope)  # noqa: S102 - the page's own code, run to check it
    for seed in (0, 1, 42, 2**64 - 1, 12345):
        for size in (24, 36, 52):
            assert scope["shuffle"](deck(size), seed) == shuffle(deck(size), seed)


def test_the_splitmix64_outputs_printed_are_the_streams():
    rows = re.findall(r"^\| (0|1|42|2\^64 - 1) \| `(0x\w+)`, `(0x\w+)`, `(0x\w+)` \|$", TEXT,
                      re.MULTILINE)
    assert len(rows) == 4
    for seed, *values in rows:
        stream = splitmix64(2**64 - 1 if seed == "2^64 - 1" else int(seed))
        assert [int(v, 16) for v in values] == [next(stream) for _ in range(3)]
