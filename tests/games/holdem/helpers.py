"""Shared helpers of the hold'em tests: the rules' view of visible cards, chips and fixed decks."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from app.games.cards import deck
from app.games.holdem import HOLDEM, RuleSheet
from app.games.holdem.state import State

FULL = deck()


def visible_cards(state: State, seat: int | None) -> set[str]:
    """Written from H23: the board, one's own hole cards, tabled cards (this hand and the last)."""
    seen: set[str] = set()
    h = state.hand
    if h is not None:
        seen.update(h.board, h.board2)
        for x in h.players:
            if h.shown[x] or x == seat:
                seen.update(h.holes[x])
    if state.last is not None:
        seen.update(state.last["board"], state.last["board2"])
        for cards in state.last["shown"].values():
            seen.update(cards)
    # Cards tabled in an earlier hand stay public (a hand may be shown after it ends and the next
    # one finish in the same move, so ``last`` alone no longer holds them).
    for record in state.history:
        for holes, shown in zip(record["holes"], record["shown"], strict=True):
            if shown:
                seen.update(holes)
        seen.update(record["board2"])
        for line in record["actions"]:
            if line.startswith("d db "):
                cards = line[5:]
                seen.update(cards[i : i + 2] for i in range(0, len(cards), 2))
    return seen


def all_cards(state: State) -> Counter[str]:
    """Every card of the hand's deck in its zone; between hands the deck is gathered."""
    h = state.hand
    if h is None:
        return Counter(FULL)
    # A second run shares the cards dealt before the all-in with the first.
    shared = 0
    while shared < len(h.board2) and h.board2[shared] == h.board[shared]:
        shared += 1
    zones = [*h.deck[h.pos :], *h.board, *h.board2[shared:], *h.burns]
    for x in h.players:
        zones.extend(h.holes[x])
    return Counter(zones)


def chips(state: State) -> int:
    """Chips at the table (stacks, queued rebuys, the pot) minus chips bought, plus chips cashed out."""
    total = sum(state.stacks) + sum(state.add)
    h = state.hand
    if h is not None and h.phase not in ("over", "show"):
        total += sum(h.committed)
    total -= sum(state.bought)
    total -= sum(e["buy_in"] for e in state.ledger)
    total += sum(e["cash_out"] for e in state.ledger)
    return total


def concrete(action: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A concrete move from a legal description, biased to the edges of the range."""
    if "min" in action and "max" in action:
        low, high = action["min"], action["max"]
        r = rng.random()
        if r < 0.35:
            value = low
        elif r < 0.55:
            value = high
        elif r < 0.65:
            value = min(low + 1, high)
        elif r < 0.75:
            value = max(high - 1, low)
        else:
            value = rng.randint(low, high)
        key = "amount" if action["type"] == "rebuy" else "to"
        return {"type": action["type"], key: value}
    return dict(action)


def sheet(**options: Any) -> RuleSheet:
    return HOLDEM.sheet(options)


def table(
    options: dict[str, Any] | None = None,
    players: int = 3,
    *,
    deck: Sequence[str] | None = None,
    decks: Sequence[Sequence[str]] | None = None,
    button: int = 0,
    seed: str = "test",
) -> State:
    return HOLDEM.new(sheet(**(options or {})), players, seed=seed, deck=deck, decks=decks, button=button)


def act(state: State, *moves: tuple[int, dict[str, Any]]) -> State:
    for seat, move in moves:
        state, _ = HOLDEM.apply(state, seat, move)
    return state


def actor(state: State) -> int:
    seats = HOLDEM.to_act(state)
    assert len(seats) == 1, seats
    return seats[0]


def deck_for(holes: Sequence[str], board: Sequence[str] = ()) -> list[str]:
    """A deck dealing ``holes`` (one "AhKd" pair per player, in dealing order: the first player
    left of the button first) and then ``board`` (up to five cards), burns taken from the rest."""
    first = [pair[:2] for pair in holes]
    second = [pair[2:] for pair in holes]
    used = {*first, *second, *board}
    spare = [c for c in FULL if c not in used]
    b = list(board)
    out = first + second
    if b:
        out += [spare[0], *b[:3]]
    if len(b) > 3:
        out += [spare[1], b[3]]
    if len(b) > 4:
        out += [spare[2], b[4]]
    return out


def legal(state: State, seat: int) -> list[dict[str, Any]]:
    return HOLDEM.legal_actions(state, seat)


def kinds(state: State, seat: int) -> dict[str, dict[str, Any]]:
    return {a["type"]: a for a in HOLDEM.legal_actions(state, seat)}


def hand(state: State) -> Any:
    assert state.hand is not None
    return state.hand


def cash_out(state: State) -> dict[int, int]:
    """Final stacks by seat from the ledger of a closed cash table."""
    out: dict[int, int] = {}
    for entry in state.ledger:
        out[entry["seat"]] = out.get(entry["seat"], 0) + entry["cash_out"]
    return out


def passive(state: State, until_hand: int | None = None) -> State:
    """Check or call for whoever acts until the hand in play (or the table) is over."""
    number = state.hand.number if state.hand is not None else None
    while True:
        h = state.hand
        if h is None or h.number != number or h.phase != "bet":
            return state
        seat = h.actor
        options = kinds(state, seat)
        move = {"type": "check"} if "check" in options else {"type": "call"}
        state, _ = HOLDEM.apply(state, seat, move)


def events_of(state: State, seat: int, move: dict[str, Any]) -> tuple[State, list[Any]]:
    after, events = HOLDEM.apply(state, seat, move)
    return after, events


def deck() -> list[str]:
    return list(FULL)
