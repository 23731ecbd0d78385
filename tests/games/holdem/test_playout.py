"""The playout path (``holdem.playout``) agrees with the game contract move by move.

Random hands (``differential.scenario``: no limit, pot limit and fixed limit, 2–9 players, antes,
straddles, short stacks for all-ins and side pots, boards rigged for split pots) are played along
both paths at once, with the optional rules of the sheet drawn too. At every decision the seat to
act, its legal moves, the stacks, bets, chips committed, folds, the pots and the board must be the
same; a move the contract refuses must be refused with the same code; at the end the pots must go
to the same seats in the same shares and the stacks must agree. Half of the hands start the
playout from the contract's state part way through (``playout.start``), the others deal it from
the cards (``playout.deal``).
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from app.games.base import IllegalAction
from app.games.holdem import HOLDEM, playout
from app.games.holdem.playout import Playout
from app.games.holdem.pots import layers, pots
from app.games.holdem.state import State
from tests.games.holdem.differential import choose, scenario
from tests.games.playouts import Disagree, same

HANDS = int(os.environ.get("HOLDEM_PLAYOUT_HANDS", "1500"))
CHUNKS = 4



def _sheet(sc: dict[str, Any], rng: random.Random) -> Any:
    return HOLDEM.sheet({
        "variant": sc["variant"], "seats": rng.choice([sc["players"], 10]),
        "small_blind": sc["sb"], "big_blind": sc["bb"], "ante": sc["ante"], "ante_type": sc["ante_type"],
        "straddle": "utg" if sc["straddle"] else "off", "format": "cash", "buy_in_min": 1,
        "buy_in_max": 10**9, "buy_in_default": 1, "max_hands": 1,
        "raise_cap": rng.choice([0, 4, 5]), "heads_up_uncapped": rng.random() < 0.5,
        "heads_up_deal": rng.choice(["small_blind_first", "big_blind_first"]),
        "showdown": rng.choice(["auto", "ask"]), "run_it_twice": rng.choice(["off", "ask"]),
        "show_after_hand": rng.random() < 0.3, "all_in_tabled": rng.choice(["in_tournaments", "always"]),
    })


def _compare(s: State, p: Playout, seed: int) -> None:
    h = s.hand
    assert h is not None
    same("seat to act", h.actor, p.actor, f"hand {seed}")
    same("legal moves", HOLDEM.legal_actions(s, h.actor), p.legal_actions(), f"hand {seed}")
    same("stacks", list(s.stacks), p.stacks, f"hand {seed}")
    same("bets", list(h.bets), p.bets, f"hand {seed}")
    same("committed", list(h.committed), p.committed, f"hand {seed}")
    same("folded", list(h.folded), p.folded, f"hand {seed}")
    same("pots", pots(h), layers(p.players, p.committed, p.antes, p.folded), f"hand {seed}")
    same("board", list(h.board), p.board, f"hand {seed}")


def _probe(s: State, p: Playout, rng: random.Random, seed: int) -> None:
    """A move the contract refuses is refused by the playout with the same code, changing nothing."""
    h = s.hand
    assert h is not None
    kind = rng.choice(["fold", "check", "call", "bet", "raise", "all_in"])
    top = h.bets[h.actor] + s.stacks[h.actor]
    to = rng.choice([0, h.current, h.current + 1, h.current + h.min_inc - 1, top, top + 1,
                     rng.randint(0, top + 1)])
    action: dict[str, Any] = {"type": kind, "to": to} if kind in ("bet", "raise") else {"type": kind}
    refused = HOLDEM.check(s, h.actor, action)
    if refused is None:
        return
    before = (list(p.stacks), list(p.bets), list(p.folded), p.actor)
    try:
        p.move(kind, to)
    except IllegalAction as fast_refused:
        same(f"refusal of {action}", refused.code, fast_refused.code, f"hand {seed}")
    else:
        raise Disagree(f"hand {seed}: the playout took {action}, refused by the contract ({refused.code})")
    same("a refused move changed nothing", before, (p.stacks, p.bets, p.folded, p.actor), f"hand {seed}")


def play_hand(seed: int, fast: type[Playout] = Playout) -> int:
    """One random hand along both paths; the decisions compared."""
    rng = random.Random(seed)
    sc = scenario(rng)
    sc["heads_up_uncapped"] = True
    sheet = _sheet(sc, rng)
    # A replay gives only the cards its hand shows: the rest of the deck follows in deck() order.
    deck = sc["deck"][: rng.choice([52, rng.randint(2 * sc["players"], 52)])]
    s = first = HOLDEM.new(sheet, sc["players"], seed="playout", deck=deck, button=0, stacks=sc["stacks"])
    p: Playout | None = None
    if rng.random() < 0.5:
        p = playout.deal(sheet, list(sc["stacks"]), 0, deck)
        p.__class__ = fast
    join_at = rng.randint(0, 6)
    decisions = 0
    while not s.history:
        h = s.hand
        assert h is not None
        if h.phase != "bet":  # straddle, run it twice, show or muck: the quiet choice (timeout_action)
            seat = HOLDEM.to_act(s)[0]
            move = HOLDEM.timeout_action(s, seat)
            assert move is not None
            s, _ = HOLDEM.apply(s, seat, move)
            continue
        if p is None and decisions >= join_at:
            p = playout.start(s)
            p.__class__ = fast
        if p is not None:
            _compare(s, p, seed)
            _probe(s, p, rng, seed)
        seat = h.actor
        move = choose(HOLDEM.legal_actions(s, seat), rng, {}, 0)
        s, _ = HOLDEM.apply(s, seat, move)
        if p is not None:
            p = playout.play(p, seat, move)
        decisions += 1
    if p is None:
        return decisions  # the hand ended before the playout joined it
    same("over", True, playout.over(p, s) and playout.over(s, first), f"hand {seed}")
    last = s.history[-1]
    same("finishing stacks", last["finishing_stacks"], [p.stacks[x] for x in last["players"]], f"hand {seed}")
    assert s.last is not None
    awards = [(a["amount"], {int(k): v for k, v in a["shares"].items()}) for a in s.last["awards"]]
    same("pots and shares", awards, p.awards, f"hand {seed}")
    return decisions


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_playout_agrees_with_the_contract_move_by_move(chunk: int) -> None:
    decisions = [play_hand(seed) for seed in range(chunk, HANDS, CHUNKS)]
    assert sum(decisions) > 2 * len(decisions)  # real decisions were compared, not only deals


class _MinRaiseOneShort(Playout):
    """A playout with a rule wrong on purpose: the smallest raise one chip short (H17)."""

    __slots__ = ()

    def options(self, seat: int) -> tuple[int, int, bool, int, int]:
        to_call, call, can_raise, low, high = super().options(seat)
        return to_call, call, can_raise, (low - 1 if can_raise and low > 1 else low), high


def test_the_comparison_catches_a_wrong_rule() -> None:
    with pytest.raises(Disagree):
        for seed in range(200):
            play_hand(seed, _MinRaiseOneShort)


def test_playout_start_leaves_the_game_state_alone() -> None:
    sheet = HOLDEM.sheet({"seats": 6, "small_blind": 1, "big_blind": 2})
    state = HOLDEM.new(sheet, 6, seed="untouched", button=0)
    before = HOLDEM.dump(state)
    p = playout.start(state)
    seat = playout.to_act(p)[0]
    playout.play(p, seat, {"type": "raise", "to": 6})
    assert not playout.over(p, state) and not playout.over(state, state)
    assert HOLDEM.dump(state) == before
    assert p.bets[seat] == 6 and state.hand is not None and state.hand.bets[seat] == 0
    with pytest.raises(IllegalAction):
        playout.play(p, seat, {"type": "check"})  # not this seat's turn any more


def test_a_dealt_hand_pays_the_main_and_side_pots_by_the_rules() -> None:
    # H21, H2: UTG shoves 300, the button calls, the small blind calls all-in for 100, the big
    # blind folds; the board is run out (H19). The short stack's four aces take the main pot
    # (its 100 from each of three and the folded big blind's 10); the two queens split the side pot.
    sheet = HOLDEM.sheet({"seats": 4, "small_blind": 5, "big_blind": 10, "buy_in_min": 1})
    holes = ["As", "Ks", "Qd", "Qc", "Ad", "Kd", "Qh", "Qs"]  # one card each from seat 0, twice
    deck = [*holes, "2c", "Ah", "Ac", "7d", "3c", "8h", "4c", "9s"]
    p = playout.deal(sheet, [100, 500, 300, 400], 3, deck)
    for seat, kind in ((2, "all_in"), (3, "call"), (0, "all_in"), (1, "fold")):
        assert p.actor == seat
        p.move(kind)
    assert p.over and p.board == ["Ah", "Ac", "7d", "8h", "9s"]
    assert p.awards == [(310, {0: 310}), (400, {2: 200, 3: 200})]
    assert p.stacks == [310, 490, 200, 300]
