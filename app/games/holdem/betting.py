"""Betting (H11, H15–H17): what the seat to act may do, and a betting move's effect on the hand.

``refusal`` is the legality of a betting move; a move here (``fold``, ``check``, ``call``,
``raise_to``) takes one that passed, changes the stacks and the hand and records it; whose turn
is next, and the end of a round, belong to ``engine.apply_bet``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import Event, IllegalAction
from app.games.holdem.common import Action, amount, check_keys, current_level, event
from app.games.holdem.state import Hand, State

_MEMO: list[Any] = [None, -1, None]
_FOLD = [f"s{seat} f" for seat in range(10)]  # PHH action lines, made once
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


def refusal(
    s: State, h: Hand, seat: int, action: Mapping[str, Any], o: dict[str, Any]
) -> IllegalAction | None:
    """Why the betting move ``action`` of the seat to act is not legal now (H15–H17), or ``None``;
    ``o`` is ``betting_options`` of the state. The moves below (``fold``, ``check``, ``call``,
    ``raise_to``) take only a move that passed."""
    kind = action["type"]
    to_call = o["to_call"]
    try:
        if kind == "fold":
            if len(action) > 1:
                check_keys(action, ())
            if to_call == 0:
                return IllegalAction("cannot_fold", "Nothing to call: check instead of folding.")
        elif kind == "check":
            if len(action) > 1:
                check_keys(action, ())
            if to_call > 0:
                return IllegalAction("cannot_check", "There are {chips} chips to call; fold, call or raise.",
                                     chips=to_call)
        elif kind == "call" or (kind == "all_in" and s.stacks[seat] <= to_call):
            # A call, or an all-in that calls for less or exactly the amount to call.
            stack = s.stacks[seat]
            if kind == "call":
                if len(action) > 1:
                    check_keys(action, ("amount",))
                pay = to_call if to_call < stack else stack
                if "amount" in action and amount(action, "amount") != pay:
                    return IllegalAction("bad_amount", "The call is {pay}.", pay=pay)
            else:
                check_keys(action, ("to",))
                top = h.bets[seat] + stack
                if "to" in action and amount(action, "to") != top:
                    return IllegalAction("bad_amount", "All-in is a total of {top} this round.", top=top)
            if to_call == 0:
                return IllegalAction("nothing_to_call", "There is nothing to call; check or bet.")
        else:
            _raise_refusal(s, h, seat, action, o)
    except IllegalAction as refused:
        return refused
    return None


def fold(h: Hand, seat: int, events: list[Event]) -> None:
    folded = list(h.folded)  # shared with the previous state (Hand.copy)
    folded[seat] = True
    h.folded = folded
    h.pending[seat] = False
    h.actions.append(_FOLD[seat])
    events.append(event("fold", {"seat": seat}))


def check(h: Hand, seat: int, events: list[Event]) -> None:
    h.pending[seat] = False
    h.acted[seat] = h.current
    h.actions.append(_CHECK_CALL[seat])
    events.append(event("check", {"seat": seat}))


def call(s: State, h: Hand, seat: int, to_call: int, events: list[Event]) -> None:
    """A call, or an all-in that calls for less or exactly the amount to call."""
    stack = s.stacks[seat]
    pay = to_call if to_call < stack else stack
    s.stacks[seat] -= pay
    h.bets[seat] += pay
    h.committed[seat] += pay
    h.pending[seat] = False
    h.acted[seat] = h.current
    h.actions.append(_CHECK_CALL[seat])
    events.append(event("call", {"seat": seat, "amount": pay, "all_in": s.stacks[seat] == 0}))


# The sentences of a bet's or a raise's refusals, one per kind (catalogue ids).
NEEDS_TO = {"bet": "A bet needs 'to', the total you put in this round.",
            "raise": "A raise needs 'to', the total you put in this round."}
SMALLEST = {"bet": "The smallest bet is to {min}.", "raise": "The smallest raise is to {min}."}
LARGEST = {"bet": "The largest bet is to {max}.", "raise": "The largest raise is to {max}."}


def raise_target(s: State, h: Hand, seat: int, action: Mapping[str, Any]) -> int:
    """The total a bet, raise or raising all-in that passed ``refusal`` puts in this round."""
    return h.bets[seat] + s.stacks[seat] if action["type"] == "all_in" else int(action["to"])


def _raise_refusal(s: State, h: Hand, seat: int, action: Mapping[str, Any], o: dict[str, Any]) -> None:
    """A bet, raise or raising all-in checked against ``o`` (raises the refusal)."""
    kind = action["type"]
    top = h.bets[seat] + s.stacks[seat]
    check_keys(action, ("to",))
    if kind == "all_in":
        if "to" in action and amount(action, "to") != top:
            raise IllegalAction("bad_amount", "All-in is a total of {top} this round.", top=top)
        if not o["can_raise"] or o["max"] != top:
            raise IllegalAction(
                "raise_closed" if not o["can_raise"] else "above_maximum", "You may not raise all-in now."
            )
        return
    if kind == "bet" and h.current > 0:
        raise IllegalAction("bet_not_allowed", "There is already a bet: raise instead.")
    if kind == "raise" and h.current == 0:
        raise IllegalAction("raise_not_allowed", "Nobody has bet: bet instead.")
    if "to" not in action:
        raise IllegalAction("bad_amount", NEEDS_TO[kind])
    to = amount(action, "to")
    if not o["can_raise"]:
        raise IllegalAction(
            "raise_closed",
            "The betting is capped for this round."
            if s.sheet.variant == "fixed_limit" and cap_holds(s, h)
            else "Raising is closed to you: the short all-in did not reopen the betting.",
        )
    if to > top:
        raise IllegalAction("above_stack", "You have only {top} in all this round (table stakes).", top=top)
    if to < o["min"]:
        raise IllegalAction("below_minimum", SMALLEST[kind], min=o["min"])
    if to > o["max"]:
        raise IllegalAction("above_maximum", LARGEST[kind], max=o["max"])


def raise_to(s: State, h: Hand, seat: int, to: int, events: list[Event]) -> None:
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
    events.append(event(kind, {"seat": seat, "to": to, "all_in": s.stacks[seat] == 0, "full": full}))


def return_uncalled(s: State, h: Hand, events: list[Event]) -> None:
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
    events.append(event("returned", {"seat": seat, "amount": back}))
