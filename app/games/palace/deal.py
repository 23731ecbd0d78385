"""Dealing a Palace game (P2, P3, P24): the deck, its one shuffle and the deal into slots and
hands (the dealing order is in ``engine``'s docstring)."""

from __future__ import annotations

from collections.abc import Sequence

from app.games import cards as cardlib
from app.games.base import IllegalAction, InvalidSheet, freeze
from app.games.palace.rules import RuleSheet, check_sheet
from app.games.palace.table import BY_RANK, FrozenTable, Player, Table


def new(
    sheet: RuleSheet, players: int, *, seed: str | None = None, deck: Sequence[str] | None = None
) -> FrozenTable:
    """Deal a game (P3, P24: the sheet is checked before any card moves)."""
    if not isinstance(sheet, RuleSheet):
        raise InvalidSheet(None, "A Palace game needs a Palace rule sheet.")
    check_sheet(sheet)
    if isinstance(players, bool) or not isinstance(players, int):
        raise InvalidSheet(None, "The number of players must be a whole number.")
    sheet.check_players(players)
    order = deck_order(sheet, players, seed, deck)
    pos = 0

    def rounds(count: int) -> list[list[str]]:
        nonlocal pos
        got: list[list[str]] = [[] for _ in range(players)]
        for _ in range(count):
            for s in range(players):
                got[s].append(order[pos])
                pos += 1
        return got

    face_down = rounds(3)
    if sheet.deal == "three_three_three":
        face_up: list[list[str | None]] = [list(c) for c in rounds(3)]
        hands = rounds(3)
    else:
        face_up = [[None, None, None] for _ in range(players)]
        hands = rounds(6)
    seats = tuple(
        Player(
            hand=tuple(sorted(hands[s], key=BY_RANK)),
            face_up=tuple(face_up[s]),
            face_down=tuple(face_down[s]),
        )
        for s in range(players)
    )
    table = Table(sheet=sheet, players=seats, stock=tuple(order[pos:]), pile=(), burned=(), phase="swap",
                  turn=0)
    return freeze(table, FrozenTable)


def full_deck(sheet: RuleSheet, players: int) -> list[str]:
    """The sheet's unshuffled cards for ``players`` (P2): the one shuffle, labelled ``deal``, is of these."""
    low = "2" if sheet.deck == "52" else "6"
    return cardlib.deck(low_rank=low, jokers=sheet.jokers, decks=sheet.deck_count(players))


def deck_order(sheet: RuleSheet, players: int, seed: str | None, deck: Sequence[str] | None) -> list[str]:
    """The cards in dealing order, top first: the seeded shuffle of the sheet's deck, or ``deck``."""
    needed = sheet.cards_needed(players)
    if deck is None:
        full = full_deck(sheet, players)
        if len(full) < needed:
            raise InvalidSheet(
                "decks",
                "{players} players need {needed} cards but the deck has {cards}; use more decks.",
                players=players, needed=needed, cards=len(full),
            )
        return cardlib.shuffled(full, seed if seed is not None else cardlib.new_seed())
    order = list(deck)
    for code in order:
        if not cardlib.is_card(code):
            raise IllegalAction("bad_deck", "The deck holds '{card}', not a card code.",
                                 card=str(code)[:8])
    if len(order) < needed:
        raise IllegalAction("bad_deck", "{players} players need {needed} cards, not {cards}.",
                             players=players, needed=needed, cards=len(order))
    return order
