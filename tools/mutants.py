"""Proof that the conformance suite bites: single-rule mistakes planted in copies of the reference
engine, each of which the suite must catch.

Why a project tool and not part of ``conformance``: engine authors never need it. It checks the
suite itself (issue 6, "Proof that the suite bites"), so it lives beside the other maintenance
tools and is run by ``tests/mutants/``.

How one mutant is made and judged:

1. ``reference_impl/*.py`` is copied into a scratch directory as a package of another name
   (``durak_mutant_<id>``), so the judge (``conformance``, which reads rulesets through the real
   ``reference_impl``) is never the mutated code; ``spec/`` is linked beside it so the copy finds
   its data as a checkout does.
2. The mutant's patch is an exact text replacement that must match exactly once in the original
   file. When the engine is refactored and the text is gone (or appears twice), building the mutant
   fails loudly with the file and the text, instead of silently testing an unmutated engine.
3. The whole suite (packaged fixtures and Gherkin features, exactly the command line of
   ``durak-conformance run``) is run against ``python:durak_mutant_<id>._engine:make`` with a JSON
   report. A mutant is *caught* when at least one case fails; the report says which failing cases
   cite the broken rule's ID in their ``rules`` (or at least a rule of its area).

A control (the copy with no patch) runs first and must pass every case, so a catch is never just
the copying going wrong. Runs are spread over worker processes; each worker calls ``pytest.main``
once per mutant (a second run in one process skips the imports and the feature parsing).

Usage::

    python tools/mutants.py                 # all mutants, table on stdout
    python tools/mutants.py -j 2 --only attack-cap-plus-one,beat-trump-any-trump -v
    python tools/mutants.py --list          # the mutants and their patches, without running
    python tools/mutants.py --markdown      # the table as Markdown (docs/mutants.md)

Exit status: 0 when the control passes and every mutant is caught with a failing case citing its
rule or area; 1 otherwise (a survivor, an uncited catch, a broken run); 2 when a patch no longer
applies.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE_DIR = ROOT / "reference_impl"
SPEC_DIR = ROOT / "spec"
PACKAGE_PREFIX = "durak_mutant_"
CONTROL = "control"

#: outcomes that make a run fail (conformance.reports.report.FAILING; repeated so that listing the mutants
#: needs no import of the runner)
FAILING = ("failed", "error", "broken", "xpassed", "mismatch")


class MutantPatchError(Exception):
    """A mutant's text no longer matches the engine exactly once: update the mutant."""


@dataclass(frozen=True)
class Mutant:
    """One deliberate mistake: in ``file`` (relative to reference_impl/), ``old`` becomes ``new``.

    ``rule`` is the rule ID the mistake breaks; ``what`` says the mistake in players' words.
    """

    id: str
    rule: str
    file: str
    old: str
    new: str
    what: str
    #: where ``old`` starts (a character offset), for a fault made at one place by tools/faults.py;
    #: None: ``old`` must occur exactly once in the file
    at: int | None = None

    @property
    def area(self) -> str:
        return self.rule.split("-")[1]

    @property
    def package(self) -> str:
        return PACKAGE_PREFIX + self.id.replace("-", "_")


def _m(id: str, rule: str, file: str, old: str, new: str, what: str) -> Mutant:
    return Mutant(id, rule, file, old, new, what)


MUTANTS: tuple[Mutant, ...] = (
    # ------------------------------------------------------------------ DECK, DEAL, TRUMP
    _m("deck-refuses-seven-and-eight", "R-DECK-4", "api.py",
       "if not 2 <= n <= limit:",
       "if not 2 <= n <= min(limit, 6):",
       "games of 7 or 8 players are refused although the engine claims them"),
    _m("deck-too-many-players", "R-DECK-4", "api.py",
       "if not 2 <= n <= limit:",
       "if not 2 <= n <= limit + 1:",
       "one player more than the pack allows is accepted at new_game"),
    _m("shuffle-sattolo", "R-DEAL-2", "cards.py",
       "j = next(rng) % (i + 1)",
       "j = next(rng) % i",
       "the portable shuffle never leaves a card in place (j = next() mod i)"),
    _m("deal-from-dealer", "R-DEAL-1", "deal.py",
       "seat = (dealer + 1 + k) % n",
       "seat = (dealer + k) % n",
       "one card at a time, but starting with the dealer instead of the dealer's left"),
    _m("deal-default-dealer-zero", "R-DEAL-3", "api.py",
       "dealer = n - 1",
       "dealer = 0",
       "the first game's default dealer is seat 0 instead of seat N-1"),
    _m("trump-wrong-index", "R-TRUMP-1", "deal.py",
       "trump = deck[dealt]\n        talon = list(deck[dealt + 1:]) + [trump]",
       "trump = deck[dealt + 1]\n        talon = [deck[dealt]] + list(deck[dealt + 2:]) + [trump]",
       "trump_card: after_deal turns up deck index 6N+1 instead of 6N"),
    _m("trump-bottom-ignored", "R-TRUMP-1", "deal.py",
       "elif rules.trump_bottom:",
       "elif False:",
       "trump_card: bottom still turns up the card after the deal"),
    _m("trump-drawn-first", "R-TRUMP-2", "bout_end.py",
       "            while need > 0 and stock:\n                c = stock.pop()",
       "            while need > 0 and stock:\n                c = stock.pop(0)",
       "the talon is drawn from its bottom, so the trump card comes first (fill_in_turn)"),
    _m("trump-no-talon-first-card", "R-TRUMP-3", "deal.py",
       "trump = deck[dealt - 1]",
       "trump = deck[n - 1]",
       "with no talon the dealer's first card, not the last card dealt, fixes trumps"),
    # ------------------------------------------------------------------ ROLE
    _m("first-attacker-highest-trump", "R-ROLE-1", "deal.py",
       "key = (RANK_OF[c], dealt_at[c])\n                if best is None or key < best[0]:",
       "key = (RANK_OF[c], dealt_at[c])\n                if best is None or key > best[0]:",
       "the holder of the highest trump attacks first"),
    _m("no-trump-fallback-ignored", "R-ROLE-1", "deal.py",
       'if fallback == "seat_zero":\n        return 0',
       'if fallback == "seat_zero":\n        return (dealer + 1) % n',
       "no_trump_fallback: seat_zero gives the first attack to the dealer's left"),
    _m("defender-may-be-partner", "R-ROLE-2", "bout_end.py",
       "        if hands[q] and (teams is None or teams[q] != teams[attacker]):\n"
       "            defender = q",
       "        if hands[q]:\n            defender = q",
       "the next bout's defender is the next seat holding cards, even the attacker's partner"),
    _m("defender-does-not-attack", "R-ROLE-3", "bout_end.py",
       "start = d + 1 if took else d",
       "start = d + 1",
       "after a successful defence the defender's left attacks, not the defender"),
    _m("taker-attacks-next", "R-ROLE-4", "bout_end.py",
       "start = d + 1 if took else d",
       "start = d",
       "after a take the taker attacks next"),
    _m("main-attacker-not-first", "R-ROLE-5", "queries.py",
       "    if pr == PRIO_CIRCLE:\n        for p in el:",
       "    if pr == PRIO_CIRCLE:\n        for p in sorted(el, key=lambda q: (q - s.defender) % s.n):",
       "the main attacker loses his precedence: the circle simply starts at the defender's left"),
    # ------------------------------------------------------------------ PLAY
    _m("moves-after-game-over", "R-PLAY-2", "core.py",
       "    if s.result is not None:\n        return []",
       "    if False:\n        return []",
       "moves are still listed once the game is over"),
    _m("card-not-held-wrong-rule", "R-PLAY-3", "diagnose.py",
       'return "R-PLAY-3", f"player {p} does not hold {_cards(missing)}"',
       'return "R-PLAY-4", f"player {p} does not hold {_cards(missing)}"',
       "a card the player does not hold is refused citing R-PLAY-4 instead of R-PLAY-3"),
    _m("role-check-skipped", "R-PLAY-4", "diagnose.py",
       "if act in (ATTACK, THROW_IN, PASS) and p == d:",
       "if False:",
       "the defender using an attacker's action is refused under another rule than R-PLAY-4"),
    # ------------------------------------------------------------------ ATTACK
    _m("open-with-pass", "R-ATTACK-1", "core.py",
       "                out.append((a, ATTACK, low, 0))\n                h ^= low\n        return out",
       "                out.append((a, ATTACK, low, 0))\n                h ^= low\n"
       "        out.append((a, PASS, 0, 0))\n        return out",
       "the main attacker may pass instead of opening the bout"),
    _m("opening-same-rank-always", "R-ATTACK-2", "core.py",
       "if r.opening_multi and limit > 1:",
       "if limit > 1:",
       "opening: single still lets the attacker open with several cards of one rank"),
    _m("attack-cap-plus-one", "R-ATTACK-3", "queries.py",
       "a = cap(s) - len(s.t_att)",
       "a = cap(s) + 1 - len(s.t_att)",
       "the attack limit is off by one: one card more than the cap"),
    _m("five-first-means-bout-one", "R-ATTACK-3", "queries.py",
       "return 6 if s.discard else 5",
       "return 6 if s.bout > 1 else 5",
       "six_five_first caps bout 1 only, not every bout while nothing has been discarded"),
    _m("unbeaten-exceeds-hand", "R-ATTACK-4", "queries.py",
       "b = s.hands[s.defender].bit_count() - s.unbeaten",
       "b = s.hands[s.defender].bit_count() + 1 - s.unbeaten",
       "one more unbeaten card than the defender holds may be put down"),
    # ------------------------------------------------------------------ BEAT
    _m("beat-trump-any-trump", "R-BEAT-1", "tables.py",
       "if (sc == sa and RANK_OF[c] > ra) or (sc == trump_suit and sa != trump_suit):",
       "if (sc == sa and (RANK_OF[c] > ra or sc == trump_suit)) or "
       "(sc == trump_suit and sa != trump_suit):",
       "a trump is beaten by any other trump, a lower one included"),
    _m("beat-twin-beats-twin", "R-BEAT-1", "tables.py",
       "if (sc == sa and RANK_OF[c] > ra) or (sc == trump_suit and sa != trump_suit):",
       "if (sc == sa and RANK_OF[c] >= ra and c != a) or "
       "(sc == trump_suit and sa != trump_suit):",
       "with two decks a card beats its twin (same rank and suit)"),
    _m("beat-beaten-card", "R-BEAT-3", "core.py",
       "            for i in range(len(t_att)):\n                if t_def[i] < 0:",
       "            for i in range(len(t_att)):\n                if True:",
       "an attack card already beaten may be beaten again"),
    _m("earliest-first-ignored", "R-BEAT-4", "core.py",
       "if r.beat_earliest:\n                        break",
       "if False:\n                        break",
       "beat_order: earliest_first lets the defender beat the cards in any order"),
    # ------------------------------------------------------------------ THROW
    _m("throw-no-defence-ranks", "R-THROW-1", "state.py",
       "            for c in self.t_def:\n                if c >= 0:",
       "            for c in self.t_def:\n                if c >= 0 and c == self.first_def:",
       "throw_in_ranks: table ignores the ranks of defence cards after the first"),
    _m("after-first-beat-ignored", "R-THROW-2", "core.py",
       "can_throw = s.first_def >= 0",
       "can_throw = True",
       "throw_in_timing: after_first_beat allows throw-ins before the first beat"),
    _m("partner-throws-in", "R-TEAM-2", "queries.py",
       "        if p != main and hands[p] and (teams is None or teams[p] != teams[d]):\n"
       "            out.append(p)",
       "        if p != main and hands[p]:\n            out.append(p)",
       "the defender's partner may throw in on him"),
    _m("main-only-ignored", "R-THROW-3", "queries.py",
       "    if s.r.main_only:\n        return out\n",
       "",
       "throwers: main_only still lets every attacker throw in"),
    _m("circle-as-main-first", "R-THROW-4", "queries.py",
       "if pr == PRIO_CIRCLE:",
       "if pr == -1:",
       "throw_in_priority: circle plays as main_first"),
    _m("pass-while-unbeaten", "R-THROW-5", "core.py",
       "can_pass = taking or u == 0",
       "can_pass = True",
       "an attacker may pass while an attack card is still unbeaten"),
    _m("pass-not-reset-by-beat", "R-THROW-6", "core.py",
       "s.passed = 0  # R-THROW-6: a beat clears every pass (both pass_reset values)",
       "pass",
       "a beat does not clear the passes"),
    _m("pass-reset-any-card-ignored", "R-THROW-6", "core.py",
       "        if s.r.reset_any:\n            s.passed = 0",
       "        if False:\n            s.passed = 0",
       "pass_reset: any_card does not clear passes on a throw-in"),
    # ------------------------------------------------------------------ TAKE
    _m("take-when-all-beaten", "R-TAKE-1", "core.py",
       "elif r.take_any_time:",
       "elif True:",
       "take_allowed: while_unbeaten still lets the defender take when every card is beaten"),
    _m("pile-on-ignores-limit", "R-TAKE-2", "queries.py",
       "b = s.hands[s.defender].bit_count() - s.unbeaten",
       "b = (1 << 20) if s.taking else s.hands[s.defender].bit_count() - s.unbeaten",
       "piling on after a take ignores the defender's hand size"),
    _m("pile-on-forbidden-ignored", "R-TAKE-2", "core.py",
       "if not s.r.pile_on or room(s) <= 0 or not any_unpassed(s):",
       "if room(s) <= 0 or not any_unpassed(s):",
       "pile_on: forbidden does not close the bout when the defender takes"),
    _m("taker-keeps-no-defence", "R-TAKE-3", "bout_end.py",
       "            if t_def[i] >= 0:\n                mask |= 1 << t_def[i]",
       "            if t_def[i] >= 0:\n                s.discard.append(t_def[i])",
       "the taker picks up only the attack cards; the defence cards are discarded"),
    # ------------------------------------------------------------------ BOUT
    _m("bout-open-at-cap", "R-BOUT-1", "core.py",
       "elif s.unbeaten == 0 and (room(s) <= 0 or not any_unpassed(s)):",
       "elif s.unbeaten == 0 and (not s.hands[s.defender] or not any_unpassed(s)):",
       "a fully beaten bout at the attack limit stays open until every attacker passes"),
    _m("take-closes-at-once", "R-BOUT-2", "core.py",
       "if not s.r.pile_on or room(s) <= 0 or not any_unpassed(s):",
       "if True:",
       "a take closes the bout at once although pile_on: allowed lets the attackers add cards"),
    _m("bout-open-defender-empty", "R-BOUT-3", "core.py",
       "elif s.unbeaten == 0 and (room(s) <= 0 or not any_unpassed(s)):",
       "elif s.unbeaten == 0 and (len(s.t_att) >= cap(s) or not any_unpassed(s)):",
       "a defender who beat everything with his last card waits for the attackers to pass"),
    _m("discard-order-swapped", "R-BOUT-1", "bout_end.py",
       "            discard.append(t_att[i])\n            discard.append(t_def[i])",
       "            discard.append(t_def[i])\n            discard.append(t_att[i])",
       "the table goes to the discard pile defence card first"),
    # ------------------------------------------------------------------ DRAW
    _m("draw-order-reversed", "R-DRAW-2", "tables.py",
       "    return tuple(order)",
       "    return tuple(reversed(order))",
       "the defender draws first and the main attacker last"),
    _m("draw-one-at-a-time-ignored", "R-DRAW-2", "bout_end.py",
       "if s.r.draw_one_at_a_time:",
       "if False:",
       "draw_order: one_at_a_time plays as fill_in_turn"),
    _m("short-talon-all-or-nothing", "R-DRAW-3", "bout_end.py",
       "            need = HAND_SIZE - hands[p].bit_count()\n            while need > 0 and stock:",
       "            need = HAND_SIZE - hands[p].bit_count()\n"
       "            while need > 0 and len(stock) >= need:",
       "from a short talon a player who cannot fill up to six draws nothing (fill_in_turn)"),
    _m("defender-refills-to-five", "R-DRAW-1", "bout_end.py",
       "need = HAND_SIZE - hands[p].bit_count()",
       "need = HAND_SIZE - hands[p].bit_count() - (p == s.defender)",
       "the defender refills to five cards instead of six"),
    # ------------------------------------------------------------------ TRANSFER
    _m("transfer-after-beat", "R-TRANSFER-2", "queries.py",
       "if s.taking or not s.t_att or s.unbeaten != len(s.t_att):",
       "if s.taking or not s.t_att or s.unbeaten == 0:",
       "a transfer is allowed after the defender has beaten a card"),
    _m("transfer-not-first-bout-ignored", "R-TRANSFER-2", "queries.py",
       "return not (s.r.transfer_not_first_bout and s.bout == 1)",
       "return True",
       "transfer_condition: not_first_bout allows a transfer in bout 1"),
    _m("transfer-to-partner", "R-TRANSFER-1", "queries.py",
       "    for i in range(1, n):\n        p = (d + i) % n\n"
       "        if hands[p] and (teams is None or teams[p] != teams[d]):\n            return p",
       "    for i in range(1, n):\n        p = (d + i) % n\n        if hands[p]:\n            return p",
       "a transfer passes the attack to the next seat even if it is the defender's partner"),
    _m("capacity-plus-one-off-by-one", "R-TRANSFER-3", "queries.py",
       "return hand > unbeaten",
       "return hand >= unbeaten",
       "transfer_capacity: hand_plus_one accepts a new defender holding exactly as many cards"),
    _m("transfer-cards-one-ignored", "R-TRANSFER-4", "core.py",
       "if r.transfer_several:",
       "if True:",
       "transfer_cards: one still allows transferring with several cards"),
    _m("transfer-around-ignored", "R-TRANSFER-5", "core.py",
       "if target < 0 or (not r.transfer_around and target == s.opener):",
       "if target < 0:",
       "transfer_around: forbidden lets the attack come back to the original attacker"),
    _m("main-attacker-original-ignored", "R-TRANSFER-6", "core.py",
       "if s.r.main_last_transferrer or main == target or partners(s, main, target):",
       "if True:",
       "transfer_main_attacker: original still makes the transferrer the main attacker"),
    _m("main-attacker-partner-case", "R-TRANSFER-6", "core.py",
       "if s.r.main_last_transferrer or main == target or partners(s, main, target):",
       "if s.r.main_last_transferrer or main == target:",
       "with original, the transferrer does not take over when the new defender is the main "
       "attacker's partner"),
    _m("trump-show-not-known", "R-TRANSFER-7", "core.py",
       "        s.shown |= 1 << x\n        s.known[p] |= 1 << x",
       "        s.shown |= 1 << x",
       "a trump shown for a transfer does not become a known card"),
    _m("trump-show-after-beat", "R-TRANSFER-7", "queries.py",
       "    return transfer_window(s)\n",
       "    return not s.taking and s.unbeaten > 0\n",
       "trump_show: before_first_beat lets a trump be shown after a beat"),
    _m("trump-shown-twice", "R-TRANSFER-8", "core.py",
       "m = rank_cards & ~s.shown",
       "m = rank_cards",
       "the same trump may be shown again in the same bout"),
    # ------------------------------------------------------------------ OUT, END
    _m("out-with-talon-left", "R-OUT-1", "core.py",
       "if s.r.out_immediate and not s.stock:",
       "if s.r.out_immediate:",
       "out_timing: immediate puts a player out while the talon still has cards"),
    _m("out-immediate-ignored", "R-OUT-2", "core.py",
       "if s.r.out_immediate and not s.stock:",
       "if False:",
       "out_timing: immediate waits for the end of the bout"),
    _m("finishing-order-reversed", "R-OUT-3", "bout_end.py",
       "        for p in s.emptied:",
       "        for p in reversed(s.emptied):",
       "players emptied in the same bout finish in reverse order"),
    _m("team-game-ends-on-one-player", "R-END-1", "bout_end.py",
       "key = p if teams is None else teams[p]",
       "key = p",
       "a team game goes on until only one player holds cards"),
    _m("fool-is-last-defender", "R-END-2", "bout_end.py",
       "        fool = holders[0]",
       "        fool = s.defender",
       "the last bout's defender is the fool, whoever is left holding cards"),
    _m("tie-fool-is-attacker", "R-END-3", "bout_end.py",
       "fool = s.defender\n            losing_team",
       "fool = s.attacker\n            losing_team",
       "tie: defender_fool makes the main attacker the fool on a simultaneous finish"),
    _m("first-out-wins-two", "R-END-4", "bout_end.py",
       "return [p for p in finished if p != fool][:1]",
       "return [p for p in finished if p != fool][:2]",
       "win_mode: first_out_wins names the first two players out"),
    _m("epaulettes-count-beaten", "R-END-6", "bout_end.py",
       "            elif RANK_OF[t_att[i]] == low:",
       "            if RANK_OF[t_att[i]] == low:",
       "epaulettes count the lowest-rank attack cards the fool did beat as well"),
    _m("team-seating-halves", "R-TEAM-1", "tables.py",
       'return seat % 3 if teams == "2v2v2" else seat % 2',
       'return seat % 3 if teams == "2v2v2" else seat * 2 // TEAM_PLAYERS[teams]',
       "partners sit side by side (first half of the seats against the second)"),
    _m("team-fool-first-seat", "R-TEAM-3", "bout_end.py",
       "            q = (s.defender + i) % s.n",
       "            q = i",
       "the losing team's fool is its lowest seat holding cards, not the first from the "
       "defender"),
    # ------------------------------------------------------------------ MATCH
    _m("fool-does-not-deal", "R-MATCH-1", "deal.py",
       "    return fool, first",
       '    return previous["dealer"], first',
       "the previous dealer deals the next game instead of the fool"),
    _m("next-game-wrong-side", "R-MATCH-2", "deal.py",
       "first = (fool + 1) % n if rules.next_game_left else (fool - 1) % n",
       "first = (fool - 1) % n if rules.next_game_left else (fool + 1) % n",
       "the next game's first attacker sits on the wrong side of the fool"),
    _m("draw-next-dealer-moves", "R-MATCH-3", "deal.py",
       'return previous["dealer"], None',
       'return (previous["dealer"] + 1) % n, None',
       "after a draw the deal passes to the left instead of staying"),
    # ------------------------------------------------------------------ INFO
    _m("trump-card-visible-after-draw", "R-INFO-1", "observe.py",
       'if talon and talon[-1] == state["trump"]:',
       "if True:",
       "the trump card is still shown face up after it has been drawn"),
    _m("discard-contents-always", "R-INFO-2", "observe.py",
       'if visibility == "contents":',
       "if True:",
       "discard_visibility: count still shows which cards were discarded"),
    _m("known-cards-not-recorded", "R-INFO-3", "bout_end.py",
       "        s.hands[d] |= mask\n        s.known[d] |= mask",
       "        s.hands[d] |= mask",
       "cards picked up in a take are not recorded as known"),
)

# --------------------------------------------------------------------------- building


def patched_source(mutant: Mutant, text: str, file: str) -> str:
    """``text`` with the mutant's replacement applied; ``MutantPatchError`` unless ``old`` occurs
    exactly once (or, for a fault at an offset, unless it stands there)."""
    if mutant.at is not None:
        if text[mutant.at : mutant.at + len(mutant.old)] != mutant.old:
            raise MutantPatchError(
                f"fault {mutant.id}: reference_impl/{file} no longer has {mutant.old!r} at "
                f"character {mutant.at}; draw the sample again"
            )
        return text[: mutant.at] + mutant.new + text[mutant.at + len(mutant.old) :]
    count = text.count(mutant.old)
    if count != 1:
        found = "not found" if count == 0 else f"found {count} times"
        raise MutantPatchError(
            f"mutant {mutant.id}: the text to replace is {found} in reference_impl/{file} "
            f"(it must occur exactly once); the engine changed: update the mutant in "
            f"tools/mutants.py.\ntext:\n{mutant.old}"
        )
    return text.replace(mutant.old, mutant.new)


def _rename(text: str, package: str) -> str:
    return re.sub(r"\breference_impl\b", package, text)


def build(mutant: Mutant | None, root: Path) -> str:
    """Write the engine copy for ``mutant`` (None: the unpatched control) under ``root``; return
    the ``--engine`` argument that names it. ``root`` must be on the runner's ``sys.path``."""
    package = mutant.package if mutant else PACKAGE_PREFIX + CONTROL
    target = root / package
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    spec_link = root / "spec"
    if not spec_link.exists():
        spec_link.symlink_to(SPEC_DIR, target_is_directory=True)
    if mutant is not None and not (ENGINE_DIR / mutant.file).is_file():
        raise MutantPatchError(f"mutant {mutant.id}: reference_impl/{mutant.file} does not exist")
    for source in sorted(ENGINE_DIR.glob("*.py")):
        text = source.read_text(encoding="utf-8")
        if mutant is not None and source.name == mutant.file:
            text = patched_source(mutant, text, source.name)
        (target / source.name).write_text(_rename(text, package), encoding="utf-8")
    (target / "_engine.py").write_text(_ENGINE_FACTORY.format(
        package=package, label=mutant.id if mutant else CONTROL), encoding="utf-8")
    for path in target.glob("*.py"):
        try:
            compile(path.read_text(encoding="utf-8"), str(path), "exec")
        except SyntaxError as exc:
            raise MutantPatchError(f"mutant {package}: the patched source does not compile: "
                                   f"{exc}") from None
    return f"python:{package}._engine:make"


_ENGINE_FACTORY = '''"""The engine of mutant {label}: the reference engine's API from this copy."""

from conformance.engines.base import InProcessEngine

from {package} import api
from {package}.observe import observe


class MutantEngine(InProcessEngine):
    def describe(self):
        return "mutant {label} (in process)"


def make():
    return MutantEngine(api, observe_fn=observe)
'''


# --------------------------------------------------------------------------- judging


@dataclass
class Verdict:
    """What the suite made of one mutant (or of the control)."""

    id: str
    rule: str | None
    what: str
    total: int = 0
    failing: list = field(default_factory=list)  # failing case records
    outcomes: Counter = field(default_factory=Counter)
    exitstatus: int | None = None
    seconds: float = 0.0
    problem: str | None = None  # the run itself went wrong (no report, usage error)
    scope: str = "suite"  # what the report covers: "suite" or "area <AREA>"

    @property
    def caught(self) -> bool:
        return self.problem is None and bool(self.failing)

    @property
    def area(self) -> str | None:
        return self.rule.split("-")[1] if self.rule else None

    @property
    def citing_cases(self) -> list[dict]:
        """Failing case records whose ``rules`` name the broken rule."""
        return [c for c in self.failing if self.rule in (c.get("rules") or [])]

    @property
    def citing_area_cases(self) -> list[dict]:
        """Failing case records citing some rule of the broken rule's area (or filed under it)."""
        prefix = f"R-{self.area}-"
        return [
            c
            for c in self.failing
            if c.get("area") == self.area or any(r.startswith(prefix) for r in c.get("rules") or [])
        ]

    @property
    def citing(self) -> list[str]:
        return [c["id"] for c in self.citing_cases]

    @property
    def citing_area(self) -> list[str]:
        return [c["id"] for c in self.citing_area_cases]

    @property
    def ok(self) -> bool:
        """A mutant: caught and cited (ID or area). The control: ran and passed every case."""
        if self.rule is None:
            return self.problem is None and not self.failing and self.total > 0
        return self.caught and bool(self.citing or self.citing_area)

    @property
    def status(self) -> str:
        if self.problem:
            return "BROKEN RUN"
        if self.rule is None:
            return "passes" if self.ok else "CONTROL FAILS"
        if not self.caught:
            return "SURVIVED"
        if self.citing:
            return "caught"
        return "caught (area)" if self.citing_area else "caught, UNCITED"


def read_verdict(mutant: Mutant | None, report: Path, seconds: float) -> Verdict:
    """The verdict on one run from its JSON Lines report."""
    verdict = Verdict(
        id=mutant.id if mutant else CONTROL,
        rule=mutant.rule if mutant else None,
        what=mutant.what if mutant else "the unpatched copy (must pass every case)",
        seconds=seconds,
    )
    if not report.is_file():
        verdict.problem = f"no report written ({report})"
        return verdict
    summary = None
    for line in report.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record.get("type") == "case":
            verdict.total += 1
            verdict.outcomes[record["outcome"]] += 1
            if record["outcome"] in FAILING:
                verdict.failing.append(record)
        elif record.get("type") == "summary":
            summary = record
    if summary is None:
        verdict.problem = "the run did not finish (no summary in the report)"
    else:
        verdict.exitstatus = summary.get("exitstatus")
        if verdict.exitstatus not in (0, 1):
            verdict.problem = f"the run ended with status {verdict.exitstatus}"
    if verdict.total == 0 and verdict.problem is None:
        verdict.problem = "no case ran"
    return verdict


# --------------------------------------------------------------------------- running


def _suite_argv(engine: str, report: Path) -> list[str]:
    """The pytest command line of ``durak-conformance run --engine ENGINE --json REPORT``."""
    from conformance import cli

    args = cli.build_parser().parse_args(["run", "--engine", engine, "--json", str(report)])
    argv = cli.pytest_arguments(args)
    if isinstance(argv, str):
        raise SystemExit(f"mutants: {argv}")
    return argv


def _cache_fixture_files() -> None:
    """Parse each fixture file once per worker instead of once per mutant.

    Parsing the YAML is about a third of a suite run, and it gives the same cases for every mutant
    (the judge is never mutated). Each run gets a deep copy, so nothing one run does to its cases
    reaches the next. Only a speed-up: if the runner's plugin no longer has ``load_file``, runs
    parse as usual.
    """
    import copy

    from conformance.plugin import items

    original = getattr(items, "load_file", None)
    if original is None:
        return
    parsed: dict = {}

    def load_file(path):
        p = Path(path)
        st = p.stat()
        key = (str(p.resolve()), st.st_mtime_ns, st.st_size)
        if key not in parsed:
            parsed[key] = original(path)
        return copy.deepcopy(parsed[key])

    items.load_file = load_file


def _report_fails(report: Path) -> bool:
    """True when the JSON report holds a failing case."""
    if not report.is_file():
        return False
    for line in report.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record.get("type") == "case" and record.get("outcome") in FAILING:
            return True
    return False


def worker(root: Path, scope: str, ids: list[str]) -> int:
    """Run the suite once per mutant in this process (``root`` already built); print one JSON
    line per mutant: id, seconds, the scope its report covers.

    ``scope`` ``area``: first only the cases citing a rule of the mutant's area (every such case
    is a case of the suite, so one failing there is the suite failing); when none fails, the
    whole suite after all. The control always runs the whole suite.
    """
    import contextlib
    import io

    import pytest

    sys.path.insert(0, str(root))
    _cache_fixture_files()
    known = {m.id: m for m in MUTANTS}
    for mid in ids:
        mutant = known.get(mid)
        engine = f"python:{PACKAGE_PREFIX + mid.replace('-', '_')}._engine:make"
        report = root / "reports" / f"{mid}.jsonl"
        log = io.StringIO()
        started = time.perf_counter()
        ran = "suite"
        if scope == "area" and mutant is not None:
            with contextlib.redirect_stdout(log):
                pytest.main(_suite_argv(engine, report) + ["--durak-area", mutant.area])
            ran = f"area {mutant.area}"
        if ran == "suite" or not _report_fails(report):
            ran = "suite"
            with contextlib.redirect_stdout(log):
                pytest.main(_suite_argv(engine, report))
        (root / "reports" / f"{mid}.log").write_text(log.getvalue(), encoding="utf-8")
        print(json.dumps({"id": mid, "seconds": time.perf_counter() - started, "scope": ran}),
              flush=True)
    return 0


def select(only: list[str] | None) -> list[Mutant]:
    if not only:
        return list(MUTANTS)
    known = {m.id: m for m in MUTANTS}
    unknown = [i for i in only if i not in known]
    if unknown:
        raise SystemExit(f"mutants: unknown mutant(s): {', '.join(unknown)}; see --list")
    return [known[i] for i in only]


def build_all(mutants: list[Mutant], root: Path) -> None:
    """Build the control and every mutant (``MutantPatchError`` at the first that fails)."""
    build(None, root)
    for mutant in mutants:
        build(mutant, root)


def run_all(
    mutants: list[Mutant],
    jobs: int = 2,
    root: Path | None = None,
    control: bool = True,
    scope: str = "suite",
) -> list[Verdict]:
    """Build and judge ``mutants`` (and the control first) on ``jobs`` worker processes.

    ``scope``: ``suite`` runs the whole suite per mutant (full failure counts); ``area`` runs the
    cases of the mutant's rule area first and the whole suite only if none of them fails
    (enough to prove a catch and a citation, and several times faster).
    """
    if scope not in ("suite", "area"):
        raise ValueError(f"scope must be 'suite' or 'area', not {scope!r}")
    own = root is None
    root = Path(tempfile.mkdtemp(prefix="durak-mutants-")) if own else root
    try:
        build_all(mutants, root)
        shutil.rmtree(root / "reports", ignore_errors=True)  # no stale report from an earlier run
        (root / "reports").mkdir()
        order: list[Mutant | None] = ([None] if control else []) + list(mutants)
        names = [m.id if m else CONTROL for m in order]
        jobs = max(1, min(jobs, len(names)))
        shares = [names[i::jobs] for i in range(jobs)]
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [str(root), str(ROOT)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])
        )
        procs = [
            subprocess.Popen(
                [sys.executable, str(Path(__file__).resolve()), "_worker", str(root), scope, *share],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=env,
                cwd=str(root),
            )
            for share in shares
            if share
        ]
        seconds: dict[str, float] = {}
        scopes: dict[str, str] = {}
        crashed: dict[str, str] = {}
        for proc, share in zip(procs, [s for s in shares if s], strict=True):
            out, err = proc.communicate()
            for line in out.splitlines():
                if line.startswith("{"):
                    info = json.loads(line)
                    seconds[info["id"]] = info["seconds"]
                    scopes[info["id"]] = info["scope"]
            if proc.returncode:
                tail = err.strip().splitlines()[-1:] or [f"exit status {proc.returncode}"]
                for name in share:
                    if name not in seconds:
                        crashed[name] = f"worker process failed: {tail[0]}"
                if not crashed:
                    crashed[share[-1]] = f"worker process failed: {tail[0]}"
        verdicts = []
        for m, n in zip(order, names, strict=True):
            v = read_verdict(m, root / "reports" / f"{n}.jsonl", seconds.get(n, 0.0))
            v.scope = scopes.get(n, scope)
            if n in crashed:
                v.problem = crashed[n]
            verdicts.append(v)
        return verdicts
    finally:
        if own:
            shutil.rmtree(root, ignore_errors=True)


# --------------------------------------------------------------------------- output


def _name(case: dict) -> str:
    """A fixture by its ID; a Gherkin scenario by its place in features/ (its generated test name
    is long and says less)."""
    if case.get("kind") == "scenario" and case.get("location"):
        location = str(case["location"])
        return location.removeprefix(str(ROOT) + os.sep)
    return str(case.get("id"))


def _examples(cases: list[dict], k: int = 2) -> str:
    if not cases:
        return "-"
    ordered = sorted(cases, key=lambda c: c.get("kind") == "scenario")  # fixtures first
    more = f" (+{len(cases) - k})" if len(cases) > k else ""
    return ", ".join(_name(c) for c in ordered[:k]) + more


def table(verdicts: list[Verdict]) -> str:
    """A plain-text table: mutant, rule, status, failing cases, citing cases."""
    rows = [("mutant", "rule", "status", "failing", "cite rule", "cite area", "s",
             "e.g. citing case")]
    for v in verdicts:
        rows.append((
            v.id,
            v.rule or "-",
            v.status,
            f"{len(v.failing)}/{v.total}" + ("" if v.scope == "suite" else f" ({v.scope})"),
            str(len(v.citing)),
            str(len(v.citing_area)),
            f"{v.seconds:.1f}",
            _examples(v.citing_cases or v.citing_area_cases, 1),
        ))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in rows
    )


def markdown(verdicts: list[Verdict]) -> str:
    lines = [
        ("| mutant | rule | the mistake | caught | failing cases | citing the rule | citing "
         "the area | for example |"),
        "|---|---|---|---|---|---|---|---|",
    ]
    for v in verdicts:
        if v.rule is None:
            continue
        lines.append(
            f"| `{v.id}` | {v.rule} | {v.what} | {v.status} | {len(v.failing)} | "
            f"{len(v.citing)} | {len(v.citing_area)} | {_examples(v.citing_cases or v.citing_area_cases)} |"
        )
    return "\n".join(lines)


def details(v: Verdict) -> str:
    """Per-mutant detail: outcomes and the failing cases with their first failure."""
    out = [f"{v.id} ({v.rule or 'control'}): {dict(v.outcomes)}"]
    if v.problem:
        out.append(f"  problem: {v.problem}")
    for c in v.failing:
        mark = "*" if v.rule in (c.get("rules") or []) else " "
        out.append(f"  {mark} {c['id']} [{', '.join(c.get('rules') or [])}]: "
                   f"{c.get('signature', c.get('outcome'))}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["_worker"]:
        return worker(Path(argv[1]), argv[2], argv[3:])
    parser = argparse.ArgumentParser(
        prog="python tools/mutants.py",
        description="Plant single-rule mistakes in copies of the reference engine and check that "
        "the conformance suite catches each one.",
    )
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2,
                        help="worker processes (default: the CPU count)")
    parser.add_argument("--only", action="append", default=[],
                        help="mutant IDs (repeat or comma-separate)")
    parser.add_argument("--scope", choices=("suite", "area"), default="suite",
                        help="suite: the whole suite per mutant (default); area: the cases of "
                        "the mutant's rule area first, the whole suite only if none fails")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    parser.add_argument("--keep", metavar="DIR", help="build and keep the copies and reports in DIR")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="print every failing case per mutant (* = cites the rule)")
    args = parser.parse_args(argv)
    only = [i for chunk in args.only for i in chunk.split(",") if i]
    mutants = select(only)
    if args.list:
        for m in mutants:
            print(f"{m.id}  {m.rule}  reference_impl/{m.file}: {m.what}")
        return 0
    root = None
    if args.keep:
        root = Path(args.keep).resolve()
        root.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    try:
        verdicts = run_all(mutants, jobs=args.jobs, root=root, scope=args.scope)
    except MutantPatchError as exc:
        print(f"mutants: {exc}", file=sys.stderr)
        return 2
    elapsed = time.perf_counter() - started
    print(markdown(verdicts) if args.markdown else table(verdicts))
    if args.verbose:
        for v in verdicts:
            print()
            print(details(v))
    bad = [v for v in verdicts if not v.ok]
    caught = sum(1 for v in verdicts if v.rule and v.caught)
    print(f"\n{caught}/{len(mutants)} mutants caught; {len(bad)} problem(s); "
          f"{elapsed:.1f} s on {args.jobs} worker(s)", file=sys.stderr)
    for v in bad:
        print(f"  {v.id}: {v.status}" + (f" ({v.problem})" if v.problem else ""), file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
