"""The Palace bot (Hiina turakas, China Hand, Palace).

The view carries no rule sheet, so the bot reads the rules it needs from the legal moves and
treats the cards that are special on some sheet as precious: 2s and jokers (fit anywhere, reset
the pile, P12), 10s (burn, P15) and 8s (transparent on many sheets, P13).

"good":
- swap phase (P3, P4): the three strongest cards go face up (specials first, then aces, kings…);
- plays the lowest ordinary card that fits, all cards of that rank together (P7), and keeps the
  specials until nothing ordinary fits;
- burns when asked (P15: the burner plays again), plays a drawn card when it may (P9);
- cuts in, adds drawn cards and lays down fours whenever it can (P16, P17);
- picks up the pile only when it must.

"easy": ready at once, plays a random fitting rank (all its cards of that rank), keeping the
specials back when an ordinary card fits, picks up only when it must, and takes out-of-turn moves
only half the time.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

Action = dict[str, Any]

RANKS = "23456789TJQKA"
VALUE: dict[str, int] = {r: i for i, r in enumerate(RANKS)}
VALUE["X"] = -1
SPECIAL = "2TX8"
# How much a card is worth keeping: specials above everything, then by rank.
KEEP: dict[str, int] = {**{r: VALUE[r] for r in RANKS}, "8": 13, "T": 15, "2": 16, "X": 17}

PLAYS = ("play", "play_face_up", "play_face_down")
EXTRAS = ("cut_in", "add", "lay_four")


def choose(view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random, level: str) -> Action:
    if level == "easy":
        return _easy(view, legal, rng)
    return _good(view, legal, rng)


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


def _play_key(view: Mapping[str, Any], action: Action) -> tuple[int, int, int]:
    """Smaller is better: ordinary before special, low before high, more cards before fewer."""
    cards = _cards_of(view, action)
    if not cards:
        return (1, 0, 0)
    rank = _rank(cards[0])
    special = 1 if rank in SPECIAL else 0
    return (special, KEEP[rank], -len(cards))


# -- levels -------------------------------------------------------------------------------


def _good(view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
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
        return min(plays, key=lambda a: _play_key(view, a))
    blind = [a for a in legal if a["type"] == "play_face_down"]
    if blind:
        return rng.choice(blind)
    for kind in ("draw", "pass", "pick_up", "keep", "ready"):
        if kind in kinds:
            return {"type": kind}
    return legal[0]


def _strength(cards: Sequence[str]) -> int:
    return sum(KEEP[_rank(c)] for c in cards)


def _swap(view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
    lays = [a for a in legal if a["type"] == "lay_face_up"]
    if lays:
        return max(lays, key=lambda a: (_strength(a["cards"]), sorted(a["cards"])))
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
