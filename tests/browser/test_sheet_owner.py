"""The browser keeps a saved sheet's edit token (static/js/api.js) and changes the sheet with it;
without it the server refuses the change."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.browser.conftest import Player

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
