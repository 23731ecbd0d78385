"""The page router and the catalogues without a browser: language choice, redirects, headers, texts.

These need no Chromium and run with the ordinary test suite (they carry no ``browser`` marker).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.web import i18n, pages

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def client() -> TestClient:
    app = FastAPI()
    app.include_router(pages.router)
    return TestClient(app)


@pytest.mark.parametrize(
    ("cookie", "header", "expected"),
    [
        (None, "fi-FI,fi;q=0.9,en;q=0.8", "fi"),
        (None, "de-DE,de;q=0.9,et;q=0.5", "et"),
        (None, "et;q=0.5,fi;q=0.9", "fi"),  # the higher quality wins, not the order
        (None, "et;q=0,fi;q=0.1", "fi"),  # q=0 means "not this one"
        (None, "de, fr", "en"),
        (None, None, "en"),
        ("et", "fi", "et"),  # the switch beats the browser
        ("xx", "fi", "fi"),  # an unknown cookie is ignored
    ],
)
def test_language_from_cookie_then_accept_language(
    cookie: str | None, header: str | None, expected: str
) -> None:
    assert i18n.pick_language(cookie, header) == expected


def test_pages_speak_the_chosen_language(client: TestClient) -> None:
    finnish = client.get("/", headers={"Accept-Language": "fi"})
    assert finnish.status_code == 200
    assert '<html lang="fi">' in finnish.text
    assert "Korttipelejä omilla kotisäännöillä" in finnish.text
    client.cookies.set("lang", "et")
    try:
        estonian = client.get("/r/abc_DEF-123", headers={"Accept-Language": "fi"})
    finally:
        client.cookies.clear()
    assert '<html lang="et">' in estonian.text
    assert "Liitu toaga" in estonian.text


def test_the_switch_sets_a_cookie_and_only_redirects_within_the_site(client: TestClient) -> None:
    answer = client.get("/lang/fi", params={"next": "/r/abc"}, follow_redirects=False)
    assert answer.status_code == 303
    assert answer.headers["location"] == "/r/abc"
    assert "lang=fi" in answer.headers["set-cookie"]
    for target in ("https://evil.example/", "//evil.example/x", "javascript:alert(1)", "r/abc"):
        away = client.get("/lang/et", params={"next": target}, follow_redirects=False)
        assert away.headers["location"] == "/"
    assert client.get("/lang/de", follow_redirects=False).status_code == 404


def test_pages_send_a_content_security_policy_and_refuse_odd_room_ids(client: TestClient) -> None:
    page = client.get("/r/abc")
    policy = page.headers["content-security-policy"]
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy
    assert client.get("/r/" + "x" * 65).status_code == 404
    assert client.get("/r/a.b").status_code == 404


def test_the_catalogue_is_embedded_safely_and_served_as_json(client: TestClient) -> None:
    page = client.get("/", headers={"Accept-Language": "et"})
    block = re.search(r'<script type="application/json" id="i18n-catalogue">(.*?)</script>', page.text, re.S)
    assert block is not None
    assert "</" not in block.group(1)  # nothing in the catalogue can close the script block
    served = client.get("/i18n/fi.json").json()
    assert served["lang"] == "fi"
    assert served["messages"]["Pick up the pile"] == "Nosta pino"
    assert client.get("/i18n/xx.json").status_code == 404


def test_static_files_are_cached_by_content_hash_and_revalidated_otherwise(client: TestClient) -> None:
    page = client.get("/")
    entry = re.findall(
        r'<(?:link rel="stylesheet"|script type="module") (?:href|src)="(/static/[^"]+)"', page.text
    )
    assert {url.split("?")[0] for url in entry} >= {"/static/css/app.css", "/static/js/home.js"}
    for url in entry:
        assert re.search(r"\?v=[0-9a-f]{10}$", url), url
        answer = client.get(url)
        assert answer.status_code == 200
        assert "immutable" in answer.headers["cache-control"]
    # Modules import each other by plain URL: those are always revalidated, never used stale.
    for url in re.findall(r'rel="modulepreload" href="(/static/[^"]+)"', page.text):
        answer = client.get(url)
        assert answer.status_code == 200
        assert answer.headers["cache-control"] == "no-cache"
        assert answer.headers["content-type"].startswith(("text/javascript", "application/javascript"))


def test_every_text_of_pages_and_scripts_is_translated() -> None:
    """Run the catalogue tool in check mode: a text without an Estonian or Finnish line fails."""
    result = subprocess.run(
        [sys.executable, str(ROOT / "locale" / "update.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout


def test_game_terms_are_the_languages_own_words() -> None:
    et = i18n.messages("et")
    fi = i18n.messages("fi")
    assert et["Pile"] == "Ladumispakk" and et["Stock"] == "Juurdevõtupakk"
    assert fi["Pile"] == "Pino" and fi["Stock"] == "Nostopakka"
    assert fi["Talon"] == "Ostos" and et["hand: full house"] == "maja"
    assert fi["Trick"] == "Tikki" and et["Trick"] == "Tihi"
