"""Playouts per second: whole deals played out through the game contract and through each game's
playout path (``palace.playout``, ``thousand.playout``), the same random games on both.

A playout is what a searching bot runs: from a dealt state, random legal moves to the end of the
deal (Palace: the whole game; Thousand: one deal of ``tuhat``; Hold'em: one 6-max no-limit hand,
``holdem.playout``, bets and raises to a uniform amount of the legal range). Contract path: ``to_act``,
``legal_actions`` and ``apply`` (no views); playout path: ``to_act``, ``legal`` and ``play``. The
same seeded choices give the same games on both paths (the tests check that the paths agree move
by move). Times are process CPU time; each figure is the median of ``--runs`` runs, the paths
interleaved within each run.

    python bench/playouts.py [--palace 60] [--thousand 150] [--holdem 2000] [--runs 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this tree, before an installed one

from app.games.holdem import HOLDEM
from app.games.holdem import playout as holdem_playout
from app.games.palace import PRESETS as PALACE_PRESETS
from app.games.palace import game as palace
from app.games.palace import playout as palace_playout
from app.games.thousand import game as thousand
from app.games.thousand import playout as thousand_playout


def _pick(legal: list[dict[str, Any]], rng: random.Random, avoid: tuple[str, ...]) -> dict[str, Any]:
    calm = [a for a in legal if a["type"] not in avoid and (a["type"] != "bid" or a["value"] <= 120)]
    action = rng.choice(calm if calm and rng.random() < 0.9 else legal)
    if "min" in action:  # a hold'em bet or raise, listed as its range
        return {"type": action["type"], "to": rng.randint(action["min"], action["max"])}
    return action


def through_contract(
    game: Any, playout: ModuleType, starts: list[Any], seed: int, avoid: tuple[str, ...]
) -> tuple[float, int]:
    """Playouts through the game contract (``to_act``, ``legal_actions``, ``apply``), each stopped
    where the playout path stops it (``playout.over``)."""
    rng = random.Random(seed)
    to_act, legal_actions, apply, over = game.to_act, game.legal_actions, game.apply, playout.over
    moves = 0
    start = time.process_time()
    for first in starts:
        s = first
        while not over(s, first):
            seat = to_act(s)[0]
            s, _ = apply(s, seat, _pick(legal_actions(s, seat), rng, avoid))
            moves += 1
    return time.process_time() - start, moves


def through_playout(
    game: Any, playout: ModuleType, starts: list[Any], seed: int, avoid: tuple[str, ...]
) -> tuple[float, int]:
    """The same playouts through the game's playout path (``start``, ``to_act``, ``legal``, ``play``)."""
    rng = random.Random(seed)
    to_act, legal, play, over = playout.to_act, playout.legal, playout.play, playout.over
    moves = 0
    start = time.process_time()
    for first in starts:
        s = playout.start(first)
        while not over(s, first):
            seat = to_act(s)[0]
            s = play(s, seat, _pick(legal(s, seat), rng, avoid))
            moves += 1
    return time.process_time() - start, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--palace", type=int, default=60, help="Palace games per preset per run")
    parser.add_argument("--thousand", type=int, default=150, help="Thousand deals per run")
    parser.add_argument("--holdem", type=int, default=2000, help="Hold'em hands per run")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    palace_starts = [palace.new(sheet, 4, seed=f"playouts-{name}-{i}")
                     for name, sheet in PALACE_PRESETS.items() for i in range(args.palace)]
    tuhat = thousand.sheet(preset="tuhat")
    thousand_starts = [thousand.new(tuhat, 3, seed=f"playouts-{i}") for i in range(args.thousand)]
    six_max = HOLDEM.sheet({"seats": 6, "small_blind": 50, "big_blind": 100, "buy_in_default": 10_000,
                            "buy_in_max": 10_000})
    holdem_starts = [HOLDEM.new(six_max, 6, seed=f"playouts-{i}") for i in range(args.holdem)]
    figures: dict[str, list[float]] = {}
    for run in range(args.runs):
        for label, fn, game, playout, starts, avoid in (
            ("Palace contract", through_contract, palace, palace_playout, palace_starts, ("pick_up", "draw")),
            ("Palace playout", through_playout, palace, palace_playout, palace_starts, ("pick_up", "draw")),
            ("Thousand contract", through_contract, thousand, thousand_playout, thousand_starts, ()),
            ("Thousand playout", through_playout, thousand, thousand_playout, thousand_starts, ()),
            ("Hold'em contract", through_contract, HOLDEM, holdem_playout, holdem_starts, ()),
            ("Hold'em playout", through_playout, HOLDEM, holdem_playout, holdem_starts, ()),
        ):
            if not starts:
                continue  # a count of 0 leaves the game out
            took, moves = fn(game, playout, starts, run, avoid)
            figures.setdefault(label + " games/s", []).append(len(starts) / took)
            figures.setdefault(label + " moves/s", []).append(moves / took)
        print(f"run {run + 1}/{args.runs} done", file=sys.stderr)
    med = {k: statistics.median(v) for k, v in figures.items()}
    for game_name, unit in (("Palace", "games"), ("Thousand", "deals"), ("Hold'em", "hands")):
        if f"{game_name} contract games/s" not in med:
            continue
        contract, fast = med[f"{game_name} contract games/s"], med[f"{game_name} playout games/s"]
        contract_runs = figures[f"{game_name} contract games/s"]
        fast_runs = figures[f"{game_name} playout games/s"]
        ratios = [b / a for a, b in zip(contract_runs, fast_runs, strict=True)]
        moves_contract, moves_fast = med[f"{game_name} contract moves/s"], med[f"{game_name} playout moves/s"]
        print(f"{game_name}: contract {contract:,.0f} {unit}/s ({moves_contract:,.0f} moves/s), "
              f"playout path {fast:,.0f} {unit}/s ({moves_fast:,.0f} moves/s), "
              f"ratio {statistics.median(ratios):.2f}x (median of {args.runs} runs; runs "
              f"{min(ratios):.2f}-{max(ratios):.2f}x, playout {min(fast_runs):,.0f}-{max(fast_runs):,.0f} "
              f"{unit}/s, contract {min(contract_runs):,.0f}-{max(contract_runs):,.0f})")


if __name__ == "__main__":
    main()
