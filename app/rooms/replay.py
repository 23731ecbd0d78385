"""The replay of a finished game: the game rebuilt from its log, one frame per log entry, as one
seat (or a spectator) was shown it.

A frame is shaped like a ``state`` message (docs/protocol.md) without moves, so the page draws it with
the same table module as live play. A game's replay opens once it has ended, and shows no more than
live play or the game's revealed secrets do: a spectator's frames to anyone; every seat's frames to
anyone once a fair deal's seed is revealed (the game's end); for a game dealt before deals were fair,
a seat's frames only to the member who played that seat in the room's latest game (their token;
seats are renumbered at each deal, so an earlier game's seats are not known to be theirs). Frames
come in pages (``start``, ``count``); each request rebuilds the game from its deal, which costs
about as much as loading the room.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.games.base import Game, RuleSheetBase
from app.rooms.bounds import is_token
from app.rooms.errors import RoomError
from app.rooms.room import Room, _event_json, _visible, apply_entry
from app.rooms.tokens import hash_token
from app.store.queries import LogEntry

PAGE_MAX = 200

# The events that start a part of a game worth jumping to, and the data field that numbers it.
MARKS = {"deal_started": "deal", "hand_started": "hand"}


def _events_for(entry: LogEntry, seat: int | None) -> list[dict[str, Any]]:
    """The entry's events as the seat (``None``: a spectator) was shown them."""
    return [_event_json(entry, row) for row in entry.events if _visible(row, seat)]


def _marks(entries: Sequence[LogEntry]) -> list[dict[str, Any]]:
    """Where the game and each later deal or hand start (frame index), for jumping. A game's first
    deal is its start: the engines announce only the deals after it."""
    marks: list[dict[str, Any]] = [{"index": 0, "kind": "start", "number": None}]
    for index, entry in enumerate(entries):
        for row in entry.events:
            field = MARKS.get(row.get("type", ""))
            if field is not None and index > 0:
                marks.append({"index": index, "kind": field, "number": (row.get("data") or {}).get(field)})
    return marks


def frames(game: Game[Any, Any], sheet: RuleSheetBase, entries: Sequence[LogEntry], seat: int | None,
           start: int, count: int) -> dict[str, Any]:
    """Frames ``start`` … ``start + count - 1`` of the game logged in ``entries`` (its deal first),
    drawn for ``seat`` (``None``: a spectator), with the game's seat count, length and marks."""
    if not entries or entries[0].kind != "deal":
        raise RoomError("unknown_game", "This room has no such game.", 404)
    players = int(entries[0].action["players"])
    if seat is not None and not 0 <= seat < players:
        raise RoomError("bad_seat", f"Choose a seat from 1 to {players}.", 422)
    count = max(1, min(count, PAGE_MAX))
    state: Any = None
    page: list[dict[str, Any]] = []
    for index, entry in enumerate(entries):
        state = apply_entry(game, sheet, state, entry)
        if index >= start + count:
            break
        if index >= start:
            outcome = game.outcome(state)
            page.append({"version": entry.version, "view": game.view(state, seat),
                         "events": _events_for(entry, seat),
                         "outcome": None if outcome is None else outcome.to_json()})
    return {"players": players, "length": len(entries), "start": start, "frames": page,
            "marks": _marks(entries)}


def check_finished(game: Game[Any, Any], game_no: int, current_no: int, current_state: Any) -> None:
    """A replay opens when its game has ended: an earlier game of the room, or the current one once
    it has an outcome."""
    if game_no < 1 or game_no > current_no:
        raise RoomError("unknown_game", "This room has no such game.", 404)
    if game_no == current_no and (current_state is None or game.outcome(current_state) is None):
        raise RoomError("game_not_over", "This game has not ended; its replay opens when it does.", 409)


def revealed(entries: Sequence[LogEntry]) -> bool:
    """Whether the game's secrets are out: a fair deal's ``reveal`` (docs/fairness.md) gives its
    server seed at the game's end, from which every card it dealt can be worked out."""
    return any(row.get("type") == "reveal" for entry in reversed(entries) for row in entry.events)


def viewer_seat(room: Room, game_no: int, seat: int | None, token: str | None,
                open_seats: bool) -> int | None:
    """The seat whose frames the caller may see: ``None`` (a spectator's) for anyone; any seat of a
    finished fair game (its seed is revealed, so nothing it dealt is hidden any more); otherwise a
    seat only for the member who played it in the room's latest game."""
    if seat is None:
        return None
    member = room.by_token.get(hash_token(token)) if token is not None and is_token(token) else None
    if token is not None and (member is None or member.status == "gone"):
        raise RoomError("bad_token", "That token holds no seat in this room.", 403)
    if open_seats:
        return seat
    if (member is None or game_no != room.game_no or member.status != "seated" or member.seat != seat
            or room._took_over(member)):
        raise RoomError("not_your_seat", "Only the player of that seat may watch the game from it.", 403)
    return seat
