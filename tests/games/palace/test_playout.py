"""The playout path (``palace.playout``) agrees with the game contract move by move.

Random games of every preset and of sheets with the optional rules on are played along both paths
at once: at every step the seats to act and each one's legal moves must be the same, and the table
after the move must equal the contract's (its JSON form).
"""

from __future__ import annotations

from typing import Any

import pytest

from app.games.palace import game, playout
from tests.games.playouts import mostly, play_both_paths

SHEETS: dict[str, tuple[str, dict[str, Any]]] = {
    "hiina-turakas": ("hiina-turakas", {}),
    "china-hand": ("china-hand", {}),
    "palace": ("palace", {}),
    "options": (
        "hiina-turakas",
        {"four_from_hand": True, "cut_in": True, "add_drawn": True, "no_out_on_special": True,
         "when_stuck": "draw_and_pass", "opening": "left_plays_lowest", "twos_low": False, "jokers": 1},
    ),
    "draw-ends": ("hiina-turakas", {"when_stuck": "draw_ends_turn", "ten_burn": "always", "low_card": "9"}),
}


@pytest.mark.parametrize("name", sorted(SHEETS))
@pytest.mark.parametrize("seed", range(3))
def test_playout_path_agrees_with_the_contract_move_by_move(name: str, seed: int) -> None:
    # Mostly moves that keep the game going: drawing and picking up the pile prolong it.
    calm = mostly(lambda a: a["type"] not in ("pick_up", "draw"))
    state, fast = play_both_paths(game, playout, SHEETS, name, 4, seed, calm, moves=3000,
                                  stop=lambda t: game.outcome(t) is not None)
    assert playout.outcome(fast) == game.outcome(state) is not None
