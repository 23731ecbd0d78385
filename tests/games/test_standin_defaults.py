"""Nobody stalls the table: every preset of every game lets a bot stand in for a player away 90 s,
the rule-sheet form offers that as the default, and a sheet may still say 0 (never)."""

from __future__ import annotations

import pytest

from app import registry


@pytest.mark.parametrize("name", sorted(registry.GAMES))
def test_every_preset_stands_in_after_90_seconds(name: str) -> None:
    game = registry.get(name)
    assert game.presets
    for preset, sheet in game.presets.items():
        assert sheet.bot_takeover_seconds == 90, preset
    # The form's default (the schema the browser builds the sheet form from) says the same.
    schema = game.sheet_schema()
    assert schema["properties"]["bot_takeover_seconds"]["default"] == 90
    assert game.sheet({}).bot_takeover_seconds == 90


@pytest.mark.parametrize("name", sorted(registry.GAMES))
def test_a_sheet_may_still_say_never(name: str) -> None:
    assert registry.get(name).sheet({"bot_takeover_seconds": 0}).bot_takeover_seconds == 0
