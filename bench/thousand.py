"""Benchmark: seeded 3-player games of Thousand (preset ``tuhat``) played to 1000.

Prints deals per second and the median microseconds per move (``apply`` alone, and
``legal_actions`` + ``apply`` as a room or a bot uses them), each the median of several runs.
The players are the greedy player of the tests (uniformly random players rarely make a contract
and their games drift below zero). Usage: ``python bench/thousand.py [games per run] [runs]``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games.thousand import game
from tests.games.thousand.policy import greedy_move


def run(games: int, seed: int) -> tuple[float, float, float, int, int]:
    """One run: (deals/s, median µs of apply, median µs of legal_actions + apply, deals, moves)."""
    sheet = game.sheet(preset="tuhat")
    apply_us: list[float] = []
    move_us: list[float] = []
    deals = 0
    busy = 0.0
    for g in range(games):
        rng = random.Random(seed * 1000 + g)
        start = time.perf_counter()
        state = game.new(sheet, 3, seed=f"bench-{seed}-{g}")
        busy += time.perf_counter() - start
        while game.outcome(state) is None:
            seat = rng.choice(game.to_act(state))
            t0 = time.perf_counter()
            legal = game.legal_actions(state, seat)
            t1 = time.perf_counter()
            action = greedy_move(state, seat, legal, rng)  # the player's thinking is not timed
            t2 = time.perf_counter()
            state, _ = game.apply(state, seat, action)
            t3 = time.perf_counter()
            apply_us.append((t3 - t2) * 1e6)
            move_us.append((t1 - t0 + t3 - t2) * 1e6)
            busy += t1 - t0 + t3 - t2
        deals += state.deals_played
    return deals / busy, statistics.median(apply_us), statistics.median(move_us), deals, len(apply_us)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    results = [run(games, r) for r in range(runs)]
    for i, (dps, ap, mv, deals, moves) in enumerate(results):
        line = f"{deals} deals, {moves} moves: {dps:,.0f} deals/s, apply {ap:.1f} µs, move {mv:.1f} µs"
        print(f"run {i}: {line}")
    print(
        f"thousand (tuhat, 3 players, {games} games to 1000 per run, median of {runs} runs): "
        f"{statistics.median(r[0] for r in results):,.0f} deals/s, "
        f"median apply {statistics.median(r[1] for r in results):.1f} µs/move, "
        f"median legal_actions+apply {statistics.median(r[2] for r in results):.1f} µs/move"
    )


if __name__ == "__main__":
    main()
