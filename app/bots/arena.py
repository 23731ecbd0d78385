"""Bots playing whole games against each other, for tests and benchmarks (no server).

A ``Player`` is a function ``(game_name, view, legal, rng, memory, optional) -> action or None``:
``memory`` is what its seat was shown since the deal began (``app.bots.memory``), ``optional``
says the table does not wait for the seat (``Game.turn_seats``), and then ``None`` declines the
move. ``bot(level)`` makes one from ``choose``/``wants`` and ``random_player`` picks any legal move.
``play`` drives one game from a seed: whenever several seats may act (a swap phase, an
out-of-turn move), they are asked in a random order, as at a real table where nobody knows who
will be quicker, and the first that moves does.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from app.bots import choose, wants
from app.bots.memory import Memory, Recall
from app.games.base import Game, RuleSheetBase

Action = dict[str, Any]


class Player(Protocol):
    def __call__(self, game_name: str, view: Mapping[str, Any], legal: Sequence[Action],
                 rng: random.Random, memory: Memory = (), optional: bool = False) -> Action | None: ...


def concrete(action: Action, rng: random.Random) -> Action:
    """A move from a legal action that describes a range (``min``/``max``): a random amount."""
    if "min" not in action:
        return dict(action)
    out = {k: v for k, v in action.items() if k not in ("min", "max")}
    key = "amount" if action["type"] in ("rebuy", "top_up") else "to"
    out[key] = rng.randint(int(action["min"]), int(action["max"]))
    return out


def random_player(game_name: str, view: Mapping[str, Any], legal: Sequence[Action],
                  rng: random.Random, memory: Memory = (), optional: bool = False) -> Action:
    return concrete(rng.choice(list(legal)), rng)


def bot(level: str) -> Player:
    def player(game_name: str, view: Mapping[str, Any], legal: Sequence[Action],
               rng: random.Random, memory: Memory = (), optional: bool = False) -> Action | None:
        if optional:
            return wants(game_name, view, legal, rng, level, memory)
        return choose(game_name, view, legal, rng, level, memory)

    return player


@dataclass
class Result:
    state: Any
    moves: int
    # Seconds each decision of a timed seat took: on the wall clock, and on this thread's CPU (what
    # the decision itself costs, whatever else the machine runs).
    timings: list[float] = field(default_factory=list)
    cpu_timings: list[float] = field(default_factory=list)
    log: list[tuple[int, Action]] = field(default_factory=list)
    # Moves a seat let go (``None`` to an optional move), by seat.
    declined: dict[int, int] = field(default_factory=dict)


def play(
    game: Game[Any, Any],
    sheet: RuleSheetBase,
    players: Sequence[Player],
    seed: str,
    *,
    max_moves: int = 20000,
    timed: Sequence[int] = (),
    stop: Callable[[Any], bool] | None = None,
    deck: Sequence[str] | None = None,
) -> Result:
    """Play one game (or until ``stop(state)``); raises ``AssertionError`` on an illegal move or a stall."""
    rng = random.Random(seed)
    state = game.new(sheet, len(players), seed=seed, deck=deck)
    memories = [Recall(game.name) for _ in players]
    result = Result(state, 0)
    while game.outcome(state) is None and not (stop is not None and stop(state)):
        if result.moves >= max_moves:
            raise AssertionError(f"{game.name}: no end after {max_moves} moves (seed {seed})")
        seats = [s for s in game.to_act(state) if game.legal_actions(state, s)]
        if not seats:
            raise AssertionError(f"{game.name}: nobody can move (seed {seed})")
        waited = set(game.turn_seats(state))
        rng.shuffle(seats)
        chosen: tuple[int, Action] | None = None
        for seat in seats:
            legal = game.legal_actions(state, seat)
            view = game.view(state, seat)
            optional = seat not in waited
            started, cpu_started = time.perf_counter(), time.thread_time()
            action = players[seat](game.name, view, legal, rng, memories[seat].events, optional)
            if seat in timed:
                result.timings.append(time.perf_counter() - started)
                result.cpu_timings.append(time.thread_time() - cpu_started)
            if action is None:
                if not optional:
                    raise AssertionError(f"{game.name}: seat {seat} declined a move the table waits for")
                result.declined[seat] = result.declined.get(seat, 0) + 1
                continue
            chosen = (seat, action)
            break
        if chosen is None:
            raise AssertionError(f"{game.name}: every seat declined (seed {seed})")
        seat, action = chosen
        state, events = game.apply(state, seat, action)  # IllegalAction propagates: a bot's bug
        for index, memory in enumerate(memories):
            memory.extend(e.to_json() for e in events if e.visible_to(index))
        result.log.append((seat, action))
        result.moves += 1
        result.state = state
    return result
