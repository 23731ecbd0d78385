"""A room's records of the current game for download: the game's own record of its finished deals,
and the verifiable record of the deal (app/rooms/fairness.py, docs/fairness.md)."""

from __future__ import annotations

import asyncio
from typing import Any

from app.rooms.bounds import is_token
from app.rooms.core import RoomCore
from app.rooms.entries import event_json, visible
from app.rooms.errors import RoomError
from app.rooms.fairness import build_record
from app.rooms.members import Member, RoomGone
from app.rooms.tokens import hash_token
from app.store import queries

# A game record holds at most this many log entries (a long table's record is cut short, and says so).
RECORD_MAX_ENTRIES = 20000


async def history(room: RoomCore, token: str | None) -> tuple[str, str]:
    """The game's own record of finished deals for a token's seat (``None``: as a spectator).

    A kicked or refused token is refused. A member who took their seat after the current game's
    deal (a newcomer in a vacated seat) gets the spectator's record: its deals were played, at
    least in part, by the seat's previous holder.
    """
    if room.stranger(token):
        async with room.lock:
            await room.catch_up()  # a newcomer seated a moment ago, through another instance
    seat = record_holder(room, token)[0]
    names = {seat_no: m.name for seat_no, m in room.seated().items()}
    state = room.state  # states are immutable: the walk below may run while the room moves on
    # A long table's record (every hand of a game) is written out in a worker thread: it is pure,
    # and on the event loop it would hold up every room's moves while it is built.
    record = await asyncio.to_thread(room.game.history, state, seat, names) if state is not None else None
    if record is None:
        raise RoomError("no_history", "This room has no game record to download yet.", 404)
    return record


def record_holder(room: RoomCore, token: str | None) -> tuple[int | None, int]:
    """The seat whose record of the current game a token may download (``None``: a spectator's)
    and the version from which it holds the seat; a kicked or refused token is refused."""
    if token is None:
        return None, 0
    member = room.by_token.get(hash_token(token)) if is_token(token) else None
    if member is None or member.status == "gone":
        raise RoomError("bad_token", "That token holds no seat in this room.", 403)
    if member.status == "seated" and not took_over(room, member):
        return member.seat, member.since
    return None, 0


async def record(room: RoomCore, token: str | None) -> tuple[str, dict[str, Any]]:
    """The current game's verifiable record for a token's seat (``None``: as a spectator): the
    sheet, the commitment, the contributions, the seat's dealt view, the events it may see, and,
    once opened or revealed, the shuffle keys and decks and the server seed (fairness.py)."""
    async with room.lock:
        if room.closed:
            raise RoomGone(room.id)
        if room.stranger(token):
            await room.catch_up()  # a newcomer seated a moment ago, through another instance
        seat, since = record_holder(room, token)
        if room.state is None:
            raise RoomError("no_record", "This room has no game record to download yet.", 404)
        entries = await queries.log_range(room.engine, room.id, room.deal_version, limit=RECORD_MAX_ENTRIES)
        deal = entries[0] if entries and entries[0].kind == "deal" else None
        if deal is None or "fair" not in deal.action:
            raise RoomError("no_record", "This game was dealt before deals could be verified.", 404)
        state = room.state  # states are immutable: safe to read after the lock
    events = [event_json(e, row) for e in entries for row in e.events
              if visible(row, seat, e.version, since)]
    # The engine's work (a new deal, every opened shuffle) off the event loop and the lock: it is pure.
    body = await asyncio.to_thread(build_record, room.game, room.sheet, deal, state, seat, events)
    body.update({"room": room.id, "truncated": len(entries) >= RECORD_MAX_ENTRIES})
    if room.fair.signer is not None:
        body["server_key"] = room.fair.signer.public_hex
    return f"{room.game.name}-{room.id}-{deal.game_no}.json", body


def took_over(room: RoomCore, member: Member) -> bool:
    """Whether ``member`` sits in a seat someone else held during the current game (they were
    kicked from it after its deal): that game's record of the seat is not theirs."""
    if member.since <= room.deal_version:
        return False
    return any(other.status == "gone" and other.seat == member.seat and other.since >= room.deal_version
               for other in room.members.values() if other.id != member.id)
