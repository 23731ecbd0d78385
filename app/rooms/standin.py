"""Nobody stalls the table: who is away, when a bot stands in, and the host's answers to an absence.

What every page is told about each seat (in the ``room`` message, see docs/protocol.md):

- ``connected``: a socket of the seat's person is open on some instance;
- ``takeover_in``: for a person away from a running game, the seconds from this message's making
  until a bot stands in (``None``: no countdown — connected, a bot's seat, already stood in for, or
  the sheet's ``bot_takeover_seconds`` is 0). Seconds left rather than a moment, so a browser whose
  clock differs from the server's counts down from when the message arrived;
- ``stand_in``: a bot plays the person's seat now (until they return);
- ``takes_over``: a newcomer taking this seat takes over its cards in the running game (a vacated
  seat, or a bot's);
- ``skip``: the seat's turn waits for nobody who is here (a person away, or a vacated seat) and the
  game has a default move for it, which the host may make (``skip``).

The host's operations over the socket, beside ``add_bot`` (a bot in any free seat, a vacated one
of a running game included, see app/rooms/bots.py):

- ``stand_in``: a bot plays an away person's seat from now on, without waiting for the countdown
  (handed back when they return, as after the countdown);
- ``skip``: the game's own ``timeout_action`` for an away or vacated seat whose turn it is, logged
  with the kind ``skip`` (its events say ``"skipped": true``).

Each refusal raises ``RoomError`` with a stable code (documented in docs/protocol.md).
"""

from __future__ import annotations

import time
from typing import Any

from app.games.base import IllegalAction
from app.rooms import bot_seats as room_bots
from app.rooms import pipeline
from app.rooms.core import RoomCore
from app.rooms.entries import SKIP
from app.rooms.errors import RoomError
from app.rooms.members import Member
from app.store.queries import LogEntry


def running(room: RoomCore) -> bool:
    return (room.status == "playing" and room.state is not None
            and room.game.outcome(room.state) is None)


def _deal_seats(room: RoomCore) -> int:
    return room.game.seat_count(room.state) if room.state is not None else room.players


def away(room: RoomCore, seat: int, connected: set[int]) -> bool:
    """The seat's turn would wait for nobody here: a person with no socket open, or nobody at all
    (a vacated seat of the deal). A bot's seat is never away: it plays by itself."""
    member = room.seated().get(seat)
    if member is None:
        return seat < _deal_seats(room) and not room_bots.seat_open(room, seat)
    return room_bots.bot_level(member) is None and member.id not in connected


def skippable(room: RoomCore) -> frozenset[int]:
    """The seats whose turn it is, that nobody here plays, and that the game has a default move for."""
    if not running(room):
        return frozenset()
    connected = room.connected_members()
    waiting = [seat for seat in room.game.turn_seats(room.state) if away(room, seat, connected)]
    if not waiting:
        return frozenset()  # the common case, after every move: everyone to act is here
    stand_ins = room.bots.stand_ins()
    return frozenset(seat for seat in waiting if seat not in stand_ins
                     and room.game.timeout_action(room.state, seat) is not None)


def seat_fields(room: RoomCore, seats: list[dict[str, Any]]) -> None:
    """Adds ``takeover_in``, ``takes_over`` and ``skip`` to the ``room`` message's seat entries."""
    play = running(room)
    now = time.time()
    taken = room.seated()
    skip = room.bots.skippable = skippable(room)
    deal = _deal_seats(room) if play else 0
    for entry in seats:
        seat = entry["seat"]
        member = taken.get(seat)
        entry["takeover_in"] = None
        if play and member is not None and not entry["connected"] and not entry["stand_in"]:
            start = room.bots.takeover_at(member)
            if start is not None:
                entry["takeover_in"] = round(max(0.0, start - now), 1)
        is_bot = room_bots.bot_level(member) is not None
        entry["takes_over"] = (play and seat < deal and (member is None or is_bot)
                               and not room_bots.seat_open(room, seat))
        entry["skip"] = seat in skip


def skip_changed(room: RoomCore) -> bool:
    """Whether the seats the host may skip differ from what the last ``room`` message said (then
    it is sent again after a move: the host's Skip button follows the turn)."""
    return skippable(room) != room.bots.skippable


# -- the host's operations ------------------------------------------------------------------------


def _seat_of_running_game(room: RoomCore, args: dict[str, Any]) -> int:
    """The seat a host operation names, refused unless a game is being played."""
    seat = args.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise RoomError("bad_message", "Name a seat by its number.")
    if not running(room):
        raise RoomError("not_playing", "No game is being played.")
    return seat


def _person_away(room: RoomCore, args: dict[str, Any]) -> tuple[int, Member]:
    seat = _seat_of_running_game(room, args)
    member = room.seated().get(seat)
    if member is None:
        raise RoomError("empty_seat", "Nobody sits in that seat.")
    if room_bots.bot_level(member) is not None:
        raise RoomError("bot_plays", "A bot plays that seat already.")
    if member.id in room.connected_members():
        raise RoomError("player_connected", "That player is at the table: they play their own seat.")
    return seat, member


async def stand_in(room: RoomCore, args: dict[str, Any]) -> None:
    """A bot plays an away person's seat from now on (until they return)."""
    seat, member = _person_away(room, args)
    if seat in room.bots.stand_ins():
        raise RoomError("stand_in_already", "A bot already plays that seat until its player returns.")
    room.bots.stand_in_now(member)


async def skip(room: RoomCore, args: dict[str, Any]) -> list[LogEntry]:
    """The game's default move (``timeout_action``) for an away or vacated seat whose turn it is."""
    seat = _seat_of_running_game(room, args)
    member = room.seated().get(seat)
    if member is not None and room_bots.bot_level(member) is not None:
        raise RoomError("bot_plays", "A bot plays that seat already.")
    if not away(room, seat, room.connected_members()):
        if member is None:
            raise RoomError("empty_seat", "That seat is not in this game.")
        raise RoomError("player_connected", "That player is at the table: they play their own seat.")
    if seat in room.bots.stand_ins():
        raise RoomError("stand_in_already", "A bot already plays that seat until its player returns.")
    turn = pipeline.Turn(room)
    if seat not in room.game.turn_seats(turn.state):
        raise RoomError("not_their_turn", "Only a seat whose turn it is can be skipped.")
    action = room.game.timeout_action(turn.state, seat)
    if action is None:
        raise RoomError("no_default_move", "The game has no move to make for that seat now.")
    try:
        turn.move(SKIP, seat, dict(action))
    except IllegalAction as refused:
        raise RoomError("no_default_move", "The game has no move to make for that seat now.") from refused
    entries = turn.autos()
    await pipeline.commit(room, entries, turn.state)
    return entries
