"""Capability gating: which cases an engine claims to support, read from its ``hello``.

A case outside the claim is *unsupported* and counted apart, never failed (test262's feature
flags, Bowtie's dialects). The claim is also a promise: an engine that answers ``unsupported`` to
a case inside it is caught lying (spec/protocol.md, P-16 and P-17).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from conformance.engines.base import PROTOCOL_VERSION
from conformance.engines.bookkeeping import parse_keeps, unkept, unkept_touched


class HelloError(ValueError):
    """A ``hello`` answer the runner cannot work with; the run stops with a usage error."""


@cache
def _known_decks() -> dict[str, int]:
    """Every ``supports.players`` key the catalog allows (deck_size x decks), with the most
    players R-DECK-4 lets sit at it (read once: the catalog does not change in a run)."""
    from reference_impl.rulesets import catalog_options
    from reference_impl.tables import max_players

    options = catalog_options()
    return {
        deck_key(size, decks): max_players(size, decks)
        for size in options["deck_size"]["values"]
        for decks in options["decks"]["values"]
    }


def _check_deck_claim(key: str, counts: list[int]) -> None:
    """A claim the rules cannot hold is an error of the hello, not a set of cases gated away in
    silence: a deck the catalog does not have, or a player count R-DECK-4 forbids with it."""
    known = _known_decks()
    if key not in known:
        raise HelloError(
            f"supports.players[{key!r}]: no such deck; the keys are deck_size, with x2 for two "
            f"packs (deck_size and decks in spec/ambiguities.yaml): {', '.join(known)}"
        )
    wrong = sorted(n for n in counts if not 2 <= n <= known[key])
    if wrong:
        raise HelloError(
            f"supports.players[{key!r}] claims {wrong}: with this deck a game has 2 to "
            f"{known[key]} players (R-DECK-4); claim only the counts the rules allow"
        )


def deck_key(deck_size: Any, decks: Any) -> str:
    """The ``supports.players`` key of a deck: ``"36"`` for one pack, ``"36x2"`` for two."""
    return f"{deck_size}" if str(decks) == "1" else f"{deck_size}x{decks}"


@dataclass(frozen=True)
class Support:
    """What an engine claims in ``hello``. ``options`` holds only the options it listed."""

    players: dict[str, frozenset[int]]
    options: dict[str, frozenset[str]] = field(default_factory=dict)
    observe: bool = False
    #: protocol features an engine may decline (P-16): a dealer other than N-1, matches
    dealer: bool = True
    match: bool = True
    #: the bookkeeping fields it keeps (P-16 ``keeps``); None: every one
    keeps: frozenset[str] | None = None
    #: False when it cannot be set up from a state (P-16 ``positions``): a case that starts from
    #: a position then runs only through the deal and moves that reach it (``reached_by``)
    positions: bool = True

    #: True only for :meth:`everything`: every case applies, nothing is substituted.
    gates_nothing = False

    @classmethod
    def everything(cls) -> Support:
        """A claim that gates nothing (for callers without a hello, e.g. quick checks)."""
        return _Everything(players={}, observe=True)

    @classmethod
    def from_hello(cls, hello: Any) -> Support:
        """Read and check the ``hello`` answer; :class:`HelloError` says what is wrong."""
        if not isinstance(hello, dict):
            raise HelloError(f"hello must answer an object, got {type(hello).__name__}")
        protocol = hello.get("protocol")
        if str(protocol).split(".")[0] != PROTOCOL_VERSION:
            raise HelloError(
                f"the engine speaks protocol {protocol!r}; this runner speaks {PROTOCOL_VERSION!r}"
            )
        engine = hello.get("engine")
        if not isinstance(engine, dict) or not isinstance(engine.get("name"), str):
            raise HelloError("hello needs engine: {name, version}")
        supports = hello.get("supports")
        if not isinstance(supports, dict):
            raise HelloError("hello needs a supports object (players, options, observe)")
        players = supports.get("players")
        if not isinstance(players, dict) or not players:
            raise HelloError(
                'supports.players must map decks to player counts, e.g. {"36": [2, 3, 4, 5, 6]}'
            )
        parsed_players: dict[str, frozenset[int]] = {}
        for key, counts in players.items():
            if not isinstance(counts, list) or not all(
                isinstance(n, int) and not isinstance(n, bool) for n in counts
            ):
                raise HelloError(f"supports.players[{key!r}] must be a list of integers")
            parsed_players[str(key)] = frozenset(counts)
            _check_deck_claim(str(key), counts)
        options = supports.get("options", {})
        if not isinstance(options, dict):
            raise HelloError("supports.options must map option names to lists of values")
        parsed_options: dict[str, frozenset[str]] = {}
        for name, values in options.items():
            if not isinstance(values, list):
                raise HelloError(f"supports.options[{name!r}] must be a list of values")
            parsed_options[str(name)] = frozenset(str(v) for v in values)
        features = {}
        for name in ("observe", "dealer", "match"):
            value = supports.get(name, name != "observe")
            if not isinstance(value, bool):
                raise HelloError(f"supports.{name} must be true or false, got {value!r}")
            features[name] = value
        try:
            keeps = parse_keeps(supports.get("keeps"))
        except ValueError as exc:
            raise HelloError(str(exc)) from None
        positions = supports.get("positions", True)
        if not isinstance(positions, bool):
            raise HelloError(f"supports.positions must be true or false, got {positions!r}")
        return cls(parsed_players, parsed_options, **features, keeps=keeps, positions=positions)

    def unkept(self, steps: Any, rules: Any) -> tuple[str, ...]:
        """``keeps <field>`` for each bookkeeping field the engine does not keep that a case
        citing ``rules`` with these steps is about (P-16): no substitution stands in for them."""
        return unkept_touched(steps, unkept(self.keeps), rules)

    def declined(self, players: int, start: dict[str, Any]) -> tuple[str, ...]:
        """The protocol features a deal (``dealer``, ``previous`` of ``new_game``) needs that the
        engine declined in hello (P-16)."""
        needs = []
        dealer = start.get("dealer")
        previous = start.get("previous")
        if previous is not None and not self.match:
            needs.append("match")
        if not self.dealer and (previous is not None or dealer not in (None, players - 1)):
            needs.append("dealer")
        return tuple(needs)

    def option_values(self, option: str, default: Any) -> frozenset[str]:
        """The values of ``option`` the engine supports (its default alone when not listed)."""
        return self.options.get(option, frozenset({str(default)}))

    def unsupported(
        self,
        options: dict[str, Any],
        players: int,
        defaults: dict[str, Any],
        *,
        count: bool = True,
    ) -> str | None:
        """Why a case with these resolved ``options`` and ``players`` is outside the claim, or
        None when it is inside. ``count=False`` leaves the player count out (the deck must still
        be claimed): for a case showing that the rules forbid that count, which no honest hello
        lists, so gating on it would skip the case on every engine."""
        if self.gates_nothing:
            return None
        reasons = []
        key = deck_key(options.get("deck_size", 36), options.get("decks", 1))
        if key not in self.players:
            reasons.append(f"deck {key}")
        elif count and players not in self.players[key]:
            reasons.append(f"{players} players with deck {key}")
        for option, value in options.items():
            if option in ("deck_size", "decks"):
                if option in self.options and str(value) not in self.options[option]:
                    reasons.append(f"{option}={value}")
                continue
            if str(value) not in self.option_values(option, defaults.get(option, value)):
                reasons.append(f"{option}={value}")
        return ", ".join(reasons) or None


class _Everything(Support):
    """The claim of :meth:`Support.everything`: every case is inside it."""

    gates_nothing = True
