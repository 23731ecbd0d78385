"""What one seat (or a spectator) sees of a Palace table (P25).

The owner sees his hand; others see its size and the cards in it that were picked up in public.
Face-up cards, the pile and its active card are public; face-down cards are seen by nobody, the
owner included, until played or turned up; the stock shows only its size; burned cards only
their number. The legal actions of the viewing seat are given separately by ``legal_actions``.

A view is the table's public part (``public``: the same for every seat and spectators) with the
seat's own part put in (``view``): ``you``, its hand, and in play the card it drew and the cards
it may add. The public part of the latest table is remembered, so ``views`` (and every seat's
``view`` of one table in turn) builds it once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.games.base import each_seat
from app.games.palace.pile import active_card, next_card
from app.games.palace.table import Player, Table


def public(t: Table, before: tuple[Table, dict[str, Any]] | None = None) -> dict[str, Any]:
    """The view of a spectator: nothing in it belongs to one seat (``you`` and ``hand`` are None).

    ``before``: an earlier table and its public part, whose seats' parts are taken over where the
    seat's player is the very same (a move builds a new player for each seat it changes) and the
    seats out the same: those parts (changed by nobody) would come out equal."""
    sheet = t.sheet
    out_place = {s: i + 1 for i, s in enumerate(t.out)} if t.out else {}
    old_players: tuple[Player, ...] = ()
    old_parts: list[dict[str, Any]] = []
    if before is not None and len(before[0].players) == len(t.players) and before[0].out == t.out:
        old_players, old_parts = before[0].players, before[1]["players"]
    players = []
    for s, p in enumerate(t.players):
        if old_players and old_players[s] is p:
            players.append(old_parts[s])
            continue
        players.append(
            {
                "seat": s,
                "hand_size": len(p.hand),
                "face_up": list(p.face_up),
                "face_down": [c is not None for c in p.face_down],
                "face_down_count": len(p.face_down) - p.face_down.count(None),
                "known_hand": list(p.known),
                "ready": p.ready,
                "out": out_place.get(s),
            }
        )
    active = active_card(sheet, t.pile)
    return {
        "game": "palace",
        "seats": len(t.players),
        "you": None,
        "phase": t.phase,
        "turn": t.turn if t.phase == "play" else None,
        # Whom the table waits for, as everyone may know it. ``to_act`` also names seats that could
        # cut in, add or lay a four, which would tell what they hold: it stays on the server.
        "waiting_for": (
            [s for s, p in enumerate(t.players) if not p.ready]
            if t.phase == "swap"
            else [t.turn]
            if t.phase == "play"
            else []
        ),
        "decision": t.decision,
        "hand": None,
        "players": players,
        "pile": list(t.pile),
        "active": active,
        "next_card": next_card(sheet, active) if t.phase == "play" else None,
        "stock": len(t.stock),
        "burned": len(t.burned),
        "out": list(t.out),
        "reason": t.reason,
    }


# The public part of the latest table asked, as one (table, part) pair replaced whole: a table
# never changes, and a room or a bench asks every seat's view of the same table in turn. Like
# ``views``, the views of one table share the public part's objects, which nobody changes.
_LATEST: list[tuple[Table, dict[str, Any]] | None] = [None]


def _shared(t: Table) -> dict[str, Any]:
    """The public part of ``t``, remembered for the latest table (and built from the one before)."""
    latest = _LATEST[0]
    if latest is not None and latest[0] is t:
        return latest[1]
    shared = public(t, latest)
    _LATEST[0] = (t, shared)
    return shared


def view(t: Table, seat: int | None) -> dict[str, Any]:
    """The view of ``seat``: a new top-level dict over the public part (``public(t)``, whose values
    it shares and never changes) with the seat's own part in new objects."""
    latest = _LATEST[0]
    result = dict(latest[1] if latest is not None and latest[0] is t else _shared(t))
    you = seat if seat is not None and 0 <= seat < len(t.players) else None
    if you is None:
        return result
    result["you"] = you
    result["hand"] = list(t.players[you].hand)
    if t.phase == "play":
        if t.decision == "drawn" and you == t.turn:
            result["drawn"] = t.drawn
        if t.add_seat == you:
            result["may_add"] = list(t.add_cards)
    return result


def views(t: Table, seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
    """``view(t, s)`` for every ``s`` in ``seats``, the public part built once and shared."""
    _shared(t)
    return each_seat(seats, lambda seat: view(t, seat))
