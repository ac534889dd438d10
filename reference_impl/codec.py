"""The JSON boundary: state dicts <-> :class:`~reference_impl.state.State`, move dicts <-> tuples.

Everything here assumes its input was validated (``reference_impl.validate`` for states; moves are
parsed by :func:`parse_move`, which raises ``BadRequest`` for anything malformed). Output is always
canonical: hands, ``known``, ``passed`` and ``shown`` sorted canonically, fresh lists and dicts that
share nothing with the engine's internal state.
"""

from __future__ import annotations

import json

from reference_impl.cards import CARD_NAMES, CARD_NUMBERS, SUIT_OF
from reference_impl.errors import BadRequest
from reference_impl.state import (
    ACTION_CODES,
    ACTION_NAMES,
    ATTACK,
    BEAT,
    PASS,
    SHOW_TRUMP,
    TAKE,
    THROW_IN,
    TRANSFER,
    State,
)
from reference_impl.tables import compile_rules

STATE_VERSION = 1


def canonical_json(obj) -> str:
    """Keys sorted, compact separators, UTF-8 text (docs/architecture.md, canonical form)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


#: For each byte of a card mask (cards 8k..8k+7), the names of the cards each byte value holds,
#: ascending: a hand is written a byte at a time, the hot loop of every answer.
_BYTE_NAMES = [
    [
        tuple(CARD_NAMES[8 * k + i] for i in range(8) if (b >> i) & 1 and 8 * k + i < len(CARD_NAMES))
        for b in range(256)
    ]
    for k in range((len(CARD_NAMES) + 7) // 8)
]


def _names(mask: int) -> list:
    """The names of a mask's cards in canonical order (ascending card number)."""
    out: list = []
    k = 0
    while mask:
        byte = mask & 255
        if byte:
            out += _BYTE_NAMES[k][byte]
        mask >>= 8
        k += 1
    return out


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << CARD_NUMBERS[c]
    return m


def _card_or_none(c) -> int:
    return -1 if c is None else CARD_NUMBERS[c]


# --------------------------------------------------------------------------- states


def state_from_json(d: dict) -> State:
    """Build the internal state of a (validated) state dict."""
    rules = compile_rules(d["ruleset"]["options"])
    s = State.__new__(State)
    s.r = rules
    players = d["players"]
    n = len(players)
    s.n = n
    s.teams = rules.team_list(n) if rules.teams != "none" else None
    s.trump = CARD_NUMBERS[d["trump"]]
    s.beats = rules.beats(SUIT_OF[s.trump])
    s.dealer = d["dealer"]
    s.stock = [CARD_NUMBERS[c] for c in reversed(d["talon"])]
    s.discard = [CARD_NUMBERS[c] for c in d["discard"]]
    s.hands = [_mask(p["hand"]) for p in players]
    s.known = [_mask(p["known"]) for p in players]
    table = d["table"]
    s.t_att = [CARD_NUMBERS[t["attack"]] for t in table]
    s.t_by = [t["by"] for t in table]
    s.t_def = [_card_or_none(t["defence"]) for t in table]
    bout = d["bout"]
    if bout is None:
        s.bout = 0
        s.attacker = s.defender = s.opener = 0
        s.passed = 0
        s.taking = False
        s.first_def = -1
        s.shown = 0
        s.emptied = []
    else:
        s.bout = bout["number"]
        s.attacker = bout["attacker"]
        s.defender = bout["defender"]
        s.opener = bout["opener"]
        s.passed = sum(1 << p for p in set(bout["passed"]))
        s.taking = bout["taking"]
        s.first_def = _card_or_none(bout["first_defence"])
        s.shown = _mask(bout["shown"])
        s.emptied = list(bout["emptied"])
    s.finished = list(d["finished"])
    res = d["result"]
    s.result = None if res is None else _copy_result(res)
    s.recompute_derived()
    return s


def _copy_result(res: dict) -> dict:
    return {
        "fool": res["fool"],
        "draw": res["draw"],
        "losing_team": res["losing_team"],
        "winners": list(res["winners"]),
        "finishing_order": list(res["finishing_order"]),
        "epaulettes": res["epaulettes"],
    }


def state_to_json(s: State, name: str) -> dict:
    """The canonical state dict of ``s``; ``name`` is the ruleset's name."""
    teams = s.teams
    players = [
        {
            "hand": _names(s.hands[p]),
            "known": _names(s.known[p]),
            "team": None if teams is None else teams[p],
        }
        for p in range(s.n)
    ]
    table = [
        {
            "attack": CARD_NAMES[s.t_att[i]],
            "by": s.t_by[i],
            "defence": None if s.t_def[i] < 0 else CARD_NAMES[s.t_def[i]],
        }
        for i in range(len(s.t_att))
    ]
    if s.bout:
        bout = {
            "number": s.bout,
            "attacker": s.attacker,
            "defender": s.defender,
            "opener": s.opener,
            "passed": [p for p in range(s.n) if (s.passed >> p) & 1],
            "taking": s.taking,
            "first_defence": None if s.first_def < 0 else CARD_NAMES[s.first_def],
            "shown": _names(s.shown),
            "emptied": list(s.emptied),
        }
    else:
        bout = None
    return {
        "version": STATE_VERSION,
        "ruleset": {"name": name, "options": dict(s.r.options)},
        "dealer": s.dealer,
        "trump": CARD_NAMES[s.trump],
        "talon": [CARD_NAMES[c] for c in reversed(s.stock)],
        "discard": [CARD_NAMES[c] for c in s.discard],
        "players": players,
        "table": table,
        "bout": bout,
        "finished": list(s.finished),
        "result": None if s.result is None else _copy_result(s.result),
    }


# --------------------------------------------------------------------------- moves


def move_to_json(m: tuple) -> dict:
    p, act, x, y = m
    out = {"player": p, "action": ACTION_NAMES[act]}
    if act == ATTACK or act == TRANSFER:
        out["cards"] = _names(x)
    elif act == BEAT:
        out["target"] = CARD_NAMES[x]
        out["card"] = CARD_NAMES[y]
    elif act == THROW_IN or act == SHOW_TRUMP:
        out["card"] = CARD_NAMES[x]
    return out


_FIELDS = {
    ATTACK: ("cards",),
    TRANSFER: ("cards",),
    THROW_IN: ("card",),
    SHOW_TRUMP: ("card",),
    BEAT: ("target", "card"),
    TAKE: (),
    PASS: (),
}


def _parse_card(value, pointer: str, deck_mask: int) -> int:
    if not isinstance(value, str) or value not in CARD_NUMBERS:
        raise BadRequest(
            f"{value!r} is not a card; write <rank><suit>[2], rank 2-9 T J Q K A, suit C D H S "
            "(e.g. \"7S\", \"TH2\")",
            pointer=pointer,
        )
    c = CARD_NUMBERS[value]
    if not (deck_mask >> c) & 1:
        raise BadRequest(f"{value} is not a card of this ruleset's deck", pointer=pointer)
    return c


def parse_move(move, n: int, deck_mask: int) -> tuple:
    """A move dict as an internal tuple; ``BadRequest`` (with a pointer into the move) if the move
    is malformed (spec/rules.md R-PLAY-5, step 2): not an object, unknown player or action, a
    missing, extra or ill-typed field, a card not of this deck, an empty or repeating list."""
    if not isinstance(move, dict):
        raise BadRequest("a move must be an object {\"player\": seat, \"action\": ...}",
                         pointer="/move")
    player = move.get("player")
    if "player" not in move:
        raise BadRequest("the move has no \"player\"", pointer="/move/player")
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
        raise BadRequest(f"unknown player {player!r}: give a seat number 0..{n - 1}",
                         pointer="/move/player")
    action = move.get("action")
    if action not in ACTION_CODES:
        raise BadRequest(
            f"unknown action {action!r}; actions are {', '.join(ACTION_NAMES)}",
            pointer="/move/action",
        )
    act = ACTION_CODES[action]
    fields = _FIELDS[act]
    for key in move:
        if key not in ("player", "action") and key not in fields:
            need = ", ".join(fields) if fields else "no other field"
            raise BadRequest(f"{action} takes {need}; unexpected field {key!r}",
                             pointer=f"/move/{key}")
    for key in fields:
        if key not in move:
            raise BadRequest(f"{action} needs the field {key!r}", pointer=f"/move/{key}")
    x = y = 0
    if act == ATTACK or act == TRANSFER:
        cards = move["cards"]
        if not isinstance(cards, list) or not cards:
            raise BadRequest("\"cards\" must be a non-empty list of cards", pointer="/move/cards")
        for i, c in enumerate(cards):
            bit = 1 << _parse_card(c, f"/move/cards/{i}", deck_mask)
            if x & bit:
                raise BadRequest(f"card {c} is listed twice", pointer=f"/move/cards/{i}")
            x |= bit
    elif act == BEAT:
        x = _parse_card(move["target"], "/move/target", deck_mask)
        y = _parse_card(move["card"], "/move/card", deck_mask)
    elif act == THROW_IN or act == SHOW_TRUMP:
        x = _parse_card(move["card"], "/move/card", deck_mask)
    return (player, act, x, y)
