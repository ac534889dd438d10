"""Helpers for the observation tests: building full states by hand, the observation schema."""

from __future__ import annotations

import json
from functools import cache

import jsonschema

from conformance.tools.reach.repair import as_pile
from reference_impl import specdata
from reference_impl.rulesets import resolve_ruleset

RANKS = "23456789TJQKA"
SUITS = "CDHS"


def card_key(card: str) -> tuple[int, int, int]:
    """The contract's canonical card order: copy, then suit (C D H S), then rank."""
    return (1 if len(card) > 2 else 0, SUITS.index(card[1]), RANKS.index(card[0]))


def deck36() -> list[str]:
    return sorted((r + s for s in SUITS for r in RANKS[4:]), key=card_key)


def ruleset(name: str = "podkidnoy", **overrides: object) -> dict:
    if overrides:
        return resolve_ruleset({"preset": name, "overrides": overrides})
    return resolve_ruleset(name)


def make_state(
    *,
    hands: list[list[str]],
    known: list[list[str]] | None = None,
    talon: list[str],
    table: list[dict] | None = None,
    trump: str,
    bout: dict | None,
    discard: list[str] | None = None,
    dealer: int = 0,
    finished: list[int] | None = None,
    result: dict | None = None,
    rules: dict | None = None,
    teams: list | None = None,
) -> dict:
    """A full 36-card state. ``discard=None`` puts every card not placed elsewhere into the
    discard pile, in canonical order or, where those are not beaten pairs, arranged into pairs
    (R-BOUT-1)."""
    table = table or []
    placed = [c for h in hands for c in h] + list(talon)
    placed += [c for t in table for c in (t["attack"], t["defence"]) if c]
    if discard is None:
        rest = [c for c in deck36() if c not in placed]
        discard = as_pile(rest, trump) or rest
    n = len(hands)
    return {
        "version": 1,
        "ruleset": rules or ruleset(),
        "dealer": dealer,
        "trump": trump,
        "talon": list(talon),
        "discard": list(discard),
        "players": [
            {
                "hand": sorted(hands[i], key=card_key),
                "known": sorted((known or [[]] * n)[i], key=card_key),
                "team": (teams or [None] * n)[i],
            }
            for i in range(n)
        ],
        "table": table,
        "bout": bout,
        "finished": finished or [],
        "result": result,
    }


def bout(attacker: int, defender: int, **fields: object) -> dict:
    out = {
        "number": 3, "attacker": attacker, "defender": defender, "opener": attacker,
        "passed": [], "taking": False, "first_defence": None, "shown": [], "emptied": [],
    }
    out.update(fields)
    return out


@cache
def _validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(specdata.schema_path("observation").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def schema_errors(observation: dict) -> list[str]:
    return [
        f"/{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in _validator().iter_errors(observation)
    ]
