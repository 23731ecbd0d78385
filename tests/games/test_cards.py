"""Decks, card codes and the seeded shuffle (DESIGN.md, Security)."""

from __future__ import annotations

from collections import Counter

import pytest

from app.games.cards import (
    SeededRandom,
    deck,
    is_card,
    new_seed,
    parse_cards,
    seed_hash,
    shuffled,
    sort_key,
)


def test_deck_sizes() -> None:
    assert len(deck()) == 52 and len(set(deck())) == 52
    assert len(deck(low_rank="6")) == 36
    assert len(deck(low_rank="9")) == 24
    assert len(deck(jokers=2)) == 54
    assert Counter(deck(decks=2))["Qs"] == 2


def test_card_codes() -> None:
    assert is_card("Ah") and is_card("Ts") and is_card("9c") and is_card("Xr")
    for bad in ["", "A", "1h", "Ahh", "ah", "Ax", None, 12, ["Ah"]]:
        assert not is_card(bad)
    with pytest.raises(ValueError, match="not a card code"):
        parse_cards(["Ah", "Zz"])
    with pytest.raises(ValueError):
        parse_cards("Ah")


def test_shuffle_is_reproducible_from_its_seed_and_differs_between_seeds() -> None:
    cards = deck()
    assert shuffled(cards, "seed-a") == shuffled(cards, "seed-a")
    assert shuffled(cards, "seed-a") != shuffled(cards, "seed-b")
    assert shuffled(cards, "seed-a", "hand-1") != shuffled(cards, "seed-a", "hand-2")
    assert sorted(shuffled(cards, "seed-a")) == sorted(cards)


def test_fresh_seeds_are_unpredictable_and_hash_commits_to_them() -> None:
    seeds = {new_seed() for _ in range(100)}
    assert len(seeds) == 100 and all(len(s) == 64 for s in seeds)
    seed = new_seed()
    assert seed_hash(seed) == seed_hash(seed) and seed_hash(seed) != seed_hash(new_seed())


def test_below_is_uniform_enough_and_in_range() -> None:
    rng = SeededRandom("uniform")
    counts = Counter(rng.below(6) for _ in range(60000))
    assert set(counts) == set(range(6))
    # each face expected 10000; a biased generator (e.g. modulo of a byte) drifts far more.
    assert all(abs(c - 10000) < 500 for c in counts.values()), counts


def test_first_card_position_is_uniform() -> None:
    counts = Counter(shuffled(deck(low_rank="9"), f"s{i}")[0] for i in range(24000))
    assert len(counts) == 24
    assert all(abs(c - 1000) < 160 for c in counts.values()), counts


def test_sort_key_orders_by_rank_then_suit_with_jokers_first() -> None:
    cards = ["As", "2c", "Xb", "Td", "2s", "Xr", "9h"]
    assert sorted(cards, key=sort_key()) == ["Xr", "Xb", "2c", "2s", "9h", "Td", "As"]
    # The unshuffled deck is already in this order, whatever its lowest rank.
    assert sorted(deck(low_rank="9"), key=sort_key()) == deck(low_rank="9")
    # Another rank order ranks by it (Thousand's trick order: 9 J Q K 10 A).
    assert sorted(["Ac", "Tc", "Kc", "9c"], key=sort_key("9JQKTA")) == ["9c", "Kc", "Tc", "Ac"]
