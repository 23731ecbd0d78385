"""The rule-sheet form a host fills in a minute: the page's language opens its own game's preset,
timers are a short list, each changed rule says its preset value beside a reset, the help waits
behind "?" on a phone, and Palace shows no help about other games' choices."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.browser.conftest import PHONE, Player
from tests.browser.helpers import open_sheet_form

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


@pytest.mark.parametrize(
    ("lang", "palace", "thousand"),
    [("et", "hiina-turakas", "tuhat-eesti"), ("fi", "china-hand", "tuhat"), ("en", "hiina-turakas", "tuhat")],
)
def test_the_page_language_opens_its_own_preset(
    people: Callable[..., Player], lang: str, palace: str, thousand: str
) -> None:
    page = open_sheet_form(people(lang=lang), "palace")
    assert page.input_value("#preset") == f"preset:{palace}"
    page.check("#game-thousand")
    assert page.input_value("#preset") == f"preset:{thousand}"


def test_a_timer_is_a_list_and_a_changed_rule_resets_to_its_preset(people: Callable[..., Player]) -> None:
    page = open_sheet_form(people(lang="fi"), "palace")
    choice = page.locator("#opt-turn_timer_seconds-choice")
    labels = choice.locator("option").all_inner_texts()
    assert labels == ["pois", "15 s", "30 s", "60 s", "muu…"]
    assert page.locator("#opt-turn_timer_seconds").is_hidden()
    choice.select_option("custom")
    page.fill("#opt-turn_timer_seconds", "45")
    page.locator("body").click(position={"x": 5, "y": 5})
    field = page.locator("[data-option=turn_timer_seconds]")
    assert "house-rule" in (field.get_attribute("class") or "")
    assert field.locator(".preset-note").inner_text() == "muunnelmassa: pois · palauta"
    assert page.locator("#sheet-legend").is_visible()
    assert "poikkeaa muunnelmasta" in page.inner_text("#sheet-legend")
    field.locator(".preset-note button").click()
    assert choice.input_value() == "0" and page.locator("#opt-turn_timer_seconds").is_hidden()
    assert field.locator(".preset-note").count() == 0
    assert page.locator("#sheet-changed").is_hidden()
    # The decision timer times other games' choices (straddle, the lottery): Palace has none.
    assert page.locator("[data-option=decision_timer_seconds]").is_hidden()
    text = page.inner_text("#create-room")
    assert "straddle" not in text.lower() and "lotto" not in text.lower()


def test_on_a_phone_the_help_waits_behind_a_question_mark(people: Callable[..., Player]) -> None:
    page = open_sheet_form(people(lang="et", viewport=PHONE), "palace")
    field = page.locator("[data-option=low_card]")
    help_text = field.locator("small.help")
    assert help_text.is_hidden()
    toggle = field.locator("button.help-toggle")
    assert toggle.get_attribute("aria-expanded") == "false"
    toggle.click()
    assert help_text.is_visible() and toggle.get_attribute("aria-expanded") == "true"
    assert "7, 9" in help_text.inner_text()
