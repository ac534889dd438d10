"""Bookkeeping an engine declares it does not keep (spec/protocol.md P-16, ``supports.keeps``).

Most engines written before this project know hands, the talon, the table, whose turn it is and
who lost, and nothing of the state's history: which cards every player has seen, the bout's
number, opener and first defence, who emptied his hand when, who went out in which order, who put
each table card down, the order of the discard pile, the result's winners. An engine may say so in
``hello``: ``supports.keeps`` lists the fields of :data:`FIELDS` it keeps; a field left out is not
kept. Without ``keeps`` every field is kept (what protocol 1 always asked).

The runner then never fails a case over a field the engine does not keep: :class:`KeptFields`
wraps the engine, throws away what it answered for those fields and derives them from the state
before the move and the move itself (the derivation of :mod:`conformance.kit.bookkeeping`, the one
the adapter kit gives engines), so the invariants and every expectation read a whole state. A case
whose point is such a field (it expects ``/players/1/known`` or a result's ``winners``) would then
test the derivation, not the engine: :func:`unkept_touched` names those fields, and the gate
reports the case unsupported, blocked by ``keeps <field>``.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from conformance.engines.base import Engine, ErrorResult

#: Field name in ``supports.keeps`` -> the JSON pointers it covers (``*``: any index).
FIELDS: dict[str, tuple[str, ...]] = {
    "known": ("/players/*/known",),
    "table_by": ("/table/*/by",),
    "bout_number": ("/bout/number",),
    "opener": ("/bout/opener",),
    "first_defence": ("/bout/first_defence",),
    "emptied": ("/bout/emptied",),
    "finished": ("/finished",),
    "discard_order": (),  # the pile's order only: an expectation of /discard still compares cards
    "finishing_order": ("/result/finishing_order",),
    "winners": ("/result/winners",),
    "epaulettes": ("/result/epaulettes",),
}

#: Field -> the rules that govern it (spec/rules.md). A case is *about* a field when it cites one
#: of them and expects the field; a case that only lists the field in a whole expected state is
#: not, and is judged on the derived value like any field the engine does keep.
FIELD_RULES: dict[str, frozenset[str]] = {
    "known": frozenset({"R-INFO-3"}),
    "finished": frozenset({"R-OUT-1", "R-OUT-2", "R-OUT-3"}),
    "emptied": frozenset({"R-OUT-2", "R-OUT-3"}),
    "finishing_order": frozenset({"R-OUT-3", "R-END-4"}),
    "winners": frozenset({"R-END-4", "R-TEAM-3"}),
    "epaulettes": frozenset({"R-END-6"}),
    "discard_order": frozenset({"R-INFO-2"}),
    "bout_number": frozenset(),  # counted by R-BOUT-1/2, but no case is about the count itself
    "opener": frozenset(),
    "first_defence": frozenset(),
    "table_by": frozenset(),
}

#: Result fields among :data:`FIELDS`, which a ``result`` step names by key.
RESULT_FIELDS = ("finishing_order", "winners", "epaulettes")


def parse_keeps(value: Any) -> frozenset[str] | None:
    """``supports.keeps`` read: None when absent (every field kept). Raises ``ValueError`` naming
    an entry that is not a field of :data:`FIELDS`."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError("supports.keeps must be a list of field names, e.g. [\"known\"]")
    unknown = sorted(set(value) - set(FIELDS))
    if unknown:
        raise ValueError(
            f"supports.keeps names {', '.join(unknown)}, not bookkeeping fields; "
            f"the fields are: {', '.join(FIELDS)}"
        )
    return frozenset(value)


def unkept(keeps: frozenset[str] | None) -> frozenset[str]:
    """The fields of :data:`FIELDS` an engine with this ``keeps`` does not keep."""
    return frozenset() if keeps is None else frozenset(FIELDS) - keeps


def _covers(pattern: str, pointer: str) -> bool:
    """True when ``pointer`` is the field ``pattern`` names or lies inside it."""
    want, got = pattern.split("/")[1:], pointer.split("/")[1:]
    if len(got) < len(want):
        return False
    return all(w in ("*", g) for w, g in zip(want, got, strict=False))


def unkept_touched(
    steps: Iterable[Any], fields: frozenset[str], rules: Iterable[str] | None = None
) -> tuple[str, ...]:
    """``keeps <field>`` for every field in ``fields`` (not kept) that a case is about: it cites
    one of the field's :data:`FIELD_RULES` (``rules=None``: any case) and its steps expect it:
    an ``expect`` or ``check`` pointer at or inside it, a ``result`` step naming it, and, for
    ``known``, an ``observe`` step (what a player sees of others is what they have been shown)
    or a ``bout: taken`` (whose picked-up cards become known). ``steps`` are
    ``(kind, body)`` pairs or objects with ``kind`` and ``body``."""
    if not fields:
        return ()
    touched: set[str] = set()
    for step in steps:
        kind, body = step if isinstance(step, tuple) else (step.kind, step.body)
        if kind in ("expect", "check") and isinstance(body, dict):
            for pointer in body:
                touched |= {
                    name
                    for name in fields
                    if any(_covers(pattern, str(pointer)) for pattern in FIELDS[name])
                }
        elif kind == "result" and isinstance(body, dict):
            touched |= {name for name in RESULT_FIELDS if name in fields and name in body}
        elif kind == "observe" and "known" in fields:
            touched.add("known")
        elif kind == "bout" and body == "taken" and "known" in fields:
            touched.add("known")  # a take makes the picked-up cards known to all
    if rules is not None:
        cited = set(rules)
        touched = {name for name in touched if FIELD_RULES[name] & cited}
    return tuple(f"keeps {name}" for name in sorted(touched))


def _strip(state: dict[str, Any], fields: frozenset[str]) -> dict[str, Any]:
    """A copy of an engine's answer without the fields it does not keep (the derivation fills
    what is missing and keeps what is there)."""
    view = copy.deepcopy(state)
    if "known" in fields:
        for player in view.get("players") or ():
            if isinstance(player, dict):
                player.pop("known", None)
    if "table_by" in fields:
        for row in view.get("table") or ():
            if isinstance(row, dict):
                row.pop("by", None)
    bout = view.get("bout")
    if isinstance(bout, dict):
        for name, key in (("bout_number", "number"), ("opener", "opener"),
                          ("first_defence", "first_defence"), ("emptied", "emptied")):
            if name in fields:
                bout.pop(key, None)
    if "finished" in fields:
        view.pop("finished", None)
    result = view.get("result")
    if isinstance(result, dict):
        for name in RESULT_FIELDS:
            if name in fields:
                result.pop(name, None)
    return view


def fill_fresh(state: Any, fields: frozenset[str]) -> Any:
    """The state after a deal with the fields not kept derived; the answer unchanged when it is
    too broken to derive from (the invariants then say what is wrong with it)."""
    from conformance.kit import bookkeeping

    if not fields or not isinstance(state, dict):
        return state
    try:
        return bookkeeping.fresh(_strip(state, fields), state["ruleset"], state["dealer"])
    except (KeyError, TypeError, AttributeError, IndexError, ValueError):
        return state


def fill_after(prev: Any, move: Any, state: Any, fields: frozenset[str]) -> Any:
    """The state an engine answered for ``move`` on ``prev``, with the fields not kept derived
    from ``prev`` and the move; the answer unchanged when either is too broken to derive from."""
    from conformance.kit import bookkeeping

    if not fields or not isinstance(state, dict):
        return state
    try:
        filled = bookkeeping.after(prev, move, _strip(state, fields))
    except (KeyError, TypeError, AttributeError, IndexError, ValueError):
        return state
    if "discard_order" not in fields:  # the engine keeps the pile's order: its own stands
        filled["discard"] = copy.deepcopy(state.get("discard"))
    return filled


def _key(game: Any) -> str:
    """A handle as a dict key (handles are JSON values: a number or a string)."""
    return repr(game)


class KeptFields(Engine):
    """An engine whose answers get the bookkeeping it declared it does not keep filled in.

    Pass-through (no copy, no cost) when ``hello`` declares no ``keeps``. Everything else the
    engine answers stays its own: hands, talon, table cards, roles, the fool.
    """

    def __init__(self, inner: Engine):
        self.inner = inner
        self._hello: dict[str, Any] | ErrorResult | None = None
        self._fields: frozenset[str] | None = None
        self._last: dict[str, Any] = {}  # game handle -> its current state, filled

    @property
    def fields(self) -> frozenset[str]:
        """The fields of :data:`FIELDS` the engine does not keep (read from its hello once)."""
        if self._fields is None:
            hello = self.hello()
            supports = hello.get("supports") if isinstance(hello, dict) else None
            try:
                keeps = parse_keeps((supports or {}).get("keeps"))
            except ValueError:
                keeps = None  # the gate reports the bad hello; judge everything meanwhile
            self._fields = unkept(keeps)
        return self._fields

    def hello(self) -> dict[str, Any] | ErrorResult:
        if self._hello is None or isinstance(self._hello, ErrorResult):
            self._hello = self.inner.hello()
        return self._hello

    def new_game(self, ruleset: Any, players: int, **kwargs: Any) -> Any:
        return fill_fresh(self.inner.new_game(ruleset, players, **kwargs), self.fields)

    def legal_moves(self, state: dict[str, Any]) -> Any:
        return self.inner.legal_moves(state)

    def apply(self, state: dict[str, Any], move: dict[str, Any]) -> Any:
        answer = self.inner.apply(state, move)
        if isinstance(answer, ErrorResult):
            return answer
        return fill_after(state, move, answer, self.fields)

    def observe(self, state: dict[str, Any], player: int) -> Any:
        return self.inner.observe(state, player)

    # Games (spec/protocol.md section 7): the same filling, from the game's last state.

    def open_game(self, ruleset: Any, players: int, **kwargs: Any) -> Any:
        answer = self.inner.open_game(ruleset, players, **kwargs)
        if isinstance(answer, dict) and self.fields:
            answer = {**answer, "state": fill_fresh(answer.get("state"), self.fields)}
            self._last[_key(answer.get("game"))] = answer["state"]
        return answer

    def game_legal_moves(self, game: Any) -> Any:
        return self.inner.game_legal_moves(game)

    def game_apply(self, game: Any, move: dict[str, Any]) -> Any:
        answer = self.inner.game_apply(game, move)
        prev = self._last.get(_key(game))
        if isinstance(answer, ErrorResult) or prev is None:
            return answer
        filled = fill_after(prev, move, answer, self.fields)
        self._last[_key(game)] = filled
        return filled

    def game_state(self, game: Any) -> Any:
        answer = self.inner.game_state(game)
        if isinstance(answer, ErrorResult) or not self.fields:
            return answer
        return self._last.get(_key(game), answer)  # the game stands where its last move left it

    def game_observe(self, game: Any, player: int) -> Any:
        return self.inner.game_observe(game, player)

    def close_game(self, game: Any) -> Any:
        self._last.pop(_key(game), None)
        return self.inner.close_game(game)

    def close(self) -> None:
        self.inner.close()

    def describe(self) -> str:
        return self.inner.describe()

    def __getattr__(self, name: str) -> Any:  # the inner engine's extras (stderr tail, ...)
        if name == "inner":  # not set yet (copying, unpickling): no recursion
            raise AttributeError(name)
        return getattr(self.inner, name)
