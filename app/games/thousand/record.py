"""The record the playout path (``thousand.playout``) plays on: one game of Thousand in plain,
changeable lists, with cards as small numbers, and what happens between the moves (dealing,
redeals, scoring).

A card is its index in ``rules.DECK`` (9c 9d 9h 9s Tc … As): rank ``card >> 2`` in the order
9 T J Q K A, suit ``card & 3`` in c d h s. That is the order hands are kept in (``BY_RANK``), so a
hand stays sorted with ``sorted``. Fields that only tell what happened and that no rule reads
(the talon shown, the cards given, the hands shown for redeals, the score rows) are kept in the
contract's own form. ``Record.to_state`` gives the contract's ``State`` of the same moment, which
the agreement test compares after every move.
"""

from __future__ import annotations

from typing import Any

from app.games.shuffle import shuffle
from app.games.thousand.rules import DECK, POINTS, TRICK_RANK, RuleSheet
from app.games.thousand.state import State

NAME: tuple[str, ...] = DECK
INDEX: dict[str, int] = {name: i for i, name in enumerate(DECK)}
SUIT_NAME = "cdhs"
PTS: tuple[int, ...] = tuple(POINTS[name[0]] for name in DECK)  # [T1]
TR: tuple[int, ...] = tuple(TRICK_RANK[name[0]] for name in DECK)  # [T1] A > 10 > K > Q > J > 9
# [T15] the other half of a marriage: K (16–19) and Q (12–15) of one suit; -1 for the rest.
PARTNER: tuple[int, ...] = tuple(i + 4 if 12 <= i < 16 else i - 4 if 16 <= i < 20 else -1 for i in range(24))
RED = (False, True, True, False)  # [T6] diamonds and hearts
DEALING = "dealing"  # the phase of a record whose next deal is dealt when first needed


class Rules:
    """The options of a sheet that the rules read, looked up once per sheet (the marriage values
    by suit number)."""

    __slots__ = (
        "banks",
        "before_penalty",
        "blind_bidding",
        "bomb_points",
        "bombs",
        "every_option",
        "first_trick",
        "four_nines",
        "free",
        "give_up",
        "keep",
        "left_100",
        "lottery_points",
        "low_hand",
        "low_limit",
        "must_beat",
        "must_trump",
        "mv",
        "nine_lottery",
        "opening",
        "penalty",
        "players",
        "points_taken",
        "sheet",
        "step",
        "stock",
        "stuck_at_800",
        "stuck_score",
        "target",
        "two_contract",
        "two_minus",
        "when_following",
    )

    def __init__(self, s: RuleSheet) -> None:
        self.sheet = s
        self.players, self.target = s.players, s.target_score
        self.opening, self.step, self.free = s.opening_bid, s.bid_step, s.bid_limit_without_marriage
        self.mv = (s.marriage_clubs, s.marriage_diamonds, s.marriage_hearts, s.marriage_spades)
        self.keep = s.talon == "keep" and not s.banks_variant()
        self.must_trump, self.must_beat = s.must_trump, s.must_beat
        self.when_following, self.first_trick = s.marriage_when_following, s.marriage_in_first_trick
        self.bombs, self.bomb_points = s.bombs_per_game, s.bomb_points
        self.blind_bidding, self.give_up, self.left_100 = s.blind_bidding, s.blind_give_up_points, s.left_100
        self.four_nines, self.low_hand = s.four_nines_redeal, s.low_hand_redeal
        self.low_limit = s.low_hand_limit
        self.before_penalty, self.penalty = s.redeals_before_penalty, s.redeal_penalty
        self.nine_lottery, self.lottery_points = s.nine_lottery, s.lottery_points
        self.stuck_at_800, self.stuck_score = s.stuck_at_800, s.stuck_score
        self.every_option = s.stuck_bars == "every_option"
        self.points_taken = s.failed_contract == "points_taken"
        self.stock, self.banks = s.stock_variant(), s.banks_variant()
        self.two_contract, self.two_minus = s.two_player_contract, s.two_player_minus


_RULES: dict[int, Rules] = {}


def rules_of(sheet: RuleSheet) -> Rules:
    found = _RULES.get(id(sheet))
    if found is None or found.sheet is not sheet:
        if len(_RULES) > 64:
            _RULES.clear()
        found = _RULES[id(sheet)] = Rules(sheet)
    return found


class Record:
    """One game of Thousand, changed in place by each move: ``State``'s fields with cards as numbers
    (hands, talon, banks, stock, cards laid aside and taken), the trick as two lists (its seats and
    cards), ``trump`` a suit number or -1, ``bidder`` -1 for none; plus the active seats of the deal
    (``order``) and each one's left-hand neighbour among them (``left``)."""

    rules: Rules
    sheet: RuleSheet
    seed: str
    players: int
    dealer: int
    phase: str
    shuffles: int
    deals_played: int
    order: tuple[int, ...]
    left: list[int]
    hands: list[list[int]]
    talon: list[int]
    talon_dealt: list[int]
    banks: list[list[int]]
    stock: list[int]
    aside: list[int]
    taken: list[list[int]]
    tseats: list[int]
    tcards: list[int]
    last_seats: list[int]
    last_cards: list[int]
    turn: int
    trump: int
    tricks_done: int
    looked: list[bool]
    acted: list[bool]
    passed: list[bool]
    bid: int
    bidder: int
    bid_blind: bool
    contract: int
    blind: bool
    talon_public: list[str]
    talon_seen: list[int]
    talon_seen_cards: list[str]
    given: list[list[Any]]
    marriages: list[list[int]]
    shown: list[dict[str, Any]]
    lottery: dict[str, Any] | None
    redeals_in_row: int
    scores: list[int]
    bombs_used: list[int]
    rows: list[dict[str, Any]]
    round: dict[str, Any] | None
    rounds: dict[str, dict[str, Any]]
    __slots__ = tuple(__annotations__)

    def to_state(self) -> State:
        """The contract's ``State`` of this moment (the next deal dealt first if it is due)."""
        if self.phase == DEALING:
            deal(self)
        n = NAME
        return State(
            sheet=self.sheet, seed=self.seed, players=self.players, dealer=self.dealer, phase=self.phase,
            shuffles=self.shuffles, deals_played=self.deals_played,
            hands=[[n[c] for c in h] for h in self.hands], talon=[n[c] for c in self.talon],
            talon_dealt=[n[c] for c in self.talon_dealt], banks=[[n[c] for c in b] for b in self.banks],
            stock=[n[c] for c in self.stock], aside=[n[c] for c in self.aside],
            taken=[[n[c] for c in t] for t in self.taken],
            trick=[[s, n[c]] for s, c in zip(self.tseats, self.tcards, strict=True)],
            last_trick=[[s, n[c]] for s, c in zip(self.last_seats, self.last_cards, strict=True)],
            turn=self.turn, trump=SUIT_NAME[self.trump] if self.trump >= 0 else None,
            tricks_done=self.tricks_done, looked=list(self.looked), acted=list(self.acted),
            passed=list(self.passed), bid=self.bid, bidder=self.bidder if self.bidder >= 0 else None,
            bid_blind=self.bid_blind, contract=self.contract, blind=self.blind,
            talon_public=list(self.talon_public), talon_seen=list(self.talon_seen),
            talon_seen_cards=list(self.talon_seen_cards), given=[list(g) for g in self.given],
            marriages=[[SUIT_NAME[s] for s in m] for m in self.marriages], shown=list(self.shown),
            lottery=_copy_lottery(self.lottery), redeals_in_row=self.redeals_in_row,
            scores=list(self.scores), bombs_used=list(self.bombs_used), rows=list(self.rows),
            round=self.round, rounds=self.rounds,
        )

    def to_json(self) -> dict[str, Any]:
        return self.to_state().to_json()


def _copy_lottery(lottery: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if lottery is None else {**lottery, "guesses": dict(lottery["guesses"])}


def from_state(s: State) -> Record:
    """A record of the game ``s`` at this moment; ``s`` stays untouched."""
    x = Record.__new__(Record)
    num = INDEX.__getitem__
    x.rules, x.sheet, x.seed, x.players, x.dealer = rules_of(s.sheet), s.sheet, s.seed, s.players, s.dealer
    x.phase, x.shuffles, x.deals_played = s.phase, s.shuffles, s.deals_played
    x.order, x.left = _ORDERS[s.players][s.dealer]
    x.hands = [[*map(num, h)] for h in s.hands]
    x.talon, x.talon_dealt = [*map(num, s.talon)], [*map(num, s.talon_dealt)]
    x.banks, x.stock = [[*map(num, b)] for b in s.banks], [*map(num, s.stock)]
    x.aside, x.taken = [*map(num, s.aside)], [[*map(num, t)] for t in s.taken]
    x.tseats, x.tcards = _trick(s.trick)
    x.last_seats, x.last_cards = _trick(s.last_trick)
    x.turn, x.trump = s.turn, SUIT_NAME.index(s.trump) if s.trump is not None else -1
    x.tricks_done, x.looked, x.acted, x.passed = s.tricks_done, list(s.looked), list(s.acted), list(s.passed)
    x.bid, x.bidder, x.bid_blind = s.bid, s.bidder if s.bidder is not None else -1, s.bid_blind
    x.contract, x.blind = s.contract, s.blind
    x.talon_public, x.talon_seen = list(s.talon_public), list(s.talon_seen)
    x.talon_seen_cards, x.given = list(s.talon_seen_cards), list(s.given)
    x.marriages = [[*map(SUIT_NAME.index, ms)] for ms in s.marriages]
    x.shown, x.redeals_in_row = list(s.shown), s.redeals_in_row
    x.lottery = None if s.lottery is None else _copy_lottery(s.lottery)
    x.scores, x.bombs_used, x.rows = list(s.scores), list(s.bombs_used), list(s.rows)
    x.round, x.rounds = s.round, s.rounds
    return x


def _trick(trick: list[list[Any]]) -> tuple[list[int], list[int]]:
    """A trick's seats and card numbers (none at the start of a trick: no work)."""
    if not trick:
        return [], []
    return [p[0] for p in trick], [INDEX[p[1]] for p in trick]


def set_order(x: Record) -> None:
    """[T13] the seats playing this deal, clockwise from the dealer's left (with four the dealer
    sits out), and each one's left-hand neighbour among them (shared tables: never changed)."""
    x.order, x.left = _ORDERS[x.players][x.dealer]


def _orders(n: int, dealer: int) -> tuple[tuple[int, ...], list[int]]:
    order = tuple((dealer + k) % n for k in range(1, (n if n != 4 else 3) + 1))
    left = [-1] * n
    for k, seat in enumerate(order):
        left[seat] = order[(k + 1) % len(order)]
    return order, left


_ORDERS = {n: [_orders(n, dealer) for dealer in range(n)] for n in (2, 3, 4)}


def stuck(x: Record, seat: int) -> bool:
    """[T17] "800 and stuck": at the limit or above a player may use none of the named tricks
    (bomb, left 100, redeal); with ``every_option`` none of the others either (blind, lottery)."""
    r = x.rules
    return r.stuck_at_800 and x.scores[seat] >= r.stuck_score


# -- dealing [T4, T5, T18] ----------------------------------------------------------------------

_NUMBERS = tuple(range(24))


def shuffled(seed: str, label: str) -> list[int]:
    """``cards.SeededRandom(seed, label).shuffle(DECK)`` as card numbers (their index in ``DECK``)."""
    return shuffle(seed, label, _NUMBERS)


def _next_deck(x: Record) -> list[int]:
    """``deal.shuffled_deck``: keyed by the latest fair round's seed when there is one."""
    label = f"deal-{x.shuffles}"
    if x.round is not None:
        x.rounds = {**x.rounds, label: x.round}
        return shuffled(x.round["seed"], label)
    return shuffled(x.seed, label)


def _lay_out(x: Record, cards: list[int]) -> None:
    """``deal.lay_out``: 3 each, the talon, 4 each [T4]; two players 3+3+3+3 and a stock, or
    4+4, bank 0, 4+4, bank 1 [T18]."""
    r = x.rules
    hands: list[list[int]] = [[] for _ in range(x.players)]
    x.talon, x.banks, x.stock = [], [], []
    if r.stock:
        a, b = x.order
        hands[a], hands[b] = sorted(cards[0:3] + cards[6:9]), sorted(cards[3:6] + cards[9:12])
        x.stock = cards[12:]
    elif r.banks:
        a, b = x.order
        hands[a], hands[b] = sorted(cards[0:4] + cards[12:16]), sorted(cards[4:8] + cards[16:20])
        x.banks = [cards[8:12], cards[20:24]]
    else:
        for k, seat in enumerate(x.order):
            hands[seat] = sorted(cards[3 * k : 3 * k + 3] + cards[12 + 4 * k : 16 + 4 * k])
        x.talon = cards[9:12]
    x.hands = hands
    x.talon_dealt = list(x.talon)


def _reset(x: Record) -> None:
    """``deal.reset_deal``; [T11] with blind bidding nobody has looked yet."""
    n = x.players
    x.aside, x.tseats, x.tcards = [], [], []
    x.taken = [[] for _ in range(n)]
    x.marriages = [[] for _ in range(n)]
    x.passed, x.acted = [False] * n, [False] * n
    x.bid, x.bidder, x.bid_blind, x.contract, x.blind = 0, -1, False, 0, False
    x.trump, x.tricks_done = -1, 0
    x.talon_public, x.talon_seen, x.talon_seen_cards, x.given = [], [], [], []
    x.lottery = None
    x.looked = [not (x.rules.blind_bidding and not x.rules.stock)] * n


def note_redeal(x: Record) -> None:
    """[T5] too many redeals in a row cost the dealer the penalty and pass the deal."""
    x.redeals_in_row += 1
    r = x.rules
    if r.low_hand and x.redeals_in_row >= r.before_penalty:
        x.scores[x.dealer] -= r.penalty
        x.rows.append({
            "type": "redeal_penalty", "seat": x.dealer,
            "points": [(-r.penalty if s == x.dealer else 0) for s in range(x.players)],
            "totals": list(x.scores),
        })
        x.dealer = (x.dealer + 1) % x.players
        x.redeals_in_row = 0


def deal(x: Record) -> None:
    """``deal.deal``: shuffle and lay out, again while a hand holds four nines [T5], then open the
    auction or, stock variant, the play [T18]."""
    r = x.rules
    while True:
        set_order(x)
        cards = _next_deck(x)
        x.shuffles += 1
        _reset(x)
        _lay_out(x, cards)
        holder = next((s for s in x.order if x.hands[s][3] < 4), -1) if r.four_nines else -1
        if holder < 0:
            break
        x.shown.append({"seat": holder, "reason": "four_nines", "cards": ["9c", "9d", "9h", "9s"]})
        note_redeal(x)
    first = x.order[0]
    x.turn = first
    if r.stock:
        x.phase, x.bidder, x.contract = "play", first, r.two_contract
    else:
        x.phase = "auction"


# -- the end of a deal [T3, T10, T13, T16] --------------------------------------------------------


def round_points(value: int) -> int:
    """[T16] round to tens: a last digit of 0–5 goes down, 6–9 up."""
    last = value % 10
    return value - last if last <= 5 else value - last + 10


def _points(cards: list[int]) -> int:
    p = PTS
    return sum([p[c] for c in cards])


def score_deal(x: Record) -> None:
    """``scoring.score_deal``: the bidder gains or loses the contract (double when blind [T11]), the
    others score their cards and marriages rounded [T16]; with four the dealer the talon [T13]."""
    r, n, bidder = x.rules, x.players, x.bidder
    cards = [0] * n
    for seat in x.order:
        cards[seat] = _points(x.taken[seat])
    cards[bidder] += _points(x.aside)  # [T9] cards laid aside count to the bidder's tricks
    mv = r.mv
    marriages = [sum([mv[s] for s in m]) for m in x.marriages]
    made = cards[bidder] + marriages[bidder] >= x.contract
    factor = 2 if x.blind else 1
    points = [0] * n
    for seat in x.order:
        if seat != bidder:
            points[seat] = round_points(cards[seat] + marriages[seat])
        elif made:
            points[seat] = x.contract * factor
        elif r.stock and not r.two_minus:
            points[seat] = 0  # [T18]
        elif r.points_taken:
            points[seat] = -round_points(cards[seat] + marriages[seat]) * factor
        else:
            points[seat] = -x.contract * factor
    if n == 4:
        points[x.dealer] = round_points(_points(x.talon_dealt))
    scores = x.scores
    for seat in range(n):
        scores[seat] += points[seat]
    x.rows.append({
        "type": "deal", "deal": x.deals_played + 1, "dealer": x.dealer, "bidder": bidder,
        "contract": x.contract, "blind": x.blind, "made": made, "card_points": cards,
        "closed_bank": sum([_points(b) for b in x.banks]), "marriages": marriages, "points": points,
        "totals": list(scores),
    })
    finish_deal(x)


def bomb(x: Record, seat: int) -> None:
    """[T10] each opponent scores the bomb's points; [T11] a blind contract given up pays its own
    price and is not counted as a bomb."""
    r = x.rules
    value = r.give_up if x.blind else r.bomb_points
    points = [0] * x.players
    for opponent in x.order:
        if opponent != seat:
            points[opponent] = value
            x.scores[opponent] += value
    if not x.blind:
        x.bombs_used[seat] += 1
    x.rows.append({
        "type": "bomb", "deal": x.deals_played + 1, "dealer": x.dealer, "bidder": seat,
        "contract": x.contract, "blind": x.blind, "points": points, "totals": list(x.scores),
    })
    finish_deal(x)


def finish_deal(x: Record) -> None:
    """[T3] the game ends at the target; else [T2] the deal passes clockwise. The next deal is dealt
    when first needed (a playout ends with its deal and never needs it)."""
    x.deals_played += 1
    x.shown = []
    x.redeals_in_row = 0
    if max(x.scores) >= x.rules.target:
        x.phase, x.turn = "over", -1
        return
    x.dealer = (x.dealer + 1) % x.players
    x.phase = DEALING
