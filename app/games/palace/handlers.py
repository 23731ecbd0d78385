"""The moves of Palace, one handler each (P4–P23): a handler checks what it needs of the move
(its refusals name what is wrong with a move ``listing`` does not list) and makes it on the
builder ``m`` of the table ``t``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from app.games import cards as cardlib
from app.games.base import Event, IllegalAction
from app.games.cards import RANKS
from app.games.palace.listing import drawn_moves, goes_out_on_special, held, plays
from app.games.palace.moves import burn, check_out, emit, next_active, pick_up, placed, refill, without
from app.games.palace.pile import active_card, fits, top_run
from app.games.palace.rules import RuleSheet
from app.games.palace.table import BY_RANK, VALUE, Player, Table, player

Events = list[Event] | None
Handler = Callable[[Table, Table, int, Mapping[str, Any], Events], None]


def _cards_field(action: Mapping[str, Any], name: str = "cards") -> list[str]:
    try:
        cards = cardlib.parse_cards(action.get(name), field=name)
    except ValueError:
        raise IllegalAction("bad_cards", "'{field}' must be a list of card codes like 'Qs' or 'Th'.",
                            field=name) from None
    if not cards:
        raise IllegalAction("bad_cards", "Name at least one card.")
    return cards


def _index_field(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 2:
        raise IllegalAction("bad_index", "'{field}' must be a slot number 0, 1 or 2.", field=name)
    return value


def _same_rank(cards: list[str]) -> str:
    rank = cards[0][0]
    if any(c[0] != rank for c in cards):
        raise IllegalAction("mixed_ranks", "Cards played together must be of one rank.")
    return rank


def _check_held(p: Player, cards: list[str]) -> None:
    if not held(p.hand, cards):
        raise IllegalAction("not_held", "You do not hold all of those cards in your hand.")


def _check_not_out_on_special(t: Table, p: Player, rank: str, count: int) -> None:
    if goes_out_on_special(t, p, rank, count):
        raise IllegalAction("no_out_on_special", "House rule: you may not go out on a 2, a 10 or an ace.")


def _check_fits(t: Table, rank: str) -> None:
    if not fits(t.sheet, rank, active_card(t.sheet, t.pile)):
        raise IllegalAction("does_not_fit", "That card does not fit on the pile.")


def _on_turn(t: Table, seat: int) -> Player:
    if t.phase != "play":
        raise IllegalAction("wrong_phase", "Play has not started yet: finish the swap first.")
    if seat in t.out:
        raise IllegalAction("already_out", "You are out of the game.")
    if seat != t.turn:
        raise IllegalAction("not_your_turn", "It is not your turn.")
    if t.decision == "burn":
        raise IllegalAction("decision_pending", "First say whether the pile burns: burn or keep.")
    if t.decision == "drawn":
        raise IllegalAction("decision_pending", "First play the card you drew, or pick up the pile.")
    return t.players[seat]


def _out_of_turn_ok(t: Table, seat: int, option: bool, refusal: str) -> Player:
    if not option:
        raise IllegalAction("not_allowed", refusal)
    if t.phase != "play":
        raise IllegalAction("wrong_phase", "Play has not started yet.")
    if seat in t.out:
        raise IllegalAction("already_out", "You are out of the game.")
    if t.decision is not None:
        raise IllegalAction("decision_pending", "Wait: the player on turn has a decision to make.")
    return t.players[seat]


def _must_play_check(t: Table, seat: int) -> None:
    if not t.sheet.voluntary_pick_up and plays(t, seat):
        raise IllegalAction("must_play", "You must play if you can (no voluntary pick-up).")


def _swap_phase(t: Table, seat: int) -> Player:
    if t.phase != "swap":
        raise IllegalAction("wrong_phase", "The swap phase is over (P4).")
    p = t.players[seat]
    if p.ready:
        raise IllegalAction("already_ready", "You are already ready.")
    return p


def _start_play(m: Table, events: Events) -> None:
    """P5: open the play once every seat is ready."""
    m.phase = "play"
    sheet = m.sheet
    start = 0
    if sheet.opening == "turn_up":
        base = m.stock[0]
        m.stock = m.stock[1:]
        m.pile = (base,)
        emit(events, "turned_up", {"card": base})
    elif sheet.opening in ("lowest_card", "first_three"):
        # P5: with ``twos_low`` off (wikihow: "madalaim 3. 2 on spetsiaalne kaart") a 2 never opens.
        ranks = RANKS if sheet.opening == "lowest_card" and sheet.twos_low else RANKS[1:]
        for rank in ranks:
            holders = [s for s, p in enumerate(m.players) if rank in _opening_ranks(sheet, p)]
            if holders:
                start = holders[0]
                break
    elif sheet.opening == "left_plays_lowest":
        # P5 (wikihow): "diilerist vasakule jääv inimene mängib käes olevat kõige madalamat kaarti".
        skip = {"X"} if sheet.twos_low else {"X", "2"}  # jokers never; 2s unless twos_low
        ranks_held = [c[0] for c in m.players[0].hand if c[0] in VALUE and c[0] not in skip]
        m.opening_rank = min(ranks_held, key=VALUE.__getitem__) if ranks_held else None
    m.turn = start
    emit(events, "play_started", {"turn": start})


def _opening_ranks(sheet: RuleSheet, p: Player) -> set[str]:
    """P5: the ranks that count for who opens, from the hand, the face-up cards or both."""
    cards: list[str] = []
    if sheet.opening_cards != "face_up":
        cards.extend(p.hand)
    if sheet.opening_cards != "hand":
        cards.extend(c for c in p.face_up if c is not None)
    return {c[0] for c in cards}


def _after_ready(m: Table, events: Events) -> None:
    if all(p.ready for p in m.players):
        _start_play(m, events)


def _do_swap(t: Table, m: Table, seat: int, action: Mapping[str, Any], events: Events) -> None:
    p = _swap_phase(t, seat)
    if t.sheet.deal != "three_three_three" or all(c is None for c in p.face_up):
        raise IllegalAction("wrong_phase", "Lay your three face-up cards first.")
    card = action["card"]
    if not cardlib.is_card(card):
        raise IllegalAction("bad_cards", "card must be a card code like 'Qs' or 'Th'.")
    index = _index_field(action["index"], "index")
    _check_held(p, [card])
    up = p.face_up[index]
    if up is None:
        raise IllegalAction("bad_index", "That slot has no face-up card.")
    if up == card:
        raise IllegalAction("same_card", "Swapping a card for an identical one changes nothing.")
    hand = list(p.hand)
    hand.remove(card)
    hand.append(up)
    face_up = list(p.face_up)
    face_up[index] = card
    m.put(seat, replace(p, hand=tuple(sorted(hand, key=BY_RANK)), face_up=tuple(face_up)))
    emit(events, "swapped", {"seat": seat, "index": index, "card": card, "took": up})


def _do_ready(t: Table, m: Table, seat: int, action: Mapping[str, Any], events: Events) -> None:
    p = _swap_phase(t, seat)
    if any(c is None for c in p.face_up):
        raise IllegalAction("choose_face_up_first", "Choose your three face-up cards first.")
    m.put(seat, replace(p, ready=True))
    emit(events, "ready", {"seat": seat})
    _after_ready(m, events)


def _do_lay_face_up(t: Table, m: Table, seat: int, action: Mapping[str, Any], events: Events) -> None:
    p = _swap_phase(t, seat)
    if t.sheet.deal != "choose_from_six" or any(c is not None for c in p.face_up):
        raise IllegalAction("wrong_phase", "Your face-up cards are already on the table.")
    cards = _cards_field(action)
    if len(cards) != 3:
        raise IllegalAction("wrong_count", "Choose exactly three cards to lay face-up.")
    _check_held(p, cards)
    rest = without(p, cards)
    m.put(seat, replace(rest, face_up=tuple(cards), ready=True))
    emit(events, "laid_face_up", {"seat": seat, "cards": cards})
    emit(events, "ready", {"seat": seat})
    _after_ready(m, events)


def _do_play(t: Table, m: Table, seat: int, action: Mapping[str, Any], events: Events) -> None:
    p = _on_turn(t, seat)
    if not p.hand:
        raise IllegalAction("hand_empty", "Your hand is empty: play from your table cards.")
    cards = _cards_field(action)
    rank = _same_rank(cards)
    _check_held(p, cards)
    _check_fits(t, rank)
    if t.opening_rank is not None and rank != t.opening_rank:
        raise IllegalAction("play_lowest", "The opener plays the lowest card in his hand first (P5).")
    _check_not_out_on_special(t, p, rank, len(cards))
    _make_play(t, m, seat, action, events)


def _make_play(t: Table, m: Table, seat: int, action: Mapping[str, Any], events: Events) -> None:
    cards = action["cards"]
    m.put(seat, without(t.players[seat], cards))
    placed(m, events, seat, sorted(cards, key=BY_RANK), "hand")


def _do_play_face_up(t: Table, m: Table, seat: int, action: Mapping[str, Any], events: Events) -> None:
    p = _on_turn(t, seat)
    if p.hand:
        raise IllegalAction("hand_first", "Play your hand first (P18, P20).")
    raw = action["indexes"]
    if not isinstance(raw, list) or not raw or len(raw) > 3:
        raise IllegalAction("bad_index", "indexes must be a list of one to three slot numbers.")
    indexes = [_index_field(i, "indexes") for i in raw]
    if len(set(indexes)) != len(indexes):
        raise IllegalAction("bad_index", "Name each slot once.")
    chosen = [p.face_up[i] for i in indexes]
    cards: list[str] = []
    for c in chosen:
        if c is None:
            raise IllegalAction("bad_index", "That slot has no face-up card.")
        cards.append(c)
    rank = _same_rank(cards)
    _check_fits(t, rank)
    _check_not_out_on_special(t, p, rank, len(cards))
    face_up = list(p.face_up)
    face_down = list(p.face_down)
    indexes.sort()
    cards = [c for c in (p.face_up[i] for i in indexes) if c is not None]
    turned: list[tuple[int, str]] = []
    for i in indexes:
        face_up[i] = None
        below = face_down[i]
        if t.sheet.turn_up_face_down and below is not None:
            # P19 (China Hand): the face-down card below is turned up at once and joins the face-up row.
            face_up[i] = below
            face_down[i] = None
            turned.append((i, below))
    m.put(seat, player(p.hand, tuple(face_up), tuple(face_down), p.known, p.ready))
    placed(m, events, seat, cards, "face_up", indexes=indexes)
    for i, below in turned:
        emit(events, "turned_up_below", {"seat": seat, "index": i, "card": below})


def _do_play_face_down(t: Table, m: Table, seat: int, action: Mapping[str, Any], events: Events) -> None:
    p = _on_turn(t, seat)
    if p.hand:
        raise IllegalAction("hand_first", "Play your hand first (P18, P20).")
    if any(c is not None for c in p.face_up):
        raise IllegalAction("face_up_first", "Play your face-up cards before the face-down ones (P21).")
    index = _index_field(action["index"], "index")
    card = p.face_down[index]
    if card is None:
        raise IllegalAction("bad_index", "That slot has no face-down card.")
    face_down = list(p.face_down)
    face_down[index] = None
    m.put(seat, player(p.hand, p.face_up, tuple(face_down), p.known, p.ready))
    ok = fits(t.sheet, card[0], active_card(t.sheet, t.pile))
    if ok and goes_out_on_special(t, p, card[0], 1):
        ok = False  # P23: the last card may not be a 2, 10 or ace, even a blind one (our reading)
    emit(events, "turned_face_down", {"seat": seat, "index": index, "card": card, "fits": ok})
    if ok:
        placed(m, events, seat, [card], "face_down")
    else:
        pick_up(m, events, seat, (card,))  # P21: the pile and the turned card go to the hand


def _do_draw(t: Table, m: Table, seat: int, action: Mapping[str, Any], events: Events) -> None:
    p = _on_turn(t, seat)
    if t.sheet.when_stuck == "pick_up":
        raise IllegalAction("not_allowed", "This rule sheet has no drawing when stuck: pick up the pile.")
    if not t.pile:
        raise IllegalAction("pile_empty", "The pile is empty: start it with any card.")
    if not t.stock:
        raise IllegalAction("stock_empty", "The stock is empty: pick up the pile.")
    if not p.hand:
        raise IllegalAction("hand_empty", "Your hand is empty: play from your table cards.")
    _must_play_check(t, seat)
    card = m.stock[0]
    m.stock = m.stock[1:]
    m.put(seat, player(tuple(sorted((*p.hand, card), key=BY_RANK)), p.face_up, p.face_down, p.known, p.ready))
    emit(events, "drew", {"seat": seat, "count": 1})
    emit(events, "drew_cards", {"seat": seat, "cards": [card]}, (seat,))
    if t.sheet.when_stuck == "draw_ends_turn":
        pick_up(m, events, seat)  # our reading of "drawing ends the turn": no play, so the pile is taken (P9)
    elif t.sheet.when_stuck == "draw_and_pass":
        m.turn = next_active(m, seat)  # P9 "tõmbamine lõpetab käigu" read plainly: the pile stays
    else:
        m.decision = "drawn"
        m.drawn = card


def _do_play_drawn(t: Table, m: Table, seat: int, action: Mapping[str, Any], events: Events) -> None:
    if t.phase != "play" or seat != t.turn or t.decision != "drawn" or t.drawn is None:
        raise IllegalAction("no_drawn_card", "You have no freshly drawn card to play.")
    p = t.players[seat]
    card = t.drawn
    _check_fits(t, card[0])
    _check_not_out_on_special(t, p, card[0], 1)
    m.decision = None
    m.drawn = None
    m.put(seat, without(p, [card]))
    placed(m, events, seat, [card], "drawn")


def _do_pick_up(t: Table, m: Table, seat: int, action: Mapping[str, Any], events: Events) -> None:
    if t.phase == "play" and seat == t.turn and t.decision == "drawn":
        assert t.drawn is not None
        if not t.sheet.voluntary_pick_up and {"type": "play_drawn"} in drawn_moves(t, seat):
            raise IllegalAction("must_play",
                                "The card you drew fits: you must play it (no voluntary pick-up).")
        m.decision = None
        m.drawn = None
        pick_up(m, events, seat)
        return
    p = _on_turn(t, seat)
    if not t.pile:
        raise IllegalAction("pile_empty", "The pile is empty: there is nothing to pick up.")
    if t.sheet.when_stuck != "pick_up" and t.stock and p.hand:
        raise IllegalAction("draw_first", "Draw a card from the stock first (P9).")
    _must_play_check(t, seat)
    pick_up(m, events, seat)


def _do_pass(t: Table, m: Table, seat: int, action: Mapping[str, Any], events: Events) -> None:
    _on_turn(t, seat)
    if t.pile:
        raise IllegalAction("cannot_pass", "You cannot pass: play or pick up the pile.")
    if plays(t, seat):
        raise IllegalAction("cannot_pass", "You cannot pass: you have a card to play.")
    emit(events, "passed", {"seat": seat})
    m.turn = next_active(m, seat)


def _do_burn_or_keep(t: Table, m: Table, seat: int, action: Mapping[str, Any], events: Events) -> None:
    if t.phase != "play" or seat != t.turn or t.decision != "burn":
        raise IllegalAction("no_burn_decision", "There is no 10 of yours waiting for a burn decision.")
    m.decision = None
    if action["type"] == "burn":
        burn(m, events, seat, "ten")  # P15: the same player starts a new pile
        m.turn = seat
    else:
        emit(events, "kept", {"seat": seat})  # P15: leaving the 10 gives no extra turn
        m.turn = next_active(m, seat)


def _do_cut_in(t: Table, m: Table, seat: int, action: Mapping[str, Any], events: Events) -> None:
    p = _out_of_turn_ok(t, seat, t.sheet.cut_in, "This rule sheet does not allow cutting in.")
    if seat == t.turn:
        raise IllegalAction("your_turn", "It is your turn: just play the cards.")
    cards = _cards_field(action)
    rank = _same_rank(cards)
    _check_held(p, cards)
    top, count = top_run(t.pile)
    if top is None or top == "X" or rank != top or count + len(cards) < 4:
        raise IllegalAction("no_four", "Those cards do not complete a four of a kind on the pile.")
    _check_not_out_on_special(t, p, rank, len(cards))
    m.put(seat, without(p, cards))
    # P16 (wikihow): the cutter burns the pile and plays on; the seats between are skipped.
    placed(m, events, seat, sorted(cards, key=BY_RANK), "cut_in", may_add=False)


def _do_add(t: Table, m: Table, seat: int, action: Mapping[str, Any], events: Events) -> None:
    p = _out_of_turn_ok(t, seat, t.sheet.add_drawn, "This rule sheet does not allow adding drawn cards.")
    if t.add_seat != seat or seat == t.turn:
        raise IllegalAction("no_add", "You have no freshly drawn card of the rank you just played.")
    cards = _cards_field(action)
    if not held(t.add_cards, cards):
        raise IllegalAction("no_add", "Only cards just drawn of the rank you played may be added.")
    rank = cards[0][0]
    _check_not_out_on_special(t, p, rank, len(cards))
    m.add_seat = None
    m.add_cards = ()
    m.put(seat, without(p, cards))
    turn = t.turn
    placed(m, events, seat, sorted(cards, key=BY_RANK), "add")
    if m.phase == "play" and m.turn != seat:
        m.turn = turn  # an add is out of turn: the next player is still to play


def _do_lay_four(t: Table, m: Table, seat: int, action: Mapping[str, Any], events: Events) -> None:
    p = _out_of_turn_ok(t, seat, t.sheet.four_from_hand,
                        "This rule sheet does not allow laying down a four from the hand.")
    cards = _cards_field(action)
    if len(cards) != 4:
        raise IllegalAction("wrong_count", "Lay down exactly four cards of one rank.")
    rank = _same_rank(cards)
    if rank == "X":
        raise IllegalAction("no_four", "Jokers do not make a four of a kind.")
    _check_held(p, cards)
    _check_not_out_on_special(t, p, rank, 4)
    m.put(seat, without(p, cards))
    m.burned = m.burned + tuple(cards)
    emit(events, "laid_four", {"seat": seat, "cards": sorted(cards, key=BY_RANK)})
    refill(m, events, seat)
    if check_out(m, events, seat):
        return
    if seat in m.out and m.turn == seat:
        m.turn = next_active(m, seat)


# What ``engine.perform`` runs for a move ``engine.check`` accepted: a kind's move without the
# handler's own checks where they would only pass again (the listing holds the move).
MAKERS: dict[str, Handler] = {}

HANDLERS: dict[str, Handler] = {
    "swap": _do_swap,
    "ready": _do_ready,
    "lay_face_up": _do_lay_face_up,
    "play": _do_play,
    "play_face_up": _do_play_face_up,
    "play_face_down": _do_play_face_down,
    "draw": _do_draw,
    "play_drawn": _do_play_drawn,
    "pick_up": _do_pick_up,
    "pass": _do_pass,
    "burn": _do_burn_or_keep,
    "keep": _do_burn_or_keep,
    "cut_in": _do_cut_in,
    "add": _do_add,
    "lay_four": _do_lay_four,
}
MAKERS.update(HANDLERS)
MAKERS["play"] = _make_play
