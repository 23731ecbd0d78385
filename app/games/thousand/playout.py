"""The playout path of Thousand: the same rules as the game contract on a record made for the hot
path, for searching bots and benches.

A bot that searches (determinized playouts: deal the unseen cards at random, play the deal out
many times) needs many moves fast and no views, events or frozen copies. Every game's playout
path has the same surface (``palace.playout``, ``holdem.playout`` too)::

    x = playout.start(game_state)          # a record of the game's state, which stays untouched
    while not playout.over(x, game_state):  # the deal being played has ended
        seat = playout.to_act(x)[0]
        x = playout.play(x, seat, choose(playout.legal(x, seat)))

The record (``record.Record``) keeps the state's fields in plain lists changed in place, cards as
numbers; this module holds the moves. ``to_act`` and ``legal`` answer what the contract's
``to_act`` and ``legal_actions`` answer, the same lists in the same order, worked out once per
position from the rules (the contract tests each candidate move through its checks); ``play`` makes
a move ``legal`` listed, unchecked (a bot's own search), with no events. The deal after the one
that ended is dealt only when asked for (``to_act``, ``legal``, ``play`` or ``Record.to_state``),
so a playout that ends with its deal never shuffles it. ``tests/games/thousand/test_playout.py``
plays random deals along both paths and compares the seats to act, the legal moves and the whole
state after every move.

``start(state)`` copies every hand, the talon and the stock of the state it is given, so a bot
starts it from a state whose hidden cards it dealt itself (determinized from its own view), never
from the room's state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import Action
from app.games.thousand.playout_bidding import (
    auction_legal,
    auction_play,
    early_to_act,
    exchange_legal,
    exchange_play,
)
from app.games.thousand.record import (
    DEALING,
    INDEX,
    NAME,
    PARTNER,
    TR,
    Record,
    deal,
    from_state,
    score_deal,
)
from app.games.thousand.state import State

# The listed plays of each card, built once (``legal`` hands out fresh copies).
_PLAY = tuple({"type": "play", "card": name} for name in NAME)
_DECLARE = tuple({"type": "play", "card": name, "declare": True} for name in NAME)


def start(state: State) -> Record:
    """A record of ``state`` that ``play`` changes in place; ``state`` stays untouched."""
    return from_state(state)


def to_act(x: Record) -> list[int]:
    """The contract's ``to_act``: the seat whose turn it is, and before the opening bid the seats
    that may claim out of turn [T5, T6]; in the nine lottery the guessers yet to guess [T6]."""
    phase = x.phase
    if phase == "play" or phase == "exchange" or phase == "talon" or (phase == "auction" and x.bid):
        return [x.turn]
    if phase == "auction":
        return early_to_act(x)
    if phase == "lottery":
        assert x.lottery is not None
        organiser, guesses = x.lottery["organiser"], x.lottery["guesses"]
        return [s for s in x.order if s != organiser and str(s) not in guesses]
    if phase == DEALING:
        deal(x)
        return to_act(x)
    return []


def legal(x: Record, seat: int) -> list[Action]:
    """The contract's ``legal_actions(state, seat)``: the same moves in the same order."""
    phase = x.phase
    if phase == "play":
        return _plays(x, seat) if seat == x.turn else []
    if phase == "exchange":
        return exchange_legal(x, seat) if seat == x.turn else []
    if phase == "talon":
        if seat != x.turn:
            return []
        if x.rules.banks:
            return [{"type": "take_talon", "bank": 0}, {"type": "take_talon", "bank": 1}]
        return [{"type": "take_talon"}]
    if phase == "auction" or phase == "lottery":
        return auction_legal(x, seat)
    if phase == DEALING:
        deal(x)
        return legal(x, seat)
    return []


def _plays(x: Record, seat: int) -> list[Action]:
    """The cards ``tricks.check`` lets ``seat`` play [T14, T15], worked out once per position:
    follow suit; without it, trump when the sheet says so (``must_trump``); with ``must_beat``,
    head the trick when able; a K or Q with its partner in hand may declare the marriage (while
    following only with ``marriage_when_following``, in the first trick only with
    ``marriage_in_first_trick``)."""
    hand = x.hands[seat]
    trick = x.tcards
    r = x.rules
    if trick:
        led = trick[0] & 3
        allowed = [c for c in hand if c & 3 == led]
        if allowed:
            if r.must_beat:
                allowed = [c for c in allowed if _heads(x, c)] or allowed
        elif r.must_trump and x.trump >= 0:
            trump = x.trump
            allowed = [c for c in hand if c & 3 == trump] or hand
        else:
            allowed = hand
        may_declare = r.when_following and (x.tricks_done or r.first_trick)
    else:
        allowed = hand
        may_declare = x.tricks_done or r.first_trick
    play = _PLAY
    if not may_declare:
        return [{**play[c]} for c in allowed]
    out: list[Action] = []
    for c in allowed:
        out.append({**play[c]})
        if 12 <= c < 20 and PARTNER[c] in hand:  # a queen or king (12-19) with its partner
            out.append({**_DECLARE[c]})
    return out


def _heads(x: Record, card: int) -> bool:
    """[T14, ``must_beat``] ``tricks.heads``: ``card`` of the led suit beats every card of the led
    suit played so far, and no trump has cut the trick."""
    trick = x.tcards
    led, trump, rank = trick[0] & 3, x.trump, TR[card]
    for played in trick:
        suit = played & 3
        if suit == led and TR[played] > rank:
            return False
        if suit == trump and trump != led:
            return False
    return True


def play(x: Record, seat: int, action: Mapping[str, Any]) -> Record:
    """Make a move ``legal`` listed, in place, and return the record (unchecked: a bot's own
    search). A card played is ``tricks.perform``: [T15] a declared marriage sets trump at once;
    [T14] a full trick goes to the highest trump, else the highest card of the led suit."""
    if x.phase != "play":
        _play_other(x, seat, action)
        return x
    card = INDEX[action["card"]]
    x.hands[seat].remove(card)
    seats, cards = x.tseats, x.tcards
    seats.append(seat)
    cards.append(card)
    if action.get("declare"):
        x.marriages[seat].append(card & 3)
        x.trump = card & 3
    if len(cards) < len(x.order):
        x.turn = x.left[seat]
        return x
    trump, best = x.trump, cards[0]
    win = 0
    for k in range(1, len(cards)):
        c = cards[k]
        if c & 3 == best & 3:
            if TR[c] > TR[best]:
                best, win = c, k
        elif c & 3 == trump:
            best, win = c, k
    winner = seats[win]
    x.taken[winner].extend(cards)
    x.last_seats, x.last_cards = seats, cards
    x.tseats, x.tcards = [], []
    x.tricks_done += 1
    x.turn = winner
    hands = x.hands
    if x.stock:  # [T18] each draws from the stock, the winner first
        for drawer in (winner, x.left[winner]):
            if x.stock:
                hands[drawer] = sorted([*hands[drawer], x.stock.pop(0)])
    if not hands[winner] and not any(hands[s] for s in x.order):  # the winner's hand first: cheap
        score_deal(x)
    return x


def _play_other(x: Record, seat: int, action: Mapping[str, Any]) -> None:
    phase = x.phase
    if phase == "exchange" or phase == "talon":
        exchange_play(x, seat, action)
    elif phase == "auction" or phase == "lottery":
        auction_play(x, seat, action)
    elif phase == DEALING:
        deal(x)
        play(x, seat, action)


def over(x: Record | State, first: State) -> bool:
    """Whether the deal ``first`` was in has ended, on this path or (for a bench or a test playing
    the same playout through the contract) on a contract state."""
    return x.phase == "over" or x.deals_played != first.deals_played


def deal_over(x: Record | State, deals_played: int) -> bool:
    """Whether the deal that was being played when ``deals_played`` deals were done has ended."""
    return x.phase == "over" or x.deals_played != deals_played


__all__ = ["Record", "deal_over", "legal", "over", "play", "start", "to_act"]
