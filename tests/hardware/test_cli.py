"""``companion scan`` and ``companion tags``."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import cv2
import pytest

from companion.cli import main
from companion.tags import tag_image
from hardware.frames import compose


def write(path: Path, payloads: list[str], module_px: int = 5) -> Path:
    frame = compose((1280, 720), [tag_image(p, module_px=module_px) for p in payloads])
    cv2.imwrite(str(path), frame)
    return path


def test_scan_json_names_each_card(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one = write(tmp_path / "one.png", ["TC1:CA:PAP:01", "TC1:CA:MET:02"])
    two = write(tmp_path / "two.jpg", ["TC1:CA:PAP:03", "HELLO WORLD"])
    empty = tmp_path / "empty.png"
    cv2.imwrite(str(empty), compose((320, 200), []))
    assert main(["scan", str(one), str(two), str(empty), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [e["image"] for e in out] == [str(one), str(two), str(empty)]
    cards = [sorted(c["card"]["card_id"] for c in e["codes"] if c["card"]) for e in out]
    assert cards == [["MET-2", "PAP-1"], ["PAP-3"], []]
    foreign = [c for c in out[1]["codes"] if c["card"] is None]
    assert len(foreign) == 1 and foreign[0]["text"] == "HELLO WORLD" and "not a card tag" in foreign[0]["notice"]


def test_scan_with_game_flags_another_games_tag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    img = write(tmp_path / "a.png", ["TC1:MM:INV:07", "TC1:CA:MET:01"])
    assert main(["scan", str(img), "--game", "cardgame", "--json"]) == 0
    codes = json.loads(capsys.readouterr().out)[0]["codes"]
    by_text = {c["text"]: c for c in codes}
    assert by_text["TC1:CA:MET:01"]["card"]["name"] == "Metal"
    assert by_text["TC1:MM:INV:07"]["card"] is None
    assert "another game" in by_text["TC1:MM:INV:07"]["notice"]


def test_scan_of_a_file_that_is_not_an_image_fails_cleanly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "notes.png"
    bad.write_text("not an image")
    assert main(["scan", str(bad), str(tmp_path / "missing.png"), "--json"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert all(e["error"] for e in out)


def test_scan_with_only_pyzbar(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    img = write(tmp_path / "a.png", ["TC1:CA:PAP:02"], module_px=6)
    assert main(["scan", str(img), "--decoders", "pyzbar"]) == 0
    assert "PAP-2 (Paper #2)" in capsys.readouterr().out


@pytest.fixture(params=["numpy", "cv2"])
def vision_missing(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """An install without the ``vision`` extra (``pip install -e '.[dev]'``):
    ``numpy`` (or OpenCV's ``cv2``) cannot be imported, nor anything of the
    hardware package that imports it (it is imported again, and fails)."""
    missing: str = request.param
    for name in [m for m in sys.modules if m.startswith("hardware.") and m != "hardware.cli"]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, missing, None)  # None in sys.modules: "import numpy" raises ModuleNotFoundError
    return missing


def test_scan_without_the_vision_extra_says_what_to_install(vision_missing: str, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """It died with a traceback (ModuleNotFoundError from hardware/decoders.py)."""
    assert main(["scan", str(tmp_path / "photo.jpg")]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    [line] = captured.err.splitlines()
    label = {"numpy": "numpy", "cv2": "OpenCV (cv2)"}[vision_missing]
    assert line.startswith(f"companion scan: {label} cannot be imported: ")
    assert "the vision extra" in line and "pip install -e '.[vision]'" in line and "make run" in line
    assert "apt install python3-numpy python3-opencv" in line  # a Raspberry Pi's, from apt
    assert "Traceback" not in captured.err


def test_doctor_without_the_vision_extra_reports_it_and_does_not_crash(
        vision_missing: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """It died with a traceback (hardware/decoders.py imported numpy at once):
    doctor is what a user runs to find out what is missing."""
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "store.sqlite3"))
    code = main(["doctor", "--quick"])
    out = capsys.readouterr().out
    assert "QR decoders:" in out and "camera:" in out and "dice:" in out
    if vision_missing == "numpy":
        assert code == 1
        assert "  - QR decoder zxing-cpp: cannot load: numpy cannot be imported: it is in the vision extra" in out
        assert "apt install python3-numpy python3-opencv" in out
    else:
        assert code in (0, 1)


def test_tags_sheet_has_one_tag_per_physical_card(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cards.svg"
    assert main(["tags", "cardgame", "--out", str(out)]) == 0
    svg = out.read_text()
    assert sorted(re.findall(r'data-card="([^"]+)"', svg)) == ["MET-1", "MET-2", "PAP-1", "PAP-2", "PAP-3"]
    assert "5 tags" in capsys.readouterr().out


def test_tags_for_a_game_without_cards_or_unknown_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tags", "tally", "--out", str(tmp_path / "t.svg")]) == 2
    assert main(["tags", "no-such-game", "--out", str(tmp_path / "t.svg")]) == 2
    err = capsys.readouterr().err
    assert "no tagged cards" in err and "unknown game" in err
