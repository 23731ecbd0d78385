"""The table around the hands: joining, leaving, sitting out, rebuys, closing, blind levels."""

from __future__ import annotations

import pytest

from app.games.base import IllegalAction
from app.games.holdem import HOLDEM
from tests.games.holdem.helpers import act, deck_for, hand, sheet, table


def fold_out(s, count):  # type: ignore[no-untyped-def]
    for _ in range(count):
        s = act(s, (hand(s).actor, {"type": "fold"}))
    return s


def test_join_checks_the_seat_and_the_buy_in() -> None:
    s = table({"seats": 6}, 3)
    for seat, move, code in [
        (1, {"type": "join", "seat": 1}, "seat_taken"),
        (4, {"type": "join", "seat": 4, "buy_in": 39}, "buy_in_range"),
        (4, {"type": "join", "seat": 4, "buy_in": 201}, "buy_in_range"),
        (4, {"type": "join", "seat": 5}, "bad_seat"),
        (4, {"type": "join", "seat": 4, "post": "yes"}, "bad_action"),
    ]:
        with pytest.raises(IllegalAction) as err:
            HOLDEM.apply(s, seat, move)
        assert err.value.code == code
    t = table({"format": "tournament", "levels": [{"small_blind": 1, "big_blind": 2}]}, 3)
    with pytest.raises(IllegalAction) as err:
        HOLDEM.apply(t, 4, {"type": "join", "seat": 4})
    assert err.value.code == "not_cash"


def test_a_table_waits_for_players_and_deals_when_one_joins() -> None:
    s = table({"seats": 6}, 2)
    s = act(s, (1, {"type": "leave"}))
    s = act(s, (0, {"type": "fold"}))
    assert s.hand is None and not s.occupied[1] and HOLDEM.to_act(s) == []
    assert s.ledger == [{"seat": 1, "buy_in": 200, "cash_out": 201}]
    s = act(s, (3, {"type": "join", "seat": 3, "buy_in": 100}))
    assert hand(s).players == [3, 0] and hand(s).bb == 3  # the new player takes the big blind


def test_sit_out_and_back_in_waits_for_the_big_blind() -> None:
    s = table({"seats": 4}, 4)
    s = act(s, (1, {"type": "sit_out"}))
    assert s.sit_out[1] and 1 in hand(s).players  # takes effect after this hand
    s = fold_out(s, 3)
    assert s.status[1] == "out" and 1 not in hand(s).players
    with pytest.raises(IllegalAction) as err:
        HOLDEM.apply(s, 1, {"type": "sit_out"})
    assert err.value.code == "already_out"
    s = act(s, (1, {"type": "sit_in"}))
    assert s.status[1] == "waiting"
    numbers = []
    while 1 not in hand(s).players:
        numbers.append(hand(s).number)
        s = fold_out(s, len(hand(s).players) - 1)
    assert hand(s).bb == 1


def test_rebuy_after_busting_and_top_up_limits() -> None:
    s = HOLDEM.new(
        sheet(buy_in_min=40, buy_in_max=200),
        2,
        seed="rb",
        button=0,
        stacks=[200, 50],
        deck=deck_for(["7c2d", "AhAd"], ["Kc", "Qd", "5s", "6h", "Jc"]),
    )
    s = act(s, (0, {"type": "all_in"}))
    # Seat 1 may top up during the hand (the chips wait for the next hand), within the range.
    with pytest.raises(IllegalAction) as err:
        HOLDEM.apply(s, 1, {"type": "rebuy", "amount": 151})
    assert err.value.code == "buy_in_range"
    s2 = act(s, (1, {"type": "top_up", "amount": 150}))
    assert s2.add[1] == 150 and s2.bought[1] == 200
    s = act(s, (1, {"type": "call"}))
    assert s.hand is None and s.stacks[:2] == [250, 0]  # seat 1 busted: the table waits for a rebuy
    assert HOLDEM.to_act(s) == [1]
    assert HOLDEM.legal_actions(s, 1) == [{"type": "rebuy", "min": 40, "max": 200}]
    with pytest.raises(IllegalAction) as err:
        HOLDEM.apply(s, 1, {"type": "rebuy", "amount": 39})
    assert err.value.code == "buy_in_range"
    s = act(s, (1, {"type": "rebuy", "amount": 40}))
    assert s.hand is not None and s.stacks[1] + hand(s).committed[1] == 40 and s.bought[1] == 90


def test_close_table_finishes_the_hand_and_gives_a_ledger() -> None:
    s = table({}, 3)
    s = act(s, (0, {"type": "raise", "to": 10}), (2, {"type": "close_table"}))
    assert s.closing and not s.over
    s = act(s, (1, {"type": "fold"}), (2, {"type": "fold"}))
    assert s.over and HOLDEM.to_act(s) == []
    assert sorted(s.ledger, key=lambda e: e["seat"]) == [
        {"seat": 0, "buy_in": 200, "cash_out": 203},
        {"seat": 1, "buy_in": 200, "cash_out": 199},
        {"seat": 2, "buy_in": 200, "cash_out": 198},
    ]
    outcome = HOLDEM.outcome(s)
    assert (
        outcome is not None
        and outcome.placings == ((0,), (1,), (2,))
        and outcome.scores == {0: 3, 1: -1, 2: -2}
    )
    with pytest.raises(IllegalAction) as err:
        HOLDEM.apply(s, 0, {"type": "join", "seat": 5})
    assert err.value.code == "table_closed"


def test_max_hands_closes_a_cash_table() -> None:
    s = table({"max_hands": 2}, 2)
    s = act(s, (0, {"type": "fold"}))
    assert not s.over and hand(s).number == 2
    s = act(s, (hand(s).actor, {"type": "fold"}))
    assert s.over


LEVELS = [
    {"small_blind": 1, "big_blind": 2},
    {"small_blind": 2, "big_blind": 4},
    {"small_blind": 5, "big_blind": 10},
]


def test_blind_levels_by_minutes_follow_the_room_clock_from_the_next_hand() -> None:
    opts = {"format": "tournament", "levels": LEVELS, "level_by": "minutes", "level_length": 5}
    s = table(opts, 3)
    s = act(s, (0, {"type": "clock", "now": 1000}))
    s = act(s, (0, {"type": "clock", "now": 1000 + 5 * 60}))
    assert hand(s).bets[2] == 2  # the hand in play keeps its blinds
    s = fold_out(s, 2)
    assert s.level == 1 and hand(s).bets[hand(s).bb] == 4
    s = act(s, (1, {"type": "clock", "now": 1000 + 60 * 60}))
    s = fold_out(s, 2)
    assert s.level == 2  # the last level stays
    for move, code in [
        ({"type": "clock", "now": 999}, "bad_clock"),
        ({"type": "clock", "now": "soon"}, "bad_clock"),
        ({"type": "clock"}, "bad_clock"),
    ]:
        with pytest.raises(IllegalAction) as err:
            HOLDEM.apply(s, 0, move)
        assert err.value.code == code
    with pytest.raises(IllegalAction) as err:
        HOLDEM.apply(table({}, 2), 0, {"type": "clock", "now": 5})
    assert err.value.code == "no_clock"


def test_blind_levels_by_hands() -> None:
    s = table({"format": "tournament", "levels": LEVELS, "level_by": "hands", "level_length": 2}, 2)
    seen = []
    for _ in range(5):
        seen.append(hand(s).bets[hand(s).bb])
        s = act(s, (hand(s).actor, {"type": "fold"}))
    assert seen == [2, 2, 4, 4, 10]


def test_a_tournament_player_sits_out_and_is_blinded_away() -> None:
    s = table({"format": "tournament", "levels": LEVELS}, 3)
    s = act(s, (1, {"type": "sit_out"}))
    assert s.status[1] == "away" and HOLDEM.view(s, None)["players"][1]["status"] == "away"
    s = act(s, (0, {"type": "fold"}))
    assert HOLDEM.to_act(s) == [1] and HOLDEM.timeout_action(s, 1) == {"type": "fold"}
    s = act(s, (1, HOLDEM.timeout_action(s, 1)))
    assert hand(s).number == 2 and 1 in hand(s).players  # still dealt in, posting blinds
    with pytest.raises(IllegalAction) as err:
        HOLDEM.apply(s, 1, {"type": "sit_out"})
    assert err.value.code == "already_out"
    s = act(s, (1, {"type": "sit_in"}))
    assert s.status[1] == "playing"
    with pytest.raises(IllegalAction) as err:
        HOLDEM.apply(s, 1, {"type": "leave"})
    assert err.value.code == "not_cash"


def test_leaving_while_others_may_still_show_after_the_hand() -> None:
    s = table({"show_after_hand": True, "seats": 4}, 3)
    s = act(s, (0, {"type": "fold"}), (1, {"type": "fold"}))
    assert hand(s).phase == "show"
    s = act(s, (0, {"type": "leave"}), (1, {"type": "muck"}))
    assert HOLDEM.to_act(s) == [2]
    s = act(s, (2, {"type": "muck"}))
    assert hand(s).number == 2 and sorted(hand(s).players) == [1, 2]


def test_a_lone_player_and_a_newcomer_play_at_once_wherever_he_sits() -> None:
    for newcomer in (1, 3, 5):
        s = table({"seats": 6}, 2)  # heads-up: seat 0 button, seat 1 big blind
        s = act(s, (1, {"type": "leave"}), (0, {"type": "fold"}))
        assert s.hand is None
        s = act(s, (newcomer, {"type": "join", "seat": newcomer}))
        # A newcomer in seat 1 (the last big blind's seat) is passed by the big blind, which goes
        # to seat 0; at a table that cannot deal without him he is dealt in all the same.
        assert sorted(hand(s).players) == sorted([0, newcomer])


def test_the_view_between_hands_shows_the_table_as_the_last_hand_left_it() -> None:
    """A hand that ends by a fold begins the next in the same move: ``view_between`` draws the table
    without the new hand (no cards, no posts), for a replay that stops at the end of the last one."""
    state = table({"format": "cash", "show_after_hand": False}, players=3, button=0)
    first = hand(state)
    # The button folds, then the small blind: the big blind wins the blinds.
    state = act(state, (0, {"type": "fold"}), (1, {"type": "fold"}))
    h = hand(state)
    assert h.number == first.number + 1 and h.phase == "bet"
    ended = state.history[-1]
    view = HOLDEM.view_between(state, 1)
    assert view["hand"] is None and view["seat"] == 1 and view["hands_played"] == 1
    assert view["last_hand"]["hand"] == first.number
    assert all("cards" not in p and not p["in_hand"] for p in view["players"])
    # The stacks are those the last hand finished with, before the new hand's blinds.
    finished = dict(zip(ended["players"], ended["finishing_stacks"], strict=True))
    assert [view["players"][x]["stack"] for x in range(3)] == [finished[x] for x in range(3)]
    assert sum(finished.values()) == sum(first.start[:3]) and finished[2] > finished[0]
    # The live view of the same state holds the new hand and the seat's cards.
    live = HOLDEM.view(state, 1)
    assert live["hand"]["number"] == h.number and live["players"][1]["cards"]
