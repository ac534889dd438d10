"""Routes to the scenarios' start positions: the sidecar ``routes.yaml`` next to the features.

A scenario that starts from a position built by its Given steps runs, on an engine that plays
only in game sessions (no set-up from a state, P-33), through a route: a deck, a dealer and the
moves from ``new_game`` that reach the start exactly, found on the reference engine by
``python -m conformance.tools.reach.scenarios --write``. The file holds, by the scenario's case
ID (an outline's row by the row's ID):

- ``start``: the digest of the canonical start state the route reaches (:func:`digest`). A
  route is attached (``reached_by``) only while the scenario's start still has that digest, so a
  scenario edited after its route was found runs from its position alone, and the suite's test
  (tests/suite_reach/test_scenario_routes.py) names it until the route is found again;
- ``past`` (optional): what the Given steps leave to the builder and a game's history fixes:
  the discard pile's order, the bout number, the dealer, cards a player is known to hold (picked
  up earlier). The builder's own choice is often a position no game reaches (a pile whose pairs
  need more bouts than the bout number says); the route finder picks the nearest one a game
  reaches. A past field the scenario itself sets is never overridden (:func:`open_fields`);
- ``dealer``, ``deck``, ``moves``: the route.

``unreachable`` lists the position scenarios the finder reaches no way, each with its reason.
"""

from __future__ import annotations

import copy
import hashlib
from functools import cache
from pathlib import Path
from typing import Any

from conformance.contract import canonical

FILE_NAME = "routes.yaml"
#: The fields of a start a ``past`` may set.
PAST_FIELDS = ("discard", "bout", "dealer", "known")


class RoutesError(ValueError):
    """The routes file is malformed; the message names the file, the entry and what to do."""


def digest(state: dict[str, Any]) -> str:
    """The digest of a start state's canonical form (docs/architecture.md, canonical states)."""
    text = canonical.dumps(canonical.normalise_state(state))
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def routes_path(feature: Path) -> Path:
    """The routes file that serves the scenarios of ``feature`` (its folder's ``routes.yaml``)."""
    return Path(feature).parent / FILE_NAME


def load(path: Path) -> dict[str, Any]:
    """``{"routes": {id: entry}, "unreachable": {id: reason}}`` of a routes file (empty when
    there is none); :class:`RoutesError` when it is malformed."""
    path = Path(path)
    if not path.is_file():
        return {"routes": {}, "unreachable": {}}
    return _load(str(path), path.stat().st_mtime_ns)


@cache
def _load(name: str, _mtime: int) -> dict[str, Any]:
    from reference_impl.specdata import SpecDataError, load_yaml

    try:
        document = load_yaml(name)
    except SpecDataError as exc:
        raise RoutesError(f"{exc}; fix the file or write it again with `python -m "
                          "conformance.tools.reach.scenarios --write`") from None
    if not isinstance(document, dict) or set(document) - {"routes", "unreachable"}:
        raise RoutesError(f"{name}: must be a mapping with 'routes' and 'unreachable' only")
    routes = document.get("routes") or {}
    unreachable = document.get("unreachable") or {}
    if not isinstance(routes, dict) or not isinstance(unreachable, dict):
        raise RoutesError(f"{name}: 'routes' and 'unreachable' map case IDs to entries")
    for case_id, entry in routes.items():
        _check_entry(name, case_id, entry)
    return {"routes": _plain(routes), "unreachable": _plain(unreachable)}


def _check_entry(name: str, case_id: str, entry: Any) -> None:
    where = f"{name}: routes/{case_id}"
    if not isinstance(entry, dict):
        raise RoutesError(f"{where}: an entry is a mapping (start, dealer, deck, moves, past)")
    missing = {"start", "dealer", "deck", "moves"} - set(entry)
    extra = set(entry) - {"start", "dealer", "deck", "moves", "past"}
    if missing or extra:
        raise RoutesError(
            f"{where}: missing {sorted(missing)}, unknown {sorted(extra)}; an entry has start, "
            "dealer, deck, moves and optionally past"
        )
    past = entry.get("past") or {}
    if not isinstance(past, dict) or set(past) - set(PAST_FIELDS):
        raise RoutesError(f"{where}/past: only {', '.join(PAST_FIELDS)} may be set")


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def open_fields(spec: Any) -> set[str]:
    """The past fields the Given steps leave to the builder: the pile's order always (no step
    orders it), the bout number and the dealer unless said, known cards unless any are said."""
    out = {"discard"}
    if spec.bout_number is None:
        out.add("bout")
    if spec.dealer is None:
        out.add("dealer")
    if not spec.known:
        out.add("known")
    return out


def with_past(state: dict[str, Any], past: dict[str, Any], fields: set[str]) -> dict[str, Any]:
    """The start with ``past`` applied, or the start unchanged when the past sets a field the
    scenario fixed, reorders cards that are not the pile's, or names a card not in the hand."""
    if not past or set(past) - fields:
        return state
    out = copy.deepcopy(state)
    if "discard" in past:
        if sorted(past["discard"]) != sorted(state["discard"]):
            return state
        out["discard"] = list(past["discard"])
    if "bout" in past:
        if out["bout"] is None:
            return state
        out["bout"]["number"] = past["bout"]
    if "dealer" in past:
        out["dealer"] = past["dealer"]
    for seat, cards in (past.get("known") or {}).items():
        seat = int(seat)
        if not 0 <= seat < len(out["players"]) or set(cards) - set(out["players"][seat]["hand"]):
            return state
        out["players"][seat]["known"] = list(cards)
    return out


def attach(case_id: str, feature: Path, start: dict[str, Any], spec: Any) -> tuple[dict, Any]:
    """The start (with its past) and the route (``reached_by``) of a position scenario, when the
    routes file has an entry whose digest the start has; else the start as built and None."""
    entry = load(routes_path(feature))["routes"].get(case_id)
    if entry is None:
        return start, None
    state = with_past(start["state"], entry.get("past") or {}, open_fields(spec))
    if digest(state) != entry["start"]:
        return start, None
    route = {"dealer": entry["dealer"], "deck": list(entry["deck"]), "moves": list(entry["moves"])}
    return {**start, "state": state}, route
