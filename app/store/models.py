"""The schema. Alembic owns it (``migrations/``); these models are its source for autogenerate.

- ``sheets``: saved rule sheets, one row per version (a room copies its sheet, so later edits never
  reach it: P24).
- ``rooms``: one row per room with its locked sheet and the state ``version``; every move updates it
  with ``WHERE version = expected`` so two writers can never both apply a move at one version; the
  turn timer's deadline, turn start and time banks live there too, written with every move; with
  PostgreSQL, the listening sessions that hear of its changes (``listeners``).
- ``members``: the people of a room (seated, pending approval); tokens are stored as SHA-256 hashes.
- ``log``: the append-only action log; one row per version (deals, moves, timeouts) with the events
  and who may see them. ``(room_id, member_id, msg_id)`` is unique, so a client's message is applied once.
- ``snapshots``: the full game state at some versions (every deal, every N moves).
- ``chat``: the room chat.
- ``server_keys``: the server's Ed25519 signing key for fair deals (one row, made at first start).
- ``instances``: each instance's heartbeat (PostgreSQL): the leases of its rooms hold while it does.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Index, Integer, String, Text, func
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class SheetRow(Base):
    __tablename__ = "sheets"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(32), index=True)
    name: Mapped[str] = mapped_column(String(80))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    # SHA-256 of the edit token given to whoever saved the sheet (null: nobody may change it).
    edit_hash: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class RoomRow(Base):
    __tablename__ = "rooms"
    __table_args__ = (Index("ix_rooms_status_active", "status", "active_at"),)

    id: Mapped[str] = mapped_column(String(43), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    sheet: Mapped[dict[str, Any]] = mapped_column(JSON)
    sheet_id: Mapped[str | None] = mapped_column(String(32))
    sheet_version: Mapped[int | None] = mapped_column(Integer)
    capacity: Mapped[int] = mapped_column(Integer)
    approval: Mapped[bool] = mapped_column(Boolean, default=False)
    # lobby (no deal yet), playing, finished (the last game has an outcome)
    status: Mapped[str] = mapped_column(String(16), index=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    game_no: Mapped[int] = mapped_column(Integer, default=0)
    players: Mapped[int] = mapped_column(Integer, default=0)
    # The version of the current game's deal: its log starts there.
    deal_version: Mapped[int] = mapped_column(Integer, default=0)
    host_member: Mapped[int | None] = mapped_column(Integer)
    # The turn timer's deadline (Unix seconds) for the seats to act; None without a timer.
    deadline: Mapped[float | None] = mapped_column(Float)
    # When the current turn started (Unix seconds) and each seat's time bank left ({"0": 12.5}):
    # the bank extends a lone seat's deadline and shrinks by what it used past the turn timer.
    turn_start: Mapped[float | None] = mapped_column(Float)
    banks: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # When the room last changed status or membership (Unix seconds): lobbies and finished rooms
    # idle for longer than their retention are deleted.
    active_at: Mapped[float | None] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    # The lease of the instance that runs the room (PostgreSQL with several instances): its owner
    # and an epoch every new owner raises (commits name it, so a stale owner's write is refused).
    # It holds while the owner's heartbeat does (``InstanceRow``).
    lease_owner: Mapped[str | None] = mapped_column(String(32))
    lease_epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # The next deal's fair round (server seed, nonce, commitment, contributions by member id; see
    # app/rooms/fairness.py): kept here so that a restart never draws another one silently.
    fair_pending: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # PostgreSQL: the listening sessions (backend pids) of the instances that hold a copy of the
    # room and hear of its changes (``app/store/listeners.py``). A commit notifies the room's
    # channel only when a session other than its own instance's is listed: with a proxy that sends
    # each room to one instance, most commits wake no other session. Unused with SQLite.
    listeners: Mapped[list[int] | None] = mapped_column(ARRAY(Integer).with_variant(JSON(), "sqlite"))


class MemberRow(Base):
    __tablename__ = "members"
    __table_args__ = (Index("ix_members_room_seat", "room_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(40))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    # seated, pending (waits for the host) or gone (kicked / refused)
    status: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer)
    wanted_seat: Mapped[int | None] = mapped_column(Integer)
    # The version from which this member holds ``seat``: private events before it are not theirs.
    seat_since: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class LogRow(Base):
    __tablename__ = "log"
    __table_args__ = (Index("ix_log_msg", "room_id", "member_id", "msg_id", unique=True),)

    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_no: Mapped[int] = mapped_column(Integer)
    # deal, move or timeout
    kind: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    # [{"type", "data", "audience"}]: audience null is everyone, a list is those seats only.
    events: Mapped[list[Any]] = mapped_column(JSON)
    member_id: Mapped[int | None] = mapped_column(Integer)
    msg_id: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class SnapshotRow(Base):
    __tablename__ = "snapshots"

    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_no: Mapped[int] = mapped_column(Integer)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)


class ChatRow(Base):
    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int | None] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)


class InstanceRow(Base):
    """An instance's heartbeat (PostgreSQL): the rooms it owns stay its own while ``alive_until``
    (Unix seconds by the database's clock) has not passed. One row an instance renews, whatever
    the number of its rooms (app/store/leases.py)."""

    __tablename__ = "instances"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    alive_until: Mapped[float] = mapped_column(Float)


class ServerKeyRow(Base):
    """The Ed25519 key that signs commitments and sealed rounds (docs/fairness.md): one row,
    made at the first start; every instance sharing the database signs with it."""

    __tablename__ = "server_keys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    private_key: Mapped[str] = mapped_column(String(64))
    public_key: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
