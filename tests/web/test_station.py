"""The host's station scan: a photo of a seat's tagged cards, uploaded through
the real form, read into card ids, confirmed as World of Waste's ``station``
command; bad uploads, the PIN and CSRF, the game's refusals, the camera
still, and Money Maker's check-only reading."""

from __future__ import annotations

import re
from typing import Any

import cv2
import numpy as np
import pytest
import segno
from flask import Flask
from flask.testing import FlaskClient

from companion.commands import CHANCE, Actor, Command
from companion.games.base import HOST_SCREEN
from companion.games.world_of_waste.scoring import score_scanned_stations
from companion.table import Room, Table
from companion.tags import CardRegistry, make_payload, tag_image
from hardware.frames import compose
from hardware.spread import SpreadScan, scan_spread
from web import dashboard_of

from .conftest import csrf, make_app, open_table

URL_CODE = "https://cereal.example/win?code=42"
OTHER_GAME = make_payload("money-maker", "FARM", 2)
ADA = ["FOOD-1", "FOOD-2", "PAP-1", "PAP-2", "MET-1", "LEL-1", "PLA-1"]
BEN = ["FOOD-3", "COMP-1", "PAP-3", "SEL-1", "MET-2", "LEL-2", "TEX-1"]


# pictures -------------------------------------------------------------------------------
def url_qr(text: str, module_px: int = 5) -> np.ndarray:
    qr = segno.make(text, error="m")
    rows = [[0 if v else 255 for v in row] for row in qr.matrix_iter(scale=1, border=4)]
    img = np.array(rows, dtype=np.uint8)
    return np.kron(img, np.ones((module_px, module_px), dtype=np.uint8))


def wow_payload(card_id: str) -> str:
    kind, _, copy = card_id.partition("-")
    return make_payload("world-of-waste", kind, int(copy))


def station_photo(card_ids: list[str], extra: list[str] = (), size: tuple[int, int] = (1920, 1080)) -> bytes:  # type: ignore[assignment]
    """A JPEG of the cards' tags spread on a table, plus foreign codes."""
    tiles = [tag_image(wow_payload(c), module_px=6) for c in card_ids] + [tag_image(p, module_px=6) for p in extra]
    tiles.append(url_qr(URL_CODE))
    image = compose(size, tiles, background=140)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    return bytes(data.tobytes())


# a table waiting for Ben's sort -------------------------------------------------------------
def to_sorting(app: Flask, host: FlaskClient) -> Table:
    """Two seats; Ada wins the one bonus pile, Ben offered nothing and may be
    sorted at once (no Recycler, no face-down card)."""
    tid = open_table(host, "world-of-waste", ["Ada", "Ben"])
    return play_to_sorting(dashboard_of(app).room.get(tid))


def play_to_sorting(table: Table) -> Table:
    """A new two-seat World of Waste table played to Ben's sort."""

    def do(actor: Actor, name: str, **args: Any) -> None:
        table.submit(Command(actor, name, args))

    do(CHANCE, "deal", seat=0, cards=ADA)
    do(CHANCE, "deal", seat=1, cards=BEN)
    while table.state.phase.value == "draft":
        for s in (0, 1):
            held = table.state.queues[s]
            if held:
                do(Actor.of_seat(s), "pick", card=held[0][0])
    do(CHANCE, "bonus", pile=1, cards=["TEX-2", "TEX-3"])
    do(Actor.of_seat(0), "offer", cards=[table.state.hands[0][0]])
    do(Actor.of_seat(1), "offer", cards=[])
    assert table.state.phase.value == "play" and not table.state.sorted[1]
    return table


def ben_hand(table: Table) -> list[str]:
    return sorted(table.state.hands[1])


def upload(client: FlaskClient, table: Table, photo: bytes, seat: int = 1, token: str | None = None,
           name: str = "station.jpg") -> Any:
    import io

    data: dict[str, Any] = {"state_no": str(table.state_no), "seat": str(seat), "photo": (io.BytesIO(photo), name)}
    query = ""
    if token is not None:  # the page's form carries it in the body and in its address
        data["csrf"] = token
        query = f"?csrf={token}"
    return client.post(f"/host/t/{table.id}/station/photo{query}", data=data, content_type="multipart/form-data")


def read_ids(html: str) -> list[str]:
    return re.findall(r'<td class="card-id">([^<]+)</td>', html)


def confirm_form(html: str) -> dict[str, Any]:
    form = re.search(r'<form method="post" action="([^"]+)" id="scan-confirm">(.*?)</form>', html, re.S)
    assert form, "no confirm form on the page"
    fields: dict[str, Any] = {"card": []}
    for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form.group(2)):
        if name == "card":
            fields["card"].append(value)
        else:
            fields[name] = value
    fields["action"] = form.group(1)
    return fields


def post_confirm(client: FlaskClient, fields: dict[str, Any]) -> Any:
    data = {k: v for k, v in fields.items() if k != "action"}
    return client.post(fields["action"], data=data)


# tests ------------------------------------------------------------------------------------
def test_upload_read_confirm_sorts_the_station(app: Flask, host: FlaskClient) -> None:
    table = to_sorting(app, host)
    hand = ben_hand(table)
    page = host.get(f"/host/t/{table.id}")
    assert f'href="/host/t/{table.id}/station"' in page.text
    assert host.get(f"/host/t/{table.id}/station").status_code == 200

    resp = upload(host, table, station_photo(hand, [OTHER_GAME]), token=csrf(host))
    assert resp.status_code == 200, resp.text
    assert sorted(read_ids(resp.text)) == hand
    assert "not a card tag" in resp.text and "cereal.example" in resp.text  # the URL, ignored with a notice
    assert "another game" in resp.text  # Money Maker's tag, ignored
    # the score it would give: Ada's station is still empty
    cat = table.state.catalog
    expected = score_scanned_stations(cat, [[], hand], final=False).seats[1].total
    assert re.search(rf'id="scan-score">{expected} points<', resp.text)

    fields = confirm_form(resp.text)
    assert fields["seat"] == "1" and fields["state_no"] == str(table.state_no) and sorted(fields["card"]) == hand
    before = table.state_no
    done = post_confirm(host, fields)
    assert done.status_code == 303 and done.headers["Location"].endswith(f"/host/t/{table.id}")
    assert table.state_no == before + 1
    seat = table.view(HOST_SCREEN)["game_view"]["seats"][1]
    assert seat["sorted"] is True and sorted(seat["station"]) == hand
    entry = table.entries[-1]
    assert (entry.actor, entry.name, entry.source) == ("host", "station", "scanner")


def test_garbage_and_empty_uploads_are_400_with_a_message(app: Flask, host: FlaskClient) -> None:
    table = to_sorting(app, host)
    before = table.state_no
    token = csrf(host)
    for junk in (b"\x00\x01garbage" * 500, b"", b"\xff\xd8\xff\xe0 not really a jpeg"):
        resp = upload(host, table, junk, token=token)
        assert resp.status_code == 400, resp.status_code
        assert "not a photo the companion can read" in resp.text or "empty" in resp.text
        assert 'id="scan-error"' in resp.text
    tiny = cv2.imencode(".png", np.full((8, 8), 255, dtype=np.uint8))[1].tobytes()
    resp = upload(host, table, tiny, token=token)
    assert resp.status_code == 400 and "too small" in resp.text
    assert table.state_no == before


def test_a_photo_over_the_limit_is_refused(app: Flask, host: FlaskClient) -> None:
    table = to_sorting(app, host)
    resp = upload(host, table, b"\xff" * (21 * 1024 * 1024), token=csrf(host))
    assert resp.status_code == 413 and "20 MB" in resp.text


def test_pin_and_csrf_are_required(app: Flask, host: FlaskClient) -> None:
    table = to_sorting(app, host)
    photo = station_photo(ben_hand(table))
    before = table.state_no
    stranger = app.test_client()
    assert stranger.get(f"/host/t/{table.id}/station").status_code == 302  # to the PIN page
    assert upload(stranger, table, photo, token=csrf(stranger)).status_code == 403
    resp = stranger.post(f"/host/t/{table.id}/station/confirm",
                         data={"csrf": csrf(stranger), "state_no": str(before), "seat": "1", "card": ben_hand(table)})
    assert resp.status_code == 403
    # the host without the form's CSRF token
    assert upload(host, table, photo, token=None).status_code == 400
    assert upload(host, table, photo, token="forged").status_code == 400
    resp = host.post(f"/host/t/{table.id}/station/confirm",
                     data={"state_no": str(before), "seat": "1", "card": ben_hand(table)})
    assert resp.status_code == 400
    assert table.state_no == before and not table.state.sorted[1]


def test_a_card_the_record_lacks_is_refused_with_the_games_reason(app: Flask, host: FlaskClient) -> None:
    table = to_sorting(app, host)
    hand = ben_hand(table)
    wrong = [*hand[:-1], "HAZ-5"]  # HAZ-5 is still in the deck
    resp = upload(host, table, station_photo(wrong), token=csrf(host))
    assert resp.status_code == 200 and sorted(read_ids(resp.text)) == sorted(wrong)
    before = table.state_no
    refused = post_confirm(host, confirm_form(resp.text))
    assert refused.status_code == 422
    assert 'id="scan-refused"' in refused.text
    why = refused.text.split('id="scan-refused"', 1)[1].split("</p>", 1)[0]
    # the read card the record lacks is named; the hand's card the photo lacks is only counted (a secret)
    assert "does not match" in why and "HAZ-5" in why and "1 card of the hand" in why and hand[-1] not in why
    assert 'class="cite' in refused.text.split('id="scan-refused"', 1)[1].split("</p>", 1)[0]  # the rule as a chip
    assert table.state_no == before and not table.state.sorted[1]
    # an id that is no card of the edition (a tampered form): the game's parse refuses it
    fields = confirm_form(resp.text)
    fields["card"] = [*hand[:-1], "PAP-99"]
    bad = post_confirm(host, fields)
    assert bad.status_code == 400 and "PAP-99" in bad.text and "unknown card" in bad.text
    assert table.state_no == before


def test_a_stale_confirm_is_refused_and_offered_again(app: Flask, host: FlaskClient) -> None:
    table = to_sorting(app, host)
    hand = ben_hand(table)
    resp = upload(host, table, station_photo(hand), token=csrf(host))
    fields = confirm_form(resp.text)
    face_down = next(c for c in table.state.catalog.all_ids() if c.startswith("MET-") and c not in ("MET-1", "MET-2"))
    table.submit(Command(CHANCE, "reveal", {"seat": 0, "card": face_down}))  # Ada turns over her card meanwhile
    stale = post_confirm(host, fields)
    assert stale.status_code == 409 and "moved first" in stale.text
    again = confirm_form(stale.text)
    assert again["state_no"] == str(table.state_no)
    assert post_confirm(host, again).status_code == 303
    assert table.state.sorted[1]


class FakeCamera:
    """The runtime's face the dashboard uses, with a still from a picture."""

    def __init__(self, image: np.ndarray) -> None:
        self.image = image
        self.table_id: str | None = None
        self.stills = 0

    def set_table(self, table_id: str | None) -> None:
        self.table_id = table_id

    def status(self) -> dict[str, Any]:
        return {"camera": {"online": True, "kind": "fake"}}

    def notices(self, limit: int) -> list[dict[str, Any]]:
        return []

    def roll_now(self) -> None:
        pass

    def stop(self) -> None:
        pass

    def scan_spread(self) -> SpreadScan:
        self.stills += 1
        return scan_spread(self.image, CardRegistry.for_game("world-of-waste"))


def test_a_still_from_the_camera(room: Room) -> None:
    photo = cv2.imdecode(np.frombuffer(station_photo(BEN), dtype=np.uint8), cv2.IMREAD_GRAYSCALE)
    assert photo is not None
    camera = FakeCamera(photo)
    app = make_app(room, hardware=camera)
    host = app.test_client()
    token = csrf(host)
    assert host.post("/host/login", data={"csrf": token, "pin": "2468"}).status_code == 303
    table = to_sorting(app, host)
    other = open_table(host, "world-of-waste", ["Cy", "Dee"])
    dashboard_of(app).show(other)
    assert camera.table_id == other
    page = host.get(f"/host/t/{table.id}/station")
    assert 'id="scan-camera"' not in page.text and "not this one" in page.text  # the camera feeds another table
    refused = host.post(f"/host/t/{table.id}/station/camera", data={"csrf": token, "state_no": "0", "seat": "1"})
    assert refused.status_code == 422 and camera.stills == 0
    dashboard_of(app).show(table.id)
    assert camera.table_id == table.id
    assert 'id="scan-camera"' in host.get(f"/host/t/{table.id}/station").text
    resp = host.post(f"/host/t/{table.id}/station/camera",
                     data={"csrf": token, "state_no": str(table.state_no), "seat": "1"})
    assert resp.status_code == 200 and camera.stills == 1
    assert sorted(read_ids(resp.text)) == sorted(BEN) and "companion's camera" in resp.text


def test_money_maker_cards_are_read_for_checking_only(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "money-maker", ["Ann", "Bo"])
    table = dashboard_of(app).room.get(tid)
    farms = [make_payload("money-maker", "FARM", n) for n in (1, 2)]
    page = host.get(f"/host/t/{tid}/station")
    assert 'id="check-only"' in page.text
    resp = upload(host, table, station_photo([], farms), seat=0, token=csrf(host))
    assert resp.status_code == 200
    assert read_ids(resp.text) == ["FARM-1", "FARM-2"]
    assert 'id="scan-confirm"' not in resp.text and 'id="check-only-result"' in resp.text
    before = table.state_no
    sent = host.post(f"/host/t/{tid}/station/confirm",
                     data={"csrf": csrf(host), "state_no": str(before), "seat": "0", "card": ["FARM-1"]})
    assert sent.status_code == 303 and table.state_no == before  # refused with a message, nothing sent


@pytest.mark.parametrize("seat", ["7", "x"])
def test_a_bad_seat_is_400(app: Flask, host: FlaskClient, seat: str) -> None:
    table = to_sorting(app, host)
    resp = host.post(f"/host/t/{table.id}/station/confirm",
                     data={"csrf": csrf(host), "state_no": str(table.state_no), "seat": seat, "card": ["PAP-1"]})
    assert resp.status_code == 400


class StillOnly:
    """A camera whose live frames are blank and whose still is the photo."""

    kind = "test-still"
    simulated = True

    def __init__(self, photo: np.ndarray) -> None:
        self.photo = photo
        self._online = False

    def open(self) -> None:
        self._online = True

    def read(self) -> np.ndarray:
        import time

        time.sleep(0.05)
        return np.full((72, 128), 255, dtype=np.uint8)

    def still(self) -> np.ndarray:
        return self.photo

    def close(self) -> None:
        self._online = False

    @property
    def online(self) -> bool:
        return self._online

    def describe(self) -> str:
        return "a still for the test"


def test_a_still_from_the_real_hardware_runtime(room: Room) -> None:
    from hardware.runtime import HardwareConfig, start_hardware

    photo = cv2.imdecode(np.frombuffer(station_photo(BEN), dtype=np.uint8), cv2.IMREAD_GRAYSCALE)
    assert photo is not None
    runtime = start_hardware(room, HardwareConfig(camera="none", dice="none", probe=False),
                             frame_source=StillOnly(photo))
    try:
        app = make_app(room, hardware=runtime)
        host = app.test_client()
        token = csrf(host)
        assert host.post("/host/login", data={"csrf": token, "pin": "2468"}).status_code == 303
        table = to_sorting(app, host)
        dashboard_of(app).show(table.id)
        assert runtime.table_id == table.id
        resp = host.post(f"/host/t/{table.id}/station/camera",
                         data={"csrf": token, "state_no": str(table.state_no), "seat": "1"})
        assert resp.status_code == 200, resp.text
        assert sorted(read_ids(resp.text)) == sorted(BEN)
        assert "cereal.example" in resp.text  # the foreign code, ignored with a notice
        assert any("cereal.example" in n["message"] for n in runtime.notices(20))
    finally:
        runtime.stop()


def test_money_maker_photo_is_checked_against_the_recorded_investment_cards(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "money-maker", ["Ann", "Bo"])
    table = dashboard_of(app).room.get(tid)
    farms = [make_payload("money-maker", "FARM", 1)]
    resp = upload(host, table, station_photo([], farms), seat=1, token=csrf(host))
    assert resp.status_code == 200 and 'id="scan-check"' in resp.text
    assert "FARM-1, which the record does not give Bo" in resp.text  # nobody holds a card at the start
    empty = upload(host, table, station_photo([]), seat=1, token=csrf(host))
    assert "The photo matches the investment cards the record gives Bo (0)" in empty.text
