"""High card's bot (``HighCard.bot``): the ``choose``/``declines`` pair of ``app.bots``.

"easy" plays a random card; "good" and "strong" lead their highest card and answer with the lowest
card that takes the round (E2), else with their lowest card.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from app.bots.memory import Memory

RANKS = "9TJQKA"
Action = dict[str, Any]


def _rank(action: Action) -> int:
    return RANKS.index(str(action["card"])[0])


def choose(view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random, level: str,
           memory: Memory = ()) -> Action:
    if level == "easy":
        return rng.choice(list(legal))
    by_rank = sorted(legal, key=lambda a: (_rank(a), a["card"]))
    if not view["table"]:
        return by_rank[-1]
    led = RANKS.index(view["table"][0][0])
    taking = [a for a in by_rank if _rank(a) > led]
    return taking[0] if taking else by_rank[0]


def declines(view: Mapping[str, Any], legal: Sequence[Action], level: str, memory: Memory = ()) -> bool:
    """High card has no moves out of turn: nothing is ever let go."""
    return False
