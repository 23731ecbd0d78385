"""One room in memory: its members, the game state and the sockets watching it, and the one way
anything reaches its table (``play``: apply, commit, recover, publish).

Every change of a room runs under the room's lock in the same order: check, apply the game
(pure), persist in one transaction with the version check, and only then update memory,
acknowledge and publish. A refused or failed change leaves memory and database as they were.

This module holds what every part of a room shares; the parts (membership, host operations,
chat, catch-up, fair rounds, presence, bots, timeouts) are modules of their own that take the room,
and app/rooms/room.py routes each message to them. The room's link to the rest of the server is
two small interfaces (app/rooms/port.py): the writer that stores its commits and the cluster.
"""

from __future__ import annotations

import asyncio
import logging
import time
from abc import ABC, abstractmethod
from collections import OrderedDict, deque
from collections.abc import Coroutine, Mapping, Sequence
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.games.base import Game, IllegalAction, RuleSheetBase, Sentence
from app.rooms import clock, metrics
from app.rooms.bounds import is_token
from app.rooms.entries import apply_entry, dumps, event_json, visible
from app.rooms.errors import RoomError, refusal_fields
from app.rooms.fairness import Fairness
from app.rooms.limits import Bucket, whole_seconds
from app.rooms.members import Member, Subscriber
from app.rooms.port import BotPlanner, Cluster, Writer
from app.rooms.tokens import hash_token
from app.signing import Signer
from app.store.queries import LogEntry, RoomRecord

log = logging.getLogger(__name__)

REPLY_CACHE = 256


class RoomCore(ABC):
    """The room's state and what every part of it shares. ``room_message``, ``skip_changed``,
    ``arm_timer`` and ``catch_up`` are the routing room's (app/rooms/room.py)."""

    bots: BotPlanner

    def __init__(self, record: RoomRecord, game: Game[Any, Any], *, engine: AsyncEngine, settings: Settings,
                 writer: Writer, cluster: Cluster, signer: Signer | None, epoch: int | None = None) -> None:
        self.engine, self.settings, self.writer, self.cluster = engine, settings, writer, cluster
        # The epoch of this instance's lease on the room (None: another instance owns it, or no
        # leases at all: see ``owns``).
        self.epoch = epoch
        self.game = game
        # Whether the game has optional decisions at all (one that never does has no quiet waits).
        self.optional_decisions = type(game).optional_decision is not Game.optional_decision
        self.lock = asyncio.Lock()
        self.subscribers: set[Subscriber] = set()
        # When each subscriber attached (a counter): the oldest of a member's sockets goes first.
        self.attached: dict[Subscriber, int] = {}
        self.attach_count = 0
        self.replies: OrderedDict[tuple[int, str], dict[str, Any]] = OrderedDict()
        self.timer: asyncio.TimerHandle | None = None
        # A commit changed what the ``room`` message says (status, deal): send it after the state.
        self.room_changed = False
        # Left memory (the manager dropped it); since when no socket has been attached.
        self.closed = False
        self.idle_since = time.monotonic()
        # The finished games' results (winners and losers by name), read from the log when first
        # needed; the room tally across rematches is made from them.
        self.results: list[dict[str, Any]] | None = None
        # Another instance's change was announced and a sync is queued (bursts coalesce into one).
        self.sync_wanted = False
        # The next deal's commitment and contributions, the current game's seeds (fairness.py).
        self.fair = Fairness()
        # Members with sockets open on other instances, by instance: (member ids, when last heard).
        self.remote: dict[str, tuple[frozenset[int], float]] = {}
        # The owner's next-deal commitment and who has contributed to it (by member id), as the
        # owner last told this instance (``None``: not heard, or this instance owns the room), and
        # as the owner last told the others.
        self.remote_fair: dict[str, Any] | None = None
        self.fair_shared: dict[str, Any] | None = None
        # The watcher count the room was last told, and the pending announcement of a new one
        # (presence.spectators_changed).
        self.spectators_told = 0
        self.spectators_due: asyncio.TimerHandle | None = None
        self.load(record)
        self.fair.room_id, self.fair.signer = self.id, signer

    # -- hooks of the routing room -----------------------------------------------------------

    @abstractmethod
    def room_message(self, for_host: bool) -> dict[str, Any]:
        """The ``room`` message (app/rooms/presence.py), with the host's extras when ``for_host``."""

    @abstractmethod
    def skip_changed(self) -> bool:
        """Whether the seats the host may skip changed since the last ``room`` message."""

    @abstractmethod
    def arm_timer(self) -> None:
        """Re-arm the room's timers and bots after a commit or a load."""

    @abstractmethod
    async def catch_up(self) -> None:
        """Bring memory up to the database (app/rooms/sync.py)."""

    # -- loading -----------------------------------------------------------------------------

    def load(self, record: RoomRecord) -> None:
        self.take_row(record.room)
        self.members: dict[int, Member] = {}
        self.take_members(record.members)
        self.fair.forget_current()
        self.fair.restore_pending(record.room.get("fair_pending"))
        state = self.game.load(record.snapshot) if record.snapshot is not None else None
        for entry in record.tail:
            state = self.replay(state, entry)
        self.state: Any = state
        self.moves_since_snapshot = len(record.tail)
        for member_id, msg_id, version in reversed(record.recent_msgs):
            self.remember((member_id, msg_id), {"type": "ack", "id": msg_id, "version": version})
        self.chat: deque[dict[str, Any]] = deque(
            ({"type": "chat", "seat": c["seat"], "name": c["name"], "text": c["text"], "at": c["at"]}
             for c in record.chat), maxlen=30)
        # The id of the newest chat line known here (another instance's newer ones are caught up).
        self.chat_id: int = max((int(c["id"]) for c in record.chat), default=0)

    def take_row(self, row: Mapping[str, Any]) -> None:
        """The room row's fields into memory."""
        self.id: str = row["id"]
        if getattr(self, "sheet_json", None) != row["sheet"]:
            self.sheet_json: dict[str, Any] = dict(row["sheet"])
            self.sheet: RuleSheetBase = self.game.sheet(self.sheet_json)
        self.capacity: int = row["capacity"]
        self.approval: bool = bool(row["approval"])
        self.status: str = row["status"]
        self.version: int = row["version"]
        self.game_no: int = row["game_no"]
        self.players: int = row["players"]
        self.deal_version: int = row["deal_version"]
        self.host_member: int | None = row["host_member"]
        self.deadline: float | None = row["deadline"]
        self.turn_start: float | None = row.get("turn_start")
        self.banks: dict[int, float] = {int(seat): float(left)
                                        for seat, left in (row.get("banks") or {}).items()}
        self.lease_owner: str | None = row.get("lease_owner")
        if self.epoch is not None and row.get("lease_epoch", self.epoch) != self.epoch:
            self.epoch = None  # another instance took the room over

    def take_members(self, rows: Sequence[Mapping[str, Any]]) -> None:
        """Member rows into memory; a known member keeps its object (and its rate limits)."""
        for m in rows:
            member = self.members.get(m["id"])
            if member is None:
                self.members[m["id"]] = Member(m["id"], m["name"], m["status"], m["seat"], m["wanted_seat"],
                                               m["token_hash"], m.get("seat_since") or 0)
            else:
                member.name, member.status, member.seat = m["name"], m["status"], m["seat"]
                member.wanted_seat, member.since = m["wanted_seat"], m.get("seat_since") or 0
        self.by_token = {m.token_hash: m for m in self.members.values()}

    def replay(self, state: Any, entry: LogEntry) -> Any:
        return apply_entry(self.game, self.sheet, state, entry)

    def owns(self) -> bool:
        """Whether this instance runs the room: it holds the lease, or there are no leases."""
        return self.epoch is not None or not self.cluster.leases

    def stranger(self, token: str | None) -> bool:
        """A well-formed token of no member this copy knows, on an instance that follows the room:
        perhaps a newcomer the owner seated a moment ago (joined through another instance) whose
        word has not reached this copy. Its caller catches up before it refuses the token."""
        return (token is not None and not self.owns() and is_token(token)
                and hash_token(token) not in self.by_token)

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        self.cluster.spawn(coro)

    # -- who is who --------------------------------------------------------------------------

    def seated(self) -> dict[int, Member]:
        return {m.seat: m for m in self.members.values() if m.status == "seated" and m.seat is not None}

    def member_of(self, sub: Subscriber) -> Member | None:
        return None if sub.member_id is None else self.members.get(sub.member_id)

    def since_of(self, sub: Subscriber) -> int:
        member = self.member_of(sub)
        return member.since if member is not None else 0

    def seat_of(self, sub: Subscriber) -> int | None:
        member = self.member_of(sub)
        if member is None or member.status != "seated":
            return None
        return member.seat

    def host_seat(self) -> int | None:
        host = self.members.get(self.host_member) if self.host_member is not None else None
        return host.seat if host is not None and host.status == "seated" else None

    def free_seats(self) -> list[int]:
        # In the lobby and between games any seat up to the capacity; during a game only the
        # seats of the deal that nobody holds (a kicked player's hand waits for a newcomer).
        # A table game's state may hold more seats than the deal (a newcomer sits down there by
        # the game's own table action, e.g. a buy-in): those up to the room's capacity are free too.
        limit = self.capacity
        if self.status == "playing":
            seats = self.game.seat_count(self.state) if self.state is not None else self.players
            limit = max(self.players, min(self.capacity, seats))
        taken = self.seated()
        return [s for s in range(limit) if s not in taken]

    def spectator_count(self) -> int:
        """Sockets here that watch without a seat (a pending join request's too)."""
        return sum(1 for sub in self.subscribers if self.seat_of(sub) is None)

    def connected_members(self) -> set[int]:
        """Members with a socket open here or, by their word, on another instance."""
        out = {sub.member_id for sub in self.subscribers if sub.member_id is not None}
        for members, _ in self.remote.values():
            out |= members
        return out

    def connected_seats(self) -> set[int]:
        seated = self.seated()
        connected = self.connected_members()
        return {seat for seat, member in seated.items() if member.id in connected}

    def forget(self, sub: Subscriber) -> None:
        self.subscribers.discard(sub)
        self.attached.pop(sub, None)
        self.cluster.presence_changed(self.id)
        if not self.subscribers:
            self.idle_since = time.monotonic()

    def close_member(self, member_id: int, reason: str, code: int = 4403) -> None:
        for other in list(self.subscribers):
            if other.member_id == member_id:
                other.send(dumps({"type": reason}))
                other.close(code, reason)
                self.forget(other)

    # -- frames ------------------------------------------------------------------------------

    def state_common(self) -> tuple[Any, list[int], dict[str, float], int | None]:
        """What every seat's state message shares (worked out once per publish): the outcome as
        JSON, the seats to act, the banks and the host's seat."""
        outcome = self.game.outcome(self.state)
        to_act = [] if outcome is not None else self.game.to_act(self.state)
        return (None if outcome is None else outcome.to_json(), to_act, clock.banks_json(self.banks),
                self.host_seat())

    def state_message(self, seat: int | None, events: list[dict[str, Any]],
                      common: tuple[Any, list[int], dict[str, float], int | None] | None = None,
                      view: dict[str, Any] | None = None) -> dict[str, Any]:
        state = self.state
        if state is None:
            return {"type": "state", "version": self.version, "game_no": self.game_no, "view": None,
                    "legal": [], "table": [], "to_act": [], "deadline": None, "banks": {},
                    "events": events, "outcome": None}
        outcome, to_act, banks, host = common if common is not None else self.state_common()
        legal = self.game.legal_actions(state, seat) if seat is not None and seat in to_act else []
        table = self.table_actions(state, seat, host) if seat is not None and outcome is None else []
        # ``to_act`` may name seats that could move out of turn, which tells what they hold: each
        # connection learns only about itself. Whom the table waits for is the game's view's business.
        return {"type": "state", "version": self.version, "game_no": self.game_no,
                "view": self.game.view(state, seat) if view is None else view, "legal": legal, "table": table,
                "to_act": [seat] if legal else [],
                "deadline": self.deadline, "banks": banks, "events": events, "outcome": outcome}

    def table_actions(self, state: Any, seat: int, host: int | None = -1) -> list[dict[str, Any]]:
        """The game's table actions this seat may send: never a server action, host actions only
        from the host's seat (``host``, when the caller knows it already)."""
        offered = self.game.table_actions(state, seat)
        if not offered:
            return []
        if host == -1:
            host = self.host_seat()
        return [a for a in offered
                if a.get("type") not in self.game.server_actions
                and (a.get("type") not in self.game.host_actions or seat == host)]

    def welcome_message(self, sub: Subscriber) -> dict[str, Any]:
        member = self.member_of(sub)
        return {"type": "welcome", "room": self.id, "game": self.game.name,
                "seat": self.seat_of(sub), "name": member.name if member else None,
                "host": member is not None and member.id == self.host_member,
                "pending": member is not None and member.status == "pending"}

    def share_fair(self) -> None:
        """As the owner, with sockets of this room on other instances: tell them the next deal's
        commitment and who has contributed, so their pages contribute to the round that counts."""
        if self.epoch is None or not self.remote:
            return
        shared = self.fair.shared()
        if shared != self.fair_shared:
            self.fair_shared = shared
            self.cluster.share_fair(self.id, shared)

    def publish_room(self) -> None:
        self.room_changed = False
        self.share_fair()
        self.spectators_told = self.spectator_count()  # the message says it
        plain: str | None = None
        for sub in list(self.subscribers):
            member = self.member_of(sub)
            if member is not None and member.id == self.host_member:
                sub.send(dumps(self.room_message(True)))
            else:
                plain = plain or dumps(self.room_message(False))
                sub.send(plain)

    def publish_state(self, entries: Sequence[LogEntry],
                      held_before: Mapping[int, tuple[int, int]] | None = None) -> None:
        """Each socket gets its seat's view and the new events it may see (built once per seat and
        tenure: a member who took the seat after some of these entries does not get their private
        events). ``held_before``: each member's seat and its start before these entries (a copy
        catching up): when a deal among them handed the seats out anew, a member's entries before
        that deal are told as the seat it held then. A seated member keeps its seat until it is
        gone or a deal renumbers the seats, so that tenure lasts until the first deal; entries of a
        game between two deals of one catch-up are told to nobody's former seat (missing them is
        better than telling a seat's events to the member who held its number in another game)."""
        # The first deal among the entries ends every tenure held before them.
        until = next((e.version for e in entries if e.kind == "deal"), 0) if held_before else 0
        audience: list[tuple[Subscriber, int | None, int, tuple[int, int] | None]] = []
        for sub in list(self.subscribers):
            member = self.member_of(sub)
            seat = member.seat if member is not None and member.status == "seated" else None
            since = member.since if seat is not None and member is not None else 0
            earlier = (held_before.get(member.id) if held_before and until and seat is not None and member
                       else None)
            audience.append((sub, seat, since, earlier if earlier != (seat, since) else None))
        common = self.state_common() if self.state is not None and audience else None
        # Every seat's view at once: the game builds the table's public part once (``views``).
        views = (self.game.views(self.state, list({seat for _, seat, _, _ in audience}))
                 if self.state is not None and audience else {})
        texts: dict[tuple[int | None, int, tuple[int, int] | None], str] = {}
        for sub, seat, since, earlier in audience:
            key = (seat, since, earlier)
            text = texts.get(key)
            if text is None:
                events = [event_json(e, row) for e in entries for row in e.events
                          if visible(row, seat, e.version, since)
                          or (earlier is not None and e.version < until
                              and visible(row, earlier[0], e.version, earlier[1]))]
                text = texts[key] = dumps(self.state_message(seat, events, common, views.get(seat)))
            sub.send(text)
        if self.room_changed or self.skip_changed():
            self.publish_room()

    # -- replies -----------------------------------------------------------------------------

    def remember(self, key: tuple[int, str], reply: dict[str, Any]) -> None:
        self.replies[key] = reply
        self.replies.move_to_end(key)
        while len(self.replies) > REPLY_CACHE:
            self.replies.popitem(last=False)

    @staticmethod
    def reply_key(sub: Subscriber, msg_id: str) -> tuple[int, str]:
        # Spectators have no member id: their ids are scoped to the connection.
        return (sub.member_id if sub.member_id is not None else -id(sub), msg_id)

    def answered(self, sub: Subscriber, msg_id: str) -> bool:
        """Whether this message id was answered already: the answer is sent again."""
        cached = self.replies.get(self.reply_key(sub, msg_id))
        if cached is not None:
            sub.send(dumps(cached))
        return cached is not None

    def over_rate(self, sub: Subscriber, msg_id: str, chat: bool = False) -> bool:
        """Whether the member of ``sub`` is over their move (or chat) rate, over all their sockets;
        then the message is refused with ``rate_limited`` (not remembered: a later retry may pass)."""
        member = self.member_of(sub)
        if member is None:
            return False  # spectators neither move nor chat; their sockets' own flood limit holds
        settings = self.settings
        if chat:
            member.chats = member.chats or Bucket(settings.chat_per_minute / 60.0, float(settings.chat_burst))
            wait = member.chats.take()
        else:
            member.moves = member.moves or Bucket(settings.member_rate, float(settings.member_burst))
            wait = member.moves.take()
        if wait <= 0:
            return False
        metrics.REFUSED.labels("rate_limited").inc()
        seconds = whole_seconds(wait)  # never "wait 0.0 seconds"
        sub.send(dumps(self.error(msg_id, "rate_limited", Sentence(
            "Too many messages from your seat; wait {seconds} second." if seconds == 1
            else "Too many messages from your seat; wait {seconds} seconds.", seconds=seconds))))
        return True

    def refuse(self, sub: Subscriber, msg_id: str, refusal: RoomError | IllegalAction) -> None:
        """Answer the message with the refusal's error (remembered: a retry gets the same)."""
        self.answer(sub, msg_id, self.error(msg_id, refusal.code, refusal.message))

    def answer(self, sub: Subscriber, msg_id: str, reply: dict[str, Any]) -> None:
        self.remember(self.reply_key(sub, msg_id), reply)
        if reply["type"] == "error":
            metrics.REFUSED.labels(reply["code"]).inc()
        sub.send(dumps(reply))

    @staticmethod
    def error(msg_id: str | None, code: str, message: str) -> dict[str, Any]:
        return {"type": "error", "id": msg_id, "code": code, **refusal_fields(message)}

    async def announce(self) -> None:
        try:
            await self.cluster.announce_now(self.id)
        except Exception:
            log.exception("could not announce a change of room %s", self.id)
