"""What a move does to its builder table (P8, P9, P15–P17, P22): refill the hand, burn or pick up
the pile, cards placed on it, a player out, the game over. Each takes the builder ``m`` (a
``Table.copy``) and the move's events (``None`` on the playout path, which keeps none).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.games.base import Event
from app.games.palace.pile import four_on_top
from app.games.palace.table import BY_RANK, Player, Table, player


def is_empty(p: Player) -> bool:
    return not p.hand and p.table_count() == 0


def without(p: Player, cards: Sequence[str]) -> Player:
    hand = list(p.hand)
    for c in cards:
        hand.remove(c)
    known = p.known
    if known:
        rest = list(known)
        for c in cards:
            if c in rest:
                rest.remove(c)
        known = tuple(rest)
    return player(tuple(hand), p.face_up, p.face_down, known, p.ready)


def emit(
    events: list[Event] | None, kind: str, data: dict[str, Any], audience: tuple[int, ...] | None = None
) -> None:
    """Record an event of the move (``None``: the playout path, which has no audience)."""
    if events is not None:
        events.append(Event(kind, data, audience))


def next_active(m: Table, seat: int) -> int:
    """The next seat clockwise still in play (P6)."""
    out, n = m.out, len(m.players)
    following = seat + 1 if seat + 1 < n else 0
    if following not in out:
        return following
    for k in range(2, n + 1):
        s = (seat + k) % n
        if s not in out:
            return s
    return seat


def refill(m: Table, events: list[Event] | None, seat: int) -> list[str]:
    """P8: after a play, draw up to three cards in hand while the stock lasts."""
    p = m.players[seat]
    need = 3 - len(p.hand)
    if need <= 0 or not m.stock:
        return []
    got = m.stock[:need]
    m.stock = m.stock[need:]
    m.put(seat, player(tuple(sorted(p.hand + got, key=BY_RANK)), p.face_up, p.face_down, p.known, p.ready))
    emit(events, "drew", {"seat": seat, "count": len(got)})
    emit(events, "drew_cards", {"seat": seat, "cards": list(got)}, (seat,))
    return list(got)


def burn(m: Table, events: list[Event] | None, seat: int, why: str) -> None:
    """P15, P16: the pile leaves the deal."""
    emit(events, "burned", {"seat": seat, "by": why, "cards": list(m.pile)})
    m.burned = m.burned + m.pile
    m.pile = ()


def pick_up(m: Table, events: list[Event] | None, seat: int, extra: tuple[str, ...] = ()) -> None:
    """P9, P11, P20, P21: the whole pile (and a failed face-down card) goes to the hand."""
    cards = m.pile + extra
    p = m.players[seat]
    hand = tuple(sorted(p.hand + cards, key=BY_RANK))
    m.put(seat, player(hand, p.face_up, p.face_down, tuple(sorted(p.known + cards, key=BY_RANK)), p.ready))
    m.pile = ()
    emit(events, "picked_up", {"seat": seat, "cards": list(cards)})
    m.turn = seat if m.sheet.after_pick_up == "picker" else next_active(m, seat)


def check_out(m: Table, events: list[Event] | None, seat: int) -> bool:
    """A player with no cards left is out (P22); True when that ends the game."""
    if seat in m.out or not is_empty(m.players[seat]):
        return False
    m.out = (*m.out, seat)
    emit(events, "out", {"seat": seat, "place": len(m.out)})
    if m.sheet.finish == "first_out_wins" or len(m.players) - len(m.out) <= 1:
        end(m, events, "finished")
        return True
    return False


def end(m: Table, events: list[Event] | None, reason: str) -> None:
    m.phase = "over"
    m.reason = reason
    m.decision = None
    m.drawn = None
    m.add_seat = None
    m.add_cards = ()
    emit(events, "game_over", {"reason": reason})


def placed(
    m: Table,
    events: list[Event] | None,
    seat: int,
    cards: list[str],
    source: str,
    *,
    may_add: bool = True,
    indexes: list[int] | None = None,
) -> None:
    """Cards went on the pile: refill, burns, who plays next (P8, P15, P16, P17)."""
    m.pile = m.pile + tuple(cards)
    if events is not None:
        data: dict[str, Any] = {"seat": seat, "cards": cards, "from": source}
        if indexes is not None:
            data["indexes"] = indexes
        events.append(Event("played", data))
    rank = cards[0][0]
    drawn = refill(m, events, seat) if m.stock and len(m.players[seat].hand) < 3 else []
    sheet = m.sheet
    again = False
    if four_on_top(m.pile):
        burn(m, events, seat, "four")  # P16: the player of the fourth starts again
        again = True
    elif rank == "T" and sheet.ten_burn == "always":
        burn(m, events, seat, "ten")  # P15 (fi, wikihow, et matrix): the same player plays again
        again = True
    if not m.players[seat].hand and check_out(m, events, seat):  # P22: out only with no hand left
        return
    out = seat in m.out
    if rank == "T" and not again and not out:
        # P15 et base: the player says whether the pile burns.
        m.decision = "burn"
        m.turn = seat
        return
    m.turn = seat if again and not out else next_active(m, seat)
    if sheet.add_drawn and may_add and not again and not out:
        same = tuple(c for c in drawn if c[0] == rank)
        if same:
            m.add_seat = seat
            m.add_cards = same
