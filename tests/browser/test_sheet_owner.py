"""The browser keeps a saved sheet's edit token (static/js/api.js) and changes the sheet with it;
without it the server refuses the change."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.browser.conftest import Player, shoot
from tests.browser.helpers import open_sheet_form

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


def test_the_browser_keeps_the_edit_token_of_a_sheet_it_saved(people: Callable[..., Player]) -> None:
    page = people().page
    page.goto("/")
    result = page.evaluate("""async () => {
        const { api, sheetToken } = await import("/static/js/api.js");
        const saved = await api.saveSheet({ game: "palace", name: "Mine" });
        const kept = sheetToken(saved.id);
        const changed = await api.updateSheet(saved.id, { options: { turn_timer_seconds: 45 } });
        localStorage.removeItem(`houserules:sheet:${saved.id}`);
        let refused = null;
        try {
            await api.updateSheet(saved.id, { options: { turn_timer_seconds: 50 } });
        } catch (error) {
            refused = [error.status, error.code];
        }
        const copy = await api.copySheet(saved.id, { name: "Copy" });
        return { token: saved.edit_token, kept, version: changed.version, refused,
                 copyKept: sheetToken(copy.id) === copy.edit_token };
    }""")
    assert result["token"] and result["kept"] == result["token"]
    assert result["version"] == 2
    assert result["refused"] == [403, "not_sheet_owner"]
    assert result["copyKept"] is True


def test_the_owner_updates_a_saved_sheet_from_the_form(
    people: Callable[..., Player], artefacts: Path
) -> None:
    player = people()
    page = open_sheet_form(player, "palace")
    page.fill("#sheet-name", "Friday rules")
    page.click("#save-sheet")
    page.wait_for_function("() => document.querySelector('#sheet-save-note').textContent.includes('Saved')")
    # The sheet saved here may be changed here: the button names it.
    assert page.inner_text("#update-sheet") == "Update “Friday rules”"
    page.fill("#opt-jokers", "1")
    page.dispatch_event("#opt-jokers", "change")
    page.click("#update-sheet")
    page.wait_for_function(
        "() => document.querySelector('#sheet-save-note').textContent.includes('version 2')"
    )
    assert "Friday rules (version 2)" in page.inner_text("#preset")
    page.locator("#update-sheet").scroll_into_view_if_needed()
    shoot(player, artefacts, "sheet-updated")
    chosen = page.input_value("#preset")
    sheet_id = chosen.split(":", 1)[1]
    stored = page.evaluate(f"() => fetch('/api/sheets/{sheet_id}').then((r) => r.json())")
    assert stored["version"] == 2 and stored["options"]["jokers"] == 1
    # Without the edit token (another browser, or it was cleared) the button is not offered.
    page.evaluate(f"() => localStorage.removeItem('houserules:sheet:{sheet_id}')")
    page.reload()
    page.wait_for_selector("#create-fields:not([hidden])")
    page.check("#game-palace")
    page.wait_for_selector(f"#preset option[value='{chosen}']", state="attached")
    page.select_option("#preset", value=chosen)
    assert page.locator("#update-sheet").is_hidden()
