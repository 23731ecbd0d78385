"""The changeable record of a Palace game that the playout path plays on (``playout``).

A ``Record`` holds the same facts as a ``Table`` in plain lists and small ints that each move
changes in place: cards are ints, ranks are ints, and what every move would otherwise recompute is
kept up to date (the active rank of the pile, the run of one rank on its top, each seat's table
cards). ``from_table`` copies a table into a record; ``to_json`` gives the table's own JSON form
back (``Table.to_json``), which is how the agreement test compares the two paths.

Cards: a card's int is its place in the hand order (``table.BY_RANK``) plus 4, so a sorted list
of ints is a sorted hand and ``code >> 2`` is its rank: 0 for a joker (Xr 0, Xb 1), 1 for a 2,
..., 13 for an ace; ranks compare as the contract's ``VALUE`` (P2, P7).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from app.games.cards import JOKERS, RANKS, SUITS
from app.games.palace.pile import active_card, top_run
from app.games.palace.rules import RuleSheet
from app.games.palace.table import Table

# Card codes <-> ints, and rank ints (see the module's docstring).
CODE: dict[str, int] = {r + s: 4 * (i + 1) + j for i, r in enumerate(RANKS) for j, s in enumerate(SUITS)}
CODE.update({joker: j for j, joker in enumerate(JOKERS)})
CARD: list[str] = [""] * 56
for _code, _int in CODE.items():
    CARD[_int] = _code
RANK_OF: str = "X" + RANKS  # rank int -> the contract's rank character
RANK: dict[str, int] = {c: i for i, c in enumerate(RANK_OF)}
JOKER, TWO, EIGHT, TEN, ACE = 0, 1, 7, 9, 13
NONE = 14  # the active rank of a pile that takes anything (empty, reset by a 2, P12)
KEEP = -1  # a transparent rank leaves the active rank as it was (P13)
NO_OUT = (TWO, TEN, ACE)  # P23


class Rules:
    """What the moves read of a sheet, worked out once per sheet."""

    __slots__ = (
        "add_drawn", "after", "burn_at", "choose_six", "cut_in", "draws", "first_out_wins", "fit", "fitmask",
        "four_from_hand", "low", "no_out", "opening", "opening_cards", "out_of_turn", "picker", "quiet",
        "sheet", "stalemate", "stuck", "ten_always", "turn_up_below", "twos_low", "voluntary",
    )

    def __init__(self, sheet: RuleSheet) -> None:
        self.sheet = sheet
        low = None if sheet.low_card == "none" else RANK[sheet.low_card]
        self.low = low
        # fit[active][rank]: may a card of ``rank`` go on a pile whose active rank is ``active``
        # (pile.fits: P7, P12-P15; a joker fits on anything, P2).
        self.fit: list[list[bool]] = []
        for active in range(NONE + 1):
            row = []
            for rank in range(NONE):
                if rank in (TWO, JOKER) or (rank == EIGHT and sheet.eight_transparent) or (
                        rank == TEN and sheet.ten_fits == "anything") or active == NONE:
                    row.append(True)
                elif active == low:
                    row.append(rank <= low)  # P14: the low card or lower
                else:
                    row.append(rank >= active)  # P7: equal or higher
            self.fit.append(row)
        # The same as masks of ranks (bit ``1 << rank``).
        self.fitmask = [sum(1 << rank for rank in range(NONE) if row[rank]) for row in self.fit]
        # after[rank]: the active rank once a card of ``rank`` lies on top (pile.active_card): an 8
        # (P13) or a transparent joker keeps it, a 2 (P12) or a resetting joker opens the pile.
        self.after = list(range(NONE))
        self.after[TWO] = NONE
        self.after[JOKER] = KEEP if sheet.joker == "transparent" else NONE
        if sheet.eight_transparent:
            self.after[EIGHT] = KEEP
        self.ten_always = sheet.ten_burn == "always"
        # burn_at[rank]: how many of ``rank`` in a row on top of the pile burn it: four of a kind
        # (P16, never jokers), a 10 alone when it always burns (P15).
        self.burn_at = [4] * NONE
        self.burn_at[JOKER] = 99
        if self.ten_always:
            self.burn_at[TEN] = 1
        # quiet[rank]: a run of ``rank`` on top shorter than this neither burns nor asks for the
        # burn decision (P15, P16): a 10 never is (it burns or asks), so ``play`` hands it on.
        self.quiet = list(self.burn_at)
        self.quiet[TEN] = 0
        self.no_out = sheet.no_out_on_special
        self.stuck = sheet.when_stuck
        self.draws = sheet.when_stuck != "pick_up"  # P9: drawing first when stuck
        self.voluntary = sheet.voluntary_pick_up
        self.add_drawn = sheet.add_drawn
        self.cut_in = sheet.cut_in
        self.four_from_hand = sheet.four_from_hand
        self.out_of_turn = sheet.cut_in or sheet.add_drawn or sheet.four_from_hand
        self.turn_up_below = sheet.turn_up_face_down
        self.first_out_wins = sheet.finish == "first_out_wins"
        self.picker = sheet.after_pick_up == "picker"
        self.stalemate = sheet.stalemate_moves
        self.choose_six = sheet.deal == "choose_from_six"
        self.opening = sheet.opening
        self.opening_cards = sheet.opening_cards
        self.twos_low = sheet.twos_low


class Cards(list[str]):
    """The card codes of a play of equal cards from the hand as a listing hands it out (the
    ``cards`` of ``{"type": "play", "cards": [...]}``, equal to the contract's list), carrying what
    making the play needs: its group, the group it leaves, its card ints, their count and rank, so that
    playing it reads no card codes (``record_moves.play``). The dict stays a plain dict: a caller
    reads its fields often."""

    __slots__ = ("group", "ints", "rank", "rest", "size")

    group: Group
    ints: tuple[int, ...]
    rank: int
    rest: Group
    size: int


class Group:
    """The cards of one rank in a hand (sorted ints), made once per distinct group and shared by
    every hand that holds it: its plays (P7: each choice of equal cards, fewer first, twins of two
    decks once; the contract's dicts, their ``cards`` a ``Cards``) and the group one more card
    makes (``plus[card]``, None until made) and one card fewer (``minus[card]``)."""

    __slots__ = ("cards", "minus", "plays", "plus", "rank")

    def __init__(self, cards: tuple[int, ...], rank: int) -> None:
        self.cards = cards
        self.rank = rank
        self.plays: list[dict[str, Any]] = []
        self.plus: list[Group | None] = [None] * len(CARD)
        self.minus: list[Group | None] = [None] * len(CARD)

    def add(self, card: int) -> Group:
        found = self.plus[card]
        if found is None:
            found = self.plus[card] = group(tuple(sorted((*self.cards, card))), self.rank)
        return found

    def drop(self, card: int) -> Group:
        """The group one card fewer makes (``minus[card]``, made once)."""
        found = self.minus[card]
        if found is None:
            found = self.minus[card] = self.less((card,))
        return found

    def less(self, cards: Sequence[int]) -> Group:
        rest = list(self.cards)
        for c in cards:
            rest.remove(c)
        return group(tuple(rest), self.rank)


EMPTY: list[Group] = [Group((), rank) for rank in range(NONE)]
# Every group made (a few thousand at most: 14 ranks, up to two decks).
_GROUPS: dict[tuple[int, ...], Group] = {}


def choices(cards: tuple[int, ...], low: int, high: int) -> list[tuple[int, ...]]:
    """Every distinct choice of ``low``..``high`` cards out of ``cards``, in the contract's order
    (``listing._sub_multisets``: fewer first; twins of two decks counted once)."""
    out: list[tuple[int, ...]] = []
    seen: set[tuple[int, ...]] = set()
    for k in range(max(low, 1), min(high, len(cards)) + 1):
        for combo in combinations(cards, k):
            if combo not in seen:
                seen.add(combo)
                out.append(combo)
    return out


def group(cards: tuple[int, ...], rank: int) -> Group:
    if not cards:
        return EMPTY[rank]
    found = _GROUPS.get(cards)
    if found is None:
        found = _GROUPS[cards] = Group(cards, rank)
        for combo in choices(cards, 1, len(cards)):
            codes = Cards(CARD[c] for c in combo)
            codes.group, codes.rest, codes.ints, codes.rank = found, found.less(combo), combo, rank
            codes.size = len(combo)
            found.plays.append({"type": "play", "cards": codes})
    return found


def _bits() -> list[tuple[int, ...]]:
    """The ranks of every mask of ranks (bit ``1 << rank``), lowest first: ``BITS[mask]``. A plain
    list: the listing reads it once a move, and a list is indexed faster than a dict subclass."""
    found: list[tuple[int, ...]] = [()]
    for mask in range(1, 1 << NONE):
        low = (mask & -mask).bit_length() - 1
        found.append((low, *found[mask & (mask - 1)]))
    return found


BITS = _bits()
# A card's rank bit, and each rank's bit cleared: made once, since an int above 256 is a new
# object each time it is worked out (masks of ranks above 7 are).
BIT: tuple[int, ...] = tuple(1 << (c >> 2) for c in range(len(CARD)))
OFF: tuple[int, ...] = tuple(~(1 << rank) for rank in range(NONE))


# The rules of the latest sheets, by sheet (sheets are immutable; the entry keeps its sheet).
_RULES: dict[int, Rules] = {}


def rules_of(sheet: RuleSheet) -> Rules:
    found = _RULES.get(id(sheet))
    if found is None or found.sheet is not sheet:
        if len(_RULES) >= 64:
            _RULES.clear()
        found = _RULES[id(sheet)] = Rules(sheet)
    return found


class Record:
    """One Palace game, changed in place by each move (``record_moves.play``).

    The fields are the table's (``table.Table``), with cards as ints. A hand is kept by rank:
    ``groups[seat][rank]`` its cards of that rank (a shared ``Group``), ``mask[seat]`` the ranks
    it holds (bit ``1 << rank``), ``count[seat]`` its size (``hand`` gives it as the sorted list).
    The seat's known cards (the table's sorted list of them, P25) are ``known[seat]``, the counts
    of each code the record started with, and ``log[seat]``, what went in (a list: a pile picked
    up) and out (a tuple: cards played) since, in order; ``known_of`` works the counts out (only
    ``to_json`` reads them, so a move appends one entry instead of counting card by card).
    ``up``/``down`` are the three slots (None: empty), ``stock`` is top LAST (drawing is a pop),
    ``pile`` bottom first, ``opening`` the rank of P5's ``left_plays_lowest``. Kept up to date
    besides: ``active`` (the rank the next card must match, ``NONE``: anything), ``run_rank`` and
    ``run_len`` (the rank on top of the pile and how many of it lie there in a row, P16), ``left``
    (each seat's table cards), ``unready`` (the seats not ready, in the swap phase: ``to_act``'s
    list), ``nexts`` (the seat after each, P6), ``alone`` (only the seat on turn
    may move: the play phase of a sheet without out-of-turn moves), ``fast`` (``alone`` with no
    decision owed, no opening rank and no P23 check, the stock being out: the seat on turn's
    listing is its plays from the hand and the way out, ``settle``) and ``was`` (``idle`` before
    the move being made: a move counts as idle until it makes progress for the stalemate rule,
    draws from the stock, burns cards, plays a table card or goes out). ``fitmask``, ``after``,
    ``quiet``, ``stalemate``, ``voluntary`` and ``draws`` are the sheet's (``Rules``), kept on the
    record for the moves that read them every time.
    """

    __slots__ = (
        "active", "add_cards", "add_seat", "after", "alone", "burned", "count", "decision", "down", "drawn",
        "draws", "fast", "fitmask", "groups", "idle", "known", "left", "log", "mask", "n", "nexts", "opening",
        "out", "phase", "pile", "quiet", "ready", "reason", "rules", "run_len", "run_rank", "stalemate",
        "stock", "turn", "unready", "up", "voluntary", "was",
    )

    rules: Rules
    alone: bool
    fast: bool
    fitmask: list[int]
    after: list[int]
    quiet: list[int]
    stalemate: int
    voluntary: bool
    draws: bool
    n: int
    groups: list[list[Group]]
    mask: list[int]
    count: list[int]
    known: list[list[int]]
    log: list[list[Sequence[int]]]
    up: list[list[int | None]]
    down: list[list[int | None]]
    left: list[int]
    ready: list[bool]
    unready: list[int]
    stock: list[int]
    pile: list[int]
    burned: list[int]
    phase: str
    turn: int
    decision: str | None
    drawn: int | None
    add_seat: int | None
    add_cards: list[int]
    out: list[int]
    nexts: list[int]
    idle: int
    reason: str | None
    opening: int | None
    active: int
    run_rank: int
    run_len: int
    was: int

    def hand(self, seat: int) -> list[int]:
        """The seat's hand, sorted (the contract's hand order)."""
        groups = self.groups[seat]
        return [c for rank in BITS[self.mask[seat]] for c in groups[rank].cards]

    def give(self, seat: int, cards: Sequence[int]) -> None:
        """Cards into the seat's hand."""
        groups = self.groups[seat]
        mask = self.mask[seat]
        for c in cards:
            rank = c >> 2
            g = groups[rank]
            groups[rank] = g.plus[c] or g.add(c)
            if not g.cards:
                mask |= BIT[c]
        self.mask[seat] = mask
        self.count[seat] += len(cards)

    def take(self, seat: int, cards: Sequence[int]) -> None:
        """Cards out of the seat's hand (and out of its known cards: a known twin goes first, P25)."""
        groups = self.groups[seat]
        for c in cards:
            rank = c >> 2
            g = groups[rank] = groups[rank].drop(c)
            if not g.cards:
                self.mask[seat] &= OFF[rank]
        self.log[seat].append(tuple(cards))
        self.count[seat] -= len(cards)

    def known_of(self, seat: int) -> list[int]:
        """The seat's known cards now, as counts per code (P25): what it started with, plus each pile
        it picked up, less each card it played (a known twin first, ``moves.without``); the log is
        folded into the counts."""
        known = self.known[seat]
        for cards in self.log[seat]:
            if type(cards) is list:
                for c in cards:
                    known[c] += 1
            else:
                for c in cards:
                    if known[c]:
                        known[c] -= 1
        self.log[seat] = []
        return known

    def to_json(self) -> dict[str, Any]:
        """The JSON form of the table this record stands for (``Table.to_json``)."""

        def cards(xs: list[int]) -> list[str]:
            return [CARD[c] for c in xs]

        def slots(xs: list[int | None]) -> list[str | None]:
            return [None if c is None else CARD[c] for c in xs]

        return {
            "sheet": self.rules.sheet.model_dump(),
            "players": [
                {"hand": cards(self.hand(s)), "face_up": slots(self.up[s]), "face_down": slots(self.down[s]),
                 "known": [CARD[c] for c, k in enumerate(self.known_of(s)) for _ in range(k)],
                 "ready": self.ready[s]}
                for s in range(self.n)
            ],
            "stock": cards(self.stock[::-1]),
            "pile": cards(self.pile),
            "burned": cards(self.burned),
            "phase": self.phase,
            "turn": self.turn,
            "decision": self.decision,
            "drawn": None if self.drawn is None else CARD[self.drawn],
            "add_seat": self.add_seat,
            "add_cards": cards(self.add_cards),
            "out": list(self.out),
            "idle": self.idle,
            "reason": self.reason,
            "opening_rank": None if self.opening is None else RANK_OF[self.opening],
        }

    def table(self) -> Table:
        """The contract's table of this record (for tests and the outcome; never on the hot path)."""
        return Table.from_json(self.to_json())


def nexts(n: int, out: list[int]) -> list[int]:
    """The next seat clockwise still in play after each seat (P6; ``moves.next_active``)."""
    found = []
    for seat in range(n):
        after = seat
        for k in range(1, n + 1):
            if (seat + k) % n not in out:
                after = (seat + k) % n
                break
        found.append(after)
    return found


def from_table(t: Table) -> Record:
    """A record of the table ``t`` (copied: the table stays as it was)."""
    r = Record()
    r.rules = rules_of(t.sheet)
    r.n = len(t.players)
    r.groups = [list(EMPTY) for _ in t.players]
    r.mask = [0] * r.n
    r.count = [0] * r.n
    r.known = [[0] * len(CARD) for _ in t.players]
    r.log = [[] for _ in t.players]
    for s, p in enumerate(t.players):
        for code in p.known:
            r.known[s][CODE[code]] += 1
    for s, p in enumerate(t.players):
        r.give(s, [CODE[c] for c in p.hand])
    r.up = [[None if c is None else CODE[c] for c in p.face_up] for p in t.players]
    r.down = [[None if c is None else CODE[c] for c in p.face_down] for p in t.players]
    r.left = [p.table_count() for p in t.players]
    r.ready = [p.ready for p in t.players]
    r.unready = [s for s in range(r.n) if not r.ready[s]]
    r.stock = [CODE[c] for c in reversed(t.stock)]
    r.pile = [CODE[c] for c in t.pile]
    r.burned = [CODE[c] for c in t.burned]
    r.phase, r.turn, r.decision, r.idle, r.reason = t.phase, t.turn, t.decision, t.idle, t.reason
    r.alone = t.phase == "play" and not r.rules.out_of_turn
    r.drawn = None if t.drawn is None else CODE[t.drawn]
    r.add_seat = t.add_seat
    r.add_cards = [CODE[c] for c in t.add_cards]
    r.out = list(t.out)
    r.nexts = nexts(r.n, r.out)
    r.opening = None if t.opening_rank is None else RANK[t.opening_rank]
    active = active_card(t.sheet, t.pile)
    r.active = NONE if active is None else RANK[active[0]]
    rank, count = top_run(t.pile)
    r.run_rank = -1 if rank is None else RANK[rank]
    r.run_len = count
    r.was = r.idle
    rules = r.rules
    r.fitmask, r.after, r.quiet, r.stalemate = rules.fitmask, rules.after, rules.quiet, rules.stalemate
    r.voluntary, r.draws = rules.voluntary, rules.draws
    settle(r)
    return r


def settle(r: Record) -> None:
    """Whether the seat on turn's listing and move take the short way (``Record.fast``): worked out
    again after every move that may change it (the slow moves, and the plays that refill, burn,
    leave a 10 or go out)."""
    r.fast = (r.alone and r.decision is None and r.opening is None
              and not (r.rules.no_out and not r.stock))  # P23 is checked only when the stock is out
