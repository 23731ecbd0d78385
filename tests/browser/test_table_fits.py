"""The table fits the window: at a laptop's 1280x800 and a phone's 390x844, a seated player sees
without scrolling whose turn it is, the own hand, the controls, what the move answers (the pile and
its "next" rule, the board and pot, the trick and talon), each opponent's card counts and the last
move: at the start of play, in the middle of a game and after a reload. The room is a practice room
(the host and two bots), which starts as the last bot sits down."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, PHONE, Player, ServerProcess, screenshot
from tests.browser.fit import measure, table_misfits
from tests.browser.helpers import create_room, press_offered, wait_version_above

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

MOVES_TO_MID_GAME = 8


@pytest.fixture(scope="module")
def quick_bots(tmp_path_factory: pytest.TempPathFactory, chromium_path: str) -> Iterator[str]:
    """A server of its own whose bots move at once (the human-like pause is for people watching)."""
    process = ServerProcess(tmp_path_factory.mktemp("fit-data"),
                            settings={"HOUSERULES_BOT_DELAY_MIN": "0", "HOUSERULES_BOT_DELAY_MAX": "0"})
    process.start()
    try:
        yield process.base
    finally:
        process.stop()


def practice_room(host: Player, game: str, seats: int = 3) -> None:
    """The host alone with bots in the other seats: the room fills and the game starts."""
    create_room(host, game, seats=seats, name="Kati")
    page = host.page
    for _ in range(seats - 1):
        before = page.locator("#people .tag.bot").count()
        page.click("#host-controls button[data-op=add_bot]")
        page.wait_for_function(f"() => document.querySelectorAll('#people .tag.bot').length > {before}")
    page.wait_for_selector(f".felt.{game}")


def my_turn(host: Player, game: str) -> None:
    """Wait until the host may move (bots move by themselves meanwhile). In Thousand, until its
    seat is to act, not only offered a claim out of turn before the bidding, which the next bid
    takes away (in the other games a move offered is one the table waits for)."""
    waits = " && window.houserules.myTurn" if game == "thousand" else ""
    try:
        host.page.wait_for_function(
            "() => window.houserules.state && window.houserules.state.view"
            " && (window.houserules.state.legal || []).length > 0"
            " && document.querySelector('#dock [data-action]')" + waits
        )
    except Exception as error:
        raise AssertionError(f"the host's turn never came: {turn_facts(host)}") from error


def turn_facts(player: Player) -> dict[str, Any]:
    """What the page holds about the turn, for a failure's message."""
    facts: dict[str, Any] = player.page.evaluate(
        """() => {
          const s = window.houserules.state || {};
          const v = s.view || {};
          return {seat: v.seat, legal: (s.legal || []).map((a) => a.type), myTurn: window.houserules.myTurn,
                  actor: v.hand ? v.hand.actor : v.turn, phase: v.hand ? v.hand.phase : v.phase,
                  status: (document.querySelector('#dock .status-line') || {}).textContent,
                  controls: Array.from(document.querySelectorAll('#dock [data-action]'))
                    .map((e) => e.dataset.action)};
        }"""
    )
    return facts


def palace_move(player: Player) -> None:
    from tests.browser.test_palace import move

    move(player, keyboard=False)


# The host never calls: a bot's all-in called would leave it out of chips, watching the hand
# instead of taking turns. The move is chosen and pressed in one step in the page, from the
# buttons drawn for the state it holds, so a state that moves on meanwhile (the others' answers
# ending a run-it-twice vote or the after-hand show) is no stale click; the loop waits for the
# next turn instead.
HOLDEM_MOVES = ("no_straddle", "check", "fold", "run_once", "muck", "show")


def holdem_move(player: Player) -> None:
    before = player.page.evaluate("() => window.houserules.version")
    press_offered(player, list(HOLDEM_MOVES))
    # When none was pressed, the state moved on before the page drew buttons for it; the table goes on
    # without the host (bots, the decision timer) until its next turn.
    wait_version_above(player, before)


def thousand_move(player: Player, opened: dict[str, bool]) -> None:
    from tests.browser.test_thousand import move

    move(player, opened)


def check(host: Player, game: str, artefacts: Path, moment: str, *, last_move: bool) -> None:
    my_turn(host, game)
    host.page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    seen = measure(host, game)
    size = f"{seen['width']}x{seen['height']}"
    seats = host.page.evaluate("() => window.houserules.room.capacity")
    screenshot(host.page, artefacts / f"fit-{game}-{seats}-{size}-{moment}.png")
    problems = table_misfits(seen, my_turn=True, last_move=last_move)
    assert not problems, f"{game} at {size}, {moment}: {problems}; {turn_facts(host)}"
    if seen["width"] >= 1000:
        # On a laptop the action log is beside the table, its newest lines above the dock.
        log = host.page.locator("#log").bounding_box()
        assert log is not None and log["y"] >= 0, log
        assert log["y"] + min(log["height"], 60) <= seen["dockTop"], (log, seen["dockTop"])


# Three seats for each game at both sizes, in each language; and a fuller table of six friends.
CASES = [
    ("palace", PHONE, "et", 3), ("palace", DESKTOP, "fi", 3),
    ("holdem", PHONE, "fi", 3), ("holdem", DESKTOP, "en", 3),
    ("thousand", PHONE, "en", 3), ("thousand", DESKTOP, "et", 3),
    ("palace", PHONE, "fi", 5), ("holdem", PHONE, "et", 6), ("holdem", DESKTOP, "fi", 6),
]


@pytest.mark.parametrize(("game", "viewport", "lang", "seats"), CASES,
                         ids=[f"{g}-{v['width']}x{v['height']}-{lang}-{n}" for g, v, lang, n in CASES])
def test_the_table_fits_the_window_at_start_mid_game_and_after_a_reload(
    people: Callable[..., Player], quick_bots: str, games: dict[str, Any], artefacts: Path,
    game: str, viewport: dict[str, int], lang: str, seats: int,
) -> None:
    if game not in games:
        pytest.skip(f"the {game} game is not installed")
    host = people(viewport=viewport, lang=lang, base=quick_bots)
    practice_room(host, game, seats)
    check(host, game, artefacts, "start", last_move=False)
    opened = {"bid": False}
    for _ in range(MOVES_TO_MID_GAME):
        my_turn(host, game)
        if game == "palace":
            palace_move(host)
        elif game == "holdem":
            holdem_move(host)
        else:
            thousand_move(host, opened)
        state = host.state()
        assert state is not None and not state["outcome"], "the game ended before its middle"
    check(host, game, artefacts, "mid-game", last_move=True)
    host.page.reload()
    host.page.wait_for_selector(f".felt.{game}")
    check(host, game, artefacts, "reloaded", last_move=True)


def test_an_opponents_known_cards_are_one_line_on_a_phone_and_open_with_a_button(
    people: Callable[..., Player], quick_bots: str, artefacts: Path,
) -> None:
    host = people(viewport=PHONE, base=quick_bots)
    practice_room(host, "palace")
    page = host.page
    toggle = page.locator(".seat-box [data-role=known-toggle]").first
    # Play on until a bot picks up the pile: the cards it took are known to everyone (P-rules' pick-up).
    # It is looked for only on the host's turn, when the table waits for the host (this sheet has no
    # move out of turn): between two of the host's turns a bot may play the known cards away again.
    for _ in range(150):
        state = host.state()
        assert state is not None and not state["outcome"], "the game ended before anyone picked up"
        my_turn(host, "palace")
        if toggle.count():
            break
        palace_move(host)
    assert toggle.count(), "no opponent picked up the pile"
    box = page.locator(".seat-box:has([data-role=known-toggle])").first
    line = box.locator(".known-line")
    cards = box.locator(".known-cards")
    assert line.is_visible() and line.inner_text().strip()
    assert not cards.is_visible()
    assert toggle.get_attribute("aria-expanded") == "false"
    problems = table_misfits(measure(host, "palace"), my_turn=True, last_move=True)
    assert not problems, problems
    toggle.click()
    page.wait_for_selector(".seat-box .known.open .known-cards")
    toggle = page.locator(".seat-box [data-role=known-toggle]").first
    assert toggle.get_attribute("aria-expanded") == "true"
    assert box.locator(".known-cards [data-card]").count() >= 1
    screenshot(page, artefacts / "fit-palace-known-open-phone.png")
    toggle.click()
    page.wait_for_selector(".seat-box .known:not(.open) .known-line")
