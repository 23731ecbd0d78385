"""Scenario tests P1–P6 and P24: players, decks, the deal, the swap phase and the opening."""

from __future__ import annotations

from collections import Counter

import pytest

from app.games.base import IllegalAction, InvalidSheet
from app.games.palace import PRESETS, game
from app.games.palace.pile import active_card
from tests.games.palace.helpers import all_cards, deal, kinds, play, sheet, start, table_deck


def test_p1_two_to_five_players() -> None:
    s = sheet()
    for n in range(2, 6):
        assert len(game.new(s, n, seed="x").players) == n
    for n in (1, 6):
        with pytest.raises(InvalidSheet):
            game.new(s, n, seed="x")


def test_p1_china_hand_two_to_four_players() -> None:
    s = PRESETS["china-hand"]
    assert len(game.new(s, 4, seed="x").players) == 4
    with pytest.raises(InvalidSheet):
        game.new(s, 5, seed="x")


def test_p2_deck_52_one_deck() -> None:
    t = game.new(sheet(), 4, seed="a")
    cards = all_cards(t)
    assert sum(cards.values()) == 52 and set(cards.values()) == {1}


def test_p2_deck_36_from_six_to_ace() -> None:
    t = game.new(sheet(deck="36", most_players=3), 3, seed="a")
    cards = all_cards(t)
    assert sum(cards.values()) == 36
    assert {c[0] for c in cards} == set("6789TJQKA")


def test_p2_jokers_added_per_deck() -> None:
    t = game.new(sheet(jokers=2, decks="two"), 2, seed="a")
    cards = all_cards(t)
    assert sum(cards.values()) == 108 and cards["Xr"] == 2 and cards["Xb"] == 2


def test_p2_two_decks_from_three_players() -> None:
    s = PRESETS["palace"]
    assert sum(all_cards(game.new(s, 2, seed="a")).values()) == 52
    three = all_cards(game.new(s, 3, seed="a"))
    assert sum(three.values()) == 104 and three["Qs"] == 2


def test_p2_decks_two_always() -> None:
    assert sum(all_cards(game.new(sheet(decks="two"), 2, seed="a")).values()) == 104


def test_p2_decks_one_for_five() -> None:
    assert sum(all_cards(game.new(sheet(decks="one"), 5, seed="a")).values()) == 52


def test_p2_joker_reset_lets_anything_follow() -> None:
    t = deal([["Xr", "3c", "4d"], ["3s", "9h", "9s"]], jokers=1, joker="reset")
    t, _ = play(t, 0, {"type": "play", "cards": ["Xr"]})
    assert active_card(t.sheet, t.pile) is None
    assert {"type": "play", "cards": ["3s"]} in game.legal_actions(t, 1)


def test_p2_joker_transparent_keeps_the_card_below() -> None:
    t = deal([["Kd", "Xr", "4d"], ["Ah", "3s", "9s"]], jokers=1, joker="transparent")
    t, _ = play(t, 0, {"type": "play", "cards": ["Kd"]})
    t, _ = play(t, 1, {"type": "play", "cards": ["Ah"]})
    t, _ = play(t, 0, {"type": "play", "cards": ["Xr"]})  # a joker fits even on an ace
    assert active_card(t.sheet, t.pile) == "Ah"
    assert {"type": "play", "cards": ["3s"]} not in game.legal_actions(t, 1)


def test_p2_suits_never_matter() -> None:
    t = deal([["Qh", "3c", "4d"], ["Qs", "5h", "6h"]])
    t, _ = play(t, 0, {"type": "play", "cards": ["Qh"]})
    t, _ = play(t, 1, {"type": "play", "cards": ["Qs"]})
    assert t.pile == ("Qh", "Qs")


def test_p3_deal_three_three_three_from_the_top() -> None:
    deck = [f"{r}{s}" for s in "cdhs" for r in "23456789TJQKA"]
    t = game.new(sheet(), 2, deck=deck)
    # One card at a time, clockwise from seat 0: face-down rounds, face-up rounds, hand rounds.
    assert t.players[0].face_down == (deck[0], deck[2], deck[4])
    assert t.players[1].face_down == (deck[1], deck[3], deck[5])
    assert t.players[0].face_up == (deck[6], deck[8], deck[10])
    assert t.players[1].face_up == (deck[7], deck[9], deck[11])
    assert set(t.players[0].hand) == {deck[12], deck[14], deck[16]}
    assert set(t.players[1].hand) == {deck[13], deck[15], deck[17]}
    assert t.stock == tuple(deck[18:])


def test_p3_table_deck_helper_matches_the_deal() -> None:
    deck = table_deck(
        [["2c", "3c", "4c"], ["2d", "3d", "4d"]],
        [["Qc", "Kc", "Ac"], ["Qd", "Kd", "Ad"]],
        [["5c", "6c", "7c"], ["5d", "6d", "7d"]],
        ["9s"],
    )
    t = game.new(sheet(), 2, deck=deck)
    assert t.players[1].face_down == ("2d", "3d", "4d")
    assert t.players[1].face_up == ("5d", "6d", "7d")
    assert t.players[1].hand == ("Qd", "Kd", "Ad")
    assert t.stock == ("9s",)


def test_p3_deal_choose_three_face_up_from_six() -> None:
    deck = table_deck(
        [["2c", "3c", "4c"], ["2d", "3d", "4d"]],
        [["5c", "6c", "7c", "Qc", "Kc", "Ac"], ["5d", "6d", "7d", "Qd", "Kd", "Ad"]],
        None,
        ["9s", "9h"],
    )
    t = game.new(sheet(deal="choose_from_six"), 2, deck=deck)
    assert len(t.players[0].hand) == 6 and t.players[0].face_up == (None, None, None)
    legal = game.legal_actions(t, 0)
    assert len(legal) == 20 and all(a["type"] == "lay_face_up" for a in legal)
    t, events = play(t, 0, {"type": "lay_face_up", "cards": ["Qc", "Kc", "Ac"]})
    assert t.players[0].face_up == ("Qc", "Kc", "Ac") and t.players[0].hand == ("5c", "6c", "7c")
    assert t.players[0].ready and kinds(events) == ["laid_face_up", "ready"]
    assert t.phase == "swap"
    t, _ = play(t, 1, {"type": "lay_face_up", "cards": ["5d", "6d", "Ad"]})
    assert t.phase == "play"


def test_p4_swap_phase_then_ready() -> None:
    deck = table_deck(
        [["2c", "3c", "4c"], ["2d", "3d", "4d"]],
        [["5c", "6c", "7c"], ["5d", "6d", "7d"]],
        [["Tc", "Kc", "Ac"], ["Td", "Kd", "Ad"]],
        ["9s", "9h"],
    )
    t = game.new(sheet(opening="left_of_dealer"), 2, deck=deck)
    assert game.to_act(t) == [0, 1]
    assert {"type": "play", "cards": ["5c"]} not in game.legal_actions(t, 0)
    t, events = play(t, 0, {"type": "swap", "card": "5c", "index": 1})
    assert t.players[0].face_up == ("Tc", "5c", "Ac") and "Kc" in t.players[0].hand
    assert kinds(events) == ["swapped"]
    t, _ = play(t, 0, {"type": "swap", "card": "Kc", "index": 1})  # swaps back freely
    t, _ = play(t, 0, {"type": "ready"})
    assert game.to_act(t) == [1] and t.phase == "swap"
    with pytest.raises(IllegalAction) as e:
        game.apply(t, 0, {"type": "swap", "card": "6c", "index": 0})
    assert e.value.code == "already_ready"
    t, _ = play(t, 1, {"type": "ready"})
    assert t.phase == "play" and game.to_act(t) == [0]
    # P4: no swapping once play has started.
    with pytest.raises(IllegalAction) as e:
        game.apply(t, 0, {"type": "swap", "card": "6c", "index": 0})
    assert e.value.code == "wrong_phase"


def test_p5_opening_turn_up_base_card() -> None:
    deck = table_deck(
        [["2c", "3c", "4c"], ["2d", "3d", "4d"]],
        [["5c", "6c", "7c"], ["5d", "6d", "7d"]],
        [["Tc", "Kc", "Ac"], ["Td", "Kd", "Ad"]],
        ["9s", "9h"],
    )
    t = start(sheet(opening="turn_up"), *_layers(deck))
    assert t.pile == ("9s",) and t.stock == ("9h",) and t.turn == 0


def _layers(deck: list[str]) -> tuple[list[list[str]], list[list[str]], list[list[str]], list[str]]:
    """Split a 2-player 3-3-3 deck back into table layers (for ``start``)."""
    fd = [[deck[0], deck[2], deck[4]], [deck[1], deck[3], deck[5]]]
    fu = [[deck[6], deck[8], deck[10]], [deck[7], deck[9], deck[11]]]
    hd = [[deck[12], deck[14], deck[16]], [deck[13], deck[15], deck[17]]]
    return fd, hd, fu, deck[18:]


def test_p5_opening_lowest_card_holder() -> None:
    hands = [["5c", "6c", "7c"], ["4d", "Kd", "Ad"], ["2h", "Kh", "Ah"]]
    t = start(sheet(opening="lowest_card"), [["9c"] * 3] * 3, hands, [["Jc"] * 3] * 3, ["9s"])
    assert t.turn == 2 and t.pile == ()  # the 2 is the lowest card


def test_p5_palace_lowest_card_is_a_three_the_two_is_special() -> None:
    """The wikihow text (the `palace` preset): "Kaardid on paigutatud nii, et kõrgeim on äss ja
    madalaim 3. 2 on spetsiaalne kaart" (the highest is the ace and the lowest the 3; the 2 is
    special). With `twos_low` off (the `palace` preset) a 2 never makes its holder the opener."""
    assert not sheet("palace").twos_low and sheet("hiina-turakas").twos_low
    hands = [["5c", "6c", "7c"], ["4d", "Kd", "Ad"], ["2h", "Kh", "Ah"]]
    face_down, face_up = [["9c"] * 3] * 3, [["Jc"] * 3] * 3
    plain = start(sheet(opening="lowest_card", twos_low=False), face_down, hands, face_up, ["9s"])
    assert plain.turn == 1  # the 4 is the lowest; the 2 does not count
    hands = [["2c", "5s", "Qc"], ["3d", "Kd", "Ad"], ["3h", "Kh", "Ah"]]
    low = start(sheet(opening="left_plays_lowest", twos_low=False), face_down, hands, face_up)
    assert low.opening_rank == "5"


def test_p5_opening_first_holder_of_a_three() -> None:
    hands = [["5c", "6c", "7c"], ["2d", "Kd", "Ad"], ["4h", "Kh", "Ah"], ["4s", "Qs", "As"]]
    t = start(sheet(opening="first_three"), [["9c"] * 3] * 4, hands, [["Jc"] * 3] * 4, ["9s"])
    assert t.turn == 2 and t.pile == ()  # nobody has a 3; the first 4 clockwise from seat 0


def test_p5_opening_left_of_dealer() -> None:
    hands = [["5c", "6c", "7c"], ["2d", "Kd", "Ad"], ["3h", "Kh", "Ah"]]
    t = start(sheet(opening="left_of_dealer"), [["9c"] * 3] * 3, hands, [["Jc"] * 3] * 3, ["9s"])
    assert t.turn == 0 and t.pile == ()
    assert {"type": "play", "cards": ["5c"]} in game.legal_actions(t, 0)  # any card on an empty pile


def test_p5_palace_first_open_three_starts() -> None:
    """The wikihow text (the `palace` preset's source): "esimene avatud kolmega mängija alustab mängu
    käega kaardi mängimisega" (the first player with an open three starts, playing from the hand);
    the same text calls face-up cards "avatud kaardid". In `palace` the face-up cards decide."""
    assert sheet("palace").opening_cards == "face_up"
    assert sheet("hiina-turakas").opening_cards == "hand" and sheet("china-hand").opening_cards == "hand"
    hands = [["3c", "6c", "7c"], ["5d", "Kd", "Ad"], ["4h", "Kh", "Ah"]]
    face_up = [["Jc", "Qc", "Kc"], ["Jd", "Qd", "Kd"], ["3h", "Jh", "Qh"]]
    face_down = [["9c"] * 3] * 3
    by_face_up = sheet(opening="first_three", opening_cards="face_up")
    open_three = start(by_face_up, face_down, hands, face_up, ["9s"])
    assert open_three.turn == 2 and open_three.pile == ()  # seat 2's face-up 3; seat 0's 3 is hidden
    assert {a["type"] for a in game.legal_actions(open_three, 2)} == {"play"}  # from the hand
    in_hand = start(sheet(opening="first_three"), face_down, hands, face_up, ["9s"])
    assert in_hand.turn == 0  # the other presets' reading: the hand's 3
    by_both = sheet(opening="first_three", opening_cards="hand_and_face_up")
    both = start(by_both, face_down, hands, face_up, ["9s"])
    assert both.turn == 0


def test_p5_left_of_dealer_plays_the_lowest_card() -> None:
    """The wikihow text: "Teine variatsioon ütleb, et diilerist vasakule jääv inimene mängib käes
    olevat kõige madalamat kaarti" (another variant: the player left of the dealer plays the lowest
    card in his hand). Seat 0 opens on an empty pile with his lowest rank (one or more of them)."""
    hands = [["5c", "5s", "Qc"], ["2d", "Kd", "Ad"], ["3h", "Kh", "Ah"]]
    t = start(sheet(opening="left_plays_lowest"), [["9c"] * 3] * 3, hands, [["Jc"] * 3] * 3, ["9s"])
    assert t.turn == 0 and t.pile == ()
    plays = [a for a in game.legal_actions(t, 0) if a["type"] == "play"]
    assert sorted(map(tuple, (a["cards"] for a in plays))) == [("5c",), ("5c", "5s"), ("5s",)]
    with pytest.raises(IllegalAction) as e:
        game.apply(t, 0, {"type": "play", "cards": ["Qc"]})
    assert e.value.code == "play_lowest"
    t, _ = play(t, 0, {"type": "play", "cards": ["5c"]})
    assert t.turn == 1 and t.opening_rank is None  # only the first move is bound
    assert game.dump(game.load(game.dump(t))) == game.dump(t)


def test_p6_rest_is_stock_and_play_goes_clockwise() -> None:
    hands = [["5c", "6c", "7c"], ["5d", "6d", "7d"], ["5h", "6h", "7h"]]
    t = start(sheet(opening="left_of_dealer"), [["9c"] * 3] * 3, hands, [["Jc"] * 3] * 3, ["9s", "Ts", "Js"])
    assert t.stock == ("9s", "Ts", "Js")
    seen = []
    for seat, card in ((0, "5c"), (1, "5d"), (2, "5h")):
        seen.append(t.turn)
        t, _ = play(t, seat, {"type": "play", "cards": [card]})
    assert seen == [0, 1, 2] and t.turn == 0


def test_p24_sheet_checked_before_the_deal() -> None:
    with pytest.raises(InvalidSheet) as e:
        game.sheet({"no_such_rule": True})
    assert e.value.option == "no_such_rule" and "Unknown option" in e.value.message
    with pytest.raises(InvalidSheet) as e:
        game.sheet({"jokers": 3})
    assert e.value.option == "jokers"
    with pytest.raises(InvalidSheet) as e:
        game.sheet({"deck": "36"})  # five players need 46 cards
    assert e.value.option == "most_players" and "46" in e.value.message
    assert game.sheet({"deck": "36", "most_players": 3}).deck == "36"
    with pytest.raises(InvalidSheet) as e:
        game.sheet({"opening": "whoever"})
    assert e.value.option == "opening"
    with pytest.raises(InvalidSheet):
        game.sheet(preset="no-such-preset")


def test_p24_sheet_is_fixed_for_the_deal() -> None:
    t = game.new(sheet(), 2, seed="s")
    with pytest.raises(Exception):  # noqa: B017 - pydantic refuses assignment to a frozen model
        t.sheet.low_card = "9"  # type: ignore[misc]
    assert game.load(game.dump(t)).sheet == t.sheet


def test_presets_follow_their_seeds() -> None:
    et, fi, wh = PRESETS["hiina-turakas"], PRESETS["china-hand"], PRESETS["palace"]
    assert (et.opening, et.when_stuck, et.low_card, et.ten_burn, et.finish) == (
        "turn_up",
        "draw_may_play",
        "7",
        "optional",
        "first_out_wins",
    )
    assert et.eight_transparent and et.voluntary_pick_up and not et.four_from_hand
    assert (fi.most_players, fi.opening, fi.when_stuck, fi.finish) == (
        4,
        "left_of_dealer",
        "pick_up",
        "play_to_last",
    )
    assert fi.turn_up_face_down and fi.ten_fits == "anything" and fi.ten_burn == "always"
    assert (wh.decks, wh.deal, wh.voluntary_pick_up, wh.ten_fits) == (
        "two_from_three_players",
        "choose_from_six",
        False,
        "anything",
    )
    for preset in PRESETS.values():
        assert game.sheet(preset.model_dump()) == preset
    schema = game.sheet_schema()
    for name, prop in schema["properties"].items():
        assert prop["description"], name


def test_p3_fixed_deck_needs_enough_cards() -> None:
    with pytest.raises(IllegalAction) as e:
        game.new(sheet(), 2, deck=["2c"] * 18)  # turn_up opening needs a 19th card
    assert e.value.code == "bad_deck"
    with pytest.raises(IllegalAction):
        game.new(sheet(), 2, deck=["Zz"] * 19)
    assert Counter(all_cards(game.new(sheet(), 2, deck=["2c"] * 19))) == Counter({"2c": 19})
