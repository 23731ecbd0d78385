"""How the rule-sheet form lays out a game's options, kept apart from the options themselves.

The engines' rule sheets say what an option is (type, default, bounds, a one-line description in
three languages). This table says where the form shows it: its topic group, its order there, whether
it is one of the few essentials a host sees before "More house rules", a short label, and when it
applies at all ("shown when" other options hold certain values). ``with_layout`` merges it into a
game's JSON schema as ``x-`` extras, so the browser's form stays generated from the schema and a new
option with no entry here still renders (group ``other``, after the rest).

Each game declares its own table (``Game.form_layout``: ``app/games/<game>/layout.py``); this module
holds what they share: the groups, the shared options' places (``COMMON``) and the merge.

Descriptions lose their rule-id tags ("(H16)", "(P1: …)") for the visible text; the ids move to
``x-rules`` for tooltips and the printable sheet's notes. A tag is a rule letter of a registered
game (``Game.rule_letter``) and a number: the letters are the caller's (``with_layout``).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

GROUPS: tuple[str, ...] = ("dealing", "playing", "special_cards", "scoring", "timers", "chips", "other")

# Labels and help are English here; the catalogues (locale/, contexts "rule-sheet label" and
# "rule-sheet help") give each its Estonian and Finnish text, found by the English.
Label = str
ShownWhen = Mapping[str, Any]  # option -> list of values it must hold, or {"not": [values]}


@dataclass(frozen=True)
class Placement:
    group: str
    order: int
    label: Label
    essential: bool = False
    shown_when: ShownWhen | None = None
    # Values offered as a list before "custom…" (a timer's off / 15 s / 30 s / 60 s).
    choices: tuple[int, ...] = ()
    # This game's own help for a shared option, in place of the option's general one.
    help: str | None = None


@dataclass(frozen=True)
class GameLayout:
    """``seat_option`` is the sheet's own player count, which the form sets from the room's seats:
    ``most`` (a table for up to that many) or ``exact`` (a game for exactly that many)."""

    seat_option: str
    seat_role: Literal["most", "exact"]
    options: Mapping[str, Placement] = field(default_factory=dict)
    # The order of the essentials on the form (after the turn timer); unlisted essentials follow.
    essentials: tuple[str, ...] = ()
    # Shared options that mean nothing in this game (no optional decisions in Palace): never shown.
    hidden: tuple[str, ...] = ()
    # Extra schema keys merged into an option as they are (Hold'em's blind structures for ``levels``).
    extras: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)


def place(
    group: str,
    order: int,
    en: str,
    *,
    essential: bool = False,
    shown_when: ShownWhen | None = None,
    choices: tuple[int, ...] = (),
    help: str | None = None,
) -> Placement:
    """An option's place on the form: its group, its order there and its short English label."""
    return Placement(group, order, en, essential, shown_when, choices, help)


def decision_timer(help: str) -> Placement:
    """The decision timer with one game's own help: which optional choices it times."""
    base = COMMON["decision_timer_seconds"]
    return Placement(base.group, base.order, base.label, help=help)


COMMON: dict[str, Placement] = {
    "turn_timer_seconds": place(
        "timers",
        0,
        "Turn timer",
        essential=True,
        choices=(0, 15, 30, 60),
    ),
    "time_bank_seconds": place(
        "timers",
        1,
        "Time bank (extra seconds per player)",
    ),
    "decision_timer_seconds": place(
        "timers",
        2,
        "Time for an optional choice (seconds, 0 = waits)",
    ),
    "bot_takeover_seconds": place(
        "timers",
        3,
        "A bot plays for a dropped player after (seconds, 0 = never)",
    ),
}


def _rule_patterns(letters: str) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The tag patterns for rule ids with these letters: "(P1)", "[H4, H6]", "(T2–T4)", "(P1: …".

    ``letters`` is never empty (a sheet always cites its own game's letter)."""
    tag = f"[{re.escape(letters)}]"
    return (
        re.compile(rf"\s*[\(\[]({tag}\d+(?:\s*[–,-]\s*{tag}?\d+)*)[\)\]]"),
        re.compile(rf"\(({tag}\d+(?:[–-]{tag}?\d+)?):\s*"),
        re.compile(rf"\b{tag}\d+\b"),
    )


def strip_rule_ids(text: str, letters: str) -> tuple[str, list[str]]:
    """A description without its rule-id tags (ids of the games whose ``letters`` are given), and
    the ids it named."""
    only, lead, rule_id = _rule_patterns(letters)
    ids: list[str] = []
    for match in list(only.finditer(text)) + list(lead.finditer(text)):
        ids.extend(rule_id.findall(match.group(1)))
    text = lead.sub("(", only.sub("", text))
    return text.strip(), list(dict.fromkeys(ids))


def placement_of(layout: GameLayout | None, option: str) -> Placement | None:
    """Where ``layout`` (with the options every game shares) puts ``option``, if anywhere."""
    if layout is not None and option in layout.options:
        return layout.options[option]
    return COMMON.get(option)


def missing_placements(layout: GameLayout | None, schema: Mapping[str, Any]) -> list[str]:
    """Options of the schema that ``layout`` does not place (they render in group ``other``)."""
    placed = {**COMMON, **(layout.options if layout else {})}
    return [name for name in schema.get("properties", {}) if name not in placed]


def with_layout(layout: GameLayout | None, schema: Mapping[str, Any], letters: str) -> dict[str, Any]:
    """``schema`` with the form's extras merged into each property (a copy; the input is unchanged),
    its descriptions without the rule-id tags of ``letters``."""
    out: dict[str, Any] = copy.deepcopy(dict(schema))
    placed = {**COMMON, **(layout.options if layout else {})}
    if layout is not None:
        out["x-seats"] = {"option": layout.seat_option, "role": layout.seat_role}
    out["x-groups"] = list(GROUPS)
    for position, (name, prop) in enumerate(out.get("properties", {}).items()):
        rules: list[str] = []
        if "description" in prop:
            prop["description"], found = strip_rule_ids(prop["description"], letters)
            rules.extend(found)
        prop["x-rules"] = list(dict.fromkeys(rules))
        placement = placed.get(name)
        if layout is not None and name in layout.hidden:
            prop["x-hidden"] = True
        if placement is not None and placement.help is not None:
            prop["description"] = placement.help
        if layout is not None and name in layout.extras:
            prop.update(copy.deepcopy(dict(layout.extras[name])))
        if placement is None:
            prop.update({"x-group": "other", "x-order": 1000 + position, "x-essential": False})
            continue
        essentials = ("turn_timer_seconds", *(layout.essentials if layout else ()))
        prop.update(
            {
                "x-group": placement.group,
                "x-order": placement.order,
                "x-essential": placement.essential,
                "x-essential-order": essentials.index(name)
                if name in essentials
                else len(essentials) + position,
                "x-label": placement.label,
            }
        )
        if placement.choices:
            prop["x-choices"] = list(placement.choices)
        if placement.shown_when:
            prop["x-shown-when"] = {key: value for key, value in placement.shown_when.items()}
    return out
