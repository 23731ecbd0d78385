"""Verify a downloaded game record: ``python -m app.verify FILE`` (``docs/fairness.md``).

The record (``GET /api/rooms/{room}/record``) holds the sheet, the commitment, the contributions,
the shuffles, the seat's dealt view and the events it saw; once the game is over, the server seed
and nonce too. The checks, each printed with ✓ or ✗:

- ``commitment``: SHA-256(server seed || nonce) is the commitment published before the deal;
- ``seed``: the shuffle seed recomputed from the server seed and the contributions in seat order;
- per later shuffle with its own round (each Hold'em hand, each Thousand deal after the first),
  ``round commitment`` and ``round seed``: the same two checks for the round's server seed, nonce
  and contributions;
- per shuffle, ``key``: its key from its round's seed (else the game's) and its label,
  ``key commitment``: SHA-256(key) is the commitment published when it was shuffled, ``deck``: the
  deck listed is the Fisher–Yates shuffle of its cards by the key;
- ``dealt``: the game, dealt from that seed by its own rules, shows this seat what the record says
  it was dealt.

Before the reveal only the opened shuffles can be checked; the rest is reported as not yet revealed.
Exit status: 0 when every check passed, 1 when one failed, 2 for a file that is not a record.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app import games
from app.games import fair

RECORD_FORMAT = "houserules-game-record/1"


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool | None  # None: not checkable yet (not revealed)
    detail: str = ""  # the value the verifier computed, or why it could not
    computed: bool = True  # whether ``detail`` is a computed value (else a reason)


class NotARecord(ValueError):
    """The file is not a game record this command understands."""


def _same(a: object, b: object) -> bool:
    return bool(json.loads(json.dumps(a)) == json.loads(json.dumps(b)))


def verify(record: Mapping[str, Any]) -> list[Check]:
    """Every check of the module's docstring, in order."""
    if not isinstance(record, Mapping) or record.get("format") != RECORD_FORMAT:
        raise NotARecord(f"not a game record (expected format {RECORD_FORMAT!r})")
    checks: list[Check] = []
    server_seed, nonce = record.get("server_seed"), record.get("nonce")
    contributions: Sequence[str | None] = record.get("contributions") or []
    seed: str | None = None
    if server_seed is None or nonce is None:
        checks.append(Check("commitment", None, "the server seed is revealed when the game is over"))
    else:
        try:
            made = fair.commitment(server_seed, nonce)
            checks.append(Check("commitment", made == record.get("commitment"), made))
            seed = fair.shuffle_seed(server_seed, contributions)
            checks.append(Check("seed", "seed" not in record or seed == record["seed"], seed))
        except ValueError as error:
            checks.append(Check("commitment", False, str(error), computed=False))
            seed = None
    for shuffle in record.get("shuffles") or []:
        label = str(shuffle.get("label"))
        key = shuffle.get("key")
        keyed_by = seed
        if isinstance(shuffle.get("round"), Mapping):
            keyed_by = _round(checks, label, shuffle["round"])
        if keyed_by is not None:
            expected = fair.shuffle_key(keyed_by, label)
            checks.append(Check(f"{label}: key", key is None or key == expected, expected))
            key = expected
        if key is None:
            checks.append(Check(f"{label}: deck", None, "its key is published when its cards may be known"))
            continue
        try:
            matches = fair.key_commitment(key) == shuffle.get("commitment")
            checks.append(Check(f"{label}: key commitment", matches))
            deck = fair.shuffle_with_key(key, shuffle.get("cards") or [])
        except ValueError as error:
            checks.append(Check(f"{label}: key commitment", False, str(error), computed=False))
            continue
        checks.append(Check(f"{label}: deck", "deck" not in shuffle or deck == shuffle["deck"],
                            " ".join(deck)))
    checks.append(_dealt(record, seed))
    return checks


def _round(checks: list[Check], label: str, material: Mapping[str, Any]) -> str | None:
    """A later shuffle's own round (a Hold'em hand, a Thousand deal): its commitment and seed, as
    the game's; the seed keying the shuffle, or ``None`` before the round's reveal."""
    server_seed, nonce = material.get("server_seed"), material.get("nonce")
    if server_seed is None or nonce is None:
        reason = "its server seed is revealed when its cards may be known"
        checks.append(Check(f"{label}: round", None, reason))
        return None
    try:
        made = fair.commitment(server_seed, nonce)
        checks.append(Check(f"{label}: round commitment", made == material.get("commitment"), made))
        seed = fair.shuffle_seed(server_seed, material.get("contributions") or [])
    except ValueError as error:
        checks.append(Check(f"{label}: round commitment", False, str(error), computed=False))
        return None
    checks.append(Check(f"{label}: round seed", "seed" not in material or seed == material["seed"], seed))
    return seed


def _dealt(record: Mapping[str, Any], seed: str | None) -> Check:
    if seed is None:
        return Check("dealt", None, "checked against the game's rules once the seed is revealed")
    try:
        game = games.get(str(record["game"]))
        sheet = game.sheet(record["sheet"])
        state = game.new(sheet, int(record["players"]), seed=seed)
        return Check("dealt", _same(game.view(state, record.get("seat")), record.get("dealt_view")))
    except Exception as error:  # a record naming no known game or an impossible sheet
        return Check("dealt", False, f"{type(error).__name__}: {error}", computed=False)


def passed(checks: Sequence[Check]) -> bool:
    """No check failed (checks not yet possible do not fail)."""
    return all(check.ok is not False for check in checks)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m app.verify FILE  (a record from /api/rooms/ROOM/record)", file=sys.stderr)
        return 2
    try:
        with open(args[0], encoding="utf-8") as handle:
            record = json.load(handle)
        checks = verify(record)
    except (OSError, ValueError) as error:
        print(f"{args[0]}: {error}", file=sys.stderr)
        return 2
    print(f"{record['game']} game {record.get('game_no')}, seen by "
          f"{'a spectator' if record.get('seat') is None else 'seat ' + str(record['seat'] + 1)}")
    for check in checks:
        mark = {True: "✓", False: "✗", None: "·"}[check.ok]
        note = ""
        if check.detail and check.ok is False and check.computed:
            note = f"  (recomputed: {check.detail})"
        elif check.detail and check.ok is not True:
            note = f"  ({check.detail})"
        print(f"{mark} {check.name}{note}")
    ok = passed(checks)
    print("verified" if ok else "NOT verified")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
