"""Sheet options beyond the numbered rules: run it twice, showing after the hand, presets."""

from __future__ import annotations

import pytest

from app.games.base import InvalidSheet
from app.games.holdem import HOLDEM, PRESETS
from tests.games.holdem.helpers import act, cash_out, deck, deck_for, hand, table


def test_presets_are_valid_and_named_as_the_issue_says() -> None:
    assert set(PRESETS) == {"cash-nl-1-2", "tournament-nl-turbo", "fixed-limit-2-4", "pot-limit-1-2"}
    for key in PRESETS:
        sheet = HOLDEM.sheet(preset=key)
        assert HOLDEM.new(sheet, 6, seed=key).hand is not None
    assert PRESETS["fixed-limit-2-4"].variant == "fixed_limit" and PRESETS["fixed-limit-2-4"].big_blind == 2
    with pytest.raises(InvalidSheet):
        HOLDEM.sheet({"small_blind": 3, "big_blind": 2})
    with pytest.raises(InvalidSheet):
        HOLDEM.sheet({"format": "tournament"})
    with pytest.raises(InvalidSheet):
        HOLDEM.sheet({"buy_in_default": 500})


def test_run_it_twice_when_all_agree() -> None:
    cards = deck_for(["AhAd", "KhKd"], ["2c", "7d", "9s", "Jc", "3h"])
    rest = [c for c in deck() if c not in cards]
    # Second run: burn, flop, burn, turn, burn, river from where the first run ended.
    second = ["Kc", "Ks", "4d", "5d", "6d"]
    tail = [c for c in rest if c not in second]
    full = [*cards, tail[0], *second[:3], tail[1], second[3], tail[2], second[4], *tail[3:]]
    s = table({"run_it_twice": "ask", "max_hands": 1}, 2, deck=full)
    s = act(s, (0, {"type": "all_in"}), (1, {"type": "call"}))
    assert hand(s).phase == "run_twice" and sorted(HOLDEM.to_act(s)) == [0, 1]
    s = act(s, (0, {"type": "run_twice"}))
    assert HOLDEM.to_act(s) == [1]
    s, events = HOLDEM.apply(s, 1, {"type": "run_twice"})
    assert [e.data["run"] for e in events if e.type == "board"] == [1, 1, 1, 2, 2, 2]
    assert s.last is not None and s.last["board"] == ["2c", "7d", "9s", "Jc", "3h"]
    assert s.last["board2"] == ["Kc", "Ks", "4d", "5d", "6d"]
    # Aces (seat 1) win the first run, kings make four of a kind on the second: 200 each.
    assert cash_out(s) == {0: 200, 1: 200}
    assert [a["run"] for a in s.last["awards"]] == [1, 2]


def test_run_it_once_when_anyone_declines() -> None:
    cards = deck_for(["AhAd", "KhKd"], ["2c", "7d", "9s", "Jc", "3h"])
    s = table({"run_it_twice": "ask", "max_hands": 1}, 2, deck=cards)
    s = act(
        s,
        (0, {"type": "all_in"}),
        (1, {"type": "call"}),
        (1, {"type": "run_twice"}),
        (0, {"type": "run_once"}),
    )
    assert s.last is not None and s.last["board2"] == [] and cash_out(s) == {0: 0, 1: 400}


def test_show_after_the_hand_when_the_sheet_allows() -> None:
    cards = deck_for(["AhAd", "KhKd", "7c2d"])
    s = table({"show_after_hand": True}, 3, deck=cards)
    s = act(s, (0, {"type": "fold"}), (1, {"type": "fold"}))
    h = hand(s)
    assert h.phase == "show" and sorted(HOLDEM.to_act(s)) == [0, 1, 2]
    assert HOLDEM.timeout_action(s, 0) == {"type": "muck"}
    s = act(s, (0, {"type": "show"}))
    assert s.last is not None and s.last["shown"] == {"0": ["7c", "2d"]}
    assert HOLDEM.view(s, 1)["players"][0]["cards"] == ["7c", "2d"]
    s = act(s, (1, {"type": "muck"}), (2, {"type": "muck"}))
    assert hand(s).number == 2 and "Ah" not in str(HOLDEM.view(s, 0)["last_hand"])
