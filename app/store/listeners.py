"""Which listening sessions hear of a room's changes (``rooms.listeners``, PostgreSQL).

An instance's listening connection (``app.store.notify.Listener``) lists its own session's backend
pid on a room's row once it listens on the room's channel, and takes it off when it stops. The
one-statement commit (``app.store.commit``) notifies a room's channel only when a session other than
its own instance's is listed: PostgreSQL wakes every listening session of the database for each
notifying commit, whatever its channels, so a commit nobody else follows should not notify.

Why no change is missed: a session lists itself only after its ``LISTEN`` took effect, and an
instance reads a room only after its session is listed. Listing updates the room's row, and so does
every commit of a move (its version): the two take the row's lock one after the other. A commit
that takes it second sees the listing (PostgreSQL updates the row's newest version and returns its
``listeners``) and notifies; a commit that took it first is committed before the listing is, so
the copy read after the listing holds it.

A session that ended (its instance stopped, died or reconnected) leaves its pid behind: commits
then notify for nobody until ``forget_ended_sessions`` takes ended pids off (every listening
session runs it now and then). That sweep only ever removes pids whose session had ended when it
began, never one listed since.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.store.room_locks import rooms_locked_in_order

# Rows locked in the order of their ids (``app.store.room_locks``). ``text[]``, not ``varchar[]``:
# asyncpg knows the one and would look the other up in the catalog (three more round trips on the
# listening connection before its first room).
_LIST = (f"WITH {rooms_locked_in_order('$1::text[]')}"
         " UPDATE rooms SET listeners = array_append(coalesce(listeners, '{}'), pg_backend_pid())"
         " WHERE id = ANY(ARRAY(SELECT id FROM k)) AND NOT pg_backend_pid() = ANY(coalesce(listeners, '{}'))")
_UNLIST = ("UPDATE rooms SET listeners = array_remove(listeners, pg_backend_pid())"
           " WHERE id = $1 AND pg_backend_pid() = ANY(listeners)")
# The pids to forget are read from the statement's snapshot, before any row is locked: a session
# listed since (in a row's newer version) is never among them.
_FORGET_ENDED = (
    "WITH live AS MATERIALIZED (SELECT array_agg(pid) AS pids FROM pg_stat_activity),"
    " ended AS MATERIALIZED (SELECT rooms.id, ARRAY(SELECT p FROM unnest(rooms.listeners) AS p"
    " WHERE NOT p = ANY(live.pids)) AS pids FROM rooms, live"
    " WHERE cardinality(rooms.listeners) > 0 AND NOT rooms.listeners <@ live.pids),"
    f" {rooms_locked_in_order('ARRAY(SELECT id FROM ended)')}"
    " UPDATE rooms SET listeners = ARRAY(SELECT p FROM unnest(rooms.listeners) AS p"
    " WHERE NOT p = ANY(ended.pids))"
    " FROM ended WHERE rooms.id = ended.id AND rooms.id = ANY(ARRAY(SELECT id FROM k))")


async def list_session(conn: Any, room_ids: Sequence[str]) -> None:
    """On a listening asyncpg connection: list its session on these rooms (after its ``LISTEN``)."""
    await conn.execute(_LIST, list(room_ids))


async def unlist_session(conn: Any, room_id: str) -> None:
    """On a listening asyncpg connection: take its session off the room (it stopped listening)."""
    await conn.execute(_UNLIST, room_id)


async def forget_ended_sessions(conn: Any) -> int:
    """On an asyncpg connection: take the pids of sessions that have ended off every room; returns
    how many rooms changed."""
    status = await conn.execute(_FORGET_ENDED)
    return int(status.split()[-1])
