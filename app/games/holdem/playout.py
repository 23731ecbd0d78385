"""The playout path of Hold'em: one hand on a changeable record, for replays and searching bots.

A replay or a bot's playout plays many hands and needs neither events, views nor a new state per
move. ``Playout`` is one hand of the same rules as the game contract (blinds and antes H5–H6,
dealing H10, betting H11–H17, pots and odd chips H2, H20, H21, the showdown's winners H3, H18,
H19) kept in plain per-seat lists that each move changes in place. Every game's playout path has
the same surface (``palace.playout``, ``thousand.playout``)::

    p = playout.start(game_state)          # the hand in play, copied; the game's state stays untouched
    while not playout.over(p, game_state):
        seat = playout.to_act(p)[0]
        p = playout.play(p, seat, choose(playout.legal(p, seat)))

and, for a hand from its cards (a replay, a bot's deal), ``deal(sheet, stacks, button, deck)``
(the first hand of ``HOLDEM.new`` with the same arguments) and the quick move ``p.move(kind, to)``.

The decisions that do not change the betting take their quiet choice, as ``timeout_action`` does:
no straddle (H7), the board run once, and at the showdown cards speak (H19: a hand that can win
is shown; the pots go as the auto showdown gives them). Unlike the palace and thousand paths a
move is checked (``IllegalAction`` with the contract's codes), which costs little here and lets a
replay of a recorded hand prove it legal. ``tests/games/holdem/test_playout.py`` plays random
hands of every betting structure along both paths and compares them after every move.

A ``Playout`` holds every seat's hole cards and the deck. ``start(state)`` copies them from the
state it is given, so a bot starts it from a state whose hidden cards it dealt itself at random
(determinized from its own view and memory), never from the room's state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import IllegalAction
from app.games.holdem.betting import LARGEST, SMALLEST
from app.games.holdem.common import RINGS, Action, current_level
from app.games.holdem.evaluator import strength7
from app.games.holdem.pots import layers, split
from app.games.holdem.rules import RuleSheet
from app.games.holdem.state import State
from app.games.holdem.table import checked_deck, full_deck

# Why a move is refused: the contract's codes and sentences (``betting.refusal``), so a refusal
# reads the same on both paths and every sentence is already in the catalogues.
_REFUSED = {
    "cannot_fold": "Nothing to call: check instead of folding.",
    "cannot_check": "There are {chips} chips to call; fold, call or raise.",
    "nothing_to_call": "There is nothing to call; check or bet.",
    "bet_not_allowed": "There is already a bet: raise instead.",
    "raise_not_allowed": "Nobody has bet: bet instead.",
    "above_stack": "You have only {top} in all this round (table stakes).",
    "not_your_turn": "It is not your turn.",
    "unknown_action": "Unknown action type; expected one of: {expected}.",
}
_CAPPED = "The betting is capped for this round."
_NOT_REOPENED = "Raising is closed to you: the short all-in did not reopen the betting."


def _refuse(code: str, **params: Any) -> IllegalAction:
    return IllegalAction(code, _REFUSED[code], **params)


class Playout:
    """One hand of hold'em whose moves change it in place (the fields of ``state.Hand`` that decide
    the betting and the pots, and the stacks). Per-seat lists are indexed by seat number."""

    variant: str
    big_blind: int  # the level's: the minimum bet, and fixed limit's small bet (H13)
    raise_cap: int
    uncapped: bool  # fixed limit: no cap heads-up (H16)
    button: int
    opener: int  # preflop the first to act is left of this seat: the big blind or the straddler
    players: list[int]  # seats dealt in, clockwise from the first left of the button
    ring: list[list[int]]  # per seat, the seats clockwise after it (``common.RINGS`` of the table)
    deck: list[str]  # top first; the caller's list, never changed (replaced when completed)
    pos: int  # the next card of the deck
    stacks: list[int]
    holes: list[list[str]]
    folded: list[bool]  # a seat not dealt in counts as folded
    bets: list[int]  # this betting round
    committed: list[int]  # this hand, antes included
    antes: list[int]
    acted: list[int]  # the bet level when the seat last acted this round; -1: not yet
    pending: list[bool]  # must still act this round
    street: int  # 0 preflop .. 3 river
    current: int  # the bet to match
    min_inc: int  # the last full bet or raise of the round (H17)
    full_level: int  # fixed limit: the level after the last full bet or raise
    bet_count: int  # fixed limit: bets and raises this round, for the cap
    capped: bool  # fixed limit: capped multi-way, so heads-up does not lift it
    actor: int  # -1: nobody
    board: list[str]
    over: bool
    awards: list[tuple[int, dict[int, int]]]  # per pot: (amount, chips by seat), once over
    __slots__ = tuple(__annotations__)  # the fields above, and no instance dictionary

    def __init__(self, sheet: RuleSheet, big_blind: int) -> None:
        self.variant = sheet.variant
        self.big_blind = big_blind
        self.raise_cap = sheet.raise_cap
        self.uncapped = sheet.heads_up_uncapped
        self.board = []
        self.street = 0
        self.capped = False
        self.over = False
        self.actor = -1
        self.awards = []

    # -- what the seat to act may do ---------------------------------------------------------

    def options(self, seat: int) -> tuple[int, int, bool, int, int]:
        """(to call, the call, may raise, raise-to minimum, maximum): ``betting.betting_options``."""
        stack = self.stacks[seat]
        mine = self.bets[seat]
        top = mine + stack  # table stakes (H21)
        current = self.current
        to_call = current - mine if current > mine else 0
        call = to_call if to_call < stack else stack
        if stack <= to_call:
            return to_call, call, False, 0, 0
        # No raise nobody could answer: the others are all-in or covered.
        bets, stacks, folded = self.bets, self.stacks, self.folded
        for x in self.players:
            if x != seat and not folded[x] and bets[x] + stacks[x] > current:
                break
        else:
            return to_call, call, False, 0, 0
        acted = self.acted[seat]
        if self.variant == "fixed_limit":
            size = self.big_blind * (2 if self.street >= 2 else 1)  # H13: doubled from the turn
            if (acted >= 0 and self.full_level <= acted) or self._cap_holds():
                return to_call, call, False, 0, 0
            target = self.full_level + size if current > 0 else size
            target = max(target, current + 1)
            target = target if target < top else top
            return to_call, call, True, target, target
        # H17: a short all-in reopens only once the raises since the seat acted make a full one.
        if acted >= 0 and current - acted < self.min_inc:
            return to_call, call, False, 0, 0
        low = current + self.min_inc if current > 0 else max(self.min_inc, 1)
        high = top
        if self.variant == "pot_limit":
            high = min(top, current + sum(self.committed) + to_call)  # H16
        low = low if low < top else top
        high = high if high < top else top
        return to_call, call, True, low, (high if high >= low else low)

    def _cap_holds(self) -> bool:
        """H16, fixed limit: the cap is reached and not lifted heads-up (Robert's Rules 3.4)."""
        if not self.raise_cap or self.bet_count < self.raise_cap:
            return False
        return not self.uncapped or self.capped or self._in_the_betting(-1) > 2

    def _in_the_betting(self, seat: int) -> int:
        folded, stacks = self.folded, self.stacks
        return sum(1 for x in self.players if not folded[x] and (stacks[x] > 0 or x == seat))

    def legal_actions(self) -> list[Action]:
        """The seat to act's moves as the contract lists them (``betting.legal_bets``)."""
        seat = self.actor
        if seat < 0:
            return []
        to_call, call, can_raise, low, high = self.options(seat)
        stack = self.stacks[seat]
        actions: list[Action] = (
            [{"type": "fold"}, {"type": "call", "amount": call}] if to_call > 0 else [{"type": "check"}]
        )
        top = self.bets[seat] + stack
        if can_raise:
            actions.append({"type": "bet" if self.current == 0 else "raise", "min": low, "max": high})
            if high == top:
                actions.append({"type": "all_in", "to": top})
        elif stack <= to_call:
            actions.append({"type": "all_in", "to": top})
        return actions

    # -- moves -----------------------------------------------------------------------------------

    def move(self, kind: str, to: int = 0) -> None:
        """The seat to act folds, checks, calls, bets or raises to ``to`` (its total this round)
        or goes all-in; a move the rules refuse raises ``IllegalAction`` and changes nothing."""
        seat = self.actor
        if seat < 0:
            raise _refuse("not_your_turn")
        current = self.current
        mine = self.bets[seat]
        to_call = current - mine if current > mine else 0
        if kind == "fold":
            if not to_call:
                raise _refuse("cannot_fold")
            self.folded[seat] = True
            self.pending[seat] = False
        elif kind == "check":
            if to_call:
                raise _refuse("cannot_check", chips=to_call)
            self.pending[seat] = False
            self.acted[seat] = current
        elif kind == "call" or (kind == "all_in" and self.stacks[seat] <= to_call):
            if not to_call:
                raise _refuse("nothing_to_call")
            stack = self.stacks[seat]
            pay = to_call if to_call < stack else stack
            self.stacks[seat] = stack - pay
            self.bets[seat] = mine + pay
            self.committed[seat] += pay
            self.pending[seat] = False
            self.acted[seat] = current
        else:
            self._raise(seat, kind, mine + self.stacks[seat] if kind == "all_in" else to)
        self._advance(seat)

    def _raise(self, seat: int, kind: str, to: int) -> None:
        """A bet, a raise or a raising all-in to ``to``, checked (``betting._raise_refusal``)."""
        if kind == "bet" and self.current > 0:
            raise _refuse("bet_not_allowed")
        if kind == "raise" and self.current == 0:
            raise _refuse("raise_not_allowed")
        if kind not in ("bet", "raise", "all_in"):
            raise _refuse("unknown_action", expected="fold, check, call, bet, raise, all_in")
        _, _, can_raise, low, high = self.options(seat)
        top = self.bets[seat] + self.stacks[seat]
        if not can_raise:
            raise IllegalAction("raise_closed", _CAPPED if self.variant == "fixed_limit" else _NOT_REOPENED)
        if to > top:
            raise _refuse("above_stack", top=top)
        if to < low:
            raise IllegalAction("below_minimum", SMALLEST.get(kind, SMALLEST["raise"]), min=low)
        if to > high:
            raise IllegalAction("above_maximum", LARGEST.get(kind, LARGEST["raise"]), max=high)
        pay = to - self.bets[seat]
        self.stacks[seat] -= pay
        self.bets[seat] = to
        self.committed[seat] += pay
        if self.variant == "fixed_limit":
            size = self.big_blind * (2 if self.street >= 2 else 1)
            # A short all-in of at least half a bet counts as a full one (TDA); less only completes.
            if 2 * (to - self.full_level) >= size:
                self.full_level = to
                self.bet_count += 1
                if self.raise_cap and self.bet_count >= self.raise_cap and self._in_the_betting(seat) > 2:
                    self.capped = True  # capped multi-way: a later fold does not lift it (H16)
        elif to - self.current >= self.min_inc:
            self.min_inc = to - self.current  # H17: the next raise is at least this one
        self.current = to
        self.acted[seat] = to
        pending, folded, stacks = self.pending, self.folded, self.stacks
        for x in self.players:
            pending[x] = not folded[x] and stacks[x] > 0
        pending[seat] = False

    def _advance(self, after: int) -> None:
        """The next seat that must act after ``after``, or the end of the round (H15;
        ``engine.advance``)."""
        folded = self.folded
        if folded.count(False) == 1:
            self._uncontested(folded.index(False))
            return
        stacks, pending, players = self.stacks, self.pending, self.players
        for seat in self.ring[after]:
            if pending[seat] and not folded[seat] and stacks[seat]:
                for x in players:
                    if stacks[x] and x != seat and not folded[x]:
                        self.actor = seat  # another player can still bet: a decision to make
                        return
                bets = self.bets
                if bets[seat] < max([bets[x] for x in players if x != seat]):
                    self.actor = seat  # a bet to call, from a player who cannot raise back
                    return
                pending[seat] = False  # nobody to bet against and nothing to call
        self.actor = -1
        self._close_round()

    def _open_round(self) -> None:
        """H11, H12: preflop from the left of the big blind, then from the left of the button."""
        pending, acted, folded, stacks = self.pending, self.acted, self.folded, self.stacks
        for seat in self.players:
            pending[seat] = not folded[seat] and stacks[seat] > 0
            acted[seat] = -1
        self.actor = -1
        self._advance(self.button if self.street else self.opener)

    def _close_round(self) -> None:
        """The next street, the run-out (run once) or the showdown (``engine.close_round``)."""
        self._return_uncalled()
        self.bets = [0] * len(self.stacks)
        self.current = 0
        folded, stacks = self.folded, self.stacks
        live = [x for x in self.players if not folded[x]]
        if self.street < 3 and len([x for x in live if stacks[x]]) >= 2:
            self._next_street()
            self.min_inc = self.big_blind * (2 if self.variant == "fixed_limit" and self.street >= 2 else 1)
            self.full_level = self.bet_count = 0
            self.capped = False
            self._open_round()
            return
        while len(self.board) < 5:
            self._next_street()  # H19: all-in with no betting left, the board is run out
        self._showdown(live)

    def _next_street(self) -> None:
        """Burn one, then the flop's three cards or one (H12–H14)."""
        pos = self.pos + 1
        count = 3 if not self.board else 1
        if pos + count > len(self.deck):
            self.deck = full_deck(self.deck)  # a replay's deck runs out: completed as ``new`` does
        self.board = [*self.board, *self.deck[pos : pos + count]]
        self.pos = pos + count
        self.street += 1

    def _return_uncalled(self) -> None:
        bets = self.bets
        top = max(bets)
        if top == 0 or bets.count(top) != 1:
            return
        seat = bets.index(top)
        back = top - max(bets[:seat] + bets[seat + 1 :])
        self.stacks[seat] += back
        bets[seat] -= back
        self.committed[seat] -= back

    # -- the end of the hand -------------------------------------------------------------------

    def _uncontested(self, winner: int) -> None:
        """H15: everyone else folded; the last player wins without showing."""
        self.actor = -1
        self._return_uncalled()
        amount = sum(self.committed)
        self.stacks[winner] += amount
        self.awards = [(amount, {winner: amount})]
        self.bets = [0] * len(self.stacks)
        self.over = True

    def _showdown(self, live: list[int]) -> None:
        """Each pot to its best live hand (H3, H18), split with odd chips from the button's left
        (H2, H20). Cards speak: a hand the auto showdown mucks could win no pot, so ranking every
        live hand gives the same shares (H19)."""
        a, b, c, d, e = self.board
        holes = self.holes
        rank = {x: strength7(holes[x][0], holes[x][1], a, b, c, d, e) for x in live}
        n = len(self.stacks)
        for amount, eligible in layers(self.players, self.committed, self.antes, self.folded):
            best = min([rank[x] for x in eligible])
            shares = split(amount, [x for x in eligible if rank[x] == best], self.button, n)
            for x, v in shares.items():
                self.stacks[x] += v
            self.awards.append((amount, shares))
        self.over = True


# -- opening a hand ------------------------------------------------------------------------------


def deal(sheet: RuleSheet, stacks: list[int], button: int, deck: list[str], level: int = 0) -> Playout:
    """The first hand of ``HOLDEM.new(sheet, len(stacks), deck=deck, button=button, stacks=stacks)``:
    the players on seats ``0 .. len(stacks) - 1`` of the sheet's table, every one dealt in, the
    blinds left of ``button`` (heads-up the button posts the small blind, H8), antes first (H6),
    then the holes and the betting (no straddle, H7)."""
    count = len(stacks)
    n = sheet.seats
    lv = sheet.level(level)
    p = Playout(sheet, lv.big_blind)
    # The deck as given, checked (``table.full_deck``): a replay gives only the cards it shows,
    # completed in ``cards.deck()`` order when a card beyond them is dealt (``_next_street``).
    checked_deck(deck)
    p.deck = deck if len(deck) >= 2 * count else full_deck(deck)
    p.button = button
    # Clockwise from the left of the button; never changed.
    p.ring = ring = RINGS[n]
    if count == n:
        p.players = players = ring[button]
        p.stacks = list(stacks)
        p.folded = [False] * n
    else:
        p.players = players = [x for x in ring[button] if x < count]
        p.stacks = [*stacks, *[0] * (n - count)]
        p.folded = [x >= count for x in range(n)]  # an empty seat counts as folded (engine.begin_hand)
    p.bets = [0] * n
    p.committed = [0] * n
    p.antes = [0] * n
    p.acted = [-1] * n
    sb, bb = (button, players[0]) if count == 2 else (players[0], players[1])
    if sheet.ante_type == "every_player" and lv.ante:
        for seat in players:
            _post(p, seat, lv.ante, True)
    elif sheet.ante_type == "big_blind" and lv.ante:
        _post(p, bb, lv.ante, True)  # the big blind pays the table's ante before the blind
    _post(p, sb, lv.small_blind, False)
    _post(p, bb, lv.big_blind, False)
    # H5/H17: the bet to match is the full big blind even when the big blind is all-in for less.
    p.current = p.min_inc = p.full_level = lv.big_blind
    p.bet_count = 1
    p.opener = bb  # H11: preflop the seat after the big blind acts first
    p.holes = [[]] * n  # each dealt seat's list replaces the empty one, which is never changed
    p.pos = 0
    _deal_holes(p, sheet.heads_up_deal)
    # The preflop round opens (``_open_round``): a player with chips behind must act; nobody has.
    p.pending = [chips > 0 for chips in p.stacks]
    p._advance(bb)
    return p


def _post(p: Playout, seat: int, amount: int, ante: bool) -> None:
    """An ante or a blind, all-in when short (``blinds.post``)."""
    paid = amount if amount < p.stacks[seat] else p.stacks[seat]
    p.stacks[seat] -= paid
    p.committed[seat] += paid
    if ante:
        p.antes[seat] += paid
    else:
        p.bets[seat] += paid


def start(state: State) -> Playout:
    """The hand in play of a game state, copied into a ``Playout`` (the state stays untouched).

    The hand must be betting, or waiting for UTG's straddle (then declined, H7)."""
    h = state.hand
    if h is None or h.phase not in ("bet", "straddle"):
        raise ValueError("a playout starts from a hand that is betting or offered a straddle")
    p = Playout(state.sheet, current_level(state).big_blind)
    p.deck, p.button, p.players, p.pos = h.deck, h.button, list(h.players), h.pos
    p.ring = RINGS[len(state.stacks)]
    p.stacks, p.holes, p.folded = list(state.stacks), [list(x) for x in h.holes], list(h.folded)
    p.bets, p.committed, p.antes = list(h.bets), list(h.committed), list(h.antes)
    p.acted, p.pending, p.board = list(h.acted), list(h.pending), list(h.board)
    p.street, p.current, p.min_inc, p.capped = h.street, h.current, h.min_inc, h.capped
    p.full_level, p.bet_count, p.actor = h.full_level, h.bet_count, h.actor
    p.opener = h.straddler if h.straddler >= 0 else h.bb
    if h.phase == "straddle":
        _deal_holes(p, state.sheet.heads_up_deal)
        p._open_round()
    return p


def _deal_holes(p: Playout, heads_up_deal: str) -> None:
    """H10: one card at a time, twice around: the k-th player gets cards k and k + players (the
    small blind first; heads-up the button, unless ``big_blind_first``)."""
    players, deck, pos = p.players, p.deck, p.pos
    count = len(players)
    first = 1 if count == 2 and heads_up_deal == "small_blind_first" else 0
    for k, seat in enumerate(players):
        at = pos + (k + first) % count
        p.holes[seat] = [deck[at], deck[at + count]]
    p.pos = pos + 2 * count


# -- the playout surface (``palace.playout``, ``thousand.playout``) -------------------------------


def to_act(p: Playout) -> list[int]:
    return [p.actor] if p.actor >= 0 else []


def legal(p: Playout, seat: int) -> list[Action]:
    return p.legal_actions() if seat == p.actor else []


def play(p: Playout, seat: int, action: Mapping[str, Any]) -> Playout:
    """``p`` after ``seat``'s betting move (checked), changed in place."""
    if seat != p.actor:
        raise _refuse("not_your_turn")
    p.move(action["type"], action.get("to", 0))
    return p


def over(p: Playout | State, first: State) -> bool:
    """Whether the hand in play in ``first`` has ended (its pots shared out), on this path or, for
    a bench or a test running the same playout through the contract, on a contract state."""
    if isinstance(p, Playout):
        return p.over
    return p.hands != first.hands or p.over


__all__ = ["Playout", "deal", "legal", "over", "play", "start", "to_act"]
