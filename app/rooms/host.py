"""The host's operations over the socket: deals (start, rematch), the sheet before the first deal,
requests to join, kicks, bots, stand-ins and skips, and handing the host role over.

Each operation runs under the room's lock; one that commits log entries (a deal, a skip, a bot
leaving a table) is answered, then its entries are published. Refusals raise ``RoomError``.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from app.games.base import IllegalAction
from app.rooms import bot_seats, fair_phase, membership, pipeline, sheets, standin
from app.rooms.core import RoomCore
from app.rooms.entries import auto_entries, clock_entries, dumps
from app.rooms.errors import RoomError
from app.rooms.members import Subscriber
from app.store import queries
from app.store.queries import LogEntry


async def run(room: RoomCore, sub: Subscriber, msg_id: str, op: str, args: dict[str, Any]) -> None:
    """A host operation from ``sub`` (this instance owns the room)."""
    if op in fair_phase.DEAL_OPS and room.status != "playing" and sub.member_id == room.host_member:
        await fair_phase.before_deal(room)  # the seats' hashes, then their bytes (fair_phase.py)
    async with room.lock:
        if room.answered(sub, msg_id):
            return
        member = room.member_of(sub)
        if member is None or member.id != room.host_member or member.status != "seated":
            return room.refuse(sub, msg_id, RoomError("not_host", "Only the host can do that."))
        if room.over_rate(sub, msg_id):
            return
        handler = OPERATIONS.get(op)
        if handler is None:
            return room.refuse(sub, msg_id, RoomError("unknown_op", "Unknown host operation."))
        try:
            entries = await handler(room, args)
        except (RoomError, IllegalAction) as refused:
            return room.refuse(sub, msg_id, refused)
        except Exception as error:  # a version conflict or a failed store
            await pipeline.recover(room, sub, msg_id, error)
            return
        room.answer(sub, msg_id, {"type": "ack", "id": msg_id, "version": room.version})
        room.publish_room()
        if entries is not None:
            room.publish_state(entries)
        else:
            await room.announce()


async def deal(room: RoomCore) -> list[LogEntry]:
    seated = room.seated()
    players = len(seated)
    room.sheet.check_players(players)
    # Seats are renumbered 0..n-1 in table order, so a deal never has holes.
    in_order = [m for _, m in sorted(seated.items())]
    renumber = {m.id: index for index, m in enumerate(in_order)}
    # The game's seed from the pending commitment and the contributions, in the deal's seat order.
    pending = room.fair.pending
    version = room.version + 1
    game_no = room.game_no + 1
    sealed = room.fair.seal([m.id for m in in_order], game_no)
    try:
        state = room.game.new(room.sheet, players, seed=sealed.seed)
        entry = LogEntry(version, game_no, "deal", None,
                         {"seed": sealed.seed, "players": players, "fair": sealed.to_action()},
                         [{"type": "deal", "data": {"game_no": game_no, "players": players,
                                                    "names": [m.name for m in in_order],
                                                    **room.fair.deal_event(sealed),
                                                    "connected": fair_phase.connected_in(room, seated)},
                           "audience": None}])
        state, clock = clock_entries(room.game, state, version, game_no, round(time.time(), 3))
        state, autos = auto_entries(room.game, state, version + len(clock), game_no)
        entries = [entry, *clock, *autos]
        await pipeline.commit(room, entries, state, snapshot=True, seats=renumber,
                              room_values={"game_no": game_no, "players": players, "deal_version": version})
    except Exception:
        # Not dealt: the contributions still count for the next try.
        room.fair.pending = pending
        room.fair.forget_current()
        raise
    moved = {m for m, seat in renumber.items() if room.members[m].seat != seat}
    for member_id, seat in renumber.items():
        # Seat numbers change meaning at a deal: every seat is held anew from it.
        room.members[member_id].seat = seat
        room.members[member_id].since = version
    for sub in list(room.subscribers):
        if sub.member_id in moved:
            sub.send(dumps(room.welcome_message(sub)))
    return entries


async def _start(room: RoomCore, args: dict[str, Any]) -> list[LogEntry]:
    if room.status != "lobby":
        raise RoomError("already_started", "The game has already started; use rematch after it ends.")
    return await deal(room)


async def _rematch(room: RoomCore, args: dict[str, Any]) -> list[LogEntry]:
    if room.status != "finished":
        raise RoomError("not_finished", "A new game can start once this one has ended.")
    return await deal(room)


async def _sheet(room: RoomCore, args: dict[str, Any]) -> None:
    # P24: the sheet is fixed before the first deal and never changes after.
    if room.status != "lobby":
        raise RoomError("sheet_locked", "The rule sheet is locked once the first deal has started.")
    options = args.get("options")
    if not isinstance(options, dict):
        raise RoomError("bad_message", "The sheet's options are a JSON object.")
    sheets.check_sheet_size(options, room.settings.sheet_max_items, room.settings.sheet_max_bytes,
                            room.game.option_label)
    sheet = room.game.sheet(options)
    sheet_json = sheet.model_dump(mode="json")
    await queries.update_room(room.engine, room.id, sheet=sheet_json, sheet_id=None,
                              sheet_version=None, active_at=round(time.time(), 3))
    room.sheet, room.sheet_json = sheet, sheet_json
    return None


async def _add_bot(room: RoomCore, args: dict[str, Any]) -> list[LogEntry] | None:
    await bot_seats.add_bot(room, args)
    if bot_seats.practice_ready(room):
        return await deal(room)  # one person and bots: practice starts at once
    return None


async def _remove_bot(room: RoomCore, args: dict[str, Any]) -> None:
    await bot_seats.remove_bot(room, args)


async def _stand_in(room: RoomCore, args: dict[str, Any]) -> None:
    await standin.stand_in(room, args)


async def _handover(room: RoomCore, args: dict[str, Any]) -> None:
    seat = membership.seat_arg(args)
    member = room.seated().get(seat)
    if member is None:
        raise RoomError("empty_seat", "Nobody sits in that seat.")
    if bot_seats.bot_level(member) is not None:
        raise RoomError("bot_seat", "A bot cannot be the host.")
    await queries.update_room(room.engine, room.id, host_member=member.id)
    room.host_member = member.id
    for other in list(room.subscribers):
        if other.member_id is not None:
            other.send(dumps(room.welcome_message(other)))
    # The host's table actions (the game's ``host_actions``) move with the role.
    room.publish_state([])
    return None


# Each operation's handler: the entries it committed (published after the ack), or None.
OPERATIONS: dict[str, Callable[[RoomCore, dict[str, Any]], Awaitable[list[LogEntry] | None]]] = {
    "start": _start,
    "rematch": _rematch,
    "sheet": _sheet,
    "approve": membership.approve,
    "reject": membership.reject,
    "kick": membership.kick,
    "handover": _handover,
    "add_bot": _add_bot,
    "remove_bot": _remove_bot,
    "stand_in": _stand_in,
    "skip": standin.skip,
}
