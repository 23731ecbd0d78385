"""The playout path of Palace: the same rules as the game contract, for searching bots.

A bot that searches (determinized playouts) needs many moves and no views or events. Every
game's playout path has the same surface (``thousand.playout`` too)::

    state = playout.start(game_state)
    while not playout.over(state, game_state):
        seat = playout.to_act(state)[0]
        state = playout.play(state, seat, choose(playout.legal(state, seat)))

``legal`` is the contract's own listing (``listing.listed``, remembered per table) handed out
without a copy: the caller must not change it. ``play`` runs the contract's own move
(``engine.perform``: the handlers, the refill, burns, the stalemate count) but skips ``check``
and builds no events, so it takes only a move ``legal`` listed. Tables stay immutable, so
``start`` is the table itself and a search may keep any table it passed through.
``tests/games/palace/test_playout.py`` plays random games along both paths and compares the legal
moves and the tables after every move.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import Outcome
from app.games.palace import engine
from app.games.palace.listing import listed as legal
from app.games.palace.listing import to_act
from app.games.palace.table import Table


def start(t: Table) -> Table:
    """The table a playout starts from: the table itself (tables never change)."""
    return t


def play(t: Table, seat: int, action: Mapping[str, Any]) -> Table:
    """The table after a move ``legal`` listed (unchecked: a bot's own search)."""
    return engine.perform(t, seat, action, None)


def over(t: Table, first: Table) -> bool:
    """Whether the playout from ``first`` has ended: the game is over."""
    return t.phase == "over"


def outcome(t: Table) -> Outcome | None:
    return engine.outcome(t) if t.phase == "over" else None


__all__ = ["legal", "outcome", "over", "play", "start", "to_act"]
