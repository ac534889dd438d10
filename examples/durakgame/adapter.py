#!/usr/bin/env python3
"""A durak-conformance adapter for the PyPI engine durakgame 1.0.4 (NOTES.md: what it plays).

A move is legal exactly when it is one of durakgame's options (``Game.generateOptions()``). The
kit (docs/adapter-kit.md) does the protocol, the checks and the bookkeeping durakgame does not keep,
and names the rule of a refused move."""

from importlib.metadata import version
from itertools import zip_longest
from typing import ClassVar

import durakgame as dg
from durakgame.game import Game

from conformance import kit

_SUIT = {"C": dg.Suit.Cross, "D": dg.Suit.Diamond, "H": dg.Suit.Heart, "S": dg.Suit.Spade}
CARD = {r + s: dg.Card(v, _SUIT[s]) for s in "CDHS" for r, v in zip("6789TJQKA", dg.CardValue)}
NAME = {card: name for name, card in CARD.items()}


def seats(g, dealer):
    """Seat -> durakgame player. durakgame deals its first card to player1 (game.py:78-82), the
    spec to the dealer's left (R-DEAL-1): so player1 sits at the dealer's left."""
    return [g.player1, g.player2] if kit.dealt_to(0, 2, dealer) == 0 else [g.player2, g.player1]


def seat(p, player):
    return 0 if p[0] is player else 1


def settle(g):
    """Whose move it is (``Game.move``) follows from the table: the defender's while a card is
    unbeaten and he has not taken, else the attacker's (durakgame toggles it in ``process``)."""
    t = g.table
    g.move = g.turn.toggled() if len(t.attack) > len(t.defense) and not t.isForfeited else g.turn


def run(g, o, piled):
    if isinstance(o, dg.Card):  # a throw-in while the defender takes: part of a FinishingMove
        return piled.append(o)
    g.process(o)
    settle(g)
    if not g.table.attack:  # the bout closed
        piled.clear()


def must_end(g, piled):
    """True when durakgame leaves the attacker nothing but to end the bout whatever he held: he
    has no card left, or its own caps (game.py:128-134, 141-145) leave no room. The spec closes
    the bout then, inside the move that got there (R-BOUT-1..3: no "end bout" action); otherwise
    ending is the attacker's choice, his pass. Room is probed with a hand of table ranks."""
    a = g.currentPlayer
    if len(a.hand) == len(piled):
        return True
    real, a.hand = a.hand, list(piled) + [g.table.attack[0]] * 6
    room = max(len(o.cards) if isinstance(o, dg.FinishingMove) else
               int(isinstance(o, dg.AttackingMove)) for o in g.generateOptions())
    a.hand = real
    return room <= len(piled)


class Durakgame(kit.Adapter):
    engine: ClassVar = {"name": "durakgame", "version": version("durakgame"),
                        "language": "Python", "homepage": "https://pypi.org/project/durakgame/",
                        "notes": "examples/durakgame/adapter.py; see examples/durakgame/NOTES.md"}
    # The values durakgame plays that are not podkidnoy's (NOTES.md has the evidence, file:line);
    # every other option is played at its podkidnoy value, or cannot matter with two players.
    supports: ClassVar = {"players": {"36": [2]}, "options": {
        "opening": ["single"], "throw_in_timing": ["all_beaten"], "first_attacker": ["dealer_left"]}}

    def deal(self, game):  # player1 attacks first (game.py:21)
        g = Game([CARD[c] for c in game.deck], dg.Player(), dg.Player())
        return g, seats(g, game.dealer), []

    def setup(self, state):
        """(game, seats, piled): a durakgame Game standing at ``state``. While the defender takes,
        the cards thrown in since go back to the attacker's hand, ``piled``: durakgame piles on
        in one move that ends the bout (FinishingMove, game.py:193), so until then they are his."""
        g = Game(list(CARD.values()), dg.Player(), dg.Player())  # a fresh deal, overwritten
        p = seats(g, state["dealer"])
        for i, player in enumerate(p):
            player.hand = [CARD[c] for c in state["players"][i]["hand"]]
        g.deck, g.trump = [CARD[c] for c in state["talon"]], CARD[state["trump"]]
        g.discardPile = {CARD[c] for c in state["discard"]}
        bout, table = state["bout"], state["table"]
        if bout is None:
            return g, p, []
        attack = [CARD[t["attack"]] for t in table]
        defence = [CARD[t["defence"]] for t in table if t["defence"] is not None]
        beaten, taking = len(defence), bool(bout["taking"])
        if (any(t["defence"] is None for t in table[:beaten]) or bout["passed"] or bout["shown"]
                or (len(table) > beaten + 1 and not taking)):
            raise kit.Refused("unsupported", "durakgame holds one unbeaten card at a time outside "
                              "a take, and no passes or shown trumps (a pass ends its bout)")
        piled = attack[beaten + 1:] if taking else []
        g.table = dg.Table(attack[:len(attack) - len(piled)], defence, taking)
        g.turn = dg.Switch.First if p[bout["attacker"]] is g.player1 else dg.Switch.Second
        p[bout["attacker"]].hand += piled
        settle(g)
        return g, p, piled

    def moves(self, position):
        """durakgame's options (game.py:109-165); a FinishingMove is throw-ins, then a pass."""
        g, p, piled = position
        for o in g.generateOptions():
            if isinstance(o, dg.OpeningMove):
                m = {"action": "attack", "cards": [NAME[o.card]]}
            elif isinstance(o, dg.AttackingMove):
                m = {"action": "throw_in", "card": NAME[o.card]}
            elif isinstance(o, dg.DefensiveMove):
                m = {"action": "beat", "target": NAME[g.table.attack[-1]], "card": NAME[o.card]}
            elif not isinstance(o, dg.FinishingMove):  # ForfeitingMove, EndingMove
                m = {"action": "take" if isinstance(o, dg.ForfeitingMove) else "pass"}
            elif not set(piled) <= set(o.cards) or len(o.cards) > len(piled) + 1:
                continue
            elif len(o.cards) == len(piled):
                m = {"action": "pass"}
            else:
                (extra,) = set(o.cards) - set(piled)
                m, o = {"action": "throw_in", "card": NAME[extra]}, extra
            yield {**m, "player": seat(p, g.currentPlayer)}, o

    def play(self, position, o):
        g, _, piled = position
        run(g, o, piled)
        if g.table.attack and g.move == g.turn and must_end(g, piled):
            run(g, dg.FinishingMove(list(piled)) if g.table.isForfeited else dg.EndingMove(), piled)
        return position

    def view(self, position):
        g, p, piled = position
        att = seat(p, g.player1 if g.turn is dg.Switch.First else g.player2)
        hands = [list(player.hand) for player in p]
        for c in piled:  # still on the table in the spec's terms
            hands[att].remove(c)
        bout, result = {"attacker": att, "defender": 1 - att, "taking": g.table.isForfeited}, None
        if g.isFinished:  # game.py:32-38, result from player1's side at :61-72
            r, bout = g.result, None
            result = {"fool": None if r is dg.GameResult.Draw else
                      seat(p, g.player2 if r is dg.GameResult.Win else g.player1)}
        table = [{"attack": NAME[a], "defence": NAME[d] if d else None}
                 for a, d in zip_longest(g.table.attack + piled, g.table.defense)]
        return {"trump": NAME[g.trump], "talon": [NAME[c] for c in g.deck], "table": table,
                "discard": [NAME[c] for c in g.discardPile], "bout": bout, "result": result,
                "players": [{"hand": [NAME[c] for c in h]} for h in hands]}


if __name__ == "__main__":
    Durakgame().serve()
