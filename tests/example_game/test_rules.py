"""High card's rules, one scenario each from a fixed deck (rules.md, E1–E3)."""

from __future__ import annotations

import pytest

from app.games.base import IllegalAction
from tests.example_game.game import DECK, game

# Seat 0 is dealt the even positions, seat 1 the odd ones (E1).
DEALT = ["As", "9h", "Kd", "Ks", "Tc", "Jh", "Qs", "9c", "Jd", "Ts", "9d", "Ah"]


def deck(dealt: list[str] = DEALT) -> list[str]:
    return dealt + [card for card in DECK if card not in dealt]


def play(state, *cards: str):  # type: ignore[no-untyped-def]
    for card in cards:
        (seat,) = game.to_act(state)
        state, _ = game.apply(state, seat, {"type": "play", "card": card})
    return state


def test_e1_each_player_is_dealt_the_hand_size_one_card_at_a_time() -> None:
    state = game.new(game.sheet({"hand_size": 6}), 2, deck=deck())
    assert state.hands == (("As", "Kd", "Tc", "Qs", "Jd", "9d"), ("9h", "Ks", "Jh", "9c", "Ts", "Ah"))
    assert len(state.stock) == 12 and game.view(state, 1)["stock"] == 12
    short = game.new(game.sheet({"hand_size": 3}), 2, deck=deck())
    assert [len(hand) for hand in short.hands] == [3, 3] and len(short.stock) == 18
    with pytest.raises(IllegalAction):
        game.new(game.sheet(), 2, deck=["As"] * 24)


def test_e2_the_higher_rank_takes_the_round_and_leads_the_next() -> None:
    state = game.new(game.sheet(), 2, deck=deck())
    assert game.to_act(state) == [0]
    with pytest.raises(IllegalAction) as refused:
        game.apply(state, 1, {"type": "play", "card": "9h"})
    assert refused.value.code == "not_your_turn"
    state = play(state, "Kd", "Ah")  # the ace beats the king: seat 1 takes it and leads
    assert state.taken == (0, 1) and game.to_act(state) == [1]
    with pytest.raises(IllegalAction) as refused:
        game.apply(state, 1, {"type": "play", "card": "As"})
    assert refused.value.code == "not_in_hand"


def test_e2_equal_ranks_go_to_the_leader_or_to_nobody() -> None:
    for ties_to_leader, taken in ((True, (1, 0)), (False, (0, 0))):
        state = game.new(game.sheet({"ties_to_leader": ties_to_leader}), 2, deck=deck())
        state = play(state, "Kd", "Ks")
        assert state.taken == taken and game.to_act(state) == [0]


def test_e3_more_rounds_taken_wins_and_equal_counts_tie() -> None:
    state = game.new(game.sheet({"hand_size": 3}), 2, deck=deck(["As", "9h", "Kd", "Ks", "Tc", "Jh"]))
    state = play(state, "As", "9h", "Kd", "Ks", "Tc", "Jh")
    outcome = game.outcome(state)
    assert outcome is not None and outcome.placings == ((0,), (1,)) and dict(outcome.scores) == {0: 2, 1: 1}
    tied = game.new(game.sheet({"hand_size": 3, "ties_to_leader": False}), 2,
                    deck=deck(["As", "9h", "Kd", "Ks", "9c", "Jh"]))
    tied = play(tied, "As", "9h", "Kd", "Ks", "9c", "Jh")
    outcome = game.outcome(tied)
    assert outcome is not None and outcome.placings == ((0, 1),)
