"""A room's change (``Commit``) and the one row builder every commit path writes from.

``commit_rows`` turns a change into the rows it stores: the room row's new columns, one ``log``
row per entry, the new ``snapshots`` row and the members' new seats. The single, group and
one-statement commits (``app.store.commit``) all write these rows, so they cannot store a change
differently (tests/store/test_commit_paths.py compares what each stores).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app import json_codec
from app.store.log_entries import LogEntry

CLOCK_FIELDS = frozenset(("status", "deadline", "turn_start", "banks"))
DEAL_FIELDS = frozenset(("game_no", "players", "deal_version", "active_at"))

# Column orders of the rows, as the statements over arrays (``unnest``) take them; also the keys of
# the one-statement commit's JSON row objects (``commit._one_statement_arguments``).
PLAIN_ROOM_COLUMNS = ("version", "status", "deadline", "turn_start", "banks")
LOG_COLUMNS = ("room_id", "version", "game_no", "kind", "seat", "action", "events", "member_id", "msg_id")
SNAPSHOT_COLUMNS = ("room_id", "version", "game_no", "state")
SEAT_COLUMNS = ("room_id", "id", "seat", "seat_since")
JSON_COLUMNS = frozenset(("banks", "action", "events", "state"))


@dataclass
class Commit:
    """One room's change: log entries after ``expected`` and the room's new fields."""

    room_id: str
    expected: int
    entries: Sequence[LogEntry]
    room_values: dict[str, Any]
    snapshot: tuple[int, int, dict[str, Any]] | None = None
    seats: Mapping[int, int | None] | None = None
    # The lease epoch the change was made under (None: no leases, a single instance).
    epoch: int | None = None

    @property
    def simple(self) -> bool:
        """A plain move: only the status and the turn's clock change besides the version."""
        return bool(self.entries) and self.seats is None and self.room_values.keys() == CLOCK_FIELDS

    @property
    def one_statement(self) -> bool:
        """What ``append_in_one_statement_pg`` stores: a plain move, or a deal or a game's end (the deal's
        fields, the time of the change and the seats besides)."""
        keys = self.room_values.keys()
        return bool(self.entries) and keys >= CLOCK_FIELDS and keys <= CLOCK_FIELDS | DEAL_FIELDS


@dataclass(slots=True)
class CommitRows:
    """The rows one room's change stores, and the room row it expects to find. Log, snapshot and
    seat rows are tuples in the order of ``LOG_COLUMNS``, ``SNAPSHOT_COLUMNS`` and ``SEAT_COLUMNS``
    (``as_dicts`` names their columns)."""

    room_id: str
    expected: int
    epoch: int | None
    # The room row's new columns: its version (the last entry's) and the change's room values.
    room: dict[str, Any]
    log: list[tuple[Any, ...]]
    snapshot: tuple[str, int, int, dict[str, Any]] | None
    # Each seated member's new seat, held from the change's first entry on.
    seats: list[tuple[str, int, int | None, int]]


def commit_rows(change: Commit) -> CommitRows:
    """The rows ``change`` stores."""
    room_id, entries = change.room_id, change.entries
    log = [(room_id, e.version, e.game_no, e.kind, e.seat, e.action, e.events, e.member_id, e.msg_id)
           for e in entries]
    snapshot = None if change.snapshot is None else (room_id, *change.snapshot)
    # Seats are handed out at a deal (its first entry): each is held from that version on.
    since = entries[0].version if entries else change.expected
    seats = ([(room_id, member_id, seat, since) for member_id, seat in change.seats.items()]
             if change.seats else [])
    version = entries[-1].version if entries else change.expected
    return CommitRows(room_id, change.expected, change.epoch, {"version": version, **change.room_values},
                      log, snapshot, seats)


def as_dicts(rows: Sequence[Sequence[Any]], columns: Sequence[str]) -> list[dict[str, Any]]:
    """Rows as column-named parameter sets (an executemany through SQLAlchemy)."""
    return [dict(zip(columns, row, strict=True)) for row in rows]


def pg_arrays(rows: Sequence[Sequence[Any]], columns: Sequence[str]) -> list[list[Any]]:
    """Rows column by column, for a statement over ``unnest`` of arrays, a JSON column as the text
    the database would store (SQL NULL for None)."""
    arrays = [list(values) for values in zip(*rows, strict=True)] if rows else [[] for _ in columns]
    return [_json_texts(values) if column in JSON_COLUMNS else values
            for column, values in zip(columns, arrays, strict=True)]


def pg_room_arrays(rooms: Sequence[Mapping[str, Any]], columns: Sequence[str]) -> list[list[Any]]:
    """The rooms' new columns as ``pg_arrays`` gives rows' (a column a change leaves as it is: NULL)."""
    return [_json_texts([room.get(column) for room in rooms]) if column in JSON_COLUMNS
            else [room.get(column) for room in rooms] for column in columns]


def _json_texts(values: Sequence[Any]) -> list[str | None]:
    dumps = json_codec.dumps
    return [None if value is None else dumps(value) for value in values]
