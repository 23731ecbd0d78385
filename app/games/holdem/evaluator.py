"""Hand ranking (H18) behind one function, over the phevaluator perfect-hash evaluator.

``strength(cards)`` ranks the best five of five to seven cards (H3): a smaller number is a
stronger hand (1 is a royal flush, 7462 the worst high card); suits never decide (H2), so equal
numbers split. ``hand_name`` says it for the log: "two pair, kings and nines".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from phevaluator import _pheval

from app.games.cards import RANKS, SUITS

CARD_ID: dict[str, int] = {r + s: 4 * i + j for i, r in enumerate(RANKS) for j, s in enumerate(SUITS)}
"""phevaluator's card numbers: rank * 4 + suit (c d h s)."""

_EVAL = {5: _pheval.evaluate_5cards, 6: _pheval.evaluate_6cards, 7: _pheval.evaluate_7cards}
_EVAL7 = _pheval.evaluate_7cards

CATEGORIES = (
    (10, "straight flush"), (166, "four of a kind"), (322, "full house"), (1599, "flush"),
    (1609, "straight"), (2467, "three of a kind"), (3325, "two pair"), (6185, "pair"), (7462, "high card"),
)

_SINGULAR = dict(zip(RANKS, ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                             "jack", "queen", "king", "ace"], strict=True))
_PLURAL = {r: ("sixes" if n == "six" else n + "s") for r, n in _SINGULAR.items()}


def strength(cards: Sequence[str]) -> int:
    """The rank of the best five of ``cards`` (5–7 codes); smaller is stronger."""
    ids = [CARD_ID[c] for c in cards]
    return int(_EVAL[len(ids)](*ids))


def strength7(a: str, b: str, c: str, d: str, e: str, f: str, g: str) -> int:
    """``strength`` for exactly seven cards, the showdown's case, with the least overhead."""
    i = CARD_ID
    return int(_EVAL7(i[a], i[b], i[c], i[d], i[e], i[f], i[g]))


def category(rank: int) -> str:
    """The hand category of a rank from ``strength``."""
    for limit, name in CATEGORIES:
        if rank <= limit:
            return name
    raise ValueError(f"not a hand rank: {rank}")


def best_five(cards: Sequence[str]) -> list[str]:
    """The five cards that make the hand (for the log and the names; not on the hot path)."""
    if len(cards) == 5:
        return list(cards)
    best = min(combinations(cards, 5), key=lambda five: strength(five))
    return list(best)


def hand_name(cards: Sequence[str]) -> str:
    """The hand in words, e.g. "two pair, kings and nines" or "full house, aces full of tens"."""
    rank = strength(cards)
    kind = category(rank)
    five = best_five(cards)
    counts = Counter(c[0] for c in five)
    # Ranks ordered by how many there are, then by height: the order a player says them.
    order = sorted(counts, key=lambda r: (counts[r], RANKS.index(r)), reverse=True)
    high = order[0]
    if kind in ("straight flush", "straight"):
        ranks = {c[0] for c in five}
        top = "5" if ranks == set("A2345") else max(ranks, key=RANKS.index)
        if kind == "straight flush" and top == "A":
            return "royal flush"
        return f"{kind}, {_SINGULAR[top]} high"
    if kind == "four of a kind":
        return f"four of a kind, {_PLURAL[high]}"
    if kind == "full house":
        return f"full house, {_PLURAL[high]} full of {_PLURAL[order[1]]}"
    if kind == "flush":
        return f"flush, {_SINGULAR[high]} high"
    if kind == "three of a kind":
        return f"three of a kind, {_PLURAL[high]}"
    if kind == "two pair":
        return f"two pair, {_PLURAL[order[0]]} and {_PLURAL[order[1]]}"
    if kind == "pair":
        return f"pair of {_PLURAL[high]}"
    return f"high card, {_SINGULAR[high]}"
