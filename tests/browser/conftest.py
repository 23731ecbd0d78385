"""Browser tests: a real server process and a real headless Chromium driven by Playwright.

Run them in their own pytest process (sync Playwright and pytest-asyncio cannot share one):
``python -m pytest -m browser tests/browser``. Without a Chromium binary (``/usr/bin/chromium`` or
``HOUSERULES_CHROMIUM``) they skip with the reason. Screenshots (what a player sees at the page's
resting position, at phone and laptop sizes) are taken when a folder for them is named,
``HOUSERULES_ARTIFACTS`` (or ``HOUSERULES_ARTEFACTS``): they are for people to look at, and a run
nobody looks at skips their cost (about 4 % of the browser tests' CPU, 2026-12-04).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.support import LIFTED_LIMITS

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("HOUSERULES_CHROMIUM", "/usr/bin/chromium")
# The pages are driven in Chromium's headless shell (Debian's chromium-headless-shell, what
# Playwright itself runs headless): the same Blink at about two thirds of the full browser's CPU.
# Without it the full Chromium drives them all; a test that needs what only the full browser has
# (a notification permission: the shell keeps it "denied" whatever is granted) asks for it.
SHELL = os.environ.get("HOUSERULES_CHROMIUM_SHELL", "/usr/bin/chromium-headless-shell")
ARTEFACTS_ENV = os.environ.get("HOUSERULES_ARTIFACTS") or os.environ.get("HOUSERULES_ARTEFACTS")
SCREENSHOTS = bool(ARTEFACTS_ENV)
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Sync Playwright and pytest-asyncio cannot share a process: when tests from outside this
    directory are collected too, the browser tests skip and say how to run them."""
    here = Path(__file__).parent
    mixed = any(here not in Path(str(item.fspath)).parents for item in items)
    if not mixed:
        return
    skip = pytest.mark.skip(reason="browser tests run in their own process: pytest -m browser tests/browser")
    for item in items:
        if item.get_closest_marker("browser") is not None:
            item.add_marker(skip)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def chromium_path() -> str:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (install it or set HOUSERULES_CHROMIUM)")
    try:
        import playwright  # noqa: F401
    except ImportError:
        pytest.skip("the playwright package is not installed")
    return CHROMIUM


class ServerProcess:
    """``python -m app`` on a port with its own data directory (SQLite), as a child process."""

    def __init__(self, data: Path, port: int | None = None, settings: dict[str, str] | None = None) -> None:
        self.data = data
        self.settings = settings or {}
        self.port = port or _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {
            **os.environ,
            "HOST": "127.0.0.1",
            "PORT": str(self.port),
            "HOUSERULES_DATA_DIR": str(self.data),
            "PYTHONPATH": str(ROOT),
            **LIFTED_LIMITS,
            **self.settings,
        }
        env.pop("DATABASE_URL", None)
        env.pop("HOUSERULES_DATABASE_URL", None)
        log = (self.data / "server.log").open("a")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "app"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
        )
        log.close()
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(self.base + "/api/games", timeout=1) as response:
                    if response.status == 200:
                        return
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.process.kill()
                raise RuntimeError("the server did not start:\n" + (self.data / "server.log").read_text())
            time.sleep(0.2)

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None


# The bots' human-like pause (0.6 to 1.5 s a move) is for people watching; a test that plays a
# whole game against a bot would spend most of its time in it (``quick_server``). Moving within
# 50 ms, a bot still moves after the page has the state its move follows.
QUICK_BOTS = {"HOUSERULES_BOT_DELAY_MIN": "0", "HOUSERULES_BOT_DELAY_MAX": "0.05"}


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, chromium_path: str) -> Iterator[str]:
    """A server for the whole session, on a free port with a fresh SQLite file; yields the base URL."""
    process = ServerProcess(tmp_path_factory.mktemp("data"))
    process.start()
    try:
        yield process.base
    finally:
        process.stop()


@pytest.fixture(scope="session")
def quick_server(tmp_path_factory: pytest.TempPathFactory, chromium_path: str) -> Iterator[str]:
    """The same, its bots without their pause: for whole games against bots (``people(base=…)``)."""
    process = ServerProcess(tmp_path_factory.mktemp("quick-data"), settings=QUICK_BOTS)
    process.start()
    try:
        yield process.base
    finally:
        process.stop()


@pytest.fixture(scope="session")
def games(server: str) -> dict[str, Any]:
    with urllib.request.urlopen(server + "/api/games", timeout=5) as response:
        return {game["name"]: game for game in json.load(response)}


@pytest.fixture(scope="session")
def playwright(chromium_path: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as running:
        yield running


@pytest.fixture(scope="session")
def browser(playwright: Any, chromium_path: str) -> Iterator[Any]:
    """The headless shell when it is installed, else the full Chromium."""
    launched = playwright.chromium.launch(
        executable_path=SHELL if Path(SHELL).exists() else chromium_path, args=LAUNCH_ARGS)
    yield launched
    launched.close()


@pytest.fixture(scope="session")
def full_browser(playwright: Any, chromium_path: str) -> Iterator[Any]:
    """The full Chromium, launched for the tests that ask for it (``people(full=True)``)."""
    launched = playwright.chromium.launch(executable_path=chromium_path, args=LAUNCH_ARGS)
    yield launched
    launched.close()


@dataclass
class Player:
    """One person: a browser context (its own localStorage) with one page and the frames it received."""

    context: Any
    page: Any
    frames: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    sent: list[str] = field(default_factory=list)  # the frames the page sent, for failure reports

    def state(self) -> dict[str, Any] | None:
        result: dict[str, Any] | None = self.page.evaluate(
            "() => window.houserules && window.houserules.state ? window.houserules.state : null"
        )
        return result

    def seat(self) -> int | None:
        result: int | None = self.page.evaluate("() => window.houserules ? window.houserules.seat : null")
        return result


@pytest.fixture
def people(browser: Any, server: str, request: pytest.FixtureRequest) -> Iterator[Callable[..., Player]]:
    made: list[Player] = []

    def make(*, lang: str = "en", viewport: dict[str, int] | None = None, base: str | None = None,
             full: bool = False) -> Player:
        """A person's page; ``full`` in the full Chromium rather than the headless shell."""
        launched = request.getfixturevalue("full_browser") if full else browser
        context = launched.new_context(
            base_url=base or server,
            locale=lang,
            viewport=viewport or DESKTOP,
            extra_http_headers={"Accept-Language": lang},
        )
        page = context.new_page()
        # Generous: the machines running these are shared and sometimes slow.
        page.set_default_timeout(20_000)
        player = Player(context, page)

        def on_socket(ws: Any) -> None:
            ws.on("framereceived", lambda payload: player.frames.append(str(payload)))
            ws.on("framesent", lambda payload: player.sent.append(str(payload)))

        page.on("websocket", on_socket)
        page.on("pageerror", lambda error: player.errors.append(str(error)))
        made.append(player)
        return player

    yield make
    errors = [error for player in made for error in player.errors]
    for player in made:
        player.context.close()
    # Every script error in any page fails the test that caused it.
    assert not errors, f"uncaught script errors: {errors}"


@pytest.fixture(scope="session")
def artefacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(ARTEFACTS_ENV) if ARTEFACTS_ENV else tmp_path_factory.getbasetemp() / "artefacts"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _two_frames(page: Any) -> None:
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def screenshot(target: Any, path: Path, **options: Any) -> None:
    """``target.screenshot`` (a page or a locator) to ``path``, when screenshots are kept."""
    if SCREENSHOTS:
        target.screenshot(path=str(path), **options)


def shoot(player: Player, artefacts: Path, name: str) -> None:
    """Screenshots at phone and laptop sizes of what the player sees now, at the page's resting
    position (the viewport, not the whole page), when screenshots are kept."""
    if not SCREENSHOTS:
        return
    page = player.page
    before = page.viewport_size
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        _two_frames(page)
        page.screenshot(path=str(artefacts / f"{name}-{label}.png"))
    if before:
        page.set_viewport_size(before)
        _two_frames(page)
