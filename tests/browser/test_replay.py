"""The replay of a game in the page: reached from the game-over box, drawn by the same table as live
play, stepped back and forth, jumped to the end, seen from another seat, autoplayed; a Hold'em table's
finished hands reached from the table while it plays on."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Player, shoot
from tests.browser.helpers import create_room, legal, wait_version_above
from tests.browser.test_bots import play_against_the_bots, practice_room

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def shown(player: Player) -> dict[str, Any]:
    """The frame on the replay page and the hand its table draws."""
    result: dict[str, Any] = player.page.evaluate("""() => {
        const r = window.houserules;
        const cards = document.querySelectorAll('#dock-table .hand [data-card]');
        const hand = [...cards].map((e) => e.dataset.card);
        return { index: r.index, length: r.length, loaded: r.frames.length, seat: r.seat,
                 frame: r.frames[r.index], hand };
    }""")
    return result


def test_a_finished_palace_game_replays_from_a_players_view(
    people: Callable[..., Player], artefacts: Path, quick_server: str
) -> None:
    host = people(lang="et", base=quick_server)
    practice_room(host)
    play_against_the_bots(host)
    final = host.state()
    assert final is not None and final["outcome"]
    host.page.wait_for_selector("#result:not([hidden])")
    # The game-over box offers the replay, from the player's own seat.
    host.page.click("#replay-link")
    host.page.wait_for_selector("#play:not([hidden]) .felt.palace")
    host.page.wait_for_function("() => window.houserules.frames.length === window.houserules.length")
    first = shown(host)
    assert first["index"] == 0 and first["seat"] == 0
    assert host.page.input_value("#replay-seat") == "0"
    assert first["hand"] and sorted(first["hand"]) == sorted(first["frame"]["view"]["hand"])
    assert host.page.inner_text("#replay-position") == f"Käik 1/{first['length']}"
    assert host.page.locator("#replay-back").is_disabled()
    # Step forward with the button and the arrow key, back again: the table follows each frame.
    host.page.click("#replay-forward")
    host.page.keyboard.press("ArrowRight")
    assert shown(host)["index"] == 2
    host.page.keyboard.press("ArrowLeft")
    now = shown(host)
    assert now["index"] == 1 and sorted(now["hand"]) == sorted(now["frame"]["view"]["hand"] or [])
    assert host.page.locator("#log li").count() >= 1
    shoot(host, artefacts, "replay-et")
    # The end: the last frame is the final state the player saw, with its outcome named.
    host.page.click("#replay-last")
    end = shown(host)
    assert end["index"] == end["length"] - 1
    assert end["frame"]["version"] == final["version"] and end["frame"]["outcome"] == final["outcome"]
    assert end["frame"]["view"] == final["view"]
    assert host.page.locator("#replay-outcome").is_visible()
    assert host.page.locator("#replay-forward").is_disabled()
    # Nobody moves in a replay: the dock tells no one it is their turn and offers no move, and the
    # jump list says where the replay stands: at the end (not at the start of the game).
    assert "Sinu käik" not in host.page.inner_text("#dock .status-line")
    assert host.page.locator("#dock button[data-action]").count() == 0
    assert host.page.input_value("#replay-jump") == "end"
    assert host.page.inner_text("#replay-jump option:checked") == "Mängu lõpp"
    # A frame where the seat was on turn in play: still no "your turn" and no Play button.
    # (after the bot has moved in play, so there is a last move to show)
    on_turn = host.page.evaluate("""() => {
        const frames = window.houserules.frames;
        let botMoved = false;
        return frames.findIndex((f) => {
            botMoved = botMoved || (f.events || []).some((e) => e.seat === 1 && e.type === "played");
            return botMoved && f.view && f.view.phase === "play" && (f.view.waiting_for || []).includes(0)
                && (f.view.hand || []).length;
        });
    }""")
    assert on_turn > 0
    host.page.click("#replay-first")
    # At the start no move has been made: the felt's last-move line is empty, not the game's last.
    assert host.page.inner_text("#last-move").strip() == ""
    for _ in range(on_turn):
        host.page.keyboard.press("ArrowRight")
    assert shown(host)["index"] == on_turn
    assert "Sinu käik" not in host.page.inner_text("#dock .status-line")
    assert host.page.locator("#dock button[data-action]").count() == 0
    assert host.page.input_value("#replay-jump") != "end"
    # The felt shows the replay's latest move, as the log words it.
    assert host.page.inner_text("#last-move").strip()
    shoot(host, artefacts, "replay-on-turn-et")
    host.page.click("#replay-last")
    # As a spectator saw it, from the start: no hand in the dock, only the table's open cards on the
    # page, none of the host's hand (the server sends only what a spectator was shown).
    host.page.click("#replay-first")
    host.page.select_option("#replay-seat", value="")
    host.page.wait_for_function("() => window.houserules.seat === null && window.houserules.index === 0")
    assert "seat=" not in host.page.url
    watched = shown(host)
    assert watched["hand"] == []
    view = watched["frame"]["view"]
    public = set(view["pile"]) | {c for p in view["players"] for c in (p.get("face_up") or []) if c}
    on_page = set(host.page.eval_on_selector_all("[data-card]", "els => els.map((e) => e.dataset.card)"))
    assert on_page <= public and not on_page & set(first["hand"])
    # The game's seed was revealed at its end, so the bot's seat may be watched too: its own hand.
    assert host.page.locator("#replay-seat option").count() == 3
    host.page.select_option("#replay-seat", value="1")
    host.page.wait_for_function("() => window.houserules.seat === 1 && window.houserules.index === 0")
    bot = shown(host)
    assert bot["hand"] and sorted(bot["hand"]) == sorted(bot["frame"]["view"]["hand"])
    assert not set(bot["hand"]) & set(first["hand"])
    # Autoplay moves on by itself and stops at the end; the button then offers it again.
    host.page.click("#replay-play")
    host.page.wait_for_function("() => window.houserules.index >= 2")
    host.page.click("#replay-play")
    assert host.page.get_attribute("#replay-play", "aria-pressed") == "false"
    shoot(host, artefacts, "replay-bot-seat-et")
    assert "seat=1" in host.page.url


def test_an_unfinished_game_has_no_replay_yet(people: Callable[..., Player]) -> None:
    host = people()
    practice_room(host)
    room = host.page.url.split("/r/")[1]
    host.page.goto(f"/r/{room}/replay/1")
    host.page.wait_for_selector("#room-error:not([hidden])")
    assert "has not ended" in host.page.inner_text("#room-error")


def test_a_holdem_tables_finished_hands_replay_from_the_table_while_it_plays_on(
    people: Callable[..., Player], games: dict[str, Any], artefacts: Path
) -> None:
    if "holdem" not in games:
        pytest.skip("the holdem game is not installed on this server")
    host = people(lang="fi")
    create_room(host, "holdem", seats=2, name="Kati")
    page = host.page
    page.wait_for_selector("#host-controls button[data-op=add_bot]")
    page.click("#host-controls button[data-op=add_bot]")  # one person and a bot: the table starts
    page.wait_for_selector(".felt.holdem")
    page.wait_for_function("() => window.houserules.state && window.houserules.state.view")
    # The host checks or folds (never busts) until hand 3 is dealt; the bot plays its own hands.
    assert page.locator("#replay-hands").count() == 0
    for _ in range(300):
        state = host.state()
        assert state is not None and state["outcome"] is None
        hand = state["view"]["hand"]
        if hand is not None and hand["number"] >= 3:
            break
        types = {a["type"] for a in legal(host)}
        choice = next((t for t in ("check", "fold", "muck", "no_straddle", "run_once") if t in types), None)
        if choice is not None:
            page.click(f".dock-holdem [data-action={choice}]")
        wait_version_above(host, state["version"])
    else:
        raise AssertionError("hand 3 was never dealt")
    # The finished hands replay from the table's own link, at the latest one's start.
    link = page.locator("#replay-hands")
    assert link.is_visible() and link.inner_text() == "Jakojen toisto"
    shoot(host, artefacts, "holdem-table-replay-link-fi")
    link.click()
    page.wait_for_selector("#play:not([hidden]) .felt.holdem")
    page.wait_for_function("""() => {
        const r = window.houserules;
        const last = r.marks[r.marks.length - 1];
        return r.frames.length === r.length && r.marks.length > 1 && r.index === last.index;
    }""")
    replay = page.evaluate("""() => {
        const r = window.houserules;
        return { marks: r.marks, index: r.index, seat: r.seat, inPlay: r.inPlay, frame: r.frames[r.index],
                 last: r.frames[r.frames.length - 1] };
    }""")
    latest = replay["marks"][-1]
    assert latest["kind"] == "hand" and latest["number"] >= 2 and replay["seat"] == 0 and replay["inPlay"]
    assert replay["frame"]["view"]["hand"]["number"] == latest["number"]
    assert page.input_value("#replay-jump") == str(latest["index"])
    assert page.locator("#replay-jump option:checked").inner_text() == f"Jako {latest['number']}"
    assert page.locator("#replay-in-play").is_visible()
    # The end is the table as the last finished hand left it: nothing of the hand in play.
    assert replay["last"]["view"]["hand"] is None
    page.click("#replay-last")
    page.wait_for_function("() => window.houserules.index === window.houserules.length - 1")
    assert page.inner_text(".dock-holdem .status-line") == "Odotetaan seuraavaa jakoa."
    summary = replay["last"]["view"]["last_hand"]
    shown = [c for cards in summary["shown"].values() for c in cards]
    tabled = {*summary["board"], *summary["board2"], *shown}
    drawn = page.eval_on_selector_all(".felt.holdem [data-card]", "els => els.map((e) => e.dataset.card)")
    assert set(drawn) <= tabled
    assert page.locator("#replay-hands").count() == 0  # no links out of the replay's own table
    shoot(host, artefacts, "holdem-replay-in-play-fi")
