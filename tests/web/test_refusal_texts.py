"""Refusals travel as a code, a template and its values, and every template reads in Estonian and
Finnish with the same placeholders: the page formats a refusal from the catalogue
(``refusalText`` in static/js/i18n.js), never by matching the English sentence."""

from __future__ import annotations

import re

import httpx
import pytest

from app.web import i18n
from tests.e2e.client import make_room, seat_clients
from tests.support import ServerProcess
from tests.web.refusal_templates import refusal_templates

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def all_templates() -> dict[str, str]:
    templates, problems = refusal_templates()
    assert not problems, problems
    return templates


def test_the_scan_finds_refusals_of_every_kind() -> None:
    templates = all_templates()
    for sentence in (
        "The call is {pay}.",  # a game's IllegalAction with a value
        "The bid must be at least {min}.",
        "The name is longer than {limit} characters.",  # a room's table of sentences
        "Too many requests from your address; try again in {seconds} second.",  # a local variable
        "The game is at version {current}, not {version}.",  # a Sentence handed to _refuse
        "That card does not fit on the pile.",  # Palace's own _refuse
    ):
        assert sentence in templates, sentence
    assert len(templates) > 200


@pytest.mark.parametrize("lang", ["et", "fi"])
def test_every_refusal_sentence_is_translated_with_its_placeholders(lang: str) -> None:
    table = i18n.messages(lang)
    missing, mismatched = [], []
    for template, where in sorted(all_templates().items()):
        text = table.get(template)
        if not text:
            missing.append(f"{template!r} ({where})")
        elif set(PLACEHOLDER.findall(text)) != set(PLACEHOLDER.findall(template)):
            mismatched.append(f"{template!r} -> {text!r}")
    assert not missing, f"{lang}: refusals without a text: {missing}"
    assert not mismatched, f"{lang}: placeholders differ: {mismatched}"


@pytest.mark.parametrize("lang", ["et", "fi"])
def test_every_refusal_code_of_the_transport_has_a_text(lang: str) -> None:
    table = i18n.messages(lang)
    for code in ("bad_request", "body_too_large"):
        assert table.get(f"error: {code}"), code


def test_an_http_refusal_carries_its_template_and_values(server: ServerProcess) -> None:
    refused = httpx.post(server.http + "/api/rooms", json={"game": "palace", "name": "Kati", "seats": 2,
                                                           "options": {"turn_timer_seconds": -1}})
    body = refused.json()
    assert refused.status_code == 422 and body["code"] == "invalid_sheet"
    # The option is named by its label on the form (the page words it in its language); its key
    # only finds the field.
    assert body["template"] == "“{label}”: at least {ge}."
    assert body["params"] == {"key": "turn_timer_seconds", "label": "Turn timer", "ge": 0}
    assert body["message"] == "“Turn timer”: at least 0." and body["option"] == "turn_timer_seconds"
    fi = i18n.messages("fi")
    label = fi["rule-sheet label\x04Turn timer"]
    assert fi[body["template"]].format(**{**body["params"], "label": label}) == f"”{label}”: vähintään 0."


def test_a_sheet_over_its_size_names_the_option_by_its_label(server: ServerProcess) -> None:
    levels = [[1, 2, 10]] * 60  # over the 50 entries a list may hold
    asked = {"game": "holdem", "name": "Kati", "seats": 2, "preset": "tournament-nl-turbo",
             "options": {"levels": levels}}
    refused = httpx.post(server.http + "/api/rooms", json=asked)
    body = refused.json()
    assert refused.status_code == 422 and body["code"] == "invalid_sheet", body
    assert body["params"]["key"] == "levels" and body["params"]["label"] != "levels"
    assert body["message"] == f"“{body['params']['label']}”: at most 50 entries."


async def test_a_socket_refusal_carries_its_template_and_values(server: ServerProcess) -> None:
    room, tokens = await make_room(server.http, 2, preset="hiina-turakas")
    players, _ = await seat_clients(server.ws, room, tokens, spectators=0)
    await players[0].send({"type": "chat", "id": "c-1", "text": "ä" * 301})
    reply = await players[0].reply("c-1")
    assert reply["code"] == "chat_too_long"
    assert reply["template"] == "The chat is longer than {limit} characters."
    assert reply["params"] == {"limit": 300}
    assert reply["message"] == "The chat is longer than 300 characters."
    et = i18n.messages("et")[reply["template"]].format(**reply["params"])
    assert et == "Vestlussõnum on pikem kui 300 märki."
    for client in players:
        await client.close()
