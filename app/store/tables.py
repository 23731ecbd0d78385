"""The models' tables for SQLAlchemy Core (the queries use Core, not the ORM)."""

from __future__ import annotations

from sqlalchemy import Table

from app.store.models import ChatRow, LogRow, MemberRow, RoomRow, ServerKeyRow, SheetRow, SnapshotRow

rooms: Table = RoomRow.__table__  # type: ignore[assignment]
members: Table = MemberRow.__table__  # type: ignore[assignment]
log: Table = LogRow.__table__  # type: ignore[assignment]
snapshots: Table = SnapshotRow.__table__  # type: ignore[assignment]
sheets: Table = SheetRow.__table__  # type: ignore[assignment]
chat: Table = ChatRow.__table__  # type: ignore[assignment]
server_keys: Table = ServerKeyRow.__table__  # type: ignore[assignment]
