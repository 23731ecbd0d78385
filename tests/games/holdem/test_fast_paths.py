"""The engine's quick paths give exactly what the plain constructions give."""

from __future__ import annotations

import dataclasses

from app.games.base import Event
from app.games.holdem.engine import _event


def test_quick_events_equal_plain_events() -> None:
    # _event fills the instance dictionary of the frozen Event directly: it must stay the same
    # object as Event(...) would build, field for field, with no __post_init__ skipped.
    assert [f.name for f in dataclasses.fields(Event)] == ["type", "data", "audience"]
    assert not hasattr(Event, "__post_init__")
    for args in [("fold", {"seat": 1}), ("hole_cards", {"seat": 2, "cards": ["Ah", "Kd"]}, (2,))]:
        quick, plain = _event(*args), Event(*args)  # type: ignore[arg-type]
        assert quick == plain
        assert vars(quick) == vars(plain)
        assert type(quick) is Event
        assert quick.visible_to(2) == plain.visible_to(2) and quick.to_json() == plain.to_json()
