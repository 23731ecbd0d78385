"""What the rule-sheet form is told when a sheet's option does not validate: pydantic's problem as
a sentence of the catalogue (its template an id of the refusal texts, ``tests/web``)."""

from __future__ import annotations

from collections.abc import Callable

from pydantic import ValidationError

from app.games.errors import Sentence

# Sentences for pydantic's error types that a rule-sheet form can meet, with the context values
# they name (catalogue ids); any other type reads as the generic sentence. ``{label}`` is the
# option's English label (the page shows its own language's, context "rule-sheet label"), ``key``
# the option itself, by which the page finds the field.
SHEET_PROBLEMS = {
    "extra_forbidden": ("Unknown option '{key}'.", ()),
    "greater_than_equal": ("“{label}”: at least {ge}.", ("ge",)),
    "less_than_equal": ("“{label}”: at most {le}.", ("le",)),
    "greater_than": ("“{label}”: more than {gt}.", ("gt",)),
    "less_than": ("“{label}”: less than {lt}.", ("lt",)),
    "int_type": ("“{label}”: a whole number.", ()),
    "int_parsing": ("“{label}”: a whole number.", ()),
    "int_from_float": ("“{label}”: a whole number.", ()),
    "bool_type": ("“{label}”: yes or no.", ()),
    "bool_parsing": ("“{label}”: yes or no.", ()),
    "literal_error": ("“{label}”: not one of its choices.", ()),
    "enum": ("“{label}”: not one of its choices.", ()),
    "too_short": ("“{label}”: too few entries.", ()),
    "too_long": ("“{label}”: too many entries.", ()),
}
SHEET_PROBLEM_OTHER = "“{label}”: invalid value."


def sheet_error_message(error: ValidationError, label: Callable[[str], str] = str
                        ) -> tuple[str | None, Sentence]:
    """The first problem of a pydantic error as (option, sentence); ``label`` gives an option's
    English label."""
    first = error.errors()[0]
    loc = ".".join(str(part) for part in first.get("loc", ())) or None
    template, names = SHEET_PROBLEMS.get(first.get("type", ""), (SHEET_PROBLEM_OTHER, ()))
    context = first.get("ctx") or {}
    key = str(loc)[:64]
    params: dict[str, str | int] = {"key": key}
    if "{label}" in template:
        params["label"] = label(key)
    for name in names:
        value = context.get(name)
        params[name] = value if isinstance(value, int) and not isinstance(value, bool) else str(value)
    return loc, Sentence(template, **params)
