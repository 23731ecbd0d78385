"""The JSON API under ``/api`` (OpenAPI at ``/openapi.json``), ``/healthz`` and ``/metrics``."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request, Response
from fastapi.responses import JSONResponse, PlainTextResponse
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from app import json_codec, registry
from app.rooms import replay
from app.rooms.bounds import INT_MAX
from app.rooms.errors import RoomError
from app.rooms.limits import Buckets, whole_seconds
from app.rooms.manager import RoomManager
from app.rooms.replay_index import Meter
from app.web.client_address import client_key, forwarded
from app.web.schemas import (
    ErrorOut,
    GameInfo,
    Joined,
    JoinIn,
    RoomCreated,
    RoomIn,
    RoomInfo,
    SheetCopy,
    SheetIn,
    SheetOut,
    SheetUpdate,
)

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (400, 403, 404, 409, 413, 422, 429)
}

router = APIRouter(prefix="/api", responses=ERRORS)
ops = APIRouter()


def bearer(request: Request) -> str | None:
    """The token of an ``Authorization: Bearer …`` header, if any."""
    header = request.headers.get("authorization", "")
    token = header[len("bearer "):].strip() if header.lower().startswith("bearer ") else ""
    return token or None


def _rate_limited(wait: float) -> RoomError:
    seconds = whole_seconds(wait)
    message = ("Too many requests from your address; try again in {seconds} second." if seconds == 1
               else "Too many requests from your address; try again in {seconds} seconds.")
    return RoomError("rate_limited", message, 429, retry_after=seconds, seconds=seconds)


def limit(request: Request, kind: str) -> None:
    """Per client address token bucket of ``kind`` (rooms, joins, sheets, records): 429 with Retry-After."""
    buckets: Buckets = request.app.state.limits[kind]
    wait = buckets.take(client_key(request))
    if wait > 0:
        raise _rate_limited(wait)


@contextmanager
def replay_budget(request: Request) -> Iterator[Meter]:
    """The per-address budget of log entries replayed (records, histories, replays): refused with
    429 while the address's budget is in debt; what the request replayed is charged when it ends,
    refused or not."""
    buckets: Buckets = request.app.state.limits["replayed"]
    key = client_key(request)
    wait = buckets.admit(key)
    if wait > 0:
        raise _rate_limited(wait)
    meter = Meter()
    try:
        yield meter
    finally:
        buckets.charge(key, meter.entries)


def manager(request: Request) -> RoomManager:
    result: RoomManager = request.app.state.rooms
    return result


@router.get("/fairness/key")
async def fairness_key(request: Request) -> dict[str, Any]:
    """The server's Ed25519 public key, which signs commitments and sealed rounds (docs/fairness.md)."""
    signer = manager(request).signer
    if signer is None:
        raise RoomError("starting", "The server is starting; try again in a moment.", 503)
    return {"algorithm": "Ed25519", "public_key": signer.public_hex}


@router.get("/games", response_model=list[GameInfo], response_model_by_alias=True)
async def list_games() -> list[dict[str, Any]]:
    """Every game; ``min_players``/``max_players`` span every sheet the game accepts (a sheet's own
    range may be narrower, set by its options), ``players`` is each preset's own range."""
    out = []
    for game in registry.GAMES.values():
        presets = {name: sheet.model_dump(mode="json") for name, sheet in game.presets.items()}
        ranges = {name: [s.min_players(), s.max_players()] for name, s in game.presets.items()}
        out.append({"name": game.name, "titles": dict(game.titles),
                    "min_players": game.RuleSheet.MIN_PLAYERS, "max_players": game.RuleSheet.MAX_PLAYERS,
                    "players": ranges, "presets": presets, "language_presets": dict(game.language_presets),
                    "schema": registry.sheet_schema(game)})
    return out


@router.post("/sheets", response_model=SheetOut, status_code=201)
async def create_sheet(body: SheetIn, request: Request) -> dict[str, Any]:
    limit(request, "sheets")
    return await manager(request).save_sheet(body.game, body.name, body.preset, body.options)


@router.get("/sheets", response_model=list[SheetOut], response_model_exclude_none=True)
async def list_sheets(request: Request, game: str | None = None) -> list[dict[str, Any]]:
    return await manager(request).list_sheets(game)


@router.get("/sheets/{sheet_id}", response_model=SheetOut, response_model_exclude_none=True)
async def get_sheet(sheet_id: str, request: Request,
                    version: Annotated[int | None, Query(ge=1, le=INT_MAX)] = None) -> dict[str, Any]:
    return await manager(request).get_sheet(sheet_id, version)


@router.put("/sheets/{sheet_id}", response_model=SheetOut, response_model_exclude_none=True)
async def update_sheet(sheet_id: str, body: SheetUpdate, request: Request) -> dict[str, Any]:
    """A new version of a saved sheet; needs ``Authorization: Bearer <edit token>`` (403 without)."""
    limit(request, "sheets")
    return await manager(request).update_sheet(sheet_id, body.options, body.name, bearer(request))


@router.post("/sheets/{sheet_id}/copy", response_model=SheetOut, status_code=201)
async def copy_sheet(sheet_id: str, body: SheetCopy, request: Request,
                     version: Annotated[int | None, Query(ge=1, le=INT_MAX)] = None) -> dict[str, Any]:
    """A new sheet of one's own from a saved one (any version); answers with its edit token."""
    limit(request, "sheets")
    return await manager(request).copy_sheet(sheet_id, version, body.name)


@router.post("/rooms", response_model=RoomCreated, status_code=201)
async def create_room(body: RoomIn, request: Request) -> dict[str, Any]:
    limit(request, "rooms")
    return await manager(request).create_room(
        body.game, name=body.name, seats=body.seats, preset=body.preset, options=body.options,
        sheet_id=body.sheet_id, sheet_version=body.sheet_version, approval=body.approval)


@router.get("/rooms/{room_id}", response_model=RoomInfo)
async def room_info(room_id: str, request: Request) -> dict[str, Any]:
    return await manager(request).info(room_id)


@router.post("/rooms/{room_id}/join", response_model=Joined, status_code=201)
async def join_room(room_id: str, body: JoinIn, request: Request) -> dict[str, Any]:
    limit(request, "joins")
    return await manager(request).join(room_id, body.name, body.seat)


@router.get(
    "/rooms/{room_id}/history",
    response_class=PlainTextResponse,
    responses={200: {"content": {"text/plain": {}}, "description": "the record as a file"}},
)
async def room_history(room_id: str, request: Request) -> PlainTextResponse:
    """The finished deals in the game's exchange format (Hold'em: a PHH set), filtered like a view:
    with ``Authorization: Bearer <seat token>`` as that seat saw them, without it as a spectator."""
    limit(request, "records")
    with replay_budget(request) as meter:
        name, text = await manager(request).history(room_id, bearer(request), meter)
    return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.get(
    "/rooms/{room_id}/record",
    responses={200: {"content": {"application/json": {}}, "description": "the game record as a file"}},
)
async def room_record(room_id: str, request: Request) -> JSONResponse:
    """The current game's verifiable record (docs/fairness.md), filtered like a view: with
    ``Authorization: Bearer <seat token>`` as that seat saw it, without it as a spectator."""
    limit(request, "records")
    with replay_budget(request) as meter:
        name, body = await manager(request).record(room_id, bearer(request), meter)
    return JSONResponse(body, headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.get("/rooms/{room_id}/games/{game_no}/replay")
async def game_replay(
    room_id: str, game_no: Annotated[int, Path(ge=1, le=INT_MAX)], request: Request,
    seat: Annotated[int | None, Query(ge=0, le=31)] = None,
    start: Annotated[int, Query(ge=0, le=INT_MAX)] = 0,
    count: Annotated[int, Query(ge=1, le=replay.PAGE_MAX)] = replay.PAGE_MAX,
) -> Response:
    """A game, one frame per log entry (``start``/``count`` page it) as a spectator was shown it, or
    with ``seat`` (and ``Authorization: Bearer <seat token>`` where the seat is not open to anyone) as
    that seat's player was: a finished game whole, one in play up to its last finished hand."""
    limit(request, "records")
    with replay_budget(request) as meter:
        body = await manager(request).replay(room_id, game_no, seat, bearer(request), start, count, meter)
    # A page of a big table's frames is a large document: written out in a worker thread, not by the
    # framework's encoder on the event loop.
    return Response(await asyncio.to_thread(json_codec.dumps, body), media_type="application/json")


@ops.get("/healthz")
async def healthz(request: Request) -> JSONResponse:
    try:
        await manager(request).healthy()
    except Exception:
        return JSONResponse({"status": "unavailable"}, status_code=503)
    return JSONResponse({"status": "ok"})


@ops.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    """Prometheus metrics: with ``HOUSERULES_METRICS_TOKEN`` set, to its bearer only; without it, only
    to a scrape that reached the app directly (not through a proxy). Anyone else gets a 404."""
    token: str | None = request.app.state.settings.metrics_token
    given = bearer(request)
    if (token and (given is None or not secrets.compare_digest(given.encode(), token.encode()))) or (
            not token and forwarded(request)):
        return JSONResponse({"code": "not_found", "message": "Not Found"}, status_code=404)
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)
