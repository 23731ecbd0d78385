"""All rooms of this instance: loading and rebuilding them, creating and finding them, and the
housekeeping that unloads idle rooms and deletes abandoned ones.

The registry builds each room with what it needs and no more (app/rooms/port.py): the writer that
stores its commits (app/rooms/writer.py) and the cluster of instances sharing the database
(app/rooms/cluster.py: leases, hand-over, presence, LISTEN/NOTIFY). Rule sheets: app/rooms/sheets.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Coroutine
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.games.base import Game, IllegalAction
from app.rooms import fair_store, metrics, replay, replay_index
from app.rooms.bounds import is_room_id
from app.rooms.cluster import Cluster
from app.rooms.errors import RoomError
from app.rooms.members import NAME_MAX, RoomGone, Subscriber, clean_text
from app.rooms.records import RECORD_MAX_ENTRIES
from app.rooms.room import Room
from app.rooms.sheets import Sheets, get_game
from app.rooms.tokens import hash_token, new_room_id, new_token
from app.rooms.writer import StoreWriter
from app.signing import Signer
from app.store import queries

log = logging.getLogger(__name__)


class RoomManager:
    def __init__(self, engine: AsyncEngine, settings: Settings) -> None:
        self.engine = engine
        # Each game's replay walked once and kept (app/rooms/replay_index.py).
        self.replays = replay_index.ReplayIndexes(engine)
        self.settings = settings
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        self.cluster = Cluster(engine, self.rooms, self.get, spawn=self.spawn,
                               status_changed=self.update_gauges)
        self.leases = self.cluster.leases
        self.instance = self.cluster.instance
        # Every move goes through one writer task (group commit); SQLite has one writer anyway.
        self.writer = StoreWriter(engine, self.instance, announces=self.cluster.listener is not None,
                                  gap=settings.commit_gap_ms / 1000, listening_pid=self.cluster.listening_pid)
        self.sheets = Sheets(engine, settings)
        # The key that signs commitments and sealed rounds (read or made at ``start``).
        self.signer: Signer | None = None

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        """A background task's failure is logged (its exception retrieved), never lost."""
        self._tasks.discard(task)
        if not task.cancelled() and (error := task.exception()) is not None:
            log.error("background task %s failed", task.get_coro(), exc_info=error)

    # -- loading -----------------------------------------------------------------------------

    async def start(self) -> None:
        """Rebuild the rooms whose turn timer runs (their deadlines must fire with nobody there)
        and start the housekeeping. Every other room is loaded when someone comes to it, so
        start-up does not grow with the number of stored rooms."""
        self.signer = Signer(await queries.server_key(self.engine, _new_key))
        await self.cluster.start_listening()
        for room_id in await queries.timed_room_ids(self.engine):
            try:
                await self.get(room_id)
            except Exception:
                log.exception("room %s could not be rebuilt", room_id)
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop())
        self.cluster.start_leases()

    # -- housekeeping ------------------------------------------------------------------------

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_seconds)
            try:
                await self.sweep()
            except Exception:  # housekeeping must live on whatever happens
                log.exception("housekeeping failed")

    async def sweep(self) -> None:
        """Unload idle rooms; delete abandoned lobbies and finished rooms past their retention, then
        unused member rows and saved sheets past theirs."""
        now = time.monotonic()
        for room in list(self.rooms.values()):
            if room.idle(now, self.settings.idle_unload_seconds):
                await self._unload(room)
        for status, days in (("lobby", self.settings.lobby_retention_days),
                             ("finished", self.settings.finished_retention_days)):
            if days <= 0:
                continue
            expired = await queries.expired_room_ids(self.engine, status, time.time() - days * 86400)
            gone = []
            for room_id in expired:
                # Under the room's loading lock: a visitor loading it meanwhile waits, then finds
                # it gone (never a copy in memory of rows deleted under it).
                async with self._loading.setdefault(room_id, asyncio.Lock()):
                    loaded = self.rooms.get(room_id)
                    if loaded is not None and loaded.subscribers:
                        continue  # someone is there: not abandoned
                    if loaded is not None:
                        await self._unload(loaded, force=True)
                    await queries.delete_rooms(self.engine, [room_id])
                    gone.append(room_id)
                self._loading.pop(room_id, None)
                stale = self.rooms.get(room_id)
                if stale is not None:  # loaded from the rows just before they were deleted
                    await self._unload(stale, force=True)
            if gone:
                log.info("deleted %d %s rooms past their retention", len(gone), status)
        await self._expire_unused()

    async def _expire_unused(self) -> None:
        """Delete member rows that hold no seat and saved sheets no room uses, past their retention."""
        if self.settings.member_retention_days > 0:
            before = time.time() - self.settings.member_retention_days * 86400
            count = await queries.delete_unused_members(self.engine, before, list(self.rooms))
            if count:
                log.info("deleted %d member rows holding no seat past their retention", count)
        if self.settings.sheet_retention_days > 0:
            before = time.time() - self.settings.sheet_retention_days * 86400
            count = await queries.delete_unused_sheets(self.engine, before)
            if count:
                log.info("deleted %d saved sheets no room used past their retention", count)

    async def _unload(self, room: Room, *, force: bool = False) -> None:
        async with room.lock:
            if room.closed or not (force or room.idle(time.monotonic(), self.settings.idle_unload_seconds)):
                return
            if room.timer is not None:
                room.timer.cancel()
                room.timer = None
            room.closed = True
            if self.rooms.get(room.id) is room:
                del self.rooms[room.id]
                await self.cluster.unlisten(room.id)
            if room.epoch is not None:
                # Out of memory here: another instance may take the room at once.
                await self.cluster.release(room.id)
                room.epoch = None
        self.update_gauges()

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sweeper
        await self.cluster.stop()
        for room in self.rooms.values():
            if room.timer is not None:
                room.timer.cancel()
        for task in self._tasks:
            task.cancel()
        await self.writer.stop()
        self.rooms.clear()
        self.update_gauges()

    async def get(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is not None:
            return room
        if not is_room_id(room_id):
            raise RoomError("unknown_room", "There is no such room.", 404)
        lock = self._loading.setdefault(room_id, asyncio.Lock())
        async with lock:
            room = self.rooms.get(room_id)
            if room is None and self.cluster.leases and not await queries.room_exists(self.engine, room_id):
                # An unknown id stops here, before the listening connection is asked: guesses never
                # queue with the LISTENs of rooms that exist.
                self._loading.pop(room_id, None)
                raise RoomError("unknown_room", "There is no such room.", 404)
            if room is None:
                # Listening first, then the lease (when nobody holds it), then the load: a change
                # committed after the copy was read is told to this instance, and no owner's commit
                # can land between what was read and the epoch this instance commits under.
                await self.cluster.listen(room_id)
                try:
                    epoch = await self.cluster.take_lease(room_id)
                    record = await queries.load_room(self.engine, room_id)
                    if record is None:
                        self._loading.pop(room_id, None)
                        raise RoomError("unknown_room", "There is no such room.", 404)
                    room = Room(record, get_game(record.room["game"]), engine=self.engine,
                                settings=self.settings, writer=self.writer, cluster=self.cluster,
                                signer=self.signer, epoch=epoch)
                    await fair_store.ensure_stored(room)
                except BaseException:
                    await self.cluster.unlisten(room_id)
                    raise
                self.rooms[room_id] = room
                if epoch is None and self.cluster.leases:
                    # Another instance owns it: its commits notified while this copy was being
                    # read found no room here to tell, so this copy catches up once now.
                    room.sync_wanted = True
                    self.spawn(room.sync())
                room.arm_timer()
                self.update_gauges()
        self._loading.pop(room_id, None)
        return room

    def update_gauges(self) -> None:
        counts = {"lobby": 0, "playing": 0, "finished": 0}
        for room in self.rooms.values():
            counts[room.status] = counts.get(room.status, 0) + 1
        for status, count in counts.items():
            metrics.ROOMS.labels(status).set(count)

    # -- rule sheets (app/rooms/sheets.py) ---------------------------------------------------

    def make_sheet(self, game: Game[Any, Any], preset: str | None, options: dict[str, Any] | None
                   ) -> dict[str, Any]:
        return self.sheets.make_sheet(game, preset, options)

    async def save_sheet(self, game_name: str, name: str, preset: str | None, options: dict[str, Any] | None
                         ) -> dict[str, Any]:
        return await self.sheets.save_sheet(game_name, name, preset, options)

    async def copy_sheet(self, sheet_id: str, version: int | None, name: str | None) -> dict[str, Any]:
        return await self.sheets.copy_sheet(sheet_id, version, name)

    async def update_sheet(self, sheet_id: str, options: dict[str, Any], name: str | None,
                           edit_token: str | None) -> dict[str, Any]:
        return await self.sheets.update_sheet(sheet_id, options, name, edit_token)

    async def get_sheet(self, sheet_id: str, version: int | None) -> dict[str, Any]:
        return await self.sheets.get_sheet(sheet_id, version)

    async def list_sheets(self, game: str | None) -> list[dict[str, Any]]:
        return await self.sheets.list_sheets(game)

    # -- rooms -------------------------------------------------------------------------------

    async def create_room(
        self,
        game_name: str,
        *,
        name: str,
        seats: int,
        preset: str | None = None,
        options: dict[str, Any] | None = None,
        sheet_id: str | None = None,
        sheet_version: int | None = None,
        approval: bool = False,
    ) -> dict[str, Any]:
        game = get_game(game_name)
        if sheet_id is not None:
            saved = await self.get_sheet(sheet_id, sheet_version)
            if saved["game"] != game.name:
                raise RoomError("wrong_game", "That rule sheet is for another game.", 422)
            sheet = self.make_sheet(game, None, {**saved["options"], **(options or {})})
            sheet_version = saved["version"]
        else:
            sheet = self.make_sheet(game, preset, options)
        try:
            game.sheet(sheet).check_players(seats)
        except IllegalAction as refused:
            raise RoomError("bad_seats", refused.message, 422) from None
        name = clean_text(name, NAME_MAX, "name")
        room_id = new_room_id()
        token = new_token()
        await queries.create_room(
            self.engine,
            {"id": room_id, "game": game.name, "sheet": sheet, "sheet_id": sheet_id,
             "sheet_version": sheet_version if sheet_id else None, "capacity": seats, "approval": approval,
             "status": "lobby", "version": 0, "game_no": 0, "players": 0, "deal_version": 0,
             "active_at": round(time.time(), 3)},
            {"name": name, "token_hash": hash_token(token), "status": "seated", "seat": 0, "wanted_seat": 0},
        )
        if not self.leases:
            await self.get(room_id)
        # With leases the room is loaded (and owned) where its first visitor is sent: the proxy
        # routes a room's requests by its id, which this request did not carry.
        return {"room": room_id, "invite": f"/r/{room_id}", "seat": 0, "token": token}

    async def join(self, room_id: str, name: str, seat: int | None) -> dict[str, Any]:
        while True:
            room = await self.get(room_id)
            if not room.owns():
                if room.lease_owner in (None, self.instance):
                    await self.cluster.take_released(room_id)  # nobody runs it: take it, if free
                    if room.owns():
                        continue
                # The owner seats newcomers: one place decides who gets which seat.
                return await self.cluster.hand_join(room, name, seat)
            try:
                return await room.join(name, seat)
            except RoomGone:
                continue  # it left memory meanwhile: load it again

    async def attach(self, room_id: str, sub: Subscriber, token: str | None,
                     last_version: int | None) -> Room:
        while True:
            room = await self.get(room_id)
            try:
                await room.attach(sub, token, last_version)
            except RoomGone:
                continue
            return room

    async def info(self, room_id: str) -> dict[str, Any]:
        room = await self.get(room_id)
        message = room.room_message(False)
        message.pop("type")
        return message

    async def history(self, room_id: str, token: str | None, meter: replay_index.Meter) -> tuple[str, str]:
        """The room's game record as the token's seat (or a spectator, without one) may see it; it
        covers the current game, so ``meter`` is charged the game's log entries."""
        room = await self.get(room_id)
        meter.entries += max(1, room.version - room.deal_version + 1)
        return await room.history(token)

    async def record(self, room_id: str, token: str | None, meter: replay_index.Meter
                     ) -> tuple[str, dict[str, Any]]:
        """The current game's verifiable record as the token's seat (or a spectator) may see it;
        ``meter`` is charged the log entries it reads."""
        while True:
            room = await self.get(room_id)
            try:
                name, body = await room.record(token)
            except RoomGone:
                continue
            meter.entries += min(RECORD_MAX_ENTRIES, max(1, room.version - room.deal_version + 1))
            return name, body

    async def replay(self, room_id: str, game_no: int, seat: int | None, token: str | None, start: int,
                     count: int, meter: replay_index.Meter) -> dict[str, Any]:
        """Frames of a game as ``seat`` (``None``: a spectator) was shown it: a finished game whole,
        the current one up to its last finished hand (see app/rooms/replay.py). The log entries
        replayed for it are added to ``meter``."""
        room = await self.get(room_id)
        replay.check_game(game_no, room.game_no)
        in_play = game_no == room.game_no and (room.state is None or room.game.outcome(room.state) is None)
        index = await self.replays.index(room.id, game_no, room.game, room.sheet, in_play, meter)
        # In play only the parts whose shuffle keys are out are shown, so any seat's view of them.
        open_seats = in_play or index.revealed
        seat = replay.viewer_seat(room, game_no, seat, token, open_seats)
        replay.check_page(index.seats, seat, index.length, start, in_play)
        count = max(1, min(count, replay.PAGE_MAX))
        length, marks = index.length, index.shown_marks()  # as the page is drawn (the walk may go on)
        frames = await replay_index.page(self.engine, room.id, game_no, index, seat, start, count, meter)
        # Seats are renumbered at each deal: its entry names who sat where; in the current game the
        # names seated now come first, as the table shows them (a table's newcomers, a taken seat).
        names = list(index.names)
        if game_no == room.game_no:
            for seat_no, member in room.seated().items():
                names.extend([None] * (seat_no + 1 - len(names)))
                names[seat_no] = member.name
        return {"game": room.game.name, "game_no": game_no, "seat": seat, "open_seats": open_seats,
                "names": names, "players": index.players, "length": length, "start": start,
                "frames": frames, "marks": marks, "in_play": in_play}

    async def healthy(self) -> bool:
        async with self.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
        return True


def _new_key() -> tuple[str, str]:
    private = Signer.new_private_hex()
    return private, Signer(private).public_hex
