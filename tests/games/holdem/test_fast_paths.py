"""The engine's quick paths give exactly what the plain constructions give."""

from __future__ import annotations

import dataclasses
import random
from types import SimpleNamespace
from typing import Any, cast

from app.games.base import Event
from app.games.holdem import HOLDEM
from app.games.holdem.common import event
from app.games.holdem.pots import pots
from app.games.holdem.state import HAND_OWN, STATE_OWN, FrozenState, Hand, State


def test_quick_events_equal_plain_events() -> None:
    # event() fills the instance dictionary of the frozen Event directly: it must stay the same
    # object as Event(...) would build, field for field, with no __post_init__ skipped.
    assert [f.name for f in dataclasses.fields(Event)] == ["type", "data", "audience"]
    assert not hasattr(Event, "__post_init__")
    for args in [("fold", {"seat": 1}), ("hole_cards", {"seat": 2, "cards": ["Ah", "Kd"]}, (2,))]:
        quick, plain = event(*args), Event(*args)  # type: ignore[arg-type]
        assert quick == plain
        assert vars(quick) == vars(plain)
        assert type(quick) is Event
        assert quick.visible_to(2) == plain.visible_to(2) and quick.to_json() == plain.to_json()


def _layered_pots(
    players: list[int], committed: list[int], antes: list[int], folded: list[bool]
) -> list[Any]:
    """The pots by layering every live player's level (H21), without the one-pot shortcut."""
    paid = {x: committed[x] - antes[x] for x in players}
    levels = sorted({paid[x] for x in players if not folded[x]})
    top = max(paid.values())
    out: list[Any] = []
    prev, dead = 0, sum(antes[x] for x in players)
    for i, level in enumerate(levels):
        cap = level if i < len(levels) - 1 or level > top else top
        amount, dead = dead, 0
        for x in players:
            if paid[x] > prev:
                amount += min(paid[x], cap) - prev
        if amount:
            out.append((amount, [x for x in players if not folded[x] and paid[x] >= level]))
        prev = cap
    return out


def test_pots_shortcut_matches_the_layering() -> None:
    rng = random.Random(4)
    for _ in range(3000):
        n = rng.randint(2, 10)
        players = sorted(rng.sample(range(10), n))
        committed, antes, folded = [0] * 10, [0] * 10, [True] * 10
        ante = rng.choice([0, 0, 1, 5])
        for x in players:
            antes[x] = ante if rng.random() < 0.8 else 0
            committed[x] = antes[x] + rng.choice([0, 2, 2, 10, 10, 37])
            folded[x] = rng.random() < 0.4
        folded[rng.choice(players)] = False
        h = SimpleNamespace(players=players, committed=committed, antes=antes, folded=folded)
        assert pots(cast(Hand, h)) == _layered_pots(players, committed, antes, folded)


def test_copy_copies_every_field_and_owns_the_changed_lists() -> None:
    # copy() sets the slots of an empty instance instead of calling __init__: every field must
    # come across, the lists a move changes in place must be fresh copies, and nothing may
    # depend on __init__ having run.
    assert not hasattr(State, "__post_init__") and not hasattr(Hand, "__post_init__")
    sheet = HOLDEM.sheet({"seats": 6})
    state = HOLDEM.new(sheet, 6, seed="copy")
    rng = random.Random(7)
    for _ in range(40):
        copy = state.copy()
        assert type(copy) is State and isinstance(state, FrozenState)
        for f in dataclasses.fields(State):
            if f.name != "hand":
                assert getattr(copy, f.name) == getattr(state, f.name), f.name
                assert (getattr(copy, f.name) is getattr(state, f.name)) == (f.name not in STATE_OWN), f.name
        if state.hand is None:
            assert copy.hand is None
            break
        assert copy.hand is not state.hand
        for f in dataclasses.fields(Hand):
            assert getattr(copy.hand, f.name) == getattr(state.hand, f.name), f.name
            same = getattr(copy.hand, f.name) is getattr(state.hand, f.name)
            assert same == (f.name not in HAND_OWN), f.name
        seat = HOLDEM.to_act(state)[0]
        move = rng.choice(HOLDEM.legal_actions(state, seat))
        if "min" in move:
            move = {"type": move["type"], "to": move["min"]}
        state, _ = HOLDEM.apply(state, seat, move)
