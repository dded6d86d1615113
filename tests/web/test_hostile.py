"""Hostile requests found by fuzzing, each answered with a message and no
change: a non-ASCII csrf value, a 5000-digit seat number in a seat cookie,
a login's ``next`` pointing away from the host pages, deeply nested action
arguments, and photos whose header declares more pixels than are read."""

from __future__ import annotations

import io
import struct
import zlib
from typing import Any

import cv2
import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient

from web import dashboard_of
from web.photo import UNREADABLE, read_header
from web.station import MAX_PHOTO_PIXELS

from .conftest import FETCH, JOIN, PIN, csrf, open_table, phone


def _log_size(app: Flask, tid: str) -> tuple[int, int]:
    table = dashboard_of(app).room.get(tid)
    return table.state_no, len(table.entries)


@pytest.mark.parametrize("value", ["é", "\u2603" * 40, "\x00", "csrf-" + "ü" * 10])
def test_a_non_ascii_csrf_value_is_a_400_for_anyone(app: Flask, host: FlaskClient, value: str) -> None:
    stranger = app.test_client()
    csrf(stranger)
    resp = stranger.post("/host/login", data={"csrf": value, "pin": PIN})
    assert resp.status_code == 400 and "out of date" in resp.text
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    before = _log_size(app, tid)
    resp = host.post(f"/host/t/{tid}/act", data={"csrf": value, "command": "x", "state_no": "0"}, headers=FETCH)
    assert resp.status_code == 400 and resp.get_json()["message"]
    assert _log_size(app, tid) == before


@pytest.mark.filterwarnings("ignore:The .tc_seat_.* cookie is too large")
@pytest.mark.parametrize("seat", ["9" * 5000, "1" * 300, "٣", "²", "-1", ""])
def test_a_seat_cookie_with_a_nonsense_seat_holds_no_seat(app: Flask, host: FlaskClient, seat: str) -> None:
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    client = app.test_client()
    client.set_cookie(f"tc_seat_{tid}", f"{seat}.token")
    assert client.get(f"/j/{JOIN}").status_code == 200
    assert client.get(f"/s/{tid}/0").status_code == 403
    assert client.get(f"/s/{tid}/0/live").status_code == 403
    resp = client.post(f"/j/{JOIN}/claim", data={"csrf": csrf(client), "table": tid, "seat": "0"})
    assert resp.status_code == 303  # the seat is free: the phone takes it with a fresh cookie


@pytest.mark.parametrize(("nxt", "lands"), [
    ("/hostile", "/host"), ("//evil.example/host", "/host"), ("/host/../j", "/host"), ("/host\\x", "/host"),
    ("https://evil.example/host", "/host"), ("/host/login", "/host"), ("/j", "/host"), ("/hostess/t/x", "/host"),
    ("/host", "/host"), ("/host/new?game=x", "/host"),
])
def test_login_goes_only_to_a_host_page(app: Flask, nxt: str, lands: str) -> None:
    client = app.test_client()
    resp = client.post("/host/login", data={"csrf": csrf(client), "pin": PIN, "next": nxt})
    assert resp.status_code == 303
    assert resp.headers["Location"] == lands


def test_login_goes_back_to_the_host_page_asked_for(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    client = app.test_client()
    first = client.get(f"/host/t/{tid}")
    assert first.status_code == 302 and "next=" in first.headers["Location"]
    resp = client.post("/host/login", data={"csrf": csrf(client), "pin": PIN, "next": f"/host/t/{tid}"})
    assert resp.headers["Location"] == f"/host/t/{tid}"


@pytest.mark.parametrize("args", ["[" * 5000 + "]" * 5000, '{"a":' * 3000 + "1" + "}" * 3000,
                                  '{"n": ' + "7" * 5000 + "}", '{"n": -Infinity}', '{"n": NaN}'])
def test_hostile_action_arguments_are_a_400(app: Flask, host: FlaskClient, args: str) -> None:
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    ann = phone(app, tid, 0)
    before = _log_size(app, tid)
    for client, url in ((ann, f"/s/{tid}/0/act"), (host, f"/host/t/{tid}/act")):
        data = {"csrf": csrf(client), "command": "pass", "args": args, "state_no": str(before[0])}
        resp = client.post(url, data=data, headers=FETCH)
        assert resp.status_code == 400, resp.text[:200]
        assert "not readable" in resp.get_json()["message"]
    assert _log_size(app, tid) == before


# photos ---------------------------------------------------------------------------------
def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def png_declaring(width: int, height: int, rows: int = 1) -> bytes:
    body = zlib.compress(b"\0" * (1 + width) * rows)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + _chunk(b"IDAT", body) + _chunk(b"IEND", b""))


@pytest.mark.parametrize(("ext", "params"), [(".png", []), (".jpg", []), (".webp", []),
                                             (".webp", [cv2.IMWRITE_WEBP_QUALITY, 101]),
                                             (".jpg", [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])])
@pytest.mark.parametrize(("w", "h"), [(640, 480), (33, 1999), (1601, 1203)])
def test_the_header_gives_the_size_the_decoder_finds(ext: str, params: list[int], w: int, h: int) -> None:
    image = np.random.default_rng(w + h).integers(0, 255, (h, w, 3), dtype=np.uint8)
    ok, data = cv2.imencode(ext, image, params)
    assert ok
    header = read_header(data.tobytes())
    assert not isinstance(header, str)
    assert (header.width, header.height) == (w, h)
    assert header.kind == {".png": "PNG", ".jpg": "JPEG", ".webp": "WebP"}[ext]
    assert header.progressive == (cv2.IMWRITE_JPEG_PROGRESSIVE in params)


@pytest.mark.parametrize("data", [b"", b"GIF89a" + b"\0" * 40, b"BM" + b"\0" * 60, b"II*\0" + b"\0" * 40,
                                  b"\x89PNG\r\n\x1a\n" + b"\0" * 40, b"\xff\xd8\xff\xe0\x00\x01",
                                  b"\xff\xd8\xff\xda\x00\x08" + b"\0" * 20, b"RIFF\0\0\0\0WEBPVP8 " + b"\0" * 4])
def test_other_files_and_broken_headers_are_not_read(data: bytes) -> None:
    assert read_header(data) == UNREADABLE


def _upload(client: FlaskClient, tid: str, photo: bytes) -> Any:
    token = csrf(client)
    form = {"csrf": token, "state_no": "0", "seat": "0", "photo": (io.BytesIO(photo), "p.png")}
    return client.post(f"/host/t/{tid}/station/photo?csrf={token}", data=form, content_type="multipart/form-data")


def test_a_photo_declaring_too_many_pixels_is_refused_before_decoding(
        app: Flask, host: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    tid = open_table(host, "world-of-waste", ["Ada", "Ben"])
    decoded: list[int] = []
    real = cv2.imdecode

    def spy(buf: Any, flags: int) -> Any:
        decoded.append(len(buf))
        return real(buf, flags)

    monkeypatch.setattr(cv2, "imdecode", spy)
    bomb = png_declaring(16000, 16000)
    resp = _upload(host, tid, bomb)
    assert resp.status_code == 400 and "16000x16000 pixels" in resp.text
    assert decoded == []
    side = int(MAX_PHOTO_PIXELS**0.5) + 1
    assert _upload(host, tid, png_declaring(side, side)).status_code == 400
    assert decoded == []
    _ok, small = cv2.imencode(".png", np.full((300, 400), 200, np.uint8))
    assert _upload(host, tid, small.tobytes()).status_code == 200
    assert len(decoded) == 1


def test_a_progressive_photo_that_would_take_too_much_memory_is_refused(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "world-of-waste", ["Ada", "Ben"])
    # a 4:4:4 progressive JPEG keeps 2 bytes a pixel per component while decoding
    sof2 = b"\xff\xc2\x00\x11\x08" + struct.pack(">HH", 3456, 4000) + b"\x03" + b"\x01\x11\x00\x02\x11\x00\x03\x11\x00"
    data = b"\xff\xd8" + sof2 + b"\xff\xd9"
    header = read_header(data)
    assert not isinstance(header, str) and header.progressive and header.pixels < MAX_PHOTO_PIXELS
    resp = _upload(host, tid, data)
    assert resp.status_code == 400 and "too much memory" in resp.text
