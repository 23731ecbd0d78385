"""The leak check itself, without a server: a message spanning several hands passes, a leaked card
is still caught (another seat's hole cards, a card only public later, a card of a later deal)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.games.holdem import HOLDEM
from tests.e2e.client import Client, Received
from tests.e2e.leaks import StatesByVersion, check_no_leaks
from tests.games.holdem.helpers import concrete, sheet, visible_cards


def played_states(hands: int) -> dict[int, Any]:
    """A cash table of three played by calm random moves until ``hands`` hands were dealt."""
    rng = random.Random(7)
    state = HOLDEM.new(sheet(max_hands=hands + 2), 3, seed="leak-check")
    states = {1: state}
    version = 1
    while HOLDEM.outcome(state) is None and len(deals(states)) <= hands:
        seat = HOLDEM.to_act(state)[0]
        legal = HOLDEM.legal_actions(state, seat)
        calm = [a for a in legal if a["type"] in ("check", "call", "show", "muck", "no_straddle", "run_once")]
        state, _ = HOLDEM.apply(state, seat, concrete(rng.choice(calm or legal), rng))
        version += 1
        states[version] = state
    return states


def hand_of(state: Any) -> tuple[Any, ...]:
    return tuple(tuple(state.hand.holes[x]) for x in state.hand.players)


def listener(seat: int | None, *messages: tuple[dict[str, Any], int]) -> Client:
    client = Client(base="ws://unused", room="r", token=None, seat=seat)
    client.received = [Received(message, known) for message, known in messages]
    return client


def state_message(version: int, events: list[dict[str, Any]], view: dict[str, Any]) -> dict[str, Any]:
    return {"type": "state", "version": version, "events": events, "view": view, "to_act": []}


def deals(states: dict[int, Any]) -> list[int]:
    """The versions at which a new hand's hole cards appear."""
    out: list[int] = []
    last: tuple[Any, ...] | None = None
    for version in sorted(states):
        state = states[version]
        if state.hand is not None and hand_of(state) != last:
            out.append(version)
            last = hand_of(state)
    return out


@pytest.fixture(scope="module")
def states() -> dict[int, Any]:
    return played_states(4)


def test_a_message_spanning_several_hands_passes(states: dict[int, Any]) -> None:
    starts = deals(states)
    assert len(starts) >= 4
    # Reconnected at the end of hand 1: one message brings events from there to the start of the
    # last hand, and holds every card the receiver saw meanwhile (its own hole cards of the hands
    # between, boards and tabled cards), most of which no state next to either end shows.
    first, last = starts[1] - 1, starts[-1]
    seen = sorted({card for v in range(first, last + 1) for card in visible_cards(states[v], 0)})
    next_to_the_ends = set().union(*(visible_cards(states[v], 0) for v in (first - 1, first, last - 1, last)))
    assert set(seen) - next_to_the_ends, "the span should hold cards of the hands in between"
    message = state_message(last, [{"version": v, "seat": 0, "type": "x"} for v in (first, last)],
                            {"seen": seen})
    assert check_no_leaks([listener(0, (message, first - 1))], states, visible_cards) == 1


def test_another_seats_hole_cards_are_caught(states: dict[int, Any]) -> None:
    version = deals(states)[1]
    theirs = [c for c in states[version].hand.holes[1] if c not in visible_cards(states[version], 0)]
    assert theirs
    message = state_message(version, [{"version": version, "seat": None, "type": "deal"}],
                            {"holes": theirs[:1]})
    with pytest.raises(AssertionError, match=theirs[0]):
        check_no_leaks([listener(0, (message, version - 1))], states, visible_cards)


def test_a_spectator_never_gets_hole_cards(states: dict[int, Any]) -> None:
    version = deals(states)[2]
    hidden = [c for c in states[version].hand.holes[0] if c not in visible_cards(states[version], None)]
    message = state_message(version, [], {"holes": hidden[:1]})
    with pytest.raises(AssertionError):
        check_no_leaks([listener(None, (message, version - 1))], states, visible_cards)


def test_own_cards_of_a_later_deal_are_caught(states: dict[int, Any]) -> None:
    # A message about hand 2 may not hold the receiver's cards of hand 4, not dealt yet then.
    starts = deals(states)
    later = [c for c in states[starts[3]].hand.holes[0]
             if all(c not in visible_cards(states[v], 0) for v in states if v <= starts[1])]
    assert later
    message = state_message(starts[1], [], {"mine": later[:1]})
    with pytest.raises(AssertionError, match=later[0]):
        check_no_leaks([listener(0, (message, starts[1] - 1))], states, visible_cards)


def test_a_non_state_message_is_checked_too(states: dict[int, Any]) -> None:
    version = deals(states)[1]
    theirs = [c for c in states[version].hand.holes[2] if c not in visible_cards(states[version], 0)]
    chat = {"type": "error", "code": "x", "message": "", "cards": theirs[:1]}
    with pytest.raises(AssertionError):
        check_no_leaks([listener(0, (chat, version))], states, visible_cards)


def test_cards_a_public_event_showed_between_two_versions_pass(states: dict[int, Any]) -> None:
    # One log entry may end a hand with a show and deal the next hand: the state after it no
    # longer shows what was shown, but the entry's public event did, to everyone.
    version = deals(states)[2]
    before = states[version - 1]
    unseen = [c for c in before.hand.holes[1]
              if all(c not in visible_cards(states[v], 0) for v in states if v <= version)]
    assert unseen, "seat 1's cards of the hand before should never have been on show to seat 0"
    show = {"version": version, "seat": 1, "type": "show", "cards": unseen}
    message = state_message(version, [show], {})
    with pytest.raises(AssertionError, match=unseen[0]):
        check_no_leaks([listener(0, (message, version - 1))], states, visible_cards)
    published = StatesByVersion()
    published.update(states)
    published.published[version] = set(unseen)
    assert check_no_leaks([listener(0, (message, version - 1))], published, visible_cards) == 1
