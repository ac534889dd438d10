#!/usr/bin/env python3
"""A durak-conformance adapter (spec/protocol.md) for the PyPI engine durakgame 1.0.4.

durakgame plays two-player Durak through ``Game.generateOptions()`` (the moves of the player to
move) and ``Game.process(move)``. It cannot be set up from a position, so each request builds a
fresh ``Game`` and overwrites its fields from the JSON state; what durakgame does not keep (known
cards, the discard pile's order, bout numbers, the finishing order) is carried over from the
request. Legality is durakgame's alone: a move is legal exactly when it is one of its options.
NOTES.md says which rules it plays, with file:line, and where it goes wrong.
"""

import json
import sys
import traceback
from importlib.metadata import version
from itertools import zip_longest

import durakgame as dg
from durakgame.game import Game

from conformance.shuffle import shuffle
from reference_impl.rulesets import RulesetError, default_options, resolve_ruleset

RANKS, SUITS = "6789TJQKA", "CDHS"
_SUIT = {"C": dg.Suit.Cross, "D": dg.Suit.Diamond, "H": dg.Suit.Heart, "S": dg.Suit.Spade}
CARD = {r + s: dg.Card(v, _SUIT[s]) for s in SUITS for r, v in zip(RANKS, dg.CardValue)}
NAME = {card: name for name, card in CARD.items()}
DECK = list(CARD)  # the canonical unshuffled deck: suit C D H S, then rank
ATTACKER_ACTIONS = ("attack", "throw_in", "pass")
FIELDS = {"attack": ("cards",), "throw_in": ("card",), "beat": ("target", "card"), "take": (),
          "pass": (), "transfer": ("cards",), "show_trump": ("card",)}

# The values durakgame plays that are not podkidnoy's (NOTES.md has the evidence, file:line).
# Every other option is played at its podkidnoy value, or cannot matter with two players and no
# transfers; the runner's gate substitutes a claimed value wherever a case does not depend on it.
CLAIM = {"opening": ["single"], "throw_in_timing": ["all_beaten"], "first_attacker": ["dealer_left"]}
HELLO = {"protocol": "1",
         "engine": {"name": "durakgame", "version": version("durakgame"), "language": "Python",
                    "homepage": "https://pypi.org/project/durakgame/",
                    "notes": "examples/durakgame/adapter.py; see examples/durakgame/NOTES.md"},
         "supports": {"players": {"36": [2]}, "options": CLAIM, "observe": False}}


class Refused(Exception):
    def __init__(self, code, message, rule=None):
        super().__init__(message)
        self.code, self.message, self.rule = code, message, rule


def names(cards):
    return sorted((NAME[c] for c in cards), key=DECK.index)


def to_cards(texts, what):
    if not isinstance(texts, list) or not all(t in CARD for t in texts):
        raise Refused("invalid_state", f"{what}: not a list of cards of the 36-card deck")
    return [CARD[t] for t in texts]


def check_claim(options):
    off = [f"{o}={v}" for o, v in options.items()
           if str(v) not in map(str, CLAIM.get(o, [default_options()[o]]))]
    if off:
        raise Refused("unsupported", "durakgame does not play " + ", ".join(off))


def seats(g, dealer):
    """Seat -> durakgame player. durakgame deals its first card to player1 (game.py:78-82), the
    spec to the dealer's left (R-DEAL-1): so player1 sits at the dealer's left."""
    return [g.player2, g.player1] if dealer == 0 else [g.player1, g.player2]


def seat(p, player):
    return 0 if p[0] is player else 1


def settle(g):
    """Whose move it is (``Game.move``) follows from the table: the defender's while a card is
    unbeaten and he has not taken, else the attacker's (durakgame toggles it in ``process``)."""
    t = g.table
    g.move = g.turn.toggled() if len(t.attack) > len(t.defense) and not t.isForfeited else g.turn


def rebuild(state):
    """(game, seats, piled): a durakgame Game standing at ``state``. While the defender takes,
    the cards thrown in since go back to the attacker's hand, ``piled``: durakgame piles on in
    one move that ends the bout (FinishingMove, game.py:193), so until then they are his."""
    check_claim(state["ruleset"]["options"])
    if len(state["players"]) != 2:
        raise Refused("unsupported", "durakgame plays two players")
    g = Game(list(CARD.values()), dg.Player(), dg.Player())  # a fresh deal, overwritten below
    p = seats(g, state["dealer"])
    for i, player in enumerate(p):
        player.hand = to_cards(state["players"][i]["hand"], f"/players/{i}/hand")
    g.deck = to_cards(state["talon"], "/talon")
    g.trump = to_cards([state["trump"]], "/trump")[0]
    g.discardPile = set(to_cards(state["discard"], "/discard"))
    bout, table = state["bout"], state["table"]
    if bout is None:
        return g, p, []
    attack = to_cards([t["attack"] for t in table], "/table")
    defence = to_cards([t["defence"] for t in table if t["defence"] is not None], "/table")
    beaten, taking = len(defence), bool(bout["taking"])
    if (any(t["defence"] is None for t in table[:beaten]) or bout["passed"] or bout["shown"]
            or (len(table) > beaten + 1 and not taking)):
        raise Refused("unsupported", "durakgame holds one unbeaten card at a time outside a take, "
                      "and no passes or shown trumps (a pass ends its bout)")
    piled = attack[beaten + 1:] if taking else []
    g.table = dg.Table(attack[:len(attack) - len(piled)], defence, taking)
    g.turn = dg.Switch.First if p[bout["attacker"]] is g.player1 else dg.Switch.Second
    p[bout["attacker"]].hand += piled
    settle(g)
    return g, p, piled


def legal(g, p, piled):
    """durakgame's options (game.py:109-165) as (project move, durakgame move) pairs. A
    FinishingMove of several cards is played as throw-ins one by one (durakgame move None: it
    happens when the pile-on ends), then a pass."""
    me, out = seat(p, g.currentPlayer), {}
    for o in g.generateOptions():
        if isinstance(o, dg.OpeningMove):
            m = {"action": "attack", "cards": [NAME[o.card]]}
        elif isinstance(o, dg.AttackingMove):
            m = {"action": "throw_in", "card": NAME[o.card]}
        elif isinstance(o, dg.DefensiveMove):
            m = {"action": "beat", "target": NAME[g.table.attack[-1]], "card": NAME[o.card]}
        elif isinstance(o, dg.ForfeitingMove):
            m = {"action": "take"}
        elif isinstance(o, dg.EndingMove):
            m = {"action": "pass"}
        elif not set(piled) <= set(o.cards) or len(o.cards) > len(piled) + 1:
            continue
        elif len(o.cards) == len(piled):
            m = {"action": "pass"}
        else:
            (extra,) = set(o.cards) - set(piled)
            m, o = {"action": "throw_in", "card": NAME[extra]}, None
        m["player"] = me
        out[key(m)] = (m, o)
    return list(out.values())


def key(m):
    return json.dumps({k: sorted(v, key=DECK.index) if k == "cards" else v for k, v in m.items()
                       if k in ("player", "action", *FIELDS[m["action"]])}, sort_keys=True)


def must_end(g, piled):
    """True when durakgame leaves the attacker nothing but to end the bout whatever he held: he
    has no card left, or its own caps (game.py:128-134, 141-145) leave no room. The spec closes
    the bout then, inside the move that got there (R-BOUT-1..3: no "end bout" action); otherwise
    ending is the attacker's choice, his pass. Room is probed with a hand of table ranks."""
    a = g.currentPlayer
    if len(a.hand) == len(piled):
        return True
    real, a.hand = a.hand, list(piled) + [g.table.attack[0]] * 6
    try:
        room = max(len(o.cards) if isinstance(o, dg.FinishingMove) else
                   int(isinstance(o, dg.AttackingMove)) for o in g.generateOptions())
    finally:
        a.hand = real
    return room <= len(piled)


def table_json(g, piled, att):
    return [{"attack": NAME[a], "by": att, "defence": NAME[d] if d else None}
            for a, d in zip_longest(g.table.attack + piled, g.table.defense)]


def to_json(state, g, p, piled, bout, discard, finished, picked=(), taker=None):
    """The project's state for the game ``g`` (hands, talon, table, result from durakgame)."""
    att = bout["attacker"] if bout else None
    hands = []
    for i, player in enumerate(p):
        hand = list(player.hand)
        for c in piled if i == att else ():
            hand.remove(c)
        hands.append(names(hand))
    table = table_json(g, piled, att)
    result = None
    if g.isFinished:  # game.py:32-38, result from player1's side at :61-72
        r = g.result
        fool = None if r is dg.GameResult.Draw else seat(p, g.player2 if r is dg.GameResult.Win
                                                          else g.player1)
        result = {"fool": fool, "draw": fool is None, "losing_team": None, "winners": [],
                  "finishing_order": finished, "epaulettes": None}
        bout = None
    players = []
    for i, hand in enumerate(hands):  # R-INFO-3: picked up, or the face-up trump card
        seen = {*state["players"][i]["known"], *(picked if i == taker else ()), state["trump"]}
        players.append({"hand": hand, "known": [c for c in DECK if c in seen and c in hand],
                        "team": None})
    return {"version": 1, "ruleset": state["ruleset"], "dealer": state["dealer"],
            "trump": state["trump"], "talon": [NAME[c] for c in g.deck], "discard": discard,
            "players": players, "table": table, "bout": bout, "finished": finished,
            "result": result}


def new_bout(number, attacker):
    return {"number": number, "attacker": attacker, "defender": 1 - attacker, "opener": attacker,
            "passed": [], "taking": False, "first_defence": None, "shown": [], "emptied": []}


def new_game(req):
    try:
        ruleset = resolve_ruleset(req["ruleset"])
    except RulesetError as exc:
        raise Refused("bad_request", f"ruleset: {exc}") from None
    check_claim(ruleset["options"])
    n, seed, deck = req.get("players"), req.get("seed"), req.get("deck")
    if not isinstance(n, int) or isinstance(n, bool) or not 2 <= n <= 6:
        raise Refused("bad_request", f"{n!r} players cannot play with 36 cards", "R-DECK-4")
    if n != 2:
        raise Refused("unsupported", "durakgame plays two players")
    if (seed is None) == (deck is None):
        raise Refused("bad_request", "give exactly one of seed and deck")
    if seed is not None:
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 64:
            raise Refused("bad_request", "seed must be an unsigned 64-bit integer")
        deck = shuffle(DECK, seed)
    if not isinstance(deck, list) or not all(c in CARD for c in deck):
        raise Refused("bad_request", "deck: not a list of cards of the 36-card deck")
    previous, dealer = req.get("previous"), req.get("dealer", 1)
    if previous is not None:  # R-MATCH-1, R-MATCH-3: the fool deals, after a draw the same dealer
        fool = previous["result"].get("fool")
        dealer = previous["dealer"] if fool is None else fool
    if dealer not in (0, 1) or isinstance(dealer, bool):
        raise Refused("bad_request", "dealer must be seat 0 or 1")
    try:
        g = Game([CARD[c] for c in deck], dg.Player(), dg.Player())
    except AssertionError:  # game.py:76
        raise Refused("bad_request", "durakgame wants 36 different cards") from None
    p = seats(g, dealer)
    state = {"ruleset": ruleset, "dealer": dealer, "trump": NAME[g.trump],
             "players": [{"known": []}, {"known": []}]}
    bout = new_bout(1, seat(p, g.player1))  # player1 attacks first (game.py:21)
    return to_json(state, g, p, [], bout, [], [])


def parse(move):
    """Malformed moves are ``bad_request`` (R-PLAY-5, step 2)."""
    a = move.get("action") if isinstance(move, dict) else None
    if a not in FIELDS or move.get("player") not in (0, 1) or isinstance(move["player"], bool):
        raise Refused("bad_request", "a move needs player 0 or 1 and a known action")
    for f in FIELDS[a]:
        v = move.get(f)
        ok = (isinstance(v, list) and v and len(set(v)) == len(v) and all(c in CARD for c in v)
              if f == "cards" else isinstance(v, str) and v in CARD)
        if not ok:
            raise Refused("bad_request", f"{a}: {f} is missing or not a card of the deck")
    return move


def why(state, g, m):
    """The rule a move durakgame does not offer breaks, the first in R-PLAY-5's order. durakgame
    gives no reasons; they are read off the position as its generateOptions builds moves."""
    a, bout, table = m["action"], state["bout"], state["table"]
    if any(c not in state["players"][m["player"]]["hand"] for c in m.get("cards", [m.get("card")])
           if c):
        return "R-PLAY-3"
    if (a in ATTACKER_ACTIONS) == (m["player"] == bout["defender"]):
        return "R-PLAY-4"
    if a in ("transfer", "show_trump"):  # durakgame has no transfers (move.py)
        return "R-TRANSFER-1" if a == "transfer" else "R-TRANSFER-7"
    if a == "attack":  # durakgame offers every single card on the empty table (game.py:113-116)
        return "R-ATTACK-1" if table else "R-ATTACK-2"
    if not table:
        return "R-ATTACK-1"
    unbeaten = [t["attack"] for t in table if t["defence"] is None]
    if a == "beat":
        if not g.canBeat(CARD[m["card"]], CARD[m["target"]]):
            return "R-BEAT-1"
        return "R-BEAT-3" if m["target"] not in unbeaten else "R-TAKE-1"
    if a == "take":
        return "R-TAKE-1"
    if a == "pass":  # no cards: not an eligible attacker (R-THROW-3)
        return "R-THROW-5" if state["players"][m["player"]]["hand"] else "R-THROW-3"
    c = g.config  # durakgame's caps: game.py:128 (beaten bout), :142 (pile-on)
    cap = c.HandCC if bout["taking"] else c.MaxTossAD if g.discardPile else c.MaxTossBD
    if len(table) >= cap:
        return "R-ATTACK-3"
    if len(unbeaten) >= len(state["players"][bout["defender"]]["hand"]):
        return "R-ATTACK-4"
    if m["card"][0] not in {t[k][0] for t in table for k in ("attack", "defence") if t[k]}:
        return "R-THROW-1"
    return "R-THROW-2"


def apply(state, move):
    g, p, piled = rebuild(state)
    if state["result"] is not None:
        raise Refused("illegal_move", "the game is over", "R-PLAY-2")
    m = parse(move)
    option = {key(mv): o for mv, o in legal(g, p, piled)}
    if key(m) not in option:
        rule = why(state, g, m)
        raise Refused("illegal_move", f"durakgame does not offer this move ({rule})", rule)
    bout, att = dict(state["bout"]), state["bout"]["attacker"]
    closed = None  # (the table as it closed, taken?)

    def run(o):
        nonlocal closed
        snap = table_json(g, piled, att), g.table.isForfeited
        g.process(o)
        settle(g)
        if not g.table.attack:
            closed = snap
            piled.clear()

    if option[key(m)] is None:  # a throw-in while the defender takes: part of FinishingMove
        piled.append(CARD[m["card"]])
    else:
        run(option[key(m)])
    emptied = list(bout["emptied"])  # R-OUT-2
    for i in (0, 1):
        now = len(p[i].hand) - (len(piled) if i == att else 0)
        if state["players"][i]["hand"] and not now and i not in emptied:
            emptied.append(i)
    if closed is None and g.move == g.turn and must_end(g, piled):
        run(dg.FinishingMove(list(piled)) if g.table.isForfeited else dg.EndingMove())
    discard, finished, picked = list(state["discard"]), list(state["finished"]), []
    if closed:
        pairs = [c for t in closed[0] for c in (t["attack"], t["defence"]) if c]
        (picked if closed[1] else discard).extend(pairs)
        finished += [i for i in emptied if not p[i].hand and not g.deck and i not in finished]
        turn = g.player1 if g.turn is dg.Switch.First else g.player2
        bout = new_bout(bout["number"] + 1, seat(p, turn))
    else:
        defence = g.table.defense
        bout.update(taking=g.table.isForfeited, emptied=emptied,
                    first_defence=NAME[defence[0]] if defence else None)
    return to_json(state, g, p, piled, bout, discard, finished, picked, 1 - att)


def legal_moves(state):
    g, p, piled = rebuild(state)
    return [] if state["result"] is not None else [m for m, _ in legal(g, p, piled)]


def answer(req):
    op = req.get("op")
    if op == "hello":
        return HELLO
    if op == "new_game":
        return {"state": new_game(req)}
    if op == "legal_moves":
        return {"moves": legal_moves(req["state"])}
    if op == "apply":
        return {"state": apply(req["state"], req["move"])}
    if op == "observe":
        raise Refused("unsupported", "observe is not implemented")
    raise Refused("bad_request", f"unknown op {op!r}")


def main():
    for line in sys.stdin:
        ident = None
        try:
            req = json.loads(line)
            ident = req.get("id") if isinstance(req, dict) else None
            reply = {"id": ident, "ok": True, **answer(req)}
        except Refused as r:
            reply = {"id": ident, "ok": False,
                     "error": {"code": r.code, "message": r.message, "rule": r.rule}}
        except Exception as exc:  # noqa: BLE001 - never die on a request (P-27); log to stderr
            traceback.print_exc()
            reply = {"id": ident, "ok": False,
                     "error": {"code": "bad_request", "message": repr(exc), "rule": None}}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
