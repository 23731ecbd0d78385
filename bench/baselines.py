"""Opponents for bench/bots.py, written apart from app/bots: what a sensible person plays.

Each is a ``Player`` (app/bots/arena.py): it reads the seat's view and legal moves only, never the
state. None of them shares code with the bots under test.

- ``palace_human``: swaps its highest cards face up (2s, 10s and aces first), plays its lowest
  fitting rank (all of it), burns a pile of 5 or more with a 10 even when an ordinary card fits,
  keeps 2s for when nothing else fits, picks up only when it must; always takes a four or a cut-in.
- ``thousand_human``: bids up to aces and tens counted at 20, marriages at their value, plus the
  compulsory 100; gives away its lowest cards; leads aces and declares marriages; takes a trick with
  points when it can, otherwise plays low.
- ``holdem_tag``: tight-aggressive: raises 3 big blinds with the top ~18% of hands, calls a raise
  with the top ~8% and three-bets the top ~4%; after the flop bets two thirds of the pot with top
  pair or better or a draw as the raiser (continuation bet), calls with a pair, folds otherwise.
- ``holdem_station``: calls (or checks) everything, never raises.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

Action = dict[str, Any]
ORDER_P = "3456789JQKA"


# -- Palace ---------------------------------------------------------------------------------

def _p_value(card: str) -> int:
    rank = card[0]
    if rank == "X":
        return 30
    if rank == "2":
        return 29
    if rank == "T":
        return 28
    return ORDER_P.index(rank) if rank in ORDER_P else 0


def _p_cards(view: Mapping[str, Any], action: Action) -> list[str]:
    if "cards" in action:
        return list(action["cards"])
    if action["type"] == "play_face_up":
        me = view["players"][view["you"]]
        return [me["face_up"][i] for i in action["indexes"]]
    return []


def palace_human(game_name: str, view: Mapping[str, Any], legal: Sequence[Action],
                 rng: random.Random, memory: Any = (), optional: bool = False) -> Action:
    kinds = {a["type"] for a in legal}
    if view.get("phase") == "swap":
        lays = [a for a in legal if a["type"] == "lay_face_up"]
        if lays:
            return max(lays, key=lambda a: sum(_p_value(c) for c in a["cards"]))
        me = view["players"][view["you"]]
        for a in legal:
            if a["type"] == "swap" and _p_value(a["card"]) > _p_value(me["face_up"][a["index"]] or "3c"):
                return a
        return {"type": "ready"} if "ready" in kinds else legal[0]
    for kind in ("lay_four", "cut_in", "add"):
        extra = [a for a in legal if a["type"] == kind]
        if extra:
            return extra[0]
    if "burn" in kinds:
        return {"type": "burn"}
    if "play_drawn" in kinds:
        return {"type": "play_drawn"}
    plays = [a for a in legal if a["type"] in ("play", "play_face_up") and _p_cards(view, a)]
    if plays:
        pile = len(view.get("pile") or [])
        tens = [a for a in plays if _p_cards(view, a)[0][0] == "T"]
        if tens and pile >= 5:
            return max(tens, key=lambda a: len(_p_cards(view, a)))
        plain = [a for a in plays if _p_cards(view, a)[0][0] not in "2TX"] or plays
        low = min(_p_value(_p_cards(view, a)[0]) for a in plain)
        same = [a for a in plain if _p_value(_p_cards(view, a)[0]) == low]
        return max(same, key=lambda a: len(_p_cards(view, a)))
    blind = [a for a in legal if a["type"] == "play_face_down"]
    if blind:
        return blind[0]
    for kind in ("draw", "pick_up", "pass", "keep", "ready"):
        if kind in kinds:
            return {"type": kind}
    return legal[0]


# -- Thousand -------------------------------------------------------------------------------

T_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
T_RANK = "9JQKTA"
T_MARRIAGE = {"s": 40, "c": 60, "d": 80, "h": 100}


def _t_worth(hand: Sequence[str]) -> int:
    worth = 100
    worth += 20 * sum(1 for c in hand if c[0] == "A") + 5 * sum(1 for c in hand if c[0] == "T")
    worth += sum(v for s, v in T_MARRIAGE.items() if "K" + s in hand and "Q" + s in hand)
    return worth - 40


def _t_beats(card: str, best: str, trump: str | None) -> bool:
    if card[1] == best[1]:
        return T_RANK.index(card[0]) > T_RANK.index(best[0])
    return card[1] == trump


def thousand_human(game_name: str, view: Mapping[str, Any], legal: Sequence[Action],
                   rng: random.Random, memory: Any = (), optional: bool = False) -> Action | None:
    kinds = {a["type"] for a in legal}
    hand = list(view.get("hand") or [])
    if optional:
        return {"type": "look"} if "look" in kinds else None
    if "look" in kinds:
        return {"type": "look"}
    if view.get("phase") == "lottery":
        return next(a for a in legal if a["type"] == "guess")
    if view.get("phase") == "auction":
        bids = sorted((a for a in legal if a["type"] == "bid"), key=lambda a: a["value"])
        if "pass" not in kinds:
            return bids[0]
        ok = [a for a in bids if a["value"] <= _t_worth(hand)]
        return ok[0] if ok else {"type": "pass"}
    if view.get("phase") == "talon":
        return legal[0]
    if view.get("phase") == "exchange":
        gives = [a for a in legal if a["type"] in ("give", "discard")]

        def cost(a: Action) -> int:
            cards = a["cards"]
            flat = [c for v in cards.values() for c in ([v] if isinstance(v, str) else v)] \
                if isinstance(cards, Mapping) else list(cards)
            return sum(T_POINTS[c[0]] + (20 if c[0] in "KQ" and ("Q" if c[0] == "K" else "K") + c[1] in hand
                                         else 0) for c in flat)

        return min(gives, key=cost) if gives else legal[0]
    plays = [a for a in legal if a["type"] == "play"]
    if not plays:
        return legal[0]
    trick = view.get("trick") or []
    trump = view.get("trump")
    if not trick:
        declares = [a for a in plays if a.get("declare")]
        if declares:
            return max(declares, key=lambda a: T_MARRIAGE[a["card"][1]])
        aces = [a for a in plays if a["card"][0] == "A"]
        if aces:
            return aces[0]
        return min(plays, key=lambda a: (T_POINTS[a["card"][0]], a["card"]))
    best = trick[0][1]
    for _, card in trick[1:]:
        if _t_beats(card, best, trump):
            best = card
    plain = [a for a in plays if not a.get("declare")] or plays
    winners = [a for a in plain if _t_beats(a["card"], best, trump)]
    if winners and sum(T_POINTS[c[0]] for _, c in trick) >= 3:
        return min(winners, key=lambda a: T_RANK.index(a["card"][0]))
    return min(plain, key=lambda a: (T_POINTS[a["card"][0]], a["card"]))


# -- Hold'em --------------------------------------------------------------------------------

H_RANKS = "23456789TJQKA"


def _h_score(cards: Sequence[str]) -> int:
    """A hand's preflop rank from 0 (72o) up: pairs high, then high cards, suited, connected."""
    a, b = sorted((H_RANKS.index(c[0]) for c in cards), reverse=True)
    if a == b:
        return 40 + 2 * a
    score = 2 * a + b
    if cards[0][1] == cards[1][1]:
        score += 3
    if a - b == 1:
        score += 2
    return score


def _h_made(holes: Sequence[str], board: Sequence[str]) -> int:
    """2: top pair or better, 1: any pair with a hole card or a flush/straight draw, 0: nothing."""
    ranks = [H_RANKS.index(c[0]) for c in board]
    mine = [H_RANKS.index(c[0]) for c in holes]
    if mine[0] == mine[1] and mine[0] > max(ranks):
        return 2
    paired = [r for r in mine if r in ranks]
    if paired and max(paired) == max(ranks):
        return 2
    counts = {r: ranks.count(r) + mine.count(r) for r in set(ranks + mine)}
    if max(counts.values()) >= 3 or (sum(1 for v in counts.values() if v >= 2) >= 2 and paired):
        return 2
    suits = [c[1] for c in [*holes, *board]]
    if paired or mine[0] == mine[1] or (len(board) < 5 and max(suits.count(s) for s in "cdhs") == 4):
        return 1
    return 0


def _h_amount(kinds: Mapping[str, Action], to: int) -> Action | None:
    offer = kinds.get("raise") or kinds.get("bet")
    if offer is None:
        return dict(kinds["all_in"]) if "all_in" in kinds else None
    return {"type": offer["type"], "to": max(int(offer["min"]), min(int(offer["max"]), to))}


def _h_passive(kinds: Mapping[str, Action]) -> Action:
    if "check" in kinds:
        return {"type": "check"}
    return {"type": "fold"} if "fold" in kinds else dict(next(iter(kinds.values())))


def _h_call(kinds: Mapping[str, Action]) -> Action:
    for kind in ("check", "call", "all_in"):
        if kind in kinds:
            return dict(kinds[kind])
    return dict(next(iter(kinds.values())))


def _h_other(legal: Sequence[Action]) -> Action:
    kinds = {a["type"]: a for a in legal}
    for kind in ("no_straddle", "muck"):
        if kind in kinds:
            return {"type": kind}
    first = dict(legal[0])
    if "min" in first:
        first["amount" if first["type"] in ("rebuy", "top_up") else "to"] = first.pop("min")
        first.pop("max", None)
    return first


def holdem_station(game_name: str, view: Mapping[str, Any], legal: Sequence[Action],
                   rng: random.Random, memory: Any = (), optional: bool = False) -> Action:
    kinds = {a["type"]: a for a in legal}
    if not {"check", "call", "fold"} & kinds.keys():
        return _h_other(legal)
    return _h_call(kinds)


def holdem_tag(game_name: str, view: Mapping[str, Any], legal: Sequence[Action],
               rng: random.Random, memory: Any = (), optional: bool = False) -> Action:
    kinds = {a["type"]: a for a in legal}
    if not {"check", "call", "fold"} & kinds.keys():
        return _h_other(legal)
    seat = int(view["seat"])
    me = view["players"][seat]
    hand = view.get("hand") or {}
    holes = list(me.get("cards") or [])
    board = list(hand.get("board") or [])
    bb = int(view["blinds"]["big_blind"])
    current = int(hand.get("current_bet", 0))
    to_call = current - int(me.get("bet", 0))
    pot = sum(int(p.get("committed", 0)) for p in view["players"] if p.get("in_hand"))
    if not board:
        score = _h_score(holes)
        if current <= bb:
            if score >= 33:  # about the top 18%: 22+, A9s+, KTs+, ATo+, KJo+, suited connectors high
                return _h_amount(kinds, 3 * bb) or _h_call(kinds)
            return _h_passive(kinds)
        if score >= 60 or (score >= 39 and holes[0][0] in "AK" and holes[1][0] in "AK"):
            return _h_amount(kinds, 3 * current) or _h_call(kinds)
        if score >= 37:
            return _h_call(kinds) if to_call <= 0.2 * int(me["stack"]) else _h_passive(kinds)
        return _h_passive(kinds)
    made = _h_made(holes, board)
    raiser = any(e.get("type") in ("raise", "bet") and e.get("seat") == seat for e in memory)
    if to_call <= 0:
        if made == 2 or (raiser and len(board) == 3):
            return _h_amount(kinds, current + max(bb, 2 * pot // 3)) or {"type": "check"}
        return {"type": "check"}
    if made == 2:
        return _h_call(kinds)
    if made == 1 and to_call <= pot // 2:
        return _h_call(kinds)
    return _h_passive(kinds)
