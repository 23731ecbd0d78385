"""The Palace bot's playouts: the simulated table follows the rules it read (``app.bots.palace_sim``),
and a move budget bounds the moves a decision's playouts play (``app.bots.palace_search``)."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from app.bots import choose, palace, palace_policy, palace_search, palace_sim
from app.bots.memory import Recall
from app.bots.palace_sim import CODE, NONE, Sim, Table
from app.registry import get

ET = Table(low=CODE["7"], eights_clear=True, ten_anything=False, turn_up_below=False)
FI = Table(low=NONE, eights_clear=False, ten_anything=True, turn_up_below=True)


def hand(*ranks: str) -> list[int]:
    counts = [0] * palace_sim.SIZE
    for rank in ranks:
        counts[CODE[rank]] += 1
    return counts


def table(rules: Table, hands: list[list[int]], pile: str = "", up: list[list[int]] | None = None,
          down: list[list[int]] | None = None) -> Sim:
    sim = Sim(rules, hands, up or [[] for _ in hands], down or [[] for _ in hands], [], 0, [])
    sim.lay([CODE[r] for r in pile])
    return sim


def test_a_ten_burns_and_its_player_goes_again_p15() -> None:
    sim = table(FI, [hand("T", "4"), hand("5")], pile="KA")
    sim.greedy(0)  # nothing ordinary fits on the ace: the 10 goes on anything and burns
    assert (sim.pile_n, sim.turn) == (0, 0)
    sim.greedy(0)
    assert sim.pile[CODE["4"]] == 1 and sim.turn == 1


def test_four_of_a_kind_burns_and_eights_follow_the_sheet_p13_p16() -> None:
    sim = table(ET, [hand("9"), hand("3")], pile="99")
    sim.play_hand(0, CODE["9"], 1)
    assert sim.pile_n == 3 and sim.turn == 1  # three nines: no four yet
    sim = table(ET, [hand("9", "9", "4"), hand("3")], pile="99")
    sim.play_hand(0, CODE["9"], 2)
    assert sim.pile_n == 0 and sim.turn == 0  # the four burns: its player goes again
    # An 8 is transparent on the et base (the 9 stays in force) and ordinary on the fi one.
    assert not table(ET, [hand()], pile="98").fits(CODE["4"])
    assert table(ET, [hand()], pile="98").fits(CODE["9"])
    assert not table(FI, [hand()], pile="98").fits(CODE["7"])


def test_after_the_low_card_only_lower_cards_fit_p14() -> None:
    sim = table(ET, [hand()], pile="7")
    assert sim.fits(CODE["5"]) and not sim.fits(CODE["9"]) and not sim.fits(CODE["T"])
    assert sim.fits(CODE["2"]) and sim.fits(CODE["8"])


def test_a_played_face_up_card_turns_up_the_one_below_p19() -> None:
    sim = table(FI, [hand(), hand("3")], up=[[CODE["Q"]], []], down=[[CODE["4"]], []])
    sim.greedy(0)
    assert sim.up[0] == [CODE["4"]] and sim.down[0] == []
    blind = Table(FI.low, FI.eights_clear, FI.ten_anything, turn_up_below=False)
    sim = table(blind, [hand(), hand("3")], up=[[CODE["Q"]], []], down=[[CODE["4"]], []])
    sim.greedy(0)
    assert sim.up[0] == [] and sim.down[0] == [CODE["4"]]


def test_a_stuck_player_picks_up_the_pile_p9() -> None:
    sim = table(FI, [hand("4"), hand("3")], pile="6K")
    sim.greedy(0)
    assert sim.hands[0] == hand("4", "6", "K") and sim.pile_n == 0 and sim.turn == 1


def _a_decision(preset: str) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """A seat on turn with at least three different plays, in a game of good bots."""
    game = get("palace")
    state = game.new(game.sheet(None, preset=preset), 3, seed="budget")
    memories = [Recall("palace") for _ in range(3)]
    rng = random.Random(1)
    for _ in range(500):
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        view = game.view(state, seat)
        plays = {(a["type"], tuple(sorted(a.get("cards") or []))[:1]) for a in legal if a["type"] == "play"}
        if view["phase"] == "play" and view["turn"] == seat and len(plays) >= 3:
            return view, legal, memories[seat].events
        state, events = game.apply(state, seat, choose("palace", view, legal, rng, "easy"))
        for index, memory in enumerate(memories):
            memory.extend(e.to_json() for e in events if e.visible_to(index))
    raise AssertionError("no decision with three plays")


def count_simulated_moves(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the moves the playouts play (``Sim.greedy`` calls) in the returned one-item list."""
    played = [0]
    greedy = Sim.greedy

    def counted(self: Sim, seat: int) -> None:
        played[0] += 1
        greedy(self, seat)

    monkeypatch.setattr(Sim, "greedy", counted)
    return played


@pytest.mark.parametrize("preset", ["hiina-turakas", "china-hand", "palace"])
def test_a_budget_bounds_the_moves_a_decision_plays(preset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    view, legal, memory = _a_decision(preset)
    played = count_simulated_moves(monkeypatch)
    palace_search.choose(view, legal, random.Random(2), memory, samples=40)
    unbounded, played[0] = played[0], 0
    budget = 600
    first = palace_search.choose(view, legal, random.Random(2), memory, samples=40, budget=budget)
    assert unbounded > budget >= played[0] > 0
    # The same view, memory, moves and draws: the same move.
    assert palace_search.choose(view, legal, random.Random(2), memory, samples=40, budget=budget) == first


def test_whole_playouts_run_to_the_end_and_stop_once_the_budget_is_spent(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Strong's playouts (``whole``) end with the game (P22) rather than at ``DEPTH``; the deals stop
    once the budget is spent, so a decision still plays a bounded number of moves."""
    view, legal, memory = _a_decision("palace")
    cut: list[int] = []
    playout = palace_search._playout

    def recorded(table: Sim, me: int, plies: int) -> tuple[float, int]:
        score, moves = playout(table, me, plies)
        cut.append(int(moves == plies and not table.finished() and me not in table.out))
        return score, moves

    monkeypatch.setattr(palace_search, "_playout", recorded)
    played = count_simulated_moves(monkeypatch)
    budget = 3000
    first = palace_search.choose(view, legal, random.Random(2), memory, samples=500, budget=budget,
                                 whole=True)
    options = len(palace_search._options(view, [a for a in legal if a["type"] in palace_search.SEARCHED]))
    assert not any(cut)  # every playout went on to the end
    assert budget <= played[0] < budget + options * palace_search.LONGEST
    assert len(cut) < 500 * options  # the budget, not the samples, ended the search
    assert palace_search.choose(view, legal, random.Random(2), memory, samples=500, budget=budget,
                                whole=True) == first


def test_strong_searches_the_face_up_choice_within_its_budget_p3(monkeypatch: pytest.MonkeyPatch) -> None:
    """On the palace sheet each seat lays 3 of its 6 cards face up (P3): strong picks them by
    whole-game playouts, legally, the same way for the same draws, and within its move budget
    (each halving round may finish the deal it started: one playout per choice past its share)."""
    game = get("palace")
    state = game.new(game.sheet({"finish": "play_to_last"}, preset="palace"), 3, seed="face-up")
    view, legal = game.view(state, 0), game.legal_actions(state, 0)
    assert view["phase"] == "swap" and {a["type"] for a in legal} == {"lay_face_up"}
    played = count_simulated_moves(monkeypatch)
    budget = 6000
    first = palace_search.choose_face_up(view, legal, random.Random(3), (), budget)
    assert first in legal
    choices = len({tuple(sorted(c[0] for c in a["cards"])) for a in legal})
    rounds = math.ceil(math.log2(choices))
    assert 0 < played[0] <= budget + rounds * choices * palace_search.LONGEST
    assert palace_search.choose_face_up(view, legal, random.Random(3), (), budget) == first
    # The strong bot makes this choice by the search: its playouts run.
    played[0] = 0
    monkeypatch.setattr(palace, "STRONG_FACE_UP_BUDGET", budget)
    assert choose("palace", view, legal, random.Random(3), "strong") == first
    assert played[0] > 0
    # A seat that has laid its cards waits for the others with its three cards in hand.
    state, _ = game.apply(state, 0, first)
    assert game.view(state, 0)["players"][0]["hand_size"] == 3


def test_a_seat_that_had_to_pick_up_is_dealt_only_ranks_that_did_not_fit_p9_p10() -> None:
    """On the palace sheet a seat must play if it can (P10 off): a pick-up shows that nothing in
    its hand fitted, so the deals give its unseen hand cards only ranks below the pile's top, and
    no 2 or 10 (P12, P15), until it draws again."""
    game = get("palace")
    state = game.new(game.sheet({"finish": "play_to_last"}, preset="palace"), 3, seed="ev2")
    memories = [Recall("palace") for _ in range(3)]
    rng = random.Random(0)
    for _ in range(400):
        seat = game.to_act(state)[0]
        state, events = game.apply(state, seat, choose("palace", game.view(state, seat),
                                                       game.legal_actions(state, seat), rng, "good"))
        for index, memory in enumerate(memories):
            memory.extend(e.to_json() for e in events if e.visible_to(index))
        if any(e.to_json()["type"] == "picked_up" and e.to_json()["seat"] != 0 for e in events):
            break
    view = game.view(state, 0)
    legal = game.legal_actions(state, 0)
    rules = palace_policy.read_rules(view, legal, memories[0].events)
    known = palace_search._known(view, memories[0].events, rules, must_play=True)
    assert known.stuck
    for seat, ranks in known.stuck.items():
        assert CODE["2"] not in ranks and CODE["T"] not in ranks
        unseen = view["players"][seat]["hand_size"] - len(view["players"][seat]["known_hand"])
        for draw in range(20):
            table = palace_search._deal(known, random.Random(draw))
            extra = [table.hands[seat][c] - known.hands[seat][c] for c in range(palace_sim.SIZE)]
            dealt = [c for c, n in enumerate(extra) for _ in range(n)]
            assert len(dealt) == unseen and set(dealt) <= ranks
    # A table where a seat may pick up at will tells nothing of the kind.
    assert not palace_search._known(view, memories[0].events, rules, must_play=False).stuck
