"""One determinization of a Palace game for the bot's playouts (``app.bots.palace_search``): every
card known, ranks only (suits never matter, P2), hands kept as counts per rank so that a playout's
move costs a few list lookups.

It plays the table rules the seat has read (``palace_policy.Rules``): P12 a 2 (and a joker) resets,
P13 an 8 is transparent where the sheet says so, P14 after the low card the next is that rank or
lower, P15 a 10 burns and its player goes again (on anything where the sheet says so), P16 four of
a kind burn, P8 refill to three, P18–P21 the table cards, and P19 (a face-down card turned up under
a played face-up card) once the seat has seen it happen. It leaves out what only adds noise to a
playout's estimate: the draw of P9 (a stuck player picks up), optional burns (a 10 always burns).
"""

from __future__ import annotations

from dataclasses import dataclass

# Rank codes: 0–11 the ordinary order 3 < 4 < … < A, then the 2 and the joker.
ORDER = "3456789TJQKA2X"
CODE: dict[str, int] = {r: i for i, r in enumerate(ORDER)}
EIGHT, TEN, TWO, JOKER = CODE["8"], CODE["T"], CODE["2"], CODE["X"]
ACE = CODE["A"]
NONE = -1  # no active card: anything fits
SIZE = len(ORDER)


@dataclass(frozen=True)
class Table:
    """The rules a playout follows: the low card of P14 (``NONE``: no such card), transparent 8s
    (P13), a 10 on anything (P15), face-down cards turned up under played face-up ones (P19)."""

    low: int
    eights_clear: bool
    ten_anything: bool
    turn_up_below: bool


class Sim:
    """A game in play with every card known: hands as counts per rank code, the face-up and
    face-down cards as lists of codes, the pile as its counts, its active card and the run of equal
    cards on its top (for P16)."""

    __slots__ = ("active", "down", "hands", "held", "out", "pile", "pile_n", "rules", "run_len",
                 "run_rank", "seats", "stock", "turn", "up")

    def __init__(self, rules: Table, hands: list[list[int]], up: list[list[int]], down: list[list[int]],
                 stock: list[int], turn: int, out: list[int]) -> None:
        self.rules = rules
        self.hands = hands
        self.held = [sum(h) for h in hands]
        self.up, self.down, self.stock, self.turn, self.out = up, down, stock, turn, out
        self.seats = len(hands)
        self.pile = [0] * SIZE
        self.pile_n = 0
        self.active = NONE
        self.run_rank = NONE
        self.run_len = 0

    def lay(self, pile: list[int]) -> None:
        """Put the cards already on the pile (bottom first) down, as they were played."""
        for code in pile:
            self._push(code, 1)

    def copy(self) -> Sim:
        other = Sim.__new__(Sim)
        other.rules, other.seats = self.rules, self.seats
        other.hands = [list(h) for h in self.hands]
        other.held = list(self.held)
        other.up = [list(u) for u in self.up]
        other.down = [list(d) for d in self.down]
        other.stock, other.out = list(self.stock), list(self.out)
        other.turn = self.turn
        other.pile, other.pile_n = list(self.pile), self.pile_n
        other.active, other.run_rank, other.run_len = self.active, self.run_rank, self.run_len
        return other

    # -- the rules ----------------------------------------------------------------------------

    def fits(self, code: int) -> bool:
        rules = self.rules
        if code >= TWO or (code == EIGHT and rules.eights_clear) or (code == TEN and rules.ten_anything):
            return True
        active = self.active
        if active == NONE:
            return True
        if active == rules.low:
            return code <= active and code != TEN
        return code >= active

    def _push(self, code: int, count: int) -> None:
        self.pile[code] += count
        self.pile_n += count
        if code == self.run_rank:
            self.run_len += count
        else:
            self.run_rank, self.run_len = code, count
        if code >= TWO:
            self.active = NONE
        elif not (code == EIGHT and self.rules.eights_clear):
            self.active = code

    def _clear(self) -> None:
        self.pile = [0] * SIZE
        self.pile_n = 0
        self.active = self.run_rank = NONE
        self.run_len = 0

    def left(self, seat: int) -> int:
        return self.held[seat] + len(self.up[seat]) + len(self.down[seat])

    def next_turn(self) -> None:
        n = self.seats
        for step in range(1, n + 1):
            seat = (self.turn + step) % n
            if seat not in self.out:
                self.turn = seat
                return

    def finished(self) -> bool:
        return len(self.out) >= self.seats - 1

    # -- moves --------------------------------------------------------------------------------

    def play_hand(self, seat: int, code: int, count: int) -> None:
        self.hands[seat][code] -= count
        self.held[seat] -= count
        self._push(code, count)
        self._after_play(seat, code)

    def play_up(self, seat: int, code: int, count: int) -> None:
        up, down = self.up[seat], self.down[seat]
        for _ in range(count):
            up.remove(code)
            if self.rules.turn_up_below and down:
                up.append(down.pop())  # P19: the card below is turned up at once
        self._push(code, count)
        self._after_play(seat, code)

    def _after_play(self, seat: int, code: int) -> None:
        hand, stock = self.hands[seat], self.stock
        while stock and self.held[seat] < 3:
            hand[stock.pop()] += 1
            self.held[seat] += 1
        burn = code == TEN or (self.run_len >= 4 and code != JOKER)
        if burn:
            self._clear()
        if self.left(seat) == 0:
            self.out.append(seat)
            self.next_turn()
        elif not burn:
            self.next_turn()

    def pick_up(self, seat: int, extra: int = NONE) -> None:
        hand = self.hands[seat]
        for code, count in enumerate(self.pile):
            hand[code] += count
        self.held[seat] += self.pile_n
        if extra != NONE:
            hand[extra] += 1
            self.held[seat] += 1
        self._clear()
        self.next_turn()

    def blind(self, seat: int) -> None:
        code = self.down[seat].pop()
        if self.fits(code):
            self._push(code, 1)
            self._after_play(seat, code)
        else:
            self.pick_up(seat, code)

    def greedy(self, seat: int) -> None:
        """The quick policy: the lowest ordinary rank that fits (all of it), a 10 on a big pile,
        a special when nothing else fits, else pick up; blind cards when only those are left."""
        if self.held[seat]:
            counts = self.hands[seat]
            from_hand = True
        elif self.up[seat]:
            counts = [0] * SIZE
            for code in self.up[seat]:
                counts[code] += 1
            from_hand = False
        else:
            self.blind(seat)
            return
        code = self._pick(counts)
        if code == NONE:
            self.pick_up(seat)
        elif from_hand:
            self.play_hand(seat, code, counts[code])
        else:
            self.play_up(seat, code, counts[code])

    def _pick(self, counts: list[int]) -> int:
        rules = self.rules
        clear = rules.eights_clear
        plain = NONE
        for code in range(ACE + 1):
            if counts[code] and code != TEN and not (code == EIGHT and clear) and self.fits(code):
                plain = code
                break
        if counts[TEN] and self.fits(TEN) and (self.pile_n >= 5 or plain == NONE):
            return TEN
        if plain != NONE:
            return plain
        for code in (EIGHT, TWO, JOKER):
            if counts[code] and self.fits(code):
                return code
        return NONE
