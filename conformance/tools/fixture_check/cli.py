"""The fixture author's command: ``check`` the fixture files, and the aids for working out a
position (``shuffle``, ``rest``, ``deal``, ``build``).

``python tools/check_fixtures.py`` runs :func:`main`; a subcommand of ``durak-conformance`` can
add the same arguments with :func:`add_cli_arguments` and run them with :func:`run_cli`.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from conformance.contract.cards import deck as full_deck
from conformance.contract.shuffle import shuffle
from conformance.tools.fixture_check.authoring import build, deal
from conformance.tools.fixture_check.checks import check_all

USAGE = """\
  check [PATH ...]                  all checks; exit 1 on any problem
  shuffle SEED [--deck-size 36]     the deck order a seed gives (portable shuffle)
  rest --deck-size 36 CARD...       the cards not named
  deal --players N --dealer D [--deal-order ...] [--trump-card ...] DECK...
  build --dealer D [--deal-order ...] --hands "C C ..." ... --trump C [--talon "C ..."]

deal shows who holds what after the canonical deal of the contract; build does the reverse (a
deck order that deals the given hands).
"""


def add_cli_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check", help="all checks of the fixture files; exit 1 on any problem")
    c.add_argument("paths", nargs="*", type=Path)
    sh = sub.add_parser("shuffle", help="the deck order a seed gives (portable shuffle)")
    sh.add_argument("seed", type=int)
    sh.add_argument("--deck-size", type=int, default=36)
    sh.add_argument("--decks", type=int, default=1)
    r = sub.add_parser("rest", help="cards of the deck not named (to fill a discard pile)")
    r.add_argument("--deck-size", type=int, default=36)
    r.add_argument("--decks", type=int, default=1)
    r.add_argument("cards", nargs="*")
    for name in ("deal", "build"):
        s = sub.add_parser(name)
        s.add_argument("--dealer", type=int, required=True)
        s.add_argument("--deal-order", default="one_at_a_time")
        s.add_argument("--trump-card", default="after_deal")
        if name == "deal":
            s.add_argument("--players", type=int, required=True)
            s.add_argument("deck", nargs="+")
        else:
            s.add_argument("--hands", nargs="+", required=True, help="one quoted hand per seat")
            s.add_argument("--trump", required=True)
            s.add_argument(
                "--talon", default="", help="talon cards in draw order, without the trump"
            )


def _cards(words: Sequence[str]) -> list[str]:
    return " ".join(words).replace(",", " ").split()


def run_cli(args: argparse.Namespace) -> int:
    if args.cmd == "check":
        problems, cases = check_all(args.paths or None)
        for p in problems:
            print(p)
        print(f"{len(cases)} cases, {len(problems)} problems")
        return 1 if problems else 0
    if args.cmd == "shuffle":
        print("[" + ", ".join(shuffle(full_deck(args.deck_size, args.decks), args.seed)) + "]")
        return 0
    if args.cmd == "rest":
        named = set(_cards(args.cards))
        rest = [c for c in full_deck(args.deck_size, args.decks) if c not in named]
        print(f"{len(rest)} cards: [" + ", ".join(rest) + "]")
        return 0
    if args.cmd == "deal":
        d = deal(_cards(args.deck), args.players, args.dealer, args.deal_order, args.trump_card)
        for i, h in enumerate(d["hands"]):
            print(f"seat {i}: {' '.join(h)}")
        print(f"trump: {d['trump']}\ntalon: {' '.join(d['talon'])}")
        return 0
    hands = [h.split() for h in args.hands]
    deck = build(
        hands, args.trump, args.talon.split(), args.dealer, args.deal_order, args.trump_card
    )
    print("[" + ", ".join(deck) + "]")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python tools/check_fixtures.py",
        description="Static checks and authoring aids for the YAML fixture hands.",
        epilog=USAGE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_cli_arguments(parser)
    return run_cli(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
