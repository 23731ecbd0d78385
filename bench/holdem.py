"""Hold'em speed: our engine and pokerkit side by side in one process, and the evaluator.

Random 6-max no-limit hands with stacks of 10–400 big blinds, the same random policy for both
engines (fold, check or call, raise to a random legal amount); our hands include the seeded
SHA-256 shuffle, views are not drawn. Times are process CPU time (the machines are shared).
Prints hands/s for each, the ratio, and 7-card evaluations/s through our wrapper (``strength7``
with card codes, ``strength`` with a list) and through phevaluator directly. Each figure is the
median of ``--runs`` runs.

    python bench/holdem.py [--hands 300] [--runs 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games.cards import deck
from app.games.holdem import HOLDEM
from app.games.holdem.evaluator import CARD_ID, strength, strength7

BB = 2


def ours(hands: int, seed: int) -> float:
    rng = random.Random(seed)
    sheet = HOLDEM.sheet({"seats": 6, "max_hands": 1, "buy_in_min": 1, "buy_in_max": 10**6})
    start = time.process_time()
    for i in range(hands):
        stacks = [rng.randint(10 * BB, 400 * BB) for _ in range(6)]
        s = HOLDEM.new(sheet, 6, seed=f"bench-{seed}-{i}", stacks=stacks, button=rng.randrange(6))
        while s.hand is not None:
            seat = s.hand.actor
            # The same policy as for pokerkit: fold, check or call, or bet or raise (all-in is
            # the top of the raise range), uniformly among those open.
            legal = [a for a in HOLDEM.legal_actions(s, seat) if a["type"] != "all_in"]
            move = rng.choice(legal)
            if "min" in move:
                move = {"type": move["type"], "to": rng.randint(move["min"], move["max"])}
            elif move["type"] == "call":
                move = {"type": "call"}
            s, _ = HOLDEM.apply(s, seat, move)
    return hands / (time.process_time() - start)


def theirs(hands: int, seed: int) -> float:
    from pokerkit import Automation, NoLimitTexasHoldem

    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    rng = random.Random(seed)
    start = time.process_time()
    for _ in range(hands):
        stacks = [rng.randint(10 * BB, 400 * BB) for _ in range(6)]
        st = NoLimitTexasHoldem.create_state(automations, True, 0, (1, 2), BB, stacks, 6)
        while st.status:
            options = ["cc"]
            if st.can_fold():
                options.append("f")
            if st.can_complete_bet_or_raise_to():
                options.append("cbr")
            pick = rng.choice(options)
            if pick == "f":
                st.fold()
            elif pick == "cc":
                st.check_or_call()
            else:
                low = st.min_completion_betting_or_raising_to_amount
                high = st.max_completion_betting_or_raising_to_amount
                assert low is not None and high is not None
                st.complete_bet_or_raise_to(rng.randint(low, high))
    return hands / (time.process_time() - start)


def evaluations(count: int, seed: int) -> tuple[float, float, float]:
    from phevaluator import _pheval

    rng = random.Random(seed)
    cards = deck()
    hands = [rng.sample(cards, 7) for _ in range(count)]
    start = time.process_time()
    for h in hands:
        strength7(*h)
    wrapped7 = count / (time.process_time() - start)
    start = time.process_time()
    for h in hands:
        strength(h)
    wrapped = count / (time.process_time() - start)
    ids = [[CARD_ID[c] for c in h] for h in hands]
    ev = _pheval.evaluate_7cards
    start = time.process_time()
    for i in ids:
        ev(*i)
    raw = count / (time.process_time() - start)
    return wrapped7, wrapped, raw


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300, help="hands per engine per run")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--evals", type=int, default=300_000)
    args = parser.parse_args()
    mine, pk, ratio, e7, e, raw = [], [], [], [], [], []
    for run in range(args.runs):
        a = ours(args.hands * 10, run)
        b = theirs(args.hands, run)
        mine.append(a)
        pk.append(b)
        ratio.append(a / b)
        x, y, z = evaluations(args.evals, run)
        e7.append(x)
        e.append(y)
        raw.append(z)
        print(
            f"run {run + 1}: ours {a:,.0f} hands/s, pokerkit {b:,.0f} hands/s, ratio {a / b:.1f}x; "
            f"evals/s strength7 {x:,.0f}, strength {y:,.0f}, phevaluator {z:,.0f}"
        )
    med = statistics.median
    print(
        f"median: ours {med(mine):,.0f} hands/s, pokerkit {med(pk):,.0f} hands/s, ratio {med(ratio):.1f}x "
        f"(goal 20x)"
    )
    print(
        f"median 7-card evaluations/s: strength7 {med(e7):,.0f}, strength {med(e):,.0f}, "
        f"raw phevaluator {med(raw):,.0f} (goal 1.5M through the wrapper)"
    )


if __name__ == "__main__":
    main()
