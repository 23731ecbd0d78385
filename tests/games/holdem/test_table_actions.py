"""``table_actions`` lists exactly the table moves ``apply`` accepts from a seat, and the contract's
server hooks: ``auto_action`` (a tournament player sitting out is blinded away, H22) and
``clock_action`` (the room server's time for levels by minutes)."""

from __future__ import annotations

import random
from typing import Any

from app.games.base import IllegalAction
from app.games.holdem import HOLDEM
from app.games.holdem.engine import TABLE_ACTIONS
from app.games.holdem.state import State
from tests.games.holdem.helpers import concrete


def _accepts(state: State, seat: int, action: dict[str, Any]) -> bool:
    try:
        HOLDEM.apply(state, seat, action)
    except IllegalAction:
        return False
    return True


def _probes(state: State, seat: int, kind: str) -> list[dict[str, Any]]:
    """Concrete moves of ``kind`` covering the amounts a seat could ask for."""
    sheet = state.sheet
    if kind == "join":
        return [{"type": "join", "seat": seat, "buy_in": b, "post": p}
                for b in (sheet.buy_in_min, sheet.buy_in_max) for p in (False, True)]
    if kind in ("rebuy", "top_up"):
        return [{"type": kind, "amount": a} for a in (1, sheet.buy_in_min, sheet.buy_in_max)]
    if kind == "sit_in":
        return [{"type": "sit_in"}, {"type": "sit_in", "post": True}]
    if kind == "clock":
        return [{"type": "clock", "now": (state.clock_start or 0.0) + 30.0}]
    return [{"type": kind}]


def _from_listing(listed: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    kind = listed["type"]
    if kind == "join":
        return {"type": "join", "seat": listed["seat"], "buy_in": rng.randint(listed["min"], listed["max"]),
                "post": rng.choice(listed["post"])}
    if kind == "sit_in" and "post" in listed:
        return {"type": "sit_in", "post": rng.choice(listed["post"])}
    if kind in ("rebuy", "top_up"):
        return {"type": kind, "amount": rng.randint(listed["min"], listed["max"])}
    if kind == "clock":
        return {"type": "clock", "now": 30.0}
    return {"type": kind}


def _check_listing(state: State, rng: random.Random) -> None:
    for seat in range(state.seats):
        listed = {a["type"]: a for a in HOLDEM.table_actions(state, seat)}
        for kind in TABLE_ACTIONS:
            if kind in listed:
                action = _from_listing(listed[kind], rng)
                assert _accepts(state, seat, action), f"listed {action} refused for seat {seat}"
            else:
                for probe in _probes(state, seat, kind):
                    assert not _accepts(state, seat, probe), f"unlisted {probe} accepted for seat {seat}"


def _playout(options: dict[str, Any], preset: str, players: int, seed: int) -> int:
    rng = random.Random(seed)
    state = HOLDEM.new(HOLDEM.sheet(options, preset=preset), players, seed=f"tables-{seed}")
    checked = 0
    for step in range(600):
        if HOLDEM.outcome(state) is not None:
            break
        if step % 3 == 0:
            _check_listing(state, rng)
            checked += 1
        # Now and then a table move (joins, sitting out, top-ups) so that every status occurs.
        seat = rng.randrange(state.seats)
        table = [a for a in HOLDEM.table_actions(state, seat) if a["type"] not in ("close_table", "clock")]
        if table and rng.random() < 0.08:
            state, _ = HOLDEM.apply(state, seat, _from_listing(rng.choice(table), rng))
            continue
        mover = rng.choice(HOLDEM.to_act(state))
        legal = HOLDEM.legal_actions(state, mover)
        # Random shoves end tournaments in a hand or two: mostly the smaller moves.
        small = [a for a in legal if a["type"] not in ("all_in", "bet", "raise")]
        pick = rng.choice(small if small and rng.random() < 0.9 else legal)
        state, _ = HOLDEM.apply(state, mover, concrete(pick, rng))
    return checked


def test_cash_table_actions_list_exactly_what_apply_accepts() -> None:
    options = {"seats": 5, "max_hands": 14, "buy_in_min": 20, "buy_in_max": 100, "buy_in_default": 40}
    assert _playout(options, "cash-nl-1-2", 3, 1) > 20


def test_tournament_table_actions_list_exactly_what_apply_accepts() -> None:
    assert _playout({"starting_chips": 1500, "seats": 4}, "tournament-nl-turbo", 3, 3) > 20


def test_server_and_host_actions_are_named_for_the_room_server() -> None:
    assert HOLDEM.server_actions == frozenset({"clock", "reseed"})
    assert HOLDEM.host_actions == frozenset({"close_table"})


def test_h22_tournament_player_sitting_out_is_answered_with_the_timeout_move() -> None:
    state = HOLDEM.new(HOLDEM.sheet({"starting_chips": 300}, preset="tournament-nl-turbo"), 3,
                       seed="away", button=0)
    actor = HOLDEM.to_act(state)[0]
    assert HOLDEM.auto_action(state, actor) is None  # present players are waited for
    state, _ = HOLDEM.apply(state, actor, {"type": "sit_out"})
    assert HOLDEM.auto_action(state, actor) == HOLDEM.timeout_action(state, actor) == {"type": "fold"}
    others = [x for x in range(3) if x != actor]
    assert all(HOLDEM.auto_action(state, x) is None for x in others)
    state, _ = HOLDEM.apply(state, actor, {"type": "sit_in"})
    assert HOLDEM.auto_action(state, actor) is None


def test_cash_players_sitting_out_are_not_answered_by_the_server() -> None:
    state = HOLDEM.new(HOLDEM.sheet({}, preset="cash-nl-1-2"), 3, seed="cash-away", button=0)
    actor = HOLDEM.to_act(state)[0]
    state, _ = HOLDEM.apply(state, actor, {"type": "sit_out"})
    assert HOLDEM.auto_action(state, actor) is None  # at a cash table it sits out from the next hand


def test_h22_clock_action_only_when_it_changes_the_level() -> None:
    sheet = HOLDEM.sheet({"level_length": 5}, preset="tournament-nl-turbo")
    state = HOLDEM.new(sheet, 3, seed="clock", button=0)
    start = HOLDEM.clock_action(state, 1000.0)
    assert start == {"type": "clock", "now": 1000.0}  # the first one starts the clock
    state, _ = HOLDEM.apply(state, 0, start)
    assert HOLDEM.clock_action(state, 1000.0 + 299) is None
    rise = HOLDEM.clock_action(state, 1000.0 + 300)
    assert rise == {"type": "clock", "now": 1300.0}
    state, _ = HOLDEM.apply(state, 0, rise)
    assert state.clock_level == 1 and HOLDEM.clock_action(state, 1310.0) is None
    by_hands = HOLDEM.new(HOLDEM.sheet({"level_by": "hands"}, preset="tournament-nl-turbo"), 3, seed="h")
    assert HOLDEM.clock_action(by_hands, 5000.0) is None
    cash = HOLDEM.new(HOLDEM.sheet({}, preset="cash-nl-1-2"), 3, seed="c")
    assert HOLDEM.clock_action(cash, 5000.0) is None
