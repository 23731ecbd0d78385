"""What a seat has seen in the current deal: its visible events since the deal began.

A bot is handed, beside its view, the events its seat was shown since the current deal (a Thousand
deal, a Hold'em hand, a whole Palace game) began, oldest first, each as ``Event.to_json()`` gives
it. The room derives them from its stored log (so they survive a restart), the arena from the
events ``apply`` returns; both keep only the events the seat may see (``Event.visible_to``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app import registry

Memory = Sequence[Mapping[str, Any]]


class Recall:
    """A seat's memory of the current deal, fed one visible event at a time."""

    def __init__(self, game_name: str) -> None:
        # The events that begin a new deal (``Game.deal_starts``); none: the memory is the game.
        self.starts = registry.get(game_name).deal_starts
        self.events: list[dict[str, Any]] = []

    def add(self, event: Mapping[str, Any]) -> None:
        if event.get("type") in self.starts:
            self.events = []
        self.events.append(dict(event))

    def extend(self, events: Iterable[Mapping[str, Any]]) -> None:
        for event in events:
            self.add(event)

    def reset(self) -> None:
        self.events = []


def of_type(memory: Memory, *types: str) -> list[Mapping[str, Any]]:
    return [event for event in memory if event.get("type") in types]
