"""Errors a room refuses with: a stable machine code, a sentence, and the HTTP status for the API."""

from __future__ import annotations

from typing import Any

from app.games.base import Sentence, sentence


def refusal_fields(message: str) -> dict[str, Any]:
    """The sentence of a refusal as the wire carries it: the English ``message``, and for a sentence
    made from a template the ``template`` (its catalogue id) and its ``params``, so a page formats it
    in its own language."""
    out: dict[str, Any] = {"message": str(message)}
    if isinstance(message, Sentence) and message.params:
        out["template"] = message.template
        out["params"] = message.params
    return out


class RoomError(Exception):
    def __init__(self, code: str, message: str, status: int = 400, option: str | None = None,
                 retry_after: float | None = None, **params: str | int) -> None:
        self.message = sentence(message, **params)
        super().__init__(f"{code}: {self.message}")
        self.code = code
        self.status = status
        # For a refusal by a rate limit (429): seconds until a new try may succeed.
        self.retry_after = retry_after
        # For a refused rule sheet: the option at fault, so a form can show the error beside it.
        self.option = option

    def to_json(self) -> dict[str, Any]:
        out = {"code": self.code, **refusal_fields(self.message)}
        if self.option is not None:
            out["option"] = self.option
        return out
