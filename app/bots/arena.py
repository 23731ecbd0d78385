"""Bots playing whole games against each other, for tests and benchmarks (no server).

A ``Player`` is a function ``(game_name, view, legal, rng) -> action``; ``bot(level)`` makes one
from ``choose`` and ``random_player`` picks any legal move. ``play`` drives one game from a seed:
whenever several seats may act (a swap phase, an out-of-turn move), one of them is picked at
random, as at a real table where nobody knows who will be quicker.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.bots import choose
from app.games.base import Game, RuleSheetBase

Action = dict[str, Any]
Player = Callable[[str, Mapping[str, Any], Sequence[Action], random.Random], Action]


def concrete(action: Action, rng: random.Random) -> Action:
    """A move from a legal action that describes a range (``min``/``max``): a random amount."""
    if "min" not in action:
        return dict(action)
    out = {k: v for k, v in action.items() if k not in ("min", "max")}
    key = "amount" if action["type"] in ("rebuy", "top_up") else "to"
    out[key] = rng.randint(int(action["min"]), int(action["max"]))
    return out


def random_player(
    game_name: str, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
) -> Action:
    return concrete(rng.choice(list(legal)), rng)


def bot(level: str) -> Player:
    def player(
        game_name: str, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        return choose(game_name, view, legal, rng, level)

    return player


@dataclass
class Result:
    state: Any
    moves: int
    # Seconds each decision of a timed seat took.
    timings: list[float] = field(default_factory=list)
    log: list[tuple[int, Action]] = field(default_factory=list)


def play(
    game: Game[Any, Any],
    sheet: RuleSheetBase,
    players: Sequence[Player],
    seed: str,
    *,
    max_moves: int = 20000,
    timed: Sequence[int] = (),
    stop: Callable[[Any], bool] | None = None,
) -> Result:
    """Play one game (or until ``stop(state)``); raises ``AssertionError`` on an illegal move or a stall."""
    rng = random.Random(seed)
    state = game.new(sheet, len(players), seed=seed)
    result = Result(state, 0)
    while game.outcome(state) is None and not (stop is not None and stop(state)):
        if result.moves >= max_moves:
            raise AssertionError(f"{game.name}: no end after {max_moves} moves (seed {seed})")
        seats = [s for s in game.to_act(state) if game.legal_actions(state, s)]
        if not seats:
            raise AssertionError(f"{game.name}: nobody can move (seed {seed})")
        seat = seats[0] if len(seats) == 1 else rng.choice(seats)
        legal = game.legal_actions(state, seat)
        view = game.view(state, seat)
        started = time.perf_counter()
        action = players[seat](game.name, view, legal, rng)
        if seat in timed:
            result.timings.append(time.perf_counter() - started)
        state, _ = game.apply(state, seat, action)  # IllegalAction propagates: a bot's bug
        result.log.append((seat, action))
        result.moves += 1
        result.state = state
    return result
