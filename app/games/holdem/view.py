"""What one seat (or a spectator) may see of a hold'em table (H23).

Hole cards go to their owner only, until shown at showdown (or after the hand, when the sheet
allows); mucked cards never; the deck and the burn cards never. The previous hand's summary
keeps its tabled cards so a player can see what beat him.

A view is the table's public part (``public_view``, a spectator's) with the seat's own hole cards
put in (``seat_view``); ``table_views`` builds the public part once for many seats.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.games.base import each_seat
from app.games.holdem.common import STREETS, current_level
from app.games.holdem.pots import pots
from app.games.holdem.state import Hand, State


def public_players(state: State) -> list[dict[str, Any]]:
    """Every seat as a spectator sees it: stack and status, and in a hand its bets and the cards
    shown at the table (no seat's unshown hole cards)."""
    sheet = state.sheet
    h = state.hand
    out: list[dict[str, Any]] = []
    for x in range(state.seats):
        entry: dict[str, Any] = {
            "seat": x,
            "occupied": state.occupied[x],
            "stack": state.stacks[x],
            "status": state.status[x],
            "leaving": state.leaving[x],
            "sitting_out_next": state.sit_out[x],
            "pending_chips": state.add[x],
        }
        if sheet.format == "cash":
            entry["bought_in"] = state.bought[x]
        if h is not None and x in h.players:
            cards = h.holes[x]
            entry.update(
                in_hand=True,
                folded=h.folded[x],
                bet=h.bets[x],
                committed=h.committed[x],
                all_in=not h.folded[x] and state.stacks[x] == 0 and h.phase != "over",
                has_cards=bool(cards) and not h.folded[x] and not h.mucked[x],
                cards=list(cards) if cards and h.shown[x] else None,
                shown=h.shown[x],
                mucked=h.mucked[x],
            )
        else:
            entry["in_hand"] = False
        out.append(entry)
    return out


def seat_players(state: State, public: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """The players as ``seat`` sees them: ``public`` (``public_players``), itself when the seat sees
    nobody's cards but the shown ones, else a new list whose entry for ``seat`` is a new dict with
    its hole cards (the other entries are ``public``'s own)."""
    h = state.hand
    if h is None or seat is None or not 0 <= seat < state.seats or seat not in h.players:
        return public
    cards = h.holes[seat]
    if not cards or h.shown[seat] or h.mucked[seat]:
        return public
    out = list(public)
    out[seat] = {**public[seat], "cards": list(cards)}
    return out


def players(state: State, seat: int | None) -> list[dict[str, Any]]:
    """Every seat: stack and status, and in a hand its bets and the cards ``seat`` may see."""
    return seat_players(state, public_players(state), seat)


def public_view(state: State) -> dict[str, Any]:
    """The table as a spectator sees it (``seat`` None): all that every seat's view shares."""
    sheet = state.sheet
    h = state.hand
    lv = current_level(state)
    view: dict[str, Any] = {
        "game": "holdem",
        "seat": None,
        "seats": state.seats,
        "variant": sheet.variant,
        "format": sheet.format,
        "level": state.level + 1,
        "blinds": {
            "small_blind": lv.small_blind,
            "big_blind": lv.big_blind,
            "ante": lv.ante if sheet.ante_type != "none" else 0,
            "ante_type": sheet.ante_type,
        },
        "hands_played": state.hands,
        "players": public_players(state),
        "over": state.over,
        "closing": state.closing,
        "last_hand": state.last,
    }
    if sheet.format == "cash":
        view["ledger"] = list(state.ledger)
    else:
        view["places"] = [list(g) for g in state.places]
    view["hand"] = hand_view(h) if h is not None else None
    return view


def seat_view(state: State, shared: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The view of ``seat``: a new top-level dict over ``shared`` (``public_view``, whose values it
    shares and never changes) with the seat's own hole cards in a new player entry."""
    view = dict(shared)
    view["seat"] = seat
    view["players"] = seat_players(state, shared["players"], seat)
    return view


def table_view(state: State, seat: int | None) -> dict[str, Any]:
    return seat_view(state, public_view(state), seat)


def table_views(state: State, seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
    """``table_view(state, s)`` for every ``s`` in ``seats``, the public part built once."""
    shared = public_view(state)
    return each_seat(seats, lambda seat: seat_view(state, shared, seat))


def between_hands_view(state: State, seat: int | None) -> dict[str, Any]:
    """The table as the previous hand left it, drawn from a state in which the next hand has just
    begun: no hand in play, the stacks before its antes and blinds were posted, the previous hand's
    summary (with its tabled cards) as it stands. Nothing of the new hand is in it."""
    h = state.hand
    view = table_view(state, None)
    view["seat"] = seat
    if h is None:
        return view
    view["hand"] = None
    for entry in view["players"]:
        x = entry["seat"]
        if entry.get("in_hand"):
            for key in ("folded", "bet", "committed", "all_in", "has_cards", "cards", "shown", "mucked"):
                entry.pop(key, None)
            entry["in_hand"] = False
            entry["stack"] += h.committed[x]
    return view


def hand_view(h: Hand) -> dict[str, Any]:
    """The hand in play as everyone sees it: positions, street, board, the bet and the pots."""
    return {
        "number": h.number,
        "button": h.button,
        "small_blind": h.sb if h.sb_live else None,
        "big_blind": h.bb,
        "straddle": h.straddler if h.straddler >= 0 else None,
        "street": STREETS[min(h.street, 3)],
        "phase": h.phase,
        "board": list(h.board),
        "board2": list(h.board2),
        "actor": h.actor if h.actor >= 0 else None,
        "current_bet": h.current,
        "pots": [{"amount": a, "eligible": e} for a, e in pots(h)] if h.phase != "over" else [],
        "awards": list(h.awards),
    }
