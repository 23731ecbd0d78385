"""Generic property checks that every game passes, whatever its rules.

A game's tests supply a ``PropertyCase``: the game, a sheet, the player count, and two functions
written from the rules (not from the engine's views): ``visible_cards`` (every card code a seat,
or a spectator for ``None``, may legitimately see in a state) and ``all_cards`` (the multiset of
cards in every zone, for conservation). ``play_random_game`` then drives a seeded random game and
checks at every step:

- the game never stalls (someone can act until there is an outcome) and ends within ``max_moves``;
- ``apply`` never changes its input, and a state survives a JSON round trip exactly;
- an action outside ``legal_actions`` raises ``IllegalAction`` (the refusal ``check`` returns) and
  changes nothing; ``check`` accepts the legal moves played;
- ``timeout_action`` (when given) is a legal action;
- cards are conserved (and chips, for games that supply ``chips``);
- no view and no event a seat may see holds a card that seat may not see;
- ``views`` of all seats at once equals each seat's ``view``, and its views share no object that
  holds a card one of them may not see;
- replaying the log from the seed reaches the same state.

With several decks a code has twins, so the leak check is by card code: a leak of one twin
while the other is legitimately visible passes unnoticed. Run leak checks on single decks too.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from app.games.base import Event, Game, IllegalAction, RuleSheetBase
from app.games.cards import is_card


def cards_in(value: Any) -> set[str]:
    """Every card code found anywhere in a JSON-like value (keys included)."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if is_card(item):
                found.add(item)
        elif isinstance(item, Mapping):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack.extend(item)
    return found


@dataclass
class PropertyCase:
    game: Game[Any, Any]
    sheet: RuleSheetBase
    players: int
    visible_cards: Callable[[Any, int | None], set[str]]
    all_cards: Callable[[Any], Counter[str]]
    max_moves: int = 5000
    # Actions a random player should avoid while others exist (e.g. voluntary pick-ups that make
    # games very long); they stay legal and are still chosen sometimes.
    discourage: Callable[[dict[str, Any]], bool] | None = None
    # For games whose legal actions describe a range (e.g. {"type": "raise", "min": 6, "max": 200}):
    # turns the chosen description into a concrete move ({"type": "raise", "to": 17}).
    concrete: Callable[[dict[str, Any], random.Random], dict[str, Any]] | None = None
    # For games with chips: a quantity no move may change (e.g. chips at the table minus chips
    # bought in plus chips cashed out).
    chips: Callable[[Any], int] | None = None


@dataclass
class PlayoutResult:
    state: Any
    moves: int
    log: list[tuple[int, dict[str, Any]]]


def _dump(game: Game[Any, Any], state: Any) -> str:
    return json.dumps(game.dump(state), sort_keys=True)


def _illegal_probes(legal: list[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    yield {"type": "no-such-move"}
    yield {}
    for action in legal[:3]:
        if "cards" in action:
            yield {**action, "cards": ["Zz"]}
            yield {**action, "cards": [*action["cards"], *action["cards"]]}


def check_views(case: PropertyCase, state: Any) -> None:
    """Every seat's ``view`` (and a spectator's) is JSON and shows only what the seat may see;
    ``views`` of all of them at once (with repeats) gives exactly the same views and shares no
    object holding a card that is not public between two of them (``check_views_share_nothing_private``)."""
    game = case.game
    seats: list[int | None] = [None, *range(case.players)]
    together = game.views(state, [*seats, 0, None])
    assert set(together) == set(seats)
    for seat in seats:
        view = game.view(state, seat)
        json.dumps(view)
        leaked = cards_in(view) - case.visible_cards(state, seat)
        assert not leaked, f"view of seat {seat} shows {sorted(leaked)} it may not see"
        assert together[seat] == view, f"views()[{seat}] differs from view(state, {seat})"
    _check_private_objects_unshared(together, set(case.all_cards(state)) - case.visible_cards(state, None))


def _holders(value: Any, private: set[str]) -> dict[int, set[str]]:
    """Every list and dict inside a JSON-like value (itself included), by ``id``, with the cards of
    ``private`` it holds itself (not those of the lists and dicts inside it)."""
    found: dict[int, set[str]] = {}
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            members = [*item.keys(), *item.values()]
        elif isinstance(item, list):
            members = item
        else:
            continue
        found[id(item)] = {m for m in members if type(m) is str and m in private}
        stack.extend(m for m in members if isinstance(m, (Mapping, list)))
    return found


def check_views_share_nothing_private(
    case: PropertyCase, state: Any, views: Mapping[int | None, Mapping[str, Any]]
) -> None:
    """The views of ``views`` may share lists and dicts, but not one that holds a card a spectator
    may not see (a seat's own cards, or cards only some seats see): each such object belongs to one
    view only (a list or dict around it is then in one view too). And no view shows a card its
    seat may not see."""
    for seat, view in views.items():
        leaked = cards_in(view) - case.visible_cards(state, seat)
        assert not leaked, f"views() gives seat {seat} {sorted(leaked)} it may not see"
    _check_private_objects_unshared(views, set(case.all_cards(state)) - case.visible_cards(state, None))


def _check_private_objects_unshared(views: Mapping[int | None, Mapping[str, Any]], private: set[str]) -> None:
    reach = {seat: _holders(view, private) for seat, view in views.items()}
    for seat, holders in reach.items():
        for key, held in holders.items():
            if held:
                for other, found in reach.items():
                    assert other == seat or key not in found, (
                        f"views() of seats {seat} and {other} share an object holding {sorted(held)}"
                    )


def random_states(case: PropertyCase, seed: str, rng: random.Random) -> Iterator[Any]:
    """Every state of one seeded random game, from the deal to the end, played as
    ``play_random_game`` plays (discouraged moves avoided, ranges made concrete) without its
    checks."""
    game = case.game
    state = game.new(case.sheet, case.players, seed=seed)
    yield state
    for _ in range(case.max_moves):
        if game.outcome(state) is not None:
            return
        seat = rng.choice(game.to_act(state))
        state, _ = game.apply(state, seat, choose(case, game.legal_actions(state, seat), rng))
        yield state
    raise AssertionError(f"the game did not end within {case.max_moves} moves")


def choose(case: PropertyCase, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random legal move, the case's discouraged moves mostly avoided and ranges made concrete."""
    choices = legal
    if case.discourage is not None:
        preferred = [a for a in legal if not case.discourage(a)]
        if preferred and rng.random() < 0.95:
            choices = preferred
    action = rng.choice(choices)
    return case.concrete(action, rng) if case.concrete is not None else action


def check_events(case: PropertyCase, before: Any, after: Any, events: list[Event]) -> None:
    for event in events:
        # An event's type is its own: no key of its data may stand in for the type (or the log's
        # version) when the room turns it into JSON.
        assert not {"type", "version"} & set(event.data), f"event {event.type} carries {sorted(event.data)}"
        assert event.to_json()["type"] == event.type
    for seat in [None, *range(case.players)]:
        seen = [e.to_json() for e in events if e.visible_to(seat)]
        json.dumps(seen)
        allowed = case.visible_cards(before, seat) | case.visible_cards(after, seat)
        leaked = cards_in(seen) - allowed
        assert not leaked, f"events to seat {seat} show {sorted(leaked)} it may not see"


def play_random_game(
    case: PropertyCase, seed: str, rng: random.Random, *, deep: bool = True
) -> PlayoutResult:
    """Play one seeded random game to its end, checking every property on the way.

    ``deep=False`` skips the per-step probes (illegal actions, round trip, views) for speed and
    keeps conservation, input immutability and the final replay.
    """
    game = case.game
    state = game.new(case.sheet, case.players, seed=seed)
    cards = case.all_cards(state)
    chips = case.chips(state) if case.chips is not None else None
    log: list[tuple[int, dict[str, Any]]] = []
    for _ in range(case.max_moves):
        if game.outcome(state) is not None:
            break
        seats = game.to_act(state)
        assert seats, "no seat may act, yet the game has no outcome"
        seat = rng.choice(seats)
        legal = game.legal_actions(state, seat)
        assert legal, f"seat {seat} is to act but has no legal action"
        before = _dump(game, state)
        if deep:
            check_views(case, state)
            assert game.dump(game.load(json.loads(before))) == json.loads(before), "JSON round trip differs"
            for probe in _illegal_probes(legal):
                if probe in legal:
                    continue
                refusal = game.check(state, seat, probe)
                assert refusal is not None, f"check accepts the illegal action {probe}"
                try:
                    game.apply(state, seat, probe)
                except IllegalAction as refused:
                    # One legality hook: apply refuses with what check says.
                    assert (refused.code, refused.message) == (refusal.code, refusal.message), probe
                else:
                    raise AssertionError(f"illegal action {probe} was accepted")
                assert _dump(game, state) == before, f"a refused action {probe} changed the state"
            # A seat that may not act now is refused, even with a move that is legal for another.
            for other in range(case.players):
                open_types = {a["type"] for a in game.table_actions(state, other)}
                if other not in seats and legal and legal[0]["type"] not in open_types:
                    probe = case.concrete(legal[0], rng) if case.concrete else legal[0]
                    assert game.check(state, other, probe) is not None, (other, probe)
                    with pytest.raises(IllegalAction):
                        game.apply(state, other, probe)
            assert _dump(game, state) == before
            timeout = game.timeout_action(state, seat)
            if timeout is not None:
                assert timeout in legal, f"timeout action {timeout} is not legal"
        action = choose(case, legal, rng)
        if deep:
            assert game.check(state, seat, action) is None, f"check refuses the legal action {action}"
        after, events = game.apply(state, seat, action)
        assert _dump(game, state) == before, "apply changed its input"
        if deep:
            check_events(case, state, after, events)
        state = after
        log.append((seat, action))
        assert case.all_cards(state) == cards, "cards were not conserved"
        if case.chips is not None:
            assert case.chips(state) == chips, "chips were not conserved"
    else:
        raise AssertionError(f"the game did not end within {case.max_moves} moves")
    if deep:
        check_views(case, state)
    replayed = game.replay(case.sheet, case.players, seed, log)
    assert game.dump(replayed) == game.dump(state), "replay from the log differs"
    return PlayoutResult(state=state, moves=len(log), log=log)
