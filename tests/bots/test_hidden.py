"""A bot's choice depends on what its seat sees, never on the hidden cards (same view, same move).

The bot is handed its memory too (the events its seat was shown since the deal began): the same
view and the same memory give the same move.

Two deals that differ only in cards hidden from one seat are played with the same moves; at every
decision of that seat while its views of the two are equal, the bot (same level, same random
draws) must make the same move. The test also checks that the two deals did differ.
"""

from __future__ import annotations

import json
import random

import pytest

from app.bots import LEVELS, choose
from app.bots.arena import concrete
from app.bots.memory import Recall
from app.games.base import IllegalAction
from app.registry import get
from tests.games.game_cases import GameCases, cases_of, names
from tests.games.properties import cards_in

# Every registered game, with the room and the cards its test folder names (``GameCases.hidden``).
CASES = [(name, cases_of(name)) for name in names()]


def _twin_decks(deck: list[str], visible: set[str], rng: random.Random) -> list[str]:
    """``deck`` with the cards outside ``visible`` shuffled among their own positions."""
    hidden = [i for i, card in enumerate(deck) if card not in visible]
    cards = [deck[i] for i in hidden]
    for _ in range(20):
        rng.shuffle(cards)
        if cards != [deck[i] for i in hidden]:
            break
    twin = list(deck)
    for i, card in zip(hidden, cards, strict=True):
        twin[i] = card
    return twin


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("name", "cases"), CASES, ids=[name for name, _ in CASES])
def test_same_view_same_move_whatever_the_hidden_cards(name: str, cases: GameCases, level: str) -> None:
    game = get(name)
    room = cases.hidden
    sheet = game.sheet(dict(room.options), preset=room.preset)
    players, cards = room.seats, list(cases.deck)
    compared = 0
    for index in range(60):
        rng = random.Random(index)
        seat = index % players
        deck = list(cards)
        rng.shuffle(deck)
        first = game.new(sheet, players, seed=f"a{index}", deck=deck)
        # A game may show a hand only after a look (Thousand): the seat's own cards off the state.
        visible = cards_in(game.view(first, seat)) | cases.own_cards(game.dump(first), seat)
        twin_deck = _twin_decks(deck, visible, rng)
        second = game.new(sheet, players, seed=f"a{index}", deck=twin_deck)
        assert json.dumps(game.dump(first), sort_keys=True) != json.dumps(game.dump(second), sort_keys=True)
        mover = random.Random(1000 + index)
        memory_a, memory_b = Recall(name), Recall(name)
        for _ in range(400):
            if game.outcome(first) is not None:
                break
            to_act = [s for s in game.to_act(first) if game.legal_actions(first, s)]
            if not to_act:
                break
            if seat in to_act:
                view_a, view_b = game.view(first, seat), game.view(second, seat)
                if view_a != view_b or memory_a.events != memory_b.events:
                    break  # a hidden card came to light differently: the deals part here
                legal = game.legal_actions(first, seat)
                assert legal == game.legal_actions(second, seat)
                move_a = choose(name, view_a, legal, random.Random(index), level, memory_a.events)
                move_b = choose(name, view_b, legal, random.Random(index), level, memory_b.events)
                assert move_a == move_b
                compared += 1
            actor = mover.choice(to_act)
            action = concrete(mover.choice(game.legal_actions(first, actor)), mover)
            try:
                second, events_b = game.apply(second, actor, action)
            except IllegalAction:
                break  # the other deal does not allow this move: they part here
            first, events_a = game.apply(first, actor, action)
            memory_a.extend(e.to_json() for e in events_a if e.visible_to(seat))
            memory_b.extend(e.to_json() for e in events_b if e.visible_to(seat))
    assert compared >= 12

