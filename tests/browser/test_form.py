"""The home page's rule-sheet form and the printed sheet in a real browser, in all three languages.

For every game and preset the visible form holds no option key and no rule-id tag; options that
cannot apply are hidden; blind levels are edited as a table and the room is made from it; the
printed sheet names the preset and marks a changed option; a refused move reads in et and in fi.
Screenshots of the form (1280×800 and 390×844, each language) go to HOUSERULES_ARTIFACTS (default:
an "artifacts" folder under pytest's base temporary directory).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app import registry
from tests.browser.conftest import Player, screenshot
from tests.browser.helpers import acting, create_room, join, open_sheet_form, wait_same_version
from tests.browser.test_palace import move, start

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

# A rule-id tag in parentheses of any letter ("(C2)" of a game whose letter the form did not know),
# or a bare id of a registered game's letter (``Game.rule_letter``).
RULE_ID = re.compile(
    rf"\(\s*[A-Z]\d+\b|\b[{registry.rule_letters()}]\d{{1,2}}\b(?!\s*(?:cards|kaarti|korttia))"
)
LANGS = ("en", "et", "fi")
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def form_artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(os.environ.get("HOUSERULES_ARTIFACTS") or tmp_path_factory.getbasetemp() / "artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def open_home(player: Player) -> Any:
    page = player.page
    page.goto("/")
    page.wait_for_selector("#create-fields:not([hidden])")
    return page


def visible_form_text(page: Any) -> str:
    """What a person sees of the form: rendered text plus the texts of the chosen select options."""
    text: str = page.inner_text("#create-room")
    return text


def option_keys(game: dict[str, Any]) -> list[str]:
    return [name for name in game["schema"]["properties"] if "_" in name]


@pytest.mark.parametrize("lang", LANGS)
def test_the_form_shows_no_option_key_or_rule_id_for_any_game_or_preset(
    people: Callable[..., Player], games: dict[str, Any], form_artifacts: Path, lang: str
) -> None:
    player = people(lang=lang)
    page = open_home(player)
    page.click("#sheet-details summary")
    for name, game in games.items():
        page.check(f"#game-{name}")
        for preset in game["presets"]:
            page.select_option("#preset", value=f"preset:{preset}")
            text = visible_form_text(page)
            shown_keys = [key for key in option_keys(game) if key in text]
            assert not shown_keys, f"{lang} {name}/{preset}: option keys in the form: {shown_keys}"
            tags = RULE_ID.findall(text)
            assert not tags, f"{lang} {name}/{preset}: rule-id tags in the form: {tags}"
            assert page.locator("#create-room .option-name").count() == 0
        # The seat count is asked once, as the room's seats, with the range beside it.
        seat_option = game["schema"]["x-seats"]["option"]
        assert page.locator(f"#opt-{seat_option}").count() == 0
        assert re.search(r"\d+–\d+", page.inner_text("#seats-range"))
        page.select_option("#preset", index=0)
        for size_name, size in SIZES.items():
            page.set_viewport_size(size)
            screenshot(page, form_artifacts / f"form-{lang}-{name}-{size_name}.png", full_page=True)
        page.set_viewport_size(SIZES["desktop"])


def test_options_that_cannot_apply_are_hidden(people: Callable[..., Player]) -> None:
    page = open_home(people())
    page.click("#sheet-details summary")
    # Hold'em cash: no tournament fields, no fixed-limit cap.
    page.check("#game-holdem")
    page.select_option("#preset", value="preset:cash-nl-1-2")
    for hidden in ("starting_chips", "levels", "level_length", "level_by", "raise_cap"):
        assert page.locator(f"[data-option={hidden}]").is_hidden(), hidden
    for shown in ("small_blind", "big_blind", "buy_in_default", "buy_in_min", "rebuy"):
        assert page.locator(f"[data-option={shown}]").is_visible(), shown
    page.select_option("#opt-variant", value='"fixed_limit"')
    assert page.locator("[data-option=raise_cap]").is_visible()
    # A tournament: the reverse.
    page.select_option("#preset", value="preset:tournament-nl-turbo")
    for hidden in ("buy_in_default", "buy_in_min", "buy_in_max", "rebuy", "max_hands", "small_blind", "ante"):
        assert page.locator(f"[data-option={hidden}]").is_hidden(), hidden
    for shown in ("starting_chips", "levels", "level_length"):
        assert page.locator(f"[data-option={shown}]").is_visible(), shown
    # Thousand: the two-player rules only for two players.
    page.check("#game-thousand")
    page.fill("#seats", "3")
    page.dispatch_event("#seats", "change")
    assert page.locator("[data-option=two_player_variant]").is_hidden()
    assert page.locator("[data-option=two_player_minus]").is_hidden()
    page.fill("#seats", "2")
    page.dispatch_event("#seats", "change")
    assert page.locator("[data-option=two_player_variant]").is_visible()
    assert page.locator("[data-option=two_player_minus]").is_visible()
    page.select_option("#opt-two_player_variant", value='"banks"')
    assert page.locator("[data-option=two_player_minus]").is_hidden()
    # Palace: what a joker does, only with jokers in the deck.
    page.check("#game-palace")
    assert page.locator("[data-option=joker]").is_hidden()
    page.fill("#opt-jokers", "1")
    page.dispatch_event("#opt-jokers", "change")
    assert page.locator("[data-option=joker]").is_visible()


def test_blind_levels_are_edited_as_a_table_and_the_room_is_made_from_them(
    people: Callable[..., Player], form_artifacts: Path
) -> None:
    host = people(lang="et")
    page = open_home(host)
    page.check("#game-holdem")
    page.select_option("#preset", value="preset:tournament-nl-turbo")
    rows = page.locator("#opt-levels tbody tr")
    assert rows.count() == 14
    # Start from the home-game structure, drop its last level, add one and edit a cell.
    page.select_option("#opt-levels-structure", value="home_game")
    assert rows.count() == 10
    rows.nth(9).locator("button").click()
    assert rows.count() == 9
    page.click("#opt-levels .add-level")
    assert rows.count() == 10
    assert [rows.nth(9).locator("input").nth(i).input_value() for i in range(3)] == ["300", "600", "0"]
    rows.nth(9).locator("input").nth(2).fill("25")
    rows.nth(9).locator("input").nth(2).dispatch_event("change")
    # A small blind above the big blind is refused beside the table, in Estonian, and nothing is created.
    rows.nth(0).locator("input").nth(0).fill("50")
    rows.nth(0).locator("input").nth(0).dispatch_event("change")
    error = page.locator("[data-option=levels] .field-error")
    error.wait_for(state="visible")
    assert error.inner_text() == "Tase 1: väike blind ei tohi olla suurem kui suur blind."
    page.fill("#seats", "2")
    page.fill("#host-name", "Kati")
    page.click("#create-button")
    assert page.url.endswith("/")
    screenshot(page, form_artifacts / "form-et-levels-error.png", full_page=True)
    rows.nth(0).locator("input").nth(0).fill("5")
    rows.nth(0).locator("input").nth(0).dispatch_event("change")
    assert error.is_hidden()
    page.click("#create-button")
    page.wait_for_url(re.compile(r".*/r/[^/]+$"))
    page.wait_for_function("() => window.houserules && window.houserules.room")
    sheet = page.evaluate("() => window.houserules.room.sheet")
    assert sheet["format"] == "tournament"
    blinds = [(lv["small_blind"], lv["big_blind"], lv["ante"]) for lv in sheet["levels"]]
    assert blinds == [
        (5, 10, 0),
        (10, 20, 0),
        (15, 30, 0),
        (20, 40, 0),
        (25, 50, 0),
        (50, 100, 0),
        (75, 150, 0),
        (100, 200, 0),
        (150, 300, 0),
        (300, 600, 25),
    ]


def test_the_printed_sheet_names_the_preset_and_marks_a_house_rule(people: Callable[..., Player]) -> None:
    host = people(lang="fi")
    page = open_home(host)
    page.check("#game-palace")
    page.select_option("#preset", value="preset:china-hand")
    page.click("#sheet-details summary")
    page.uncheck("#opt-voluntary_pick_up")
    page.select_option("#opt-low_card", value='"7"')
    # The form counts the changes beside the preset and marks the fields.
    assert page.inner_text("#sheet-changed") == "2 kotisääntöä muunnelman lisäksi"
    assert "house-rule" in (page.get_attribute("[data-option=low_card]", "class") or "")
    page.fill("#seats", "3")
    page.fill("#host-name", "Kati")
    page.click("#create-button")
    page.wait_for_url(re.compile(r".*/r/[^/]+$"))
    room = page.url.rstrip("/").split("/")[-1]
    page.goto(f"/r/{room}/sheet")
    page.wait_for_selector("#sheet-loading", state="hidden")
    assert "China Hand" in page.inner_text("#sheet-preset")
    assert "3 paikkaa" in page.inner_text("#sheet-preset")
    marked = page.locator("tr.house-rule")
    assert sorted(marked.evaluate_all("rows => rows.map(r => r.dataset.option)")) == [
        "low_card",
        "voluntary_pick_up",
    ]
    assert "kotisääntö" in page.inner_text("tr[data-option=low_card]")
    assert "kotisääntö" not in page.inner_text("tr[data-option=ten_burn]")
    body = page.inner_text("#sheet-body")
    assert "voluntary_pick_up" not in body
    page.emulate_media(media="print")
    assert page.locator("tr.house-rule .house-rule-mark").first.is_visible()


@pytest.mark.parametrize(
    ("lang", "play_key", "reason"),
    [("et", "k", "Praegu pole sinu käik."), ("fi", "p", "Nyt ei ole sinun vuorosi.")],
)
def test_a_refused_move_shows_its_reason_in_the_page_language(
    people: Callable[..., Player], lang: str, play_key: str, reason: str
) -> None:
    """The language's own key plays the chosen card (Estonian "Käi": K, Finnish "Pelaa": P)."""
    host = people(lang=lang)
    guest = people(lang=lang)
    invite = create_room(host, "palace", seats=2, name="Kati")
    join(guest, invite, "Mati")
    start(host, [host, guest])
    for player in (host, guest):
        move(player, keyboard=False)
    wait_same_version([host, guest])
    waiting = guest if acting([host, guest]) == [host] else host
    waiting.page.locator("body").focus()
    waiting.page.keyboard.press("1")
    waiting.page.keyboard.press(play_key)
    refusal = waiting.page.locator(".refusal")
    refusal.wait_for(state="visible")
    assert refusal.inner_text() == reason


def test_a_refused_sheet_is_explained_beside_the_seats_in_the_page_language(
    people: Callable[..., Player],
) -> None:
    host = people(lang="et")
    page = open_sheet_form(host, "palace")
    page.select_option("#opt-deck", value='"36"')
    page.fill("#seats", "5")
    page.fill("#host-name", "Kati")
    page.click("#create-button")
    # The server refuses the sheet's player count; the form shows why beside the one seat count.
    error = page.locator("[data-option=most_players] .field-error")
    error.wait_for(state="visible")
    assert error.inner_text() == (
        "5 mängijale on vaja 46 kaarti, aga pakis on ainult 36: vali vähem mängijaid või rohkem kaarte."
    )
    assert page.url.endswith("/")
    # Three seats fit a 36-card deck: the sheet's count follows the room's seats, so the room is made.
    page.fill("#seats", "3")
    page.click("#create-button")
    page.wait_for_url(re.compile(r".*/r/[^/]+$"))
    page.wait_for_function("() => window.houserules && window.houserules.room")
    sheet = page.evaluate("() => window.houserules.room.sheet")
    assert (sheet["deck"], sheet["most_players"]) == ("36", 3)
