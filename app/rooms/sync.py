"""Catching up: a socket's missed events when it attaches, and this instance's copy of a room
brought up to the database (another instance's change, or after a failed commit).
"""

from __future__ import annotations

import logging
from typing import Any

from app.rooms.core import RoomCore
from app.rooms.entries import dumps, event_json, visible
from app.rooms.members import Subscriber
from app.store import queries
from app.store.queries import LogEntry

log = logging.getLogger(__name__)


async def send_catch_up(room: RoomCore, sub: Subscriber, last_version: int | None) -> None:
    """The socket's state message with the events of the current game it has not seen."""
    seat = room.seat_of(sub)
    since = room.since_of(sub)
    events: list[dict[str, Any]] = []
    if room.state is not None and (last_version is None or last_version < room.version):
        after = room.deal_version - 1
        if last_version is not None:
            after = max(last_version, after)
        # Only up to this instance's own version: the database may be ahead (another
        # instance's move whose notification is on its way), and the sync that follows
        # publishes those entries; sending them here too would tell them twice.
        for entry in await queries.log_since(room.engine, room.id, after, through=room.version):
            events.extend(event_json(entry, row) for row in entry.events
                          if visible(row, seat, entry.version, since))
    sub.send(dumps(room.state_message(seat, events)))


async def sync(room: RoomCore) -> None:
    """Another instance changed this room: bring this instance and its sockets up to date."""
    async with room.lock:
        room.sync_wanted = False
        if room.closed:
            return
        await room.catch_up()


async def catch_up(room: RoomCore) -> None:
    """Apply what the database has beyond this instance's memory: the log entries after its
    version (applied one by one, never a reload and replay of the room), the room row, the
    members and new chat lines. Publishes only what changed: the entries' events once, the
    room message if it differs, a welcome for members whose seat or role changed."""
    news = await queries.room_news(room.engine, room.id, room.version, room.chat_id)
    if news is None:
        return
    entries = news.entries
    target = news.room["version"]
    contiguous = [e.version for e in entries] == list(range(room.version + 1, target + 1))
    # Seats as held before the entries, when a deal among them hands them out anew (``take_members``):
    # the entries before it are still told to the members who held the seats then.
    held_before = ({m.id: (m.seat, m.since) for m in room.members.values()
                    if m.status == "seated" and m.seat is not None}
                   if any(e.kind == "deal" for e in entries) else None)
    if target > room.version and not contiguous:
        # Not a contiguous tail (never expected: log entries are never deleted): rebuild.
        await _rebuild(room, entries, held_before)
        return
    before_room = _told(room)
    results = len(room.results or ())
    status = room.status
    before_roles = {m.id: (m.status, m.seat, m.id == room.host_member) for m in room.members.values()}
    room.take_row(news.room)  # the entries may deal under the row's sheet
    try:
        state = _replayed(room, entries)
    except Exception:
        # This copy does not take the entries that follow its version (it was built from a
        # state other than its version's): rebuilt from the database, the entries still told.
        log.exception("room %s: entries %s did not apply to this copy; reloaded", room.id,
                      [e.version for e in entries])
        await _rebuild(room, entries, held_before)
        return
    _apply(room, entries, state)
    room.take_members(news.members)
    changed = {m.id for m in room.members.values()
               if before_roles.get(m.id) != (m.status, m.seat, m.id == room.host_member)}
    _tell_members(room, changed, bool(entries))
    if _told(room) != before_room or len(room.results or ()) != results:
        room.room_changed = True
    if entries:
        room.publish_state(entries, held_before)
    elif room.room_changed:
        room.publish_room()
    _take_chat(room, news.chat)
    if room.status != status:
        room.cluster.status_changed()
    room.arm_timer()


def _told(room: RoomCore) -> tuple[Any, ...]:
    """What a ``room`` message tells of the room row and the members. A move changes none of it,
    so a copy catching up on moves sends no room message, just as the owner sends none after a
    move (``RoomCore.room_changed``); before, every move made elsewhere cost each socket here a
    whole room message, and building the message twice was a third of a catch-up's work."""
    return (room.status, room.capacity, room.approval, room.players, room.game_no, room.deal_version,
            room.host_member, room.sheet_json,
            tuple((m.id, m.name, m.status, m.seat, m.wanted_seat) for m in room.members.values()))


async def _rebuild(room: RoomCore, entries: list[LogEntry],
                   held_before: dict[int, tuple[int, int]] | None) -> None:
    record = await queries.load_room(room.engine, room.id)
    if record is None:
        return
    room.load(record)
    room.publish_room()
    room.publish_state(entries, held_before)
    room.arm_timer()


def _replayed(room: RoomCore, entries: list[LogEntry]) -> Any:
    """The game after another instance's entries (this copy is not changed: a replay may fail)."""
    state = room.state
    for entry in entries:
        state = room.replay(state, entry)
    return state


def _apply(room: RoomCore, entries: list[LogEntry], state: Any) -> None:
    """Another instance's entries taken into this copy: their ``state``, acks and results."""
    for entry in entries:
        if entry.member_id is not None and entry.msg_id is not None:
            # A retry on this instance of a message applied elsewhere gets its ack.
            room.remember((entry.member_id, entry.msg_id),
                          {"type": "ack", "id": entry.msg_id, "version": entry.version})
        if room.results is not None:
            room.results.extend(dict(event.get("data") or {}) for event in entry.events
                                if event.get("type") == "game_result")
    room.state = state
    room.moves_since_snapshot += len(entries)


def _tell_members(room: RoomCore, changed: set[int], entries: bool) -> None:
    """Sockets of members taken out elsewhere close; those whose seat or role changed are welcomed
    anew (with their seat's view, when no entries come to show it)."""
    for sub in list(room.subscribers):
        member = room.member_of(sub)
        if member is not None and member.status == "gone":
            if room.cluster.leave_handed(room.id, member.id):
                continue  # they left: their sockets close after the owner's ack (``left``)
            sub.send(dumps({"type": "kicked"}))
            sub.close(4403, "kicked")
            room.forget(sub)
        elif member is not None and member.id in changed:
            sub.send(dumps(room.welcome_message(sub)))
            if not entries:  # the seat's own view (an approval, the host's table actions)
                sub.send(dumps(room.state_message(room.seat_of(sub), [])))


def _take_chat(room: RoomCore, lines: list[dict[str, Any]]) -> None:
    for line in lines:
        room.chat_id = max(room.chat_id, int(line["id"]))
        said = {"type": "chat", "seat": line["seat"], "name": line["name"], "text": line["text"],
                "at": line["at"]}
        room.chat.append(said)
        text = dumps(said)
        for sub in list(room.subscribers):
            sub.send(text)
