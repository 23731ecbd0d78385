"""A bot's choice depends on what its seat sees, never on the hidden cards (same view, same move).

Two deals that differ only in cards hidden from one seat are played with the same moves; at every
decision of that seat while its views of the two are equal, the bot (same level, same random
draws) must make the same move. The test also checks that the two deals did differ.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from app.bots import LEVELS, choose
from app.bots.arena import concrete
from app.games import get
from app.games.base import IllegalAction
from app.games.cards import is_card
from tests.games.properties import cards_in

RANKS = "23456789TJQKA"
FULL = [r + s for r in RANKS for s in "cdhs"]
THOUSAND = [r + s for r in "9TJQKA" for s in "cdhs"]

CASES = [("palace", "hiina-turakas", 3, FULL), ("thousand", "tuhat", 3, THOUSAND),
         ("holdem", "cash-nl-1-2", 3, FULL)]


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
@pytest.mark.parametrize(("name", "preset", "players", "cards"), CASES)
def test_same_view_same_move_whatever_the_hidden_cards(
    name: str, preset: str, players: int, cards: list[str], level: str
) -> None:
    game = get(name)
    sheet = game.sheet(None, preset=preset)
    compared = 0
    for index in range(60):
        rng = random.Random(index)
        seat = index % players
        deck = list(cards)
        rng.shuffle(deck)
        first = game.new(sheet, players, seed=f"a{index}", deck=deck)
        # Thousand shows a hand only after a look: the seat's own cards are read off the state.
        visible = cards_in(game.view(first, seat)) | _own_cards(game.dump(first), seat, name)
        twin_deck = _twin_decks(deck, visible, rng)
        second = game.new(sheet, players, seed=f"a{index}", deck=twin_deck)
        assert json.dumps(game.dump(first), sort_keys=True) != json.dumps(game.dump(second), sort_keys=True)
        mover = random.Random(1000 + index)
        for _ in range(400):
            if game.outcome(first) is not None:
                break
            to_act = [s for s in game.to_act(first) if game.legal_actions(first, s)]
            if not to_act:
                break
            if seat in to_act:
                view_a, view_b = game.view(first, seat), game.view(second, seat)
                if view_a != view_b:
                    break  # a hidden card came to light differently: the deals part here
                legal = game.legal_actions(first, seat)
                assert legal == game.legal_actions(second, seat)
                move_a = choose(name, view_a, legal, random.Random(index), level)
                move_b = choose(name, view_b, legal, random.Random(index), level)
                assert move_a == move_b
                compared += 1
            actor = mover.choice(to_act)
            action = concrete(mover.choice(game.legal_actions(first, actor)), mover)
            try:
                second, _ = game.apply(second, actor, action)
            except IllegalAction:
                break  # the other deal does not allow this move: they part here
            first, _ = game.apply(first, actor, action)
    assert compared >= 12


def _own_cards(dump: Any, seat: int, name: str) -> set[str]:
    """The seat's own hand in a dumped state (Thousand hides it from the view until looked at)."""
    if name != "thousand":
        return set()
    return {c for c in dump["hands"][seat] if is_card(c)}
