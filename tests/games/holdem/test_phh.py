"""PHH export: pokerkit reads our hands back and reaches the same stacks; per-seat exports hide
what the seat never saw."""

from __future__ import annotations

import random

import pytest
from pokerkit import HandHistory

from app.games.base import IllegalAction
from app.games.holdem import HOLDEM
from app.games.holdem.phh import export
from tests.games.holdem.differential import pokerkit_split
from tests.games.holdem.helpers import act, deck_for, table


def random_hand(seed: int, variant: str, players: int) -> object:
    rng = random.Random(seed)
    stacks = [rng.randint(6, 400) for _ in range(players)]
    sheet = HOLDEM.sheet(
        {
            "variant": variant,
            "max_hands": 1,
            "buy_in_min": 1,
            "buy_in_max": 1000,
            "raise_cap": 4,
            "ante_type": rng.choice(["none", "every_player"]),
            "ante": 1,
        }
    )
    s = HOLDEM.new(sheet, players, seed=f"phh-{seed}", button=0, stacks=stacks)
    while s.hand is not None:
        seat = s.hand.actor
        legal = HOLDEM.legal_actions(s, seat)
        move = rng.choice(legal)
        if "min" in move:  # full raises only: pokerkit and the rulebooks agree there
            move = {"type": move["type"], "to": move["min"]}
        s, _ = HOLDEM.apply(s, seat, move)
    return s


@pytest.mark.parametrize("variant", ["no_limit", "fixed_limit", "pot_limit"])
def test_pokerkit_replays_our_exports(variant: str) -> None:
    replayed = 0
    for seed in range(40):
        s = random_hand(seed, variant, 2 + seed % 7)
        rec = s.history[-1]  # type: ignore[attr-defined]
        text = export(s, 1, None, everything=True)  # type: ignore[arg-type]
        history = HandHistory.loads(text)
        final = list(history)[-1]
        ours, theirs = rec["finishing_stacks"], list(final.stacks)
        if ours != theirs:
            # Only pokerkit's odd-chip rule may differ (see differential.py).
            awards = s.last["awards"]  # type: ignore[attr-defined]
            assert pokerkit_split(ours, awards, rec["players"]) == theirs
        else:
            replayed += 1
    assert replayed >= 35


def test_a_seat_export_shows_only_what_the_seat_saw() -> None:
    board = ["2c", "7d", "9s", "Jc", "3h"]
    s = table({"max_hands": 1}, 3, deck=deck_for(["QhQd", "KhKd", "4s5s"], board))
    s = act(s, (0, {"type": "fold"}), (1, {"type": "call"}), (2, {"type": "check"}))
    for _ in range(3):
        s = act(s, (1, {"type": "check"}), (2, {"type": "check"}))
    # Seat 1 showed first and lost; seat 2 showed and won; seat 0 folded.
    mine = export(s, 1, 0)
    assert "4s5s" in mine and "QhQd" in mine and "KhKd" in mine and "????" not in mine.split("actions")[0]
    spectator = export(s, 1, None)
    assert HOLDEM.hands(s) == [1] and HOLDEM.hand_history(s, 1, None) == spectator
    assert "4s5s" not in spectator and spectator.count("????") == 1
    assert "variant = 'NT'" in spectator and "players = ['seat 2', 'seat 3', 'seat 1']" in spectator
    with pytest.raises(IllegalAction) as err:
        export(s, 7, None)
    assert err.value.code == "no_such_hand"


def test_mucked_cards_are_never_exported() -> None:
    board = ["2c", "7d", "9s", "Jc", "3h"]
    s = table({"max_hands": 1}, 3, deck=deck_for(["QhQd", "KhKd", "4s5s"], board))
    s = act(s, (0, {"type": "fold"}), (1, {"type": "call"}), (2, {"type": "check"}))
    for _ in range(2):
        s = act(s, (1, {"type": "check"}), (2, {"type": "check"}))
    s = act(s, (1, {"type": "check"}), (2, {"type": "bet", "to": 2}), (1, {"type": "call"}))
    # Seat 2 (kings) bet and showed first; seat 1's queens were mucked.
    for seat in (None, 0, 2):
        assert "QhQd" not in export(s, 1, seat)
    assert "QhQd" in export(s, 1, 1) and "'p1 sm'" in export(s, 1, 1)  # its own cards, mucked
