"""Trick play [T14], marriages and trump [T15], and the 2-player stock [T18].

Action: ``{"type": "play", "card": "Ah"}``; with ``"declare": true`` a king or queen whose partner
is in hand declares the marriage: its value is scored and its suit becomes trump [T15].
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import Action, Event, IllegalAction
from app.games.thousand import scoring
from app.games.thousand.rules import BY_RANK, TRICK_RANK, total_points
from app.games.thousand.state import State


def trick_winner(trick: list[list[Any]], trump: str | None) -> int:
    """[T14] the highest trump wins, else the highest card of the led suit (A > 10 > K > Q > J > 9)."""
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        if card[1] == best[1]:
            if TRICK_RANK[card[0]] > TRICK_RANK[best[0]]:
                best_seat, best = seat, card
        elif card[1] == trump:
            best_seat, best = seat, card
    return int(best_seat)


def heads(state: State, card: str) -> bool:
    """[T14, ``must_beat``] whether ``card`` of the led suit would head the trick as it stands: it
    beats every card of the led suit played so far, and no trump has cut the trick (a declared
    marriage's suit counts as trump only from its declaration on)."""
    led = state.trick[0][1][1]
    trump = state.trump
    for _, played in state.trick:
        if played[1] == led and TRICK_RANK[played[0]] > TRICK_RANK[card[0]]:
            return False
        if trump is not None and trump != led and played[1] == trump:
            return False
    return True


def candidates(state: State, seat: int) -> list[Action]:
    out: list[Action] = []
    for card in state.hands[seat]:
        out.append({"type": "play", "card": card})
        if card[0] in "KQ":
            out.append({"type": "play", "card": card, "declare": True})
    return out


def check(state: State, seat: int, action: Mapping[str, Any]) -> IllegalAction | None:
    if seat != state.turn:
        return IllegalAction("not_your_turn", "It is not your turn to play.")
    card = action.get("card")
    hand = state.hands[seat]
    if not isinstance(card, str) or card not in hand:
        return IllegalAction("not_held", "Play a card you hold.")
    declare = action.get("declare", False)
    if not isinstance(declare, bool):
        return IllegalAction("bad_declare", "'declare' is true or false.")
    if state.trick:
        led = state.trick[0][1][1]
        if card[1] != led and any(c[1] == led for c in hand):
            return IllegalAction("must_follow", "You must follow the led suit.")
        trump = state.trump
        if (
            card[1] != led
            and state.sheet.must_trump
            and trump is not None
            and card[1] != trump
            and any(c[1] == trump for c in hand)
        ):
            return IllegalAction("must_trump", "Without the led suit you must play a trump.")
        if state.sheet.must_beat and card[1] == led and not heads(state, card) and any(
            c[1] == led and heads(state, c) for c in hand
        ):
            return IllegalAction("must_beat", "Play a higher card of the led suit: you have one.")
    if declare:
        return declare_error(state, seat, card)
    return None


def declare_error(state: State, seat: int, card: str) -> IllegalAction | None:
    """[T15] a marriage is declared with its king or queen while the partner is still in hand."""
    sheet = state.sheet
    partner = {"K": "Q", "Q": "K"}.get(card[0])
    if partner is None or partner + card[1] not in state.hands[seat]:
        return IllegalAction("no_marriage", "You hold no marriage (king and queen) in that suit.")
    if state.trick and not sheet.marriage_when_following:
        return IllegalAction("declare_when_leading", "A marriage is declared only when leading a trick.")
    if state.tricks_done == 0 and not sheet.marriage_in_first_trick:
        return IllegalAction("marriage_too_early", "No marriage may be declared in the first trick.")
    return None


def perform(state: State, seat: int, action: Mapping[str, Any], events: list[Event]) -> None:
    card = str(action["card"])
    state.hands[seat].remove(card)
    state.trick.append([seat, card])
    data: dict[str, Any] = {"seat": seat, "card": card}
    if action.get("declare", False):
        # [T15] the last declared marriage sets trump, even within a trick.
        suit = card[1]
        state.marriages[seat].append(suit)
        state.trump = suit
        data.update(declare=True, marriage=state.sheet.marriage_value(suit), trump=suit)
    events.append(Event("play", data))
    if len(state.trick) < len(state.active()):
        state.turn = state.next_active(seat)
        return
    cards = [c for _, c in state.trick]
    winner = trick_winner(state.trick, state.trump)
    state.taken[winner].extend(cards)
    state.last_trick = state.trick
    state.trick = []
    state.tricks_done += 1
    state.turn = winner
    events.append(Event("trick", {"winner": winner, "cards": cards, "points": total_points(cards)}))
    if state.stock:
        # [T18] after each trick each player draws one from the stock, the winner first.
        for drawer in (winner, state.next_active(winner)):
            if state.stock:
                drawn = state.stock.pop(0)
                state.hands[drawer] = sorted(state.hands[drawer] + [drawn], key=BY_RANK)
                events.append(Event("draw", {"seat": drawer}))
                events.append(Event("drawn", {"card": drawn}, (drawer,)))
    if all(not state.hands[s] for s in state.active()):
        scoring.score_deal(state, events)
