"""Log entries as the room writes and reads them: pure functions of the game and its state.

An entry's event rows, who may see each row, the JSON a socket gets for it, and the entries the
server adds itself around a move (the game's clock action before it, the automatic moves after it).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from app import json_codec
from app.games.base import Event, Game, IllegalAction, RuleSheetBase
from app.rooms import metrics
from app.store.queries import LogEntry

log = logging.getLogger(__name__)

# Server actions (the game's ``server_actions``) are applied as this seat and logged with none.
SERVER_SEAT = 0
# Moves the server makes at once for seats that asked to be skipped, at most this many per commit
# (a table of absent players could otherwise play on without end inside one lock).
AUTO_MAX = 500
# The kind of log entry for the host's skip of an away seat's turn (app/rooms/standin.py).
SKIP = "skip"

_MOVE_COUNTERS: dict[str, Any] = {}


def moves_metric(kind: str) -> Any:
    """The moves counter of one kind (the labelled child looked up once, not at every commit)."""
    counter = _MOVE_COUNTERS.get(kind)
    if counter is None:
        counter = _MOVE_COUNTERS[kind] = metrics.MOVES.labels(kind)
    return counter


def dumps(message: Mapping[str, Any]) -> str:
    return json_codec.dumps(message)


def event_row(event: Event) -> dict[str, Any]:
    return {"type": event.type, "data": dict(event.data),
            "audience": None if event.audience is None else list(event.audience)}


def visible(row: Mapping[str, Any], seat: int | None, version: int = 0, since: int = 0) -> bool:
    """Whether an event row of the log entry at ``version`` is for ``seat``, held since ``since``:
    public events are for everyone, private ones for the member holding the seat when they happened."""
    audience = row.get("audience")
    return audience is None or (seat is not None and seat in audience and version >= since)


def apply_entry(game: Game[Any, Any], sheet: RuleSheetBase, state: Any, entry: LogEntry) -> Any:
    """A logged entry applied again: a deal starts from its seed, anything else is an action."""
    if entry.kind == "deal":
        return game.new(sheet, entry.action["players"], seed=entry.action["seed"])
    seat = SERVER_SEAT if entry.seat is None else entry.seat
    state, _ = game.apply(state, seat, entry.action)
    return state


def event_json(entry: LogEntry, row: Mapping[str, Any]) -> dict[str, Any]:
    event = {"seat": entry.seat, **row.get("data", {}), "version": entry.version, "type": row["type"]}
    if entry.kind == "bot":
        event["bot"] = True  # a bot's move (a bot's seat, or a stand-in for an absent player)
    elif entry.kind == SKIP:
        event["skipped"] = True  # the host made the game's default move for an away seat
    return event


def clock_entries(game: Game[Any, Any], state: Any, version: int, game_no: int, now: float
                  ) -> tuple[Any, list[LogEntry]]:
    """The game's clock action if one is due at ``now`` (logged with no seat), applied to ``state``."""
    action = game.clock_action(state, now)
    if action is None:
        return state, []
    try:
        state, events = game.apply(state, SERVER_SEAT, action)
    except IllegalAction:
        log.exception("clock action of %s was refused", game.name)
        return state, []
    return state, [LogEntry(version + 1, game_no, "clock", None, dict(action),
                            [event_row(e) for e in events])]


def auto_entries(game: Game[Any, Any], state: Any, version: int, game_no: int) -> tuple[Any, list[LogEntry]]:
    """The moves made at once for seats to act that the game answers itself (``auto_action``)."""
    entries: list[LogEntry] = []
    while len(entries) < AUTO_MAX and game.outcome(state) is None:
        found = next(((seat, a) for seat in game.to_act(state)
                      if (a := game.auto_action(state, seat)) is not None), None)
        if found is None:
            break
        seat, action = found
        try:
            state, events = game.apply(state, seat, action)
        except IllegalAction:
            log.exception("auto action of %s was refused", game.name)
            break
        entries.append(LogEntry(version + len(entries) + 1, game_no, "auto", seat, dict(action),
                                [event_row(e) for e in events]))
    return state, entries
