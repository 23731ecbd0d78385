"""The generic properties of every game, for Thousand's sheets (see tests/games/properties.py)."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from app.games.thousand import State, game
from app.games.thousand.rules import DECK, total_points
from tests.games.properties import PropertyCase, play_random_game
from tests.games.thousand.helpers import cards_everywhere


def visible_cards(state: State, seat: int | None) -> set[str]:
    """What the rules let ``seat`` see [T19], written from the rules' zones."""
    seen: set[str] = set()
    # Played cards, shown redeal hands and a turned-up talon are public.
    for zone in state.taken:
        seen.update(zone)
    seen.update(c for _, c in state.trick)
    seen.update(c for _, c in state.last_trick)
    for shown in state.shown:
        seen.update(shown["cards"])
    seen.update(state.talon_public)
    if state.lottery is not None and state.lottery["resolved"]:
        seen.add(state.lottery["nine"])
    if seat is None:
        return seen
    if state.looked[seat]:
        seen.update(state.hands[seat])
    if seat in state.talon_seen:
        seen.update(state.talon_seen_cards)
    for giver, receiver, card in state.given:
        if seat in (giver, receiver):
            seen.add(card)
    if seat == state.bidder:
        seen.update(state.aside)
    if state.lottery is not None and state.lottery["organiser"] == seat:
        seen.add(state.lottery["nine"])
    return seen


def all_cards(state: State) -> Counter[str]:
    return cards_everywhere(state)


def discourage(action: dict[str, Any]) -> bool:
    # Random raises make contracts nobody can make and games that never end.
    return action.get("type") == "bid" and action.get("value", 0) > 110 or action.get("type") == "bomb"


def case(players: int = 3, **options: Any) -> PropertyCase:
    sheet = game.sheet({"players": players, "target_score": 300, **options})
    return PropertyCase(game, sheet, players, visible_cards, all_cards, max_moves=4000, discourage=discourage)


SHEETS = {
    "tuhat": {},
    "keep-talon": {"talon": "keep", "must_trump": True, "marriage_when_following": True},
    "extras": {"left_100": True, "low_hand_redeal": True, "low_hand_limit": 30, "stuck_at_800": True,
               "stuck_score": 100, "marriage_in_first_trick": False},
    "four": {"players": 4},
    "two-stock": {"players": 2},
    "two-banks": {"players": 2, "two_player_variant": "banks"},
}


@pytest.mark.parametrize("name", SHEETS)
def test_random_games_keep_every_property(name: str) -> None:
    options = dict(SHEETS[name])
    players = options.pop("players", 3)
    c = case(players, **options)
    for i in range(2):
        result = play_random_game(c, f"{name}-{i}", random.Random(i))
        assert game.outcome(result.state) is not None
        check_deal_points(result.state)


def check_deal_points(state: State) -> None:
    """Each played deal's card points (tricks, laid-aside cards and a closed bank) sum to 120."""
    deals = [row for row in state.rows if row["type"] == "deal"]
    assert deals
    for row in deals:
        assert sum(row["card_points"]) + row["closed_bank"] == 120 == total_points(list(DECK))


def test_full_games_to_1000_end_shallow() -> None:
    c = case(3)
    c.sheet = game.sheet({"target_score": 1000})
    c.max_moves = 20000
    for i in range(2):
        result = play_random_game(c, f"full-{i}", random.Random(100 + i), deep=False)
        assert max(result.state.scores) >= 1000
        check_deal_points(result.state)


def test_json_round_trip_is_exact() -> None:
    state = game.new(game.sheet(preset="tuhat-4"), 4, seed="round")
    data = json.loads(json.dumps(game.dump(state)))
    assert game.dump(game.load(data)) == game.dump(state)
