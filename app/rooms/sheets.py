"""Rule sheets: a game's sheet made from a preset and options (bounded in size), and saved sheets
that anyone may copy and only whoever saved one may change (with its edit token).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from app import registry
from app.config import Settings
from app.games.base import Game, IllegalAction
from app.rooms.bounds import is_sheet_id
from app.rooms.errors import RoomError
from app.rooms.members import clean_text
from app.rooms.tokens import hash_token, new_token
from app.store import queries


def get_game(name: str) -> Game[Any, Any]:
    try:
        return registry.get(name)
    except KeyError:
        raise RoomError("unknown_game", "There is no game called '{name}'.", 404, name=name[:32]) from None


def check_sheet_size(options: dict[str, Any] | None, max_items: int, max_bytes: int,
                     label: Callable[[str], str] = str) -> None:
    """Refuse a sheet whose options hold a list longer than ``max_items`` (anywhere inside an
    option, e.g. a list of blind levels) or whose JSON is over ``max_bytes``: a sheet is kept in
    memory, sent to every socket of its room and stored with it, so its size is bounded.
    ``label`` gives an option's English label (``Game.option_label``)."""
    if not options:
        return
    for option, value in options.items():
        stack = [value]
        while stack:
            item = stack.pop()
            if isinstance(item, list):
                if len(item) > max_items:
                    raise RoomError("invalid_sheet", "“{label}”: at most {max_items} entries.",
                                    422, option, key=option[:64], label=label(option)[:64],
                                    max_items=max_items)
                stack.extend(item)
            elif isinstance(item, dict):
                stack.extend(item.values())
    sizes = {option: len(json.dumps(value)) for option, value in options.items()}
    if sum(sizes.values()) > max_bytes:
        largest = max(sizes, key=lambda option: sizes[option])
        raise RoomError("sheet_too_large", "The rule sheet is over {max_bytes} bytes; “{label}” "
                        "is the largest.", 422, largest, max_bytes=max_bytes, key=largest[:64],
                        label=label(largest)[:64])


class Sheets:
    """The saved sheets of the store, and sheets made for new rooms."""

    def __init__(self, engine: AsyncEngine, settings: Settings) -> None:
        self.engine = engine
        self.settings = settings

    def make_sheet(self, game: Game[Any, Any], preset: str | None, options: dict[str, Any] | None
                   ) -> dict[str, Any]:
        self.check_sheet_size(options, game)
        try:
            full: dict[str, Any] = game.sheet(options, preset=preset).model_dump(mode="json")
            return full
        except IllegalAction as refused:
            raise RoomError(refused.code, refused.message, 422, getattr(refused, "option", None)) from None

    def check_sheet_size(self, options: dict[str, Any] | None, game: Game[Any, Any]) -> None:
        check_sheet_size(options, self.settings.sheet_max_items, self.settings.sheet_max_bytes,
                         game.option_label)

    async def save_sheet(self, game_name: str, name: str, preset: str | None, options: dict[str, Any] | None
                         ) -> dict[str, Any]:
        """A new saved sheet; the answer's ``edit_token`` (given only here) is needed to change it."""
        game = get_game(game_name)
        full = self.make_sheet(game, preset, options)
        name = clean_text(name, 80, "name")
        sheet_id = secrets.token_urlsafe(12)
        edit_token = new_token()
        await queries.insert_sheet(self.engine, sheet_id, 1, game.name, name, full, hash_token(edit_token))
        return {"id": sheet_id, "version": 1, "game": game.name, "name": name, "options": full,
                "edit_token": edit_token}

    async def copy_sheet(self, sheet_id: str, version: int | None, name: str | None) -> dict[str, Any]:
        """Anyone may copy a saved sheet into a new one of their own (with its own edit token)."""
        source = await self.get_sheet(sheet_id, version)
        return await self.save_sheet(source["game"], name if name is not None else source["name"], None,
                                     source["options"])

    async def update_sheet(self, sheet_id: str, options: dict[str, Any], name: str | None,
                           edit_token: str | None) -> dict[str, Any]:
        if not is_sheet_id(sheet_id):
            raise RoomError("unknown_sheet", "There is no such rule sheet.", 404)
        current = await queries.get_sheet(self.engine, sheet_id)
        if current is None:
            raise RoomError("unknown_sheet", "There is no such rule sheet.", 404)
        owner = current.get("edit_hash")
        if owner is None or edit_token is None or not secrets.compare_digest(owner, hash_token(edit_token)):
            raise RoomError("not_sheet_owner", "Only whoever saved this sheet can change it (with its edit "
                            "token); you can copy it into a sheet of your own.", 403)
        game = get_game(current["game"])
        full = self.make_sheet(game, None, {**current["options"], **options})
        new_name = clean_text(name, 80, "name") if name is not None else current["name"]
        version = current["version"] + 1
        try:
            await queries.insert_sheet(self.engine, sheet_id, version, game.name, new_name, full, owner)
        except Exception:
            message = "The sheet was changed at the same time; try again."
            raise RoomError("sheet_conflict", message, 409) from None
        return {"id": sheet_id, "version": version, "game": game.name, "name": new_name, "options": full}

    async def get_sheet(self, sheet_id: str, version: int | None) -> dict[str, Any]:
        if not is_sheet_id(sheet_id):
            raise RoomError("unknown_sheet", "There is no such rule sheet.", 404)
        row = await queries.get_sheet(self.engine, sheet_id, version)
        if row is None:
            raise RoomError("unknown_sheet", "There is no such rule sheet.", 404)
        return {"id": row["id"], "version": row["version"], "game": row["game"], "name": row["name"],
                "options": row["options"]}

    async def list_sheets(self, game: str | None) -> list[dict[str, Any]]:
        return [{"id": r["id"], "version": r["version"], "game": r["game"], "name": r["name"],
                 "options": r["options"]} for r in await queries.list_sheets(self.engine, game)]
