"""The Palace family engine: Hiina turakas, China Hand and Palace with every house rule.

The modules: ``deal`` deals, ``listing`` lists every legal move, ``handlers`` make each kind of
move on a builder table with the operations of ``moves``; this one checks a move (``check``: a
move is legal exactly when ``listing`` lists it) and makes it (``apply``: ``copy → mutate →
freeze``).

Seats and direction
    Seats are ``0 .. n-1`` clockwise; the dealer is the last seat, so seat 0 sits on the dealer's
    left. Play goes clockwise: seat ``s`` is followed by ``s + 1`` (P6).

Dealing order (from the top of ``deck``, the first card; P3)
    One card at a time, clockwise from seat 0:

    1. three rounds face-down, into table slots 0, 1, 2;
    2. ``deal="three_three_three"``: three rounds face-up, onto slots 0, 1, 2;
    3. three rounds to the hands (``deal="choose_from_six"``: six rounds, and no face-up round);
    4. the rest is the stock, its top first. With ``opening="turn_up"`` the stock's top card is
       turned up as the pile's base when play starts (after the swap phase, P5).

    So with two players and a 3-3-3 deal ``deck[0]`` is seat 0's face-down slot 0, ``deck[1]`` seat 1's
    face-down slot 0, ``deck[6]`` seat 0's face-up slot 0, ``deck[12]`` seat 0's first hand card
    and ``deck[18]`` the stock's top. A ``deck`` need not be a full deck: any card codes, enough
    for the deal.

Actions (``type`` and fields)
    Swap phase (P3, P4), every seat at once until it is ready:
      ``{"type": "swap", "card": "Qs", "index": 0}``  hand card <-> own face-up card in slot 0
      ``{"type": "ready"}``                              done swapping (3-3-3 deal)
      ``{"type": "lay_face_up", "cards": [..3..]}``      choose the 3 face-up cards (6-card deal); ready
    Play phase, the seat on turn:
      ``{"type": "play", "cards": ["Qs", "Qh"]}``        one or more equal cards from the hand (P7)
      ``{"type": "play_face_up", "indexes": [0, 2]}``    equal face-up cards, hand empty (P18)
      ``{"type": "play_face_down", "index": 1}``         a blind face-down card (P21)
      ``{"type": "draw"}``                               cannot or will not play: draw one (P9)
      ``{"type": "play_drawn"}``                         play the card just drawn (P9)
      ``{"type": "pick_up"}``                            take the whole pile (P9, P10, P20)
      ``{"type": "pass"}``                               only when the pile is empty and no play is
                                                         allowed (P23 leaves nothing else)
      ``{"type": "burn"}`` / ``{"type": "keep"}``        after a 10 with ``ten_burn="optional"`` (P15)
    Any seat still in play, out of turn, when the sheet allows it:
      ``{"type": "cut_in", "cards": [...]}``            complete a four on the pile (P16, ``cut_in``)
      ``{"type": "add", "cards": [...]}``                add drawn cards of the rank just played (P17)
      ``{"type": "lay_four", "cards": [..4..]}``         lay aside four of a kind from hand (P16)

Choices where the seeds are silent (see docs/rules/palace.md)
    - A joker fits on anything; ``joker="reset"`` acts like a 2, ``"transparent"`` like the et 8.
      Jokers never make a four of a kind.
    - A turned-up base card (P5) burns nothing; it simply is the pile's first card.
    - ``when_stuck="draw_ends_turn"``: the drawn card may not be played, so the player picks up the
      pile in the same move (P9 "otherwise pick up"). ``"draw_and_pass"`` is the plainer reading
      of "tõmbamine lõpetab käigu": the drawn card stays in hand, the pile stays, the turn passes.
    - A player who goes out on a 10 under ``ten_burn="optional"`` does not decide; the 10 stays.
    - P23 also covers the last blind card: a 2, 10 or ace turned up as the very last card fails
      and is picked up with the pile. A player left only with such cards and an empty pile passes.
    - Out-of-turn moves wait while the player on turn owes a decision (burn/keep, drawn card).
    - Endless games: after ``stalemate_moves`` moves in a row with no progress (no card burned,
      drawn from the stock or played from the table, nobody out) the game ends; players still in
      are placed by the number of cards they hold, fewer first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import Action, Event, IllegalAction, Outcome, freeze, require_type
from app.games.palace.deal import full_deck, new
from app.games.palace.handlers import HANDLERS, MAKERS
from app.games.palace.listing import canonical, listed, timeout_action, to_act
from app.games.palace.moves import end
from app.games.palace.table import FrozenTable, Table

__all__ = ["ACTION_FIELDS", "apply", "check", "full_deck", "legal_actions", "new", "outcome", "perform",
           "timeout_action", "to_act"]

ACTION_FIELDS: dict[str, frozenset[str]] = {
    "swap": frozenset({"card", "index"}),
    "ready": frozenset(),
    "lay_face_up": frozenset({"cards"}),
    "play": frozenset({"cards"}),
    "play_face_up": frozenset({"indexes"}),
    "play_face_down": frozenset({"index"}),
    "draw": frozenset(),
    "play_drawn": frozenset(),
    "pick_up": frozenset(),
    "pass": frozenset(),
    "burn": frozenset(),
    "keep": frozenset(),
    "cut_in": frozenset({"cards"}),
    "add": frozenset({"cards"}),
    "lay_four": frozenset({"cards"}),
}


def check(t: Table, seat: int, action: Mapping[str, Any]) -> IllegalAction | None:
    """The one legality check of Palace (``Game.check``): ``None`` when ``seat`` may make ``action``
    now, else the refusal. A move of the right shape is legal exactly when the listing of the
    table (``listing.listed``, which ``legal_actions`` hands out) holds it, in canonical form; a
    move not listed is refused with what its handler finds wrong with it (made on a scratch copy),
    or else as not open now."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(t.players):
        return IllegalAction("bad_seat", "There is no such seat at this table.")
    moves = listed(t, seat)
    if action in moves:
        # A listed move (as ``legal_actions`` gave it, the usual case) has the right shape: the
        # checks of its fields below could only pass.
        return None
    try:
        kind = require_type(action, ACTION_FIELDS)
    except IllegalAction as refused:
        return refused
    fields = ACTION_FIELDS[kind]
    extra = set(action) - fields - {"type"}
    if extra:
        return IllegalAction("bad_action", "A {action} action has no field '{field}'.",
                             action=kind, field=sorted(extra)[0])
    missing = fields - set(action)
    if missing:
        return IllegalAction("bad_action", "A {action} action needs the field '{field}'.",
                             action=kind, field=sorted(missing)[0])
    if t.phase == "over":
        return IllegalAction("game_over", "The game is over.")
    if canonical(action) in moves:
        return None
    try:
        HANDLERS[kind](t, t.copy(), seat, action, None)
    except IllegalAction as refused:
        return refused
    return IllegalAction("not_allowed", "That move is not open to you now.")


def legal_actions(t: Table, seat: int) -> list[Action]:
    """Every move ``seat`` may make now: the listing ``check`` accepts (a new list; its dicts are
    shared with other listings, as ``listing.group_plays`` makes each play once: never change them)."""
    return list(listed(t, seat))


def apply(t: Table, seat: int, action: Mapping[str, Any]) -> tuple[Table, list[Event]]:
    events: list[Event] = []
    # A move as ``legal_actions`` lists it (the usual case: its listing is remembered on the table,
    # ``listing.listed``) is made at once; else ``check`` decides.
    memo = t.listing
    if memo is not None and memo[0] == seat and type(seat) is int:
        if action in memo[1]:
            return perform(t, seat, action, events), events
    elif type(seat) is int and 0 <= seat < len(t.players) and action in listed(t, seat):
        return perform(t, seat, action, events), events
    problem = check(t, seat, action)
    if problem is not None:
        raise problem
    return perform(t, seat, action, events), events


def perform(t: Table, seat: int, action: Mapping[str, Any], events: list[Event] | None) -> FrozenTable:
    """A move ``check`` accepts, made: ``copy → mutate → freeze``. The rules of every move, shared
    by ``apply`` and the playout path (``playout.play``, with no events)."""
    kind = action["type"]
    m = t.copy()
    if (t.add_seat is not None or t.add_cards) and not (kind == "add" and seat == t.add_seat):
        # P17: the add window closes with any move but the adding player's own add.
        m.add_seat = None
        m.add_cards = ()
    MAKERS[kind](t, m, seat, action, events)
    if t.phase == "play":
        m.opening_rank = None  # P5: the opening constraint binds the first move only
        if m.phase == "play":
            if _progressed(t, m, kind):
                m.idle = 0
            else:
                m.idle = t.idle + 1
                if m.idle >= t.sheet.stalemate_moves:
                    end(m, events, "stalemate")
    return freeze(m, FrozenTable)


# The moves that take cards from a player's table (P18, P21; P19 turns the card below up, but the
# face-up cards still leave): every one of them lessens the table cards. No other move in play
# changes a table row, so these are the stalemate rule's "played from the table".
TABLE_PLAYS = frozenset({"play_face_up", "play_face_down"})


def _progressed(t: Table, m: Table, kind: str) -> bool:
    """Whether the move ``kind`` from ``t`` to ``m`` made what the stalemate rule counts as
    progress: a card drawn from the stock, burned or played from the table, or a seat out."""
    # The stock only shrinks, the burned cards and the seats out only grow, each as a new tuple.
    return (
        kind in TABLE_PLAYS
        or (m.stock is not t.stock and len(m.stock) != len(t.stock))
        or (m.burned is not t.burned and len(m.burned) != len(t.burned))
        or m.out is not t.out
    )


def outcome(t: Table) -> Outcome | None:
    """Placings: first out first (P22); with play-on-to-the-last the loser last; after a stalemate
    the players still in are placed by cards held, fewer first, ties sharing a place."""
    if t.phase != "over":
        return None
    groups: list[tuple[int, ...]] = [(s,) for s in t.out]
    rest = [s for s in range(len(t.players)) if s not in t.out]
    if rest:
        if t.reason == "stalemate":
            counts = sorted({t.players[s].card_count() for s in rest})
            for n in counts:
                groups.append(tuple(s for s in rest if t.players[s].card_count() == n))
        else:
            groups.append(tuple(rest))
    scores = {s: t.players[s].card_count() for s in range(len(t.players))}
    return Outcome(placings=tuple(groups), scores=scores, reason=t.reason or "finished")
