"""One line of a verification (``python -m app.verify``): what was checked and how it came out.
Shared by the record's checks (``app.verify``) and the receipts' (``app.receipts``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool | None  # None: not checkable yet (not revealed)
    detail: str = ""  # the value the verifier computed, or why it could not
    computed: bool = True  # whether ``detail`` is a computed value (else a reason)
