"""The engine benchmarks of a baseline revision and of the working tree, side by side.

Unpacks ``--baseline`` (a git revision, default 4a29b3e: before the rules-fidelity and
one-state-idiom work) into a temporary directory with ``git archive``, copies the working tree
(with its uncommitted changes) beside it, and measures both trees
with their own ``bench/palace.py``, ``bench/holdem.py`` and ``bench/thousand.py`` functions, each
measurement in a fresh process, the two trees interleaved (ABBA order, so a drift in the
machine's load falls on both). Prints the median of ``--runs`` measurements per tree and the
ratio working / baseline (above 1: the working tree is faster). Every time is the process's CPU
time (the benches' ``perf_counter`` is swapped for ``process_time``): on a shared machine the wall
clock also counts the time a process waits for a core.

    python bench/compare.py [--baseline REV] [--runs 7] [--instructions] [--replay-hands 2000]

Figures: Palace moves/s over random 4-player games of every preset (``apply``, ``legal_actions``
and the views of all seats, as ``bench/palace.py`` times a move); Hold'em hands/s of random
6-max no-limit hands (``bench/holdem.py``'s own engine loop, CPU time); Thousand moves/s and
deals/s of greedy 3-player games of ``tuhat`` (``legal_actions`` + ``apply``); the Hold'em replay of
``bench/replay.py``: the same Pluribus-shaped 6-max hands (made and parsed once by the working tree)
through each tree's engine and through pokerkit's own PHH replay in the same process, with the
ratio ours / pokerkit (pokerkit's figure is the same code in both columns: it shows the load), and
the same hands through the playout path (``holdem.playout``) where a tree has one.
The rules changed between the revisions (e.g. who opens in Palace, redeals before the bid in
Thousand), so games differ a little: moves/s is the fairer figure where a game's length changed.

On a busy machine two runs of the same code differ by a few percent; ``--instructions`` adds a
figure the load cannot move: the instructions executed per move (per hand for Hold'em), counted by
valgrind's callgrind between a small and a larger run of the same seeded games.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# One measurement in a fresh interpreter: the tree's own package and bench modules come first on
# the path (ahead of the editable install of the working tree).
PROBE = r"""
import importlib.util, json, sys
tree, name, seed, size = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
sys.path.insert(0, tree)
# The replay bench is the working tree's for both trees (a baseline may predate it); its engine
# comes from the tree measured, through the path above.
source = sys.argv[5] if name == "replay" else tree
# The replay bench's module is "replay", the name its pickled hands refer to (and a dataclass
# needs its module registered while it is defined).
spec = importlib.util.spec_from_file_location(name if name == "replay" else "bench_" + name,
                                              f"{source}/bench/{name}.py")
bench = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = bench
spec.loader.exec_module(bench)
assert bench.__file__.startswith(source)
# CPU time rather than wall time for every bench (bench/holdem.py uses it already): on a shared
# machine a process waits for a core often and for long, and the wall clock counts the wait.
import time, types
bench.time = types.SimpleNamespace(perf_counter=time.process_time, process_time=time.process_time)
if name == "palace":
    from app.games.palace import PRESETS
    moves = elapsed = 0.0
    for preset in PRESETS:
        took, count, _ = bench.run(preset, size, 4, seed)
        moves += count
        elapsed += took
    out = {"Palace moves/s": moves / elapsed, "units": moves}
elif name == "holdem":
    out = {"Hold'em hands/s": bench.ours(size, seed), "units": size}
elif name == "replay":
    # The same Pluribus-shaped hands (made by the working tree, read from PHH once) through this
    # tree's engine and through pokerkit in the same process, interleaved: the ratio is the figure.
    import pickle
    with open(sys.argv[6], "rb") as f:
        hands = pickle.load(f)
    from pokerkit import HandHistory
    histories = [HandHistory.loads(r.text) for r in hands]
    # The playout path (``holdem.playout``) where the tree has one.
    quick_path = importlib.util.find_spec("app.games.holdem.playout") is not None
    ours, quick, theirs = [], [], []
    for _ in range(3):
        ours.append(bench.ours(hands))
        if quick_path:
            quick.append(bench.fast(hands))
        theirs.append(bench.theirs(histories, len(hands)))
    import statistics
    a, b = statistics.median(ours), statistics.median(theirs)
    out = {"replay hands/s": a, "pokerkit hands/s": b, "replay/pokerkit": a / b, "units": len(hands)}
    if quick:
        out["playout replay hands/s"] = statistics.median(quick)
        out["playout/pokerkit"] = statistics.median([f / t for f, t in zip(quick, theirs)])
else:
    deals_per_s, _apply_us, _move_us, deals, moves = bench.run(size, seed)
    out = {"Thousand moves/s": moves * deals_per_s / deals, "Thousand deals/s": deals_per_s, "units": moves}
import app
assert app.__file__.startswith(tree), app.__file__
print(json.dumps(out))
"""


def unpack(rev: str, into: Path) -> None:
    into.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)


def copy_working_tree(into: Path) -> None:
    """The working tree's files as they are now (tracked, changed or new, not ignored)."""
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-co", "--exclude-standard", "-z"],
                            check=True, capture_output=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into / name)


def replay_hands(count: int, into: Path) -> Path:
    """The Pluribus-shaped hands of ``bench/replay.py``, made and parsed once by the working tree
    (pickled, so both trees replay exactly the same hands)."""
    import pickle

    sys.path.insert(0, str(ROOT / "bench"))
    import replay

    hands = [r for r in map(replay.prepare, replay.make_hands(count, 0)) if r is not None]
    path = into / "replay-hands.pickle"
    path.write_bytes(pickle.dumps(hands))
    return path


REPLAY: list[str] = []  # the working tree's folder and the pickled hands, once made


def measure(tree: Path, name: str, seed: int, size: int) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(tree), name, str(seed), str(size), *REPLAY],
        check=True,
        capture_output=True,
        text=True,
    )
    figures = dict(json.loads(done.stdout.strip().splitlines()[-1]))
    figures.pop("units")
    return figures


# Instructions per unit: the work between a small and a larger run of the same seeded games (their
# first games are the same), so start-up and imports cancel out.
UNITS = {"palace": ("Palace", "move", 1, 4), "holdem": ("Hold'em", "hand", 10, 410),
         "thousand": ("Thousand", "move", 1, 3)}


def instructions(tree: Path, name: str) -> float:
    """Instructions executed per move (per hand for Hold'em), counted by valgrind's callgrind: a
    figure the machine's load cannot move."""

    def count(size: int) -> tuple[int, int]:
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
             sys.executable, "-c", PROBE, str(tree), name, "0", str(size)],
            check=True, capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        found = re.search(r"Collected : (\d+)", done.stderr)
        assert found is not None, done.stderr[-500:]
        return int(found.group(1)), int(json.loads(done.stdout.strip().splitlines()[-1])["units"])

    _, _, small, large = UNITS[name]
    (few, few_units), (many, many_units) = count(small), count(large)
    return (many - few) / (many_units - few_units)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="4a29b3e", help="git revision to compare with")
    parser.add_argument("--runs", type=int, default=7, help="measurements per bench and tree")
    parser.add_argument("--palace-games", type=int, default=40, help="games per preset per measurement")
    parser.add_argument("--holdem-hands", type=int, default=2000, help="hands per measurement")
    parser.add_argument("--thousand-games", type=int, default=2, help="games to 1000 per measurement")
    parser.add_argument("--replay-hands", type=int, default=2000,
                        help="Pluribus-shaped hands replayed against pokerkit per measurement (0: none)")
    parser.add_argument("--instructions", action="store_true",
                        help="also count instructions per move or hand with valgrind (a few minutes)")
    args = parser.parse_args()
    sizes = {"palace": args.palace_games, "holdem": args.holdem_hands, "thousand": args.thousand_games}
    results: dict[str, dict[str, list[float]]] = {}
    with tempfile.TemporaryDirectory(prefix="houserules-baseline-") as tmp:
        # Both trees are copies side by side, at paths of the same length on the same disk: the
        # size of a process's arguments and environment alone can move timings by a few percent.
        trees = {"baseline": Path(tmp) / "base", "working": Path(tmp) / "work"}
        unpack(args.baseline, trees["baseline"])
        copy_working_tree(trees["working"])
        names = ["palace", "holdem", "thousand"]
        if args.replay_hands:
            REPLAY[:] = [str(trees["working"]), str(replay_hands(args.replay_hands, Path(tmp)))]
            names.append("replay")
            sizes["replay"] = args.replay_hands
        for run in range(args.runs):
            for name in names:
                order = ["baseline", "working"] if run % 2 == 0 else ["working", "baseline"]
                for label in order:
                    for figure, value in measure(trees[label], name, run, sizes[name]).items():
                        results.setdefault(figure, {}).setdefault(label, []).append(value)
            print(f"run {run + 1}/{args.runs} done", file=sys.stderr)
        counted: dict[str, dict[str, float]] = {}
        if args.instructions:
            # Two valgrind runs at a time (one per tree): each is single-threaded.
            with ThreadPoolExecutor(max_workers=2) as pool:
                jobs = {(name, label): pool.submit(instructions, trees[label], name)
                        for name in UNITS for label in ("baseline", "working")}
                for (name, label), job in jobs.items():
                    counted.setdefault(name, {})[label] = job.result()
    git = ["git", "-C", str(ROOT)]
    head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], check=True, capture_output=True, text=True)
    dirty = subprocess.run([*git, "status", "--porcelain", "-uno"], capture_output=True, text=True)
    working = head.stdout.strip() + (" with uncommitted changes" if dirty.stdout.strip() else "")
    print(f"medians of {args.runs} interleaved runs; baseline {args.baseline}, working tree {working}")
    print(f"{'figure':<20}{'baseline':>12}{'working':>12}{'working/baseline':>18}")
    for figure, by_tree in results.items():
        digits = ".2f" if figure.endswith("/pokerkit") else ",.0f"
        if "baseline" not in by_tree:  # a figure the baseline tree has no code for
            print(f"{figure:<20}{'-':>12}{statistics.median(by_tree['working']):>12{digits}}")
            continue
        a, b = statistics.median(by_tree["baseline"]), statistics.median(by_tree["working"])
        print(f"{figure:<20}{a:>12{digits}}{b:>12{digits}}{b / a:>17.3f}x")
    if counted:
        print("instructions (callgrind) per unit; below 1: the working tree does less work")
        for name, per_tree in counted.items():
            game, unit, _, _ = UNITS[name]
            base, work = per_tree["baseline"], per_tree["working"]
            print(f"{game + ' per ' + unit:<20}{base:>12,.0f}{work:>12,.0f}{work / base:>17.3f}x")


if __name__ == "__main__":
    main()
