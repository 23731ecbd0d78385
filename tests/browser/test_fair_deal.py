"""A fair deal in real browsers: both pages contribute random bytes to the deal before it is made,
a whole Palace game is played, each page's "Verify the deal" box checks the record with Web Crypto
(commitment, seed, key, deck, the seat's dealt hand against the deck, the cards the page saw), and
the replay steps through the game from a player's seat with the live table's rendering."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, PHONE, Player, shoot
from tests.browser.helpers import (
    acting,
    create_room,
    join,
    legal,
    wait_same_version,
    wait_version_above,
    watch,
)
from tests.browser.test_palace import move, start, still_acting

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

ROOT = Path(__file__).resolve().parents[2]

VERDICT = {"en": ("✓ The deal verifies.", "Seats that added random bytes: 2 of 2."),
           "et": ("✓ Jagamine peab kontrollile vastu.", "Kohti, mis lisasid oma juhuslikud baidid: 2/2.")}


def verify_in_page(player: Player) -> list[str]:
    page = player.page
    page.click("#result button[data-role=verify]")
    page.wait_for_selector("#result [data-verdict]")
    lines = "els => els.map(e => e.dataset.ok + ' ' + e.innerText)"
    return list(page.eval_on_selector_all("#result .checks li", lines))


def record_of(player: Player) -> dict[str, Any]:
    record: dict[str, Any] = player.page.evaluate("""async () => {
      const room = document.querySelector('#room').dataset.room;
      const seat = JSON.parse(localStorage.getItem(`houserules:room:${room}`));
      const headers = { Authorization: `Bearer ${seat.token}` };
      const r = await fetch(`/api/rooms/${room}/record`, { headers });
      return r.json();
    }""")
    return record


def replay_hand(player: Player) -> list[str]:
    cards = player.page.eval_on_selector_all("#dock-table [data-zone=hand][data-card]",
                                             "els => els.map(e => e.dataset.card)")
    return sorted(cards)


def test_palace_deal_verifies_in_the_page(people: Callable[..., Player], artefacts: Path,
                                          tmp_path: Path) -> None:
    host = people(viewport=DESKTOP)
    guest = people(viewport=PHONE, lang="et")
    spectator = people()
    invite = create_room(host, "palace", seats=2, name="Kati", preset="hiina-turakas")
    join(guest, invite, "Mari")
    watch(spectator, invite)
    # Each seated page contributes as soon as it sees the next deal's commitment; the spectator cannot.
    # (Its hash first: the bytes follow when the deal seals the hashes.)
    for player in (host, guest, spectator):
        player.page.wait_for_function("() => (window.houserules.room.fair.hashed || []).length === 2")
    commitment = host.page.evaluate("() => window.houserules.room.fair.commitment")
    start(host, [host, guest, spectator])
    seated = {host.seat(): host, guest.seat(): guest}
    moves = 0
    while True:
        wait_same_version([host, guest, spectator])
        state = host.state()
        assert state is not None
        if state["outcome"]:
            break
        for index, player in enumerate(acting(list(seated.values()))):
            # A second mover's offer may go with the first one's move (a play out of turn).
            if index and not still_acting(player, [host, guest, spectator]):
                continue
            move(player, keyboard=False)
            moves += 1
        assert moves < 800, "the game did not end"
        if moves == 6:
            # A reload mid-game: the host's page no longer knows first-hand what it was dealt.
            host.page.reload()
            host.page.wait_for_function("() => window.houserules.state && window.houserules.state.view")
    for player, lang in ((host, "en"), (guest, "et")):
        player.page.wait_for_selector("#result:not([hidden])")
        checks = verify_in_page(player)
        assert checks and all(line.startswith("true ✓") for line in checks), checks
        # Commitment, seed, key, key commitment, deck, the hand against the deck, and what the page
        # saw at the deal (not for the reloaded host's page, which did not see it live).
        # The bytes against the hashes, the server's signature, and this browser's receipts
        # (the server's key pinned, the commitment it was shown, its seat's bytes and hash).
        assert len(checks) == (12 if player is host else 13), "\n".join(checks)
        verdict, seats = VERDICT[lang]
        text = player.page.inner_text("#result .verify")
        assert verdict in text and seats in text, text
    # The page's record is the one committed to before the deal.
    record = record_of(host)
    assert record["commitment"] == commitment and all(record["contributions"])
    # The record downloaded from the page verifies with `python -m app.verify`.
    with host.page.expect_download() as download:
        host.page.click("#result a[data-role=record]")
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name.startswith("palace-") and saved.suffix == ".json"
    done = subprocess.run([sys.executable, "-m", "app.verify", str(saved)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and "verified" in done.stdout and "✗" not in done.stdout, done
    spectator_checks = verify_in_page(spectator)
    # A spectator has no hand to check, and its page saw the deal too.
    assert all(line.startswith("true ✓") for line in spectator_checks) and len(spectator_checks) == 10
    for player in (host, guest, spectator):
        assert player.page.locator("#fair-warning").is_hidden()
    shoot(guest, artefacts, "fair-verify-guest")
    shoot(host, artefacts, "fair-verify-host")
    # The guest's replay: the same table, from the guest's seat, step by step.
    dealt = sorted(record_of(guest)["dealt_view"]["hand"])
    page = guest.page
    page.click("#replay-link")
    page.wait_for_selector("#play:not([hidden]) .felt.palace")
    page.wait_for_function("() => window.houserules.frames.length === window.houserules.length")
    frames = page.evaluate("() => window.houserules.length")
    assert page.evaluate("() => window.houserules.index") == 0 and frames > 10
    assert replay_hand(guest) == dealt
    for step in range(1, 4):
        page.click("#replay-forward")
        assert page.evaluate("() => window.houserules.index") == step
    page.click("#replay-back")
    assert page.evaluate("() => window.houserules.index") == 2
    page.click("#replay-first")
    assert replay_hand(guest) == dealt
    page.click("#replay-play")
    page.wait_for_function("() => window.houserules.index >= 2")
    page.click("#replay-play")
    page.click("#replay-last")
    assert page.evaluate("() => window.houserules.index") == frames - 1
    assert page.locator("#replay-forward").is_disabled()
    shoot(guest, artefacts, "fair-replay-guest")


def test_holdem_hand_verifies_in_the_side_box_while_the_table_plays_on(
        people: Callable[..., Player], artefacts: Path) -> None:
    host = people()
    guest = people(viewport=PHONE, lang="fi")
    spectator = people()
    invite = create_room(host, "holdem", seats=2, name="Kati")
    join(guest, invite, "Matti")
    watch(spectator, invite)
    for player in (host, guest):
        player.page.wait_for_selector("#fair-box [data-role=commitment]")
        player.page.wait_for_function("() => (window.houserules.room.fair.hashed || []).length === 2")
    assert "…" in host.page.inner_text("#fair-box [data-role=commitment]")
    host.page.wait_for_selector("#fair-box [data-role=server-key]:not([hidden])")
    shoot(guest, artefacts, "fair-lobby")
    mine = host.page.inner_text("#fair-box [data-role=contributed]")
    assert mine == "Your bytes' hash is in; the bytes follow when the round's hashes are sealed."
    host.page.click("#lobby-start button[data-op=start]")
    for player in (host, guest, spectator):
        player.page.wait_for_selector(".felt.holdem")
    wait_same_version([host, guest, spectator])
    # Before any hand is over only the button draw can be checked.
    before = side_checks(spectator)
    assert "true ✓" in " ".join(before) and not any(line.startswith("false") for line in before)
    seated = [host, guest]
    # Both pages add their bytes to hand 2's round while hand 1 is played.
    for player in seated:
        player.page.wait_for_function("() => (window.houserules.room.fair.contributed || []).length === 2")
    play_hands(seated, [host, guest, spectator], 1)
    for player in (host, guest, spectator):
        checks = side_checks(player)
        assert not any(line.startswith("false") for line in checks), checks
        # The table's own seed keyed only the button draw and hand 1: it is out with hand 1's end.
        assert checks[0].startswith("true ✓ ") and len(checks) > 3  # the commitment, in its language
        verdict = player.page.get_attribute("#fair-box [data-verdict]", "data-verdict")
        assert verdict in ("partial", "verified")
    # The first hand's deck is checked in every page, each in its language.
    english, finnish = side_checks(host), side_checks(guest)
    assert any(line.startswith("true ✓ Hand 1 — Deck order from the shuffle") for line in english)
    assert any(line.startswith("true ✓ Jako 1 — Pakan järjestys sekoituksesta") for line in finnish)
    shoot(guest, artefacts, "fair-holdem-side")
    # Hand 2 had its own round, sealed with both pages' bytes when hand 1 ended; at hand 2's end
    # the round's server seed is out and the hand verifies in full.
    play_hands(seated, [host, guest, spectator], 2)
    english, finnish = side_checks(host), side_checks(guest)
    assert not any(line.startswith("false") for line in english + finnish), english + finnish
    assert "true ✓ Hand 2 — Its round's commitment matches the revealed server seed" in english
    assert "true ✓ Hand 2 — Its round's seed from the server seed and every contribution" in english
    assert any(line.startswith("true ✓ Jako 2 — Kierroksen siemen") for line in finnish), finnish
    # The records are folded into one quiet line per deal: their text is there behind its toggle.
    log = host.page.text_content("#log") or ""
    assert "Hand 2: a new round is sealed with the random bytes of 2 seats." in log
    assert "Hand 2: its round's server seed is revealed; it can be verified." in log
    shoot(host, artefacts, "fair-holdem-round")
    guest.page.locator("#log").scroll_into_view_if_needed()
    shoot(guest, artefacts, "fair-holdem-round-log")


def play_hands(seated: list[Player], everyone: list[Player], hands: int) -> None:
    """Fold, check or muck through the table's hands until ``hands`` are over."""
    done = f"() => window.houserules.state.view && window.houserules.state.view.hands_played >= {hands}"
    while not seated[0].page.evaluate(done):
        # Mostly one to act; after a showdown each loser may show or muck.
        mover = acting(seated)[0]
        kinds = {a["type"] for a in legal(mover)}
        action = next(k for k in ("no_straddle", "fold", "muck", "check") if k in kinds)
        before_version = mover.page.evaluate("() => window.houserules.version")
        mover.page.click(f"button[data-action={action}]")
        wait_version_above(mover, before_version)
        wait_same_version(everyone)


def side_checks(player: Player) -> list[str]:
    page = player.page
    page.click("#fair-box button[data-role=verify]")
    page.wait_for_function("() => document.querySelector('#fair-box [data-role=verify]').disabled === false"
                           " && document.querySelector('#fair-box [data-verdict]') !== null")
    lines = "els => els.map(e => e.dataset.ok + ' ' + e.innerText)"
    return list(page.eval_on_selector_all("#fair-box .checks li", lines))
