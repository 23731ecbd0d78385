"""The check every game's playout path (``<game>.playout``) passes: it agrees with the game contract
move by move."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

from app.games.base import Action, Game


class Disagree(AssertionError):
    """The playout path and the contract differ."""


def same(what: str, ours: Any, fast: Any, where: str) -> None:
    """``what`` is the same on the contract's side (``ours``) and the playout path's (``fast``)."""
    if ours != fast:
        raise Disagree(f"{where}, {what}: contract {ours!r}, playout {fast!r}")


def mostly(keep: Callable[[Action], bool]) -> Callable[[list[Action], random.Random], Action]:
    """A random pick that nine times in ten keeps to the legal moves ``keep`` accepts (when any)."""

    def pick(legal: list[Action], rng: random.Random) -> Action:
        kept = [a for a in legal if keep(a)]
        return rng.choice(kept if kept and rng.random() < 0.9 else legal)

    return pick


def play_both_paths(
    game: Game[Any, Any],
    playout: ModuleType,
    sheets: Mapping[str, tuple[str, dict[str, Any]]],
    name: str,
    players: int | None,
    seed: int,
    pick: Callable[[list[Action], random.Random], Action],
    *,
    moves: int,
    stop: Callable[[Any], bool],
) -> tuple[Any, Any]:
    """Random moves (``pick`` of the legal ones) played along the contract and the playout path at
    once, from a game of the sheet ``sheets[name]`` (preset, options) for ``players`` (``None``:
    the sheet's own count) until ``stop(state)`` or ``moves`` moves: at every step the seats to act
    and each one's legal moves must be the same lists, and after the move the playout's state must
    equal the contract's, field for field (its JSON form). Returns both last states."""
    preset, options = sheets[name]
    rules = game.sheet(options, preset=preset)
    rng = random.Random(seed)
    state = game.new(rules, players or rules.players, seed=f"playout-{name}-{seed}")
    fast = playout.start(state)
    for _ in range(moves):
        if stop(state):
            break
        seats = game.to_act(state)
        assert playout.to_act(fast) == seats
        for seat in seats:
            assert playout.legal(fast, seat) == game.legal_actions(state, seat), (seat, game.dump(state))
        seat = rng.choice(seats)
        action = pick(game.legal_actions(state, seat), rng)
        state, _ = game.apply(state, seat, action)
        fast = playout.play(fast, seat, action)
        assert fast.to_json() == state.to_json(), action
    return state, fast
