"""The playout path of Thousand: the same rules as the game contract, for searching bots.

A bot that searches (determinized playouts: deal the unseen cards at random, play the deal out
many times) needs many moves fast and no views, events or frozen copies. Every game's playout
path has the same surface (``palace.playout`` too); this one plays on one private, changeable
``State`` (``play`` changes it and returns it)::

    state = playout.start(game_state)         # a copy of the game's state, which stays untouched
    while not playout.over(state, game_state):  # the deal being played has ended
        seat = playout.to_act(state)[0]
        state = playout.play(state, seat, choose(playout.legal(state, seat)))

The rules are the contract's own: ``legal`` lists a phase module's candidates that pass that
module's ``check`` (the contract's ``legal_actions`` adds only checks those candidates always
pass: a known action type of the phase, a seat that may act), and ``play`` is the module's
``perform``. What is left out: the events (built by the rules, then dropped), the copy and the
freezing per move, and the check of the move, so ``play`` takes only a move ``legal`` listed.
``tests/games/thousand/test_playout.py`` plays random deals along both paths and compares the legal
moves and the whole state after every move.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import Action, Event
from app.games.thousand import talon, tricks
from app.games.thousand.engine import MODULE_BY_PHASE, Thousand
from app.games.thousand.state import State

_GAME = Thousand()


class _Dropped(list[Event]):
    """An event list that keeps nothing: the playout path has no audience."""

    def append(self, item: Event) -> None:
        pass

    def extend(self, items: Any) -> None:
        pass


_NO_EVENTS = _Dropped()
# Phases whose legal moves are the module's candidates that pass its ``check``, for the seat the
# module names (the turn, or the bidder).
_DIRECT = {"play": tricks, "talon": talon, "exchange": talon}


def start(state: State) -> State:
    """A private copy of ``state`` that ``play`` changes in place."""
    return state.copy()


def to_act(state: State) -> list[int]:
    Thousand._EARLY[0] = None  # the contract remembers by identity; this state changes in place
    return _GAME.to_act(state)


def legal(state: State, seat: int) -> list[Action]:
    """The contract's ``legal_actions(state, seat)``, the same list in the same order."""
    module = _DIRECT.get(state.phase)
    if module is None:
        Thousand._EARLY[0] = None
        return _GAME.legal_actions(state, seat)
    if seat != (state.turn if module is tricks else state.bidder):
        return []
    if module is tricks:
        return _plays(state, seat)
    check = module.check
    if state.phase == "exchange":
        # A give or discard candidate is built from the bidder's own distinct cards in the shape
        # the sheet asks for, which is all ``talon.check`` checks of it: only bids and the bomb
        # depend on the state (the score, the marriages held, bombs left).
        return [a for a in module.candidates(state, seat)
                if a["type"] in ("give", "discard") or check(state, seat, a) is None]
    return [a for a in module.candidates(state, seat) if check(state, seat, a) is None]


def _plays(state: State, seat: int) -> list[Action]:
    """``tricks.candidates`` that pass ``tricks.check`` [T14, T15], worked out once per trick
    position rather than once per card: follow suit; without it, trump when the sheet says so;
    with ``must_beat``, head the trick when able; a K or Q with its partner in hand may declare."""
    hand = state.hands[seat]
    sheet = state.sheet
    allowed = hand
    if state.trick:
        led = state.trick[0][1][1]
        following = [c for c in hand if c[1] == led]
        if following:
            allowed = following
            if sheet.must_beat:
                heading = [c for c in following if tricks.heads(state, c)]
                allowed = heading or following
        elif sheet.must_trump and state.trump is not None:
            trumps = [c for c in hand if c[1] == state.trump]
            allowed = trumps or hand
    may_declare = (not state.trick or sheet.marriage_when_following) and (
        state.tricks_done > 0 or sheet.marriage_in_first_trick
    )
    out: list[Action] = []
    for card in allowed:
        out.append({"type": "play", "card": card})
        if may_declare and card[0] in "KQ" and ("Q" if card[0] == "K" else "K") + card[1] in hand:
            out.append({"type": "play", "card": card, "declare": True})
    return out


def play(state: State, seat: int, action: Mapping[str, Any]) -> State:
    """Make a move ``legal`` listed, in place, and return the state (unchecked: a bot's own
    search)."""
    if state.phase in ("auction", "lottery"):
        Thousand._EARLY[0] = None
    MODULE_BY_PHASE[state.phase].perform(state, seat, action, _NO_EVENTS)
    return state


def over(state: State, first: State) -> bool:
    """Whether the playout from ``first`` has ended: the deal ``first`` was in has ended."""
    return deal_over(state, first.deals_played)


def deal_over(state: State, deals_played: int) -> bool:
    """Whether the deal that was being played when ``deals_played`` deals were done has ended."""
    return state.phase == "over" or state.deals_played != deals_played


__all__ = ["deal_over", "legal", "over", "play", "start", "to_act"]
