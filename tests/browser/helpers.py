"""Steps the browser tests share: create a room from the home page, join by its link, wait for states."""

from __future__ import annotations

import re
import time
from typing import Any

from tests.browser.conftest import Player

CARD = re.compile(r'"([2-9TJQKA][cdhs])"')


def create_room(
    host: Player,
    game: str,
    *,
    seats: int,
    name: str,
    options: dict[str, str] | None = None,
    approval: bool = False,
    preset: str | None = None,
) -> str:
    """Fill the home page's form as a person would and create the room; returns the invite URL."""
    page = host.page
    page.goto("/")
    page.wait_for_selector("#create-fields:not([hidden])")
    page.check(f"#game-{game}")
    if preset:
        page.select_option("#preset", value=f"preset:{preset}")
    if options:
        page.click("#sheet-details summary")
    for option, value in (options or {}).items():
        if page.locator(f"select#opt-{option}").count():
            page.select_option(f"#opt-{option}", value=value)
        elif page.locator(f"select#opt-{option}-choice").count():
            # A timer: one of its listed values, or "custom…" and the number.
            listed = page.eval_on_selector_all(f"#opt-{option}-choice option", "os => os.map((o) => o.value)")
            page.select_option(f"#opt-{option}-choice", value=value if value in listed else "custom")
            if value not in listed:
                page.fill(f"#opt-{option}", value)
        else:
            page.fill(f"#opt-{option}", value)
    page.fill("#seats", str(seats))
    page.fill("#host-name", name)
    if approval:
        page.check("#approval")
    page.click("#create-button")
    page.wait_for_url(re.compile(r".*/r/[^/]+$"))
    page.wait_for_selector("#play:not([hidden])")
    invite: str = page.input_value("#invite-link")
    return invite


def _send_join_form(player: Player, invite: str, name: str) -> Any:
    page = player.page
    page.goto(invite)
    page.wait_for_selector("#join:not([hidden])")
    page.fill("#join-name", name)
    page.click("#join-button")
    return page


def join(player: Player, invite: str, name: str) -> None:
    page = _send_join_form(player, invite, name)
    page.wait_for_selector("#play:not([hidden])")
    page.wait_for_function("() => window.houserules && window.houserules.seat !== null")


def ask_to_join(player: Player, invite: str, name: str) -> None:
    """Asks for a seat in a room whose host approves each player: the page waits for the host.
    The pending note shows once the request is made; the join form goes once the room's socket
    welcomed the page (only then can the request be withdrawn, and the form's return be seen)."""
    page = _send_join_form(player, invite, name)
    page.wait_for_selector("#pending:not([hidden])")
    page.wait_for_selector("#join", state="hidden")


def open_sheet_form(player: Player, game: str) -> Any:
    """The home page with ``game`` chosen and its "More house rules" open."""
    page = player.page
    page.goto("/")
    page.wait_for_selector("#create-fields:not([hidden])")
    page.check(f"#game-{game}")
    page.click("#sheet-details summary")
    return page


def watch(player: Player, invite: str) -> None:
    page = player.page
    page.goto(invite)
    page.wait_for_selector("#join:not([hidden])")
    page.click("#watch-button")
    page.wait_for_selector("#play:not([hidden])")
    page.wait_for_function("() => window.houserules && window.houserules.room !== null")


def version(player: Player) -> int:
    value = player.page.evaluate("() => window.houserules.version")
    return int(value) if value is not None else -1


def wait_version_above(player: Player, before: int, timeout: float = 20.0) -> None:
    player.page.wait_for_function(
        f"() => window.houserules.version !== null && window.houserules.version > {before}",
        timeout=timeout * 1000,
    )


def versions(player: Player) -> tuple[int, int]:
    """The version the page has drawn and the one at which the server acknowledged its last request
    (-1 for none yet): what ``wait_own_move_drawn`` compares with."""
    drawn, acked = player.page.evaluate("() => [window.houserules.version, window.houserules.acked]")
    return (-1 if drawn is None else int(drawn)), (-1 if acked is None else int(acked))


def wait_own_move_drawn(player: Player, before: tuple[int, int], timeout: float = 20.0) -> None:
    """Wait until the move this page just sent is answered and the page has drawn the table after
    it: acknowledged, the version it was acknowledged at; refused (another move made it stale), a
    newer version. A rising version alone is not enough where several seats act at once (a swap
    phase): another seat's move raises it while this page's own move is still on its way."""
    drawn, acked = before
    player.page.wait_for_function(
        f"""() => {{
          const h = window.houserules;
          if (h.unanswered !== 0 || h.version === null) return false;
          return h.acked !== null && h.acked > {acked} ? h.version >= h.acked : h.version > {drawn};
        }}""",
        timeout=timeout * 1000,
    )


def wait_same_version(players: list[Player], timeout: float = 20.0) -> int:
    """Wait until every page has drawn the same (newest) version."""
    deadline = time.monotonic() + timeout
    while True:
        versions = {version(p) for p in players}
        if len(versions) == 1:
            return versions.pop()
        if time.monotonic() > deadline:
            raise AssertionError(f"pages disagree on the version: {versions}")
        time.sleep(0.05)


def legal(player: Player) -> list[dict[str, Any]]:
    """The moves the page's newest state offers its seat, read once the page has drawn that state
    (its table module may still be loading when the state arrives, and the dock is drawn with it)."""
    drawn = player.page.wait_for_function(
        """() => {
          const h = window.houserules;
          if (!h || !h.state) return [];
          const drawn = h.state.version === undefined || h.version === h.state.version;
          return drawn ? h.state.legal || [] : null;
        }"""
    )
    moves: list[dict[str, Any]] = drawn.json_value()
    return list(moves)


def acting(players: list[Player]) -> list[Player]:
    """The players who may move now: each page knows only its own (``to_act`` is ``[own seat]``)."""
    return [p for p in players if legal(p)]


def press_offered(player: Player, kinds: list[str]) -> str | None:
    """Presses, in one step in the page, the first of ``kinds`` that the page's state offers and
    its dock draws a button for; None when none is (the state moved on: a bot, the others or a
    timer made the table go on). A read-then-click could press a button a newer state removed."""
    pressed: str | None = player.page.evaluate(
        """(kinds) => {
          const state = window.houserules.state;
          const offered = new Set(((state && state.legal) || []).map((a) => a.type));
          for (const kind of kinds) {
            const button = document.querySelector(`#dock button[data-action="${kind}"]`);
            if (button && offered.has(kind)) { button.click(); return kind; }
          }
          return null;
        }""",
        kinds,
    )
    return pressed
