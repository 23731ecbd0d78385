"""The bot tests' fixtures: a room's migrated database is the rooms tests' own ``engine``."""

from __future__ import annotations

from tests.rooms.conftest import engine

__all__ = ["engine"]
