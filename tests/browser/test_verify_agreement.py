"""The browser's verifier (static/js/verify.js, Web Crypto in Chromium) and ``app.verify`` agree.

Hundreds of records of each game are made the way the room makes them (``Fairness.seal`` for the
seeds and contributions, ``Fairness.seal_round`` and ``reseed`` for each later hand or deal, the
game played by bots from that seed, ``build_record`` for the seat's record), stopped at random
points so that some are revealed and some not, and about half of them changed in one place (a
contribution, the server seed, the nonce, a key, a card of a deck, a commitment, a round's). Both
verifiers must give the same verdict on every check they share.
"""

from __future__ import annotations

import copy
import hashlib
import random
from typing import Any, cast

import pytest

from app import verify
from app.bots.arena import bot, play
from app.registry import get as game_of
from app.rooms.fairness import Fairness, build_record
from app.signing import Signer
from app.store.queries import LogEntry
from tests.browser.conftest import Player

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

PER_GAME = 200
KINDS = [
    ("palace", "palace", {}, (2, 3, 4)),
    ("palace", "hiina-turakas", {}, (2, 5)),
    ("thousand", "tuhat", {"target_score": 100}, (3,)),
    ("holdem", "cash-nl-1-2", {"max_hands": 4, "buy_in_min": 20, "buy_in_max": 100, "buy_in_default": 40,
                               "straddle": "off"}, (2, 3, 4)),
]


ROOM = "agreement-room"
SIGNER = Signer(Signer.new_private_hex())


def give(fair: Fairness, members: list[int], rng: random.Random) -> None:
    """Some members send a hash and most of those their bytes after the hashes are sealed
    (two phases, docs/fairness.md step 3): a seat may withhold or not reveal."""
    values = {m: f"{rng.getrandbits(256):064x}" for m in members if rng.random() < 0.8}
    commitment = fair.pending.commitment
    for member, value in values.items():
        fair.offer(member, commitment, hashlib.sha256(bytes.fromhex(value)).hexdigest())
    fair.freeze()
    for member, value in values.items():
        if rng.random() < 0.85:
            fair.contribute(member, commitment, value)


def make_record(rng: random.Random, name: str, preset: str, options: dict[str, Any],
                players: int) -> dict[str, Any]:
    game = game_of(name)
    sheet = game.sheet(options, preset=preset)
    fair = Fairness(ROOM, SIGNER if rng.random() < 0.8 else None)
    members = list(range(100, 100 + players))
    give(fair, members, rng)
    sealed = fair.seal(members, 1)
    action = {"seed": sealed.seed, "players": players, "fair": sealed.to_action()}
    deal = LogEntry(1, 1, "deal", None, action, [])
    cut = rng.choice([None, None, rng.randrange(1, 60)])
    played = Reseeding(game, fair, members, rng) if game.reseeds else game
    state = play(cast(Any, played), sheet, [bot("easy")] * players, sealed.seed,
                 stop=None if cut is None else _stop_after(cut)).state
    seat = rng.choice([None, *range(players)])
    record = build_record(game, sheet, deal, state, seat, [])
    record["room"] = ROOM
    if fair.signer is not None:
        record["server_key"] = SIGNER.public_hex
    return record


class Reseeding:
    """The game as the room plays one that deals more than once: a move that makes a new shuffle
    is made again after a ``reseed`` with the next round (``Room._seal_rounds``), some members
    having contributed to it."""

    def __init__(self, game: Any, fair: Fairness, members: list[int], rng: random.Random) -> None:
        self.game, self.fair, self.members, self.rng = game, fair, members, rng

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def apply(self, state: Any, seat: int, action: Any) -> Any:
        after = self.game.apply(state, seat, action)
        if self.game.shuffle_count(after[0]) == self.game.shuffle_count(state):
            return after
        give(self.fair, self.members, self.rng)
        labels = [s.label for s in self.game.shuffles(after[0], self.game.shuffle_count(state))]
        sealed = self.fair.seal_round(self.members, 1, labels[0] if labels else None)
        reseed = {"type": "reseed", "seed": sealed.seed, "fair": sealed.to_action()}
        state, _ = self.game.apply(state, 0, reseed)
        return self.game.apply(state, seat, action)


def _stop_after(moves: int) -> Any:
    count = [0]

    def stop(_: Any) -> bool:
        count[0] += 1
        return count[0] > moves

    return stop


def tamper(rng: random.Random, record: dict[str, Any]) -> dict[str, Any]:
    bad = copy.deepcopy(record)
    choices = ["contribution", "commitment", "hash", "signature"]
    if "server_seed" in bad:
        choices += ["server_seed", "nonce", "seed"]
    opened = [s for s in bad["shuffles"] if "deck" in s]
    if opened:
        choices += ["key", "deck", "key_commitment"]
    rounds = [s["round"] for s in bad["shuffles"] if "server_seed" in s.get("round", {})]
    if rounds:
        choices += ["round_contribution", "round_server_seed", "round_commitment"]
    what = rng.choice(choices)
    if what in ("hash", "signature"):
        material = rng.choice([bad, *[s["round"] for s in bad["shuffles"] if "round" in s]])
        if what == "signature" and material.get("signature"):
            raw = bytearray.fromhex(material["signature"])
            raw[rng.randrange(64)] ^= 1 << rng.randrange(8)
            material["signature"] = raw.hex()
        elif what == "hash" and material.get("hashes"):
            index = rng.randrange(len(material["hashes"]))
            material["hashes"][index] = None if material["hashes"][index] else f"{rng.getrandbits(256):064x}"
        else:
            material["contributions"] = list(reversed(material["contributions"]))
    elif what.startswith("round_"):
        chosen = rng.choice(rounds)
        if what == "round_contribution":
            index = rng.randrange(len(chosen["contributions"]))
            given = chosen["contributions"][index]
            chosen["contributions"][index] = None if given else f"{rng.getrandbits(256):064x}"
        else:
            field = what.removeprefix("round_")
            chosen[field] = hashlib.sha256(chosen[field].encode()).hexdigest()
    elif what == "contribution":
        index = rng.randrange(len(bad["contributions"]))
        bad["contributions"][index] = None if bad["contributions"][index] else f"{rng.getrandbits(256):064x}"
    elif what in ("commitment", "server_seed", "seed"):
        bad[what] = hashlib.sha256(bad[what].encode()).hexdigest()
    elif what == "nonce":
        bad["nonce"] = f"{rng.getrandbits(128):032x}"
    else:
        shuffle = rng.choice(opened)
        if what == "key":
            shuffle["key"] = f"{rng.getrandbits(256):064x}"
        elif what == "key_commitment":
            shuffle["commitment"] = f"{rng.getrandbits(256):064x}"
        else:
            deck = shuffle["deck"]
            i = rng.randrange(len(deck))
            j = next(k for k in range(len(deck)) if deck[k] != deck[i])
            deck[i], deck[j] = deck[j], deck[i]
    return bad


def python_verdicts(record: dict[str, Any]) -> list[list[Any]]:
    return [[c.name, c.ok] for c in verify.verify(record) if c.name != "dealt"]


RUN_JS = """async (records) => {
  const verifier = await import("/static/js/verify.js");
  const out = [];
  for (const record of records) {
    const checks = await verifier.verifyRecord(record);
    out.push(checks.map((c) => [c.name, c.ok]));
  }
  return out;
}"""


def test_browser_and_python_verifiers_agree(people: Any, server: str) -> None:
    rng = random.Random(15)
    records: list[dict[str, Any]] = []
    for name, preset, options, counts in KINDS:
        per_kind = PER_GAME // sum(1 for k in KINDS if k[0] == name)
        for _ in range(per_kind):
            record = make_record(rng, name, preset, options, rng.choice(counts))
            records.append(tamper(rng, record) if rng.random() < 0.5 else record)
    # Malformed fields read the same way by both: upper-case hex is hex, spaces and short keys are not.
    revealed = next(r for r in records if "server_seed" in r and "deck" in r["shuffles"][0])
    odd = [copy.deepcopy(revealed) for _ in range(3)]
    odd[0]["server_seed"] = odd[0]["server_seed"].upper()
    odd[1]["contributions"][0] = "aa " * 21 + "a"
    odd[2]["shuffles"][0]["key"] = "ab" * 31
    odd[2].pop("server_seed")
    records.extend(odd)
    player: Player = people()
    player.page.goto("/")
    js = player.page.evaluate(RUN_JS, records)
    python = [python_verdicts(r) for r in records]
    assert len(js) == len(python) == len(records)
    for index, (ours, theirs) in enumerate(zip(python, js, strict=True)):
        assert ours == theirs, f"record {index} ({records[index]['game']}): python {ours} browser {theirs}"
    # The mix holds revealed, unrevealed, passing and failing records of every game.
    outcomes = {(r["game"], "server_seed" in r, verify.passed(verify.verify(r))) for r in records}
    for name in ("palace", "thousand", "holdem"):
        assert {(name, True, True), (name, True, False)} <= outcomes, outcomes
    assert any(not revealed for _, revealed, _ in outcomes)
    # Later hands' and deals' own rounds are among them, revealed and checked by both.
    for name in ("thousand", "holdem"):
        assert any(r["game"] == name and any("server_seed" in s.get("round", {}) for s in r["shuffles"])
                   for r in records), name
    assert any(name.endswith("round seed") for verdicts in python for name, _ in verdicts)
    # Signed rounds (Ed25519 by Web Crypto in the page) and two-phase hashes, passing and failing.
    seen = {(name.rsplit(": ", 1)[-1], ok) for verdicts in python for name, ok in verdicts}
    for name in ("signature", "round signature", "hashes", "round hashes"):
        assert {(name, True), (name, False)} <= seen, name
