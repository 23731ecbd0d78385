"""Every event of every game reads as a sentence in en, et and fi: the page's own log wording
(static/js/eventlog.js with each game's table module), run in Chromium on events from random games
and on every kind the engines' code emits. No event may reach the generic "<type in words>" line."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from app import registry
from tests.browser.conftest import Player
from tests.browser.event_samples import game_kinds, playout_events, room_kinds, room_samples

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

NAMES = ["Juhani", "Kati", "Mari", "Tõnu"]
# Data for a kind no random game reached: the fields the engines' events carry, each filled.
GENERIC = {
    "seat": 1,
    "seats": [2],
    "cards": ["Ah", "Kd"],
    "card": "Qs",
    "nine": "9h",
    "colour": "red",
    "amount": 40,
    "to": 120,
    "value": 120,
    "count": 2,
    "buy_in": 100,
    "post": False,
    "button": 0,
    "players": 3,
    "run_twice": True,
    "small_blind": 10,
    "big_blind": 20,
    "ante": 0,
    "level": 2,
    "hand": 3,
    "winner": 0,
    "points": [0, 100, 0],
    "guesses": {"1": "red"},
    "version": 1,
}
# What a fallback or a broken template leaves in a line.
BROKEN = re.compile(r"undefined|NaN|null|\[object|\{\w+\}|\b[a-z]+_[a-z_]+\b")

WORDING = """async (samples) => {
  const { eventText } = await import("/static/js/eventlog.js");
  const { TABLES } = await import("/static/js/tables/index.js");
  const names = NAMES;
  const seatName = (seat) => (seat === null || seat === undefined
    ? "Spectator" : names[seat] || `Seat ${seat + 1}`);
  const out = [];
  for (const [game, events] of Object.entries(samples)) {
    const module = await TABLES[game]();
    for (const event of events) out.push({ game, event, ...eventText(event, module, seatName) });
  }
  return out;
}""".replace("NAMES", json.dumps(NAMES))


def all_samples() -> dict[str, list[dict[str, Any]]]:
    samples: dict[str, list[dict[str, Any]]] = {}
    for name in registry.GAMES:
        played = playout_events(name)
        rows = [row for bucket in played.values() for row in bucket]
        for kind in sorted(game_kinds(name) - set(played)):
            rows.append({**GENERIC, "type": kind})
        rows += room_samples(NAMES[:3])
        samples[name] = rows
    return samples


def test_the_samples_cover_every_kind_the_code_emits() -> None:
    samples = all_samples()
    for name in registry.GAMES:
        kinds = {row["type"] for row in samples[name]}
        assert game_kinds(name) | room_kinds() <= kinds
        # The playouts reach most kinds with real data (a broken playout would leave only GENERIC).
        assert len(set(playout_events(name))) >= len(game_kinds(name)) * 2 // 3, name


@pytest.mark.parametrize("lang", ["en", "et", "fi"])
def test_every_event_of_every_game_is_worded(people: Callable[..., Player], server: str, lang: str) -> None:
    player = people(lang=lang)
    player.page.goto("/")
    player.page.wait_for_selector("#create-fields:not([hidden])")
    lines = player.page.evaluate(WORDING, all_samples())
    assert len(lines) > 60
    fallbacks = sorted({f"{line['game']}: {line['event']['type']}" for line in lines if not line["worded"]})
    assert not fallbacks, f"{lang}: events without their own wording: {fallbacks}"
    broken = sorted(
        {
            f"{line['game']}: {line['event']['type']}: {line['text']!r}"
            for line in lines
            if BROKEN.search(line["text"]) or not line["text"].strip()
        }
    )
    assert not broken, f"{lang}: lines with holes: {broken}"
    # The tournament's end names its winner, and an elimination the players who are out, not the
    # mover whose move ended the hand.
    ends = [
        x for x in lines if x["event"]["type"] == "tournament_over" and x["event"].get("winner") is not None
    ]
    for line in ends:
        assert NAMES[line["event"]["winner"]] in line["text"], line
    for line in (x for x in lines if x["event"]["type"] == "eliminated"):
        out = [NAMES[s] for s in line["event"]["seats"]]
        assert all(name in line["text"] for name in out), line
        mover = NAMES[line["event"]["seat"]] if line["event"]["seat"] is not None else None
        assert mover in out or mover not in line["text"], line
