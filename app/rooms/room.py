"""One room in memory as an actor that routes: each message goes to the part of the room that
handles it, under the room's lock, or to the room's owner on another instance.

- the state, frames, replies and who is who: app/rooms/core.py;
- moves, of players, bots and the turn timer, through one pipeline: app/rooms/pipeline.py
  (apply, commit, recover, publish), moves.py (a player's move, the timer), bots.py;
- the turn clock and the log entries: clock.py and entries.py (pure);
- joins, leaving and kicks: membership.py; the host's operations: host.py; chat: chat.py;
- catch-up and sync with the database: sync.py; fair rounds: fair_phase.py, sealing.py;
- sockets attaching, other instances' presence and the ``room`` message: presence.py.

With leases (PostgreSQL, app/rooms/cluster.py) only the instance that owns a room changes it: on
any other, a socket's move, host operation, chat, contribution and leaving are handed to the owner
(``Cluster.hand_over``), whose answer comes back to the socket.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.games.base import Game
from app.rooms import chat, fair_phase, fair_store, host, membership, moves, presence, records, standin, sync
from app.rooms.bots import BotDriver
from app.rooms.core import RoomCore
from app.rooms.members import Subscriber
from app.rooms.port import Cluster, Writer
from app.signing import Signer
from app.store.queries import RoomRecord


class Room(RoomCore):
    def __init__(self, record: RoomRecord, game: Game[Any, Any], *, engine: AsyncEngine, settings: Settings,
                 writer: Writer, cluster: Cluster, signer: Signer | None, epoch: int | None = None) -> None:
        super().__init__(record, game, engine=engine, settings=settings, writer=writer, cluster=cluster,
                         signer=signer, epoch=epoch)
        self.bots: BotDriver = BotDriver(self)

    # -- the parts' hooks --------------------------------------------------------------------

    def room_message(self, for_host: bool) -> dict[str, Any]:
        return presence.room_message(self, for_host)

    def skip_changed(self) -> bool:
        return standin.skip_changed(self)

    async def catch_up(self) -> None:
        await sync.catch_up(self)

    def arm_timer(self) -> None:
        """After every commit, load and reload: the turn timer, the bots' next move and the fair
        round's sealing, all run by the owner."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if not self.owns():
            return  # the owner runs the room's timers and bots
        if hasattr(self, "bots"):
            self.bots.schedule()
        fair_phase.arm(self)
        moves.arm(self)

    # -- ownership ---------------------------------------------------------------------------

    async def take_over(self, epoch: int) -> None:
        """This instance took the room's lease (its owner's lease ended): catch up from the stored
        log, then run the room's timers and bots from here."""
        async with self.lock:
            self.epoch = epoch
            await self.catch_up()
            await fair_store.ensure_stored(self)  # a room that had no stored round keeps this one
            self.arm_timer()

    async def _handed(self, sub: Subscriber, op: str, msg_id: str, body: dict[str, Any]) -> bool:
        """Whether the message went to the room's owner (this instance does not run the room)."""
        if self.owns() or sub.member_id is None:
            return False
        await self.cluster.hand_over(self.id, self.lease_owner, sub, op, msg_id, body)
        return True

    # -- a socket's messages -----------------------------------------------------------------

    async def act(self, sub: Subscriber, msg_id: str, action: dict[str, Any], version: int | None) -> None:
        if not self.owns() and sub.member_id is not None and self.answered(sub, msg_id):
            return
        if not await self._handed(sub, "action", msg_id, {"action": action, "version": version}):
            await moves.act(self, sub, msg_id, action, version)

    async def host(self, sub: Subscriber, msg_id: str, op: str, args: dict[str, Any]) -> None:
        if not await self._handed(sub, "host", msg_id, {"op": op, "args": args}):
            await host.run(self, sub, msg_id, op, args)

    async def say(self, sub: Subscriber, msg_id: str, text: str) -> None:
        # The owner stores and orders the room's chat, as it does its moves.
        if not await self._handed(sub, "chat", msg_id, {"text": text}):
            await chat.say(self, sub, msg_id, text)

    async def contribute(self, sub: Subscriber, msg_id: str, commitment: str, value: str,
                         kind: str = "bytes") -> None:
        body = {"commitment": commitment, "value": value, "kind": kind}
        if not await self._handed(sub, "contribute", msg_id, body):
            await fair_phase.contribute(self, sub, msg_id, commitment, value, kind)

    async def leave(self, sub: Subscriber, msg_id: str) -> None:
        if not await self._handed(sub, "leave", msg_id, {}):
            await membership.leave(self, sub, msg_id)

    def left(self, member_id: int) -> None:
        membership.left(self, member_id)

    async def join(self, name: str, seat: int | None) -> dict[str, Any]:
        return await membership.join(self, name, seat)

    async def attach(self, sub: Subscriber, token: str | None, last_version: int | None) -> None:
        await presence.attach(self, sub, token, last_version)

    async def detach(self, sub: Subscriber) -> None:
        await presence.detach(self, sub)

    # -- the timers and other instances ------------------------------------------------------

    async def expire(self, expected: int) -> None:
        await moves.expire(self, expected)

    async def sync(self) -> None:
        await sync.sync(self)

    def remote_presence(self, instance: str, members: frozenset[int], now: float) -> None:
        presence.remote_presence(self, instance, members, now)

    def expire_presence(self, cutoff: float) -> None:
        presence.expire_presence(self, cutoff)

    def fair_heard(self, shared: Any) -> None:
        presence.fair_heard(self, shared)

    def idle(self, now: float, after: float) -> bool:
        return presence.idle(self, now, after)

    # -- records -----------------------------------------------------------------------------

    async def history(self, token: str | None) -> tuple[str, str]:
        return await records.history(self, token)

    async def record(self, token: str | None) -> tuple[str, dict[str, Any]]:
        return await records.record(self, token)
