"""Nobody stalls the table, in the browser: when a player's page closes on her turn, the other
pages show her as away with a running countdown to the stand-in bot; only the host's page offers
the answers, and they work (skip her turn, a bot for her now); a removed player's seat says its
cards wait, the join form tells a newcomer that they take over a running game's seat and cards,
and the host seats a bot there."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.browser.conftest import PHONE, Player, shoot
from tests.browser.helpers import acting, create_room, join, wait_same_version, wait_version_above
from tests.browser.test_palace import move

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

KATE = 2
CLOCK = re.compile(r"^[01]:[0-5]\d$")


def play_until_alone(players: list[Player], seat: int) -> None:
    """Moves through the pages until only ``seat``'s page may move (its turn: the table waits)."""
    for _ in range(200):
        wait_same_version(players)
        movers = acting(players)
        if [p.seat() for p in movers] == [seat]:
            return
        others = [p for p in movers if p.seat() != seat]
        move((others or movers)[0], keyboard=False)
    raise AssertionError("her turn never came")


def test_an_away_player_is_shown_with_a_countdown_and_the_host_answers(
        people: Callable[..., Player], artefacts: Path) -> None:
    host, mari, kate = people(), people(), people()
    invite = create_room(host, "palace", seats=3, name="Kati")
    join(mari, invite, "Mari")
    join(kate, invite, "Kate")
    host.page.click("#lobby-start button[data-op=start]")
    players = [host, mari, kate]
    for player in players:
        player.page.wait_for_function("() => window.houserules.state && window.houserules.state.view")
    play_until_alone(players, KATE)
    at_turn = wait_same_version(players)
    kate.context.close()

    # Every other page: Kate is away, a bot takes over after the preset's 90 s, counting down.
    line = '#presence .away[data-seat="2"]'
    for page in (host.page, mari.page):
        page.wait_for_selector(f"{line} .countdown")
        text = page.inner_text(line)
        assert text.startswith("Kate left the table — a bot takes over in"), text
        shown = page.inner_text(f"{line} .countdown")
        assert CLOCK.match(shown) and shown <= "1:30", shown
        # It runs: the next second shows a smaller number.
        page.wait_for_function(f"""() => {{
            const el = document.querySelector('{line} .countdown');
            return el && el.textContent < {shown!r};
        }}""")
    # Only the host's page offers the answers.
    assert mari.page.locator("#presence button").count() == 0
    assert host.page.locator(f"{line} button[data-op=stand_in]").count() == 1
    assert host.page.locator(f"{line} button[data-op=skip]").count() == 1
    shoot(mari, artefacts, "standin-away-countdown")
    shoot(host, artefacts, "standin-away-host")

    # The host skips her turn: the game's default move is made for her seat.
    host.page.click(f"{line} button[data-op=skip]")
    wait_version_above(mari, at_turn)
    assert mari.page.evaluate("() => window.houserules.state.version") > at_turn
    # The host lets a bot play for her now: every page says so, and the countdown is gone.
    host.page.click(f"{line} button[data-op=stand_in]")
    for page in (host.page, mari.page):
        page.wait_for_function(f"""() => {{
            const el = document.querySelector('{line}');
            return el && el.textContent.startsWith('A bot plays for Kate until they are back.');
        }}""")
        assert page.locator(f"{line} .countdown").count() == 0
    assert host.page.locator(f"{line} button[data-op=stand_in]").count() == 0
    shoot(mari, artefacts, "standin-bot-plays")

    # Kate is removed: her seat's cards wait for a newcomer, and the notice says so.
    host.page.once("dialog", lambda dialog: dialog.accept())
    host.page.select_option("#host-controls select[aria-label=Player]", value=str(KATE))
    host.page.click("#host-controls button[data-op=kick]")
    for page in (host.page, mari.page):
        page.wait_for_function(f"""() => {{
            const el = document.querySelector('{line}');
            return el && el.textContent.startsWith('Seat 3 is empty: its cards wait');
        }}""")
    # A newcomer opening the invite is told what taking the seat means.
    newcomer = people(viewport=PHONE)
    newcomer.page.goto(invite)
    newcomer.page.wait_for_selector("#join:not([hidden])")
    newcomer.page.wait_for_selector("#join-game-note:not([hidden])")
    assert newcomer.page.inner_text("#join-game-note") == \
        "This game is under way: you take over seat 3 and its cards."
    shoot(newcomer, artefacts, "standin-join-running-game")
    # The host seats a bot there instead: it plays the seat's cards and the notice goes.
    host.page.click(f"{line} button[data-op=add_bot]")
    for page in (host.page, mari.page):
        page.wait_for_selector('#people li[data-seat="2"] .tag.bot')
        page.wait_for_function(f"() => !document.querySelector('{line}')")
    # The table goes on: the people's moves through the pages, the bot's for seat 3 by itself.
    for _ in range(100):
        if host.page.locator('#log li[data-bot="1"]').count():
            break
        current = wait_same_version([host, mari])
        movers = acting([host, mari])
        if movers:
            move(movers[0], keyboard=False)
        else:
            wait_version_above(host, current)
    else:
        raise AssertionError("the bot never played the vacated seat")
