"""One scenario per hold'em rule H1–H24 of docs/rules/holdem.md, from fixed decks.

Seats: ``button=0`` puts the button on seat 0; with three players seat 1 posts the small blind
and seat 2 the big blind, and cards are dealt one at a time from seat 1 (H10). ``deck_for`` takes
the hole cards in that dealing order.
"""

from __future__ import annotations

import pytest

from app.games.base import IllegalAction, InvalidSheet
from app.games.cards import deck
from app.games.holdem import HOLDEM
from app.games.holdem.evaluator import category, hand_name, strength
from tests.games.holdem.helpers import (
    act,
    cash_out,
    deck_for,
    hand,
    kinds,
    passive,
    sheet,
    table,
    visible_cards,
)

ONE = {"max_hands": 1}


def folds(s, count):  # type: ignore[no-untyped-def]
    for _ in range(count):
        s = act(s, (hand(s).actor, {"type": "fold"}))
    return s


def test_h1_two_to_ten_players_52_cards_ace_low_only_in_the_wheel() -> None:
    with pytest.raises(InvalidSheet):
        HOLDEM.new(sheet(), 1)
    with pytest.raises(InvalidSheet):
        HOLDEM.new(sheet(seats=6), 7)
    with pytest.raises(InvalidSheet):
        sheet(seats=11)
    full = HOLDEM.new(sheet(seats=10), 10, seed="ten", button=0)
    assert len(hand(full).players) == 10
    assert sorted(hand(full).deck) == sorted(deck()) and len(set(hand(full).deck)) == 52
    assert hand_name(["Ah", "2c", "3d", "4s", "5h", "9c", "Kd"]) == "straight, five high"
    assert category(strength(["Qh", "Kc", "Ad", "2s", "3h", "8c", "9d"])) == "high card"  # no wrap-around
    assert strength(["Ah", "Kc", "Qd", "Js", "Th"]) < strength(["Ah", "2c", "3d", "4s", "5h"])


def test_h2_suits_have_no_rank_equal_hands_split() -> None:
    # Heads-up: seat 1 (big blind) is dealt first.
    s = table(ONE, 2, deck=deck_for(["AhKh", "AsKd"], ["2c", "7d", "9s", "Jc", "Qd"]))
    s = passive(s)
    assert cash_out(s) == {0: 200, 1: 200}
    assert len(s.last["awards"][0]["shares"]) == 2


def test_h3_best_five_of_seven_one_hole_card_and_the_board_plays() -> None:
    s = table(ONE, 2, deck=deck_for(["Kh3c", "QhQc"], ["2c", "2d", "7h", "9s", "Kd"]))
    s = passive(s)
    assert cash_out(s) == {0: 198, 1: 202}  # kings and twos (one hole card) beat queens and twos
    assert s.last["awards"][0]["hand"] == "two pair, kings and twos"
    s = table(ONE, 3, deck=deck_for(["2c3d", "4h5c", "7s8s"], ["Ts", "Js", "Qs", "Ks", "As"]))
    s = passive(s)
    assert cash_out(s) == {0: 200, 1: 200, 2: 200}  # a royal flush on the board: all split
    assert s.last["awards"][0]["hand"] == "royal flush"


def test_h4_first_button_by_high_card_draw_then_one_seat_clockwise() -> None:
    s = HOLDEM.new(sheet(), 4, seed="draw")
    draw = s.draw
    order = "23456789TJQKA"
    best = max(draw, key=lambda k: (order.index(draw[k][0]), "cdhs".index(draw[k][1])))
    assert hand(s).button == int(best)
    first = hand(s).button
    s = folds(s, 3)
    assert hand(s).number == 2 and hand(s).button == (first + 1) % 4


def test_h5_small_blind_left_of_button_big_blind_next_and_the_minimum_bet() -> None:
    s = table({}, 4)
    h = hand(s)
    assert (h.button, h.sb, h.bb) == (0, 1, 2)
    assert h.bets[1] == 1 and h.bets[2] == 2
    s = act(s, (3, {"type": "call"}), (0, {"type": "call"}), (1, {"type": "call"}), (2, {"type": "check"}))
    assert hand(s).street == 1
    assert kinds(s, 1)["bet"]["min"] == 2  # the big blind is the minimum bet
    with pytest.raises(IllegalAction) as err:
        HOLDEM.apply(s, 1, {"type": "bet", "to": 1})
    assert err.value.code == "below_minimum"


def test_h6_antes_every_player_or_the_big_blind_for_the_table() -> None:
    s = table({"ante_type": "every_player", "ante": 1}, 3)
    h = hand(s)
    assert h.antes == [1, 1, 1, 0, 0, 0, 0, 0, 0] and sum(h.committed) == 3 + 3
    assert h.bets[:3] == [0, 1, 2]  # antes are dead money, not bets
    s = table({"ante_type": "big_blind", "ante": 2}, 3)
    h = hand(s)
    assert h.antes[:3] == [0, 0, 2] and s.stacks[2] == 200 - 2 - 2 and h.current == 2


def test_h7_straddle_utg_before_the_deal_and_acts_last_preflop() -> None:
    s = table({"straddle": "utg"}, 4)
    h = hand(s)
    assert h.phase == "straddle" and HOLDEM.to_act(s) == [3]
    assert HOLDEM.view(s, 3)["players"][3]["cards"] is None  # decided before seeing cards
    s = act(s, (3, {"type": "straddle"}))
    h = hand(s)
    assert h.bets[3] == 4 and h.actor == 0
    assert kinds(s, 0)["raise"]["min"] == 8
    s = act(s, (0, {"type": "call"}), (1, {"type": "call"}), (2, {"type": "call"}))
    assert hand(s).actor == 3 and "check" in kinds(s, 3) and "raise" in kinds(s, 3)
    declined = act(table({"straddle": "utg"}, 4), (3, {"type": "no_straddle"}))
    assert hand(declined).actor == 3 and hand(declined).bets[3] == 0


def test_h8_heads_up_button_posts_small_blind_first_preflop_last_after() -> None:
    s = table({}, 2)
    h = hand(s)
    assert (h.button, h.sb, h.bb) == (0, 0, 1) and h.bets[:2] == [1, 2]
    assert h.actor == 0
    s = act(s, (0, {"type": "call"}), (1, {"type": "check"}))
    assert hand(s).street == 1 and hand(s).actor == 1


def test_h9_new_player_waits_for_the_big_blind_or_posts_one() -> None:
    base = {"seats": 6}
    s = table(base, 4)  # button 0, blinds 1 and 2, seat 3 first to act
    s = act(s, (5, {"type": "join", "seat": 5, "buy_in": 100}))
    s = act(s, (3, {"type": "fold"}), (0, {"type": "fold"}), (1, {"type": "fold"}))
    h = hand(s)
    assert h.number == 2 and h.bb == 3 and 5 not in h.players  # waits: the blind is not his yet
    s = folds(s, 3)
    h = hand(s)
    assert h.number == 3 and h.bb == 5 and 5 in h.players and h.bets[5] == 2

    s = table(base, 4)
    s = act(s, (5, {"type": "join", "seat": 5, "buy_in": 100, "post": True}))
    s = act(s, (3, {"type": "fold"}), (0, {"type": "fold"}), (1, {"type": "fold"}))
    h = hand(s)
    assert h.number == 2 and h.bb == 3 and 5 in h.players and h.bets[5] == 2  # posted a big blind
    assert h.actor == 5 and "check" in kinds(s, 5)  # a posted big blind is live: it has the option


def test_h10_hole_cards_one_at_a_time_from_the_small_blind() -> None:
    cards = deck()
    s = table({}, 3, deck=cards)
    h = hand(s)
    assert h.holes[1] == [cards[0], cards[3]]
    assert h.holes[2] == [cards[1], cards[4]]
    assert h.holes[0] == [cards[2], cards[5]]


def test_h11_utg_first_preflop_and_the_big_blind_option() -> None:
    s = table({}, 4)
    assert hand(s).actor == 3
    s = act(s, (3, {"type": "call"}), (0, {"type": "call"}), (1, {"type": "call"}))
    assert hand(s).actor == 2 and set(kinds(s, 2)) == {"check", "raise", "all_in"}
    s = act(s, (2, {"type": "raise", "to": 8}))
    assert hand(s).actor == 3 and hand(s).street == 0


def test_h12_flop_burn_three_cards_first_active_left_of_button() -> None:
    cards = deck()
    s = table({}, 3, deck=cards)
    s = act(s, (0, {"type": "call"}), (1, {"type": "fold"}), (2, {"type": "check"}))
    h = hand(s)
    assert h.burns == [cards[6]] and h.board == cards[7:10]
    assert h.actor == 2  # the small blind folded: the big blind is first left of the button
    assert set(kinds(s, 2)) == {"check", "bet", "all_in"}


def test_h13_turn_burn_one_card_and_fixed_limit_doubles() -> None:
    cards = deck()
    s = table({"variant": "fixed_limit"}, 2, deck=cards)
    s = act(s, (0, {"type": "call"}), (1, {"type": "check"}))
    assert kinds(s, 1)["bet"] == {"type": "bet", "min": 2, "max": 2}
    s = act(s, (1, {"type": "check"}), (0, {"type": "check"}))
    h = hand(s)
    assert h.burns == [cards[4], cards[8]] and h.board[3] == cards[9]
    assert kinds(s, 1)["bet"] == {"type": "bet", "min": 4, "max": 4}


def test_h14_river_last_round_then_showdown() -> None:
    cards = deck_for(["AhAd", "KhKd"], ["2c", "7d", "9s", "Jc", "3h"])
    s = table(ONE, 2, deck=cards)
    s = act(s, (0, {"type": "call"}), (1, {"type": "check"}))
    for _ in range(2):
        s = act(s, (1, {"type": "check"}), (0, {"type": "check"}))
    assert hand(s).street == 3 and len(hand(s).board) == 5 and hand(s).burns[2] == cards[10]
    s = act(s, (1, {"type": "bet", "to": 10}), (0, {"type": "call"}))
    assert s.over and cash_out(s) == {0: 188, 1: 212}  # seat 1 held the aces
    assert set(s.last["shown"]) == {"1"}  # the loser's kings were mucked (H19)


def test_h15_round_ends_when_bets_are_equal_and_a_lone_player_wins_unshown() -> None:
    s = table({}, 3)
    s = act(s, (0, {"type": "raise", "to": 6}), (1, {"type": "call"}))
    assert hand(s).street == 0 and hand(s).actor == 2
    s = act(s, (2, {"type": "call"}))
    assert hand(s).street == 1
    s = act(s, (1, {"type": "bet", "to": 10}), (2, {"type": "fold"}))
    after, events = HOLDEM.apply(s, 0, {"type": "fold"})
    assert (
        after.last is not None
        and after.last["shown"] == {}
        and after.last["awards"][0]["shares"] == {"1": 18}
    )
    assert not [e for e in events if e.type == "show"]


def test_h16_limits_fixed_pot_and_no_limit() -> None:
    pl = table({"variant": "pot_limit"}, 3)
    assert kinds(pl, 0)["raise"] == {"type": "raise", "min": 4, "max": 7}  # pot 3 + call 2, over the 2
    nl = table({}, 3)
    assert kinds(nl, 0)["raise"]["max"] == 200 and kinds(nl, 0)["all_in"]["to"] == 200
    fl = table({"variant": "fixed_limit"}, 3)
    assert kinds(fl, 0)["raise"] == {"type": "raise", "min": 4, "max": 4}
    with pytest.raises(IllegalAction) as err:
        HOLDEM.apply(pl, 0, {"type": "raise", "to": 8})
    assert err.value.code == "above_maximum"


def test_h16_fixed_limit_heads_up_lifts_the_raise_cap() -> None:
    """Robert's Rules of Poker 3.4: "There is no limit on the number of raises in heads-up play.
    This applies any time two players are heads-up before the raising has been capped. Once the
    raising is capped on a betting round, it cannot be uncapped by a subsequent fold that leaves two
    players heads-up." `heads_up_uncapped` (on in every preset) follows it; off keeps the cap."""
    fl = {"variant": "fixed_limit", "raise_cap": 4}
    s = table(fl, 2)  # heads-up: the button (seat 0) posts the small blind and acts first
    s = act(s, (0, {"type": "raise", "to": 4}), (1, {"type": "raise", "to": 6}))
    s = act(s, (0, {"type": "raise", "to": 8}))
    assert hand(s).bet_count == 4 and kinds(s, 1)["raise"] == {"type": "raise", "min": 10, "max": 10}
    s = act(s, (1, {"type": "raise", "to": 10}), (0, {"type": "raise", "to": 12}))
    assert "raise" in kinds(s, 1)
    capped = table({**fl, "heads_up_uncapped": False}, 2)
    capped = act(capped, (0, {"type": "raise", "to": 4}), (1, {"type": "raise", "to": 6}))
    capped = act(capped, (0, {"type": "raise", "to": 8}))
    assert "raise" not in kinds(capped, 1)
    with pytest.raises(IllegalAction) as err:
        HOLDEM.apply(capped, 1, {"type": "raise", "to": 10})
    assert err.value.code == "raise_closed" and "capped" in err.value.message
    # Three dealt, one folds first: the two left are heads-up before the cap, so it is lifted.
    three = act(table(fl, 3), (0, {"type": "fold"}), (1, {"type": "raise", "to": 4}))
    three = act(three, (2, {"type": "raise", "to": 6}), (1, {"type": "raise", "to": 8}))
    assert "raise" in kinds(three, 2)
    # Capped three-way, then a fold leaves two: the cap stays for the round.
    late = act(table(fl, 3), (0, {"type": "raise", "to": 4}), (1, {"type": "raise", "to": 6}))
    late = act(late, (2, {"type": "raise", "to": 8}), (0, {"type": "fold"}))
    assert "raise" not in kinds(late, 1) and "call" in kinds(late, 1)
    # The next round starts uncapped again.
    late = act(late, (1, {"type": "call"}))
    assert hand(late).street == 1 and not hand(late).capped


@pytest.mark.parametrize("showdown", ["auto", "ask"])
def test_h19_tda16_called_all_in_on_the_river_all_hands_face_up(showdown: str) -> None:
    """TDA Rule 16 (Face Up for All-Ins): "All cards must be turned face up once a player is
    all-in and all betting action is complete" — also when the all-in is called on the river: the
    losing all-in is tabled, never mucked, and `ask` offers no muck."""
    board = ["2c", "7d", "9s", "Jc", "3h"]
    always = {**ONE, "showdown": showdown, "all_in_tabled": "always"}
    s = table(always, 3, deck=deck_for(["QhQd", "KhKd", "4s5s"], board))
    s = act(s, (0, {"type": "fold"}), (1, {"type": "call"}), (2, {"type": "check"}))
    for _ in range(2):
        s = act(s, (1, {"type": "check"}), (2, {"type": "check"}))
    assert hand(s).street == 3
    s = act(s, (1, {"type": "all_in"}))
    s, events = HOLDEM.apply(s, 2, {"type": "call"})
    assert s.over and HOLDEM.to_act(s) == []  # no showdown decision: nothing to muck
    assert {e.data["seat"] for e in events if e.type == "show"} == {1, 2}
    assert not any(e.type == "muck" for e in events)
    assert s.last is not None and s.last["shown"] == {"1": ["Qh", "Qd"], "2": ["Kh", "Kd"]}
    assert cash_out(s)[2] == 400
    # Without an all-in a river bet called lets the loser muck (H19).
    s = table({**ONE, "showdown": "auto"}, 3, deck=deck_for(["QhQd", "KhKd", "4s5s"], board))
    s = act(s, (0, {"type": "fold"}), (1, {"type": "call"}), (2, {"type": "check"}))
    for _ in range(2):
        s = act(s, (1, {"type": "check"}), (2, {"type": "check"}))
    s = act(s, (1, {"type": "check"}), (2, {"type": "bet", "to": 2}), (1, {"type": "call"}))
    assert s.last is not None and s.last["shown"] == {"2": ["Kh", "Kd"]}


def test_h17_minimum_raise_is_the_last_bet_or_raise() -> None:
    s = table({}, 4)
    s = act(s, (3, {"type": "raise", "to": 6}))
    assert kinds(s, 0)["raise"]["min"] == 10
    with pytest.raises(IllegalAction) as err:
        HOLDEM.apply(s, 0, {"type": "raise", "to": 9})
    assert err.value.code == "below_minimum"
    s = act(s, (0, {"type": "raise", "to": 10}))
    assert kinds(s, 1)["raise"]["min"] == 14


def test_h18_ranking_and_names() -> None:
    names = [
        (["Ah", "Kh", "Qh", "Jh", "Th", "2c", "3d"], "royal flush"),
        (["9h", "Kh", "Qh", "Jh", "Th", "2c", "3d"], "straight flush, king high"),
        (["9h", "9c", "9d", "9s", "Th", "2c", "3d"], "four of a kind, nines"),
        (["Kh", "Kc", "Kd", "9s", "9h", "2c", "3d"], "full house, kings full of nines"),
        (["Ah", "7h", "4h", "9h", "Th", "2c", "3d"], "flush, ace high"),
        (["6h", "7c", "8d", "9s", "Th", "2c", "3d"], "straight, ten high"),
        (["6h", "6c", "6d", "9s", "Th", "2c", "4d"], "three of a kind, sixes"),
        (["Kh", "Kc", "9d", "9s", "Th", "2c", "3d"], "two pair, kings and nines"),
        (["Jh", "Jc", "9d", "8s", "Th", "2c", "3d"], "pair of jacks"),
        (["Ah", "Jc", "9d", "8s", "Th", "2c", "3d"], "high card, ace"),
    ]
    ranks = [strength(cards) for cards, _ in names]
    assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)
    for cards, name in names:
        assert hand_name(cards) == name
    # Only five cards count: a sixth card never breaks a tie.
    assert strength(["Ah", "Ad", "Kc", "Qs", "Jh", "4c", "3d"]) == strength(
        ["As", "Ac", "Kd", "Qh", "Jd", "9c", "8d"]
    )


def test_h19_showdown_order_last_aggressor_or_left_of_button_losers_muck() -> None:
    board = ["2c", "7d", "9s", "Jc", "3h"]
    # Seat 2 bets the river and is called: it shows first; seat 1 (worse) mucks.
    s = table({**ONE, "showdown": "ask"}, 3, deck=deck_for(["QhQd", "KhKd", "4s5s"], board))
    s = act(s, (0, {"type": "fold"}), (1, {"type": "call"}), (2, {"type": "check"}))
    for _ in range(2):
        s = act(s, (1, {"type": "check"}), (2, {"type": "check"}))
    s = act(s, (1, {"type": "check"}), (2, {"type": "bet", "to": 2}), (1, {"type": "call"}))
    assert hand(s).phase == "showdown" and HOLDEM.to_act(s) == [2]
    assert {"type": "muck"} in HOLDEM.legal_actions(s, 2)
    s = act(s, (2, {"type": "show"}))
    assert HOLDEM.to_act(s) == [1]
    s, events = HOLDEM.apply(s, 1, {"type": "muck"})
    assert s.over and cash_out(s)[2] == 204 and s.last["shown"] == {"2": ["Kh", "Kd"]}
    assert "Qh" not in str(HOLDEM.view(s, None)) and "Qh" not in str([e.to_json() for e in events])
    # Checked river: the first player left of the button shows first.
    s = table({**ONE, "showdown": "ask"}, 3, deck=deck_for(["KhKd", "QhQd", "4s5s"], board))
    s = act(s, (0, {"type": "fold"}), (1, {"type": "call"}), (2, {"type": "check"}))
    for _ in range(3):
        s = act(s, (1, {"type": "check"}), (2, {"type": "check"}))
    assert HOLDEM.to_act(s) == [1]
    assert {"type": "muck"} in HOLDEM.legal_actions(s, 1)
    s = act(s, (1, {"type": "muck"}))
    assert HOLDEM.legal_actions(s, 2) == [{"type": "show"}]  # the last hand in the pot must show
    # All-in and no more betting (with every hand tabled, as in tournaments): every hand is
    # turned up at once, before the board.
    s = table({**ONE, "all_in_tabled": "always"}, 3, deck=deck_for(["KhKd", "QhQd", "4s5s"], board))
    s = act(s, (0, {"type": "all_in"}), (1, {"type": "call"}))
    s, events = HOLDEM.apply(s, 2, {"type": "call"})
    kinds_seen = [e.type for e in events]
    assert kinds_seen.index("show") < kinds_seen.index("board")
    assert {e.data["seat"] for e in events if e.type == "show"} == {0, 1, 2}


def test_h20_split_pot_odd_chip_to_first_winner_left_of_button() -> None:
    # Seat 1 folds its small blind: a pot of 5 split by seats 2 and 0 with the same straight.
    s = table(ONE, 3, deck=deck_for(["2c3d", "AhKd", "AsKc"], ["Tc", "Jd", "Qh", "4s", "7h"]))
    s = act(s, (0, {"type": "call"}), (1, {"type": "fold"}), (2, {"type": "check"}))
    s = passive(s)
    assert cash_out(s) == {0: 200, 1: 199, 2: 201}


def test_h21_table_stakes_all_in_for_less_and_side_pots() -> None:
    # Seat 1 is all-in for 50 with the best hand: it wins only the main pot.
    deck_ = deck_for(["AhAd", "KhKd", "QhQd"], ["2c", "7d", "9s", "Jc", "3h"])
    s = HOLDEM.new(sheet(**ONE, buy_in_min=1), 3, seed="t", deck=deck_, button=0, stacks=[200, 50, 200])
    s = act(s, (0, {"type": "raise", "to": 100}), (1, {"type": "all_in"}), (2, {"type": "call"}))
    s = act(s, (2, {"type": "check"}), (0, {"type": "check"}))
    s = passive(s)
    assert cash_out(s) == {0: 100, 1: 150, 2: 200}  # main pot 150 to seat 1, side pot 100 to seat 2
    # Chips bought during a hand play only from the next one.
    s = table({"buy_in_default": 100}, 3)
    s = act(s, (1, {"type": "rebuy", "amount": 50}))
    assert s.stacks[1] == 99 and s.add[1] == 50 and s.bought[1] == 150
    s = act(s, (0, {"type": "fold"}), (1, {"type": "fold"}))
    assert hand(s).button == 1 and s.stacks[1] == 149  # added before the next hand


def test_h22_tournament_blinds_rise_places_by_elimination_cash_leave_any_time() -> None:
    opts = {
        "format": "tournament",
        "starting_chips": 100,
        "levels": [{"small_blind": 1, "big_blind": 2}, {"small_blind": 5, "big_blind": 10}],
        "level_by": "hands",
        "level_length": 1,
    }
    deck_ = deck_for(["AhAd", "KhKd", "2c3d"], ["2s", "7d", "9s", "Jc", "4h"])
    s = table(opts, 3, deck=deck_)
    s = act(s, (0, {"type": "all_in"}), (1, {"type": "all_in"}), (2, {"type": "fold"}))
    assert s.places == [[0]]  # seat 0 (deuce-trey) lost to the aces and busted first
    h = hand(s)
    assert h.number == 2 and h.bets[h.bb] == 10  # the second level after one hand
    while not s.over:
        seat = HOLDEM.to_act(s)[0]
        options = kinds(s, seat)
        move = next(k for k in ("all_in", "call", "check") if k in options)
        s = act(s, (seat, {"type": move}))
    outcome = HOLDEM.outcome(s)
    assert outcome is not None and outcome.placings[-1] == (0,) and sum(outcome.scores.values()) == 300
    cash = table({}, 3)
    cash = act(cash, (2, {"type": "leave"}))
    assert cash.leaving[2] and cash.occupied[2]  # leaves once the hand in play is over
    cash = act(cash, (0, {"type": "fold"}), (1, {"type": "fold"}))
    assert not cash.occupied[2] and cash.ledger == [{"seat": 2, "buy_in": 200, "cash_out": 201}]


def test_h23_hidden_cards_owner_only_mucked_never_deck_and_burns_never() -> None:
    s = table({}, 3, deck=deck_for(["KhKd", "QhQd", "4s5s"], ["2c", "7d", "9s", "Jc", "3h"]))
    for seat in (None, 0, 1, 2):
        view = HOLDEM.view(s, seat)
        cards = {c for p in view["players"] if p.get("cards") for c in p["cards"]}
        assert cards == (set(hand(s).holes[seat]) if seat is not None else set())
        assert cards <= visible_cards(s, seat)
    assert "deck" not in str(HOLDEM.view(s, None)) and hand(s).deck[6] not in str(HOLDEM.view(s, 0))


def test_h24_play_money_only() -> None:
    schema = str(HOLDEM.sheet_schema()).lower()
    for word in ("currency", "rake", "money", "withdraw", "payment"):
        assert word not in schema
    s = act(table({}, 2), (0, {"type": "close_table"}), (0, {"type": "fold"}))
    assert s.over
    assert all(isinstance(v, int) for e in s.ledger for v in e.values())  # chips, nothing else
