"""What a room needs from outside itself, as small interfaces: the writer that stores its commits,
the cluster of instances it may share with other servers, and its bots' planner.

The room modules depend on these, never on the manager that implements them (app/rooms/manager.py,
cluster.py, writer.py): the manager holds rooms, rooms never hold the manager.
"""

from __future__ import annotations

from collections.abc import Coroutine
from typing import Any, Protocol

from app.rooms.members import Member, Subscriber
from app.store import queries


class Writer(Protocol):
    """Stores one room's change; returns once it is committed (raises if it was not)."""

    async def commit(self, change: queries.Commit) -> None: ...


class Cluster(Protocol):
    """The room's link to the other instances sharing its database (PostgreSQL) and to the
    registry's housekeeping. With SQLite (no leases) the hand-over and sharing calls are never made
    or do nothing."""

    # Whether instances hold leases on rooms (several may share the database).
    leases: bool

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` as a task kept until it ends (cancelled when the server stops)."""

    async def hand_over(self, room_id: str, owner: str | None, sub: Subscriber, op: str, msg_id: str,
                        body: dict[str, Any]) -> None:
        """Hand a socket's message to the room's owner; its answer comes back to the socket."""

    def presence_changed(self, room_id: str) -> None:
        """A socket came to or left the room here."""

    async def want(self, room_id: str, owner: str | None) -> None:
        """A socket came to a room another instance owns: ask the owner to give it up."""

    async def announce_now(self, room_id: str) -> None:
        """Tell the other instances the room changed (outside a commit)."""

    def leave_handed(self, room_id: str, member_id: int) -> bool:
        """Whether a socket here handed the owner its member's leaving, still unanswered."""

    def share_fair(self, room_id: str, shared: dict[str, Any]) -> None:
        """Tell the other instances the room's next-deal commitment."""

    def share_stand_ins(self, room_id: str, members: list[int]) -> None:
        """Tell the other instances whom the owner's bots stand in for at the host's word."""

    def status_changed(self) -> None:
        """A room's status changed (the rooms-by-status gauges follow)."""


class BotPlanner(Protocol):
    """The room's bots as the rest of the room sees them (app/rooms/bots.py's ``BotDriver``)."""

    skippable: frozenset[int]

    def schedule(self) -> None: ...

    def note_connections(self) -> None: ...

    def stand_ins(self) -> set[int]: ...

    def takeover_at(self, member: Member) -> float | None: ...

    def stand_in_now(self, member: Member) -> None: ...

    def forced_heard(self, members: Any) -> None: ...

    def arm_alarm(self) -> None: ...

    def cancel(self) -> None: ...
