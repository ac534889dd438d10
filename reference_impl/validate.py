"""Is this a valid state? JSON Schema for the shape, then the checks a schema cannot express.

``validate_state(state)`` raises :class:`~reference_impl.errors.InvalidState` with the JSON pointer
of the first problem and a sentence saying what is wrong, or returns the resolved option mapping.
The shape is ``spec/schema/state.schema.json`` (which takes the option values from
``ruleset.schema.json``). The semantic checks: the ruleset sets every option; the player count
suits the deck and the teams; every card of the deck is in exactly one place (hands, talon, table,
discard) and no other card appears; the trump card lies at the bottom of a non-empty talon;
defence cards beat their attack cards; roles point at seats still in the game; the bout's
bookkeeping (passes, take, first defence, emptied hands) fits the table; the attack limits hold;
players who went out hold no cards; the result and the bout exclude each other. Roles, known
cards, a take and shown trumps no game reaches are refused too, each naming the rule it breaks
(R-ROLE-2, R-ROLE-5, R-TEAM-2, R-THROW-3, R-INFO-3, R-TAKE-1, R-TRANSFER-7/8).
"""

from __future__ import annotations

import json
import re
from functools import cache

from reference_impl import specdata
from reference_impl.cards import CARD_NAMES, CARD_NUMBERS, RANK_OF, SUIT_OF
from reference_impl.errors import InvalidState
from reference_impl.tables import (
    CAP_HAND,
    CAP_SIX,
    CAP_SIX_FIVE_FIRST,
    CAPACITY_HAND_AND_LIMIT,
    NO_CAP,
    TEAM_PLAYERS,
    TIMING_ALL_BEATEN,
    TIMING_ANY,
    compile_rules,
    max_players,
    team_of_seat,
)


@cache
def _validator():
    import jsonschema
    from referencing import Registry, Resource

    resources = []
    for name in ("state", "ruleset"):
        doc = json.loads(specdata.schema_path(name).read_text(encoding="utf-8"))
        resources.append((doc["$id"], Resource.from_contents(doc)))
    registry = Registry().with_resources(resources)
    state_schema = resources[0][1].contents
    return jsonschema.Draft202012Validator(state_schema, registry=registry)


@cache
def _option_table() -> dict:
    from reference_impl.rulesets import catalog_options

    return catalog_options()


def _ptr(*parts) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def schema_errors(state) -> list:
    """Every JSON Schema error of ``state`` (slow; the engine itself uses :func:`_shape`)."""
    return list(_validator().iter_errors(state))


_CARD_RE = re.compile(r"^[2-9TJQKA][CDHS]2?$")
_TOP = ("version", "ruleset", "dealer", "trump", "talon", "discard", "players", "table", "bout",
        "finished", "result")
_BOUT = ("number", "attacker", "defender", "opener", "passed", "taking", "first_defence", "shown",
         "emptied")
_RESULT = ("fool", "draw", "losing_team", "winners", "finishing_order", "epaulettes")
_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9+_=-]*$")


class _Shape(Exception):
    def __init__(self, pointer: str, message: str):
        self.pointer = pointer
        self.message = message


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _obj(v, keys, pointer: str, optional=()) -> None:
    if not isinstance(v, dict):
        raise _Shape(pointer, "must be an object")
    for k in keys:
        if k not in v:
            raise _Shape(pointer, f"{k!r} is a required property")
    for k in v:
        if k not in keys and k not in optional:
            raise _Shape(_ptr_join(pointer, k), f"unexpected property {k!r}")


def _ptr_join(pointer: str, key) -> str:
    return pointer + "/" + str(key).replace("~", "~0").replace("/", "~1")


def _card(v, pointer: str) -> None:
    if not isinstance(v, str) or not _CARD_RE.match(v):
        raise _Shape(pointer, f"{v!r} is not a card (<rank><suit>[2], e.g. \"7S\")")


def _cards(v, pointer: str) -> None:
    if not isinstance(v, list):
        raise _Shape(pointer, "must be a list of cards")
    match = _CARD_RE.match
    for i, c in enumerate(v):
        if not isinstance(c, str) or not match(c):
            _card(c, f"{pointer}/{i}")


def _seat(v, pointer: str) -> None:
    if not _is_int(v) or not 0 <= v <= 7:
        raise _Shape(pointer, f"{v!r} is not a seat number (0..7)")


def _seats(v, pointer: str) -> None:
    if not isinstance(v, list):
        raise _Shape(pointer, "must be a list of seats")
    for i, p in enumerate(v):
        if not _is_int(p) or not 0 <= p <= 7:
            _seat(p, f"{pointer}/{i}")


def _team(v, pointer: str) -> None:
    if v is not None and (not _is_int(v) or not 0 <= v <= 2):
        raise _Shape(pointer, f"{v!r} is not a team (null or 0..2)")


def _shape_check(st) -> None:
    """The shape of spec/schema/state.schema.json, checked directly (jsonschema takes ~7 ms per
    state; this takes microseconds). tests/engine/test_validate.py checks both agree."""
    _obj(st, _TOP, "")
    if st["version"] != 1 or not _is_int(st["version"]):
        raise _Shape("/version", "must be 1")
    rs = st["ruleset"]
    _obj(rs, ("name", "options"), "/ruleset", optional=("description",))
    if not isinstance(rs["name"], str) or not _NAME_RE.match(rs["name"]):
        raise _Shape("/ruleset/name", f"{rs['name']!r} is not a ruleset name "
                                      "(lower-case letters, digits, + _ = -)")
    if "description" in rs and not isinstance(rs["description"], str):
        raise _Shape("/ruleset/description", "must be a string")
    options = rs["options"]
    table = _option_table()
    _obj(options, tuple(table), "/ruleset/options")
    for name, value in options.items():
        allowed = table[name]["values"]
        if value not in allowed or type(value) is not type(allowed[allowed.index(value)]):
            raise _Shape(f"/ruleset/options/{name}",
                         f"{value!r} is not one of {allowed}")
    _seat(st["dealer"], "/dealer")
    _card(st["trump"], "/trump")
    _cards(st["talon"], "/talon")
    _cards(st["discard"], "/discard")
    players = st["players"]
    if not isinstance(players, list) or not 2 <= len(players) <= 8:
        raise _Shape("/players", "must be a list of 2 to 8 players")
    for i, p in enumerate(players):
        base = f"/players/{i}"
        _obj(p, ("hand", "known", "team"), base)
        _cards(p["hand"], base + "/hand")
        _cards(p["known"], base + "/known")
        _team(p["team"], base + "/team")
    if not isinstance(st["table"], list):
        raise _Shape("/table", "must be a list of attack/defence pairs")
    for i, pair in enumerate(st["table"]):
        base = f"/table/{i}"
        _obj(pair, ("attack", "by", "defence"), base)
        _card(pair["attack"], base + "/attack")
        _seat(pair["by"], base + "/by")
        if pair["defence"] is not None:
            _card(pair["defence"], base + "/defence")
    bout = st["bout"]
    if bout is not None:
        _obj(bout, _BOUT, "/bout")
        if not _is_int(bout["number"]) or bout["number"] < 1:
            raise _Shape("/bout/number", "must be an integer >= 1")
        for k in ("attacker", "defender", "opener"):
            _seat(bout[k], "/bout/" + k)
        _seats(bout["passed"], "/bout/passed")
        _seats(bout["emptied"], "/bout/emptied")
        if not isinstance(bout["taking"], bool):
            raise _Shape("/bout/taking", "must be true or false")
        if bout["first_defence"] is not None:
            _card(bout["first_defence"], "/bout/first_defence")
        _cards(bout["shown"], "/bout/shown")
    _seats(st["finished"], "/finished")
    res = st["result"]
    if res is not None:
        _obj(res, _RESULT, "/result")
        if res["fool"] is not None:
            _seat(res["fool"], "/result/fool")
        if not isinstance(res["draw"], bool):
            raise _Shape("/result/draw", "must be true or false")
        _team(res["losing_team"], "/result/losing_team")
        _seats(res["winners"], "/result/winners")
        _seats(res["finishing_order"], "/result/finishing_order")
        ep = res["epaulettes"]
        if ep is not None and (not _is_int(ep) or ep < 0):
            raise _Shape("/result/epaulettes", "must be null or an integer >= 0")


def _schema_check(state) -> None:
    try:
        _shape_check(state)
    except _Shape as exc:
        raise InvalidState(exc.pointer, f"state shape: {exc.message}") from None


def validate_state(state) -> dict:
    """Raise ``InvalidState`` unless ``state`` is a valid state; return its options."""
    if not isinstance(state, dict):
        raise InvalidState("", "a state must be a JSON object (docs/architecture.md, State)")
    _schema_check(state)
    options = state["ruleset"]["options"]
    _check(state, options)
    return options


def _check(st: dict, options: dict) -> None:
    """The rules' invariants of a shape-valid state, in the order their errors are reported."""
    rules = compile_rules(options)
    n = _check_seats(st, rules)
    hands = _check_cards(st, rules)
    _check_trump_and_talon(st, rules)
    _check_finished(st, n, hands)
    bout = st["bout"]
    result = st["result"]
    if result is not None:
        if bout is not None:
            raise InvalidState("/bout", "the game is over (result set): bout must be null")
        _check_result(st, result, n, hands, rules)
        return
    if bout is None:
        raise InvalidState("/bout", "the game goes on (result null): bout must describe the bout")
    _check_bout(st, bout, n, hands, rules)


def _check_seats(st: dict, rules) -> int:
    """R-DECK-4, R-TEAM-1: the player count and the teams suit the ruleset; the dealer exists.
    Returns the player count."""
    players = st["players"]
    n = len(players)
    limit = max_players(rules.deck_size, rules.decks)
    if n > limit:
        raise InvalidState("/players", f"{n} players cannot play with {rules.deck_size * rules.decks}"
                                       f" cards (R-DECK-4: at most {limit})")
    if rules.teams != "none" and TEAM_PLAYERS[rules.teams] != n:
        raise InvalidState("/players", f"teams {rules.teams} needs {TEAM_PLAYERS[rules.teams]} "
                                       f"players, not {n} (R-TEAM-1)")
    for i, p in enumerate(players):
        want = team_of_seat(rules.teams, i)
        if p["team"] != want:
            raise InvalidState(_ptr("players", i, "team"),
                               f"seat {i} is in team {want} under teams {rules.teams}, not {p['team']} "
                               "(R-TEAM-1)")
    for key in ("dealer",):
        if st[key] >= n:
            raise InvalidState(_ptr(key), f"seat {st[key]} does not exist in a {n}-player game")
    return n


def _check_cards(st: dict, rules) -> list:
    """R-DECK-5: every card of the deck exactly once; known cards are in their hand (R-INFO-3);
    each defence beats its attack card (R-BEAT-1); the discard pile holds beaten pairs, each attack
    card followed by the card that beat it (R-BOUT-1). Returns the hands as masks."""
    players = st["players"]
    n = len(players)
    deck_mask = rules.deck_mask
    seen: dict[int, tuple] = {}

    def place(card: str, *where) -> int:
        c = CARD_NUMBERS[card]
        if not (deck_mask >> c) & 1:
            raise InvalidState(_ptr(*where), f"{card} is not a card of this deck "
                                             f"({rules.deck_size} cards x {rules.decks})")
        if c in seen:
            raise InvalidState(_ptr(*where), f"{card} appears twice (also at {_ptr(*seen[c])})")
        seen[c] = where
        return c

    hands = []
    for i, p in enumerate(players):
        h = 0
        for j, card in enumerate(p["hand"]):
            h |= 1 << place(card, "players", i, "hand", j)
        hands.append(h)
        for j, card in enumerate(p["known"]):
            if not (h >> CARD_NUMBERS[card]) & 1:
                raise InvalidState(_ptr("players", i, "known", j),
                                   f"{card} is listed as known but is not in seat {i}'s hand")
    for j, card in enumerate(st["talon"]):
        place(card, "talon", j)
    for j, card in enumerate(st["discard"]):
        place(card, "discard", j)
    beats = rules.beats(SUIT_OF[CARD_NUMBERS[st["trump"]]])
    for j, pair in enumerate(st["table"]):
        a = place(pair["attack"], "table", j, "attack")
        if pair["defence"] is not None:
            dcard = place(pair["defence"], "table", j, "defence")
            if not (beats[a] >> dcard) & 1:
                raise InvalidState(_ptr("table", j, "defence"),
                                   f"{pair['defence']} does not beat {pair['attack']} (R-BEAT-1)")
        if pair["by"] >= n:
            raise InvalidState(_ptr("table", j, "by"), f"seat {pair['by']} does not exist")
    missing = set(rules.deck) - set(seen)
    if missing:
        names = " ".join(sorted((CARD_NAMES[c] for c in missing), key=lambda x: CARD_NUMBERS[x]))
        raise InvalidState("/", f"cards missing from the state (each card must be in a hand, the "
                                f"talon, the table or the discard pile): {names}")
    if len(st["discard"]) % 2:
        raise InvalidState("/discard", "the discard pile holds attack/defence pairs: its size is even")
    pile = st["discard"]
    for j in range(1, len(pile), 2):
        if not (beats[CARD_NUMBERS[pile[j - 1]]] >> CARD_NUMBERS[pile[j]]) & 1:
            raise InvalidState(_ptr("discard", j),
                               f"{pile[j]} does not beat {pile[j - 1]}: a bout's cards go to the "
                               "discard pile in table order, each attack card followed by the "
                               "card that beat it (R-BOUT-1)")
    _check_known(st)
    return hands


def _check_known(st: dict) -> None:
    """R-INFO-3: a card is known once (a list, not a multiset) and the trump card, once drawn, is
    known in its hand (R-TRUMP-2; dealt with no talon, R-TRUMP-3): it can leave the hand only face
    up and come back only in a take, which makes it known again."""
    for i, p in enumerate(st["players"]):
        known = p["known"]
        if len(set(known)) != len(known):
            raise InvalidState(_ptr("players", i, "known"),
                               "a card is listed twice as known (R-INFO-3)")
        if not st["talon"] and st["trump"] in p["hand"] and st["trump"] not in known:
            raise InvalidState(_ptr("players", i, "known"),
                               f"seat {i} holds the trump card {st['trump']} with the talon empty, "
                               "so everyone saw it drawn (or dealt last): it is a known card "
                               "(R-TRUMP-2, R-INFO-3)")


def _check_trump_and_talon(st: dict, rules) -> None:
    """The trump card is of the deck and lies at the bottom of the talon (R-TRUMP-2)."""
    trump = CARD_NUMBERS[st["trump"]]
    if not (rules.deck_mask >> trump) & 1:
        raise InvalidState("/trump", f"{st['trump']} is not a card of this deck")
    talon = st["talon"]
    if talon and talon[-1] != st["trump"]:
        raise InvalidState(_ptr("talon", len(talon) - 1),
                           f"the trump card {st['trump']} lies at the bottom of the talon and is "
                           f"drawn last (R-TRUMP-2); the talon ends with {talon[-1]}")


def _check_finished(st: dict, n: int, hands: list) -> None:
    """R-OUT-1: players who went out exist, once each, hold no cards, and only once the talon is
    empty."""
    talon = st["talon"]
    finished = st["finished"]
    if len(set(finished)) != len(finished):
        raise InvalidState("/finished", "a seat is listed twice")
    for j, p in enumerate(finished):
        if p >= n:
            raise InvalidState(_ptr("finished", j), f"seat {p} does not exist")
        if hands[p]:
            raise InvalidState(_ptr("finished", j), f"seat {p} went out but holds cards")
        if talon:
            raise InvalidState(_ptr("finished", j), "nobody goes out while the talon has cards "
                                                    "(R-OUT-1)")


def _check_bout(st: dict, bout: dict, n: int, hands: list, rules) -> None:
    for key in ("attacker", "defender", "opener"):
        if bout[key] >= n:
            raise InvalidState(_ptr("bout", key), f"seat {bout[key]} does not exist")
    a, d = bout["attacker"], bout["defender"]
    table = st["table"]
    teams = rules.team_list(n) if rules.teams != "none" else None
    if a == d:
        raise InvalidState("/bout/defender", "the defender cannot be the main attacker")
    if not hands[d]:
        raise InvalidState("/bout/defender", f"the defender, seat {d}, holds no cards (R-ROLE-2)")
    for key in ("passed", "emptied"):
        seats = bout[key]
        if len(set(seats)) != len(seats) or any(p >= n for p in seats):
            raise InvalidState(_ptr("bout", key), "seats must exist and be listed once")
    if d in bout["passed"]:
        raise InvalidState("/bout/passed", "the defender does not pass")
    for j, p in enumerate(bout["emptied"]):
        if hands[p]:
            raise InvalidState(_ptr("bout", "emptied", j), f"seat {p} is listed as emptied but "
                                                           "holds cards")
    finished = st["finished"]
    immediate = rules.out_immediate and not st["talon"]
    for p in range(n):
        if hands[p] or p in finished:
            continue
        if p not in bout["emptied"]:
            raise InvalidState(_ptr("players", p, "hand"),
                               f"seat {p} holds no cards but neither went out (finished) nor "
                               "emptied the hand in this bout (bout.emptied)")
        if immediate:
            raise InvalidState("/finished", f"seat {p} ran out with the talon empty and is out at "
                                            "once (out_timing: immediate)")
    for j, c in enumerate(bout["shown"]):
        if SUIT_OF[CARD_NUMBERS[c]] != SUIT_OF[CARD_NUMBERS[st["trump"]]]:
            raise InvalidState(_ptr("bout", "shown", j), f"{c} is not a trump; only trumps are "
                                                         "shown (R-TRANSFER-7)")
    _check_roles(st, bout, n, hands, rules, teams)
    if not table:
        clean = (not bout["passed"] and not bout["taking"] and bout["first_defence"] is None
                 and not bout["shown"] and not bout["emptied"])
        if not clean:
            raise InvalidState("/bout", "with an empty table the bout has not started: nothing "
                                        "passed, taken, beaten, shown or emptied yet")
        if bout["opener"] != a:
            raise InvalidState("/bout/opener", "before the opening attack the opener is the "
                                               "main attacker")
        if not hands[a]:
            raise InvalidState("/bout/attacker", f"the main attacker, seat {a}, holds no cards")
        holders = {p if teams is None else teams[p] for p in range(n) if hands[p]}
        if len(holders) < 2:
            raise InvalidState("/result", "at most one player (team) holds cards: the game is "
                                          "over and needs a result (R-END-1)")
        return
    defences = [pair["defence"] for pair in table if pair["defence"] is not None]
    first = bout["first_defence"]
    if defences and first not in defences:
        raise InvalidState("/bout/first_defence", "must name the first defence card on the table")
    if first is not None and not defences:
        raise InvalidState("/bout/first_defence", "no card on the table is beaten")
    # attack limits (R-ATTACK-3/4)
    unbeaten = sum(1 for pair in table if pair["defence"] is None)
    cap = _cap(rules, st, bout)
    # a transfer under transfer_capacity hand or hand_plus_one checks only the new defender's
    # hand (R-TRANSFER-3), so with two packs it may leave more attack cards than the cap
    past_cap_by_transfer = rules.transfer and rules.capacity != CAPACITY_HAND_AND_LIMIT
    if len(table) > cap and not past_cap_by_transfer:
        raise InvalidState("/table", f"{len(table)} attack cards exceed the cap of {cap} (R-ATTACK-3)")
    if unbeaten > hands[d].bit_count():
        raise InvalidState("/table", f"{unbeaten} unbeaten attack cards exceed the defender's "
                                     f"{hands[d].bit_count()} cards (R-ATTACK-4)")
    if bout["taking"] and not rules.pile_on:
        raise InvalidState("/bout/taking", "with pile_on: forbidden a take closes the bout at once")
    ranks = {RANK_OF[CARD_NUMBERS[pair["attack"]]] for pair in table}
    if not defences and len(ranks) > 1:
        raise InvalidState("/table", "attack cards of several ranks with nothing beaten: a "
                                     "throw-in needs a rank already on the table (R-THROW-1)")
    if bout["taking"] and not rules.take_any_time and not unbeaten:
        raise InvalidState("/bout/taking", "take is declared but every attack card is beaten: with "
                                           "take_allowed: while_unbeaten the defender takes only "
                                           "while a card is unbeaten, and nobody beats after a "
                                           "take (R-TAKE-1)")
    _check_shown(st, bout, rules)
    _check_alternation(rules, bout, table, defences, unbeaten)


def _check_roles(st: dict, bout: dict, n: int, hands: list, rules, teams) -> None:
    """Roles no bout reaches. The defender is an opponent of the main attacker (R-TEAM-2), and
    without transfers he is the first opponent holding cards clockwise from him (R-ROLE-2: a
    seat between them that holds cards now held them when the bout began, since only a taker
    gains cards). Without transfers the main attacker never changes, so he is the opener
    (R-ROLE-5), and every attack card was played by an eligible attacker: neither the defender
    nor his partner (R-THROW-3, R-TEAM-2). A transfer moves the defender on and may change the
    main attacker, so those checks wait for one."""
    a, d = bout["attacker"], bout["defender"]
    if teams is not None and teams[a] == teams[d]:
        raise InvalidState("/bout/defender", f"seats {a} and {d} are partners: partners never "
                                             "attack each other (R-TEAM-2)")
    if rules.transfer:
        return
    seat = (a + 1) % n
    while seat != d:
        if hands[seat] and (teams is None or teams[seat] != teams[a]):
            raise InvalidState("/bout/defender",
                               f"seat {seat}, between the main attacker {a} and seat {d}, holds "
                               "cards and is an opponent of the attacker: the defender is the "
                               f"first such seat clockwise, seat {seat} (R-ROLE-2)")
        seat = (seat + 1) % n
    if bout["opener"] != a:
        raise InvalidState("/bout/opener", f"without transfers the main attacker opens the bout "
                                           f"and stays main attacker: the opener is seat {a}, not "
                                           f"{bout['opener']} (R-ROLE-5)")
    for j, pair in enumerate(st["table"]):
        by = pair["by"]
        if by == d or (teams is not None and teams[by] == teams[d]):
            raise InvalidState(_ptr("table", j, "by"),
                               f"seat {by} cannot have played an attack card at seat {d}: the "
                               "defender and his partners never attack him (R-THROW-3, R-TEAM-2)")


def _check_shown(st: dict, bout: dict, rules) -> None:
    """Shown trumps (R-TRANSFER-7, R-TRANSFER-8): only where the ruleset has shows, each once,
    and of the rank every transfer of the bout has, the opening card's."""
    shown = bout["shown"]
    if not shown:
        return
    if not rules.transfer or not rules.trump_show:
        raise InvalidState("/bout/shown", "trumps are shown only with transfer: on and trump_show "
                                          "not off (R-TRANSFER-7)")
    if len(set(shown)) != len(shown):
        raise InvalidState("/bout/shown", "a trump is shown once per bout (R-TRANSFER-8)")
    rank = RANK_OF[CARD_NUMBERS[st["table"][0]["attack"]]]
    for j, c in enumerate(shown):
        if RANK_OF[CARD_NUMBERS[c]] != rank:
            raise InvalidState(_ptr("bout", "shown", j),
                               f"{c} is not of the bout's attack rank: a trump is shown to transfer "
                               "an attack of its own rank (R-TRANSFER-7)")


def _check_alternation(rules, bout: dict, table: list, defences: list, unbeaten: int) -> None:
    """Tables no game reaches when one card opens (R-ATTACK-2) and no transfer or take adds
    cards: before the first beat only the opening card lies there if throw-ins wait for a beat
    (R-THROW-2 after_first_beat, all_beaten), and strict alternation (all_beaten) never leaves
    two cards unbeaten. An engine of such a ruleset cannot be asked about them."""
    if rules.opening_multi or rules.transfer or bout["taking"]:
        return
    if rules.timing != TIMING_ANY and not defences and len(table) > 1:
        raise InvalidState("/table", f"{len(table)} attack cards with nothing beaten: one card "
                                     "opens (opening: single) and nothing is thrown in before "
                                     "a beat (R-THROW-2)")
    if rules.timing == TIMING_ALL_BEATEN and unbeaten > 1:
        raise InvalidState("/table", f"{unbeaten} attack cards unbeaten: with throw_in_timing "
                                     "all_beaten a card is thrown in only when every card is "
                                     "beaten (R-THROW-2)")


def _cap(rules, st: dict, bout: dict) -> int:
    mode = rules.cap_mode
    if mode == CAP_SIX_FIVE_FIRST:
        return 6 if st["discard"] else 5
    if mode == CAP_SIX:
        return 6
    if mode == CAP_HAND:
        return NO_CAP
    return 5 if bout["number"] == 1 else 6


def _check_result(st: dict, result: dict, n: int, hands: list, rules) -> None:
    for key in ("fool",):
        if result[key] is not None and result[key] >= n:
            raise InvalidState(_ptr("result", key), f"seat {result[key]} does not exist")
    for key in ("winners", "finishing_order"):
        if any(p >= n for p in result[key]):
            raise InvalidState(_ptr("result", key), "a seat that does not exist")
    if result["finishing_order"] != st["finished"]:
        raise InvalidState("/result/finishing_order", "must equal the state's finished list")
    if result["draw"] and result["fool"] is not None:
        raise InvalidState("/result/fool", "a drawn game has no fool")
    if (result["epaulettes"] is None) == rules.epaulettes:
        raise InvalidState("/result/epaulettes", "an integer with epaulettes on, null with off")
    teams = rules.team_list(n) if rules.teams != "none" else None
    holders = {p if teams is None else teams[p] for p in range(n) if hands[p]}
    if len(holders) > 1:
        raise InvalidState("/result", "the game is over but more than one player (team) holds "
                                      "cards (R-END-1)")
