"""The generic property checks of every game, for hold'em tables of every kind, plus chips."""

from __future__ import annotations

import random

import pytest

from app.games.holdem import HOLDEM
from tests.games.holdem.helpers import all_cards, chips, concrete, visible_cards
from tests.games.properties import PropertyCase, play_random_game

CASES = {
    "cash-nl": ("cash-nl-1-2", {"max_hands": 12, "buy_in_min": 2, "buy_in_default": 30}, 4),
    "tournament": ("tournament-nl-turbo", {"level_by": "hands", "level_length": 3, "starting_chips": 300}, 5),
    "fixed-limit-ask": (
        "fixed-limit-2-4",
        {
            "max_hands": 8,
            "run_it_twice": "ask",
            "showdown": "ask",
            "show_after_hand": True,
            "buy_in_min": 2,
            "buy_in_default": 12,
        },
        3,
    ),
    "pot-limit-antes": ("pot-limit-1-2", {"max_hands": 8, "ante_type": "every_player", "ante": 1}, 6),
    "heads-up-bba": (
        "cash-nl-1-2",
        {
            "max_hands": 15,
            "buy_in_default": 10,
            "buy_in_min": 5,
            "ante_type": "big_blind",
            "ante": 2,
            "run_it_twice": "ask",
        },
        2,
    ),
    "ten-seats": ("cash-nl-1-2", {"seats": 10, "max_hands": 4, "buy_in_min": 2, "buy_in_default": 20}, 10),
}


def property_case(name: str = "cash-nl") -> PropertyCase:
    """The generic suite's case for one of ``CASES`` (tests/games/test_registry.py asks for it)."""
    preset, options, players = CASES[name]
    sheet = HOLDEM.sheet(options, preset=preset)
    return PropertyCase(
        HOLDEM, sheet, players, visible_cards, all_cards, max_moves=5000, concrete=concrete, chips=chips
    )


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("seed", range(2))
def test_random_tables_keep_every_property(name: str, seed: int) -> None:
    case = property_case(name)
    sheet = case.sheet
    players = case.players
    result = play_random_game(case, f"{name}-{seed}", random.Random(seed))
    outcome = HOLDEM.outcome(result.state)
    assert outcome is not None and result.moves > 0
    if sheet.format == "tournament":
        assert sum(outcome.scores.values()) == players * sheet.starting_chips
    else:
        assert sum(outcome.scores.values()) == 0  # chips only change hands


def test_many_quick_tables_conserve_chips_and_cards() -> None:
    sheet = HOLDEM.sheet(
        {"max_hands": 6, "buy_in_min": 2, "buy_in_default": 20, "straddle": "utg"}, preset="cash-nl-1-2"
    )
    for seed in range(12):
        case = PropertyCase(
            HOLDEM,
            sheet,
            2 + seed % 8,
            visible_cards,
            all_cards,
            max_moves=3000,
            concrete=concrete,
            chips=chips,
        )
        play_random_game(case, f"quick-{seed}", random.Random(seed), deep=False)
