"""Updates between games, with a way back: ``companion update``.

A version is a folder of its own with its own virtualenv, below the
companion's home (``$COMPANION_HOME``, else ``~/.local/share/table-companion/app``):
``versions/<id>/``.  ``current`` and ``previous`` are links to version
folders (the clone that ``make run`` set up counts as a version too: the
first ``current``); the service runs ``launch.py`` (:mod:`companion.launcher`),
which starts ``current``'s ``companion serve``.

An update, step by step (each says what it does; the first that fails
stops it, and nothing the running version uses has been touched):

1. refused while a table is being played (an unfinished table with a move in
   the last ``IDLE_DAYS``), or set for "after this game" (``--after-game``:
   the running companion starts it when the last such table ends);
2. the new version is fetched: the clone's git remote (its branch's
   upstream), or a release bundle file (``make bundle``: the code and a
   wheelhouse, for a Pi without internet);
3. what it needs is checked first (its Python, its apt packages, free disk),
   and what is missing is said plainly;
4. it is built beside the running one: its folder, its virtualenv, from its
   own hash-pinned lock (from the bundle's wheels alone for a bundle);
5. it is tried on a copy of the store: its migrations, then every table
   loaded and every log replayed (``companion check-store``);
6. ``current`` is switched to it in one rename and the launcher restarts:
   before the new version starts, the store is copied as the old version
   left it (the pre-update backup); the new version must report ready
   within the time limit, or the launcher puts the previous version and
   that store back by itself.

``companion update --rollback`` goes back to ``previous``; when the store's
schema has moved on since, the pre-update backup comes back too, and what
that loses (the games played since) is said first.  docs/updates.md is the
owner's guide.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from companion import launcher
from companion.launcher import HISTORY, PID, STATE, point, read_json, write_json

REPO = Path(__file__).resolve().parent.parent
VERSION_FILE = "version.json"
PENDING = "update-pending.json"
BUNDLE_FORMAT = "table-companion bundle 1"
#: what a version needs when its pyproject.toml does not say
DEFAULT_DISK_MB = 500

Say = Callable[[str], None]


class UpdateRefused(Exception):
    """An update (or rollback) that cannot go ahead now; ``str()`` says why
    and what to do.  Nothing was changed."""


# where versions live ----------------------------------------------------------------
@dataclass(frozen=True)
class Home:
    root: Path

    @classmethod
    def default(cls) -> Home:
        explicit = os.environ.get("COMPANION_HOME")
        if explicit:
            return cls(Path(explicit))
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        return cls(Path(base) / "table-companion" / "app")

    @property
    def versions(self) -> Path:
        return self.root / "versions"

    @property
    def current(self) -> Path:
        return self.root / "current"

    @property
    def previous(self) -> Path:
        return self.root / "previous"

    def file(self, name: str) -> Path:
        return self.root / name

    def set_up(self, running: Path = REPO) -> None:
        """The home, with ``current`` at ``running`` if it has none yet."""
        self.versions.mkdir(parents=True, exist_ok=True)
        if not self.current.is_symlink():
            point(self.current, running)
        # the rule texts beside the first clone (``../shared/seeds``), where
        # every version below versions/ looks for them
        shared = running.resolve().parent / "shared"
        if (shared / "seeds").is_dir() and not (self.versions / "shared").exists():
            with contextlib.suppress(OSError):
                (self.versions / "shared").symlink_to(shared)

    def history(self) -> list[dict[str, Any]]:
        found = read_json(self.file(HISTORY), [])
        entries: list[dict[str, Any]] = [e for e in found if isinstance(e, dict)] if isinstance(found, list) else []
        return entries

    def launcher_pid(self) -> int | None:
        try:
            pid = int(self.file(PID).read_text().strip())
            os.kill(pid, 0)
        except (OSError, ValueError):
            return None
        return pid


@dataclass(frozen=True)
class Version:
    """One version of the companion: its folder, its commit, the store
    schema it writes."""

    id: str
    commit: str
    schema: int
    folder: Path
    made_at: float = 0.0
    source: str = ""

    def to_json(self) -> dict[str, Any]:
        found = asdict(self)
        found["folder"] = str(self.folder)
        return found


def schema_of(folder: Path) -> int:
    """The store schema a version's code writes, read from its source
    (so any version can be asked, whatever it imports)."""
    text = (folder / "companion" / "store.py").read_text(encoding="utf-8")
    match = re.search(r"^SCHEMA_VERSION\s*=\s*(\d+)", text, re.MULTILINE)
    return int(match[1]) if match else 1  # before schema versions: the first


def git(folder: Path, *args: str, timeout: float = 120) -> str:
    done = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise UpdateRefused(f"git {' '.join(args)} failed in {folder}: {done.stderr.strip() or done.stdout.strip()}")
    return done.stdout.strip()


def version_of(folder: Path) -> Version:
    folder = folder.resolve()
    said = read_json(folder / VERSION_FILE, None)
    if isinstance(said, dict) and said.get("id"):
        return Version(str(said["id"]), str(said.get("commit", "")), int(said.get("schema", schema_of(folder))),
                       folder, float(said.get("made_at", 0.0)), str(said.get("source", "")))
    commit = ""
    with contextlib.suppress(UpdateRefused, OSError, subprocess.SubprocessError):
        commit = git(folder, "rev-parse", "HEAD", timeout=10)
    return Version(commit[:12] or folder.name, commit, schema_of(folder), folder, 0.0, "clone")


@cache
def running_version() -> Version:
    """The version this process runs (asked once: /healthz shows it)."""
    return version_of(REPO)


# tables being played ------------------------------------------------------------------
@dataclass(frozen=True)
class Playing:
    table_id: str
    game: str
    last_move: float


def tables_in_play(store: Path, idle_days: float, now: float | None = None) -> list[Playing]:
    """Unfinished tables with a move in the last ``idle_days`` (those a
    restart brings back): an update waits for them.  Read-only, plain SQL:
    any schema of the store answers."""
    if not store.is_file():
        return []
    since = (time.time() if now is None else now) - idle_days * 86400
    with contextlib.closing(sqlite3.connect(f"file:{store}?mode=ro", uri=True)) as db:
        rows = db.execute(
            "SELECT t.id, t.game, max(coalesce((SELECT max(at) FROM log WHERE log.table_id = t.id), 0), t.created_at)"
            " FROM tables t WHERE t.finished_at IS NULL").fetchall()
    return [Playing(str(i), str(g), float(at)) for i, g, at in rows if float(at) >= since]


# what a version needs -----------------------------------------------------------------
@dataclass(frozen=True)
class Needs:
    python: str  # requires-python, e.g. ">=3.11"
    apt: tuple[str, ...]
    disk_mb: int


def needs_of(folder: Path, *, pi: bool) -> Needs:
    pyproject = tomllib.loads((folder / "pyproject.toml").read_text(encoding="utf-8"))
    said = pyproject.get("tool", {}).get("table-companion", {}).get("needs", {})
    apt = said.get("apt-pi" if pi else "apt", ["libzbar0"])
    return Needs(str(pyproject.get("project", {}).get("requires-python", "")), tuple(apt),
                 int(said.get("disk-mb", DEFAULT_DISK_MB)))


def python_meets(spec: str, version: tuple[int, ...]) -> bool | None:
    """Whether ``version`` meets a requires-python of ``>=``/``<`` clauses
    (None: a clause this cannot read)."""
    for clause in filter(None, (c.strip() for c in spec.split(","))):
        match = re.fullmatch(r"(>=|<|==|>|<=)\s*(\d+(?:\.\d+)*)(\.\*)?", clause)
        if not match:
            return None
        wanted = tuple(int(p) for p in match[2].split("."))
        have = version[: len(wanted)]
        ok = {">=": have >= wanted, "<": have < wanted, ">": have > wanted, "<=": have <= wanted,
              "==": have == wanted}[match[1]]
        if not ok:
            return False
    return True


def apt_installed(package: str) -> bool:
    for name in (package, package + "t64"):  # Debian 13 renamed some libraries
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            done = subprocess.run(["dpkg", "-s", name], capture_output=True, text=True, timeout=30)
            if done.returncode == 0 and "Status: install ok installed" in done.stdout:
                return True
    return False


def missing_needs(needs: Needs, *, python: Path, where: Path,
                  installed: Callable[[str], bool] = apt_installed) -> list[str]:
    """What this machine lacks for a version, one plain sentence each."""
    missing: list[str] = []
    probe = subprocess.run([str(python), "-c", "import sys; print(*sys.version_info[:3])"],
                           capture_output=True, text=True, timeout=60)
    have = tuple(int(p) for p in probe.stdout.split()) if probe.returncode == 0 else ()
    meets = python_meets(needs.python, have) if have else False
    if meets is False:
        shown = ".".join(map(str, have)) or "none that starts"
        missing.append(f"Python {needs.python} (this machine's {python} is {shown})")
    absent = [p for p in needs.apt if not installed(p)]
    if absent:
        missing.append(f"the apt packages {', '.join(absent)} (sudo apt-get install {' '.join(absent)})")
    probe_dir = where if where.exists() else where.parent
    free = shutil.disk_usage(probe_dir).free // (1 << 20)
    if free < needs.disk_mb:
        missing.append(f"{needs.disk_mb} MB of free disk in {probe_dir} (there are {free} MB)")
    return missing


# where the new version comes from ---------------------------------------------------------
@dataclass(frozen=True)
class Fetched:
    """A new version's code, unpacked in its folder (not yet built)."""

    folder: Path
    commit: str
    source: str
    wheels: Path | None = None  # a bundle's wheelhouse: pip uses nothing else


def upstream_commit(clone: Path, *, fetch: bool = True) -> tuple[str, str]:
    """The commit the clone's branch follows (its upstream), fetched."""
    if fetch:
        git(clone, "fetch", "--quiet", "--tags", timeout=600)
    try:
        ref = git(clone, "rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}")
    except UpdateRefused:
        remotes = git(clone, "remote").split()
        if not remotes:
            raise UpdateRefused(f"{clone} has no git remote to update from: give a bundle (--bundle FILE)") from None
        ref = f"{remotes[0]}/HEAD"
    return git(clone, "rev-parse", ref + "^{commit}"), ref


def extract(tar: tarfile.TarFile, folder: Path) -> None:
    """Unpack ``tar`` into ``folder``, refusing any member that would land
    outside it.  Python 3.11.2 (Raspberry Pi OS Bookworm) has no extraction
    filters yet (3.11.4 added them): there the members are checked here."""
    if hasattr(tarfile, "data_filter"):
        tar.extractall(folder, filter="data")
        return
    root = folder.resolve()
    for member in tar.getmembers():
        target = (root / member.name).resolve()
        if not (target == root or target.is_relative_to(root)) or member.isdev() or member.islnk():
            raise UpdateRefused(f"the archive holds {member.name!r}, which would land outside {folder}")
        if member.issym():
            pointed = (target.parent / member.linkname).resolve()
            if not pointed.is_relative_to(root):
                raise UpdateRefused(f"the archive's link {member.name!r} points outside {folder}")
    tar.extractall(folder)  # (every member checked above)


def unpack_commit(clone: Path, commit: str, folder: Path) -> None:
    archive = subprocess.run(["git", "-C", str(clone), "archive", "--format=tar", commit],
                             capture_output=True, timeout=600)
    if archive.returncode != 0:
        raise UpdateRefused(f"git archive {commit} failed: {archive.stderr.decode(errors='replace').strip()}")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        extract(tar, folder)


def fetch_from_git(clone: Path, versions: Path) -> Fetched:
    commit, ref = upstream_commit(clone)
    folder = versions / commit[:12]
    if not folder.exists():
        partial = versions / f".{commit[:12]}.partial"
        shutil.rmtree(partial, ignore_errors=True)
        unpack_commit(clone, commit, partial)
        os.replace(partial, folder)
    return Fetched(folder, commit, f"git {ref}")


def read_bundle(path: Path) -> dict[str, Any]:
    """A bundle's manifest, or why it is not one."""
    try:
        with tarfile.open(path) as tar:
            member = tar.extractfile("bundle.json")
            manifest = json.loads(member.read()) if member else None
    except (OSError, tarfile.TarError, KeyError, ValueError) as err:
        raise UpdateRefused(f"{path} is not a Table Companion bundle ({err})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != BUNDLE_FORMAT:
        raise UpdateRefused(f"{path} is not a Table Companion bundle this version reads "
                            f"(format {manifest.get('format') if isinstance(manifest, dict) else None!r})")
    return manifest


def fetch_from_bundle(path: Path, versions: Path) -> Fetched:
    manifest = read_bundle(path)
    commit = str(manifest.get("commit", ""))
    folder = versions / (commit[:12] or path.stem)
    if not folder.exists():
        partial = versions / f".{folder.name}.partial"
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        with tarfile.open(path) as tar:
            extract(tar, partial)
        os.replace(partial, folder)
    code = folder / "code"
    return Fetched(code, commit, f"bundle {path.name}", folder / "wheels")


def make_bundle(out: Path, *, repo: Path = REPO, commit: str = "HEAD", pi: bool = True,
                platforms: tuple[str, ...] = ("manylinux_2_28_aarch64", "manylinux2014_aarch64", "manylinux_2_17_aarch64"),
                python_version: str = "3.11", say: Say = print) -> Path:
    """A release bundle: ``commit``'s code and the wheels of its runtime
    lock for a Pi (arm64, ``python_version``), or for this machine
    (``platforms=()``); one file to carry on a USB stick."""
    from companion.locks import lock_for

    full = git(repo, "rev-parse", commit + "^{commit}")
    with tempfile.TemporaryDirectory(prefix="bundle-") as scratch:
        root = Path(scratch)
        unpack_commit(repo, full, root / "code")
        lock = lock_for(pi=pi, dev=False).path(root / "code")
        args = [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
                "--require-hashes", "--no-deps", "-r", str(lock), "-d", str(root / "wheels")]
        if platforms:
            args += ["--only-binary=:all:", "--python-version", python_version, "--implementation", "cp"]
            for tag in platforms:
                args += ["--platform", tag]
        say(f"downloading the wheels of {lock.name}" + (f" for {platforms[0]}" if platforms else " for this machine"))
        done = subprocess.run(args, capture_output=True, text=True, timeout=3600)
        if done.returncode != 0:
            raise UpdateRefused(f"pip download failed: {done.stderr.strip()[-2000:]}")
        manifest = {"format": BUNDLE_FORMAT, "commit": full, "lock": lock.name, "pi": pi,
                    "platforms": list(platforms) or ["this machine"],
                    "python": python_version if platforms else f"{sys.version_info[0]}.{sys.version_info[1]}",
                    "made_at": time.time()}
        (root / "bundle.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
        out.parent.mkdir(parents=True, exist_ok=True)
        partial = out.with_name(f".{out.name}.partial")
        with tarfile.open(partial, "w:gz") as tar:
            for name in ("bundle.json", "code", "wheels"):
                tar.add(root / name, arcname=name)
        os.replace(partial, out)
    return out


# building and trying ------------------------------------------------------------------------
def base_python() -> Path:
    """The interpreter virtualenvs are made from (not this one's venv)."""
    return Path(getattr(sys, "_base_executable", sys.executable))


def on_a_pi() -> bool:
    wanted = os.environ.get("COMPANION_PI", "").lower()
    if wanted in ("1", "yes", "true"):
        return True
    if wanted in ("0", "no", "false"):
        return False
    try:
        return "Raspberry Pi" in Path("/proc/device-tree/model").read_text(errors="replace")
    except OSError:
        return False


def run_logged(args: list[str], log: Path, *, cwd: Path | None = None, timeout: float = 3600,
               env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, capture_output=True, text=True, cwd=cwd, timeout=timeout, env=env)
    with open(log, "a", encoding="utf-8") as out:
        out.write(f"$ {' '.join(args)}\n{done.stdout}{done.stderr}(exit {done.returncode})\n")
    return done


def build(fetched: Fetched, *, pi: bool, python: Path, lock: str | None = None, say: Say = print) -> Version:
    """The new version's virtualenv, from its own lock; then its
    ``version.json``.  A failed build leaves the folder for its log."""
    from companion.locks import LOCKS, lock_for

    folder = fetched.folder
    chosen = next((k for k in LOCKS if k.name == lock), None) if lock else lock_for(pi=pi, dev=False)
    if chosen is None:
        raise UpdateRefused(f"no lock {lock!r}")
    log = folder / "build.log"
    venv = folder / ".venv"
    if (folder / VERSION_FILE).exists() and (venv / "bin" / "companion").exists():
        return version_of(folder)
    shutil.rmtree(venv, ignore_errors=True)
    say(f"building it in {folder} (a virtualenv of its own, from {chosen.path(folder).relative_to(folder)})")
    made = run_logged([str(python), "-m", "venv", *(["--system-site-packages"] if pi else []), str(venv)], log)
    if made.returncode != 0:
        raise UpdateRefused(f"its virtualenv could not be made (see {log})")
    pip = [str(venv / "bin" / "python"), "-m", "pip", "--disable-pip-version-check", "install", "--quiet"]
    where = ["--no-index", "--find-links", str(fetched.wheels)] if fetched.wheels else []
    held: list[str] = []
    if pi:
        numpy = subprocess.run([str(python), "-c", "import numpy; print(numpy.__version__)"],
                               capture_output=True, text=True, timeout=120)
        if numpy.returncode == 0:
            (folder / "one-numpy.txt").write_text(f"numpy=={numpy.stdout.strip()}\n", encoding="utf-8")
            held = ["-c", str(folder / "one-numpy.txt")]
    steps = ([*pip, *where, *held, "--require-hashes", "-r", str(chosen.path(folder))],
             [*pip, *where, "--no-deps", "--no-build-isolation", "-e", str(folder)])
    for args in steps:
        done = run_logged(args, log, cwd=folder)
        if done.returncode != 0:
            tail = (done.stderr.strip() or done.stdout.strip()).splitlines()[-3:]
            raise UpdateRefused(f"it could not be built: {' / '.join(tail)} (the whole of it: {log})")
    version = Version(fetched.commit[:12], fetched.commit, schema_of(folder), folder, time.time(), fetched.source)
    write_json(folder / VERSION_FILE, version.to_json())
    return version


def online_copy(store: Path, target: Path) -> None:
    with contextlib.closing(sqlite3.connect(f"file:{store}?mode=ro", uri=True)) as src, \
            contextlib.closing(sqlite3.connect(target)) as out:
        src.backup(out)


def try_on_a_copy(version: Version, store: Path, say: Say = print) -> dict[str, Any]:
    """``companion check-store`` of the new version on a copy of the store;
    its report, or UpdateRefused with what failed."""
    say(f"trying {version.id} on a copy of the store (its migrations, every table loaded and replayed)")
    with tempfile.TemporaryDirectory(prefix="update-trial-") as scratch:
        copy = Path(scratch) / "companion.sqlite3"
        if store.is_file():
            online_copy(store, copy)
        env = {**os.environ, "COMPANION_DB": str(copy), "COMPANION_HOME": scratch}
        done = subprocess.run([str(version.folder / ".venv" / "bin" / "companion"), "check-store", "--db", str(copy),
                               "--json"], capture_output=True, text=True, timeout=3600, env=env)
    try:
        report: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        report = {"ok": False, "why": (done.stderr.strip() or done.stdout.strip())[-600:] or f"exit {done.returncode}"}
    if done.returncode != 0 or not report.get("ok"):
        raise UpdateRefused(f"{version.id} failed on a copy of the store: {report.get('why')}")
    return report


# switching ---------------------------------------------------------------------------------
def switch(home: Home, to: Version, *, store: Path, backups: Path, what: str = "update",
           ready_within: float = launcher.READY_WITHIN, restore: Path | None = None) -> dict[str, Any]:
    """``current`` at ``to`` (``previous`` at what it was), and the launcher
    told; the trial is the launcher's from here."""
    was = version_of(home.current)
    state: dict[str, Any] = {"what": what, "version": str(to.folder), "previous": str(was.folder),
                             "to_id": to.id, "from_id": was.id, "store": str(store), "backups": str(backups),
                             "backup_at_switch": True, "ready_within": ready_within, "asked_at": time.time()}
    if restore is not None:
        state["restore"] = str(restore)
    write_json(home.file(STATE), state)
    point(home.previous, was.folder)
    point(home.current, to.folder)
    pid = home.launcher_pid()
    if pid is not None:
        os.kill(pid, signal.SIGUSR1)
    state["launcher"] = pid
    return state


def wait_for_outcome(home: Home, state: dict[str, Any], timeout: float) -> dict[str, Any] | None:
    """The history's entry for this switch, once the launcher wrote it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for entry in reversed(home.history()):
            if entry.get("at", 0) >= state["asked_at"] and entry.get("to") == state["to_id"]:
                found: dict[str, Any] = entry
                return found
        time.sleep(0.2)
    return None


# the whole of it -----------------------------------------------------------------------------
@dataclass
class Plan:
    """What one ``companion update`` is asked to do."""

    store: Path
    backups: Path
    bundle: Path | None = None
    clone: Path = REPO
    idle_days: float = 7.0
    pi: bool = False
    lock: str | None = None
    python: Path = field(default_factory=base_python)
    ready_within: float = launcher.READY_WITHIN
    wait: float = launcher.READY_WITHIN + 60


def refuse_a_bundle_for_another_python(manifest: dict[str, Any], python: Path) -> None:
    """A bundle's compiled wheels are for one Python (``make bundle
    BUNDLE_PYTHON=3.13`` for Trixie): said before anything is unpacked."""
    wanted = str(manifest.get("python", ""))
    probe = subprocess.run([str(python), "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                           capture_output=True, text=True, timeout=60)
    have = probe.stdout.strip()
    if wanted and have and wanted != have:
        raise UpdateRefused(f"the bundle's wheels are for Python {wanted} and this machine has {have}: "
                            f"make one for it (make bundle BUNDLE_PYTHON={have})")


def refuse_without_the_launcher(home: Home) -> None:
    """An update switches what the service's launcher starts: without it
    there is nothing to switch, and nothing to bring the previous back."""
    if not home.file("launch.py").is_file():
        raise UpdateRefused(f"there is no launcher in {home.root}: updates need the service "
                            "(sudo .venv/bin/companion install-service, docs/raspberry-pi.md). "
                            "In a terminal, git pull and make run update this clone.")


def refuse_while_playing(plan: Plan) -> None:
    playing = tables_in_play(plan.store, plan.idle_days)
    if playing:
        names = ", ".join(f"{p.table_id} ({p.game})" for p in playing)
        raise UpdateRefused(f"a game is being played ({names}): an update waits until it ends. "
                            "Finish it, or set the update for after this game (--after-game).")


def update(home: Home, plan: Plan, say: Say = print) -> dict[str, Any]:
    """One update, from the plan's source; the launcher's outcome (or the
    switch, where no launcher runs)."""
    refuse_without_the_launcher(home)
    refuse_while_playing(plan)
    home.set_up()
    running = version_of(home.current)
    if plan.bundle is not None:
        say(f"reading the bundle {plan.bundle}")
        refuse_a_bundle_for_another_python(read_bundle(plan.bundle), plan.python)
        fetched = fetch_from_bundle(plan.bundle, home.versions)
    else:
        say(f"fetching from the git remote of {plan.clone}")
        fetched = fetch_from_git(plan.clone, home.versions)
    if fetched.commit and fetched.commit == running.commit:
        raise UpdateRefused(f"already up to date ({running.id})")
    missing = missing_needs(needs_of(fetched.folder, pi=plan.pi), python=plan.python, where=home.root)
    if missing:
        raise UpdateRefused(f"{fetched.commit[:12]} needs what this machine lacks: " + "; ".join(missing))
    version = build(fetched, pi=plan.pi, python=plan.python, lock=plan.lock, say=say)
    report = try_on_a_copy(version, plan.store, say)
    say(f"{version.id} took the store: {report.get('tables')} tables loaded and replayed "
        f"in {report.get('seconds')} s")
    for warning in report.get("notes", []):
        say(f"note: {warning}")
    refuse_while_playing(plan)  # (a table may have started while it built)
    say(f"switching from {running.id} to {version.id}")
    state = switch(home, version, store=plan.store, backups=plan.backups, ready_within=plan.ready_within)
    if state["launcher"] is None:
        return {"outcome": "switched", "to": version.id,
                "why": "the service is not running: it tries the new version when it starts "
                       "(sudo systemctl start table-companion)"}
    outcome = wait_for_outcome(home, state, plan.wait)
    return outcome or {"outcome": "unknown", "to": version.id, "why": f"no word from the launcher in {plan.wait:g} s"}


# rolling back --------------------------------------------------------------------------------
def store_schema(store: Path) -> int:
    if not store.is_file():
        return 0
    with contextlib.closing(sqlite3.connect(f"file:{store}?mode=ro", uri=True)) as db:
        return int(db.execute("PRAGMA user_version").fetchone()[0])


def steps_by_table(store: Path) -> dict[str, tuple[str, int]]:
    with contextlib.closing(sqlite3.connect(f"file:{store}?mode=ro", uri=True)) as db:
        rows = db.execute("SELECT t.id, t.game, (SELECT count(*) FROM log WHERE log.table_id = t.id) FROM tables t")
        return {str(i): (str(g), int(n)) for i, g, n in rows}


def what_a_restore_loses(store: Path, backup: Path) -> list[str]:
    """The games played since ``backup`` was made, one line each."""
    now, then = steps_by_table(store), steps_by_table(backup)
    lost = []
    for table_id, (game, steps) in sorted(now.items()):
        before = then.get(table_id, (game, 0))[1]
        if table_id not in then or steps > before:
            since = "begun since" if table_id not in then else f"{steps - before} steps played since"
            lost.append(f"{table_id} ({game}, {since})")
    return lost


def last_update_to(home: Home, version_id: str) -> dict[str, Any] | None:
    for entry in reversed(home.history()):
        if entry.get("to") == version_id and entry.get("outcome") == "done":
            found: dict[str, Any] = entry
            return found
    return None


@dataclass(frozen=True)
class RollbackPlan:
    to: Version
    restore: Path | None
    loses: list[str]

    def describe(self) -> str:
        back = f"back to {self.to.id}"
        if self.restore is None:
            return back + ": the store stays as it is (that version reads its schema)"
        if not self.loses:
            return back + f", with the store from before the update ({self.restore.name}); nothing played since is lost"
        return back + f", with the store from before the update ({self.restore.name}); this loses: " + \
            "; ".join(self.loses)


def plan_rollback(home: Home, store: Path) -> RollbackPlan:
    if not home.previous.is_symlink() or not home.previous.resolve().exists():
        raise UpdateRefused("there is no previous version to go back to")
    to = version_of(home.previous)
    now = version_of(home.current)
    restore: Path | None = None
    loses: list[str] = []
    if store_schema(store) > to.schema:
        entry = last_update_to(home, now.id)
        backup = Path(entry["backup"]) if entry and entry.get("backup") else None
        if backup is None or not backup.is_file():
            raise UpdateRefused(f"{to.id} cannot read this store (schema {store_schema(store)}, it knows {to.schema}) "
                                "and the backup from before the update is not there: see companion restore")
        restore = backup
        loses = what_a_restore_loses(store, backup)
    return RollbackPlan(to, restore, loses)


def rollback(home: Home, plan: Plan, *, confirmed: bool, say: Say = print) -> dict[str, Any]:
    refuse_without_the_launcher(home)
    refuse_while_playing(plan)
    back = plan_rollback(home, plan.store)
    say(back.describe())
    if back.loses and not confirmed:
        raise UpdateRefused("nothing was changed: say --yes to go back all the same")
    state = switch(home, back.to, store=plan.store, backups=plan.backups, what="rollback",
                   ready_within=plan.ready_within, restore=back.restore)
    if state["launcher"] is None:
        return {"outcome": "switched", "to": back.to.id,
                "why": "the service is not running: it starts the previous version when it starts "
                       "(sudo systemctl start table-companion)"}
    outcome = wait_for_outcome(home, state, plan.wait)
    return outcome or {"outcome": "unknown", "to": back.to.id, "why": f"no word from the launcher in {plan.wait:g} s"}


# after this game ---------------------------------------------------------------------------------
def set_pending(home: Home, plan: Plan) -> None:
    home.root.mkdir(parents=True, exist_ok=True)
    write_json(home.file(PENDING), {"asked_at": time.time(),
                                    "bundle": str(plan.bundle) if plan.bundle else None})


def pending(home: Home) -> dict[str, Any] | None:
    found = read_json(home.file(PENDING), None)
    return found if isinstance(found, dict) else None


def start_pending_if_free(home: Home, store: Path, idle_days: float,
                          spawn: Callable[[list[str]], Any] | None = None) -> bool:
    """Called when a table ends: the update set for "after this game" starts
    (in a process of its own) once no table is being played."""
    asked = pending(home)
    if asked is None or tables_in_play(store, idle_days):
        return False
    with contextlib.suppress(FileNotFoundError):
        home.file(PENDING).unlink()
    exe = Path(sys.executable).parent / "companion"
    args = [str(exe) if exe.exists() else sys.executable, *([] if exe.exists() else ["-m", "companion.cli"]),
            "update", "--yes", "--db", str(store)]
    if asked.get("bundle"):
        args += ["--bundle", str(asked["bundle"])]
    if spawn is None:
        log = open(home.file("update.log"), "a", encoding="utf-8")  # noqa: SIM115 (the child's)
        subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                         env={**os.environ, "COMPANION_HOME": str(home.root)})
        log.close()
    else:
        spawn(args)
    return True


# what the host sees --------------------------------------------------------------------------------
def status(home: Home) -> dict[str, Any]:
    current = version_of(home.current) if home.current.exists() else running_version()
    previous = version_of(home.previous) if home.previous.is_symlink() and home.previous.exists() else None
    history = home.history()
    return {"running": current.to_json(), "previous": previous.to_json() if previous else None,
            "last": history[-1] if history else None, "pending": pending(home),
            "trial": read_json(home.file(STATE), None), "launcher": home.launcher_pid() is not None}


# check-store: what a new version runs on a copy of the store -------------------------------------
def check_store(path: Path) -> dict[str, Any]:
    """Migrate the store, load every table and replay every log from its
    start; the report (``ok`` false with ``why`` on the first failure)."""
    from companion.store import Store, StoreDamaged, StoreNotMigrated, StoreTooNew
    from companion.table import Room, fold

    started = time.monotonic()
    try:
        store = Store(path)
    except (StoreDamaged, StoreTooNew, StoreNotMigrated) as err:
        return {"ok": False, "why": err.why}
    notes: list[str] = []
    checked = 0
    try:
        room = Room(store, idle_days=0)
        for stored in store.tables():
            try:
                table = room.get(stored.id)
                if table.divergence is not None:
                    notes.append(f"{stored.id}: {table.divergence.notice()}")
                elif fold(table.game, table.config, table.entries) != table.state:
                    return {"ok": False, "why": f"table {stored.id}: its log replayed from the start "
                                                "does not give the state it was loaded with"}
            except Exception as err:  # any failure is the answer: this version cannot take this store
                return {"ok": False, "why": f"table {stored.id} ({stored.game}): {type(err).__name__}: {err}"}
            checked += 1
    finally:
        store.close()
    return {"ok": True, "tables": checked, "notes": notes, "seconds": round(time.monotonic() - started, 2)}


# the command ---------------------------------------------------------------------------------
def register(sub: Any) -> None:
    up = sub.add_parser("update", help="update the companion between games, with a way back (docs/updates.md)",
                        description=__doc__.split("\n\n")[0])
    up.add_argument("--bundle", type=Path, help="update from this release bundle file (make bundle) instead of git")
    up.add_argument("--after-game", action="store_true", help="run when the last game being played ends")
    up.add_argument("--cancel", action="store_true", help="forget an update set for after this game")
    up.add_argument("--rollback", action="store_true", help="back to the previous version")
    up.add_argument("--status", action="store_true", help="the version running, the last update, what waits")
    up.add_argument("--yes", action="store_true", help="go back even where the store from before the update "
                                                       "loses the games played since")
    up.add_argument("--db", type=Path, help="the store (default: as companion serve)")
    up.add_argument("--ready-within", type=float, default=launcher.READY_WITHIN,
                    help="seconds the new version has to report ready (default %(default)s)")
    up.add_argument("--lock", help=argparse.SUPPRESS)  # tests: build from another lock
    up.set_defaults(handler=cmd_update)
    check = sub.add_parser("check-store", help="migrate a store and replay every table (an update's trial)")
    check.add_argument("--db", type=Path, required=True)
    check.add_argument("--json", action="store_true")
    check.set_defaults(handler=cmd_check_store)
    bundle = sub.add_parser("bundle", help="write a release bundle (code + wheels) for a Pi without internet")
    bundle.add_argument("--out", type=Path, default=Path("dist/table-companion-bundle.tar.gz"))
    bundle.add_argument("--commit", default="HEAD")
    bundle.add_argument("--for-here", action="store_true", help="wheels for this machine instead of a Pi (arm64)")
    bundle.add_argument("--python", default="3.11", help="the Pi's Python (Bookworm 3.11, Trixie 3.13)")
    bundle.set_defaults(handler=cmd_bundle)


def plan_from(args: argparse.Namespace) -> Plan:
    from companion.backup import default_folder
    from companion.settings import idle_days_setting
    from companion.store import default_db_path

    store = args.db or default_db_path()
    pi = on_a_pi()
    return Plan(store=store, backups=default_folder(store), bundle=args.bundle, idle_days=idle_days_setting(),
                pi=pi, lock=args.lock, ready_within=args.ready_within, wait=args.ready_within + 60)


def cmd_update(args: argparse.Namespace) -> int:
    home = Home.default()
    plan = plan_from(args)

    def say(line: str) -> None:
        print(f"update: {line}", flush=True)

    try:
        if args.status:
            print(json.dumps(status(home), indent=1, sort_keys=True))
            return 0
        if args.cancel:
            with contextlib.suppress(FileNotFoundError):
                home.file(PENDING).unlink()
            say("no update waits for the end of the game")
            return 0
        if args.rollback:
            outcome = rollback(home, plan, confirmed=args.yes, say=say)
        elif args.after_game and tables_in_play(plan.store, plan.idle_days):
            set_pending(home, plan)
            say("set for after this game: it starts when the last game being played ends")
            return 0
        else:
            outcome = update(home, plan, say)
    except UpdateRefused as err:
        print(f"companion update: {err}", file=sys.stderr)
        return 1
    say(describe_outcome(outcome))
    return 0 if outcome.get("outcome") in ("done", "switched") else 1


def describe_outcome(entry: dict[str, Any]) -> str:
    outcome = entry.get("outcome")
    if outcome == "done":
        return f"{entry.get('to')} runs (from {entry.get('from')})"
    if outcome == "rolled-back":
        return f"{entry.get('to')} did not come up ({entry.get('why')}); {entry.get('from')} runs again, " \
               f"store {entry.get('store')}"
    return f"{entry.get('to')}: {outcome} ({entry.get('why')})"


def cmd_check_store(args: argparse.Namespace) -> int:
    report = check_store(args.db)
    if args.json:
        print(json.dumps(report, sort_keys=True))
    elif report["ok"]:
        print(f"{args.db}: {report['tables']} tables load and replay" +
              "".join(f"\nnote: {n}" for n in report["notes"]))
    else:
        print(f"{args.db}: {report['why']}", file=sys.stderr)
    return 0 if report["ok"] else 1


def cmd_bundle(args: argparse.Namespace) -> int:
    try:
        here = f"{sys.version_info[0]}.{sys.version_info[1]}"
        out = make_bundle(args.out, commit=args.commit, pi=not args.for_here,
                          platforms=() if args.for_here else
                          ("manylinux_2_28_aarch64", "manylinux2014_aarch64", "manylinux_2_17_aarch64"),
                          python_version=here if args.for_here else args.python)
    except UpdateRefused as err:
        print(f"companion bundle: {err}", file=sys.stderr)
        return 1
    print(f"wrote {out} ({out.stat().st_size // 1024} KB): companion update --bundle {out}")
    return 0
