"""The playout path of Palace: a whole game on a changeable record, for searching bots.

A bot that searches (determinized playouts) plays many moves and needs no views, events or new
tables. ``record.Record`` is one game by the same rules as the game contract (the deal's swap
phase P3-P4, the opening P5, plays P7-P23 with every option of the sheet, the stalemate count),
kept in plain lists of small ints that each move changes in place. Every game's playout path has
the same surface (``holdem.playout``, ``thousand.playout``)::

    state = playout.start(table)               # the table copied: the table stays untouched
    while not playout.over(state, table):
        seat = playout.to_act(state)[0]
        state = playout.play(state, seat, choose(playout.legal(state, seat)))

``legal`` lists exactly what the contract lists (``listing.listed``: the same dicts, in the same
order), sharing the dicts between listings (and the swap phase's lists), and ``to_act`` shares its
lists, so the caller must not change them. A listed play's ``cards`` is a ``record.Cards`` (a
list equal to the contract's) that carries the group it takes from the hand. ``play`` changes
the record in place and returns it; it takes the move unchecked, so it must be one ``legal``
listed. ``over`` also reads a contract table (a bench runs the same games through both).
``record.to_json`` is the contract's JSON form of the table, and ``outcome`` the contract's
placings. ``tests/games/palace/test_playout.py`` plays random games of every preset and of
option-heavy sheets along both paths and compares, after every move, the seats to act, every
seat's legal moves and the whole table.

A record holds every hand, the face-down cards and the stock: ``start(table)`` copies them from
the table it is given, so a bot starts it from a table whose hidden cards it dealt itself at
random (determinized from its own view), never from the room's table.
"""

from __future__ import annotations

from app.games.base import Outcome
from app.games.palace import engine
from app.games.palace.record import Record, from_table
from app.games.palace.record_listing import legal, to_act
from app.games.palace.record_moves import play
from app.games.palace.table import Table


def start(t: Table) -> Record:
    """The record a playout starts from: the table ``t`` copied (``t`` stays as it is)."""
    return from_table(t)


def over(r: Record | Table, first: Table) -> bool:
    """Whether the playout from ``first`` has ended: the game is over (on either path)."""
    return r.phase == "over"


def outcome(r: Record) -> Outcome | None:
    """The contract's placings (``engine.outcome``) once the game is over."""
    return engine.outcome(r.table()) if r.phase == "over" else None


__all__ = ["Record", "legal", "outcome", "over", "play", "start", "to_act"]
