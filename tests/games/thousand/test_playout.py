"""The playout path (``thousand.playout``) agrees with the game contract move by move.

Random deals of every preset and of sheets with the optional rules on are played along both paths
at once: at every step the seats to act and each one's legal moves must be the same lists, and
after the move the playout's state must equal the contract's, field for field (its JSON form).
"""

from __future__ import annotations

from typing import Any

import pytest

from app.games.thousand import game, playout
from tests.games.playouts import mostly, play_both_paths

SHEETS: dict[str, tuple[str, dict[str, Any]]] = {
    "tuhat": ("tuhat", {}),
    "tuhat-4": ("tuhat-4", {}),
    "tuhat-2": ("tuhat-2", {}),
    "tuhat-eesti": ("tuhat-eesti", {}),
    "options": (
        "tuhat",
        {"blind_bidding": True, "nine_lottery": True, "low_hand_redeal": True, "must_beat": True,
         "must_trump": True, "stuck_score": 0, "stuck_bars": "named_tricks"},
    ),
    "keep-talon": ("tuhat", {"talon": "keep", "marriage_when_following": False}),
    "banks": ("tuhat-2", {"two_player_variant": "banks", "marriage_in_first_trick": False}),
}


@pytest.mark.parametrize("name", sorted(SHEETS))
@pytest.mark.parametrize("seed", range(3))
def test_playout_path_agrees_with_the_contract_move_by_move(name: str, seed: int) -> None:
    # Random bids run games far below zero: bids are mostly the lowest ones.
    low_bids = mostly(lambda a: a["type"] != "bid" or a["value"] <= 120)
    state, _ = play_both_paths(game, playout, SHEETS, name, None, seed, low_bids, moves=400,
                               stop=lambda s: game.outcome(s) is not None or s.deals_played >= 3)
    assert state.deals_played >= 1


def test_playout_start_leaves_the_game_state_alone() -> None:
    state = game.new(game.sheet(preset="tuhat"), 3, seed="untouched")
    before = game.dump(state)
    fast = playout.start(state)
    seat = playout.to_act(fast)[0]
    playout.play(fast, seat, playout.legal(fast, seat)[0])
    assert game.dump(state) == before and fast.to_json() != before
