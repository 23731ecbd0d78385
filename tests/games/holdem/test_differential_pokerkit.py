"""Our engine against pokerkit, in lock step, on thousands of seeded random hands.

The default run plays ``HOLDEM_DIFF_HANDS`` hands (1200 unless set); CI may set more. Every
departure of pokerkit from the rulebooks is counted by name in ``differential.Departures``.
"""

from __future__ import annotations

import os

import pytest

from tests.games.holdem.differential import Tally, run_hand

HANDS = int(os.environ.get("HOLDEM_DIFF_HANDS", "1200"))
CHUNKS = 6


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_lock_step_with_pokerkit(chunk: int) -> None:
    tally = Tally()
    for seed in range(chunk, HANDS, CHUNKS):
        run_hand(seed, tally)
    assert tally.hands == len(range(chunk, HANDS, CHUNKS))
    assert tally.steps > tally.hands  # real decisions were compared, not only deals
