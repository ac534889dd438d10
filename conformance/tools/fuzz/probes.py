"""Probe moves: well-formed moves outside the legal set, which both engines must refuse alike.

Legal sets alone never show an engine that accepts what it does not list, nor one that refuses
with the wrong code or rule; a few probes per position do. They are drawn to look like moves a
player might really try (cards of the mover's own hand, the attacker or the defender as mover),
because a probe made of cards from nowhere is refused by every engine for the same dull reason.
"""

from __future__ import annotations

import random
from typing import Any

from conformance.contract import canonical
from conformance.tools.record import MOVE_ACTIONS


def probe_moves(
    state: dict[str, Any], legal_keys: set[str], rng: random.Random, count: int
) -> list[dict[str, Any]]:
    """Up to ``count`` well-formed moves outside the legal set: mostly cards of the mover's own
    hand, movers mostly the attacker and the defender, every action."""
    players = state.get("players") or []
    if count <= 0 or not players:
        return []
    table = state.get("table") or []
    bout = state.get("bout") or {}
    every = [c for p in players for c in p.get("hand", [])]
    every += [c for pair in table for c in (pair.get("attack"), pair.get("defence")) if c]
    every += list(state.get("talon") or []) + list(state.get("discard") or [])
    attacks = [pair["attack"] for pair in table if pair.get("attack")]
    movers = [s for s in (bout.get("attacker"), bout.get("defender")) if isinstance(s, int)]
    seen = set(legal_keys)
    out: list[dict[str, Any]] = []
    for _ in range(count * 10):
        if len(out) >= count:
            break
        seat = rng.choice(movers) if movers and rng.random() < 0.6 else rng.randrange(len(players))
        hand = players[seat].get("hand") or []
        pool = hand if hand and rng.random() < 0.85 else every
        if not pool:
            continue
        move = _probe(rng, seat, pool, attacks or every)
        key = canonical.canonical_move(move)
        if key not in seen:
            seen.add(key)
            out.append(move)
    return out


def _probe(rng: random.Random, seat: int, pool: list[str], targets: list[str]) -> dict[str, Any]:
    """One move of a random action by ``seat`` with cards from ``pool``."""
    action = rng.choice(MOVE_ACTIONS)
    move: dict[str, Any] = {"player": seat, "action": action}
    if action in ("attack", "transfer"):
        first = rng.choice(pool)
        twins = [c for c in pool if c[0] == first[0] and c != first]
        move["cards"] = [first] + ([rng.choice(twins)] if twins and rng.random() < 0.4 else [])
    elif action in ("throw_in", "show_trump"):
        move["card"] = rng.choice(pool)
    elif action == "beat":
        move["target"] = rng.choice(targets)
        move["card"] = rng.choice(pool)
    return move
