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
  it was dealt;
- with the record's ``server_key``, ``signature`` and per later round ``round signature``: the
  server's Ed25519 signature on each sealed round (commitment and contributions, ``app/signing.py``).

Before the reveal only the opened shuffles can be checked; the rest is reported as not yet revealed.
A record alone proves only its own consistency: ``--receipts FILE`` (the receipts the page kept,
``app/receipts.py``) ties it to the commitments the player was shown before the deal and to the
player's own bytes. Seats are numbered from 0, as in the record and the deal events.
Exit status: 0 when every check passed, 1 when one failed, 2 for a usage error or a file that is
not a record (``python -m app.verify --help``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from app import receipts, registry, signing
from app.checks import Check
from app.games import fair

RECORD_FORMAT = "houserules-game-record/1"


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
    if record.get("hashes") is not None:
        checks.append(_hashes("hashes", record))
    key_hex = record.get("server_key")
    if key_hex is not None:
        checks.append(_signed("signature", record, None, record))
    sealed_as: dict[str, str] = {}  # a round's commitment -> the label it was sealed for
    for shuffle in record.get("shuffles") or []:
        label = str(shuffle.get("label"))
        key = shuffle.get("key")
        keyed_by = seed
        if isinstance(shuffle.get("round"), Mapping):
            if shuffle["round"].get("hashes") is not None:
                checks.append(_hashes(f"{label}: round hashes", shuffle["round"]))
            # A round keys every shuffle up to the next one (a Thousand redeal in the same move as
            # its deal shares the deal's round): it was sealed, and signed, for the first of them.
            first = sealed_as.setdefault(str(shuffle["round"].get("commitment")), label)
            if key_hex is not None:
                checks.append(_signed(f"{label}: round signature", record, first, shuffle["round"]))
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


def _hashes(name: str, material: Mapping[str, Any]) -> Check:
    """Two-phase contributions: every contribution is the bytes whose SHA-256 its seat sent before
    the round's hashes were sealed (a seat with bytes and no hash, or other bytes, fails)."""
    hashes, given = material.get("hashes"), material.get("contributions") or []
    if not isinstance(hashes, list) or len(hashes) != len(given):
        return Check(name, False, "one hash per seat", computed=False)
    for seat, (digest, value) in enumerate(zip(hashes, given, strict=True)):
        if value is None:
            continue
        try:  # 32 bytes, hex digits only: as the page reads them
            raw = fair.hex_bytes(value, fair.CONTRIBUTION_BYTES, "a contribution")
            made = hashlib.sha256(raw).hexdigest()
        except ValueError:
            made = ""
        if made != digest:
            return Check(name, False, f"seat {seat}'s bytes are not those of its hash", computed=False)
    return Check(name, True)


def _signed(name: str, record: Mapping[str, Any], label: str | None, material: Mapping[str, Any]) -> Check:
    """The server's signature on a sealed round (``app/signing.py``) by the record's
    ``server_key``: a record proves with it only that this key sealed this round; which key is the
    server's, the receipts (or ``/api/fairness/key`` seen before) tell."""
    signature = material.get("signature")
    if signature is None:
        return Check(name, None, "this round was sealed unsigned", computed=False)
    try:
        given, hashes = list(material.get("contributions") or []), list(material.get("hashes") or [])
        message = signing.round_message(str(record.get("room")), int(record.get("game_no") or 0), label,
                                        str(material.get("commitment")), given, hashes)
    except (TypeError, ValueError) as error:
        return Check(name, False, str(error), computed=False)
    return Check(name, signing.valid(record.get("server_key"), message, signature),
                 "not the server key's signature", computed=False)


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
        game = registry.get(str(record["game"]))
        sheet = game.sheet(record["sheet"])
        state = game.new(sheet, int(record["players"]), seed=seed)
        return Check("dealt", _same(game.view(state, record.get("seat")), record.get("dealt_view")))
    except Exception as error:  # a record naming no known game or an impossible sheet
        return Check("dealt", False, f"{type(error).__name__}: {error}", computed=False)


def passed(checks: Sequence[Check]) -> bool:
    """No check failed (checks not yet possible do not fail)."""
    return all(check.ok is not False for check in checks)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m app.verify",
        description="Check a Houserules game record (GET /api/rooms/ROOM/record): the commitment, "
                    "the shuffle seeds, each shuffle key and deck, and the dealt cards. With --receipts, "
                    "also that the record's rounds are those this browser was shown before the deal "
                    "and that its own bytes are in them (docs/fairness.md).",
        epilog="Exit status: 0 verified, 1 a check failed, 2 usage error or a file that is not a "
               "record (or not receipts). Seats are numbered from 0, as in the record.")
    parser.add_argument("record", metavar="RECORD", help="the game record (JSON)")
    parser.add_argument("--receipts", metavar="FILE",
                        help="the receipts the page kept for this room (JSON, \"Download receipts\")")
    return parser


def _load(path: str) -> Any:
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as leaving:  # --help (0) or a usage error (2)
        return int(leaving.code or 0)
    try:
        record = _load(args.record)
        checks = verify(record)
    except (OSError, ValueError) as error:
        print(f"{args.record}: {error}", file=sys.stderr)
        return 2
    if args.receipts is not None:
        try:
            checks.extend(receipts.check(record, _load(args.receipts)))
        except (OSError, ValueError) as error:
            print(f"{args.receipts}: {error}", file=sys.stderr)
            return 2
    seat = record.get("seat")
    print(f"{record['game']} game {record.get('game_no')}, seen by "
          f"{'a spectator' if seat is None else 'seat ' + str(seat)}")
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
