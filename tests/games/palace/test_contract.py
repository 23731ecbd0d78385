"""The Game surface as rooms and bots use it: registry, schema, to_act, timeouts, purity."""

from __future__ import annotations

import json
import random
from dataclasses import fields
from itertools import combinations
from typing import Any

from app.games.base import IllegalAction
from app.games.palace import PRESETS, game
from app.games.palace.table import BY_RANK, Table
from app.registry import get
from tests.games.palace.helpers import deal, play, sheet, table_deck


def test_registered_under_its_name() -> None:
    assert get("palace") is game
    assert set(game.titles) == {"en", "et", "fi"}
    assert set(game.presets) == {"hiina-turakas", "china-hand", "palace"}


def test_sheet_schema_is_json_with_three_languages() -> None:
    schema = game.sheet_schema()
    json.dumps(schema)
    assert schema["properties"]["low_card"]["enum"] == ["7", "9", "none"]
    for prop in schema["properties"].values():
        assert prop["description"]  # English; et and fi come from the catalogues (tests/web)


def test_swap_phase_to_act_waiting_for_and_timeouts() -> None:
    t = game.new(sheet(), 3, seed="swap")
    assert game.to_act(t) == [0, 1, 2] and game.view(t, None)["waiting_for"] == [0, 1, 2]
    assert game.view(t, 0)["turn"] is None and game.view(t, 0)["phase"] == "swap"
    assert game.timeout_action(t, 1) == {"type": "ready"}
    t, _ = play(t, 1, {"type": "ready"})
    assert game.to_act(t) == [0, 2] and game.timeout_action(t, 1) is None


def test_timeout_lays_the_three_highest_when_choosing_from_six() -> None:
    deck = table_deck(
        [["2c", "3c", "4c"], ["2d", "3d", "4d"]],
        [["5c", "Ac", "7c", "Qc", "9c", "Kc"], ["5d", "6d", "7d", "Qd", "Kd", "Ad"]],
        None,
        ["9s", "9h"],
    )
    t = game.new(PRESETS["palace"], 2, deck=deck)
    assert game.timeout_action(t, 0) == {"type": "lay_face_up", "cards": ["Qc", "Kc", "Ac"]}
    deck[12], deck[14] = "2h", "Th"  # seat 0 now holds a 2 and a 10: they go face-up first
    t = game.new(PRESETS["palace"], 2, deck=deck)
    assert game.timeout_action(t, 0) == {"type": "lay_face_up", "cards": ["2h", "Th", "Ac"]}


def test_timeouts_in_play() -> None:
    t = deal([["9c", "4h", "5h"], ["Ks", "3d", "2s"]], stock=["Ac", "6c"], voluntary_pick_up=False)
    # Must play: the lowest legal play.
    assert game.timeout_action(t, 0) == {"type": "play", "cards": ["4h"]}
    assert game.timeout_action(t, 1) is None
    t2 = deal([["5c", "4h", "Ah"], ["Ts", "3d", "Ks"]], stock=["6c", "6d"])
    t2, _ = play(t2, 0, {"type": "play", "cards": ["5c"]})
    t2, _ = play(t2, 1, {"type": "play", "cards": ["Ts"]})
    assert game.timeout_action(t2, 1) == {"type": "keep"}
    t3 = deal([["9c", "4h", "5h"], ["3s", "3d", "4s"]], stock=["Ac", "6c"])
    t3, _ = play(t3, 0, {"type": "play", "cards": ["9c"]})
    assert game.timeout_action(t3, 1) == {"type": "draw"}
    t3, _ = play(t3, 1, {"type": "draw"})
    assert game.timeout_action(t3, 1) == {"type": "pick_up"}


def test_view_is_json_and_complete_for_a_browser_table() -> None:
    t = game.new(PRESETS["hiina-turakas"], 4, seed="table")
    for seat in range(4):
        t, _ = game.apply(t, seat, {"type": "ready"})
    v = game.view(t, 2)
    json.dumps(v)
    assert v["hand"] == sorted(v["hand"], key=lambda c: ("23456789TJQKA".index(c[0]), c[1]))
    assert {
        "phase",
        "turn",
        "waiting_for",
        "decision",
        "hand",
        "players",
        "pile",
        "active",
        "next_card",
        "stock",
        "burned",
    } <= set(v)
    assert v["stock"] == 52 - 36 - 1 and len(v["pile"]) == 1 and v["turn"] == 0
    assert {"hand_size", "face_up", "face_down", "face_down_count", "known_hand", "out"} <= set(
        v["players"][0]
    )


def broad_moves(t: Table, seat: int) -> list[dict[str, Any]]:
    """Every move of the seat's cards a player could send, legal or not: all sets of equal ranks
    from the hand, all face-up slot sets, every face-down slot, and the moves without cards."""
    p = t.players[seat]
    moves: list[dict[str, Any]] = [{"type": kind} for kind in ("draw", "pick_up", "pass", "play_drawn")]
    for rank in {c[0] for c in p.hand}:
        group = [c for c in p.hand if c[0] == rank]
        for k in range(1, len(group) + 1):
            moves.extend({"type": "play", "cards": list(combo)} for combo in set(combinations(group, k)))
    slots = [i for i, c in enumerate(p.face_up) if c is not None]
    for k in range(1, len(slots) + 1):
        moves.extend({"type": "play_face_up", "indexes": list(c)} for c in combinations(slots, k))
    moves.extend({"type": "play_face_down", "index": i} for i in range(3))
    return moves


def test_apply_accepts_exactly_the_listed_moves() -> None:
    """One legality check: ``apply`` takes a move if and only if ``legal_actions`` lists it."""
    for g, preset in enumerate(["hiina-turakas", "china-hand", "palace"] * 2):
        rng = random.Random(g)
        t = game.new(sheet(preset), 3, seed=f"one-check-{g}")
        for _ in range(300):
            if game.outcome(t) is not None:
                break
            seat = rng.choice(game.to_act(t))
            legal = game.legal_actions(t, seat)
            if t.phase == "play" and t.decision is None and seat == t.turn:
                for move in broad_moves(t, seat):
                    try:
                        game.apply(t, seat, move)
                        accepted = True
                    except IllegalAction:
                        accepted = False
                    if "cards" in move:
                        move = {**move, "cards": sorted(move["cards"], key=BY_RANK)}
                    assert accepted == (move in legal), (move, legal)
            calm = [a for a in legal if a["type"] not in ("pick_up", "draw")]
            t, _ = game.apply(t, seat, rng.choice(calm or legal))


def test_a_builder_copies_every_field_and_no_listing() -> None:
    """``Table.copy`` names every field: a field added to the table must be added there too."""
    t = game.new(PRESETS["palace"], 3, seed="copy")
    game.legal_actions(t, 0)  # the table now remembers a listing
    m = t.copy()
    for f in fields(Table):
        assert getattr(m, f.name) is (None if f.name == "listing" else getattr(t, f.name)), f.name
