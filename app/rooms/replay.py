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

Frames come in pages (``start``, ``count``); each request rebuilds the game from its deal, which costs
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


def _keyed(entries: Sequence[LogEntry]) -> set[str]:
    """The labels of the shuffles whose keys the log has published (docs/fairness.md)."""
    return {str((row.get("data") or {}).get("label")) for entry in entries for row in entry.events
            if row.get("type") == "shuffle_key"}


def _trimmed_events(entry: LogEntry, seat: int | None) -> list[dict[str, Any]]:
    """The events of an entry that ended one part of the game and began the next, up to the mark of
    the part it began: those after it belong to the part in play, but for the published shuffle
    keys (the ended part's key rides at the end of the entry)."""
    rows: list[dict[str, Any]] = []
    began = False
    for row in entry.events:
        began = began or row.get("type") in MARKS
        if (not began or row.get("type") == "shuffle_key") and _visible(row, seat):
            rows.append(_event_json(entry, row))
    return rows


def _frame(game: Game[Any, Any], state: Any, entry: LogEntry, seat: int | None) -> dict[str, Any]:
    outcome = game.outcome(state)
    return {"version": entry.version, "view": game.view(state, seat), "events": _events_for(entry, seat),
            "outcome": None if outcome is None else outcome.to_json()}


def frames(game: Game[Any, Any], sheet: RuleSheetBase, entries: Sequence[LogEntry], seat: int | None,
           start: int, count: int, in_play: bool = False) -> dict[str, Any]:
    """Frames ``start`` … ``start + count - 1`` of the game logged in ``entries`` (its deal first),
    drawn for ``seat`` (``None``: a spectator), with the game's seat count, length and marks.

    ``in_play``: the game has not ended, and only its finished parts are shown. A frame is shown when
    every shuffle the game had made by then has its key published in the log (``shuffle_key``: all
    of its cards may be known, so every seat's view of it may be too); the first frame with a shuffle
    still closed ends the replay. When that frame's entry ended the part before it (the part in play
    began in the same move: its mark is among the entry's events), it is shown trimmed: the events
    before the mark, over the game's ``view_between``. Asking for frames past the end is refused
    (``hand_in_play``), and a game with no finished part yet has no replay (``game_not_over``)."""
    if not entries or entries[0].kind != "deal":
        raise RoomError("unknown_game", "This room has no such game.", 404)
    players = int(entries[0].action["players"])
    # A table game has seats beyond the deal's, where newcomers sit down later.
    seats = max(players, game.seat_count(apply_entry(game, sheet, None, entries[0])))
    if seat is not None and not 0 <= seat < seats:
        raise RoomError("bad_seat", f"Choose a seat from 1 to {seats}.", 422)
    count = max(1, min(count, PAGE_MAX))
    keyed = _keyed(entries) if in_play else None
    opened = 0  # the game's first shuffles whose keys are out: never asked for again
    length = len(entries)
    trimmed = False
    state: Any = None
    page: list[dict[str, Any]] = []
    for index, entry in enumerate(entries):
        state = apply_entry(game, sheet, state, entry)
        if keyed is not None:
            closed = False
            for shuffle in game.shuffles(state, opened):
                if shuffle.label not in keyed:
                    closed = True
                    break
                opened += 1
            if closed:
                trimmed = index > 0 and any(row.get("type") in MARKS for row in entry.events)
                length = index + 1 if trimmed else index
                if trimmed and start <= index < start + count:
                    page.append({"version": entry.version, "view": game.view_between(state, seat),
                                 "events": _trimmed_events(entry, seat), "outcome": None})
                break
        elif index >= start + count:
            break
        if start <= index < start + count:
            page.append(_frame(game, state, entry, seat))
    if in_play:
        if length == 0:
            raise RoomError("game_not_over", "This game has not ended; its replay opens when it does.", 409)
        if start >= length:
            raise RoomError("hand_in_play", "Those moves belong to a hand still in play; they can be "
                            "watched once it ends.", 409)
    # A trimmed frame's mark is the part in play's: the frame shows the end of the part before.
    marks = [mark for mark in _marks(entries) if mark["index"] < length - trimmed]
    return {"players": players, "length": length, "start": start, "frames": page, "marks": marks,
            "in_play": in_play}


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


def revealed(entries: Sequence[LogEntry]) -> bool:
    """Whether the game's secrets are out: a fair deal's ``reveal`` (docs/fairness.md) gives its
    server seed at the game's end, from which every card it dealt can be worked out."""
    return any(row.get("type") == "reveal" for entry in reversed(entries) for row in entry.events)


def viewer_seat(room: Room, game_no: int, seat: int | None, token: str | None,
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
            or room._took_over(member)):
        raise RoomError("not_your_seat", "Only the player of that seat may watch the game from it.", 403)
    return seat
