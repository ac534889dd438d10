"""The reference engine's public API: plain JSON-able dicts in, plain dicts out.

What the conformance runner, the process server and the tests call::

    new_game(ruleset, players, *, deck=None, seed=None, dealer=None, previous=None) -> state
    legal_moves(state) -> [move, ...]      # every player's legal moves, canonical order
    apply(state, move) -> state            # or raises IllegalMove(rule=...)
    validate_state(state)                  # or raises InvalidState(pointer=...)
    capabilities() -> {"engine": ..., "supports": ...}
    canonical_json(obj) -> str

Each function validates its input, converts it to the compact internal form of
``reference_impl.core`` and back; the caller's objects are never modified. Errors are
``EngineError`` subclasses carrying the protocol's ``code``, ``message``, ``rule``, ``pointer``.

Validation is most of what a call costs, and a caller mostly hands back a state this engine just
answered (play, perft, fuzzing), so the states known to be valid are remembered (spec/protocol.md
P-10 allows caching): those that passed validation and those the engine produced itself. The key is
the state's exact ``marshal`` text (format 2: no back references, so equal values give equal bytes),
which tells apart everything validation tells apart -- a tuple from a list, ``True`` from ``1``,
``1.0`` from ``1``, a key ``1`` from ``"1"`` -- and refuses every type that is not a builtin one, a
subclass included. A remembered state therefore answers exactly as validating it again would; any
other state (one changed by a single field, in any way) is validated and refused as before.
``validate_state`` itself always validates.
"""

from __future__ import annotations

import marshal
from collections import OrderedDict

from reference_impl.cards import CARD_NUMBERS, canonical_deck, portable_shuffle
from reference_impl.codec import (
    canonical_json,
    move_to_json,
    parse_move,
    state_from_json,
    state_to_json,
)
from reference_impl.core import apply_move
from reference_impl.core import legal_moves as _legal
from reference_impl.deal import deal, next_game_roles
from reference_impl.diagnose import diagnose
from reference_impl.errors import (
    BadRequest,
    EngineError,
    IllegalMove,
    InvalidState,
    Unsupported,
)
from reference_impl.tables import TEAM_PLAYERS, compile_rules, max_players
from reference_impl.validate import _NAME_RE
from reference_impl.validate import validate_state as _validate

__all__ = [
    "BadRequest",
    "EngineError",
    "IllegalMove",
    "InvalidState",
    "Unsupported",
    "apply",
    "canonical_json",
    "capabilities",
    "legal_moves",
    "new_game",
    "validate_state",
]

ENGINE_NAME = "durak-conformance reference engine"
ENGINE_VERSION = "0.1.0"


def resolve(ruleset) -> dict:
    """A ruleset in any accepted form -> ``{"name", "options"}``; ``BadRequest`` if it is wrong."""
    from reference_impl.rulesets import RulesetError, resolve_ruleset

    try:
        return resolve_ruleset(ruleset)
    except RulesetError as exc:
        where = exc.where if str(exc.where).startswith("/") else ""
        raise BadRequest(f"ruleset: {exc}", pointer="/ruleset" + where.rstrip("/")) from None


def validate_state(state) -> None:
    """Raise ``InvalidState`` (with a JSON pointer) unless ``state`` is a valid state."""
    _validate(state)


def check_state(state) -> None:
    """Raise ``InvalidState`` (with a JSON pointer) unless ``state`` is a valid state; a state
    seen valid before (validated, or produced by this engine) is not validated again (P-10)."""
    _load(state)


#: How many valid states are remembered (least recently used forgotten first): enough for the
#: states a game, a perft count or a fuzz campaign goes back to, a few megabytes at most.
KNOWN_STATES = 1024
_known: OrderedDict = OrderedDict()


def _key(state) -> bytes | None:
    """The exact text of ``state`` (None when marshal cannot write it: no key, validate)."""
    try:
        return marshal.dumps(state, 2)
    except (ValueError, TypeError, RecursionError):
        return None


def _remember(key: bytes | None, s) -> None:
    """Note ``s`` (an internal state no one else holds) as the valid state of ``key``."""
    if key is None:
        return
    _known[key] = s
    _known.move_to_end(key)
    if len(_known) > KNOWN_STATES:
        _known.popitem(last=False)


def _load(state):
    """The internal state of a valid ``state`` (a fresh one: the caller may change it), or the
    ``InvalidState`` validation raises."""
    key = _key(state)
    known = _known.get(key) if key is not None else None
    if known is not None:
        _known.move_to_end(key)
        return known.copy()
    _validate(state)
    s = state_from_json(state)
    _remember(key, s.copy())
    return s


def _answer(s, name: str) -> dict:
    """The state dict of ``s``, remembered as valid: the engine produced it."""
    out = state_to_json(s, name)
    _remember(_key(out), s)
    return out


def _int(value, what: str, pointer: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequest(f"{what} must be an integer, not {value!r}", pointer=pointer)
    return value


def new_game(ruleset, players, *, deck=None, seed=None, dealer=None, previous=None) -> dict:
    """The state after the deal (R-DEAL-*, R-TRUMP-*, R-ROLE-1, R-MATCH-*)."""
    resolved = resolve(ruleset)
    if not _NAME_RE.match(resolved["name"]):
        raise BadRequest(
            f"ruleset name {resolved['name']!r}: a state's ruleset name uses lower-case letters, "
            "digits and + _ = - (spec/schema/ruleset.schema.json)",
            pointer="/ruleset/name",
        )
    rules = compile_rules(resolved["options"])
    n = _int(players, "players", "/players")
    limit = max_players(rules.deck_size, rules.decks)
    if not 2 <= n <= limit:
        raise BadRequest(
            f"{n} players cannot play with {rules.deck_size * rules.decks} cards: 2 to {limit} "
            "(R-DECK-4)",
            rule="R-DECK-4", pointer="/players",
        )
    if rules.teams != "none" and n != TEAM_PLAYERS[rules.teams]:
        raise BadRequest(
            f"teams {rules.teams} is played by {TEAM_PLAYERS[rules.teams]} players, not {n} "
            "(R-TEAM-1)",
            rule="R-TEAM-1", pointer="/players",
        )
    if (deck is None) == (seed is None):
        raise BadRequest("give exactly one of seed and deck (R-DEAL-2)", pointer="/seed")
    canonical = canonical_deck(rules.deck_size, rules.decks)
    if seed is not None:
        seed = _int(seed, "seed", "/seed")
        if not 0 <= seed < 1 << 64:
            raise BadRequest("seed must be an unsigned 64-bit integer", pointer="/seed")
        order = portable_shuffle(canonical, seed)
    else:
        order = _parse_deck(deck, canonical)
    first = None
    if previous is not None:
        dealer_prev, first = _previous(previous, n, rules)
        if dealer is not None and dealer != dealer_prev:
            raise BadRequest(
                f"dealer {dealer} contradicts previous: the next game's dealer is seat "
                f"{dealer_prev} (R-MATCH-1); leave dealer out",
                pointer="/dealer",
            )
        dealer = dealer_prev
    if dealer is None:
        dealer = n - 1
    dealer = _int(dealer, "dealer", "/dealer")
    if not 0 <= dealer < n:
        raise BadRequest(f"dealer must be a seat 0..{n - 1}", pointer="/dealer")
    s = deal(rules, n, order, dealer, first)
    return _answer(s, resolved["name"])


def _parse_deck(deck, canonical: list) -> list:
    if not isinstance(deck, list):
        raise BadRequest("deck must be a list of cards in deck order", pointer="/deck")
    wanted = set(canonical)
    order = []
    seen = set()
    for i, card in enumerate(deck):
        c = CARD_NUMBERS.get(card) if isinstance(card, str) else None
        if c is None or c not in wanted:
            raise BadRequest(f"{card!r} is not a card of this deck", pointer=f"/deck/{i}")
        if c in seen:
            raise BadRequest(f"{card} appears twice in the deck", pointer=f"/deck/{i}")
        seen.add(c)
        order.append(c)
    if len(order) != len(canonical):
        raise BadRequest(f"the deck has {len(order)} cards; this ruleset's deck has "
                         f"{len(canonical)}", pointer="/deck")
    return order


def _previous(previous, n: int, rules) -> tuple:
    if not isinstance(previous, dict) or not isinstance(previous.get("result"), dict):
        raise BadRequest("previous must be {\"dealer\": seat, \"result\": {...}}",
                         pointer="/previous")
    d = _int(previous.get("dealer"), "previous.dealer", "/previous/dealer")
    if not 0 <= d < n:
        raise BadRequest(f"previous.dealer must be a seat 0..{n - 1}", pointer="/previous/dealer")
    result = previous["result"]
    fool = result.get("fool")
    if fool is not None and (isinstance(fool, bool) or not isinstance(fool, int)
                             or not 0 <= fool < n):
        raise BadRequest(f"previous.result.fool must be a seat 0..{n - 1} or null",
                         pointer="/previous/result/fool")
    draw = result.get("draw", False)
    if not isinstance(draw, bool):
        raise BadRequest("previous.result.draw must be a boolean", pointer="/previous/result/draw")
    if draw == (fool is not None):
        raise BadRequest("previous.result must name a fool or be a draw, not both nor neither: "
                         "a game ends with a fool (R-END-2) unless it is drawn (R-END-3)",
                         pointer="/previous/result")
    return next_game_roles(rules, n, {"dealer": d, "result": result})


#: internal move -> its canonical JSON text, the sort key of ``legal_moves`` (moves recur from
#: position to position; emptied when it grows past :data:`MOVE_TEXTS`).
MOVE_TEXTS = 65536
_move_text: dict = {}


def _text_of(m: tuple) -> str:
    text = _move_text.get(m)
    if text is None:
        if len(_move_text) >= MOVE_TEXTS:
            _move_text.clear()
        text = _move_text[m] = canonical_json(move_to_json(m))
    return text


def legal_moves(state) -> list:
    """Every legal move of every player, sorted by canonical JSON; [] once the game is over."""
    s = _load(state)
    return [move_to_json(m) for m in sorted(_legal(s), key=_text_of)]


def apply(state, move) -> dict:
    """The state after ``move``; ``IllegalMove`` naming the broken rule if it is not legal."""
    s = _load(state)
    if s.result is not None:
        raise IllegalMove("R-PLAY-2", "the game is over; no move is legal")
    m = parse_move(move, s.n, s.r.deck_mask)
    if m not in set(_legal(s)):
        rule, message = diagnose(s, m)
        raise IllegalMove(rule, message)
    apply_move(s, m)
    return _answer(s, state["ruleset"]["name"])


def capabilities() -> dict:
    """What this engine implements, for the protocol's ``hello``."""
    from reference_impl.rulesets import catalog_options

    players = {}
    for size in (24, 36, 52):
        for decks in (1, 2):
            key = str(size) if decks == 1 else f"{size}x2"
            players[key] = list(range(2, max_players(size, decks) + 1))
    options = {name: list(spec["values"]) for name, spec in catalog_options().items()}
    return {
        "engine": {
            "name": ENGINE_NAME,
            "version": ENGINE_VERSION,
            "language": "Python",
            "notes": "the executable definition of spec/rules.md; implements every option",
        },
        "supports": {"players": players, "options": options, "observe": True},
    }
