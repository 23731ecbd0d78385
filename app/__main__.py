"""``python -m app``: apply the migrations, then serve on HOST:PORT (default 127.0.0.1:8000)."""

from __future__ import annotations

import asyncio

import uvicorn

from app.config import Settings
from app.main import create_app
from app.store.db import make_engine, upgrade


async def migrate(settings: Settings) -> None:
    engine = make_engine(settings.url)
    try:
        await upgrade(engine)
    finally:
        await engine.dispose()


def main() -> None:
    settings = Settings()
    settings.ensure_data_dir()
    asyncio.run(migrate(settings))
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        ws="websockets-sansio",
        # A move is a few hundred bytes: cap frames (uvicorn closes with 1009 above it).
        ws_max_size=settings.ws_max_size,
        # Frames are small JSON; compression costs CPU per socket and invites compression oracles.
        ws_per_message_deflate=False,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        proxy_headers=True,
        log_level="warning",
    )


if __name__ == "__main__":
    main()
