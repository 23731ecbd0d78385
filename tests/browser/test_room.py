"""The room around the table: approval, removal, play again, and coming back after a server restart."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.browser.conftest import PHONE, Player, ServerProcess, shoot
from tests.browser.helpers import acting, ask_to_join, create_room, join, wait_same_version, watch

# A stuck page fails its test instead of hanging the run.
pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def test_host_approves_a_player_and_removes_one(people: Callable[..., Player]) -> None:
    host = people()
    guest = people()
    invite = create_room(host, "palace", seats=3, name="Kati", approval=True)
    ask_to_join(guest, invite, "Mati")
    # The host sees the request and approves it; the guest is seated without reloading.
    host.page.wait_for_selector("#host-controls button[data-op=approve]")
    assert "Mati" in host.page.inner_text("#host-controls")
    host.page.click("#host-controls button[data-op=approve]")
    guest.page.wait_for_function("() => window.houserules.seat !== null")
    guest.page.wait_for_selector("#pending", state="hidden")
    host.page.wait_for_function("() => document.querySelector('#people').textContent.includes('Mati')")
    # Removing a player sends them back to the join form with the reason, and their token is gone.
    host.page.once("dialog", lambda dialog: dialog.accept())
    host.page.click("#host-controls button[data-op=kick]")
    guest.page.wait_for_selector("#join:not([hidden])")
    assert "removed" in guest.page.inner_text("#join-error")
    stored = guest.page.evaluate(
        "(room) => localStorage.getItem('houserules:room:' + room)", invite.split("/r/")[1]
    )
    assert stored is None


def test_a_restarted_server_brings_everyone_back_to_their_seats(
    people: Callable[..., Player], tmp_path: Path
) -> None:
    own = ServerProcess(tmp_path)
    own.start()
    try:
        host = people(base=own.base)
        guest = people(base=own.base)
        invite = create_room(host, "palace", seats=2, name="Kati")
        join(guest, invite, "Mati")
        host.page.click("#lobby-start button[data-op=start]")
        for player in (host, guest):
            player.page.wait_for_selector(".felt.palace")
        version = wait_same_version([host, guest])
        hands = {p.seat(): (p.state() or {})["view"]["hand"] for p in (host, guest)}
        dot = ("() => getComputedStyle(document.querySelector('#people .person:not(.you) .dot'))"
               ".backgroundColor")
        host.page.wait_for_selector("#people .person.online:not(.you)")
        green = host.page.evaluate(dot)
        own.stop()
        # The pages notice the dropped connection and say so.
        for player in (host, guest):
            player.page.wait_for_selector("#banner:not([hidden])")
            # While this page's own socket is down, nobody's presence is known: the dots are grey
            # (no fill), and the banner says so.
            assert player.page.evaluate(dot) in ("rgba(0, 0, 0, 0)", "transparent")
            assert "Who is online is not known" in player.page.inner_text("#banner")
        own.start()
        for player in (host, guest):
            player.page.wait_for_selector("#banner", state="hidden", timeout=20_000)
            player.page.wait_for_function(f"() => window.houserules.version === {version}")
            player.page.wait_for_function(f"(green) => ({dot})() === green", arg=green)
        assert {p.seat(): (p.state() or {})["view"]["hand"] for p in (host, guest)} == hands
        # Play goes on after the restart.
        host.page.click("button[data-action=ready]")
        host.page.wait_for_function(f"() => window.houserules.version > {version}")
    finally:
        own.stop()


def test_play_again_after_a_finished_game(people: Callable[..., Player]) -> None:
    from tests.browser.test_palace import move, start

    host = people()
    guest = people()
    invite = create_room(host, "palace", seats=2, name="Kati", options={"stalemate_moves": "50"})
    join(guest, invite, "Mati")
    start(host, [host, guest])
    seated = {host.seat(): host, guest.seat(): guest}
    for _ in range(800):
        wait_same_version([host, guest])
        state = host.state()
        assert state is not None
        if state["outcome"]:
            break
        for player in acting(list(seated.values())):
            move(player, keyboard=False)
    host.page.click("#host-controls button[data-op=rematch]")
    for player in (host, guest):
        player.page.wait_for_function(
            "() => window.houserules.state && window.houserules.state.game_no === 2"
        )
        player.page.wait_for_selector("#result", state="hidden")
    assert "New game" in guest.page.inner_text("#log")
    # The room remembers the first game's result for its tally, across a reload too.
    guest.page.reload()
    guest.page.wait_for_function(
        "() => window.houserules.room && window.houserules.room.results.length === 1"
    )


def test_chat_and_handing_the_host_role_over(people: Callable[..., Player]) -> None:
    host = people()
    guest = people()
    invite = create_room(host, "palace", seats=2, name="Kati")
    join(guest, invite, "Mati")
    guest.page.fill("#chat-input", "<b>hei</b> kaikki")
    guest.page.press("#chat-input", "Enter")
    host.page.wait_for_function("() => document.querySelector('#chat').textContent.includes('kaikki')")
    # Chat is text, never markup.
    assert host.page.locator("#chat b", has_text="hei").count() == 0
    assert "<b>hei</b> kaikki" in host.page.inner_text("#chat")
    assert guest.page.locator("#host-box").is_hidden()
    host.page.select_option("#host-controls select", str(guest.seat()))
    host.page.click("#host-controls button[data-op=handover]")
    guest.page.wait_for_selector("#host-box:not([hidden])")
    host.page.wait_for_selector("#host-box", state="hidden")
    assert guest.page.locator("#lobby-start button[data-op=start]").count() == 1


def test_a_spectator_can_take_a_free_seat(people: Callable[..., Player]) -> None:
    host = people()
    visitor = people()
    invite = create_room(host, "palace", seats=2, name="Kati")
    watch(visitor, invite)
    assert visitor.seat() is None
    visitor.page.click("#take-seat")
    visitor.page.wait_for_selector("#join:not([hidden])")
    visitor.page.fill("#join-name", "Mati")
    visitor.page.click("#join-button")
    visitor.page.wait_for_function("() => window.houserules.seat === 1")
    host.page.wait_for_function("() => document.querySelector('#people').textContent.includes('Mati')")
    host.page.wait_for_function("() => window.houserules.room.spectators === 0")


def test_the_host_changes_the_rules_in_the_lobby(people: Callable[..., Player]) -> None:
    host = people()
    guest = people()
    # Five seats: the sheet's player count is the room's, so a 36-card deck cannot deal for them.
    invite = create_room(host, "palace", seats=5, name="Kati")
    join(guest, invite, "Mati")
    assert guest.page.locator("#lobby-sheet").is_hidden()
    host.page.click("#lobby-sheet summary")
    host.page.uncheck("#opt-eight_transparent")
    host.page.click("#lobby-sheet-save")
    host.page.wait_for_selector("#lobby-sheet-note:not([hidden])")
    guest.page.wait_for_function("() => window.houserules.room.sheet.eight_transparent === false")
    # An impossible sheet is refused and the reason shown.
    host.page.select_option("#opt-deck", value='"36"')
    host.page.click("#lobby-sheet-save")
    refusal = host.page.locator("#lobby-sheet .field-error:visible, #lobby-sheet-error:visible")
    refusal.first.wait_for()
    assert "36" in refusal.first.inner_text()


def test_one_tab_too_many_steps_aside_and_a_player_leaves(
    people: Callable[..., Player], artefacts: Path
) -> None:
    host = people()
    guest = people(viewport=PHONE)
    invite = create_room(host, "palace", seats=3, name="Kati")
    join(guest, invite, "Mati")
    host.page.wait_for_function("() => document.querySelector('#people').textContent.includes('Mati')")
    seat = guest.seat()
    # The same person may keep the room open in a few tabs and devices (HOUSERULES_MAX_SOCKETS_PER_MEMBER,
    # 4 by default). One more closes the oldest, which says so instead of reconnecting (two tabs would
    # push each other out for ever).
    first = guest.page
    others = []
    for _ in range(4):
        tab = guest.context.new_page()
        tab.set_default_timeout(20_000)
        tab.on("pageerror", lambda error: guest.errors.append(str(error)))
        tab.goto(invite)
        tab.wait_for_function(f"() => window.houserules && window.houserules.seat === {seat}")
        others.append(tab)
    first.wait_for_selector("#replaced:not([hidden])")
    assert "another tab" in first.inner_text("#replaced")
    shoot(guest, artefacts, "room-replaced")
    # "Use it here" brings the first tab back; now the oldest of the others steps aside.
    first.click("#use-here")
    others[0].wait_for_selector("#replaced:not([hidden])")
    first.wait_for_selector("#replaced", state="hidden")
    first.wait_for_function(
        f"() => window.houserules.seat === {seat} && !document.querySelector('#play').hidden"
    )
    for tab in others:
        tab.close()
    # The host has no leave button (the role is handed over first); a seated guest has one.
    assert host.page.locator("#leave-room").is_hidden()
    first.wait_for_selector("#leave-room:not([hidden])")
    first.once("dialog", lambda dialog: dialog.accept())
    first.click("#leave-room")
    first.wait_for_selector("#join:not([hidden])")
    assert "You left the room" in first.inner_text("#join-error")
    room = invite.split("/r/")[1]
    assert first.evaluate("(room) => localStorage.getItem('houserules:room:' + room)", room) is None
    # The seat is free again, for the host's list and for the join form the leaver now sees.
    host.page.wait_for_function("() => !document.querySelector('#people').textContent.includes('Mati')")
    assert first.locator(f"#join-seat-{seat}").count() == 1


def test_a_guest_withdraws_a_join_request(people: Callable[..., Player]) -> None:
    host = people()
    guest = people(lang="et")
    invite = create_room(host, "palace", seats=3, name="Kati", approval=True)
    ask_to_join(guest, invite, "Mati")
    host.page.wait_for_selector("#host-controls button[data-op=approve]")
    guest.page.once("dialog", lambda dialog: dialog.accept())
    guest.page.click("#cancel-request")
    guest.page.wait_for_selector("#join:not([hidden])")
    assert guest.page.inner_text("#join-error") == "Sinu liitumissoov on tagasi võetud."
    # The request is gone from the host's panel.
    host.page.wait_for_selector("#host-controls button[data-op=approve]", state="detached")
