"""``create_app()``: wiring only (settings, database, rooms, routers)."""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from app.config import Settings
from app.rooms.errors import RoomError
from app.rooms.limits import Buckets
from app.rooms.manager import RoomManager
from app.store.db import make_engine, upgrade
from app.web import api, ws
from app.web.body import BodyLimit


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        settings.ensure_data_dir()
        engine = make_engine(settings.url)
        if settings.migrate:
            await upgrade(engine)
        rooms = RoomManager(engine, settings)
        app.state.rooms = rooms
        await rooms.start()
        try:
            yield
        finally:
            await rooms.stop()
            await engine.dispose()

    app = FastAPI(title="Houserules", version="0.1.0", lifespan=lifespan)
    app.state.settings = settings
    app.state.limits = {
        "rooms": Buckets(settings.rooms_per_minute),
        "joins": Buckets(settings.joins_per_minute),
        "sheets": Buckets(settings.sheet_saves_per_minute),
    }
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)

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
