"""The page's receipts in Chromium (docs/fairness.md, "Receipts"): an honest Hold'em hand checks
itself automatically in both pages, with no warning, and the receipts each page downloads pass
``app.verify --receipts`` with its record; records forged by the server (a re-keyed seed, bytes
written at the seat whose page withheld, a player's bytes swapped) raise the page's loud warning
and fail ``app.verify --receipts`` with those same receipts.

The guest's page withholds because its ``entropy`` messages never reach the server (the test drops
them on the way), as when they are lost: its receipt then says it sent nothing.
"""

from __future__ import annotations

import json
import re
import secrets
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, PHONE, Player, shoot
from tests.browser.helpers import create_room, join
from tests.browser.test_fair_deal import play_hands, record_of, side_checks
from tests.forge import rekey, write_at

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

ROOT = Path(__file__).resolve().parents[2]


def drop_entropy(player: Player) -> None:
    """The page's ``entropy`` messages are lost on the way to the server; the rest goes through."""
    def handler(ws: Any) -> None:
        server = ws.connect_to_server()

        def forward(message: str | bytes) -> None:
            if not (isinstance(message, str) and json.loads(message).get("type") == "entropy"):
                server.send(message)
        ws.on_message(forward)
    player.page.route_web_socket(re.compile(r".*/ws/.*"), handler)


def serve_forged(player: Player, change: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """From now on the server hands this page a forged record."""
    player.page.unroute("**/api/rooms/*/record")

    def handle(route: Any) -> None:
        response = route.fetch()
        route.fulfill(response=response, json=change(response.json()))
    player.page.route("**/api/rooms/*/record", handle)


def warnings_of(player: Player) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = player.page.evaluate("""() => {
      const room = document.querySelector('#room').dataset.room;
      return JSON.parse(localStorage.getItem(`houserules-receipts:${room}`)).warnings;
    }""")
    return found


def download_receipts(player: Player, tmp: Path) -> Path:
    with player.page.expect_download() as download:
        player.page.click("#fair-box a[data-role=receipts]")
    saved = tmp / f"{player.seat()}-{download.value.suggested_filename}"
    download.value.save_as(saved)
    return saved


def cli(tmp: Path, record: dict[str, Any], receipts: Path, name: str) -> subprocess.CompletedProcess[str]:
    path = tmp / f"{name}.json"
    path.write_text(json.dumps(record))
    return subprocess.run([sys.executable, "-m", "app.verify", str(path), "--receipts", str(receipts)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_receipts_catch_forged_records_in_the_page_and_on_the_command_line(
        people: Callable[..., Player], artefacts: Path, tmp_path: Path) -> None:
    host = people(viewport=DESKTOP)
    guest = people(viewport=PHONE, lang="et")
    drop_entropy(guest)
    invite = create_room(host, "holdem", seats=2, name="Kati")
    join(guest, invite, "Mari")
    host_seat, guest_seat = host.seat(), guest.seat()
    host.page.wait_for_function(f"() => (window.houserules.room.fair.hashed || []).includes({host_seat})")
    # The server's key, pinned with the receipts, is shown in the side box.
    host.page.wait_for_selector("#fair-box [data-role=server-key]:not([hidden])")
    key = host.page.get_attribute("#fair-box [data-role=server-key]", "title")
    assert key and len(key) == 64
    for player in (host, guest):
        player.page.locator("#fair-box").scroll_into_view_if_needed()
    shoot(host, artefacts, "fair-key-desktop")
    shoot(guest, artefacts, "fair-key-phone")
    host.page.click("#lobby-start button[data-op=start]")
    for player in (host, guest):
        player.page.wait_for_selector(".felt.holdem")
    play_hands([host, guest], [host, guest], 1)
    # Hand 1's end reveals the table's own round: both pages check it at once, by themselves.
    for player, text in ((host, "Checked automatically: ✓"), (guest, "Kontrollitud automaatselt: ✓")):
        player.page.wait_for_selector("#fair-box [data-role=auto-verify]:not([hidden])")
        assert player.page.inner_text("#fair-box [data-role=auto-verify]").startswith(text)
        assert player.page.locator("#fair-warning").is_hidden() and warnings_of(player) == []
    records = {host_seat: record_of(host), guest_seat: record_of(guest)}
    assert records[host_seat]["contributions"][guest_seat] is None  # the guest's bytes never arrived
    assert records[host_seat]["contributions"][host_seat] is not None
    receipts = {host_seat: download_receipts(host, tmp_path), guest_seat: download_receipts(guest, tmp_path)}
    held = json.loads(receipts[host_seat].read_text())
    assert held["format"] == "houserules-receipts/1" and held["server_key"] == key
    for seat, record in records.items():
        done = cli(tmp_path, record, receipts[seat], f"honest-{seat}")
        assert done.returncode == 0 and "✓ deal: receipt commitment" in done.stdout, done.stdout
    forged = [
        (host, host_seat, "rekeyed", rekey, "deal: receipt commitment"),
        (host, host_seat, "swapped", lambda r: write_at(r, host_seat),
         f"deal: receipt bytes (seat {host_seat})"),
        (guest, guest_seat, "written", lambda r: write_at(r, guest_seat),
         f"deal: receipt bytes (seat {guest_seat})"),
    ]
    for player, seat, what, change, failing in forged:
        before = len(warnings_of(player))
        serve_forged(player, change)
        side_checks(player)  # the side box's Verify: the record and this browser's receipts
        player.page.wait_for_selector("#fair-warning:not([hidden])")
        more = f"() => document.querySelectorAll('#fair-warning li').length > {before}"
        player.page.wait_for_function(more)
        newest = warnings_of(player)[-1]
        assert newest["kind"] == "record_failed" and failing in newest["failed"], (what, newest)
        done = cli(tmp_path, change(records[seat]), receipts[seat], what)
        assert done.returncode == 1 and f"✗ {failing}" in done.stdout, (what, done.stdout)
    shoot(host, artefacts, "fair-warning-desktop")
    shoot(guest, artefacts, "fair-warning-phone")


def test_a_commitment_changed_without_a_deal_and_refused_while_on_show_is_warned(
        people: Callable[..., Player], artefacts: Path) -> None:
    """A server that shows another commitment without dealing from the one on show (a silent
    re-roll), and answers ``stale_commitment`` for the commitment it shows, is caught by the page:
    here the room messages the page gets are rewritten on the way, as such a server would send them."""
    host = people(viewport=PHONE)
    guest = people()
    shown: dict[str, str | None] = {"commitment": None}

    def handler(ws: Any) -> None:
        server = ws.connect_to_server()

        def down(message: str | bytes) -> None:
            if shown["commitment"] and isinstance(message, str):
                data = json.loads(message)
                if data.get("type") == "room":
                    data["fair"] = {**data["fair"], "commitment": shown["commitment"], "hashed": [],
                                    "contributed": [], "sealed": False}
                    message = json.dumps(data)
            ws.send(message)
        server.on_message(down)
    host.page.route_web_socket(re.compile(r".*/ws/.*"), handler)
    invite = create_room(host, "palace", seats=2, name="Kati")
    host.page.wait_for_function("() => (window.houserules.room.fair.hashed || []).length === 1")
    assert host.page.locator("#fair-warning").is_hidden()
    shown["commitment"] = secrets.token_hex(32)
    join(guest, invite, "Mari")  # a room message: the host's page is shown the new commitment
    for kind in ("stale_on_show", "changed_without_deal"):
        host.page.wait_for_selector(f"#fair-warning li[data-kind={kind}]")
    assert guest.page.locator("#fair-warning").is_hidden()
    shoot(host, artefacts, "fair-warning-reroll")
