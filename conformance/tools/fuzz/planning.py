"""Planning a fuzz campaign: the games it may draw, each fixed by ``(seed, game index)`` alone.

A campaign draws games from (ruleset, player count) pairs fitted into the intersection of both
engines' claims, so neither engine is ever asked for a rule or a protocol feature it declines:
an option value one engine does not claim is replaced by one they all claim, and a deal by
another seat than N-1 or a next game of a match is planned only for engines that play them
(P-16). Because a game depends on nothing but the seed, its index and these choices, any game can
be played again on its own (``--game K``).

The ``--ruleset`` values (preset names or JSON ``new_game`` rulesets) are parsed here too, so a
wrong one is refused with a message before any engine is started.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.contract.cards import deck as canonical_deck
from conformance.contract.seats import TEAM_PLAYERS, max_players, team_of
from conformance.suite.applicability import substitute

DEFAULT_GAMES = 100
DEFAULT_PROBES = 2
DEFAULT_MAX_MOVES = 1000
#: Options never varied by ``--vary-options``: teams fix the player count.
FIXED_OPTIONS = ("teams",)

Ruleset = str | dict[str, Any]


@dataclass
class FuzzConfig:
    """What to fuzz. ``rulesets``: presets to draw from (default all); ``players``: counts to
    draw from (default every count the preset and both engines allow)."""

    games: int = DEFAULT_GAMES
    seed: int = 0
    rulesets: list[Ruleset] = field(default_factory=list)
    players: list[int] = field(default_factory=list)
    probes: int = DEFAULT_PROBES
    max_moves: int = DEFAULT_MAX_MOVES
    deal: str = "deck"  # deck | seed | mixed
    vary_options: bool = False
    only_game: int | None = None
    stop_first: bool = False
    records_dir: Path | None = None


@dataclass(frozen=True)
class GamePlan:
    """One game, fully determined by the fuzz seed and its index."""

    index: int
    ruleset: Ruleset
    name: str
    players: int
    deal: dict[str, Any]
    move_seed: int


def preset_names() -> list[str]:
    from reference_impl.rulesets import preset_names as names

    return list(names())


# ---------------------------------------------------------------------------------- claims


def game_choices(
    config: FuzzConfig, supports: list[Any]
) -> tuple[list[tuple[Ruleset, int]], list[str]]:
    """Every (ruleset, players) pair to draw games from, and why some asked for were left out.

    Each ruleset asked for (a preset name by default, or any ``new_game`` form) is fitted into
    the intersection of the engines' claims: an option whose value not every engine claims takes
    a value they all claim (the catalog default first). Only the deck, the player count and the
    team seating are never changed."""
    from reference_impl.rulesets import resolve_ruleset

    requests = config.rulesets or preset_names()
    choices: list[tuple[Ruleset, int]] = []
    skipped: list[str] = []
    for request in requests:
        label = request if isinstance(request, str) else json.dumps(request, sort_keys=True)
        options = resolve_ruleset(request)["options"]
        size, decks, teams = int(options["deck_size"]), int(options["decks"]), options["teams"]
        counts = (
            [TEAM_PLAYERS[teams]]
            if teams != "none"
            else list(range(2, max_players(size, decks) + 1))
        )
        if config.players:
            counts = [n for n in counts if n in config.players]
        fitted = [(fit_to_claims(request, n, supports), n) for n in counts]
        claimed = [(ruleset, n) for ruleset, n in fitted if ruleset is not None]
        if not claimed:
            skipped.append(
                f"{label}: no player count and option values every engine claims"
                if counts
                else f"{label}: none of the player counts asked for"
            )
        choices += claimed
    return choices, skipped


def fit_to_claims(request: Ruleset, players: int, supports: list[Any]) -> Ruleset | None:
    """``request`` with every option no engine-wide claim covers set to a value all engines
    claim, or None when that is impossible (the deck, the count or the teams are not claimed, or
    an option has no common value)."""
    from reference_impl.rulesets import (
        RulesetError,
        catalog_options,
        default_options,
        resolve_ruleset,
    )

    options = resolve_ruleset(request)["options"]
    defaults = default_options()
    fitted: dict[str, Any] = {}
    for option, value in options.items():
        if all(_value_claimed(s, option, value) for s in supports):
            continue
        if option in ("deck_size", "decks", *FIXED_OPTIONS):
            return None
        common = [
            v
            for v in catalog_options()[option]["values"]
            if all(_value_claimed(s, option, v) for s in supports)
        ]
        if not common:
            return None
        fitted[option] = defaults[option] if defaults[option] in common else common[0]
    candidate = substitute(request, fitted)
    try:
        resolved = resolve_ruleset(candidate)["options"]
    except RulesetError:
        return None
    return candidate if all(_claims(s, resolved, players) for s in supports) else None


def _claims(support: Any, options: dict[str, Any], players: int) -> bool:
    from reference_impl.rulesets import default_options

    return support is None or support.unsupported(options, players, default_options()) is None


def _value_claimed(support: Any, option: str, value: Any) -> bool:
    if support is None:
        return True
    from reference_impl.rulesets import default_options

    if option in ("deck_size", "decks") and option not in support.options:
        return True  # decks are claimed through supports.players
    return str(value) in support.option_values(option, default_options()[option])


# ---------------------------------------------------------------------------------- one game


def plan_game(
    config: FuzzConfig, index: int, choices: list[tuple[Ruleset, int]], supports: list[Any]
) -> GamePlan:
    """The game with this index: depends only on the seed, the index and the choices."""
    from reference_impl.rulesets import resolve_ruleset

    rng = random.Random(f"durak-fuzz/{config.seed}/{index}")
    preset, players = rng.choice(choices)
    if config.vary_options:
        ruleset, name = _vary(rng, preset, players, supports)
    else:
        ruleset, name = preset, resolve_ruleset(preset)["name"]
    options = resolve_ruleset(ruleset)["options"]
    mode = config.deal if config.deal != "mixed" else rng.choice(("deck", "seed"))
    deal: dict[str, Any] = {}
    if mode == "seed":
        deal["seed"] = rng.getrandbits(64)
    else:
        deck = canonical_deck(int(options["deck_size"]), int(options["decks"]))
        rng.shuffle(deck)
        deal["deck"] = deck
    # a next game of a match, or a dealer other than N-1, only for engines that play them (P-16)
    matches = all(s is None or (s.match and s.dealer) for s in supports)
    dealers = all(s is None or s.dealer for s in supports)
    if rng.random() < 0.25 and matches:
        deal["previous"] = _previous(rng, players, options["teams"])
    else:
        deal["dealer"] = rng.randrange(players) if dealers else players - 1
    return GamePlan(index, ruleset, name, players, deal, rng.getrandbits(64))


def _vary(
    rng: random.Random, preset: Ruleset, players: int, supports: list[Any]
) -> tuple[Ruleset, str]:
    """A ruleset with random overrides among the values every engine claims."""
    from reference_impl.rulesets import catalog_options, resolve_ruleset

    base = resolve_ruleset(preset)["options"]
    overrides: dict[str, Any] = {}
    for option, spec in catalog_options().items():
        if option in FIXED_OPTIONS or rng.random() >= 0.3:
            continue
        values = [v for v in spec["values"] if all(_value_claimed(s, option, v) for s in supports)]
        if values:
            value = rng.choice(values)
            if value != base[option]:
                overrides[option] = value
    options = {**base, **overrides}
    if players > max_players(int(options["deck_size"]), int(options["decks"])):
        overrides.pop("deck_size", None)
        overrides.pop("decks", None)
    plain = (preset, resolve_ruleset(preset)["name"])
    if not overrides:
        return plain
    ruleset = substitute(preset, overrides)
    resolved = resolve_ruleset(ruleset)
    if not all(_claims(s, resolved["options"], players) for s in supports):
        return plain
    return ruleset, resolved["name"]


def _previous(rng: random.Random, players: int, teams: str) -> dict[str, Any]:
    """A plausible previous game of a match: a fool, or (rarely) a draw."""
    seats = list(range(players))
    rng.shuffle(seats)
    if rng.random() < 0.2:
        result = {"fool": None, "draw": True, "losing_team": None}
        order = seats
    else:
        fool = seats.pop()
        team = team_of(teams, fool)
        result = {"fool": fool, "draw": False, "losing_team": team}
        order = seats
    result.update(winners=[], finishing_order=order, epaulettes=None)
    return {"dealer": rng.randrange(players), "result": result}


# ---------------------------------------------------------------------------------- --ruleset


def parse_rulesets(values: list[str]) -> list[Ruleset]:
    """``--ruleset`` values: preset names (comma-separated too) or JSON rulesets, each checked
    by resolving it; ``ValueError`` says which one is wrong and why."""
    from reference_impl.rulesets import RulesetError, resolve_ruleset

    out: list[Ruleset] = []
    for value in values:
        text = value.strip()
        if text.startswith("{"):
            try:
                request = json.loads(text)
            except json.JSONDecodeError as exc:
                raise ValueError(f"--ruleset {text}: not valid JSON: {exc}") from None
            items: list[Any] = [request]
        else:
            items = [part for part in text.split(",") if part]
        for item in items:
            if isinstance(item, str) and item not in preset_names():
                known = ", ".join(preset_names())
                raise ValueError(
                    f"--ruleset {item}: no such preset; the presets are {known} (or give a "
                    'JSON ruleset such as {"preset": "podkidnoy", "overrides": {...}})'
                )
            try:
                resolve_ruleset(item)
            except RulesetError as exc:
                raise ValueError(f"--ruleset {json.dumps(item)}: {exc}") from None
            out.append(item)
    return out
