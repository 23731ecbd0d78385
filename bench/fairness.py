"""Benchmark: what fair deals cost (docs/fairness.md).

Prints, each the median of several runs:
- the room's per-commit work (``Fairness.events``) over a long Hold'em table, in µs per move, early
  and late in the table (it asks only for the shuffles not yet open, so it should not grow);
- building a seat's game record (``build_record``) and checking it (``app.verify``) for a finished
  game of each kind, in ms;
- the verifier's own Fisher–Yates of a 52-card deck from a key, in µs;
- sealing a six-seat round with two-phase contributions, signed and unsigned, and checking its
  Ed25519 signature, in µs.

Usage: ``python bench/fairness.py [runs]``.
"""

from __future__ import annotations

import hashlib
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app import signing, verify
from app.bots.arena import bot, play, random_player
from app.games import fair
from app.registry import get as game_of
from app.rooms.fairness import Fairness, build_record
from app.signing import Signer
from app.store.queries import LogEntry

CASH = {"max_hands": 100000, "buy_in_min": 20, "buy_in_max": 100, "buy_in_default": 100, "straddle": "off"}


def sealed_game(name: str, players: int) -> tuple[Fairness, Any, LogEntry]:
    rules = Fairness()
    for member in range(players):
        value = f"{member + 1:064x}"
        rules.offer(member, rules.pending.commitment, hashlib.sha256(bytes.fromhex(value)).hexdigest())
    rules.freeze()
    for member in range(players):
        rules.contribute(member, rules.pending.commitment, f"{member + 1:064x}")
    sealed = rules.seal(list(range(players)))
    action = {"seed": sealed.seed, "players": players, "fair": sealed.to_action()}
    return rules, sealed, LogEntry(1, 1, "deal", None, action, [])


def events_per_move(hands: int) -> float:
    """µs of ``Fairness.events`` per move over the moves that play hands ``hands``..``hands + 20``."""
    game = game_of("holdem")
    sheet = game.sheet(CASH, preset="cash-nl-1-2")
    rules, sealed, _ = sealed_game("holdem", 6)
    state = play(game, sheet, [random_player] * 6, sealed.seed, stop=lambda s: s.hands >= hands).state
    rules.events(game, None, game.new(sheet, 6, seed=sealed.seed), 1)
    rules.committed = None  # counted again from the state, as after a load
    spent, moves = 0.0, 0
    target = hands + 20

    def stop(after: Any) -> bool:
        nonlocal spent, moves, state
        started = time.perf_counter()
        rules.events(game, state, after, 1)
        spent += time.perf_counter() - started
        moves += 1
        state = after
        return bool(after.hands >= target)

    play_from(game, state, stop)
    return spent / moves * 1e6


def play_from(game: Any, state: Any, stop: Any) -> None:
    import random

    rng = random.Random(1)
    while game.outcome(state) is None and not stop(state):
        seat = next(s for s in game.to_act(state) if game.legal_actions(state, s))
        action = random_player(game.name, game.view(state, seat), game.legal_actions(state, seat), rng)
        state, _ = game.apply(state, seat, action)


def record_and_verify(name: str, preset: str, options: dict[str, Any], players: int) -> tuple[float, float]:
    game = game_of(name)
    sheet = game.sheet(options, preset=preset)
    _, sealed, deal = sealed_game(name, players)
    end = play(game, sheet, [bot("easy")] * players, sealed.seed).state
    started = time.perf_counter()
    record = build_record(game, sheet, deal, end, 0, [])
    built = time.perf_counter() - started
    started = time.perf_counter()
    checks = verify.verify(record)
    checked = time.perf_counter() - started
    assert verify.passed(checks)
    return built * 1e3, checked * 1e3


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    for hands in (10, 300):
        figures = [events_per_move(hands) for _ in range(runs)]
        median = statistics.median(figures)
        print(f"Fairness.events per Hold'em move after {hands:>3} hands: {median:7.1f} µs")
    kinds = [("palace", "palace", {}, 4), ("thousand", "tuhat", {"target_score": 300}, 3),
             ("holdem", "cash-nl-1-2", {**CASH, "max_hands": 200}, 6)]
    for name, preset, options, players in kinds:
        results = [record_and_verify(name, preset, options, players) for _ in range(runs)]
        built = statistics.median(r[0] for r in results)
        checked = statistics.median(r[1] for r in results)
        print(f"{name:>8}: record built in {built:7.1f} ms, verified in {checked:7.1f} ms")
    key = fair.shuffle_key("ab" * 32, "deal")
    cards = [f"c{i}" for i in range(52)]
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        for _ in range(1000):
            fair.shuffle_with_key(key, cards)
        times.append((time.perf_counter() - started) * 1e3)
    print(f"verifier's Fisher–Yates of 52 cards: {statistics.median(times):7.1f} µs")
    signed = statistics.median(seal_round() for _ in range(runs))
    unsigned = statistics.median(seal_round(signed=False) for _ in range(runs))
    print(f"sealing a 6-seat two-phase round: signed (Ed25519) {signed:7.1f} µs, unsigned {unsigned:7.1f} µs")
    checked = statistics.median(check_signature() for _ in range(runs))
    print(f"checking a round's signature: {checked:7.1f} µs")


def seal_round(signed: bool = True, count: int = 500) -> float:
    """µs to take six hashes and bytes, seal the hashes and seal the round (signed or not)."""
    signer = Signer(Signer.new_private_hex()) if signed else None
    values = [f"{member + 1:064x}" for member in range(6)]
    digests = [hashlib.sha256(bytes.fromhex(v)).hexdigest() for v in values]
    started = time.perf_counter()
    for _ in range(count):
        rules = Fairness("bench-room", signer)
        commitment = rules.pending.commitment
        for member in range(6):
            rules.offer(member, commitment, digests[member])
        rules.freeze()
        for member in range(6):
            rules.contribute(member, commitment, values[member])
        rules.seal_round(list(range(6)), 1, "hand-2")
    return (time.perf_counter() - started) / count * 1e6


def check_signature(count: int = 500) -> float:
    signer = Signer(Signer.new_private_hex())
    message = signing.round_message("bench-room", 1, "hand-2", "ab" * 32, ["cd" * 32] * 6, ["ef" * 32] * 6)
    signature = signer.sign(message)
    started = time.perf_counter()
    for _ in range(count):
        assert signing.valid(signer.public_hex, message, signature)
    return (time.perf_counter() - started) / count * 1e6


if __name__ == "__main__":
    main()
