"""``Game.views``: the views of many seats at once, each exactly the seat's ``view``.

Every game overrides ``views`` to build the public part of the table once per state and add each
seat's own part; these tests play random games from several presets and sheets of each game and
check, at every state, that the views are the same as ``view`` gives seat by seat (spectator,
every seat, repeats), that they are JSON, that asking twice gives the same, and that no object
holding a seat's private cards is shared with another seat's view.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import orjson
import pytest

from app.games.base import Game
from app.games.holdem import HOLDEM
from app.games.palace import PRESETS as PALACE_PRESETS
from app.games.palace import game as PALACE
from app.games.thousand import game as THOUSAND
from tests.games.game_cases import cases_of, names
from tests.games.properties import (
    PropertyCase,
    cards_in,
    check_views_share_nothing_private,
    random_states,
)

# Each registered game's named cases (its test folder's cases.py: ``view_cases``).
CASES: dict[str, PropertyCase] = {
    label: case for name in names() for label, case in cases_of(name).views(name)
}
GAMES_PER_CASE = 2


def seats_of(game: Game[Any, Any], state: Any) -> list[int | None]:
    """A spectator and every seat of the table (a table game's empty seats too)."""
    return [None, *range(game.seat_count(state))]


def states(name: str) -> Iterator[Any]:
    case = CASES[name]
    for g in range(GAMES_PER_CASE):
        yield from random_states(case, f"views-{name}-{g}", random.Random(f"{name}/{g}"))


def test_the_cases_cover_every_game() -> None:
    assert {case.game.name for case in CASES.values()} == set(names())


@pytest.mark.parametrize("name", sorted(CASES))
def test_views_equal_each_seats_view(name: str) -> None:
    game = CASES[name].game
    count = 0
    for state in states(name):
        seats = seats_of(game, state)
        before = json.dumps(game.dump(state), sort_keys=True)
        asked = [*seats, 0, None, *reversed(seats)]  # repeats are allowed
        together = game.views(state, asked)
        assert list(together) == seats
        serialized = {s: orjson.dumps(v, option=orjson.OPT_NON_STR_KEYS) for s, v in together.items()}
        for seat in seats:
            view = game.view(state, seat)
            assert together[seat] == view, f"state {count}: views()[{seat}] != view(state, {seat})"
            assert list(together[seat]) == list(view), "the keys come in the view's order"
            assert json.loads(serialized[seat]) == json.loads(json.dumps(view))
        # Nothing needs changing: asked again (and after every view was built), the same views.
        again = game.views(state, seats)
        assert again == together
        assert {s: orjson.dumps(v, option=orjson.OPT_NON_STR_KEYS) for s, v in again.items()} == serialized
        assert {s: orjson.dumps(v, option=orjson.OPT_NON_STR_KEYS) for s, v in together.items()} == serialized
        assert json.dumps(game.dump(state), sort_keys=True) == before, "views changed the state"
        count += 1
    assert count > 20


@pytest.mark.parametrize("name", sorted(CASES))
def test_views_never_show_a_seat_another_seats_private_cards(name: str) -> None:
    """No view from ``views`` holds a card its seat may not see, and a list or dict that holds a
    card a spectator may not see (a hand, a drawn or hole card, a seen talon, passed cards) is in
    one view only. The game's own views do hold such cards (the check is not empty)."""
    case = CASES[name]
    game = case.game
    private_seen = 0
    for state in states(name):
        seats = seats_of(game, state)
        together = game.views(state, seats)
        check_views_share_nothing_private(case, state, together)
        public = case.visible_cards(state, None)
        assert not cards_in(together[None]) - public
        private_seen += sum(len(cards_in(together[s]) - public) for s in seats if s is not None)
    assert private_seen > 0


# The first case of each game.
FIRST_CASES = list({case.game.name: label for label, case in reversed(CASES.items())}.values())


@pytest.mark.parametrize("name", FIRST_CASES)
def test_the_default_views_calls_view_per_seat(name: str) -> None:
    game = CASES[name].game
    for i, state in enumerate(states(name)):
        if i % 7:
            continue
        seats = [*seats_of(game, state), 1, None]
        assert Game.views(game, state, seats) == game.views(state, seats)


def test_views_of_a_deal_keep_each_hand_to_its_seat() -> None:
    """Right after a deal (a Thousand hand looked at, a Hold'em hand's hole cards dealt), each
    seat's view from ``views`` shows its own cards, and no other view (nor the spectator's) shows
    any of them."""
    holdem_state = next(
        s for s in random_states(CASES["holdem-cash-nl"], "own", random.Random(0))
        if s.hand is not None and all(s.hand.holes[x] for x in s.hand.players)
    )
    thousand_state = THOUSAND.new(THOUSAND.sheet(), 3, seed="own")
    for seat in range(3):
        thousand_state = THOUSAND.apply(thousand_state, seat, {"type": "look"})[0]
    tables: list[tuple[Game[Any, Any], Any]] = [
        (PALACE, PALACE.new(PALACE_PRESETS["hiina-turakas"], 3, seed="own")),
        (THOUSAND, thousand_state),
        (HOLDEM, holdem_state),
    ]
    for game, state in tables:
        seats: list[int | None] = [None, 0, 1, 2]
        together = game.views(state, seats)
        public = cards_in(together[None])
        for seat in (0, 1, 2):
            own = cards_in(together[seat]) - public
            assert own, f"{game.name}: seat {seat} sees no cards of its own"
            for other in seats:
                if other != seat:
                    assert not cards_in(together[other]) & own, f"{game.name}: {other} sees {seat}'s cards"
