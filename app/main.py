"""``create_app()``: wiring only (settings, database, rooms, routers)."""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import math
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from app.config import Settings
from app.rooms.errors import RoomError
from app.rooms.limits import Buckets
from app.rooms.manager import RoomManager
from app.store.db import make_engine, upgrade
from app.web import api, launch, ws
from app.web.body import BodyLimit
from app.web.http_guard import SingleHost

log = logging.getLogger("app")


def _launcher_config() -> Any:
    """The uvicorn ``Config`` loading this app (``uvicorn --factory app.main:create_app`` calls
    the factory from ``Config.load``), or ``None`` (``python -m app``, tests)."""
    frame = sys._getframe(2)
    while frame is not None:
        candidate = frame.f_locals.get("self")
        if type(candidate).__module__ == "uvicorn.config" and hasattr(candidate, "ws_per_message_deflate"):
            return candidate
        frame = frame.f_back  # type: ignore[assignment]
    return None


def _own_websocket_settings(settings: Settings) -> Any:
    """The app decides its transport whatever launches it (``app.web.launch``): its HTTP and
    WebSocket protocols with their limits, no per-message deflate, its own frame cap.
    ``python -m app`` passes these to uvicorn; another launcher's config is set here, before it
    opens any connection."""
    config = _launcher_config()
    if config is not None:
        launch.apply_to(config, settings)
    return config


def serving_with(launcher: Any, http: str | None, websocket: str | None) -> str:
    """The event loop, HTTP parser and WebSocket implementation this server runs on."""
    loop = asyncio.get_running_loop()
    loop_name = "uvloop" if type(loop).__module__.startswith("uvloop") else "asyncio"
    if http is None and launcher is not None:
        http = launcher.http if isinstance(launcher.http, str) else launcher.http.__name__
    if http == "auto":  # uvicorn's own choice: httptools when it is installed
        http = "httptools" if importlib.util.find_spec("httptools") is not None else "h11"
    if websocket is None and launcher is not None:
        websocket = launcher.ws if isinstance(launcher.ws, str) else launcher.ws.__name__
    if websocket == "auto":  # uvicorn's own choice: websockets when it is installed
        websocket = "websockets" if importlib.util.find_spec("websockets") is not None else "wsproto"
    return f"event loop {loop_name}, HTTP parser {http or 'unknown'}, WebSocket {websocket or 'unknown'}"


def startup_line(settings: Settings, where: str, serving: str = "") -> str:
    limits = (f"body {settings.max_body_bytes} B, sheet {settings.sheet_max_items} items/"
              f"{settings.sheet_max_bytes} B, per address a minute: rooms {settings.rooms_per_minute:g}, "
              f"joins {settings.joins_per_minute:g}, sheet saves {settings.sheet_saves_per_minute:g}, "
              f"records {settings.records_per_minute:g}, "
              f"replayed entries {settings.replay_entries_per_minute:g}, "
              f"hellos {settings.hellos_per_second:g}/s; "
              f"per member: {settings.member_rate:g} moves/s, {settings.chat_per_minute:g} chat lines/min, "
              f"{settings.max_sockets_per_member} sockets; frames {settings.ws_max_size} B")
    origin = settings.public_origin or "same host as the page"
    return (f"Houserules listening on {where}; database {settings.safe_url}; origin {origin}; "
            f"trusted proxies {settings.trusted_proxies}; limits: {limits}"
            + (f"; {serving}" if serving else ""))


def create_app(settings: Settings | None = None, *, http: str | None = None,
               websocket: str | None = None) -> FastAPI:
    """The app; ``http`` and ``websocket`` name the launcher's HTTP parser and WebSocket
    implementation for the start-up line (read from uvicorn's config when it is the launcher)."""
    settings = settings or Settings()
    launcher = _own_websocket_settings(settings)
    if not logging.getLogger().handlers and not log.handlers:
        # Launched by another server: still say what happens, at the configured level.
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(levelname)s:     %(name)s: %(message)s"))
        log.addHandler(handler)
    log.setLevel(settings.log_level.upper())
    if launcher is not None:
        where = f"http://{launcher.host}:{launcher.port}"
    else:
        where = f"http://{settings.host}:{settings.port}"

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        settings.ensure_data_dir()
        engine = make_engine(settings.url)
        if settings.migrate:
            await upgrade(engine)
        rooms = RoomManager(engine, settings)
        app.state.rooms = rooms
        await rooms.start()
        log.info(startup_line(settings, where, serving_with(launcher, http, websocket)
                              + "; " + launch.describe(settings)))
        if "*" in [part.strip() for part in settings.trusted_proxies.split(",")]:
            log.warning("HOUSERULES_TRUSTED_PROXIES is *: any peer's X-Forwarded-For is believed, so a "
                        "client that reaches the app directly (or through a proxy that appends to the "
                        "header) chooses its own address and escapes every per-address limit."
                        " Name the proxies.")
        try:
            yield
        finally:
            await rooms.stop()
            await engine.dispose()

    # /docs and /redoc load their scripts from a CDN onto the origin that holds the players' tokens:
    # off unless asked for (/openapi.json stays).
    docs = {} if settings.api_docs else {"docs_url": None, "redoc_url": None}
    app = FastAPI(title="Houserules", version="0.1.0", lifespan=lifespan, **docs)  # type: ignore[arg-type]
    app.state.settings = settings
    app.state.limits = {
        "rooms": Buckets(settings.rooms_per_minute),
        "joins": Buckets(settings.joins_per_minute),
        "sheets": Buckets(settings.sheet_saves_per_minute),
        "records": Buckets(settings.records_per_minute),
        "replayed": Buckets(settings.replay_entries_per_minute),
        "hellos": Buckets(settings.hellos_per_second * 60, burst=settings.hellos_burst),
    }
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(SingleHost)

    @app.exception_handler(RoomError)
    async def room_error(_request: Request, error: RoomError) -> JSONResponse:
        headers = None
        if error.retry_after is not None:
            headers = {"Retry-After": str(max(1, math.ceil(error.retry_after)))}
        return JSONResponse(error.to_json(), status_code=error.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, error: RequestValidationError) -> JSONResponse:
        first = error.errors()[0] if error.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ())[1:]) or "body"
        message = f"Field {where!r}: {first.get('msg', 'invalid')}."
        return JSONResponse({"code": "bad_request", "message": message}, status_code=422)

    app.include_router(api.router)
    app.include_router(api.ops)
    app.include_router(ws.router)
    from app.web import pages

    app.include_router(pages.router)
    return app
