"""The hold'em table: hands, betting, pots and showdown (rules H1–H24 of docs/rules/holdem.md).

Dealing order (what a fixed ``deck`` means, top first): two rounds of hole cards, one card at a
time, starting with the first player dealt in left of the button (the small blind, H10; heads-up
the big blind, as the button deals to the other player first), then burn, flop (3), burn, turn,
burn, river (H12–H14). A second run (run it twice) continues from the deck the same way. A deck
may be given partly; the missing cards follow in the order of ``cards.deck()``.

Every hand of a table takes its shuffle from the one seed: hand ``n`` is shuffled by
``SeededRandom(seed, f"hand-{n}")``; fixed decks, when given, replace the first hands' shuffles.

The table, not only the hand: the button moves by the dead-button rule (the big blind moves to
the next player every hand, the small blind sits where the big blind was, the button where the
small blind was, so nobody skips or repeats the big blind when players bust or leave; heads-up
the button posts the small blind, H8). Joining, leaving, sitting out and in, rebuys, closing the
table and the tournament clock are actions too (see ``TABLE_ACTIONS``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import Event, IllegalAction
from app.games.cards import RANKS, SUITS, SeededRandom, deck, is_card
from app.games.holdem.evaluator import hand_name, name_of, strength7
from app.games.holdem.rules import Level, RuleSheet
from app.games.holdem.shuffle import shuffle
from app.games.holdem.state import Hand, State

Action = dict[str, Any]

BETTING_ACTIONS = ("fold", "check", "call", "bet", "raise", "all_in")
HAND_ACTIONS = (*BETTING_ACTIONS, "straddle", "no_straddle", "run_twice", "run_once", "show", "muck")
TABLE_ACTIONS = ("join", "leave", "sit_out", "sit_in", "rebuy", "top_up", "close_table", "clock")
STREETS = ("preflop", "flop", "turn", "river")
FULL_DECK = deck()
_SUIT_ORDER = {s: i for i, s in enumerate(SUITS)}
_new = object.__new__


def _event(kind: str, data: Mapping[str, Any], audience: tuple[int, ...] | None = None) -> Event:
    """``Event(kind, data, audience)``, built about three times quicker.

    A hand emits some forty events and the frozen dataclass's ``__init__`` sets each field
    through ``object.__setattr__``; filling the instance dictionary directly gives an equal
    event (a test compares the two, so a change to ``Event`` cannot slip past).
    """
    e = _new(Event)
    d = e.__dict__
    d["type"] = kind
    d["data"] = data
    d["audience"] = audience
    return e


# -- building a table ---------------------------------------------------------------------------


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
        if len(stacks) != players or not all(
            isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in stacks
        ):
            raise IllegalAction("bad_stacks", "Give one positive whole stack per player.")
        chips[:players] = stacks
    state = State(
        sheet=sheet,
        seed=seed,
        decks=[_full_deck(d) for d in decks],
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
        hands=0,
        level=0,
        clock_start=None,
        clock_level=0,
        last_button=-1,
        last_sb=-1,
        last_bb=-1,
        closing=False,
        over=False,
        draw={},
        hand=None,
        last=None,
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
    events: list[Event] = [_event("table_opened", {"button": button, "players": players})]
    begin_hand(state, events, fresh=True)
    return state, events


def _full_deck(cards: list[str]) -> list[str]:
    if not isinstance(cards, list) or not all(is_card(c) and c[0] != "X" for c in cards):
        raise IllegalAction("bad_deck", "A deck is a list of two-character card codes, rank then suit.")
    if len(set(cards)) != len(cards):
        raise IllegalAction("bad_deck", "A deck may hold each card only once.")
    given = set(cards)
    return list(cards) + [c for c in FULL_DECK if c not in given]


def current_level(state: State) -> Level:
    return state.sheet.level(state.level)


# -- starting a hand -----------------------------------------------------------------------------


_RINGS = [[[(seat + i) % n for i in range(1, n + 1)] for seat in range(n)] for n in range(11)]


def _after(seat: int, n: int) -> list[int]:
    """The seats clockwise after ``seat`` (``seat`` itself last). Shared: do not change it."""
    return _RINGS[n][seat]


def begin_hand(s: State, events: list[Event], fresh: bool = False) -> None:
    """Settle the table between hands and deal the next hand if one can be dealt.

    ``fresh``: ``s`` was just built by ``new_table`` and shares no seat lists yet."""
    sheet = s.sheet
    n = len(s.stacks)
    if not fresh:
        s.own()
    s.hand = None
    for seat in range(n):
        if not s.occupied[seat]:
            continue
        if s.leaving[seat]:
            _cash_out(s, seat, events)
            continue
        if s.add[seat]:
            s.stacks[seat] += s.add[seat]
            s.add[seat] = 0
        if s.sit_out[seat]:
            s.status[seat] = "out"
            s.sit_out[seat] = False
    if sheet.format == "tournament":
        alive = [seat for seat in range(n) if s.occupied[seat] and s.stacks[seat] > 0]
        if len(alive) <= 1 or s.closing:
            _finish_table(s, events)
            return
        level = s.hands // sheet.level_length if sheet.level_by == "hands" else s.clock_level
        level = min(level, max(len(sheet.levels) - 1, 0))
        if level != s.level:
            s.level = level
            lv = current_level(s)
            events.append(
                _event(
                    "level",
                    {
                        "level": level + 1,
                        "small_blind": lv.small_blind,
                        "big_blind": lv.big_blind,
                        "ante": lv.ante,
                    },
                )
            )
    elif s.closing or (sheet.max_hands and s.hands >= sheet.max_hands):
        _finish_table(s, events)
        return
    ready = [
        seat
        for seat in range(n)
        if s.occupied[seat] and s.stacks[seat] > 0 and s.status[seat] in ("playing", "waiting", "away")
    ]
    if len(ready) < 2:
        return  # the table waits for players, rebuys or the host
    posters: list[int] = []
    if s.last_bb < 0:
        # The first hand: everyone seated is dealt in; the button came from the draw (H4).
        for seat in ready:
            if s.status[seat] == "waiting":
                s.status[seat] = "playing"
        dealt = ready
        button = (
            s.last_button
            if s.last_button in dealt
            else next(x for x in _after(s.last_button, n) if x in dealt)
        )
        if len(dealt) == 2:
            sb = button  # H8: heads-up the button posts the small blind
            bb = next(x for x in _after(button, n) if x in dealt)
        else:
            sb = next(x for x in _after(button, n) if x in dealt)
            bb = next(x for x in _after(sb, n) if x in dealt)
        sb_live = True
    else:
        # Dead button: the big blind moves on to the next player waiting or playing, so nobody
        # misses or repeats it; a new player who waits for the big blind (H9) is dealt in here.
        bb = next(x for x in _after(s.last_bb, n) if x in ready)
        dealt = [x for x in ready if s.status[x] in ("playing", "away") or x == bb]
        if len(dealt) < 2:
            # A table that cannot deal without its waiting players deals them all in: there is
            # no big blind to wait for at a table that does not play.
            dealt = list(ready)
        if len(dealt) == 2:
            button = sb = next(x for x in dealt if x != bb)  # H8; the last big blind never repeats
            sb_live = True
        else:
            sb = s.last_bb
            sb_live = sb in dealt
            button = s.last_sb
            if button == bb or sb == bb:
                button = next(x for x in reversed(_after(bb, n)[:-1]) if x in dealt)
                sb, sb_live = bb, False
            # H9: a new player who posts is dealt in at once, unless sitting between the button
            # and the big blind (the blinds would skip him).
            arc = _after(bb, n)[: _after(bb, n).index(button)]
            for seat in ready:
                if seat not in dealt and s.posting[seat] and seat in arc:
                    dealt.append(seat)
                    posters.append(seat)
        for seat in dealt:
            if s.status[seat] == "waiting":
                s.status[seat] = "playing"
                s.posting[seat] = False
    order = [x for x in _after(button, n) if x in dealt]
    number = s.hands + 1
    # Fixed decks first; then SeededRandom(seed, f"hand-{n}").shuffle, as shuffle.py computes it.
    cards = s.decks[number - 1] if number <= len(s.decks) else shuffle(s.seed, f"hand-{number}", FULL_DECK)
    z = [0] * n
    h = Hand(
        number=number,
        deck=cards,
        pos=0,
        button=button,
        sb=sb,
        sb_live=sb_live,
        bb=bb,
        straddler=-1,
        players=order,
        start=list(s.stacks),
        holes=[[] for _ in range(n)],
        board=[],
        board2=[],
        burns=[],
        street=0,
        phase="bet",
        folded=[x not in dealt for x in range(n)],
        bets=list(z),
        committed=list(z),
        posted=list(z),
        antes=list(z),
        current=0,
        min_inc=0,
        full_level=0,
        bet_count=0,
        acted=[-1] * n,
        pending=[False] * n,
        actor=-1,
        aggressor=-1,
        shown=[False] * n,
        mucked=[False] * n,
        votes=[-1] * n,
        order=[],
        awards=[],
        actions=[],
    )
    s.hand = h
    s.last_button, s.last_sb, s.last_bb = button, sb, bb
    lv = current_level(s)
    events.append(
        _event(
            "hand_started",
            {
                "hand": number,
                "button": button,
                "small_blind_seat": sb if sb_live else None,
                "big_blind_seat": bb,
                "players": order,
                "stacks": {_KEY[x]: s.stacks[x] for x in order},
                "blinds": [lv.small_blind, lv.big_blind],
                "ante": lv.ante if sheet.ante_type != "none" else 0,
            },
        )
    )
    # H6: antes first; with a big-blind ante the big blind pays it, before the blind itself.
    if sheet.ante_type == "every_player" and lv.ante:
        for seat in order:
            _post(s, h, seat, lv.ante, "ante", events)
    elif sheet.ante_type == "big_blind" and lv.ante:
        _post(s, h, bb, lv.ante, "ante", events)
    if sb_live:
        _post(s, h, sb, lv.small_blind, "small_blind", events)
    _post(s, h, bb, lv.big_blind, "big_blind", events)
    if posters:
        for seat in order:
            if seat in posters:
                _post(s, h, seat, lv.big_blind, "post", events)
    # H5/H17: the bet to match is the full big blind even when the big blind is all-in for less.
    h.current = lv.big_blind
    h.min_inc = lv.big_blind
    h.full_level = lv.big_blind
    h.bet_count = 1
    if sheet.straddle == "utg" and len(order) >= 3:
        utg = next(x for x in _after(bb, n) if x in dealt)
        if s.stacks[utg] > 2 * lv.big_blind and h.bets[utg] == 0:
            h.phase = "straddle"
            h.actor = utg
            return
    _deal_holes(s, h, events)
    _open_round(s, h, events)


def _post(s: State, h: Hand, seat: int, amount: int, kind: str, events: list[Event]) -> None:
    paid = min(amount, s.stacks[seat])
    s.stacks[seat] -= paid
    h.committed[seat] += paid
    if kind == "ante":
        h.antes[seat] += paid
    else:
        h.bets[seat] += paid
        posted = list(h.posted)  # shared with the previous state (Hand.clone)
        posted[seat] += paid
        h.posted = posted
    events.append(
        _event("posted", {"seat": seat, "kind": kind, "amount": paid, "all_in": s.stacks[seat] == 0})
    )


def _deal_holes(s: State, h: Hand, events: list[Event]) -> None:
    # H10: one card at a time, twice around: the k-th player gets cards k and k + len(players).
    players, deck, pos = h.players, h.deck, h.pos
    count = len(players)
    holes: list[list[str]] = [[] for _ in range(len(s.stacks))]
    h.pos = pos + 2 * count
    events.append(_event("dealt", {"seats": list(players)}))
    actions = h.actions
    for k, seat in enumerate(players, pos):
        a, b = deck[k], deck[k + count]
        holes[seat] = [a, b]
        events.append(_event("hole_cards", {"seat": seat, "cards": [a, b]}, (seat,)))
        actions.append(f"d dh s{seat} {a}{b}")
    h.holes = holes


# -- betting ---------------------------------------------------------------------------------------


def _open_round(s: State, h: Hand, events: list[Event]) -> None:
    """Start the betting of the current street, or run the board out when nobody can bet."""
    h.phase = "bet"
    pending, acted, folded, stacks = h.pending, h.acted, h.folded, s.stacks
    for seat in h.players:
        pending[seat] = not folded[seat] and stacks[seat] > 0  # may still act
        acted[seat] = -1
    # H11, H7: preflop left of the big blind (or the straddler); H12: then left of the button.
    start = (h.straddler if h.straddler >= 0 else h.bb) if h.street == 0 else h.button
    h.actor = -1
    _advance(s, h, start, events)


def _advance(s: State, h: Hand, after: int, events: list[Event]) -> None:
    """Give the turn to the next seat that must act after ``after``, or close the round (H15)."""
    folded, stacks, pending = h.folded, s.stacks, h.pending
    # Seats not dealt in count as folded (begin_hand), so the unfolded seats are the live players.
    if folded.count(False) == 1:
        _end_hand_uncontested(s, h, folded.index(False), events)
        return
    for seat in _RINGS[len(folded)][after]:
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
    _close_round(s, h, events)


_MEMO: list[Any] = [None, -1, None]
_FOLD = [f"s{seat} f" for seat in range(10)]  # PHH action lines, made once
_KEY = [str(seat) for seat in range(10)]  # seats as JSON object keys
_CHECK_CALL = [f"s{seat} cc" for seat in range(10)]


def betting_options(s: State, h: Hand, seat: int) -> dict[str, Any]:
    """What ``seat`` may do now: call amount, whether it may raise, and the raise-to bounds.

    Remembered for the last hand object asked: states never change, so ``legal_actions`` and
    the ``apply`` that follows share one computation. The answer must not be changed.
    """
    memo = _MEMO
    if memo[0] is h and memo[1] == seat:
        return memo[2]  # type: ignore[no-any-return]
    opts = _betting_options(s, h, seat)
    memo[0], memo[1], memo[2] = h, seat, opts
    return opts


def _betting_options(s: State, h: Hand, seat: int) -> dict[str, Any]:
    stack = s.stacks[seat]
    mine = h.bets[seat]
    top = mine + stack  # the most this seat can have in front of it (table stakes, H21)
    current = h.current
    to_call = current - mine if current > mine else 0
    call = to_call if to_call < stack else stack
    if stack <= to_call:
        # Calling takes every chip: no raise possible.
        return {"call": call, "to_call": to_call, "can_raise": False, "min": 0, "max": 0}
    # A raise nobody could answer is no raise: the others are all-in or cannot cover more than
    # the bet (an all-in over them is a call; the rest would come back as uncalled).
    bets, stacks, folded = h.bets, s.stacks, h.folded
    opts: dict[str, Any] = {"call": call, "to_call": to_call, "can_raise": False, "min": 0, "max": 0}
    for x in h.players:
        if x != seat and not folded[x] and bets[x] + stacks[x] > current:
            break  # this player can answer a raise
    else:
        return opts
    sheet = s.sheet
    if sheet.variant == "fixed_limit":
        size = current_level(s).big_blind * (2 if h.street >= 2 else 1)  # H13: doubled from the turn
        reopened = h.acted[seat] < 0 or h.full_level > h.acted[seat]
        if not reopened or cap_holds(s, h):
            return opts
        target = h.full_level + size if h.current > 0 else size
        target = max(target, h.current + 1)
        opts.update(can_raise=True, min=min(target, top), max=min(target, top))
        return opts
    # No limit and pot limit (H16, H17): at least the last full bet or raise of this round; a
    # short all-in reopens the betting only for players who have not acted, or once the short
    # raises since a player acted add up to a full raise.
    acted = h.acted[seat]
    if acted >= 0 and current - acted < h.min_inc:
        return opts  # not reopened
    low = current + h.min_inc if current > 0 else max(h.min_inc, 1)
    high = top
    if sheet.variant == "pot_limit":
        pot = sum(h.committed)
        high = min(top, current + pot + to_call)
    low = low if low < top else top
    high = high if high < top else top
    if high < low:
        high = low
    return {"call": call, "to_call": to_call, "can_raise": True, "min": low, "max": high}


def in_the_betting(s: State, h: Hand, seat: int = -1) -> int:
    """Players still in the betting: not folded and with chips behind (``seat`` counted anyway,
    for a raise being paid)."""
    folded, stacks = h.folded, s.stacks
    return sum(1 for x in h.players if not folded[x] and (stacks[x] > 0 or x == seat))


def cap_holds(s: State, h: Hand) -> bool:
    """H16, fixed limit: the round's bets and raises reached the cap, and it is not lifted for two
    players heads-up (Robert's Rules 3.4: no cap heads-up, unless capped before it became so)."""
    sheet = s.sheet
    if not sheet.raise_cap or h.bet_count < sheet.raise_cap:
        return False
    return not sheet.heads_up_uncapped or h.capped or in_the_betting(s, h) > 2


def legal_bets(s: State, h: Hand, seat: int) -> list[Action]:
    o = betting_options(s, h, seat)
    stack = s.stacks[seat]
    to_call = o["to_call"]
    actions: list[Action] = (
        [{"type": "fold"}, {"type": "call", "amount": o["call"]}] if to_call > 0 else [{"type": "check"}]
    )
    top = h.bets[seat] + stack
    if o["can_raise"]:
        high = o["max"]
        actions.append({"type": "bet" if h.current == 0 else "raise", "min": o["min"], "max": high})
        if high == top:
            actions.append({"type": "all_in", "to": top})
    elif stack <= to_call:
        actions.append({"type": "all_in", "to": top})
    return actions


def _amount(action: Mapping[str, Any], key: str) -> int:
    value = action.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalAction("bad_amount", f"'{key}' must be a whole number of chips.")
    if value < 0:
        raise IllegalAction("bad_amount", f"'{key}' may not be negative.")
    return value


def _check_keys(action: Mapping[str, Any], allowed: tuple[str, ...]) -> None:
    extra = [k for k in action if k != "type" and k not in allowed]
    if extra:
        raise IllegalAction("bad_action", f"Unexpected field {str(extra[0])[:20]!r} in this action.")


def apply_bet(
    s: State, h: Hand, seat: int, action: Mapping[str, Any], events: list[Event], o: dict[str, Any]
) -> None:
    """Apply a betting move; ``o`` is ``betting_options`` of the state before the move."""
    kind = action["type"]
    stack = s.stacks[seat]
    top = h.bets[seat] + stack
    to_call = h.current - h.bets[seat] if h.current > h.bets[seat] else 0
    if kind == "fold":
        if len(action) > 1:
            _check_keys(action, ())
        if to_call == 0:
            raise IllegalAction("cannot_fold", "Nothing to call: check instead of folding.")
        folded = list(h.folded)  # shared with the previous state (Hand.clone)
        folded[seat] = True
        h.folded = folded
        h.pending[seat] = False
        h.actions.append(_FOLD[seat])
        events.append(_event("fold", {"seat": seat}))
        _advance(s, h, seat, events)
        return
    if kind == "check":
        if len(action) > 1:
            _check_keys(action, ())
        if to_call > 0:
            raise IllegalAction("cannot_check", f"There are {to_call} chips to call; fold, call or raise.")
        h.pending[seat] = False
        h.acted[seat] = h.current
        h.actions.append(_CHECK_CALL[seat])
        events.append(_event("check", {"seat": seat}))
        _advance(s, h, seat, events)
        return
    if kind == "call" or (kind == "all_in" and stack <= to_call):
        pay = to_call if to_call < stack else stack
        if kind == "call":
            if len(action) > 1:
                _check_keys(action, ("amount",))
            if "amount" in action and _amount(action, "amount") != pay:
                raise IllegalAction("bad_amount", f"The call is {pay}.")
        else:
            _check_keys(action, ("to",))
            if "to" in action and _amount(action, "to") != top:
                raise IllegalAction("bad_amount", f"All-in is a total of {top} this round.")
        if to_call == 0:
            raise IllegalAction("nothing_to_call", "There is nothing to call; check or bet.")
        s.stacks[seat] -= pay
        h.bets[seat] += pay
        h.committed[seat] += pay
        h.pending[seat] = False
        h.acted[seat] = h.current
        h.actions.append(_CHECK_CALL[seat])
        events.append(_event("call", {"seat": seat, "amount": pay, "all_in": s.stacks[seat] == 0}))
        _advance(s, h, seat, events)
        return
    if kind == "all_in":
        _check_keys(action, ("to",))
        if "to" in action and _amount(action, "to") != top:
            raise IllegalAction("bad_amount", f"All-in is a total of {top} this round.")
        if not o["can_raise"] or o["max"] != top:
            raise IllegalAction(
                "raise_closed" if not o["can_raise"] else "above_maximum", "You may not raise all-in now."
            )
        to = top
    else:
        _check_keys(action, ("to",))
        if kind == "bet" and h.current > 0:
            raise IllegalAction("bet_not_allowed", "There is already a bet: raise instead.")
        if kind == "raise" and h.current == 0:
            raise IllegalAction("raise_not_allowed", "Nobody has bet: bet instead.")
        if "to" not in action:
            raise IllegalAction("bad_amount", f"A {kind} needs 'to', the total you put in this round.")
        to = _amount(action, "to")
        if not o["can_raise"]:
            raise IllegalAction(
                "raise_closed",
                "The betting is capped for this round."
                if s.sheet.variant == "fixed_limit" and cap_holds(s, h)
                else "Raising is closed to you: the short all-in did not reopen the betting.",
            )
        if to > top:
            raise IllegalAction("above_stack", f"You have only {top} in all this round (table stakes).")
        if to < o["min"]:
            raise IllegalAction("below_minimum", f"The smallest {kind} is to {o['min']}.")
        if to > o["max"]:
            raise IllegalAction("above_maximum", f"The largest {kind} is to {o['max']}.")
    _raise_to(s, h, seat, to, events)


def _raise_to(s: State, h: Hand, seat: int, to: int, events: list[Event]) -> None:
    sheet = s.sheet
    pay = to - h.bets[seat]
    s.stacks[seat] -= pay
    h.bets[seat] = to
    h.committed[seat] += pay
    inc = to - h.current
    if sheet.variant == "fixed_limit":
        size = current_level(s).big_blind * (2 if h.street >= 2 else 1)
        # A short all-in of at least half a bet counts as a full one (TDA); less only completes.
        full = to - h.full_level >= size or 2 * (to - h.full_level) >= size
        if full:
            h.full_level = to
            h.bet_count += 1
            if sheet.raise_cap and h.bet_count >= sheet.raise_cap and in_the_betting(s, h, seat) > 2:
                h.capped = True  # capped multi-way: a later fold does not lift it (H16)
    else:
        full = inc >= h.min_inc
        if full:
            h.min_inc = inc  # H17: the next raise is at least this one
    kind = "bet" if h.current == 0 else "raise"
    h.current = to
    h.aggressor = seat
    h.acted[seat] = to
    pending, folded, stacks = h.pending, h.folded, s.stacks
    for x in h.players:
        pending[x] = not folded[x] and stacks[x] > 0  # may still act
    pending[seat] = False
    h.actions.append(f"s{seat} cbr {to}")
    events.append(_event(kind, {"seat": seat, "to": to, "all_in": s.stacks[seat] == 0, "full": full}))
    _advance(s, h, seat, events)


def _return_uncalled(s: State, h: Hand, events: list[Event]) -> None:
    bets = h.bets
    top = max(bets)
    if top == 0 or bets.count(top) != 1:
        return  # nothing bet, or matched by another player
    seat = bets.index(top)
    second = max(bets[:seat] + bets[seat + 1 :])
    back = top - second
    s.stacks[seat] += back
    h.bets[seat] -= back
    h.committed[seat] -= back
    events.append(_event("returned", {"seat": seat, "amount": back}))


def _close_round(s: State, h: Hand, events: list[Event]) -> None:
    _return_uncalled(s, h, events)
    h.bets = [0] * len(s.stacks)
    h.current = 0
    live = [x for x in h.players if not h.folded[x]]
    able = [x for x in live if s.stacks[x] > 0]
    if h.street == 3:
        if len(able) < len(live):
            # H19, TDA Rule 16: a player is all-in and all betting is complete: every hand is
            # turned face up, the river's called all-in included; nobody mucks.
            for seat in live:
                if not h.shown[seat]:
                    _show(h, seat, events, _score(h, seat, h.board))
        _showdown(s, h, events)
        return
    if len(able) >= 2:
        _next_street(s, h, 1, events)
        lv = current_level(s)
        h.min_inc = lv.big_blind * (2 if s.sheet.variant == "fixed_limit" and h.street >= 2 else 1)
        h.full_level = 0
        h.bet_count = 0
        h.capped = False
        h.aggressor = -1
        _open_round(s, h, events)
        return
    # H19: all-in with no betting left: every hand is turned up at once.
    for seat in h.players:
        if not h.folded[seat] and not h.shown[seat]:
            _show(h, seat, events)
    if s.sheet.run_it_twice == "ask" and h.street < 3:
        h.phase = "run_twice"
        h.actor = -1
        h.votes = [-1 if x in live else 0 for x in range(len(s.stacks))]
        return
    _run_out(s, h, events)


def _next_street(s: State, h: Hand, run: int, events: list[Event]) -> None:
    # Lists shared with the previous state (see Hand.clone) are replaced, never changed.
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
    events.append(_event("board", {"street": STREETS[len(board) - 2], "cards": list(cards), "run": run}))


def _run_out(s: State, h: Hand, events: list[Event], twice: bool = False) -> None:
    board2_base = list(h.board)
    while len(h.board) < 5:
        _next_street(s, h, 1, events)
    if twice:
        h.board2 = board2_base
        while len(h.board2) < 5:
            _next_street(s, h, 2, events)
    h.street = 3
    _showdown(s, h, events)


# -- showdown and pots -------------------------------------------------------------------------------


def pots(h: Hand) -> list[tuple[int, list[int]]]:
    """The main pot and side pots (H21): (amount, seats that may win it), in order.

    Bets are layered by how much each live player put in; antes are dead money of the main
    pot (a big-blind ante is paid for the whole table, so everyone contests it).
    """
    players, committed, antes, folded = h.players, h.committed, h.antes, h.folded
    live = [x for x in players if not folded[x]]
    if len({committed[x] - antes[x] for x in live}) == 1:
        # Nobody live is all-in for less than the others: one pot of everything put in, which
        # the layering below would also give (one level, capped at the top).
        total = sum([committed[x] for x in players])
        return [(total, live)] if total else []
    paid = {x: committed[x] - antes[x] for x in players}
    levels = sorted({paid[x] for x in live})
    top = max(paid.values())
    out: list[tuple[int, list[int]]] = []
    prev = 0
    dead = sum(antes[x] for x in players)
    last = len(levels) - 1
    for i, level in enumerate(levels):
        cap = level if i < last or level > top else top
        amount = dead
        dead = 0
        for x in players:
            p = paid[x]
            if p > prev:
                amount += (p if p < cap else cap) - prev
        if amount:
            out.append((amount, [x for x in players if not folded[x] and paid[x] >= level]))
        prev = cap
    return out


def _show(h: Hand, seat: int, events: list[Event], rank: int = 0) -> None:
    """Table ``seat``'s cards; ``rank``, when given, is its ``strength`` on the whole board."""
    shown = list(h.shown)
    shown[seat] = True
    h.shown = shown
    cards = h.holes[seat]
    h.actions.append(f"s{seat} sm {''.join(cards)}")
    events.append(
        _event(
            "show",
            {
                "seat": seat,
                "cards": list(cards),
                "hand": (name_of(rank, [*cards, *h.board]) if rank else hand_name([*cards, *h.board]))
                if len(h.board) == 5
                else None,
            },
        )
    )


def _muck(h: Hand, seat: int, events: list[Event]) -> None:
    mucked = list(h.mucked)
    mucked[seat] = True
    h.mucked = mucked
    h.actions.append(f"s{seat} sm")
    events.append(_event("muck", {"seat": seat}))


def _score(h: Hand, seat: int, board: list[str]) -> int:
    a, b = h.holes[seat]
    return strength7(a, b, *board)


def _could_win(
    h: Hand,
    seat: int,
    pot_list: list[tuple[int, list[int]]] | None = None,
    scores: dict[int, int] | None = None,
) -> bool:
    """Whether ``seat`` beats or ties every shown hand in some pot it may win (auto showdown).

    ``scores`` may give the live hands' strengths on the board, computed once per showdown."""
    if scores is None:
        scores = {x: _score(h, x, h.board) for x in h.players if not h.folded[x]}
    mine = scores[seat]
    shown = h.shown
    for _, eligible in pot_list if pot_list is not None else pots(h):
        if seat not in eligible:
            continue
        for x in eligible:
            if x != seat and shown[x] and scores[x] < mine:
                break  # a shown hand beats it in this pot
        else:
            return True
    return False


def must_show(h: Hand, seat: int, pot_list: list[tuple[int, list[int]]] | None = None) -> bool:
    """The last hand not mucked in one of its pots may not muck: somebody has to win it."""
    mucked = h.mucked
    for _, eligible in pot_list if pot_list is not None else pots(h):
        if seat in eligible:
            for x in eligible:
                if x != seat and not mucked[x]:
                    break  # another hand still contests this pot
            else:
                return True
    return False


def _showdown(s: State, h: Hand, events: list[Event]) -> None:
    live = [x for x in h.players if not h.folded[x]]
    undecided = [x for x in live if not h.shown[x] and not h.mucked[x]]
    if undecided:
        # H19: the river's last aggressor shows first, else the first player left of the button.
        if h.aggressor >= 0 and h.aggressor in live:
            start = h.aggressor
        else:
            start = next(x for x in _after(h.button, len(s.stacks)) if x in live)
        ring = [start, *[x for x in _after(start, len(s.stacks))[:-1]]]
        h.order = [x for x in ring if x in undecided]
        h.phase = "showdown"
        if s.sheet.showdown == "ask":
            h.actor = h.order[0]
            return
        pot_list = pots(h)
        scores = {x: _score(h, x, h.board) for x in live}
        while h.order:
            seat = h.order[0]
            h.order = h.order[1:]
            if must_show(h, seat, pot_list) or _could_win(h, seat, pot_list, scores):
                _show(h, seat, events, scores[seat])
            else:
                _muck(h, seat, events)
        _award(s, h, events, pot_list, scores)
        return
    _award(s, h, events)


def decide_showdown(s: State, h: Hand, seat: int, kind: str, events: list[Event]) -> None:
    if kind == "muck" and must_show(h, seat):
        raise IllegalAction("must_show", "Every other hand in your pot is mucked: show to win it.")
    h.order = h.order[1:]
    if kind == "show":
        _show(h, seat, events)
    else:
        _muck(h, seat, events)
    if h.order:
        h.actor = h.order[0]
        return
    h.actor = -1
    _award(s, h, events)


def _split(amount: int, winners: list[int], button: int, n: int) -> dict[int, int]:
    """H20: equal shares; odd chips one each to the winners in order from the button's left."""
    if len(winners) == 1:
        return {winners[0]: amount}
    share, odd = divmod(amount, len(winners))
    ordered = [x for x in _after(button, n) if x in winners]
    return {x: share + (1 if i < odd else 0) for i, x in enumerate(ordered)}


def _award(
    s: State,
    h: Hand,
    events: list[Event],
    pot_list: list[tuple[int, list[int]]] | None = None,
    scores: dict[int, int] | None = None,
) -> None:
    """Share out the pots; ``pot_list`` and ``scores`` (strengths on ``h.board``) when known."""
    runs = [h.board, h.board2] if h.board2 else [h.board]
    two = len(runs) == 2
    n = len(s.stacks)
    won = [0] * n
    shown, mucked, holes = h.shown, h.mucked, h.holes
    showing = [x for x in h.players if shown[x] and not mucked[x]]
    ranked = [
        {x: scores[x] if scores is not None and run == 0 else _score(h, x, board) for x in showing}
        for run, board in enumerate(runs)
    ]
    awards = list(h.awards)  # shared with the previous state (Hand.clone): replaced, not changed
    for number, (amount, eligible) in enumerate(pot_list if pot_list is not None else pots(h)):
        contenders = [x for x in eligible if x in showing]
        for run, board in enumerate(runs):
            # Run twice: the first run takes the odd chip of the pot.
            part = (amount // 2 if run else amount - amount // 2) if two else amount
            if not part:
                continue
            rank = ranked[run]
            best = min([rank[x] for x in contenders])
            winners = [x for x in contenders if rank[x] == best]
            shares = _split(part, winners, h.button, n)
            for x, v in shares.items():
                won[x] += v
            line = {
                "pot": number,
                "amount": part,
                "run": run + 1,
                "shares": {_KEY[k]: v for k, v in shares.items()},
                "hand": name_of(best, [*holes[winners[0]], *board]),
                "contenders": contenders,
            }
            awards.append(line)
            events.append(_event("pot_won", line))
    h.awards = awards
    _finish_hand(s, h, won, events)


def _end_hand_uncontested(s: State, h: Hand, winner: int, events: list[Event]) -> None:
    """H15: everyone else folded; the last player wins without showing."""
    h.actor = -1
    _return_uncalled(s, h, events)
    amount = sum(h.committed)
    won = [0] * len(s.stacks)
    won[winner] = amount
    line = {"pot": 0, "amount": amount, "run": 1, "shares": {_KEY[winner]: amount}, "hand": None}
    h.awards = [*h.awards, line]
    events.append(_event("pot_won", line))
    _finish_hand(s, h, won, events)


def _finish_hand(s: State, h: Hand, won: list[int], events: list[Event]) -> None:
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
            events.append(_event("eliminated", {"seats": group}))
    s.history = [*s.history, _history_record(s, h)]
    stacks = {_KEY[x]: s.stacks[x] for x in h.players}
    events.append(_event("hand_over", {"hand": h.number, "stacks": stacks}))
    _summarise(s, h)
    if s.sheet.show_after_hand:
        may_show = [x for x in h.players if not h.shown[x] and h.holes[x]]
        if may_show:
            h.phase = "show"
            h.order = may_show
            return
    begin_hand(s, events)


def _summarise(s: State, h: Hand) -> None:
    s.last = {
        "hand": h.number,
        "button": h.button,
        "board": list(h.board),
        "board2": list(h.board2),
        "shown": {_KEY[x]: list(h.holes[x]) for x in h.players if h.shown[x]},
        "mucked": [x for x in h.players if h.mucked[x]],
        "awards": list(h.awards),
    }


def _history_record(s: State, h: Hand) -> dict[str, Any]:
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
        "blinds": [_nominal_blind(h, lv, x) for x in players],
        "posts": [posted[x] if x not in blind_seats else 0 for x in players],
        "min_bet": lv.big_blind,
        "small_bet": lv.big_blind,
        "holes": [list(h.holes[x]) for x in h.players],
        "shown": [h.shown[x] for x in h.players],
        "actions": list(h.actions),
        "finishing_stacks": [s.stacks[x] for x in h.players],
        "board2": list(h.board2),
    }


def _nominal_blind(h: Hand, lv: Level, seat: int) -> int:
    if seat == h.straddler:
        return 2 * lv.big_blind
    if seat == h.bb:
        return lv.big_blind
    if seat == h.sb and h.sb_live:
        return lv.small_blind
    return 0


def after_hand_show(s: State, h: Hand, seat: int, kind: str, events: list[Event]) -> None:
    h.order = [x for x in h.order if x != seat]
    if kind == "show":
        _show(h, seat, events)
        _summarise(s, h)
        # Shown after the hand: the cards become visible in the history's deal lines; PHH has no
        # action for it after the showdown, so the actions stay as played.
        s.history = [*s.history[:-1], {**s.history[-1], "shown": [h.shown[x] for x in h.players]}]
    if not h.order:
        begin_hand(s, events)


# -- the table ---------------------------------------------------------------------------------------


def _cash_out(s: State, seat: int, events: list[Event]) -> None:
    stack = s.stacks[seat] + s.add[seat]
    s.ledger = [*s.ledger, {"seat": seat, "buy_in": s.bought[seat], "cash_out": stack}]
    events.append(_event("left", {"seat": seat, "cash_out": stack}))
    s.occupied[seat] = False
    s.status[seat] = "empty"
    s.stacks[seat] = 0
    s.add[seat] = 0
    s.bought[seat] = 0
    s.leaving[seat] = False
    s.sit_out[seat] = False
    s.posting[seat] = False


def _finish_table(s: State, events: list[Event]) -> None:
    s.over = True
    s.hand = None
    if s.sheet.format == "cash":
        for seat in range(len(s.stacks)):
            if s.occupied[seat]:
                _cash_out(s, seat, events)
        events.append(_event("table_closed", {"ledger": list(s.ledger)}))
    else:
        alive = sorted(
            (x for x in range(len(s.stacks)) if s.occupied[x] and s.stacks[x] > 0), key=lambda x: -s.stacks[x]
        )
        for seat in reversed(alive[1:]):
            s.places = [*s.places, [seat]]
        if alive:
            s.places = [*s.places, [alive[0]]]
        events.append(_event("tournament_over", {"winner": alive[0] if alive else None}))


def in_live_hand(s: State, seat: int) -> bool:
    h = s.hand
    return h is not None and h.phase not in ("over", "show") and seat in h.players and not h.folded[seat]


def apply_table(s: State, seat: int, action: Mapping[str, Any], events: list[Event]) -> None:
    """Joining, leaving, sitting out and in, rebuys, closing, the clock: between hands or queued."""
    s.own()
    sheet = s.sheet
    kind = action["type"]
    cash = sheet.format == "cash"
    if s.over:
        raise IllegalAction("table_closed", "The table is closed.")
    if kind == "clock":
        _check_keys(action, ("now",))
        now = action.get("now")
        if isinstance(now, bool) or not isinstance(now, (int, float)) or now != now or now < 0:
            raise IllegalAction("bad_clock", "'now' must be a time in seconds.")
        if sheet.format != "tournament" or sheet.level_by != "minutes":
            raise IllegalAction("no_clock", "This table's blinds do not rise with time.")
        if s.clock_start is None:
            s.clock_start = float(now)
        elif now < s.clock_start:
            raise IllegalAction("bad_clock", "The clock cannot go back before the start.")
        level = int((float(now) - s.clock_start) // (sheet.level_length * 60))
        s.clock_level = max(s.clock_level, level)  # takes effect from the next hand (H22)
        return
    if kind == "close_table":
        _check_keys(action, ())
        s.closing = True
        events.append(_event("closing", {"seat": seat}))
        if s.hand is None or s.hand.phase in ("over", "show"):
            _finish_table(s, events)
        return
    if not cash and kind in ("sit_out", "sit_in"):
        # A tournament player who sits out stays dealt in and is blinded away: the room server
        # answers the seat's turns at once with timeout_action (check, else fold).
        _check_keys(action, ("post",) if kind == "sit_in" else ())
        if not (0 <= seat < len(s.stacks)) or not s.occupied[seat]:
            raise IllegalAction("not_seated", "You have no seat at this table.")
        if (s.status[seat] == "away") == (kind == "sit_out"):
            already = kind == "sit_out"
            raise IllegalAction(
                "already_out" if already else "not_out",
                "You are already sitting out." if already else "You are not sitting out.",
            )
        s.status[seat] = "away" if kind == "sit_out" else "playing"
        events.append(_event("sitting_out" if kind == "sit_out" else "sitting_in", {"seat": seat}))
        return
    if not cash:
        raise IllegalAction("not_cash", "Tournament seats change only by elimination.")
    if kind == "join":
        _check_keys(action, ("seat", "buy_in", "post"))
        target = action.get("seat", seat)
        if target != seat or isinstance(target, bool) or not isinstance(target, int):
            raise IllegalAction("bad_seat", "Join the seat you are taking.")
        if not 0 <= seat < len(s.stacks):
            raise IllegalAction("bad_seat", f"Seats are numbered 0 to {len(s.stacks) - 1}.")
        if s.occupied[seat]:
            raise IllegalAction("seat_taken", "That seat is taken.")
        buy_in = _amount(action, "buy_in") if "buy_in" in action else sheet.buy_in_default
        if not sheet.buy_in_min <= buy_in <= sheet.buy_in_max:
            raise IllegalAction("buy_in_range", f"Buy in for {sheet.buy_in_min} to {sheet.buy_in_max}.")
        post = action.get("post", False)
        if not isinstance(post, bool):
            raise IllegalAction("bad_action", "'post' is true or false.")
        s.occupied[seat] = True
        s.stacks[seat] = buy_in
        s.bought[seat] = buy_in
        s.status[seat] = "waiting"
        s.posting[seat] = post
        events.append(_event("joined", {"seat": seat, "buy_in": buy_in, "post": post}))
    else:
        if not (0 <= seat < len(s.stacks)) or not s.occupied[seat]:
            raise IllegalAction("not_seated", "You have no seat at this table.")
        if kind == "leave":
            _check_keys(action, ())
            if in_live_hand(s, seat):
                s.leaving[seat] = True  # H22: leave at any time; the hand in play is finished first
                events.append(_event("leaving", {"seat": seat}))
            else:
                _cash_out(s, seat, events)
                h = s.hand
                if h is not None and h.phase == "show" and seat in h.order:
                    h.order = [x for x in h.order if x != seat]  # no more choice to show
                    if not h.order:
                        begin_hand(s, events)
        elif kind == "sit_out":
            _check_keys(action, ())
            if s.status[seat] == "out":
                raise IllegalAction("already_out", "You are already sitting out.")
            if in_live_hand(s, seat):
                s.sit_out[seat] = True
            else:
                s.status[seat] = "out"
            events.append(_event("sitting_out", {"seat": seat}))
        elif kind == "sit_in":
            _check_keys(action, ("post",))
            post = action.get("post", False)
            if not isinstance(post, bool):
                raise IllegalAction("bad_action", "'post' is true or false.")
            if s.sit_out[seat]:
                s.sit_out[seat] = False
            elif s.status[seat] != "out":
                raise IllegalAction("not_out", "You are not sitting out.")
            else:
                # H9: back from sitting out, wait for the big blind or post one.
                s.status[seat] = "waiting"
                s.posting[seat] = post
            events.append(_event("sitting_in", {"seat": seat, "post": post}))
        else:  # rebuy or top_up
            _check_keys(action, ("amount", "min", "max"))
            if not sheet.rebuy:
                raise IllegalAction("no_rebuy", "This table allows no rebuys.")
            amount = _amount(action, "amount") if "amount" in action else -1
            low, high = rebuy_range(s, seat)
            if high <= 0:
                raise IllegalAction(
                    "buy_in_range", f"Your stack is already at the largest buy-in, {sheet.buy_in_max}."
                )
            if not low <= amount <= high:
                raise IllegalAction("buy_in_range", f"Buy {low} to {high} chips.")
            s.bought[seat] += amount
            if in_live_hand(s, seat):
                s.add[seat] += amount  # H21: chips bought during a hand play from the next one
            else:
                s.stacks[seat] += amount
            events.append(_event("rebuy", {"seat": seat, "amount": amount}))
    if s.hand is None:
        begin_hand(s, events)


def rebuy_range(s: State, seat: int) -> tuple[int, int]:
    sheet = s.sheet
    have = s.stacks[seat] + s.add[seat] + (s.hand.committed[seat] if in_live_hand(s, seat) and s.hand else 0)
    high = sheet.buy_in_max - have
    low = max(1, sheet.buy_in_min - have)
    return min(low, high), high
