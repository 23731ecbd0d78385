"""Errors a room refuses with: a stable machine code, a sentence, and the HTTP status for the API."""

from __future__ import annotations


class RoomError(Exception):
    def __init__(self, code: str, message: str, status: int = 400, option: str | None = None,
                 retry_after: float | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status
        # For a refusal by a rate limit (429): seconds until a new try may succeed.
        self.retry_after = retry_after
        # For a refused rule sheet: the option at fault, so a form can show the error beside it.
        self.option = option

    def to_json(self) -> dict[str, str]:
        out = {"code": self.code, "message": self.message}
        if self.option is not None:
            out["option"] = self.option
        return out
