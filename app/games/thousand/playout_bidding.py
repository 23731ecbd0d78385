"""The moves of the playout path before the tricks, on its record (``record.Record``): the auction
with the claims before it [T5, T6, T7, T8, T11, T12], the nine lottery [T6], the talon taken and
the contract raised, cards given or laid aside, or a bomb [T9, T10, T18].

Each ``*_legal`` lists exactly what the contract's ``legal_actions`` lists (``auction.candidates``
or ``talon.candidates`` that pass the checks), in its order, from the rules written out per
position; each ``*_play`` is the phase module's ``perform`` without events.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations, permutations
from typing import Any

from app.games.base import Action
from app.games.thousand.record import (
    INDEX,
    NAME,
    PTS,
    RED,
    Record,
    bomb,
    deal,
    note_redeal,
    stuck,
)

_LOOK: Action = {"type": "look"}
_PASS: Action = {"type": "pass"}
_REDEAL: Action = {"type": "redeal"}


def _barred_other(x: Record, seat: int) -> bool:
    """[T17] "800 and stuck" bars the options it does not name (blind bids, the lottery) only with
    ``stuck_bars = every_option``."""
    return x.rules.every_option and stuck(x, seat)


def _claims_open(x: Record, seat: int) -> bool:
    """``auction.claims_open``: the sheet gives ``seat`` a claim before the bidding [T5, T6, T17]."""
    r = x.rules
    return (r.low_hand and not stuck(x, seat)) or (
        r.nine_lottery and len(x.order) == 3 and not _barred_other(x, seat)
    )


def _redeal_ok(x: Record, seat: int) -> bool:
    """[T5] "17 or less", before the opening bid, with the hand seen: ``auction.redeal_error``."""
    r = x.rules
    return (
        r.low_hand and x.looked[seat] and not stuck(x, seat)
        and sum([PTS[c] for c in x.hands[seat]]) <= r.low_limit
    )


def _lottery_nines(x: Record, seat: int) -> list[int]:
    """[T6] the nines ``seat`` may run the lottery with: three nines, before the opening bid, once a
    deal, with the hand seen (``auction.lottery_error``)."""
    r = x.rules
    if not (r.nine_lottery and len(x.order) == 3 and x.lottery is None and x.looked[seat]):
        return []
    nines = [c for c in x.hands[seat] if c < 4]
    return nines if len(nines) == 3 and not _barred_other(x, seat) else []


def early_to_act(x: Record) -> list[int]:
    """[T5, T6] before the opening bid: the opener, and every seat that may look (to claim) or claim
    now (``auction.early_claims``)."""
    out = [x.turn]
    for seat in x.order:
        if seat != x.turn and (
            _claims_open(x, seat) if not x.looked[seat] else _redeal_ok(x, seat) or _lottery_nines(x, seat)
        ):
            out.append(seat)
    return out


def _limit(x: Record, seat: int) -> int:
    """[T8] the free limit plus the marriages held; [T11] a blind bidder shows none."""
    r = x.rules
    if not x.looked[seat]:
        return r.free
    hand = x.hands[seat]
    return r.free + sum([r.mv[s] for s in range(4) if 16 + s in hand and 12 + s in hand])


def _raises(x: Record, seat: int, current: int) -> list[Action]:
    """``auction.check_raise`` passed: above ``current`` by whole steps from the opening bid, within
    the limit [T7, T8]."""
    r = x.rules
    if (current - r.opening) % r.step:  # off the steps (never from the contract's own moves)
        return []
    return [{"type": "bid", "value": v} for v in range(current + r.step, _limit(x, seat) + 1, r.step)]


def auction_legal(x: Record, seat: int) -> list[Action]:
    """The auction's and the lottery's legal moves for ``seat``."""
    if x.phase == "lottery":
        lottery = x.lottery
        assert lottery is not None
        if seat == lottery["organiser"] or seat not in x.order or str(seat) in lottery["guesses"]:
            return []
        return [{"type": "guess", "colour": "red"}, {"type": "guess", "colour": "black"}]
    early = x.bid == 0
    looked = x.looked[seat]
    if seat != x.turn:
        if not early or seat not in early_to_act(x):
            return []
        if not looked:
            return [{**_LOOK}]  # a claim needs the hand seen; a look out of turn serves one
    out: list[Action] = []
    if seat == x.turn:
        if not looked:
            out.append({**_LOOK})
        blind_ok = looked or not _barred_other(x, seat)  # [T11, T17]
        if early:
            if blind_ok:
                out.append({"type": "bid", "value": x.rules.opening})
        else:
            if blind_ok:
                out.extend(_raises(x, seat, x.bid))
            out.append({**_PASS})
    if early and looked:
        if _redeal_ok(x, seat):
            out.append({**_REDEAL})
        out.extend({"type": "lottery", "nine": NAME[c]} for c in _lottery_nines(x, seat))
    return out


def auction_play(x: Record, seat: int, action: Mapping[str, Any]) -> None:
    """``auction.perform``."""
    kind = action["type"]
    if kind == "look":
        x.looked[seat] = True
    elif kind == "bid":
        x.bid, x.bidder, x.bid_blind = int(action["value"]), seat, not x.looked[seat]
        x.acted[seat] = True
        _advance(x, seat)
    elif kind == "pass":
        x.passed[seat] = x.acted[seat] = True
        _advance(x, seat)
    elif kind == "redeal":
        x.shown.append({"seat": seat, "reason": "low_hand", "cards": [NAME[c] for c in x.hands[seat]]})
        note_redeal(x)
        deal(x)
    elif kind == "lottery":
        x.lottery = {"organiser": seat, "nine": action["nine"], "guesses": {}, "resolved": False}
        x.phase = "lottery"
    elif kind == "guess":
        assert x.lottery is not None
        x.lottery["guesses"][str(seat)] = action["colour"]
        if len(x.lottery["guesses"]) == 2:
            _resolve_lottery(x)


def _resolve_lottery(x: Record) -> None:
    """[T6] nobody right: the prize to the organiser; one right: to him; both right: shared."""
    lottery = x.lottery
    assert lottery is not None
    prize, organiser = x.rules.lottery_points, lottery["organiser"]
    wanted = "red" if RED[INDEX[lottery["nine"]] & 3] else "black"
    right = [s for s in x.order if s != organiser and lottery["guesses"][str(s)] == wanted]
    points = [0] * x.players
    if not right:
        points[organiser] = prize
    for s in right:
        points[s] = prize // len(right)
    for s in range(x.players):
        x.scores[s] += points[s]
    lottery["resolved"] = True
    x.rows.append({"type": "lottery", "seat": organiser, "points": points, "totals": list(x.scores)})
    x.phase = "auction"
    x.turn = x.order[0]  # the lottery came before the bidding: the opener is to bid


def _advance(x: Record, seat: int) -> None:
    """[T7] the auction ends when all but the highest bidder have passed; else the next seat on
    the left that has not passed bids."""
    passed = x.passed
    remaining = [s for s in x.order if not passed[s]]
    if len(remaining) == 1 and x.bidder >= 0:
        _end_auction(x)
        return
    nxt = x.left[seat]
    while passed[nxt] and nxt != seat:
        nxt = x.left[nxt]
    x.turn = nxt


def _end_auction(x: Record) -> None:
    """``auction.end_auction``: everyone has seen his hand; the bidder takes the talon (banks
    variant: chooses a bank first [T18])."""
    x.contract, x.blind = x.bid, x.bid_blind
    for s in x.order:
        x.looked[s] = True
    x.phase, x.turn = "talon", x.bidder
    if not x.rules.banks:
        _reveal(x, x.talon)


def _reveal(x: Record, cards: list[int]) -> None:
    """[T9] the talon is turned up for all; [T11] a blind contract's is seen by the dealer only;
    [T12] a "left 100" (unless the opener is stuck [T17]) by nobody."""
    r = x.rules
    names = [NAME[c] for c in sorted(cards)]
    left_100 = (r.left_100 and x.bidder == x.order[0] and x.contract == r.opening
                and not stuck(x, x.bidder))
    if not (x.blind or left_100):
        x.talon_public = names
    elif x.blind and x.dealer != x.bidder:
        x.talon_seen, x.talon_seen_cards = [x.dealer], names


# -- after the auction -----------------------------------------------------------------------------


def _bomb_ok(x: Record, seat: int) -> bool:
    """``talon.bomb_error``: [T11] a blind contract may always be given up; [T10] a bomb while the
    sheet's bombs last and the bidder is not stuck [T17]."""
    r = x.rules
    return x.blind or (r.bombs > 0 and x.bombs_used[seat] < r.bombs and not stuck(x, seat))


def exchange_legal(x: Record, seat: int) -> list[Action]:
    """The bidder's moves after taking the talon: raises, the bomb, then every give (one card to
    each opponent; banks variant two to the one) or every 3 cards to lay aside [T9, T10, T18]."""
    out = _raises(x, seat, x.contract)
    if _bomb_ok(x, seat):
        out.append({"type": "bomb"})
    names = [NAME[c] for c in x.hands[seat]]
    opponents = [str(o) for o in x.order if o != seat]
    if x.rules.keep:
        out.extend({"type": "discard", "cards": list(c)} for c in combinations(names, 3))
    elif x.rules.banks:
        (o,) = opponents
        out.extend({"type": "give", "cards": {o: list(c)}} for c in combinations(names, 2))
    else:  # [T13] three play a deal with three or four at the table: two opponents
        a, b = opponents
        out += [{"type": "give", "cards": {a: p, b: q}} for p, q in permutations(names, 2)]
    return out


def exchange_play(x: Record, seat: int, action: Mapping[str, Any]) -> None:
    """``talon.perform``."""
    kind = action["type"]
    hand = x.hands[seat]
    if kind == "take_talon":
        if x.rules.banks:
            bank = int(action["bank"])
            cards, x.banks[bank] = x.banks[bank], []
            _reveal(x, cards)
        else:
            cards, x.talon = x.talon, []
        x.hands[seat] = sorted(hand + cards)
        x.phase = "exchange"
    elif kind == "bid":
        x.contract = int(action["value"])
    elif kind == "bomb":
        bomb(x, seat)
    elif kind == "discard":
        aside = sorted([INDEX[c] for c in action["cards"]])
        for card in aside:
            hand.remove(card)
        x.aside = aside
        _start_play(x)
    elif kind == "give":
        for key, value in action["cards"].items():
            receiver = int(key)
            given = sorted([INDEX[value]] if isinstance(value, str) else [INDEX[c] for c in value])
            for card in given:
                hand.remove(card)
                x.given.append([seat, receiver, NAME[card]])
            x.hands[receiver] = sorted(x.hands[receiver] + given)
        _start_play(x)


def _start_play(x: Record) -> None:
    """[T14] the bidder leads the first trick."""
    x.phase, x.turn = "play", x.bidder
    x.tseats, x.tcards = [], []
