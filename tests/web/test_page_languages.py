"""Each device in its own language (issue 31, item 3): a phone its seat's
choice, else its browser's, else the table's; the table screen the table's;
nothing drawn in one language is ever shown in another.

French is stood in for by a pseudo-translation that marks every sentence
drawn from a catalog with ``«fr»``, so the tests see which words went
through the language machinery, whatever the French catalogs hold."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import languages
from companion.table import Room

from .conftest import JOIN, csrf, csrf_in, first_event, login, make_app, phone

MARK = "«fr»"


class _Pseudo:
    """Every sentence, in "French": its English marked."""

    def say(self, key: str, english: Any, count: int | None) -> str:
        return MARK + languages.english_form(english, count)


@pytest.fixture(autouse=True)
def _pseudo_french(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    real = languages.translations
    monkeypatch.setattr(languages, "translations", lambda lang, domain: _Pseudo() if lang == "fr" else real(lang, domain))
    yield


@pytest.fixture()
def app(room: Room) -> Iterator[Flask]:
    yield make_app(room)


def _host(app: Flask) -> FlaskClient:
    client = app.test_client()
    login(client)
    return client


def _lang_of(html: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', html)
    assert found, "no <html lang>"
    return found.group(1)


def _table(app: Flask, lang: str | None = None) -> tuple[FlaskClient, str]:
    host = _host(app)
    data = {"csrf": csrf(host), "game": "muell-money", "start_seat": "0", "seat.0": "Ann", "seat.1": "Ben"}
    if lang:
        data["lang"] = lang
    resp = host.post("/host/new", data=data)
    assert resp.status_code == 303, resp.text
    return host, str(resp.headers["Location"]).rsplit("/", 1)[1]


def test_a_phone_whose_browser_asks_for_french_reads_french_and_the_table_screen_stays_english(app: Flask) -> None:
    _host_client, tid = _table(app)
    fr = app.test_client()
    fr.environ_base["HTTP_ACCEPT_LANGUAGE"] = "fr-FR,fr;q=0.9,en;q=0.5"
    resp = fr.post(f"/j/{JOIN}/claim", data={"csrf": csrf(fr), "table": tid, "seat": "0"})
    assert resp.status_code == 303
    french = fr.get(f"/s/{tid}/0").text
    en_phone = phone(app, tid, 1)
    english = en_phone.get(f"/s/{tid}/1").text
    screen = app.test_client().get(f"/t/{tid}").text
    assert _lang_of(french) == "fr" and MARK in french
    # drawn after the French page at the same state: nothing of it in English
    assert _lang_of(english) == "en" and MARK not in english
    assert _lang_of(screen) == "en" and MARK not in screen


def test_the_seat_page_s_picker_keeps_the_language_with_the_seat_for_the_next_phone(app: Flask) -> None:
    host, tid = _table(app)
    first = phone(app, tid, 0)
    page = first.get(f"/s/{tid}/0").text
    assert _lang_of(page) == "en" and 'name="lang" value="fr"' in page
    resp = first.post(f"/s/{tid}/0/language", data={"csrf": csrf_in(page), "lang": "fr"})
    assert resp.status_code == 303
    assert _lang_of(first.get(f"/s/{tid}/0").text) == "fr"
    # the host frees the seat; another phone, whose browser asks for nothing, takes it over
    host_page = host.get(f"/host/t/{tid}").text
    freed = host.post(f"/host/t/{tid}/free/0", data={"csrf": csrf_in(host_page)})
    assert freed.status_code in (200, 303), freed.text
    second = phone(app, tid, 0)
    assert _lang_of(second.get(f"/s/{tid}/0").text) == "fr"
    # the seat's choice wins over the browser's, until the phone chooses again
    second.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    assert _lang_of(second.get(f"/s/{tid}/0").text) == "fr"


def test_a_language_chosen_on_the_join_page_becomes_the_seat_s(app: Flask) -> None:
    _host_client, tid = _table(app)
    client = app.test_client()
    page = client.get(f"/j/{JOIN}").text
    assert 'name="lang" value="fr"' in page
    resp = client.post("/language", data={"csrf": csrf_in(page), "lang": "fr", "next": f"/j/{JOIN}"})
    assert resp.status_code == 303 and resp.headers["Location"].endswith(f"/j/{JOIN}")
    assert _lang_of(client.get(f"/j/{JOIN}").text) == "fr"
    client.post(f"/j/{JOIN}/claim", data={"csrf": csrf(client), "table": tid, "seat": "1"})
    assert _lang_of(client.get(f"/s/{tid}/1").text) == "fr"


@pytest.mark.parametrize("lang", ["de", "", "fr-FR", "x" * 400, "<script>"])
def test_a_language_the_companion_does_not_speak_is_refused_and_changes_nothing(app: Flask, lang: str) -> None:
    _host_client, tid = _table(app)
    client = phone(app, tid, 0)
    page = client.get(f"/s/{tid}/0").text
    resp = client.post(f"/s/{tid}/0/language", data={"csrf": csrf_in(page), "lang": lang})
    assert resp.status_code == 400
    assert "languages" in resp.text.lower() and "Traceback" not in resp.text
    assert _lang_of(client.get(f"/s/{tid}/0").text) == "en"
    join = app.test_client()
    page = join.get(f"/j/{JOIN}").text
    assert join.post("/language", data={"csrf": csrf_in(page), "lang": lang}).status_code == 400


def test_the_join_page_never_sends_a_phone_to_another_site(app: Flask) -> None:
    client = app.test_client()
    page = client.get(f"/j/{JOIN}").text
    for target in ("https://evil.example/", "//evil.example/x", "/\\evil.example"):
        resp = client.post("/language", data={"csrf": csrf_in(page), "lang": "fr", "next": target})
        assert resp.status_code == 303 and resp.headers["Location"].endswith("/j")


def test_the_table_s_language_is_chosen_at_setup_and_changed_by_the_host(app: Flask) -> None:
    host, tid = _table(app, lang="fr")
    screen = app.test_client()
    assert _lang_of(screen.get(f"/t/{tid}").text) == "fr"
    # a phone that chose nothing, whose browser asks for none of the companion's: the table's
    de = app.test_client()
    de.environ_base["HTTP_ACCEPT_LANGUAGE"] = "de-DE"
    de.post(f"/j/{JOIN}/claim", data={"csrf": csrf(de), "table": tid, "seat": "0"})
    assert _lang_of(de.get(f"/s/{tid}/0").text) == "fr"
    page = host.get(f"/host/t/{tid}").text
    resp = host.post(f"/host/t/{tid}/language", data={"csrf": csrf_in(page), "lang": "en"})
    assert resp.status_code == 303
    assert _lang_of(screen.get(f"/t/{tid}").text) == "en"
    assert host.post(f"/host/t/{tid}/language", data={"csrf": csrf_in(page), "lang": "klingon"}).status_code == 400
    assert _lang_of(screen.get(f"/t/{tid}").text) == "en"
    assert app.test_client().post(f"/host/t/{tid}/language", data={"lang": "fr"}).status_code in (302, 303, 400, 403)
    assert _lang_of(screen.get(f"/t/{tid}").text) == "en"


def test_live_views_of_one_table_in_two_languages_are_drawn_apart(app: Flask) -> None:
    """The live hub draws a view once per language: the French phone's
    stream is French, the English phone's and the screen's English."""
    _host_client, tid = _table(app)
    fr = phone(app, tid, 0)
    page = fr.get(f"/s/{tid}/0").text
    fr.post(f"/s/{tid}/0/language", data={"csrf": csrf_in(page), "lang": "fr"})
    en = phone(app, tid, 1)
    french = first_event(fr, f"/s/{tid}/0/stream")
    english = first_event(en, f"/s/{tid}/1/stream")
    screen = first_event(app.test_client(), f"/t/{tid}/stream")
    assert MARK in french
    assert MARK not in english and MARK not in screen


def test_the_templates_gettext_fills_in_escaped_and_never_copies_the_context(app: Flask,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """``_()``, ``{% trans %}`` (with a plural) and ``pgettext`` in a template
    say the language spoken, escape what they fill in as Jinja's newstyle
    callables do, and take no template context: a context-taking call in a
    block with variables of its own copies the whole context first, once per
    sentence (a fifth of a live host page's drawing)."""
    from jinja2.runtime import Context

    def no_copy(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("a gettext call copied the template's context")

    monkeypatch.setattr(Context, "derived", no_copy)
    source = ('{% for i in [1] %}{% set v = "<b>" %}'
              '{{ _("Cancel %(v)s", v=v) }}|{{ _("100%% sure") }}|'
              '{% trans count=n %}{{ count }} step <i>{% pluralize %}{{ count }} steps{% endtrans %}|'
              '{{ pgettext("ctx", "Host %(v)s", v=v) }}|{{ ngettext("%(num)s card", "%(num)s cards", 2) }}'
              '{% endfor %}')
    with app.test_request_context():
        template = app.jinja_env.from_string(source)
        english = template.render(n=0)
        with languages.speaking("fr"):
            french = template.render(n=0)
    assert english == "Cancel &lt;b&gt;|100% sure|0 steps|Host &lt;b&gt;|2 cards", english
    assert french == "«fr»Cancel &lt;b&gt;|«fr»100% sure|«fr»0 steps|«fr»Host &lt;b&gt;|«fr»2 cards", french
