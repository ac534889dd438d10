"""A case's start, checked against its deck: a deal (a deck order once each, a dealer seat, or a
seed) or a mid-game state (every field of the contract, each card of the deck in exactly one
place, hands sorted canonically, a bout that names real seats).

A hand-written state is where a case most often goes wrong, and an engine handed a broken state
would be blamed for answering it; these checks say what to fix before any engine sees it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from conformance.contract.cards import card_key
from conformance.contract.schemas import document
from conformance.contract.seats import team_of
from conformance.tools.fixture_check.loading import LINE, Reporter


def _required(*path: str) -> tuple[str, ...]:
    """The fields the state schema requires of the part at ``path`` (the state itself, or
    ``$defs/bout``), in the schema's order: the contract's list, declared once."""
    node = document("state")
    for key in path:
        node = node[key]
    return tuple(node["required"])


def is_sorted(cards: list[str]) -> bool:
    return [card_key(c) for c in cards] == sorted(card_key(c) for c in cards)


def check_start(r: Reporter, start: Any, n: int, deck: list[str], opts: dict) -> None:
    """``start: {state}``, ``{deck, dealer?}`` or ``{seed}``, and nothing else."""
    if not isinstance(start, dict):
        r.err(
            r.case,
            "start must be a mapping: {state: ...}, {deck: [...], dealer: d} or {seed: n}",
        )
        return
    keys = {k for k in start if k != LINE}
    if "state" in keys:
        check_state(r, start["state"], n, deck, opts)
    elif "deck" in keys:
        _check_deck(r, start, n, deck)
    elif "seed" in keys:
        if not isinstance(start["seed"], int) or start["seed"] < 0:
            r.err(start, "start.seed must be an unsigned integer")
    else:
        r.err(start, "start needs 'state', 'deck' or 'seed'")
    allowed = {"state"} if "state" in keys else {"deck", "seed", "dealer", "previous"}
    for k in keys - allowed:
        r.err(start, f"unknown key start.{k}")


def _check_deck(r: Reporter, start: dict, n: int, deck: list[str]) -> None:
    cards = r.cards(start, start["deck"], "start.deck", deck)
    if Counter(cards) != Counter(deck):
        missing = sorted(set(deck) - set(cards), key=card_key)
        dup = [c for c, k in Counter(cards).items() if k > 1]
        r.err(
            start,
            f"start.deck must hold the {len(deck)}-card deck once each; "
            f"missing {missing}, repeated {dup}",
        )
    d = start.get("dealer")
    if d is not None and not (isinstance(d, int) and 0 <= d < n):
        r.err(start, f"start.dealer {d!r} is not a seat 0..{n - 1}")


def check_state(r: Reporter, st: Any, n: int, deck: list[str], opts: dict) -> None:
    """A mid-game state: its fields, each card once, the trump card, the bout, who finished."""
    if not isinstance(st, dict):
        r.err(r.case, "start.state must be a mapping")
        return
    for f in _required():
        if f not in st:
            r.err(st, f"state is missing '{f}'")
    players = st.get("players") or []
    if len(players) != n:
        r.err(st, f"state has {len(players)} players, case says {n}")
    seen = _check_players(r, players, deck, opts)
    talon = r.cards(st, st.get("talon"), "talon", deck)
    discard = r.cards(st, st.get("discard"), "discard", deck)
    table_cards = _check_table(r, st.get("table") or [], n, deck)
    if len(discard) % 2:
        r.err(
            st,
            f"the discard pile holds {len(discard)} cards; only beaten pairs are discarded, "
            "so a reachable pile has an even count",
        )
    seen += talon + discard + table_cards
    counts = Counter(seen)
    missing = sorted(set(deck) - set(counts), key=card_key)
    dup = sorted((c for c, k in counts.items() if k > 1), key=card_key)
    if missing or dup:
        r.err(
            st,
            f"cards not conserved ({len(seen)} placed, deck {len(deck)}): "
            f"missing {missing}, repeated {dup}",
        )
    trump = st.get("trump")
    if not isinstance(trump, str) or trump not in deck:
        r.err(st, f"trump {trump!r} is not a card of the deck")
    elif talon and talon[-1] != trump:
        r.err(
            st,
            f"the trump card {trump} must be the talon's last card while the talon is not empty",
        )
    dealer = st.get("dealer")
    if not (isinstance(dealer, int) and 0 <= dealer < n):
        r.err(st, f"dealer {dealer!r} is not a seat")
    bout = st.get("bout")
    if st.get("result") is None and isinstance(bout, dict):
        _check_bout(r, bout, st, n)
    elif st.get("result") is None:
        r.err(st, "a game in progress needs a bout")
    _check_finished(r, st, players)


def _check_players(r: Reporter, players: list, deck: list[str], opts: dict) -> list[str]:
    """Each hand and its known cards sorted, known within the hand, the team of the seat; the
    cards of every hand."""
    seen: list[str] = []
    for i, p in enumerate(players):
        hand = r.cards(p, p.get("hand"), f"players[{i}].hand", deck)
        if not is_sorted(hand):
            r.err(p, f"players[{i}].hand is not sorted canonically: {hand}")
        known = r.cards(p, p.get("known", []), f"players[{i}].known", deck)
        if not is_sorted(known):
            r.err(p, f"players[{i}].known is not sorted canonically")
        if not set(known) <= set(hand):
            r.err(p, f"players[{i}].known holds cards not in the hand: {set(known) - set(hand)}")
        team = p.get("team", "missing")
        want_team = team_of(opts.get("teams", "none"), i)
        if team != want_team:
            r.err(
                p, f"players[{i}].team is {team!r}; teams={opts.get('teams')} gives {want_team!r}"
            )
        seen += hand
    return seen


def _check_table(r: Reporter, table: list, n: int, deck: list[str]) -> list[str]:
    """The table's pairs name cards of the deck and the seat that attacked; their cards."""
    cards = []
    for j, pair in enumerate(table):
        cards += r.cards(pair, [pair.get("attack")], f"table[{j}].attack", deck)
        if pair.get("defence") is not None:
            cards += r.cards(pair, [pair.get("defence")], f"table[{j}].defence", deck)
        by = pair.get("by")
        if not isinstance(by, int) or not 0 <= by < n:
            r.err(pair, f"table[{j}].by must be a seat")
    return cards


def _check_bout(r: Reporter, bout: dict, st: dict, n: int) -> None:
    for f in _required("$defs", "bout"):
        if f not in bout:
            r.err(bout, f"bout is missing '{f}'")
    for f in ("attacker", "defender", "opener"):
        v = bout.get(f)
        if not (isinstance(v, int) and 0 <= v < n):
            r.err(bout, f"bout.{f} {v!r} is not a seat")
    if bout.get("attacker") == bout.get("defender"):
        r.err(bout, "bout.attacker and bout.defender are the same seat")
    for f in ("passed", "emptied"):
        if not isinstance(bout.get(f), list):
            r.err(bout, f"bout.{f} must be a list")
    if bout.get("passed") != sorted(bout.get("passed") or []):
        r.err(bout, "bout.passed must be sorted")
    fd = bout.get("first_defence")
    defences = [p.get("defence") for p in (st.get("table") or []) if p.get("defence")]
    if fd is not None and fd not in defences:
        r.err(bout, f"bout.first_defence {fd} is not a defence card on the table")
    if fd is None and defences:
        r.err(bout, "bout.first_defence is null but the table holds a defence card")


def _check_finished(r: Reporter, st: dict, players: list) -> None:
    finished = st.get("finished")
    if not isinstance(finished, list):
        r.err(st, "finished must be a list")
        return
    for s in finished:
        if isinstance(s, int) and 0 <= s < len(players) and players[s].get("hand"):
            r.err(st, f"seat {s} is in 'finished' but still holds cards")
