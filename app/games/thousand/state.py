"""The state of a game of Thousand: plain JSON-ready data.

``State`` is the shape and the builder of a move (``copy``); the states the game hands out are
``FrozenState`` (see "State" in ``app/games/base.py``).

Seats are numbered clockwise: the seat on a player's left is the next number (mod the count).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from functools import cache
from typing import Any

from app.games.base import Frozen, freeze
from app.games.thousand.rules import RuleSheet

PHASES = ("auction", "lottery", "talon", "exchange", "play", "over")
# Flat lists (or lists of entries never changed once written), copied one level deep by ``copy``.
LISTS = (
    "talon",
    "talon_dealt",
    "stock",
    "aside",
    "trick",
    "last_trick",
    "looked",
    "acted",
    "passed",
    "talon_public",
    "talon_seen",
    "talon_seen_cards",
    "given",
    "shown",
    "scores",
    "bombs_used",
    "rows",
)


def _copy(value: Any) -> Any:
    """A deep copy of JSON-like data (lists, dicts, scalars), faster than ``copy.deepcopy``."""
    if isinstance(value, list):
        return [_copy(item) for item in value]
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    return value


@dataclass
class State:
    sheet: RuleSheet
    seed: str
    players: int
    dealer: int
    phase: str = "auction"
    # Shuffles made so far: deal n uses the stream SeededRandom(seed, f"deal-{n}").
    shuffles: int = 0
    deals_played: int = 0
    hands: list[list[str]] = field(default_factory=list)
    talon: list[str] = field(default_factory=list)  # the 3 face-down cards [T4]; empty once taken
    # The talon as dealt, for the score of a dealer who sits out [T13].
    talon_dealt: list[str] = field(default_factory=list)
    banks: list[list[str]] = field(default_factory=list)  # 2 players, banks variant [T18]
    stock: list[str] = field(default_factory=list)  # 2 players, stock variant [T18]; top first
    aside: list[str] = field(default_factory=list)  # laid aside by the bidder (talon "keep") [T9]
    taken: list[list[str]] = field(default_factory=list)  # cards won in tricks, per seat
    trick: list[list[Any]] = field(default_factory=list)  # [[seat, card], ...] of the trick on the table
    last_trick: list[list[Any]] = field(default_factory=list)
    turn: int = 0
    trump: str | None = None
    tricks_done: int = 0
    looked: list[bool] = field(default_factory=list)  # blind bidding [T11]: has the seat looked at its hand
    acted: list[bool] = field(default_factory=list)  # has the seat made its first auction move this deal
    passed: list[bool] = field(default_factory=list)
    bid: int = 0
    bidder: int | None = None
    bid_blind: bool = False
    contract: int = 0
    blind: bool = False
    # Talon (or bank) cards turned up for everyone this deal [T9].
    talon_public: list[str] = field(default_factory=list)
    # [T11] a blind contract's talon (or bank) is seen by the dealer only: who, and which cards.
    talon_seen: list[int] = field(default_factory=list)
    talon_seen_cards: list[str] = field(default_factory=list)
    given: list[list[Any]] = field(default_factory=list)  # [[giver, receiver, card], ...] [T9, T19]
    marriages: list[list[str]] = field(default_factory=list)  # suits declared per seat this deal [T15]
    # Hands shown for redeals since the last played deal [T5].
    shown: list[dict[str, Any]] = field(default_factory=list)
    lottery: dict[str, Any] | None = None  # the nine lottery of this deal [T6]
    redeals_in_row: int = 0
    scores: list[int] = field(default_factory=list)
    bombs_used: list[int] = field(default_factory=list)
    rows: list[dict[str, Any]] = field(default_factory=list)  # the score sheet, one row per scored event
    # The latest fair round (``fair.RESEED``: its seed keys the deals shuffled from now on) and the
    # round each deal was keyed by, ``deal-{n}`` -> round (server-side material, never in a view).
    round: dict[str, Any] | None = None
    rounds: dict[str, dict[str, Any]] = field(default_factory=dict)

    def copy(self) -> State:
        """A copy that a move may change freely.

        Every list a move changes is copied; entries that are never changed once written (score
        rows, shown hands, plays in a trick, passed cards) are shared, which keeps a move cheap
        although the score sheet grows all game.
        """
        new = State.__new__(State)
        new.__dict__.update(self.__dict__)
        new.hands = [list(hand) for hand in self.hands]
        new.taken = [list(cards) for cards in self.taken]
        new.banks = [list(bank) for bank in self.banks]
        new.marriages = [list(suits) for suits in self.marriages]
        for name in LISTS:
            setattr(new, name, list(getattr(self, name)))
        if self.lottery is not None:
            new.lottery = {**self.lottery, "guesses": dict(self.lottery["guesses"])}
        return new

    def to_json(self) -> dict[str, Any]:
        # A JSON round trip is the fastest deep copy of plain data (it runs in C).
        data: dict[str, Any] = json.loads(
            json.dumps({f.name: getattr(self, f.name) for f in fields(self) if f.name != "sheet"})
        )
        data["sheet"] = self.sheet.model_dump()
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        # A snapshot from before a field existed takes the field's default.
        values = {f.name: _copy(data[f.name]) for f in fields(cls) if f.name != "sheet" and f.name in data}
        return freeze(State(sheet=RuleSheet.model_validate(data["sheet"]), **values), FrozenState)

    # -- small questions every module asks ---------------------------------------------------

    def active(self) -> list[int]:
        """Seats playing this deal, clockwise from the dealer's left; with 4 the dealer sits out [T13]."""
        return list(_active_order(self.players, self.dealer))

    def next_active(self, seat: int, skip_passed: bool = False) -> int:
        order = self.active()
        i = order.index(seat)
        for step in range(1, len(order) + 1):
            candidate = order[(i + step) % len(order)]
            if not skip_passed or not self.passed[candidate]:
                return candidate
        return seat

    def opponents(self, seat: int) -> list[int]:
        return [s for s in self.active() if s != seat]

    def hand(self, seat: int) -> list[str]:
        return self.hands[seat]

    def stuck(self, seat: int) -> bool:
        """[T17] "800 and stuck": at the limit or above a player may use no options."""
        return self.sheet.stuck_at_800 and self.scores[seat] >= self.sheet.stuck_score

    def barred(self, seat: int, trick: str) -> bool:
        """[T17] Whether "800 and stuck" bars ``trick`` (``bomb``, ``left_100``, ``redeal``,
        ``blind`` or ``lottery``) for ``seat`` now: every option, or with ``stuck_bars =
        named_tricks`` only the seed's list of tricks (bomb, left 100, 17 or less)."""
        if not self.stuck(seat):
            return False
        return self.sheet.stuck_bars == "every_option" or trick in NAMED_TRICKS


# [T17] The tricks the seed's "Erityiset korttipelin Tuhat säännöt" lists by name ("temppuja").
NAMED_TRICKS = frozenset({"bomb", "left_100", "redeal"})


@cache
def _active_order(players: int, dealer: int) -> tuple[int, ...]:
    """``State.active`` for each table size and dealer, worked out once (it is asked several times
    per move)."""
    last = players if players != 4 else players - 1  # the dealer, last in the order, sits out with four
    return tuple((dealer + i) % players for i in range(1, last + 1))


class FrozenState(State, Frozen):
    """A finished state of Thousand: ``apply`` copies it (``copy``) and never changes it."""

    __slots__ = ()
