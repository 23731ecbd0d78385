"""The auction [T7, T8, T11, T12], with what may happen before the bidding starts:
the "17 or less" redeal [T5] and the nine lottery [T6].

Actions (``seat`` is the player to act):

- ``{"type": "bid", "value": 110}``: the opener must bid exactly the opening bid (100) [T7];
  later bids rise by the step and stay within the limit of the marriages held [T8].
- ``{"type": "pass"}``: final for this auction [T7]; the opener may not pass his opening.
- ``{"type": "look"}``: blind bidding [T11]: look at one's hand; bids made before looking are blind.
- ``{"type": "redeal"}``: "17 or less" [T5]: show a hand worth the limit or less, before the
  bidding starts (out of turn too: every player may claim before the opener's bid).
- ``{"type": "lottery", "nine": "9h"}``: run the nine lottery [T6] with three nines, choosing
  (secretly) the nine whose colour the others must guess; then each of them sends
  ``{"type": "guess", "colour": "red" | "black"}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import Action, Event, IllegalAction
from app.games.thousand import deal as dealing
from app.games.thousand.rules import BY_RANK, RuleSheet, colour, total_points
from app.games.thousand.state import State


def held_marriages(hand: list[str]) -> list[str]:
    """Suits of which ``hand`` holds both king and queen."""
    cards = set(hand)
    return [suit for suit in "cdhs" if "K" + suit in cards and "Q" + suit in cards]


def bid_limit(state: State, seat: int) -> int:
    """[T8] 120 without a marriage, else 120 plus the values of the marriages held.

    [T11] A blind bidder has not seen his hand, so he cannot show a marriage: his limit is 120.
    """
    sheet: RuleSheet = state.sheet
    if not state.looked[seat]:
        return sheet.bid_limit_without_marriage
    return sheet.bid_limit_without_marriage + sum(
        sheet.marriage_value(s) for s in held_marriages(state.hands[seat])
    )


def check_raise(state: State, seat: int, value: Any, current: int) -> IllegalAction | None:
    """A bid or a raise of the contract: above ``current`` by whole steps, within the limit [T7, T8]."""
    sheet = state.sheet
    if not isinstance(value, int) or isinstance(value, bool):
        return IllegalAction("bad_bid", "A bid needs a whole number 'value'.")
    if value < current + sheet.bid_step:
        return IllegalAction("bid_too_low", "The bid must be at least {min}.",
                              min=current + sheet.bid_step)
    if (value - sheet.opening_bid) % sheet.bid_step:
        return IllegalAction("bid_off_step", "Bids rise in steps of {step}.", step=sheet.bid_step)
    limit = bid_limit(state, seat)
    if value > limit:
        return IllegalAction(
            "bid_over_limit",
            "Bids above {free} need marriages in hand; your limit is {limit}.",
            free=sheet.bid_limit_without_marriage, limit=limit,
        )
    return None


def nines(hand: list[str]) -> list[str]:
    return [card for card in hand if card[0] == "9"]


def candidates(state: State, seat: int) -> list[Action]:
    sheet = state.sheet
    if state.phase == "lottery":
        return [{"type": "guess", "colour": "red"}, {"type": "guess", "colour": "black"}]
    out: list[Action] = []
    if not state.looked[seat]:
        out.append({"type": "look"})
    if state.bid == 0:
        out.append({"type": "bid", "value": sheet.opening_bid})
    else:
        limit = bid_limit(state, seat)
        out.extend(
            {"type": "bid", "value": v} for v in range(state.bid + sheet.bid_step, limit + 1, sheet.bid_step)
        )
        out.append({"type": "pass"})
    out.append({"type": "redeal"})
    out.extend({"type": "lottery", "nine": card} for card in nines(state.hands[seat]))
    return out


def check(state: State, seat: int, action: Mapping[str, Any]) -> IllegalAction | None:
    kind = action["type"]
    sheet = state.sheet
    if state.phase == "lottery":
        return lottery_guess_error(state, seat, action)
    if seat != state.turn:
        # [T5, T6] out of turn only the claims before the bidding, and a look that serves them.
        out_of_turn = kind in EARLY_MOVES and before_bidding(state)
        if not out_of_turn or (kind == "look" and not claims_open(state, seat)):
            return IllegalAction("not_your_turn", "It is not your turn to bid.")
    looked = state.looked[seat]
    if kind == "look":
        return IllegalAction("already_looked", "You have already looked at your cards.") if looked else None
    if kind == "bid":
        value = action.get("value")
        if state.bid == 0:
            if value != sheet.opening_bid or isinstance(value, bool):
                return IllegalAction("opening_bid", "The auction opens with a bid of {bid}.",
                                          bid=sheet.opening_bid)
        else:
            problem = check_raise(state, seat, value, state.bid)
            if problem is not None:
                return problem
        if not looked and state.barred(seat, "blind"):
            return IllegalAction("stuck", "At your score you may not bid blind (800 and stuck).")
        return None
    if kind == "pass":
        if state.bid == 0:
            return IllegalAction(
                "opener_must_bid", "The opener must bid {bid}; he cannot pass.", bid=sheet.opening_bid
            )
        return None
    if kind == "redeal":
        return redeal_error(state, seat)
    if kind == "lottery":
        return lottery_error(state, seat, action)
    return IllegalAction("wrong_phase", "That move is not part of the auction.")


# [T5, T6] Moves open to every player, out of turn, from the deal until the opening bid.
EARLY_MOVES = ("look", "redeal", "lottery")


def before_bidding(state: State) -> bool:
    """The window for redeal claims and the lottery: dealt, and nobody has bid yet [T5, T6].

    The seed: "Tämä toimenpide on suoritettava ennen vedonlyöntiä" (this must be done before the
    bidding) and "Kun kortit on jaettu ja/tai lotteria on järjestetty, peli alkaa".
    """
    return state.phase == "auction" and state.bid == 0


def claims_open(state: State, seat: int) -> bool:
    """Whether the sheet gives ``seat`` anything to claim before the bidding [T5, T6, T17]."""
    sheet = state.sheet
    lottery = sheet.nine_lottery and len(state.active()) == 3
    return seat in state.active() and (
        (sheet.low_hand_redeal and not state.barred(seat, "redeal"))
        or (lottery and not state.barred(seat, "lottery"))
    )


def early_claims(state: State, seat: int) -> bool:
    """Whether ``seat`` has a move in the pre-bidding window: a look at its hand (a claim needs
    the hand seen) or a redeal or lottery it may claim now [T5, T6]."""
    if not before_bidding(state):
        return False
    early: list[Action] = [{"type": "look"}, {"type": "redeal"}]
    early.extend({"type": "lottery", "nine": nine} for nine in nines(state.hands[seat]))
    return any(check(state, seat, action) is None for action in early)


# The sentences of early_option_error, one per claim (catalogue ids).
EARLY_TOO_LATE = {"redeal": "The redeal must be claimed before the bidding starts.",
                  "lottery": "The lottery must be claimed before the bidding starts."}
EARLY_NOT_LOOKED = {"redeal": "Look at your cards before claiming the redeal.",
                    "lottery": "Look at your cards before claiming the lottery."}
EARLY_STUCK = {"redeal": "At your score you may not claim the redeal (800 and stuck).",
               "lottery": "At your score you may not claim the lottery (800 and stuck)."}


def early_option_error(state: State, seat: int, what: str) -> IllegalAction | None:
    """Redeal claims and lotteries come before the bidding starts, with the hand seen [T5, T6]."""
    if not before_bidding(state):
        return IllegalAction("too_late", EARLY_TOO_LATE[what])
    if not state.looked[seat]:
        return IllegalAction("not_looked", EARLY_NOT_LOOKED[what])
    if state.barred(seat, what):
        return IllegalAction("stuck", EARLY_STUCK[what])
    return None


def redeal_error(state: State, seat: int) -> IllegalAction | None:
    sheet = state.sheet
    if not sheet.low_hand_redeal:
        return IllegalAction("no_low_hand_redeal", 'This sheet has no "17 or less" redeal.')
    problem = early_option_error(state, seat, "redeal")
    if problem is not None:
        return problem
    if total_points(state.hands[seat]) > sheet.low_hand_limit:
        return IllegalAction(
            "hand_too_strong", "Only a hand worth {limit} or less may be shown.", limit=sheet.low_hand_limit
        )
    return None


def lottery_error(state: State, seat: int, action: Mapping[str, Any]) -> IllegalAction | None:
    sheet = state.sheet
    if not sheet.nine_lottery or len(state.active()) != 3:
        return IllegalAction("no_lottery", "This game has no nine lottery.")
    if state.lottery is not None:
        return IllegalAction("lottery_done", "There is only one lottery a deal.")
    problem = early_option_error(state, seat, "lottery")
    if problem is not None:
        return problem
    held = nines(state.hands[seat])
    if len(held) != 3:
        return IllegalAction("no_three_nines", "The lottery needs exactly three nines in hand.")
    if action.get("nine") not in held:
        return IllegalAction("bad_nine", "Choose one of your own nines for the lottery.")
    return None


def guessers(state: State) -> list[int]:
    assert state.lottery is not None
    return [s for s in state.active() if s != state.lottery["organiser"]]


def lottery_guess_error(state: State, seat: int, action: Mapping[str, Any]) -> IllegalAction | None:
    assert state.lottery is not None
    if action["type"] != "guess":
        return IllegalAction("wrong_phase", "The lottery is on: guess the colour first.")
    if seat not in guessers(state) or str(seat) in state.lottery["guesses"]:
        return IllegalAction("not_your_turn", "You have no guess to make in this lottery.")
    if action.get("colour") not in ("red", "black"):
        return IllegalAction("bad_colour", "Guess the colour 'red' or 'black'.")
    return None


# -- performing ---------------------------------------------------------------------------------


def perform(state: State, seat: int, action: Mapping[str, Any], events: list[Event]) -> None:
    kind = action["type"]
    if kind == "look":
        state.looked[seat] = True
        events.append(Event("look", {"seat": seat}))
        events.append(Event("hand", {"cards": list(state.hands[seat])}, (seat,)))
    elif kind == "bid":
        state.bid, state.bidder = int(action["value"]), seat
        state.bid_blind = not state.looked[seat]
        state.acted[seat] = True
        events.append(Event("bid", {"seat": seat, "value": state.bid, "blind": state.bid_blind}))
        advance(state, seat, events)
    elif kind == "pass":
        state.passed[seat] = True
        state.acted[seat] = True
        events.append(Event("pass", {"seat": seat}))
        advance(state, seat, events)
    elif kind == "redeal":
        shown = sorted(state.hands[seat], key=BY_RANK)
        state.shown.append({"seat": seat, "reason": "low_hand", "cards": shown})
        events.append(Event("redeal", {"seat": seat, "reason": "low_hand", "cards": shown}))
        dealing.note_redeal(state, events)
        dealing.deal(state, events)
    elif kind == "lottery":
        state.lottery = {"organiser": seat, "nine": action["nine"], "guesses": {}, "resolved": False}
        state.phase = "lottery"
        events.append(Event("lottery", {"seat": seat}))
        events.append(Event("lottery_nine", {"nine": action["nine"]}, (seat,)))
    elif kind == "guess":
        assert state.lottery is not None
        state.lottery["guesses"][str(seat)] = action["colour"]
        events.append(Event("guess", {"seat": seat}))
        events.append(Event("your_guess", {"colour": action["colour"]}, (seat,)))
        if len(state.lottery["guesses"]) == 2:
            resolve_lottery(state, events)


def resolve_lottery(state: State, events: list[Event]) -> None:
    """[T6] nobody right: 100 to the organiser; one right: 100 to him; both right: 50 each."""
    lottery = state.lottery
    assert lottery is not None
    prize = state.sheet.lottery_points
    wanted = colour(lottery["nine"])
    right = [s for s in guessers(state) if lottery["guesses"][str(s)] == wanted]
    points = [0] * state.players
    if not right:
        points[lottery["organiser"]] = prize
    else:
        for s in right:
            points[s] = prize // len(right)
    for s in range(state.players):
        state.scores[s] += points[s]
    lottery["resolved"] = True
    state.rows.append(
        {"type": "lottery", "seat": lottery["organiser"], "points": points, "totals": list(state.scores)}
    )
    events.append(
        Event(
            "lottery_result",
            {
                "nine": lottery["nine"],
                "colour": wanted,
                "guesses": dict(lottery["guesses"]),
                "points": points,
            },
        )
    )
    state.phase = "auction"
    state.turn = state.active()[0]  # the lottery came before the bidding: the opener is to bid


def advance(state: State, seat: int, events: list[Event]) -> None:
    """[T7] The auction ends when all but the highest bidder have passed."""
    remaining = [s for s in state.active() if not state.passed[s]]
    if len(remaining) == 1 and state.bidder is not None:
        end_auction(state, events)
    else:
        state.turn = state.next_active(seat, skip_passed=True)


def talon_hidden(state: State) -> bool:
    """[T11] a blind contract's talon is not shown; [T12] nor is the talon of a "left 100".

    [T17] A stuck opener gets no "left 100": the seed gives the trick back only after a fall
    ("hän voi jälleen käyttää kaikkia temppuja – sekä “Pommi”, “Jätetty 100” että muut").
    """
    sheet = state.sheet
    left_100 = (
        sheet.left_100
        and state.bidder == state.active()[0]
        and state.contract == sheet.opening_bid
        and not state.barred(state.bidder, "left_100")
    )
    return state.blind or left_100


def end_auction(state: State, events: list[Event]) -> None:
    assert state.bidder is not None
    state.contract, state.blind = state.bid, state.bid_blind
    events.append(
        Event("auction_won", {"seat": state.bidder, "contract": state.contract, "blind": state.blind})
    )
    for s in state.active():
        if not state.looked[s]:
            # Everyone plays with his cards seen once the auction is over.
            state.looked[s] = True
            events.append(Event("hand", {"cards": list(state.hands[s])}, (s,)))
    state.phase = "talon"
    state.turn = state.bidder
    if state.sheet.banks_variant():
        return  # the bidder chooses a bank first [T18]
    reveal_talon(state, list(state.talon), events)


def reveal_talon(state: State, cards: list[str], events: list[Event]) -> None:
    """[T9] the talon is turned up for all; [T11, T12] or seen by the dealer only, or by nobody."""
    cards = sorted(cards, key=BY_RANK)
    if not talon_hidden(state):
        state.talon_public = cards
        events.append(Event("talon", {"cards": cards}))
    elif state.blind and state.dealer != state.bidder:
        state.talon_seen = [state.dealer]
        state.talon_seen_cards = cards
        events.append(Event("talon", {"cards": cards}, (state.dealer,)))
