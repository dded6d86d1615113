"""An OpenCV whose QR detector cannot decode (built without QUIRC, as Debian's
python3-opencv 4.6 that a Pi on Bookworm gets from apt) is refused with the
reason, never loaded to read nothing; ``companion doctor`` and ``companion
scan`` say so."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
import segno

from companion.cli import main
from hardware import decoders
from hardware.decoders import DecoderUnusable, OpenCVDecoder, probe_decoders

#: what Debian's OpenCV 4.6 prints (C++ std::cout) at every decode attempt
NOT_LINKED = "Library QUIRC is not linked. No decoding is performed. Take it to the OpenCV repository."


class DetectorWithoutQuirc:
    """``cv2.QRCodeDetector`` as built without QUIRC: it locates a code,
    reads no text, and says so on file descriptor 1."""

    def detectAndDecodeMulti(self, img: Any) -> tuple[bool, tuple[str, ...], Any, None]:
        os.write(1, (NOT_LINKED + "\n").encode())
        h, w = np.asarray(img).shape[:2]
        corners = np.array([[[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]]], dtype=np.float32)
        return False, ("",), corners, None


@pytest.fixture(autouse=True)
def _fresh_probe() -> Iterator[None]:
    """The probe is asked once per process: each test asks anew."""
    decoders._this_opencv_problem.cache_clear()
    yield
    decoders._this_opencv_problem.cache_clear()


@pytest.fixture
def no_quirc(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cv2, "QRCodeDetector", DetectorWithoutQuirc)


def code_image(text: str) -> Any:
    rows = list(segno.make_qr(text, error="m").matrix_iter(scale=5, border=4))
    return np.where(np.array(rows, dtype=bool), 0, 255).astype(np.uint8)


def test_an_opencv_that_cannot_decode_is_refused_with_the_reason(no_quirc: None,
                                                                 capfd: pytest.CaptureFixture[str]) -> None:
    ready, report = probe_decoders(("opencv", "zxing-cpp"))
    assert [d.name for d in ready] == ["zxing-cpp"]
    opencv = report[0]
    assert opencv.name == "opencv" and not opencv.available
    assert opencv.why.startswith("cannot be used: OpenCV ")
    assert "built without QUIRC" in opencv.why and "COMPANION_DECODERS=zxing-cpp,pyzbar" in opencv.why
    # the library's own line went to /dev/null, not into the output (--json stays JSON)
    assert NOT_LINKED not in capfd.readouterr().out
    with pytest.raises(DecoderUnusable, match="QUIRC"):
        OpenCVDecoder()


def test_the_probe_is_asked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[DetectorWithoutQuirc] = []

    def counted() -> DetectorWithoutQuirc:
        made.append(DetectorWithoutQuirc())
        return made[-1]

    monkeypatch.setattr(cv2, "QRCodeDetector", counted)
    for _ in range(3):
        probe_decoders(("opencv",))
    assert len(made) == 1


def test_this_machines_opencv_is_judged_by_what_it_reads() -> None:
    """Whatever OpenCV is installed (PyPI's wheel natively, Debian's in the
    arm64 root): loaded only when it reads a code, refused only when it reads none."""
    ready, report = probe_decoders(("opencv",))
    other = code_image("a code the probe never saw")
    if report[0].available:
        assert [c.text for c in ready[0].attempt(other).codes] == ["a code the probe never saw"]
    else:
        assert "QUIRC" in report[0].why
        _ok, texts, _, _ = cv2.QRCodeDetector().detectAndDecodeMulti(other)
        assert not any(texts or ())


def test_doctor_lists_the_refused_decoder_as_a_problem_when_a_camera_is_used(
        no_quirc: None, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_DICE", "none")
    monkeypatch.setenv("COMPANION_DECODERS", "opencv,zxing-cpp")
    monkeypatch.setenv("COMPANION_CAMERA", "sim")
    assert main(["doctor", "--quick", "--json"]) == 1
    report = json.loads(capfd.readouterr().out)
    assert [p for p in report["problems"] if p.startswith("QR decoder opencv: cannot be used:")]
    assert main(["doctor", "--quick"]) == 1
    text = capfd.readouterr().out
    assert "NO  opencv: cannot be used: OpenCV" in text and "built without QUIRC" in text
    # no camera: no card is read, the decoders are no problem
    monkeypatch.setenv("COMPANION_CAMERA", "none")
    assert main(["doctor", "--quick", "--json"]) == 0, capfd.readouterr().out


def test_scan_with_only_opencv_stops_and_says_why(no_quirc: None, tmp_path: Path,
                                                   capfd: pytest.CaptureFixture[str]) -> None:
    photo = tmp_path / "card.png"
    cv2.imwrite(str(photo), code_image("MM1:card"))
    assert main(["scan", "--decoders", "opencv", "--json", str(photo)]) == 2
    out, err = capfd.readouterr()
    assert "companion scan: opencv: cannot be used:" in err and "QUIRC" in err
    assert NOT_LINKED not in out
