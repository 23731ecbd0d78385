"""Bot benchmark: how the bots fare against independent opponents, and how long they think.

The opponents (bench/baselines.py) are written apart from app/bots and read only their seat's
view: a sensible rule player per game, a tight-aggressive Hold'em player, a calling station and a
random player. Every figure is over duplicate deals: each seed is played once with the bot under
test in every seat (the same cards go round), and has a 95 % interval (normal approximation over
the per-seed means).

- Palace, 3 players (played to the last, P22), on each preset: how often the bot is the loser
  (parity 33.3 %) against two rule players.
- Thousand (tuhat, 3 players, to 1000): games the bot wins (parity 33.3 %) against two rule
  players, and the contracts it made of those it played (bombs counted apart).
- Hold'em (cash-nl-1-2, 100 bb deep, one hand per deal): big blinds won per 100 hands by the bot,
  heads-up and 6-max (five opponents), against the tight-aggressive player, the calling station
  and the random player.
- Each level's decision time, p50 and p99.

Prints a table, then one JSON line with every figure.

    python bench/bots.py [--palace 200] [--thousand 60] [--hands 4000] [--levels good,strong]
                         [--only palace,thousand,holdem] [--first-seed 0]

Goals (issue 23): Palace good loser <= 22 %, strong <= 15 %; Thousand good wins >= 45 % and makes
>= 75 % of its contracts, strong wins >= 55 %; Hold'em good >= +10 bb/100 against the
tight-aggressive player heads-up and 6-max, strong >= +30; good p99 <= 50 ms, strong p99 <= 1 s.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.bots.arena import Player, Result, bot, play, random_player
from app.registry import get
from bench.baselines import holdem_station, holdem_tag, palace_human, thousand_human

# Decision times by (game, level): the wall clock (under other load, a decision waits for a core)
# and the deciding thread's CPU time (the decision's own cost).
TIMINGS: dict[tuple[str, str], list[float]] = {}
CPU_TIMINGS: dict[tuple[str, str], list[float]] = {}


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high): the mean and its 95 % interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def timed(level: str, game: str, result: Result) -> None:
    TIMINGS.setdefault((game, level), []).extend(result.timings)
    CPU_TIMINGS.setdefault((game, level), []).extend(result.cpu_timings)


def duplicates(
    level: str,
    game_name: str,
    sheet: Any,
    opponent: Player,
    label: str,
    seeds: range,
    score: Callable[[Any, int], float],
    *,
    players: int = 3,
    stop: Callable[[Any], bool] | None = None,
) -> list[float]:
    """Duplicate deals: each seed played once with the bot of ``level`` in every seat and
    ``opponent`` in the others; per seed, the mean over the seats of ``score(final state, seat)``."""
    game = get(game_name)
    per_seed: list[float] = []
    for index in seeds:
        total = 0.0
        for seat in range(players):
            seats: list[Player] = [opponent] * players
            seats[seat] = bot(level)
            result = play(game, sheet, seats, f"{label}-{index}", timed=[seat], stop=stop)
            timed(level, game_name, result)
            total += score(result.state, seat)
        per_seed.append(total / players)
    return per_seed


def palace(level: str, preset: str, seeds: range) -> dict[str, Any]:
    game = get("palace")
    sheet = game.sheet({"finish": "play_to_last"}, preset=preset)

    def lost(state: Any, seat: int) -> float:
        outcome = game.outcome(state)
        assert outcome is not None
        return float(seat in outcome.placings[-1])

    per_seed = duplicates(level, "palace", sheet, palace_human, f"palace-{preset}", seeds, lost)
    mean, low, high = interval(per_seed)
    return {"game": "palace", "preset": preset, "level": level, "against": "rule", "games": 3 * len(seeds),
            "loser": mean, "low": low, "high": high}


def thousand(level: str, seeds: range) -> dict[str, Any]:
    game = get("thousand")
    sheet = game.sheet(None, preset="tuhat")
    tally = {"made": 0, "played": 0, "bombs": 0}

    def won(state: Any, seat: int) -> float:
        outcome = game.outcome(state)
        assert outcome is not None
        for row in game.view(state, None)["score_sheet"]:
            if row.get("bidder") != seat:
                continue
            if row.get("type") == "bomb" or row.get("bomb"):
                tally["bombs"] += 1
            elif row.get("type") == "deal" and "made" in row:
                tally["played"] += 1
                tally["made"] += bool(row["made"])
        return float(seat in outcome.placings[0])

    mean, low, high = interval(duplicates(level, "thousand", sheet, thousand_human, "thousand", seeds, won))
    played = tally["played"]
    share = tally["made"] / max(1, played)
    half = 1.96 * math.sqrt(share * (1 - share) / max(1, played))
    return {"game": "thousand", "level": level, "against": "rule", "games": 3 * len(seeds), "won": mean,
            "low": low, "high": high, "contracts": played, "made": share, "made_low": share - half,
            "made_high": share + half, "bombs": tally["bombs"]}


def _chips(view: dict[str, Any], seat: int) -> int:
    player = view["players"][seat]
    return int(player["stack"]) + (int(player.get("committed", 0)) if player.get("in_hand") else 0)


def holdem(level: str, against: str, players: int, deals: range) -> dict[str, Any]:
    """bb/100 of the bot over duplicate hands: each deal once with the bot in every seat."""
    game = get("holdem")
    sheet = game.sheet(None, preset="cash-nl-1-2")
    other: Player = {"tag": holdem_tag, "station": holdem_station, "random": random_player}[against]

    def hand_over(state: Any) -> bool:
        return int(game.view(state, None)["hands_played"]) >= 1

    def big_blinds_won(state: Any, seat: int) -> float:
        after = game.view(state, None)
        return 100 * (_chips(after, seat) - int(after["players"][seat]["bought_in"])) / 2

    per_deal = duplicates(level, "holdem", sheet, other, f"holdem-{players}", deals, big_blinds_won,
                          players=players, stop=hand_over)
    mean, low, high = interval(per_deal)
    return {"game": "holdem", "level": level, "against": against, "players": players,
            "hands": len(deals) * players, "bb100": mean, "low": low, "high": high}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def line(row: dict[str, Any]) -> str:
    if row["game"] == "palace":
        return (f"palace   {row['preset']:14} {row['level']:6} vs rule x2  loser {row['loser']:6.1%} "
                f"[{row['low']:.1%}, {row['high']:.1%}]  ({row['games']} games)")
    if row["game"] == "thousand":
        return (f"thousand tuhat          {row['level']:6} vs rule x2  won {row['won']:6.1%} "
                f"[{row['low']:.1%}, {row['high']:.1%}]  contracts made {row['made']:.1%} "
                f"[{row['made_low']:.1%}, {row['made_high']:.1%}] of {row['contracts']}, "
                f"bombs {row['bombs']}  ({row['games']} games)")
    return (f"holdem   {row['players']}-handed        {row['level']:6} vs {row['against']:7} "
            f"{row['bb100']:+7.1f} bb/100 [{row['low']:+.1f}, {row['high']:+.1f}]  ({row['hands']} hands)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--palace", type=int, default=200, help="Palace seeds per preset (3 games each)")
    parser.add_argument("--thousand", type=int, default=60, help="Thousand seeds (3 games each)")
    parser.add_argument("--hands", type=int, default=4000, help="Hold'em hands per line")
    parser.add_argument("--levels", default="good,strong")
    parser.add_argument("--only", default="palace,thousand,holdem")
    parser.add_argument("--presets", default="hiina-turakas,china-hand,palace")
    parser.add_argument("--against", default="tag,station,random")
    parser.add_argument("--seats", default="2,6")
    parser.add_argument("--first-seed", type=int, default=0,
                        help="play seeds from this one on (to split a run over processes)")
    args = parser.parse_args()
    first = args.first_seed  # seed ranges can run in separate processes
    only = set(args.only.split(","))
    levels = args.levels.split(",")
    started = time.perf_counter()
    rows: list[dict[str, Any]] = []
    for level in levels:
        if "palace" in only:
            for preset in args.presets.split(","):
                rows.append(palace(level, preset, range(first, first + args.palace)))
                print(line(rows[-1]), flush=True)
        if "thousand" in only:
            rows.append(thousand(level, range(first, first + args.thousand)))
            print(line(rows[-1]), flush=True)
        if "holdem" in only:
            for against in args.against.split(","):
                for players in (int(n) for n in args.seats.split(",")):
                    deals = range(first, first + max(1, args.hands // players))
                    rows.append(holdem(level, against, players, deals))
                    print(line(rows[-1]), flush=True)
    timing: list[dict[str, Any]] = []
    print(f"Decision time (wall clock, and the deciding thread's CPU; load {os.getloadavg()[0]:.1f}):")
    for (game, level), values in sorted(TIMINGS.items()):
        p50, p99 = percentile(values, 0.50) * 1000, percentile(values, 0.99) * 1000
        cpu = CPU_TIMINGS[game, level]
        cpu50, cpu99 = percentile(cpu, 0.50) * 1000, percentile(cpu, 0.99) * 1000
        timing.append({"game": game, "level": level, "p50_ms": p50, "p99_ms": p99, "cpu_p50_ms": cpu50,
                       "cpu_p99_ms": cpu99, "decisions": len(values)})
        print(f"  {game:8} {level:6}  p50 {p50:7.2f} ms   p99 {p99:7.2f} ms   "
              f"CPU p50 {cpu50:7.2f} ms   p99 {cpu99:7.2f} ms   ({len(values)} decisions)")
    print(f"({time.perf_counter() - started:.0f} s)")
    print(json.dumps({"results": rows, "timing": timing}))


if __name__ == "__main__":
    main()
