"""Hold'em at a three-seat table on a laptop and two phones: the oval shows the room's seats only, the
betting controls are on screen at every turn, a busted player buys in again while the others play on,
a show-or-muck question never stalls the table, and a spectator downloads the public hand history
with the players' names."""

from __future__ import annotations

import re
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
    press_offered,
    wait_same_version,
    wait_version_above,
    watch,
)
from tests.browser.screen import assert_controls_in_view, assert_labels_translated, hand_box, inside, screen

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

TURN_WORDS = {"en": "Your turn", "fi": "Sinun vuorosi", "et": "käik"}
NAMES = ["Kati", "Mati", "Juku"]


# Optional decisions: the sheet's decision timer (2 s here) makes the quiet choice for a player who
# waits, so on a busy machine it may make one between the test reading the page and its click:
# these are pressed with ``press_offered``, which finds and clicks in one step.
DECISIONS = frozenset({"straddle", "no_straddle", "show", "muck", "run_once", "run_twice"})


def click(player: Player, selector: str) -> None:
    before = player.page.evaluate("() => window.houserules.version")
    player.page.click(selector)
    wait_version_above(player, before)


def view(player: Player) -> dict[str, Any]:
    state = player.state()
    assert state is not None and state["view"] is not None
    result: dict[str, Any] = state["view"]
    return result


def wait_log(player: Player, text: str) -> None:
    player.page.wait_for_function(
        "(text) => Array.from(document.querySelectorAll('#log li'))"
        ".some((li) => li.textContent.includes(text))",
        arg=text, timeout=30_000,
    )


def out_of_chips(seen: dict[str, Any]) -> bool:
    """No chips and no live hand (as the page decides between "Rebuy" and "Top up"): a player who
    posted a blind all-in in the next hand is still in it until that hand is over."""
    me, hand = seen["players"][seen["seat"]], seen["hand"]
    return bool(me["stack"] == 0 and (not me.get("in_hand") or not hand or hand["phase"] in ("over", "show")))


def in_the_hand(players: list[Player]) -> list[Player]:
    """The players with a move in the hand: not those whose only moves wait for the next one (a
    busted player's rebuy while the table waits for enough players)."""
    return [p for p in acting(players) if {a["type"] for a in legal(p)} - {"rebuy", "sit_in"}]


def wait_hand_after(player: Player, number: int) -> None:
    """Until the page shows a hand dealt after hand ``number``."""
    player.page.wait_for_function(
        "(n) => { const v = window.houserules.state && window.houserules.state.view;"
        " return Boolean(v && v.hand && v.hand.number > n); }", arg=number)


def hand_number(player: Player) -> int:
    hand = view(player)["hand"]
    return int(hand["number"]) if hand else 0


def test_three_seat_table_bust_rebuy_no_stall_and_public_history(
    people: Callable[..., Player], games: dict[str, Any], artefacts: Path
) -> None:
    if "holdem" not in games:
        pytest.skip("the holdem game is not installed on this server")
    host = people(viewport=DESKTOP)
    second = people(viewport=PHONE)
    third = people(viewport=PHONE, lang="et")
    langs = {id(host): "en", id(second): "en", id(third): "et"}
    invite = create_room(
        host, "holdem", seats=3, name=NAMES[0],
        options={"showdown": '"ask"', "decision_timer_seconds": "2"},
    )
    join(second, invite, NAMES[1])
    join(third, invite, NAMES[2])
    spectator = people(viewport=PHONE)
    watch(spectator, invite)
    seated = [host, second, third]
    everyone = [*seated, spectator]
    host.page.click("#lobby-start button[data-op=start]")
    for player in everyone:
        player.page.wait_for_selector(".felt.holdem .oval")
    wait_same_version(everyone)
    # The oval shows the room's three seats, not the game's ten.
    for player in everyone:
        assert player.page.locator(".oval .hseat").count() == 3

    def act(player: Player, action: str) -> None:
        seen = screen(player)
        if action in DECISIONS and action not in seen["legal"]:
            wait_same_version(everyone)
            return  # the decision timer chose first: the caller reads the table again
        assert_controls_in_view(player, TURN_WORDS[langs[id(player)]], seen)
        assert action in {c["action"] for c in seen["controls"]}, seen["controls"]
        if langs[id(player)] == "et":
            assert_labels_translated(player, seen)
        others = [p for p in seated if p is not player]
        held = {id(p): hand_box(p) for p in others}
        if action not in DECISIONS:
            click(player, f"#dock button[data-action={action}]")
        elif press_offered(player, [action]):
            wait_version_above(player, seen["version"])
        wait_same_version(everyone)
        for other in others:
            if (other.state() or {}).get("outcome"):
                continue  # the table closed: everyone has cashed out and left their seat
            # Another player's move leaves this player's own cards where they were.
            assert hand_box(other) == held[id(other)], "the hole cards moved when another player acted"

    # All-in, a call and a fold, until one of the two all-in players is busted (a split pot keeps both).
    busted: Player | None = None
    played = 0
    for _ in range(4):
        # The next hand, once it is dealt: the last one's show-or-muck questions may keep the table
        # between hands a moment.
        wait_hand_after(host, played)
        wait_same_version(everyone)
        start_hand = played = hand_number(host)
        plan = ["all_in", "call", "fold"]
        while plan and in_the_hand(seated):
            # One seat bets at a time; several may face a decision at once (show or muck).
            mover = in_the_hand(seated)[0]
            kinds = {a["type"] for a in legal(mover)}
            if "no_straddle" in kinds:
                act(mover, "no_straddle")  # the sheet offers UTG a straddle (H7): declined
                continue
            if kinds & {"show", "run_once"} and not kinds & {"all_in", "call", "fold", "check"}:
                # The last hand's optional decisions (show or muck, run it once or twice), still
                # open when the page caught them before the decision timer ran out: answered, and
                # the table goes on.
                act(mover, "show" if "show" in kinds else "run_once")
                continue
            assert len(in_the_hand(seated)) == 1, [sorted({a["type"] for a in legal(p)}) for p in seated]
            step = plan.pop(0)
            if step == "call" and "call" not in kinds:
                step = "all_in"
            act(mover, step)
        wait_log(host, f"Hand {start_hand} is over")
        wait_same_version(everyone)
        out = [p for p in seated if out_of_chips(view(p))]
        if out:
            busted = out[0]
            break
    assert busted is not None, "no player was busted in four all-in hands"
    shoot(spectator, artefacts, "holdem-3-after-all-in")
    # The others play on; the busted player is offered a rebuy (a table move) in view, unscrolled.
    others = [p for p in seated if p is not busted]
    busted.page.wait_for_selector("#dock button[data-action=rebuy]")
    seen = screen(busted)
    rebuy = [c for c in seen["controls"] if c["action"] == "rebuy"]
    assert rebuy and seen["scrollY"] == 0 and inside(rebuy[0]["box"], seen["width"], seen["height"])
    if langs[id(busted)] == "en":
        # Once any show-or-muck question of the last hand is answered (or timed out).
        busted.page.wait_for_function(
            "() => document.querySelector('#dock .status-line').textContent.includes('out of chips')")
    shoot(busted, artefacts, "holdem-busted-rebuy")
    click(busted, "#dock button[data-action=rebuy]")
    busted.page.wait_for_function(
        "() => { const v = window.houserules.state.view; const me = v.players[v.seat];"
        " return me.stack > 0 || me.pending_chips > 0; }"
    )
    wait_same_version(everyone)

    # The next hand (the busted player bought in again and is dealt in), checked down to a showdown
    # that asks to show or muck: nobody answers, and the decision timer makes the quiet choice so
    # the table goes on.
    wait_hand_after(host, played)  # not the busting hand's after-hand show
    wait_same_version(everyone)
    number = hand_number(host)
    for _ in range(20):
        movers = [p for p in acting(seated)
                  if view(p)["hand"] and view(p)["hand"]["phase"] in ("bet", "straddle")]
        if not movers:
            break
        (mover,) = movers
        kinds = {a["type"] for a in legal(mover)}
        act(mover, "no_straddle" if "no_straddle" in kinds else "check" if "check" in kinds else "call")
    for player in others:
        seen = screen(player)
        if "show" not in seen["legal"]:
            continue  # not asked, or the decision timer has already chosen
        # As the page drew the question: the choice and the timer counting down, in view.
        assert_controls_in_view(player, TURN_WORDS[langs[id(player)]], seen)
        assert "show" in {c["action"] for c in seen["controls"]}
        assert seen["timer"], "no timer shown for the show-or-muck question"
        shoot(player, artefacts, "holdem-show-or-muck")
        break
    # Without a click the hand ends and the next one is dealt.
    wait_log(host, f"Hand {number} is over")

    # The spectator downloads the public hand history: players by name, no hidden card.
    with spectator.page.expect_download() as download:
        spectator.page.click("#dock button[data-role=history]")
    path = download.value.path()
    assert path is not None and download.value.suggested_filename == "holdem-hands.phhs"
    history = Path(path).read_text()
    assert re.search(r"players = \['(Kati|Mati|Juku)', '(Kati|Mati|Juku)'", history), history[:400]
    assert "seat 1" not in history
    seen_by_spectator = {card for frame in spectator.frames for card in CARD.findall(frame)}
    actions = "\n".join(line for line in history.splitlines() if line.startswith("actions = "))
    in_history = set(re.findall(r"[2-9TJQKA][cdhs]", actions))
    assert in_history <= seen_by_spectator, sorted(in_history - seen_by_spectator)
    shoot(host, artefacts, "holdem-3-laptop")

    # The host closes the table: the hand under way is played out, then the game is over, with a
    # headline naming the winner in view on every page.
    host.page.once("dialog", lambda dialog: dialog.accept())
    click(host, "#dock button[data-action=close_table]")
    for _ in range(40):
        wait_same_version(everyone)
        if (host.state() or {}).get("outcome"):
            break
        movers = acting(seated)
        if not movers:
            host.page.wait_for_function(
                f"() => window.houserules.version > {host.page.evaluate('() => window.houserules.version')}"
                " || (window.houserules.state && window.houserules.state.outcome)"
            )
            continue
        mover = movers[0]
        kinds = {a["type"] for a in legal(mover)}
        step = next(k for k in ("no_straddle", "check", "call", "muck", "show", "fold") if k in kinds)
        act(mover, step)
    outcome = (host.state() or {})["outcome"]
    assert outcome, "the table did not close"
    winners = [NAMES[s] for s in outcome["placings"][0]]
    for player in everyone:
        player.page.wait_for_selector("#result:not([hidden]) #headline")
        seen = screen(player)
        box = player.page.locator("#headline").bounding_box()
        assert box is not None and seen["scrollY"] == 0 and box["y"] + box["height"] <= seen["height"]
    headline = host.page.inner_text("#headline")
    assert all(name in headline for name in winners), headline
    shoot(second, artefacts, "holdem-over")
