"""A spread scan: every tag in one full-resolution still, as a station's card ids."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.tags import CardRegistry, make_payload, tag_image
from hardware.frames import compose
from hardware.spread import scan_spread, station_card_ids


def still_of(payloads: list[str], size: tuple[int, int] = (4056, 3040), module_px: int = 6) -> np.ndarray:
    """A 12 MP-class still: the cards spread over the table."""
    still: np.ndarray = compose(size, [tag_image(p, module_px=module_px) for p in payloads], background=120)
    return still


def test_a_world_of_waste_station_from_one_still() -> None:
    ids = ["PAP-3", "MET-1", "FOOD-12", "REC-2", "HAZ-7", "TEX-14", "PLA-1", "COMP-8", "SEL-10", "LEL-5"]
    payloads = [make_payload("world-of-waste", i.split("-")[0], int(i.split("-")[1])) for i in ids]
    payloads += ["HTTP://CEREAL.EU", make_payload("money-maker", "INV", 7)]
    found = station_card_ids(still_of(payloads), "world-of-waste")
    assert sorted(found) == sorted(ids)


def test_spread_scan_reads_the_same_card_once_and_reports_foreign_codes() -> None:
    registry = CardRegistry.for_game("world-of-waste")
    payloads = ["TC1:WW:PAP:03", "TC1:WW:PAP:03", "TC1:WW:PAP:99", "TC1:MU:ORD:01"]
    scan = scan_spread(still_of(payloads, (1600, 900), 5), registry)
    assert scan.card_ids == ["PAP-3"]
    assert len(scan.notices) == 2
    assert any("no card PAP-99" in n for n in scan.notices) and any("another game" in n for n in scan.notices)


def test_twelve_small_codes_in_a_12_mp_still() -> None:
    ids = [f"MET-{n}" for n in range(1, 13)]
    payloads = [make_payload("world-of-waste", "MET", n) for n in range(1, 13)]
    found = station_card_ids(still_of(payloads, (4608, 2592), 3), "world-of-waste")
    assert sorted(found) == sorted(ids)


@pytest.mark.parametrize("quick", [True, False])
def test_doctor_says_what_it_found_and_why(quick: bool, capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_CAMERA", "auto")
    monkeypatch.setenv("COMPANION_DICE", "auto")
    argv = ["doctor", "--json"] + (["--quick"] if quick else [])
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert {d["name"] for d in report["decoders"] if d["available"]} == {"zxing-cpp", "pyzbar"}
    for role in ("camera", "dice"):
        assert report[role]["why"].startswith("auto:")
        assert report[role]["found"]  # what it looked for is listed
    assert main(["doctor"]) == 0
    text = capsys.readouterr().out
    assert "camera:" in text and "why:" in text and "looked:" in text


def test_doctor_with_bad_configuration(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DICE", "bluetooth")
    assert main(["doctor"]) == 2
    assert "COMPANION_DICE" in capsys.readouterr().err


def test_scan_of_a_spread_photo_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "spread.jpg"
    cv2.imwrite(str(path), still_of(["TC1:WW:PAP:03", "TC1:WW:MET:01"], (2000, 1200), 5))
    assert main(["scan", str(path), "--game", "world-of-waste", "--json"]) == 0
    codes = json.loads(capsys.readouterr().out)[0]["codes"]
    assert sorted(c["card"]["card_id"] for c in codes) == ["MET-1", "PAP-3"]
