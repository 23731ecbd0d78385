"""Thousand in real browsers: a whole (short) game through the auction with blind bids, the talon,
giving cards and all tricks, with the score line after each deal and the game-over headline."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, PHONE, Player, shoot
from tests.browser.helpers import (
    CARD,
    acting,
    create_room,
    join,
    legal,
    wait_same_version,
    wait_version_above,
    watch,
)
from tests.browser.screen import (
    assert_controls_in_view,
    assert_labels_translated,
    hand_box,
    log_lines,
    screen,
)

TURN_WORDS = {"en": "Your turn", "fi": "Sinun vuorosi", "et": "käik"}

# A stuck page fails its test instead of hanging the run.
pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def click(player: Player, selector: str) -> None:
    before = player.page.evaluate("() => window.houserules.version")
    player.page.click(selector)
    wait_version_above(player, before)


def move(player: Player, opened: dict[str, bool]) -> str:
    """One move through the page; returns its kind. The first bidder bids 100 and the others pass."""
    actions = legal(player)
    kinds = [a["type"] for a in actions]
    page = player.page
    if "guess" in kinds:
        click(player, "button[data-action=guess]")
        return "guess"
    if "look" in kinds:
        # Looking comes first; the bid beside it says it is blind and counts double (T11).
        first = page.locator("#dock [data-action]").first
        assert first.get_attribute("data-action") == "look"
        if "bid" in kinds:
            assert page.get_attribute("#dock button[data-action=bid]", "data-blind") == "true"
        click(player, "button[data-action=look]")
        return "look"
    if "bid" in kinds and "take_talon" not in kinds and "give" not in kinds and "discard" not in kinds:
        if not opened["bid"] or "pass" not in kinds:
            opened["bid"] = True
            page.select_option(
                "select[data-role=bid]", str(min(a["value"] for a in actions if a["type"] == "bid"))
            )
            click(player, "button[data-action=bid]")
            return "bid"
        click(player, "button[data-action=pass]")
        return "pass"
    if "pass" in kinds:
        click(player, "button[data-action=pass]")
        return "pass"
    if "take_talon" in kinds:
        click(player, "button[data-action=take_talon]")
        return "take_talon"
    if "give" in kinds:
        give = next(a for a in actions if a["type"] == "give")
        for seat, cards in give["cards"].items():
            for card in cards if isinstance(cards, list) else [cards]:
                page.click(f'.hand button[data-card="{card}"]')
            page.click(f'button[data-action=give][data-to="{seat}"]')
        click(player, "button[data-action=give][data-role=submit]")
        return "give"
    if "discard" in kinds:
        discard = next(a for a in actions if a["type"] == "discard")
        for card in discard["cards"]:
            page.click(f'.hand button[data-card="{card}"]')
        click(player, "button[data-action=discard]")
        return "discard"
    if "play" in kinds:
        play = next(a for a in actions if a["type"] == "play")
        declare = [
            a for a in actions if a["type"] == "play" and a["card"] == play["card"] and a.get("declare")
        ]
        if declare:
            page.click(f'.hand button[data-card="{play["card"]}"]')
            click(player, "button[data-action=play][data-declare=true]")
        else:
            click(player, f'.hand button[data-card="{play["card"]}"]')
        return "play"
    raise AssertionError(f"no move offered: {actions}")


def test_thousand_game_through_auction_talon_and_tricks(
    people: Callable[..., Player], games: dict[str, Any], artefacts: Path
) -> None:
    if "thousand" not in games:
        pytest.skip("the thousand game is not installed on this server")
    players = [people(viewport=DESKTOP), people(viewport=PHONE, lang="et"), people(viewport=PHONE)]
    langs = {id(players[0]): "en", id(players[1]): "et", id(players[2]): "en"}
    # A short game: the first to 100 wins, so a made contract ends it.
    invite = create_room(players[0], "thousand", seats=3, name="Kati", options={"target_score": "100"})
    join(players[1], invite, "Mati")
    join(players[2], invite, "Juku")
    spectator = people()
    watch(spectator, invite)
    players[0].page.click("#lobby-start button[data-op=start]")
    spectator.page.wait_for_selector(".felt.thousand")
    for player in players:
        player.page.wait_for_selector(".felt.thousand")
    wait_same_version(players)
    # Before anyone has looked, a blind bid is offered as such.
    # Others may look or claim a redeal out of turn before the opening bid (T5, T6): the opener
    # is the one with a bid among their moves.
    opener = next(p for p in acting(players) if any(a["type"] == "bid" for a in legal(p)))
    english = opener if langs[id(opener)] == "en" else None
    if english is not None:
        assert english.page.inner_text("#dock button[data-action=bid]") == "Bid blind (counts double)"
    shoot(opener, artefacts, "thousand-auction")
    opened = {"bid": False}
    done: list[str] = []
    scored = 0
    for _ in range(600):
        wait_same_version(players)
        state = players[0].state()
        assert state is not None
        if state["outcome"]:
            break
        rows = state["view"]["score_sheet"]
        if len(rows) > scored:
            # After each deal a score line: the contract and every player's points.
            scored = len(rows)
            line = players[0].page.inner_text(".deal-score")
            assert line.startswith(f"Deal {rows[-1]['deal']}: ") and "Kati" in line and "Mati" in line, line
            opened["bid"] = False
        # Before the opening bid the others may look or claim a redeal out of turn (T5, T6): the
        # player with a move of the auction itself moves.
        movers = acting(players)
        early = {"look", "redeal", "lottery"}
        mover = next((p for p in movers if {a["type"] for a in legal(p)} - early), movers[0])
        seen = assert_controls_in_view(mover, TURN_WORDS[langs[id(mover)]])
        if langs[id(mover)] == "et":
            assert_labels_translated(mover, seen)
        if state["view"]["phase"] == "play" and "play" not in done:
            # The hands as play starts: none of it may have reached the spectator, except the
            # talon's cards, which were turned up for everyone.
            wait_same_version([*players, spectator])
            hands = {c for p in players for c in ((p.state() or {})["view"]["hand"] or [])}
            assert len(hands) == 24
            public = set(state["view"]["talon"]["cards"] or [])
            received = {c for frame in spectator.frames for c in CARD.findall(frame)}
            # A hand with all four nines is shown to everyone and dealt again [T5]: those nines
            # were on show, and now sit in the new deal's hands.
            redealt = {c for frame in spectator.frames for c in redealt_cards(frame)}
            assert not (hands - public - redealt) & received
            shown = spectator.page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)")
            assert not (hands - public) & set(shown)
        others = [p for p in players if p is not mover]
        held = {id(p): hand_box(p) for p in others}
        done.append(move(mover, opened))
        wait_same_version(players)
        for player in others:
            if (player.state() or {}).get("outcome"):
                continue  # the game is over: the dock keeps only its headline line
            # Another player's move leaves this player's hand where it was.
            assert hand_box(player) == held[id(player)], "the hand moved when another player acted"
        if done[-1] == "take_talon":
            # The taken talon leaves the table: its cards are in the bidder's hand now.
            wait_same_version([*players, spectator])
            for player in (*players, spectator):
                assert player.page.locator(".center .talon").count() == 0
        if done[-1] == "give":
            shoot(mover, artefacts, "thousand-play")
    else:
        raise AssertionError(f"the game did not end: {done[-20:]}")
    assert {"bid", "take_talon", "play"} <= set(done)
    assert done.count("play") >= 24 or "bomb" in done
    sheet = players[0].page.inner_text(".score-sheet")
    assert "Total" in sheet
    row = state["view"]["score_sheet"][-1]
    shown_totals = [int(players[0].page.inner_text(f'[data-total="{s}"]')) for s in range(3)]
    assert shown_totals == row["totals"]
    # The game-over headline names the winner (or the winners, when two reach the target together),
    # in view; the log has each deal's score, not "deals".
    names = {0: "Kati", 1: "Mati", 2: "Juku"}
    winners = [names[seat] for seat in state["outcome"]["placings"][0]]
    headline = f"{winners[0]} wins!" if len(winners) == 1 else f"{', '.join(winners)} share the win!"
    for player in players:
        player.page.wait_for_selector("#result:not([hidden])")
    assert players[0].page.inner_text("#headline") == headline
    for player in players:
        seen = screen(player)
        box = player.page.locator("#headline").bounding_box()
        assert box is not None and seen["scrollY"] == 0 and box["y"] + box["height"] <= seen["height"]
    # The log keeps its newest 200 lines, so a game of several deals may have dropped the first
    # deal's score: the last deal's line is the one always there.
    wait_same_version([*players, spectator])
    last = f"Deal {row['deal']}: "
    log = log_lines(spectator)
    assert any(line.startswith(last) and ("made" in line or "went down" in line) for line in log), log
    shoot(players[0], artefacts, "thousand-over")
    shoot(players[1], artefacts, "thousand-over-et")


def redealt_cards(frame: str) -> set[str]:
    """The cards that the redeal events [T5] of one WebSocket frame showed to everyone."""
    message = json.loads(frame)
    if not isinstance(message, dict):
        return set()
    return {card for event in message.get("events") or [] if event.get("type") == "redeal"
            for card in event.get("cards") or []}
