"""Random table life: hand moves mixed with joins, leaves, sitting out and in, rebuys and the
host closing the table. Chips and cards are conserved, views hide what they must, refused moves
change nothing, and the log replays to the same table."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from app.games.base import IllegalAction
from app.games.holdem import HOLDEM
from tests.games.holdem.helpers import all_cards, chips, concrete, visible_cards
from tests.games.properties import PropertyCase, check_views


def table_move(rng: random.Random, seats: int) -> tuple[int, dict[str, Any]]:
    seat = rng.randrange(seats)
    kind = rng.choice(["join", "join", "leave", "sit_out", "sit_in", "rebuy", "top_up", "sit_in"])
    if kind == "join":
        return seat, {
            "type": "join",
            "seat": seat,
            "buy_in": rng.choice([40, 100, 200, 39, 201]),
            "post": rng.random() < 0.5,
        }
    if kind in ("rebuy", "top_up"):
        return seat, {"type": kind, "amount": rng.choice([1, 40, 100, 160, 200])}
    if kind == "sit_in":
        return seat, {"type": "sit_in", "post": rng.random() < 0.5}
    return seat, {"type": kind}


@pytest.mark.parametrize("seed", range(6))
def test_random_table_life(seed: int) -> None:
    rng = random.Random(seed)
    sheet = HOLDEM.sheet(
        {
            "seats": 6,
            "buy_in_default": 60,
            "straddle": "utg",
            "show_after_hand": seed % 2 == 0,
            "run_it_twice": "ask",
            "showdown": "ask" if seed % 3 == 0 else "auto",
        },
        preset="cash-nl-1-2",
    )
    state = HOLDEM.new(sheet, 3 + seed % 3, seed=f"life-{seed}")
    case = PropertyCase(HOLDEM, sheet, 6, visible_cards, all_cards)
    log: list[tuple[int, dict[str, Any]]] = []
    total = chips(state)
    accepted = 0
    for step in range(300):
        actors = HOLDEM.to_act(state)
        if actors and rng.random() > 0.12:
            seat = rng.choice(actors)
            move = concrete(rng.choice(HOLDEM.legal_actions(state, seat)), rng)
        elif step > 285:
            seat, move = 0, {"type": "close_table"}
        else:
            seat, move = table_move(rng, 6)
        before = json.dumps(HOLDEM.dump(state), sort_keys=True)
        try:
            after, _ = HOLDEM.apply(state, seat, move)
        except IllegalAction:
            assert json.dumps(HOLDEM.dump(state), sort_keys=True) == before
            continue
        assert json.dumps(HOLDEM.dump(state), sort_keys=True) == before
        state = after
        log.append((seat, move))
        accepted += move["type"] in ("join", "leave", "sit_out", "sit_in", "rebuy", "top_up")
        assert chips(state) == total, (step, move)
        assert sum(all_cards(state).values()) == 52
        if step % 4 == 0:
            check_views(case, state)
        if state.over:
            break
    assert accepted >= 5 and state.hands >= 3
    replayed = HOLDEM.replay(sheet, 3 + seed % 3, f"life-{seed}", log)
    assert HOLDEM.dump(replayed) == HOLDEM.dump(state)
