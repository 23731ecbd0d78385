"""The button and the blinds: who is dealt in, where the button and blinds sit, antes, blinds,
posts and the straddle, and the hole cards (H4–H10).

The button moves by the dead-button rule: the big blind moves to the next player every hand, the
small blind sits where the big blind was, the button where the small blind was, so nobody skips or
repeats the big blind when players bust or leave; heads-up the button posts the small blind (H8).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.games.base import Event
from app.games.holdem.common import FULL_DECK, SEAT_KEY, after, current_level, event, next_of
from app.games.holdem.rules import Level
from app.games.holdem.state import Hand, State
from app.games.shuffle import shuffle


@dataclass(slots=True)
class Positions:
    """Who is dealt in and where the button and the blinds sit for the next hand."""

    button: int
    sb: int
    sb_live: bool  # False: a dead small blind (the seat left the table or the blinds moved on)
    bb: int
    dealt: list[int]
    posters: list[int]  # new players posting a big blind to be dealt in at once (H9)


def positions(s: State, ready: list[int]) -> Positions:
    """H4, H8, H9: the button and blinds of the next hand among the ``ready`` seats."""
    if s.last_bb < 0:
        return _first_hand(s, ready)
    return _dead_button(s, ready)


def _first_hand(s: State, ready: list[int]) -> Positions:
    """The first hand: everyone seated is dealt in; the button came from the draw (H4)."""
    n = len(s.stacks)
    for seat in ready:
        if s.status[seat] == "waiting":
            s.status[seat] = "playing"
    dealt = ready
    button = s.last_button
    if button not in dealt:
        button = next_of(s.last_button, n, dealt)
    if len(dealt) == 2:
        sb = button  # H8: heads-up the button posts the small blind
        bb = next_of(button, n, dealt)
    else:
        sb = next_of(button, n, dealt)
        bb = next_of(sb, n, dealt)
    return Positions(button, sb, True, bb, dealt, [])


def _dead_button(s: State, ready: list[int]) -> Positions:
    """The big blind moves on to the next player waiting or playing, so nobody misses or repeats
    it; a new player who waits for the big blind (H9) is dealt in here."""
    n = len(s.stacks)
    bb = next_of(s.last_bb, n, ready)
    dealt = [x for x in ready if s.status[x] in ("playing", "away") or x == bb]
    if len(dealt) < 2:
        # A table that cannot deal without its waiting players deals them all in: there is
        # no big blind to wait for at a table that does not play.
        dealt = list(ready)
    posters: list[int] = []
    if len(dealt) == 2:
        button = sb = next(x for x in dealt if x != bb)  # H8; the last big blind never repeats
        sb_live = True
    else:
        sb = s.last_bb
        sb_live = sb in dealt
        button = s.last_sb
        if button == bb or sb == bb:
            button = next(x for x in reversed(after(bb, n)[:-1]) if x in dealt)
            sb, sb_live = bb, False
        # H9: a new player who posts is dealt in at once, unless sitting between the button
        # and the big blind (the blinds would skip him).
        arc = after(bb, n)[: after(bb, n).index(button)]
        for seat in ready:
            if seat not in dealt and s.posting[seat] and seat in arc:
                dealt.append(seat)
                posters.append(seat)
    for seat in dealt:
        if s.status[seat] == "waiting":
            s.status[seat] = "playing"
            s.posting[seat] = False
    return Positions(button, sb, sb_live, bb, dealt, posters)


def new_hand(s: State, at: Positions, events: list[Event]) -> Hand:
    """The next hand, shuffled, with its seats and the ``hand_started`` event; nothing posted yet.

    Fixed decks first; then ``SeededRandom(seed, f"hand-{n}").shuffle``, as ``shuffle`` computes it,
    the seed being the latest fair round's (``reseed``) when the room gave one, else the table's.
    """
    n = len(s.stacks)
    order = [x for x in after(at.button, n) if x in at.dealt]
    number = s.hands + 1
    label = f"hand-{number}"
    if number <= len(s.decks):
        cards = s.decks[number - 1]
    elif s.round is not None:
        # A fair round the room sealed for this hand (``reseed``): its seed keys the shuffle.
        cards = shuffle(s.round["seed"], label, FULL_DECK)
        s.rounds = {**s.rounds, label: s.round}  # shared with the state before: replaced, not changed
    else:
        cards = shuffle(s.seed, label, FULL_DECK)
    h = Hand(
        number=number,
        deck=cards,
        button=at.button,
        sb=at.sb,
        sb_live=at.sb_live,
        bb=at.bb,
        players=order,
        start=list(s.stacks),
        holes=[[] for _ in range(n)],
        folded=[x not in at.dealt for x in range(n)],
        bets=[0] * n,
        committed=[0] * n,
        posted=[0] * n,
        antes=[0] * n,
        acted=[-1] * n,
        pending=[False] * n,
        shown=[False] * n,
        mucked=[False] * n,
        votes=[-1] * n,
    )
    s.last_button, s.last_sb, s.last_bb = at.button, at.sb, at.bb
    lv = current_level(s)
    data = {
        "hand": number,
        "button": at.button,
        "small_blind_seat": at.sb if at.sb_live else None,
        "big_blind_seat": at.bb,
        "players": order,
        "stacks": {SEAT_KEY[x]: s.stacks[x] for x in order},
        "blinds": [lv.small_blind, lv.big_blind],
        "ante": lv.ante if s.sheet.ante_type != "none" else 0,
    }
    events.append(event("hand_started", data))
    return h


def post_blinds(s: State, h: Hand, at: Positions, events: list[Event]) -> None:
    """H5, H6, H9: antes first (with a big-blind ante the big blind pays it, before the blind
    itself), then the small and big blinds and the new players' posts."""
    sheet, lv = s.sheet, current_level(s)
    if sheet.ante_type == "every_player" and lv.ante:
        for seat in h.players:
            post(s, h, seat, lv.ante, "ante", events)
    elif sheet.ante_type == "big_blind" and lv.ante:
        post(s, h, at.bb, lv.ante, "ante", events)
    if at.sb_live:
        post(s, h, at.sb, lv.small_blind, "small_blind", events)
    post(s, h, at.bb, lv.big_blind, "big_blind", events)
    for seat in h.players:
        if seat in at.posters:
            post(s, h, seat, lv.big_blind, "post", events)
    # H5/H17: the bet to match is the full big blind even when the big blind is all-in for less.
    h.current = lv.big_blind
    h.min_inc = lv.big_blind
    h.full_level = lv.big_blind
    h.bet_count = 1


def offer_straddle(s: State, h: Hand, at: Positions) -> bool:
    """H7: with the option, three or more dealt in and a stack for it, UTG is asked first."""
    if s.sheet.straddle != "utg" or len(h.players) < 3:
        return False
    utg = next_of(at.bb, len(s.stacks), at.dealt)
    if s.stacks[utg] > 2 * current_level(s).big_blind and h.bets[utg] == 0:
        h.phase = "straddle"
        h.actor = utg
        return True
    return False


def straddle(s: State, h: Hand, seat: int, events: list[Event]) -> None:
    """H7: the straddle of 2 × BB acts as the big blind: the next raise is at least to 2 × it."""
    chips = 2 * current_level(s).big_blind
    post(s, h, seat, chips, "straddle", events)
    h.straddler = seat
    h.current = chips
    h.min_inc = chips
    h.full_level = chips
    h.bet_count = 2


def post(s: State, h: Hand, seat: int, amount: int, kind: str, events: list[Event]) -> None:
    """Post an ante, a blind, a straddle or a new player's big blind (all-in when short)."""
    paid = min(amount, s.stacks[seat])
    s.stacks[seat] -= paid
    h.committed[seat] += paid
    if kind == "ante":
        h.antes[seat] += paid
    else:
        h.bets[seat] += paid
        posted = list(h.posted)  # shared with the previous state (Hand.copy)
        posted[seat] += paid
        h.posted = posted
    data = {"seat": seat, "kind": kind, "amount": paid, "all_in": s.stacks[seat] == 0}
    events.append(event("posted", data))


def deal_holes(s: State, h: Hand, events: list[Event]) -> None:
    """H10: one card at a time, twice around: the k-th player gets cards k and k + len(players)."""
    players, deck, pos = h.players, h.deck, h.pos
    count = len(players)
    holes: list[list[str]] = [[] for _ in range(len(s.stacks))]
    h.pos = pos + 2 * count
    events.append(event("dealt", {"seats": list(players)}))
    actions = h.actions
    # H10 heads-up: "jagab diiler alates SB-st päripäeva": the small blind (the button) gets the
    # first card; the history keeps the seats' usual order (PHH gives cards by seat, not by deck).
    first = 1 if count == 2 and s.sheet.heads_up_deal == "small_blind_first" else 0
    for k, seat in enumerate(players):
        at = pos + (k + first) % count
        a, b = deck[at], deck[at + count]
        holes[seat] = [a, b]
        events.append(event("hole_cards", {"seat": seat, "cards": [a, b]}, (seat,)))
        actions.append(f"d dh s{seat} {a}{b}")
    h.holes = holes


def nominal_blind(h: Hand, lv: Level, seat: int) -> int:
    """The blind a seat owed this hand (for the history), whatever it could pay."""
    if seat == h.straddler:
        return 2 * lv.big_blind
    if seat == h.bb:
        return lv.big_blind
    if seat == h.sb and h.sb_live:
        return lv.small_blind
    return 0
