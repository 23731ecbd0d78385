"""What a move costs when the process sleeps between moves: the same work, timed at several duty cycles.

A server's CPU per move (``bench/load.py``) is measured at a given load: the busier the process,
the fewer and shorter its sleeps between moves. This benchmark takes the server out of it. It plays
random 4-player Palace games and times chunks of the same work a move costs in the game (the
seat's ``legal_actions``, ``apply``, every seat's view and its JSON encoding), with the process
asleep for ``gap`` milliseconds between two chunks, and prints, for each gap, the median CPU time
and wall-clock time of a move (the sleep itself is not counted in either) and their ratio to the
gapless run. The gaps run interleaved, round after round, so a drift in the machine's load falls
on all of them.

    python bench/duty_cycle.py [--rounds 5] [--chunk-moves 4] [--gaps 0,0.5,2,5,20]

On a machine where a sleeping process's caches stay warm the ratios stay near 1.0; where they
grow with the gap, one process at a third of the load pays more per move than one at the whole
load, for the same moves, and so do three instances that share a load (README, Benchmarks).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games.palace import PRESETS, game

PLAYERS = 4


class Table:
    """Random games of one preset, one after the other: ``move`` plays the next move."""

    def __init__(self, seed: int) -> None:
        self.sheet = PRESETS[next(iter(PRESETS))]
        self.rng = random.Random(seed)
        self.games = 0
        self.state: Any = self._deal()

    def _deal(self) -> Any:
        self.games += 1
        return game.new(self.sheet, PLAYERS, seed=f"duty-{self.games}")

    def move(self) -> int:
        """One move as the server does it for the game: the mover's legal actions, the action, every
        seat's view encoded; returns the encoded bytes (so nothing is optimised away)."""
        if game.outcome(self.state) is not None:
            self.state = self._deal()
        seats = game.to_act(self.state)
        seat = seats[0] if len(seats) == 1 else self.rng.choice(seats)
        legal = game.legal_actions(self.state, seat)
        calm = [a for a in legal if a["type"] not in ("pick_up", "draw", "keep")]
        action = self.rng.choice(calm if calm and self.rng.random() < 0.95 else legal)
        self.state, events = game.apply(self.state, seat, action)
        size = len(orjson.dumps(events))
        for s in range(PLAYERS):
            size += len(orjson.dumps(game.view(self.state, s)))
        return size


def measure(table: Table, gap: float, chunks: int, chunk_moves: int) -> tuple[float, float]:
    """Microseconds of CPU and of wall clock a move, over ``chunks`` chunks of ``chunk_moves``
    moves with ``gap`` seconds of sleep between two chunks (outside the timing)."""
    cpu = wall = 0.0
    for _ in range(chunks):
        if gap:
            time.sleep(gap)
        c0, w0 = time.process_time(), time.perf_counter()
        for _ in range(chunk_moves):
            table.move()
        cpu += time.process_time() - c0
        wall += time.perf_counter() - w0
    moves = chunks * chunk_moves
    return cpu / moves * 1e6, wall / moves * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--chunk-moves", type=int, default=4, help="moves done between two sleeps")
    parser.add_argument("--gaps", default="0,0.5,2,5,20", help="milliseconds asleep between chunks")
    parser.add_argument("--seconds", type=float, default=1.0, help="roughly how long each gap runs a round")
    args = parser.parse_args()
    gaps = [float(g) / 1000 for g in args.gaps.split(",")]
    table = Table(seed=1)
    # Warm up (imports, the first deals), then size each gap's run to about ``--seconds``.
    _, wall_move = measure(table, 0.0, 200, args.chunk_moves)
    cpu: dict[float, list[float]] = {g: [] for g in gaps}
    wall: dict[float, list[float]] = {g: [] for g in gaps}
    load_start = os.getloadavg()
    for _ in range(args.rounds):
        for gap in gaps:
            per_chunk = gap + wall_move * 1e-6 * args.chunk_moves
            chunks = max(20, int(args.seconds / per_chunk))
            c, w = measure(table, gap, chunks, args.chunk_moves)
            cpu[gap].append(c)
            wall[gap].append(w)
    base_cpu, base_wall = statistics.median(cpu[gaps[0]]), statistics.median(wall[gaps[0]])
    print(f"Palace moves ({args.chunk_moves} a chunk, {PLAYERS} seats' views encoded), {args.rounds} rounds, "
          f"medians [ranges]; load {load_start[0]:.2f} at the start, {os.getloadavg()[0]:.2f} at the end "
          f"({os.cpu_count()} cores)")
    print(f"{'asleep between chunks':>22}{'CPU µs/move':>26}{'× gapless':>11}"
          f"{'wall µs/move':>26}{'× gapless':>11}")
    for gap in gaps:
        c, w = statistics.median(cpu[gap]), statistics.median(wall[gap])
        print(f"{gap * 1000:>19.1f} ms"
              f"{c:>11.1f} [{min(cpu[gap]):6.1f}–{max(cpu[gap]):6.1f}]{c / base_cpu:>10.2f}×"
              f"{w:>11.1f} [{min(wall[gap]):6.1f}–{max(wall[gap]):6.1f}]{w / base_wall:>10.2f}×")


if __name__ == "__main__":
    main()
