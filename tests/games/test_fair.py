"""The fairness derivation (``app.games.fair``) and each game's list of shuffles.

The shuffles a game lists must be the ones its engine made: the deck recomputed from the label's
key by the verifier's own Fisher–Yates is checked against where the engine put the cards.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any

import pytest

from app.bots.arena import bot, concrete, play, random_player
from app.games import fair
from app.games.base import IllegalAction
from app.games.cards import SeededRandom
from app.games.palace import engine as palace_engine
from app.games.thousand import deal as thousand_deal
from app.registry import get as game_of
from tests.games.game_cases import cases_of, names

SEED = "11" * 32
NONCE = "22" * 16


def test_commitment_is_sha256_of_seed_and_nonce() -> None:
    expected = hashlib.sha256(bytes.fromhex(SEED) + bytes.fromhex(NONCE)).hexdigest()
    assert fair.commitment(SEED, NONCE) == expected
    assert fair.commitment("12" * 32, NONCE) != expected
    assert fair.commitment(SEED, "23" * 16) != expected


def test_shuffle_seed_follows_the_written_derivation() -> None:
    a, b = "aa" * 32, "bb" * 32
    data = b"houserules-fair-v1" + bytes.fromhex(SEED) + b"\x01" + bytes.fromhex(a) + b"\x00" \
        + b"\x01" + bytes.fromhex(b)
    assert fair.shuffle_seed(SEED, [a, None, b]) == hashlib.sha256(data).hexdigest()


def test_every_contribution_and_its_seat_changes_the_seed() -> None:
    a, b = "aa" * 32, "bb" * 32
    base = fair.shuffle_seed(SEED, [a, b])
    others = {fair.shuffle_seed(SEED, [b, a]), fair.shuffle_seed(SEED, [a, None]),
              fair.shuffle_seed(SEED, [None, b]), fair.shuffle_seed(SEED, [a, b, None]),
              fair.shuffle_seed(SEED, [a, "ab" + "bb" * 31]), fair.shuffle_seed("12" + "11" * 31, [a, b])}
    assert base not in others and len(others) == 6


@pytest.mark.parametrize("bad", ["", "zz" * 32, "AA" * 32, "aa" * 31, "aa" * 33, "aa " * 21 + "a"])
def test_malformed_contributions_are_refused(bad: str) -> None:
    assert not fair.is_contribution(bad)
    if bad != "AA" * 32:
        with pytest.raises(ValueError):
            fair.shuffle_seed(SEED, [bad])


def test_own_fisher_yates_equals_the_engines_generator() -> None:
    rng = random.Random(5)
    for size in (2, 24, 36, 52, 54, 104, 300):
        cards = [f"c{i}" for i in range(size)]
        seed = f"{rng.getrandbits(256):064x}"
        label = f"hand-{rng.randrange(100)}"
        assert fair.shuffle_with_key(fair.shuffle_key(seed, label), cards) \
            == SeededRandom(seed, label).shuffle(cards)


def assert_since(game: Any, state: Any) -> None:
    """``shuffles(state, since)`` is the list from its ``since``-th entry (what the room asks for)."""
    full = game.shuffles(state)
    for since in range(len(full) + 2):
        assert game.shuffles(state, since) == full[since:], since


def _deck(seed: str, shuffle: fair.Shuffle) -> list[str]:
    return fair.shuffle_with_key(fair.shuffle_key(seed, shuffle.label), shuffle.cards)


@pytest.mark.parametrize("preset", ["hiina-turakas", "palace", "china-hand"])
@pytest.mark.parametrize("players", [2, 4])
def test_palace_deals_from_its_listed_shuffle(preset: str, players: int) -> None:
    game = game_of("palace")
    sheet = game.sheet(preset=preset)
    for n in range(10):
        seed = hashlib.sha256(f"palace-{n}".encode()).hexdigest()
        state = game.new(sheet, players, seed=seed)
        (only,) = game.shuffles(state)
        assert only.label == "deal" and not only.open
        deck = _deck(seed, only)
        assert list(only.cards) == palace_engine.full_deck(sheet, players)
        assert state.players[0].face_down == tuple(deck[0:3 * players:players])
        assert list(state.stock) == deck[9 * players:]
        end = play(game, sheet, [random_player] * players, seed).state
        assert [s.open for s in game.shuffles(end)] == [True]
        assert_since(game, end)


def _thousand_checker(seed: str) -> Callable[[Any], bool]:
    """A ``stop`` for ``play`` that checks each new deal against its listed shuffle."""
    seen: list[str] = []

    def check(state: Any) -> bool:
        listed = game_of("thousand").shuffles(state)
        assert not any(s.open for s in listed)
        assert_since(game_of("thousand"), state)
        last = listed[-1]
        if last.label not in seen:
            builder = state.copy()
            thousand_deal.lay_out(builder, _deck(seed, last))
            assert builder.hands == state.hands and builder.talon == state.talon
            seen.append(last.label)
        return False

    return check


@pytest.mark.parametrize(("preset", "players"), [("tuhat", 3), ("tuhat-2", 2), ("tuhat-4", 4)])
def test_thousand_deals_from_its_listed_shuffles(preset: str, players: int) -> None:
    game = game_of("thousand")
    sheet = game.sheet(preset=preset)
    for n in range(4):
        seed = hashlib.sha256(f"thousand-{n}".encode()).hexdigest()
        end = play(game, sheet, [bot("good")] * players, seed, stop=_thousand_checker(seed)).state
        labels = [s.label for s in game.shuffles(end)]
        assert labels == [f"deal-{k}" for k in range(len(labels))] and labels
        assert all(s.open for s in game.shuffles(end))


def _holdem_checker(seed: str, checked: set[int]) -> Callable[[Any], bool]:
    """A ``stop`` for ``play`` that checks each hand's deck and which shuffles are open, for 5 hands."""

    def check(state: Any) -> bool:
        hand = state.hand
        listed = game_of("holdem").shuffles(state)
        if hand is not None and hand.number not in checked:
            mine = next(s for s in listed if s.label == f"hand-{hand.number}")
            assert list(hand.deck) == _deck(seed, mine)
            checked.add(hand.number)
        finished = state.hands
        assert all(s.open == (s.label == "button-draw" or int(s.label[5:]) <= finished) for s in listed)
        assert_since(game_of("holdem"), state)
        return bool(finished >= 5)

    return check


def test_holdem_hands_come_from_their_listed_shuffles_and_open_at_the_hands_end() -> None:
    game = game_of("holdem")
    sheet = game.sheet()
    for n in range(4):
        seed = hashlib.sha256(f"holdem-{n}".encode()).hexdigest()
        state = game.new(sheet, 4, seed=seed)
        listed = game.shuffles(state)
        assert [s.label for s in listed] == ["button-draw", "hand-1"]
        assert listed[0].open and not listed[1].open
        draw = _deck(seed, listed[0])
        assert state.draw == {str(seat): draw[seat] for seat in range(4)}
        checked: set[int] = set()
        play(game, sheet, [random_player] * 4, seed, stop=_holdem_checker(seed, checked))
        assert len(checked) >= 5


def _reseed(seed: str) -> dict[str, Any]:
    return {"type": fair.RESEED, "seed": seed, "fair": {"commitment": "c" * 64, "contributions": []}}


def _move(game: Any, state: Any, rng: random.Random) -> Any:
    seat = game.to_act(state)[0]
    return game.apply(state, seat, concrete(rng.choice(game.legal_actions(state, seat)), rng))[0]


@pytest.mark.parametrize(("name", "first"), [("holdem", "hand-2"), ("thousand", "deal-1")])
def test_a_reseed_keys_the_shuffles_made_after_it(name: str, first: str) -> None:
    """A round (``reseed``) keys every later shuffle until the next; each shuffle lists its round,
    and the count, the listing and a snapshot agree."""
    game = game_of(name)
    sheet = game.sheet()
    rng = random.Random(name)
    state = game.new(sheet, 3, seed=SEED)
    assert game.current_round(state) is None and game.shuffles(state)[-1].round is None
    rounds = [hashlib.sha256(f"round-{n}".encode()).hexdigest() for n in range(2)]
    keyed: dict[str, str] = {}
    for seed in rounds:
        state = game.apply(state, 0, _reseed(seed))[0]
        assert game.current_round(state) == {"seed": seed, "fair": _reseed(seed)["fair"]}
        count = game.shuffle_count(state)
        while game.shuffle_count(state) == count:
            state = _move(game, state, rng)
        listed = game.shuffles(state)
        assert len(listed) == game.shuffle_count(state)
        made = listed[count]
        assert made.round is not None and made.round["seed"] == seed and made.seed_for(SEED) == seed
        keyed[made.label] = seed
        if name == "holdem":
            assert list(state.hand.deck) == _deck(seed, made)
        else:
            # A redeal in the same move (four nines) is keyed by the same round: the last laid out.
            assert listed[-1].round == made.round
            builder = state.copy()
            thousand_deal.lay_out(builder, _deck(seed, listed[-1]))
            assert builder.hands == state.hands and builder.talon == state.talon
    assert first in keyed
    again = game.load(game.dump(state))
    assert game.shuffles(again) == game.shuffles(state)
    assert game.current_round(again) == game.current_round(state)
    old = game.dump(state)
    del old["round"], old["rounds"]
    assert game.current_round(game.load(old)) is None  # a snapshot from before rounds loads


# The registered games that deal more than once and take the server action ``reseed``.
RESEEDING = [name for name in names() if game_of(name).reseeds]


@pytest.mark.parametrize("name", RESEEDING)
@pytest.mark.parametrize("bad", [{"seed": "xy"}, {"seed": "A" * 64}, {"seed": "a" * 64, "fair": 3},
                                 {"seed": "a" * 64, "extra": 1}, {}])
def test_a_malformed_reseed_is_refused(name: str, bad: dict[str, Any]) -> None:
    game = game_of(name)
    case = cases_of(name).property_case()
    state = game.new(case.sheet, case.players, seed=SEED)
    with pytest.raises(IllegalAction) as refused:
        game.apply(state, 0, {"type": fair.RESEED, **bad})
    assert refused.value.code == "bad_action"
