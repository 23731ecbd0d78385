"""Alembic environment: async engines for SQLite (aiosqlite) and PostgreSQL (asyncpg).

The app passes its own connection in ``config.attributes["connection"]``; from the command line
the URL comes from ``sqlalchemy.url`` or the app's settings (``DATABASE_URL``).
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from app.config import Settings
from app.store.db import is_sqlite, make_engine
from app.store.models import Base

config = context.config
target_metadata = Base.metadata


def do_run_migrations(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def run_async_migrations(url: str) -> None:
    engine = make_engine(url)
    async with engine.begin() as connection:
        await connection.run_sync(do_run_migrations)
    await engine.dispose()


def main() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        do_run_migrations(connection)
        return
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        settings = Settings()
        settings.ensure_data_dir()
        url = settings.url
    if context.is_offline_mode():
        context.configure(url=url, target_metadata=target_metadata, literal_binds=True,
                          render_as_batch=is_sqlite(url))
        with context.begin_transaction():
            context.run_migrations()
        return
    asyncio.run(run_async_migrations(url))


main()
