"""A player's receipts checked against a game record: ``python -m app.verify RECORD --receipts FILE``.

A record alone proves only its own consistency: a server that re-keys a game after the
contributions, writes bytes at a seat that sent none, or swaps a player's bytes can recompute every
hash of the record. The page keeps, per room, a receipt for each round it saw (``static/js/receipts.js``,
format in ``docs/fairness.md``): the commitment it was shown before the deal, the bytes it sent
and whether the server acknowledged them, and, once the round was sealed (the ``deal`` or
``fair_round`` event), which game, label and seat it was sealed as. Here each receipt that concerns
one of the record's rounds must agree with it:

- ``receipt commitment``: the round the record lists for that game and label has the commitment
  the page was shown before the deal (and that the sealing event named);
- ``receipt bytes``: the holder's seat in that round holds exactly the bytes the page sent (none
  when it sent none); a receipt that never saw its round sealed (the page was closed) needs its
  bytes somewhere in the round with its commitment.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.checks import Check

RECEIPTS_FORMAT = "houserules-receipts/1"


class NotReceipts(ValueError):
    """The file is not a receipts file this command understands."""


Round = tuple[str | None, str, Sequence[str | None], Sequence[str | None] | None]


def _rounds(record: Mapping[str, Any]) -> list[Round]:
    """The record's rounds: (label, commitment, contributions, hashes or None); the game's own
    round has label None."""
    out: list[Round] = [(None, str(record.get("commitment")), list(record.get("contributions") or []),
                         record.get("hashes"))]
    for shuffle in record.get("shuffles") or []:
        material = shuffle.get("round")
        if isinstance(material, Mapping):
            out.append((str(shuffle.get("label")), str(material.get("commitment")),
                        list(material.get("contributions") or []), material.get("hashes")))
    return out


def _well_formed(data: Any) -> list[Mapping[str, Any]]:
    if not isinstance(data, Mapping) or data.get("format") != RECEIPTS_FORMAT:
        raise NotReceipts(f"not a receipts file (expected format {RECEIPTS_FORMAT!r})")
    items = data.get("receipts")
    if not isinstance(items, list) or not all(isinstance(i, Mapping) for i in items):
        raise NotReceipts("'receipts' is a list of objects")
    for item in items:
        if not isinstance(item.get("commitment"), str):
            raise NotReceipts("every receipt names the commitment it was shown")
    return items


def _name(label: str | None) -> str:
    return "deal" if label is None else label


def check(record: Mapping[str, Any], data: Any) -> list[Check]:
    """The receipts' checks against ``record`` (see the module); raises ``NotReceipts``."""
    items = _well_formed(data)
    checks: list[Check] = []
    if data.get("room") != record.get("room"):
        return [Check("receipts: room", False, "the receipts are for another room", computed=False)]
    key, pinned = record.get("server_key"), data.get("server_key")
    if key is not None and pinned is not None:
        checks.append(Check("receipts: server key", key == pinned, str(key)))
    rounds = _rounds(record)
    game_no = record.get("game_no")
    for item in items:
        sealed = item.get("sealed") if isinstance(item.get("sealed"), Mapping) else None
        # The bytes the page sent (phase two); None when it sent none.
        sent = item.get("bytes") if item.get("sent") and isinstance(item.get("bytes"), str) else None
        if sealed is not None and sealed.get("game_no") == game_no:
            label = sealed.get("label")
            found = [r for r in rounds if r[0] == label]
            if not found:
                checks.append(Check(f"{_name(label)}: receipt commitment", False,
                                    "the record has no such round", computed=False))
                continue
            _, commitment, contributions, hashes = found[0]
            checks.append(Check(f"{_name(label)}: receipt commitment", commitment == item["commitment"],
                                commitment))
            seat = sealed.get("seat")
            if isinstance(seat, int) and not isinstance(seat, bool):
                given = contributions[seat] if 0 <= seat < len(contributions) else None
                # Sent but never acknowledged: lost on the way, or in; never someone else's.
                if sent is None or item.get("acked") or given is not None:
                    checks.append(Check(f"{_name(label)}: receipt bytes (seat {seat})", given == sent,
                                        str(given)))
                if item.get("hash_acked") and isinstance(hashes, list):
                    digest = hashes[seat] if 0 <= seat < len(hashes) else None
                    same = digest == item.get("hash")
                    checks.append(Check(f"{_name(label)}: receipt hash (seat {seat})", same, str(digest)))
            continue
        # A receipt whose round the page never saw sealed: it binds only by its commitment.
        for label, commitment, contributions, _ in rounds:
            if commitment == item["commitment"] and sent is not None and item.get("acked"):
                checks.append(Check(f"{_name(label)}: receipt bytes", sent in contributions,
                                    "the bytes this page sent are not in the round", computed=False))
    if not checks or all(c.name == "receipts: server key" for c in checks):
        checks.append(Check("receipts", None, "no receipt concerns this game's rounds"))
    return checks

