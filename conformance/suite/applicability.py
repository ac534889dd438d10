"""Gating by dependence: does a case's verdict depend on an option value the engine does not claim?

An engine claims a few option values in ``hello``; a case is written under one full ruleset, most
of whose values cannot matter to it (who attacks first, in a case that starts mid-game). Asking
for every value of the case's ruleset would run nothing on a real engine. So the gate asks a finer
question, for any form of case (fixture, scenario, record, perft position, fuzz finding):

1. the deck and the player count must be claimed: they are in the case's cards, never substituted;
2. every option whose case value the engine does not claim is given a value the engine claims;
3. the reference engine runs the case under that substituted ruleset: when every expectation of
   the case still holds there, the verdict does not depend on the substituted options, and the
   case is sent to the engine with the substituted ruleset.

The reference engine only decides whether a case *applies* to an engine's claims; the expected
answers stay the case's own, hand-worked from the rules. When no substitution holds, the case is
unsupported and names its blockers: the options whose every claimed value changes its verdict (the
claims that would unlock it).

The caller supplies ``holds(substitution) -> bool``, which runs its case on the reference engine
with those option values in place of its own; this module knows nothing of case forms.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from conformance.engines.gating import Support, deck_key

#: The most joint substitutions tried on the reference before a case is declared blocked.
MAX_TRIES = 12

#: Never substituted: the deck is in the case's cards.
FIXED_OPTIONS = ("deck_size", "decks")


@dataclass(frozen=True)
class Applicability:
    """The gate's answer for one case on one engine.

    ``runs``: send the case, with ``substituted`` (option -> value, the engine's claimed value in
    place of the case's) applied to its ruleset. Otherwise ``reason`` says why not and
    ``blockers`` lists the claims that would unlock the case: ``option=value``, ``deck 24``,
    ``3 players with deck 36`` or a protocol feature such as ``observe``.
    """

    runs: bool
    substituted: dict[str, Any] = field(default_factory=dict)
    blockers: tuple[str, ...] = ()
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.substituted:
            out["substituted"] = dict(self.substituted)
        if self.blockers:
            out["blockers"] = list(self.blockers)
        return out


def substitute(request: Any, substitution: Mapping[str, Any]) -> Any:
    """The ruleset ``request`` (any ``new_game`` form: a preset name, ``{preset, overrides}``,
    ``{name?, options}``) with ``substitution``'s values in place of its own."""
    if not substitution:
        return request
    if isinstance(request, str):
        return {"preset": request, "overrides": dict(substitution)}
    if isinstance(request, dict) and "options" in request:
        return {**request, "options": {**request["options"], **substitution}}
    if isinstance(request, dict) and "preset" in request:
        return {**request, "overrides": {**request.get("overrides", {}), **substitution}}
    return request


def _candidates(
    option: str, support: Support, catalog: Mapping[str, Any], defaults: Mapping[str, Any]
) -> list[Any]:
    """The catalog values of ``option`` the engine claims, its catalog default first."""
    default = str(defaults.get(option))
    claimed = support.option_values(option, default)
    values = [v for v in catalog.get(option, {}).get("values", ()) if str(v) in claimed]
    return sorted(values, key=lambda v: str(v) != default)


def decide(
    options: Mapping[str, Any],
    players: int,
    support: Support,
    holds: Callable[[dict[str, Any]], bool],
    *,
    catalog: Mapping[str, Any],
    defaults: Mapping[str, Any],
    count: bool = True,
    needs: tuple[str, ...] = (),
) -> Applicability:
    """Whether a case with resolved ``options`` and ``players`` runs on an engine claiming
    ``support``; ``holds`` checks a substitution on the reference engine.

    ``count=False`` leaves the player count out (a refused start with a count the rules forbid,
    which no honest hello lists). ``needs``: protocol features the case needs and the engine does
    not claim (``observe``), which no substitution can stand in for.
    """
    if support.gates_nothing:
        return Applicability(True)
    hard = []
    key = deck_key(options.get("deck_size", 36), options.get("decks", 1))
    if count and players not in support.players.get(key, ()):
        hard.append(f"{players} players with deck {key}")
    elif key not in support.players:
        hard.append(f"deck {key}")
    for option in FIXED_OPTIONS:
        if option in support.options and str(options.get(option)) not in support.options[option]:
            hard.append(f"{option}={options.get(option)}")
    hard += needs
    if hard:
        return Applicability(
            False, blockers=tuple(hard), reason="not claimed in hello: " + ", ".join(hard)
        )

    unclaimed = [
        option
        for option, value in options.items()
        if option not in FIXED_OPTIONS
        and str(value) not in support.option_values(option, defaults.get(option, value))
    ]
    if not unclaimed:
        return Applicability(True)
    choices = [_candidates(option, support, catalog, defaults) for option in unclaimed]
    for values in itertools.islice(itertools.product(*choices), MAX_TRIES):
        substitution = dict(zip(unclaimed, values, strict=True))
        if holds(substitution):
            return Applicability(True, substituted=substitution)

    blockers = [
        option
        for option, values in zip(unclaimed, choices, strict=True)
        if not any(holds({option: value}) for value in values)
    ] or unclaimed
    claims = tuple(f"{option}={options[option]}" for option in blockers)
    return Applicability(
        False,
        blockers=claims,
        reason="its verdict depends on option values not claimed in hello: " + ", ".join(claims),
    )
