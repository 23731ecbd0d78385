"""Determinized playouts of a Palace game, for the "good" and "strong" bots (P7–P22).

``choose`` deals the cards the seat cannot see at random, consistent with what it has seen (its
hand, every face-up card, the pile, the cards it knows another player picked up, and the cards
burned so far, from its memory), plays the game on from each legal move with a quick greedy policy
for every seat, and keeps the move whose playouts leave it best placed: not the last one holding
cards (P22), and holding fewer cards than the others where a playout is cut short.

The playouts run on ``app.bots.palace_sim`` with the rules the seat has read (the low card of P14,
transparent 8s of P13, where a 10 fits, P15; P19 once seen); what it leaves out of a sheet only adds
noise to the estimate. A move budget bounds the moves all the playouts of a decision play (fewer
samples, or shallower playouts, when the seat has many options), so a decision's time is bounded
on any table; "strong" plays each playout to the end of the game instead and stops dealing once the
budget is spent (``whole``). Where a seat must play if it can (P10 off), a seat that picked up
held only cards that did not fit, and the deals say so (``_stuck_hands``).

``choose_face_up`` ("strong") picks the three face-up cards out of six (P3) by whole-game playouts.
The swaps of P4, the draws of P9 and out-of-turn moves are left to "good".
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.bots import palace_policy as good
from app.bots import palace_sim as sim
from app.bots.memory import Memory

Action = dict[str, Any]

SAMPLES = 96
# The head start of the good policy's own move, times the square root of the samples (a score
# runs from -1 to 1 a sample, and its noise grows with that root).
PRIOR = 0.5
DEPTH = 120
# The shallowest playout a move budget cuts a playout to; below it, fewer samples are played.
SHALLOWEST = 24
# A playout of ``choose(whole=True)``: long enough for any game left to end (three players with two
# decks play about 170 moves from the deal).
LONGEST = 400
SEARCHED = frozenset({"play", "play_face_up", "pick_up"})


def _deck(total: int, jokers: int) -> Counter[str]:
    """The ranks in play: one or two 52-card decks (or 36 cards, 6–A) and the jokers (P2)."""
    ranks = "23456789TJQKA" if total - jokers > 36 else "6789TJQKA"
    decks = 2 if total - jokers > 54 else 1
    suits = 4 * decks
    deck: Counter[str] = Counter({r: suits for r in ranks})
    if jokers:
        deck["X"] = jokers
    return deck


@dataclass(frozen=True)
class Known:
    """What the seat knows of the table, once per decision: each seat's known hand, face-up and
    face-down cards as rank codes, the pile, the stock's size and the unseen ranks to deal."""

    hands: list[list[int]]
    up: list[list[int]]
    unknown: list[tuple[int, str, int]]  # (seat, "hand" or "down", how many unknown cards)
    pile: list[int]
    stock: int
    pool: list[int]
    turn: int
    out: list[int]
    table: sim.Table
    # Where a seat must play if it can (P10 off): the ranks each other seat's unseen hand cards can
    # only be, read from its last pick-up (``_stuck_hands``); no entry: any rank.
    stuck: Mapping[int, frozenset[int]] = field(default_factory=dict)


def _stuck_hands(memory: Memory, me: int, table: sim.Table) -> dict[int, frozenset[int]]:
    """Under P10 off a seat picks the pile up only when nothing in its hand fits (P9), so the hand
    cards it held then are ranks that did not fit on that pile; while it draws nothing (P8), its
    unseen hand cards are still those. Two pick-ups with no draw between: both held."""
    stuck: dict[int, frozenset[int]] = {}
    for event in memory:
        kind, seat = event.get("type"), event.get("seat")
        if not isinstance(seat, int) or seat == me:
            continue
        if kind == "drew" and int(event.get("count") or 0) > 0:
            stuck.pop(seat, None)
        elif kind == "picked_up" and event.get("cards"):
            pile = sim.Sim(table, [[0] * sim.SIZE], [[]], [[]], [], 0, [])
            pile.lay([sim.CODE[str(c)[0]] for c in event["cards"] if str(c)[0] in sim.CODE])
            unfit = frozenset(c for c in range(sim.SIZE) if not pile.fits(c))
            stuck[seat] = unfit & stuck.get(seat, unfit)
    return stuck


def _known(view: Mapping[str, Any], memory: Memory, rules: good.Rules, must_play: bool = False) -> Known:
    players = view.get("players") or []
    me = int(view["you"])
    hand = [str(c)[0] for c in view.get("hand") or []]
    pile = [str(c)[0] for c in view.get("pile") or []]
    burned: list[str] = []
    for event in memory:
        if event.get("type") == "burned":
            burned.extend(str(c)[0] for c in event.get("cards") or [])
    seen: Counter[str] = Counter(hand) + Counter(pile) + Counter(burned)
    unknown: list[tuple[int, str, int]] = []
    hands: list[list[int]] = []
    ups: list[list[int]] = []
    for index, p in enumerate(players):
        up = [str(c)[0] for c in p.get("face_up") or [] if c]
        seen += Counter(up)
        known = [str(c)[0] for c in p.get("known_hand") or []] if index != me else []
        seen += Counter(known)
        counts = [0] * sim.SIZE
        for rank in hand if index == me else known:
            counts[sim.CODE[rank]] += 1
        hands.append(counts)
        ups.append([sim.CODE[r] for r in up])
        if index != me:
            unknown.append((index, "hand", max(0, int(p.get("hand_size") or 0) - len(known))))
        unknown.append((index, "down", int(p.get("face_down_count") or 0)))
    stock = int(view.get("stock") or 0)
    slots = sum(n for _, _, n in unknown) + stock
    total = sum(seen.values()) + slots + int(view.get("burned") or 0) - len(burned)
    pool = [sim.CODE[r] for r in sorted((_deck(total, seen.get("X", 0)) - seen).elements())]
    below = any(e.get("type") == "turned_up_below" for e in memory)
    table = sim.Table(sim.CODE[rules.low] if rules.low else sim.NONE, rules.eights_clear,
                      rules.ten_anything, below)
    # Before play starts (the swap phase) nobody is on turn yet: seat 0, the dealer's left, opens (P5, P6).
    turn = view.get("turn")
    stuck = _stuck_hands(memory, me, table) if must_play else {}
    return Known(hands, ups, unknown, [sim.CODE[r] for r in pile], stock, pool,
                 int(turn) if isinstance(turn, int) else 0, [int(s) for s in view.get("out") or []], table,
                 stuck)


def _deal(known: Known, rng: random.Random) -> sim.Sim:
    """One determinization: the unseen cards dealt at random to the unknown places."""
    pool = list(known.pool)
    rng.shuffle(pool)
    needed = sum(n for _, _, n in known.unknown) + known.stock
    while len(pool) < needed:  # a sheet the simulator does not know: fill in at random
        pool.append(rng.randrange(sim.ACE + 1))
    hands = [list(h) for h in known.hands]
    downs: list[list[int]] = [[] for _ in hands]
    unknown = known.unknown
    if known.stuck:
        # The seats that had to pick up get their unseen hand cards among the ranks that did not
        # fit then (P10 off); the rest of the pool goes round as before.
        unknown = []
        for seat, zone, count in known.unknown:
            ranks = known.stuck.get(seat) if zone == "hand" else None
            if ranks is not None and count:
                chosen = [i for i, code in enumerate(pool) if code in ranks][:count]
                for i in reversed(chosen):
                    hands[seat][pool.pop(i)] += 1
                count -= len(chosen)
            unknown.append((seat, zone, count))
    at = 0
    for seat, zone, count in unknown:
        cards = pool[at:at + count]
        at += count
        if zone == "hand":
            for code in cards:
                hands[seat][code] += 1
        else:
            downs[seat].extend(cards)
    table = sim.Sim(known.table, hands, [list(u) for u in known.up], downs, pool[at:at + known.stock],
                    known.turn, list(known.out))
    table.lay(known.pile)
    return table


def _apply(table: sim.Sim, me: int, view: Mapping[str, Any], action: Action) -> None:
    if action["type"] == "pick_up":
        table.pick_up(me)
        return
    codes = [sim.CODE[str(c)[0]] for c in good._cards_of(view, action)]
    code, count = codes[0], len(codes)
    if action["type"] == "play_face_up" and table.up[me].count(code) >= count:
        table.play_up(me, code, count)
    else:
        table.hands[me][code] = max(count, table.hands[me][code])  # the hand is known: a guard only
        table.play_hand(me, code, count)


def _score(table: sim.Sim, me: int) -> float:
    """Higher is better: out early, never the last; cut short: fewer cards than the others."""
    n = table.seats
    if me in table.out:
        return 1.0 - table.out.index(me) / n
    if table.finished():
        return -1.0
    others = [table.left(s) for s in range(n) if s != me and s not in table.out]
    mine = table.left(me)
    return max(-0.9, min(0.9, (sum(others) / max(1, len(others)) - mine) / 12))


def _key(view: Mapping[str, Any], action: Action) -> tuple[str, str, int]:
    ranks = [str(c)[0] for c in good._cards_of(view, action)]
    return (action["type"], ranks[0] if ranks else "", len(ranks))


def _playout(table: sim.Sim, me: int, plies: int) -> tuple[float, int]:
    """The score of one playout of at most ``plies`` moves, and the moves it played."""
    for ply in range(plies):
        if table.finished() or me in table.out:
            return _score(table, me), ply
        table.greedy(table.turn)
    return _score(table, me), plies


def _options(view: Mapping[str, Any], candidates: Sequence[Action]) -> list[Action]:
    """One play per rank and zone: all the cards of a rank together, as the good bot plays them."""
    distinct: dict[tuple[str, str], Action] = {}
    for action in candidates:
        kind, rank, count = _key(view, action)
        if (kind, rank) not in distinct or count > _key(view, distinct[kind, rank])[2]:
            distinct[kind, rank] = action
    return list(distinct.values())


def plies_per_playout(samples: int, options: int, budget: int) -> int:
    """How deep each playout goes so that all of them together play at most ``budget`` moves
    (``DEPTH`` at most, ``SHALLOWEST`` at least: then fewer samples are played, ``samples_within``)."""
    return max(SHALLOWEST, min(DEPTH, budget // max(1, samples * options)))


def samples_within(samples: int, options: int, budget: int) -> int:
    """The samples that fit in ``budget`` moves at ``SHALLOWEST`` moves a playout (one at least)."""
    return max(1, min(samples, budget // max(1, SHALLOWEST * options)))


def _totals(known: Known, me: int, view: Mapping[str, Any], options: Sequence[Action], rng: random.Random,
            samples: int, plies: int, spend: int | None, totals: list[float]) -> tuple[list[float], int]:
    """``totals`` plus each option's playout scores over the same deals, and how many deals were
    played: ``samples`` at most, and with ``spend``, no more once the playouts have played that many
    moves."""
    used = 0
    for played in range(1, samples + 1):
        base = _deal(known, rng)
        for index, action in enumerate(options):
            table = base.copy()
            _apply(table, me, view, action)
            score, moves = _playout(table, me, plies)
            totals[index] += score
            used += moves
        if spend is not None and used >= spend:
            return totals, played
    return totals, samples


def choose(view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random, memory: Memory = (),
           samples: int = SAMPLES, budget: int | None = None, whole: bool = False) -> Action:
    """The move of the most promising playouts; ``budget`` bounds the moves all the playouts of
    this decision play together (None: ``DEPTH`` a playout), which bounds the time it takes
    whatever the table, and the same view, memory, moves and random draws give the same move.

    ``whole``: the playouts run to the end of the game (``LONGEST`` moves at most) rather than
    ``DEPTH`` or fewer, and the samples stop once the budget is spent: where few moves are left
    (the stock gone, P8, and hands mostly known) each deal costs little, and where many are, fewer
    deals played to the end beat more cut short, whose card count says little about who is last
    (P22) while a stock of two decks (P2) and several pick-ups (P9) still lie ahead."""
    candidates = [a for a in legal if a["type"] in SEARCHED]
    others = {a["type"] for a in legal} - SEARCHED - {"draw"}  # P9's draw: left to the policy
    if (view.get("phase") != "play" or others or len(candidates) < 2
            or view.get("turn") != view.get("you")):
        return good.good_move(view, legal, rng, memory)
    options = _options(view, candidates)
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
    plies, spend = DEPTH, None
    if budget is not None and whole:
        plies, spend = LONGEST, budget
    elif budget is not None:
        samples = samples_within(samples, len(options), budget)
        plies = plies_per_playout(samples, len(options), budget)
    ahead = [_key(view, a) == _key(view, prior) for a in options]
    # A pile to play on, a card that fits and neither a pick-up nor a draw offered: this table makes
    # a seat play if it can (P10 off) and a stuck one pick up (P9), so a pick-up tells what the
    # picker held. (A draw offered instead, as where a drawn card may be played, tells nothing.)
    must_play = bool(view.get("pile")) and not {"pick_up", "draw"} & {a["type"] for a in legal}
    known = _known(view, memory, rules, must_play)
    if spend is None:
        start = PRIOR * math.sqrt(samples)
        totals, _ = _totals(known, me, view, options, rng, samples, plies, None, [start * h for h in ahead])
    else:  # the head start grows with the deals the budget let the playouts play
        totals, played = _totals(known, me, view, options, rng, samples, plies, spend, [0.0] * len(options))
        totals = [t + PRIOR * math.sqrt(played) * h for t, h in zip(totals, ahead, strict=True)]
    best = options[max(range(len(options)), key=lambda i: (totals[i], -i))]
    if best["type"] == "pick_up" and {"type": "draw"} in legal:
        return {"type": "draw"}  # P9: a card from the stock may still fit; the pile comes after
    return best


# -- the face-up choice (P3) ---------------------------------------------------------------------

# The moves all the playouts of a face-up choice play together (about a quarter of a second on an
# idle core): the choice is made once a game and decides its end, so it gets three plays' budget.
FACE_UP_BUDGET = 120000


def _face_up_value(code: int) -> int:
    """The policy's order of cards to lay face up (``palace_policy._swap`` on the six-card deal,
    whose 8 is ordinary: ``PLAIN_EIGHT``): jokers and 2s, then 10s, then by rank."""
    return good.PLAIN_EIGHT[sim.ORDER[code]]


def _lay_others(table: sim.Sim, me: int, undecided: Sequence[int]) -> None:
    """The seats still to choose lay their three strongest cards face up, as the policy does (P3)."""
    for seat in undecided:
        if seat != me:
            hand = table.hands[seat]
            codes = sorted((c for c in range(sim.SIZE) for _ in range(hand[c])), key=_face_up_value)
            _lay(table, seat, codes[-3:])


def _lay(table: sim.Sim, seat: int, codes: Sequence[int]) -> None:
    """``seat`` lays ``codes`` from its hand face up (P3)."""
    for code in codes:
        table.hands[seat][code] -= 1
        table.held[seat] -= 1
        table.up[seat].append(code)


def choose_face_up(view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random,
                   memory: Memory = (), budget: int = FACE_UP_BUDGET) -> Action:
    """The three face-up cards out of six (P3) whose whole-game playouts leave the seat least often
    the last one holding cards (P22).

    Each deal gives the unseen cards out at random (the other seats' six, every face-down card and
    the stock), lets the seats still to choose lay their strongest three face up, turns the stock's
    top card up as the pile's base (P5) and plays every distinct choice of ranks to the end on it.
    Successive halving spends the budget: each round plays its share of moves on the choices still
    in, then drops the worse half, so the close ones get the most deals. The policy's own choice
    starts ahead (``PRIOR``), as in ``choose``."""
    lays = [a for a in legal if a["type"] == "lay_face_up"]
    prior = good.good_move(view, legal, rng, memory)
    distinct: dict[tuple[int, ...], Action] = {}
    for action in lays:
        distinct.setdefault(tuple(sorted(sim.CODE[str(c)[0]] for c in action["cards"])), action)
    if len(distinct) < 2 or prior not in lays:
        return prior
    me = int(view["you"])
    prior_key = tuple(sorted(sim.CODE[str(c)[0]] for c in prior["cards"]))
    keys = sorted(distinct, key=lambda k: (k != prior_key, k))
    rules = good.read_rules(view, legal, memory)
    known = _known(view, memory, rules)
    undecided = [i for i, p in enumerate(view.get("players") or [])
                 if not any(p.get("face_up") or []) and int(p.get("hand_size") or 0) > 3]
    totals = {k: 0.0 for k in keys}
    alive = list(keys)
    played = 0
    rounds = max(1, math.ceil(math.log2(len(alive))))
    for round_ in range(rounds):
        share = budget // rounds
        used = 0
        while used < share:
            base = _deal(known, rng)
            _lay_others(base, me, undecided)
            if base.stock:
                base.lay([base.stock.pop()])  # P5: the stock's top card opens the pile
            for key in alive:
                table = base.copy()
                _lay(table, me, key)
                score, moves = _playout(table, me, LONGEST)
                totals[key] += score
                used += moves + 1
            played += 1
        head = PRIOR * math.sqrt(played)
        alive.sort(key=lambda k: (-(totals[k] + (head if k == prior_key else 0.0)), keys.index(k)))
        if round_ < rounds - 1:
            alive = alive[:max(1, (len(alive) + 1) // 2)]
    return distinct[alive[0]]
