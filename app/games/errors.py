"""Refusals: a move or a rule sheet the rules do not accept, with its sentence for people.

Apart from ``base`` so that the pieces ``base`` itself uses (``fair``) can refuse without importing it.
"""

from __future__ import annotations


class Sentence(str):
    """A refusal's sentence that remembers how it was made: ``template`` is its message id in the
    catalogues ("The call is {pay}."), ``params`` the values put into it. It reads as the English
    sentence wherever a ``str`` is expected; the server sends the template and the values beside it
    so a page formats the refusal in its own language from the catalogue."""

    template: str
    params: dict[str, str | int]

    def __new__(cls, template: str, **params: str | int) -> Sentence:
        made = super().__new__(cls, template.format(**params) if params else template)
        made.template = template
        made.params = dict(params)
        return made


def sentence(message: str, **params: str | int) -> Sentence:
    """``message`` as a ``Sentence`` (a ``Sentence`` already stays as it is)."""
    if isinstance(message, Sentence) and not params:
        return message
    return Sentence(message, **params)


class IllegalAction(Exception):
    """A move or input the rules refuse. ``code`` is stable for machines, ``message`` is for people.

    ``message`` is a catalogue message id with ``{name}`` placeholders filled from ``params``
    (``IllegalAction("bad_amount", "The call is {pay}.", pay=40)``), never an f-string: the page
    formats the refusal from the catalogue by the template and the values.
    A message never names a card the acting seat may not see.
    """

    def __init__(self, code: str, message: str, **params: str | int) -> None:
        self.code = code
        self.message = sentence(message, **params)
        super().__init__(f"{code}: {self.message}")


class InvalidSheet(IllegalAction):
    """A rule sheet that cannot be played; ``option`` names the offending option (or ``None``)."""

    def __init__(self, option: str | None, message: str, **params: str | int) -> None:
        super().__init__("invalid_sheet", message, **params)
        self.option = option
