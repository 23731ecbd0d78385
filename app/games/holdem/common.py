"""What every hold'em module reads: the action names, the seats clockwise, the blind level in
force, events, and the fields of a client's action."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import Event, IllegalAction
from app.games.cards import deck
from app.games.holdem.rules import Level
from app.games.holdem.state import State

Action = dict[str, Any]

BETTING_ACTIONS = ("fold", "check", "call", "bet", "raise", "all_in")
HAND_ACTIONS = (*BETTING_ACTIONS, "straddle", "no_straddle", "run_twice", "run_once", "show", "muck")
TABLE_ACTIONS = ("join", "leave", "sit_out", "sit_in", "rebuy", "top_up", "close_table", "clock")
STREETS = ("preflop", "flop", "turn", "river")
FULL_DECK = deck()
SEAT_KEY = [str(seat) for seat in range(10)]  # seats as JSON object keys, made once
_new = object.__new__


def event(kind: str, data: Mapping[str, Any], audience: tuple[int, ...] | None = None) -> Event:
    """``Event(kind, data, audience)``, built about three times quicker.

    A hand emits some forty events and the frozen dataclass's ``__init__`` sets each field
    through ``object.__setattr__``; filling the instance dictionary directly gives an equal
    event (a test compares the two, so a change to ``Event`` cannot slip past).
    """
    e = _new(Event)
    d = e.__dict__
    d["type"] = kind
    d["data"] = data
    d["audience"] = audience
    return e


def current_level(state: State) -> Level:
    return state.sheet.level(state.level)


RINGS = [[[(seat + i) % n for i in range(1, n + 1)] for seat in range(n)] for n in range(11)]


def after(seat: int, n: int) -> list[int]:
    """The seats clockwise after ``seat`` (``seat`` itself last). Shared: do not change it."""
    return RINGS[n][seat]


def next_of(seat: int, n: int, seats: list[int]) -> int:
    """The first of ``seats`` clockwise after ``seat`` (``seat`` itself last); ``seats`` holds one.

    A loop rather than ``next(x for x in after(seat, n) if x in seats)``: a generator costs
    more than the search itself, and this runs several times at every deal."""
    for x in RINGS[n][seat]:
        if x in seats:
            return x
    raise ValueError(f"none of {seats} at a table of {n}")


def amount(action: Mapping[str, Any], key: str) -> int:
    """A whole, non-negative number of chips from ``action[key]``."""
    value = action.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalAction("bad_amount", "'{field}' must be a whole number of chips.", field=key)
    if value < 0:
        raise IllegalAction("bad_amount", "'{field}' may not be negative.", field=key)
    return value


def check_keys(action: Mapping[str, Any], allowed: tuple[str, ...]) -> None:
    """Refuse an action carrying fields its type does not have."""
    extra = [k for k in action if k != "type" and k not in allowed]
    if extra:
        raise IllegalAction("bad_action", "Unexpected field '{field}' in this action.",
                            field=str(extra[0])[:20])
