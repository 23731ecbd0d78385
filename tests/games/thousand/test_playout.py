"""The playout path (``thousand.playout``) agrees with the game contract move by move.

Random games of every preset, and of sheets whose options are drawn at random (every option that
changes play: players and the 2-player variant, the target, the bids, the marriage values, the
talon, trumping and heading, when a marriage may be declared, bombs, blind bids, "left 100", the
redeals and their penalty, the lottery, "800 and stuck" and what it bars, the failed contract), are
played along both paths at once, some from rigged first deals (four nines, three nines, a low hand)
and some with a fair round's seed (``reseed``) part way through. At every step the seats to act and
every seat's legal moves must be the same lists, and after the move the record must give the
contract's state field for field (its JSON form); a record made from the contract's state
(``playout.start``) must give it back too. A playout path with a rule wrong on purpose is caught.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from typing import Any

import pytest

from app.games.fair import RESEED
from app.games.thousand import PRESETS, game, playout, playout_bidding, record
from app.games.thousand.rules import DECK
from app.games.thousand.state import State
from tests.games.playouts import Disagree, same

GAMES = int(os.environ.get("THOUSAND_PLAYOUT_GAMES", "96"))
CHUNKS = 4



def random_sheet(rng: random.Random) -> dict[str, Any]:
    """Options drawn at random over the values that change play."""
    free = rng.choice([100, 120])
    step = rng.choice([5, 10, 20])
    return {
        "players": rng.choice([2, 3, 3, 4]), "target_score": rng.choice([100, 300, 1000]),
        "opening_bid": rng.choice([60, 100, free]), "bid_step": step, "bid_limit_without_marriage": free,
        **{f"marriage_{suit}": rng.choice([0, 40, 60, 80, 100])
           for suit in ("spades", "clubs", "diamonds", "hearts")},
        "talon": rng.choice(["give", "keep"]),
        **{o: rng.random() < 0.5 for o in (
            "must_trump", "must_beat", "marriage_when_following", "marriage_in_first_trick", "blind_bidding",
            "left_100", "four_nines_redeal", "low_hand_redeal", "nine_lottery", "stuck_at_800",
            "two_player_minus")},
        "bombs_per_game": rng.choice([0, 1, 3]), "bomb_points": rng.choice([0, 60]),
        "blind_give_up_points": rng.choice([60, 120]), "low_hand_limit": rng.choice([17, 30, 60]),
        "redeals_before_penalty": rng.choice([1, 2, 3]), "redeal_penalty": rng.choice([0, 100]),
        "lottery_points": rng.choice([50, 100]), "stuck_bars": rng.choice(["every_option", "named_tricks"]),
        "failed_contract": rng.choice(["contract", "points_taken"]), "stuck_score": rng.choice([0, 150, 800]),
        "two_player_variant": rng.choice(["stock", "banks"]), "two_player_contract": rng.choice([100, 120]),
    }


def rigged_deck(rng: random.Random) -> list[str] | None:
    """A first deal that seat 0 (on the dealer's left: the first packet, cards 0-2 and 12-15 with
    three or four players) opens with four nines, three nines or a low hand; or a shuffled one."""
    cards = list(DECK)
    rng.shuffle(cards)
    kind = rng.choice(["shuffled", "four_nines", "three_nines", "low"])
    wanted = {"four_nines": ["9c", "9d", "9h", "9s"], "three_nines": ["9c", "9h", "9s"],
              "low": ["9c", "9d", "Jc", "Jh", "9s", "Qd"]}.get(kind)
    if wanted is None:
        return None
    rest = [c for c in cards if c not in wanted]
    first = [*wanted, *rest[: 7 - len(wanted)]]
    rest = rest[7 - len(wanted):]
    return [*first[:3], *rest[:9], *first[3:], *rest[9:]]


def _pick(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Mostly low bids (random bids run games far below zero), now and then the highest move."""
    draw = rng.random()
    if draw < 0.1 and legal[0]["type"] == "bid":
        return legal[0]  # the lowest bid, or after the talon the lowest raise [T9]
    if draw < 0.25 and legal[0]["type"] in ("bid", "bomb"):  # [T10] now and then a bomb
        bombs = [a for a in legal if a["type"] == "bomb"]
        if bombs:
            return bombs[0]
    low = [a for a in legal if a["type"] != "bid" or a["value"] <= 120]
    if rng.random() < 0.05:
        return legal[-1] if legal[-1]["type"] != "bid" else rng.choice(legal)
    return rng.choice(low if low and rng.random() < 0.9 else legal)


def new_game(seed: int) -> tuple[str, State]:
    """The game of seed ``seed``: a preset, or a sheet drawn at random; its first deal rigged or not."""
    rng = random.Random(seed)
    names = sorted(PRESETS)
    if seed % 3 != 2:
        name = names[seed % len(names)] if seed % 3 == 0 else names[rng.randrange(len(names))]
        sheet = game.sheet(preset=name)
    else:
        name = "random"
        while True:
            options = random_sheet(rng)
            if options["opening_bid"] <= options["bid_limit_without_marriage"]:
                break
        sheet = game.sheet(options)
    deck = rigged_deck(rng) if sheet.players != 2 and rng.random() < 0.4 else None
    return name, game.new(sheet, sheet.players, seed=f"playout-{seed}", deck=deck)


def play_game(seed: int, moves: int = 400, deals: int = 3, first: State | None = None) -> int:
    """One random game along both paths (up to ``deals`` deals; from ``first`` or the game of
    ``seed``): returns the moves compared."""
    rng = random.Random(seed)
    name, state = ("given", first) if first is not None else new_game(seed)
    fast = playout.start(state)
    done = 0
    for done in range(moves):
        where = f"game {seed} ({name}), move {done}"
        if state.phase == "over" or state.deals_played >= deals:
            same("over", True, playout.over(fast, state) or fast.deals_played >= deals, where)
            if state.phase == "over":
                same("seats to act at the end", [], playout.to_act(fast), where)
                same("legal moves at the end", [], playout.legal(fast, 0), where)
            break
        seats = game.to_act(state)
        # The record is asked in varying order (the next deal is dealt by whichever comes first),
        # and now and then only told the move.
        ask = rng.random()
        if ask < 0.45:
            same("seats to act", seats, playout.to_act(fast), where)
        if ask < 0.9:
            for seat in range(state.players):
                same(f"legal moves of seat {seat}", game.legal_actions(state, seat),
                      playout.legal(fast, seat), where)
            same("seats to act", seats, playout.to_act(fast), where)
        seat = rng.choice(seats)
        action = _pick(game.legal_actions(state, seat), rng)
        before = state
        state, _ = game.apply(state, seat, action)
        fast = playout.play(fast, seat, action)
        same("deal over", playout.over(state, before), playout.over(fast, before), where)
        # Now and then the record is not looked at after the end of a deal: the next deal is then
        # dealt by the next question (``to_act``) rather than by ``to_json``.
        if not (playout.over(fast, before) and rng.random() < 0.5):
            same(f"state after {action}", state.to_json(), fast.to_json(), where)
        if rng.random() < 0.1:
            same("a record of the contract's state", state.to_json(), playout.start(state).to_json(), where)
        if state.phase != "over" and rng.random() < 0.02:
            # A fair round's seed keys the deals shuffled from now on.
            state, _ = game.apply(state, 0, {"type": RESEED, "seed": f"{rng.getrandbits(256):064x}"})
            fast = playout.start(state)
    return done


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_playout_path_agrees_with_the_contract_move_by_move(chunk: int) -> None:
    moves = [play_game(seed) for seed in range(chunk, GAMES, CHUNKS)]
    assert sum(moves) > 20 * len(moves)  # real deals were compared, not only openings


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_playout_path_agrees_over_many_whole_games(chunk: int) -> None:
    for seed in range(1000 + chunk, 1300, CHUNKS):
        play_game(seed, moves=3000, deals=50)


def test_a_later_deal_of_four_nines_is_dealt_again_on_both_paths() -> None:
    # [T5] a game whose second shuffle gives a hand four nines: the first deal is played out and
    # the redeal of the second is compared.
    for n in range(5000):
        cards = record.shuffled(f"nines-{n}", "deal-1")
        if any(sorted(cards[k : k + 3] + cards[12 + 4 * k : 16 + 4 * k])[3] < 4 for k in range(3)):
            break
    state = game.new(game.sheet(preset="tuhat"), 3, seed=f"nines-{n}")
    assert state.shuffles == 1
    play_game(n, moves=200, deals=2, first=state)


def _limit_without_marriages(x: record.Record, seat: int) -> int:
    return x.rules.free  # [T8] wrong on purpose: marriages in hand do not raise the limit


def _five_rounds_up(value: int) -> int:
    return (value + 5) // 10 * 10  # [T16] wrong on purpose: 45 becomes 50, not 40


def _no_heading(x: record.Record, card: int) -> bool:
    return True  # [T14] wrong on purpose: ``must_beat`` never binds


PLANTED: dict[str, tuple[Any, str, Callable[..., Any]]] = {
    "bid limit": (playout_bidding, "_limit", _limit_without_marriages),
    "rounding": (record, "round_points", _five_rounds_up),
    "heading": (playout, "_heads", _no_heading),
}


@pytest.mark.parametrize("bug", sorted(PLANTED))
def test_the_comparison_catches_a_wrong_rule(bug: str, monkeypatch: pytest.MonkeyPatch) -> None:
    module, name, wrong = PLANTED[bug]
    monkeypatch.setattr(module, name, wrong)
    with pytest.raises(Disagree):
        for seed in range(400):
            play_game(seed)


def test_playout_start_leaves_the_game_state_alone() -> None:
    state = game.new(game.sheet(preset="tuhat"), 3, seed="untouched")
    before = game.dump(state)
    fast = playout.start(state)
    seat = playout.to_act(fast)[0]
    playout.play(fast, seat, playout.legal(fast, seat)[0])
    assert game.dump(state) == before and fast.to_json() != before


def test_the_shuffle_is_the_contracts() -> None:
    from app.games.cards import SeededRandom

    for n in range(50):
        assert [DECK[c] for c in record.shuffled(f"s{n}", f"deal-{n}")] == SeededRandom(
            f"s{n}", f"deal-{n}").shuffle(list(DECK))
