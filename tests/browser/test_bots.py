"""A bot in the browser: the host seats one from the host panel, plays a Palace game against it to
the end (the bot waits its human-like moment before each move), and removes it afterwards."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.browser.conftest import Player, shoot
from tests.browser.helpers import create_room, legal, wait_version_above
from tests.browser.test_palace import NothingOffered, move

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def practice_room(host: Player, level: str = "good") -> None:
    """A two-seat Palace room of the host and one bot: it starts as the bot sits down."""
    create_room(host, "palace", seats=2, name="Kati")
    page = host.page
    page.wait_for_selector("#host-controls button[data-op=add_bot]")
    page.select_option("#bot-level", value=level)
    page.click("#host-controls button[data-op=add_bot]")
    page.wait_for_selector(".felt.palace")
    page.wait_for_function("() => window.houserules.state && window.houserules.state.view")


def play_against_the_bots(host: Player) -> int:
    """The host's moves through the page until the game ends; the bots move by themselves."""
    moves = vanished = 0
    while True:
        state = host.state()
        assert state is not None
        if state["outcome"]:
            return moves
        if legal(host):
            try:
                move(host, keyboard=False)
            except NothingOffered:
                # The offer read a moment ago went with a newer state (the bots move at once here):
                # the next turn reads the table again.
                vanished += 1
                assert vanished < 20, "the page kept offering moves it did not draw"
                continue
            moves += 1
        else:
            # The bot's move: newer than the state just read (reading the version again could
            # miss a move that came in meanwhile and then wait for one that never comes).
            wait_version_above(host, state["version"])
        assert moves < 800, "the game did not end"


def test_host_adds_a_bot_and_plays_a_palace_game_against_it_to_the_end(
    people: Callable[..., Player], quick_server: str
) -> None:
    host = people(base=quick_server)
    # One person and a bot fill the room: the game starts at once.
    practice_room(host)
    page = host.page
    page.wait_for_selector('#people li[data-seat="1"] .tag.bot')
    play_against_the_bots(host)
    page.wait_for_selector("#result:not([hidden])")
    assert "Game over" in page.inner_text("#result")
    # The bot's moves are marked in the log.
    assert page.locator('#log li[data-bot="1"]').count() > 0
    assert "bot" in page.inner_text('#log li[data-bot="1"] >> nth=0')
    # After the game the host takes the bot out again.
    page.click('#host-controls button[data-op=remove_bot][data-seat="1"]')
    page.wait_for_function("() => window.houserules.room.seats[1].name === null")
    assert page.locator("#people .tag.bot").count() == 0


def test_a_friend_takes_a_bots_seat_from_the_invite_page(
        people: Callable[..., Player], artefacts: Path) -> None:
    host = people()
    friend = people()
    invite = create_room(host, "palace", seats=3, name="Kati")
    page = host.page
    page.wait_for_selector("#host-controls button[data-op=add_bot]")
    page.select_option("#bot-seat", value="1")
    page.click("#host-controls button[data-op=add_bot]")
    page.wait_for_selector('#people li[data-seat="1"] .tag.bot')
    # The lobby's seat list tags the bot too (and does not call it "not connected").
    lobby_seat = page.locator('#lobby-seats li[data-seat="1"]')
    lobby_seat.locator(".tag.bot").wait_for()
    assert lobby_seat.locator(".tag.bot").inner_text() == "bot"
    assert "Bot 1" in lobby_seat.inner_text() and "not connected" not in lobby_seat.inner_text()
    assert page.locator('#lobby-seats li[data-seat="0"] .tag.bot').count() == 0
    assert page.locator('#lobby-seats li[data-seat="2"] .tag.bot').count() == 0
    shoot(host, artefacts, "bots-lobby")
    # The invite page offers the bot's seat, saying whose place the friend takes.
    friend.page.goto(invite)
    friend.page.wait_for_selector("#join:not([hidden])")
    label = friend.page.locator('label[for="join-seat-1"]')
    assert "Bot 1" in label.inner_text()
    friend.page.fill("#join-name", "Mari")
    friend.page.check("#join-seat-1")
    friend.page.click("#join-button")
    friend.page.wait_for_function("() => window.houserules && window.houserules.seat === 1")
    page.wait_for_function("() => window.houserules.room.seats[1].name === 'Mari'")
    assert page.locator("#people .tag.bot").count() == 0
