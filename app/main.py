"""``create_app()``: wiring only (settings, database, rooms, routers)."""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from app import vitals
from app.config import Settings
from app.games import fair
from app.games.base import Sentence
from app.rooms.errors import RoomError, refusal_fields
from app.rooms.limits import Buckets
from app.rooms.manager import RoomManager
from app.store.db import make_engine, upgrade
from app.web import api, launch, ws
from app.web.body import BodyLimit
from app.web.http_guard import SingleHost

log = logging.getLogger("app")


REFUSED_FACTORY = (
    "Houserules chooses its own transport (its HTTP and WebSocket protocols with their limits, no "
    "compression, its frame cap; app.web.launch), which a server that calls create_app() itself does "
    "not set. Start it with `python -m app` (HOST, PORT and every HOUSERULES_* setting come from the "
    "environment), or build the server yourself: "
    "uvicorn.run(create_app(settings), **app.web.launch.uvicorn_options(settings, parser), ...)."
)


def serving_with(http: str | None, websocket: str | None) -> str:
    """The event loop, HTTP parser and WebSocket implementation this server runs on."""
    loop = asyncio.get_running_loop()
    loop_name = "uvloop" if type(loop).__module__.startswith("uvloop") else "asyncio"
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
    implementation for the start-up line.

    Called without settings, as ``uvicorn --factory app.main:create_app`` does, it refuses to start
    (``REFUSED_FACTORY``): such a launcher serves with its own protocols and options, not the
    transport and limits the app relies on (docs/security.md, "Transport limits")."""
    if settings is None:
        raise SystemExit(REFUSED_FACTORY)
    _configure_logging(settings)
    # Tests only (allowed by the settings' own check): deals that repeat from run to run.
    fair.fix_server_seeds(settings.test_fixed_seed)
    if settings.test_fixed_seed is not None:
        log.warning("HOUSERULES_TEST_FIXED_SEED is set: every deal here is predictable (tests only)")
    # /docs and /redoc load their scripts from a CDN onto the origin that holds the players' tokens:
    # off unless asked for (/openapi.json stays).
    docs = {} if settings.api_docs else {"docs_url": None, "redoc_url": None}
    app = FastAPI(title="Houserules", version="0.1.0", lifespan=_lifespan(settings, http, websocket),
                  **docs)  # type: ignore[arg-type]
    app.state.settings = settings
    app.state.limits = _rate_limits(settings)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(SingleHost)
    app.add_exception_handler(RoomError, _room_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, _bad_request)  # type: ignore[arg-type]
    _include_routers(app)
    return app


def _configure_logging(settings: Settings) -> None:
    if not logging.getLogger().handlers and not log.handlers:
        # Launched by another server: still say what happens, at the configured level.
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(levelname)s:     %(name)s: %(message)s"))
        log.addHandler(handler)
    log.setLevel(settings.log_level.upper())


Lifespan = Callable[[FastAPI], AbstractAsyncContextManager[None]]


def _lifespan(settings: Settings, http: str | None, websocket: str | None) -> Lifespan:
    """Start-up and shut-down: the database (migrated when asked), the rooms and the start-up line."""
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
        log.info(startup_line(settings, where, serving_with(http, websocket)
                              + "; " + launch.describe(settings)))
        _warn_if_any_proxy_is_trusted(settings)
        try:
            async with vitals.watching():
                yield
        finally:
            await rooms.stop()
            await engine.dispose()

    return lifespan


def _warn_if_any_proxy_is_trusted(settings: Settings) -> None:
    if "*" in [part.strip() for part in settings.trusted_proxies.split(",")]:
        log.warning("HOUSERULES_TRUSTED_PROXIES is *: any peer's X-Forwarded-For is believed, so a "
                    "client that reaches the app directly (or through a proxy that appends to the "
                    "header) chooses its own address and escapes every per-address limit."
                    " Name the proxies.")


def _rate_limits(settings: Settings) -> dict[str, Buckets]:
    """The per-address rate limits, by what they count (docs/security.md)."""
    return {
        "rooms": Buckets(settings.rooms_per_minute),
        "joins": Buckets(settings.joins_per_minute),
        "sheets": Buckets(settings.sheet_saves_per_minute),
        "records": Buckets(settings.records_per_minute),
        "replayed": Buckets(settings.replay_entries_per_minute),
        "hellos": Buckets(settings.hellos_per_second * 60, burst=settings.hellos_burst),
    }


async def _room_error(_request: Request, error: RoomError) -> JSONResponse:
    headers = None
    if error.retry_after is not None:
        headers = {"Retry-After": str(max(1, math.ceil(error.retry_after)))}
    return JSONResponse(error.to_json(), status_code=error.status, headers=headers)


async def _bad_request(_request: Request, error: RequestValidationError) -> JSONResponse:
    first = error.errors()[0] if error.errors() else {}
    where = ".".join(str(p) for p in first.get("loc", ())[1:]) or "body"
    message = Sentence("Field '{field}': {detail}.", field=where, detail=str(first.get("msg", "invalid")))
    return JSONResponse({"code": "bad_request", **refusal_fields(message)}, status_code=422)


def _include_routers(app: FastAPI) -> None:
    app.include_router(api.router)
    app.include_router(api.ops)
    app.include_router(ws.router)
    from app.web import pages

    app.include_router(pages.router)
