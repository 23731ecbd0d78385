"""Fair rounds sealed inside a commit: a game that deals more than once (``Game.reseeds``) gets a
fresh round for each later shuffle (docs/fairness.md). Pure but for the round it seals.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.games.base import Game, IllegalAction
from app.games.fair import RESEED
from app.rooms.entries import SERVER_SEAT, auto_entries, event_row
from app.rooms.fairness import Fairness
from app.rooms.members import Member
from app.store.queries import LogEntry


def reseed_entry(game: Game[Any, Any], fair: Fairness, before: Any, seated: Mapping[int, Member],
                 connected: list[int], game_no: int, dealt: Any) -> LogEntry:
    """The pending round sealed for the shuffle about to be made (``dealt``: the state the
    shuffling entry led to before reseeding; ``before``: the room's state before the commit), as a
    server entry with its public event."""
    order = [seated[seat].id if seat in seated else None for seat in range(game.seat_count(dealt))]
    labels = [s.label for s in game.shuffles(dealt, game.shuffle_count(before))]
    sealed = fair.seal_round(order, game_no, labels[0] if labels else None)
    return LogEntry(0, game_no, "server", None,
                    {"type": RESEED, "seed": sealed.seed, "fair": sealed.to_action()},
                    [{"type": "fair_round",
                      "data": {"game_no": game_no, "label": labels[0] if labels else None,
                               **fair.deal_event(sealed), "connected": connected},
                      "audience": None}])


def needs_round(game: Game[Any, Any], before: Any, entries: list[LogEntry], state: Any) -> bool:
    """Whether these entries (no deal among them) make a shuffle beyond ``before``'s."""
    return (game.reseeds and state is not None and before is not None and bool(entries)
            and not any(e.kind == "deal" for e in entries)
            and game.shuffle_count(state) != game.shuffle_count(before))


def seal_rounds(game: Game[Any, Any], fair: Fairness, before: Any, entries: list[LogEntry], state: Any,
                seated: Callable[[], Mapping[int, Member]], connected: Callable[[], list[int]]
                ) -> tuple[Any, bool]:
    """When these entries make a shuffle, the pending round is sealed into a ``reseed`` entry put
    just before the entry that shuffles, and the entries from there are applied again (the new hand
    or deal is dealt from the round's seed; events, versions and later automatic moves follow). So
    the contributions sent during the hand before count for the next one, and the round's
    commitment was out before any of them. Returns the state the entries now lead to and whether a
    round was sealed; ``entries`` is changed in place (its callers publish it)."""
    if not needs_round(game, before, entries, state):
        return state, False
    first_version = entries[0].version
    game_no = entries[0].game_no
    current = before
    out: list[LogEntry] = []
    resealed = False
    for index, entry in enumerate(entries):
        seat = SERVER_SEAT if entry.seat is None else entry.seat
        count = game.shuffle_count(current)
        try:
            after, events = game.apply(current, seat, entry.action)
            if not resealed and game.shuffle_count(after) > count:
                reseed = reseed_entry(game, fair, before, seated(), connected(), game_no, after)
                current, _ = game.apply(current, SERVER_SEAT, reseed.action)
                out.append(reseed)
                after, events = game.apply(current, seat, entry.action)
                resealed = True
        except IllegalAction:
            # Only a move the server made itself after the new deal can fail here (its choice
            # was made on the deal before): the server's moves are chosen again from here, and
            # a dropped timeout comes again at the next deadline.
            if entry.kind == "move" or not resealed or index == 0:
                raise
            current, autos = auto_entries(game, current, first_version + len(out) - 1, game_no)
            out.extend(autos)
            break
        entry.events = [event_row(e) for e in events]
        out.append(entry)
        current = after
    for offset, entry in enumerate(out):
        entry.version = first_version + offset
    entries[:] = out
    return current, resealed
