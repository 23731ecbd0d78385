"""A TCP relay between a server instance and PostgreSQL that holds the database's answers back: an
instance that reads slowly (a busy machine), or one that hears the other instances' news late; or
that holds its questions until the test lets them go (an instance that catches up much later)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from sqlalchemy.engine import make_url

from app.store.queries import LISTENER_APP
from tests.support import free_port


class SlowAnswers:
    """Holds every chunk of the database's answers for ``delay`` seconds: on every connection, or
    with ``news_only`` only on the instance's LISTEN connection (named by ``LISTENER_APP`` in its
    startup message), so its reads are quick but other instances' notifications come late."""

    def __init__(self, database_url: str, delay: float, news_only: bool = False,
                 questions: asyncio.Event | None = None) -> None:
        database = make_url(database_url)
        self.host, self.port = database.host or "127.0.0.1", database.port or 5432
        self.delay, self.news_only = delay, news_only
        # When given: the instance's questions wait while it is clear, and reach the database (which
        # then answers from what it holds by then) once it is set.
        self.questions = questions
        self.listen_port = free_port()
        # The database's URL through this relay, for the instance it stands in front of.
        self.url = database.set(host="127.0.0.1", port=self.listen_port).render_as_string(hide_password=False)
        self.server: asyncio.Server | None = None
        self.pipes: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", self.listen_port)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(self.host, self.port)
        # The delay of this connection's answers, set once its startup message is seen.
        held = [0.0 if self.news_only else self.delay]
        listener = LISTENER_APP.encode()
        # The name is looked for in the startup message only (a query may hold it too), which may
        # come after an 8-byte SSL request.
        startup = [True]

        async def ask(chunk: bytes) -> None:
            if self.questions is not None:
                await self.questions.wait()
            if self.news_only and startup[0] and listener in chunk:
                held[0] = self.delay
            startup[0] = startup[0] and len(chunk) == 8

        async def answer(_chunk: bytes) -> None:
            if held[0]:
                await asyncio.sleep(held[0])

        for pipe in (self._pipe(reader, up_writer, ask), self._pipe(up_reader, writer, answer)):
            task = asyncio.create_task(pipe)
            self.pipes.add(task)
            task.add_done_callback(self.pipes.discard)

    @staticmethod
    async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                    each: Callable[[bytes], Awaitable[None]]) -> None:
        """Copy ``reader`` to ``writer``, each chunk first shown to ``each``."""
        try:
            while chunk := await reader.read(65536):
                await each(chunk)
                writer.write(chunk)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()
        for task in list(self.pipes):
            task.cancel()
