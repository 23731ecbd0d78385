"""What one seat (or a spectator) may see [T19].

Hands to their owner (once looked at, with blind bidding [T11]); the talon to nobody until turned
up (a blind contract's talon to the dealer only, a "left 100" talon to nobody [T12]); passed cards
to giver and receiver; laid-aside cards to the bidder; hands shown for a redeal, played cards,
declared marriages and the score sheet (bombs marked) to all.

A view is the public part (``public``, a spectator's) with the seat's own part put in
(``seat_view``); the game's ``views`` builds the public part once for many seats and adds what
the rules decide (whom the table waits for, the seat's legal actions, the outcome).
"""

from __future__ import annotations

from typing import Any

from app.games.thousand.state import State


def lottery_view(state: State, seat: int | None) -> dict[str, Any] | None:
    """[T6, T19] the nine lottery: the chosen nine to its organiser, each guess to its guesser,
    all of it to everyone once resolved."""
    lot = state.lottery
    if lot is None:
        return None
    lottery: dict[str, Any] = {
        "organiser": lot["organiser"],
        "resolved": lot["resolved"],
        "guessed": sorted(lot["guesses"]),
    }
    if lot["resolved"] or seat == lot["organiser"]:
        lottery["nine"] = lot["nine"]
    if lot["resolved"]:
        lottery["guesses"] = dict(lot["guesses"])
    elif seat is not None and str(seat) in lot["guesses"]:
        lottery["guesses"] = {str(seat): lot["guesses"][str(seat)]}
    return lottery


def public(state: State) -> dict[str, Any]:
    """The view of a spectator: what every seat's view shares (no hand, no talon nor lottery nine
    that only some seats see, no passed or laid-aside cards)."""
    sheet = state.sheet
    return {
        "game": "thousand",
        "seats": state.players,
        "seat": None,
        "phase": state.phase,
        "dealer": state.dealer,
        "deal": state.deals_played + 1,
        "active": state.active(),
        "hand": None,
        "hand_counts": [len(h) for h in state.hands],
        "looked": list(state.looked),
        "talon": {"count": len(state.talon), "cards": list(state.talon_public) or None},
        "banks": [len(bank) for bank in state.banks],
        "stock": len(state.stock),
        "auction": {
            "bid": state.bid,
            "bidder": state.bidder,
            "blind": state.bid_blind,
            "passed": list(state.passed),
        },
        "turn": state.turn,
        "bidder": state.bidder,
        "contract": state.contract,
        "blind": state.blind,
        "trump": state.trump,
        "trick": [list(play) for play in state.trick],
        "last_trick": [list(play) for play in state.last_trick],
        "tricks_taken": [len(cards) // max(1, len(state.active())) for cards in state.taken],
        "marriages": [list(suits) for suits in state.marriages],
        "given": [],
        "aside": None,
        "aside_count": len(state.aside),
        "shown": [dict(s, cards=list(s["cards"])) for s in state.shown],
        "lottery": lottery_view(state, None),
        "scores": list(state.scores),
        "bombs_used": list(state.bombs_used),
        "bombs_per_game": sheet.bombs_per_game,
        "stuck": [state.stuck(s) for s in range(state.players)],
        "score_sheet": [dict(row) for row in state.rows],
        "target_score": sheet.target_score,
    }


def seat_view(state: State, shared: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The view of ``seat``: a new top-level dict over ``shared`` (``public(state)``, whose values
    it shares and never changes) with the seat's own part in new objects: its hand, the talon it
    saw, the cards it gave or got, the cards it laid aside, its side of the lottery."""
    view = dict(shared)
    if seat is None or not 0 <= seat < state.players:
        return view
    view["seat"] = seat
    if state.hands and state.looked[seat]:
        view["hand"] = list(state.hands[seat])
    if not state.talon_public and seat in state.talon_seen:
        view["talon"] = {"count": len(state.talon), "cards": list(state.talon_seen_cards)}
    view["given"] = [list(g) for g in state.given if seat in (g[0], g[1])]
    if seat == state.bidder:
        view["aside"] = list(state.aside)
    if state.lottery is not None:
        view["lottery"] = lottery_view(state, seat)
    return view
