"""Hand ranking (H18) behind one function, over the phevaluator perfect-hash evaluator.

``strength(cards)`` ranks the best five of five to seven cards (H3): a smaller number is a
stronger hand (1 is a royal flush, 7462 the worst high card); suits never decide (H2), so equal
numbers split. ``hand_name`` says it for the log: "two pair, kings and nines".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations

from phevaluator import _pheval  # type: ignore[import-untyped]

from app.games.cards import RANKS, SUITS

CARD_ID: dict[str, int] = {r + s: 4 * i + j for i, r in enumerate(RANKS) for j, s in enumerate(SUITS)}
"""phevaluator's card numbers: rank * 4 + suit (c d h s)."""

_EVAL: dict[int, Callable[..., int]] = {
    5: _pheval.evaluate_5cards,
    6: _pheval.evaluate_6cards,
    7: _pheval.evaluate_7cards,
}
_EVAL7: Callable[..., int] = _pheval.evaluate_7cards

CATEGORIES = (
    (10, "straight flush"),
    (166, "four of a kind"),
    (322, "full house"),
    (1599, "flush"),
    (1609, "straight"),
    (2467, "three of a kind"),
    (3325, "two pair"),
    (6185, "pair"),
    (7462, "high card"),
)

_SINGULAR = dict(
    zip(
        RANKS,
        [
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "jack",
            "queen",
            "king",
            "ace",
        ],
        strict=True,
    )
)
_PLURAL = {r: ("sixes" if n == "six" else n + "s") for r, n in _SINGULAR.items()}


def strength(cards: Sequence[str]) -> int:
    """The rank of the best five of ``cards`` (5–7 codes); smaller is stronger."""
    i = CARD_ID
    if len(cards) == 7:
        a, b, c, d, e, f, g = cards
        return _EVAL7(i[a], i[b], i[c], i[d], i[e], i[f], i[g])
    return _EVAL[len(cards)](*[i[c] for c in cards])


def strength7(a: str, b: str, c: str, d: str, e: str, f: str, g: str) -> int:
    """``strength`` for exactly seven cards given one by one, the showdown's case."""
    i = CARD_ID
    return _EVAL7(i[a], i[b], i[c], i[d], i[e], i[f], i[g])


def category(rank: int) -> str:
    """The hand category of a rank from ``strength``."""
    for limit, name in CATEGORIES:
        if rank <= limit:
            return name
    raise ValueError(f"not a hand rank: {rank}")


def best_five(cards: Sequence[str]) -> list[str]:
    """The five cards that make the hand (for the log and the names)."""
    if len(cards) == 5:
        return list(cards)
    ev = _EVAL[5]
    best = min(combinations(cards, 5), key=lambda five: ev(*(CARD_ID[c] for c in five)))
    return list(best)


def hand_name(cards: Sequence[str]) -> str:
    """The hand in words, e.g. "two pair, kings and nines" or "full house, aces full of tens".

    The category comes from the evaluator; the ranks that name it are read off the cards. Equal
    ranks are equal hands (the same kind and the same five ranks), so names are kept by rank.
    """
    rank = strength(cards)
    name = _NAMES.get(rank)
    if name is None:
        name = _NAMES[rank] = _name(category(rank), cards)
    return name


_NAMES: dict[int, str] = {}


def _name(kind: str, cards: Sequence[str]) -> str:
    count = Counter(c[0] for c in cards)
    heights = sorted(count, key=RANKS.index, reverse=True)
    if kind == "four of a kind":
        return f"four of a kind, {_PLURAL[next(r for r in heights if count[r] == 4)]}"
    if kind == "full house":
        trips = next(r for r in heights if count[r] >= 3)
        pair = next(r for r in heights if r != trips and count[r] >= 2)
        return f"full house, {_PLURAL[trips]} full of {_PLURAL[pair]}"
    if kind == "three of a kind":
        return f"three of a kind, {_PLURAL[next(r for r in heights if count[r] == 3)]}"
    if kind == "two pair":
        high, low = [r for r in heights if count[r] == 2][:2]
        return f"two pair, {_PLURAL[high]} and {_PLURAL[low]}"
    if kind == "pair":
        return f"pair of {_PLURAL[next(r for r in heights if count[r] == 2)]}"
    if kind == "high card":
        return f"high card, {_SINGULAR[heights[0]]}"
    suit = Counter(c[1] for c in cards).most_common(1)[0][0]
    if kind == "flush":
        return f"flush, {_SINGULAR[max((c[0] for c in cards if c[1] == suit), key=RANKS.index)]} high"
    pool = {c[0] for c in cards if c[1] == suit} if kind == "straight flush" else set(count)
    top = _straight_top(pool)
    if kind == "straight flush":
        return "royal flush" if top == "A" else f"straight flush, {_SINGULAR[top]} high"
    return f"straight, {_SINGULAR[top]} high"


def _straight_top(ranks: set[str]) -> str:
    """The top card of the highest straight in ``ranks`` (the ace plays low only in the wheel, H1)."""
    for top in range(12, 3, -1):
        if all(RANKS[top - k] in ranks for k in range(5)):
            return RANKS[top]
    return "5"  # A-2-3-4-5
