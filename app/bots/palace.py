"""The Palace bot (Hiina turakas, China Hand, Palace).

The view carries no rule sheet, so the bot reads the rules it needs from the legal moves and
treats the cards that are special on some sheet as precious: 2s and jokers (fit anywhere, reset
the pile, P12), 10s (burn, P15) and 8s (transparent on many sheets, P13).

"good":
- swap phase (P3, P4): the three strongest cards go face up (specials first, then aces, kings…);
- plays the lowest ordinary card that fits, all cards of that rank together (P7), and keeps the
  specials until nothing ordinary fits;
- burns when asked (P15: the burner plays again), plays a drawn card when it may (P9);
- cuts in, adds drawn cards and lays down fours whenever it can (P16, P17);
- picks up the pile only when it must;
- where it has a choice of plays, ``GOOD_SAMPLES`` determinized playouts within ``GOOD_BUDGET``
  moves (``app.bots.palace_search``) may overrule the lowest card: they find the play that leaves
  it least likely to be the last holding cards.

"strong": the same playouts, each played to the end of the game within ``STRONG_BUDGET`` moves, and
the face-up choice out of six (P3) searched too (``palace_search.choose_face_up``).

"easy": ready at once, plays a random fitting rank (all its cards of that rank), keeping the
specials back when an ordinary card fits, picks up only when it must, and takes out-of-turn moves
only half the time.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from app.bots import palace_policy, palace_search
from app.bots.memory import Memory

Action = dict[str, Any]

# Determinized playouts per decision of "good" (``app.bots.palace_search``; 0: none), and the moves
# they may play together: the budget bounds a decision's time on any table (a hand grown by pick-ups
# has many options), where a fixed depth would not.
GOOD_SAMPLES = 16
GOOD_BUDGET: int | None = 4000
# The same for "strong" (``palace_search.SAMPLES`` playouts at most).
STRONG_BUDGET: int | None = 40000
# Strong's playouts run to the end of the game and stop dealing once the budget is spent
# (``palace_search.choose``, ``whole``): on the palace sheet's two decks (P2) a playout cut at
# ``palace_search.DEPTH`` ends with a card count that says little about who is last (P22).
STRONG_WHOLE = True
# Strong's face-up choice out of six (P3), searched by whole-game playouts (``palace_search.choose_face_up``).
STRONG_FACE_UP_BUDGET = palace_search.FACE_UP_BUDGET


def choose(view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random, level: str,
           memory: Memory = ()) -> Action:
    if level == "easy":
        return palace_policy.easy_move(view, legal, rng)
    if level == "strong":
        if view.get("phase") == "swap" and any(a["type"] == "lay_face_up" for a in legal):
            return palace_search.choose_face_up(view, legal, rng, memory, STRONG_FACE_UP_BUDGET)
        return palace_search.choose(view, legal, rng, memory, palace_search.SAMPLES, STRONG_BUDGET,
                                    whole=STRONG_WHOLE)
    if GOOD_SAMPLES:
        return palace_search.choose(view, legal, rng, memory, GOOD_SAMPLES, GOOD_BUDGET)
    return palace_policy.good_move(view, legal, rng, memory)


def declines(view: Mapping[str, Any], legal: Sequence[Action], level: str, memory: Memory = ()) -> bool:
    """Out of turn (a cut-in, a drawn card added, a four laid down, P16, P17): see
    ``palace_policy.declines``."""
    return palace_policy.declines(view, legal, level, memory)
