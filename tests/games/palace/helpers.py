"""Fixtures for Palace scenarios: a deck laid out like the table, and the rule-based card sets."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from app.games.base import Event, InvalidSheet
from app.games.palace import PRESETS, RuleSheet, game
from app.games.palace.table import BY_RANK, Table


def table_deck(
    face_down: Sequence[Sequence[str]],
    hands: Sequence[Sequence[str]],
    face_up: Sequence[Sequence[str]] | None = None,
    stock: Sequence[str] = (),
) -> list[str]:
    """The deck (top first) that deals exactly this table, in the order of the engine's docstring:
    face-down rounds, face-up rounds (3-3-3 deal), hand rounds, then the stock top first."""
    players = len(face_down)
    deck: list[str] = []
    layers: list[Sequence[Sequence[str]]] = [face_down]
    if face_up is not None:
        layers.append(face_up)
    layers.append(hands)
    for layer in layers:
        assert len(layer) == players
        size = len(layer[0])
        for i in range(size):
            for seat in range(players):
                deck.append(layer[seat][i])
    deck.extend(stock)
    return deck


def sheet(preset: str = "hiina-turakas", **options: Any) -> RuleSheet:
    return game.sheet(options, preset=preset)


def start(
    s: RuleSheet,
    face_down: Sequence[Sequence[str]],
    hands: Sequence[Sequence[str]],
    face_up: Sequence[Sequence[str]] | None = None,
    stock: Sequence[str] = (),
) -> Table:
    """Deal the table and make every seat ready (no swaps), so play has begun."""
    t = game.new(s, len(face_down), deck=table_deck(face_down, hands, face_up, stock))
    for seat in range(len(face_down)):
        if s.deal == "choose_from_six":
            t, _ = game.apply(t, seat, {"type": "lay_face_up", "cards": list(t.players[seat].hand[-3:])})
        else:
            t, _ = game.apply(t, seat, {"type": "ready"})
    assert t.phase == "play"
    return t


def play(t: Table, seat: int, action: Mapping[str, Any]) -> tuple[Table, list[Event]]:
    """Apply a move that must be legal, checking the one-source rule on the way."""
    legal = [_norm(a) for a in game.legal_actions(t, seat)]
    assert _norm(action) in legal, (action, legal)
    return game.apply(t, seat, action)


def _norm(action: Mapping[str, Any]) -> dict[str, Any]:
    """An action with its cards in hand order, so a test may name them in any order."""
    out = dict(action)
    if isinstance(out.get("cards"), list):
        out["cards"] = sorted(out["cards"], key=BY_RANK)
    return out


def kinds(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def visible_cards(t: Table, seat: int | None) -> set[str]:
    """P25 from the rules: own hand, all face-up cards, the pile, burned cards (they were played in
    public) and hand cards that were picked up in public."""
    seen: set[str] = set(t.pile) | set(t.burned)
    for s, p in enumerate(t.players):
        seen.update(c for c in p.face_up if c is not None)
        seen.update(p.known)
        if s == seat:
            seen.update(p.hand)
    return seen


def all_cards(t: Table) -> Counter[str]:
    count: Counter[str] = Counter(t.stock)
    count.update(t.pile)
    count.update(t.burned)
    for p in t.players:
        count.update(p.hand)
        count.update(c for c in p.face_up if c is not None)
        count.update(c for c in p.face_down if c is not None)
    return count


def known_is_subset(t: Table) -> bool:
    return all(not (Counter(p.known) - Counter(p.hand)) for p in t.players)


__all__ = ["PRESETS", "all_cards", "deal", "kinds", "play", "sheet", "start", "table_deck", "visible_cards"]


DOWN = ("4c", "5c", "6c")  # filler face-down cards for scenarios that never reach them
UP = ("Jc", "Qc", "Kc")  # filler face-up cards


def deal(
    hands: Sequence[Sequence[str]],
    *,
    face_up: Sequence[Sequence[str]] | None = None,
    face_down: Sequence[Sequence[str]] | None = None,
    stock: Sequence[str] = (),
    preset: str = "hiina-turakas",
    **options: Any,
) -> Table:
    """A 3-3-3 table in play from a fixed deck; by default seat 0 opens on an empty pile."""
    options.setdefault("opening", "left_of_dealer")
    s = sheet(preset, **options)
    n = len(hands)
    ups = face_up if face_up is not None else [UP] * n
    downs = face_down if face_down is not None else [DOWN] * n
    return start(s, downs, hands, ups, stock)


# Every value of every option that changes play, for sheets drawn at random (property runs and
# the playout path's agreement test).
OPTION_VALUES: dict[str, list[Any]] = {
    "deck": ["52", "36"],
    "decks": ["one", "two", "two_from_three_players"],
    "jokers": [0, 1, 2],
    "joker": ["reset", "transparent"],
    "deal": ["three_three_three", "choose_from_six"],
    "opening": ["turn_up", "lowest_card", "first_three", "left_of_dealer", "left_plays_lowest"],
    "opening_cards": ["hand", "face_up", "hand_and_face_up"],
    "when_stuck": ["draw_may_play", "draw_ends_turn", "draw_and_pass", "pick_up"],
    "twos_low": [True, False],
    "voluntary_pick_up": [True, False],
    "low_card": ["7", "9", "none"],
    "eight_transparent": [True, False],
    "ten_fits": ["up_to_ten", "anything"],
    "ten_burn": ["optional", "always"],
    "four_from_hand": [True, False],
    "cut_in": [True, False],
    "add_drawn": [True, False],
    "turn_up_face_down": [True, False],
    "finish": ["first_out_wins", "play_to_last"],
    "no_out_on_special": [True, False],
    "after_pick_up": ["next_player", "picker"],
}


def random_sheets(count: int, seed: int) -> list[tuple[RuleSheet, int]]:
    """Valid random sheets, each option value appearing many times, with a player count that fits."""
    rng = random.Random(seed)
    out: list[tuple[RuleSheet, int]] = []
    while len(out) < count:
        options = {name: rng.choice(values) for name, values in OPTION_VALUES.items()}
        options["most_players"] = rng.randint(2, 5)
        options["stalemate_moves"] = rng.choice([50, 300])
        try:
            sheet = game.sheet(options)
        except InvalidSheet:
            continue
        out.append((sheet, rng.randint(2, sheet.most_players)))
    return out
