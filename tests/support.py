"""Shared test helpers for the server: fresh databases and a real server in a subprocess."""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import queue
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from app.store.notify import asyncpg_url

ROOT = Path(__file__).resolve().parents[1]
POSTGRES_ENV = "HOUSERULES_TEST_POSTGRES_URL"


def postgres_url() -> str | None:
    return os.environ.get(POSTGRES_ENV) or None


needs_postgres = pytest.mark.skipif(
    postgres_url() is None, reason=f"no PostgreSQL configured: set {POSTGRES_ENV}=postgresql+asyncpg://..."
)


async def create_database() -> str:
    """A new empty database on the configured server; returns its async URL."""
    import asyncpg  # type: ignore[import-untyped]

    base = postgres_url()
    assert base is not None
    name = "hr_" + secrets.token_hex(6)
    admin = await asyncpg.connect(asyncpg_url(base))
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    return f"{base.rpartition('/')[0]}/{name}"


async def drop_databases(names: list[str]) -> None:
    """Drop the databases ``names`` at once, each on its own connection: PostgreSQL writes a
    checkpoint for a drop (about a second on the test machines' disks), and drops that wait
    together share one."""
    import asyncpg

    base = postgres_url()
    assert base is not None

    async def drop(name: str) -> None:
        admin = await asyncpg.connect(asyncpg_url(base))
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()

    for start in range(0, len(names), 10):  # within the server's connections, beside other workers
        await asyncio.gather(*(drop(name) for name in names[start:start + 10]))


# The databases this test process made, dropped together when its session ends (tests/conftest.py)
# rather than one by one after each test, which would wait for a checkpoint each time.
_MADE: list[str] = []


def drop_later(url: str) -> None:
    _MADE.append(url.rpartition("/")[2])


def drop_made_databases() -> None:
    if _MADE:
        names, _MADE[:] = list(_MADE), []
        asyncio.run(drop_databases(names))


@asynccontextmanager
async def fresh_postgres() -> AsyncIterator[str]:
    """A new empty database, dropped at the end of the session; yields its async URL."""
    url = await create_database()
    try:
        yield url
    finally:
        drop_later(url)


@asynccontextmanager
async def fresh_postgres_engine() -> AsyncIterator[tuple[AsyncEngine, Any]]:
    """A new empty database: an engine on it and a plain asyncpg connection beside it (closed and
    disposed at the end)."""
    import asyncpg  # type: ignore[import-untyped]

    from app.store.db import make_engine

    async with fresh_postgres() as url:
        engine = make_engine(url)
        pg = await asyncpg.connect(asyncpg_url(url))
        try:
            yield engine, pg
        finally:
            await pg.close()
            await engine.dispose()


@contextmanager
def fresh_postgres_sync() -> Iterator[str]:
    url = asyncio.run(create_database())
    try:
        yield url
    finally:
        drop_later(url)


async def until(condition: Callable[[], object], what: str = "the condition", timeout: float = 120.0,
                every: float = 0.005) -> None:
    """Wait until ``condition()`` holds, looking ``every`` seconds and letting the event loop run
    between looks (a server's message, another instance's NOTIFY). The condition is the event
    waited for; the deadline, generous for a loaded machine, only turns a hang into a failure. The
    one wait helper of the suite: a condition that asks a server over HTTP looks less often; one
    that asks the database may return an awaitable (its answer is awaited at each look)."""
    deadline = time.monotonic() + timeout
    while not await _answer(condition()):
        assert time.monotonic() < deadline, f"never happened: {what}"
        await asyncio.sleep(every)


async def _answer(value: object) -> object:
    return await value if inspect.isawaitable(value) else value


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PortTaken(Exception):
    pass


# Scripted clients on one loopback address create rooms and move far faster than people: the
# per-address and per-member rate limits are lifted for test servers (0 turns a per-minute limit
# off). The limits' own tests (tests/web/test_limits.py) set them back.
LIFTED_LIMITS = {"HOUSERULES_ROOMS_PER_MINUTE": "0", "HOUSERULES_JOINS_PER_MINUTE": "0",
                 "HOUSERULES_SHEET_SAVES_PER_MINUTE": "0", "HOUSERULES_RECORDS_PER_MINUTE": "0",
                 "HOUSERULES_REPLAY_ENTRIES_PER_MINUTE": "0", "HOUSERULES_HELLOS_PER_SECOND": "0",
                 "HOUSERULES_MEMBER_RATE": "10000",
                 "HOUSERULES_MEMBER_BURST": "10000"}


class Forked:
    """A server forked by ``tests.server_fork``, with the parts of ``subprocess.Popen`` the tests
    use (its exit status comes from the fork server, its parent)."""

    def __init__(self, forks: ForkServer, pid: int) -> None:
        self.forks, self.pid = forks, pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        self.returncode = self.forks.returncode(self.pid)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        code = self.forks.wait(self.pid, timeout)
        if code is None:
            raise subprocess.TimeoutExpired(["python", "-m", "app"], timeout or 0)
        self.returncode = code
        return code

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class ForkServer:
    """This test process's ``tests.server_fork``, started at its first server."""

    _one: ForkServer | None = None
    _starting = threading.Lock()

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.server_fork"], cwd=ROOT,
                                     env={**os.environ, "PYTHONPATH": str(ROOT)},
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.ended: dict[int, int] = {}
        self.changed = threading.Condition()
        self.pids: queue.Queue[int] = queue.Queue()
        self.asking = threading.Lock()
        threading.Thread(target=self._read, name="server-fork", daemon=True).start()

    @classmethod
    def get(cls) -> ForkServer:
        with cls._starting:
            if cls._one is None or cls._one.proc.poll() is not None:
                cls._one = ForkServer()
            return cls._one

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            message = json.loads(line)
            if "pid" in message:
                with self.changed:
                    # A number the system gives again is a new server: forget the old one's end.
                    self.ended.pop(message["pid"], None)
                self.pids.put(message["pid"])
            else:
                with self.changed:
                    self.ended[message["exited"]] = message["returncode"]
                    self.changed.notify_all()

    def fork(self, env: dict[str, str], cwd: Path, log: Path) -> Forked:
        assert self.proc.stdin is not None
        with self.asking:  # one question, one answer: servers started from threads at once
            self.proc.stdin.write(json.dumps({"env": env, "cwd": str(cwd), "log": str(log)}) + "\n")
            self.proc.stdin.flush()
            return Forked(self, self.pids.get(timeout=60))

    def returncode(self, pid: int) -> int | None:
        with self.changed:
            return self.ended.get(pid)

    def wait(self, pid: int, timeout: float | None) -> int | None:
        with self.changed:
            self.changed.wait_for(lambda: pid in self.ended, timeout)
            return self.ended.get(pid)


# Test servers are forked from one process that imported the app (tests/server_fork.py); 0 starts
# each with ``python -m app``.
FORK_SERVERS = os.environ.get("HOUSERULES_TEST_FORK", "1") != "0"


class ServerProcess:
    """``python -m app`` in a process of its own (so SIGKILL is real), on a free port: forked from
    ``tests.server_fork`` unless a subclass runs its own ``command()``."""

    def __init__(self, tmp: Path, database_url: str | None = None, **env: str) -> None:
        self.tmp = tmp
        self.port = free_port()
        self.env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(self.port),
                    "HOUSERULES_DATA_DIR": str(tmp / "data"), "PYTHONPATH": str(ROOT), **LIFTED_LIMITS, **env}
        self.env.pop("DATABASE_URL", None)
        if database_url:
            self.env["DATABASE_URL"] = database_url
        self.proc: subprocess.Popen[bytes] | Forked | None = None
        self.log = tmp / f"server-{self.port}.log"

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> ServerProcess:
        """Start and wait for /healthz; a port taken meanwhile by someone else means another port."""
        for _ in range(3):
            try:
                return self._start(timeout)
            except PortTaken:
                self.port = free_port()
                self.env["PORT"] = str(self.port)
                self.log = self.tmp / f"server-{self.port}.log"
        raise RuntimeError("no free port")

    def command(self) -> list[str]:
        return [sys.executable, "-m", "app"]

    def _start(self, timeout: float) -> ServerProcess:
        if FORK_SERVERS and type(self).command is ServerProcess.command:
            self.proc = ForkServer.get().fork(self.env, self.tmp, self.log)
        else:
            with self.log.open("ab") as out:
                self.proc = subprocess.Popen(self.command(), cwd=self.tmp, env=self.env,
                                             stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                text = self.log.read_text()
                if "address already in use" in text:
                    raise PortTaken(self.port)
                raise RuntimeError(f"server exited: {text[-3000:]}")
            try:
                if httpx.get(self.http + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"server did not start: {self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL: no shutdown handlers, no flushing; what was committed is all there is."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid


def post(server: ServerProcess, path: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(server.http + path, content=json.dumps(body),
                      headers={"content-type": "application/json"}, timeout=10)
