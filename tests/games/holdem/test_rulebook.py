"""The finer points the seed leaves to the rulebooks (TDA, WSOP), each from a fixed deck."""

from __future__ import annotations

from itertools import pairwise

from app.games.holdem import HOLDEM, engine
from tests.games.holdem.helpers import act, cash_out, deck_for, hand, kinds, passive, sheet, table

ROYAL = ["Ts", "Js", "Qs", "Ks", "As"]


def new(stacks: list[int], options: dict[str, object] | None = None, **kw: object) -> object:
    opts = {"max_hands": 1, "buy_in_min": 1, **(options or {})}
    return HOLDEM.new(sheet(**opts), len(stacks), seed="rulebook", button=0, stacks=stacks, **kw)  # type: ignore[arg-type]


def limp_to_flop(s, seats):  # type: ignore[no-untyped-def]
    """Everyone calls the big blind and the big blind checks."""
    for seat in seats:
        options = kinds(s, seat)
        s = act(s, (seat, {"type": "check"} if "check" in options else {"type": "call"}))
    assert hand(s).street == 1
    return s


def test_short_all_in_does_not_reopen_betting_for_players_who_acted() -> None:
    s = new([200, 200, 200, 15])
    s = limp_to_flop(s, [3, 0, 1, 2])
    s = act(s, (1, {"type": "bet", "to": 10}), (2, {"type": "call"}), (3, {"type": "all_in"}))
    assert hand(s).bets[3] == 13
    assert kinds(s, 0)["raise"]["min"] == 23  # seat 0 has not acted: it may raise, a full 10 more
    s = act(s, (0, {"type": "call"}))
    assert set(kinds(s, 1)) == {"fold", "call"}  # 3 more is not a full raise: no re-raise
    s = act(s, (1, {"type": "call"}))
    assert set(kinds(s, 2)) == {"fold", "call"}


def test_short_all_ins_that_add_up_to_a_full_raise_reopen_and_min_raise_is_last_full_raise() -> None:
    s = new([200, 200, 200, 17, 23])
    s = limp_to_flop(s, [3, 4, 0, 1, 2])
    s = act(
        s,
        (1, {"type": "bet", "to": 10}),
        (2, {"type": "call"}),
        (3, {"type": "all_in"}),
        (4, {"type": "all_in"}),
    )
    assert [hand(s).bets[x] for x in (1, 2, 3, 4)] == [10, 10, 15, 21]
    s = act(s, (0, {"type": "call"}))
    # Seat 1 acted at 10 and now faces 21: 11 more, at least the full bet of 10.
    assert kinds(s, 1)["raise"]["min"] == 31
    s = act(s, (1, {"type": "raise", "to": 31}))
    assert kinds(s, 2)["raise"]["min"] == 41


def test_big_blind_all_in_for_less_later_players_call_the_full_blind() -> None:
    s = new([200, 200, 1])
    h = hand(s)
    assert h.bets[2] == 1 and s.stacks[2] == 0
    assert kinds(s, 0)["call"]["amount"] == 2 and kinds(s, 0)["raise"]["min"] == 4
    s = act(s, (0, {"type": "call"}), (1, {"type": "call"}))
    h = hand(s)
    assert h.street == 1 and h.committed[:3] == [2, 2, 1]
    assert engine.pots(h) == [(3, [1, 2, 0]), (2, [1, 0])]  # the big blind contests 3 chips


def test_big_blind_ante_is_posted_before_the_blind() -> None:
    state, events = engine.new_table(
        sheet(ante_type="big_blind", ante=2, buy_in_min=1), 3, "bba", [], 0, [200, 200, 3]
    )
    posted = [
        (e.data["kind"], e.data["amount"]) for e in events if e.type == "posted" and e.data["seat"] == 2
    ]
    assert posted == [("ante", 2), ("big_blind", 1)]  # the ante first; the blind is short
    assert kinds(state, 0)["call"]["amount"] == 2  # and the others call the full blind


def test_odd_chips_one_each_from_the_button_left() -> None:
    # Antes 1 each, seat 1 folds its small blind: a pot of 11 for three winners (3 each, 2 odd).
    s = new(
        [200, 200, 200, 200],
        {"ante_type": "every_player", "ante": 1},
        deck=deck_for(["2c3d", "4h5c", "6d7c", "8h9c"], ROYAL),
    )
    s = act(s, (3, {"type": "call"}), (0, {"type": "call"}), (1, {"type": "fold"}), (2, {"type": "check"}))
    s = passive(s)
    assert cash_out(s) == {0: 200, 1: 198, 2: 201, 3: 201}


def test_side_pots_are_split_separately() -> None:
    # Seats 1 and 2 tie for the main pot (93: 47 to seat 1, the first left of the button);
    # the side pot (138) goes to seat 2 alone.
    s = new([200, 31, 200], deck=deck_for(["AhKd", "AsKc", "QhQd"], ["Ac", "7d", "9s", "Jc", "3h"]))
    s = act(s, (0, {"type": "raise", "to": 100}), (1, {"type": "all_in"}), (2, {"type": "call"}))
    s = act(s, (2, {"type": "check"}), (0, {"type": "check"}))
    s = passive(s)
    assert cash_out(s) == {0: 100, 1: 47, 2: 284}


TOURNAMENT = {"format": "tournament", "starting_chips": 100, "levels": [{"small_blind": 1, "big_blind": 2}]}


def test_dead_button_when_the_small_blind_busts() -> None:
    s = HOLDEM.new(
        sheet(**TOURNAMENT),
        4,
        seed="db",
        button=0,
        stacks=[100, 10, 100, 100],
        deck=deck_for(["7c2d", "8h3d", "AhAd", "9c4h"], ["Kc", "Qd", "5s", "6h", "Jc"]),
    )
    s = act(s, (3, {"type": "all_in"}), (0, {"type": "fold"}), (1, {"type": "call"}), (2, {"type": "fold"}))
    assert s.places == [[1]]
    h = hand(s)
    # The big blind moves on to seat 3; the small blind is where the big blind was; the button
    # stays behind on the empty seat 1 (a dead button).
    assert (h.button, h.sb, h.sb_live, h.bb) == (1, 2, True, 3) and not s.occupied[1]
    assert h.players == [2, 3, 0] and h.actor == 0


def test_dead_small_blind_when_the_big_blind_busts() -> None:
    s = HOLDEM.new(
        sheet(**TOURNAMENT),
        4,
        seed="db",
        button=0,
        stacks=[100, 100, 10, 100],
        deck=deck_for(["7c2d", "8h3d", "AhAd", "9c4h"], ["Kc", "Qd", "5s", "6h", "Jc"]),
    )
    s = act(s, (3, {"type": "all_in"}), (0, {"type": "fold"}), (1, {"type": "fold"}), (2, {"type": "call"}))
    assert s.places == [[2]]
    h = hand(s)
    assert (h.button, h.sb_live, h.bb) == (1, False, 3)  # nobody posts the small blind
    assert sum(h.bets) == 2 and h.actor == 0


def test_heads_up_transition_nobody_posts_the_big_blind_twice_in_a_row() -> None:
    # The button busts: the last big blind (seat 2) becomes the button and small blind.
    s = HOLDEM.new(
        sheet(**TOURNAMENT),
        3,
        seed="hu",
        button=0,
        stacks=[10, 100, 100],
        deck=deck_for(["AhAd", "KhKd", "7c2d"], ["Kc", "Qd", "5s", "6h", "Jc"]),
    )
    s = act(s, (0, {"type": "all_in"}), (1, {"type": "call"}), (2, {"type": "fold"}))
    h = hand(s)
    assert s.places == [[0]] and (h.button, h.sb, h.bb) == (2, 2, 1)
    # Over many heads-up hands the big blind alternates.
    bbs = [h.bb]
    for _ in range(6):
        s = act(s, (hand(s).actor, {"type": "fold"}))
        bbs.append(hand(s).bb)
    assert all(a != b for a, b in pairwise(bbs))
    # The big blind busts: the old button (seat 0) takes the big blind, seat 1 the button.
    s = HOLDEM.new(
        sheet(**TOURNAMENT),
        3,
        seed="hu",
        button=0,
        stacks=[100, 100, 10],
        deck=deck_for(["7c2d", "8h3d", "AhAd"], ["Kc", "Qd", "5s", "6h", "Jc"]),
    )
    s = act(s, (0, {"type": "all_in"}), (1, {"type": "fold"}), (2, {"type": "call"}))
    h = hand(s)
    assert s.places == [[2]] and (h.button, h.sb, h.bb) == (1, 1, 0)


def test_fixed_limit_raise_cap_a_bet_and_three_raises_or_four() -> None:
    s = table({"variant": "fixed_limit", "raise_cap": 4}, 4)
    s = act(
        s, (3, {"type": "raise", "to": 4}), (0, {"type": "raise", "to": 6}), (1, {"type": "raise", "to": 8})
    )
    assert set(kinds(s, 2)) == {"fold", "call"}  # the blind and three raises: capped
    s = act(s, (2, {"type": "call"}), (3, {"type": "call"}), (0, {"type": "call"}))
    assert hand(s).street == 1
    s = act(
        s,
        (1, {"type": "bet", "to": 2}),
        (2, {"type": "raise", "to": 4}),
        (3, {"type": "raise", "to": 6}),
        (0, {"type": "raise", "to": 8}),
    )
    assert set(kinds(s, 1)) == {"fold", "call"}
    s = table({"variant": "fixed_limit", "raise_cap": 5}, 4)
    s = act(
        s, (3, {"type": "raise", "to": 4}), (0, {"type": "raise", "to": 6}), (1, {"type": "raise", "to": 8})
    )
    assert kinds(s, 2)["raise"] == {"type": "raise", "min": 10, "max": 10}
    s = act(s, (2, {"type": "raise", "to": 10}))
    assert set(kinds(s, 3)) == {"fold", "call"}
    s = table(
        {"variant": "fixed_limit", "raise_cap": 0},
        2,
    )
    for to in (4, 6, 8, 10, 12):
        s = act(s, (hand(s).actor, {"type": "raise", "to": to}))
    assert kinds(s, hand(s).actor)["raise"]["min"] == 14
