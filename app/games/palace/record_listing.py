"""The legal moves of a ``Record``: the contract's listing (``listing``), made fast.

``legal`` gives the very list ``listing.listed`` gives for the same table, in the same order and
as the same dicts (P4-P23): the plays from the hand first (rank by rank, each choice of equal
cards, fewer first), then drawing, picking up or passing, then the out-of-turn moves.
``to_act`` is ``listing.to_act``.

The action dicts of a group of equal cards are made once and shared by every listing that offers
them (``record.Group``), as are the moves without fields: a caller must not change what it is handed.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from app.games.palace.record import BITS, CARD, JOKER, NO_OUT, RANK, Record, choices
from app.games.palace.record_moves import goes_out

Action = dict[str, Any]

PICK_UP: Action = {"type": "pick_up"}
DRAW: Action = {"type": "draw"}
PASS: Action = {"type": "pass"}
BURN: Action = {"type": "burn"}
KEEP: Action = {"type": "keep"}
READY: Action = {"type": "ready"}
PLAY_DRAWN: Action = {"type": "play_drawn"}
FACE_DOWN: list[Action] = [{"type": "play_face_down", "index": i} for i in range(3)]


def _special_out(r: Record, seat: int, moves: list[Action]) -> list[Action]:
    """P23: the plays from the hand that would leave the player with nothing, when the last card
    may not be a 2, 10 or ace, taken out (asked only when the stock is empty)."""
    count = r.count[seat] + r.left[seat]
    return [a for a in moves if not (len(a["cards"]) == count and RANK[a["cards"][0][0]] in NO_OUT)]


def _face_up_plays(r: Record, seat: int) -> list[Action]:
    """P18: equal face-up cards, rank by rank, each choice of slots."""
    slots: dict[int, list[int]] = {}
    for i, c in enumerate(r.up[seat]):
        if c is not None:
            slots.setdefault(c >> 2, []).append(i)
    fit = r.rules.fit[r.active]
    out: list[Action] = []
    for rank in sorted(slots):
        if fit[rank]:
            idx = slots[rank]
            for k in range(1, len(idx) + 1):
                for combo in combinations(idx, k):
                    if not goes_out(r, seat, rank, k):
                        out.append({"type": "play_face_up", "indexes": list(combo)})
    return out


def _table_plays(r: Record, seat: int) -> list[Action]:
    """The plays of a seat with an empty hand: its face-up cards, else its face-down ones (P18, P20,
    P21)."""
    if any(c is not None for c in r.up[seat]):
        return _face_up_plays(r, seat)
    return [FACE_DOWN[i] for i, c in enumerate(r.down[seat]) if c is not None]


def _out_of_turn(r: Record, seat: int) -> list[Action]:
    """Moves a seat may make on turn or not (never while a decision is owed): cut in (P16,
    wikihow), add drawn cards (P17), lay a four from the hand (P16, et matrix)."""
    rules = r.rules
    out: list[Action] = []
    if seat != r.turn:
        if rules.cut_in and r.run_rank > JOKER and r.run_len < 4:
            rank = r.run_rank
            group = r.groups[seat][rank].cards
            need = 4 - r.run_len
            if len(group) >= need:
                for combo in choices(group, need, len(group)):
                    if not goes_out(r, seat, rank, len(combo)):
                        out.append({"type": "cut_in", "cards": [CARD[c] for c in combo]})
        if rules.add_drawn and r.add_seat == seat and r.add_cards:
            for combo in choices(tuple(r.add_cards), 1, len(r.add_cards)):
                if not goes_out(r, seat, combo[0] >> 2, len(combo)):
                    out.append({"type": "add", "cards": [CARD[c] for c in combo]})
    if rules.four_from_hand and r.count[seat] >= 4:
        groups = r.groups[seat]
        for rank in BITS[r.mask[seat]]:
            group = groups[rank].cards
            if rank != JOKER and len(group) >= 4 and not goes_out(r, seat, rank, 4):
                for combo in choices(group, 4, 4):
                    out.append({"type": "lay_four", "cards": [CARD[c] for c in combo]})
    return out


# The swap phase's listings by (hand, face-up row): a seat swaps back and forth among a few.
_SWAPS: dict[tuple[tuple[int, ...], tuple[int | None, ...]], list[Action]] = {}
# The swaps of each card with each face-up slot (P4), made once.
SWAP: list[list[Action]] = [
    [{"type": "swap", "card": CARD[c], "index": i} for i in range(3)] for c in range(len(CARD))
]


def _swap_moves(r: Record, seat: int) -> list[Action]:
    """P3, P4: choose the face-up cards, or swap hand cards with them and say ready."""
    if r.ready[seat]:
        return []
    hand: tuple[int, ...] = ()
    groups = r.groups[seat]
    for rank in BITS[r.mask[seat]]:
        hand += groups[rank].cards
    up = r.up[seat]
    key = (hand, tuple(up))
    found = _SWAPS.get(key)
    if found is not None:
        return found
    if r.rules.choose_six and all(c is None for c in up):
        found = [{"type": "lay_face_up", "cards": [CARD[a], CARD[b], CARD[c]]}
                 for a, b, c in choices(hand, 3, 3)]  # P3: three of six (no comprehension per choice)
    else:
        found = []
        full = None not in up
        for card in dict.fromkeys(hand):
            if full and card not in up:
                found += SWAP[card]  # every slot, in order
                continue
            for i, c in enumerate(up):
                if c is not None and c != card:
                    found.append(SWAP[card][i])
        found.append(READY)
    if len(_SWAPS) >= 10_000:
        _SWAPS.clear()
    _SWAPS[key] = found
    return found


def legal(r: Record, seat: int) -> list[Action]:
    """Every move ``seat`` may make now (``listing.listed``); the dicts are shared: do not change them.

    The seat on turn (never one that is out) with nothing owed: its plays from its current source
    (P18, P20, P21), then draw, pick up or pass (P9, P10, P11, P23); with P16's four from the hand,
    those too. Any other seat or phase: ``_waiting``."""
    if seat == r.turn and r.fast and r.count[seat]:
        # Nearly every listing (``Record.fast``: no decision, no opening rank, no P23 check, no
        # out-of-turn moves): P7, the ranks held that fit on the pile, lowest first, each with its
        # plays; then the way out (P9, P10, P11).
        groups = r.groups[seat]
        out: list[Action] = []
        for rank in BITS[r.mask[seat] & r.fitmask[r.active]]:
            out += groups[rank].plays
        if r.pile:
            if not out or r.voluntary:  # P10: you must play if you can
                out.append(DRAW if r.draws and r.stock else PICK_UP)
        elif not out:
            out.append(PASS)
        return out
    return _listed(r, seat)


def _listed(r: Record, seat: int) -> list[Action]:
    """``legal`` the long way: any seat, phase, decision or sheet."""
    if seat != r.turn or r.decision is not None or r.phase != "play":
        return _waiting(r, seat)
    rules = r.rules
    in_hand = r.count[seat]
    if in_hand:
        # P7: the ranks held that fit on the pile, lowest first, each with its plays.
        fitting = r.mask[seat] & rules.fitmask[r.active]
        if r.opening is not None:
            fitting &= 1 << r.opening  # P5: the opener plays his lowest rank first
        groups = r.groups[seat]
        out: list[Action] = []
        for rank in BITS[fitting]:
            out += groups[rank].plays
        if rules.no_out and out and not r.stock:
            out = _special_out(r, seat, out)
    else:
        out = _table_plays(r, seat)
    if r.pile:
        if not out or rules.voluntary:  # P10: you must play if you can
            out.append(DRAW if rules.draws and r.stock and in_hand else PICK_UP)
    elif not out:
        out.append(PASS)
    if rules.four_from_hand:
        out += _out_of_turn(r, seat)
    return out


def _waiting(r: Record, seat: int) -> list[Action]:
    """The moves of a seat not on turn, or owing a decision, or of the swap phase."""
    phase = r.phase
    if phase == "play":
        if seat in r.out:
            return []
        if r.decision is None:
            return _out_of_turn(r, seat) if r.rules.out_of_turn else []
        if seat != r.turn:
            return []
        if r.decision == "burn":
            return [BURN, KEEP]  # P15
        return _drawn_moves(r, seat)
    if phase == "swap":
        return _swap_moves(r, seat) if 0 <= seat < r.n else []
    return []


def _drawn_moves(r: Record, seat: int) -> list[Action]:
    """P9: play the card just drawn if it fits, or pick up (only that, when it does not fit or
    when a player must play if he can, P10)."""
    drawn = r.drawn
    assert drawn is not None
    rank = drawn >> 2
    ok = r.rules.fit[r.active][rank] and not goes_out(r, seat, rank, 1)
    out: list[Action] = []
    if ok:
        out.append(PLAY_DRAWN)
    if not ok or r.rules.voluntary:
        out.append(PICK_UP)
    return out


# The seat on turn alone, one shared list per seat (``to_act``'s lists are shared too).
_ALONE: list[list[int]] = [[seat] for seat in range(8)]


def to_act(r: Record) -> list[int]:
    """Every seat with a move now (``listing.to_act``): the seat on turn, and any seat with an
    out-of-turn move; in the swap phase every seat not ready. Do not change the list."""
    if r.alone:
        return _ALONE[r.turn]
    if r.phase == "play":
        if r.decision is not None:
            return _ALONE[r.turn]
        seats = [r.turn]
        out = r.out
        for s in range(r.n):
            if s != r.turn and s not in out and _out_of_turn(r, s):
                seats.append(s)
        return seats
    if r.phase == "swap":
        return r.unready
    return []


__all__ = ["legal", "to_act"]
