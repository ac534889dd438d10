"""What every game satisfies, checked before any search: an impossible position is refused with
the rule it contradicts, in words a fixture author can act on.

These are necessary conditions only (the planner finds the sufficient ones by building a
history); each is a consequence of one rule, stated where it is checked.
"""

from __future__ import annotations

from conformance.contract.cards import rank_of

from .target import HAND, Target, Unreachable


def check(target: Target) -> None:
    """Raise Unreachable for the first condition the target breaks."""
    for problem in (
        _refilled,
        _unseen,
        _trump_seen,
        _first_bout,
        _known_needs_take,
        _enough_bouts,
    ):
        reason = problem(target)
        if reason:
            raise Unreachable(reason)


def _talon_left(target: Target) -> bool:
    return bool(target.talon)


def _refilled(target: Target) -> str | None:
    """R-DRAW-1: every bout ends with the players refilling to six while the talon lasts, so
    while it still holds cards every hand began the bout with six or more."""
    if not _talon_left(target):
        return None
    for seat, hand in enumerate(target.start_hands):
        if len(hand) < HAND:
            played = len(hand) - len(target.state["players"][seat]["hand"])
            return (
                f"seat {seat} began bout {target.bout_number} with {len(hand)} cards "
                f"({len(hand) - played} in hand, {played} played this bout) while the talon "
                f"holds {len(target.talon)}: after every bout the players refill to six from the "
                "talon (R-DRAW-1)"
            )
    return None


def _unseen(target: Target) -> str | None:
    """R-DEAL-1, R-DRAW-1, R-INFO-3: cards come into a hand unseen only from the deal (six) and
    from refilling to six, so a hand never holds more than six cards nobody has seen; the
    others were picked up in a take and are known."""
    for seat, hand in enumerate(target.start_hands):
        unseen = [c for c in hand if target.fates[c].known is False]
        if len(unseen) > HAND:
            return (
                f"seat {seat} holds {len(unseen)} cards nobody has seen ({', '.join(unseen)}): "
                "unseen cards come only from the deal and from refilling to six (R-DEAL-1, "
                "R-DRAW-1), so a hand holds at most six; more were picked up in a take and are "
                "known (R-TAKE-3, R-INFO-3)"
            )
    return None


def _trump_seen(target: Target) -> str | None:
    """R-TRUMP-2, R-TRUMP-3, R-INFO-3: once the trump card leaves the talon (or is dealt with no
    talon) it is a known card of the hand that holds it."""
    if _talon_left(target):
        return None
    fate = target.fates.get(target.trump)
    if fate is not None and fate.where == "hand" and fate.known is False:
        return (
            f"the trump card {target.trump} is in seat {fate.seat}'s hand but not among its known "
            "cards: it was drawn face up (or dealt face up with no talon), and stays known in the "
            "hand that holds it (R-TRUMP-2, R-TRUMP-3, R-INFO-3)"
        )
    return None


def _first_bout(target: Target) -> str | None:
    """R-DEAL-1, R-TRUMP-1: bout 1 starts from the deal: six cards each, nothing drawn, nothing
    discarded."""
    if target.bout_number != 1:
        return None
    if target.pairs:
        return (
            f"bout 1 with {2 * len(target.pairs)} cards in the discard pile: cards are only "
            "discarded when a bout closes (R-BOUT-1)"
        )
    full = len(target.deck) - HAND * target.n
    if len(target.talon) != full:
        return (
            f"bout 1 with a talon of {len(target.talon)} cards: after the deal it holds {full} "
            "(R-DEAL-1, R-TRUMP-1), and nobody draws before a bout closes (R-DRAW-1)"
        )
    for seat, hand in enumerate(target.start_hands):
        if len(hand) != HAND:
            return (
                f"seat {seat} began bout 1 with {len(hand)} cards: the deal gives everyone six "
                "(R-DEAL-1)"
            )
    return None


def _known_needs_take(target: Target) -> str | None:
    """R-INFO-3: a known card other than the trump card or a shown trump was picked up in a take,
    so an earlier bout must exist."""
    if target.bout_number != 1:
        return None
    for card, fate in target.fates.items():
        if fate.where == "hand" and fate.known is True and card != target.trump:
            return (
                f"{card} is known in seat {fate.seat}'s hand in bout 1: a card becomes known when "
                "it is picked up in a take (R-INFO-3, R-TAKE-3), and no bout has closed yet"
            )
    return None


def _enough_bouts(target: Target) -> str | None:
    """R-BOUT-1, R-THROW-1: each closed bout discards a run of pairs, and within a bout every
    card after the opening is thrown in on a rank already on the table."""
    from .planner import Planner

    if target.over:
        return None  # a finished game has no bout number: any number of bouts were played
    need = Planner(target).min_bouts[0]
    closed = target.bout_number - 1
    if need <= closed:
        return None
    breaks = [
        f"{b[0]} after {a[0]}/{a[1]}"
        for a, b in zip(target.pairs, target.pairs[1:])
        if rank_of(b[0]) not in _ranks(target, a)
    ]
    return (
        f"the discard pile's {len(target.pairs)} pairs need at least {need} bouts, but bout "
        f"{target.bout_number} means {closed} have closed: a bout's attack cards after the "
        f"first are thrown in on a rank already on the table (R-THROW-1), so no bout discards "
        f"{', '.join(breaks[:4])}{' ...' if len(breaks) > 4 else ''} together (R-BOUT-1)"
    )


def _ranks(target: Target, pair: tuple[str, str]) -> set[str]:
    return {rank_of(pair[0]), rank_of(pair[1])}
