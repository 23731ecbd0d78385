"""The legal moves of Palace: every move a seat may make now (P4–P23), listed.

The listing is the table ``engine.check`` reads: a move is legal exactly when it is listed (in
canonical form, ``canonical``). Tables never change, so a table remembers its latest seat's
listing (``listed``), and ``legal_actions`` and the ``apply`` that follows share one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations, groupby
from typing import Any

from app.games import cards as cardlib
from app.games.base import Action
from app.games.cards import RANKS
from app.games.palace.pile import active_card, fits, top_run
from app.games.palace.rules import RuleSheet
from app.games.palace.table import BY_RANK, VALUE, Player, Table

NO_OUT_RANKS = frozenset("2TA")  # P23


def _groups(cards: Sequence[str]) -> dict[str, list[str]]:
    """Cards by rank, in rank order (hands are sorted, so groups come out sorted too)."""
    out: dict[str, list[str]] = {}
    for c in cards:
        out.setdefault(c[0], []).append(c)
    return out


def _sub_multisets(cards: list[str], low: int, high: int) -> list[list[str]]:
    """Every distinct choice of ``low``..``high`` cards out of ``cards`` (twins counted once)."""
    out: list[list[str]] = []
    twins = len(set(cards)) != len(cards)
    seen: set[tuple[str, ...]] = set()
    for k in range(max(low, 1), min(high, len(cards)) + 1):
        for combo in combinations(cards, k):
            if twins:
                if combo in seen:
                    continue
                seen.add(combo)
            out.append(list(combo))
    return out


class _GroupPlays(dict[tuple[str, ...], tuple[Action, ...]]):
    """The plays of one rank's cards in a hand, by those cards (sorted): every choice of one or
    more (``_sub_multisets``), made on first asking and shared by every listing that holds the same
    cards (looked up in C). Bounded by the deck: one entry per multiset of equal cards (at most a
    few thousand with two decks). The dicts are shared: never change them."""

    def __missing__(self, group: tuple[str, ...]) -> tuple[Action, ...]:
        found = self[group] = tuple(
            {"type": "play", "cards": cards} for cards in _sub_multisets(list(group), 1, len(group))
        )
        return found


_GROUP_PLAYS = _GroupPlays()
group_plays = _GROUP_PLAYS.__getitem__
# A card's rank, as a C call for ``groupby``: every card code a hand may hold, jokers too (P2).
_RANK = {c: c[0] for c in (*(r + s for r in RANKS for s in cardlib.SUITS), *cardlib.JOKERS)}.__getitem__


# The ranks that fit on each active card (P7, P12-P15) for the sheets in use, by (sheet id, the
# active card's rank: all ``fits`` reads of it); each entry holds its sheet, so the id is not
# reused while remembered.
_FITTING: dict[tuple[int, str | None], tuple[RuleSheet, frozenset[str]]] = {}
_ALL_RANKS = (*VALUE,)


def fitting_ranks(sheet: RuleSheet, active: str | None) -> frozenset[str]:
    """The ranks ``pile.fits`` lets onto ``active`` under ``sheet``."""
    key = (id(sheet), None if active is None else active[0])
    found = _FITTING.get(key)
    if found is not None and found[0] is sheet:
        return found[1]
    ranks = frozenset(r for r in _ALL_RANKS if fits(sheet, r, active))
    if len(_FITTING) >= 4096:
        _FITTING.clear()
    _FITTING[key] = (sheet, ranks)
    return ranks


def goes_out_on_special(t: Table, p: Player, rank: str, count: int) -> bool:
    """P23: would playing ``count`` cards of ``rank`` leave this player with nothing at all?"""
    return t.sheet.no_out_on_special and rank in NO_OUT_RANKS and not t.stock and p.card_count() == count


def held(hand: tuple[str, ...], cards: list[str]) -> bool:
    rest = list(hand)
    for c in cards:
        try:
            rest.remove(c)
        except ValueError:
            return False
    return True


def _source(p: Player) -> str:
    """Where the player's next card comes from (P18, P20, P21): hand, then face-up, then face-down."""
    if p.hand:
        return "hand"
    if any(c is not None for c in p.face_up):
        return "face_up"
    return "face_down"


def plays(t: Table, seat: int) -> list[Action]:
    """Every play the seat on turn may make from its current source."""
    p = t.players[seat]
    sheet = t.sheet
    active = active_card(sheet, t.pile)
    out: list[Action] = []
    source = "hand" if p.hand else _source(p)
    if source == "hand":
        known = _FITTING.get((id(sheet), None if active is None else active[0]))  # ``fitting_ranks``, inline
        fitting = known[1] if known is not None and known[0] is sheet else fitting_ranks(sheet, active)
        opening = t.opening_rank
        # P23 can bar a play only with the stock empty: the hand's last cards of a special rank.
        special = sheet.no_out_on_special and not t.stock
        if opening is None and not special:  # the usual case, in a loop of its own
            for rank, group in groupby(p.hand, _RANK):  # hands are sorted: a rank's cards lie together
                if rank in fitting:
                    out += group_plays(tuple(group))
            return out
        for rank, group in groupby(p.hand, _RANK):
            if rank not in fitting or (opening is not None and rank != opening):
                continue
            found = group_plays(tuple(group))
            if special and rank in NO_OUT_RANKS:
                out.extend(a for a in found if not goes_out_on_special(t, p, rank, len(a["cards"])))
            else:
                out.extend(found)
    elif source == "face_up":
        slots: dict[str, list[int]] = {}
        for i, c in enumerate(p.face_up):
            if c is not None:
                slots.setdefault(c[0], []).append(i)
        for rank in sorted(slots, key=VALUE.__getitem__):
            if not fits(sheet, rank, active):
                continue
            idx = slots[rank]
            for k in range(1, len(idx) + 1):
                for combo in combinations(idx, k):
                    if not goes_out_on_special(t, p, rank, k):
                        out.append({"type": "play_face_up", "indexes": list(combo)})
    else:
        for i, c in enumerate(p.face_down):
            if c is not None:
                out.append({"type": "play_face_down", "index": i})
    return out


def _stuck_moves(t: Table, seat: int, can_play: bool) -> list[Action]:
    """Draw, pick up or pass: what a seat on turn may do instead of playing (P9, P10, P11, P23)."""
    p = t.players[seat]
    sheet = t.sheet
    if t.pile:
        if can_play and not sheet.voluntary_pick_up:
            return []  # P10: you must play if you can
        if sheet.when_stuck != "pick_up" and t.stock and p.hand:
            return [{"type": "draw"}]
        return [{"type": "pick_up"}]
    if not can_play:
        return [{"type": "pass"}]
    return []


def drawn_moves(t: Table, seat: int) -> list[Action]:
    p = t.players[seat]
    drawn = t.drawn
    assert drawn is not None
    ok = fits(t.sheet, drawn[0], active_card(t.sheet, t.pile)) and not goes_out_on_special(t, p, drawn[0], 1)
    out: list[Action] = []
    if ok:
        out.append({"type": "play_drawn"})
    if not ok or t.sheet.voluntary_pick_up:
        out.append({"type": "pick_up"})
    return out


def _cut_ins(t: Table, seat: int) -> list[Action]:
    """P16 (wikihow variant): complete the four on top of the pile from the hand, out of turn."""
    rank, count = top_run(t.pile)
    if rank is None or rank == "X" or count >= 4:
        return []
    p = t.players[seat]
    group = [c for c in p.hand if c[0] == rank]
    need = 4 - count
    if len(group) < need:
        return []
    return [
        {"type": "cut_in", "cards": cards}
        for cards in _sub_multisets(group, need, len(group))
        if not goes_out_on_special(t, p, rank, len(cards))
    ]


def _adds(t: Table, seat: int) -> list[Action]:
    """P17: the cards just drawn of the rank just played, while the next player has not moved."""
    p = t.players[seat]
    cards = [c for c in t.add_cards]
    if not cards:
        return []
    return [
        {"type": "add", "cards": sub}
        for sub in _sub_multisets(cards, 1, len(cards))
        if not goes_out_on_special(t, p, sub[0][0], len(sub))
    ]


def _fours(t: Table, seat: int) -> list[Action]:
    """P16 (et matrix): four of a kind held in hand may be laid aside at any time."""
    p = t.players[seat]
    out: list[Action] = []
    for rank, group in _groups(p.hand).items():
        if rank == "X" or len(group) < 4:
            continue
        for cards in _sub_multisets(group, 4, 4):
            if not goes_out_on_special(t, p, rank, 4):
                out.append({"type": "lay_four", "cards": cards})
    return out


def _out_of_turn(t: Table, seat: int) -> list[Action]:
    """Moves a seat may make whether or not it is on turn (never while a decision is owed)."""
    sheet = t.sheet
    out: list[Action] = []
    if seat != t.turn:
        if sheet.cut_in:
            out.extend(_cut_ins(t, seat))
        if sheet.add_drawn and t.add_seat == seat:
            out.extend(_adds(t, seat))
    if sheet.four_from_hand:
        out.extend(_fours(t, seat))
    return out


def _swap_moves(t: Table, seat: int) -> list[Action]:
    p = t.players[seat]
    if p.ready:
        return []
    if t.sheet.deal == "choose_from_six" and all(c is None for c in p.face_up):
        return [{"type": "lay_face_up", "cards": cards} for cards in _sub_multisets(list(p.hand), 3, 3)]
    out: list[Action] = []
    for card in dict.fromkeys(p.hand):
        for i, up in enumerate(p.face_up):
            if up is not None and up != card:
                out.append({"type": "swap", "card": card, "index": i})
    out.append({"type": "ready"})
    return out


def listed(t: Table, seat: int) -> list[Action]:
    """The moves ``seat`` may make now, remembered on the table for the latest seat asked (a
    table never changes; ``legal_actions`` and the ``apply`` that follows share one listing): the
    list must not be changed (``engine.legal_actions`` hands out a copy)."""
    memo = t.listing
    if memo is not None and memo[0] == seat:
        return memo[1]
    out = _listing(t, seat)
    object.__setattr__(t, "listing", (seat, out))  # past ``Frozen``: a remembered value, not state
    return out


def canonical(action: Mapping[str, Any]) -> dict[str, Any]:
    """The form ``legal_actions`` lists a move in: cards in hand order, slot indexes ascending."""
    out = dict(action)
    cards = out.get("cards")
    if isinstance(cards, list) and all(isinstance(c, str) and cardlib.is_card(c) for c in cards):
        out["cards"] = sorted(cards, key=BY_RANK)
    indexes = out.get("indexes")
    if isinstance(indexes, list) and all(type(i) is int for i in indexes):
        out["indexes"] = sorted(indexes)
    return out


def _listing(t: Table, seat: int) -> list[Action]:
    if seat == t.turn and type(seat) is int and t.phase == "play" and not t.decision and seat not in t.out:
        return _in_play(t, seat, True)  # the seat on turn with no decision owed: the usual case, first
    if not isinstance(seat, int) or not 0 <= seat < len(t.players):
        return []
    if t.phase != "play":
        return _swap_moves(t, seat) if t.phase == "swap" else []
    if seat in t.out:
        return []
    if t.decision is not None:
        if seat != t.turn:
            return []
        if t.decision == "burn":
            return [{"type": "burn"}, {"type": "keep"}]
        return drawn_moves(t, seat)
    return _in_play(t, seat, seat == t.turn)


def _in_play(t: Table, seat: int, on_turn: bool) -> list[Action]:
    """A seat's moves in play with no decision owed: its turn's, then those out of turn."""
    sheet = t.sheet
    out: list[Action] = []
    if on_turn:
        out = plays(t, seat)  # a new list
        if not (out and t.pile and not sheet.voluntary_pick_up):  # P10: else play, nothing more
            out.extend(_stuck_moves(t, seat, bool(out)))
    if sheet.cut_in or sheet.add_drawn or sheet.four_from_hand:
        out.extend(_out_of_turn(t, seat))
    return out


def to_act(t: Table) -> list[int]:
    """Every seat with a move now: the seat on turn and any seat with an out-of-turn move.

    The out-of-turn part tells what a seat holds, so it is for the server and bots only; the
    public "whom do we wait for" is the view's ``waiting_for``.
    """
    phase = t.phase
    if phase != "play":
        return [s for s, p in enumerate(t.players) if not p.ready] if phase == "swap" else []
    seats = [t.turn]
    sheet = t.sheet
    if t.decision is None and (sheet.cut_in or sheet.add_drawn or sheet.four_from_hand):
        for s in range(len(t.players)):
            if s != t.turn and s not in t.out and _out_of_turn(t, s):
                seats.append(s)
    return seats


def timeout_action(t: Table, seat: int) -> Action | None:
    """The move made for a seat whose timer runs out.

    Ready, keep, pick up, draw or pass when legal, else the lowest play.
    """
    legal = listed(t, seat)
    if not legal:
        return None
    if t.phase == "swap":
        if {"type": "ready"} in legal:
            return {"type": "ready"}
        # Choose-from-six: lay 2s, 10s and then the highest cards face-up (the wikihow's advice).
        best = sorted(t.players[seat].hand, key=lambda c: (c[0] in "2T", VALUE[c[0]]))[-3:]
        action: Action = {"type": "lay_face_up", "cards": sorted(best, key=BY_RANK)}
        return action if action in legal else legal[-1]
    if seat != t.turn:
        return None
    for preferred in ("keep", "pick_up", "draw", "pass"):
        if {"type": preferred} in legal:
            return {"type": preferred}
    return legal[0]

