"""The moves of Palace on a ``Record``, changed in place (the playout path's ``play``).

The same rules as the contract's ``handlers`` and ``moves`` (P4-P23) and ``engine.perform``'s
bookkeeping (P17's add window, P5's opening rank, the stalemate count), move for move: where the
contract builds a new table, these change the record's lists. A move is not checked: it must be
one the listing (``record_listing.legal``, the contract's own listing) offers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from app.games.palace.record import BIT, BITS, CODE, NO_OUT, NONE, OFF, TEN, TWO, Cards, Record, nexts, settle

Move = Callable[[Record, int, Mapping[str, Any]], None]


def play(r: Record, seat: int, action: Mapping[str, Any]) -> Record:
    """``r`` after ``seat``'s move ``action`` (engine.perform without the check and the events)."""
    if r.fast:
        # The seat on turn in the play phase of a sheet without out-of-turn moves, nothing owed
        # (``Record.fast``): nearly every move, a play from the hand or a pick-up, is made here.
        kind = action["type"]
        if kind == "play" and type(listed := action["cards"]) is Cards and (
                (groups := r.groups[seat])[rank := listed.rank] is listed.group):
            # A play from the hand (P7) a listing handed out while the seat still holds its group:
            # the group it leaves is known, so no card code is read.
            rest = groups[rank] = listed.rest
            cards = listed.ints
            size = listed.size
            count = r.count[seat] - size
            r.count[seat] = count
            r.log[seat].append(cards)  # P25: out of the known cards (a known twin first)
            if not rest.cards:
                r.mask[seat] &= OFF[rank]
            run = r.run_len + size if rank == r.run_rank else size
            if run < r.quiet[rank] and (count > 2 or (count and not r.stock)):
                # No refill (P8), no burn (P15, P16), no 10 and not out: the pile grows and the
                # turn passes, the move idle for the stalemate count.
                r.pile += cards
                after = r.after[rank]
                if after >= 0:
                    r.active = after
                r.run_rank = rank
                r.run_len = run
                r.turn = r.nexts[seat]
                idle = r.idle = r.idle + 1
                if idle >= r.stalemate:
                    _end(r, "stalemate")
                return r
            r.was = idle = r.idle
            r.idle = idle + 1
            _place(r, seat, cards, rank)
            return _counted(r)
        if kind == "pick_up":
            idle = r.idle = r.idle + 1  # never progress: the pile changes hands
            _pick_up(r, seat)
            if idle >= r.stalemate:
                _end(r, "stalemate")
            return r
    return _move(r, seat, action)


def _move(r: Record, seat: int, action: Mapping[str, Any]) -> Record:
    """Any move (``play``'s long way): the add window, the opening rank, the move."""
    if r.add_seat is not None and not (seat == r.add_seat and action["type"] == "add"):
        # P17: the add window closes with any move but the adding player's own add.
        r.add_seat = None
        r.add_cards = []
    if r.phase != "play":
        MOVES[action["type"]](r, seat, action)
        settle(r)
        return r
    r.opening = None  # P5: the opening constraint binds the first move only (no move reads it)
    # The stalemate rule: a move is idle until it makes progress (which sets ``idle`` to 0).
    idle = r.was = r.idle
    r.idle = idle + 1
    MOVES[action["type"]](r, seat, action)
    return _counted(r)


def _counted(r: Record) -> Record:
    """The stalemate count's end of the game, and whether the next move takes the short way."""
    if r.idle >= r.stalemate and r.phase == "play":
        _end(r, "stalemate")
    settle(r)
    return r


# -- what moves do (moves.py) ----------------------------------------------------------------------


def _refill(r: Record, seat: int, need: int) -> list[int]:
    """P8: after a play, draw up to three cards in hand while the stock lasts (top first)."""
    stock = r.stock
    got = stock[:-need - 1:-1] if need < len(stock) else stock[::-1]
    del stock[-need:]
    r.give(seat, got)
    r.idle = 0  # progress
    return got


def _burn(r: Record) -> None:
    """P15, P16: the pile leaves the deal."""
    if r.pile:
        r.burned += r.pile
        r.pile = []
        r.idle = 0  # progress
    r.active = NONE
    r.run_rank = -1
    r.run_len = 0


def _pick_up(r: Record, seat: int, action: Mapping[str, Any] | None = None) -> None:
    """P9, P11, P20, P21: the pile goes to the hand, in public (P25); a card drawn and not played
    stays in the hand (P9: the decision is over)."""
    cards = r.pile
    groups = r.groups[seat]
    mask = r.mask[seat]
    for c in cards:  # Record.give, written out: one move in six, a dozen cards each
        rank = c >> 2
        g = groups[rank]
        groups[rank] = g.plus[c] or g.add(c)
        if not g.cards:  # a rank new to the hand (the mask is a new int each time it changes)
            mask |= BIT[c]
    r.mask[seat] = mask
    r.count[seat] += len(cards)
    r.log[seat].append(cards)  # P25: into the known cards (the list is the record's no more)
    r.pile = []
    r.active = NONE
    r.run_rank = -1
    r.run_len = 0
    r.decision = None
    r.drawn = None
    r.turn = seat if r.rules.picker else r.nexts[seat]


def _out(r: Record, seat: int) -> bool:
    """A player with no cards left is out (P22); True when that ends the game."""
    if r.count[seat] or r.left[seat] or seat in r.out:
        return False
    r.out.append(seat)
    r.nexts = nexts(r.n, r.out)
    r.idle = 0  # progress
    if r.rules.first_out_wins or r.n - len(r.out) <= 1:
        r.idle = r.was  # the move that ends the game leaves the count as it was (engine.perform)
        _end(r, "finished")
        return True
    return False


def _end(r: Record, reason: str) -> None:
    r.phase = "over"
    r.alone = r.fast = False
    r.reason = reason
    r.decision = None
    r.drawn = None
    r.add_seat = None
    r.add_cards = []


def _place(r: Record, seat: int, cards: Sequence[int], rank: int, may_add: bool = True) -> None:
    """Cards of ``rank`` went on the pile: refill, burns, who plays next (P8, P15, P16, P17;
    moves.placed)."""
    r.pile += cards
    rules = r.rules
    after = rules.after[rank]
    if after >= 0:
        r.active = after
    if rank == r.run_rank:
        run = r.run_len = r.run_len + len(cards)
    else:
        r.run_rank = rank
        run = r.run_len = len(cards)
    count = r.count[seat]
    drawn = None
    if count < 3 and r.stock:
        drawn = _refill(r, seat, 3 - count)
        count = r.count[seat]
    if run >= rules.burn_at[rank]:
        # P16: four of a kind on top burns, the player of the fourth starts again; P15: so does a
        # 10 that always burns.
        _burn(r)
        if count or r.left[seat]:
            r.turn = seat
        elif not _out(r, seat):
            r.turn = r.nexts[seat]
        return
    if not count and not r.left[seat]:
        if not _out(r, seat):
            r.turn = r.nexts[seat]  # out, play on (P22): no burn decision, no adding
        return
    if rank == TEN:
        r.decision = "burn"  # P15 et base: the player says whether the pile burns
        r.turn = seat
        return
    r.turn = r.nexts[seat]
    if drawn and may_add and rules.add_drawn:
        same = [c for c in drawn if c >> 2 == rank]
        if same:
            r.add_seat = seat  # P17: the drawn cards of the rank just played may be added
            r.add_cards = same


def goes_out(r: Record, seat: int, rank: int, count: int) -> bool:
    """P23: would playing ``count`` cards of ``rank`` leave this player with nothing at all?"""
    return (r.rules.no_out and rank in NO_OUT and not r.stock
            and r.count[seat] + r.left[seat] == count)


# -- the moves (handlers.py) -----------------------------------------------------------------------


def _start_play(r: Record) -> None:
    """P5: open the play once every seat is ready."""
    r.phase = "play"
    rules = r.rules
    r.alone = not rules.out_of_turn
    start = 0
    if rules.opening == "turn_up":
        base = r.stock.pop()
        r.pile = [base]
        rank = base >> 2
        after = rules.after[rank]
        r.active = NONE if after < 0 else after
        r.run_rank = rank
        r.run_len = 1
    elif rules.opening in ("lowest_card", "first_three"):
        # P5: with ``twos_low`` off a 2 never opens; jokers never do.
        first = TWO if rules.opening == "lowest_card" and rules.twos_low else TWO + 1
        held: list[set[int]] = []
        for s in range(r.n):
            cards: list[int | None] = []
            if rules.opening_cards != "face_up":
                cards.extend(r.hand(s))
            if rules.opening_cards != "hand":
                cards.extend(r.up[s])
            held.append({c >> 2 for c in cards if c is not None})
        for rank in range(first, NONE):
            holders = [s for s in range(r.n) if rank in held[s]]
            if holders:
                start = holders[0]
                break
    elif rules.opening == "left_plays_lowest":
        # P5 (wikihow): the player left of the dealer plays the lowest card in his hand.
        lowest = TWO if rules.twos_low else TWO + 1
        ranks = [rank for rank in BITS[r.mask[0]] if rank >= lowest]
        r.opening = ranks[0] if ranks else None
    r.turn = start


def _swap(r: Record, seat: int, action: Mapping[str, Any]) -> None:
    card = CODE[action["card"]]
    index = action["index"]
    up = r.up[seat]
    took = up[index]
    assert took is not None
    r.take(seat, (card,))
    r.give(seat, (took,))
    up[index] = card  # P4


def _ready(r: Record, seat: int, action: Mapping[str, Any]) -> None:
    r.ready[seat] = True
    _after_ready(r, seat)


def _after_ready(r: Record, seat: int) -> None:
    r.unready = [s for s in r.unready if s != seat]  # a new list: to_act's are shared
    if not r.unready:
        _start_play(r)


def _lay_face_up(r: Record, seat: int, action: Mapping[str, Any]) -> None:
    cards = [CODE[c] for c in action["cards"]]
    r.take(seat, cards)
    r.up[seat] = list(cards)  # P3: the three chosen, in the order named
    r.left[seat] += 3
    r.ready[seat] = True
    _after_ready(r, seat)


def _play(r: Record, seat: int, action: Mapping[str, Any]) -> None:
    codes = sorted([CODE[c] for c in action["cards"]])
    r.take(seat, codes)
    _place(r, seat, codes, codes[0] >> 2)


def _play_face_up(r: Record, seat: int, action: Mapping[str, Any]) -> None:
    indexes = sorted(action["indexes"])
    up = r.up[seat]
    down = r.down[seat]
    cards: list[int] = []
    for i in indexes:
        c = up[i]
        assert c is not None
        cards.append(c)
        up[i] = None
        below = down[i]
        if below is not None and r.rules.turn_up_below:
            up[i] = below  # P19 (China Hand): the face-down card below is turned up at once
            down[i] = None
    r.left[seat] -= len(indexes)
    r.idle = 0  # progress
    _place(r, seat, cards, cards[0] >> 2)


def _play_face_down(r: Record, seat: int, action: Mapping[str, Any]) -> None:
    index = action["index"]
    down = r.down[seat]
    card = down[index]
    assert card is not None
    rank = card >> 2
    # P21: a blind card; P23 (our reading): the last card may not be a 2, 10 or ace, even blind.
    ok = r.rules.fit[r.active][rank] and not goes_out(r, seat, rank, 1)
    down[index] = None
    r.left[seat] -= 1
    r.idle = 0  # progress
    if ok:
        _place(r, seat, [card], rank)
    else:
        r.pile.append(card)
        _pick_up(r, seat)  # P21: the pile and the turned card go to the hand


def _draw(r: Record, seat: int, action: Mapping[str, Any]) -> None:
    card = r.stock.pop()
    r.give(seat, (card,))
    r.idle = 0  # progress
    stuck = r.rules.stuck
    if stuck == "draw_ends_turn":
        _pick_up(r, seat)  # P9 "otherwise pick up": the drawn card may not be played
    elif stuck == "draw_and_pass":
        r.turn = r.nexts[seat]  # P9 "tõmbamine lõpetab käigu" read plainly: the pile stays
    else:
        r.decision = "drawn"
        r.drawn = card


def _play_drawn(r: Record, seat: int, action: Mapping[str, Any]) -> None:
    card = r.drawn
    assert card is not None
    r.decision = None
    r.drawn = None
    r.take(seat, (card,))
    _place(r, seat, (card,), card >> 2)  # P9


def _pass(r: Record, seat: int, action: Mapping[str, Any]) -> None:
    r.turn = r.nexts[seat]  # P23: nothing may be played on the empty pile


def _burn_move(r: Record, seat: int, action: Mapping[str, Any]) -> None:
    r.decision = None
    _burn(r)  # P15: the same player starts a new pile
    r.turn = seat


def _keep(r: Record, seat: int, action: Mapping[str, Any]) -> None:
    r.decision = None
    r.turn = r.nexts[seat]  # P15: leaving the 10 gives no extra turn


def _cut_in(r: Record, seat: int, action: Mapping[str, Any]) -> None:
    cards = sorted([CODE[c] for c in action["cards"]])
    r.take(seat, cards)
    # P16 (wikihow): the cutter burns the pile and plays on; the seats between are skipped.
    _place(r, seat, cards, cards[0] >> 2, may_add=False)


def _add(r: Record, seat: int, action: Mapping[str, Any]) -> None:
    r.add_seat = None
    r.add_cards = []
    cards = sorted([CODE[c] for c in action["cards"]])
    r.take(seat, cards)
    turn = r.turn
    _place(r, seat, cards, cards[0] >> 2)
    if r.phase == "play" and r.turn != seat:
        r.turn = turn  # P17: an add is out of turn: the next player is still to play


def _lay_four(r: Record, seat: int, action: Mapping[str, Any]) -> None:
    cards = [CODE[c] for c in action["cards"]]
    r.take(seat, cards)
    r.burned += cards  # P16 (et matrix): four of a kind from the hand, laid aside
    r.idle = 0  # progress
    if r.count[seat] < 3 and r.stock:
        _refill(r, seat, 3 - r.count[seat])
    if not r.count[seat] and not r.left[seat]:
        if _out(r, seat):
            return
        if r.turn == seat:
            r.turn = r.nexts[seat]


MOVES: dict[str, Move] = {
    "swap": _swap,
    "ready": _ready,
    "lay_face_up": _lay_face_up,
    "play": _play,
    "play_face_up": _play_face_up,
    "play_face_down": _play_face_down,
    "draw": _draw,
    "play_drawn": _play_drawn,
    "pick_up": _pick_up,
    "pass": _pass,
    "burn": _burn_move,
    "keep": _keep,
    "cut_in": _cut_in,
    "add": _add,
    "lay_four": _lay_four,
}
