"""axe-core finds nothing on the pages people use, in Estonian and Finnish, at laptop and phone
sizes: home, a room's lobby, the printable rule sheet, each table in the middle of a game, a
Hold'em table's fair-deal verify box and the replay of its finished hands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.axe import describe, violations, weak_focus_rings
from tests.browser.conftest import DESKTOP, PHONE, Player
from tests.browser.helpers import create_room, legal, wait_version_above
from tests.browser.test_last_move import practise

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]


def settle(page: Any) -> None:
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def audit(page: Any, name: str, found: dict[str, str]) -> None:
    """axe at both sizes; what it finds is kept under the page's name and size."""
    for label, size in (("laptop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        settle(page)
        problems = violations(page)
        if problems:
            found[f"{name} at {label} size"] = describe(problems)
    page.set_viewport_size(DESKTOP)
    settle(page)
    weak = weak_focus_rings(page)
    if weak:
        found[f"{name}: focus rings under 3:1"] = "\n".join(sorted(set(weak)))


def holdem_until_a_hand_is_over(host: Player) -> None:
    """The host checks or folds (never busts) until the first hand is over and the next dealt."""
    page = host.page
    for _ in range(300):
        state = host.state()
        assert state is not None and state["outcome"] is None
        hand = state["view"]["hand"]
        if hand is not None and hand["number"] >= 2 and legal(host):
            return
        types = {a["type"] for a in legal(host)}
        choice = next((t for t in ("check", "fold", "muck", "no_straddle", "run_once") if t in types), None)
        if choice is not None:
            page.click(f".dock-holdem [data-action={choice}]")
        wait_version_above(host, state["version"])
    raise AssertionError("hand 2 was never dealt")


@pytest.mark.parametrize("lang", ["et", "fi"])
def test_every_page_passes_axe_in_the_language(people: Callable[..., Player], lang: str) -> None:
    found: dict[str, str] = {}
    visitor = people(lang=lang)
    visitor.page.goto("/")
    visitor.page.wait_for_selector("#create-fields:not([hidden])")
    audit(visitor.page, "home", found)

    host = people(lang=lang)
    create_room(host, "holdem", seats=2, name="Kati")
    audit(host.page, "lobby", found)
    room = host.page.url
    sheet = people(lang=lang)
    sheet.page.goto(room + "/sheet")
    sheet.page.wait_for_selector("#sheet-loading", state="hidden")
    audit(sheet.page, "rule sheet", found)

    page = host.page
    page.click("#host-controls button[data-op=add_bot]")  # one person and a bot: the table starts
    page.wait_for_selector(".felt.holdem")
    page.wait_for_function("() => window.houserules.state && window.houserules.state.view")
    holdem_until_a_hand_is_over(host)
    audit(page, "holdem table", found)
    page.click("#fair-box button[data-role=verify]")
    page.wait_for_function("() => document.querySelector('#fair-box [data-verdict]') !== null")
    audit(page, "verify box", found)
    page.click("#replay-hands")
    page.wait_for_selector("#play:not([hidden]) .felt.holdem")
    page.wait_for_function("() => window.houserules.frames.length === window.houserules.length")
    audit(page, "replay", found)

    for game, seats in (("palace", 2), ("thousand", 3)):
        player = people(lang=lang)
        practise(player, game, seats, "Kati")
        audit(player.page, f"{game} table", found)

    assert not found, "\n".join(f"== {name}\n{text}" for name, text in found.items())
