"""Bad input: every refusal has a stable code and a sentence, names no hidden card, changes nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.games.base import IllegalAction
from app.games.palace import game
from app.games.palace.table import Table
from tests.games.palace.helpers import deal, play, sheet


def table() -> Table:
    return deal([["9c", "9d", "4h"], ["3s", "Qd", "Ks"], ["5s", "6s", "7s"]], stock=["Ac", "Ad", "Ah"])


CASES: list[tuple[int, Any, str]] = [
    (0, {"type": "fly"}, "unknown_action"),
    (0, {}, "unknown_action"),
    (0, "play", "bad_action"),
    (0, {"type": "play"}, "bad_action"),
    (0, {"type": "play", "cards": ["9c"], "extra": 1}, "bad_action"),
    (0, {"type": "play", "cards": ["Zz"]}, "bad_cards"),
    (0, {"type": "play", "cards": "9c"}, "bad_cards"),
    (0, {"type": "play", "cards": [9]}, "bad_cards"),
    (0, {"type": "play", "cards": []}, "bad_cards"),
    (0, {"type": "play", "cards": ["As"]}, "not_held"),
    (0, {"type": "play", "cards": ["9c", "9c"]}, "not_held"),
    (0, {"type": "play", "cards": ["9c", "4h"]}, "mixed_ranks"),
    (1, {"type": "play", "cards": ["3s"]}, "not_your_turn"),
    (7, {"type": "play", "cards": ["9c"]}, "bad_seat"),
    (-1, {"type": "play", "cards": ["9c"]}, "bad_seat"),
    (0, {"type": "play_face_up", "indexes": [0]}, "hand_first"),
    (0, {"type": "play_face_down", "index": 0}, "hand_first"),
    (0, {"type": "swap", "card": "9c", "index": 0}, "wrong_phase"),
    (0, {"type": "ready"}, "wrong_phase"),
    (0, {"type": "burn"}, "no_burn_decision"),
    (0, {"type": "play_drawn"}, "no_drawn_card"),
    (0, {"type": "pick_up"}, "pile_empty"),
    (0, {"type": "draw"}, "pile_empty"),
    (0, {"type": "pass"}, "cannot_pass"),
    (0, {"type": "cut_in", "cards": ["9c"]}, "not_allowed"),
    (0, {"type": "lay_four", "cards": ["9c", "9d", "9h", "9s"]}, "not_allowed"),
    (0, {"type": "add", "cards": ["9c"]}, "not_allowed"),
]


@pytest.mark.parametrize(("seat", "action", "code"), CASES)
def test_bad_input_is_refused_and_changes_nothing(seat: int, action: Any, code: str) -> None:
    t = table()
    before = json.dumps(game.dump(t), sort_keys=True)
    with pytest.raises(IllegalAction) as e:
        game.apply(t, seat, action)
    assert e.value.code == code, e.value
    assert e.value.message.endswith(".") and len(e.value.message) > 10
    assert json.dumps(game.dump(t), sort_keys=True) == before
    hidden = {"Ac", "Ad", "Ah", "3s", "Qd", "Ks"} | {"4c", "5c", "6c"}
    assert not any(card in e.value.message for card in hidden)


def test_bad_index_values() -> None:
    t = deal([["5c", "5d", "5h"], ["6s", "Ts", "Js"]], face_up=[["9h", "9d", "Qh"], ["3c", "3d", "3h"]])
    t, _ = play(t, 0, {"type": "play", "cards": ["5c", "5d", "5h"]})
    t, _ = play(t, 1, {"type": "play", "cards": ["6s"]})
    for bad in ([3], [True], ["0"], [], [0, 0], [0, 1, 2, 0], 0):
        with pytest.raises(IllegalAction) as e:
            game.apply(t, 0, {"type": "play_face_up", "indexes": bad})
        assert e.value.code == "bad_index"
    with pytest.raises(IllegalAction) as e:
        game.apply(t, 0, {"type": "play_face_up", "indexes": [0, 2]})
    assert e.value.code == "mixed_ranks"
    with pytest.raises(IllegalAction) as e:
        game.apply(t, 0, {"type": "play_face_down", "index": 0})
    assert e.value.code == "face_up_first"


def test_swap_phase_bad_input() -> None:
    t = game.new(sheet(), 2, seed="swap")
    hand = t.players[0].hand
    up = t.players[0].face_up
    cases: list[tuple[dict[str, Any], str]] = [
        ({"type": "swap", "card": "Zz", "index": 0}, "bad_cards"),
        ({"type": "swap", "card": hand[0], "index": 5}, "bad_index"),
        ({"type": "swap", "card": next(c for c in t.players[1].hand), "index": 0}, "not_held"),
        ({"type": "lay_face_up", "cards": list(hand)}, "wrong_phase"),
        ({"type": "play", "cards": [hand[0]]}, "wrong_phase"),
        ({"type": "pick_up"}, "wrong_phase"),
    ]
    for action, code in cases:
        with pytest.raises(IllegalAction) as e:
            game.apply(t, 0, action)
        assert e.value.code == code, (action, e.value)
    assert game.view(t, 0)["players"][0]["face_up"] == list(up)


def test_choose_from_six_bad_input() -> None:
    t = game.new(sheet(deal="choose_from_six"), 2, seed="six")
    hand = list(t.players[0].hand)
    cases: list[tuple[dict[str, Any], str]] = [
        ({"type": "lay_face_up", "cards": hand[:2]}, "wrong_count"),
        ({"type": "lay_face_up", "cards": [hand[0]] * 3}, "not_held"),
        ({"type": "ready"}, "choose_face_up_first"),
        ({"type": "swap", "card": hand[0], "index": 0}, "wrong_phase"),
    ]
    for action, code in cases:
        with pytest.raises(IllegalAction) as e:
            game.apply(t, 0, action)
        assert e.value.code == code, (action, e.value)


def test_decision_pending_refuses_other_moves() -> None:
    t = deal([["5c", "4h", "Ah"], ["Ts", "3d", "Ks"], ["4s", "4d", "9d"]], stock=["6c", "6d"], cut_in=True)
    t, _ = play(t, 0, {"type": "play", "cards": ["5c"]})
    t, _ = play(t, 1, {"type": "play", "cards": ["Ts"]})
    steps: list[tuple[int, dict[str, Any], str]] = [
        (1, {"type": "play", "cards": ["3d"]}, "decision_pending"),
        (1, {"type": "pick_up"}, "decision_pending"),
        (2, {"type": "cut_in", "cards": ["4s"]}, "decision_pending"),
        (2, {"type": "keep"}, "no_burn_decision"),
    ]
    for seat, action, code in steps:
        with pytest.raises(IllegalAction) as e:
            game.apply(t, seat, action)
        assert e.value.code == code, (action, e.value)


def test_invalid_sheet_and_player_counts() -> None:
    from app.games.base import InvalidSheet

    for data in ({"stalemate_moves": 3}, {"deal": "four"}, {"jokers": -1}, {"low_card": 7}, {"x": 1}):
        with pytest.raises(InvalidSheet) as e:
            game.sheet(data)
        assert e.value.option is not None and e.value.code == "invalid_sheet"
    with pytest.raises(InvalidSheet):
        game.sheet("not a mapping")  # type: ignore[arg-type, unused-ignore]
    with pytest.raises(InvalidSheet):
        game.new(sheet(), True)
    with pytest.raises(InvalidSheet):
        game.new(sheet(deck="36", most_players=3, opening="turn_up", decks="one"), 4)
