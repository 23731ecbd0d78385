"""Who is in a room: its members, the sockets watching it, and the plain text of their names and chat."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Protocol

from app.rooms.errors import RoomError
from app.rooms.limits import Bucket

NAME_MAX = 40
# The close code of a member's oldest socket when they open one too many.
CLOSE_REPLACED = 4409


class RoomGone(Exception):
    """This room object left memory (idle unload, expiry) while a caller waited for its lock: load
    the room again and retry."""


class Subscriber(Protocol):
    """A connection watching a room (the web layer's socket). ``send`` never blocks."""

    member_id: int | None

    def send(self, text: str) -> None: ...

    def close(self, code: int, reason: str) -> None: ...


@dataclass
class Member:
    id: int
    name: str
    status: str  # seated, pending, gone
    seat: int | None
    wanted_seat: int | None
    token_hash: str
    # The version from which this member holds ``seat``: a seat's private events from before it
    # happened to someone else (or under another deal's seat numbers) and are never theirs.
    since: int = 0
    # Rate limits shared by all of this member's sockets (memory only; made on first use).
    moves: Bucket | None = None
    chats: Bucket | None = None


# The sentences of clean_text's refusals, one per kind of text (a catalogue id each).
EMPTY_TEXT = {"name": "The name is empty.", "chat": "The chat is empty."}
TOO_LONG_TEXT = {"name": "The name is longer than {limit} characters.",
                 "chat": "The chat is longer than {limit} characters."}


def clean_text(value: str, limit: int, what: str) -> str:
    """Plain text for names and chat: control and format characters dropped, whitespace collapsed.

    Clients show it as text (never as HTML), so nothing else needs escaping here.
    """
    text = "".join(" " if ch.isspace() else ch for ch in unicodedata.normalize("NFC", value)
                   if ch.isspace() or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn"))
    text = " ".join(text.split())
    if not text:
        raise RoomError(f"empty_{what}", EMPTY_TEXT[what])
    if len(text) > limit:
        raise RoomError(f"{what}_too_long", TOO_LONG_TEXT[what], limit=limit)
    return text
