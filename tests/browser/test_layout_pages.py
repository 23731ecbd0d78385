"""The pages around the table hold still and put first things first: the home form does not jump when
a field is left, a phone reaches "Your name" and "Create room" before the rules, the lobby's Start is
its first (primary) button and names a room filled by a bot as full, the game's start brings the
table into view, and the lobby's rule form marks what differs from the preset without cutting a
select's text."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.browser.conftest import DESKTOP, PHONE, Player, screenshot
from tests.browser.helpers import create_room, join

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

_Y = "(s) => { const r = document.querySelector(s).getBoundingClientRect(); return r.y + window.scrollY; }"


def test_the_home_form_holds_still_when_a_changed_field_is_left(people: Callable[..., Player]) -> None:
    host = people(viewport=DESKTOP)
    page = host.page
    page.goto("/")
    page.wait_for_selector("#create-fields:not([hidden])")
    page.check("#game-palace")
    # The turn timer is a list (off / 15 s / 30 s / 60 s / custom…); other numbers are fields.
    timer = page.locator("#opt-turn_timer_seconds-choice")
    before = page.evaluate(_Y, "#create-button"), timer.bounding_box()
    timer.select_option("15")
    page.locator("body").click(position={"x": 5, "y": 5})
    assert (page.evaluate(_Y, "#create-button"), timer.bounding_box()) == before
    fields = [f for f in page.locator("#sheet-essentials input[type=number]").all() if f.is_visible()]
    for field in fields:
        before = page.evaluate(_Y, "#create-button"), field.bounding_box()
        value = field.input_value()
        field.fill(str(int(value or "0") + 1))
        # Leaving the field commits the change (and marks it as a house rule).
        page.locator("body").click(position={"x": 5, "y": 5})
        after = page.evaluate(_Y, "#create-button"), field.bounding_box()
        name = field.get_attribute("id")
        assert before == after, f"the form moved when {name} was left: {before} -> {after}"
    assert page.locator("#sheet-changed").inner_text().strip()


def test_a_phone_reaches_the_name_and_create_before_the_rules(
        people: Callable[..., Player], artefacts: Path) -> None:
    for lang in ("en", "et", "fi"):
        host = people(viewport=PHONE, lang=lang)
        page = host.page
        page.goto("/")
        page.wait_for_selector("#create-fields:not([hidden])")
        screenshot(page, artefacts / f"home-phone-{lang}.png")
        create = page.locator("#create-button").bounding_box()
        name = page.locator("#host-name").bounding_box()
        rules = page.locator("#sheet-essentials").bounding_box()
        assert create is not None and name is not None and rules is not None
        assert name["y"] < create["y"] < rules["y"]
        # In the first screenful, with no scrolling.
        assert create["y"] + create["height"] <= PHONE["height"], (lang, create)


def test_start_tops_the_lobby_a_bot_fills_it_and_the_table_comes_into_view(
        people: Callable[..., Player], artefacts: Path) -> None:
    host = people(viewport=PHONE)
    guest = people(viewport=PHONE, lang="fi")
    invite = create_room(host, "palace", seats=3, name="Kati")
    join(guest, invite, "Mati")
    page = host.page
    start = page.locator("#lobby-start button[data-op=start]")
    start.wait_for()
    assert "primary" in (start.get_attribute("class") or "")
    assert page.locator("#host-controls button[data-op=start]").count() == 0
    assert guest.page.locator("button[data-op=start]").count() == 0
    # The host seats a bot in the last free seat: the room is full, not "waiting for players".
    page.select_option("#bot-seat", value="2")
    page.click("#host-controls button[data-op=add_bot]")
    page.wait_for_selector('#lobby-seats li[data-seat="2"] .tag.bot')
    page.wait_for_function(
        "() => document.querySelector('#lobby-title').textContent === 'Everyone is here: start the game'")
    guest.page.wait_for_function("() => document.querySelector('#lobby-note').hidden")
    page.evaluate("() => window.scrollTo(0, 0)")
    box = start.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"] / 2, box
    screenshot(page, artefacts / "lobby-start-phone.png")
    start.click()
    for player in (host, guest):
        player.page.wait_for_selector(".felt.palace")
        player.page.wait_for_function("() => window.houserules.state && window.houserules.state.view")
    page.wait_for_function("() => window.scrollY === 0")
    felt = page.locator(".felt.palace").bounding_box()
    assert felt is not None and 0 <= felt["y"] < PHONE["height"] / 4, felt


def test_a_guest_scrolled_down_in_the_lobby_sees_the_table_when_the_game_starts(
        people: Callable[..., Player]) -> None:
    host = people(viewport=DESKTOP)
    guest = people(viewport=PHONE)
    invite = create_room(host, "palace", seats=2, name="Kati")
    join(guest, invite, "Mati")
    guest.page.locator("#chat-form").scroll_into_view_if_needed()
    assert guest.page.evaluate("() => window.scrollY") > 0
    host.page.click("#lobby-start button[data-op=start]")
    guest.page.wait_for_selector(".felt.palace")
    guest.page.wait_for_function("() => window.houserules.state && window.houserules.state.view")
    guest.page.wait_for_function("() => window.scrollY === 0")
    felt = guest.page.locator(".felt.palace").bounding_box()
    assert felt is not None and 0 <= felt["y"] < PHONE["height"] / 4, felt


_CUT_SELECTS = """() => {
  const canvas = document.createElement('canvas').getContext('2d');
  return Array.from(document.querySelectorAll('#lobby-sheet-form select'))
    .filter((s) => s.getClientRects().length).map((s) => {
      const style = getComputedStyle(s);
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = s.options[s.selectedIndex] ? s.options[s.selectedIndex].text : '';
      // Room for the text: the box less its padding and the arrow (about 1.5em).
      const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
        - 1.5 * parseFloat(style.fontSize);
      return {id: s.id, text, need: canvas.measureText(text).width, room};
    }).filter((s) => s.need > s.room);
}"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["laptop", "phone"])
@pytest.mark.parametrize("lang", ["en", "et", "fi"])
def test_the_lobby_rule_form_marks_house_rules_and_shows_each_select_whole(
        people: Callable[..., Player], artefacts: Path, viewport: dict[str, int], lang: str) -> None:
    host = people(viewport=viewport, lang=lang)
    create_room(host, "palace", seats=3, name="Kati")
    page = host.page
    page.click("#lobby-sheet summary")
    page.wait_for_selector("#lobby-sheet-form [data-option]")
    line = page.locator("#lobby-sheet-changed")
    line.wait_for()
    assert page.locator("#lobby-sheet-form .house-rule").count() == 0
    cut = page.evaluate(_CUT_SELECTS)
    assert not cut, f"selects whose text is cut: {cut}"
    # Change one select to another value: its field is marked and the line counts it.
    select = page.locator("#lobby-sheet-form select").first
    option = select.get_attribute("id")
    values = select.locator("option").evaluate_all("els => els.map(e => e.value)")
    current = select.input_value()
    select.select_option(value=next(v for v in values if v != current))
    field = page.locator(f"#lobby-sheet-form .field:has(#{option})")
    assert "house-rule" in (field.get_attribute("class") or "")
    assert page.locator("#lobby-sheet-form .house-rule").count() == 1
    page.wait_for_function("() => /1/.test(document.querySelector('#lobby-sheet-changed').textContent)")
    assert not page.evaluate(_CUT_SELECTS)
    size = "laptop" if viewport == DESKTOP else "phone"
    page.locator("#lobby-sheet summary").scroll_into_view_if_needed()
    screenshot(page, artefacts / f"lobby-sheet-{size}-{lang}.png")
    # Back to the preset's value: no mark.
    select.select_option(value=current)
    assert page.locator("#lobby-sheet-form .house-rule").count() == 0
