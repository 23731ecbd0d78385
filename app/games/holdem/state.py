"""The hold'em state: plain data that turns into JSON and back exactly.

``State`` (with its ``Hand``) is the shape and the builder of a move (``copy``); the states the
game hands out are ``FrozenState`` (see "State" in ``app/games/base.py``).

A ``State`` is a whole table (seats, stacks, the ledger or the places, the blind level) with at
most one ``Hand`` in play. Per-seat values are lists indexed by seat number. The engine treats a
state as immutable: ``copy`` copies it before a move changes anything.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar, cast

from app.games.base import Frozen, freeze
from app.games.holdem.rules import RuleSheet

T = TypeVar("T")


@dataclass(slots=True)
class Hand:
    number: int
    deck: list[str]  # the whole shuffled deck of this hand, top first; never shown
    button: int  # seat of the button (a dead button may sit on an empty seat)
    sb: int  # seat of the small-blind position (its blind may be dead)
    sb_live: bool
    bb: int
    players: list[int]  # seats dealt in, clockwise from the first left of the button
    start: list[int]  # stacks at the start of the hand, per seat
    # Per seat:
    holes: list[list[str]]
    folded: list[bool]
    bets: list[int]  # this betting round
    committed: list[int]  # this hand, antes included
    posted: list[int]  # blinds, straddle and posts of this hand (for the history)
    antes: list[int]
    acted: list[int]  # the bet level when the seat last acted this round; -1: not yet
    pending: list[bool]  # must still act this round
    shown: list[bool]
    mucked: list[bool]
    votes: list[int]  # run it twice: -1 undecided, 0 once, 1 twice
    # The hand's progress, with the values of a hand just dealt as defaults (a call with more
    # than 15 keywords passes them through a dictionary, CPython's compiler switching at 30 stack
    # items, so ``new_hand`` names only what it decides).
    pos: int = 0  # index of the next card to deal
    straddler: int = -1  # -1: no straddle
    street: int = 0  # 0 preflop, 1 flop, 2 turn, 3 river
    phase: str = "bet"  # straddle | bet | run_twice | showdown | show | over
    current: int = 0  # the bet to match this round
    min_inc: int = 0  # the last full bet or raise of this round (H17)
    full_level: int = 0  # fixed limit: the level after the last full bet or raise
    bet_count: int = 0  # fixed limit: bets and raises this round, for the cap
    actor: int = -1  # -1: nobody
    aggressor: int = -1  # last bettor or raiser of this round
    board: list[str] = field(default_factory=list)
    board2: list[str] = field(default_factory=list)  # second run when run twice
    burns: list[str] = field(default_factory=list)
    # The showdown order still to decide, or the seats that may show after the hand.
    order: list[int] = field(default_factory=list)
    awards: list[dict[str, Any]] = field(default_factory=list)
    # The hand in PHH action notation, holes by seat ("d dh s3 AhKd").
    actions: list[str] = field(default_factory=list)
    # Fixed limit (H16): the round's cap was reached while more than two were in the betting, so
    # a fold that leaves two heads-up does not lift it (Robert's Rules 3.4).
    capped: bool = False

    def copy(self) -> Hand:
        """A copy for a move. The deck, players, holes, boards, burns, folded, posted, shown,
        mucked, votes, order and awards are shared: the engine replaces those lists and never
        changes them in place; the rest are copied (``HAND_OWN``)."""
        return _copy_hand(self)


@dataclass(slots=True)
class State:
    sheet: RuleSheet
    seed: str
    decks: list[list[str]]  # fixed decks of the first hands (tests and replays)
    occupied: list[bool]
    stacks: list[int]
    status: list[str]  # empty | playing | waiting (for the big blind, H9) | out (sitting out)
    posting: list[bool]  # a waiting player who posts a big blind to be dealt in at once (H9)
    add: list[int]  # rebuys bought during a hand, added when it ends (table stakes, H21)
    leaving: list[bool]
    sit_out: list[bool]
    bought: list[int]  # chips bought in by the seat's present player (cash)
    ledger: list[dict[str, int]]  # closed sittings: seat, buy_in, cash_out
    places: list[list[int]]  # tournament: seats busted, earliest first
    draw: dict[str, str]  # the high-card draw for the first button (H4), seat -> card
    history: list[dict[str, Any]]  # finished hands for the PHH export
    # What a table opens with. Defaults, not keywords at ``new_table``: a call with more than 15
    # keywords passes them through a dictionary (CPython's compiler switches at 30 stack items),
    # which for this class cost about 1 % of a bench hand.
    hands: int = 0  # hands finished
    level: int = 0
    clock_start: float | None = None
    clock_level: int = 0
    last_button: int = -1
    last_sb: int = -1
    last_bb: int = -1
    closing: bool = False
    over: bool = False
    hand: Hand | None = None
    last: dict[str, Any] | None = None  # public summary of the previous hand (its shown cards included)
    # The latest fair round (``fair.RESEED``: its seed keys the hands dealt from now on) and the
    # round each hand was keyed by, ``hand-{n}`` -> round (server-side material, never in a view).
    round: dict[str, Any] | None = None
    rounds: dict[str, dict[str, Any]] = field(default_factory=dict)

    def copy(self) -> State:
        """A copy for a move. The seat lists other than the stacks are shared until ``own``:
        only moves between hands change them, and those call ``own`` first."""
        return _copy_state(self)

    def own(self) -> None:
        """Copy the shared seat lists before changing them (see ``copy``)."""
        self.occupied = list(self.occupied)
        self.status = list(self.status)
        self.posting = list(self.posting)
        self.add = list(self.add)
        self.leaving = list(self.leaving)
        self.sit_out = list(self.sit_out)
        self.bought = list(self.bought)

    @property
    def seats(self) -> int:
        return len(self.occupied)


# Lists a move changes in place, so ``copy`` copies them; every other list is shared and replaced.
HAND_OWN = ("bets", "committed", "acted", "pending", "actions")
STATE_OWN = ("stacks",)


def _copier(cls: type[T], own: tuple[str, ...]) -> Callable[[T], T]:
    """A function returning a copy of a ``cls`` instance, generated from its field list (as
    ``dataclasses`` generates ``__init__``), so a field added to the class is copied with no line
    to forget. The lists named in ``own`` are copied, everything else is shared.

    The copy is an empty instance whose slots are set one by one: ``__init__`` is not called
    (the classes have no ``__post_init__``, and a copy needs no defaults), which costs about a
    third less than one positional call with every field, and a copy is made at every move."""

    def copy_of(name: str) -> str:
        if name in own:
            return f"list(o.{name})"
        if name == "hand" and cls is State:
            return "(copy_hand(o.hand) if o.hand is not None else None)"
        return f"o.{name}"

    body = "".join(f"    c.{f.name} = {copy_of(f.name)}\n" for f in fields(cast(Any, cls)))
    scope: dict[str, Any] = {"cls": cls, "new": object.__new__, "copy_hand": globals().get("_copy_hand")}
    exec(f"def copy(o):\n    c = new(cls)\n{body}    return c\n", scope)
    return cast(Callable[[T], T], scope["copy"])


def dump_state(state: State) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for f in fields(State):
        value = getattr(state, f.name)
        if f.name == "sheet":
            value = state.sheet.model_dump(mode="json")
        elif f.name == "hand":
            value = None if value is None else {h.name: _copy(getattr(value, h.name)) for h in fields(Hand)}
        else:
            value = _copy(value)
        data[f.name] = value
    return data


def load_state(data: Any) -> State:
    # A snapshot from before a field existed takes the field's default.
    values = {f.name: _copy(data[f.name]) for f in fields(State) if f.name in data}
    values["sheet"] = RuleSheet.model_validate(data["sheet"])
    if values["hand"] is not None:
        values["hand"] = Hand(**values["hand"])
    return freeze(State(**values), FrozenState)


def _copy(value: Any) -> Any:
    """A deep copy of JSON-like data (lists, dicts, scalars)."""
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _copy(v) for k, v in value.items()}
    return value


class FrozenState(State, Frozen):
    """A finished state of a hold'em table: ``apply`` copies it (``copy``) and never changes it."""

    __slots__ = ()


_copy_hand = _copier(Hand, HAND_OWN)
_copy_state = _copier(State, STATE_OWN)
# The methods are the generated functions themselves: a copy per move, without a call between.
setattr(Hand, "copy", _copy_hand)  # noqa: B010
setattr(State, "copy", _copy_state)  # noqa: B010
