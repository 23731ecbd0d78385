from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from app.rooms import chat, core, host, membership, moves, pipeline
from app.store.db import make_engine, upgrade
from tests.rooms.helpers import Clock


@pytest.fixture
async def engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    """A migrated SQLite database of the test's own."""
    eng = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'rooms.sqlite3'}")
    await upgrade(eng)
    yield eng
    await eng.dispose()


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """The room's clock, moved by the test (``Clock``): the room's modules read ``time.time()``
    through it (the turn clock's moves and deadlines, the commit, joins, the sheet and chat)."""
    fake = Clock()
    for module in (core, pipeline, moves, membership, host, chat):
        monkeypatch.setattr(module, "time", fake)
    return fake
