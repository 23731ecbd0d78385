"""Every commit path stores the same rows for the same changes.

A room's change reaches the database by one of three paths: ``append`` (one room in the caller's
transaction), ``append_many`` (a group commit of several rooms: plain moves share one statement,
the rest go through ``append``) and, on PostgreSQL, ``append_in_one_statement_pg`` (moves and
deals of many rooms in one statement). The same scenario is written through each path into a
database of its own, and every stored column of the rooms, members, log and snapshots tables,
JSON as the text the database holds, must come out identical (SQLite and PostgreSQL).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import JSON, Text, cast, select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.rooms.writer import StoreWriter
from app.store import queries
from app.store.commit import PG_GROUP_COMMIT, _one_statement_arguments
from app.store.db import make_engine, upgrade
from app.store.queries import Commit, LogEntry, VersionConflict
from tests.support import fresh_postgres_engine, postgres_url

CHANNEL_PREFIX = "houserules_paths_test_"
CLOCK = {"status": "playing", "deadline": 1000.125, "turn_start": 990.5, "banks": {"0": 7.5, "1": 0.0}}
ROOMS = ("room-a", "room-b")
# Members are created in the same order in every database: room-a has 1 and 2, room-b 3 and 4.
MEMBERS = {"room-a": (1, 2), "room-b": (3, 4)}
STORED_TABLES = (queries.rooms, queries.members, queries.log, queries.snapshots)


def _entry(version: int, game_no: int = 1, *, kind: str = "move", seat: int | None = 0,
           member: int | None = None, msg: str | None = None, data: Any = None) -> LogEntry:
    return LogEntry(version, game_no, kind, seat, {"type": "play", "cards": ["7♠", "Q♥"], "data": data},
                    [{"type": "played", "data": {"seat": seat, "note": "ütle «jää»"}, "audience": None},
                     {"type": "hand", "data": {"cards": [1, 2.5, None]}, "audience": [seat]}],
                    member, msg)


def _scenario() -> list[list[Commit]]:
    """Steps of commits (at most one per room in a step), each kind of change the rooms make:
    a deal with seats, snapshot and the deal's fields; a deal that also stores the next fair round;
    plain moves with and without a snapshot or a client message id; banks and deadline cleared;
    a game's end; a move under a lease epoch."""
    a, b = ROOMS
    deal = {"game_no": 1, "players": 2, "deal_version": 1, "active_at": 12.5}
    pending = {"seed": "ab" * 16, "commitment": "c1", "contributions": {"3": "x"}}
    return [
        [Commit(a, 0, [_entry(1, kind="deal", seat=None), _entry(2)], {**CLOCK, **deal},
                (2, 1, {"dealt": True, "hands": [[1, 2], [3]]}), {1: 1, 2: 0}),
         Commit(b, 0, [_entry(1, kind="deal", seat=None)], {**CLOCK, **deal, "fair_pending": pending},
                (1, 1, {"dealt": "b"}), {3: 0, 4: 1}, epoch=0)],
        [Commit(a, 2, [_entry(3, seat=1, member=1, msg="m-1")], {**CLOCK, "banks": {"0": 6.25, "1": 0.0}}),
         Commit(b, 1, [_entry(2, seat=0, member=3, msg="m-1")], CLOCK, (2, 1, {"after": 2}), epoch=0)],
        [Commit(a, 3, [_entry(4, seat=0), _entry(5, kind="timeout", seat=1)],
                {**CLOCK, "deadline": None, "turn_start": None, "banks": None}, (5, 1, {"after": 5})),
         Commit(b, 2, [_entry(3, seat=1, member=4, msg="m-2")], {**CLOCK, "fair_pending": None}, epoch=0)],
        [Commit(a, 5, [_entry(6, seat=None, data={"nested": {"deep": [True, False, None]}})],
                {"status": "finished", "deadline": None, "turn_start": None, "banks": {},
                 "active_at": 99.25}, (6, 1, {"over": True})),
         Commit(b, 3, [_entry(4, seat=None, member=None, data="")], CLOCK, epoch=0)],
    ]


def _stale() -> list[Commit]:
    """Changes that must be refused and store nothing: a version already passed, and the right
    version under a lease epoch the room no longer has."""
    return [Commit("room-a", 4, [_entry(5)], CLOCK),
            Commit("room-b", 4, [_entry(5)], CLOCK, epoch=7),
            Commit("room-b", 4, [_entry(5)], {**CLOCK, "game_no": 2, "players": 2, "deal_version": 5,
                                               "active_at": 1.0}, (5, 2, {}), {3: 1, 4: 0}, epoch=7)]


Writer = Callable[[AsyncEngine, Any, Sequence[Commit]], Awaitable[None]]


async def _each_alone(engine: AsyncEngine, _pg: Any, commits: Sequence[Commit]) -> None:
    for c in commits:
        async with engine.begin() as conn:
            await queries.append(conn, c.room_id, c.expected, c.entries, c.room_values, c.snapshot, c.seats,
                                 c.epoch)


async def _group_commit(engine: AsyncEngine, _pg: Any, commits: Sequence[Commit]) -> None:
    async with engine.begin() as conn:
        await queries.append_many(conn, commits)


async def _one_statement(engine: AsyncEngine, pg: Any, commits: Sequence[Commit]) -> None:
    """As the room manager writes on PostgreSQL: moves and deals in one statement, the rest by
    group commit."""
    single = [c for c in commits if c.one_statement]
    stored = await queries.append_in_one_statement_pg(pg, single, CHANNEL_PREFIX, "me")
    if stored != {c.room_id for c in single}:
        raise VersionConflict(",".join(sorted({c.room_id for c in single} - stored)))
    rest = [c for c in commits if not c.one_statement]
    if rest:
        await _group_commit(engine, pg, rest)


async def _make_rooms(engine: AsyncEngine) -> None:
    for room_id in ROOMS:
        await queries.create_room(
            engine,
            {"id": room_id, "game": "g", "sheet": {"deck": 52}, "sheet_id": None, "sheet_version": None,
             "capacity": 2, "approval": False, "status": "lobby", "version": 0, "game_no": 0, "players": 0,
             "deal_version": 0, "active_at": 1.0},
            {"name": "Kati", "token_hash": room_id[-1] * 64, "status": "seated", "seat": 0, "wanted_seat": 0})
        await queries.add_member(engine, room_id, {"name": "Mari", "token_hash": room_id[-1] * 63 + "2",
                                                   "status": "seated", "seat": 1, "wanted_seat": 1})


async def _stored(engine: AsyncEngine) -> dict[str, list[tuple[Any, ...]]]:
    """Every stored column (but the database's own creation times) of the tables a commit writes,
    JSON as the text held."""
    rows: dict[str, list[tuple[Any, ...]]] = {}
    async with engine.connect() as conn:
        for table in STORED_TABLES:
            columns = [cast(c, Text) if isinstance(c.type, JSON) else c
                       for c in table.c if c.name != "created_at"]
            query = select(*columns).order_by(*table.primary_key.columns)
            rows[table.name] = [tuple(row) for row in await conn.execute(query)]
    return rows


async def _written_by(writer: Writer, engine: AsyncEngine, pg: Any) -> dict[str, list[tuple[Any, ...]]]:
    await upgrade(engine)
    await _make_rooms(engine)
    for step in _scenario():
        await writer(engine, pg, step)
    before_stale = await _stored(engine)
    for change in _stale():
        with pytest.raises(VersionConflict):
            await writer(engine, pg, [change])
    assert await _stored(engine) == before_stale, "a refused change stored something"
    return before_stale


def test_the_scenario_takes_every_kind_of_commit() -> None:
    """The scenario is worth comparing only if it has plain moves, one-statement deals and ends,
    and changes only the general path stores."""
    commits = [c for step in _scenario() for c in step]
    assert any(c.simple for c in commits)
    assert any(c.one_statement and not c.simple and c.seats for c in commits)
    assert any(c.one_statement and not c.simple and not c.seats for c in commits)
    assert any(not c.one_statement for c in commits)
    assert any(c.epoch is not None for c in commits) and any(c.snapshot is None for c in commits)


async def test_sqlite_stores_the_same_rows_by_every_path(tmp_path: Path) -> None:
    stored = {}
    for name, writer in (("alone", _each_alone), ("group", _group_commit)):
        engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / name}.sqlite3")
        try:
            stored[name] = await _written_by(writer, engine, None)
        finally:
            await engine.dispose()
    assert stored["alone"]["log"] and stored["alone"]["snapshots"]
    assert stored["group"] == stored["alone"]


async def test_postgresql_stores_the_same_rows_by_every_path() -> None:
    if postgres_url() is None:
        pytest.skip("no PostgreSQL configured: set HOUSERULES_TEST_POSTGRES_URL")
    stored = {}
    for name, writer in (("alone", _each_alone), ("group", _group_commit), ("one", _one_statement)):
        async with fresh_postgres_engine() as (engine, pg):
            stored[name] = await _written_by(writer, engine, pg)
    assert stored["alone"]["log"] and stored["alone"]["snapshots"]
    assert stored["group"] == stored["alone"]
    assert stored["one"] == stored["alone"]


async def test_a_group_commit_and_a_lease_take_never_deadlock() -> None:
    """A group commit holding rooms in the order of its batch deadlocked with the leases' statements,
    which lock them in the order of their ids (PostgreSQL cancelled one). The group commit now locks
    its rooms in id order first: here it waits on room-a held by another transaction, which then
    takes room-b's lease as well and commits."""
    if postgres_url() is None:
        pytest.skip("no PostgreSQL configured: set HOUSERULES_TEST_POSTGRES_URL")
    async with fresh_postgres_engine() as (engine, pg):
        await upgrade(engine)
        await _make_rooms(engine)
        await pg.execute("UPDATE rooms SET lease_owner = 'me', lease_epoch = 1")
        first, second = _scenario()[0]
        # The batch names room-b before room-a (each change of its own, as changes with seats are).
        batch = [Commit(second.room_id, 0, second.entries, second.room_values, second.snapshot,
                        second.seats, epoch=1),
                 Commit(first.room_id, 0, first.entries, first.room_values, first.snapshot, first.seats,
                        epoch=1)]
        holder = pg.transaction()
        await holder.start()
        await pg.execute("SELECT id FROM rooms WHERE id = 'room-a' FOR UPDATE")
        writing = asyncio.ensure_future(_group_commit(engine, None, batch))
        # Until the group commit waits for a lock (in id order: on room-a, holding nothing yet).
        while not writing.done():
            waiters = await pg.fetchval("SELECT count(*) FROM pg_stat_activity"
                                        " WHERE datname = current_database() AND wait_event_type = 'Lock'")
            if waiters:
                break
            await asyncio.sleep(0.01)
        # A take's order: room-a (held already), then room-b.
        renewed = await pg.fetch(
            "UPDATE rooms SET lease_owner = 'me' WHERE id IN ("
            "SELECT id FROM rooms WHERE id = ANY($1::varchar[]) ORDER BY id FOR UPDATE) RETURNING id",
            ["room-a", "room-b"])
        await holder.commit()
        await asyncio.wait_for(writing, 60)
        assert sorted(r["id"] for r in renewed) == ["room-a", "room-b"]
        async with engine.connect() as conn:
            versions = dict((await conn.execute(select(queries.rooms.c.id, queries.rooms.c.version))).all())
        assert versions == {"room-a": 2, "room-b": 1}


@pytest.mark.parametrize(("gap", "batches"), [(60.0, [2, 2]), (0.0, [2, 1, 1])])
async def test_the_writer_gathers_the_moves_of_its_gap_into_one_batch(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gap: float, batches: list[int]) -> None:
    """Soon after a batch, the group commit waits for the rest of its gap (``commit_gap_ms``) and
    stores what came meanwhile together; without a gap each move that finds the writer free goes
    alone. The rooms' rows come out the same either way. (The gap's end is the test's to say: the
    writer's pause waits for it, whatever the clock.)"""
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'gap.db'}")
    await upgrade(engine)
    await _make_rooms(engine)
    sizes: list[int] = []
    real = queries.append_many

    async def recording(conn: Any, commits: Sequence[Commit]) -> None:
        sizes.append(len(commits))
        await real(conn, commits)

    monkeypatch.setattr(queries, "append_many", recording)
    writer = StoreWriter(engine, "me", announces=False, gap=gap)
    pauses: list[float] = []
    gap_over = asyncio.Event()

    async def pause(seconds: float) -> None:
        pauses.append(seconds)
        await gap_over.wait()

    writer.pause = pause
    try:
        first, second = _scenario()[:2]
        await asyncio.gather(*(writer.commit(c) for c in first))
        # The second step's moves a few loop turns apart: the writer is free when the first comes.
        one = asyncio.ensure_future(writer.commit(second[0]))
        for _ in range(3):
            await asyncio.sleep(0)
        two = asyncio.ensure_future(writer.commit(second[1]))
        for _ in range(3):
            await asyncio.sleep(0)
        gap_over.set()
        await asyncio.gather(one, two)
        assert sizes == batches
        assert len(pauses) == (1 if gap else 0) and all(0 < p <= gap for p in pauses)
        stored = await _stored(engine)
        assert [row[:2] for row in stored["log"]] == [("room-a", 1), ("room-a", 2), ("room-a", 3),
                                                        ("room-b", 1), ("room-b", 2)]
    finally:
        await writer.stop()
        await engine.dispose()


def _scans(plan: Any, relation: str) -> list[str]:
    """The kinds of scan a JSON plan makes of ``relation`` (``Seq Scan``, ``Index Scan`` …)."""
    found: list[str] = []
    if isinstance(plan, dict):
        if plan.get("Relation Name") == relation and "Scan" in str(plan.get("Node Type")):
            found.append(str(plan["Node Type"]))
        for value in plan.values():
            found += _scans(value, relation)
    elif isinstance(plan, list):
        for item in plan:
            found += _scans(item, relation)
    return found


async def test_the_one_statement_commit_reads_its_rooms_by_their_ids() -> None:
    """A batch names a few rooms; the statement finds them through the primary key whatever the
    table holds and whether or not it has been analyzed. Planned over its JSON rows (which the
    planner counts as 100), it read the whole ``rooms`` table twice a batch at 1,000 rooms."""
    if postgres_url() is None:
        pytest.skip("no PostgreSQL configured: set HOUSERULES_TEST_POSTGRES_URL")
    async with fresh_postgres_engine() as (engine, pg):
        await upgrade(engine)
        await _make_rooms(engine)
        # A room row as large as a game's (its sheet's options): 1,000 of them fill about 60 pages.
        await pg.execute("UPDATE rooms SET sheet = $1::json", json.dumps({"options": "x" * 400}))
        columns = ", ".join(c.name for c in queries.rooms.columns if c.name != "id")
        await pg.execute(f"INSERT INTO rooms (id, {columns}) SELECT 'more-' || n, {columns}"
                         " FROM rooms CROSS JOIN generate_series(1, 1000) AS n WHERE id = $1", ROOMS[0])
        changes = [queries.commit_rows(Commit(room_id, 0, [LogEntry(1, 1, "move", 0, {"type": "x"}, [])],
                                              dict(CLOCK))) for room_id in ROOMS]
        arguments = ", ".join("'" + str(a).replace("'", "''") + "'"
                              for a in _one_statement_arguments(changes, CHANNEL_PREFIX, "me")) + ", 0"
        # The plan a prepared statement settles on (the writer's connection runs it again and again).
        await pg.execute("SET plan_cache_mode = force_generic_plan")
        await pg.execute("PREPARE one_statement(json, json, json, json, text, text, integer)"
                         f" AS {PG_GROUP_COMMIT}")
        for analyzed in (False, True):
            if analyzed:
                await pg.execute("ANALYZE rooms")
            plan = await pg.fetchval(f"EXPLAIN (FORMAT JSON) EXECUTE one_statement({arguments})")
            scans = _scans(json.loads(plan), "rooms")
            assert scans and "Seq Scan" not in scans, (analyzed, scans)
