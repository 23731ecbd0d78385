"""The browser's pages: home (lobby and rule-sheet form), the room page and the printable rule sheet.

Pages are rendered with Jinja2 from ``templates/``; their behaviour lives in the ES modules under
``static/``, which talk to the server only through the HTTP API and the WebSocket. The language
comes from the ``lang`` cookie (set by the switch at ``/lang/{code}``) or else Accept-Language; the
page carries that language's message catalogue as JSON so scripts render their texts at once.
"""

from __future__ import annotations

import hashlib
import os
import re
from functools import cache
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, HTTPException, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.types import Scope

from app import registry
from app.rooms.bounds import INT_MAX
from app.web import i18n

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
STATIC = ROOT / "static"

ROOM_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
YEAR_SECONDS = 365 * 24 * 3600

# Scripts and styles come from this origin only; the catalogue rides in a non-executable JSON block.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'"
)


class VersionedStatic(StaticFiles):
    """Static files: a URL with ``?v=<content hash>`` never changes and is cached for a year; the
    plain URLs that ES modules import each other by are revalidated on every use (ETag), so a
    changed module is never run stale next to a fresh one."""

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        versioned = b"v=" in scope.get("query_string", b"")
        response.headers["Cache-Control"] = "public, max-age=31536000, immutable" if versioned else "no-cache"
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response


router = APIRouter(include_in_schema=False)


@cache
def _game_static(name: str) -> VersionedStatic | None:
    """The static files a game brings in its own folder (``Game.assets``), or ``None``."""
    game = registry.GAMES.get(name)
    folder = game.assets() if game is not None else None
    return VersionedStatic(directory=folder) if folder is not None else None


# Before the mount of /static, which would answer these paths itself.
@router.get("/static/games/{name}/{path:path}")
async def game_asset(request: Request, name: str, path: str) -> Response:
    """A file of a game's own static folder (a game shipped as its own package: its table)."""
    files = _game_static(name)
    if files is None:
        raise HTTPException(status_code=404, detail="Not Found")
    return await files.get_response(path, request.scope)


router.mount("/static", VersionedStatic(directory=STATIC), name="static")

_env = Environment(
    loader=FileSystemLoader(TEMPLATES),
    autoescape=select_autoescape(["html"]),
    extensions=["jinja2.ext.i18n"],
    trim_blocks=True,
    lstrip_blocks=True,
)


def _static_file(path: str) -> Path:
    """The file behind ``/static/<path>``: the app's, or a game's own (``games/<name>/…``)."""
    parts = path.split("/", 2)
    if len(parts) == 3 and parts[0] == "games":
        game = registry.GAMES.get(parts[1])
        folder = game.assets() if game is not None else None
        if folder is not None:
            return folder / parts[2]
    return STATIC / path


@cache
def _static_version(path: str) -> str:
    """A short content hash so a changed file is never served stale from a browser cache."""
    target = _static_file(path).resolve()
    try:
        return hashlib.sha256(target.read_bytes()).hexdigest()[:10]
    except OSError:
        return "0"


def static_url(path: str) -> str:
    return f"/static/{path}?v={_static_version(path)}"


def request_language(request: Request) -> str:
    return i18n.pick_language(request.cookies.get(i18n.COOKIE), request.headers.get("accept-language"))


def game_tables() -> dict[str, str]:
    """Each registered game's table module by game name, as the pages load it
    (``static/js/tables/index.js``): the plain URL that ES modules import each other by."""
    return {name: f"/static/{game.table_module()}" for name, game in registry.GAMES.items()}


def game_styles() -> list[str]:
    """The style sheets of every registered game's table (``Game.table_styles``), under /static/."""
    return [path for game in registry.GAMES.values() for path in game.table_styles()]


def render(request: Request, template: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    lang = request_language(request)
    translations = i18n.translations(lang)
    body = _env.get_template(template).render(
        lang=lang,
        languages=[(code, i18n.LANGUAGE_NAMES[code]) for code in i18n.LANGUAGES],
        messages=i18n.messages(lang),
        catalogue=i18n.script_catalogue(lang),
        static_url=static_url,
        game_tables=game_tables(),
        game_styles=game_styles(),
        path=request.url.path,
        _=translations.gettext,
        gettext=translations.gettext,
        ngettext=translations.ngettext,
        **context,
    )
    response = HTMLResponse(body, status_code=status_code)
    response.headers["Content-Security-Policy"] = CSP
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    # The language decides the text, so caches must keep one copy per cookie.
    response.headers["Vary"] = "Cookie, Accept-Language"
    return response


def _room_id(room: str) -> str:
    if not ROOM_ID.match(room):
        raise HTTPException(status_code=404, detail="No such room.")
    return room


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    return render(request, "home.html", page="home")


@router.get("/r/{room}", response_class=HTMLResponse)
def room_page(request: Request, room: str) -> HTMLResponse:
    return render(request, "room.html", page="room", room=_room_id(room))


@router.get("/r/{room}/replay/{game_no}", response_class=HTMLResponse)
def replay_page(request: Request, room: str,
                game_no: Annotated[int, PathParam(ge=1, le=INT_MAX)]) -> HTMLResponse:
    return render(request, "replay.html", page="replay", room=_room_id(room), game_no=game_no)


@router.get("/r/{room}/sheet", response_class=HTMLResponse)
def room_sheet(request: Request, room: str) -> HTMLResponse:
    return render(request, "sheet.html", page="sheet", room=_room_id(room))


def _local_path(target: str | None) -> str:
    """Only a path on this site may be a redirect target (no scheme, no host, no '//')."""
    if not target:
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return "/"
    return target


@router.get("/lang/{code}")
def switch_language(code: str, next: str | None = None) -> Response:
    if code not in i18n.LANGUAGES:
        raise HTTPException(status_code=404, detail="Unknown language.")
    response = RedirectResponse(_local_path(next), status_code=303)
    response.set_cookie(i18n.COOKIE, code, max_age=YEAR_SECONDS, samesite="lax", httponly=False)
    return response


@router.get("/i18n/{lang}.json")
def catalogue(lang: str) -> JSONResponse:
    if lang not in i18n.LANGUAGES:
        raise HTTPException(status_code=404, detail="Unknown language.")
    return JSONResponse(i18n.script_catalogue(lang))
