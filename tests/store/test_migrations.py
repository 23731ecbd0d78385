"""Alembic owns the schema: ``upgrade head`` builds it on empty SQLite and PostgreSQL databases,
and autogenerate finds no difference between the migrated schema and the models."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from sqlalchemy.engine import Connection

from app.store.db import make_engine, upgrade
from app.store.models import Base
from tests.support import fresh_postgres, needs_postgres

TABLES = {"alembic_version", "chat", "instances", "log", "members", "rooms", "server_keys", "sheets",
          "snapshots"}


def _diff(connection: Connection) -> list[Any]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, Base.metadata))


def _tables(connection: Connection) -> set[str]:
    return set(inspect(connection).get_table_names())


async def _check(url: str) -> None:
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            assert await conn.run_sync(_tables) == set()
        await upgrade(engine)
        await upgrade(engine)  # idempotent: a second start migrates nothing
        async with engine.connect() as conn:
            assert await conn.run_sync(_tables) == TABLES
            assert await conn.run_sync(_diff) == []
    finally:
        await engine.dispose()


async def test_upgrade_head_on_empty_sqlite_and_no_autogenerate_diff(tmp_path: Path) -> None:
    await _check(f"sqlite+aiosqlite:///{tmp_path / 'empty.sqlite3'}")


@needs_postgres
async def test_upgrade_head_on_empty_postgres_and_no_autogenerate_diff() -> None:
    async with fresh_postgres() as url:
        await _check(url)
