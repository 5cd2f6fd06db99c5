"""The catalogs over the wire: a refusal in every language, and the page's catalog as JSON,
chosen by name or by ``Accept-Language``, from the real server."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest
from webserver import serving

from ttr_europe.i18n import LANGUAGES, catalog_json
from ttr_europe.table.match import Match
from ttr_europe.web.hub import Client, Hub


def _people() -> Match:
    return Match.new("europe", "base", 2, 3, ["person", "greedy"])


def test_a_refusal_carries_its_sentence_in_every_language() -> None:
    hub = Hub(_people)
    client = Client()
    hub.receive(client, json.dumps({"type": "join", "seat": 0}))
    keep_none = {"format": "ttr_europe/action", "version": 1, "type": "keep_tickets", "tickets": []}
    ((_, doc),) = hub.receive(client, json.dumps({"type": "act", "action": keep_none}))
    assert doc["code"] == "illegal" and doc["rule"] == "R9"
    assert doc["text"] == "Keep at least 2 tickets."  # the English, as before
    assert doc["words"] == {
        "en": "Keep at least 2 tickets.",
        "pt": "Fique com pelo menos 2 Bilhetes.",
        "ru": "Оставьте хотя бы 2 маршрута.",
        "ro": "Păstrează cel puțin 2 bilete.",
    }
    ((_, turn),) = hub.receive(Client(), json.dumps({"type": "act", "action": "blind"}))
    assert turn["code"] == "not_joined"  # not a rule's refusal: no words


def _get(url: str, accept: str | None = None) -> tuple[int, Any, str]:
    request = urllib.request.Request(url, headers={"Accept-Language": accept} if accept else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, json.loads(r.read()), r.headers.get("Vary", "")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read()), ""


@pytest.mark.slow
def test_the_server_sends_the_catalogs_the_page_asks_for() -> None:
    with serving(_people) as server:
        for lang in LANGUAGES:
            status, doc, _ = _get(server.url + f"i18n/{lang}.json")
            assert status == 200 and doc == catalog_json(lang)
        status, doc, vary = _get(server.url + "i18n.json", "ru-RU,ru;q=0.9,en;q=0.5")
        assert status == 200 and doc["lang"] == "ru" and vary == "Accept-Language"
        assert _get(server.url + "i18n.json", "fr-FR")[1]["lang"] == "en"
        assert _get(server.url + "i18n.json")[1]["lang"] == "en"
        status, doc, _ = _get(server.url + "i18n/xx.json")
        assert status == 404 and "xx" in doc["error"]


# How far the refusal's box is out of sight: past the screen's edges, or scrolled out of the
# panel that holds it (0: wholly seen)
ERROR_OFF_SCREEN = """() => { const r = document.getElementById('error').getBoundingClientRect();
  const panel = document.querySelector('aside').getBoundingClientRect();
  const top = Math.max(0, panel.top), bottom = Math.min(innerHeight, panel.bottom);
  return Math.round(Math.max(0, top - r.top, r.bottom - bottom)); }"""


@pytest.mark.slow
def test_a_refusal_on_a_phone_is_on_the_screen_in_russian(browser: Any) -> None:
    """Keep with no ticket ticked, by the keyboard alone: the refusal's box sits above the turn,
    out of sight once the list is scrolled to its Keep button; it is scrolled to, in Russian."""
    with serving(_people) as server:
        phone = {"width": 375, "height": 667}  # the panel scrolls under the map to show Keep
        page = browser.new_context(viewport=phone, locale="ru").new_page()
        page.goto(server.url + "?seat=0")
        page.wait_for_selector("#offer-list input", timeout=15_000)
        for box in page.locator("#offer-list input").all():
            box.focus()
            if box.is_checked():
                page.keyboard.press("Space")
        page.locator("#keep").focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("#error:not([hidden])", timeout=15_000)
        assert page.locator("#error").inner_text() == "Оставьте хотя бы 2 маршрута."
        assert page.evaluate(ERROR_OFF_SCREEN) == 0
        assert page.evaluate("document.activeElement.id") == "keep"
