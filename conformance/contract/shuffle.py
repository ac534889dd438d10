"""The portable shuffle of docs/architecture.md ("Portable shuffle"), the judge's own reading.

Rule R-DEAL-2 says a seed means the same deck order in every engine. The deal scenario that checks
it, and the fixture author's ``tools/check_fixtures.py shuffle``, need the order a seed must give;
this is an independent reading of the contract's algorithm (SplitMix64 seeded with the seed, then
Fisher-Yates from the last index down), not the reference engine's code
(``reference_impl/cards.py``), so a slip in either one shows up as a disagreement.
"""

from __future__ import annotations

from collections.abc import Iterator

MASK64 = (1 << 64) - 1


def splitmix64(seed: int) -> Iterator[int]:
    """The SplitMix64 stream: add the golden gamma, then mix (Steele, Lea, Flood 2014)."""
    state = seed & MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


def shuffle(cards: list[str], seed: int) -> list[str]:
    """``cards`` (the canonical unshuffled deck) in the order ``seed`` gives."""
    out = list(cards)
    rng = splitmix64(seed)
    for i in range(len(out) - 1, 0, -1):
        j = next(rng) % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out
