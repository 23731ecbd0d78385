"""Determinized playouts of a Palace game, for the "strong" bot (P7–P22).

``choose`` deals the cards the seat cannot see at random, consistent with what it has seen (its
hand, every face-up card, the pile, the cards it knows another player picked up, and the cards
burned so far, from its memory), plays the game on from each legal move with a quick greedy policy
for every seat, and keeps the move whose playouts leave it best placed: not the last one holding
cards (P22), and holding fewer cards than the others where a playout is cut short.

The simulator plays the et base rules (P12 a 2 resets, P13 an 8 is transparent, P14 after a 7 the
next is a 7 or lower, P15 a 10 burns and its player goes again, P16 four of a kind burn, P8 refill
to three, P18–P21 the table cards); on sheets that differ it is an approximation, which only adds
noise to its estimate. The swap phase, the draws of P9 and out-of-turn moves are left to "good".
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.bots import palace_policy as good
from app.bots.memory import Memory

Action = dict[str, Any]

ORDER = "3456789TJQKA"
VALUE: dict[str, int] = {r: i for i, r in enumerate(ORDER)}
VALUE["2"] = -1
VALUE["X"] = -1
SAMPLES = 24
# The head start of the good policy's own move, times the square root of the samples (a score
# runs from -1 to 1 a sample, and its noise grows with that root).
PRIOR = 0.5
DEPTH = 120
SEARCHED = frozenset({"play", "play_face_up", "pick_up"})


@dataclass
class Seat:
    hand: list[str]
    up: list[str]
    down: list[str]


class Sim:
    """One determinization: every card known. Ranks only (suits never matter, P2)."""

    def __init__(self, seats: list[Seat], pile: list[str], stock: list[str], turn: int,
                 out: list[int], rules: good.Rules) -> None:
        self.seats, self.pile, self.stock, self.turn, self.out = seats, pile, stock, turn, out
        self.rules = rules
        self.low = rules.low

    def copy(self) -> Sim:
        return Sim([Seat(list(s.hand), list(s.up), list(s.down)) for s in self.seats], list(self.pile),
                   list(self.stock), self.turn, list(self.out), self.rules)

    def active(self) -> str | None:
        clear = self.rules.eights_clear
        for rank in reversed(self.pile):
            if rank == "8" and clear:
                continue
            if rank in "2X":
                return None
            return rank
        return None

    def fits(self, rank: str) -> bool:
        if rank in "2X" or (rank == "8" and self.rules.eights_clear):
            return True
        if rank == "T" and self.rules.ten_anything:
            return True
        active = self.active()
        if active is None:
            return True
        if active == self.low:
            return VALUE[rank] <= VALUE[active] and rank != "T"
        return VALUE[rank] >= VALUE[active]

    def zone(self, seat: int) -> list[str]:
        s = self.seats[seat]
        return s.hand if s.hand else s.up

    def left(self, seat: int) -> int:
        s = self.seats[seat]
        return len(s.hand) + len(s.up) + len(s.down)

    def next_turn(self) -> None:
        n = len(self.seats)
        for step in range(1, n + 1):
            seat = (self.turn + step) % n
            if seat not in self.out:
                self.turn = seat
                return

    def play(self, seat: int, ranks: list[str], from_zone: list[str]) -> None:
        for rank in ranks:
            from_zone.remove(rank)
        self.pile.extend(ranks)
        self._after_play(seat, ranks[0])

    def _after_play(self, seat: int, rank: str) -> None:
        s = self.seats[seat]
        while self.stock and len(s.hand) < 3:
            s.hand.append(self.stock.pop())
        burn = rank == "T" or (len(self.pile) >= 4 and len(set(self.pile[-4:])) == 1 and rank != "X")
        if burn:
            self.pile = []
        if self.left(seat) == 0:
            self.out.append(seat)
            self.next_turn()
        elif not burn:
            self.next_turn()

    def pick_up(self, seat: int) -> None:
        self.seats[seat].hand.extend(self.pile)
        self.pile = []
        self.next_turn()

    def blind(self, seat: int) -> None:
        s = self.seats[seat]
        rank = s.down.pop()
        if self.fits(rank):
            self.pile.append(rank)
            self._after_play(seat, rank)
        else:
            s.hand.extend(self.pile)
            s.hand.append(rank)
            self.pile = []
            self.next_turn()

    def greedy(self, seat: int) -> None:
        """The quick policy: the lowest ordinary rank that fits (all of it), a 10 on a big pile,
        a special when nothing else fits, else pick up; blind cards when only those are left."""
        s = self.seats[seat]
        zone = self.zone(seat)
        if not zone:
            self.blind(seat)
            return
        fitting = {r for r in zone if self.fits(r)}
        if not fitting:
            self.pick_up(seat)
            return
        specials = "2TX8" if self.rules.eights_clear else "2TX"
        plain = [r for r in fitting if r not in specials]
        if "T" in fitting and (len(self.pile) >= 5 or not plain):
            rank = "T"
        elif plain:
            rank = min(plain, key=VALUE.__getitem__)
        else:
            rank = min(fitting, key=lambda r: "8T2X".index(r) if r in "8T2X" else -1)
        count = zone.count(rank) if zone is s.hand else 1
        self.play(seat, [rank] * count, zone)

    def finished(self) -> bool:
        return len(self.out) >= len(self.seats) - 1


def _deck(total: int, jokers: int) -> Counter[str]:
    """The ranks in play: one or two 52-card decks (or 36 cards, 6–A) and the jokers (P2)."""
    ranks = "23456789TJQKA" if total - jokers > 36 else "6789TJQKA"
    decks = 2 if total - jokers > 54 else 1
    suits = 4 * decks
    deck: Counter[str] = Counter({r: suits for r in ranks})
    if jokers:
        deck["X"] = jokers
    return deck


def _table(view: Mapping[str, Any], memory: Memory, rng: random.Random, rules: good.Rules) -> Sim | None:
    players = view.get("players") or []
    me = int(view["you"])
    hand = [str(c)[0] for c in view.get("hand") or []]
    pile = [str(c)[0] for c in view.get("pile") or []]
    burned: list[str] = []
    for event in memory:
        if event.get("type") == "burned":
            burned.extend(str(c)[0] for c in event.get("cards") or [])
    seen: Counter[str] = Counter(hand) + Counter(pile) + Counter(burned)
    slots: list[tuple[int, str, int]] = []  # (seat, zone, how many unknown)
    seats: list[Seat] = []
    for index, p in enumerate(players):
        up = [str(c)[0] for c in p.get("face_up") or [] if c]
        seen += Counter(up)
        known = [str(c)[0] for c in p.get("known_hand") or []] if index != me else []
        seen += Counter(known)
        size = int(p.get("hand_size") or 0)
        seat = Seat(hand if index == me else list(known), up, [])
        seats.append(seat)
        if index != me:
            slots.append((index, "hand", max(0, size - len(known))))
        slots.append((index, "down", int(p.get("face_down_count") or 0)))
    stock = int(view.get("stock") or 0)
    unknown_slots = sum(n for _, _, n in slots) + stock
    total = sum(seen.values()) + unknown_slots + int(view.get("burned") or 0) - len(burned)
    jokers = seen.get("X", 0)
    pool = list((_deck(total, jokers) - seen).elements())
    rng.shuffle(pool)
    while len(pool) < unknown_slots:  # a sheet the simulator does not know: fill in at random
        pool.append(rng.choice(ORDER))
    for index, zone, count in slots:
        cards, pool = pool[:count], pool[count:]
        (seats[index].hand if zone == "hand" else seats[index].down).extend(cards)
    out = [int(s) for s in view.get("out") or []]
    return Sim(seats, pile, pool[:stock], int(view.get("turn", me)), out, rules)


def _apply(sim: Sim, me: int, view: Mapping[str, Any], action: Action) -> None:
    if action["type"] == "pick_up":
        sim.pick_up(me)
        return
    ranks = [str(c)[0] for c in good._cards_of(view, action)]
    zone = sim.seats[me].hand if action["type"] == "play" else sim.seats[me].up
    if any(r not in zone for r in ranks):
        zone = sim.seats[me].hand
    sim.play(me, ranks, zone)


def _score(sim: Sim, me: int) -> float:
    """Higher is better: out early, never the last; cut short: fewer cards than the others."""
    n = len(sim.seats)
    if me in sim.out:
        return 1.0 - sim.out.index(me) / n
    if sim.finished():
        return -1.0
    others = [sim.left(s) for s in range(n) if s != me and s not in sim.out]
    mine = sim.left(me)
    return max(-0.9, min(0.9, (sum(others) / max(1, len(others)) - mine) / 12))


def _key(view: Mapping[str, Any], action: Action) -> tuple[str, str, int]:
    ranks = [str(c)[0] for c in good._cards_of(view, action)]
    return (action["type"], ranks[0] if ranks else "", len(ranks))


def choose(view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random, memory: Memory = (),
           samples: int = SAMPLES) -> Action:
    candidates = [a for a in legal if a["type"] in SEARCHED]
    others = {a["type"] for a in legal} - SEARCHED - {"draw"}  # P9's draw: left to the policy
    if (view.get("phase") != "play" or others or len(candidates) < 2
            or view.get("turn") != view.get("you")):
        return good.good_move(view, legal, rng, memory)
    # One play per rank and zone: all the cards of a rank together, as the good bot plays them.
    distinct: dict[tuple[str, str], Action] = {}
    for action in candidates:
        kind, rank, count = _key(view, action)
        if (kind, rank) not in distinct or count > _key(view, distinct[kind, rank])[2]:
            distinct[kind, rank] = action
    options = list(distinct.values())
    if len(options) < 2:
        return good.good_move(view, legal, rng, memory) if len(candidates) > 1 else options[0]
    me = int(view["you"])
    rules = good.read_rules(view, legal, memory)
    # The policy's own move starts ahead: the playouts must find a clear gain to overrule it, so a
    # handful of samples does not trade sense for noise.
    prior = good.good_move(view, legal, rng, memory)
    specials = ("2", "X", "T", "8") if rules.eights_clear else ("2", "X", "T")
    if _key(view, prior)[1] not in (*specials, ""):
        # While an ordinary card fits, a special one (a reset, a burn) is kept for when none does,
        # whatever a few playouts say: they are too few to price a card held for later.
        options = [a for a in options if _key(view, a)[1] not in specials] or options
    start = PRIOR * math.sqrt(samples)
    totals = [start if _key(view, a) == _key(view, prior) else 0.0 for a in options]
    for _ in range(samples):
        base = _table(view, memory, rng, rules)
        if base is None:
            break
        for index, action in enumerate(options):
            sim = base.copy()
            _apply(sim, me, view, action)
            for _ply in range(DEPTH):
                if sim.finished() or me in sim.out:
                    break
                sim.greedy(sim.turn)
            totals[index] += _score(sim, me)
    best = options[max(range(len(options)), key=lambda i: (totals[i], -i))]
    if best["type"] == "pick_up" and {"type": "draw"} in legal:
        return {"type": "draw"}  # P9: a card from the stock may still fit; the pile comes after
    return best
