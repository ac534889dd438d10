"""The adapter kit: write the translation of your engine, the kit does the rest.

An honest adapter (docs/implementers-guide.md) translates between an engine and the contract of
docs/architecture.md. Most of one is not translation at all: the protocol loop, ruleset
resolution, the claim, the portable shuffle, input checks, the bookkeeping fields engines do not
keep, and refusals that name the rule broken. The kit does all of that once::

    from conformance import kit

    class MyEngine(kit.Adapter):
        engine = {"name": "my-durak", "version": "1.0"}
        supports = {"players": {"36": [2]}, "options": {}}

        def deal(self, game): ...            # a kit.Deal -> your position
        def setup(self, state): ...          # a JSON state -> your position (optional)
        def moves(self, position): ...       # -> [(contract move, your move), ...]
        def play(self, position, native): ...  # -> the position after your move
        def view(self, position): ...        # -> the position in the contract's terms

    if __name__ == "__main__":
        MyEngine().serve()

docs/adapter-kit.md explains each part; examples/durakgame/adapter.py is a worked example.
"""

from .adapter import Adapter
from .bookkeeping import after, fresh
from .requests import Deal, Refused, dealt_to, deck_of, move_key

__all__ = ["Adapter", "Deal", "Refused", "after", "dealt_to", "deck_of", "fresh", "move_key"]
