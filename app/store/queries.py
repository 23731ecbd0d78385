"""Every query the rooms need, by the names they import: the store is split by table
(``app.store.rooms``, ``members``, ``log_entries``, ``sheets``, ``chat``, ``leases``, ``fair``) and
the commit paths (``app.store.commit``, their rows from ``app.store.commit_rows``); this module
names them all in one place, so callers keep ``queries.<name>`` (and tests may patch it there).
"""

from __future__ import annotations

from app.store.chat import add_chat
from app.store.commit import (
    PG_GROUP_COMMIT,
    VersionConflict,
    append,
    append_in_one_statement_pg,
    append_many,
)
from app.store.commit_rows import CLOCK_FIELDS, DEAL_FIELDS, Commit, CommitRows, commit_rows
from app.store.fair import server_key, store_fair_pending
from app.store.leases import LISTENER_APP, release_leases, renew_leases, take_leases
from app.store.log_entries import (
    LogEntry,
    find_msg,
    game_log,
    game_log_from,
    game_results,
    log_range,
    log_since,
)
from app.store.members import add_member, delete_unused_members, update_member
from app.store.rooms import (
    RoomNews,
    RoomRecord,
    create_room,
    delete_rooms,
    expired_room_ids,
    load_room,
    room_exists,
    room_ids,
    room_news,
    room_news_statements,
    timed_room_ids,
    touch_room,
    update_room,
)
from app.store.sheets import delete_unused_sheets, get_sheet, insert_sheet, list_sheets
from app.store.tables import chat, log, members, rooms, server_keys, sheets, snapshots

__all__ = [
    "CLOCK_FIELDS", "DEAL_FIELDS", "LISTENER_APP", "PG_GROUP_COMMIT",
    "Commit", "CommitRows", "LogEntry", "RoomNews", "RoomRecord", "VersionConflict",
    "add_chat", "add_member", "append", "append_in_one_statement_pg", "append_many", "chat", "commit_rows",
    "create_room", "delete_rooms", "delete_unused_members", "delete_unused_sheets", "expired_room_ids",
    "find_msg", "game_log", "game_log_from", "game_results", "get_sheet", "insert_sheet", "list_sheets",
    "load_room", "log", "log_range", "log_since", "members", "release_leases", "renew_leases", "room_exists",
    "room_ids", "room_news", "room_news_statements", "rooms", "server_key", "server_keys", "sheets",
    "snapshots", "store_fair_pending", "take_leases", "timed_room_ids", "touch_room", "update_member",
    "update_room",
]
