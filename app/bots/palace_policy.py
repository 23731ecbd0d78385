"""The Palace bot's own policy: the "easy" and "good" moves and what it lets go out of turn
(``app.bots.palace`` is the bot; ``app.bots.palace_search`` plays these moves in its playouts).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.bots.memory import Memory

Action = dict[str, Any]

RANKS = "23456789TJQKA"
VALUE: dict[str, int] = {r: i for i, r in enumerate(RANKS)}
VALUE["X"] = -1
SPECIAL = "2TX8"
# How much a card is worth keeping: specials above everything, then by rank.
KEEP: dict[str, int] = {**{r: VALUE[r] for r in RANKS}, "8": 13, "T": 15, "2": 16, "X": 17}

PLAYS = ("play", "play_face_up", "play_face_down")
EXTRAS = ("cut_in", "add", "lay_four")


def good_move(view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random,
              memory: Memory = ()) -> Action:
    """The good policy's own move, without the playouts (what the search falls back on)."""
    return _good(view, legal, rng, memory)


def easy_move(view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
    """The "easy" level's move."""
    return _easy(view, legal, rng)


def declines(view: Mapping[str, Any], legal: Sequence[Action], level: str, memory: Memory = ()) -> bool:
    """Out of turn (a cut-in, a drawn card added, a four laid down, P16, P17): "good" takes every
    chance that costs no special card; "easy" lets those go that would."""
    extras = [a for a in legal if a["type"] in EXTRAS]
    if not extras:
        return True
    if level == "easy":
        return all(_rank(a["cards"][0]) in SPECIAL for a in extras if a.get("cards"))
    return False


# -- helpers ------------------------------------------------------------------------------


def _me(view: Mapping[str, Any]) -> Mapping[str, Any]:
    you = view.get("you")
    players = view.get("players") or []
    if isinstance(you, int) and 0 <= you < len(players):
        player: Mapping[str, Any] = players[you]
        return player
    return {}


def _cards_of(view: Mapping[str, Any], action: Action) -> list[str]:
    """The cards an action puts down, as far as the seat knows them (none for a blind card)."""
    kind = action["type"]
    if kind in ("play", "cut_in", "add", "lay_four", "lay_face_up"):
        return list(action["cards"])
    if kind == "play_face_up":
        up = _me(view).get("face_up") or []
        return [up[i] for i in action["indexes"] if 0 <= i < len(up) and up[i] is not None]
    if kind == "play_drawn":
        drawn = view.get("drawn")
        return [drawn] if isinstance(drawn, str) else []
    return []


def _rank(card: str) -> str:
    return card[0]


@dataclass(frozen=True)
class Rules:
    """The house rules the table has shown so far (the view carries no sheet): the low card of P14
    (None: no such card), whether 8s are transparent (P13), whether a 10 fits on anything (P15)."""

    low: str | None
    eights_clear: bool
    ten_anything: bool


def read_rules(view: Mapping[str, Any], legal: Sequence[Action], memory: Memory = ()) -> Rules:
    """The rules as the view, the legal moves and the seat's memory show them. With no sign either
    way, a game opened by a turned-up card and dealt without choosing face-up cards plays the et
    base (a 7 low, transparent 8s, no 10 on a 7); any other plays the fi reading."""
    kinds = {e.get("type") for e in memory}
    et = "turned_up" in kinds and "laid_face_up" not in kinds
    low: str | None = "7" if et else None
    clear, ten = et, not et
    need = view.get("next_card") or {}
    rank = need.get("rank")
    pile = view.get("pile") or []
    if need.get("kind") == "at_most" and isinstance(rank, str):
        low = rank
    # What followed what on the pile, from the cards played this game: a card above the low card
    # on it, an 8 on a higher card that left it active, a 10 on the low card.
    previous: str | None = None
    for event in memory:
        kind = event.get("type")
        if kind in ("burned", "picked_up"):
            previous = None
        elif kind == "played" and event.get("cards"):
            now = _rank(str(event["cards"][0]))
            if previous is not None:
                if previous == "7" and now not in "2TX87" and VALUE.get(now, 0) > VALUE["7"]:
                    low = None if low == "7" else low
                if previous == "7" and now == "T":
                    ten = True
                if now == "8" and VALUE.get(previous, -1) > VALUE["8"]:
                    clear = True
            previous = now
    if pile and _rank(pile[-1]) == "8":
        clear = need.get("rank") != "8"
    elif (need.get("kind") == "at_least" and isinstance(rank, str) and VALUE.get(rank, -1) > VALUE["8"]
          and any(_rank(c) == "8" for a in legal for c in _cards_of(view, a))):
        clear = True
    return Rules(low, clear, ten)


def eights_clear(view: Mapping[str, Any], legal: Sequence[Action], memory: Memory = ()) -> bool:
    return read_rules(view, legal, memory).eights_clear


def _play_key(view: Mapping[str, Any], action: Action, clear: bool = True) -> tuple[int, int, int]:
    """Smaller is better: ordinary before special, low before high, more cards before fewer."""
    cards = _cards_of(view, action)
    if not cards:
        return (1, 0, 0)
    rank = _rank(cards[0])
    if rank == "8" and not clear:
        return (0, VALUE["8"], -len(cards))
    special = 1 if rank in SPECIAL else 0
    return (special, KEEP[rank], -len(cards))


# -- levels -------------------------------------------------------------------------------


def _good(view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random,
          memory: Memory = ()) -> Action:
    kinds = {a["type"] for a in legal}
    if view.get("phase") == "swap":
        return _swap(view, legal)
    # Out-of-turn chances first: a four laid down or cut in takes cards out of the game (P16).
    for kind in ("lay_four", "cut_in", "add"):
        extras = [a for a in legal if a["type"] == kind]
        if extras:
            return max(extras, key=lambda a: len(a["cards"]))
    if "burn" in kinds:
        return {"type": "burn"}
    if "play_drawn" in kinds:
        return {"type": "play_drawn"}
    plays = [a for a in legal if a["type"] in ("play", "play_face_up")]
    if plays:
        burn = _burn_now(view, plays, memory)
        if burn is not None:
            return burn
        clear = eights_clear(view, legal, memory)
        return min(plays, key=lambda a: _play_key(view, a, clear))
    blind = [a for a in legal if a["type"] == "play_face_down"]
    if blind:
        return rng.choice(blind)
    for kind in ("draw", "pass", "pick_up", "keep", "ready"):
        if kind in kinds:
            return {"type": kind}
    return legal[0]


# A pile this big is worth burning with a 10 even when an ordinary card fits (P15: the burner plays
# again, so the 10 costs no turn, and nobody can be made to pick the pile up any more).
BURN_PILE = 5


def _burn_now(view: Mapping[str, Any], plays: Sequence[Action], memory: Memory = ()) -> Action | None:
    """A 10 to play now: on a big pile, or when the cheapest ordinary play would spend an ace or king."""
    tens = [a for a in plays if (cards := _cards_of(view, a)) and _rank(cards[0]) == "T"]
    if not tens:
        return None
    clear = eights_clear(view, plays, memory)
    ordinary = [a for a in plays if (cards := _cards_of(view, a))
                and (_rank(cards[0]) not in SPECIAL or (_rank(cards[0]) == "8" and not clear))]
    pile = len(view.get("pile") or [])
    cheapest = min((_play_key(view, a, clear) for a in ordinary), default=None)
    if pile >= BURN_PILE or cheapest is None or cheapest[1] >= VALUE["K"]:
        # Prefer a 10 from the hand over one face up: the face-up cards wait for the end.
        return max(tens, key=lambda a: (a["type"] == "play", len(_cards_of(view, a))))
    return None


def _strength(cards: Sequence[str], eights_clear: bool = True) -> int:
    keep = KEEP if eights_clear else PLAIN_EIGHT
    return sum(keep[_rank(c)] for c in cards)


# KEEP on a sheet whose 8 is an ordinary card (P13 off).
PLAIN_EIGHT: dict[str, int] = {**KEEP, "8": VALUE["8"]}


def _swap(view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
    lays = [a for a in legal if a["type"] == "lay_face_up"]
    if lays:
        # Choosing face-up cards out of six (P3) is the Palace how-to's deal, whose 8 is ordinary
        # (P13 off): an 8 there is no card to keep for the end.
        return max(lays, key=lambda a: (_strength(a["cards"], eights_clear=False), sorted(a["cards"])))
    up = _me(view).get("face_up") or []
    best: tuple[int, Action] | None = None
    for action in legal:
        if action["type"] != "swap":
            continue
        index = action["index"]
        if not 0 <= index < len(up) or up[index] is None:
            continue
        gain = KEEP[_rank(action["card"])] - KEEP[_rank(up[index])]
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, action)
    if best is not None:
        return best[1]
    return {"type": "ready"} if {"type": "ready"} in legal else legal[0]


def _easy(view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
    kinds = {a["type"] for a in legal}
    if view.get("phase") == "swap":
        if "ready" in kinds:
            return {"type": "ready"}
        return rng.choice(list(legal))
    if "play_drawn" in kinds:
        return {"type": "play_drawn"}
    extras = [a for a in legal if a["type"] in EXTRAS]
    if extras and rng.random() < 0.5:
        return rng.choice(extras)
    plays = [a for a in legal if a["type"] in PLAYS]
    if plays:
        ordinary = [a for a in plays if _play_key(view, a)[0] == 0]
        pick = rng.choice(ordinary or plays)
        rank = _cards_of(view, pick)[0][0] if _cards_of(view, pick) else None
        same = [a for a in plays if a["type"] == pick["type"] and _cards_of(view, a)
                and _cards_of(view, a)[0][0] == rank]
        return max(same, key=lambda a: len(_cards_of(view, a))) if same else pick
    rest = [a for a in legal if a["type"] not in EXTRAS]
    return rng.choice(rest or list(legal))
