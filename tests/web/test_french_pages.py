"""The pages' own words in French (the gettext domain ``web``): the join
page, a seat's phone, the table screen and the host's page drawn while
French is spoken say their words in French and none of their English ones;
drawn without it, they are the English pages they always were.

Each device asks the way a real one does: a phone and the host's browser
by their ``Accept-Language``, the table screen by the table's language,
which the host sets on the host page (web/language.py)."""

from __future__ import annotations

import html
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from .conftest import JOIN, csrf_in, open_table, phone


def _get(client: FlaskClient, url: str, lang: str | None = None) -> str:
    """The page as a browser asking for ``lang`` (None: English) sees it."""
    resp = client.get(url, headers={"Accept-Language": lang or "en"})
    assert resp.status_code == 200, resp.text
    return html.unescape(resp.text)


def _table_speaks(host: FlaskClient, table_id: str, lang: str | None) -> None:
    """The host sets the table screen's language, as on the host page."""
    page = host.get(f"/host/t/{table_id}").text
    resp = host.post(f"/host/t/{table_id}/language", data={"csrf": csrf_in(page), "lang": lang or "en"})
    assert resp.status_code in (302, 303), resp.text


@pytest.fixture
def table_id(host: FlaskClient) -> Iterator[str]:
    yield open_table(host, "tally", ["Ann", "Bob"])


#: (page, French words it says, English words it no longer says)
PAGES = {
    "join": (["Rejoindre la table", "Code pour rejoindre", ">Rejoindre</button>"],
             ["Join the table", "Join code", ">Join</button>"]),
    "seat": (["Ce téléphone", "Ce qui s'est passé", "Votre lien privé", "connexion en direct\u00a0: connexion en cours",
              "Vibrer quand c'est mon tour", "Règles de Tally", "C'est votre tour"],
             ["This phone", "What happened", "Your private link", "live connection: connecting",
              "Vibrate when it is my move", "Rules of Tally", "Your move"]),
    "screen": (["Ce qui s'est passé", ">Règles</a>", "rejoindre", "La table"],
               ["What happened", ">Rules</a>", '<span class="muted">join</span>', ">The table<"]),
    "host": (["Annulations et corrections", "Vue publique", "Places", "Ce qui s'est passé", "Hôte",
              "Terminer et compter maintenant", "Exporter l'enregistrement de la partie (JSON)",
              "Et si\u00a0? Ouvrir un bac à sable"],
             ["Undo and corrections", "Public view", "<h2>Seats</h2>", "What happened", "← Host",
              "End and score now", "Export the game record (JSON)", "What if? Open a sandbox"]),
}


_PHONES: dict[tuple[int, str], FlaskClient] = {}


def _page(app: Flask, host: FlaskClient, table_id: str, name: str, lang: str | None) -> str:
    if name == "join":
        return _get(app.test_client(), "/j", lang)
    if name == "seat":  # one phone holds Ann's seat (a second would be refused)
        held = _PHONES.get((id(app), table_id))
        if held is None:
            held = _PHONES[(id(app), table_id)] = phone(app, table_id, 0)
        return _get(held, f"/s/{table_id}/0", lang)
    if name == "screen":
        _table_speaks(host, table_id, lang)
        return _get(app.test_client(), f"/t/{table_id}")
    return _get(host, f"/host/t/{table_id}", lang)


@pytest.mark.parametrize("name", list(PAGES))
def test_a_page_drawn_while_french_is_spoken_says_its_words_in_french(
        app: Flask, host: FlaskClient, table_id: str, name: str) -> None:
    french, english = PAGES[name]
    page = _page(app, host, table_id, name, "fr")
    assert '<html lang="fr">' in page
    missing = [w for w in french if w not in page]
    left = [w for w in english if w in page]
    assert not missing and not left, f"not in French: {missing}; still English: {left}"


@pytest.mark.parametrize("name", list(PAGES))
def test_the_same_page_without_french_is_english_as_it_was(
        app: Flask, host: FlaskClient, table_id: str, name: str) -> None:
    """Drawn after the French one (its kept parts are the French ones' only
    while French is spoken): the English page, word for word."""
    _page(app, host, table_id, name, "fr")
    french, english = PAGES[name]
    page = _page(app, host, table_id, name, None)
    assert '<html lang="en">' in page
    missing = [w for w in english if w.replace("<h2>Seats</h2>", "Seats") not in page]
    left = [w for w in french if w not in ("Places", "La table") and w in page]
    assert not missing and not left, f"not in English: {missing}; French left: {left}"


def test_a_refusal_is_said_in_french(app: Flask) -> None:
    """A message of the pages' Python (here a wrong join code's 403 page)."""
    resp = app.test_client().get("/j/NOPE", headers={"Accept-Language": "fr"})
    text = html.unescape(resp.text)
    assert resp.status_code in (403, 200)
    assert "That join code is not right" not in text and "That code is not right" not in text
    assert "n'est pas le bon" in text
    assert JOIN not in text
