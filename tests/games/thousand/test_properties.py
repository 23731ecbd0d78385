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
from tests.games.thousand.policy import greedy_move


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
    # Random raises make contracts nobody can make, and random redeals cost the dealer 100 each:
    # games where everybody's total drifts down never end.
    kind = action.get("type")
    return (kind == "bid" and action.get("value", 0) > 70) or kind in ("bomb", "redeal")


def property_case() -> PropertyCase:
    """The generic suite's case for the registry test (tests/games/test_registry.py)."""
    return case()


def case(players: int = 3, **options: Any) -> PropertyCase:
    # Random players seldom make 100 (blind contracts lose double): with an opening bid of 60 the
    # totals rise and the games end; the mechanics under test are the same.
    sheet = game.sheet({"players": players, "target_score": 200, "opening_bid": 60, **options})
    return PropertyCase(game, sheet, players, visible_cards, all_cards, max_moves=4000, discourage=discourage)


SHEETS = {
    "tuhat": {},
    "keep-talon": {"talon": "keep", "must_trump": True, "marriage_when_following": True, "must_beat": True},
    "extras": {
        "left_100": True,
        "low_hand_redeal": True,
        "low_hand_limit": 30,
        "stuck_at_800": True,
        "stuck_score": 100,
        "marriage_in_first_trick": False,
    },
    "four": {"players": 4},
    "two-stock": {"players": 2},
    "two-banks": {"players": 2, "two_player_variant": "banks"},
}


@pytest.mark.parametrize("name", SHEETS)
def test_random_games_keep_every_property(name: str) -> None:
    options = dict(SHEETS[name])
    players = options.pop("players", 3)
    c = case(players, **options)
    for i in range(3):
        result = play_random_game(c, f"{name}-{i}", random.Random(i))
        assert game.outcome(result.state) is not None
        check_deal_points(result.state)


@pytest.mark.slow
@pytest.mark.parametrize("name", SHEETS)
def test_many_random_games_slow(name: str) -> None:
    options = dict(SHEETS[name])
    players = options.pop("players", 3)
    c = case(players, **options)
    for i in range(3, 40):
        result = play_random_game(c, f"{name}-{i}", random.Random(i), deep=i % 4 == 0)
        check_deal_points(result.state)


def check_deal_points(state: State) -> None:
    """Each played deal's card points (tricks, laid-aside cards and a closed bank) sum to 120."""
    deals = [row for row in state.rows if row["type"] == "deal"]
    assert deals
    for row in deals:
        assert sum(row["card_points"]) + row["closed_bank"] == 120 == total_points(list(DECK))


@pytest.mark.parametrize("preset", ["tuhat", "tuhat-4"])
def test_full_games_to_1000(preset: str) -> None:
    """Whole games to 1000 by a greedy player: they end, conserve cards, and replay exactly."""
    sheet = game.sheet(preset=preset)
    for i in range(2):
        seed = f"full-{preset}-{i}"
        rng = random.Random(i)
        state = game.new(sheet, sheet.players, seed=seed)
        cards = all_cards(state)
        log: list[tuple[int, dict[str, Any]]] = []
        while game.outcome(state) is None:
            assert len(log) < 20000, "the game did not end"
            seat = rng.choice(game.to_act(state))
            action = greedy_move(state, seat, game.legal_actions(state, seat), rng)
            state, _ = game.apply(state, seat, action)
            log.append((seat, action))
            assert all_cards(state) == cards
        assert max(state.scores) >= 1000
        check_deal_points(state)
        assert game.dump(game.replay(sheet, sheet.players, seed, log)) == game.dump(state)


def test_json_round_trip_is_exact() -> None:
    state = game.new(game.sheet(preset="tuhat-4"), 4, seed="round")
    data = json.loads(json.dumps(game.dump(state)))
    assert game.dump(game.load(data)) == game.dump(state)
