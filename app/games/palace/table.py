"""The Palace table as plain data, and its exact JSON form.

A ``Table`` is the whole state of one deal: the shape, and the builder of a move (``copy``); the
tables the game hands out are ``FrozenTable`` (see "State" in ``app/games/base.py``).

Each player's three table slots are positions 0–2: ``face_up[i]`` lies on ``face_down[i]``; an
empty slot holds ``None``. Face-down cards are addressed by slot, never by card (with two decks
identical codes exist, P2). Hands are kept sorted (rank, then suit), so a hand is a multiset and
its order tells nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.games.base import Frozen, freeze
from app.games.cards import RANKS, sort_key
from app.games.palace.rules import RuleSheet

# Rank order 2 < 3 < … < A (P2); jokers ("X") rank below everything and never compare by rank.
VALUE: dict[str, int] = {r: i for i, r in enumerate(RANKS)}
VALUE["X"] = -1
BY_RANK = sort_key(RANKS)  # hands are kept in this order (rank, then suit)


@dataclass(frozen=True, slots=True)
class Player:
    hand: tuple[str, ...]
    face_up: tuple[str | None, ...]
    face_down: tuple[str | None, ...]
    # Cards in the hand that were public when they got there (picked up from the pile, or a
    # failed face-down card): P25 says they were seen, so views may name them.
    known: tuple[str, ...] = ()
    ready: bool = False

    def table_count(self) -> int:
        # Cards still on the table; an empty place is None (counted in C, as this is asked often).
        return len(self.face_up) - self.face_up.count(None) + len(self.face_down) - self.face_down.count(None)

    def card_count(self) -> int:
        return len(self.hand) + self.table_count()

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": list(self.hand),
            "face_up": list(self.face_up),
            "face_down": list(self.face_down),
            "known": list(self.known),
            "ready": self.ready,
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Player:
        return Player(
            hand=tuple(data["hand"]),
            face_up=tuple(data["face_up"]),
            face_down=tuple(data["face_down"]),
            known=tuple(data["known"]),
            ready=bool(data["ready"]),
        )


# The slots' own setters: ``player`` builds a ``Player`` without the frozen dataclass's
# ``object.__setattr__`` per field, half the cost (a move builds one or two players).
_NEW = object.__new__
_SET_HAND, _SET_UP, _SET_DOWN, _SET_KNOWN, _SET_READY = (
    Player.__dict__[name].__set__ for name in ("hand", "face_up", "face_down", "known", "ready")
)


def player(
    hand: tuple[str, ...], face_up: tuple[str | None, ...], face_down: tuple[str | None, ...],
    known: tuple[str, ...], ready: bool,
) -> Player:
    """``Player(hand, face_up, face_down, known, ready)``, the same frozen value, made faster."""
    p: Player = _NEW(Player)
    _SET_HAND(p, hand)
    _SET_UP(p, face_up)
    _SET_DOWN(p, face_down)
    _SET_KNOWN(p, known)
    _SET_READY(p, ready)
    return p


@dataclass(slots=True)
class Table:
    """One deal. ``stock`` is top first; ``pile`` is bottom first (its last card is the top).

    Every field is immutable (tuples, frozen players): a move's builder (``copy``) shares them all
    and replaces those it changes."""

    sheet: RuleSheet
    players: tuple[Player, ...]
    stock: tuple[str, ...]
    pile: tuple[str, ...]
    burned: tuple[str, ...]
    phase: str  # "swap" (P4 / choosing face-up cards), "play", "over"
    turn: int
    # A decision the player on turn owes before play goes on: "burn" (keep or burn a 10, P15),
    # "drawn" (play the card drawn when stuck, or pick up, P9); None otherwise.
    decision: str | None = None
    drawn: str | None = None
    # P17: the seat that may still add the cards it just drew of the rank it played.
    add_seat: int | None = None
    add_cards: tuple[str, ...] = ()
    out: tuple[int, ...] = ()  # seats in the order they went out
    idle: int = 0  # moves in a row without progress (the stalemate rule)
    reason: str | None = None  # why the game ended: "finished" or "stalemate"
    # P5 `left_plays_lowest`: the rank the opener must play first; None once anybody has moved.
    opening_rank: str | None = None
    # Not part of the state: the latest seat's legal moves (``listing.listed``), remembered on the
    # finished table, which never changes; a builder (``copy``) starts without.
    listing: tuple[int, list[Any]] | None = field(default=None, compare=False, repr=False)

    def copy(self) -> Table:
        """The builder of a move: a table sharing every (immutable) field with this one."""
        return Table(self.sheet, self.players, self.stock, self.pile, self.burned, self.phase, self.turn,
                     self.decision, self.drawn, self.add_seat, self.add_cards, self.out, self.idle,
                     self.reason, self.opening_rank)

    def put(self, seat: int, player: Player) -> None:
        """A builder's seat ``seat`` now holds ``player``."""
        players = list(self.players)
        players[seat] = player
        self.players = tuple(players)

    def to_json(self) -> dict[str, Any]:
        return {
            "sheet": self.sheet.model_dump(),
            "players": [p.to_json() for p in self.players],
            "stock": list(self.stock),
            "pile": list(self.pile),
            "burned": list(self.burned),
            "phase": self.phase,
            "turn": self.turn,
            "decision": self.decision,
            "drawn": self.drawn,
            "add_seat": self.add_seat,
            "add_cards": list(self.add_cards),
            "out": list(self.out),
            "idle": self.idle,
            "reason": self.reason,
            "opening_rank": self.opening_rank,
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> FrozenTable:
        table = Table(
            sheet=RuleSheet.model_validate(data["sheet"]),
            players=tuple(Player.from_json(p) for p in data["players"]),
            stock=tuple(data["stock"]),
            pile=tuple(data["pile"]),
            burned=tuple(data["burned"]),
            phase=str(data["phase"]),
            turn=int(data["turn"]),
            decision=data["decision"],
            drawn=data["drawn"],
            add_seat=data["add_seat"],
            add_cards=tuple(data["add_cards"]),
            out=tuple(data["out"]),
            idle=int(data["idle"]),
            reason=data["reason"],
            opening_rank=data.get("opening_rank"),
        )
        return freeze(table, FrozenTable)


class FrozenTable(Table, Frozen):
    """A finished table: ``apply`` copies it (``copy``) and never changes it."""

    __slots__ = ()
