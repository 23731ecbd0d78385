"""Dealing, and the redeal checks of the seed [T4, T5, T18].

Dealing order from the top of the deck (the first card is the top), the first packet going to the
player on the dealer's left and on clockwise [T4]:

- 3 players, or 4 with the dealer sitting out [T13]: 3 cards to each of the three players,
  3 face-down to the talon, then 4 more to each (7 each).
- 2 players, stock variant [T18]: 3 to the non-dealer, 3 to the dealer, 3 and 3 again (6 each);
  the other 12 are the stock, its top drawn first.
- 2 players, banks variant [T18]: 4 to the non-dealer, 4 to the dealer, 4 to bank 0, then
  4, 4 and 4 to bank 1 (8 each).

Deal number n (counting redeals) is shuffled by ``SeededRandom(seed, f"deal-{n}")``; a fixed
``deck`` replaces only the first shuffle.
"""

from __future__ import annotations

from typing import Any

from app.games.base import Event
from app.games.cards import SeededRandom
from app.games.thousand.rules import BY_RANK, DECK
from app.games.thousand.state import State


def shuffled_deck(state: State) -> list[str]:
    """The next deal's deck: keyed by the latest fair round's seed when the room gave one
    (``reseed``), else by the game's."""
    label = f"deal-{state.shuffles}"
    if state.round is not None:
        state.rounds = {**state.rounds, label: state.round}  # shared with the state before: replaced
        return SeededRandom(state.round["seed"], label).shuffle(list(DECK))
    return SeededRandom(state.seed, label).shuffle(list(DECK))


def lay_out(state: State, cards: list[str]) -> None:
    """Put ``cards`` (top first) into hands, talon, banks or stock as the dealer deals them."""
    n = state.players
    state.hands = [[] for _ in range(n)]
    state.talon, state.banks, state.stock = [], [], []
    order = state.active()
    if state.sheet.stock_variant():
        a, b = order
        packets: list[tuple[str, int, int]] = [("h", a, 3), ("h", b, 3), ("h", a, 3), ("h", b, 3)]
    elif state.sheet.banks_variant():
        a, b = order
        state.banks = [[], []]
        packets = [("h", a, 4), ("h", b, 4), ("b", 0, 4), ("h", a, 4), ("h", b, 4), ("b", 1, 4)]
    else:
        first = [("h", seat, 3) for seat in order]
        second = [("h", seat, 4) for seat in order]
        packets = [*first, ("t", 0, 3), *second]
    pos = 0
    for zone, index, count in packets:
        chunk = cards[pos : pos + count]
        pos += count
        if zone == "h":
            state.hands[index].extend(chunk)
        elif zone == "b":
            state.banks[index].extend(chunk)
        else:
            state.talon.extend(chunk)
    state.stock = cards[pos:]
    for hand in state.hands:
        hand[:] = sorted(hand, key=BY_RANK)
    state.talon_dealt = list(state.talon)


def reset_deal(state: State) -> None:
    n = state.players
    state.aside, state.trick = [], []
    state.taken = [[] for _ in range(n)]
    state.marriages = [[] for _ in range(n)]
    state.passed = [False] * n
    state.acted = [False] * n
    state.bid, state.bidder, state.bid_blind = 0, None, False
    state.contract, state.blind = 0, False
    state.trump, state.tricks_done = None, 0
    state.talon_public, state.talon_seen, state.talon_seen_cards, state.given = [], [], [], []
    state.lottery = None
    blind = state.sheet.blind_bidding and not state.sheet.stock_variant()
    # [T11] with blind bidding nobody has looked yet; looking is a move of its own.
    state.looked = [not blind] * n


def four_nines(state: State) -> int | None:
    """[T5] the seat holding all four nines, if any."""
    for seat in state.active():
        if sum(1 for card in state.hands[seat] if card[0] == "9") == 4:
            return seat
    return None


def note_redeal(state: State, events: list[Event]) -> None:
    """[T5] "17 or less": too many redeals in a row cost the dealer the penalty and pass the deal."""
    state.redeals_in_row += 1
    sheet = state.sheet
    if sheet.low_hand_redeal and state.redeals_in_row >= sheet.redeals_before_penalty:
        state.scores[state.dealer] -= sheet.redeal_penalty
        row: dict[str, Any] = {
            "type": "redeal_penalty",
            "seat": state.dealer,
            "points": [(-sheet.redeal_penalty if s == state.dealer else 0) for s in range(state.players)],
            "totals": list(state.scores),
        }
        state.rows.append(row)
        events.append(Event("redeal_penalty", {"seat": state.dealer, "points": -sheet.redeal_penalty}))
        state.dealer = (state.dealer + 1) % state.players
        state.redeals_in_row = 0


def deal(state: State, events: list[Event], cards: list[str] | None = None) -> None:
    """Deal a new hand (redealing on four nines) and open the auction or, stock variant, the play."""
    while True:
        if cards is None:
            cards = shuffled_deck(state)
        state.shuffles += 1
        reset_deal(state)
        lay_out(state, cards)
        cards = None
        # Not "deal": that type is the room's own event for a new game.
        events.append(Event("deal_started", {"dealer": state.dealer, "deal": state.deals_played + 1}))
        holder = four_nines(state) if state.sheet.four_nines_redeal else None
        if holder is None:
            break
        # [T5] four nines are shown to everyone and the same dealer deals again.
        nines = sorted([c for c in state.hands[holder] if c[0] == "9"], key=BY_RANK)
        state.shown.append({"seat": holder, "reason": "four_nines", "cards": nines})
        events.append(Event("redeal", {"seat": holder, "reason": "four_nines", "cards": nines}))
        note_redeal(state, events)
    for seat in state.active():
        if state.looked[seat]:
            events.append(Event("hand", {"cards": list(state.hands[seat])}, (seat,)))
    order = state.active()
    if state.sheet.stock_variant():
        # [T18] no auction: the player left of the dealer (the dealer alternates) must make the contract.
        state.phase = "play"
        state.bidder = order[0]
        state.contract = state.sheet.two_player_contract
        state.turn = order[0]
    else:
        state.phase = "auction"
        state.turn = order[0]
