"""The fan-out after a move: every seat's view and a spectator's, per state, for each game.

Plays random games (random legal moves, as the property tests play them) and keeps every state
reached; then times, over all those states, building the views of all seats plus a spectator in
two ways: ``view`` once per seat, and ``views`` once for all. Times are process CPU time (the
machines are shared). Prints the mean µs per state for each way and their ratio, each the median
of ``--runs`` runs.

    python bench/views.py [--games 20] [--runs 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games.base import Game
from app.games.holdem import HOLDEM
from app.games.palace import PRESETS as PALACE_PRESETS
from tests.games.holdem.helpers import all_cards as holdem_cards
from tests.games.holdem.helpers import concrete, visible_cards
from tests.games.palace.test_properties import case as palace_case
from tests.games.properties import PropertyCase, random_states
from tests.games.thousand.test_properties import case as thousand_case


def holdem_case(players: int) -> PropertyCase:
    sheet = HOLDEM.sheet(
        {"seats": players, "max_hands": 30, "buy_in_min": 2, "buy_in_default": 100}, preset="cash-nl-1-2"
    )
    return PropertyCase(HOLDEM, sheet, players, visible_cards, holdem_cards, concrete=concrete)


CASES: dict[str, PropertyCase] = {
    "palace 4 (hiina-turakas)": palace_case(PALACE_PRESETS["hiina-turakas"], 4),
    "palace 5 (palace)": palace_case(PALACE_PRESETS["palace"], 5),
    "holdem 6-max cash": holdem_case(6),
    "holdem 9 seats cash": holdem_case(9),
    "thousand 3": thousand_case(3),
    "thousand 4": thousand_case(4),
}


def collect(case: PropertyCase, games: int) -> list[Any]:
    states: list[Any] = []
    for g in range(games):
        states.extend(random_states(case, f"bench-views-{g}", random.Random(g)))
    return states


def per_seat(game: Game[Any, Any], states: list[Any]) -> float:
    """Mean CPU seconds per state for ``view`` of every seat and a spectator."""
    view = game.view
    seat_lists = [[*range(game.seat_count(s)), None] for s in states]
    start = time.process_time()
    for state, seats in zip(states, seat_lists, strict=True):
        for seat in seats:
            view(state, seat)
    return (time.process_time() - start) / len(states)


def at_once(game: Game[Any, Any], states: list[Any]) -> float:
    """Mean CPU seconds per state for ``views`` of every seat and a spectator."""
    views = game.views
    seat_lists = [[*range(game.seat_count(s)), None] for s in states]
    start = time.process_time()
    for state, seats in zip(states, seat_lists, strict=True):
        views(state, seats)
    return (time.process_time() - start) / len(states)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"Views of all seats + a spectator per state: {args.games} random games per case, "
          f"{args.runs} runs (medians, CPU time)")
    print(f"{'case':<26}{'states':>8}{'view/seat µs':>14}{'views µs':>10}{'ratio':>8}")
    for name, case in CASES.items():
        states = collect(case, args.games)
        singles, together = [], []
        for _ in range(args.runs):
            singles.append(per_seat(case.game, states) * 1e6)
            together.append(at_once(case.game, states) * 1e6)
        one, many = statistics.median(singles), statistics.median(together)
        print(f"{name:<26}{len(states):>8}{one:>14.1f}{many:>10.1f}{one / many:>7.2f}x")


if __name__ == "__main__":
    main()
