"""Who is where: sockets attaching to and leaving a room, other instances' word on the sockets open
there, the owner's word on the next deal's commitment, and the ``room`` message that tells every
page who sits, who is connected and what the next deal is committed to (docs/protocol.md).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from app.rooms import standin, sync
from app.rooms.bot_seats import bot_level
from app.rooms.bounds import is_token
from app.rooms.core import RoomCore
from app.rooms.entries import dumps
from app.rooms.errors import RoomError
from app.rooms.members import CLOSE_REPLACED, RoomGone, Subscriber
from app.rooms.tokens import hash_token
from app.store import queries


def room_message(room: RoomCore, for_host: bool) -> dict[str, Any]:
    connected = room.connected_seats()
    host = room.host_seat()
    taken = room.seated()
    free = set(room.free_seats())
    # One entry per seat, empty ones too, so a join form can offer the free ones.
    stand_ins = room.bots.stand_ins()
    # A bot's seat is free for a person to take (the bot then leaves).
    seats = [{"seat": seat, "name": taken[seat].name if seat in taken else None,
              "connected": seat in connected, "host": seat == host,
              "free": seat in free or bot_level(taken.get(seat)) is not None,
              "bot": bot_level(taken.get(seat)), "stand_in": seat in stand_ins}
             for seat in range(max(room.capacity, room.players))]
    standin.seat_fields(room, seats)  # countdowns, seats to take over or skip
    pending = [{"request": m.id, "name": m.name, "seat": m.wanted_seat}
               for m in room.members.values() if m.status == "pending"] if for_host else []
    spectators = room.spectator_count()
    return {"type": "room", "room": room.id, "game": room.game.name, "status": room.status,
            "capacity": room.capacity, "players": room.players, "version": room.version,
            "game_no": room.game_no, "approval": room.approval, "sheet": room.sheet_json,
            "seats": seats, "spectators": spectators, "pending": pending,
            "results": list(room.results or []),
            "fair": fair_announcement(room, {seat: m.id for seat, m in taken.items()})}


def fair_announcement(room: RoomCore, seats: Mapping[int, int]) -> dict[str, Any]:
    """The next deal's commitment and the seats that contributed to it: this instance's own
    round when it runs the room, else the owner's (contributions are handed to the owner)."""
    shared = room.remote_fair
    if shared is not None and not room.owns():
        given, hashed = set(shared["members"]), set(shared.get("hashed") or [])
        return {"commitment": shared["commitment"],
                "signature": room.fair.commitment_signature(shared["commitment"]),
                "hashed": sorted(seat for seat, member in seats.items() if member in hashed),
                "sealed": bool(shared.get("sealed")),
                "contributed": sorted(seat for seat, member in seats.items() if member in given)}
    return room.fair.announce(seats)


def fair_heard(room: RoomCore, shared: Any) -> None:
    """The owner's word on the next deal's commitment (``RoomCore.share_fair``)."""
    if (room.owns() or not isinstance(shared, dict) or not isinstance(shared.get("commitment"), str)
            or not isinstance(shared.get("members"), list)):
        return
    room.remote_fair = {"commitment": shared["commitment"],
                        "members": [m for m in shared["members"] if isinstance(m, int)],
                        "hashed": [m for m in shared.get("hashed") or [] if isinstance(m, int)],
                        "sealed": bool(shared.get("sealed"))}
    room.publish_room()


def remote_presence(room: RoomCore, instance: str, members: frozenset[int], now: float) -> None:
    """Another instance's word on which members have sockets open there in this room."""
    before = room.remote.get(instance)
    if members:
        room.remote[instance] = (members, now)
    else:
        room.remote.pop(instance, None)
    if (before[0] if before is not None else frozenset()) != members:
        room.bots.note_connections()
        room.fair_shared = None  # a newcomer there hears the owner's commitment
        room.publish_room()


def expire_presence(room: RoomCore, cutoff: float) -> None:
    """Forget the presence of instances not heard from since ``cutoff`` (they died)."""
    stale = [instance for instance, (_, heard) in room.remote.items() if heard < cutoff]
    for instance in stale:
        del room.remote[instance]
    if stale:
        room.bots.note_connections()
        room.publish_room()


def _authenticate(room: RoomCore, sub: Subscriber, token: str | None) -> None:
    """The socket's member by its token (``None``: a spectator, while there is room for one)."""
    if token is not None:
        member = room.by_token.get(hash_token(token)) if is_token(token) else None
        if member is None:
            raise RoomError("bad_token", "This token does not belong to this room.", 403)
        if member.status == "gone":
            raise RoomError("bad_token", "This token is no longer valid: the host removed it.", 403)
        sub.member_id = member.id
    else:
        sub.member_id = None
        if room.spectator_count() >= room.settings.max_spectators:
            raise RoomError("room_full", "Too many spectators are watching this room.", 403)


async def attach(room: RoomCore, sub: Subscriber, token: str | None, last_version: int | None) -> None:
    """Authenticate and subscribe; sends welcome, room, state (with missed events) and chat."""
    async with room.lock:
        if room.closed:
            raise RoomGone(room.id)
        if room.stranger(token):
            # The database decides before the token is refused: a newcomer's socket then gets its
            # seat's events like every other.
            await room.catch_up()
        _authenticate(room, sub, token)
        if sub.member_id is not None:
            _make_room_for(room, sub.member_id)
        if room.results is None:
            room.results = await queries.game_results(room.engine, room.id)
        sub.send(dumps(room.welcome_message(sub)))
        room.subscribers.add(sub)
        room.attach_count += 1
        room.attached[sub] = room.attach_count
        room.cluster.presence_changed(room.id)
        room.bots.note_connections()  # a returning player takes the seat back from its bot
        if not room.owns():
            room.spawn(room.cluster.want(room.id, room.lease_owner))
        await sync.send_catch_up(room, sub, last_version)
        for line in room.chat:
            sub.send(dumps(line))
        if sub.member_id is None:
            sub.send(dumps(room.room_message(False)))
            spectators_changed(room)
        else:
            room.publish_room()


def _make_room_for(room: RoomCore, member_id: int) -> None:
    """A member may hold ``max_sockets_per_member`` sockets: the oldest ones beyond go."""
    mine = sorted((s for s in room.subscribers if s.member_id == member_id),
                  key=lambda s: room.attached.get(s, 0))
    excess = len(mine) + 1 - room.settings.max_sockets_per_member
    for old in mine[:max(0, excess)]:
        old.send(dumps(room.error(None, "too_many_sockets",
                                  "This seat opened a newer connection; this one is closed.")))
        old.close(CLOSE_REPLACED, "replaced by a newer connection")
        room.forget(old)


async def detach(room: RoomCore, sub: Subscriber) -> None:
    async with room.lock:
        if sub in room.subscribers:
            room.forget(sub)
            room.bots.note_connections()
            if sub.member_id is None:
                spectators_changed(room)
            else:
                room.publish_room()


def spectators_changed(room: RoomCore) -> None:
    """A watcher without a token came or went: nothing but the watcher count changed. The room
    hears the new count at most once a ``spectator_count_seconds``, as a small ``spectators``
    message, so a crowd filling a room costs each socket a few small frames rather than a whole
    room message per newcomer (which made filling a room quadratic in its sockets)."""
    if room.spectators_due is None:
        room.spectators_due = asyncio.get_running_loop().call_later(
            room.settings.spectator_count_seconds, _tell_spectators, room)


def _tell_spectators(room: RoomCore) -> None:
    room.spectators_due = None
    count = room.spectator_count()
    if room.closed or count == room.spectators_told:
        return
    room.spectators_told = count
    text = dumps({"type": "spectators", "count": count})
    for sub in list(room.subscribers):
        sub.send(text)


def idle(room: RoomCore, now: float, after: float) -> bool:
    """No socket for ``after`` seconds and no timer to fire: the room may leave memory."""
    return not room.subscribers and room.timer is None and now - room.idle_since >= after


