"""The hash-pinned locks (``locks/*.txt``, companion/locks.py) agree with
``pyproject.toml``, hold every pin with its hashes, keep numpy and OpenCV
out of the Pi's sets, and are what this environment was installed from."""

from __future__ import annotations

import shutil
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import Marker

from companion import locks

REPO = Path(__file__).resolve().parents[2]


def copy_of_the_project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "locks").mkdir(parents=True)
    shutil.copy(REPO / "pyproject.toml", root / "pyproject.toml")
    for lock in locks.LOCKS:
        shutil.copy(lock.path(REPO), lock.path(root))
    return root


def test_the_locks_agree_with_pyproject() -> None:
    assert locks.problems(REPO) == []


def test_a_dependency_added_to_pyproject_is_caught_until_the_locks_are_made_again(tmp_path: Path) -> None:
    root = copy_of_the_project(tmp_path)
    pyproject = root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace('"pyserial>=3.5",', '"pyserial>=3.5",\n    "tinyrecord>=1",'))
    found = locks.problems(root)
    assert len([p for p in found if "was made from another pyproject.toml" in p]) == len(locks.LOCKS)
    assert "locks/run.txt does not pin tinyrecord, which pyproject.toml asks for" in found


def test_a_pin_outside_pyproject_s_range_or_without_its_hash_is_caught(tmp_path: Path) -> None:
    root = copy_of_the_project(tmp_path)
    run = locks.LOCKS[0].path(root)
    text = run.read_text()
    pinned = next(p for p in locks.pins(text) if p.name == "werkzeug")
    run.write_text(text.replace(f"werkzeug=={pinned.version}", "werkzeug==3.2.0"))
    assert "locks/run.txt pins werkzeug==3.2.0, outside pyproject.toml's werkzeug<3.2,>=3.0" in locks.problems(root)
    lines = [line for line in text.splitlines()]
    at = next(i for i, line in enumerate(lines) if line.startswith("segno=="))
    while lines[at + 1].strip().startswith("--hash="):
        del lines[at + 1]
    lines[at] = lines[at].rstrip(" \\")
    run.write_text("\n".join(lines) + "\n")
    assert "locks/run.txt pins without a hash: segno" in locks.problems(root)


def test_every_pin_has_a_hash_and_the_pi_s_sets_hold_no_numpy_or_opencv() -> None:
    for lock in locks.LOCKS:
        pinned = locks.pins(lock.path(REPO).read_text())
        assert pinned and all(p.hashes >= 1 for p in pinned), lock.name
        names = {p.name for p in pinned}
        if "vision" in lock.extras:
            assert {"numpy", "opencv-python-headless"} <= names
        else:
            assert not names & {"numpy", "opencv-python", "opencv-python-headless"}, lock.name
    # the compiled wheels a Pi (arm64) and a PC (x86-64) need are both hashed
    zxing = next(p for p in locks.pins(locks.LOCKS[0].path(REPO).read_text()) if p.name == "zxing-cpp")
    assert zxing.hashes >= 4


def test_lock_for_names_the_set_each_kind_of_machine_installs() -> None:
    assert locks.lock_for(pi=True, dev=False).name == "run"
    assert locks.lock_for(pi=False, dev=False).name == "run-vision"
    assert locks.lock_for(pi=True, dev=True).name == "dev"
    assert locks.lock_for(pi=False, dev=True).name == "dev-vision"


def test_this_environment_holds_exactly_the_pins_of_its_lock() -> None:
    """``make test`` installed from the lock: every pin of the dev set (the
    Pi's where numpy is apt's) is installed at its pinned version."""
    try:
        metadata.version("opencv-python-headless")
        lock = locks.lock_for(pi=False, dev=True)
    except metadata.PackageNotFoundError:
        lock = locks.lock_for(pi=True, dev=True)
    if not lock.path(REPO).is_file():
        pytest.fail(f"{lock.path(REPO)} is missing")
    wrong = []
    for pin in locks.pins(lock.path(REPO).read_text()):
        if pin.marker and not Marker(pin.marker).evaluate():
            continue
        try:
            have = metadata.version(pin.name)
        except metadata.PackageNotFoundError:
            have = "nothing"
        if have != pin.version:
            wrong.append(f"{pin.name}: {have}, the lock pins {pin.version}")
    assert wrong == []
