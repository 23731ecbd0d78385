"""Hold'em replay speed: the same recorded hands through our engine and through pokerkit.

The hands are PHH hand histories: ``--phh PATH`` reads them from a ``.phh``/``.phhs`` file or a
folder of them (the Pluribus or WSOP sets of the PHH dataset, say: 6-max no-limit hands); without
it the bench makes ``--hands`` hands of the same shape, 6-max no-limit 50/100 with 10,000-chip
stacks reset every hand and a tight policy (most players fold before the flop; about nine moves a
hand and one hand in six to a showdown, as in the Pluribus set), played by our engine and written
out in PHH (``phh.export``, every hole card). Each hand is then parsed once, outside the timing:

- pokerkit: ``HandHistory`` objects (pokerkit's own replay: iterating it applies every action);
- pokerkit, engines only: per hand the ``create_state`` arguments and a list of direct method calls
  (``deal_hole``, ``fold``, ``check_or_call``, ``complete_bet_or_raise_to``, ``deal_board``, the
  showdown), so no notation is parsed while timed;
- ours: per hand the stacks, the button, a fixed deck (holes in dealing order, burns and the
  board, the rest completed by ``new``) and the moves as ``apply`` takes them;
- ours, playout path: the same deck and stacks through ``holdem.playout.deal`` (one mutable hand,
  no events, views or copies) and the moves as ``Playout.move`` takes them (kind, total).

Every replay checks that each hand ends with the recorded finishing stacks. Times are process CPU
time; each figure is the median of ``--runs`` runs, the engines interleaved within each run, and
each ratio the median of the runs' own ratios (the two sides of a ratio share a run's load).

    python bench/replay.py [--hands 10000] [--runs 5] [--phh PATH] [--only ours|playout]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Run as a script, this tree's ``app`` comes first (before an installed checkout's); loaded by
# ``bench/compare.py``, which runs this file against another tree's ``app`` put first, it is appended.
if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
else:
    sys.path.append(str(Path(__file__).resolve().parent.parent))

from app.games.cards import deck as full_deck
from app.games.holdem import HOLDEM
from app.games.holdem.phh import export

SB, BB, STACK = 50, 100, 10_000


@dataclass
class Replay:
    """One hand ready for both engines."""

    text: str  # PHH
    players: int
    stacks: list[int]  # by our seat (seat 0 is the first player left of the button)
    deck: list[str]
    moves: list[tuple[int, dict[str, Any]]]
    plays: list[tuple[str, int]]  # the moves for the playout path: kind and total this round
    finishing: list[int]  # by our seat
    pk_args: tuple[Any, ...]  # pokerkit create_state's blinds and stacks (PHH order)
    pk_ops: list[tuple[str, tuple[Any, ...]]]


# -- making Pluribus-shaped hands ------------------------------------------------------------------


def _policy(legal: list[dict[str, Any]], street: int, draw: Callable[[], float]) -> dict[str, Any]:
    """Tight, as strong players are: most hands fold before the flop."""
    kinds = {a["type"]: a for a in legal}
    r = draw()
    raise_ = kinds.get("raise") or kinds.get("bet")
    if "fold" in kinds:
        fold = 0.72 if street == 0 else 0.5
        if r < fold:
            return {"type": "fold"}
        if raise_ is not None and r > 0.9:
            low, high = raise_["min"], raise_["max"]
            return {"type": raise_["type"], "to": min(high, low + int(draw() * low))}
        return {"type": "call"} if "call" in kinds else {"type": "all_in"}
    if raise_ is not None and r < (0.2 if street == 0 else 0.4):
        low, high = raise_["min"], raise_["max"]
        return {"type": raise_["type"], "to": min(high, low + int(draw() * 2 * low))}
    return {"type": "check"}


def make_hands(count: int, seed: int) -> list[str]:
    """``count`` 6-max no-limit hands in PHH, played by our engine with ``_policy``."""
    rng = random.Random(seed)
    sheet = HOLDEM.sheet(
        {"seats": 6, "small_blind": SB, "big_blind": BB, "max_hands": 1, "buy_in_min": 1,
         "buy_in_max": 10**6, "buy_in_default": STACK}
    )
    out = []
    for i in range(count):
        s = HOLDEM.new(sheet, 6, seed=f"replay-{seed}-{i}", button=5)
        while s.hand is not None and s.hand.phase != "over":
            seat = s.hand.actor
            s, _ = HOLDEM.apply(s, seat, _policy(HOLDEM.legal_actions(s, seat), s.hand.street, rng.random))
        out.append(export(s, s.history[-1]["hand"], None, everything=True))
    return out


# -- reading PHH once ------------------------------------------------------------------------------


def read_phh(path: Path) -> list[str]:
    files = sorted(path.rglob("*.phh*")) if path.is_dir() else [path]
    texts: list[str] = []
    for file in files:
        body = file.read_text()
        if file.suffix == ".phhs":
            sections = [part.split("\n", 1)[1] for part in body.split("\n[")[0:] if "\n" in part]
            texts.extend(sections)
        else:
            texts.append(body)
    return texts


def _cards(text: str) -> list[str]:
    return [text[i : i + 2] for i in range(0, len(text), 2)]


def prepare(text: str) -> Replay | None:
    """A PHH no-limit hand (no antes, no straddle) as both engines replay it; None otherwise."""
    from pokerkit import HandHistory

    hh = HandHistory.loads(text)
    n = len(hh.starting_stacks)
    if hh.variant != "NT" or any(hh.antes) or any(hh.blinds_or_straddles[2:]):
        return None
    # PHH order: p1 is the first player left of the button (heads-up: the big blind), the button
    # last. Our seat k is PHH player k + 1, the button on seat n - 1.
    holes: list[list[str]] = [[] for _ in range(n)]
    board: list[str] = []
    moves: list[tuple[int, dict[str, Any]]] = []
    ops: list[tuple[str, tuple[Any, ...]]] = []
    committed = [0] * n
    bets = [0] * n
    bets[0], bets[1] = hh.blinds_or_straddles[0], hh.blinds_or_straddles[1]
    if n == 2:
        return None
    for action in hh.actions:
        words = action.split()
        if words[:2] == ["d", "dh"]:
            holes[int(words[2][1:]) - 1] = _cards(words[3])
            ops.append(("deal_hole", (words[3],)))
        elif words[:2] == ["d", "db"]:
            board.extend(_cards(words[2]))
            ops.append(("deal_board", (words[2],)))
            committed = [c + b for c, b in zip(committed, bets, strict=True)]
            bets = [0] * n
        elif words[1] == "f":
            moves.append((int(words[0][1:]) - 1, {"type": "fold"}))
            ops.append(("fold", ()))
        elif words[1] == "cc":
            seat = int(words[0][1:]) - 1
            top = max(bets)
            moves.append((seat, {"type": "call"} if top > bets[seat] else {"type": "check"}))
            left = hh.starting_stacks[seat] - committed[seat]
            bets[seat] = min(top, left)
            ops.append(("check_or_call", ()))
        elif words[1] == "cbr":
            seat, to = int(words[0][1:]) - 1, int(words[2])
            moves.append((seat, {"type": "raise" if max(bets) else "bet", "to": to}))
            bets[seat] = to
            ops.append(("complete_bet_or_raise_to", (to,)))
        # "sm" (show or muck): the direct replay shows every hand left (``_complete``; cards speak).
    if any(len(h) != 2 for h in holes):
        return None
    ops = _complete(ops, (tuple(hh.blinds_or_straddles[:2]), hh.min_bet, tuple(hh.starting_stacks), n))
    # Our deck: two rounds of holes from seat 0, then burn, flop, burn, turn, burn, river.
    used = {c for h in holes for c in h} | set(board)
    spare = [c for c in full_deck() if c not in used]
    deck = [h[0] for h in holes] + [h[1] for h in holes]
    streets = [board[:3], board[3:4], board[4:5]]
    for cards in streets:
        if cards:
            deck += [spare.pop(), *cards]
    return Replay(
        text=text,
        players=n,
        stacks=list(hh.starting_stacks),
        deck=deck,
        moves=moves,
        plays=[(move["type"], move.get("to", 0)) for _, move in moves],
        finishing=list(hh.finishing_stacks or []),
        pk_args=(tuple(hh.blinds_or_straddles[:2]), hh.min_bet, tuple(hh.starting_stacks), n),
        pk_ops=ops,
    )


def _pokerkit_state(args: tuple[Any, ...]) -> Any:
    from pokerkit import Automation, NoLimitTexasHoldem

    automations = (
        Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.HAND_KILLING, Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING,
    )
    blinds, min_bet, stacks, n = args
    return NoLimitTexasHoldem.create_state(automations, False, 0, blinds, min_bet, stacks, n)


Ops = list[tuple[str, tuple[Any, ...]]]


def _complete(ops: Ops, args: tuple[Any, ...]) -> Ops:
    """The calls pokerkit needs, found by running them once: it asks for checks that nobody could
    answer (everyone else all-in), which PHH and our engine leave out, and for the showdown."""
    st = _pokerkit_state(args)
    out: list[tuple[str, tuple[Any, ...]]] = []
    for name, call_args in ops:
        if name == "deal_board":
            while not st.can_deal_board():
                if st.can_burn_card():
                    st.burn_card("??")
                    out.append(("burn_card", ("??",)))
                elif st.can_show_or_muck_hole_cards():
                    st.show_or_muck_hole_cards(True)
                    out.append(("show_or_muck_hole_cards", (True,)))
                else:
                    st.check_or_call()
                    out.append(("check_or_call", ()))
        getattr(st, name)(*call_args)
        out.append((name, call_args))
    while st.status:
        if st.can_deal_board():
            raise ValueError("a board card is missing")
        if st.can_burn_card():
            raise ValueError("a board card is missing")
        if st.can_show_or_muck_hole_cards():
            st.show_or_muck_hole_cards(True)
            out.append(("show_or_muck_hole_cards", (True,)))
        else:
            st.check_or_call()
            out.append(("check_or_call", ()))
    return out


# -- the timed replays -----------------------------------------------------------------------------


def one_hand_sheet(sheets: dict[int, Any], players: int) -> Any:
    """The sheet of a one-hand table of ``players`` seats, made once a size (kept in ``sheets``)."""
    sheets[players] = HOLDEM.sheet(
        {"seats": players, "small_blind": SB, "big_blind": BB, "max_hands": 1, "buy_in_min": 1,
         "buy_in_max": 10**9, "show_after_hand": False}
    )
    return sheets[players]


def ours(hands: list[Replay]) -> float:
    sheets: dict[int, Any] = {}
    new, apply = HOLDEM.new, HOLDEM.apply
    start = time.process_time()
    for r in hands:
        sheet = sheets.get(r.players) or one_hand_sheet(sheets, r.players)
        s = new(sheet, r.players, seed="replay", deck=r.deck, button=r.players - 1, stacks=r.stacks)
        for seat, move in r.moves:
            s, _ = apply(s, seat, move)
        assert not r.finishing or s.history[-1]["finishing_stacks"] == r.finishing, r.text
    return len(hands) / (time.process_time() - start)


def fast(hands: list[Replay]) -> float:
    """Our playout path: one changeable hand per replay, the same checks of every move."""
    from app.games.holdem.playout import deal

    sheets: dict[int, Any] = {}
    start = time.process_time()
    for r in hands:
        sheet = sheets.get(r.players) or one_hand_sheet(sheets, r.players)
        p = deal(sheet, r.stacks, r.players - 1, r.deck)
        move = p.move
        for kind, to in r.plays:
            move(kind, to)
        assert p.over and (not r.finishing or p.stacks == r.finishing), r.text
    return len(hands) / (time.process_time() - start)


def theirs(histories: Iterable[Any], count: int) -> float:
    start = time.process_time()
    for hh in histories:
        state = None
        for state in hh:  # noqa: B007 (iterating applies the actions)
            pass
        assert state is not None
        # pokerkit gives every odd chip of a split pot to one winner (docs/rules/holdem.md): the
        # totals agree, single chips may sit elsewhere.
        assert not hh.finishing_stacks or sum(state.stacks) == sum(hh.finishing_stacks)
    return count / (time.process_time() - start)


AUTOMATIONS: tuple[Any, ...] = ()


def theirs_direct(hands: list[Replay]) -> float:
    """pokerkit driven by direct method calls: no notation parsing in the timing."""
    from pokerkit import Automation, NoLimitTexasHoldem

    automations = (
        Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.HAND_KILLING, Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING,
    )
    create = NoLimitTexasHoldem.create_state
    start = time.process_time()
    for r in hands:
        blinds, min_bet, stacks, n = r.pk_args
        st = create(automations, False, 0, blinds, min_bet, stacks, n)
        for name, args in r.pk_ops:
            getattr(st, name)(*args)
        assert not r.finishing or sum(st.stacks) == sum(r.finishing)
    return len(hands) / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--phh", type=Path, default=None, help="a .phh/.phhs file or a folder of them")
    parser.add_argument("--only", choices=("ours", "playout"), default=None,
                        help="replay --runs times through one path, without pokerkit: for instruction "
                             "counts, two runs of valgrind --tool=callgrind differing in --runs")
    args = parser.parse_args()
    from pokerkit import HandHistory

    texts = read_phh(args.phh) if args.phh else make_hands(args.hands, args.seed)
    hands = [r for r in map(prepare, texts) if r is not None]
    if args.only:
        replay = ours if args.only == "ours" else fast
        print(f"{args.only}: " + ", ".join(f"{replay(hands):,.0f}" for _ in range(args.runs)) + " hands/s")
        return
    moves = sum(len(r.moves) for r in hands) / len(hands)
    shown = sum(" sm" in r.text for r in hands) / len(hands)
    print(f"{len(hands)} hands ({len(texts) - len(hands)} skipped), {moves:.1f} moves a hand, "
          f"{shown:.0%} to a showdown")
    histories = [HandHistory.loads(r.text) for r in hands]
    mine, quick, pk, direct = [], [], [], []
    for run in range(args.runs):
        a = ours(hands)
        f = fast(hands)
        b = theirs(histories, len(hands))
        c = theirs_direct(hands)
        mine.append(a)
        quick.append(f)
        pk.append(b)
        direct.append(c)
        print(f"run {run + 1}: ours {a:,.0f} hands/s, playout path {f:,.0f}, pokerkit replay {b:,.0f} "
              f"({a / b:.1f}x, {f / b:.1f}x), pokerkit direct calls {c:,.0f} ({a / c:.1f}x, {f / c:.1f}x)")
    med = statistics.median

    def ratio(xs: list[float], ys: list[float]) -> str:
        return f"{med([x / y for x, y in zip(xs, ys, strict=True)]):.1f}x"

    print(f"median: ours {med(mine):,.0f} hands/s, playout path {med(quick):,.0f}, pokerkit replay "
          f"{med(pk):,.0f}, pokerkit direct calls {med(direct):,.0f}")
    print(f"ratios (medians of the runs' ratios): ours / pokerkit replay {ratio(mine, pk)}, "
          f"/ direct calls {ratio(mine, direct)}; playout path / pokerkit replay {ratio(quick, pk)} "
          f"(goal 20x), / direct calls {ratio(quick, direct)} (goal 30x)")

if __name__ == "__main__":
    main()
