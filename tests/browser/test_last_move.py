"""What just happened, on the felt: "Practise against bots" on the home page starts a game against
bots in one click; in every game each seat shows its latest action and the table's #last-move line
the move just made; the log folds the fair deal's records into one quiet line with a toggle; a
spectator is not offered alerts for a turn they do not have."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser import test_palace, test_thousand
from tests.browser.conftest import Player, screenshot, shoot
from tests.browser.helpers import legal, wait_version_above, watch

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

# A move the mover's seat shows, and the same move in the centre line, read at one moment.
SEEN = """() => {
  const box = document.getElementById("last-move");
  const me = window.houserules.seat;
  if (!box || !box.textContent.trim() || box.dataset.seat === undefined) return null;
  const seat = Number(box.dataset.seat);
  if (seat === me) return null;
  const line = document.querySelector(`#table .last-action[data-seat="${seat}"]`);
  if (!line) return null;
  const seats = window.houserules.room.seats;
  return { seat, centre: box.textContent, line: line.textContent, name: seats[seat].name,
           type: box.dataset.type, lineType: line.dataset.type };
}"""


def practise(player: Player, game: str, seats: int, name: str, preset: str | None = None) -> None:
    """The home page's practice button: a room of the chosen game with bots in the other seats."""
    page = player.page
    page.goto("/")
    page.wait_for_selector("#create-fields:not([hidden])")
    page.check(f"#game-{game}")
    if preset:
        page.select_option("#preset", value=f"preset:{preset}")
    page.fill("#seats", str(seats))
    page.fill("#host-name", name)
    page.click("#practice-button")
    page.wait_for_url(re.compile(r".*/r/[^/]+$"))
    page.wait_for_selector(f".felt.{game}")
    page.wait_for_function("() => window.houserules.state && window.houserules.state.view")


def holdem_move(player: Player) -> None:
    kinds = {a["type"] for a in legal(player)}
    choice = next(
        (k for k in ("check", "call", "fold", "muck", "no_straddle", "run_once") if k in kinds), None
    )
    assert choice is not None, kinds
    before = player.page.evaluate("() => window.houserules.version")
    player.page.click(f".dock-holdem [data-action={choice}]")
    wait_version_above(player, before)


def make_move(player: Player, game: str, opened: dict[str, bool]) -> None:
    if game == "palace":
        test_palace.move(player, keyboard=False)
    elif game == "thousand":
        kinds = {a["type"] for a in legal(player)}
        if kinds == {"lottery"}:  # a hand with nines may only run the nine lottery (T6)
            test_thousand.click(player, "button[data-action=lottery]")
        else:
            test_thousand.move(player, opened)
    else:
        holdem_move(player)


def until_a_bot_move_shows(player: Player, game: str) -> dict[str, Any]:
    """Plays the person's moves until a bot's move is on its seat and in the centre together."""
    opened = {"bid": False}
    for _ in range(200):
        seen = player.page.evaluate(SEEN)
        if seen:
            return dict(seen)
        state = player.state()
        assert state is not None and not state["outcome"]
        if legal(player) and player.page.evaluate("() => window.houserules.myTurn"):
            make_move(player, game, opened)
        else:
            # Not the person's turn: a move offered out of turn (Thousand's before the bidding)
            # is one the next bot's move may take away, so the page waits for that move.
            wait_version_above(player, state["version"])
    raise AssertionError("no bot's move was shown")


@pytest.mark.parametrize(
    ("game", "seats", "lang"), [("palace", 2, "en"), ("holdem", 3, "et"), ("thousand", 3, "fi")]
)
def test_practice_starts_a_game_against_bots_and_the_felt_shows_the_last_move(
    people: Callable[..., Player], artefacts: Path, game: str, seats: int, lang: str
) -> None:
    host = people(lang=lang)
    practise(host, game, seats, "Juhani")
    page = host.page
    # One click made the room, seated a bot in every other seat and started the game.
    room = page.evaluate("() => window.houserules.room")
    assert room["status"] == "playing"
    assert [s["seat"] for s in room["seats"] if s.get("bot")] == list(range(1, seats))
    assert page.evaluate("() => window.houserules.seat") == 0
    seen = until_a_bot_move_shows(host, game)
    # The mover's seat says what it did in a few words, the centre says it as the log does.
    assert seen["name"] in seen["centre"] and seen["line"].strip()
    assert seen["type"] == seen["lineType"]
    assert page.locator("#log li").filter(has_text=seen["centre"]).count() >= 1
    box = page.locator("#last-move").bounding_box()
    assert box is not None and box["height"] > 0
    shoot(host, artefacts, f"last-move-{game}-{lang}")
    # A reload keeps the seats' latest moves (the catch-up carries the events).
    page.reload()
    page.wait_for_function("() => window.houserules.state && window.houserules.state.view")
    page.wait_for_selector("#table .last-action")


def test_fair_deal_records_fold_into_one_line_with_a_toggle(
    people: Callable[..., Player], artefacts: Path
) -> None:
    host = people()
    practise(host, "holdem", 2, "Kati")
    page = host.page
    # Hands go by (each seals and reveals its shuffle): the records stay folded, one line per run.
    for _ in range(200):
        if page.locator("#log li.fair-fold").count() >= 2:
            break
        state = host.state()
        assert state is not None
        if legal(host):
            holdem_move(host)
        else:
            wait_version_above(host, state["version"])
    folds = page.locator("#log > li.fair-fold")
    assert folds.count() >= 2
    fair = ["shuffle_commitment", "shuffle_key", "reveal", "fair_round", "round_reveal"]
    for kind in fair:
        assert page.locator(f'#log > li[data-type="{kind}"]').count() == 0
    first = folds.first
    inner = first.locator(".fair-lines > li")
    count = inner.count()
    assert count >= 1
    assert first.locator("summary").inner_text().startswith(f"Fair deal: {count} record")
    assert not inner.first.is_visible()
    first.locator("summary").click()
    assert inner.first.is_visible()
    screenshot(page.locator(".box.log"), artefacts / "log-fair-fold-open.png")
    assert inner.first.get_attribute("data-type") in fair
    first.locator("summary").click()
    assert not inner.first.is_visible()


def test_a_spectator_is_not_offered_turn_alerts(people: Callable[..., Player]) -> None:
    host = people()
    practise(host, "thousand", 3, "Kati")
    assert host.page.locator("#alert-sound").is_visible()
    guest = people()
    watch(guest, host.page.url)
    assert guest.page.evaluate("() => window.houserules.seat") is None
    assert not guest.page.locator("#alerts").is_visible()
    assert not guest.page.locator("#alert-notify").is_visible()


def test_a_tournaments_result_and_the_tally_name_every_player(
    people: Callable[..., Player], quick_server: str
) -> None:
    """A three-seat tournament to its end: each player's chips stand in the result (none for the busted),
    and the room's tally lists the one who neither won nor came last too."""
    host = people(base=quick_server)
    practise(host, "holdem", 3, "Kati", preset="tournament-nl-turbo")
    page = host.page
    for _ in range(600):
        state = host.state()
        assert state is not None
        if state["outcome"]:
            break
        kinds = {a["type"] for a in legal(host)}
        choice = next(
            (k for k in ("all_in", "call", "check", "show", "no_straddle", "run_twice") if k in kinds), None
        )
        # The bots answer at once and the table redraws with each move: the button is pressed the
        # moment it is found (a click that waits for it to stand still may wait for ever). The state
        # can be read before the dock is drawn from it, so the page is polled until the button is
        # there, pressed once, and the version has moved on.
        if choice is None:
            wait_version_above(host, state["version"])
            continue
        page.wait_for_function(
            """([sel, before]) => {
              const h = window.houserules;
              if (h.version !== null && h.version > before) return true;
              if (window.__pressedAt !== before) {
                const b = document.querySelector(sel);
                if (b && !b.disabled) { window.__pressedAt = before; b.click(); }
              }
              return false;
            }""",
            arg=[f".dock-holdem [data-action={choice}]", state["version"]],
            timeout=20_000,
        )
    else:
        raise AssertionError("the tournament did not end")
    page.wait_for_selector("#result .tally")
    rows = page.eval_on_selector_all(
        "#result .placings tbody tr", "rows => rows.map((r) => [...r.cells].map((c) => c.textContent))"
    )
    assert len(rows) == 3
    assert all(cells[2].strip() for cells in rows), rows
    assert page.inner_text("#result .placings thead th:nth-child(3)") == "Chips"
    assert rows[-1][2] == "0"
    names = page.eval_on_selector_all("#result .tally tbody tr", "rows => rows.map((r) => r.dataset.name)")
    assert sorted(names) == ["Bot 1", "Bot 2", "Kati"]
    # The log names the players who went out, and the tournament's winner, each by their own name.
    log = page.text_content("#log") or ""
    winner = rows[0][1]
    assert f"The tournament is over: {winner} wins" in log
    assert "is out of the tournament" in log


def test_rule_tooltips_are_words_not_keys(people: Callable[..., Player], artefacts: Path) -> None:
    player = people(lang="et")
    page = player.page
    page.goto("/")
    page.wait_for_selector("#create-fields:not([hidden])")
    page.check("#game-palace")
    page.fill("#host-name", "Juhani")
    page.locator("#practice-button").scroll_into_view_if_needed()
    shoot(player, artefacts, "home-practice-et")
    page.click("#sheet-details summary")
    titles = page.eval_on_selector_all("#create-fields [title]", "els => els.map((e) => e.title)")
    option_titles = [t for t in titles if "(reeglid " in t]
    assert len(option_titles) > 5, titles
    for title in titles:
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", title), title
