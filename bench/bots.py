"""Bot benchmark: how the bots fare, and how long they think.

Prints, for each level ("easy", "good"):

- Palace: how often the bot is the loser (the last one left, P22 played to the last) of 3- and
  4-player games against random players and against "easy" bots; random players lose about 1/n.
- Thousand: contracts the bot made (of those it played; bombs counted apart) and games it won
  to the target, in 3-player games against random players and against "easy" bots.
- Hold'em ("good" only): big blinds won per 100 hands against "easy", heads-up, over duplicate
  hands: each deal is played twice from the same seed with the seats swapped, from 100 big
  blinds each time.
- The bot's decision time, p50 and p99, per game.

Goals (issue 12): Palace "good" loser in at most 10% of 3-player games against two random players;
Thousand "good" makes at least 70% of its contracts and wins at least 80% of 3-player games against
random players; Hold'em "good" wins at least 30 bb/100 against "easy"; decision p99 under 50 ms.

    python bench/bots.py [--palace 300] [--thousand 100] [--hands 20000] [--only palace,thousand,holdem]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.bots import LEVELS
from app.bots.arena import Player, bot, play, random_player
from app.games import get

TIMINGS: dict[str, list[float]] = {"palace": [], "thousand": [], "holdem": []}


def calm_random(game_name: str, view: Any, legal: Any, rng: Any) -> dict[str, Any]:
    """A random player that never picks up or draws while it could play (the way people play)."""
    plays = [a for a in legal if a["type"] not in ("pick_up", "draw", "keep")]
    return random_player(game_name, view, plays or legal, rng)


def opponents(kind: str) -> Player:
    return {"random": random_player, "calm": calm_random}.get(kind) or bot("easy")


def palace(games: int, players: int, level: str, against: str) -> float:
    """Share of games in which the bot (seat rotating) is the loser; ``level`` "random" or "calm"
    puts that player in the bot's seat instead (the baseline)."""
    game = get("palace")
    sheet = game.sheet({"finish": "play_to_last"}, preset="hiina-turakas")
    lost = 0
    for index in range(games):
        seat = index % players
        seats = [opponents(against) for _ in range(players)]
        seats[seat] = bot(level) if level in LEVELS else opponents(level)
        result = play(game, sheet, seats, f"palace-{players}-{level}-{against}-{index}", timed=[seat])
        if level in LEVELS:
            TIMINGS["palace"].extend(result.timings)
        outcome = game.outcome(result.state)
        assert outcome is not None
        if seat in outcome.placings[-1]:
            lost += 1
    return lost / games


def thousand(games: int, level: str, against: str) -> tuple[float, int, int, float]:
    """(Contracts made / played, contracts played, bombs, games won) for the bot in 3-player games."""
    game = get("thousand")
    sheet = game.sheet(None, preset="tuhat")
    made = played = bombs = won = 0
    for index in range(games):
        seat = index % 3
        seats = [opponents(against) for _ in range(3)]
        seats[seat] = bot(level)
        result = play(game, sheet, seats, f"thousand-{level}-{against}-{index}", timed=[seat])
        TIMINGS["thousand"].extend(result.timings)
        outcome = game.outcome(result.state)
        assert outcome is not None
        if seat in outcome.placings[0]:
            won += 1
        for row in game.view(result.state, None)["score_sheet"]:
            if row.get("bidder") != seat:
                continue
            if row.get("type") == "bomb" or row.get("bomb"):
                bombs += 1
            elif row.get("type") == "deal" and "made" in row:
                played += 1
                made += bool(row["made"])
    return made / max(1, played), played, bombs, won / games


def _chips(view: dict[str, Any], seat: int) -> int:
    player = view["players"][seat]
    return int(player["stack"]) + (int(player.get("committed", 0)) if player.get("in_hand") else 0)


def holdem(deals: int) -> tuple[float, int, float]:
    """(bb/100 of "good" against "easy", hands played, the standard error of bb/100)."""
    game = get("holdem")
    sheet = game.sheet(None, preset="cash-nl-1-2")
    big_blind = 2
    results: list[float] = []
    for index in range(deals):
        seed = f"holdem-duplicate-{index}"
        pair = 0.0
        for good_seat in (0, 1):
            seats = [bot("easy"), bot("easy")]
            seats[good_seat] = bot("good")

            def hand_over(state: Any) -> bool:
                return int(game.view(state, None)["hands_played"]) >= 1

            result = play(game, sheet, seats, seed, timed=[good_seat], stop=hand_over)
            TIMINGS["holdem"].extend(result.timings)
            after = game.view(result.state, None)
            pair += (_chips(after, good_seat) - int(after["players"][good_seat]["bought_in"])) / big_blind
        results.append(pair / 2)
    mean = statistics.fmean(results)
    error = statistics.stdev(results) / len(results) ** 0.5 if len(results) > 1 else 0.0
    return mean * 100, 2 * deals, error * 100


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--palace", type=int, default=300, help="games per Palace line")
    parser.add_argument("--thousand", type=int, default=100, help="games per Thousand line")
    parser.add_argument("--hands", type=int, default=20000, help="Hold'em hands (two per duplicate deal)")
    parser.add_argument("--only", default="palace,thousand,holdem")
    args = parser.parse_args()
    only = set(args.only.split(","))
    started = time.perf_counter()
    if "palace" in only:
        print(f"Palace (hiina-turakas played to the last), {args.palace} games a line: "
              "the bot is the loser in")
        print("  (random: any legal move; calm: random, but never picks up or draws while it could play)")
        for level in ("random", "calm", *LEVELS):
            for players in (3, 4):
                for against in ("random", "calm", "easy"):
                    rate = palace(args.palace, players, level, against)
                    print(f"  {level:6}  {players} players vs {against:6}  {rate:6.1%}")
    if "thousand" in only:
        print(f"Thousand (tuhat, 3 players, to 1000), {args.thousand} games a line:")
        for level in LEVELS:
            for against in ("random", "easy"):
                rate, played, bombs, won = thousand(args.thousand, level, against)
                print(f"  {level:4}  vs {against:6}  contracts made {rate:6.1%} of {played:4}"
                      f" (bombs {bombs:3}),  games won {won:6.1%}")
    if "holdem" in only:
        bb100, hands, error = holdem(max(1, args.hands // 2))
        print(f"Hold'em (cash-nl-1-2, heads-up, 100 bb deep), good vs easy over {hands} duplicate hands:")
        print(f"  {bb100:+.1f} bb/100  (± {error:.1f} standard error)")
    print("Decision time of the bots under test:")
    for name, values in TIMINGS.items():
        if values:
            p50, p99 = percentile(values, 0.50) * 1000, percentile(values, 0.99) * 1000
            print(f"  {name:8}  p50 {p50:6.2f} ms   p99 {p99:6.2f} ms   ({len(values)} decisions)")
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
