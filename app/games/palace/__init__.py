"""The Palace family (Hiina turakas, China Hand, Palace) as a ``Game``.

The rules, the dealing order and the actions are described in ``engine``'s docstring and in
``docs/rules/palace.md``; the options and presets in ``rules``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from app.games import cards as cardlib
from app.games.base import Action, Game, IllegalAction
from app.games.fair import Shuffle
from app.games.form_layout import GameLayout
from app.games.palace import engine
from app.games.palace.layout import LAYOUT
from app.games.palace.rules import PRESETS, RuleSheet, check_sheet
from app.games.palace.rules import RuleSheet as Sheet
from app.games.palace.table import Table
from app.games.palace.view import view as table_view
from app.games.palace.view import views as table_views

__all__ = ["PRESETS", "Palace", "RuleSheet", "Table", "game"]


class Palace(Game[Table, RuleSheet]):
    name: ClassVar[str] = "palace"
    titles: ClassVar[Mapping[str, str]] = {
        "en": "Palace (Hiina turakas, China Hand)",
        "et": "Hiina turakas (Palace)",
        "fi": "China Hand (Palace)",
    }
    # English keeps the first preset (Hiina turakas, the fullest seed).
    language_presets: ClassVar[Mapping[str, str]] = {"et": "hiina-turakas", "fi": "china-hand"}
    RuleSheet = Sheet
    presets: Mapping[str, Sheet] = PRESETS
    rule_letter: ClassVar[str] = "P"
    form_layout: ClassVar[GameLayout | None] = LAYOUT
    bot: ClassVar[str | None] = "app.bots.palace"

    def check_sheet(self, sheet: Sheet) -> None:
        check_sheet(sheet)

    def new(self, sheet: Sheet, players: int, *, seed: str | None = None,
            deck: Sequence[str] | None = None) -> Table:
        return engine.new(sheet, players, seed=seed, deck=deck)

    def check(self, state: Table, seat: int, action: Mapping[str, Any]) -> IllegalAction | None:
        return engine.check(state, seat, action)

    # The engine's own functions for what a move calls (to_act, legal_actions, apply, view,
    # outcome): no method frame in between (a few per cent of a move with every seat's view).
    legal_actions = staticmethod(engine.legal_actions)  # type: ignore[assignment]
    apply = staticmethod(engine.apply)  # type: ignore[assignment]
    view = staticmethod(table_view)  # type: ignore[assignment]
    outcome = staticmethod(engine.outcome)  # type: ignore[assignment]
    to_act = staticmethod(engine.to_act)  # type: ignore[assignment]

    def views(self, state: Table, seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
        return table_views(state, seats)

    def timeout_action(self, state: Table, seat: int) -> Action | None:
        return engine.timeout_action(state, seat)

    def dump(self, state: Table) -> dict[str, Any]:
        return state.to_json()

    def load(self, data: Mapping[str, Any]) -> Table:
        return Table.from_json(data)

    def seat_count(self, state: Table) -> int:
        return len(state.players)

    def shuffles(self, state: Table, since: int = 0) -> list[Shuffle]:
        # One shuffle per game; every card may be known once the game is over.
        if since > 0:
            return []
        sheet = state.sheet
        cards = _deck(sheet.deck, sheet.jokers, sheet.deck_count(len(state.players)))
        return [Shuffle("deal", cards, state.phase == "over")]


_DECKS: dict[tuple[str, int, int], tuple[str, ...]] = {}


def _deck(deck: str, jokers: int, decks: int) -> tuple[str, ...]:
    """The unshuffled cards of ``engine.full_deck`` (asked for after every move: made once per kind)."""
    key = (deck, jokers, decks)
    found = _DECKS.get(key)
    if found is None:
        found = _DECKS[key] = tuple(cardlib.deck(low_rank="2" if deck == "52" else "6", jokers=jokers,
                                                 decks=decks))
    return found


# The registered object (pyproject.toml, entry point group ``houserules.games``).
game = Palace()
