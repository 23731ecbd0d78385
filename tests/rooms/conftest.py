from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from app.store.db import make_engine, upgrade


@pytest.fixture
async def engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    """A migrated SQLite database of the test's own."""
    eng = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'rooms.sqlite3'}")
    await upgrade(eng)
    yield eng
    await eng.dispose()
