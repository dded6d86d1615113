"""``companion update`` and its launcher, for real: versions of this
repository built beside each other (each its own folder and virtualenv,
from its own lock), a launcher running ``companion serve`` on loopback, and
updates to a good version, to one that fails to start, to one whose
migration fails, refused mid-game, after this game, rollbacks, and from a
bundle with no network.

The versions are made from this working tree (its packages and locks) in a
temporary git repository: v1 is the tree as it is, the others one commit on
top with the change each test needs.  Building one takes pip a few seconds
from its cache (the runtime lock without OpenCV: ``lock="run"``); the
versions are built once for the module and shared by the tests' homes.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from companion import launcher, update
from companion.commands import HOST, Command
from companion.store import Store
from companion.table import Room
from companion.update import Home, Plan, UpdateRefused

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
#: what a version of the companion is made of (enough to build and serve it)
PARTS = ("companion", "hardware", "web", "locks", "pyproject.toml", "README.md")
EXAMPLE = REPO / "docs" / "examples" / "muell-money.json"
LAST_MIGRATION = '    Migration(2, "explanation lines kept as meaning", _lines_as_meaning),\n'


def sh(*args: str, cwd: Path | None = None) -> str:
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, (args, done.stderr)
    return done.stdout.strip()


def commit_all(repo: Path, message: str) -> str:
    sh("git", "add", "-A", cwd=repo)
    sh("git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", message, cwd=repo)
    return sh("git", "rev-parse", "HEAD", cwd=repo)


@dataclass
class World:
    origin: Path  # the project's remote
    clone: Path  # the Pi's clone (v1, built: what make run made)
    versions: Path  # built versions, shared by the tests' homes
    commits: dict[str, str]


def edit(repo: Path, path: str, old: str, new: str) -> None:
    file = repo / path
    text = file.read_text()
    assert old in text, (path, old)
    file.write_text(text.replace(old, new, 1))


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    root = tmp_path_factory.mktemp("update-world")
    origin = root / "origin"
    origin.mkdir()
    for part in PARTS:
        source = REPO / part
        if source.is_dir():
            shutil.copytree(source, origin / part, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy(source, origin / part)
    sh("git", "init", "-q", "-b", "main", cwd=origin)
    commits = {"v1": commit_all(origin, "v1")}
    # v2: a good version (one more line in its README)
    (origin / "README.md").write_text((origin / "README.md").read_text() + "\nv2\n")
    commits["v2"] = commit_all(origin, "v2")
    # v3: starts to serve and dies before it listens
    edit(origin, "web/cli.py", "    notice: StoreNotice | None = None\n",
         "    raise SystemExit('v3 cannot start')\n    notice: StoreNotice | None = None\n")
    commits["v3"] = commit_all(origin, "v3: fails to start")
    sh("git", "reset", "-q", "--hard", commits["v2"], cwd=origin)
    # v4: a migration that fails (its trial on a copy of the store stops it)
    edit(origin, "companion/store.py", "SCHEMA_VERSION = 2", "SCHEMA_VERSION = 3")
    edit(origin, "companion/store.py", "MIGRATIONS: tuple[Migration, ...] = (",
         "def _broken(db: sqlite3.Connection) -> None:\n    raise sqlite3.OperationalError('v4 is broken')\n\n\n"
         "MIGRATIONS: tuple[Migration, ...] = (")
    edit(origin, "companion/store.py", LAST_MIGRATION, LAST_MIGRATION + "    Migration(3, 'broken', _broken),\n")
    commits["v4"] = commit_all(origin, "v4: its migration fails")
    sh("git", "reset", "-q", "--hard", commits["v2"], cwd=origin)
    # v5: a good version whose store schema moves on (3)
    edit(origin, "companion/store.py", "SCHEMA_VERSION = 2", "SCHEMA_VERSION = 3")
    edit(origin, "companion/store.py", "MIGRATIONS: tuple[Migration, ...] = (",
         "def _v5(db: sqlite3.Connection) -> None:\n    db.execute('CREATE TABLE IF NOT EXISTS v5_notes (x TEXT)')\n\n\n"
         "MIGRATIONS: tuple[Migration, ...] = (")
    edit(origin, "companion/store.py", LAST_MIGRATION, LAST_MIGRATION + "    Migration(3, 'v5 notes', _v5),\n")
    commits["v5"] = commit_all(origin, "v5: schema 3")
    sh("git", "reset", "-q", "--hard", commits["v1"], cwd=origin)
    clone = root / "clone"
    sh("git", "clone", "-q", str(origin), str(clone))
    versions = root / "versions"
    versions.mkdir()
    running = update.build(update.Fetched(clone, commits["v1"], "clone"), pi=False, python=update.base_python(),
                           lock="run", say=lambda _line: None)
    assert (running.folder / ".venv" / "bin" / "companion").exists()
    return World(origin, clone, versions, commits)


def publish(world: World, name: str) -> None:
    """The remote's main is now version ``name``."""
    sh("git", "update-ref", "refs/heads/main", world.commits[name], cwd=world.origin)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Pi:
    home: Home
    store: Path
    port: int
    plan: Plan
    launcher: subprocess.Popen[bytes] | None = None

    def healthz(self) -> dict[str, Any]:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=5) as answer:
            found: dict[str, Any] = json.loads(answer.read())
            return found

    def wait_serving(self, timeout: float = 60) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError, ValueError):
                return self.healthz()
            time.sleep(0.2)
        raise AssertionError("the companion did not come up")

    def current_id(self) -> str:
        return update.version_of(self.home.current).id


def make_store(path: Path, *, finished: bool) -> None:
    """A store with the Müll + Money example played (and ended, or not)."""
    from companion.cli import load_script, run_script

    script = load_script(EXAMPLE)
    if not finished:
        script["commands"] = script["commands"][:30]
    store = Store(path)
    try:
        table, _ = run_script(script, Room(store))
        assert table.is_over() is finished
    finally:
        store.close()


@pytest.fixture
def pi(world: World, tmp_path: Path) -> Iterator[Pi]:
    home = Home(tmp_path / "home")
    home.root.mkdir()
    (home.root / "versions").symlink_to(world.versions)
    home.set_up(world.clone)
    store = tmp_path / "data" / "companion.sqlite3"
    store.parent.mkdir()
    make_store(store, finished=True)
    plan = Plan(store=store, backups=tmp_path / "data" / "backups", clone=world.clone, lock="run",
                ready_within=30, wait=90)
    port = free_port()
    shutil.copy(Path(launcher.__file__), home.root / "launch.py")
    env = {**os.environ, "COMPANION_HOME": str(home.root), "COMPANION_DB": str(store),
           "COMPANION_SEEDS": str(REPO.parent / "shared" / "seeds")}
    env.pop("PYTHONPATH", None)
    proc = subprocess.Popen([sys.executable, str(home.root / "launch.py"), str(home.root), "--host", "127.0.0.1",
                             "--port", str(port), "--no-hardware", "--no-backups", "--pin", "1234"], env=env)
    machine = Pi(home, store, port, plan, proc)
    try:
        machine.wait_serving()
        yield machine
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()


def dump(store: Path) -> list[str]:
    import sqlite3

    with contextlib.closing(sqlite3.connect(f"file:{store}?mode=ro", uri=True)) as db:
        return list(db.iterdump())


def test_an_update_to_a_good_version_runs_it_and_keeps_the_store(world: World, pi: Pi) -> None:
    publish(world, "v2")
    before = dump(pi.store)
    lines: list[str] = []
    outcome = update.update(pi.home, pi.plan, lines.append)
    assert outcome["outcome"] == "done", outcome
    assert outcome["from"] == world.commits["v1"][:12] and outcome["to"] == world.commits["v2"][:12]
    assert pi.current_id() == world.commits["v2"][:12]
    assert update.version_of(pi.home.previous).folder == world.clone.resolve()
    assert pi.wait_serving()["version"] == world.commits["v2"][:12]
    # each step said what it did; the pre-update backup is the store as v1 left it
    assert any("trying" in line for line in lines) and any("switching" in line for line in lines)
    backup = Path(outcome["backup"])
    assert backup.is_file() and backup.parent == pi.plan.backups and backup.name.endswith("-before-update.sqlite3")
    assert dump(backup) == before
    assert [e["outcome"] for e in pi.home.history()] == ["done"]
    # once more: nothing new
    with pytest.raises(UpdateRefused, match="already up to date"):
        update.update(pi.home, pi.plan, lines.append)


def test_a_version_that_fails_to_start_is_rolled_back_by_itself_with_the_store_as_it_was(
        world: World, pi: Pi) -> None:
    publish(world, "v3")
    before = dump(pi.store)
    outcome = update.update(pi.home, pi.plan, lambda _line: None)
    assert outcome["outcome"] == "rolled-back", outcome
    assert "before it was ready" in outcome["why"]
    assert pi.current_id() == world.commits["v1"][:12]
    assert pi.wait_serving()["version"] == world.commits["v1"][:12]
    backup = next(pi.plan.backups.glob("*-before-update.sqlite3"))
    assert pi.store.read_bytes() == backup.read_bytes()  # byte for byte the pre-update store
    assert dump(pi.store) == before
    assert not pi.home.file(launcher.STATE).exists()


def test_a_version_whose_migration_fails_stops_at_its_trial_and_nothing_changes(world: World, pi: Pi) -> None:
    publish(world, "v4")
    was = pi.store.read_bytes()
    serving = pi.healthz()
    with pytest.raises(UpdateRefused, match=r"failed on a copy of the store: .*schema 3 \(broken\)"):
        update.update(pi.home, pi.plan, lambda _line: None)
    assert pi.current_id() == world.commits["v1"][:12]
    assert pi.store.read_bytes() == was and not pi.plan.backups.exists()
    assert pi.healthz() == serving and pi.home.history() == []


def test_an_update_is_refused_mid_game_and_can_wait_for_the_end_of_it(world: World, pi: Pi, tmp_path: Path) -> None:
    publish(world, "v2")
    playing = tmp_path / "playing.sqlite3"
    make_store(playing, finished=False)
    plan = replace(pi.plan, store=playing)
    with pytest.raises(UpdateRefused, match=r"a game is being played \(.*muell-money.*\): an update waits"):
        update.update(pi.home, plan, lambda _line: None)
    assert pi.current_id() == world.commits["v1"][:12] and pi.home.history() == []
    # set for after this game: when the table ends, the update starts by itself
    update.set_pending(pi.home, plan)
    started: list[list[str]] = []
    store = Store(playing)
    try:
        room = Room(store)
        from web.cli import after_game_updates

        after_game_updates(room, playing, home=pi.home, spawn=started.append)
        table = room.tables()[0]
        assert started == []
        table.submit(Command(HOST, "end", {"reason": "done"}, table.state_no, "test"))
    finally:
        store.close()
    assert len(started) == 1 and "update" in started[0] and str(playing) in started[0]
    assert update.pending(pi.home) is None


def test_rollback_goes_back_and_says_first_what_a_store_from_before_loses(world: World, pi: Pi) -> None:
    publish(world, "v5")
    outcome = update.update(pi.home, pi.plan, lambda _line: None)
    assert outcome["outcome"] == "done", outcome
    assert pi.wait_serving()["version"] == world.commits["v5"][:12]
    assert update.store_schema(pi.store) == 3  # v5 moved it on
    make_store(pi.store.with_name("more.sqlite3"), finished=True)  # (a store to take a game from)
    _play_one_more_game(pi.store, pi.store.with_name("more.sqlite3"))
    back = update.plan_rollback(pi.home, pi.store)
    assert back.to.id == world.commits["v1"][:12] and back.restore == Path(outcome["backup"])
    assert back.loses == ["extra-game (muell-money, begun since)"]
    with pytest.raises(UpdateRefused, match="nothing was changed: say --yes"):
        update.rollback(pi.home, pi.plan, confirmed=False, say=lambda _line: None)
    assert pi.current_id() == world.commits["v5"][:12]
    lines: list[str] = []
    done = update.rollback(pi.home, pi.plan, confirmed=True, say=lines.append)
    assert done["outcome"] == "done", done
    assert "this loses: extra-game (muell-money, begun since)" in lines[0]
    assert pi.wait_serving()["version"] == world.commits["v1"][:12]
    assert pi.store.read_bytes() == Path(outcome["backup"]).read_bytes() and update.store_schema(pi.store) == 2


def _play_one_more_game(store: Path, source: Path) -> None:
    """A game played on the new version, as rows in its store (the running
    companion does not need to know it for the rollback to count it)."""
    import sqlite3

    with contextlib.closing(sqlite3.connect(store)) as db, contextlib.closing(sqlite3.connect(source)) as src:
        game, config, created = src.execute("SELECT game, config, created_at FROM tables").fetchone()
        db.execute("INSERT INTO tables (id, game, config, created_at, finished_at) VALUES (?, ?, ?, ?, ?)",
                   ("extra-game", game, config, created, time.time()))
        db.commit()


def test_rollback_to_a_version_that_reads_the_store_keeps_it(world: World, pi: Pi) -> None:
    publish(world, "v2")
    assert update.update(pi.home, pi.plan, lambda _line: None)["outcome"] == "done"
    back = update.plan_rollback(pi.home, pi.store)
    assert back.restore is None and back.loses == [] and "the store stays as it is" in back.describe()
    assert update.rollback(pi.home, pi.plan, confirmed=False, say=lambda _line: None)["outcome"] == "done"
    assert pi.wait_serving()["version"] == world.commits["v1"][:12]
    assert [e["what"] for e in pi.home.history()] == ["update", "rollback"]


def test_an_update_from_a_bundle_needs_no_network(world: World, pi: Pi, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    publish(world, "v2")
    bundle = update.make_bundle(tmp_path / "stick" / "bundle.tar.gz", repo=world.origin, commit="main", pi=True,
                                platforms=(), say=lambda _line: None)
    assert update.read_bundle(bundle)["commit"] == world.commits["v2"]
    # its own versions folder: built from the bundle's wheels, not found ready-made
    (pi.home.root / "versions").unlink()
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/nothing-here")  # any download would fail
    monkeypatch.setenv("PIP_NO_CACHE_DIR", "1")
    outcome = update.update(pi.home, replace(pi.plan, bundle=bundle), lambda _line: None)
    assert outcome["outcome"] == "done", outcome
    assert pi.wait_serving()["version"] == world.commits["v2"][:12]
    assert "--no-index" in (pi.home.versions / world.commits["v2"][:12] / "code" / "build.log").read_text()


def test_a_file_that_is_not_a_bundle_is_refused_plainly(tmp_path: Path) -> None:
    fake = tmp_path / "holiday.tar.gz"
    fake.write_bytes(b"not a tar")
    with pytest.raises(UpdateRefused, match="is not a Table Companion bundle"):
        update.read_bundle(fake)


def test_what_a_version_needs_is_what_the_makefile_installs() -> None:
    makefile = (REPO / "Makefile").read_text()
    for pi in (True, False):
        needs = update.needs_of(REPO, pi=pi)
        run_apt = makefile.split("ifeq ($(PI),1)")[1].split("else")[0 if pi else 1]
        line = next(x for x in run_apt.splitlines() if x.startswith("RUN_APT :="))
        assert set(line.split(":=")[1].split()) == set(needs.apt), (pi, line)
        assert needs.python == ">=3.11" and needs.disk_mb > 0


def test_what_a_machine_lacks_is_said_plainly(tmp_path: Path) -> None:
    assert update.python_meets(">=3.11", (3, 11, 2)) and update.python_meets(">=3.11,<4", (3, 13, 0))
    assert update.python_meets(">=3.12", (3, 11, 7)) is False and update.python_meets("~=3.11", (3, 11)) is None
    needs = update.Needs(">=3.99", ("libzbar0", "python3-frobnicate"), 10**9)
    missing = update.missing_needs(needs, python=Path(sys.executable), where=tmp_path,
                                   installed=lambda name: name == "libzbar0")
    assert missing[0].startswith("Python >=3.99 (this machine's ") and " is 3.11" in missing[0]
    assert missing[1] == "the apt packages python3-frobnicate (sudo apt-get install python3-frobnicate)"
    assert missing[2].startswith(f"1000000000 MB of free disk in {tmp_path} (there are ")
    assert update.missing_needs(update.Needs(">=3.11", (), 1), python=Path(sys.executable), where=tmp_path,
                                installed=lambda _name: True) == []


def test_a_bundle_for_another_python_is_refused_before_anything_is_unpacked() -> None:
    here = f"{sys.version_info[0]}.{sys.version_info[1]}"
    update.refuse_a_bundle_for_another_python({"python": here}, Path(sys.executable))
    with pytest.raises(UpdateRefused, match=rf"wheels are for Python 3.99 and this machine has {here}: .*"
                                            rf"make bundle BUNDLE_PYTHON={here}"):
        update.refuse_a_bundle_for_another_python({"python": "3.99"}, Path(sys.executable))


def test_without_the_service_s_launcher_an_update_is_refused_before_anything_is_fetched(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    plan = Plan(store=tmp_path / "s.sqlite3", backups=tmp_path / "b", clone=tmp_path / "nowhere")
    with pytest.raises(UpdateRefused, match=r"there is no launcher in .*install-service.*git pull and make run"):
        update.update(home, plan, lambda _line: None)
    with pytest.raises(UpdateRefused, match="there is no launcher"):
        update.rollback(home, plan, confirmed=True, say=lambda _line: None)
    assert not home.root.exists()


@pytest.mark.parametrize("filters", [True, False], ids=["with extraction filters", "Python 3.11.2, without"])
def test_an_archive_member_outside_the_version_folder_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, filters: bool) -> None:
    import io
    import tarfile

    if not filters:
        monkeypatch.delattr(tarfile, "data_filter", raising=False)
    for name in ("../escaped.txt", "/etc/escaped.txt"):
        blob = io.BytesIO()
        with tarfile.open(fileobj=blob, mode="w") as tar:
            info = tarfile.TarInfo(name)
            info.size = 2
            tar.addfile(info, io.BytesIO(b"no"))
        blob.seek(0)
        with tarfile.open(fileobj=blob) as tar:
            if name.startswith(".."):
                with pytest.raises((UpdateRefused, tarfile.TarError)):
                    update.extract(tar, tmp_path / "v")
            else:  # refused, or (the filters) unpacked below the folder with its / taken off
                with contextlib.suppress(UpdateRefused, tarfile.TarError):
                    update.extract(tar, tmp_path / "v")
        assert not (tmp_path / "escaped.txt").exists() and not Path("/etc/escaped.txt").exists()
    good = io.BytesIO()
    with tarfile.open(fileobj=good, mode="w") as tar:
        info = tarfile.TarInfo("code/README.md")
        info.size = 2
        tar.addfile(info, io.BytesIO(b"ok"))
    good.seek(0)
    with tarfile.open(fileobj=good) as tar:
        update.extract(tar, tmp_path / "v")
    assert (tmp_path / "v" / "code" / "README.md").read_bytes() == b"ok"
