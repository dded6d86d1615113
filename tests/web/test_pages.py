"""The dashboard's pages and actions, through Flask's test client."""

from __future__ import annotations

import json

from flask import Flask
from flask.testing import FlaskClient

from companion.commands import CHANCE, Command
from companion.games.base import TABLE_SCREEN
from companion.table import Room
from web import dashboard_of
from web.parts import STATE_MARK

from .conftest import (
    FETCH,
    JOIN,
    PIN,
    csrf,
    event_data,
    export_running,
    first_event,
    login,
    make_app,
    open_table,
    phone,
)
from .play import seat_up


def post_act(client: FlaskClient, url: str, command: str, args: dict[str, object], state_no: int,
             **fields: object) -> tuple[int, dict[str, object]]:
    data: dict[str, object] = {"csrf": csrf(client), "command": command, "args": json.dumps(args),
                               "state_no": str(state_no)}
    for key, value in fields.items():
        data[key] = value
    resp = client.post(url, data=data, headers=FETCH)
    return resp.status_code, resp.get_json()


def test_lobby_then_table_screen(app: Flask, host: FlaskClient) -> None:
    screen = app.test_client()
    lobby = screen.get("/")
    assert lobby.status_code == 200 and JOIN in lobby.text and "<svg" in lobby.text
    tid = open_table(host, "tally", ["Ann", "Bob"])
    resp = screen.get("/")
    assert resp.status_code == 302 and resp.headers["Location"].endswith(f"/t/{tid}")
    page = screen.get(f"/t/{tid}")
    assert page.status_code == 200
    assert "Tally" in page.text and "Ann" in page.text and JOIN in page.text
    assert 'class="qr"' in page.text  # the join QR, drawn on the server


def test_join_pick_seat_and_act(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "tally", ["Ann", "Bob"])
    ann = phone(app, tid, 0)
    page = ann.get(f"/s/{tid}/0")
    # the seat's page veils its forms' numbers until the player peeks (web/veil.py)
    assert page.status_code == 200 and 'Add <span class="secret-num">1</span>' in page.text and "Your move" in page.text
    status, body = post_act(ann, f"/s/{tid}/0/act", "add", {"amount": 2}, 0)
    assert status == 200 and body["ok"], body
    assert dashboard_of(app).room.get(tid).state.tally == 2
    # the same (stale) form again: someone moved first, nothing changes
    status, body = post_act(ann, f"/s/{tid}/0/act", "add", {"amount": 2}, 0)
    assert status == 409 and body["code"] == "stale" and "moved first" in str(body["message"])
    assert dashboard_of(app).room.get(tid).state.tally == 2


def test_stale_without_script_redirects_with_a_message(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "tally", ["Ann", "Bob"])
    ann = phone(app, tid, 0)
    data = {"csrf": csrf(ann), "command": "add", "args": '{"amount": 1}', "state_no": "5"}
    resp = ann.post(f"/s/{tid}/0/act", data=data, follow_redirects=True)
    assert resp.status_code == 200 and "Someone moved first" in resp.text


def test_a_seat_is_taken_once_and_the_host_frees_it(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "tally", ["Ann", "Bob"])
    phone(app, tid, 1)
    other = app.test_client()
    resp = other.post(f"/j/{JOIN}/claim", data={"csrf": csrf(other), "table": tid, "seat": "1"}, headers=FETCH)
    assert resp.status_code == 409 and "taken" in resp.get_json()["message"]
    assert other.get(f"/s/{tid}/1").status_code == 403
    resp = host.post(f"/host/t/{tid}/free/1", data={"csrf": csrf(host)}, headers=FETCH)
    assert resp.status_code == 200
    assert phone(app, tid, 1).get(f"/s/{tid}/1").status_code == 200


def test_wrong_join_code_and_foreign_seat_are_refused(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "tally", ["Ann", "Bob"])
    stranger = app.test_client()
    assert stranger.get("/j/NOPE").status_code == 403
    assert stranger.post("/j/NOPE/claim", data={"csrf": csrf(stranger), "table": tid, "seat": "0"}).status_code == 403
    ann = phone(app, tid, 0)
    assert ann.get(f"/s/{tid}/1").status_code == 403  # Ann's cookie does not open Bob's seat
    status, _ = post_act(ann, f"/s/{tid}/1/act", "add", {"amount": 1}, 0)
    assert status == 403
    ann.set_cookie(f"tc_seat_{tid}", "0.forged-token")
    assert ann.get(f"/s/{tid}/0").status_code == 403


def test_private_link_moves_a_seat_to_another_browser(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "tally", ["Ann", "Bob"])
    ann = phone(app, tid, 0)
    page = ann.get(f"/s/{tid}/0").text
    link = page.split("<code>")[1].split("</code>")[0]
    assert f"/s/{tid}/0/key/" in link
    other = app.test_client()
    path = link[link.index("/s/"):]
    resp = other.get(path)
    assert resp.status_code == 303
    assert other.get(f"/s/{tid}/0").status_code == 200
    assert other.get(f"/s/{tid}/0/key/not-the-token").status_code == 403


def test_host_needs_the_pin(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "tally", ["Ann", "Bob"])
    guest = app.test_client()
    assert guest.get("/host").status_code == 302
    resp = guest.post(f"/host/t/{tid}/undo", data={"csrf": csrf(guest), "state_no": "0", "confirmed": "1"})
    assert resp.status_code == 403
    wrong = guest.post("/host/login", data={"csrf": csrf(guest), "pin": "0000"})
    assert wrong.status_code == 403 and "not right" in wrong.text
    assert guest.get(f"/host/t/{tid}").status_code == 302
    ok = guest.post("/host/login", data={"csrf": csrf(guest), "pin": PIN})
    assert ok.status_code == 303
    assert guest.get(f"/host/t/{tid}").status_code == 200


def test_pin_guessing_is_slowed_down(app: Flask) -> None:
    guest = app.test_client()
    token = csrf(guest)
    codes = [guest.post("/host/login", data={"csrf": token, "pin": f"{n:04d}"}).status_code for n in range(10)]
    assert codes[-1] == 429
    assert guest.post("/host/login", data={"csrf": token, "pin": PIN}).status_code == 429


def test_csrf_token_is_required(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "tally", ["Ann", "Bob"])
    ann = phone(app, tid, 0)
    data = {"command": "add", "args": '{"amount": 1}', "state_no": "0"}
    assert ann.post(f"/s/{tid}/0/act", data=data).status_code == 400
    data["csrf"] = "wrong"
    resp = ann.post(f"/s/{tid}/0/act", data=data, headers=FETCH)
    assert resp.status_code == 400 and "out of date" in resp.get_json()["message"]
    assert dashboard_of(app).room.get(tid).state_no == 0


def test_every_field_kind_and_money_confirmation(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    ann = phone(app, tid, 0)
    page = ann.get(f"/s/{tid}/0").text
    # a money move asks first, with its button's words as drawn (its numbers may be veiled)
    assert "data-confirm-label" in page and "Pay into the pot</button>" in page
    assert 'type="checkbox"' in page and 'type="number"' in page
    url = f"/s/{tid}/0/act"
    status, body = post_act(ann, url, "pay", {}, 0, **{"f.amount": "3"})
    assert status == 409 and body["code"] == "confirm"  # money moves ask first
    status, body = post_act(ann, url, "pay", {}, 0, **{"f.amount": "99", "confirmed": "1"})
    assert status == 400 and "at most" in str(body["message"])
    status, body = post_act(ann, url, "pay", {}, 0, **{"f.amount": "3", "confirmed": "1"})
    assert status == 200, body
    bob = phone(app, tid, 1)
    status, body = post_act(bob, f"/s/{tid}/1/act", "mix", {}, 1, **{"f.colours": ["red", "blue"]})
    assert status == 200, body
    status, body = post_act(ann, url, "paint", {}, 2, **{"f.colour": "mauve"})
    assert status == 400 and "not one of the choices" in str(body["message"])
    status, body = post_act(ann, url, "paint", {}, 2, **{"f.colour": "green"})
    assert status == 200
    assert dashboard_of(app).room.get(tid).state.colours_taken == ["green"]


def test_confirmation_page_without_script(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    ann = phone(app, tid, 0)
    data = {"csrf": csrf(ann), "command": "pay", "args": "{}", "state_no": "0", "f.amount": "2"}
    resp = ann.post(f"/s/{tid}/0/act", data=data)
    assert resp.status_code == 200 and "Are you sure?" in resp.text and 'name="confirmed" value="1"' in resp.text
    assert dashboard_of(app).room.get(tid).state_no == 0


def test_rule_refusal_is_a_message_not_an_error_page(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "tally", ["Ann", "Bob"])
    bob = phone(app, tid, 1)
    # a disabled hint (not Bob's turn) is still sent to the game, which says why
    status, body = post_act(bob, f"/s/{tid}/1/act", "add", {"amount": 1}, 0)
    assert status == 422 and "not your turn" in str(body["message"])
    status, body = post_act(bob, f"/s/{tid}/1/act", "add", {"amount": 9}, 0)
    assert status == 409 and body["code"] == "gone"


def test_host_chance_undo_end_export(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    table = dashboard_of(app).room.get(tid)
    for seat in (0, 1, 0):
        table.submit(Command.__new__(Command) if False else _pass(seat, table.state_no))
    assert table.game.dice_to_roll(table.state)
    page = host.get(f"/host/t/{tid}").text
    assert "d6 die" in page and "Enter the card" in page and "Enter the roll" in page
    # the game's own form for the same command ('roll') is not drawn a second time
    assert "Enter the die" not in page
    token = csrf(host)
    resp = host.post(f"/host/t/{tid}/dice", data={"csrf": token, "state_no": "3", "die.0": "9"}, headers=FETCH)
    assert resp.status_code == 400
    resp = host.post(f"/host/t/{tid}/dice", data={"csrf": token, "state_no": "3", "die.0": "4"}, headers=FETCH)
    assert resp.status_code == 200 and table.state.last_roll == 4
    assert table.entries[-1].source == "host" and table.entries[-1].actor == str(CHANCE)
    # undo asks first, then takes the roll back
    resp = host.post(f"/host/t/{tid}/undo", data={"csrf": token, "state_no": "4", "count": "1"}, headers=FETCH)
    assert resp.status_code == 409 and resp.get_json()["code"] == "confirm"
    resp = host.post(f"/host/t/{tid}/undo", data={"csrf": token, "state_no": "4", "count": "1",
                                                   "reason": "misread", "confirmed": "1"}, headers=FETCH)
    assert resp.status_code == 200 and table.state.last_roll is None
    assert "misread" in table.log()[-1]["lines"][0]["text"]
    resp = host.post(f"/host/t/{tid}/card", data={"csrf": token, "state_no": "5", "card": "SIX", "copy": "2"}, headers=FETCH)
    assert resp.status_code == 200 and table.state.last_roll == 6
    resp = host.post(f"/host/t/{tid}/dice", data={"csrf": token, "state_no": "6", "software": "1"}, headers=FETCH)
    assert resp.status_code == 422  # no roll awaited now: a message, not an error
    record = export_running(host, tid)
    assert record["config"]["game"] == "secretive" and len(record["log"]) == 7
    assert [e["undone"] for e in record["log"]].count(True) == 1
    assert record["log"][-1]["kind"] == "note"
    resp = host.post(f"/host/t/{tid}/end", data={"csrf": token, "confirmed": "1"}, headers=FETCH)
    assert resp.status_code == 200
    screen = app.test_client().get(f"/t/{tid}").text
    # the toy game has no 'end' command: the dashboard closes it, its sheet marked provisional
    assert "Closed by the host (provisional)" in screen and "Provisional scores" in screen
    assert "score-chart" in screen and "polyline" in screen
    record = json.loads(host.get(f"/host/t/{tid}/export.json").data)
    assert record["scores_provisional"] is True and record["scores"]["final"] is False
    ann = phone(app, tid, 0) if False else None
    assert ann is None


def _pass(seat: int, state_no: int) -> Command:
    from companion.commands import Actor

    return Command(Actor.of_seat(seat), "pass", {}, state_no, "test")


def test_streams_send_views_and_keepalives(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "tally", ["Ann", "Bob"])
    ann = phone(app, tid, 0)
    text = first_event(ann, f"/s/{tid}/0/stream")
    # the fragment's state is the page's to put in (the event's id says it)
    assert "retry:" in text and f'data-state="{STATE_MARK}"' in event_data(text) and "id: 0\n" in text
    # a stream always starts with the fragment whole: what it sends next is what changed from it
    text = first_event(app.test_client(), f"/t/{tid}/stream", name=": keep-alive")
    assert text.count("event: view") == 1 and "event: parts" not in text
    assert f'data-state="{STATE_MARK}"' in event_data(first_event(host, f"/host/t/{tid}/stream"))
    assert 'data-state="0"' in host.get(f"/host/t/{tid}/live").text  # a fragment fetched alone has it put in


def test_table_screen_stream_follows_the_host_to_a_new_table(app: Flask, host: FlaskClient) -> None:
    first = open_table(host, "tally", ["Ann", "Bob"])
    open_table(host, "tally", ["Cid", "Dee"])
    text = first_event(app.test_client(), f"/t/{first}/stream?seen=0", name="goto")
    assert "event: goto" in text


def test_citation_opens_the_seed_words(app: Flask) -> None:
    client = app.test_client()
    resp = client.get("/rule/004?section=Raw+Materials&fragment=1")
    assert resp.status_code == 200
    if dashboard_of(app).seeds_dir is not None:
        assert "<mark>" in resp.text or 'class="seed-h marked"' in resp.text
    for seed in ("..%2F..%2Fetc%2Fpasswd", "passwd", "core"):
        resp = client.get(f"/rule/{seed}?section=root")
        assert resp.status_code in (200, 404) and "root:x" not in resp.text


def test_create_table_shows_disputed_readings_and_refuses_bad_setups(host: FlaskClient) -> None:
    page = host.get("/host/new?game=secretive").text
    assert "the rule texts disagree" in page and "once around" in page and "004 · Raw Materials" in page
    data = {"csrf": csrf(host), "game": "secretive", "seat.0": "Ann", "start_seat": "0"}
    resp = host.post("/host/new", data=data)
    assert resp.status_code == 400 and "2-4 seats" in resp.text
    data.update({"seat.1": "ann"})
    assert "same name" in host.post("/host/new", data=data).text
    data.update({"seat.1": "Bob", "opt.length": "forever"})
    assert host.post("/host/new", data=data).status_code == 400


def test_unknown_table_is_a_404_page(app: Flask) -> None:
    resp = app.test_client().get("/t/t-nothere")
    assert resp.status_code == 404 and "no table" in resp.text


def test_your_move_is_shown_to_the_seats_the_game_awaits(app: Flask, host: FlaskClient) -> None:
    """A Müll + Money loan is open to every seat at any time; that alone is not
    "your move": during the deal (chance) nobody is told it is their move,
    while choosing only the seat whose turn it is."""
    party = seat_up(app, host, "muell-money", ["Ann", "Bob"])
    tid = party.table.id

    def your_move(seat: int) -> bool:
        return "Your move" in party.phones[seat].get(f"/s/{tid}/{seat}").text

    assert party.table.view(TABLE_SCREEN)["awaiting"] == []
    assert not your_move(0) and not your_move(1)
    for card in ["Order", "Growth", "Innovate", "Growth", "Innovate", "Order", "Innovate", "Order", "Growth"]:
        party.table.submit(Command(CHANCE, "deal", {"card": card}))
    assert party.table.view(TABLE_SCREEN)["awaiting"] == [0]
    assert your_move(0) and not your_move(1)


def test_host_home_lists_earlier_tables_from_the_store(app: Flask, host: FlaskClient, room: Room) -> None:
    tid = open_table(host, "tally", ["Ann", "Bob"])
    dashboard_of(app).end_by_host(dashboard_of(app).room.get(tid))
    fresh = make_app(Room(room.store))  # a restart: finished tables are not reopened
    client = fresh.test_client()
    login(client)
    page = client.get("/host").text
    assert "Earlier tables" in page and tid in page
    assert client.get(f"/host/t/{tid}/export.json").status_code == 200


def test_phones_of_a_finished_game_are_shown_the_next_table(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "tally", ["Ann", "Bob"])
    ann = phone(app, tid, 0)
    assert "A new table is open" not in ann.get(f"/s/{tid}/0").text
    host.post(f"/host/t/{tid}/end", data={"csrf": csrf(host), "confirmed": "1"}, headers=FETCH)
    nxt = open_table(host, "tally", ["Ann", "Bob"])
    page = ann.get(f"/s/{tid}/0").text
    assert "A new table is open" in page and f"t={nxt}" in page
