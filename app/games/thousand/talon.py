"""After the auction: the talon taken, the contract raised, cards passed or laid aside, or a bomb
[T9, T10, T11, T12, T18].

Actions (all by the bidder):

- ``{"type": "take_talon"}`` (banks variant: ``{"type": "take_talon", "bank": 0}``).
- ``{"type": "bid", "value": 140}``: raise the contract after seeing the talon [T9].
- ``{"type": "give", "cards": {"1": "Qs", "2": "9h"}}``: one card to each opponent by seat [T9];
  banks variant: two cards to the opponent, ``{"cards": {"1": ["9h", "Qs"]}}`` [T18].
- ``{"type": "discard", "cards": ["9c", "Jd", "Qs"]}``: talon "keep": lay 3 cards aside [T9].
- ``{"type": "bomb"}``: give up the deal [T10] (a blind contract is given up the same way [T11]).
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations, permutations
from typing import Any

from app.games.base import Action, Event, IllegalAction
from app.games.cards import is_card
from app.games.thousand import scoring
from app.games.thousand.auction import bid_limit, check_raise, reveal_talon
from app.games.thousand.rules import BY_RANK
from app.games.thousand.state import State


def give_count(state: State) -> int:
    """Cards the bidder passes to each opponent: 1 (3 or 4 players) or 2 (banks variant)."""
    return 2 if state.sheet.banks_variant() else 1


def keeps_talon(state: State) -> bool:
    return state.sheet.talon == "keep" and not state.sheet.banks_variant()


def candidates(state: State, seat: int) -> list[Action]:
    if state.phase == "talon":
        if state.sheet.banks_variant():
            return [{"type": "take_talon", "bank": 0}, {"type": "take_talon", "bank": 1}]
        return [{"type": "take_talon"}]
    sheet = state.sheet
    out: list[Action] = [
        {"type": "bid", "value": v}
        for v in range(state.contract + sheet.bid_step, bid_limit(state, seat) + 1, sheet.bid_step)
    ]
    out.append({"type": "bomb"})
    hand = state.hands[seat]
    opponents = state.opponents(seat)
    if keeps_talon(state):
        out.extend({"type": "discard", "cards": list(c)} for c in combinations(hand, 3))
    elif give_count(state) == 2:
        (opponent,) = opponents
        out.extend({"type": "give", "cards": {str(opponent): list(c)}} for c in combinations(hand, 2))
    else:
        for picked in permutations(hand, len(opponents)):
            out.append({"type": "give", "cards": {str(o): c for o, c in zip(opponents, picked, strict=True)}})
    return out


def check(state: State, seat: int, action: Mapping[str, Any]) -> IllegalAction | None:
    kind = action["type"]
    if seat != state.bidder:
        return IllegalAction("not_your_turn", "Only the bidder acts now.")
    if kind == "take_talon":
        if state.sheet.banks_variant() and action.get("bank") not in (0, 1):
            return IllegalAction("bad_bank", "Choose bank 0 or bank 1.")
        return None
    if kind == "bid":
        return check_raise(state, seat, action.get("value"), state.contract)
    if kind == "bomb":
        return bomb_error(state, seat)
    if kind == "discard":
        if not keeps_talon(state):
            return IllegalAction("wrong_phase", "On this sheet the bidder gives cards to the opponents.")
        return cards_error(state, seat, action.get("cards"), 3)
    if kind == "give":
        if keeps_talon(state):
            return IllegalAction("wrong_phase", "On this sheet the bidder lays 3 cards aside instead.")
        return give_error(state, seat, action.get("cards"))
    return IllegalAction("wrong_phase", "That move is not part of the talon.")


def bomb_error(state: State, seat: int) -> IllegalAction | None:
    sheet = state.sheet
    if state.blind:
        return None  # [T11] a blind contract may always be given up, at its own price
    if sheet.bombs_per_game == 0:
        return IllegalAction("no_bombs", "This sheet has no bombs.")
    if state.bombs_used[seat] >= sheet.bombs_per_game:
        return IllegalAction("no_bombs_left", "You have used all {bombs} bombs of this game.",
                             bombs=sheet.bombs_per_game)
    if state.barred(seat, "bomb"):
        return IllegalAction("stuck", "At your score you may not throw a bomb (800 and stuck).")
    return None


def cards_error(state: State, seat: int, cards: Any, count: int) -> IllegalAction | None:
    if not isinstance(cards, list) or not all(is_card(c) for c in cards):
        return IllegalAction("bad_cards", "'cards' must be a list of card codes (rank then suit).")
    if len(cards) != count:
        return IllegalAction("wrong_count", "Choose exactly {count} cards.", count=count)
    if len(set(cards)) != len(cards):
        return IllegalAction("duplicate_cards", "A card may be chosen only once.")
    hand = state.hands[seat]
    if any(c not in hand for c in cards):
        return IllegalAction("not_held", "You can only pass cards you hold.")
    return None


def give_error(state: State, seat: int, cards: Any) -> IllegalAction | None:
    opponents = state.opponents(seat)
    if not isinstance(cards, Mapping) or sorted(cards) != sorted(str(o) for o in opponents):
        names = ", ".join(f"'{o}'" for o in opponents)
        return IllegalAction(
            "bad_give", "'cards' must map each opponent's seat ({seats}) to the cards given.", seats=names
        )
    count = give_count(state)
    chosen: list[Any] = []
    for value in cards.values():
        if count == 1:
            if not is_card(value):
                return IllegalAction("bad_cards", "Give each opponent one card code (rank then suit).")
            chosen.append(value)
        else:
            if not isinstance(value, list) or len(value) != count:
                return IllegalAction("wrong_count", "Give the opponent a list of {count} cards.", count=count)
            chosen.extend(value)
    return cards_error(state, seat, chosen, len(opponents) * count)


def perform(state: State, seat: int, action: Mapping[str, Any], events: list[Event]) -> None:
    kind = action["type"]
    hand = state.hands[seat]
    if kind == "take_talon":
        if state.sheet.banks_variant():
            bank = int(action["bank"])
            cards = state.banks[bank]
            state.banks[bank] = []
            reveal_talon(state, cards, events)
        else:
            cards, state.talon = state.talon, []
        hand[:] = sorted(hand + cards, key=BY_RANK)
        public: dict[str, Any] = {"seat": seat}
        if state.sheet.banks_variant():
            public["bank"] = action["bank"]
        events.append(Event("take_talon", public))
        events.append(Event("talon_taken", {"cards": sorted(cards, key=BY_RANK)}, (seat,)))
        state.phase = "exchange"
    elif kind == "bid":
        state.contract = int(action["value"])
        events.append(Event("raise", {"seat": seat, "value": state.contract}))
    elif kind == "bomb":
        bomb(state, seat, events)
    elif kind == "discard":
        aside = sorted(list(action["cards"]), key=BY_RANK)
        for card in aside:
            hand.remove(card)
        state.aside = aside
        events.append(Event("discard", {"seat": seat, "count": len(aside)}))
        events.append(Event("laid_aside", {"cards": aside}, (seat,)))
        start_play(state)
    elif kind == "give":
        for key, value in action["cards"].items():
            receiver = int(key)
            given = sorted([value] if isinstance(value, str) else list(value), key=BY_RANK)
            for card in given:
                hand.remove(card)
                state.given.append([seat, receiver, card])
            state.hands[receiver] = sorted(state.hands[receiver] + given, key=BY_RANK)
            events.append(Event("given", {"from": seat, "to": receiver, "cards": given}, (seat, receiver)))
        events.append(Event("give", {"seat": seat}))
        start_play(state)


def start_play(state: State) -> None:
    """[T14] the bidder leads the first trick."""
    assert state.bidder is not None
    state.phase = "play"
    state.turn = state.bidder
    state.trick = []


def bomb(state: State, seat: int, events: list[Event]) -> None:
    """[T10] each opponent scores the bomb's points, the bidder loses nothing; [T11] a blind
    contract given up pays each opponent its own price and is not counted as a bomb."""
    sheet = state.sheet
    value = sheet.blind_give_up_points if state.blind else sheet.bomb_points
    points = [0] * state.players
    for opponent in state.opponents(seat):
        points[opponent] = value
        state.scores[opponent] += value
    if not state.blind:
        state.bombs_used[seat] += 1
    row: dict[str, Any] = {
        "type": "bomb",
        "deal": state.deals_played + 1,
        "dealer": state.dealer,
        "bidder": seat,
        "contract": state.contract,
        "blind": state.blind,
        "points": points,
        "totals": list(state.scores),
    }
    state.rows.append(row)
    events.append(Event("bomb", {"seat": seat, "points": points, "blind": state.blind}))
    scoring.finish_deal(state, events)
