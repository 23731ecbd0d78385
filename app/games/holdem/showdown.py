"""The showdown (H19, TDA Rule 16): the order of showing, tabling and mucking, and who must show.

``showdown`` and ``decide`` return the chips won by seat once the pots are shared out, or ``None``
while a player is still asked to show or muck; ``engine`` then finishes the hand.
"""

from __future__ import annotations

from app.games.base import Event
from app.games.holdem.common import after, event, next_of
from app.games.holdem.evaluator import hand_name, name_of
from app.games.holdem.pots import award, pots, score
from app.games.holdem.state import Hand, State


def show(h: Hand, seat: int, events: list[Event], rank: int = 0) -> None:
    """Table ``seat``'s cards; ``rank``, when given, is its ``strength`` on the whole board."""
    shown = list(h.shown)
    shown[seat] = True
    h.shown = shown
    cards = h.holes[seat]
    h.actions.append(f"s{seat} sm {''.join(cards)}")
    events.append(
        event(
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


def muck(h: Hand, seat: int, events: list[Event]) -> None:
    mucked = list(h.mucked)
    mucked[seat] = True
    h.mucked = mucked
    h.actions.append(f"s{seat} sm")
    events.append(event("muck", {"seat": seat}))


def could_win(
    h: Hand,
    seat: int,
    pot_list: list[tuple[int, list[int]]] | None = None,
    scores: dict[int, int] | None = None,
) -> bool:
    """Whether ``seat`` beats or ties every shown hand in some pot it may win (auto showdown).

    ``scores`` may give the live hands' strengths on the board, computed once per showdown."""
    if scores is None:
        scores = {x: score(h, x, h.board) for x in h.players if not h.folded[x]}
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


def all_in_tabled(s: State) -> bool:
    """H19: "Kui kõik on all-in ja panustamist enam ei toimu, avatakse turniiridel kõigi osalejate
    kaardid kohe" (all-in with no betting left: in tournaments every hand is opened at once). At a
    cash table the seed's "Mängija, kes näeb, et on kaotanud, võib oma kaardid näitamata maha
    visata" holds there too: the showdown goes in order and a loser may muck (``all_in_tabled``)."""
    return s.sheet.format == "tournament" or s.sheet.all_in_tabled == "always"


def table_all(h: Hand, events: list[Event]) -> None:
    """Every live hand not yet shown is turned face up (all-in with no betting left, H19;
    TDA Rule 16, also on the river)."""
    for seat in h.players:
        if not h.folded[seat] and not h.shown[seat]:
            show(h, seat, events, score(h, seat, h.board) if len(h.board) == 5 else 0)


def showdown(s: State, h: Hand, events: list[Event]) -> list[int] | None:
    """Show and muck in H19 order (``auto``), or ask the first player (``ask``)."""
    live = [x for x in h.players if not h.folded[x]]
    undecided = [x for x in live if not h.shown[x] and not h.mucked[x]]
    if undecided:
        # H19: the river's last aggressor shows first, else the first player left of the button.
        if h.aggressor >= 0 and h.aggressor in live:
            start = h.aggressor
        else:
            start = next_of(h.button, len(s.stacks), live)
        ring = [start, *[x for x in after(start, len(s.stacks))[:-1]]]
        h.order = [x for x in ring if x in undecided]
        h.phase = "showdown"
        if s.sheet.showdown == "ask":
            h.actor = h.order[0]
            return None
        pot_list = pots(h)
        scores = {x: score(h, x, h.board) for x in live}
        while h.order:
            seat = h.order[0]
            h.order = h.order[1:]
            if must_show(h, seat, pot_list) or could_win(h, seat, pot_list, scores):
                show(h, seat, events, scores[seat])
            else:
                muck(h, seat, events)
        return award(s, h, events, pot_list, scores)
    return award(s, h, events)


def decide(s: State, h: Hand, seat: int, kind: str, events: list[Event]) -> list[int] | None:
    """An asked player shows or mucks (a muck only where ``must_show`` allows it, as ``Holdem.check``
    sees to); the last decision shares out the pots."""
    h.order = h.order[1:]
    if kind == "show":
        show(h, seat, events)
    else:
        muck(h, seat, events)
    if h.order:
        h.actor = h.order[0]
        return None
    h.actor = -1
    return award(s, h, events)
