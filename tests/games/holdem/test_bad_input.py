"""Bad input: a clear error with a stable code, and no change to the state."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.games.base import IllegalAction
from app.games.holdem import HOLDEM
from tests.games.holdem.helpers import act, deck_for, hand, table


def refused(state: Any, seat: int, move: Any, code: str) -> IllegalAction:
    before = json.dumps(HOLDEM.dump(state), sort_keys=True)
    with pytest.raises(IllegalAction) as err:
        HOLDEM.apply(state, seat, move)
    assert err.value.code == code, err.value
    assert err.value.message.endswith(".")
    assert json.dumps(HOLDEM.dump(state), sort_keys=True) == before
    return err.value


def test_amounts_must_be_whole_non_negative_numbers_within_the_limits() -> None:
    s = table({}, 3)  # seat 0 to act, facing the big blind of 2
    refused(s, 0, {"type": "raise", "to": 3}, "below_minimum")
    refused(s, 0, {"type": "raise", "to": 201}, "above_stack")
    refused(s, 0, {"type": "raise", "to": -4}, "bad_amount")
    refused(s, 0, {"type": "raise", "to": 4.5}, "bad_amount")
    refused(s, 0, {"type": "raise", "to": "10"}, "bad_amount")
    refused(s, 0, {"type": "raise", "to": True}, "bad_amount")
    refused(s, 0, {"type": "raise", "to": None}, "bad_amount")
    refused(s, 0, {"type": "raise"}, "bad_amount")
    refused(s, 0, {"type": "raise", "to": 6, "extra": 1}, "bad_action")
    refused(s, 0, {"type": "call", "amount": 5}, "bad_amount")
    refused(s, 0, {"type": "bet", "to": 6}, "bet_not_allowed")
    refused(s, 0, {"type": "check"}, "cannot_check")
    s = act(s, (0, {"type": "call"}), (1, {"type": "call"}), (2, {"type": "check"}))
    refused(s, 1, {"type": "raise", "to": 4}, "raise_not_allowed")
    refused(s, 1, {"type": "call"}, "nothing_to_call")
    refused(s, 1, {"type": "fold"}, "cannot_fold")
    refused(s, 1, {"type": "bet", "to": 1}, "below_minimum")
    pl = table({"variant": "pot_limit"}, 3)
    refused(pl, 0, {"type": "raise", "to": 8}, "above_maximum")
    refused(pl, 0, {"type": "all_in"}, "above_maximum")
    fl = table({"variant": "fixed_limit"}, 3)
    refused(fl, 0, {"type": "raise", "to": 5}, "above_maximum")


def test_raising_when_raising_is_closed() -> None:
    s = HOLDEM.new(
        HOLDEM.sheet({"buy_in_min": 1, "max_hands": 1}),
        4,
        seed="x",
        button=0,
        stacks=[200, 200, 200, 15],
        deck=deck_for(["AhAd", "KhKd", "QhQd", "JhJd"]),
    )
    for seat in (3, 0, 1):
        s = act(s, (seat, {"type": "call"}))
    s = act(
        s,
        (2, {"type": "check"}),
        (1, {"type": "bet", "to": 10}),
        (2, {"type": "call"}),
        (3, {"type": "all_in"}),
        (0, {"type": "call"}),
    )
    err = refused(s, 1, {"type": "raise", "to": 30}, "raise_closed")
    assert "reopen" in err.message
    capped = table({"variant": "fixed_limit"}, 4)
    capped = act(
        capped,
        (3, {"type": "raise", "to": 4}),
        (0, {"type": "raise", "to": 6}),
        (1, {"type": "raise", "to": 8}),
    )
    assert "capped" in refused(capped, 2, {"type": "raise", "to": 10}, "raise_closed").message


def test_out_of_turn_unknown_moves_and_bad_seats() -> None:
    s = table({"straddle": "utg"}, 4)
    refused(s, 0, {"type": "straddle"}, "not_your_turn")
    refused(s, 3, {"type": "call"}, "wrong_phase")
    refused(s, 3, {"type": "straddle", "amount": 5}, "bad_amount")
    s = act(s, (3, {"type": "no_straddle"}))
    refused(s, 1, {"type": "fold"}, "not_your_turn")
    refused(s, 3, {"type": "show"}, "not_your_turn")
    refused(s, 3, {"type": "run_twice"}, "wrong_phase")
    refused(s, 3, {"type": "dance"}, "unknown_action")
    refused(s, 3, {}, "unknown_action")
    refused(s, 3, "fold", "bad_action")
    refused(s, 12, {"type": "fold"}, "bad_seat")
    refused(s, -1, {"type": "fold"}, "bad_seat")
    assert HOLDEM.legal_actions(s, 1) == [] and HOLDEM.legal_actions(s, 99) == []
    refused(s, 7, {"type": "leave"}, "not_seated")
    refused(s, 7, {"type": "rebuy", "amount": 10}, "not_seated")
    refused(s, 0, {"type": "sit_in"}, "not_out")
    refused(s, 0, {"type": "rebuy", "amount": 10}, "buy_in_range")


def test_error_messages_name_no_hidden_card() -> None:
    s = table({}, 3)
    secret = {c for x in hand(s).players for c in hand(s).holes[x]} | set(hand(s).deck)
    moves = [
        {"type": "raise", "to": 1},
        {"type": "check"},
        {"type": "show"},
        {"type": "muck"},
        {"type": "bet", "to": 5},
        {"type": "join", "seat": 1},
    ]
    for seat in range(4):
        for move in moves:
            try:
                HOLDEM.apply(s, seat, move)
            except IllegalAction as err:
                words = {w.strip(".,;:'\"()") for w in err.message.split()}
                assert not words & secret, err.message


def test_bad_decks_and_stacks() -> None:
    sheet = HOLDEM.sheet({})
    with pytest.raises(IllegalAction) as err:
        HOLDEM.new(sheet, 2, deck=["Ah", "Ah"])
    assert err.value.code == "bad_deck"
    with pytest.raises(IllegalAction) as err:
        HOLDEM.new(sheet, 2, deck=["Zz"])
    assert err.value.code == "bad_deck"
    with pytest.raises(IllegalAction) as err:
        HOLDEM.new(sheet, 2, stacks=[100, 0])
    assert err.value.code == "bad_stacks"
    with pytest.raises(IllegalAction) as err:
        HOLDEM.new(sheet, 2, button=5)
    assert err.value.code == "bad_button"
