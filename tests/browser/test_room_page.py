"""The room page around the table: whom the lobby waits for, turn alerts outside the page (title,
opt-in notification while the tab is hidden) and the table modules' written contract."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, PHONE, Player
from tests.browser.helpers import create_room, join, wait_same_version, wait_version_above

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def test_the_lobby_says_whom_it_waits_for(people: Callable[..., Player]) -> None:
    host = people(viewport=DESKTOP)
    guest = people(viewport=PHONE)
    third = people(viewport=PHONE, lang="fi")
    invite = create_room(host, "palace", seats=3, name="Kati")
    join(guest, invite, "Mati")
    guest.page.wait_for_selector("#lobby:not([hidden])")
    assert guest.page.inner_text("#lobby-title") == "Waiting for Kati to start"
    assert "Seats are free" in guest.page.inner_text("#lobby-note")
    assert host.page.inner_text("#lobby-title") == "Waiting for players"
    join(third, invite, "Juku")
    third.page.wait_for_selector("#lobby:not([hidden])")
    # A full room: the host is asked to start, the others wait for the host by name.
    host.page.wait_for_function(
        "() => document.querySelector('#lobby-title').textContent.startsWith('Everyone')"
    )
    assert host.page.inner_text("#lobby-title") == "Everyone is here: start the game"
    guest.page.wait_for_selector("#lobby-note", state="hidden")
    assert guest.page.inner_text("#lobby-title") == "Waiting for Kati to start"
    assert third.page.inner_text("#lobby-title") == "Odotetaan, että Kati aloittaa pelin"


def test_turn_alerts_title_and_a_notification_while_hidden(people: Callable[..., Player]) -> None:
    host = people(viewport=DESKTOP)
    guest = people(viewport=PHONE, full=True)  # the headless shell grants no notification
    guest.context.grant_permissions(["notifications"])
    invite = create_room(host, "palace", seats=2, name="Kati")
    join(guest, invite, "Mati")
    guest.page.check("#alert-notify")
    guest.page.wait_for_function("() => localStorage.getItem('houserules:alert-notify') === 'on'")
    assert not guest.page.is_checked("#alert-sound")  # sound is off until chosen
    # The guest's tab goes to the background.
    guest.page.evaluate(
        "() => Object.defineProperty(document, 'hidden', {get: () => true, configurable: true})"
    )
    base = guest.page.title()
    assert not base.startswith("●")
    host.page.click("#lobby-start button[data-op=start]")
    for player in (host, guest):
        player.page.wait_for_selector(".felt.palace")
    wait_same_version([host, guest])
    # The swap phase waits for everyone: each tab's title says so, in its language.
    guest.page.wait_for_function("() => document.title.startsWith('● Your turn · ')")
    alerts: list[dict[str, Any]] = guest.page.evaluate("() => window.houserules.alerts")
    assert alerts[-1]["notify"] is True and alerts[-1]["sound"] is False
    assert host.page.title().startswith("● Your turn · ")
    assert not host.page.evaluate("() => window.houserules.alerts")[-1]["notify"]
    # Once the guest is ready, it is no longer the guest's turn: the title changes back.
    before = guest.page.evaluate("() => window.houserules.version")
    guest.page.click("#dock button[data-action=ready]")
    wait_version_above(guest, before)
    guest.page.wait_for_function("(base) => document.title === base", arg=base)


def test_every_table_module_keeps_the_written_contract(people: Callable[..., Player]) -> None:
    player = people()
    player.page.goto("/")
    names: dict[str, list[str]] = player.page.evaluate(
        """async () => {
          const out = {};
          for (const game of ['palace', 'holdem', 'thousand']) {
            const module = await import(`/static/js/tables/${game}.js`);
            out[game] = ['mount', 'waiting', 'keys', 'describeEvent', 'describeOutcome']
              .filter((name) => typeof module[name] !== 'function');
          }
          await import('/static/js/tables/contract.js');
          return out;
        }"""
    )
    assert names == {"palace": [], "holdem": [], "thousand": []}


def test_the_thousand_score_line_marks_bombs_and_800_and_stuck(people: Callable[..., Player]) -> None:
    """The line shown after each deal, from a score-sheet row and the view (T10, T17)."""
    player = people()
    player.page.goto("/")
    line: str = player.page.evaluate(
        """async () => {
          const { scoreLine } = await import('/static/js/tables/thousand.js');
          const names = ['Kati', 'Mati', 'Juku'];
          const row = {type: 'deal', deal: 7, bidder: 1, contract: 120, blind: true, made: false,
                       points: [40, -240, 15], totals: [820, 300, 415]};
          const view = {stuck: [true, false, false], bombs_used: [0, 1, 0], bombs_per_game: 3};
          return scoreLine(row, (seat) => names[seat], view);
        }"""
    )
    assert line == (
        "Deal 7: Mati went down on 120 (blind, counts double) — Kati +40 · Mati -240 · Juku +15"
        " — Kati: 800 and stuck — Mati: bombs 1/3"
    )
