"""Generic property checks (tests/games/properties.py) over every preset, many option combinations and
2–5 players, plus Palace's own invariants: one source of legality, the known-card bookkeeping, the
timeout move, and that every game ends.

The default run plays a part of each case (a few deep-checked games and more cheap ones); the
thorough run (``HOUSERULES_THOROUGH=1``, tests marked ``slow``) plays them whole, a few hundred
deep-checked games; set PALACE_GAMES=10 (a multiplier of the thorough run) for thousands.
"""

from __future__ import annotations

import json
import os
import random
from itertools import combinations
from typing import Any

import pytest

from app.games.base import IllegalAction
from app.games.palace import PRESETS, RuleSheet, game
from app.games.palace.table import Table
from tests.games.palace.helpers import all_cards, known_is_subset, random_sheets, visible_cards
from tests.games.properties import PropertyCase, cards_in, play_random_game

# About 30 s on its own: the parallel run starts it first (tests/conftest.py).
pytestmark = pytest.mark.heavy(30)

SCALE = int(os.environ.get("PALACE_GAMES", "1"))



def discourage(action: dict[str, Any]) -> bool:
    return action["type"] in ("pick_up", "draw", "keep", "pass")


def property_case() -> PropertyCase:
    """The generic suite's case for the registry test (tests/games/test_registry.py)."""
    return case(game.sheet(preset="hiina-turakas"), 3)


def case(sheet: RuleSheet, players: int) -> PropertyCase:
    return PropertyCase(game, sheet, players, visible_cards, all_cards, max_moves=6000, discourage=discourage)


PRESET_CASES = [
    (name, players) for name, sheet in PRESETS.items() for players in range(2, sheet.most_players + 1)
]


# The default run plays the first games of each case; the thorough run all of them (the quick
# part again, with the same seeds: a thorough run is a superset of a quick one).
RUNS = [pytest.param(False, id="quick"), pytest.param(True, id="thorough", marks=pytest.mark.slow)]


@pytest.mark.parametrize("thorough", RUNS)
@pytest.mark.parametrize(("preset", "players"), PRESET_CASES)
def test_properties_presets(preset: str, players: int, thorough: bool) -> None:
    sheet = PRESETS[preset]
    rng = random.Random(f"{preset}/{players}")
    games, deep = (20 * SCALE, 4 * SCALE) if thorough else (4, 1)
    for i in range(games):
        result = play_random_game(case(sheet, players), f"{preset}-{players}-{i}", rng, deep=i < deep)
        assert game.outcome(result.state) is not None
        assert known_is_subset(result.state)


@pytest.mark.parametrize("thorough", RUNS)
@pytest.mark.parametrize("chunk", range(8))
def test_properties_option_combinations(chunk: int, thorough: bool) -> None:
    for k, (sheet, players) in enumerate(random_sheets(28 * SCALE if thorough else 6, chunk)):
        rng = random.Random(f"combo/{chunk}/{k}")
        result = play_random_game(case(sheet, players), f"combo-{chunk}-{k}", rng, deep=k % 2 == 0)
        outcome = game.outcome(result.state)
        assert outcome is not None
        placed = [s for group in outcome.placings for s in group]
        assert sorted(placed) == list(range(players))


def candidates(t: Table, seat: int, rng: random.Random) -> list[dict[str, Any]]:
    """Many plausible actions, legal or not, for the one-source check: every choice within a rank,
    every single card, a few mixed pairs, every slot, and every card-less move."""
    p = t.players[seat]
    out: list[dict[str, Any]] = [
        {"type": kind} for kind in ("ready", "draw", "play_drawn", "pick_up", "pass", "burn", "keep")
    ]
    hand = list(p.hand)
    subsets: set[tuple[str, ...]] = {(c,) for c in hand}
    groups: dict[str, list[str]] = {}
    for c in hand:
        groups.setdefault(c[0], []).append(c)
    for group in groups.values():
        for k in range(2, min(len(group), 4) + 1):
            subsets.update(combinations(group, k))
    if len(hand) >= 3:
        for _ in range(4):
            subsets.add(tuple(rng.sample(hand, 3 if rng.random() < 0.5 else 2)))
    for combo in subsets:
        for kind in ("play", "cut_in", "add", "lay_four", "lay_face_up"):
            out.append({"type": kind, "cards": list(combo)})
    for k in range(1, 4):
        for idx in combinations(range(3), k):
            out.append({"type": "play_face_up", "indexes": list(idx)})
    for i in range(3):
        out.append({"type": "play_face_down", "index": i})
        for card in set(hand):
            out.append({"type": "swap", "card": card, "index": i})
    return out


def _norm(action: dict[str, Any]) -> str:
    a = dict(action)
    if "cards" in a:
        a["cards"] = sorted(a["cards"])
    return json.dumps(a, sort_keys=True)


@pytest.mark.parametrize("preset", [*PRESETS, "everything"])
def test_one_source_of_legality(preset: str) -> None:
    """``apply`` accepts exactly the moves ``legal_actions`` lists, for every seat, at every step."""
    if preset == "everything":
        sheet = game.sheet(
            {
                "cut_in": True,
                "add_drawn": True,
                "four_from_hand": True,
                "jokers": 2,
                "no_out_on_special": True,
                "decks": "two",
                "stalemate_moves": 100,
            }
        )
    else:
        sheet = PRESETS[preset]
    rng = random.Random(preset)
    for g in range(2 * SCALE):
        t = game.new(sheet, 3, seed=f"one-source-{preset}-{g}")
        steps = 0
        while game.outcome(t) is None and steps < 150:
            for seat in range(3):
                legal = {_norm(a) for a in game.legal_actions(t, seat)}
                for action in candidates(t, seat, rng):
                    try:
                        game.apply(t, seat, action)
                        accepted = True
                    except IllegalAction:
                        accepted = False
                    assert accepted == (_norm(action) in legal), (seat, action, t)
            seats = game.to_act(t)
            assert sorted(seats) == sorted(s for s in range(3) if game.legal_actions(t, s))
            seat = rng.choice(seats)
            moves = game.legal_actions(t, seat)
            preferred = [a for a in moves if not discourage(a)] or moves
            t, _ = game.apply(t, seat, rng.choice(preferred))
            steps += 1


def test_timeout_action_is_always_legal_and_for_the_seat_on_turn() -> None:
    for name, sheet in PRESETS.items():
        rng = random.Random(name)
        t = game.new(sheet, 3, seed=f"timeout-{name}")
        while game.outcome(t) is None:
            for seat in range(3):
                move = game.timeout_action(t, seat)
                if move is not None:
                    assert move in game.legal_actions(t, seat)
                elif t.phase == "play" and seat == t.turn:
                    pytest.fail("the seat on turn has no timeout move")
            seat = rng.choice(game.to_act(t))
            # Timeouts only: the game must still end (by play or by the stalemate rule).
            action = game.timeout_action(t, seat) or rng.choice(game.legal_actions(t, seat))
            t, _ = game.apply(t, seat, action)


def test_json_round_trip_and_replay_with_a_fixed_deck() -> None:
    deck = [f"{r}{s}" for r in "23456789TJQKA" for s in "cdhs"]
    sheet = PRESETS["hiina-turakas"]
    t = game.new(sheet, 4, deck=deck)
    log = []
    rng = random.Random(5)
    for _ in range(200):
        if game.outcome(t) is not None:
            break
        seat = rng.choice(game.to_act(t))
        action = rng.choice(game.legal_actions(t, seat))
        t, _ = game.apply(t, seat, action)
        log.append((seat, action))
        assert game.load(json.loads(json.dumps(game.dump(t)))) == t
    assert game.replay(sheet, 4, None, log, deck=deck) == t


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"turn_up_face_down": True, "finish": "play_to_last", "when_stuck": "pick_up"},
        {"cut_in": True, "add_drawn": True, "four_from_hand": True, "when_stuck": "draw_ends_turn"},
        {"deal": "choose_from_six", "jokers": 2, "opening": "first_three", "no_out_on_special": True},
    ],
)
def test_views_show_only_cards_once_seen_in_public(options: dict[str, Any]) -> None:
    """An independent leak check: a seat's view holds only its own hand and cards that have been in
    public at some time (face-up, on the pile, burned, or a face-down card leaving the table, which
    is always turned up, P19/P21). This does not rely on the engine's own ``known`` bookkeeping."""
    sheet = game.sheet({**options, "stalemate_moves": 100})
    for g in range(3):
        rng = random.Random(g)
        players = 2 + g
        t = game.new(sheet, players, seed=f"public-{g}-{sorted(options)}")
        public: set[str] = set()
        while True:
            for p in t.players:
                public.update(c for c in p.face_up if c is not None)
            public.update(t.pile)
            public.update(t.burned)
            for seat in [None, *range(players)]:
                own = set(t.players[seat].hand) if seat is not None else set()
                shown = cards_in(game.view(t, seat))
                assert shown <= public | own, (seat, shown - public - own)
            for p in t.players:
                assert set(p.known) <= public
            if game.outcome(t) is not None:
                break
            seat = rng.choice(game.to_act(t))
            legal = game.legal_actions(t, seat)
            calm = [a for a in legal if not discourage(a)]
            before = [set(c for c in p.face_down if c is not None) for p in t.players]
            t, _ = game.apply(t, seat, rng.choice(calm if calm and rng.random() < 0.9 else legal))
            for p, down in zip(t.players, before, strict=True):
                public.update(down - {c for c in p.face_down if c is not None})
