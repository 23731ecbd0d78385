"""Thousand in real browsers: one deal through the auction, the talon, giving cards and all tricks."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Player, shoot
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


def test_thousand_deal_through_auction_talon_and_tricks(
    people: Callable[..., Player], games: dict[str, Any], artefacts: Path
) -> None:
    if "thousand" not in games:
        pytest.skip("the thousand game is not installed on this server")
    players = [people(), people(), people()]
    invite = create_room(players[0], "thousand", seats=3, name="Kati")
    join(players[1], invite, "Mati")
    join(players[2], invite, "Juku")
    spectator = people()
    watch(spectator, invite)
    players[0].page.click("#host-controls button[data-op=start]")
    spectator.page.wait_for_selector(".felt.thousand")
    for player in players:
        player.page.wait_for_selector(".felt.thousand")
    wait_same_version(players)
    opened = {"bid": False}
    done: list[str] = []
    for _ in range(200):
        wait_same_version(players)
        state = players[0].state()
        assert state is not None
        if state["view"]["score_sheet"]:
            break
        (mover,) = acting(players)
        if state["view"]["phase"] == "play" and "play" not in done:
            # The hands as play starts: none of it may have reached the spectator, except the
            # talon's cards, which were turned up for everyone.
            wait_same_version([*players, spectator])
            hands = {c for p in players for c in ((p.state() or {})["view"]["hand"] or [])}
            assert len(hands) == 24
            public = set(state["view"]["talon"]["cards"] or [])
            received = {c for frame in spectator.frames for c in CARD.findall(frame)}
            assert not (hands - public) & received
            shown = spectator.page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)")
            assert not (hands - public) & set(shown)
        done.append(move(mover, opened))
        if done[-1] == "give":
            shoot(mover, artefacts, "thousand-play")
    else:
        raise AssertionError(f"the deal did not end: {done[-20:]}")
    assert {"bid", "take_talon", "play"} <= set(done)
    assert done.count("play") >= 24 or "bomb" in done
    sheet = players[1].page.inner_text(".score-sheet")
    assert "Total" in sheet
    row = state["view"]["score_sheet"][0]
    shown_totals = [int(players[1].page.inner_text(f'[data-total="{s}"]')) for s in range(3)]
    assert shown_totals == row["totals"]
    shoot(players[1], artefacts, "thousand-scored")
