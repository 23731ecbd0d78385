"""Bad input: a clear error with a stable code, and no change to the state."""

from __future__ import annotations

import re
from typing import Any

import pytest

from app.games.base import IllegalAction, InvalidSheet
from app.games.thousand import game
from app.games.thousand.rules import DECK
from app.games.thousand.state import State
from tests.games.thousand.helpers import after_give, play, sheet, start

HANDS = (
    ["Kd", "Qd", "Ad", "Td", "9d", "Jd", "9h", "Jh"],
    ["9c", "Jc", "Qc", "Kc", "Tc", "Ac", "Qh", "Kh"],
    ["9s", "Js", "Qs", "Ks", "Ts", "As", "Th", "Ah"],
)


def refused(state: State, seat: int, action: Any, code: str) -> str:
    before = game.dump(state)
    with pytest.raises(IllegalAction) as info:
        game.apply(state, seat, action)
    assert info.value.code == code
    assert info.value.message.endswith(".")
    assert game.dump(state) == before
    return info.value.message


def auction() -> State:
    return play(start([["Ac"], ["Ad"], ["Ah"]], ["Tc", "Td", "Th"]), (0, {"type": "bid", "value": 100}))


def exchange() -> State:
    return play(auction(), (1, {"type": "pass"}), (2, {"type": "pass"}), (0, {"type": "take_talon"}))


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"type": "bid", "value": 115}, "bid_off_step"),
        ({"type": "bid", "value": 100}, "bid_too_low"),
        ({"type": "bid", "value": 130}, "bid_over_limit"),
        ({"type": "bid", "value": "110"}, "bad_bid"),
        ({"type": "bid", "value": True}, "bad_bid"),
        ({"type": "bid"}, "bad_bid"),
        ({"type": "play", "card": "Ad"}, "wrong_phase"),
        ({"type": "fold"}, "unknown_action"),
        ({}, "unknown_action"),
        ("pass", "bad_action"),
    ],
)
def test_bad_bids_and_actions(action: Any, code: str) -> None:
    refused(auction(), 1, action, code)


def test_acting_out_of_turn() -> None:
    refused(auction(), 2, {"type": "pass"}, "not_your_turn")
    refused(auction(), 7, {"type": "pass"}, "bad_seat")


@pytest.mark.parametrize(
    ("cards", "code"),
    [
        ({"1": "Ad", "2": "Tc"}, "not_held"),  # seat 1's ace is not the bidder's to pass
        ({"1": "Tc", "2": "Tc"}, "duplicate_cards"),
        ({"1": "Tc"}, "bad_give"),
        ({"1": "Tc", "0": "Td"}, "bad_give"),
        ({"1": "Tc", "2": "Zz"}, "bad_cards"),
        (["Tc", "Td"], "bad_give"),
        ({"1": ["Tc"], "2": "Td"}, "bad_cards"),
    ],
)
def test_passing_cards_not_held_or_malformed(cards: Any, code: str) -> None:
    message = refused(exchange(), 0, {"type": "give", "cards": cards}, code)
    assert "Ad" not in message  # an error never names a card the seat may not see


def test_discard_on_a_give_sheet_and_bad_discards() -> None:
    refused(exchange(), 0, {"type": "discard", "cards": ["Tc", "Td", "Th"]}, "wrong_phase")
    keep = play(
        start([["Ac"], ["Ad"], ["Ah"]], ["Tc", "Td", "Th"], talon="keep"),
        (0, {"type": "bid", "value": 100}),
        (1, {"type": "pass"}),
        (2, {"type": "pass"}),
        (0, {"type": "take_talon"}),
    )
    refused(keep, 0, {"type": "discard", "cards": ["Tc", "Td"]}, "wrong_count")
    refused(keep, 0, {"type": "discard", "cards": ["Tc", "Td", "Ad"]}, "not_held")
    refused(keep, 0, {"type": "discard", "cards": "TcTdTh"}, "bad_cards")


def test_reneging_and_bad_plays() -> None:
    state = after_give(*HANDS)
    refused(state, 0, {"type": "play", "card": "Ac"}, "not_held")
    refused(state, 0, {"type": "play", "card": 5}, "not_held")
    refused(state, 0, {"type": "play", "card": "Kd", "declare": "yes"}, "bad_declare")
    refused(state, 1, {"type": "play", "card": "9c"}, "not_your_turn")
    state, _ = game.apply(state, 0, {"type": "play", "card": "9h"})
    refused(state, 1, {"type": "play", "card": "9c"}, "must_follow")


def test_declaring_a_marriage_not_held() -> None:
    state = after_give(*HANDS)
    refused(state, 0, {"type": "play", "card": "Jd", "declare": True}, "no_marriage")
    state, _ = game.apply(state, 0, {"type": "play", "card": "Kd"})  # the king goes without declaring
    state = play(state, (1, {"type": "play", "card": "9c"}), (2, {"type": "play", "card": "9s"}))
    refused(state, 0, {"type": "play", "card": "Qd", "declare": True}, "no_marriage")  # its king is gone


def test_bad_sheets_and_decks() -> None:
    with pytest.raises(InvalidSheet):
        game.sheet({"players": 5})
    with pytest.raises(InvalidSheet):
        game.sheet({"talon": "burn"})
    with pytest.raises(InvalidSheet):
        game.sheet({"no_such_option": 1})
    with pytest.raises(InvalidSheet):
        game.sheet(preset="whist")
    with pytest.raises(InvalidSheet):
        game.new(sheet(), 4)
    with pytest.raises(InvalidSheet):
        game.new(sheet(), 3, seed="x", deck=[*DECK[:-1], "Ac"])


def test_no_error_message_names_a_card() -> None:
    """Error texts are fixed sentences: none carries a card code another seat might not see."""
    probes: list[tuple[State, int, Any]] = [
        (auction(), 1, {"type": "bid", "value": 999}),
        (exchange(), 0, {"type": "give", "cards": {"1": "Ad", "2": "Ah"}}),
        (exchange(), 0, {"type": "give", "cards": {"1": "Xx", "2": "Ah"}}),
        (after_give(*HANDS), 0, {"type": "play", "card": "Ac"}),
        (after_give(*HANDS), 0, {"type": "play", "card": "Jd", "declare": True}),
    ]
    for state, seat, action in probes:
        with pytest.raises(IllegalAction) as info:
            game.apply(state, seat, action)
        assert not re.search(r"\b[2-9TJQKA][cdhs]\b", info.value.message), info.value.message
