"""Scenario tests P7–P17: the ordinary play, refilling, being stuck, and the special cards."""

from __future__ import annotations

import pytest

from app.games.base import IllegalAction
from app.games.palace import game
from app.games.palace.pile import active_card
from tests.games.palace.helpers import deal, kinds, play


def refused(t: object, seat: int, action: dict[str, object], code: str) -> None:
    with pytest.raises(IllegalAction) as e:
        game.apply(t, seat, action)  # type: ignore[arg-type]
    assert e.value.code == code, e.value


def test_p7_equal_or_higher_single_or_several() -> None:
    t = deal([["9c", "9d", "4h"], ["9h", "3s", "Ks"]])
    t, _ = play(t, 0, {"type": "play", "cards": ["9c", "9d"]})
    legal = game.legal_actions(t, 1)
    assert {"type": "play", "cards": ["9h"]} in legal and {"type": "play", "cards": ["Ks"]} in legal
    assert {"type": "play", "cards": ["3s"]} not in legal
    refused(t, 1, {"type": "play", "cards": ["3s"]}, "does_not_fit")
    refused(t, 1, {"type": "play", "cards": ["9h", "Ks"]}, "mixed_ranks")


def test_p7_every_equal_rank_combination_is_listed() -> None:
    t = deal([["9c", "9d", "9h"], ["3s", "4s", "5s"]])
    plays = [a["cards"] for a in game.legal_actions(t, 0) if a["type"] == "play"]
    assert sorted(plays) == sorted(
        [["9c"], ["9d"], ["9h"], ["9c", "9d"], ["9c", "9h"], ["9d", "9h"], ["9c", "9d", "9h"]]
    )


def test_p8_refill_to_three_while_the_stock_lasts() -> None:
    t = deal([["9c", "9d", "4h"], ["Th", "3s", "Ks"]], stock=["2c", "3c", "5d"])
    t, events = play(t, 0, {"type": "play", "cards": ["9c", "9d"]})
    assert t.players[0].hand == ("2c", "3c", "4h") and t.stock == ("5d",)
    public = [e for e in events if e.type == "drew"]
    private = [e for e in events if e.type == "drew_cards"]
    assert public[0].audience is None and public[0].data == {"seat": 0, "count": 2}
    assert private[0].audience == (0,) and private[0].data["cards"] == ["2c", "3c"]


def test_p8_no_refill_with_three_or_more() -> None:
    t = deal([["9c", "4h", "5h"], ["Ts", "3s", "2s"]], stock=["2c", "3c", "5d", "6d", "7d"])
    t, _ = play(t, 0, {"type": "play", "cards": ["4h"]})  # 2 left, draws 1
    t, _ = play(t, 1, {"type": "play", "cards": ["2s"]})
    t = game.apply(t, 0, {"type": "draw"})[0]  # holds 3 + 1 drawn
    t, _ = play(t, 0, {"type": "play_drawn"})
    assert len(t.players[0].hand) == 3


def test_p9_draw_and_play_the_drawn_card() -> None:
    t = deal([["Kc", "4h", "5h"], ["3s", "3d", "2s"]], stock=["Ac", "6c", "6d", "6h"])
    t, _ = play(t, 0, {"type": "play", "cards": ["Kc"]})  # draws Ac
    assert game.legal_actions(t, 1) == [{"type": "play", "cards": ["2s"]}, {"type": "draw"}]
    refused(t, 1, {"type": "pick_up"}, "draw_first")
    t, events = play(t, 1, {"type": "draw"})
    assert t.decision == "drawn" and t.drawn == "6c"
    assert game.legal_actions(t, 1) == [{"type": "pick_up"}]  # the 6 does not fit on the king
    t, events = play(t, 1, {"type": "pick_up"})
    assert kinds(events) == ["picked_up"]
    assert t.players[1].hand == ("2s", "3d", "3s", "6c", "Kc") and t.pile == () and t.turn == 0


def test_p9_drawn_card_that_fits_may_be_played() -> None:
    t = deal([["9c", "4h", "5h"], ["3s", "3d", "2s"]], stock=["Ac", "Kd", "6d", "6h"])
    t, _ = play(t, 0, {"type": "play", "cards": ["9c"]})
    t, _ = play(t, 1, {"type": "draw"})
    assert t.drawn == "Kd" and game.view(t, 1)["drawn"] == "Kd" and "drawn" not in game.view(t, 0)
    assert game.legal_actions(t, 1) == [{"type": "play_drawn"}, {"type": "pick_up"}]
    refused(t, 1, {"type": "play", "cards": ["2s"]}, "decision_pending")
    t, events = play(t, 1, {"type": "play_drawn"})
    assert t.pile == ("9c", "Kd") and t.turn == 0 and t.decision is None
    assert events[0].data == {"seat": 1, "cards": ["Kd"], "from": "drawn"}


def test_p9_drawing_ends_the_turn() -> None:
    t = deal([["9c", "4h", "5h"], ["3s", "3d", "2s"]], stock=["Ac", "Kd", "6d"], when_stuck="draw_ends_turn")
    t, _ = play(t, 0, {"type": "play", "cards": ["9c"]})
    t, events = play(t, 1, {"type": "draw"})
    assert kinds(events) == ["drew", "drew_cards", "picked_up"]
    assert t.players[1].hand == ("2s", "3d", "3s", "9c", "Kd") and t.pile == () and t.turn == 0


def test_p9_drawing_ends_the_turn_and_the_pile_stays() -> None:
    """The Estonian matrix: "Pärast tõmbamist | sobiva kaardi võib kohe käia | tõmbamine lõpetab
    käigu" (after drawing: a fitting card may be played at once / drawing ends the turn), read
    plainly with `draw_and_pass`: one card is drawn into the hand, the pile stays, the next plays."""
    t = deal([["9c", "4h", "5h"], ["3s", "3d", "2s"]], stock=["Ac", "Kd", "6d"], when_stuck="draw_and_pass")
    t, _ = play(t, 0, {"type": "play", "cards": ["9c"]})
    t, events = play(t, 1, {"type": "draw"})
    assert kinds(events) == ["drew", "drew_cards"]
    assert t.players[1].hand == ("2s", "3d", "3s", "Kd") and t.pile == ("9c",) and t.turn == 0
    assert t.decision is None and t.drawn is None
    assert "Kd" not in str(game.view(t, 0)) and "Kd" not in str(game.view(t, None))


def test_p9_pick_up_at_once() -> None:
    t = deal([["9c", "4h", "5h"], ["3s", "3d", "2s"]], stock=["Ac", "Kd", "6d"], when_stuck="pick_up")
    t, _ = play(t, 0, {"type": "play", "cards": ["9c"]})
    assert {"type": "draw"} not in game.legal_actions(t, 1)
    refused(t, 1, {"type": "draw"}, "not_allowed")
    t, _ = play(t, 1, {"type": "pick_up"})
    assert "9c" in t.players[1].hand and t.stock == ("Kd", "6d")


def test_p10_voluntary_pick_up_allowed() -> None:
    t = deal([["9c", "4h", "5h"], ["Ks", "3d", "2s"]], when_stuck="pick_up", voluntary_pick_up=True)
    t, _ = play(t, 0, {"type": "play", "cards": ["9c"]})
    assert {"type": "pick_up"} in game.legal_actions(t, 1)
    t, _ = play(t, 1, {"type": "pick_up"})
    assert "9c" in t.players[1].hand


def test_p10_must_play_if_you_can() -> None:
    t = deal([["9c", "4h", "5h"], ["Ks", "3d", "2s"]], when_stuck="pick_up", voluntary_pick_up=False)
    t, _ = play(t, 0, {"type": "play", "cards": ["9c"]})
    assert {"type": "pick_up"} not in game.legal_actions(t, 1)
    refused(t, 1, {"type": "pick_up"}, "must_play")


def test_p10_must_play_a_drawn_card_that_fits() -> None:
    t = deal([["9c", "4h", "5h"], ["3s", "3d", "4s"]], stock=["Kd", "Ad"], voluntary_pick_up=False)
    t, _ = play(t, 0, {"type": "play", "cards": ["9c"]})
    t, _ = play(t, 1, {"type": "draw"})
    assert game.legal_actions(t, 1) == [{"type": "play_drawn"}]
    refused(t, 1, {"type": "pick_up"}, "must_play")


def test_p11_next_player_starts_a_new_pile_after_a_pick_up() -> None:
    t = deal([["9c", "4h", "5h"], ["3s", "3d", "4s"], ["6s", "6d", "7s"]], stock=["Kd", "Ad", "Qd"])
    t, _ = play(t, 0, {"type": "play", "cards": ["9c"]})
    t, _ = play(t, 1, {"type": "draw"})
    t, _ = play(t, 1, {"type": "pick_up"})
    assert t.pile == () and t.turn == 2
    assert {"type": "play", "cards": ["6s"]} in game.legal_actions(t, 2)
    # P11: the picker holds 5 cards and draws nothing until his hand is below 3 again.
    t, _ = play(t, 2, {"type": "play", "cards": ["6s"]})
    assert len(t.players[1].hand) == 5


def test_p11_picker_starts_the_new_pile() -> None:
    t = deal(
        [["9c", "4h", "5h"], ["3s", "3d", "4s"], ["6s", "6d", "7s"]],
        after_pick_up="picker",
        when_stuck="pick_up",
    )
    t, _ = play(t, 0, {"type": "play", "cards": ["9c"]})
    t, _ = play(t, 1, {"type": "pick_up"})
    assert t.pile == () and t.turn == 1


def test_p11_no_draw_after_pick_up_until_below_three() -> None:
    t = deal([["9c", "4h", "5h"], ["3s", "3d", "4s"]], stock=["6c", "Ad", "Qd", "Jd"], when_stuck="pick_up")
    t, _ = play(t, 0, {"type": "play", "cards": ["9c"]})  # draws 6c
    t, _ = play(t, 1, {"type": "pick_up"})  # 4 cards now
    t, _ = play(t, 0, {"type": "play", "cards": ["4h"]})  # draws Ad
    t, _ = play(t, 1, {"type": "play", "cards": ["4s"]})  # 3 left: no draw
    assert len(t.players[1].hand) == 3 and t.stock == ("Qd", "Jd")
    t, _ = play(t, 0, {"type": "play", "cards": ["5h"]})
    t, _ = play(t, 1, {"type": "play", "cards": ["9c"]})  # 2 left: draws 1
    assert len(t.players[1].hand) == 3 and t.stock == ()


def test_p12_two_fits_on_anything_and_resets() -> None:
    t = deal([["Ac", "4h", "5h"], ["2s", "3d", "4s"]])
    t, _ = play(t, 0, {"type": "play", "cards": ["Ac"]})
    t, events = play(t, 1, {"type": "play", "cards": ["2s"]})
    assert kinds(events) == ["played"]  # a 2 forces no draw
    assert active_card(t.sheet, t.pile) is None and t.turn == 0  # and gives no extra turn
    assert {"type": "play", "cards": ["4h"]} in game.legal_actions(t, 0)


def test_p13_eight_is_transparent() -> None:
    t = deal([["Kc", "4h", "5h"], ["8s", "3d", "4s"], ["Qd", "Kd", "2d"]])
    t, _ = play(t, 0, {"type": "play", "cards": ["Kc"]})
    t, _ = play(t, 1, {"type": "play", "cards": ["8s"]})  # an 8 goes on a king
    assert active_card(t.sheet, t.pile) == "Kc"
    legal = game.legal_actions(t, 2)
    assert {"type": "play", "cards": ["Kd"]} in legal and {"type": "play", "cards": ["Qd"]} not in legal
    assert game.view(t, 2)["next_card"] == {"kind": "at_least", "rank": "K"}


def test_p13_eight_on_empty_pile_and_several_eights() -> None:
    t = deal([["8c", "4h", "5h"], ["8s", "3d", "4s"]])
    t, _ = play(t, 0, {"type": "play", "cards": ["8c"]})
    t, _ = play(t, 1, {"type": "play", "cards": ["8s"]})
    assert active_card(t.sheet, t.pile) is None
    assert {"type": "play", "cards": ["4h"]} in game.legal_actions(t, 0)


def test_p13_eight_on_a_seven_keeps_the_seven() -> None:
    t = deal([["7c", "4h", "5h"], ["8s", "3d", "4s"], ["9d", "6d", "2d"]])
    t, _ = play(t, 0, {"type": "play", "cards": ["7c"]})
    t, _ = play(t, 1, {"type": "play", "cards": ["8s"]})
    legal = game.legal_actions(t, 2)
    assert {"type": "play", "cards": ["6d"]} in legal and {"type": "play", "cards": ["9d"]} not in legal


def test_p13_ordinary_eight_when_not_transparent() -> None:
    t = deal([["Kc", "4h", "5h"], ["8s", "3d", "9s"], ["9d", "6d", "2d"]], eight_transparent=False)
    assert {"type": "play", "cards": ["8s"]} not in game.legal_actions(
        play(t, 0, {"type": "play", "cards": ["Kc"]})[0], 1
    )
    t, _ = play(t, 0, {"type": "play", "cards": ["4h"]})
    t, _ = play(t, 1, {"type": "play", "cards": ["8s"]})
    assert active_card(t.sheet, t.pile) == "8s"
    legal = game.legal_actions(t, 2)
    assert {"type": "play", "cards": ["9d"]} in legal and {"type": "play", "cards": ["6d"]} not in legal


def test_p14_seven_means_seven_or_lower() -> None:
    t = deal([["7c", "4h", "5h"], ["8s", "3d", "Ks"]], eight_transparent=False)
    t, _ = play(t, 0, {"type": "play", "cards": ["7c"]})
    legal = game.legal_actions(t, 1)
    assert {"type": "play", "cards": ["3d"]} in legal
    assert {"type": "play", "cards": ["Ks"]} not in legal and {"type": "play", "cards": ["8s"]} not in legal
    assert game.view(t, 1)["next_card"] == {"kind": "at_most", "rank": "7"}


def test_p14_nine_carries_the_effect() -> None:
    t = deal([["9c", "7h", "5h"], ["8s", "Td", "Ks"], ["9d", "7d", "Qd"]], low_card="9")
    t, _ = play(t, 0, {"type": "play", "cards": ["9c"]})
    legal = game.legal_actions(t, 1)
    assert {"type": "play", "cards": ["8s"]} in legal and {"type": "play", "cards": ["Ks"]} not in legal
    assert {"type": "play", "cards": ["Td"]} not in legal
    t, _ = play(t, 1, {"type": "play", "cards": ["8s"]})
    assert {"type": "play", "cards": ["7d"]} in game.legal_actions(t, 2)


def test_p14_seven_is_ordinary_when_off() -> None:
    t = deal([["7c", "4h", "5h"], ["8s", "3d", "Ks"]], low_card="none")
    t, _ = play(t, 0, {"type": "play", "cards": ["7c"]})
    legal = game.legal_actions(t, 1)
    assert {"type": "play", "cards": ["Ks"]} in legal and {"type": "play", "cards": ["3d"]} not in legal


def test_p15_ten_optional_burn_then_same_player_again() -> None:
    t = deal([["5c", "4h", "Ah"], ["Ts", "3d", "Ks"]], stock=["6c", "6d"])
    t, _ = play(t, 0, {"type": "play", "cards": ["5c"]})
    t, _ = play(t, 1, {"type": "play", "cards": ["Ts"]})
    assert t.decision == "burn" and game.legal_actions(t, 1) == [{"type": "burn"}, {"type": "keep"}]
    assert game.to_act(t) == [1]
    t, events = play(t, 1, {"type": "burn"})
    assert t.pile == () and t.burned == ("5c", "Ts") and t.turn == 1
    assert events[0].type == "burned" and events[0].data["by"] == "ten"


def test_p15_ten_kept_gives_no_extra_turn() -> None:
    t = deal([["5c", "4h", "Ah"], ["Ts", "3d", "Ks"]], stock=["6c", "6d"])
    t, _ = play(t, 0, {"type": "play", "cards": ["5c"]})
    t, _ = play(t, 1, {"type": "play", "cards": ["Ts"]})
    t, _ = play(t, 1, {"type": "keep"})
    assert t.pile == ("5c", "Ts") and t.turn == 0
    legal = game.legal_actions(t, 0)
    assert {"type": "play", "cards": ["Ah"]} in legal and {"type": "play", "cards": ["4h"]} not in legal


def test_p15_ten_not_on_a_seven_nor_above_it() -> None:
    t = deal([["7c", "4h", "Ah"], ["Ts", "3d", "Ks"], ["Ac", "Td", "Kd"]])
    t, _ = play(t, 0, {"type": "play", "cards": ["7c"]})
    assert {"type": "play", "cards": ["Ts"]} not in game.legal_actions(t, 1)
    t2 = deal([["Ac", "4h", "Ah"], ["Ts", "3d", "Ks"]])
    t2, _ = play(t2, 0, {"type": "play", "cards": ["Ac"]})
    assert {"type": "play", "cards": ["Ts"]} not in game.legal_actions(t2, 1)


def test_p15_ten_fits_anything() -> None:
    t = deal([["7c", "4h", "Ah"], ["Ts", "3d", "Ks"]], ten_fits="anything")
    t, _ = play(t, 0, {"type": "play", "cards": ["7c"]})
    assert {"type": "play", "cards": ["Ts"]} in game.legal_actions(t, 1)
    t2 = deal([["Ac", "4h", "Ah"], ["Ts", "3d", "Ks"]], ten_fits="anything")
    t2, _ = play(t2, 0, {"type": "play", "cards": ["Ac"]})
    assert {"type": "play", "cards": ["Ts"]} in game.legal_actions(t2, 1)


def test_p15_ten_always_burns() -> None:
    t = deal(
        [["Ac", "4h", "Ah"], ["Ts", "3d", "Ks"]], stock=["6c", "6d"], ten_fits="anything", ten_burn="always"
    )
    t, _ = play(t, 0, {"type": "play", "cards": ["Ac"]})
    t, events = play(t, 1, {"type": "play", "cards": ["Ts"]})
    assert t.pile == () and t.burned == ("Ac", "Ts") and t.turn == 1 and t.decision is None
    assert kinds(events) == ["played", "drew", "drew_cards", "burned"]  # refills, then plays again


def test_p16_four_of_a_kind_burns_across_players() -> None:
    t = deal([["Qc", "Qd", "4h"], ["Qh", "3d", "Ks"], ["Qs", "5d", "5s"]])
    t, _ = play(t, 0, {"type": "play", "cards": ["Qc", "Qd"]})
    t, _ = play(t, 1, {"type": "play", "cards": ["Qh"]})
    t, events = play(t, 2, {"type": "play", "cards": ["Qs"]})
    assert t.pile == () and len(t.burned) == 4 and t.turn == 2
    assert events[-1].data["by"] == "four"


def test_p16_eights_are_not_invisible_inside_a_four() -> None:
    t = deal([["Qc", "Qd", "4h"], ["8h", "3d", "Ks"], ["Qs", "Qh", "5s"]])
    t, _ = play(t, 0, {"type": "play", "cards": ["Qc"]})
    t, _ = play(t, 1, {"type": "play", "cards": ["8h"]})
    t, _ = play(t, 2, {"type": "play", "cards": ["Qs", "Qh"]})
    t, _ = play(t, 0, {"type": "play", "cards": ["Qd"]})
    assert t.pile == ("Qc", "8h", "Qh", "Qs", "Qd") and t.turn == 1  # Q,8,Q,Q,Q is not four


def test_p16_four_from_hand_at_any_time() -> None:
    t = deal(
        [["Kc", "Ks", "4h"], ["Kd", "Kh", "3s"]],
        stock=["5c", "6c", "7c", "8c"],
        four_from_hand=True,
        when_stuck="pick_up",
    )
    t, _ = play(t, 0, {"type": "play", "cards": ["Kc", "Ks"]})  # draws 5c 6c
    t, _ = play(t, 1, {"type": "pick_up"})  # now holds four kings
    assert t.turn == 0 and game.to_act(t) == [0, 1]
    assert game.legal_actions(t, 1) == [{"type": "lay_four", "cards": ["Kc", "Kd", "Kh", "Ks"]}]
    t, events = play(t, 1, {"type": "lay_four", "cards": ["Kc", "Kd", "Kh", "Ks"]})  # out of turn
    assert kinds(events) == ["laid_four", "drew", "drew_cards"]
    assert t.burned == ("Kc", "Kd", "Kh", "Ks") and t.pile == () and t.turn == 0
    assert t.players[1].hand == ("3s", "7c", "8c")


def test_p16_four_in_hand_stays_without_the_option() -> None:
    t = deal([["Kc", "Ks", "4h"], ["Kd", "Kh", "3s"]], stock=["5c", "6c"], when_stuck="pick_up")
    t, _ = play(t, 0, {"type": "play", "cards": ["Kc", "Ks"]})
    t, _ = play(t, 1, {"type": "pick_up"})
    assert game.to_act(t) == [0] and game.legal_actions(t, 1) == []
    refused(t, 1, {"type": "lay_four", "cards": ["Kc", "Kd", "Kh", "Ks"]}, "not_allowed")


def test_p16_cut_in_completes_four_out_of_turn() -> None:
    t = deal(
        [["7c", "7d", "7h"], ["3s", "4d", "5s"], ["7s", "6h", "2s"]],
        stock=["Qc", "Qd", "Qh", "Ah", "Kh"],
        cut_in=True,
        low_card="none",
    )
    t, _ = play(t, 0, {"type": "play", "cards": ["7c", "7d", "7h"]})  # draws Qc Qd Qh
    assert game.to_act(t) == [1, 2]
    assert {"type": "cut_in", "cards": ["7s"]} in game.legal_actions(t, 2)
    assert all(game.view(t, s)["waiting_for"] == [1] for s in (None, 0, 1, 2))  # no hint of the 7s
    t, events = play(t, 2, {"type": "cut_in", "cards": ["7s"]})
    assert t.pile == () and len(t.burned) == 4 and t.turn == 2  # seat 1 is skipped
    assert events[0].data["from"] == "cut_in" and events[-1].type == "burned"
    assert t.players[2].hand == ("2s", "6h", "Ah")


def test_p16_no_cut_in_without_the_option() -> None:
    t = deal([["7c", "7d", "7h"], ["3s", "4d", "5s"], ["7s", "6h", "2s"]], low_card="none")
    t, _ = play(t, 0, {"type": "play", "cards": ["7c", "7d", "7h"]})
    assert game.to_act(t) == [1] and game.legal_actions(t, 2) == []
    refused(t, 2, {"type": "cut_in", "cards": ["7s"]}, "not_allowed")


def test_p17_add_a_drawn_card_of_the_rank_just_played() -> None:
    t = deal(
        [["Jc", "4h", "5h"], ["3s", "Qd", "Ks"], ["Js", "6h", "2s"]], stock=["Jd", "Ac", "Ad"], add_drawn=True
    )
    t, _ = play(t, 0, {"type": "play", "cards": ["Jc"]})  # draws Jd
    assert game.to_act(t) == [1, 0]
    assert game.legal_actions(t, 0) == [{"type": "add", "cards": ["Jd"]}]
    assert game.view(t, 0)["may_add"] == ["Jd"] and "may_add" not in game.view(t, 1)
    t, events = play(t, 0, {"type": "add", "cards": ["Jd"]})  # draws Ac
    assert t.pile == ("Jc", "Jd") and t.turn == 1 and t.players[0].hand == ("4h", "5h", "Ac")
    assert events[0].data["from"] == "add"


def test_p17_window_closes_when_the_next_player_moves() -> None:
    t = deal(
        [["Jc", "4h", "5h"], ["3s", "Qd", "Ks"], ["Js", "6h", "2s"]], stock=["Jd", "Ac", "Ad"], add_drawn=True
    )
    t, _ = play(t, 0, {"type": "play", "cards": ["Jc"]})
    t, _ = play(t, 1, {"type": "play", "cards": ["Qd"]})
    assert game.legal_actions(t, 0) == [] and t.add_seat is None
    refused(t, 0, {"type": "add", "cards": ["Jd"]}, "no_add")


def test_p17_off_by_default() -> None:
    t = deal([["Jc", "4h", "5h"], ["3s", "Qd", "Ks"]], stock=["Jd", "Ac", "Ad"])
    t, _ = play(t, 0, {"type": "play", "cards": ["Jc"]})
    assert game.to_act(t) == [1] and game.legal_actions(t, 0) == []
