"""The Thousand (Tuhat) bot.

The view carries no rule sheet: the bid limit of the sheet [T8] shows in the legal bids, bombs and
"left 100" in the legal moves; marriages are valued as the seed values them (spades 40, clubs 60,
diamonds 80, hearts 100) [T8].

"good":
- auction [T7, T8]: always looks at its hand, estimates the points it would take (sure tricks
  from the top of each suit, aces and tens, marriages it holds and the trumps they would make,
  something from the talon) and bids up to that estimate, within the sheet's limit; as opener it
  lets a weak hand ride on the compulsory 100 ("left 100" [T12], where the sheet has it). It asks
  for a "17 or less" redeal [T5] when offered and never runs the nine lottery [T6];
- after the talon [T9]: gives (or lays aside) the cards whose loss costs its estimate least, raises
  the contract when the estimate is clearly above it, and uses a bomb [T10] when it is clearly below;
- tricks [T14, T15]: declares a marriage whenever it may (the dearest one), leads its winners and
  keeps marriage cards back, wins a trick with its cheapest winning card when that pays, gives
  points to the other defender when it takes the trick from the bidder, and otherwise plays its
  cheapest card.

Memory: the cards played this deal (from the seat's events) count as seen, so a card is a sure
winner once every higher card of its suit is out; a suit a player did not follow is known empty.

Declining (out of turn, before the opening bid): it looks at its cards, claims a "17 or less"
redeal when offered [T5], and lets the nine lottery go [T6] (the organiser expects 25 points, each
guesser 37.5). In a lottery it guesses the colour most of the organiser's nines have, as far as its
own nines tell.

Cards in the tricks are chosen by determinized playouts (``app.bots.thousand_search``): the hidden
cards dealt at random consistent with what the seat has seen, the rest of the deal played out
greedily for each legal card; "good" plays ``GOOD_SAMPLES`` such deals, "strong" ``STRONG_SAMPLES``.

"easy": looks, bids the compulsory opening only, gives its lowest cards, declares marriages on
the lead and otherwise plays a random legal card.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from app.bots import thousand_search
from app.bots.memory import Memory

Action = dict[str, Any]

POINTS: dict[str, int] = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
ORDER = "9JQKTA"
RANK: dict[str, int] = {r: i for i, r in enumerate(ORDER)}
MARRIAGE: dict[str, int] = {"s": 40, "c": 60, "d": 80, "h": 100}
SUITS = "cdhs"

# What a sure trick brings beyond its own card: the opponents' cards in it (3 players).
CAPTURE = 7
# What the talon adds to the estimate before it is seen (three cards, minus two given away).
TALON_HOPE = 15
# How far the estimate must stand above a bid before the bot goes that high.
MARGIN = 5
# How far the estimate after the talon may fall short of the contract before the bot throws a bomb
# [T10] (while it has one): a bomb gives each opponent 60 on tuhat, a lost contract costs the bidder
# its whole value, so a contract the estimate does not reach is given up rather than played (with
# 25 here the good bot made 73.7 % of the contracts it played, with 5 it makes 79 % and wins more).
BOMB_SHORT = 5


# Determinizations per decision in the tricks (each plays out every legal card): "good" takes a
# few (within its 50 ms), "strong" many.
GOOD_SAMPLES = 6
STRONG_SAMPLES = 60


def choose(view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random, level: str,
           memory: Memory = ()) -> Action:
    if level == "easy":
        return _easy(view, legal, rng)
    if view.get("phase") == "play" and GOOD_SAMPLES > 0:
        plays = [a for a in legal if a["type"] == "play"]
        searchable = view.get("bidder") is not None and view.get("hand_counts") is not None
        # A marriage is declared whenever it may be (the dearest first): no search needed [T15].
        if len({a["card"] for a in plays}) > 1 and searchable and not any(a.get("declare") for a in plays):
            know = Knowledge(view, memory)
            samples = STRONG_SAMPLES if level == "strong" else GOOD_SAMPLES
            return dict(thousand_search.best_move(view, plays, know, rng, samples))
    return _good(view, legal, rng, memory)


def declines(view: Mapping[str, Any], legal: Sequence[Action], level: str, memory: Memory = ()) -> bool:
    """Out of turn before the opening bid [T5, T6]: look, claim a redeal, never run the lottery."""
    kinds = {a["type"] for a in legal}
    if "look" in kinds:
        return False
    return not ("redeal" in kinds and level != "easy")


class Knowledge:
    """What the seat knows of the cards in this deal, from its view and memory."""

    def __init__(self, view: Mapping[str, Any], memory: Memory) -> None:
        me = view.get("seat")
        hand = set(view.get("hand") or [])
        self.played: set[str] = set()
        self.voids: dict[int, set[str]] = {}
        self.held_by: dict[int, set[str]] = {}
        self.taken: dict[int, int] = {}
        trick: list[tuple[int, str]] = []
        for event in memory:
            kind = event.get("type")
            if kind == "play":
                seat, card = int(event["seat"]), str(event["card"])
                if trick and card[1] != trick[0][1][1]:
                    self.voids.setdefault(seat, set()).add(trick[0][1][1])
                trick.append((seat, card))
                self.played.add(card)
            elif kind == "trick":
                self.taken[int(event["winner"])] = self.taken.get(int(event["winner"]), 0) + int(
                    event.get("points", 0))
                trick = []
            elif kind == "given" and event.get("from") == me:
                cards = {str(c) for c in _as_list(event["cards"])}
                self.held_by.setdefault(int(event["to"]), set()).update(cards)
        for _, card in view.get("trick") or []:
            self.played.add(str(card))
        for suits_seat, suits in enumerate(view.get("marriages") or []):
            for suit in suits:
                self.taken[suits_seat] = self.taken.get(suits_seat, 0) + MARRIAGE[suit]
        for seat in list(self.held_by):
            self.held_by[seat] -= self.played
        known = set().union(*self.held_by.values()) if self.held_by else set()
        self.unseen = [c for c in thousand_search.DECK if c not in hand and c not in self.played
                       and c not in known]

    def points_by_seat(self, order: Sequence[int]) -> dict[int, int]:
        return {s: self.taken.get(s, 0) for s in order}


def _as_list(cards: Any) -> list[str]:
    return [cards] if isinstance(cards, str) else list(cards)


# -- hand evaluation ----------------------------------------------------------------------


def _points(cards: Sequence[str]) -> int:
    return sum(POINTS[c[0]] for c in cards)


def _by_suit(hand: Sequence[str]) -> dict[str, list[str]]:
    suits: dict[str, list[str]] = {s: [] for s in SUITS}
    for card in hand:
        suits[card[1]].append(card[0])
    for ranks in suits.values():
        ranks.sort(key=RANK.__getitem__, reverse=True)
    return suits


def marriages(hand: Sequence[str]) -> list[str]:
    cards = set(hand)
    return [s for s in SUITS if "K" + s in cards and "Q" + s in cards]


def estimate(hand: Sequence[str]) -> int:
    """The points this hand should take as the bidder: tricks, marriages and trumps."""
    total = 0
    suits = _by_suit(hand)
    held = marriages(hand)
    for suit, ranks in suits.items():
        run = 0
        for rank in reversed(ORDER):  # A, T, K, ...: the top of the suit in a row wins
            if rank in ranks and run < max(1, 6 - len(ranks)):
                run += 1
            else:
                break
        for rank in ranks[:run]:
            total += POINTS[rank] + CAPTURE
        for rank in ranks[run:]:
            if rank == "T":
                total += 4  # a ten behind a missing ace wins now and then
            elif rank in "KQ" and suit not in held:
                total += 1
    best = max((MARRIAGE[s] for s in held), default=0)
    # A second marriage is usually declared too; count it at half, the risk of not leading it.
    rest = sorted((MARRIAGE[s] for s in held), reverse=True)[1:]
    total += best + sum(v // 2 for v in rest)
    if held:
        trumps = max(held, key=MARRIAGE.__getitem__)
        length = len(suits[trumps])
        total += 7 + max(0, length - 3) * 10  # K and Q come home, long trumps win tricks
    return total


# -- the good bot --------------------------------------------------------------------------


def _good(view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random,
          memory: Memory = ()) -> Action:
    kinds = {a["type"] for a in legal}
    phase = view.get("phase")
    hand: list[str] = list(view.get("hand") or [])
    if phase == "lottery":
        return _guess(legal, hand)
    if phase == "auction":
        return _bid(view, legal, hand, kinds)
    if phase == "talon":
        return rng.choice(list(legal))
    if phase == "exchange":
        return _exchange(view, legal, hand, kinds)
    plays = [a for a in legal if a["type"] == "play"]
    if plays:
        return _play(view, plays, hand, memory)
    return legal[0]


def _guess(legal: Sequence[Action], hand: Sequence[str]) -> Action:
    """[T6] the organiser holds three nines: the ones this hand lacks (all but one if it has none)."""
    guesses = [a for a in legal if a["type"] == "guess"]
    if not guesses:
        return legal[0]
    mine = [c for c in hand if c[0] == "9"]
    theirs = [s for s in SUITS if "9" + s not in mine]
    red = sum(1 for s in theirs if s in "dh")
    black = len(theirs) - red
    colour = "red" if red >= black else "black"
    return next((a for a in guesses if a.get("colour") == colour), guesses[0])


def _bid(view: Mapping[str, Any], legal: Sequence[Action], hand: list[str], kinds: set[str]) -> Action:
    if "look" in kinds:
        return {"type": "look"}
    if "redeal" in kinds:
        return {"type": "redeal"}
    bids = sorted((a for a in legal if a["type"] == "bid"), key=lambda a: int(a["value"]))
    if "pass" not in kinds:  # the compulsory opening bid
        return bids[0] if bids else legal[0]
    worth = estimate(hand) + TALON_HOPE - MARGIN
    affordable = [a for a in bids if int(a["value"]) <= worth]
    if affordable:
        return affordable[0]  # one step at a time; the others may give up first
    return {"type": "pass"}


def _exchange(view: Mapping[str, Any], legal: Sequence[Action], hand: list[str], kinds: set[str]) -> Action:
    contract = int(view.get("contract") or 0)
    gives = [a for a in legal if a["type"] in ("give", "discard")]
    best: tuple[tuple[int, int], Action] | None = None
    for action in gives:
        away = _given_cards(action)
        kept = list(hand)
        for card in away:
            kept.remove(card)
        key = (estimate(kept), -_points(away))
        if best is None or key > best[0]:
            best = (key, action)
    after = best[0][0] if best is not None else estimate(hand)
    if "bomb" in kinds and after < contract - BOMB_SHORT:
        return {"type": "bomb"}
    raises = sorted((a for a in legal if a["type"] == "bid"), key=lambda a: int(a["value"]))
    affordable = [a for a in raises if int(a["value"]) <= after - 2 * MARGIN]
    if affordable:
        return affordable[-1]
    if best is not None:
        return best[1]
    return legal[0]


def _given_cards(action: Action) -> list[str]:
    cards = action["cards"]
    if isinstance(cards, Mapping):
        out: list[str] = []
        for value in cards.values():
            out.extend([value] if isinstance(value, str) else list(value))
        return out
    return list(cards)


def _beats(card: str, best: str, led: str, trump: str | None) -> bool:
    if card[1] == best[1]:
        return RANK[card[0]] > RANK[best[0]]
    return card[1] == trump and best[1] != trump


def _winning(trick: Sequence[Sequence[Any]], trump: str | None) -> tuple[int, str]:
    seat, best = int(trick[0][0]), str(trick[0][1])
    led = best[1]
    for who, card in trick[1:]:
        if _beats(str(card), best, led, trump):
            seat, best = int(who), str(card)
    return seat, best


def _seen(view: Mapping[str, Any], hand: Sequence[str], memory: Memory = ()) -> set[str]:
    seen = set(hand)
    seen.update(str(e["card"]) for e in memory if e.get("type") == "play")
    for key in ("trick", "last_trick"):
        for _, card in view.get(key) or []:
            seen.add(str(card))
    return seen


def _top(card: str, seen: set[str]) -> bool:
    """No higher card of its suit can be out against it, as far as the seat has seen."""
    return all(r + card[1] in seen for r in ORDER[RANK[card[0]] + 1 :])


def _cheap_key(card: str, hand: Sequence[str], trump: str | None) -> tuple[int, int, int, int]:
    """Smaller is cheaper to give away: no marriage broken, no trump, few points, low rank."""
    in_marriage = card[0] in "KQ" and card[1] in marriages(hand)
    return (int(in_marriage), int(card[1] == trump), POINTS[card[0]], RANK[card[0]])


def _play(view: Mapping[str, Any], plays: list[Action], hand: list[str], memory: Memory = ()) -> Action:
    trick = view.get("trick") or []
    trump = view.get("trump")
    me = view.get("seat")
    bidder = view.get("bidder")
    declares = [a for a in plays if a.get("declare")]
    if declares:
        # The dearest marriage; lead its queen, the cheaper half.
        return max(declares, key=lambda a: (MARRIAGE[a["card"][1]], a["card"][0] == "Q"))
    cards = [str(a["card"]) for a in plays]
    seen = _seen(view, hand, memory)
    if not trick:
        return {"type": "play", "card": _lead(cards, hand, trump, seen)}
    players = len(view.get("active") or []) or 3
    last = len(trick) == players - 1
    win_seat, win_card = _winning(trick, trump)
    led = str(trick[0][1])[1]
    winners = [c for c in cards if _beats(c, win_card, led, trump)]
    table_points = _points([str(c) for _, c in trick])
    partner_wins = me != bidder and win_seat != bidder and bidder is not None
    bidder_played = any(int(s) == bidder for s, _ in trick)
    if partner_wins and (last or bidder_played):
        # The other defender takes it: give him points.
        def gift(card: str) -> tuple[int, int]:
            return (POINTS[card[0]] - 20 * _cheap_key(card, hand, trump)[0], -RANK[card[0]])

        return {"type": "play", "card": max(cards, key=gift)}
    if winners:
        cheapest = min(winners, key=lambda c: _cheap_key(c, hand, trump))
        if last or _top(cheapest, seen | {c for _, c in trick}):
            if last and table_points == 0 and POINTS[cheapest[0]] >= 10 and cheapest[1] != led:
                pass  # trumping a pointless trick with a big trump is a waste
            else:
                return {"type": "play", "card": cheapest}
        strongest = max(winners, key=lambda c: RANK[c[0]] + (10 if c[1] == trump else 0))
        if _top(strongest, seen) and (table_points > 0 or me == bidder):
            return {"type": "play", "card": strongest}
    return {"type": "play", "card": min(cards, key=lambda c: _cheap_key(c, hand, trump))}


def _lead(cards: list[str], hand: list[str], trump: str | None, seen: set[str]) -> str:
    held = marriages(hand)
    tops = [c for c in cards if _top(c, seen) and not (c[0] in "KQ" and c[1] in held)]
    if tops:
        # Trump winners first (they draw the opponents' trumps), then the dearest winner.
        return max(tops, key=lambda c: (c[1] == trump, POINTS[c[0]]))
    safe = [c for c in cards if not (c[0] in "KQ" and c[1] in held)] or cards
    suits = _by_suit(hand)
    # A low card from the shortest side suit, so that suit can be trumped later.
    return min(safe, key=lambda c: (c[1] == trump, POINTS[c[0]] >= 10, len(suits[c[1]]), POINTS[c[0]]))


# -- the easy bot --------------------------------------------------------------------------


def _easy(view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
    kinds = {a["type"] for a in legal}
    phase = view.get("phase")
    if phase == "auction":
        if "look" in kinds:
            return {"type": "look"}
        bids = sorted((a for a in legal if a["type"] == "bid"), key=lambda a: int(a["value"]))
        if "pass" not in kinds and bids:
            return bids[0]
        return {"type": "pass"} if "pass" in kinds else legal[0]
    if phase == "exchange":
        gives = [a for a in legal if a["type"] in ("give", "discard")]
        if gives:
            return min(gives, key=lambda a: (_points(_given_cards(a)), sorted(_given_cards(a))))
    if phase == "play":
        plays = [a for a in legal if a["type"] == "play"]
        declares = [a for a in plays if a.get("declare")]
        if declares and not view.get("trick"):
            return rng.choice(declares)
        plain = [a for a in plays if not a.get("declare")]
        return rng.choice(plain or plays)
    return rng.choice(list(legal))
