"""One room in memory: its members, the game state, the sockets watching it, and its actor.

Every change of a room runs under the room's lock in the same order: check, apply the game
(pure), persist in one transaction with the version check, and only then update memory,
acknowledge and publish. A refused or failed change leaves memory and database as they were.

The turn timer and the time bank, for any game (the sheet's ``turn_timer_seconds`` and
``time_bank_seconds``; no timer when the first is 0):

- Each seat starts a game with ``time_bank_seconds`` in its bank (a seat that joins a running
  game later starts with a full one).
- The clock runs for the seats whose turn it is (the game's ``turn_seats``), never for seats that
  merely may move out of turn (a look at the cards or a claim before the bidding): those are
  neither charged nor timed out, and their moves do not restart the turn.
- When exactly one seat is to act, its deadline is the turn's start + ``turn_timer_seconds`` + its
  bank left; with several seats to act at once, the turn timer only.
- When a seat to act moves, the time it used beyond the turn timer is taken from its bank (never
  below 0). A move by a seat that was not to act (a table action) keeps the turn's start when the
  same seats are still to act; any other commit starts a new turn.
- When the deadline passes, every seat still to act gets the game's ``timeout_action``; a lone seat
  whose bank was in the deadline is left with 0 (seats that shared a deadline keep theirs: it was
  not offered to them).
- The deadline, the turn's start and the banks are written on the room row in the same transaction
  as the move, so a restart finds them as they were.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import unicodedata
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from app import json_codec
from app.games.base import Event, Game, IllegalAction, RuleSheetBase
from app.games.fair import RESEED
from app.rooms import bots as room_bots
from app.rooms import metrics, standin
from app.rooms.bounds import is_token
from app.rooms.errors import RoomError
from app.rooms.fairness import Fairness, build_record
from app.rooms.limits import Bucket, whole_seconds
from app.rooms.tokens import hash_token, new_token
from app.store import queries
from app.store.queries import LogEntry, RoomRecord, VersionConflict

if TYPE_CHECKING:
    from app.rooms.manager import RoomManager

log = logging.getLogger(__name__)

REPLY_CACHE = 256
# A game record holds at most this many log entries (a long table's record is cut short, and says so).
RECORD_MAX_ENTRIES = 20000
# The close code of a member's oldest socket when they open one too many.
CLOSE_REPLACED = 4409
NAME_MAX = 40
# Moves the server makes at once for seats that asked to be skipped, at most this many per commit
# (a table of absent players could otherwise play on without end inside one lock).
AUTO_MAX = 500
# Server actions (the game's ``server_actions``) are applied as this seat and logged with none.
SERVER_SEAT = 0


class RoomGone(Exception):
    """This room object left memory (idle unload, expiry) while a caller waited for its lock: load
    the room again and retry."""


class Subscriber(Protocol):
    """A connection watching a room (the web layer's socket). ``send`` never blocks."""

    member_id: int | None

    def send(self, text: str) -> None: ...

    def close(self, code: int, reason: str) -> None: ...


@dataclass
class Member:
    id: int
    name: str
    status: str  # seated, pending, gone
    seat: int | None
    wanted_seat: int | None
    token_hash: str
    # The version from which this member holds ``seat``: a seat's private events from before it
    # happened to someone else (or under another deal's seat numbers) and are never theirs.
    since: int = 0
    # Rate limits shared by all of this member's sockets (memory only; made on first use).
    moves: Bucket | None = None
    chats: Bucket | None = None


def clean_text(value: str, limit: int, what: str) -> str:
    """Plain text for names and chat: control and format characters dropped, whitespace collapsed.

    Clients show it as text (never as HTML), so nothing else needs escaping here.
    """
    text = "".join(" " if ch.isspace() else ch for ch in unicodedata.normalize("NFC", value)
                   if ch.isspace() or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn"))
    text = " ".join(text.split())
    if not text:
        raise RoomError(f"empty_{what}", f"The {what} is empty.")
    if len(text) > limit:
        raise RoomError(f"{what}_too_long", f"The {what} is longer than {limit} characters.")
    return text


_MOVE_COUNTERS: dict[str, Any] = {}


def _moves_metric(kind: str) -> Any:
    """The moves counter of one kind (the labelled child looked up once, not at every commit)."""
    counter = _MOVE_COUNTERS.get(kind)
    if counter is None:
        counter = _MOVE_COUNTERS[kind] = metrics.MOVES.labels(kind)
    return counter


def _dumps(message: Mapping[str, Any]) -> str:
    return json_codec.dumps(message)


def _event_row(event: Event) -> dict[str, Any]:
    return {"type": event.type, "data": dict(event.data),
            "audience": None if event.audience is None else list(event.audience)}


def _visible(row: Mapping[str, Any], seat: int | None, version: int = 0, since: int = 0) -> bool:
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


def _event_json(entry: LogEntry, row: Mapping[str, Any]) -> dict[str, Any]:
    event = {"seat": entry.seat, **row.get("data", {}), "version": entry.version, "type": row["type"]}
    if entry.kind == "bot":
        event["bot"] = True  # a bot's move (a bot's seat, or a stand-in for an absent player)
    elif entry.kind == standin.SKIP:
        event["skipped"] = True  # the host made the game's default move for an away seat
    return event


class Room:
    def __init__(self, manager: RoomManager, record: RoomRecord, game: Game[Any, Any],
                 epoch: int | None = None) -> None:
        self.manager = manager
        # The epoch of this instance's lease on the room (None: another instance owns it, or no
        # leases at all: see ``owns``).
        self.epoch = epoch
        self.game = game
        # Whether the game has optional decisions at all (one that never does has no quiet waits).
        self._optional_decisions = type(game).optional_decision is not Game.optional_decision
        self.lock = asyncio.Lock()
        self.subscribers: set[Subscriber] = set()
        # When each subscriber attached (a counter): the oldest of a member's sockets goes first.
        self.attached: dict[Subscriber, int] = {}
        self._attach_count = 0
        self.replies: OrderedDict[tuple[int, str], dict[str, Any]] = OrderedDict()
        self.timer: asyncio.TimerHandle | None = None
        # A commit changed what the ``room`` message says (status, deal): send it after the state.
        self._room_changed = False
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
        self._fair_shared: dict[str, Any] | None = None
        self._load(record)
        self.bots = room_bots.BotDriver(self)

    # -- loading -----------------------------------------------------------------------------

    def _load(self, record: RoomRecord) -> None:
        self._take_row(record.room)
        self.members: dict[int, Member] = {}
        self._take_members(record.members)
        self.fair.forget_current()
        state = self.game.load(record.snapshot) if record.snapshot is not None else None
        for entry in record.tail:
            state = self._replay(state, entry)
        self.state: Any = state
        self.moves_since_snapshot = len(record.tail)
        for member_id, msg_id, version in reversed(record.recent_msgs):
            self._remember((member_id, msg_id), {"type": "ack", "id": msg_id, "version": version})
        self.chat: deque[dict[str, Any]] = deque(
            ({"type": "chat", "seat": c["seat"], "name": c["name"], "text": c["text"], "at": c["at"]}
             for c in record.chat), maxlen=30)
        # The id of the newest chat line known here (another instance's newer ones are caught up).
        self.chat_id: int = max((int(c["id"]) for c in record.chat), default=0)

    def _take_row(self, row: Mapping[str, Any]) -> None:
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

    def owns(self) -> bool:
        """Whether this instance runs the room: it holds the lease, or there are no leases."""
        return self.epoch is not None or not self.manager.leases

    async def take_over(self, epoch: int) -> None:
        """This instance took the room's lease (its owner's lease ended): catch up from the stored
        log, then run the room's timers and bots from here."""
        async with self.lock:
            self.epoch = epoch
            await self._catch_up()
            self.arm_timer()

    def _take_members(self, rows: Sequence[Mapping[str, Any]]) -> None:
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

    def _replay(self, state: Any, entry: LogEntry) -> Any:
        return apply_entry(self.game, self.sheet, state, entry)

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

    def remote_presence(self, instance: str, members: frozenset[int], now: float) -> None:
        """Another instance's word on which members have sockets open there in this room."""
        before = self.remote.get(instance)
        if members:
            self.remote[instance] = (members, now)
        else:
            self.remote.pop(instance, None)
        if (before[0] if before is not None else frozenset()) != members:
            self.bots.note_connections()
            self._fair_shared = None  # a newcomer there hears the owner's commitment
            self.publish_room()

    def expire_presence(self, cutoff: float) -> None:
        """Forget the presence of instances not heard from since ``cutoff`` (they died)."""
        stale = [instance for instance, (_, heard) in self.remote.items() if heard < cutoff]
        for instance in stale:
            del self.remote[instance]
        if stale:
            self.bots.note_connections()
            self.publish_room()

    # -- messages ----------------------------------------------------------------------------

    def room_message(self, for_host: bool) -> dict[str, Any]:
        connected = self.connected_seats()
        host = self.host_seat()
        taken = self.seated()
        free = set(self.free_seats())
        # One entry per seat, empty ones too, so a join form can offer the free ones.
        stand_ins = self.bots.stand_ins()
        # A bot's seat is free for a person to take (the bot then leaves).
        seats = [{"seat": seat, "name": taken[seat].name if seat in taken else None,
                  "connected": seat in connected, "host": seat == host,
                  "free": seat in free or room_bots.bot_level(taken.get(seat)) is not None,
                  "bot": room_bots.bot_level(taken.get(seat)), "stand_in": seat in stand_ins}
                 for seat in range(max(self.capacity, self.players))]
        standin.seat_fields(self, seats)  # countdowns, seats to take over or skip
        pending = [{"request": m.id, "name": m.name, "seat": m.wanted_seat}
                   for m in self.members.values() if m.status == "pending"] if for_host else []
        spectators = sum(1 for sub in self.subscribers if self.seat_of(sub) is None)
        return {"type": "room", "room": self.id, "game": self.game.name, "status": self.status,
                "capacity": self.capacity, "players": self.players, "version": self.version,
                "game_no": self.game_no, "approval": self.approval, "sheet": self.sheet_json,
                "seats": seats, "spectators": spectators, "pending": pending,
                "results": list(self.results or []),
                "fair": self._fair_announcement({seat: m.id for seat, m in taken.items()})}

    def _fair_announcement(self, seats: Mapping[int, int]) -> dict[str, Any]:
        """The next deal's commitment and the seats that contributed to it: this instance's own
        round when it runs the room, else the owner's (contributions are handed to the owner)."""
        shared = self.remote_fair
        if shared is not None and not self.owns():
            given = set(shared["members"])
            return {"commitment": shared["commitment"],
                    "contributed": sorted(seat for seat, member in seats.items() if member in given)}
        return self.fair.announce(seats)

    def _share_fair(self) -> None:
        """As the owner, with sockets of this room on other instances: tell them the next deal's
        commitment and who has contributed, so their pages contribute to the round that counts."""
        if self.epoch is None or not self.remote:
            return
        shared = self.fair.shared()
        if shared != self._fair_shared:
            self._fair_shared = shared
            self.manager.share_fair(self.id, shared)

    def fair_heard(self, shared: Any) -> None:
        """The owner's word on the next deal's commitment (``_share_fair``)."""
        if (self.owns() or not isinstance(shared, dict) or not isinstance(shared.get("commitment"), str)
                or not isinstance(shared.get("members"), list)):
            return
        self.remote_fair = {"commitment": shared["commitment"],
                            "members": [m for m in shared["members"] if isinstance(m, int)]}
        self.publish_room()

    def _state_common(self) -> tuple[Any, list[int], dict[str, float], int | None]:
        """What every seat's state message shares (worked out once per publish): the outcome as
        JSON, the seats to act, the banks and the host's seat."""
        outcome = self.game.outcome(self.state)
        to_act = [] if outcome is not None else self.game.to_act(self.state)
        return (None if outcome is None else outcome.to_json(), to_act, self.banks_json(self.banks),
                self.host_seat())

    def state_message(self, seat: int | None, events: list[dict[str, Any]],
                      common: tuple[Any, list[int], dict[str, float], int | None] | None = None,
                      view: dict[str, Any] | None = None) -> dict[str, Any]:
        state = self.state
        if state is None:
            return {"type": "state", "version": self.version, "game_no": self.game_no, "view": None,
                    "legal": [], "table": [], "to_act": [], "deadline": None, "banks": {},
                    "events": events, "outcome": None}
        outcome, to_act, banks, host = common if common is not None else self._state_common()
        legal = self.game.legal_actions(state, seat) if seat is not None and seat in to_act else []
        table = self.table_actions(state, seat, host) if seat is not None and outcome is None else []
        # ``to_act`` may name seats that could move out of turn, which tells what they hold: each
        # connection learns only about itself. Whom the table waits for is the game's view's business.
        return {"type": "state", "version": self.version, "game_no": self.game_no,
                "view": self.game.view(state, seat) if view is None else view, "legal": legal, "table": table,
                "to_act": [seat] if legal else [],
                "deadline": self.deadline, "banks": banks, "events": events, "outcome": outcome}

    @staticmethod
    def banks_json(banks: Mapping[int, float]) -> dict[str, float]:
        """The time banks left, by seat (public: everyone sees everyone's clock)."""
        return {str(seat): left for seat, left in sorted(banks.items())}

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

    def history(self, token: str | None) -> tuple[str, str]:
        """The game's own record of finished deals for a token's seat (``None``: as a spectator).

        A kicked or refused token is refused. A member who took their seat after the current game's
        deal (a newcomer in a vacated seat) gets the spectator's record: its deals were played, at
        least in part, by the seat's previous holder.
        """
        seat = self._record_holder(token)[0]
        names = {seat_no: m.name for seat_no, m in self.seated().items()}
        record = self.game.history(self.state, seat, names) if self.state is not None else None
        if record is None:
            raise RoomError("no_history", "This room has no game record to download yet.", 404)
        return record

    def _record_holder(self, token: str | None) -> tuple[int | None, int]:
        """The seat whose record of the current game a token may download (``None``: a spectator's)
        and the version from which it holds the seat; a kicked or refused token is refused."""
        if token is None:
            return None, 0
        member = self.by_token.get(hash_token(token)) if is_token(token) else None
        if member is None or member.status == "gone":
            raise RoomError("bad_token", "That token holds no seat in this room.", 403)
        if member.status == "seated" and not self._took_over(member):
            return member.seat, member.since
        return None, 0

    async def record(self, token: str | None) -> tuple[str, dict[str, Any]]:
        """The current game's verifiable record for a token's seat (``None``: as a spectator): the
        sheet, the commitment, the contributions, the seat's dealt view, the events it may see, and,
        once opened or revealed, the shuffle keys and decks and the server seed (fairness.py)."""
        async with self.lock:
            if self.closed:
                raise RoomGone(self.id)
            seat, since = self._record_holder(token)
            if self.state is None:
                raise RoomError("no_record", "This room has no game record to download yet.", 404)
            entries = await queries.log_range(self.manager.engine, self.id, self.deal_version,
                                              limit=RECORD_MAX_ENTRIES)
            deal = entries[0] if entries and entries[0].kind == "deal" else None
            if deal is None or "fair" not in deal.action:
                raise RoomError("no_record", "This game was dealt before deals could be verified.", 404)
            state = self.state  # states are immutable: safe to read after the lock
        events = [_event_json(e, row) for e in entries for row in e.events
                  if _visible(row, seat, e.version, since)]
        # The engine's work (a new deal, every opened shuffle) off the event loop and the lock: it is pure.
        body = await asyncio.to_thread(build_record, self.game, self.sheet, deal, state, seat, events)
        body.update({"room": self.id, "truncated": len(entries) >= RECORD_MAX_ENTRIES})
        return f"{self.game.name}-{self.id}-{deal.game_no}.json", body

    def _took_over(self, member: Member) -> bool:
        """Whether ``member`` sits in a seat someone else held during the current game (they were
        kicked from it after its deal): that game's record of the seat is not theirs."""
        if member.since <= self.deal_version:
            return False
        return any(other.status == "gone" and other.seat == member.seat and other.since >= self.deal_version
                   for other in self.members.values() if other.id != member.id)

    def welcome_message(self, sub: Subscriber) -> dict[str, Any]:
        member = self.member_of(sub)
        return {"type": "welcome", "room": self.id, "game": self.game.name,
                "seat": self.seat_of(sub), "name": member.name if member else None,
                "host": member is not None and member.id == self.host_member,
                "pending": member is not None and member.status == "pending"}

    def publish_room(self) -> None:
        self._room_changed = False
        self._share_fair()
        plain: str | None = None
        for sub in list(self.subscribers):
            member = self.member_of(sub)
            if member is not None and member.id == self.host_member:
                sub.send(_dumps(self.room_message(True)))
            else:
                plain = plain or _dumps(self.room_message(False))
                sub.send(plain)

    def publish_state(self, entries: Sequence[LogEntry]) -> None:
        """Each socket gets its seat's view and the new events it may see (built once per seat and
        tenure: a member who took the seat after some of these entries does not get their private
        events)."""
        audience: list[tuple[Subscriber, int | None, int]] = []
        for sub in list(self.subscribers):
            member = self.member_of(sub)
            seat = member.seat if member is not None and member.status == "seated" else None
            audience.append((sub, seat, member.since if seat is not None and member is not None else 0))
        common = self._state_common() if self.state is not None and audience else None
        # Every seat's view at once: the game builds the table's public part once (``views``).
        views = (self.game.views(self.state, list({seat for _, seat, _ in audience}))
                 if self.state is not None and audience else {})
        texts: dict[tuple[int | None, int], str] = {}
        for sub, seat, since in audience:
            key = (seat, since)
            text = texts.get(key)
            if text is None:
                events = [_event_json(e, row) for e in entries for row in e.events
                          if _visible(row, seat, e.version, since)]
                text = texts[key] = _dumps(self.state_message(seat, events, common, views.get(seat)))
            sub.send(text)
        if self._room_changed or standin.skip_changed(self):
            self.publish_room()

    def _remember(self, key: tuple[int, str], reply: dict[str, Any]) -> None:
        self.replies[key] = reply
        self.replies.move_to_end(key)
        while len(self.replies) > REPLY_CACHE:
            self.replies.popitem(last=False)

    def _reply_key(self, sub: Subscriber, msg_id: str) -> tuple[int, str]:
        # Spectators have no member id: their ids are scoped to the connection.
        return (sub.member_id if sub.member_id is not None else -id(sub), msg_id)

    def _over_rate(self, sub: Subscriber, msg_id: str, chat: bool = False) -> bool:
        """Whether the member of ``sub`` is over their move (or chat) rate, over all their sockets;
        then the message is refused with ``rate_limited`` (not remembered: a later retry may pass)."""
        member = self.member_of(sub)
        if member is None:
            return False  # spectators neither move nor chat; their sockets' own flood limit holds
        settings = self.manager.settings
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
        sub.send(_dumps(self.error(msg_id, "rate_limited", f"Too many messages from your seat; wait "
                                   f"{seconds} second{'s' if seconds != 1 else ''}.")))
        return True

    def _refuse(self, sub: Subscriber, msg_id: str, code: str, message: str) -> None:
        self._answer(sub, msg_id, self.error(msg_id, code, message))

    def _answer(self, sub: Subscriber, msg_id: str, reply: dict[str, Any]) -> None:
        self._remember(self._reply_key(sub, msg_id), reply)
        if reply["type"] == "error":
            metrics.REFUSED.labels(reply["code"]).inc()
        sub.send(_dumps(reply))

    @staticmethod
    def error(msg_id: str | None, code: str, message: str) -> dict[str, Any]:
        return {"type": "error", "id": msg_id, "code": code, "message": message}

    # -- connections -------------------------------------------------------------------------

    async def attach(self, sub: Subscriber, token: str | None, last_version: int | None) -> None:
        """Authenticate and subscribe; sends welcome, room, state (with missed events) and chat."""
        async with self.lock:
            if self.closed:
                raise RoomGone(self.id)
            if token is not None:
                member = self.by_token.get(hash_token(token)) if is_token(token) else None
                if member is None:
                    raise RoomError("bad_token", "This token does not belong to this room.", 403)
                if member.status == "gone":
                    raise RoomError("bad_token", "This token is no longer valid: the host removed it.", 403)
                sub.member_id = member.id
            else:
                sub.member_id = None
                spectators = sum(1 for s in self.subscribers if self.seat_of(s) is None)
                if spectators >= self.manager.settings.max_spectators:
                    raise RoomError("room_full", "Too many spectators are watching this room.", 403)
            if sub.member_id is not None:
                self._make_room_for(sub.member_id)
            if self.results is None:
                self.results = await queries.game_results(self.manager.engine, self.id)
            sub.send(_dumps(self.welcome_message(sub)))
            self.subscribers.add(sub)
            self._attach_count += 1
            self.attached[sub] = self._attach_count
            self.manager.presence_changed(self)
            self.bots.note_connections()  # a returning player takes the seat back from its bot
            if not self.owns():
                self.manager.spawn(self.manager.want(self))
            await self._send_catch_up(sub, last_version)
            for line in self.chat:
                sub.send(_dumps(line))
            self.publish_room()

    def _make_room_for(self, member_id: int) -> None:
        """A member may hold ``max_sockets_per_member`` sockets: the oldest ones beyond go."""
        mine = sorted((s for s in self.subscribers if s.member_id == member_id),
                      key=lambda s: self.attached.get(s, 0))
        excess = len(mine) + 1 - self.manager.settings.max_sockets_per_member
        for old in mine[:max(0, excess)]:
            old.send(_dumps(self.error(None, "too_many_sockets",
                                       "This seat opened a newer connection; this one is closed.")))
            old.close(CLOSE_REPLACED, "replaced by a newer connection")
            self._forget(old)

    def _forget(self, sub: Subscriber) -> None:
        self.subscribers.discard(sub)
        self.attached.pop(sub, None)
        self.manager.presence_changed(self)
        if not self.subscribers:
            self.idle_since = time.monotonic()

    def idle(self, now: float, after: float) -> bool:
        """No socket for ``after`` seconds and no timer to fire: the room may leave memory."""
        return not self.subscribers and self.timer is None and now - self.idle_since >= after

    async def _send_catch_up(self, sub: Subscriber, last_version: int | None) -> None:
        seat = self.seat_of(sub)
        since = self.since_of(sub)
        events: list[dict[str, Any]] = []
        if self.state is not None and (last_version is None or last_version < self.version):
            after = self.deal_version - 1
            if last_version is not None:
                after = max(last_version, after)
            # Only up to this instance's own version: the database may be ahead (another
            # instance's move whose notification is on its way), and the sync that follows
            # publishes those entries; sending them here too would tell them twice.
            for entry in await queries.log_since(self.manager.engine, self.id, after, through=self.version):
                events.extend(_event_json(entry, row) for row in entry.events
                              if _visible(row, seat, entry.version, since))
        sub.send(_dumps(self.state_message(seat, events)))

    async def detach(self, sub: Subscriber) -> None:
        async with self.lock:
            if sub in self.subscribers:
                self._forget(sub)
                self.bots.note_connections()
                self.publish_room()

    # -- the actor ---------------------------------------------------------------------------

    def _bank_of(self, banks: Mapping[int, float], seat: int) -> float:
        # A seat with no entry (a newcomer at a running table, a room stored before banks) has a full bank.
        return banks.get(seat, float(self.sheet.time_bank_seconds))

    def _clock_for(self, entries: Sequence[LogEntry], state: Any
                   ) -> tuple[float | None, float | None, dict[int, float]]:
        """The turn clock after ``entries`` lead from ``self.state`` to ``state``: the deadline, the
        turn's start and the banks left (see the module's docstring)."""
        base = self.sheet.turn_timer_seconds
        quiet = self._quiet_seconds(state)
        if base <= 0:
            if quiet is None:
                return None, None, {}
            now = round(time.time(), 3)
            return round(now + quiet, 3), now, {}
        now = round(time.time(), 3)
        fresh = any(e.kind == "deal" for e in entries)
        if fresh:
            players = entries[0].action["players"] if entries[0].kind == "deal" else self.players
            banks = {seat: float(self.sheet.time_bank_seconds) for seat in range(players)}
            waiting: list[int] = []
        else:
            banks = dict(self.banks)
            waiting = [] if self.state is None else list(self.game.turn_seats(self.state))
        movers = {e.seat for e in entries if e.kind == "move" and e.seat in waiting}
        if self.turn_start is not None and not fresh:
            over = now - self.turn_start - base
            for seat in movers:
                if over > 0:
                    banks[seat] = round(max(0.0, self._bank_of(banks, seat) - over), 3)
        timed_out = {e.seat for e in entries if e.kind == "timeout" and e.seat is not None}
        if len(waiting) == 1 and waiting[0] in timed_out:
            banks[waiting[0]] = 0.0
        if state is None or self.game.outcome(state) is not None:
            return None, None, banks
        to_act = list(self.game.turn_seats(state))  # who is on the clock, not who may move
        if not to_act:
            return None, None, banks
        keep = (not fresh and self.turn_start is not None and to_act == waiting
                and not movers and not timed_out)
        start = self.turn_start if keep and self.turn_start is not None else now
        if quiet is not None and quiet < base:
            return round(start + quiet, 3), start, banks
        extra = self._bank_of(banks, to_act[0]) if len(to_act) == 1 else 0.0
        return round(start + base + extra, 3), start, banks

    def _quiet_seconds(self, state: Any) -> float | None:
        """The sheet's ``decision_timer_seconds`` when every seat to act faces only an optional
        decision (the game's ``optional_decision``), so such a wait never stalls the table."""
        seconds = getattr(self.sheet, "decision_timer_seconds", 0)
        if state is None or seconds <= 0 or not self._optional_decisions:
            return None
        if self.game.outcome(state) is not None:
            return None
        to_act = self.game.turn_seats(state)
        if to_act and all(self.game.optional_decision(state, seat) for seat in to_act):
            return float(seconds)
        return None

    async def _commit(
        self,
        entries: list[LogEntry],
        state: Any,
        *,
        room_values: dict[str, Any] | None = None,
        seats: Mapping[int, int | None] | None = None,
        snapshot: bool = False,
    ) -> None:
        """Persist ``entries`` leading to ``state``; on success memory follows, then timers re-arm.

        Raises ``VersionConflict`` (another instance moved first) or a database error; in both
        cases memory is untouched.
        """
        pending = self.fair.pending
        tracking = self.fair.tracking()
        try:
            state = self._seal_rounds(entries, state)
            # Shuffle commitments and keys, and the reveals, ride in the last entry.
            entries[-1].events.extend(await self._fair_events(entries, state))
        except BaseException:
            self.fair.pending = pending
            self.fair.set_tracking(tracking)
            raise
        finished = state is not None and self.game.outcome(state) is not None
        status = "finished" if finished else "playing"
        result = self._result(state, entries[-1].game_no) if finished and self.status != "finished" else None
        if result is not None:
            # Kept in the game's last log entry, where the room tally finds it after a restart.
            entries[-1].events.append({"type": "game_result", "data": result, "audience": None})
        deadline, turn_start, banks = self._clock_for(entries, state)
        moves = self.moves_since_snapshot + len(entries)
        take_snapshot = snapshot or finished or moves >= self.manager.settings.snapshot_every
        values = {"status": status, "deadline": deadline, "turn_start": turn_start,
                  "banks": self.banks_json(banks), **(room_values or {})}
        if status != self.status or room_values:
            # A deal or a game's end: the retention of finished rooms counts from here.
            values["active_at"] = round(time.time(), 3)
        snap = (entries[-1].version, entries[-1].game_no, self.game.dump(state)) if take_snapshot else None
        try:
            await self.manager.commit(queries.Commit(self.id, self.version, entries, values, snap, seats,
                                                     self.epoch))
        except BaseException:
            self.fair.set_tracking(tracking)  # not published after all
            if self.fair.pending is not pending:
                # A round sealed for these entries was not stored: its contributions still count.
                self.fair.pending = pending
            raise
        self.state = state
        self.version = entries[-1].version
        changed = self.status != status
        self.status = status
        self.deadline = deadline
        self.turn_start = turn_start
        self.banks = banks
        for key, value in (room_values or {}).items():
            setattr(self, key, value)
        self.moves_since_snapshot = 0 if take_snapshot else moves
        for entry in entries:
            _moves_metric(entry.kind).inc()
        if changed or room_values:
            # The room message tells the status and the deal: everyone hears of a change (a game's
            # end included) right after the state that made it.
            self._room_changed = True
        if changed:
            self.manager.update_gauges()
        self.arm_timer()
        if result is not None:
            if self.results is not None:
                self.results.append(result)
            self._room_changed = True  # the tally rides in the room message, sent after the state

    def _seal_rounds(self, entries: list[LogEntry], state: Any) -> Any:
        """A game that deals more than once (``Game.reseeds``) gets a fresh fair round for each later
        shuffle: when these entries make one, the pending round is sealed into a ``reseed`` entry
        put just before the entry that shuffles, and the entries from there are applied again (the
        new hand or deal is dealt from the round's seed; events, versions and later automatic moves
        follow). So the contributions sent during the hand before count for the next one, and the
        round's commitment was out before any of them. Returns the state the entries now lead to;
        ``entries`` is changed in place (its callers publish it)."""
        game = self.game
        if (not game.reseeds or state is None or self.state is None or not entries
                or any(e.kind == "deal" for e in entries)
                or game.shuffle_count(state) == game.shuffle_count(self.state)):
            return state
        first_version = entries[0].version
        game_no = entries[0].game_no
        current = self.state
        out: list[LogEntry] = []
        resealed = False
        for index, entry in enumerate(entries):
            seat = SERVER_SEAT if entry.seat is None else entry.seat
            count = game.shuffle_count(current)
            try:
                after, events = game.apply(current, seat, entry.action)
                if not resealed and game.shuffle_count(after) > count:
                    reseed = self._reseed_entry(game_no, after)
                    current, _ = game.apply(current, SERVER_SEAT, reseed.action)
                    out.append(reseed)
                    after, events = game.apply(current, seat, entry.action)
                    resealed = True
            except IllegalAction:
                # Only a move the server made itself after the new deal can fail here (its choice
                # was made on the deal before): the server's moves are chosen again from here, and
                # a dropped timeout comes again at the next deadline.
                if entry.kind == "move" or not resealed or index == 0:
                    raise
                current, autos = self._auto_entries(current, first_version + len(out) - 1, game_no)
                out.extend(autos)
                break
            entry.events = [_event_row(e) for e in events]
            out.append(entry)
            current = after
        for offset, entry in enumerate(out):
            entry.version = first_version + offset
        entries[:] = out
        return current

    def _reseed_entry(self, game_no: int, dealt: Any) -> LogEntry:
        """The pending round sealed for the shuffle about to be made (``dealt``: the state the
        shuffling entry led to before reseeding), as a server entry with its public event."""
        seated = self.seated()
        order = [seated[seat].id if seat in seated else None for seat in range(self.game.seat_count(dealt))]
        sealed = self.fair.seal_round(order)
        labels = [s.label for s in self.game.shuffles(dealt, self.game.shuffle_count(self.state))]
        self._room_changed = True  # the next round's commitment goes out in the room message
        return LogEntry(0, game_no, "server", None,
                        {"type": RESEED, "seed": sealed.seed, "fair": sealed.to_action()},
                        [{"type": "fair_round",
                          "data": {"game_no": game_no, "label": labels[0] if labels else None,
                                   **self.fair.deal_event(sealed)},
                          "audience": None}])

    async def _fair_events(self, entries: Sequence[LogEntry], state: Any) -> list[dict[str, Any]]:
        fresh = any(e.kind == "deal" for e in entries)
        if not fresh and not self.fair.loaded:
            # After a load: the current game's seeds are in its deal entry.
            found = await queries.log_range(self.manager.engine, self.id, self.deal_version, limit=1)
            deal = found[0] if found and found[0].kind == "deal" else None
            self.fair.restore(deal.action if deal is not None else None)
        return self.fair.events(self.game, None if fresh else self.state, state, entries[-1].game_no)

    def _result(self, state: Any, game_no: int) -> dict[str, Any] | None:
        """A finished game's result by name: the first place's seats win; a lone last place, after
        others placed above it, is the loser (a shedding game's last player)."""
        outcome = self.game.outcome(state)
        if outcome is None or not outcome.placings:
            return None
        seated = self.seated()

        def names(seats: Sequence[int]) -> list[str]:
            return [seated[seat].name if seat in seated else f"Seat {seat + 1}" for seat in seats]

        last = outcome.placings[-1] if len(outcome.placings) > 1 else ()
        return {"game_no": game_no, "winners": names(outcome.placings[0]),
                "losers": names(last) if len(last) == 1 else [],
                "players": names([seat for group in outcome.placings for seat in group])}

    async def _recover(self, sub: Subscriber | None, msg_id: str | None, error: Exception) -> None:
        """After a failed commit: catch up with the database (the truth) and tell everyone what
        they missed."""
        if isinstance(error, VersionConflict):
            code, message = "stale_version", "The game moved on before your move arrived; look again."
        else:
            log.exception("commit failed in room %s", self.id, exc_info=error)
            code, message = "server_error", "The move could not be stored; nothing changed. Try again."
        if sub is not None and msg_id is not None:
            # Not remembered: a retry of this id may well succeed.
            sub.send(_dumps(self.error(msg_id, code, message)))
            metrics.REFUSED.labels(code).inc()
        try:
            # The room moved on elsewhere (or the commit's fate is unknown): take the log entries
            # this instance missed and publish them, events included, once.
            await self._catch_up()
        except Exception:
            log.exception("catching up failed in room %s", self.id)

    def _clock_entries(self, state: Any, version: int, game_no: int) -> tuple[Any, list[LogEntry]]:
        """The game's clock action if one is due now (logged with no seat), applied to ``state``."""
        action = self.game.clock_action(state, round(time.time(), 3))
        if action is None:
            return state, []
        try:
            state, events = self.game.apply(state, SERVER_SEAT, action)
        except IllegalAction:
            log.exception("clock action of %s was refused", self.game.name)
            return state, []
        return state, [LogEntry(version + 1, game_no, "clock", None, dict(action),
                                [_event_row(e) for e in events])]

    def _auto_entries(self, state: Any, version: int, game_no: int) -> tuple[Any, list[LogEntry]]:
        """The moves made at once for seats to act that the game answers itself (``auto_action``)."""
        entries: list[LogEntry] = []
        while len(entries) < AUTO_MAX and self.game.outcome(state) is None:
            found = next(((seat, a) for seat in self.game.to_act(state)
                          if (a := self.game.auto_action(state, seat)) is not None), None)
            if found is None:
                break
            seat, action = found
            try:
                state, events = self.game.apply(state, seat, action)
            except IllegalAction:
                log.exception("auto action of %s was refused", self.game.name)
                break
            entries.append(LogEntry(version + len(entries) + 1, game_no, "auto", seat, dict(action),
                                    [_event_row(e) for e in events]))
        return state, entries

    async def act(self, sub: Subscriber, msg_id: str, action: dict[str, Any], version: int | None) -> None:
        if not self.owns() and sub.member_id is not None:
            cached = self.replies.get(self._reply_key(sub, msg_id))
            if cached is not None:
                sub.send(_dumps(cached))
                return
            await self.manager.hand_over(self, sub, "action", msg_id, {"action": action, "version": version})
            return
        started = time.perf_counter()
        async with self.lock:
            cached = self.replies.get(self._reply_key(sub, msg_id))
            if cached is not None:
                sub.send(_dumps(cached))
                return
            if self._over_rate(sub, msg_id):
                return
            seat = self.seat_of(sub)
            if seat is None:
                return self._refuse(sub, msg_id, "not_seated", "Spectators cannot make moves.")
            if self.status != "playing" or self.state is None:
                return self._refuse(sub, msg_id, "not_playing", "No game is being played.")
            if version is not None and version != self.version:
                message = f"The game is at version {self.version}, not {version}."
                return self._refuse(sub, msg_id, "stale_version", message)
            kind = action.get("type")
            if isinstance(kind, str) and kind in self.game.server_actions:
                return self._refuse(sub, msg_id, "server_only", "Only the server makes that move.")
            if isinstance(kind, str) and kind in self.game.host_actions and seat != self.host_seat():
                return self._refuse(sub, msg_id, "not_host", "Only the host can do that.")
            ready, before = self._clock_entries(self.state, self.version, self.game_no)
            try:
                state, events = self.game.apply(ready, seat, action)
            except IllegalAction as refused:
                return self._answer(sub, msg_id, self.error(msg_id, refused.code, refused.message))
            except Exception:
                log.exception("game %s refused an action badly", self.game.name)
                return self._refuse(sub, msg_id, "bad_action", "That action is malformed.")
            entry = LogEntry(self.version + len(before) + 1, self.game_no, "move", seat, action,
                             [_event_row(e) for e in events], sub.member_id, msg_id)
            state, after = self._auto_entries(state, entry.version, self.game_no)
            entries = [*before, entry, *after]
            try:
                await self._commit(entries, state)
            except Exception as error:
                # An id too old for the reply cache hits the log's unique index: answer as before.
                applied = None
                if not isinstance(error, VersionConflict) and sub.member_id is not None:
                    with contextlib.suppress(Exception):
                        applied = await queries.find_msg(self.manager.engine, self.id, sub.member_id, msg_id)
                if applied is not None:
                    self._answer(sub, msg_id, {"type": "ack", "id": msg_id, "version": applied})
                    return
                await self._recover(sub, msg_id, error)
                return
            # The move's own version, as a repeat of this id finds it in the log after a restart
            # (moves the server made right after it, ``auto``, have later versions).
            self._answer(sub, msg_id, {"type": "ack", "id": msg_id, "version": entry.version})
            metrics.MOVE_LATENCY.observe(time.perf_counter() - started)
            self.publish_state(entries)

    async def _announce(self) -> None:
        try:
            await self.manager.announce_now(self.id)
        except Exception:
            log.exception("could not announce a change of room %s", self.id)

    async def sync(self) -> None:
        """Another instance changed this room: bring this instance and its sockets up to date."""
        async with self.lock:
            self.sync_wanted = False
            if self.closed:
                return
            await self._catch_up()

    async def _catch_up(self) -> None:
        """Apply what the database has beyond this instance's memory: the log entries after its
        version (applied one by one, never a reload and replay of the room), the room row, the
        members and new chat lines. Publishes only what changed: the entries' events once, the
        room message if it differs, a welcome for members whose seat or role changed."""
        news = await queries.room_news(self.manager.engine, self.id, self.version, self.chat_id)
        if news is None:
            return
        entries = news.entries
        target = news.room["version"]
        contiguous = [e.version for e in entries] == list(range(self.version + 1, target + 1))
        if target > self.version and not contiguous:
            # Not a contiguous tail (never expected: log entries are never deleted): rebuild.
            record = await queries.load_room(self.manager.engine, self.id)
            if record is None:
                return
            self._load(record)
            self.publish_room()
            self.publish_state(entries)
            self.arm_timer()
            return
        before_room = self.room_message(True)
        before_roles = {m.id: (m.status, m.seat, m.id == self.host_member) for m in self.members.values()}
        self._take_row(news.room)
        state = self.state
        for entry in entries:
            state = self._replay(state, entry)
            if entry.member_id is not None and entry.msg_id is not None:
                # A retry on this instance of a message applied elsewhere gets its ack.
                self._remember((entry.member_id, entry.msg_id),
                               {"type": "ack", "id": entry.msg_id, "version": entry.version})
            if self.results is not None:
                self.results.extend(dict(event.get("data") or {}) for event in entry.events
                                    if event.get("type") == "game_result")
        self.state = state
        self.moves_since_snapshot += len(entries)
        self._take_members(news.members)
        changed = {m.id for m in self.members.values()
                   if before_roles.get(m.id) != (m.status, m.seat, m.id == self.host_member)}
        for sub in list(self.subscribers):
            member = self.member_of(sub)
            if member is not None and member.status == "gone":
                if self.manager.leave_handed(self.id, member.id):
                    continue  # they left: their sockets close after the owner's ack (``left``)
                sub.send(_dumps({"type": "kicked"}))
                sub.close(4403, "kicked")
                self._forget(sub)
            elif member is not None and member.id in changed:
                sub.send(_dumps(self.welcome_message(sub)))
                if not entries:  # the seat's own view (an approval, the host's table actions)
                    sub.send(_dumps(self.state_message(self.seat_of(sub), [])))
        if self.room_message(True) != before_room:
            self._room_changed = True
        if entries:
            self.publish_state(entries)
        elif self._room_changed:
            self.publish_room()
        for line in news.chat:
            self.chat_id = max(self.chat_id, int(line["id"]))
            said = {"type": "chat", "seat": line["seat"], "name": line["name"], "text": line["text"],
                    "at": line["at"]}
            self.chat.append(said)
            text = _dumps(said)
            for sub in list(self.subscribers):
                sub.send(text)
        if entries or self._room_changed:
            self.manager.update_gauges()
        self.arm_timer()

    # -- turn timers -------------------------------------------------------------------------

    def arm_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if not self.owns():
            return  # the owner runs the room's timers and bots
        if hasattr(self, "bots"):
            self.bots.schedule()  # after every commit, load and reload: the bots' next move
        if self.deadline is None or self.status != "playing":
            return
        loop = asyncio.get_running_loop()
        expected = self.version
        delay = max(0.0, self.deadline - time.time())
        self.timer = loop.call_later(delay, lambda: self.manager.spawn(self.expire(expected)))

    async def expire(self, expected: int) -> None:
        """The deadline passed: every seat still to act gets the game's default move (one commit)."""
        async with self.lock:
            if self.version != expected or self.deadline is None or self.state is None:
                return
            if time.time() < self.deadline:
                self.arm_timer()
                return
            state, entries = self._clock_entries(self.state, self.version, self.game_no)
            for seat in list(self.game.turn_seats(state)):
                if self.game.outcome(state) is not None or seat not in self.game.turn_seats(state):
                    continue
                action = self.game.timeout_action(state, seat)
                if action is None:
                    continue
                try:
                    state, events = self.game.apply(state, seat, action)
                except IllegalAction:
                    log.exception("timeout action of %s was refused", self.game.name)
                    continue
                entries.append(LogEntry(self.version + len(entries) + 1, self.game_no, "timeout", seat,
                                        dict(action), [_event_row(e) for e in events]))
            if not any(e.kind == "timeout" for e in entries):
                return
            state, autos = self._auto_entries(state, entries[-1].version, self.game_no)
            entries.extend(autos)
            try:
                await self._commit(entries, state)
            except Exception as error:
                await self._recover(None, None, error)
                return
            self.publish_state(entries)

    # -- chat --------------------------------------------------------------------------------

    async def say(self, sub: Subscriber, msg_id: str, text: str) -> None:
        if not self.owns() and sub.member_id is not None:
            # The owner stores and orders the room's chat, as it does its moves.
            await self.manager.hand_over(self, sub, "chat", msg_id, {"text": text})
            return
        async with self.lock:
            cached = self.replies.get(self._reply_key(sub, msg_id))
            if cached is not None:
                sub.send(_dumps(cached))
                return
            member = self.member_of(sub)
            if member is None or member.status != "seated":
                return self._refuse(sub, msg_id, "not_seated", "Only seated players can chat.")
            if self._over_rate(sub, msg_id, chat=True):
                return
            try:
                clean = clean_text(text, self.manager.settings.chat_max_length, "chat")
            except RoomError as refused:
                return self._answer(sub, msg_id, self.error(msg_id, refused.code, refused.message))
            at = round(time.time(), 3)
            try:
                line_id = await queries.add_chat(self.manager.engine, self.id, member.seat, member.name,
                                                 clean, at, keep=self.manager.settings.chat_keep)
            except Exception:
                log.exception("chat not stored in room %s", self.id)
                sub.send(_dumps(self.error(msg_id, "server_error", "The message could not be stored.")))
                return
            self._answer(sub, msg_id, {"type": "ack", "id": msg_id, "version": self.version})
            await self._announce()
            line = {"type": "chat", "seat": member.seat, "name": member.name, "text": clean, "at": at}
            self.chat.append(line)
            self.chat_id = max(self.chat_id, line_id)
            text_out = _dumps(line)
            for other in list(self.subscribers):
                other.send(text_out)

    async def contribute(self, sub: Subscriber, msg_id: str, commitment: str, value: str) -> None:
        """A seated member's random contribution to the next deal (fairness.py): taken at once,
        answered with ``contributed``, and the room message tells everyone who has given one."""
        if not self.owns() and sub.member_id is not None:
            await self.manager.hand_over(self, sub, "contribute", msg_id,
                                         {"commitment": commitment, "bytes": value})
            return
        async with self.lock:
            member = self.member_of(sub)
            if member is None or member.status != "seated":
                return self._refuse(sub, msg_id, "not_seated", "Only seated players contribute to the deal.")
            if self._over_rate(sub, msg_id):
                return
            try:
                taken = self.fair.contribute(member.id, commitment, value)
            except RoomError as refused:
                return self._refuse(sub, msg_id, refused.code, refused.message)
            sub.send(_dumps({"type": "contributed", "id": msg_id, "commitment": commitment}))
            if taken:
                self.publish_room()

    # -- joining (HTTP) ----------------------------------------------------------------------

    async def join(self, name: str, seat: int | None) -> dict[str, Any]:
        name = clean_text(name, NAME_MAX, "name")
        async with self.lock:
            if self.closed:
                raise RoomGone(self.id)
            # Seats nobody holds first, then bots' seats: a person may take a bot's place.
            free = self.free_seats() + room_bots.bot_seats(self)
            if seat is not None and seat not in free:
                raise RoomError("seat_taken", "That seat is not free.", 409)
            if not free:
                raise RoomError("room_full", "Every seat is taken; you can watch as a spectator.", 409)
            if self.approval:
                waiting = sum(1 for m in self.members.values() if m.status == "pending")
                if waiting >= self.manager.settings.max_pending_requests:
                    raise RoomError("too_many_pending", "Too many people are waiting for the host's "
                                    "answer; try again later.", 429, retry_after=60)
            token = new_token()
            token_hash = hash_token(token)
            status = "pending" if self.approval else "seated"
            given = None if self.approval else (seat if seat is not None else free[0])
            if given is not None:
                await room_bots.take_bot_seat(self, given)
            since = self.version + 1
            member_id = await queries.add_member(self.manager.engine, self.id, {
                "name": name, "token_hash": token_hash, "status": status, "seat": given, "wanted_seat": seat,
                "seat_since": since})
            await queries.touch_room(self.manager.engine, self.id, round(time.time(), 3))
            member = Member(member_id, name, status, given, seat, token_hash, since)
            self.members[member_id] = member
            self.by_token[token_hash] = member
            self.publish_room()
            await self._announce()
            if self.approval:
                return {"pending": True, "request": member_id, "token": token}
            return {"seat": given, "token": token}

    # -- host operations ---------------------------------------------------------------------

    async def host(self, sub: Subscriber, msg_id: str, op: str, args: dict[str, Any]) -> None:
        if not self.owns() and sub.member_id is not None:
            await self.manager.hand_over(self, sub, "host", msg_id, {"op": op, "args": args})
            return
        async with self.lock:
            cached = self.replies.get(self._reply_key(sub, msg_id))
            if cached is not None:
                sub.send(_dumps(cached))
                return
            member = self.member_of(sub)
            if member is None or member.id != self.host_member or member.status != "seated":
                return self._refuse(sub, msg_id, "not_host", "Only the host can do that.")
            if self._over_rate(sub, msg_id):
                return
            handler: Callable[[dict[str, Any]], Any] | None = getattr(self, f"_host_{op}", None)
            if handler is None:
                return self._refuse(sub, msg_id, "unknown_op", "Unknown host operation.")
            try:
                entries: list[LogEntry] | None = await handler(args)
            except RoomError as refused:
                return self._answer(sub, msg_id, self.error(msg_id, refused.code, refused.message))
            except IllegalAction as refused:
                return self._answer(sub, msg_id, self.error(msg_id, refused.code, refused.message))
            except VersionConflict as error:
                await self._recover(sub, msg_id, error)
                return
            except Exception as error:
                await self._recover(sub, msg_id, error)
                return
            self._answer(sub, msg_id, {"type": "ack", "id": msg_id, "version": self.version})
            self.publish_room()
            if entries is not None:
                self.publish_state(entries)
            else:
                await self._announce()

    def _request_arg(self, args: Mapping[str, Any]) -> Member | None:
        request = args.get("request")
        return self.members.get(request) if isinstance(request, int) else None

    def _seat_arg(self, args: Mapping[str, Any]) -> int:
        seat = args.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise RoomError("bad_message", "Name a seat by its number.")
        return seat

    async def _deal(self) -> list[LogEntry]:
        seated = self.seated()
        players = len(seated)
        self.sheet.check_players(players)
        # Seats are renumbered 0..n-1 in table order, so a deal never has holes.
        renumber = {m.id: index for index, (_, m) in enumerate(sorted(seated.items()))}
        # The game's seed from the pending commitment and the contributions, in the deal's seat order.
        pending = self.fair.pending
        sealed = self.fair.seal([m.id for _, m in sorted(seated.items())])
        version = self.version + 1
        game_no = self.game_no + 1
        try:
            state = self.game.new(self.sheet, players, seed=sealed.seed)
            entry = LogEntry(version, game_no, "deal", None,
                             {"seed": sealed.seed, "players": players, "fair": sealed.to_action()},
                             [{"type": "deal", "data": {"game_no": game_no, "players": players,
                                                        "names": [m.name for _, m in sorted(seated.items())],
                                                        **self.fair.deal_event(sealed)},
                               "audience": None}])
            state, clock = self._clock_entries(state, version, game_no)
            state, autos = self._auto_entries(state, version + len(clock), game_no)
            entries = [entry, *clock, *autos]
            await self._commit(entries, state, snapshot=True, seats=renumber,
                               room_values={"game_no": game_no, "players": players, "deal_version": version})
        except Exception:
            # Not dealt: the contributions still count for the next try.
            self.fair.pending = pending
            self.fair.forget_current()
            raise
        moved = {m for m, seat in renumber.items() if self.members[m].seat != seat}
        for member_id, seat in renumber.items():
            # Seat numbers change meaning at a deal: every seat is held anew from it.
            self.members[member_id].seat = seat
            self.members[member_id].since = version
        for sub in list(self.subscribers):
            if sub.member_id in moved:
                sub.send(_dumps(self.welcome_message(sub)))
        return entries

    async def _host_start(self, args: dict[str, Any]) -> list[LogEntry]:
        if self.status != "lobby":
            raise RoomError("already_started", "The game has already started; use rematch after it ends.")
        return await self._deal()

    async def _host_rematch(self, args: dict[str, Any]) -> list[LogEntry]:
        if self.status != "finished":
            raise RoomError("not_finished", "A new game can start once this one has ended.")
        return await self._deal()

    async def _host_sheet(self, args: dict[str, Any]) -> None:
        # P24: the sheet is fixed before the first deal and never changes after.
        if self.status != "lobby":
            raise RoomError("sheet_locked", "The rule sheet is locked once the first deal has started.")
        options = args.get("options")
        if not isinstance(options, dict):
            raise RoomError("bad_message", "The sheet's options are a JSON object.")
        self.manager.check_sheet_size(options)
        sheet = self.game.sheet(options)
        sheet_json = sheet.model_dump(mode="json")
        await queries.update_room(self.manager.engine, self.id, sheet=sheet_json, sheet_id=None,
                                  sheet_version=None, active_at=round(time.time(), 3))
        self.sheet, self.sheet_json = sheet, sheet_json
        return None

    async def _host_approve(self, args: dict[str, Any]) -> None:
        member = self._request_arg(args)
        if member is None or member.status != "pending":
            raise RoomError("unknown_request", "There is no such request to join.")
        free = self.free_seats() + room_bots.bot_seats(self)
        seat = args.get("seat", member.wanted_seat)
        if seat is None:
            if not free:
                raise RoomError("room_full", "Every seat is taken.")
            seat = free[0]
        if not isinstance(seat, int) or seat not in free:
            raise RoomError("seat_taken", "That seat is not free.")
        await room_bots.take_bot_seat(self, seat)
        since = self.version + 1
        await queries.update_member(self.manager.engine, member.id, status="seated", seat=seat,
                                    seat_since=since)
        member.status, member.seat, member.since = "seated", seat, since
        # The newcomer's open sockets become the seat's sockets now.
        for other in list(self.subscribers):
            if other.member_id == member.id:
                other.send(_dumps(self.welcome_message(other)))
                other.send(_dumps(self.state_message(seat, [])))
        return None

    async def _host_add_bot(self, args: dict[str, Any]) -> list[LogEntry] | None:
        await room_bots.add_bot(self, args)
        if room_bots.practice_ready(self):
            return await self._deal()  # one person and bots: practice starts at once
        return None

    async def _host_remove_bot(self, args: dict[str, Any]) -> None:
        await room_bots.remove_bot(self, args)

    async def _host_stand_in(self, args: dict[str, Any]) -> None:
        await standin.stand_in(self, args)

    async def _host_skip(self, args: dict[str, Any]) -> list[LogEntry]:
        return await standin.skip(self, args)

    async def _host_reject(self, args: dict[str, Any]) -> None:
        member = self._request_arg(args)
        if member is None or member.status != "pending":
            raise RoomError("unknown_request", "There is no such request to join.")
        await self._remove_member(member, "refused")

    async def _host_kick(self, args: dict[str, Any]) -> None:
        seat = self._seat_arg(args)
        member = self.seated().get(seat)
        if member is None:
            raise RoomError("empty_seat", "Nobody sits in that seat.")
        if member.id == self.host_member:
            raise RoomError("kick_self", "The host cannot kick themselves; hand the host role over first.")
        await self._remove_member(member, "kicked")

    async def _remove_member(self, member: Member, reason: str) -> None:
        """Take a member out of the room for good (refused or kicked) and close their sockets."""
        # A kicked member keeps the number of the seat they left and, as ``since``, the version they
        # left at: the seat's next holder is then known to have taken over someone's past.
        await queries.update_member(self.manager.engine, member.id, status="gone", seat_since=self.version)
        member.status, member.since = "gone", self.version
        self._close_member(member.id, reason)

    async def _host_handover(self, args: dict[str, Any]) -> None:
        seat = self._seat_arg(args)
        member = self.seated().get(seat)
        if member is None:
            raise RoomError("empty_seat", "Nobody sits in that seat.")
        if room_bots.bot_level(member) is not None:
            raise RoomError("bot_seat", "A bot cannot be the host.")
        await queries.update_room(self.manager.engine, self.id, host_member=member.id)
        self.host_member = member.id
        for other in list(self.subscribers):
            if other.member_id is not None:
                other.send(_dumps(self.welcome_message(other)))
        # The host's table actions (the game's ``host_actions``) move with the role.
        self.publish_state([])
        return None

    def _close_member(self, member_id: int, reason: str, code: int = 4403) -> None:
        for other in list(self.subscribers):
            if other.member_id == member_id:
                other.send(_dumps({"type": reason}))
                other.close(code, reason)
                self._forget(other)

    async def leave(self, sub: Subscriber, msg_id: str) -> None:
        """A member gives up their seat (or join request) for good; their token dies like a kicked
        one. During a game the seat waits for a newcomer, who gets nothing of its past."""
        if not self.owns() and sub.member_id is not None:
            await self.manager.hand_over(self, sub, "leave", msg_id, {})
            return
        async with self.lock:
            member = self.member_of(sub)
            if member is None or member.status == "gone":
                return self._refuse(sub, msg_id, "not_seated", "Only a member can leave.")
            if member.id == self.host_member:
                return self._refuse(sub, msg_id, "host_leave", "Hand the host role over before you leave.")
            try:
                await queries.update_member(self.manager.engine, member.id, status="gone",
                                            seat_since=self.version)
            except Exception:
                log.exception("leaving failed in room %s", self.id)
                sub.send(_dumps(self.error(msg_id, "server_error", "Leaving was not stored; try again.")))
                return
            # The ack first, then the member's sockets close (normally: they asked for it).
            sub.send(_dumps({"type": "ack", "id": msg_id, "version": self.version}))
            member.status, member.since = "gone", self.version
            self._close_member(member.id, "left", 1000)
            self.publish_room()
            await self._announce()

    def left(self, member_id: int) -> None:
        """The owner acknowledged a member's leaving handed from here: their sockets here close."""
        member = self.members.get(member_id)
        if member is not None:
            member.status = "gone"
        self._close_member(member_id, "left", 1000)
        self.publish_room()
