"""Checks of what a player sees at the page's resting position: move controls and the turn line inside
the viewport (by bounding box), the hand's place, labels in the page's language, and the log's lines."""

from __future__ import annotations

import json
from typing import Any

from tests.browser.conftest import Player

# Every visible move control (data-action) and the status line, with their boxes and texts.
_BOXES = """() => {
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return {x: r.x, y: r.y, w: r.width, h: r.height};
  };
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const controls = Array.from(document.querySelectorAll('[data-action]')).filter(shown).map((el) => ({
    action: el.dataset.action, label: (el.textContent || '').trim() || el.getAttribute('aria-label') || '',
    tag: el.tagName, box: box(el)}));
  const status = document.querySelector('#dock .status-line');
  return {scrollY: window.scrollY, width: window.innerWidth, height: window.innerHeight, controls,
          status: status && shown(status) ? {text: status.textContent, box: box(status)} : null,
          timer: Boolean(document.querySelector('#timer') && !document.querySelector('#timer').hidden),
          title: document.title,
          // The state the page drew, read in the same turn of its event loop as the boxes.
          version: window.houserules ? window.houserules.version : null,
          legal: window.houserules && window.houserules.state
            ? (window.houserules.state.legal || []).map((a) => a.type) : []};
}"""


def screen(player: Player) -> dict[str, Any]:
    result: dict[str, Any] = player.page.evaluate(_BOXES)
    return result


def inside(box: dict[str, float], width: float, height: float) -> bool:
    return (box["x"] >= 0 and box["y"] >= 0
            and box["x"] + box["w"] <= width + 0.5 and box["y"] + box["h"] <= height + 0.5)


def assert_controls_in_view(player: Player, turn_words: str, seen: dict[str, Any] | None = None
                            ) -> dict[str, Any]:
    """The seat may act: at the page's resting position (not scrolled) the turn line and every move
    control are inside the viewport, and the turn line says it is this seat's turn (on ``seen``, a
    ``screen`` already taken, or on the page now)."""
    seen = screen(player) if seen is None else seen
    assert seen["scrollY"] == 0, f"the page was scrolled to {seen['scrollY']}"
    assert seen["status"] is not None, "no status line in the dock"
    assert turn_words in seen["status"]["text"], seen["status"]["text"]
    assert inside(seen["status"]["box"], seen["width"], seen["height"]), seen["status"]
    assert seen["controls"], "no move control on screen although the seat may act"
    outside = [c for c in seen["controls"] if not inside(c["box"], seen["width"], seen["height"])]
    assert not outside, f"controls outside the {seen['width']}x{seen['height']} viewport: {outside}"
    return seen


def hand_box(player: Player) -> dict[str, float] | None:
    box: dict[str, float] | None = player.page.evaluate(
        "() => { const el = document.querySelector('#dock .hand'); if (!el) return null;"
        " const r = el.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; }"
    )
    return box


def catalogue(player: Player) -> dict[str, str]:
    """The page's message catalogue (message id -> translation), as embedded in the page."""
    text = player.page.evaluate("() => document.getElementById('i18n-catalogue').textContent")
    messages: dict[str, str] = json.loads(text)["messages"]
    return messages


def assert_labels_translated(player: Player, seen: dict[str, Any]) -> None:
    """Every move control has a label, and none is an English text the catalogue translates."""
    messages = catalogue(player)
    english = {key for key, value in messages.items() if value != key}
    for control in seen["controls"]:
        label = control["label"]
        assert label, f"a {control['action']} control has no label"
        # Card buttons are labelled by the card's name; buttons by their text.
        assert label not in english, f"{control['action']} is labelled in English: {label!r}"


def log_lines(player: Player, skip_types: frozenset[str] = frozenset()) -> list[str]:
    lines: list[list[str]] = player.page.eval_on_selector_all(
        "#log li", "els => els.map(e => [e.dataset.type || '', e.textContent])"
    )
    return [text for kind, text in lines if kind not in skip_types and kind != ""]


def settle(player: Player) -> None:
    """Wait until the page has laid out what it drew (two animation frames)."""
    player.page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
