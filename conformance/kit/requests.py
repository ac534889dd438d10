"""What the kit checks before a request reaches the engine's translation.

Every engine needs the same checks, and each one is easy to get subtly wrong by hand (a boolean
accepted as a seat, a 37-card deck dealt, ``unsupported`` answered where R-DECK-4 wants
``bad_request``), so they live here once:

- :func:`read_new_game`: the ruleset resolved (``reference_impl.rulesets.resolve_ruleset``), the
  claim checked, the player count (R-DECK-4, R-TEAM-1), the deck from ``seed`` by the portable
  shuffle (``conformance.contract.shuffle``) or from ``deck``, the dealer and the previous game of a match
  (R-DEAL-3, R-MATCH-1..3); the answer is a :class:`Deal`;
- :func:`check_state`: a state is valid (the judge's ``conformance.suite.invariants.state_problems``,
  which points at the first problem) and inside the claim;
- :func:`parse_move`: a move is well formed (R-PLAY-5, step 2), reduced to the contract's fields.

A refusal is raised as :class:`Refused` and becomes the protocol's error object.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from conformance.contract import deal as contract_deal
from conformance.contract.canonical import canonical_move, card_key
from conformance.contract.cards import deck as canonical_deck
from conformance.contract.seats import TEAM_PLAYERS, max_players
from conformance.contract.shuffle import shuffle
from conformance.suite.invariants import state_problems
from reference_impl import api as reference_api
from reference_impl.errors import InvalidState
from reference_impl.rulesets import RulesetError, default_options, resolve_ruleset

#: The fields of each action (docs/architecture.md, "Moves").
FIELDS = {"attack": ("cards",), "throw_in": ("card",), "beat": ("target", "card"), "take": (),
          "pass": (), "transfer": ("cards",), "show_trump": ("card",)}


class Refused(Exception):
    """A request answered ``ok: false``: ``code`` is one of the protocol's four (P-26).

    ``extra`` fields go into the error object as they are (P-11 lets an answer carry fields of
    its own): the kit adds ``named_by`` to say who named the rule, the engine or the kit.
    """

    def __init__(self, code: str, message: str, rule: str | None = None,
                 pointer: str | None = None, **extra: Any):
        super().__init__(message)
        self.code, self.message, self.rule, self.pointer, self.extra = (
            code, message, rule, pointer, extra)

    def to_json(self) -> dict[str, Any]:
        error = {"code": self.code, "message": self.message, "rule": self.rule, **self.extra}
        if self.pointer is not None:
            error["pointer"] = self.pointer
        return error


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def deck_key(options: dict) -> str:
    """The key of ``supports.players`` for a ruleset's deck: ``"36"``, or ``"36x2"`` (P-16)."""
    return str(options["deck_size"]) + ("x2" if str(options["decks"]) == "2" else "")


def deck_of(options: dict) -> list[str]:
    """The ruleset's canonical unshuffled deck (docs/architecture.md, "Cards")."""
    return canonical_deck(int(options["deck_size"]), int(options["decks"]))


def dealt_to(k: int, players: int, dealer: int, options: dict | None = None) -> int:
    """The seat that gets deck index ``k`` (``k < 6N``), dealing from the dealer's left (R-DEAL-1):
    ``one_at_a_time`` deals card by card, ``six_at_once`` six cards to a seat at a time."""
    return contract_deal.dealt_to(k, players, dealer, (options or {}).get("deal_order"))


def unclaimed(supports: dict, options: dict) -> list[str]:
    """``option=value`` for every option value outside the claim; an option the claim leaves out
    is claimed at its default only (P-16). Values compare as strings (``36`` is ``"36"``)."""
    claimed, defaults = supports.get("options", {}), default_options()
    return [f"{o}={v}" for o, v in options.items()
            if str(v) not in {str(x) for x in claimed.get(o, [defaults.get(o)])}]


def check_claim(supports: dict, options: dict, players: int, engine: str) -> None:
    """``unsupported`` unless the options, the deck and the player count are claimed."""
    off = unclaimed(supports, options)
    if off:
        raise Refused("unsupported", f"{engine} does not claim " + ", ".join(off))
    if players not in supports.get("players", {}).get(deck_key(options), []):
        raise Refused("unsupported",
                      f"{engine} does not claim {players} players with deck {deck_key(options)}")


def check_state(state: Any, supports: dict, engine: str) -> None:
    """``invalid_state`` pointing at the first problem the judge finds, then the claim."""
    problems = state_problems(state)
    if problems:
        first = problems[0]
        raise Refused("invalid_state", f"{first.message} ({first.rule})", first.rule,
                      first.pointer, named_by="kit")
    try:  # what the judge's invariants leave to the reference's validator (roles, known, ...)
        reference_api.check_state(state)
    except InvalidState as exc:
        cited = re.findall(r"R-[A-Z]+-[0-9]+", exc.message)
        raise Refused("invalid_state", exc.message, cited[-1] if cited else None, exc.pointer,
                      named_by="kit") from None
    n = len(state["players"])
    check_claim(supports, state["ruleset"]["options"], n, engine)
    if supports.get("dealer") is False and state["dealer"] != n - 1:
        raise Refused("unsupported", f"{engine} deals only from seat {n - 1}")


def parse_move(move: Any, players: int, cards: set[str] | frozenset[str]) -> dict:
    """The move with the contract's fields only; ``bad_request`` with a pointer if malformed (an
    unknown player or action, a missing field, a card not of the deck, an empty or repeating
    ``cards`` list, a field the action does not have: spec/schema/move.schema.json, P-11)."""
    if not isinstance(move, dict):
        raise Refused("bad_request", "a move is an object {\"player\": seat, \"action\": ...}",
                      pointer="/move")
    player, action = move.get("player"), move.get("action")
    if not _int(player) or not 0 <= player < players:
        raise Refused("bad_request", f"unknown player {player!r}", pointer="/move/player")
    if action not in FIELDS:
        raise Refused("bad_request", f"unknown action {action!r}", pointer="/move/action")
    unknown = sorted(set(move) - {"player", "action", *FIELDS[action]}, key=str)
    if unknown:
        raise Refused("bad_request", f"{action}: a move has no field {unknown[0]!r}",
                      pointer=f"/move/{unknown[0]}")
    out = {"player": player, "action": action}
    for field in FIELDS[action]:
        v = move.get(field)
        if field == "cards":
            ok = isinstance(v, list) and v and len(set(map(str, v))) == len(v) and all(
                c in cards for c in v)
        else:
            ok = isinstance(v, str) and v in cards
        if not ok:
            raise Refused("bad_request", f"{action}: {field} is missing or not a card of the deck",
                          pointer=f"/move/{field}")
        out[field] = v
    return out


def move_key(move: dict) -> str:
    """A move's canonical text over the contract's fields (cards sorted): move equality."""
    fields = ("player", "action", *FIELDS.get(move.get("action"), ()))
    return canonical_move({k: move[k] for k in fields if k in move})


_ABSENT = object()
#: The canonical card order, remembered per card (a deck has at most 104).
_card_key = functools.lru_cache(maxsize=4096)(card_key)


def move_id(move: dict) -> tuple | str:
    """A key equal for two moves exactly when their :func:`move_key` is, without writing JSON:
    the kit keys every move an engine lists, on every request. A move of unexpected types (a
    boolean seat, a card that is not a string) falls back to :func:`move_key`'s text."""
    player, action = move.get("player", _ABSENT), move.get("action", _ABSENT)
    if player is not _ABSENT and type(player) is not int or not isinstance(action, str):
        return move_key(move)
    parts = [player, action]
    for field in FIELDS.get(action, ()):
        value = move.get(field, _ABSENT)
        if field == "cards" and isinstance(value, list) and all(isinstance(c, str) for c in value):
            value = tuple(sorted(value, key=_card_key))
        elif value is not _ABSENT and not isinstance(value, str):
            return move_key(move)
        parts.append(value)
    return tuple(parts)


@functools.lru_cache(maxsize=16)
def _cards(deck_size: Any, decks: Any) -> frozenset[str]:
    return frozenset(canonical_deck(int(deck_size), int(decks)))


def deck_cards(options: dict) -> frozenset[str]:
    """The cards of the ruleset's deck, as a set (made once per deck)."""
    return _cards(str(options["deck_size"]), str(options["decks"]))


@dataclass(frozen=True)
class Deal:
    """A checked ``new_game``: what the translation's ``deal`` receives.

    ``deck`` is the whole deck in deal order (from ``seed`` by the portable shuffle, or as sent);
    ``dealer`` is the dealing seat, the fool of ``previous`` in a match (R-MATCH-1);
    ``first_attacker`` is the seat R-MATCH-2 names for a next game, None for a first game (then
    R-ROLE-1 decides, which is your engine's business).
    """

    ruleset: dict
    players: int
    deck: list
    dealer: int
    previous: dict | None = None
    first_attacker: int | None = None

    @property
    def options(self) -> dict:
        return self.ruleset["options"]

    def seat_of(self, k: int) -> int:
        """The seat deck index ``k`` is dealt to (R-DEAL-1): to seat engine players by."""
        return dealt_to(k, self.players, self.dealer, self.options)

    def spec_deal(self) -> dict:
        """Hands, trump card and talon as the spec deals them (R-DEAL-1, R-TRUMP-1..3), for an
        engine that is set up from hands. Those rules are then the kit's, not your engine's."""
        dealt = contract_deal.deal(self.deck, self.players, self.dealer,
                                   self.options.get("deal_order"), self.options.get("trump_card"))
        return {"trump": dealt.trump, "talon": dealt.talon,
                "players": [{"hand": hand} for hand in dealt.hands]}


def read_new_game(request: dict, supports: dict, engine: str) -> Deal:
    """A ``new_game`` request checked in the order an honest engine answers it: a malformed
    ruleset, options outside the claim, a player count the rules forbid (``bad_request`` even when
    unclaimed, P-17), a count outside the claim, then the deal's own fields."""
    if "ruleset" not in request:
        raise Refused("bad_request", "new_game needs a ruleset", pointer="/ruleset")
    try:
        ruleset = resolve_ruleset(request["ruleset"])
    except RulesetError as exc:
        raise Refused("bad_request", f"ruleset: {exc}", pointer="/ruleset") from None
    options = ruleset["options"]
    off = unclaimed(supports, options)
    if off:
        raise Refused("unsupported", f"{engine} does not claim " + ", ".join(off))
    cards, n = deck_of(options), request.get("players")
    if not _int(n):
        raise Refused("bad_request", f"players must be an integer, not {n!r}", pointer="/players")
    limit = max_players(len(cards), 1)
    if not 2 <= n <= limit:
        raise Refused("bad_request", f"{n} players cannot play with {len(cards)} cards: 2 to "
                      f"{limit} (R-DECK-4)", "R-DECK-4", "/players")
    teams = options.get("teams", "none")
    if teams != "none" and n != TEAM_PLAYERS[teams]:
        raise Refused("bad_request", f"teams {teams} is played by {TEAM_PLAYERS[teams]} players",
                      "R-TEAM-1", "/players")
    check_claim(supports, options, n, engine)
    return Deal(ruleset, n, _deck(request, cards), *_dealer(request, n, options, supports, engine))


def _deck(request: dict, cards: list[str]) -> list[str]:
    seed, deck = request.get("seed"), request.get("deck")
    if (seed is None) == (deck is None):
        raise Refused("bad_request", "give exactly one of seed and deck (R-DEAL-2)",
                      pointer="/seed")
    if seed is not None:
        if not _int(seed) or not 0 <= seed < 1 << 64:
            raise Refused("bad_request", "seed must be an unsigned 64-bit integer",
                          pointer="/seed")
        return shuffle(cards, seed)
    if not isinstance(deck, list) or sorted(map(str, deck)) != sorted(cards):
        raise Refused("bad_request", f"deck must hold each of the ruleset's {len(cards)} cards "
                      "once, in deal order", pointer="/deck")
    return list(deck)


def _dealer(request: dict, n: int, options: dict, supports: dict, engine: str) -> tuple:
    """(dealer, previous, first attacker): R-DEAL-3, and R-MATCH-1..3 for a next game."""
    previous, dealer, first = request.get("previous"), request.get("dealer"), None
    if previous is not None:
        if supports.get("match") is False or supports.get("dealer") is False:
            raise Refused("unsupported", f"{engine} plays no next game of a match")
        result = previous.get("result") if isinstance(previous, dict) else None
        d = previous.get("dealer") if isinstance(previous, dict) else None
        fool = result.get("fool") if isinstance(result, dict) else -1
        if not _int(d) or not 0 <= d < n or not (fool is None or _int(fool) and 0 <= fool < n):
            raise Refused("bad_request", "previous must be {\"dealer\": seat, \"result\": "
                          "{\"fool\": seat or null, ...}}", pointer="/previous")
        draw = result.get("draw", False)
        if not isinstance(draw, bool) or draw == (fool is not None):
            raise Refused("bad_request", "previous.result must name a fool or be a draw, not both "
                          "nor neither (R-END-2, R-END-3; spec/protocol.md P-21)",
                          pointer="/previous/result")
        if draw:  # R-MATCH-3: the same dealer, a first game
            d_next = d
        else:  # R-MATCH-1, R-MATCH-2: the fool deals; his left or right attacks
            d_next = fool
            first = (fool + 1) % n if options.get("next_game") != "fool_right" else (fool - 1) % n
        if dealer is not None and dealer != d_next:
            raise Refused("bad_request", f"dealer {dealer!r} contradicts previous: seat {d_next} "
                          "deals the next game (R-MATCH-1)", pointer="/dealer")
        dealer = d_next
    dealer = n - 1 if dealer is None else dealer
    if not _int(dealer) or not 0 <= dealer < n:
        raise Refused("bad_request", f"dealer must be a seat 0..{n - 1}", pointer="/dealer")
    if supports.get("dealer") is False and dealer != n - 1:
        raise Refused("unsupported", f"{engine} deals only from seat {n - 1}")
    return dealer, previous, first
