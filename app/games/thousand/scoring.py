"""Scoring a deal and the running totals [T3, T13, T16, T18].

The bidder gains or loses exactly the contract (double when blind [T11]; with ``failed_contract =
points_taken`` a failure costs the points he took instead); the others score their
card points and marriages rounded to tens, 0–5 down and 6–9 up (53 → 50, 56 → 60) [T16].
"""

from __future__ import annotations

from typing import Any

from app.games.base import Event
from app.games.thousand import deal as dealing
from app.games.thousand.rules import total_points
from app.games.thousand.state import State


def round_points(value: int) -> int:
    """[T16] round to tens: a last digit of 0–5 goes down, 6–9 up."""
    last = value % 10
    return value - last if last <= 5 else value - last + 10


def marriage_points(state: State, seat: int) -> int:
    return sum(state.sheet.marriage_value(suit) for suit in state.marriages[seat])


def score_deal(state: State, events: list[Event]) -> None:
    sheet = state.sheet
    bidder = state.bidder
    assert bidder is not None
    n = state.players
    cards = [0] * n
    for seat in state.active():
        cards[seat] = total_points(state.taken[seat])
    # [T9] cards laid aside count to the bidder's tricks.
    cards[bidder] += total_points(state.aside)
    marriages = [marriage_points(state, s) for s in range(n)]
    made = cards[bidder] + marriages[bidder] >= state.contract
    factor = 2 if state.blind else 1
    points = [0] * n
    for seat in state.active():
        if seat == bidder:
            if made:
                points[seat] = state.contract * factor
            elif sheet.stock_variant() and not sheet.two_player_minus:
                points[seat] = 0  # [T18] the 2-player game may be played without subtracting
            elif sheet.failed_contract == "points_taken":
                # [T16] the seed read word for word: "on vähennettävä tässä kierroksessa kerätty
                # pistemäärä" (the points collected in this deal are subtracted), rounded as taken.
                points[seat] = -round_points(cards[seat] + marriages[seat]) * factor
            else:
                points[seat] = -state.contract * factor
        else:
            points[seat] = round_points(cards[seat] + marriages[seat])
    if n == 4:
        # [T13] the dealer sits out and scores the talon's card points (rounded like the others).
        points[state.dealer] = round_points(total_points(state.talon_dealt))
    for seat in range(n):
        state.scores[seat] += points[seat]
    closed = sum(total_points(bank) for bank in state.banks)
    row: dict[str, Any] = {
        "type": "deal",
        "deal": state.deals_played + 1,
        "dealer": state.dealer,
        "bidder": bidder,
        "contract": state.contract,
        "blind": state.blind,
        "made": made,
        "card_points": cards,
        "closed_bank": closed,
        "marriages": marriages,
        "points": points,
        "totals": list(state.scores),
    }
    state.rows.append(row)
    # The row's own "type" names the sheet's row kind, not the event: it stays out of the event.
    events.append(Event("deal_scored", {key: value for key, value in row.items() if key != "type"}))
    finish_deal(state, events)


def finish_deal(state: State, events: list[Event]) -> None:
    """[T3] the game ends when a player reaches the target; else [T2] the deal passes clockwise."""
    state.deals_played += 1
    state.shown = []
    state.redeals_in_row = 0
    if max(state.scores) >= state.sheet.target_score:
        state.phase = "over"
        state.turn = -1
        events.append(Event("game_over", {"scores": list(state.scores)}))
        return
    state.dealer = (state.dealer + 1) % state.players
    dealing.deal(state, events)
