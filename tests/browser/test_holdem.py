"""Hold'em in real browsers: a hand to showdown with a raise and an all-in, watched by a spectator."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import PHONE, Player, shoot
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


def hole_cards(player: Player) -> list[str]:
    state = player.state()
    assert state is not None
    view = state["view"]
    cards: list[str] = view["players"][view["seat"]]["cards"] or []
    return cards


def click(player: Player, selector: str) -> None:
    before = player.page.evaluate("() => window.houserules.version")
    player.page.click(selector)
    wait_version_above(player, before)


def test_holdem_hand_to_showdown_with_a_raise_and_an_all_in(
    people: Callable[..., Player], games: dict[str, Any], artefacts: Path
) -> None:
    if "holdem" not in games:
        pytest.skip("the holdem game is not installed on this server")
    host = people()
    guest = people(viewport=PHONE)
    spectator = people()
    invite = create_room(
        host, "holdem", seats=2, name="Kati", options={"turn_timer_seconds": "120", "time_bank_seconds": "30"}
    )
    join(guest, invite, "Mati")
    watch(spectator, invite)
    host.page.click("#lobby-start button[data-op=start]")
    for player in (host, guest, spectator):
        player.page.wait_for_selector(".felt.holdem")
    wait_same_version([host, guest, spectator])
    seated = {host.seat(): host, guest.seat(): guest}

    def actor() -> Player:
        (player,) = acting(list(seated.values()))
        return player

    # A straddle offer (heads-up there is none under the dead-button rule, but a sheet may ask).
    while any(a["type"] in ("straddle", "no_straddle") for a in legal(actor())):
        click(actor(), "button[data-action=no_straddle]")
        wait_same_version([host, guest, spectator])
    # The decision timer counts down for the player to act.
    timer = host.page.locator("#timer")
    timer.wait_for(state="visible")
    # The lone actor's deadline includes its time bank, shown apart from the decision time.
    assert "+ time bank 30 s" in timer.inner_text()
    secret = set(hole_cards(host)) | set(hole_cards(guest))
    assert len(secret) == 4
    shoot(host, artefacts, "holdem-preflop")

    # The first to act raises with the half-pot preset, bounded by the legal range.
    raiser = actor()
    raise_action = next(a for a in legal(raiser) if a["type"] in ("raise", "bet"))
    raiser.page.click("button[data-preset=half]")
    amount = int(raiser.page.input_value("[data-role=raise-amount]"))
    assert raise_action["min"] <= amount <= raise_action["max"]
    raiser.page.click("button[data-preset=max]")
    assert int(raiser.page.input_value("[data-role=raise-amount]")) == raise_action["max"]
    raiser.page.click("button[data-preset=min]")
    click(raiser, f"button[data-action={raise_action['type']}]")
    wait_same_version([host, guest, spectator])

    # The other goes all-in; the raiser calls.
    shover = actor()
    assert shover is not raiser
    click(shover, "button[data-action=all_in]")
    wait_same_version([host, guest, spectator])
    # Nothing hidden has reached the spectator before the showdown.
    received = {card for frame in spectator.frames for card in CARD.findall(frame)}
    assert not received & secret
    assert (
        not set(spectator.page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))
        & secret
    )
    click(actor(), "button[data-action=call]")
    # Show or muck when the sheet asks; otherwise the showdown is automatic.
    for _ in range(4):
        if not acting(list(seated.values())):
            break
        who = actor()
        if any(a["type"] == "show" for a in legal(who)):
            click(who, "button[data-action=show]")
        else:
            break
    for player in (host, guest, spectator):
        player.page.wait_for_function(
            "() => Array.from(document.querySelectorAll('#log li'))"
            ".some(li => li.textContent.includes(' wins '))"
        )
    log = spectator.page.inner_text("#log")
    assert "all-in" in log
    assert "raises to" in log or "bets" in log
    assert " — " in log  # a hand name at the showdown
    shoot(spectator, artefacts, "holdem-showdown")
    # The hand history is offered as a file.
    with host.page.expect_download() as download:
        host.page.click("button[data-role=history]")
    path = download.value.path()
    assert path is not None
    history = Path(path).read_text()
    # The server's PHH export of the finished hand, as the host saw it.
    assert download.value.suggested_filename == "holdem-hands.phhs"
    assert history.startswith("[1]\n") and "actions = [" in history
    # After the hand: the busted player buys in again, the other sits out and comes back.
    wait_same_version([host, guest, spectator])
    busted_players = [p for p in (host, guest) if any(a["type"] == "rebuy" for a in legal(p))]
    if not busted_players:
        # A split pot (the board played): both keep their chips and the next hand goes on.
        return
    busted = busted_players[0]
    other = guest if busted is host else host
    rebuy = next(a for a in legal(busted) if a["type"] == "rebuy")
    busted.page.fill(".rebuy input", str(rebuy["max"]))
    click(busted, "button[data-action=rebuy]")
    wait_same_version([host, guest, spectator])
    state = busted.state()
    assert state is not None
    assert state["view"]["players"][busted.seat() or 0]["stack"] > 0 or "buys" in busted.page.inner_text(
        "#log"
    )
    click(other, "button[data-action=sit_out]")
    other.page.wait_for_function("() => document.querySelector('#log').textContent.includes('sits out')")
    other.page.wait_for_selector("button[data-action=sit_in]")
    click(other, "button[data-action=sit_in]")
    other.page.wait_for_function("() => document.querySelector('#log').textContent.includes('sits in')")
