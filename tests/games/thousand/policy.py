"""A simple greedy player for long games (full games to 1000 and the benchmark).

Uniformly random players rarely make a contract, so their games drift below zero and may never
reach 1000; this player looks, opens with the compulsory bid and passes, gives its lowest cards,
declares its best marriage, leads high and wins tricks as cheaply as it can. A small share of
moves is uniformly random so that every kind of move still occurs.
"""

from __future__ import annotations

import random
from typing import Any

from app.games.thousand import State, game
from app.games.thousand.rules import POINTS, TRICK_RANK
from app.games.thousand.tricks import trick_winner


def greedy_move(state: State, seat: int, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    if rng.random() < 0.05:
        pick = rng.choice(legal)
        if pick["type"] != "bid" or pick["value"] <= 110:
            return pick
    phase = state.phase
    if phase == "auction":
        for action in legal:
            if action["type"] == "look":
                return action
        if seat != state.turn:
            return legal[0]  # out of turn before the bidding: a redeal or a lottery [T5, T6]
        if state.bid == 0:
            return {"type": "bid", "value": state.sheet.opening_bid}
        return {"type": "pass"}
    if phase == "play":
        declares = [a for a in legal if a.get("declare")]
        if declares:
            return max(declares, key=lambda a: state.sheet.marriage_value(a["card"][1]))
        plays = [a for a in legal if not a.get("declare")]
        if not state.trick:
            return max(plays, key=lambda a: TRICK_RANK[a["card"][0]])
        winning = [a for a in plays if trick_winner([*state.trick, [seat, a["card"]]], state.trump) == seat]
        if winning:
            return min(winning, key=lambda a: TRICK_RANK[a["card"][0]])
        return min(plays, key=lambda a: (POINTS[a["card"][0]], TRICK_RANK[a["card"][0]]))
    default = game.timeout_action(state, seat)
    assert default is not None
    return default
