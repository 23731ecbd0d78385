"""The evaluator wrapper agrees with pokerkit's hand ordering on random seven-card hands."""

from __future__ import annotations

import random

from pokerkit import StandardHighHand

from app.games.cards import deck
from app.games.holdem.evaluator import best_five, category, hand_name, strength, strength7


def test_strength_orders_hands_like_pokerkit() -> None:
    rng = random.Random(7)
    cards = deck()
    for _ in range(600):
        drawn = rng.sample(cards, 9)
        board, a, b = drawn[:5], drawn[5:7], drawn[7:9]
        ours = strength([*a, *board]) - strength([*b, *board])
        pa = StandardHighHand.from_game("".join(a), "".join(board))
        pb = StandardHighHand.from_game("".join(b), "".join(board))
        theirs = 0 if pa == pb else (-1 if pa > pb else 1)
        assert (ours > 0) - (ours < 0) == theirs
        assert strength7(*a, *board) == strength([*a, *board])


def test_best_five_and_names_for_every_category() -> None:
    assert sorted(best_five(["Ah", "Kh", "Qh", "Jh", "Th", "2c", "3d"])) == sorted(
        ["Ah", "Kh", "Qh", "Jh", "Th"]
    )
    assert hand_name(["5h", "4h", "3h", "2h", "Ah", "Kc", "Kd"]) == "straight flush, five high"
    assert hand_name(["Ah", "Ad", "Ac", "Ts", "Th", "Tc", "3d"]) == "full house, aces full of tens"
    assert category(1) == "straight flush" and category(7462) == "high card"


def test_the_hand_shuffle_is_the_seeded_random_shuffle() -> None:
    from app.games.cards import SeededRandom
    from app.games.shuffle import shuffle

    for n in range(200):
        assert shuffle(f"seed-{n}", f"hand-{n}", deck()) == SeededRandom(f"seed-{n}", f"hand-{n}").shuffle(
            deck()
        )
    # Decks that draw past the first three blocks take the general loop: the same shuffle.
    for size in (100, 256):
        items = list(range(size))
        assert shuffle("seed", "long", items) == SeededRandom("seed", "long").shuffle(items)
