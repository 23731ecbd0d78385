"""``python -m app``: apply the migrations, then serve on HOST:PORT (default 127.0.0.1:8000)."""

from __future__ import annotations

import asyncio
import gc
import importlib.util
import logging
import sys

import uvicorn

from app.config import Settings
from app.main import create_app
from app.store.db import make_engine, upgrade
from app.web import launch

YOUNG_OBJECTS_BEFORE_COLLECTION = 5_000
MIDDLE_RUNS_BEFORE_COLLECTION = 10
FULL_RUNS_AFTER_MIDDLE = 40
# Seconds a thread that wants the interpreter waits for the one holding it: the event loop waits
# this long at each hand-over while a worker thread walks a long replay or builds a record (and
# SQLite's own thread runs between), 5 ms by default; 1 ms keeps other rooms' moves quick.
GIL_SWITCH_SECONDS = 0.001


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
    # The app's own loggers (the start-up line, errors) go to stderr beside uvicorn's.
    logging.basicConfig(level=settings.log_level.upper(), format="%(levelname)s:     %(name)s: %(message)s")
    # uvicorn's ``standard`` extras: uvloop's event loop and httptools' HTTP parser, when installed
    # (the start-up line names what runs).
    loop = "uvloop" if importlib.util.find_spec("uvloop") is not None else "asyncio"
    http = "httptools" if importlib.util.find_spec("httptools") is not None else "h11"
    app = create_app(settings, http=http, websocket="websockets-sansio, frames gathered per loop turn")
    # What is loaded by now (modules, the app) lives as long as the process: the cyclic garbage
    # collector need not walk it again. A move makes many short-lived containers (the seats'
    # views, events, frames): with the default first threshold (700) the young collections took
    # 5-7 % of the server's CPU under load. What a young collection walks is mostly still alive
    # (each socket's pending read, timers, a move's coroutines), so its pause grows with the
    # threshold: at 20,000 a young run stopped every room for 30-60 ms and the middle generation's
    # (ten young ones' survivors) for 65-110 ms at 1,000 rooms; at 5,000 they take about 11 and
    # 35-45 ms, for about 0.5 % more of the CPU in all (README, Benchmarks). A full collection
    # walks every socket's objects (about 400 ms at 4,000 sockets): 40 middle runs before one keep
    # it as rare as it was (every two million objects kept).
    gc.freeze()
    gc.set_threshold(YOUNG_OBJECTS_BEFORE_COLLECTION, MIDDLE_RUNS_BEFORE_COLLECTION, FULL_RUNS_AFTER_MIDDLE)
    sys.setswitchinterval(GIL_SWITCH_SECONDS)
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        loop=loop,
        # The HTTP and WebSocket protocols with the transport's limits (``app.web.launch``).
        **launch.uvicorn_options(settings, http),
        # Client addresses (and the per-address limits) come from X-Forwarded-For of these proxies.
        proxy_headers=True,
        forwarded_allow_ips=settings.trusted_proxies,
        log_level=settings.log_level,
        access_log=settings.log_level in ("debug", "info"),
    )


if __name__ == "__main__":
    main()
