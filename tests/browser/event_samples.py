"""Every kind of event a game or a room sends to a page, with real data where a random playout
reaches it: the kinds are read from the engines' and the room's code (so a new event is noticed even
before a playout meets it), the data comes from random games played through the game contract."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from app import registry
from app.games.base import IllegalAction

ROOT = Path(__file__).resolve().parents[2]

# Event("kind", …), event("kind", …), m.emit("kind", …), _public("kind", …), {"type": "kind", …},
# and the kinds chosen by a condition: "bet" if … else "raise".
EMITTED = re.compile(
    r"""(?:\bEvent|\bevent|\bemit|_public)\(\s*"([a-z_]+)"|\{"type":\s*"([a-z_]+)",\s*"data\""""
)
CHOSEN = re.compile(r"""\b(?:kind|event)\s*\(?\s*=?\s*"([a-z_]+)"\s+if\s+[^\n]*?\s+else\s+"([a-z_]+)\"""")
# Room events that are the room's own (fair deal, result, a deal) rather than a game's.
ROOM_SOURCES = ("app/rooms/room.py", "app/rooms/fairness.py")


def kinds_in(paths: list[Path]) -> set[str]:
    found: set[str] = set()
    for path in paths:
        text = path.read_text(encoding="utf-8")
        for groups in EMITTED.findall(text):
            found |= {g for g in groups if g}
        for groups in CHOSEN.findall(text):
            found |= set(groups)
    return found


def game_kinds(name: str) -> set[str]:
    return kinds_in(sorted((ROOT / "app" / "games" / name).glob("*.py")))


def room_kinds() -> set[str]:
    # Messages of the socket ("kicked", "contributed", …) are not log events: only rows with data.
    return kinds_in([ROOT / path for path in ROOM_SOURCES])


def _concrete(action: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    if "min" in action and "max" in action:
        value = rng.choice([action["min"], action["max"], rng.randint(action["min"], action["max"])])
        key = "amount" if action["type"] in ("rebuy", "top_up") else "to"
        return {"type": action["type"], key: value}
    return dict(action)


def playout_events(
    name: str, *, games_per_sheet: int = 2, steps: int = 1500
) -> dict[str, list[dict[str, Any]]]:
    """Events by kind, as the room sends them (the mover's seat first, the event's data over it),
    from random games of every preset of game ``name``."""
    game = registry.GAMES[name]
    samples: dict[str, list[dict[str, Any]]] = {}
    for preset in game.presets:
        sheet = game.sheet(preset=preset)
        seats = max(sheet.min_players(), min(sheet.max_players(), 4))
        for number in range(games_per_sheet):
            rng = random.Random(f"{name}-{preset}-{number}")
            state = game.new(sheet, seats, seed=f"words-{name}-{preset}-{number}")
            for _ in range(steps):
                if game.outcome(state) is not None:
                    break
                actors = game.to_act(state)
                moves: list[tuple[int, dict[str, Any]]] = []
                for seat in actors:
                    moves += [(seat, a) for a in game.legal_actions(state, seat)]
                if not moves or rng.random() < 0.03:
                    for seat in range(seats):
                        moves += [(seat, a) for a in game.table_actions(state, seat)]
                if not moves:
                    break
                seat, action = rng.choice(moves)
                try:
                    state, events = game.apply(state, seat, _concrete(action, rng))
                except IllegalAction:
                    continue
                for event in events:
                    row = {"seat": seat, **dict(event.data), "version": 1, "type": event.type}
                    bucket = samples.setdefault(event.type, [])
                    if len(bucket) < 4:
                        bucket.append(row)
    return samples


def room_samples(players: list[str]) -> list[dict[str, Any]]:
    """The room's own events, shaped as room.py and fairness.py write them."""
    return [
        {"seat": None, "type": "deal", "game_no": 1, "players": len(players), "version": 1},
        {
            "seat": 0,
            "type": "game_result",
            "game_no": 1,
            "winners": players[:1],
            "losers": players[-1:],
            "players": players,
            "version": 2,
        },
        {
            "seat": 1,
            "type": "game_result",
            "game_no": 2,
            "winners": players[:2],
            "losers": [],
            "players": players,
            "version": 3,
        },
        {
            "seat": None,
            "type": "shuffle_commitment",
            "game_no": 1,
            "label": "deal-1",
            "commitment": "ab" * 32,
            "version": 1,
        },
        {"seat": 0, "type": "shuffle_key", "game_no": 1, "label": "deal-1", "key": "cd" * 32, "version": 4},
        {"seat": 0, "type": "reveal", "game_no": 1, "server_seed": "ef" * 32, "version": 5},
        {
            "seat": None,
            "type": "fair_round",
            "game_no": 1,
            "label": "hand-2",
            "contributions": ["00" * 16, None],
            "version": 6,
        },
        {"seat": 0, "type": "round_reveal", "game_no": 1, "labels": ["hand-1", "hand-2"], "version": 7},
    ]
