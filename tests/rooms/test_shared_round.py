"""A round that keys more than one shuffle verifies: a Thousand deal redealt on four nines in the
same move [T5] is shuffled twice under the round sealed for the first of them (docs/fairness.md,
steps 6 and "Signatures"), and both verifiers check that round's signature under the label it was
sealed for, whichever shuffle lists it.

The game is played by bots through the room's own sealing (``app.rooms.sealing.seal_rounds``) until a
later deal is redealt in the move that dealt it; the record is the room's (``build_record``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from app import verify
from app.bots.arena import bot, play
from app.registry import get as game_of
from app.rooms.fairness import Fairness, build_record
from app.rooms.members import Member
from app.rooms.sealing import seal_rounds
from app.signing import Signer
from app.store.queries import LogEntry

ROOT = Path(__file__).resolve().parents[2]
ROOM = "shared-round-room"
SIGNER = Signer(Signer.new_private_hex())
MEMBERS = [100, 101, 102]


class SealedByTheRoom:
    """Thousand as the room plays it: every move goes through ``seal_rounds``, which seals the
    pending round before a move that makes a new shuffle (nobody contributes here: the rounds are
    signed all the same)."""

    def __init__(self, fair: Fairness) -> None:
        self.game, self.fair = game_of("thousand"), fair
        self.seated = {seat: Member(member, f"P{seat}", "seated", seat, seat, "")
                       for seat, member in enumerate(MEMBERS)}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def apply(self, state: Any, seat: int, action: Any) -> tuple[Any, list[Any]]:
        after, events = self.game.apply(state, seat, action)
        entries = [LogEntry(2, 1, "move", seat, dict(action), [])]
        after, _ = seal_rounds(self.game, self.fair, state, entries, after,
                               lambda: self.seated, lambda: [0, 1, 2])
        return after, events


def shared(game: Any, state: Any) -> list[str]:
    """The labels of the shuffles keyed by the round of an earlier shuffle."""
    seen: set[str] = set()
    out = []
    for shuffle in game.shuffles(state):
        if shuffle.round is None:
            continue
        seed = str(shuffle.round["seed"])
        if seed in seen:
            out.append(shuffle.label)
        seen.add(seed)
    return out


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    """A signed record, as seat 0 sees it, whose last deal was redealt on four nines."""
    game = game_of("thousand")
    sheet = game.sheet({"four_nines_redeal": True}, preset="tuhat")
    # About one deal in a hundred holds four nines in one hand: a few hundred deals find one.
    for _ in range(100):
        fair = Fairness(ROOM, SIGNER)
        sealed = fair.seal(MEMBERS, 1)
        result = play(SealedByTheRoom(fair), sheet, [bot("easy")] * 3, sealed.seed,  # type: ignore[arg-type]
                      stop=lambda state: bool(shared(game, state)))
        if shared(game, result.state):
            action = {"seed": sealed.seed, "players": 3, "fair": sealed.to_action()}
            deal = LogEntry(1, 1, "deal", None, action, [])
            made = build_record(game, sheet, deal, result.state, 0, [])
            made.update({"room": ROOM, "server_key": SIGNER.public_hex})
            return made
    raise AssertionError("no deal was redealt on four nines in the move that dealt it")


def _failed(checks: list[Any]) -> list[str]:
    return [c.name for c in checks if c.ok is False]


def test_t5_a_redeal_sharing_its_deals_round_verifies(record: dict[str, Any]) -> None:
    """[T5] The redeal's shuffle lists its deal's round; the round's signature holds for both."""
    rounds = [s for s in record["shuffles"] if "round" in s]
    again = rounds[-1]
    # Every shuffle of the last round: a redeal dealt four nines again makes three.
    shared = [s for s in rounds if s["round"]["commitment"] == again["round"]["commitment"]]
    first = shared[0]
    assert len(shared) >= 2 and first["label"] != again["label"]
    checks = verify.verify(record)
    assert _failed(checks) == []
    assert {f"{first['label']}: round signature", f"{again['label']}: round signature"} <= {
        c.name for c in checks if c.ok}
    # The signature still binds the round to its label: listed under another deal's alone (the
    # shuffles before it that it keyed taken out), it fails.
    moved = json.loads(json.dumps(record))
    earlier = {s["label"] for s in shared[:-1]}
    moved["shuffles"] = [s for s in moved["shuffles"] if s["label"] not in earlier]
    assert f"{again['label']}: round signature" in _failed(verify.verify(moved))


def test_t5_the_pages_verifier_agrees_on_a_shared_round(record: dict[str, Any], tmp_path: Path) -> None:
    """static/js/verify.js (node's Web Crypto) gives the same verdicts as ``app.verify``."""
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("node is not installed (Debian: apt-get install nodejs)")
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    script = ("const v = await import(process.argv[1]);"
              "const r = JSON.parse((await import('node:fs')).readFileSync(process.argv[2], 'utf8'));"
              "const c = await v.verifyRecord(r);"
              "console.log(JSON.stringify(c.map((x) => [x.name, x.ok])));")
    run = subprocess.run([node, "--input-type=module", "-e", script, "--",
                          (ROOT / "static" / "js" / "verify.js").as_uri(), str(path)],
                         capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    verdicts = dict(json.loads(run.stdout))
    python = {c.name: c.ok for c in verify.verify(record)}
    assert [name for name, ok in verdicts.items() if ok is False] == []
    assert {name: verdicts[name] for name in python if name in verdicts} == {
        name: ok for name, ok in python.items() if name in verdicts}
    assert any(name.endswith("round signature") and ok for name, ok in verdicts.items())
