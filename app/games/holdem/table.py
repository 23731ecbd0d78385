"""Table life (H9, H22): seats joining and leaving, sitting out and in, rebuys, the clock,
closing the table, settling the seats between hands, and the end of a table.

A table move returns whether the next hand should be dealt now; ``engine`` deals it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.games.base import Event, IllegalAction
from app.games.holdem.common import FULL_DECK, amount, check_keys, current_level, event
from app.games.holdem.state import State

_CARDS = frozenset(FULL_DECK)


def full_deck(cards: list[str]) -> list[str]:
    """A given deck checked once, when the table opens, and completed in ``cards.deck()`` order."""
    given = checked_deck(cards)
    if len(cards) == 52:
        return list(cards)
    return [*cards, *[c for c in FULL_DECK if c not in given]]


def checked_deck(cards: list[str]) -> set[str]:
    """The cards of a given deck (whole or its top part), refused unless each is a card once.

    One set comparison checks every code: hashing a non-string or a two-character string that
    is no card leaves it out of ``_CARDS`` (unhashable items fall back to the plain check)."""
    if not isinstance(cards, list):
        raise IllegalAction("bad_deck", "A deck is a list of two-character card codes, rank then suit.")
    try:
        given = set(cards)
    except TypeError:
        given = None
    if given is None or not given <= _CARDS:
        raise IllegalAction("bad_deck", "A deck is a list of two-character card codes, rank then suit.")
    if len(given) != len(cards):
        raise IllegalAction("bad_deck", "A deck may hold each card only once.")
    return given


def settle(s: State, events: list[Event]) -> list[int]:
    """Between hands: cash out leavers, add queued rebuys, sit out who asked, raise the blinds
    (tournament) or close the table; the seats ready for the next hand (none: no hand now)."""
    sheet = s.sheet
    n = len(s.stacks)
    for seat in range(n):
        if not s.occupied[seat]:
            continue
        if s.leaving[seat]:
            cash_out(s, seat, events)
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
            finish_table(s, events)
            return []
        raise_level(s, events)
    elif s.closing or (sheet.max_hands and s.hands >= sheet.max_hands):
        finish_table(s, events)
        return []
    ready = [
        seat
        for seat in range(n)
        if s.occupied[seat] and s.stacks[seat] > 0 and s.status[seat] in ("playing", "waiting", "away")
    ]
    return ready if len(ready) >= 2 else []  # else the table waits for players, rebuys or the host


def raise_level(s: State, events: list[Event]) -> None:
    """H22: the tournament's blind level for the next hand, by hands played or by the clock."""
    sheet = s.sheet
    level = s.hands // sheet.level_length if sheet.level_by == "hands" else s.clock_level
    level = min(level, max(len(sheet.levels) - 1, 0))
    if level != s.level:
        s.level = level
        lv = current_level(s)
        data = {"level": level + 1, "small_blind": lv.small_blind, "big_blind": lv.big_blind, "ante": lv.ante}
        events.append(event("level", data))


def cash_out(s: State, seat: int, events: list[Event]) -> None:
    stack = s.stacks[seat] + s.add[seat]
    s.ledger = [*s.ledger, {"seat": seat, "buy_in": s.bought[seat], "cash_out": stack}]
    events.append(event("left", {"seat": seat, "cash_out": stack}))
    s.occupied[seat] = False
    s.status[seat] = "empty"
    s.stacks[seat] = 0
    s.add[seat] = 0
    s.bought[seat] = 0
    s.leaving[seat] = False
    s.sit_out[seat] = False
    s.posting[seat] = False


def finish_table(s: State, events: list[Event]) -> None:
    s.over = True
    s.hand = None
    if s.sheet.format == "cash":
        for seat in range(len(s.stacks)):
            if s.occupied[seat]:
                cash_out(s, seat, events)
        events.append(event("table_closed", {"ledger": list(s.ledger)}))
    else:
        alive = sorted(
            (x for x in range(len(s.stacks)) if s.occupied[x] and s.stacks[x] > 0), key=lambda x: -s.stacks[x]
        )
        for seat in reversed(alive[1:]):
            s.places = [*s.places, [seat]]
        if alive:
            s.places = [*s.places, [alive[0]]]
        events.append(event("tournament_over", {"winner": alive[0] if alive else None}))


def in_live_hand(s: State, seat: int) -> bool:
    h = s.hand
    return h is not None and h.phase not in ("over", "show") and seat in h.players and not h.folded[seat]


def apply_table(s: State, seat: int, action: Mapping[str, Any], events: list[Event]) -> bool:
    """Joining, leaving, sitting out and in, rebuys, closing, the clock: between hands or queued.

    ``s`` is a copy the move may change. Returns whether the next hand should be dealt now."""
    s.own()
    kind = action["type"]
    if s.over:
        raise IllegalAction("table_closed", "The table is closed.")
    if kind == "clock":
        clock(s, action)
        return False
    if kind == "close_table":
        close_table(s, seat, action, events)
        return False
    if s.sheet.format != "cash":
        if kind not in ("sit_out", "sit_in"):
            raise IllegalAction("not_cash", "Tournament seats change only by elimination.")
        tournament_sit_out(s, seat, action, events)
        return False
    if kind == "join":
        join(s, seat, action, events)
    else:
        if not (0 <= seat < len(s.stacks)) or not s.occupied[seat]:
            raise IllegalAction("not_seated", "You have no seat at this table.")
        if CASH_MOVES[kind](s, seat, action, events):
            return True
    return s.hand is None


def clock(s: State, action: Mapping[str, Any]) -> None:
    """The room server's clock for blind levels by minutes; the level changes from the next hand."""
    sheet = s.sheet
    check_keys(action, ("now",))
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


def close_table(s: State, seat: int, action: Mapping[str, Any], events: list[Event]) -> None:
    """The host closes the table; the hand in play is finished first."""
    check_keys(action, ())
    s.closing = True
    events.append(event("closing", {"seat": seat}))
    if s.hand is None or s.hand.phase in ("over", "show"):
        finish_table(s, events)


def tournament_sit_out(s: State, seat: int, action: Mapping[str, Any], events: list[Event]) -> None:
    """A tournament player who sits out stays dealt in and is blinded away: the room server
    answers the seat's turns at once with timeout_action (check, else fold)."""
    kind = action["type"]
    check_keys(action, ("post",) if kind == "sit_in" else ())
    if not (0 <= seat < len(s.stacks)) or not s.occupied[seat]:
        raise IllegalAction("not_seated", "You have no seat at this table.")
    if (s.status[seat] == "away") == (kind == "sit_out"):
        already = kind == "sit_out"
        raise IllegalAction(
            "already_out" if already else "not_out",
            "You are already sitting out." if already else "You are not sitting out.",
        )
    s.status[seat] = "away" if kind == "sit_out" else "playing"
    events.append(event("sitting_out" if kind == "sit_out" else "sitting_in", {"seat": seat}))


def join(s: State, seat: int, action: Mapping[str, Any], events: list[Event]) -> None:
    """H9: a new player takes a free seat with a buy-in and waits for the big blind or posts."""
    sheet = s.sheet
    check_keys(action, ("seat", "buy_in", "post"))
    target = action.get("seat", seat)
    if target != seat or isinstance(target, bool) or not isinstance(target, int):
        raise IllegalAction("bad_seat", "Join the seat you are taking.")
    if not 0 <= seat < len(s.stacks):
        raise IllegalAction("bad_seat", "Seats are numbered 0 to {last}.", last=len(s.stacks) - 1)
    if s.occupied[seat]:
        raise IllegalAction("seat_taken", "That seat is taken.")
    buy_in = amount(action, "buy_in") if "buy_in" in action else sheet.buy_in_default
    if not sheet.buy_in_min <= buy_in <= sheet.buy_in_max:
        raise IllegalAction("buy_in_range", "Buy in for {low} to {high}.",
                            low=sheet.buy_in_min, high=sheet.buy_in_max)
    post = _post_flag(action)
    s.occupied[seat] = True
    s.stacks[seat] = buy_in
    s.bought[seat] = buy_in
    s.status[seat] = "waiting"
    s.posting[seat] = post
    events.append(event("joined", {"seat": seat, "buy_in": buy_in, "post": post}))


def _post_flag(action: Mapping[str, Any]) -> bool:
    post = action.get("post", False)
    if not isinstance(post, bool):
        raise IllegalAction("bad_action", "'post' is true or false.")
    return post


def leave(s: State, seat: int, action: Mapping[str, Any], events: list[Event]) -> bool:
    """H22: leave at any time; the hand in play is finished first."""
    check_keys(action, ())
    if in_live_hand(s, seat):
        s.leaving[seat] = True
        events.append(event("leaving", {"seat": seat}))
        return False
    cash_out(s, seat, events)
    h = s.hand
    if h is not None and h.phase == "show" and seat in h.order:
        h.order = [x for x in h.order if x != seat]  # no more choice to show
        return not h.order
    return False


def sit_out(s: State, seat: int, action: Mapping[str, Any], events: list[Event]) -> bool:
    check_keys(action, ())
    if s.status[seat] == "out":
        raise IllegalAction("already_out", "You are already sitting out.")
    if in_live_hand(s, seat):
        s.sit_out[seat] = True
    else:
        s.status[seat] = "out"
    events.append(event("sitting_out", {"seat": seat}))
    return False


def sit_in(s: State, seat: int, action: Mapping[str, Any], events: list[Event]) -> bool:
    check_keys(action, ("post",))
    post = _post_flag(action)
    if s.sit_out[seat]:
        s.sit_out[seat] = False
    elif s.status[seat] != "out":
        raise IllegalAction("not_out", "You are not sitting out.")
    else:
        # H9: back from sitting out, wait for the big blind or post one.
        s.status[seat] = "waiting"
        s.posting[seat] = post
    events.append(event("sitting_in", {"seat": seat, "post": post}))
    return False


def rebuy(s: State, seat: int, action: Mapping[str, Any], events: list[Event]) -> bool:
    """A rebuy or top-up, up to the largest buy-in; during a hand it plays from the next (H21)."""
    sheet = s.sheet
    check_keys(action, ("amount", "min", "max"))
    if not sheet.rebuy:
        raise IllegalAction("no_rebuy", "This table allows no rebuys.")
    chips = amount(action, "amount") if "amount" in action else -1
    low, high = rebuy_range(s, seat)
    if high <= 0:
        largest = sheet.buy_in_max
        raise IllegalAction("buy_in_range", "Your stack is already at the largest buy-in, {largest}.",
                            largest=largest)
    if not low <= chips <= high:
        raise IllegalAction("buy_in_range", "Buy {low} to {high} chips.", low=low, high=high)
    s.bought[seat] += chips
    if in_live_hand(s, seat):
        s.add[seat] += chips  # H21: chips bought during a hand play from the next one
    else:
        s.stacks[seat] += chips
    events.append(event("rebuy", {"seat": seat, "amount": chips}))
    return False


# The cash-table moves of a seated player; each returns whether the next hand is due at once.
CASH_MOVES: dict[str, Callable[[State, int, Mapping[str, Any], list[Event]], bool]] = {
    "leave": leave,
    "sit_out": sit_out,
    "sit_in": sit_in,
    "rebuy": rebuy,
    "top_up": rebuy,
}


def rebuy_range(s: State, seat: int) -> tuple[int, int]:
    sheet = s.sheet
    have = s.stacks[seat] + s.add[seat] + (s.hand.committed[seat] if in_live_hand(s, seat) and s.hand else 0)
    high = sheet.buy_in_max - have
    low = max(1, sheet.buy_in_min - have)
    return min(low, high), high
