"""Scenario tests P18–P23 and P25: the table cards, the end of the game, and what each seat sees."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.games.base import IllegalAction
from app.games.palace import game
from app.games.palace.table import Player, Table
from tests.games.palace.helpers import deal, kinds, play, random_sheets, sheet, visible_cards


def phase_two(**options: object) -> Table:
    """Two players, an empty stock: seat 0 soon plays its table cards."""
    return deal(
        [["5c", "5d", "5h"], ["6s", "Ts", "Js"]],
        face_up=[["9h", "9d", "Qh"], ["3c", "3d", "3h"]],
        face_down=[["Kc", "3s", "Ac"], ["4c", "4d", "4h"]],
        **options,  # type: ignore[arg-type]
    )


def test_p18_table_cards_after_the_hand_with_equal_face_up_together() -> None:
    t = phase_two(low_card="none")
    assert t.stock == ()
    assert all(a["type"] == "play" for a in game.legal_actions(t, 0) if a["type"] != "pick_up")
    t, events = play(t, 0, {"type": "play", "cards": ["5c", "5d", "5h"]})
    assert kinds(events) == ["played"]  # P18: no refill once the stock is empty
    t, _ = play(t, 1, {"type": "play", "cards": ["6s"]})
    legal = game.legal_actions(t, 0)
    assert [a for a in legal if a["type"] == "play_face_up"] == [
        {"type": "play_face_up", "indexes": [0]},
        {"type": "play_face_up", "indexes": [1]},
        {"type": "play_face_up", "indexes": [0, 1]},
        {"type": "play_face_up", "indexes": [2]},
    ]
    t, events = play(t, 0, {"type": "play_face_up", "indexes": [0, 1]})
    assert t.players[0].face_up == (None, None, "Qh") and t.pile[-2:] == ("9h", "9d")
    assert events[0].data == {"seat": 0, "cards": ["9h", "9d"], "from": "face_up", "indexes": [0, 1]}
    assert t.players[0].face_down == ("Kc", "3s", "Ac")  # nothing turned up without P19


def test_p19_face_down_turned_up_under_a_played_face_up() -> None:
    t = phase_two(low_card="none", turn_up_face_down=True)
    t, _ = play(t, 0, {"type": "play", "cards": ["5c", "5d", "5h"]})
    t, _ = play(t, 1, {"type": "play", "cards": ["6s"]})
    t, events = play(t, 0, {"type": "play_face_up", "indexes": [1]})
    assert t.players[0].face_up == ("9h", "3s", "Qh") and t.players[0].face_down == ("Kc", None, "Ac")
    assert kinds(events) == ["played", "turned_up_below"]
    assert events[1].data == {"seat": 0, "index": 1, "card": "3s"} and events[1].audience is None
    assert "3s" in game.view(t, 1)["players"][0]["face_up"]


def test_p20_no_playable_face_up_picks_up_and_plays_the_hand_first() -> None:
    t = deal(
        [["5c", "5d", "5h"], ["6s", "As", "Js"]],
        face_up=[["3h", "4d", "4h"], ["3c", "3d", "7h"]],
        low_card="none",
    )
    t, _ = play(t, 0, {"type": "play", "cards": ["5c", "5d", "5h"]})
    t, _ = play(t, 1, {"type": "play", "cards": ["As"]})
    # No face-up card fits on the ace: the only move is to pick up the pile.
    assert game.legal_actions(t, 0) == [{"type": "pick_up"}]
    t, _ = play(t, 0, {"type": "pick_up"})
    assert t.players[0].hand == ("5c", "5d", "5h", "As") and t.players[0].face_up == ("3h", "4d", "4h")
    t, _ = play(t, 1, {"type": "play", "cards": ["6s"]})
    # The picked-up cards must be played from the hand before the face-up row is used again.
    assert all(a["type"] == "play" for a in game.legal_actions(t, 0) if a["type"] != "pick_up")
    with pytest.raises(IllegalAction) as e:
        game.apply(t, 0, {"type": "play_face_up", "indexes": [1, 2]})
    assert e.value.code == "hand_first"


def test_p21_face_down_blind_fits_or_is_picked_up_with_the_pile() -> None:
    t = phase_two(low_card="none")
    t, _ = play(t, 0, {"type": "play", "cards": ["5c", "5d", "5h"]})
    t, _ = play(t, 1, {"type": "play", "cards": ["6s"]})
    t, _ = play(t, 0, {"type": "play_face_up", "indexes": [0, 1]})
    t, _ = play(t, 1, {"type": "play", "cards": ["Ts"]})
    t, _ = play(t, 1, {"type": "keep"})
    t, _ = play(t, 0, {"type": "play_face_up", "indexes": [2]})
    # Seat 1 cannot beat the queen with the jack; it picks up.
    t, _ = play(t, 1, {"type": "pick_up"})
    assert t.turn == 0 and t.pile == ()
    legal = game.legal_actions(t, 0)
    assert legal == [
        {"type": "play_face_down", "index": 0},
        {"type": "play_face_down", "index": 1},
        {"type": "play_face_down", "index": 2},
    ]
    view = game.view(t, 0)
    assert view["players"][0]["face_down"] == [True, True, True] and "Kc" not in str(view)
    t, events = play(t, 0, {"type": "play_face_down", "index": 0})  # Kc on an empty pile fits
    assert events[0].data == {"seat": 0, "index": 0, "card": "Kc", "fits": True} and t.pile == ("Kc",)
    assert t.players[0].face_down == (None, "3s", "Ac") and t.turn == 1


def test_p21_failed_face_down_goes_to_the_hand_with_the_pile() -> None:
    t = deal(
        [["5c", "5d", "5h"], ["6s", "9s", "Js"]],
        face_up=[["7c", "7d", "7h"], ["3c", "3d", "3h"]],
        face_down=[["3s", "Kc", "Ac"], ["4c", "4d", "4h"]],
        low_card="none",
    )
    t, _ = play(t, 0, {"type": "play", "cards": ["5c", "5d", "5h"]})
    t, _ = play(t, 1, {"type": "play", "cards": ["6s"]})
    t, _ = play(t, 0, {"type": "play_face_up", "indexes": [0, 1, 2]})
    t, _ = play(t, 1, {"type": "play", "cards": ["9s"]})
    t, events = play(t, 0, {"type": "play_face_down", "index": 0})  # a 3 on a 9
    assert kinds(events) == ["turned_face_down", "picked_up"]
    assert events[0].data == {"seat": 0, "index": 0, "card": "3s", "fits": False}
    assert t.players[0].hand == ("3s", "5c", "5d", "5h", "6s", "7c", "7d", "7h", "9s")
    assert t.players[0].face_down == (None, "Kc", "Ac") and t.pile == () and t.turn == 1
    assert t.players[0].known == t.players[0].hand  # every one of them was seen
    # P21: the hand must be emptied again before the next face-down card.
    t, _ = play(t, 1, {"type": "play", "cards": ["Js"]})
    assert all(a["type"] in ("play", "draw", "pick_up") for a in game.legal_actions(t, 0))


def test_p22_first_out_wins() -> None:
    t = deal(
        [["5c", "5d", "5h"], ["2s", "2d", "2h"]],
        face_up=[["9c", "9d", "9h"], ["3c", "3d", "3h"]],
        face_down=[["Kc", "Kd", "Kh"], ["4c", "4d", "4h"]],
    )
    moves: list[tuple[int, dict[str, Any]]] = [
        (0, {"type": "play", "cards": ["5c", "5d", "5h"]}),
        (1, {"type": "play", "cards": ["2s"]}),
        (0, {"type": "play_face_up", "indexes": [0, 1, 2]}),
        (1, {"type": "play", "cards": ["2d"]}),
        (0, {"type": "play_face_down", "index": 0}),
        (1, {"type": "play", "cards": ["2h"]}),
        (0, {"type": "play_face_down", "index": 1}),
        (1, {"type": "pick_up"}),
    ]
    for seat, action in moves:
        t, _ = play(t, seat, action)
    assert game.outcome(t) is None
    t, events = play(t, 0, {"type": "play_face_down", "index": 2})
    assert kinds(events)[-2:] == ["out", "game_over"]
    result = game.outcome(t)
    assert result is not None and result.placings == ((0,), (1,)) and result.reason == "finished"
    assert game.to_act(t) == [] and game.legal_actions(t, 1) == []
    with pytest.raises(IllegalAction) as e:
        game.apply(t, 1, {"type": "pick_up"})
    assert e.value.code == "game_over"


def test_p22_play_on_to_the_last_player() -> None:
    t = deal(
        [["5c", "5d", "5h"], ["2s", "2d", "2h"], ["2c", "Jc", "Qc"]],
        face_up=[["9c", "9d", "9h"], ["3c", "3d", "3h"], ["4s", "4d", "4h"]],
        face_down=[["Kc", "Kd", "Kh"], ["6c", "6d", "6h"], ["7c", "7d", "7h"]],
        finish="play_to_last",
        low_card="none",
    )
    moves: list[tuple[int, dict[str, Any]]] = [
        (0, {"type": "play", "cards": ["5c", "5d", "5h"]}),
        (1, {"type": "play", "cards": ["2s"]}),
        (2, {"type": "play", "cards": ["2c"]}),
        (0, {"type": "play_face_up", "indexes": [0, 1, 2]}),
        (1, {"type": "play", "cards": ["2d"]}),
        (2, {"type": "play", "cards": ["Jc"]}),
        (0, {"type": "play_face_down", "index": 0}),
        (1, {"type": "play", "cards": ["2h"]}),
        (2, {"type": "play", "cards": ["Qc"]}),
        (0, {"type": "play_face_down", "index": 1}),
        (1, {"type": "pick_up"}),
        (2, {"type": "play_face_up", "indexes": [0, 1, 2]}),
    ]
    for seat, action in moves:
        t, _ = play(t, seat, action)
    t, events = play(t, 0, {"type": "play_face_down", "index": 2})
    assert "out" in kinds(events) and game.outcome(t) is None
    assert t.out == (0,) and t.turn == 1 and game.view(t, None)["players"][0]["out"] == 1
    # The last player holding cards loses; the placings run from first out to the loser.
    done = Table(
        **{
            **{f: getattr(t, f) for f in t.__dataclass_fields__},
            "out": (0, 2),
            "phase": "over",
            "reason": "finished",
        }
    )
    result = game.outcome(done)
    assert result is not None and result.placings == ((0,), (2,), (1,))


def _seat_0_down_to_its_last_blind_card(**options: Any) -> Table:
    """Seat 0 has played its hand, its face-up row and two blind cards (K, K); its last blind card
    is an ace; seat 1 has just picked up the pile, so seat 0 leads on an empty one."""
    t = deal(
        [["5c", "5d", "5h"], ["2s", "2d", "2h"]],
        face_up=[["9c", "9d", "9h"], ["3c", "3d", "3h"]],
        face_down=[["Kc", "Kd", "Ac"], ["4c", "4d", "4h"]],
        **options,
    )
    steps: list[tuple[int, dict[str, Any]]] = [
        (0, {"type": "play", "cards": ["5c", "5d", "5h"]}),
        (1, {"type": "play", "cards": ["2s"]}),
        (0, {"type": "play_face_up", "indexes": [0, 1, 2]}),
        (1, {"type": "play", "cards": ["2d"]}),
        (0, {"type": "play_face_down", "index": 0}),
        (1, {"type": "play", "cards": ["2h"]}),
        (0, {"type": "play_face_down", "index": 1}),
        (1, {"type": "pick_up"}),
    ]
    for seat, action in steps:
        t, _ = play(t, seat, action)
    return t


def test_p23_no_going_out_on_an_ace() -> None:
    t = _seat_0_down_to_its_last_blind_card(no_out_on_special=True)
    # The last blind card is an ace: it may not end the game, so it is picked up (our reading).
    t, events = play(t, 0, {"type": "play_face_down", "index": 2})
    assert events[0].data["fits"] is False and t.players[0].hand == ("Ac",) and t.out == ()
    assert t.players[0].known == ("Ac",)
    t, _ = play(t, 1, {"type": "play", "cards": ["2s"]})
    # An ace in hand as the very last card may not be played either: pick up instead.
    assert game.legal_actions(t, 0) == [{"type": "pick_up"}]
    with pytest.raises(IllegalAction) as e:
        game.apply(t, 0, {"type": "play", "cards": ["Ac"]})
    assert e.value.code == "no_out_on_special"


def test_p23_without_the_rule_an_ace_goes_out() -> None:
    t = _seat_0_down_to_its_last_blind_card()
    t, _ = play(t, 0, {"type": "play_face_down", "index": 2})
    assert t.out == (0,) and t.phase == "over"


def test_p25_views_hide_what_each_seat_may_not_see() -> None:
    t = deal(
        [["5c", "6d", "7h"], ["8s", "9d", "Th"]],
        face_up=[["Jc", "Qd", "Kh"], ["Js", "Qs", "Ks"]],
        face_down=[["2c", "3c", "4c"], ["2d", "3d", "4d"]],
        stock=["Ac", "Ad", "Ah"],
        opening="turn_up",
    )
    mine = game.view(t, 0)
    assert mine["hand"] == ["5c", "6d", "7h"] and mine["you"] == 0
    assert mine["players"][1]["hand_size"] == 3 and mine["players"][1]["face_up"] == ["Js", "Qs", "Ks"]
    assert (
        mine["players"][0]["face_down"] == [True, True, True] and mine["players"][0]["face_down_count"] == 3
    )
    assert mine["pile"] == ["Ac"] and mine["stock"] == 2 and mine["burned"] == 0
    assert mine["active"] == "Ac" and mine["turn"] == 0 and mine["phase"] == "play"
    text = str(mine)
    for hidden in ("8s", "9d", "Th", "2c", "3c", "4c", "2d", "Ad", "Ah"):
        assert hidden not in text
    spectator = game.view(t, None)
    assert spectator["hand"] is None and spectator["you"] is None
    assert not ({"5c", "8s"} & _codes(spectator))


def test_p25_picked_up_cards_are_named_in_views() -> None:
    t = deal([["Kc", "4h", "5h"], ["3s", "3d", "2s"]], when_stuck="pick_up")
    t, _ = play(t, 0, {"type": "play", "cards": ["Kc"]})
    t, events = play(t, 1, {"type": "pick_up"})
    assert events[0].data == {"seat": 1, "cards": ["Kc"]} and events[0].audience is None
    assert game.view(t, 0)["players"][1]["known_hand"] == ["Kc"]
    assert visible_cards(t, 0) >= {"Kc"}
    t, _ = play(t, 0, {"type": "play", "cards": ["4h"]})
    t, _ = play(t, 1, {"type": "play", "cards": ["Kc"]})
    assert game.view(t, 0)["players"][1]["known_hand"] == []


def test_p25_stock_and_face_down_never_in_any_view_or_public_event() -> None:
    t = game.new(sheet(), 3, seed="seen")
    secret = set(t.stock) | {c for p in t.players for c in p.face_down if c is not None}
    for seat in (None, 0, 1, 2):
        v = game.view(t, seat)
        assert not (secret & _codes(v))


def _codes(value: object) -> set[str]:
    from tests.games.properties import cards_in

    return cards_in(value)


def test_stalemate_ends_an_endless_game() -> None:
    t = deal(
        [["5c", "6d", "7h"], ["8s", "9d", "Th"]],
        after_pick_up="picker",
        when_stuck="pick_up",
        voluntary_pick_up=True,
        stalemate_moves=50,
    )
    seat = 0
    moves = 0
    while t.phase == "play":
        # The same card goes back and forth: led, picked up, led again by the picker.
        card = "5c"
        t, events = play(t, seat, {"type": "play", "cards": [card]})
        moves += 1
        if t.phase != "play":
            break
        seat = 1 - seat
        t, events = play(t, seat, {"type": "pick_up"})
        moves += 1
    assert moves == 50 and t.reason == "stalemate" and events[-1].type == "game_over"
    result = game.outcome(t)
    assert result is not None and result.reason == "stalemate"
    # Fewer cards place first: seat 0 holds 8 (hand 2 + table 6), seat 1 holds 10 after its pick-up.
    counts = {s: t.players[s].card_count() for s in (0, 1)}
    first = min(counts, key=counts.__getitem__)
    assert result.placings[0] == (first,)


def test_player_fields_count_cards() -> None:
    p = Player(hand=("2c",), face_up=("3c", None, None), face_down=(None, "4c", "5c"))
    assert p.table_count() == 3 and p.card_count() == 4


def test_p23_pass_when_only_a_forbidden_last_card_and_an_empty_pile() -> None:
    t = _seat_0_down_to_its_last_blind_card(no_out_on_special=True)
    steps: list[tuple[int, dict[str, Any]]] = [
        (0, {"type": "play_face_down", "index": 2}),  # the ace may not end the game: picked up
        (1, {"type": "play", "cards": ["2s"]}),
        (0, {"type": "pick_up"}),
        (1, {"type": "play", "cards": ["5c"]}),
        (0, {"type": "play", "cards": ["2s"]}),
        (1, {"type": "pick_up"}),
    ]
    for seat, action in steps:
        t, _ = play(t, seat, action)
    # Seat 0 leads with only the ace left, on an empty pile: nothing to play, nothing to pick up.
    assert t.turn == 0 and t.pile == () and t.players[0].hand == ("Ac",)
    assert game.legal_actions(t, 0) == [{"type": "pass"}]
    assert game.timeout_action(t, 0) == {"type": "pass"}
    t, events = play(t, 0, {"type": "pass"})
    assert kinds(events) == ["passed"] and t.turn == 1


def _progress(t: Table) -> tuple[int, int, int, int]:
    """The stalemate rule's progress as docs/rules/palace.md defines it: the stock, the burned
    cards, the table cards and the seats out (the engine reads it from the move instead)."""
    return len(t.stock), len(t.burned), sum(p.table_count() for p in t.players), len(t.out)


def test_stalemate_count_follows_its_definition_move_by_move() -> None:
    """Over random sheets and games: after every move in play the count is 0 exactly when the
    stock, the burned cards, the table cards or the seats out changed, else one more."""
    rng = random.Random(25)
    checked = 0
    for seed, (s, players) in enumerate(random_sheets(12, 25)):
        t = game.new(s, players, seed=f"stalemate-{seed}")
        for _ in range(600):
            if t.phase == "over":
                break
            seat = rng.choice(game.to_act(t))
            before = t
            t, _ = game.apply(t, seat, rng.choice(game.legal_actions(t, seat)))
            if before.phase == "play" and t.phase == "play":
                progressed = _progress(t) != _progress(before)
                assert t.idle == (0 if progressed else before.idle + 1), (seed, checked)
                checked += 1
    assert checked > 1000
