"""What the bots choose in given positions: the sense expected of each game's "good" bot.

Positions are real deals from the engines (fixed decks), so the views and legal moves are exactly
what a seat gets at a table.
"""

from __future__ import annotations

import random
from typing import Any

from app.bots import choose, palace_policy
from app.bots.holdem import chen, equity
from app.bots.thousand import estimate
from app.registry import get


def palace_seat0(hand: list[str], face_up: list[str], pile: list[str] | None = None,
                 preset: str = "hiina-turakas", options: dict[str, Any] | None = None) -> tuple[Any, Any]:
    """A 2-player Palace deal where seat 0 holds ``hand`` and ``face_up``; returns (game, state)."""
    game = get("palace")
    sheet = game.sheet({"opening": "left_of_dealer", **(options or {})}, preset=preset)
    used = set(hand) | set(face_up)
    rest = [r + s for r in "3456789JQKA" for s in "cdhs" if r + s not in used]
    down = rest[:6]
    other_up, other_hand = rest[6:9], rest[9:12]
    # Dealt one at a time from seat 0: three face-down rounds, three face-up, three to the hands.
    deck = [down[0], down[3], down[1], down[4], down[2], down[5],
            face_up[0], other_up[0], face_up[1], other_up[1], face_up[2], other_up[2],
            hand[0], other_hand[0], hand[1], other_hand[1], hand[2], other_hand[2], *rest[12:]]
    return game, game.new(sheet, 2, deck=deck)


def good(game: Any, state: Any, seat: int) -> dict[str, Any]:
    legal = game.legal_actions(state, seat)
    return choose(game.name, game.view(state, seat), legal, random.Random(0), "good")


def test_palace_swap_puts_strong_cards_face_up() -> None:
    game, state = palace_seat0(hand=["2c", "Ah", "Ts"], face_up=["3d", "4s", "5h"])
    for _ in range(3):
        action = good(game, state, 0)
        assert action["type"] == "swap"
        state, _ = game.apply(state, 0, action)
    assert good(game, state, 0) == {"type": "ready"}
    assert sorted(game.view(state, 0)["players"][0]["face_up"]) == sorted(["2c", "Ah", "Ts"])


def _to_play(game: Any, state: Any) -> Any:
    for seat in (0, 1):
        state, _ = game.apply(state, seat, {"type": "ready"})
    return state


def policy(game: Any, state: Any, seat: int) -> dict[str, Any]:
    """The Palace good policy's own move, before its playouts (``palace_policy.good_move``): the playouts
    may prefer another ordinary card, never a special one while an ordinary one fits."""
    legal = game.legal_actions(state, seat)
    return palace_policy.good_move(game.view(state, seat), legal, random.Random(0))


def test_palace_plays_the_lowest_ordinary_card_and_keeps_specials() -> None:
    game, state = palace_seat0(hand=["2c", "Ts", "6h"], face_up=["Kd", "Kh", "Ks"])
    state = _to_play(game, state)
    assert game.view(state, 0)["turn"] == 0
    assert policy(game, state, 0) == {"type": "play", "cards": ["6h"]}
    # The good bot, playouts and all, keeps its 2 and its 10 while the 6 fits.
    assert good(game, state, 0) == {"type": "play", "cards": ["6h"]}


def test_palace_plays_a_pair_together() -> None:
    game, state = palace_seat0(hand=["5c", "5h", "9s"], face_up=["Kd", "Kh", "Ks"])
    state = _to_play(game, state)
    assert policy(game, state, 0) == {"type": "play", "cards": ["5c", "5h"]}
    # The good bot plays a rank all together (P7), whichever rank its playouts prefer.
    together = ({"type": "play", "cards": ["5c", "5h"]}, {"type": "play", "cards": ["9s"]})
    assert good(game, state, 0) in together


def test_palace_uses_a_special_only_when_nothing_else_fits_and_picks_up_only_when_it_must() -> None:
    game = get("palace")
    view = {"phase": "play", "you": 0, "players": [{"face_up": [None, None, None]}]}
    legal = [{"type": "play", "cards": ["2c"]}, {"type": "pick_up"}, {"type": "draw"}]
    assert choose(game.name, view, legal, random.Random(0), "good") == {"type": "play", "cards": ["2c"]}
    legal = [{"type": "draw"}, {"type": "pick_up"}]
    assert choose(game.name, view, legal, random.Random(0), "good") == {"type": "draw"}
    legal = [{"type": "pick_up"}]
    assert choose(game.name, view, legal, random.Random(0), "good") == {"type": "pick_up"}


def test_palace_cuts_in_when_it_can() -> None:
    view = {"phase": "play", "you": 1, "turn": 0, "players": [{}, {"face_up": [None, None, None]}]}
    legal = [{"type": "cut_in", "cards": ["7c", "7d"]}]
    assert choose("palace", view, legal, random.Random(0), "good") == legal[0]


def test_thousand_estimate_counts_sure_tricks_and_marriages() -> None:
    weak = ["9c", "Jc", "9d", "Jd", "Qs", "9h", "Jh"]
    strong = ["Ah", "Th", "Kh", "Qh", "As", "Ts", "Ad"]
    assert estimate(weak) < 60
    assert estimate(strong) > 200  # hearts marriage (100) and five sure tricks


def _thousand_view(hand: list[str], legal: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"phase": "auction", "seat": 1, "hand": hand, "trick": [], "last_trick": [], "trump": None,
            "bidder": None, "contract": 0, "active": [0, 1, 2], "legal_actions": legal, **extra}


def test_thousand_bids_from_its_hand_within_the_sheets_limit() -> None:
    bids = [{"type": "bid", "value": v} for v in range(110, 230, 10)] + [{"type": "pass"}]
    strong = ["Ah", "Th", "Kh", "Qh", "As", "Ts", "Ad"]
    weak = ["9c", "Jc", "9d", "Jd", "Qs", "9h", "Jh"]
    assert choose("thousand", _thousand_view(strong, bids), bids, random.Random(0), "good")["type"] == "bid"
    assert choose("thousand", _thousand_view(weak, bids), bids, random.Random(0), "good") == {"type": "pass"}
    # It looks at its hand first rather than bidding blind.
    first = [{"type": "look"}, {"type": "bid", "value": 110}, {"type": "pass"}]
    assert choose("thousand", _thousand_view([], first), first, random.Random(0), "good") == {"type": "look"}


def test_thousand_declares_a_marriage_when_it_may_and_leads_the_queen() -> None:
    hand = ["Kh", "Qh", "9c", "Ks", "Qs"]
    legal = [{"type": "play", "card": c} for c in hand] + [
        {"type": "play", "card": c, "declare": True} for c in ("Kh", "Qh", "Ks", "Qs")]
    view = _thousand_view(hand, legal, phase="play", bidder=1, contract=120)
    assert choose("thousand", view, legal, random.Random(0), "good") == {"type": "play", "card": "Qh",
                                                                         "declare": True}


def test_thousand_gives_away_cards_that_cost_it_least() -> None:
    game = get("thousand")
    hand = ["Ah", "Th", "Kh", "Qh", "As", "Ts", "Ad", "9c", "Jc", "9d"]
    legal = [{"type": "give", "cards": {"0": a, "2": b}} for a in hand for b in hand if a != b]
    view = _thousand_view(hand, legal, phase="exchange", bidder=1, contract=200)
    action = choose(game.name, view, legal, random.Random(0), "good")
    assert action["type"] == "give"
    given = set(action["cards"].values())
    assert given <= {"9c", "Jc", "9d"}


def test_holdem_ranks_hands_and_equity_follows_the_cards() -> None:
    assert chen(["As", "Ah"]) == 20 and chen(["7c", "2d"]) < 0
    rng = random.Random(1)
    assert equity(["As", "Ah"], ["Ad", "Kc", "7h"], [0], rng) > 0.9
    missed = equity(["7c", "2d"], ["As", "Kd", "Qh"], [0], rng)
    assert missed < 0.3 < equity(["7c", "2d"], ["7s", "2h", "Qh"], [0], rng)


def _holdem_view(holes: list[str], board: list[str], *, stack: int, bet: int, current: int,
                 other_stack: int = 200, other_bet: int = 0, pot_other: int = 0) -> dict[str, Any]:
    me = {"seat": 0, "occupied": True, "stack": stack, "in_hand": True, "folded": False, "bet": bet,
          "committed": bet, "all_in": False, "cards": holes}
    other = {"seat": 1, "occupied": True, "stack": other_stack, "in_hand": True, "folded": False,
             "bet": other_bet, "committed": other_bet + pot_other, "all_in": False, "cards": None}
    return {"game": "holdem", "seat": 0, "blinds": {"big_blind": 2}, "players": [me, other],
            "hand": {"button": 0, "big_blind": 1, "board": board, "current_bet": current}}


def test_holdem_folds_trash_to_a_big_raise_and_never_folds_a_free_check() -> None:
    legal = [{"type": "fold"}, {"type": "call", "amount": 58}, {"type": "raise", "min": 120, "max": 199},
             {"type": "all_in", "to": 199}]
    view = _holdem_view(["7c", "2d"], [], stack=198, bet=1, current=60, other_bet=60)
    assert choose("holdem", view, legal, random.Random(0), "good") == {"type": "fold"}
    legal = [{"type": "check"}, {"type": "bet", "min": 2, "max": 190}, {"type": "all_in", "to": 190}]
    view = _holdem_view(["7c", "2d"], ["As", "Kd", "Qh"], stack=190, bet=0, current=0, pot_other=10)
    assert choose("holdem", view, legal, random.Random(0), "easy") == {"type": "check"}
    assert choose("holdem", view, legal, random.Random(0), "good") == {"type": "check"}


def test_holdem_short_stack_moves_all_in_with_a_good_hand() -> None:
    legal = [{"type": "fold"}, {"type": "call", "amount": 1}, {"type": "raise", "min": 4, "max": 16},
             {"type": "all_in", "to": 16}]
    view = _holdem_view(["Ah", "Kh"], [], stack=15, bet=1, current=2, other_bet=2)
    assert choose("holdem", view, legal, random.Random(0), "good") == {"type": "all_in", "to": 16}


def test_holdem_bets_for_value_with_a_strong_hand() -> None:
    legal = [{"type": "check"}, {"type": "bet", "min": 2, "max": 190}, {"type": "all_in", "to": 190}]
    view = _holdem_view(["As", "Ah"], ["Ad", "Kc", "7h"], stack=190, bet=0, current=0, pot_other=10)
    action = choose("holdem", view, legal, random.Random(0), "good")
    assert action["type"] == "bet" and 2 <= action["to"] <= 190


def test_thousand_bombs_a_contract_its_hand_falls_short_of_and_plays_one_it_reaches() -> None:
    hand = ["Ah", "Th", "Kh", "Qh", "As", "Ts", "Ad", "9c", "Jc", "9d"]
    gives = [{"type": "give", "cards": {"0": a, "2": b}} for a in hand for b in hand if a != b]
    legal = [*gives, {"type": "bomb"}]
    reach = max(estimate([c for c in hand if c not in g["cards"].values()]) for g in gives)

    def move(contract: int) -> dict[str, Any]:
        view = _thousand_view(hand, legal, phase="exchange", bidder=1, contract=contract)
        return choose("thousand", view, legal, random.Random(0), "good")

    # [T10] a bomb costs each opponent's 60, a lost contract its whole value: short by 10 is a bomb.
    assert move(reach + 10) == {"type": "bomb"}
    assert move(reach - 10)["type"] == "give"
