"""Building fixed decks from hands and playing scripted moves, so scenarios read like the table."""

from __future__ import annotations

from collections import Counter
from typing import Any

from app.games.thousand import game
from app.games.thousand.rules import DECK, RuleSheet
from app.games.thousand.state import State


def deck3(hands: list[list[str]], talon: list[str]) -> list[str]:
    """A deck (top first) dealing ``hands`` to seats 0, 1, 2 (dealer 2, or 3 with four players
    sitting out) and ``talon``: 3 each, the talon, 4 each [T4]. Hands may list fewer than 7
    cards: the rest is filled from the unused cards in deck order."""
    used = [c for h in hands for c in h] + list(talon)
    assert len(used) == len(set(used)), "a card is listed twice"
    spare = [c for c in DECK if c not in used]
    full = []
    for h in hands:
        h = list(h)
        while len(h) < 7:
            h.append(spare.pop(0))
        full.append(h)
    t = list(talon)
    while len(t) < 3:
        t.append(spare.pop(0))
    assert not spare
    return [*full[0][:3], *full[1][:3], *full[2][:3], *t, *full[0][3:], *full[1][3:], *full[2][3:]]


def sheet(**options: Any) -> RuleSheet:
    """The plain seed game with the extras that need moves of their own switched off unless asked."""
    base: dict[str, Any] = {"blind_bidding": False, "nine_lottery": False}
    base.update(options)
    return game.sheet(base)


def start(hands: list[list[str]], talon: list[str], **options: Any) -> State:
    s = sheet(**options)
    return game.new(s, s.players, seed="test", deck=deck3(hands, talon))


def play(state: State, *moves: tuple[int, dict[str, Any]]) -> State:
    for seat, action in moves:
        state, _ = game.apply(state, seat, action)
    return state


def cards_everywhere(state: State) -> Counter[str]:
    zones = [*state.hands, state.talon, *state.banks, state.stock, state.aside, *state.taken]
    counter: Counter[str] = Counter(c for zone in zones for c in zone)
    counter.update(c for _, c in state.trick)
    return counter
