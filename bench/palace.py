"""Palace benchmark: random 4-player games per preset.

Prints games/s, moves/s and the median microseconds per move, where a move is ``apply`` plus
``legal_actions`` for the seat to act plus the views of all seats (and a spectator is not counted).
Goal: under 100 µs per move on one core.

    python bench/palace.py [--games 200] [--players 4] [--runs 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games.palace import PRESETS, game


def run(preset: str, games: int, players: int, seed: int) -> tuple[float, int, list[float]]:
    sheet = PRESETS[preset]
    rng = random.Random(seed)
    per_move: list[float] = []
    moves = 0
    clock = time.perf_counter
    start = clock()
    for g in range(games):
        state = game.new(sheet, players, seed=f"bench-{preset}-{seed}-{g}")
        while game.outcome(state) is None:
            t0 = clock()
            seats = game.to_act(state)
            seat = seats[0] if len(seats) == 1 else rng.choice(seats)
            legal = game.legal_actions(state, seat)
            # Random players that mostly avoid picking up, as people do.
            calm = [a for a in legal if a["type"] not in ("pick_up", "draw", "keep")]
            action = rng.choice(calm if calm and rng.random() < 0.95 else legal)
            state, _events = game.apply(state, seat, action)
            for s in range(players):
                game.view(state, s)
            per_move.append(clock() - t0)
            moves += 1
    return clock() - start, moves, per_move


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"Palace: {args.games} random {args.players}-player games per preset, {args.runs} runs (medians)")
    print(
        f"{'preset':<15}{'games/s':>10}{'moves/s':>11}{'moves/game':>12}{'median µs/move':>16}{'p90 µs':>9}"
    )
    for preset in PRESETS:
        rates, mrates, medians, p90s, lengths = [], [], [], [], []
        for r in range(args.runs):
            elapsed, moves, per_move = run(preset, args.games, args.players, r)
            rates.append(args.games / elapsed)
            mrates.append(moves / elapsed)
            per_move.sort()
            medians.append(statistics.median(per_move) * 1e6)
            p90s.append(per_move[int(len(per_move) * 0.9)] * 1e6)
            lengths.append(moves / args.games)
        print(
            f"{preset:<15}{statistics.median(rates):>10.1f}{statistics.median(mrates):>11.0f}"
            f"{statistics.median(lengths):>12.1f}{statistics.median(medians):>16.1f}{statistics.median(p90s):>9.1f}"
        )


if __name__ == "__main__":
    main()
