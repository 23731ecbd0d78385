"""What fits on the pile: the active card, the special ranks and the four of a kind.

Read at these decision points only, so the house rules live in one place (P7, P12–P16, P2 jokers).
"""

from __future__ import annotations

from app.games.palace.rules import RuleSheet
from app.games.palace.table import VALUE


def active_card(sheet: RuleSheet, pile: tuple[str, ...]) -> str | None:
    """The card the next play must match, or None when anything may follow.

    Transparent cards (an 8 under P13, a joker with ``joker="transparent"``) are looked through to
    the last card below them; a 2 (P12) and a resetting joker leave anything open; so does an
    empty pile or a pile of transparent cards only (P13: an 8 on an empty pile).
    """
    if not pile:
        return None
    top = pile[-1]
    rank = top[0]
    if rank == "2":
        return None
    if (rank != "8" and rank != "X") or (rank == "8" and not sheet.eight_transparent):
        return top  # the usual case: the top card itself
    eight_clear = sheet.eight_transparent
    joker_clear = sheet.joker == "transparent"
    for card in reversed(pile):
        rank = card[0]
        if rank == "8" and eight_clear:
            continue
        if rank == "X":
            if joker_clear:
                continue
            return None
        if rank == "2":
            return None
        return card
    return None


def fits(sheet: RuleSheet, rank: str, active: str | None) -> bool:
    """May a card of ``rank`` go on a pile whose active card is ``active`` (P7, P12–P15)?"""
    if rank == "2" or rank == "X":  # P12: a 2 fits on anything; P2: so does a joker (our choice)
        return True
    if rank == "8" and sheet.eight_transparent:  # P13: an 8 goes on anything, even on a 7
        return True
    if rank == "T" and sheet.ten_fits == "anything":  # P15 (fi, wikihow)
        return True
    if active is None:
        return True
    low = sheet.low_card
    if active[0] == low:  # P14: after the low card, that rank or lower; so no 10 on a 7 (P15 et)
        return VALUE[rank] <= VALUE[low]
    return VALUE[rank] >= VALUE[active[0]]  # P7: equal or higher


def top_run(pile: tuple[str, ...]) -> tuple[str | None, int]:
    """The rank on top and how many cards of it lie on top in a row (P16: 8s are not skipped)."""
    if not pile:
        return None, 0
    rank = pile[-1][0]
    count = 0
    for card in reversed(pile):
        if card[0] != rank:
            break
        count += 1
    return rank, count


def four_on_top(pile: tuple[str, ...]) -> bool:
    """P16: four (or more, with two decks) cards of one rank on top burn the pile; jokers never do."""
    if len(pile) < 4:
        return False
    rank = pile[-1][0]
    return rank != "X" and pile[-2][0] == rank and pile[-3][0] == rank and pile[-4][0] == rank


def requirement(sheet: RuleSheet, pile: tuple[str, ...]) -> dict[str, str]:
    """The rule for the next card in words a browser can show."""
    return next_card(sheet, active_card(sheet, pile))


def next_card(sheet: RuleSheet, active: str | None) -> dict[str, str]:
    """``requirement`` from the pile's active card (``active_card``)."""
    if active is None:
        return {"kind": "anything"}
    if active[0] == sheet.low_card:
        return {"kind": "at_most", "rank": active[0]}
    return {"kind": "at_least", "rank": active[0]}
