"""The writer: every room's commit goes through one task (group commit; SQLite has one writer
anyway). Changes from many rooms are written several to a transaction: each room waits for its
own, and a failed batch is retried change by change, so one room's version conflict never fails
another room's move. Soon after a batch the next one waits for the rest of a short gap
(``Settings.commit_gap_ms``): under load each statement then carries more rooms' moves. With
PostgreSQL the plain moves and deals of a batch go in one statement on the writer's own
connection, which tells the other instances holding a room of its change; every other commit
tells all instances that listen on the room's channel.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.rooms import metrics
from app.store import queries
from app.store.notify import ROOM_CHANNEL_PREFIX, asyncpg_url, notify
from app.store.queries import VersionConflict

log = logging.getLogger(__name__)


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    # A waiter may have been cancelled (its socket closed); the commit stands regardless, and
    # that room reloads from the database at its next move (version conflict).
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)


class StoreWriter:
    """Stores the rooms' commits (app/rooms/port.py's ``Writer``)."""

    def __init__(self, engine: AsyncEngine, instance: str, announces: bool, gap: float = 0.0,
                 listening_pid: Callable[[], int] = lambda: 0) -> None:
        self.engine = engine
        self.instance = instance
        # This instance's listening session (PostgreSQL): a move's commit notifies a room's channel
        # only where another session is listed on the room (``app/store/listeners.py``).
        self.listening_pid = listening_pid
        # Seconds at least between the starts of two batches (``Settings.commit_gap_ms``), and how
        # the writer waits out the rest of one.
        self.gap = gap
        self.pause: Callable[[float], Awaitable[None]] = asyncio.sleep
        # PostgreSQL: instances sharing the database are told of changed rooms (LISTEN/NOTIFY).
        self.announces = announces
        # Each change with its waiter and when it was queued.
        self._queue: asyncio.Queue[tuple[queries.Commit, asyncio.Future[None], float]] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        # PostgreSQL: the writer's own asyncpg connection for plain moves (one statement a batch).
        self._pg: Any = None

    async def announce(self, conn: AsyncConnection, room_ids: Iterable[str]) -> None:
        """Within a transaction: tell the other instances these rooms changed (PostgreSQL only)."""
        if self.announces:
            await notify(conn, self.instance, room_ids)

    async def stop(self) -> None:
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._writer
        if self._pg is not None:
            with contextlib.suppress(Exception):
                await self._pg.close()

    async def commit(self, change: queries.Commit) -> None:
        """Store one room's change; returns once it is committed (raises if it was not).

        Changes from many rooms are written by one writer task, several to a transaction (group
        commit): each room waits for its own, and a failed batch is retried change by change, so
        one room's version conflict never fails another room's move.
        """
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((change, future, time.perf_counter()))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_loop())
        await future

    async def _write_loop(self) -> None:
        loop = asyncio.get_running_loop()
        last = -self.gap
        while True:
            queued = [await self._queue.get()]
            # Soon after a batch the next one waits for the rest of the gap, gathering the moves
            # that come meanwhile: each batch is a round trip and a wake-up of the database.
            wait = last + self.gap - loop.time()
            if wait > 0:
                await self.pause(wait)
            last = loop.time()
            while not self._queue.empty() and len(queued) < 256:
                queued.append(self._queue.get_nowait())
            begun = time.perf_counter()
            for _, _, at in queued:
                metrics.STAGE_QUEUED.observe(begun - at)
            batch = [(change, future) for change, future, _ in queued]
            try:
                await self._write(batch)
            except Exception as error:  # the writer must live on whatever happens
                for _, future in batch:
                    _settle(future, error)
            metrics.STAGE_WRITE.observe(time.perf_counter() - begun)

    async def _pg_connection(self) -> Any:
        if self._pg is None or self._pg.is_closed():
            import asyncpg  # type: ignore[import-untyped]

            url = self.engine.url.render_as_string(hide_password=False)
            self._pg = await asyncpg.connect(asyncpg_url(url))
        return self._pg

    async def _write_in_one_statement(self, batch: list[tuple[queries.Commit, asyncio.Future[None]]]
                            ) -> list[tuple[queries.Commit, asyncio.Future[None]]]:
        """PostgreSQL: store the batch's moves and deals in one statement on the writer's connection,
        settling their waiters; returns what is left for the general path (with the moves of a
        statement that failed, which changed nothing: a retried message id the log already holds,
        say, is then answered as usual)."""
        single = [(change, future) for change, future in batch if change.one_statement]
        if not single:
            return batch
        stored: set[str] = set()
        try:
            conn = await self._pg_connection()
            # 200 rooms at most a statement.
            for start in range(0, len(single), 200):
                stored |= await queries.append_in_one_statement_pg(
                    conn, [change for change, _ in single[start:start + 200]], ROOM_CHANNEL_PREFIX,
                    self.instance, self.listening_pid())
        except Exception:
            log.info("the one-statement commit failed; storing the batch the general way", exc_info=True)
            with contextlib.suppress(Exception):
                if self._pg is not None:
                    await self._pg.close()
            self._pg = None
            # Those stored are settled; the rest go the general way.
            left = [(change, future) for change, future in batch if change.room_id not in stored]
            for change, future in single:
                if change.room_id in stored:
                    _settle(future, None)
            return left
        for change, future in single:
            _settle(future, None if change.room_id in stored else VersionConflict(change.room_id))
        return [(change, future) for change, future in batch if not change.one_statement]

    async def _write(self, batch: list[tuple[queries.Commit, asyncio.Future[None]]]) -> None:
        if self.announces:
            batch = await self._write_in_one_statement(batch)
            if not batch:
                return
        try:
            async with self.engine.begin() as conn:
                await queries.append_many(conn, [change for change, _ in batch])
                await self.announce(conn, [change.room_id for change, _ in batch])
        except Exception:
            if len(batch) == 1:
                raise
            for change, future in batch:
                try:
                    async with self.engine.begin() as conn:
                        await queries.append_many(conn, [change])
                        await self.announce(conn, [change.room_id])
                except Exception as error:
                    _settle(future, error)
                else:
                    _settle(future, None)
            return
        for _, future in batch:
            _settle(future, None)
