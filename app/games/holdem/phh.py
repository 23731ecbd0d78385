"""Export of finished hands in PHH, the poker hand-history format pokerkit reads and writes.

``export(state, hand, seat)`` writes one finished hand as seen by ``seat`` (``None``: a
spectator): hole cards the seat never saw are written ``????``; mucked cards are never written;
the deck and burn cards are never written (PHH records no burns). ``everything=True`` writes all
hole cards, for the server's own archive once the game is over.

Players are listed as PHH orders them: from the first player left of the button round to the
button (heads-up: the big blind, then the button, whose blinds and antes PHH lists small blind
first). Pot-limit hold'em has no PHH variant code:
its hands are written as no-limit ("NT"), where every pot-limit action is also legal, with the
user field ``_betting_limit = "pot"``. A straddle and a new player's posted blind are written as
blinds; a dead small blind as a 0 blind. A second run (run it twice) is not part of PHH 1.x and is
written in the user field ``_second_board``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import IllegalAction
from app.games.holdem.state import State


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return "'" + value.replace("'", "") + "'"
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} in PHH")


def record(state: State, hand: int) -> dict[str, Any]:
    for rec in state.history:
        if rec["hand"] == hand:
            return rec
    raise IllegalAction("no_such_hand", "Hand {hand} is not among the finished hands of this table.",
                        hand=hand)


def export(state: State, hand: int, seat: int | None, *, everything: bool = False,
           names: Mapping[int, str] | None = None) -> str:
    rec = record(state, hand)
    sheet = state.sheet
    players: list[int] = rec["players"]
    index = {x: i + 1 for i, x in enumerate(players)}
    actions: list[str] = []
    for line in rec["actions"]:
        words = line.split()
        if words[0] == "d" and words[1] == "dh":
            who = int(words[2][1:])
            i = players.index(who)
            visible = everything or who == seat or rec["shown"][i]
            actions.append(f"d dh p{index[who]} {words[3] if visible else '????'}")
        elif words[0] == "d":
            actions.append(line)
        else:
            who = int(words[0][1:])
            actions.append(" ".join([f"p{index[who]}", *words[1:]]))
    blinds = [b + p for b, p in zip(rec["blinds"], rec["posts"], strict=True)]
    antes = list(rec["antes"])
    if len(players) == 2:
        # PHH (like pokerkit) lists heads-up blinds and antes small blind first, though the big
        # blind is the first player.
        blinds.reverse()
        antes.reverse()
    fields: dict[str, Any] = {
        "variant": "FT" if sheet.variant == "fixed_limit" else "NT",
        "ante_trimming_status": False,
        "antes": antes,
        "blinds_or_straddles": blinds,
    }
    if sheet.variant == "fixed_limit":
        fields["small_bet"] = rec["small_bet"]
        fields["big_bet"] = 2 * rec["small_bet"]
    else:
        fields["min_bet"] = rec["min_bet"]
    fields.update(
        starting_stacks=rec["starting_stacks"],
        actions=actions,
        hand=hand,
        players=[(names or {}).get(x) or f"seat {x + 1}" for x in players],
        seats=[x + 1 for x in players],
        seat_count=state.seats,
        finishing_stacks=rec["finishing_stacks"],
    )
    if sheet.variant == "pot_limit":
        fields["_betting_limit"] = "pot"
    if rec.get("board2"):
        fields["_second_board"] = "".join(rec["board2"])
    return "".join(f"{key} = {_value(value)}\n" for key, value in fields.items())
