"""The Texas Hold'em bot.

"good":
- before the flop: hands ranked by the Chen formula; it opens tighter the more players are left
  to act behind it, three-bets its best hands, calls raises in proportion to its stack, and with a
  short stack (12 big blinds or less) it only moves all in or folds;
- after the flop: its equity by Monte Carlo against the hands still in (each opponent's hand drawn
  from a range: tighter for a player who put more in before the flop), ranked with the project's
  evaluator (``app.games.holdem.evaluator``, H18); it bets and raises for value with a strong
  equity (about two thirds of the pot, all in when that is most of its stack), calls when its
  equity beats the pot odds, and checks or folds otherwise;
- never stalls: whatever else it is offered (straddles, showing, rebuys) it answers at once.

Memory (the betting line of the hand, from the seat's events): who raised before the flop and who
bet or raised on each street. "good" continuation-bets the flop as the last raiser before it, and
reads an opponent's range tighter for every bet or raise he made in the hand.

Heads-up it raises or folds from the small blind (never limps) and defends its big blind against a
single raise with any reasonable hand, the price being a third of the pot or better.

"strong": as "good", but the equity after the flop is measured with many more samples against
ranges narrowed street by street from each opponent's line (``STRONG_SAMPLES``), and it bets
thinner for value and bluffs the rivers where a check-check line says nobody holds much.

"easy": plays its hand as it looks: calls with a pair or two high cards, raises the very best,
after the flop calls with any pair and bets two pair or better, and otherwise checks or folds.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from app.bots.memory import Memory
from app.games.holdem.evaluator import strength, strength7

Action = dict[str, Any]

RANKS = "23456789TJQKA"
DECK: tuple[str, ...] = tuple(r + s for r in RANKS for s in "cdhs")
SAMPLES = 200
STRONG_SAMPLES = 2500
REDRAWS = 3
SHORT_STACK_BB = 12


def choose(view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random, level: str,
           memory: Memory = ()) -> Action:
    kinds = {a["type"]: a for a in legal}
    betting = {"fold", "check", "call", "bet", "raise", "all_in"} & kinds.keys()
    if not betting:
        return _other(legal, kinds)
    table = _Table(view, kinds, memory)
    if level == "easy":
        return _easy(table, kinds)
    if not table.board:
        return _preflop(table, kinds)
    return _postflop(table, kinds, rng, level == "strong")


def declines(view: Mapping[str, Any], legal: Sequence[Action], level: str, memory: Memory = ()) -> bool:
    """Hold'em offers no out-of-turn move among the legal ones; a bot never lets one go."""
    return False


def _other(legal: Sequence[Action], kinds: Mapping[str, Action]) -> Action:
    if "no_straddle" in kinds:
        return {"type": "no_straddle"}
    if "muck" in kinds:
        return {"type": "muck"}
    if "rebuy" in kinds or "top_up" in kinds:
        offer = kinds.get("rebuy") or kinds["top_up"]
        return {"type": offer["type"], "amount": offer["max"]}
    first = dict(legal[0])
    if "min" in first:
        low = first.pop("min")
        first.pop("max", None)
        first["amount"] = low
    return first


# -- reading the view ----------------------------------------------------------------------


class _Table:
    """The numbers a decision needs, read from the seat's view."""

    def __init__(self, view: Mapping[str, Any], kinds: Mapping[str, Action], memory: Memory = ()) -> None:
        self.seat = int(view["seat"])
        # The betting line: aggressive actions per seat, and the last raiser before the flop.
        self.aggression: dict[int, int] = {}
        self.preflop_raiser: int | None = None
        self.street_bets: dict[int, int] = {}
        flop_seen = False
        for event in memory:
            kind = event.get("type")
            if kind == "board":
                flop_seen = True
                self.street_bets = {}
            elif kind in ("bet", "raise") and isinstance(event.get("seat"), int):
                who = int(event["seat"])
                self.aggression[who] = self.aggression.get(who, 0) + 1
                self.street_bets[who] = self.street_bets.get(who, 0) + 1
                if not flop_seen:
                    self.preflop_raiser = who
        players = view["players"]
        me = players[self.seat]
        hand = view.get("hand") or {}
        self.holes: list[str] = list(me.get("cards") or [])
        self.board: list[str] = list(hand.get("board") or [])
        self.bb = max(1, int(view["blinds"]["big_blind"]))
        self.stack = int(me["stack"])
        self.bet = int(me.get("bet", 0))
        self.current = int(hand.get("current_bet", 0))
        self.to_call = max(0, self.current - self.bet)
        self.pot = sum(int(p.get("committed", 0)) for p in players if p.get("in_hand"))
        live = [p for p in players if p.get("in_hand") and not p.get("folded")]
        self.opponents = [p for p in live if int(p["seat"]) != self.seat]
        # Those who can still act behind this seat in the round (not all in).
        seats = len(players)
        button = int(hand.get("button") or 0)
        order = [(button + 1 + i) % seats for i in range(seats)]
        if not self.board:  # before the flop the blinds act last
            bb_seat = hand.get("big_blind")
            if isinstance(bb_seat, int) and bb_seat in order:
                cut = order.index(bb_seat) + 1
                order = order[cut:] + order[:cut]
        by_seat = {int(p["seat"]): p for p in live}
        mine = order.index(self.seat) if self.seat in order else 0
        self.behind = sum(1 for s in order[mine + 1 :] if s in by_seat and not by_seat[s].get("all_in"))
        effective = max((int(p["stack"]) + int(p.get("bet", 0)) for p in self.opponents), default=0)
        self.effective_bb = min(self.stack + self.bet, effective) / self.bb
        self.kinds = kinds

    def raise_to(self, to: int) -> Action | None:
        """A bet or raise to ``to`` (clamped to what is allowed), all in when that is most of the stack."""
        offer = self.kinds.get("raise") or self.kinds.get("bet")
        top = self.bet + self.stack
        if offer is None:
            return self.all_in() if "all_in" in self.kinds and to >= top * 0.6 else None
        to = max(int(offer["min"]), min(int(offer["max"]), to))
        if to >= top * 0.6 and "all_in" in self.kinds:
            return self.all_in()
        return {"type": offer["type"], "to": to}

    def all_in(self) -> Action:
        return dict(self.kinds["all_in"])

    def call(self) -> Action:
        if "call" in self.kinds:
            return dict(self.kinds["call"])
        if "check" in self.kinds:
            return {"type": "check"}
        return self.all_in()

    def fold(self) -> Action:
        return {"type": "check"} if "check" in self.kinds else {"type": "fold"}


# -- before the flop -----------------------------------------------------------------------


def chen(holes: Sequence[str]) -> int:
    """The Chen formula's score of two hole cards (-1 to 20)."""
    a, b = sorted(holes, key=lambda c: RANKS.index(c[0]), reverse=True)
    high = {"A": 10.0, "K": 8.0, "Q": 7.0, "J": 6.0}.get(a[0], (RANKS.index(a[0]) + 2) / 2)
    if a[0] == b[0]:
        return math.ceil(max(5.0, high * 2))
    score = high
    if a[1] == b[1]:
        score += 2
    gap = RANKS.index(a[0]) - RANKS.index(b[0]) - 1
    score -= {0: 0, 1: 1, 2: 2, 3: 4}.get(gap, 5)
    if gap <= 1 and RANKS.index(a[0]) < RANKS.index("Q"):
        score += 1
    return math.ceil(score)


def _preflop(t: _Table, kinds: Mapping[str, Action]) -> Action:
    score = chen(t.holes)
    heads_up = len(t.opponents) == 1
    raised = t.current > t.bb
    if t.effective_bb <= SHORT_STACK_BB:
        shove = (5 if heads_up else 7) + (2 if raised else 0) + (t.effective_bb > 8)
        if score >= shove and "all_in" in kinds:
            return t.all_in()
        if score >= shove:
            return t.call()
        return t.fold()
    if not raised:
        if heads_up and t.to_call > 0:
            # The small blind heads-up: raise or fold, never limp (a limp shows a weak hand).
            if score >= 3:
                return t.raise_to(t.current + 2 * t.bb + t.to_call // 2) or t.call()
            return t.fold()
        open_at = 5 if heads_up else min(10, 5 + t.behind)
        if score >= open_at:
            return t.raise_to(t.current + 2 * t.bb + t.to_call) or t.call()
        if t.to_call == 0:
            return {"type": "check"}
        return t.fold()
    # Facing a raise: three-bet the best, call with the good ones when it is cheap for the stack.
    share = t.to_call / max(1, t.stack)
    if score >= (10 if heads_up else 11):
        return t.raise_to(t.current * 3) or t.call()
    if share > 0.35:
        return t.call() if score >= (9 if heads_up else 10) else t.fold()
    price = t.to_call / max(1, t.pot + t.to_call)
    single = t.current <= 4 * t.bb
    if t.bet > 0 and single and price <= 0.34 and score >= (4 if heads_up else 6):
        # Defending a blind: the chips already in make most hands worth a look at the flop.
        return t.call()
    if score >= (6 if heads_up else 8) and share <= 0.15:
        return t.call()
    return t.fold()


# -- after the flop ------------------------------------------------------------------------

CHEN: dict[tuple[str, str], int] = {(a, b): chen((a, b)) for a in DECK for b in DECK if a != b}


def _range_floor(player: Mapping[str, Any], bb: int, aggression: int = 0) -> int:
    """The weakest Chen score a player who put in this much before the flop, and bet or raised
    ``aggression`` times in the hand, is likely to hold."""
    committed = int(player.get("committed", 0))
    floor = 0
    if committed > 4 * bb:
        floor = 8
    elif committed > bb:
        floor = 5
    return min(12, floor + 2 * max(0, aggression - 1))


def equity(holes: Sequence[str], board: Sequence[str], floors: Sequence[int], rng: random.Random,
           samples: int = SAMPLES) -> float:
    """Share of the pot these holes win against opponents whose hands score at least ``floors``.

    Each sample draws the missing board cards and, for each opponent, a hand from the rest:
    a hand below the opponent's floor is redrawn (up to ``REDRAWS`` times), so ranges are tilted
    towards what a player who put chips in tends to hold, without excluding anything.
    """
    known = set(holes) | set(board)
    deck = [c for c in DECK if c not in known]
    missing = 5 - len(board)
    # Redraws need spare cards: fewer of them at a full table.
    redraws = max(0, min(REDRAWS, (len(deck) - missing) // (2 * max(1, len(floors))) - 1))
    need = missing + 2 * len(floors) * (1 + redraws)
    mine_a, mine_b = holes
    won = 0.0
    for _ in range(samples):
        drawn = rng.sample(deck, need)
        full = [*board, *drawn[:missing]]
        pos = missing
        mine = strength7(mine_a, mine_b, *full)
        best = 10**6
        ties = 0
        for floor in floors:
            a, b = drawn[pos], drawn[pos + 1]
            pos += 2
            for _redraw in range(redraws):
                if not floor or CHEN[a, b] >= floor:
                    break
                a, b = drawn[pos], drawn[pos + 1]
                pos += 2
            theirs = strength7(a, b, *full)
            if theirs < best:
                best, ties = theirs, 0
            if theirs == mine:
                ties += 1
        if mine < best:
            won += 1
        elif mine == best:
            won += 1 / (1 + ties)
    return won / samples


def _postflop(t: _Table, kinds: Mapping[str, Action], rng: random.Random, strong: bool = False) -> Action:
    floors = [_range_floor(p, t.bb, t.aggression.get(int(p["seat"]), 0)) for p in t.opponents]
    eq = equity(t.holes, t.board, floors, rng, STRONG_SAMPLES if strong else SAMPLES)
    pot = max(t.pot, t.bb)
    heads_up = len(t.opponents) == 1
    if t.to_call == 0:
        value = 0.62 if not strong else (0.58 if heads_up else 0.62)
        if eq >= value or (eq >= 0.5 and heads_up and len(t.board) < 5):
            size = int(pot * (0.75 if eq >= 0.75 else 0.5))
            return t.raise_to(t.current + max(size, t.bb)) or {"type": "check"}
        if (t.preflop_raiser == t.seat and len(t.board) == 3 and len(t.opponents) <= 2
                and (heads_up or eq >= 0.3 or rng.random() < 0.5)):
            # The continuation bet: the raiser before the flop represents the strong hand.
            return t.raise_to(t.current + max(pot // 2, t.bb)) or {"type": "check"}
        if strong and heads_up and len(t.board) == 5 and not t.aggression and rng.random() < 0.33:
            # Nobody bet the hand at all: a river bluff takes a pot nobody wants.
            return t.raise_to(t.current + max(pot // 2, t.bb)) or {"type": "check"}
        return {"type": "check"}
    odds = t.to_call / (pot + t.to_call)
    if eq >= 0.78:
        size = int((pot + t.to_call) * 0.75)
        return t.raise_to(t.current + t.to_call + size) or t.call()
    if eq >= odds + 0.04:
        return t.call()
    return t.fold()


# -- the easy bot --------------------------------------------------------------------------


def _made(holes: Sequence[str], board: Sequence[str]) -> int:
    """0 nothing, 1 a pair that uses a hole card, 2 two pair or better."""
    rank = strength([*holes, *board])
    if rank <= 3325:
        return 2
    if rank <= 6185 and any(h[0] == c[0] for h in holes for c in [*board, *holes] if h is not c):
        return 1
    return 0


def _easy(t: _Table, kinds: Mapping[str, Action]) -> Action:
    if not t.board:
        score = chen(t.holes)
        if score >= 11:
            return t.raise_to(t.current * 3) or t.call()
        pair = t.holes[0][0] == t.holes[1][0]
        high = all(c[0] in "TJQKA" for c in t.holes)
        if (pair or high or score >= 6) and t.to_call <= max(t.stack // 5, t.bb):
            return t.call()
        return t.fold()
    made = _made(t.holes, t.board)
    if made == 2:
        return t.raise_to(t.current + max(t.pot // 2, t.bb)) or t.call()
    if made == 1 and t.to_call <= max(t.pot, t.bb):
        return t.call()
    return t.fold()


def table_move(view: Mapping[str, Any], offered: Sequence[Action]) -> Action | None:
    """A bot's move outside the turn order: take its seat (a default buy-in), rebuy when broke."""
    kinds = {a["type"]: a for a in offered}
    seat = view.get("seat")
    if "join" in kinds and isinstance(seat, int):
        return {"type": "join", "seat": seat}
    players = view.get("players") or []
    me = players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else {}
    broke = me.get("occupied") and int(me.get("stack", 0)) == 0 and not int(me.get("pending_chips", 0))
    offer = kinds.get("rebuy")
    if broke and offer is not None and not me.get("in_hand"):
        return {"type": "rebuy", "amount": int(offer["max"])}
    return None
