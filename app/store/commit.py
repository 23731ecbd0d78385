"""Storing rooms' changes: the only way a room's game moves on, so a move is durable before anyone
hears of it.

Three paths, all writing the rows of ``commit_rows`` (one builder, so they store the same rows):

- ``append``: one room's change inside the caller's transaction: it checks the room's version (and
  lease epoch), appends the log entries, updates the room row (and the members' seats at a deal)
  and stores a snapshot;
- ``append_many``: several rooms' changes in the caller's one transaction (group commit); plain
  moves share one statement per table, the rest go one by one as in ``append``;
- ``append_in_one_statement_pg``: PostgreSQL, moves and deals of many rooms in one statement (its
  own transaction) on an asyncpg connection, announced to the other instances.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Integer, bindparam, delete, insert, text, update
from sqlalchemy.ext.asyncio import AsyncConnection

from app import json_codec
from app.store.commit_rows import (
    LOG_COLUMNS,
    PLAIN_ROOM_COLUMNS,
    SEAT_COLUMNS,
    SNAPSHOT_COLUMNS,
    Commit,
    CommitRows,
    as_dicts,
    commit_rows,
    pg_arrays,
    pg_room_arrays,
)
from app.store.log_entries import LogEntry
from app.store.room_locks import rooms_locked_in_order
from app.store.tables import log, members, rooms, snapshots


class VersionConflict(Exception):
    """The room row's version was not the expected one: another writer moved first."""


_EPOCH = bindparam("b_epoch", type_=Integer)
# Plain moves of a batch, where the driver counts an executemany's rows (SQLite): the SET columns
# come from each parameter set's keys (``PLAIN_ROOM_COLUMNS``).
_BATCH_UPDATE = update(rooms).where(
    rooms.c.id == bindparam("b_id"), rooms.c.version == bindparam("b_expected"),
    _EPOCH.is_(None) | (rooms.c.lease_epoch == _EPOCH))
_LOCK_ROOMS = text("SELECT id FROM rooms WHERE id = ANY(CAST(:ids AS varchar[])) ORDER BY id FOR UPDATE")
_SET_SEAT = update(members).where(members.c.id == bindparam("b_id"), members.c.room_id == bindparam("b_room"))
# Older snapshots are never read again: keep the table small.
_DELETE_OLDER_SNAPSHOTS = delete(snapshots).where(snapshots.c.room_id == bindparam("b_room"),
                                                  snapshots.c.version < bindparam("b_version"))

# Fixed-shape batch statements for PostgreSQL: the batch travels as one array per column, so their
# text never changes with the batch's size (SQLAlchemy compiles them once, asyncpg prepares them
# once). Statements that change several rooms' rows first lock them in the order of their ids
# (``app.store.room_locks``). Rooms are found by their ids as an array (``= ANY``), which the
# planner reads as a few rows by the primary key: against a set it guesses at 100 rows it would
# read the whole ``rooms`` table for every batch whenever the table is small enough.
_PG_BATCH_UPDATE = text(
    f"WITH {rooms_locked_in_order('CAST(:ids AS varchar[])')}"
    " UPDATE rooms SET version = b.version, status = b.status, deadline = b.deadline,"
    " turn_start = b.turn_start, banks = CAST(b.banks AS json)"
    " FROM unnest(CAST(:ids AS varchar[]), CAST(:expected AS integer[]), CAST(:version AS integer[]),"
    " CAST(:status AS varchar[]), CAST(:deadline AS float8[]), CAST(:turn_start AS float8[]),"
    " CAST(:banks AS text[]), CAST(:epochs AS integer[]))"
    " AS b(id, expected, version, status, deadline, turn_start, banks, epoch)"
    " WHERE rooms.id = b.id AND rooms.version = b.expected AND rooms.id = ANY(ARRAY(SELECT id FROM k))"
    " AND (b.epoch IS NULL OR rooms.lease_epoch = b.epoch) RETURNING rooms.id")
_PG_LOG_INSERT = text(
    "INSERT INTO log (room_id, version, game_no, kind, seat, action, events, member_id, msg_id)"
    " SELECT room_id, version, game_no, kind, seat, CAST(action AS json), CAST(events AS json),"
    " member_id, msg_id"
    " FROM unnest(CAST(:room_id AS varchar[]), CAST(:version AS integer[]), CAST(:game_no AS integer[]),"
    " CAST(:kind AS varchar[]), CAST(:seat AS integer[]), CAST(:action AS text[]),"
    " CAST(:events AS text[]), CAST(:member_id AS integer[]), CAST(:msg_id AS varchar[]))"
    " AS e(room_id, version, game_no, kind, seat, action, events, member_id, msg_id)")


async def append(
    conn: AsyncConnection,
    room_id: str,
    expected: int,
    entries: Sequence[LogEntry],
    room_values: dict[str, Any],
    snapshot: tuple[int, int, dict[str, Any]] | None = None,
    seats: Mapping[int, int | None] | None = None,
    epoch: int | None = None,
) -> None:
    """Append ``entries`` after version ``expected`` and update the room, inside ``conn``'s transaction.

    Raises ``VersionConflict`` when the room is no longer at ``expected`` or, with ``epoch``, when
    its lease is no longer of that epoch (another instance took the room over).
    """
    change = Commit(room_id, expected, entries, room_values, snapshot, seats, epoch)
    await _write_one(conn, commit_rows(change))


async def append_many(conn: AsyncConnection, commits: Sequence[Commit]) -> None:
    """Several rooms' changes in the caller's one transaction (group commit).

    Plain moves share one UPDATE of the rooms (an executemany where the driver counts its rows,
    else one statement over arrays), one INSERT of their log entries and one of their snapshots;
    raises ``VersionConflict`` if any room is not at its expected version (or lease epoch), and the
    caller then rolls back and retries the commits one by one.
    """
    if conn.dialect.name == "postgresql" and len(commits) > 1:
        # The rooms' rows locked in the order of their ids first, as every statement that changes
        # several rooms locks them (the one-statement commit, the leases' renewal): in the order of
        # the batch, two such transactions could deadlock, and the renewal was the one cancelled.
        await conn.execute(_LOCK_ROOMS, {"ids": sorted({c.room_id for c in commits})})
    plain = [commit_rows(c) for c in commits if c.simple]
    if plain:
        await _update_plain_rooms(conn, plain)
        await _insert_log(conn, [row for change in plain for row in change.log])
        await _store_snapshots(conn, [change.snapshot for change in plain if change.snapshot is not None])
    for c in commits:
        if not c.simple:
            await _write_one(conn, commit_rows(c))


async def _write_one(conn: AsyncConnection, change: CommitRows) -> None:
    where = [rooms.c.id == change.room_id, rooms.c.version == change.expected]
    if change.epoch is not None:
        where.append(rooms.c.lease_epoch == change.epoch)
    result = await conn.execute(update(rooms).where(*where).values(**change.room))
    if result.rowcount != 1:
        raise VersionConflict(change.room_id)
    await _insert_log(conn, change.log)
    await _store_snapshots(conn, [] if change.snapshot is None else [change.snapshot])
    if change.seats:
        await conn.execute(_SET_SEAT, [
            {"b_room": room_id, "b_id": member_id, "seat": seat, "seat_since": since}
            for room_id, member_id, seat, since in change.seats])


async def _update_plain_rooms(conn: AsyncConnection, plain: Sequence[CommitRows]) -> None:
    """The room rows of plain moves in one statement; ``VersionConflict`` unless all matched."""
    if conn.dialect.supports_sane_multi_rowcount:
        result = await conn.execute(_BATCH_UPDATE, [
            {"b_id": c.room_id, "b_expected": c.expected, "b_epoch": c.epoch,
             **{column: c.room[column] for column in PLAIN_ROOM_COLUMNS}} for c in plain])
        updated = result.rowcount
    else:
        result = await conn.execute(_PG_BATCH_UPDATE, {
            "ids": [c.room_id for c in plain], "expected": [c.expected for c in plain],
            "epochs": [c.epoch for c in plain],
            **dict(zip(PLAIN_ROOM_COLUMNS, pg_room_arrays([c.room for c in plain], PLAIN_ROOM_COLUMNS),
                       strict=True))})
        updated = len(result.all())
    if updated != len(plain):
        raise VersionConflict(",".join(c.room_id for c in plain))


async def _insert_log(conn: AsyncConnection, rows: list[tuple[Any, ...]]) -> None:
    if not rows:
        return
    if conn.dialect.name == "postgresql":
        await conn.execute(_PG_LOG_INSERT, dict(zip(LOG_COLUMNS, pg_arrays(rows, LOG_COLUMNS), strict=True)))
    else:
        await conn.execute(insert(log), as_dicts(rows, LOG_COLUMNS))


async def _store_snapshots(conn: AsyncConnection, rows: list[tuple[str, int, int, dict[str, Any]]]) -> None:
    if rows:
        await conn.execute(insert(snapshots), as_dicts(rows, SNAPSHOT_COLUMNS))
        await conn.execute(_DELETE_OLDER_SNAPSHOTS,
                           [{"b_room": room_id, "b_version": version} for room_id, version, _, _ in rows])


# PostgreSQL, the moves and deals of a batch in one statement (its own transaction, no BEGIN and
# COMMIT round trips): each room's row is updated where its version (and lease epoch) is as
# expected, and only those rooms' log entries, snapshots and seats are written and announced. A
# room whose row did not match changes nothing and is left out of the answer (a version conflict
# for that room alone). Its parameters are ``_one_statement_arguments``: the rooms, log entries,
# snapshots and seats each as one JSON text of row objects (``json_to_recordset``), which costs
# this process one encoding each, where arrays of columns cost a bind per element; a JSON column's
# value is stored as the text it has in that document (the ``json`` type keeps it as it is).
_ROOM_RECORD = ("b(id varchar, expected integer, version integer, status varchar, deadline float8,"
                " turn_start float8, banks json, epoch integer, game_no integer, players integer,"
                " deal_version integer, active_at float8)")
PG_GROUP_COMMIT = (
    "WITH r AS MATERIALIZED (SELECT * FROM json_to_recordset($1::json) AS " + _ROOM_RECORD + "),"
    # The batch's rooms by their ids as an array: read through the primary key, never the whole
    # table (``json_to_recordset`` counts as 100 rows to the planner, and ``IN`` over it as a join
    # that scans ``rooms`` whenever the table is small enough: it then read every room row twice a
    # batch, and the rows each move left behind besides).
    f" {rooms_locked_in_order('ARRAY(SELECT id FROM r)')},"
    " u AS (UPDATE rooms SET version = b.version, status = b.status, deadline = b.deadline,"
    " turn_start = b.turn_start, banks = b.banks,"
    " game_no = COALESCE(b.game_no, rooms.game_no), players = COALESCE(b.players, rooms.players),"
    " deal_version = COALESCE(b.deal_version, rooms.deal_version),"
    " active_at = COALESCE(b.active_at, rooms.active_at)"
    " FROM r AS b"
    " WHERE rooms.id = b.id AND rooms.version = b.expected AND rooms.id = ANY(ARRAY(SELECT id FROM k))"
    # ``listeners`` as the newest version of the row holds it (a listing committed while this
    # statement ran included: ``app/store/listeners.py``).
    " AND (b.epoch IS NULL OR rooms.lease_epoch = b.epoch) RETURNING rooms.id, rooms.listeners),"
    # A deal's seats: each member holds its seat from the deal's first entry on.
    " m AS (UPDATE members SET seat = x.seat, seat_since = x.seat_since"
    " FROM json_to_recordset($4::json) AS x(room_id varchar, id integer, seat integer, seat_since integer)"
    " WHERE members.id = x.id AND members.room_id = x.room_id AND x.room_id IN (SELECT id FROM u)),"
    " l AS (INSERT INTO log (room_id, version, game_no, kind, seat, action, events, member_id, msg_id)"
    " SELECT e.room_id, e.version, e.game_no, e.kind, e.seat, e.action, e.events, e.member_id, e.msg_id"
    " FROM json_to_recordset($2::json) AS e(room_id varchar, version integer, game_no integer,"
    " kind varchar, seat integer, action json, events json, member_id integer, msg_id varchar)"
    " WHERE e.room_id IN (SELECT id FROM u)),"
    " p AS MATERIALIZED (SELECT * FROM json_to_recordset($3::json)"
    " AS p(room_id varchar, version integer, game_no integer, state json)),"
    " s AS (INSERT INTO snapshots (room_id, version, game_no, state)"
    " SELECT p.room_id, p.version, p.game_no, p.state FROM p WHERE p.room_id IN (SELECT id FROM u)),"
    # Older snapshots are never read again (the statement does not see the one it inserts).
    " d AS (DELETE FROM snapshots USING p AS q"
    " WHERE snapshots.room_id = q.room_id AND snapshots.version < q.version"
    " AND q.room_id IN (SELECT id FROM u))"
    " SELECT (SELECT array_agg(id) FROM u),"
    # Each stored room's change on its own channel, and only where a listening session other than
    # this instance's ($7) is listed: it wakes only the other instances holding that room.
    " (SELECT count(pg_notify($5 || id, $6)) FROM u"
    " WHERE cardinality(array_remove(listeners, $7::integer)) > 0)")


async def append_in_one_statement_pg(conn: Any, commits: Sequence[Commit], channel_prefix: str,
                                     instance: str, listening_pid: int = 0) -> set[str]:
    """Moves and deals (``Commit.one_statement``) of several rooms in one statement on an asyncpg
    connection, each room's announced as ``instance`` on its channel (``channel_prefix`` and its id)
    where a listening session other than ``listening_pid`` (this instance's) is listed on it;
    returns the rooms whose change was stored (the others were not at their expected version or lease
    epoch, and nothing of theirs was written)."""
    row = await conn.fetchrow(PG_GROUP_COMMIT,
                              *_one_statement_arguments([commit_rows(c) for c in commits], channel_prefix,
                                                        instance), listening_pid)
    return set(row[0] or ())


def _one_statement_arguments(changes: Sequence[CommitRows], channel_prefix: str, instance: str) -> list[Any]:
    """``PG_GROUP_COMMIT``'s parameters $1 to $6 in order: the rooms, log entries, snapshots and
    seats as JSON texts of row objects, then the rooms' channel prefix and the instance."""
    dumps = json_codec.dumps
    rooms = [{"id": c.room_id, "expected": c.expected, "epoch": c.epoch, **c.room} for c in changes]
    log_rows = [dict(zip(LOG_COLUMNS, row, strict=True)) for c in changes for row in c.log]
    snaps = [dict(zip(SNAPSHOT_COLUMNS, c.snapshot, strict=True)) for c in changes if c.snapshot is not None]
    seats = [dict(zip(SEAT_COLUMNS, seat, strict=True)) for c in changes for seat in c.seats]
    return [dumps(rooms), dumps(log_rows), dumps(snaps), dumps(seats), channel_prefix, instance]
