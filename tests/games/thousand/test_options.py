"""Presets, default moves, the seed stream, and option corners not covered rule by rule."""

from __future__ import annotations

import pytest

from app.games.base import IllegalAction
from app.games.cards import SeededRandom
from app.games.thousand import game
from app.games.thousand.rules import DECK, POINTS, PRESETS
from app.registry import get
from tests.games.thousand.helpers import after_give, play, start

BID = {"type": "bid", "value": 100}
PASS = {"type": "pass"}


def test_registered_under_its_name() -> None:
    assert get("thousand") is game
    assert set(game.presets) == {"tuhat", "tuhat-4", "tuhat-2", "tuhat-eesti"}
    assert "marriage_hearts" in game.sheet_schema()["properties"]


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_presets_deal_for_their_player_count(name: str) -> None:
    sheet = game.sheet(preset=name)
    state = game.new(sheet, sheet.players, seed=name)
    assert (
        sum(len(h) for h in state.hands) + len(state.talon) + sum(map(len, state.banks)) + len(state.stock)
        == 24
    )
    assert game.to_act(state) and game.legal_actions(state, game.to_act(state)[0])


def test_the_seed_drives_every_deal_with_a_label_per_deal() -> None:
    sheet = game.sheet({"blind_bidding": False, "nine_lottery": False, "low_hand_redeal": False})
    a = game.new(sheet, 3, seed="same")
    b = game.new(sheet, 3, seed="same")
    assert game.dump(a) == game.dump(b)
    first = SeededRandom("same", f"deal-{a.shuffles - 1}").shuffle(list(DECK))
    order = a.active()
    assert sorted(a.hands[order[0]]) == sorted(first[0:3] + first[12:16])
    assert game.dump(game.new(sheet, 3, seed="other")) != game.dump(a)


def test_timeout_moves() -> None:
    state = start([["Ac"], ["Ad"], ["Ah"]], ["Tc", "Td", "Th"])
    assert game.timeout_action(state, 0) == BID  # the opener's compulsory 100
    state = play(state, (0, BID))
    assert game.timeout_action(state, 1) == PASS
    assert game.timeout_action(state, 2) is None  # not its turn
    state = play(state, (1, PASS), (2, PASS))
    assert game.timeout_action(state, 0) == {"type": "take_talon"}
    state = play(state, (0, {"type": "take_talon"}))
    give = game.timeout_action(state, 0)
    assert give is not None and give in game.legal_actions(state, 0)
    state = play(state, (0, give))
    lowest = game.timeout_action(state, 0)
    assert lowest is not None
    assert POINTS[lowest["card"][0]] == min(POINTS[c[0]] for c in state.hands[0])  # leading: any card


def test_timeout_plays_the_lowest_legal_card() -> None:
    state = after_give(
        ["Kd", "Qd", "Ad", "Td", "9d", "Jd", "9h", "Jh"],
        ["9c", "Jc", "Qc", "Kc", "Tc", "Ac", "Qh", "Kh"],
        ["9s", "Js", "Qs", "Ks", "Ts", "As", "Th", "Ah"],
    )
    assert game.timeout_action(state, 0) == {"type": "play", "card": "9d"}
    state = play(state, (0, {"type": "play", "card": "Ad"}))
    assert game.timeout_action(state, 1) == {"type": "play", "card": "9c"}  # void: any card, the lowest


def test_t17_stuck_player_may_not_run_lottery_or_claim_redeal() -> None:
    nines = ["9c", "9d", "9h", "Jc", "Jd", "Qc", "Qd"]  # 10 points and three nines
    state = play(
        start(
            [["Ac"], nines, ["Ad"]],
            ["As", "Ah", "Tc"],
            stuck_at_800=True,
            stuck_score=0,
            nine_lottery=True,
            low_hand_redeal=True,
        ),
    )
    assert game.to_act(state) == [0]  # a stuck player has no claim to make out of turn
    with pytest.raises(IllegalAction) as info:
        game.apply(state, 1, {"type": "lottery", "nine": "9h"})
    assert info.value.code == "stuck"
    with pytest.raises(IllegalAction) as info:
        game.apply(state, 1, {"type": "redeal"})
    assert info.value.code == "stuck"


def test_t19_blind_hands_hidden_until_looked_and_events_follow_views() -> None:
    s = game.sheet({"blind_bidding": True, "nine_lottery": False, "left_100": False})
    deck = list(reversed(DECK))
    state = game.new(s, 3, seed="blind", deck=deck)
    for seat in range(3):
        assert game.view(state, seat)["hand"] is None
    state, events = game.apply(state, 0, {"type": "look"})
    assert game.view(state, 0)["hand"] == state.hands[0] and game.view(state, 1)["hand"] is None
    hand_events = [e for e in events if e.type == "hand"]
    assert [e.audience for e in hand_events] == [(0,)]
    state = play(state, (0, BID), (1, {"type": "bid", "value": 110}), (2, PASS), (0, PASS))
    # Seat 1 bid blind and won: the dealer (seat 2) alone sees the talon; seat 0 does not.
    assert state.blind and game.view(state, 2)["talon"]["cards"] is not None
    assert game.view(state, 0)["talon"]["cards"] is None and game.view(state, None)["talon"]["cards"] is None
    assert all(game.view(state, seat)["hand"] == state.hands[seat] for seat in range(3))


def test_t5_two_redeals_in_a_row_with_the_default_count() -> None:
    state = start(
        [["9c", "9d", "Jc"], ["Ac"], ["Ad"]], ["As", "Ah", "Tc"], low_hand_redeal=True, low_hand_limit=60
    )
    state = play(state, (0, {"type": "redeal"}))
    assert state.scores == [0, 0, 0] and state.dealer == 2 and state.redeals_in_row == 1
    opener = state.turn
    state = play(state, (opener, {"type": "redeal"}))
    assert state.scores == [0, 0, -100] and state.dealer == 0 and state.redeals_in_row == 0
    assert [row["type"] for row in state.rows] == ["redeal_penalty"]


def test_option_values_are_read_where_the_rules_use_them() -> None:
    s = {"opening_bid": 120, "bid_step": 20, "bomb_points": 50}
    state = start([["Ac"], ["Kh", "Qh"], ["Ad"]], ["As", "Ah", "Tc"], **s)
    assert game.legal_actions(state, 0) == [{"type": "bid", "value": 120}]
    state = play(state, (0, {"type": "bid", "value": 120}))
    bids = [a["value"] for a in game.legal_actions(state, 1) if a["type"] == "bid"]
    assert bids == list(range(140, 221, 20))
    state = play(state, (1, PASS), (2, PASS), (0, {"type": "take_talon"}), (0, {"type": "bomb"}))
    assert state.scores == [0, 50, 50]


def test_lottery_points_option() -> None:
    state = start(
        [["Tc"], ["9c", "9d", "9h", "Ac", "Ad", "Ah", "As"], ["Td"]],
        ["Th", "Ts", "Kc"],
        nine_lottery=True,
        lottery_points=40,
    )
    state = play(state, (1, {"type": "lottery", "nine": "9d"}))
    state = play(state, (2, {"type": "guess", "colour": "red"}), (0, {"type": "guess", "colour": "red"}))
    assert state.scores == [20, 0, 20]
