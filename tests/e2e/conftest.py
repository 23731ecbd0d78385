"""End-to-end fixtures: a real server (``python -m app`` in a subprocess) on SQLite or PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support import ServerProcess, fresh_postgres_sync, postgres_url


@dataclass
class Backend:
    name: str
    url: str | None  # DATABASE_URL for the server (None: the SQLite default in the data dir)
    tmp: Path

    def database_url(self) -> str:
        """An async URL the tests can read the server's database with."""
        if self.url is not None:
            return self.url
        return f"sqlite+aiosqlite:///{self.tmp / 'data' / 'houserules.sqlite3'}"

    def server(self, **env: str) -> ServerProcess:
        # Scripted players move far faster than people: lift the flood limit (tested in tests/web).
        lifted = {"HOUSERULES_WS_RATE": "10000", "HOUSERULES_WS_BURST": "10000"}
        return ServerProcess(self.tmp, self.url, **{**lifted, **env})


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Backend]:
    tmp = tmp_path_factory.mktemp(request.param)
    if request.param == "sqlite":
        yield Backend("sqlite", None, tmp)
        return
    if postgres_url() is None:
        pytest.skip("no PostgreSQL configured: set HOUSERULES_TEST_POSTGRES_URL=postgresql+asyncpg://...")
    with fresh_postgres_sync() as url:
        yield Backend("postgres", url, tmp)


@pytest.fixture(scope="module")
def server(backend: Backend) -> Iterator[ServerProcess]:
    proc = backend.server().start()
    try:
        yield proc
    finally:
        proc.stop()
