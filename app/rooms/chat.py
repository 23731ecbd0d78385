"""The room's chat: a seated member's line, stored (the owner orders the room's chat, as it does
its moves), acknowledged and sent to every socket."""

from __future__ import annotations

import logging
import time

from app.rooms.core import RoomCore
from app.rooms.entries import dumps
from app.rooms.errors import RoomError
from app.rooms.members import Subscriber, clean_text
from app.store import queries

log = logging.getLogger(__name__)


async def say(room: RoomCore, sub: Subscriber, msg_id: str, text: str) -> None:
    async with room.lock:
        if room.answered(sub, msg_id):
            return
        member = room.member_of(sub)
        if member is None or member.status != "seated":
            return room.refuse(sub, msg_id, RoomError("not_seated", "Only seated players can chat."))
        if room.over_rate(sub, msg_id, chat=True):
            return
        try:
            clean = clean_text(text, room.settings.chat_max_length, "chat")
        except RoomError as refused:
            return room.refuse(sub, msg_id, refused)
        at = round(time.time(), 3)
        try:
            line_id = await queries.add_chat(room.engine, room.id, member.seat, member.name,
                                             clean, at, keep=room.settings.chat_keep)
        except Exception:
            log.exception("chat not stored in room %s", room.id)
            sub.send(dumps(room.error(msg_id, "server_error", "The message could not be stored.")))
            return
        room.answer(sub, msg_id, {"type": "ack", "id": msg_id, "version": room.version})
        await room.announce()
        line = {"type": "chat", "seat": member.seat, "name": member.name, "text": clean, "at": at}
        room.chat.append(line)
        room.chat_id = max(room.chat_id, line_id)
        text_out = dumps(line)
        for other in list(room.subscribers):
            other.send(text_out)
