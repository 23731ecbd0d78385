"""Pots and odd chips (H2, H20, H21): the main pot and side pots, and sharing each out."""

from __future__ import annotations

from app.games.base import Event
from app.games.holdem.betting import return_uncalled
from app.games.holdem.common import SEAT_KEY, after, event
from app.games.holdem.evaluator import name_of, strength7
from app.games.holdem.state import Hand, State


def score(h: Hand, seat: int, board: list[str]) -> int:
    """The strength of ``seat``'s best five on ``board`` (lower is better)."""
    a, b = h.holes[seat]
    return strength7(a, b, *board)


def pots(h: Hand) -> list[tuple[int, list[int]]]:
    """The main pot and side pots (H21): (amount, seats that may win it), in order.

    Bets are layered by how much each live player put in; antes are dead money of the main
    pot (a big-blind ante is paid for the whole table, so everyone contests it).
    """
    return layers(h.players, h.committed, h.antes, h.folded)


def layers(
    players: list[int], committed: list[int], antes: list[int], folded: list[bool]
) -> list[tuple[int, list[int]]]:
    """``pots`` from the hand's lists (per seat), which the playout path keeps too (``playout``)."""
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


def split(amount: int, winners: list[int], button: int, n: int) -> dict[int, int]:
    """H20: equal shares; odd chips one each to the winners in order from the button's left."""
    if len(winners) == 1:
        return {winners[0]: amount}
    share, odd = divmod(amount, len(winners))
    ordered = [x for x in after(button, n) if x in winners]
    return {x: share + (1 if i < odd else 0) for i, x in enumerate(ordered)}


def award(
    s: State,
    h: Hand,
    events: list[Event],
    pot_list: list[tuple[int, list[int]]] | None = None,
    scores: dict[int, int] | None = None,
) -> list[int]:
    """Share out the pots; the chips won, by seat. ``pot_list`` and ``scores`` (strengths on
    ``h.board``) when already known."""
    runs = [h.board, h.board2] if h.board2 else [h.board]
    two = len(runs) == 2
    n = len(s.stacks)
    won = [0] * n
    shown, mucked, holes = h.shown, h.mucked, h.holes
    showing = [x for x in h.players if shown[x] and not mucked[x]]
    ranked = [
        {x: scores[x] if scores is not None and run == 0 else score(h, x, board) for x in showing}
        for run, board in enumerate(runs)
    ]
    awards = list(h.awards)  # shared with the previous state (Hand.copy): replaced, not changed
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
            shares = split(part, winners, h.button, n)
            for x, v in shares.items():
                won[x] += v
            line = {
                "pot": number,
                "amount": part,
                "run": run + 1,
                "shares": {SEAT_KEY[k]: v for k, v in shares.items()},
                "hand": name_of(best, [*holes[winners[0]], *board]),
                "contenders": contenders,
            }
            awards.append(line)
            events.append(event("pot_won", line))
    h.awards = awards
    return won


def uncontested(s: State, h: Hand, winner: int, events: list[Event]) -> list[int]:
    """H15: everyone else folded; the last player wins without showing."""
    h.actor = -1
    return_uncalled(s, h, events)
    amount = sum(h.committed)
    won = [0] * len(s.stacks)
    won[winner] = amount
    line = {"pot": 0, "amount": amount, "run": 1, "shares": {SEAT_KEY[winner]: amount}, "hand": None}
    h.awards = [*h.awards, line]
    events.append(event("pot_won", line))
    return won
