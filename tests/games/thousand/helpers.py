"""Building fixed decks from hands and playing scripted moves, so scenarios read like the table."""

from __future__ import annotations

from collections import Counter
from typing import Any

from app.games.thousand import game
from app.games.thousand.rules import DECK, RuleSheet
from app.games.thousand.state import State


def deck3(hands: list[list[str]], talon: list[str], /) -> list[str]:
    """A deck (top first) dealing ``hands`` to seats 0, 1, 2 (dealer 2, or 3 with four players
    sitting out) and ``talon``: 3 each, the talon, 4 each [T4]. Hands may list fewer than 7
    cards: the rest is filled from the unused cards in deck order."""
    used = [c for h in hands for c in h] + list(talon)
    assert len(used) == len(set(used)), "a card is listed twice"
    spare = [c for c in DECK if c not in used]
    full = [list(h) for h in hands]
    t = list(talon)
    # Fill short hands one card at a time in turn, so the spare nines never gather in one hand.
    zones = [*full, t]
    sizes = [7, 7, 7, 3]
    while spare:
        for zone, size in zip(zones, sizes, strict=True):
            if spare and len(zone) < size:
                zone.append(spare.pop(0))
    assert not spare
    return [*full[0][:3], *full[1][:3], *full[2][:3], *t, *full[0][3:], *full[1][3:], *full[2][3:]]


def sheet(**options: Any) -> RuleSheet:
    """The seed's game with its optional tricks switched off unless a test asks for them."""
    base: dict[str, Any] = {
        "blind_bidding": False,
        "nine_lottery": False,
        "left_100": False,
        "low_hand_redeal": False,
        "stuck_at_800": False,
    }
    base.update(options)
    return game.sheet(base)


def start(hands: list[list[str]], talon: list[str], /, **options: Any) -> State:
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


def after_give(h0: list[str], h1: list[str], h2: list[str], *, contract: int = 100, **options: Any) -> State:
    """A 3-player deal brought to the first lead with these 8-card hands (seat 0 the bidder).

    Seat 0 is dealt its first five cards plus the last card of seats 1 and 2, the talon holds
    its last three; it wins the auction at ``contract`` and gives those two cards away [T9].
    """
    assert len(h0) == len(h1) == len(h2) == 8
    dealt0 = [*h0[:5], h1[7], h2[7]]
    state = start([dealt0, h1[:7], h2[:7]], h0[5:8], **options)
    state = play(
        state,
        (0, {"type": "bid", "value": 100}),
        (1, {"type": "pass"}),
        (2, {"type": "pass"}),
        (0, {"type": "take_talon"}),
    )
    if contract > 100:
        state = play(state, (0, {"type": "bid", "value": contract}))
    return play(state, (0, {"type": "give", "cards": {"1": h1[7], "2": h2[7]}}))


def play_cards(state: State, *cards: str) -> State:
    """Play ``cards`` in turn order, each by the seat to act (``"Qh!"`` declares a marriage)."""
    for card in cards:
        declare = card.endswith("!")
        action: dict[str, Any] = {"type": "play", "card": card.rstrip("!")}
        if declare:
            action["declare"] = True
        state, _ = game.apply(state, state.turn, action)
    return state
