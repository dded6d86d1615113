"""``companion scan --game GAME --spread``: a station read from the command
line, as the card ids a ``station`` command takes."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
import segno

from companion.cli import main
from companion.tags import make_payload, tag_image
from hardware.frames import compose

STATION = ["PAP-3", "MET-1", "FOOD-12", "REC-2", "HAZ-7", "TEX-14", "LEL-5"]


def url_code(text: str, module_px: int = 5) -> np.ndarray:
    rows = [[0 if v else 255 for v in row] for row in segno.make(text, error="m").matrix_iter(scale=1, border=4)]
    return np.kron(np.array(rows, dtype=np.uint8), np.ones((module_px, module_px), dtype=np.uint8))


def station_still(path: Path) -> Path:
    tiles = [tag_image(make_payload("world-of-waste", c.split("-")[0], int(c.split("-")[1])), module_px=5)
             for c in STATION]
    tiles.append(tag_image(make_payload("world-of-waste", "PAP", 3), module_px=5))  # the same card twice
    tiles.append(tag_image(make_payload("money-maker", "FARM", 1), module_px=5))
    tiles.append(url_code("https://cereal.example/prize"))
    cv2.imwrite(str(path), compose((1920, 1080), tiles, background=130))
    return path


@pytest.mark.parametrize("spread", [True, False])
def test_scan_with_game_gives_the_stations_card_ids(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     spread: bool) -> None:
    img = station_still(tmp_path / "station.png")
    argv = ["scan", str(img), "--game", "world-of-waste", "--json"] + (["--spread"] if spread else [])
    assert main(argv) == 0
    entry = json.loads(capsys.readouterr().out)[0]
    assert sorted(entry["card_ids"]) == sorted(STATION)  # each card once, foreign codes left out
    assert len(entry["notices"]) == 2
    assert any("another game" in n for n in entry["notices"])
    assert any("not a card tag" in n for n in entry["notices"])


def test_scan_text_output_lists_the_card_ids(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    img = station_still(tmp_path / "station.jpg")
    assert main(["scan", str(img), "--game", "world-of-waste", "--spread"]) == 0
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if "card ids:" in ln)
    assert sorted(line.split(":", 1)[1].strip().split(", ")) == sorted(STATION)


def test_scan_without_game_has_no_card_id_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    img = station_still(tmp_path / "station.png")
    assert main(["scan", str(img), "--json"]) == 0
    assert "card_ids" not in json.loads(capsys.readouterr().out)[0]
