"""Two-phase contributions: when a round's hashes are sealed (docs/fairness.md, step 3).

A seat first sends the SHA-256 of its bytes, then, once the round's hashes are sealed, the bytes
themselves; bytes whose hash was not sealed in are refused, and a seat that sealed a hash and never
sent its bytes is withheld and listed as ``unrevealed`` when the round is sealed. So the server
never sees a byte before the set of hashes is fixed, and a player in league with it can at most
not reveal, which everyone sees. The hashes are sealed:

- before a deal (the host's ``start`` or ``rematch``, or a bot that completes a practice table):
  the room waits up to ``wait_seconds`` (``HOUSERULES_FAIR_WAIT_SECONDS``, 1.5 s by default) for
  every connected seat's hash, seals them, then waits up to as long for the bytes of those who
  sent one, and deals. The waiting is outside the room's lock, on an event, so moves, chat and
  contributions go on and no other room waits;
- during a game (a round for the next hand or deal, or the rematch): as soon as every connected
  seat's hash is in, else ``wait_seconds`` after the first hash came (a round nobody has sent a
  hash for stays open for late pages);
- at the latest when the round is sealed for a later shuffle (app/rooms/sealing.py): hashes not
  revealed by then are withheld.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping

from app.rooms import fair_store
from app.rooms.core import RoomCore
from app.rooms.entries import dumps
from app.rooms.errors import RoomError
from app.rooms.members import Member, Subscriber

DEAL_OPS = frozenset(("start", "rematch", "add_bot"))

log = logging.getLogger(__name__)


def wait_seconds(room: RoomCore) -> float:
    """How long a deal waits for the seats' hashes, and then for their bytes (``fair_wait_seconds``)."""
    return room.settings.fair_wait_seconds


def _connected(room: RoomCore) -> set[int]:
    """The member ids of the seated members with a socket open (here or on another instance)."""
    connected = room.connected_members()
    return {member.id for member in room.seated().values() if member.id in connected}


def connected_in(room: RoomCore, seated: Mapping[int, Member]) -> list[int]:
    """The deal's seat numbers (0..n-1 in table order) of the connected seated members: a round
    sealed with fewer contributions says so against these."""
    connected = room.connected_members()
    return [index for index, (_, member) in enumerate(sorted(seated.items())) if member.id in connected]


async def _freeze(room: RoomCore) -> None:
    """Seal the pending round's hashes and store it (under the room's lock)."""
    if room.fair.freeze():
        if not await fair_store.store(room):
            log.warning("room %s: sealed hashes not stored", room.id)
        room.fair.changed.set()


async def seal_when_complete(room: RoomCore) -> None:
    """In play or between games: every connected seat's hash is in, so the round's are sealed."""
    if room.status == "lobby" or room.fair.pending.frozen or not room.owns():
        return
    if not room.fair.waiting_for(_connected(room)):
        await _freeze(room)
    else:
        arm(room)


def arm(room: RoomCore) -> None:
    """In play or between games, the pending round's hashes are sealed ``wait_seconds`` after the
    first one came at the latest (called with the room's timers and at each hash)."""
    pending = room.fair.pending
    if (room.status == "lobby" or pending.frozen or not pending.hashes or not room.owns()
            or room.fair.timed == pending.commitment):
        return
    room.fair.timed = pending.commitment
    asyncio.get_running_loop().call_later(
        wait_seconds(room), lambda: room.spawn(_when_due(room, pending.commitment)))


async def _when_due(room: RoomCore, commitment: str) -> None:
    async with room.lock:
        if room.closed or room.fair.pending.commitment != commitment or room.fair.pending.frozen:
            return
        await _freeze(room)
        room.publish_room()


async def before_deal(room: RoomCore) -> None:
    """Before a deal, outside the room's lock: wait for the connected seats' hashes (sealed then)
    and then for their bytes, each for ``wait_seconds`` at most (see the module)."""
    loop = asyncio.get_running_loop()
    for phase in ("hashes", "bytes"):
        deadline = loop.time() + wait_seconds(room)
        while True:
            async with room.lock:
                if room.closed or room.status == "playing":
                    return
                sealed = room.fair.pending.frozen
                if phase == "hashes" and sealed:
                    break
                waiting = room.fair.waiting_for(_connected(room))
                if not waiting or loop.time() >= deadline:
                    if phase == "hashes":
                        await _freeze(room)
                        room.publish_room()
                    break
                room.fair.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(room.fair.changed.wait(), max(0.0, deadline - loop.time()))


async def contribute(room: RoomCore, sub: Subscriber, msg_id: str, commitment: str, value: str,
                     kind: str = "bytes") -> None:
    """A seated member's random contribution to the next deal in two phases (fairness.py): the
    hash of its bytes while the round is open, the bytes once its hashes are sealed; stored,
    answered with ``contributed``, and the room message tells everyone."""
    async with room.lock:
        member = room.member_of(sub)
        if member is None or member.status != "seated":
            return room.refuse(sub, msg_id, RoomError("not_seated",
                                                      "Only seated players contribute to the deal."))
        if room.over_rate(sub, msg_id):
            return
        try:
            if kind == "hash":
                taken = room.fair.offer(member.id, commitment, value)
            else:
                taken = room.fair.contribute(member.id, commitment, value)
        except RoomError as refused:
            return room.refuse(sub, msg_id, refused)
        if taken and not await fair_store.keep_contribution(room, member.id, kind):
            return room.refuse(sub, msg_id, RoomError("server_error",
                                                      "The contribution could not be stored; send it again."))
        sub.send(dumps({"type": "contributed", "id": msg_id, "commitment": commitment, "kind": kind}))
        if taken:
            room.fair.changed.set()
            await seal_when_complete(room)  # in play: every connected seat's hash is in
            room.publish_room()
