"""Determinized playouts of a Thousand deal's tricks, for the "strong" bot [T14, T15, T16].

``best_card`` samples the cards the seat cannot see (consistent with what it has seen: the cards
played, the talon shown and where it went, the cards given, the suits a player could not follow),
plays the rest of the deal out with a quick greedy policy for each legal move, and picks the move
with the best average result. The simulator plays follow-suit tricks with marriages setting trump;
it ignores the rarer sheet options (``must_trump``, ``must_beat``), which only make its opponents
a little freer than they are.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

POINTS: dict[str, int] = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
RANK: dict[str, int] = {r: i for i, r in enumerate("9JQKTA")}
MARRIAGE: dict[str, int] = {"s": 40, "c": 60, "d": 80, "h": 100}
DECK: tuple[str, ...] = tuple(r + s for r in "9JQKTA" for s in "cdhs")


@dataclass
class Deal:
    """The trick phase as one determinization: every hand known."""

    hands: dict[int, list[str]]
    order: list[int]  # the active seats clockwise
    turn: int
    trick: list[tuple[int, str]]
    trump: str | None
    bidder: int
    contract: int
    points: dict[int, int] = field(default_factory=dict)  # card points and marriages so far


def beats(card: str, best: str, trump: str | None) -> bool:
    if card[1] == best[1]:
        return RANK[card[0]] > RANK[best[0]]
    return card[1] == trump


def winner(trick: Sequence[tuple[int, str]], trump: str | None) -> tuple[int, str]:
    seat, best = trick[0]
    for who, card in trick[1:]:
        if beats(card, best, trump):
            seat, best = who, card
    return seat, best


def legal(hand: Sequence[str], trick: Sequence[tuple[int, str]]) -> list[str]:
    if not trick:
        return list(hand)
    led = trick[0][1][1]
    same = [c for c in hand if c[1] == led]
    return same or list(hand)


def _policy(deal: Deal, seat: int, rng: random.Random) -> tuple[str, bool]:
    """A quick greedy move: (card, declare)."""
    hand = deal.hands[seat]
    cards = legal(hand, deal.trick)
    trump = deal.trump
    if not deal.trick:
        held = [s for s in "hdcs" if "K" + s in hand and "Q" + s in hand]
        if held:
            return "Q" + held[0], True
        aces = [c for c in cards if c[0] == "A"]
        if aces:
            return max(aces, key=lambda c: c[1] == trump), False
        return min(cards, key=lambda c: (c[1] == trump, POINTS[c[0]], RANK[c[0]])), False
    win_seat, win_card = winner(deal.trick, trump)
    last = len(deal.trick) == len(deal.order) - 1
    friendly = seat != deal.bidder and win_seat != deal.bidder
    if friendly and last:
        return max(cards, key=lambda c: (POINTS[c[0]] if c[1] != trump else -1, -RANK[c[0]])), False
    winners = [c for c in cards if beats(c, win_card, trump)]
    table = sum(POINTS[c[0]] for _, c in deal.trick)
    if winners and (last or table >= 10 or not friendly):
        pick = min(winners, key=lambda c: (c[1] == trump, RANK[c[0]]))
        return pick, False
    return min(cards, key=lambda c: (c[1] == trump, POINTS[c[0]], RANK[c[0]])), False


def step(deal: Deal, seat: int, card: str, declare: bool) -> None:
    hand = deal.hands[seat]
    hand.remove(card)
    if declare and card[0] in "KQ" and ("K" if card[0] == "Q" else "Q") + card[1] in hand:
        deal.trump = card[1]
        deal.points[seat] = deal.points.get(seat, 0) + MARRIAGE[card[1]]
    deal.trick.append((seat, card))
    if len(deal.trick) == len(deal.order):
        win_seat, _ = winner(deal.trick, deal.trump)
        deal.points[win_seat] = deal.points.get(win_seat, 0) + sum(POINTS[c[0]] for _, c in deal.trick)
        deal.trick = []
        deal.turn = win_seat
    else:
        deal.turn = deal.order[(deal.order.index(seat) + 1) % len(deal.order)]


def playout(deal: Deal, rng: random.Random) -> None:
    hands = deal.hands
    for _ in range(sum(len(hands[s]) for s in deal.order)):
        seat = deal.turn
        if not hands[seat]:
            break
        card, declare = _policy(deal, seat, rng)
        step(deal, seat, card, declare)


def utility(deal: Deal, me: int) -> float:
    """My gain on the score sheet against the average opponent's [T16]."""
    gains: dict[int, float] = {}
    for seat in deal.order:
        got = deal.points.get(seat, 0)
        if seat == deal.bidder:
            gains[seat] = deal.contract if got >= deal.contract else -deal.contract
        else:
            gains[seat] = got
    others = [gains[s] for s in deal.order if s != me]
    return gains[me] - sum(others) / max(1, len(others))


def sample_hands(mine: Sequence[str], counts: Mapping[int, int], known: Mapping[int, set[str]],
                 unseen: Sequence[str], voids: Mapping[int, set[str]], me: int,
                 rng: random.Random) -> dict[int, list[str]]:
    """Hidden hands consistent with the counts, the cards known to be with a seat and the voids."""
    others = [s for s in counts if s != me]
    best: dict[int, list[str]] | None = None
    for _attempt in range(12):
        hands = {s: list(known.get(s, ())) for s in others}
        pool = list(unseen)
        rng.shuffle(pool)
        ok = True
        # Seats with the most void suits pick first from what they may hold.
        for s in sorted(others, key=lambda s: -len(voids.get(s, ()))):
            need = counts[s] - len(hands[s])
            fits = [c for c in pool if c[1] not in voids.get(s, ())]
            if len(fits) < need:
                ok = False
                fits = pool
            take = fits[:max(0, need)]
            hands[s].extend(take)
            taken = set(take)
            pool = [c for c in pool if c not in taken]
        if ok:
            return hands
        best = best or hands
    assert best is not None
    hands_out: dict[int, list[str]] = best
    hands_out[me] = list(mine)
    return hands_out


def best_move(view: Mapping[str, Any], plays: Sequence[Mapping[str, Any]], knowledge: Any,
              rng: random.Random, samples: int) -> Mapping[str, Any]:
    """The legal play with the best average utility over ``samples`` determinizations."""
    me = int(view["seat"])
    order = [int(s) for s in view.get("active") or range(len(view.get("hand_counts") or []))]
    counts = {s: int(view["hand_counts"][s]) for s in order}
    hand = list(view.get("hand") or [])
    trick = [(int(s), str(c)) for s, c in view.get("trick") or []]
    bidder = int(view["bidder"])
    contract = int(view.get("contract") or 0)
    taken = knowledge.points_by_seat(order)
    totals = [0.0] * len(plays)
    for _ in range(samples):
        hands = sample_hands(hand, counts, knowledge.held_by, knowledge.unseen, knowledge.voids, me, rng)
        hands[me] = list(hand)
        for index, action in enumerate(plays):
            deal = Deal({s: list(h) for s, h in hands.items()}, order, me, list(trick),
                        view.get("trump"), bidder, contract, dict(taken))
            step(deal, me, str(action["card"]), bool(action.get("declare")))
            playout(deal, rng)
            totals[index] += utility(deal, me)
    best = max(range(len(plays)), key=lambda i: totals[i])
    return plays[best]
