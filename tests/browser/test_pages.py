"""Pages in a real browser: languages from Accept-Language and the switch, the printable rule sheet."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.browser.conftest import Player, shoot
from tests.browser.helpers import create_room, join, open_sheet_form

# A stuck page fails its test instead of hanging the run.
pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def test_language_comes_from_the_browser_and_the_switch_changes_it(people: Callable[..., Player]) -> None:
    finn = people(lang="fi-FI")
    page = finn.page
    page.goto("/")
    assert page.locator("html").get_attribute("lang") == "fi"
    assert page.inner_text("h1") == "Korttipelejä omilla kotisäännöillä"
    page.wait_for_selector("#create-fields:not([hidden])")
    # The generated form speaks Finnish too: descriptions from the sheet, values from the catalogue.
    assert "Kortteja pakassa" in (page.text_content("#sheet-form") or "")
    page.click("a[data-lang=et]")
    page.wait_for_selector("html[lang=et]")
    assert page.inner_text("h1") == "Kaardimängud oma kodureeglitega"
    page.wait_for_selector("#create-fields:not([hidden])")
    assert "Kaarte pakis" in (page.text_content("#sheet-form") or "")
    assert page.inner_text("#create-button") == "Loo tuba"
    # The choice is kept in a cookie: a new page in the same browser stays Estonian.
    page.goto("/")
    assert page.locator("html").get_attribute("lang") == "et"
    page.click("a[data-lang=en]")
    page.wait_for_selector("html[lang=en]")
    assert page.inner_text("#create-button") == "Create room"


def test_room_texts_follow_the_language_and_the_sheet_prints(
    people: Callable[..., Player], artefacts: Path
) -> None:
    host = people(lang="et")
    guest = people(lang="fi")
    invite = create_room(host, "palace", seats=2, name="Kati")
    join(guest, invite, "Mati")
    assert host.page.inner_text("#log-title") == "Käikude logi"
    assert guest.page.inner_text("#log-title") == "Siirtoloki"
    host.page.click("#lobby-start button[data-op=start]")
    for player in (host, guest):
        player.page.wait_for_selector(".felt.palace")
    assert "Juurdevõtupakk" in host.page.inner_text(".felt")
    assert "Nostopakka" in guest.page.inner_text(".felt")
    guest.page.click("a[data-lang=en]")
    guest.page.wait_for_selector(".felt.palace")
    assert "Stock" in guest.page.inner_text(".felt")
    # The rule sheet is one click away and prints the agreed options with the players' names.
    with host.page.context.expect_page() as opened:
        host.page.click("#sheet-link")
    sheet = opened.value
    sheet.wait_for_selector("#sheet-loading", state="hidden")
    text = sheet.inner_text("#sheet-body")
    assert "Kaarte pakis" in text
    assert "Mati" in sheet.inner_text("#signatures")
    sheet.emulate_media(media="print")
    assert sheet.locator(".topbar").is_hidden()
    shoot(Player(host.context, sheet), artefacts, "palace-sheet")


def test_a_saved_rule_sheet_can_be_chosen_for_a_new_room(people: Callable[..., Player]) -> None:
    host = people()
    page = open_sheet_form(host, "palace")
    page.uncheck("#opt-voluntary_pick_up")
    page.fill("#sheet-name", "Friday rules")
    page.click("#save-sheet")
    page.wait_for_function("() => document.querySelector('#preset').value.startsWith('sheet:')")
    assert "Friday rules" in page.inner_text("#sheet-save-note")
    # A fresh page offers the saved sheet beside the presets, and a room made from it keeps the change.
    page.goto("/")
    page.wait_for_selector("#create-fields:not([hidden])")
    page.wait_for_selector("#preset optgroup option[value^='sheet:']", state="attached")
    value = page.eval_on_selector("#preset optgroup option[value^='sheet:']", "o => o.value")
    page.select_option("#preset", value=value)
    assert not page.is_checked("#opt-voluntary_pick_up")
    page.fill("#seats", "2")
    page.fill("#host-name", "Kati")
    page.click("#create-button")
    page.wait_for_selector("#play:not([hidden])")
    sheet = page.evaluate("() => window.houserules.room.sheet")
    assert sheet["voluntary_pick_up"] is False
