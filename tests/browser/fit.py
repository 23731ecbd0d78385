"""What a seated player must see without scrolling, per game: the turn line, the own hand, the move
controls, what the move answers (pile, board, trick, talon), each opponent's card counts and the last
move. Boxes are measured in the page as it rests; what lies on the felt must also clear the dock that
is fixed over the foot of the window."""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import Player

# Per game: named parts of the felt, each a selector; "each" parts must match once per opponent.
FELT_PARTS: dict[str, dict[str, str]] = {
    "palace": {
        "pile": ".felt.palace .center .pile",
        "next rule": ".felt.palace .center .next-rule",
    },
    "holdem": {
        "board": ".felt.holdem .hcenter .board",
        "pot": ".felt.holdem .hcenter .pots",
    },
    "thousand": {
        "trick": ".felt.thousand .center .trick",
        "talon": ".felt.thousand .center .talon",
    },
}
OPPONENT_COUNTS: dict[str, str] = {
    "palace": ".felt.palace .seat-box [data-count=hand]",
    "holdem": ".felt.holdem .hseat:not(.me):not(.empty) .hole",
    "thousand": ".felt.thousand .seat-box [data-count=hand]",
}
OPPONENTS: dict[str, str] = {
    "palace": ".felt.palace .seat-box",
    "holdem": ".felt.holdem .hseat:not(.me):not(.empty)",
    "thousand": ".felt.thousand .seat-box",
}

_MEASURE = """([felt, counts, opponents]) => {
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return {x: r.x, y: r.y, w: r.width, h: r.height};
  };
  const dock = document.querySelector('#dock');
  const dockTop = dock && shown(dock) ? dock.getBoundingClientRect().top : window.innerHeight;
  const one = (selector) => {
    const el = document.querySelector(selector);
    return el && shown(el) ? {box: box(el), text: (el.textContent || '').trim()} : null;
  };
  const parts = {};
  for (const [name, selector] of Object.entries(felt)) parts[name] = one(selector);
  const controls = Array.from(document.querySelectorAll('#dock [data-action]')).filter(shown)
    .map((el) => ({action: el.dataset.action, box: box(el)}));
  return {
    width: window.innerWidth, height: window.innerHeight, scrollY: window.scrollY, dockTop,
    scrollHeight: document.documentElement.scrollHeight,
    status: one('#dock .status-line'), hand: one('#dock .hand'), lastMove: one('#last-move'),
    parts, controls,
    opponents: document.querySelectorAll(opponents).length,
    counts: Array.from(document.querySelectorAll(counts)).filter(shown).map((el) => ({
      box: box(el), text: (el.textContent || '').trim()})),
  };
}"""


def measure(player: Player, game: str) -> dict[str, Any]:
    result: dict[str, Any] = player.page.evaluate(
        _MEASURE, [FELT_PARTS[game], OPPONENT_COUNTS[game], OPPONENTS[game]]
    )
    return result


def _within(box: dict[str, float], width: float, bottom: float) -> bool:
    return (box["x"] >= -0.5 and box["y"] >= -0.5
            and box["x"] + box["w"] <= width + 0.5 and box["y"] + box["h"] <= bottom + 0.5)


def table_misfits(seen: dict[str, Any], *, my_turn: bool, last_move: bool) -> list[str]:
    """What a seated player cannot see at the page's resting position (empty when all is in view).

    Dock parts must lie inside the window; felt parts inside the window above the dock."""
    problems: list[str] = []
    width, height, felt_bottom = seen["width"], seen["height"], seen["dockTop"]

    def need(name: str, part: dict[str, Any] | None, bottom: float, text: bool = False) -> None:
        if part is None:
            problems.append(f"{name}: not shown")
        elif not _within(part["box"], width, bottom):
            problems.append(f"{name}: {part['box']} outside {width}x{bottom:.0f}")
        elif text and not part["text"]:
            problems.append(f"{name}: empty")

    need("turn line", seen["status"], height, text=True)
    need("own hand", seen["hand"], height)
    if my_turn:
        if not seen["controls"]:
            problems.append("controls: none shown on the seat's turn")
        for control in seen["controls"]:
            need(f"control {control['action']}", control, height)
    need("last move", seen["lastMove"], felt_bottom, text=last_move)
    for index, (name, part) in enumerate(seen["parts"].items()):
        # The first part is always on the table; a phase may lack the others (no talon once it is
        # taken, no "next" rule during the swap).
        if index == 0 or part is not None:
            need(name, part, felt_bottom)
    if len(seen["counts"]) != seen["opponents"] or not seen["opponents"]:
        problems.append(f"opponent counts: {len(seen['counts'])} shown for {seen['opponents']} opponents")
    for count in seen["counts"]:
        need(f"opponent count {count['text']!r}", count, felt_bottom)
    return problems
