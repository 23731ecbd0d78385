"""The hold'em table: hands, betting, pots and showdown (rules H1–H24 of docs/rules/holdem.md).

Dealing order (what a fixed ``deck`` means, top first): two rounds of hole cards, one card at a
time, starting with the first player dealt in left of the button (the small blind, H10; heads-up
the button, who is the small blind: "jagab diiler alates SB-st"; with ``heads_up_deal =
big_blind_first`` the big blind, the button dealing to the other player first), then burn, flop
(3), burn, turn, burn, river (H12–H14). A second run (run it twice) continues from the deck the
same way. A deck may be given partly; the missing cards follow in the order of ``cards.deck()``.

Every hand of a table takes its shuffle from the one seed: hand ``n`` is shuffled by
``SeededRandom(seed, f"hand-{n}")``; fixed decks, when given, replace the first hands' shuffles.

This module is the flow of a table: a table is opened, each hand dealt (``blinds``), its betting
rounds opened and closed street by street (``betting``), run out when nobody can bet, shown down
(``showdown``) and its pots shared out (``pots``), and the table settled for the next hand
(``table``, where joining, leaving, sitting out and in, rebuys, closing the table and the
tournament clock are handled).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import Event, IllegalAction
from app.games.cards import RANKS, SUITS, SeededRandom
from app.games.holdem import betting, blinds, showdown, table
from app.games.holdem.betting import betting_options, cap_holds, in_the_betting, legal_bets
from app.games.holdem.common import (
    BETTING_ACTIONS,
    FULL_DECK,
    HAND_ACTIONS,
    RINGS,
    SEAT_KEY,
    STREETS,
    TABLE_ACTIONS,
    current_level,
    event,
)
from app.games.holdem.pots import pots, uncontested
from app.games.holdem.rules import RuleSheet
from app.games.holdem.showdown import could_win, must_show
from app.games.holdem.state import Hand, State
from app.games.holdem.table import in_live_hand, rebuy_range

__all__ = [
    "BETTING_ACTIONS",
    "HAND_ACTIONS",
    "STREETS",
    "TABLE_ACTIONS",
    "after_hand_show",
    "apply_bet",
    "apply_table",
    "begin_hand",
    "betting_options",
    "cap_holds",
    "could_win",
    "current_level",
    "decide_showdown",
    "in_live_hand",
    "in_the_betting",
    "legal_bets",
    "must_show",
    "new_table",
    "open_round",
    "pots",
    "rebuy_range",
    "run_out",
]

_SUIT_ORDER = {s: i for i, s in enumerate(SUITS)}


# -- a table and its hands -------------------------------------------------------------------------


def new_table(
    sheet: RuleSheet,
    players: int,
    seed: str,
    decks: list[list[str]],
    button: int | None,
    stacks: list[int] | None = None,
) -> tuple[State, list[Event]]:
    sheet.check_players(players)
    n = sheet.seats
    stack = sheet.starting_chips if sheet.format == "tournament" else sheet.buy_in_default
    occupied = [i < players for i in range(n)]
    chips = [stack if o else 0 for o in occupied]
    if stacks is not None:
        # One pass in C: every stack a plain int (not a bool) and positive.
        if len(stacks) != players or set(map(type, stacks)) != {int} or min(stacks) <= 0:
            raise IllegalAction("bad_stacks", "Give one positive whole stack per player.")
        chips[:players] = stacks
    state = State(
        sheet=sheet,
        seed=seed,
        decks=[table.full_deck(d) for d in decks],
        occupied=occupied,
        stacks=chips,
        status=["playing" if o else "empty" for o in occupied],
        posting=[False] * n,
        add=[0] * n,
        leaving=[False] * n,
        sit_out=[False] * n,
        bought=[c if sheet.format == "cash" else 0 for c in chips],
        ledger=[],
        places=[],
        draw={},
        history=[],
    )
    if button is None:
        # H4: the first button goes to the highest card of a draw (suits break ties c < d < h < s).
        cards = SeededRandom(seed, "button-draw").shuffle(FULL_DECK)
        state.draw = {str(seat): cards[seat] for seat in range(players)}
        button = max(range(players), key=lambda s: (RANKS.index(cards[s][0]), _SUIT_ORDER[cards[s][1]]))
    elif not (isinstance(button, int) and 0 <= button < players):
        raise IllegalAction("bad_button", "The first button must be on one of the seated players.")
    state.last_button = button
    events: list[Event] = [event("table_opened", {"button": button, "players": players})]
    begin_hand(state, events, fresh=True)
    return state, events


def begin_hand(s: State, events: list[Event], fresh: bool = False) -> None:
    """Settle the table between hands and deal the next hand if one can be dealt.

    ``fresh``: ``s`` was just built by ``new_table`` and shares no seat lists yet."""
    if not fresh:
        s.own()
    s.hand = None
    ready = table.settle(s, events)
    if not ready:
        return
    at = blinds.positions(s, ready)
    h = blinds.new_hand(s, at, events)
    s.hand = h
    blinds.post_blinds(s, h, at, events)
    if blinds.offer_straddle(s, h, at):
        return  # UTG decides on the straddle before the cards are dealt (H7)
    blinds.deal_holes(s, h, events)
    open_round(s, h, events)


# -- betting rounds --------------------------------------------------------------------------------


def open_round(s: State, h: Hand, events: list[Event]) -> None:
    """Start the betting of the current street, or run the board out when nobody can bet."""
    h.phase = "bet"
    pending, acted, folded, stacks = h.pending, h.acted, h.folded, s.stacks
    for seat in h.players:
        pending[seat] = not folded[seat] and stacks[seat] > 0  # may still act
        acted[seat] = -1
    # H11, H7: preflop left of the big blind (or the straddler); H12: then left of the button.
    start = (h.straddler if h.straddler >= 0 else h.bb) if h.street == 0 else h.button
    h.actor = -1
    advance(s, h, start, events)


def advance(s: State, h: Hand, after: int, events: list[Event]) -> None:
    """Give the turn to the next seat that must act after ``after``, or close the round (H15)."""
    folded, stacks, pending = h.folded, s.stacks, h.pending
    # Seats not dealt in count as folded (begin_hand), so the unfolded seats are the live players.
    if folded.count(False) == 1:
        finish_hand(s, h, uncontested(s, h, folded.index(False), events), events)
        return
    for seat in RINGS[len(folded)][after]:
        if not pending[seat] or folded[seat] or not stacks[seat]:
            continue
        for x in h.players:
            if stacks[x] and x != seat and not folded[x]:
                break  # another player can still bet: a decision to make
        else:
            if h.bets[seat] >= max(h.bets[x] for x in h.players if x != seat):
                # Nobody left to bet against and nothing to call: no decision to make.
                pending[seat] = False
                continue
        h.actor = seat
        return
    h.actor = -1
    close_round(s, h, events)


def apply_bet(s: State, h: Hand, seat: int, action: Mapping[str, Any], events: list[Event]) -> None:
    """A betting move that passed ``betting.refusal``, then the next seat to act or the end of the
    round (H15)."""
    kind = action["type"]
    to_call = h.current - h.bets[seat] if h.current > h.bets[seat] else 0
    if kind == "fold":
        betting.fold(h, seat, events)
    elif kind == "check":
        betting.check(h, seat, events)
    elif kind == "call" or (kind == "all_in" and s.stacks[seat] <= to_call):
        betting.call(s, h, seat, to_call, events)
    else:
        betting.raise_to(s, h, seat, betting.raise_target(s, h, seat, action), events)
    advance(s, h, seat, events)


def close_round(s: State, h: Hand, events: list[Event]) -> None:
    """The betting round is complete: the next street, the run-out, or the showdown."""
    betting.return_uncalled(s, h, events)
    h.bets = [0] * len(s.stacks)
    h.current = 0
    live = [x for x in h.players if not h.folded[x]]
    able = [x for x in live if s.stacks[x] > 0]
    if h.street == 3:
        if len(able) < len(live) and showdown.all_in_tabled(s):
            # H19, TDA Rule 16: a player is all-in and all betting is complete: every hand is
            # turned face up, the river's called all-in included; nobody mucks (in tournaments,
            # or everywhere with ``all_in_tabled = always``).
            showdown.table_all(h, events)
        won = showdown.showdown(s, h, events)
        if won is not None:
            finish_hand(s, h, won, events)
        return
    if len(able) >= 2:
        next_street(s, h, 1, events)
        lv = current_level(s)
        h.min_inc = lv.big_blind * (2 if s.sheet.variant == "fixed_limit" and h.street >= 2 else 1)
        h.full_level = 0
        h.bet_count = 0
        h.capped = False
        h.aggressor = -1
        open_round(s, h, events)
        return
    # H19: all-in with no betting left: every hand is turned up at once "turniiridel" (in
    # tournaments); at a cash table the hands wait for the showdown, where a loser may muck.
    if showdown.all_in_tabled(s):
        showdown.table_all(h, events)
    if s.sheet.run_it_twice == "ask" and h.street < 3:
        h.phase = "run_twice"
        h.actor = -1
        h.votes = [-1 if x in live else 0 for x in range(len(s.stacks))]
        return
    run_out(s, h, events)


def next_street(s: State, h: Hand, run: int, events: list[Event]) -> None:
    # Lists shared with the previous state (see Hand.copy) are replaced, never changed.
    board = h.board if run == 1 else h.board2
    count = 3 if len(board) == 0 else 1
    h.burns = [*h.burns, h.deck[h.pos]]
    h.pos += 1
    cards = h.deck[h.pos : h.pos + count]
    h.pos += count
    board = [*board, *cards]
    if run == 1:
        h.board = board
        h.street += 1
        h.actions.append(f"d db {''.join(cards)}")
    else:
        h.board2 = board
    events.append(event("board", {"street": STREETS[len(board) - 2], "cards": list(cards), "run": run}))


def run_out(s: State, h: Hand, events: list[Event], twice: bool = False) -> None:
    board2_base = list(h.board)
    while len(h.board) < 5:
        next_street(s, h, 1, events)
    if twice:
        h.board2 = board2_base
        while len(h.board2) < 5:
            next_street(s, h, 2, events)
    h.street = 3
    won = showdown.showdown(s, h, events)
    if won is not None:
        finish_hand(s, h, won, events)


def straddle(s: State, h: Hand, seat: int, action: Mapping[str, Any], events: list[Event]) -> None:
    """H7: UTG straddles (2 × BB, acting as the big blind) or not; then the cards are dealt."""
    if action["type"] == "straddle":
        blinds.straddle(s, h, seat, events)
    else:
        events.append(event("no_straddle", {"seat": seat}))
    blinds.deal_holes(s, h, events)
    open_round(s, h, events)


def vote_run_twice(s: State, h: Hand, seat: int, action: Mapping[str, Any], events: list[Event]) -> None:
    """Run it twice: every player left votes; the board runs twice only if all agree."""
    twice = action["type"] == "run_twice"
    h.votes = list(h.votes)
    h.votes[seat] = 1 if twice else 0
    events.append(event("vote", {"seat": seat, "run_twice": twice}))
    if all(v != -1 for v in h.votes):
        live = [x for x in h.players if not h.folded[x]]
        run_out(s, h, events, twice=all(h.votes[x] == 1 for x in live))


def decide_showdown(s: State, h: Hand, seat: int, kind: str, events: list[Event]) -> None:
    """An asked player shows or mucks (H19); after the last one the hand is finished."""
    won = showdown.decide(s, h, seat, kind, events)
    if won is not None:
        finish_hand(s, h, won, events)


# -- the end of a hand -----------------------------------------------------------------------------


def finish_hand(s: State, h: Hand, won: list[int], events: list[Event]) -> None:
    for seat in range(len(s.stacks)):
        s.stacks[seat] += won[seat]
    h.bets = [0] * len(s.stacks)
    h.phase = "over"
    h.actor = -1
    s.hands += 1
    if s.sheet.format == "tournament":
        s.own()
        busted = [x for x in h.players if s.stacks[x] == 0]
        # H22: places by elimination; of players busted in one hand the bigger starting stack
        # places higher, equal stacks share the place.
        for start in sorted({h.start[x] for x in busted}):
            group = [x for x in busted if h.start[x] == start]
            s.places = [*s.places, group]
            for seat in group:
                s.occupied[seat] = False
                s.status[seat] = "empty"
            events.append(event("eliminated", {"seats": group}))
    s.history = [*s.history, history_record(s, h)]
    stacks = {SEAT_KEY[x]: s.stacks[x] for x in h.players}
    events.append(event("hand_over", {"hand": h.number, "stacks": stacks}))
    summarise(s, h)
    if s.sheet.show_after_hand:
        may_show = [x for x in h.players if not h.shown[x] and h.holes[x]]
        if may_show:
            h.phase = "show"
            h.order = may_show
            return
    begin_hand(s, events)


def summarise(s: State, h: Hand) -> None:
    s.last = {
        "hand": h.number,
        "button": h.button,
        "board": list(h.board),
        "board2": list(h.board2),
        "shown": {SEAT_KEY[x]: list(h.holes[x]) for x in h.players if h.shown[x]},
        "mucked": [x for x in h.players if h.mucked[x]],
        "awards": list(h.awards),
    }


def history_record(s: State, h: Hand) -> dict[str, Any]:
    lv = current_level(s)
    kind = s.sheet.ante_type
    players, bb = h.players, h.bb
    if kind == "every_player":
        antes = [lv.ante] * len(players)
    else:
        antes = [lv.ante if kind == "big_blind" and x == bb else 0 for x in players]
    blind_seats = (h.sb, bb, h.straddler)
    posted = h.posted
    return {
        "hand": h.number,
        "button": h.button,
        "players": list(players),
        "bb_seat": bb,
        "starting_stacks": [h.start[x] for x in players],
        "antes": antes,
        "blinds": [blinds.nominal_blind(h, lv, x) for x in players],
        "posts": [posted[x] if x not in blind_seats else 0 for x in players],
        "min_bet": lv.big_blind,
        "small_bet": lv.big_blind,
        "holes": [list(h.holes[x]) for x in h.players],
        "shown": [h.shown[x] for x in h.players],
        "actions": list(h.actions),
        "finishing_stacks": [s.stacks[x] for x in h.players],
        "board2": list(h.board2),
    }


def after_hand_show(s: State, h: Hand, seat: int, kind: str, events: list[Event]) -> None:
    h.order = [x for x in h.order if x != seat]
    if kind == "show":
        showdown.show(h, seat, events)
        summarise(s, h)
        # Shown after the hand: the cards become visible in the history's deal lines; PHH has no
        # action for it after the showdown, so the actions stay as played.
        s.history = [*s.history[:-1], {**s.history[-1], "shown": [h.shown[x] for x in h.players]}]
    if not h.order:
        begin_hand(s, events)


def apply_table(s: State, seat: int, action: Mapping[str, Any], events: list[Event]) -> None:
    """A table move (``table.apply_table``), then the next hand when one is due."""
    if table.apply_table(s, seat, action, events):
        begin_hand(s, events)
