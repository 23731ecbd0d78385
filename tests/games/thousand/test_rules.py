"""One scenario per rule T1–T19 of docs/rules/thousand.md, from fixed decks, with the seed's examples.

With a fixed deck the last seat deals, so seat 0 sits on the dealer's left, gets the first packet
and opens the auction; ``helpers.deck3`` lays hands out as the dealer deals them [T4].
"""

from __future__ import annotations

from typing import Any

import pytest

from app.games.base import IllegalAction
from app.games.cards import SeededRandom
from app.games.thousand import game
from app.games.thousand.rules import DECK, POINTS, total_points
from app.games.thousand.scoring import round_points
from app.games.thousand.state import State
from tests.games.thousand.helpers import after_give, deck3, play, play_cards, sheet, start

BID = {"type": "bid", "value": 100}
PASS = {"type": "pass"}


def bid(value: int) -> dict[str, Any]:
    return {"type": "bid", "value": value}


def finish_deal(state: State) -> State:
    """Play the deal out with the default moves (lowest legal card)."""
    deal = state.deals_played
    while state.deals_played == deal and state.phase != "over":
        seat = game.to_act(state)[0]
        action = game.timeout_action(state, seat)
        assert action is not None
        state, _ = game.apply(state, seat, action)
    return state


def refused(state: State, seat: int, action: dict[str, Any], code: str) -> None:
    before = game.dump(state)
    with pytest.raises(IllegalAction) as info:
        game.apply(state, seat, action)
    assert info.value.code == code
    assert game.dump(state) == before


# Hands where seat 0 holds every ace and ten: it wins every trick it leads.
STRONG = (
    ["Ac", "Tc", "Ad", "Td", "Ah", "Th", "As", "Ts"],
    ["9c", "Jc", "Qc", "9d", "Jd", "Qd", "9h", "Kc"],
    ["Jh", "Qh", "9s", "Js", "Qs", "Ks", "Kd", "Kh"],
)
# Seat 0 holds only nines and jacks: it cannot make 100.
WEAK = (
    ["9c", "Jc", "9d", "Jd", "9h", "Jh", "9s", "Js"],
    ["Ac", "Tc", "Ad", "Td", "Qc", "Kc", "Qd", "Kd"],
    ["Ah", "Th", "As", "Ts", "Qh", "Kh", "Qs", "Ks"],
)


def test_t1_deck_points_and_trick_order() -> None:
    assert len(DECK) == 24 and {c[0] for c in DECK} == set("9TJQKA")
    assert total_points(list(DECK)) == 120
    assert [POINTS[r] for r in "ATKQJ9"] == [11, 10, 4, 3, 2, 0]


def test_t1_seed_clubs_trick_king_ten_ace_the_ace_wins() -> None:
    # The seed: A leads the king of clubs, B plays the ten, C the ace and wins.
    state = after_give(
        ["Kc", "Jc", "9c", "9d", "Jd", "Qd", "9h", "Jh"],
        ["Qc", "Tc", "Kd", "Td", "Ad", "Qh", "Kh", "Th"],
        ["Ac", "Ah", "9s", "Js", "Qs", "Ks", "Ts", "As"],
    )
    state = play_cards(state, "Kc", "Tc", "Ac")
    assert state.taken[2] == ["Kc", "Tc", "Ac"]
    assert total_points(state.taken[2]) == 25
    assert state.turn == 2  # the winner leads the next trick


def test_t2_first_dealer_by_lot_and_deal_passes_clockwise() -> None:
    s = sheet()
    a = game.new(s, 3, seed="lot")
    assert a.dealer == SeededRandom("lot", "first-dealer").below(3)
    assert game.new(s, 3, seed="lot").dealer == a.dealer
    state = start([STRONG[0][:7], STRONG[1][:7], STRONG[2][:7]], [STRONG[0][7], STRONG[1][7], STRONG[2][7]])
    assert state.dealer == 2
    state = finish_deal(play(state, (0, BID), (1, PASS), (2, PASS)))
    assert state.dealer == 0 and state.turn == 1  # seat 1 is now on the dealer's left and opens


def test_t3_game_ends_when_a_player_reaches_the_target() -> None:
    state = after_give(*STRONG, target_score=100)
    state = finish_deal(state)
    assert state.phase == "over" and state.scores == [100, 0, 0]
    outcome = game.outcome(state)
    assert outcome is not None and outcome.placings[0] == (0,)
    assert game.legal_actions(state, 0) == [] and game.to_act(state) == []


def test_t4_three_each_three_to_talon_four_each() -> None:
    deck = list(DECK)
    state = game.new(sheet(), 3, seed="t4", deck=deck)
    assert state.dealer == 2
    assert sorted(state.hands[0]) == sorted(deck[0:3] + deck[12:16])
    assert sorted(state.hands[1]) == sorted(deck[3:6] + deck[16:20])
    assert sorted(state.hands[2]) == sorted(deck[6:9] + deck[20:24])
    assert state.talon == deck[9:12]
    assert state.turn == 0  # the player left of the dealer opens


def test_t5_four_nines_are_shown_and_redealt() -> None:
    hands = [["Ac"], ["9c", "9d", "9h", "9s"], ["Ad"]]
    state = start(hands, ["As", "Ah", "Tc"])
    assert state.shown == [{"seat": 1, "reason": "four_nines", "cards": ["9c", "9d", "9h", "9s"]}]
    assert state.shuffles == 2 and state.dealer == 2  # the same dealer dealt again from the seed
    again = SeededRandom("test", "deal-1").shuffle(list(DECK))  # the second shuffle of the seed
    assert sorted(state.hands[0]) == sorted(again[0:3] + again[12:16]) and state.talon == again[9:12]
    assert all(sum(c[0] == "9" for c in h) < 4 for h in state.hands)
    assert game.view(state, 0)["shown"][0]["cards"] == ["9c", "9d", "9h", "9s"]


def test_t5_four_nines_redeal_can_be_switched_off() -> None:
    state = start([["Ac"], ["9c", "9d", "9h", "9s"], ["Ad"]], ["As", "Ah", "Tc"], four_nines_redeal=False)
    assert state.shuffles == 1 and state.shown == []


LOW = ["9c", "9d", "Jc", "Jd", "Jh", "Qc", "Qd"]  # 2+2+2+3+3 = 12 points
NINES3 = ["9c", "9d", "9h", "Ac", "Ad", "Ah", "As"]


def test_t5_seventeen_or_less_hand_shown_for_a_redeal() -> None:
    state = start([["Ac"], LOW, ["Ad"]], ["As", "Ah", "Tc"], low_hand_redeal=True)
    assert total_points(LOW) <= 17
    assert game.to_act(state) == [0, 1]  # before the bidding seat 1 may claim out of turn
    state = play(state, (1, {"type": "redeal"}))
    assert state.shown[-1] == {"seat": 1, "reason": "low_hand", "cards": sorted(LOW, key=DECK.index)}
    assert state.dealer == 2 and state.shuffles == 2 and state.phase == "auction" and state.bid == 0
    assert state.redeals_in_row == 1 and state.scores == [0, 0, 0]


def test_t5_a_seat_that_may_claim_a_redeal_is_named_only_to_itself() -> None:
    """Only a hand of 17 or less may claim the redeal before the bidding: a view naming that seat
    among those to act would tell the others what it holds. Each view names the opener the table
    waits for, and the claiming seat only in its own view; ``views`` says the same."""
    state = start([["Ac"], LOW, ["Ad"]], ["As", "Ah", "Tc"], low_hand_redeal=True)
    assert game.to_act(state) == [0, 1]
    assert [game.view(state, seat)["to_act"] for seat in (None, 0, 1, 2)] == [[0], [0], [0, 1], [0]]
    views = game.views(state, [None, 0, 1, 2])
    assert [views[seat]["to_act"] for seat in (None, 0, 1, 2)] == [[0], [0], [0, 1], [0]]
    lottery = start([["Tc"], NINES3, ["Td"]], ["Th", "Ts", "Kc"], nine_lottery=True)
    assert game.to_act(lottery) == [0, 1]  # seat 1 holds a nine: it may start the lottery
    assert game.view(lottery, 2)["to_act"] == [0] and game.views(lottery, [None])[None]["to_act"] == [0]


def test_t5_redeals_in_a_row_cost_the_dealer_100_and_pass_the_deal() -> None:
    state = start([["Ac"], LOW, ["Ad"]], ["As", "Ah", "Tc"], low_hand_redeal=True, redeals_before_penalty=1)
    state = play(state, (1, {"type": "redeal"}))
    assert state.scores == [0, 0, -100] and state.dealer == 0
    assert state.rows[-1]["type"] == "redeal_penalty"


def test_t5_low_hand_redeal_refused_when_strong_late_or_off() -> None:
    strong = start([["Ac"], ["Ad", "As", "9c"], ["Ah"]], ["Tc", "Td", "Ts"], low_hand_redeal=True)
    assert game.to_act(strong) == [0]  # seat 1 has nothing to claim: the table waits for the opener
    refused(strong, 1, {"type": "redeal"}, "hand_too_strong")
    low0 = start([LOW, ["Ac"], ["Ad"]], ["As", "Ah", "Tc"], low_hand_redeal=True)
    late = play(low0, (0, BID), (1, PASS), (2, bid(110)))
    refused(late, 0, {"type": "redeal"}, "too_late")
    off = start([["Ac"], LOW, ["Ad"]], ["As", "Ah", "Tc"])
    refused(off, 1, {"type": "redeal"}, "no_low_hand_redeal")


def test_t5_redeal_only_before_the_bidding() -> None:
    """The seed: "Tämä toimenpide on suoritettava ennen vedonlyöntiä – jos myöhästyt, valitettavasti
    juna ei odota nukkuvia" (this must be done before the bidding; if you are late, the train does
    not wait). Once the opener has bid, no seat may claim a "17 or less" redeal, not even at its
    own first turn; before it, every seat may, out of turn."""
    state = start([["Ac"], LOW, ["Ad"]], ["As", "Ah", "Tc"], low_hand_redeal=True)
    assert {"type": "redeal"} in game.legal_actions(state, 1)
    after_opening = play(state, (0, BID))
    assert game.to_act(after_opening) == [1]
    assert {"type": "redeal"} not in game.legal_actions(after_opening, 1)
    refused(after_opening, 1, {"type": "redeal"}, "too_late")
    assert game.timeout_action(state, 1) is None  # a claim is a choice, never a default move
    # With blind bidding a seat looks out of turn first, then claims.
    blind = start([["Ac"], LOW, ["Ad"]], ["As", "Ah", "Tc"], low_hand_redeal=True, blind_bidding=True)
    assert game.to_act(blind) == [0, 1, 2] and game.legal_actions(blind, 2) == [{"type": "look"}]
    refused(blind, 1, {"type": "redeal"}, "not_looked")
    looked = play(blind, (2, {"type": "look"}), (1, {"type": "look"}))
    assert game.to_act(looked) == [0, 1]  # seat 2's strong hand has nothing to claim
    redealt = play(looked, (1, {"type": "redeal"}))
    assert redealt.shown[-1]["seat"] == 1 and redealt.bid == 0
    refused(play(blind, (0, {"type": "look"}), (0, BID)), 2, {"type": "look"}, "not_your_turn")


def test_t6_lottery_only_before_the_bidding() -> None:
    """The seed: "Kun kortit on jaettu ja/tai lotteria on järjestetty, peli alkaa" (once the cards
    are dealt and/or the lottery held, the game begins): the lottery comes before the opening bid,
    and afterwards the opener bids."""
    state = start([["Tc"], NINES3, ["Td"]], ["Th", "Ts", "Kc"], nine_lottery=True)
    refused(play(state, (0, BID)), 1, {"type": "lottery", "nine": "9h"}, "too_late")
    state = play(state, (1, {"type": "lottery", "nine": "9h"}))
    state = play(state, (0, {"type": "guess", "colour": "red"}), (2, {"type": "guess", "colour": "red"}))
    assert state.phase == "auction" and state.turn == 0 and game.to_act(state) == [0]


@pytest.mark.parametrize(
    ("nine", "guess0", "guess2", "points"),
    [
        ("9h", "red", "black", [100, 0, 0]),  # one guesses the colour: he scores 100
        ("9h", "red", "red", [50, 0, 50]),  # both guess: 50 each
        ("9c", "red", "red", [0, 100, 0]),  # nobody guesses: the organiser scores 100
    ],
)
def test_t6_nine_lottery(nine: str, guess0: str, guess2: str, points: list[int]) -> None:
    state = start([["Tc"], NINES3, ["Td"]], ["Th", "Ts", "Kc"], nine_lottery=True)
    state = play(state, (1, {"type": "lottery", "nine": nine}))
    assert state.phase == "lottery" and game.to_act(state) == [0, 2]
    assert game.view(state, 0)["lottery"].get("nine") is None  # the chosen nine stays hidden
    state = play(state, (0, {"type": "guess", "colour": guess0}), (2, {"type": "guess", "colour": guess2}))
    assert state.scores == points and state.rows[-1]["type"] == "lottery"
    assert state.phase == "auction" and state.turn == 0  # the opener bids next
    refused(state, 1, {"type": "lottery", "nine": nine}, "lottery_done")


def test_t6_lottery_needs_three_nines_and_ones_own_nine() -> None:
    state = start([["Tc"], NINES3, ["Td"]], ["Th", "Ts", "Kc"], nine_lottery=True)
    refused(state, 1, {"type": "lottery", "nine": "9s"}, "bad_nine")
    other = start(
        [["Tc"], ["9c", "9d", "Ac", "Ad", "Ah", "As", "Qc"], ["Td"]],
        ["Th", "Ts", "Kc"],
        nine_lottery=True,
    )
    refused(other, 1, {"type": "lottery", "nine": "9c"}, "no_three_nines")


def test_t7_opener_bids_100_steps_of_10_and_a_pass_is_final() -> None:
    state = start([["Ac"], ["Ad"], ["Ah"]], ["As", "Tc", "Td"])
    refused(state, 0, PASS, "opener_must_bid")
    refused(state, 0, bid(110), "opening_bid")
    state = play(state, (0, BID))
    refused(state, 1, bid(115), "bid_off_step")
    refused(state, 1, bid(100), "bid_too_low")
    state = play(state, (1, PASS), (2, bid(110)), (0, bid(120)))
    assert state.turn == 2  # seat 1 passed and is out of this auction
    state = play(state, (2, PASS))
    assert state.phase == "talon" and state.bidder == 0 and state.contract == 120


def test_t8_bid_limit_with_marriage() -> None:
    # The seed: with the spades marriage one may bid up to 160, with hearts up to 220.
    spades = play(
        start([["Ac"], ["Ks", "Qs", "9c", "Jc", "9d", "Jd", "Ah"], ["Ad"]], ["Tc", "Td", "Th"]), (0, BID)
    )
    assert max(a["value"] for a in game.legal_actions(spades, 1) if a["type"] == "bid") == 160
    refused(spades, 1, bid(170), "bid_over_limit")
    assert play(spades, (1, bid(160))).bid == 160
    hearts = play(
        start([["Ac"], ["Kh", "Qh", "9c", "Jc", "9d", "Jd", "As"], ["Ad"]], ["Tc", "Td", "Ts"]), (0, BID)
    )
    assert max(a["value"] for a in game.legal_actions(hearts, 1) if a["type"] == "bid") == 220
    refused(hearts, 1, bid(230), "bid_over_limit")
    none = play(
        start([["Ac"], ["9c", "Jc", "9d", "Jd", "Ah", "As", "Kh"], ["Ad"]], ["Tc", "Td", "Ts"]), (0, BID)
    )
    refused(none, 1, bid(130), "bid_over_limit")
    assert play(none, (1, bid(120))).bid == 120


def test_t8_estonian_marriage_values_preset() -> None:
    s = game.sheet({"blind_bidding": False, "nine_lottery": False, "left_100": False}, preset="tuhat-eesti")
    assert [s.marriage_value(x) for x in "cshd"] == [100, 80, 60, 40]
    deck = deck3([["Ac"], ["Kc", "Qc", "9c", "Jc", "9d", "Jd", "Ah"], ["Ad"]], ["Tc", "Td", "Th"])
    state = play(game.new(s, 3, seed="ee", deck=deck), (0, BID))
    assert max(a["value"] for a in game.legal_actions(state, 1) if a["type"] == "bid") == 220


def test_t9_talon_turned_up_taken_contract_raised_and_one_card_given_each() -> None:
    state = start([["Kh", "Qh", "Ac"], ["Ad"], ["As"]], ["Tc", "Td", "Th"])
    state, events = game.apply(play(state, (0, BID), (1, PASS)), 2, PASS)
    assert {"type": "talon", "cards": ["Tc", "Td", "Th"]} in [
        e.to_json() for e in events if e.audience is None
    ]
    assert game.view(state, 1)["talon"]["cards"] == ["Tc", "Td", "Th"]
    state = play(state, (0, {"type": "take_talon"}))
    assert len(state.hands[0]) == 10 and state.talon == []
    state = play(state, (0, bid(150)))  # the hearts marriage allows up to 220
    refused(state, 0, bid(230), "bid_over_limit")
    state = play(state, (0, {"type": "give", "cards": {"1": "Tc", "2": "Th"}}))
    assert [len(h) for h in state.hands] == [8, 8, 8] and state.contract == 150
    assert "Tc" in state.hands[1] and "Th" in state.hands[2]
    assert state.phase == "play" and state.turn == 0  # the bidder leads [T14]


def test_t9_keep_talon_lay_three_aside_counted_to_the_bidder() -> None:
    state = start(
        [list(STRONG[0][:7]), list(STRONG[1][:7]), list(STRONG[2][:7])],
        [STRONG[0][7], STRONG[1][7], STRONG[2][7]],
        talon="keep",
    )
    state = play(state, (0, BID), (1, PASS), (2, PASS), (0, {"type": "take_talon"}))
    refused(state, 0, {"type": "give", "cards": {"1": "Kc", "2": "Kh"}}, "wrong_phase")
    state = play(state, (0, {"type": "discard", "cards": ["Kc", "Kh", "Ts"]}))
    assert state.aside == ["Ts", "Kc", "Kh"] and [len(h) for h in state.hands] == [7, 7, 7]
    assert game.view(state, 0)["aside"] == ["Ts", "Kc", "Kh"] and game.view(state, 1)["aside"] is None
    state = finish_deal(state)
    row = state.rows[-1]
    assert row["card_points"] == [120, 0, 0]  # seven tricks and the three cards laid aside
    assert state.scores == [100, 0, 0]


def test_t10_bomb_sixty_to_each_opponent_nothing_lost() -> None:
    state = start(
        [list(WEAK[0][:7]), list(WEAK[1][:7]), list(WEAK[2][:7])], [WEAK[0][7], WEAK[1][7], WEAK[2][7]]
    )
    state = play(state, (0, BID), (1, PASS), (2, PASS), (0, {"type": "take_talon"}))
    state, events = game.apply(state, 0, {"type": "bomb"})
    assert events[0].to_json() == {
        "type": "bomb",
        "seat": 0,
        "points": [0, 60, 60],
        "blind": False,
    }
    assert state.scores == [0, 60, 60] and state.bombs_used == [1, 0, 0]
    assert state.rows[-1]["type"] == "bomb" and game.view(state, None)["score_sheet"][-1]["type"] == "bomb"
    assert state.deals_played == 1 and state.dealer == 0 and state.phase == "auction"


def test_t10_bombs_per_game_limit_and_off() -> None:
    s_weak = [list(WEAK[0][:7]), list(WEAK[1][:7]), list(WEAK[2][:7])]
    talon = [WEAK[0][7], WEAK[1][7], WEAK[2][7]]
    state = play(
        start(s_weak, talon, bombs_per_game=1),
        (0, BID),
        (1, PASS),
        (2, PASS),
        (0, {"type": "take_talon"}),
        (0, {"type": "bomb"}),
    )
    # Next deal: dealer 0, seat 1 opens; seat 0 wins the auction at 110 and may bomb no more.
    state = play(state, (1, BID), (2, PASS), (0, bid(110)), (1, PASS), (0, {"type": "take_talon"}))
    refused(state, 0, {"type": "bomb"}, "no_bombs_left")
    off = play(
        start(s_weak, talon, bombs_per_game=0), (0, BID), (1, PASS), (2, PASS), (0, {"type": "take_talon"})
    )
    refused(off, 0, {"type": "bomb"}, "no_bombs")


def blind_start(hands: tuple[list[str], ...], **options: Any) -> State:
    return start(
        [hands[0][:7], hands[1][:7], hands[2][:7]],
        [hands[0][7], hands[1][7], hands[2][7]],
        blind_bidding=True,
        **options,
    )


def test_t11_blind_contract_counts_double_and_only_the_dealer_sees_the_talon() -> None:
    state = blind_start(STRONG)
    assert game.view(state, 0)["hand"] is None  # nobody has looked yet
    refused(state, 0, bid(130), "opening_bid")
    state = play(state, (0, BID), (1, {"type": "look"}), (1, PASS), (2, {"type": "look"}), (2, PASS))
    assert state.contract == 100 and state.blind and state.talon_public == []
    assert game.view(state, 2)["talon"]["cards"] == ["Ts", "Kc", "Kh"]  # seat 2 deals
    assert game.view(state, 1)["talon"]["cards"] is None
    state = play(state, (0, {"type": "take_talon"}), (0, {"type": "give", "cards": {"1": "Kc", "2": "Kh"}}))
    state = finish_deal(state)
    assert state.scores[0] == 200 and state.rows[-1]["blind"]


def test_t11_blind_contract_lost_counts_double() -> None:
    state = blind_start(WEAK)
    state = play(
        state,
        (0, BID),
        (1, {"type": "look"}),
        (1, PASS),
        (2, {"type": "look"}),
        (2, PASS),
        (0, {"type": "take_talon"}),
        (0, {"type": "give", "cards": {"1": "Kd", "2": "Ks"}}),
    )
    state = finish_deal(state)
    assert state.scores[0] == -200


def test_t11_blind_bid_limit_and_giving_up_pays_120_each() -> None:
    hands = (["Kh", "Qh", *WEAK[0][:6]], WEAK[1], [*WEAK[2][:4], "9s", "Js", "Qs", "Ks"])
    state = start(
        [hands[0][:7], hands[1][:7], hands[2][:7]],
        [hands[0][7], hands[1][7], hands[2][7]],
        blind_bidding=True,
    )
    state = play(state, (0, BID), (1, {"type": "look"}), (1, bid(110)))
    refused(state, 2, bid(130), "bid_over_limit")  # seat 2 has not looked: 120 at most
    state = play(state, (2, bid(120)), (0, PASS), (1, PASS))
    assert state.blind and state.bidder == 2
    state = play(state, (2, {"type": "take_talon"}), (2, {"type": "bomb"}))
    assert state.scores == [120, 120, 0] and state.bombs_used == [0, 0, 0]


def test_t12_left_100_talon_taken_without_showing() -> None:
    state = start([["Ac"], ["Ad"], ["Ah"]], ["Tc", "Td", "Th"], left_100=True)
    state, events = game.apply(play(state, (0, BID), (1, PASS)), 2, PASS)
    assert state.talon_public == [] and not any(e.type == "talon" for e in events)
    assert game.view(state, 1)["talon"]["cards"] is None and game.view(state, 0)["talon"]["cards"] is None
    state, events = game.apply(state, 0, {"type": "take_talon"})
    private = [e for e in events if e.type == "talon_taken"]
    assert private[0].audience == (0,) and private[0].data["cards"] == ["Tc", "Td", "Th"]
    # Someone outbid the opener: the talon is shown as usual.
    shown = play(
        start([["Ac"], ["Ad"], ["Ah"]], ["Tc", "Td", "Th"], left_100=True),
        (0, BID),
        (1, bid(110)),
        (2, PASS),
        (0, PASS),
    )
    assert shown.talon_public == ["Tc", "Td", "Th"]


def test_t17_stuck_opener_gets_no_left_100() -> None:
    """The seed: "Jos hän häviää pelin ja hänen kokonaispistemääränsä vähenee, hän voi jälleen
    käyttää kaikkia temppuja – sekä “Pommi”, “Jätetty 100” että muut" (once he falls he may again
    use all the tricks: Bomb, Left 100 and the others): while stuck, no "left 100"; the talon of
    his 100 is turned up as for any contract."""
    cards: tuple[list[list[str]], list[str]] = ([["Ac"], ["Ad"], ["Ah"]], ["Tc", "Td", "Th"])
    stuck = start(*cards, left_100=True, stuck_at_800=True, stuck_score=0)
    state = play(stuck, (0, BID), (1, PASS), (2, PASS))
    assert state.talon_public == ["Tc", "Td", "Th"]
    assert game.view(state, 1)["talon"]["cards"] == ["Tc", "Td", "Th"]
    # Not stuck (the score limit out of reach): the same deal is a "left 100".
    free = start([["Ac"], ["Ad"], ["Ah"]], ["Tc", "Td", "Th"], left_100=True, stuck_at_800=True)
    assert play(free, (0, BID), (1, PASS), (2, PASS)).talon_public == []


def test_t13_four_players_dealer_sits_out_and_scores_the_talon() -> None:
    hands = [list(STRONG[0][:7]), list(STRONG[1][:7]), list(STRONG[2][:7])]
    talon = ["Ts", "Kc", "Kh"]  # 10 + 4 + 4 = 18 → 20
    s = game.sheet({"blind_bidding": False, "nine_lottery": False, "left_100": False}, preset="tuhat-4")
    state = game.new(s, 4, seed="four", deck=deck3(hands, talon))
    assert state.dealer == 3 and state.active() == [0, 1, 2] and state.hands[3] == []
    state = play(
        state,
        (0, BID),
        (1, PASS),
        (2, PASS),
        (0, {"type": "take_talon"}),
        (0, {"type": "give", "cards": {"1": "Kc", "2": "Kh"}}),
    )
    state = finish_deal(state)
    assert state.scores == [100, 0, 0, 20]
    assert state.dealer == 0 and state.active() == [1, 2, 3]


def test_t14_follow_suit_and_trump_wins() -> None:
    state = after_give(
        ["Kd", "Qd", "Ad", "Td", "9d", "Jd", "9h", "Jh"],
        ["9c", "Jc", "Qc", "Kc", "Tc", "Ac", "Qh", "Kh"],
        ["9s", "Js", "Qs", "Ks", "Ts", "As", "Th", "Ah"],
    )
    state = play_cards(state, "Qd!", "9c", "9s")  # diamonds become trump
    assert state.trump == "d" and state.turn == 0
    state = play_cards(state, "9h")
    refused(state, 1, {"type": "play", "card": "Jc"}, "must_follow")  # reneging
    state = play_cards(state, "Qh", "Ah")
    assert state.turn == 2
    state = play_cards(state, "As", "Jh")  # void in spades: any card, trumping is not compulsory
    state = play_cards(state, "Jc")
    assert state.turn == 2  # the ace of the led suit wins


def test_t14_must_trump_option() -> None:
    state = after_give(
        ["Kd", "Qd", "Ad", "Td", "9d", "Jd", "9h", "Jh"],
        ["9c", "Jc", "Qc", "Kc", "Tc", "Ac", "Qh", "Kh"],
        ["9s", "Js", "Qs", "Ks", "Ts", "As", "Th", "Ah"],
        must_trump=True,
    )
    state = play_cards(state, "Qd!", "9c", "9s", "9h", "Qh", "Ah", "As")
    refused(state, 0, {"type": "play", "card": "Jh"}, "must_trump")
    state = play_cards(state, "Jd", "Jc")
    assert state.turn == 0 and state.last_trick == [[2, "As"], [0, "Jd"], [1, "Jc"]]  # the trump beat the ace


def test_t15_marriage_declared_when_leading_scores_and_sets_trump() -> None:
    state = after_give(
        ["Kd", "Qd", "Ad", "Td", "9d", "Jd", "9h", "Jh"],
        ["9c", "Jc", "Qc", "Kc", "Tc", "Ac", "Qh", "Kh"],
        ["9s", "Js", "Qs", "Ks", "Ts", "As", "Th", "Ah"],
    )
    refused(state, 0, {"type": "play", "card": "Jd", "declare": True}, "no_marriage")
    state, events = game.apply(state, 0, {"type": "play", "card": "Qd", "declare": True})
    assert state.marriages[0] == ["d"] and state.trump == "d"
    assert events[0].to_json() == {
        "type": "play",
        "seat": 0,
        "card": "Qd",
        "declare": True,
        "marriage": 80,
        "trump": "d",
    }
    # The seed's 'tuhat' lets seat 1 declare while following [T15]; without that option its
    # marriages wait for its own lead.
    assert {"type": "play", "card": "Qh", "declare": True} in game.legal_actions(state, 1)
    leading_only = after_give(
        ["Kd", "Qd", "Ad", "Td", "9d", "Jd", "9h", "Jh"],
        ["9c", "Jc", "Qc", "Kc", "Tc", "Ac", "Qh", "Kh"],
        ["9s", "Js", "Qs", "Ks", "Ts", "As", "Th", "Ah"],
        marriage_when_following=False,
    )
    leading_only = play_cards(leading_only, "Qd!")
    refused(leading_only, 1, {"type": "play", "card": "Qh", "declare": True}, "declare_when_leading")
    state = finish_deal(state)
    assert state.rows[-1]["marriages"] == [80, 0, 0]


MARRIAGE_FOLLOW = (
    ["Qc", "Kc", "9d", "Jd", "Qd", "9s", "Js", "Qs"],
    ["Kh", "Qh", "Ah", "Th", "9h", "Jh", "Kd", "Td"],
    ["9c", "Jc", "Tc", "Ac", "Ad", "Ks", "Ts", "As"],
)


def test_t15_marriage_while_following_changes_trump_at_once() -> None:
    """The seed: "lopullisen kortin värin ja tyypin – valtin – määrittää se, joka viimeisenä heittää
    kortin pöydälle … Vastustajasi heittää ensin ristien kuningattaren … mutta sinä heität
    herttakuningattaren ja muutat valtin heti eduksesi!" (trump is set by whoever throws last: the
    opponent leads the queen of clubs, you throw the queen of hearts and change trump at once).
    The `tuhat` preset allows it as written; the option can switch it off."""
    assert game.sheet(preset="tuhat").marriage_when_following
    state = after_give(*MARRIAGE_FOLLOW)  # the seed's default
    state = play_cards(state, "Qc!", "Qh!", "Ac")
    assert state.trump == "h" and state.turn == 1  # the queen of hearts, now trump, wins
    assert state.marriages == [["c"], ["h"], []]


def test_t15_marriage_while_following_off_refused() -> None:
    state = play_cards(after_give(*MARRIAGE_FOLLOW, marriage_when_following=False), "Qc!")
    refused(state, 1, {"type": "play", "card": "Qh", "declare": True}, "declare_when_leading")
    assert {"type": "play", "card": "Qh", "declare": True} not in game.legal_actions(state, 1)


def test_t14_must_beat_follower_heads_the_trick_when_able() -> None:
    """The seed: "Pelaajan B on tässä tapauksessa heitettävä samanvärinen korkeampi kortti – kymppi"
    (B must in this case play the higher card of the suit, the ten), followed by "On loogista …"
    (it is logical not to play the queen): in `tuhat` advice, so off; `must_beat` makes it a duty."""
    hands = (
        ["Kc", "Jc", "9c", "Ad", "Td", "Ah", "Th", "As"],
        ["Qc", "Tc", "9d", "Jd", "9h", "Jh", "9s", "Js"],
        ["Ac", "Qd", "Kd", "Qh", "Kh", "Qs", "Ks", "Ts"],
    )
    assert not game.sheet(preset="tuhat").must_beat
    free = play_cards(after_give(*hands), "Kc")
    assert {"type": "play", "card": "Qc"} in game.legal_actions(free, 1)  # the seed's "logical" only
    state = play_cards(after_give(*hands, must_beat=True), "Kc")
    refused(state, 1, {"type": "play", "card": "Qc"}, "must_beat")
    assert [a["card"] for a in game.legal_actions(state, 1)] == ["Tc"]
    state = play_cards(state, "Tc", "Ac")  # the seed's example: the ace wins
    assert state.turn == 2 and state.last_trick == [[0, "Kc"], [1, "Tc"], [2, "Ac"]]


def test_t14_must_beat_not_when_unable_or_trumped() -> None:
    hands = (
        ["Ac", "Jc", "9c", "Ad", "Td", "Ah", "Th", "As"],
        ["Qc", "Tc", "9d", "Jd", "9h", "Jh", "9s", "Js"],
        ["Kc", "Qd", "Kd", "Qh", "Kh", "Qs", "Ks", "Ts"],
    )
    state = play_cards(after_give(*hands, must_beat=True), "Ac")
    assert {a["card"] for a in game.legal_actions(state, 1)} == {"Qc", "Tc"}  # nothing beats the ace
    cut = (
        ["Qd", "Kd", "9c", "Jc", "Ac", "Qc", "Tc", "Ts"],
        ["Ad", "Td", "Kc", "9h", "Jh", "Qh", "9s", "Js"],
        ["9d", "Jd", "Kh", "Ah", "Th", "As", "Qs", "Ks"],
    )
    state = play_cards(after_give(*cut, must_beat=True), "Qd!", "Ad", "Jd", "Kc")
    uncut = play_cards(state, "Kh")
    assert {a["card"] for a in game.legal_actions(uncut, 0)} == {"Tc", "Ac"}  # must head the king
    trumped = play_cards(state, "9d")  # diamonds are trump: the trick is cut
    assert {a["card"] for a in game.legal_actions(trumped, 0)} == {"9c", "Jc", "Qc", "Tc", "Ac"}


def test_t15_no_marriage_in_the_first_trick_option() -> None:
    state = after_give(*MARRIAGE_FOLLOW, marriage_in_first_trick=False)
    refused(state, 0, {"type": "play", "card": "Qc", "declare": True}, "marriage_too_early")
    state = play_cards(state, "Qc", "Kd", "Ac")
    assert state.trump is None and state.turn == 2


def test_t16_rounding_examples() -> None:
    assert round_points(53) == 50 and round_points(56) == 60
    assert [round_points(v) for v in (0, 5, 15, 19, 120)] == [0, 0, 10, 20, 120]


def test_t16_made_contract_scores_it_others_round() -> None:
    state = finish_deal(after_give(*STRONG, contract=120))
    row = state.rows[-1]
    assert row["made"] and state.scores == [120, 0, 0] and row["card_points"] == [120, 0, 0]


def test_t16_failed_contract_subtracted() -> None:
    state = finish_deal(after_give(*WEAK))
    row = state.rows[-1]
    assert not row["made"] and state.scores[0] == -100
    for seat in (1, 2):
        assert row["points"][seat] == round_points(row["card_points"][seat] + row["marriages"][seat])
    assert sum(row["card_points"]) == 120


def test_t17_eight_hundred_and_stuck() -> None:
    weak = [list(WEAK[0][:7]), list(WEAK[1][:7]), list(WEAK[2][:7])]
    talon = [WEAK[0][7], WEAK[1][7], WEAK[2][7]]
    # stuck_score 0: everybody starts "stuck" at 0 points.
    state = play(
        start(weak, talon, stuck_at_800=True, stuck_score=0),
        (0, BID),
        (1, PASS),
        (2, PASS),
        (0, {"type": "take_talon"}),
    )
    refused(state, 0, {"type": "bomb"}, "stuck")
    state = finish_deal(play(state, (0, {"type": "give", "cards": {"1": "Kd", "2": "Ks"}})))
    assert state.scores[0] < 0  # fallen below: seat 0 may use the options again
    state = play(state, (1, BID), (2, PASS), (0, bid(110)), (1, PASS), (0, {"type": "take_talon"}))
    assert {"type": "bomb"} in game.legal_actions(state, 0)
    blind = start(weak, talon, stuck_at_800=True, stuck_score=0, blind_bidding=True)
    refused(blind, 0, BID, "stuck")  # no blind bid: look first
    assert game.legal_actions(blind, 0) == [{"type": "look"}]


def test_t17_named_tricks_leave_blind_bids_and_the_lottery_open() -> None:
    """The seed lists its tricks ("voit käyttää pelissä näitä temppuja": Jätetty 100, Pommi, 800 ja
    jumissa, 17 tai vähemmän) and says a stuck player "ei voi käyttää muita temppuja" (may use no
    other tricks). Blind bidding and the nine lottery are told elsewhere in the seed, not in that
    list: `every_option` (every preset) bars them too, `named_tricks` leaves them open."""
    weak = [list(WEAK[0][:7]), list(WEAK[1][:7]), list(WEAK[2][:7])]
    talon = [WEAK[0][7], WEAK[1][7], WEAK[2][7]]
    assert all(game.presets[name].stuck_bars == "every_option" for name in game.presets)
    stuck = {"stuck_at_800": True, "stuck_score": 0}
    lottery = {"nine_lottery": True, **stuck}
    barred = start([["Tc"], NINES3, ["Td"]], ["Th", "Ts", "Kc"], **lottery)
    refused(barred, 1, {"type": "lottery", "nine": "9h"}, "stuck")
    named = start([["Tc"], NINES3, ["Td"]], ["Th", "Ts", "Kc"], stuck_bars="named_tricks", **lottery)
    assert game.to_act(named) == [0, 1]
    assert play(named, (1, {"type": "lottery", "nine": "9h"})).phase != "auction"
    blind = start(weak, talon, blind_bidding=True, stuck_bars="named_tricks", **stuck)
    assert {"type": "bid", "value": 100} in game.legal_actions(blind, 0)
    assert play(blind, (0, BID)).bid_blind
    # The named tricks stay barred: no bomb.
    state = play(start(weak, talon, stuck_bars="named_tricks", **stuck), (0, BID), (1, PASS), (2, PASS))
    state = play(state, (0, {"type": "take_talon"}))
    refused(state, 0, {"type": "bomb"}, "stuck")


def test_t16_failed_contract_costs_the_points_taken_when_read_word_for_word() -> None:
    """The seed: "Jos hän ei kerää niitä – kokonaispistemäärästä … on vähennettävä tässä kierroksessa
    kerätty pistemäärä" (if he does not collect them, the points collected in this deal are taken
    from his total). Every preset reads it as the bid (the amount he set out to collect: the seed's
    example speaks of "alussa panostetun pisteiden määrän"); `points_taken` subtracts what he took."""
    contract = finish_deal(after_give(*WEAK))
    taken = finish_deal(after_give(*WEAK, failed_contract="points_taken"))
    row = taken.rows[-1]
    assert not row["made"] and contract.scores[0] == -100
    assert taken.scores[0] == -round_points(row["card_points"][0] + row["marriages"][0])
    assert taken.scores[1:] == contract.scores[1:]


def test_t18_two_players_stock_draw_after_each_trick() -> None:
    s = sheet(players=2, two_player_contract=120, two_player_minus=False)
    deck = [
        "Ac",
        "Tc",
        "Kc",
        "9c",
        "Jc",
        "Qc",
        "Ad",
        "Td",
        "Kd",
        "9d",
        "Jd",
        "Qd",
        "Ah",
        "9h",
        "Th",
        "Jh",
        "Kh",
        "Qh",
        "As",
        "9s",
        "Ts",
        "Js",
        "Ks",
        "Qs",
    ]
    state = game.new(s, 2, seed="two", deck=deck)
    assert state.dealer == 1 and state.phase == "play" and state.bidder == 0 and state.contract == 120
    # 3 to the non-dealer, 3 to the dealer, 3 and 3 again; the rest is the stock.
    assert sorted(state.hands[0]) == sorted(["Ac", "Tc", "Kc", "Ad", "Td", "Kd"])
    assert sorted(state.hands[1]) == sorted(["9c", "Jc", "Qc", "9d", "Jd", "Qd"])
    assert state.stock == deck[12:]
    state = play_cards(state, "Ac", "9c")
    assert len(state.hands[0]) == 6 and len(state.hands[1]) == 6 and len(state.stock) == 10
    assert "Ah" in state.hands[0] and "9h" in state.hands[1]  # the winner draws first
    assert "Ah" in state.hands[0] and "9h" in state.hands[1]  # the winner draws first
    state = finish_deal(state)
    row = state.rows[-1]
    assert sum(row["card_points"]) == 120
    assert row["points"][0] == (120 if row["made"] else 0)  # no subtraction on this sheet
    assert state.dealer == 0 and state.bidder == 1  # next deal: the other player must make it


def test_t18_two_players_banks_variant() -> None:
    s = sheet(players=2, two_player_variant="banks")
    deck = list(reversed(DECK))  # the four nines end in bank 1
    state = game.new(s, 2, seed="banks", deck=deck)
    assert sorted(state.hands[0], key=DECK.index) == sorted(deck[0:4] + deck[12:16], key=DECK.index)
    assert state.banks == [deck[8:12], deck[20:24]]
    state = play(state, (0, BID), (1, PASS), (0, {"type": "take_talon", "bank": 1}))
    assert state.talon_public == ["9c", "9d", "9h", "9s"] and len(state.hands[0]) == 12
    give = {"1": state.hands[0][:2]}
    state = play(state, (0, {"type": "give", "cards": give}))
    assert [len(h) for h in state.hands] == [10, 10] and state.banks[0] == deck[8:12]
    state = finish_deal(state)
    row = state.rows[-1]
    assert (
        row["closed_bank"] == total_points(deck[8:12]) and sum(row["card_points"]) + row["closed_bank"] == 120
    )


def test_t19_hidden_cards_in_views() -> None:
    state = start([["Ac"], ["Ad"], ["Ah"]], ["Tc", "Td", "Th"])
    for seat in (0, 1, 2):
        view = game.view(state, seat)
        assert view["hand"] == state.hands[seat] and view["talon"]["cards"] is None
    spectator = game.view(state, None)
    assert spectator["hand"] is None and "legal_actions" not in spectator
    state = play(state, (0, BID), (1, PASS), (2, PASS), (0, {"type": "take_talon"}))
    state, events = game.apply(state, 0, {"type": "give", "cards": {"1": "Tc", "2": "Td"}})
    given = [e for e in events if e.type == "given"]
    assert {e.audience for e in given} == {(0, 1), (0, 2)}
    assert game.view(state, 1)["given"] == [[0, 1, "Tc"]] and game.view(state, 2)["given"] == [[0, 2, "Td"]]
    assert game.view(state, None)["given"] == []
