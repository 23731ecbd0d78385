"""The replay of a game: the game rebuilt from its log, one frame per log entry, as one seat (or a
spectator) was shown it.

A frame is shaped like a ``state`` message (docs/protocol.md) without moves, so the page draws it with
the same table module as live play. A replay shows no more than live play or the game's published
secrets do:

- A finished game replays whole: a spectator's frames to anyone; every seat's frames to anyone once a
  fair deal's seed is revealed (the game's end); for a game dealt before deals were fair, a seat's
  frames only to the member who played that seat in the room's latest game (their token; seats are
  renumbered at each deal, so an earlier game's seats are not known to be theirs).
- A game still in play replays up to the end of its last finished part (a Hold'em table's hand):
  as long as every shuffle the game has made has its key published (the ``shuffle_key`` event: all
  of its cards may be known), and no further; every seat's frames to anyone, as the keys show all
  those cards anyway. The part in play is never shown, and a game with no finished part (say one
  whose keys all come at its end) has no replay until it ends.

Frames come in pages (``start``, ``count``). A game in play replays up to the first entry with a
shuffle still closed: when that entry ended the part before it, it is shown trimmed (``trimmed_frame``).
The game is walked once and a page drawn from a kept state near it (app/rooms/replay_index.py), so a
page costs what it holds, not what the game holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.games.base import Game
from app.rooms.bounds import is_token
from app.rooms.core import RoomCore
from app.rooms.entries import event_json, visible
from app.rooms.errors import RoomError
from app.rooms.records import took_over
from app.rooms.tokens import hash_token
from app.store.queries import LogEntry

PAGE_MAX = 200

# The events that start a part of a game worth jumping to, and the data field that numbers it.
MARKS = {"deal_started": "deal", "hand_started": "hand"}


def _events_for(entry: LogEntry, seat: int | None) -> list[dict[str, Any]]:
    """The entry's events as the seat (``None``: a spectator) was shown them."""
    return [event_json(entry, row) for row in entry.events if visible(row, seat)]


def _trimmed_events(entry: LogEntry, seat: int | None) -> list[dict[str, Any]]:
    """The events of an entry that ended one part of the game and began the next, up to the mark of
    the part it began: those after it belong to the part in play, but for the published shuffle
    keys (the ended part's key rides at the end of the entry)."""
    rows: list[dict[str, Any]] = []
    began = False
    for row in entry.events:
        began = began or row.get("type") in MARKS
        if (not began or row.get("type") == "shuffle_key") and visible(row, seat):
            rows.append(event_json(entry, row))
    return rows


def frame(game: Game[Any, Any], state: Any, entry: LogEntry, seat: int | None) -> dict[str, Any]:
    """The frame of a log entry: the state after it as the seat saw it, and its events."""
    outcome = game.outcome(state)
    return {"version": entry.version, "view": game.view(state, seat), "events": _events_for(entry, seat),
            "outcome": None if outcome is None else outcome.to_json()}


def trimmed_frame(game: Game[Any, Any], state: Any, entry: LogEntry, seat: int | None) -> dict[str, Any]:
    """The frame of an entry that ended one part of a game in play and began the next (the part in
    play began in the same move: its mark is among the entry's events): the events before the
    mark, over the game's ``view_between``."""
    return {"version": entry.version, "view": game.view_between(state, seat),
            "events": _trimmed_events(entry, seat), "outcome": None}


def check_page(seats: int, seat: int | None, length: int, start: int, in_play: bool) -> None:
    """Refusals of a page: a seat the game has not; in play, nothing finished yet
    (``game_not_over``) or frames past the last finished part (``hand_in_play``)."""
    if seat is not None and not 0 <= seat < seats:
        raise RoomError("bad_seat", "Choose a seat from 1 to {seats}.", 422, seats=seats)
    if in_play:
        if length == 0:
            raise RoomError("game_not_over", "This game has not ended; its replay opens when it does.", 409)
        if start >= length:
            raise RoomError("hand_in_play", "Those moves belong to a hand still in play; they can be "
                            "watched once it ends.", 409)


def check_game(game_no: int, current_no: int) -> None:
    """A replay is of one of the room's games so far."""
    if game_no < 1 or game_no > current_no:
        raise RoomError("unknown_game", "This room has no such game.", 404)


def seat_names(entries: Sequence[LogEntry], players: int) -> list[str | None]:
    """Who sat in each seat at the game's deal, as its ``deal`` event names them; ``None`` for a seat
    it does not name (a deal logged before deals named their seats)."""
    names: list[str | None] = [None] * players
    rows = entries[0].events if entries and entries[0].kind == "deal" else []
    for row in rows:
        listed = (row.get("data") or {}).get("names") if row.get("type") == "deal" else None
        if isinstance(listed, list):
            for seat_no, name in enumerate(listed[:players]):
                names[seat_no] = name if isinstance(name, str) else None
    return names


def viewer_seat(room: RoomCore, game_no: int, seat: int | None, token: str | None,
                open_seats: bool) -> int | None:
    """The seat whose frames the caller may see: ``None`` (a spectator's) for anyone; any seat when
    ``open_seats`` (a finished fair game's seed is revealed, a game in play shows only what its
    published keys show: nothing hidden any more); otherwise a seat only for the member who played
    it in the room's latest game."""
    if seat is None:
        return None
    member = room.by_token.get(hash_token(token)) if token is not None and is_token(token) else None
    if token is not None and (member is None or member.status == "gone"):
        raise RoomError("bad_token", "That token holds no seat in this room.", 403)
    if open_seats:
        return seat
    if (member is None or game_no != room.game_no or member.status != "seated" or member.seat != seat
            or took_over(room, member)):
        raise RoomError("not_your_seat", "Only the player of that seat may watch the game from it.", 403)
    return seat

