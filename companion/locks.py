"""The hash-pinned lock files that ``make run``, ``make test`` and
``companion update`` install from (``locks/*.txt``).

One lock per set a machine installs, each the whole set pinned with the
hashes of every file PyPI has of each pin (so a Pi's arm64 wheels and a PC's
x86-64 wheels are both in it), resolved once for every platform and Python
from 3.11 on (``uv pip compile --universal``):

========== ============================ =======================================
lock       what                         who installs it
========== ============================ =======================================
run        the runtime set              a Raspberry Pi (numpy, OpenCV from apt)
run-vision the runtime set + ``vision`` any other machine
dev        the runtime set + ``dev``    ``make test`` on a Pi
dev-vision + ``vision`` + ``dev``       ``make test`` elsewhere, and CI
========== ============================ =======================================

The Pi's locks hold no numpy: apt's is the one numpy in the process (the
Makefile's one-numpy rule), and nothing in them needs another.

Each lock's first line names a digest of what ``pyproject.toml`` asks for
(``requires-python``, the dependencies, the extras the lock holds), so a
test (``tests/core/test_locks.py``) fails as soon as the two disagree; then
``make lock`` (this module's ``refresh``) writes them again.  uv, not
pip-tools: pip-compile resolves for the one interpreter and platform it runs
on, and a lock made on a PC would leave out what a Pi on another Python
needs; uv resolves for all of them in one file that plain pip installs
(``pip install --require-hashes -r``), so nothing but pip is needed to
install, and uv only to refresh.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCK_DIR = "locks"
#: the oldest Python a lock is resolved for (pyproject's requires-python)
OLDEST_PYTHON = "3.11"
DIGEST_LINE = "# pyproject digest: "


@dataclass(frozen=True)
class Lock:
    name: str
    extras: tuple[str, ...]
    who: str

    def path(self, root: Path = ROOT) -> Path:
        return root / LOCK_DIR / f"{self.name}.txt"


LOCKS: tuple[Lock, ...] = (
    Lock("run", (), "a Raspberry Pi's runtime set (numpy and OpenCV from apt)"),
    Lock("run-vision", ("vision",), "the runtime set of any other machine"),
    Lock("dev", ("dev",), "make test on a Raspberry Pi"),
    Lock("dev-vision", ("vision", "dev"), "make test elsewhere, and CI"),
)


def lock_for(*, pi: bool, dev: bool) -> Lock:
    name = ("dev" if dev else "run") + ("" if pi else "-vision")
    return next(lock for lock in LOCKS if lock.name == name)


def asked_for(pyproject: Path, extras: Iterable[str]) -> dict[str, object]:
    """What ``pyproject.toml`` asks of a set with these extras."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    optional = project.get("optional-dependencies", {})
    return {
        "requires-python": project.get("requires-python", ""),
        "dependencies": sorted(project.get("dependencies", [])),
        "extras": {extra: sorted(optional.get(extra, [])) for extra in sorted(extras)},
    }


def digest(pyproject: Path, extras: Iterable[str]) -> str:
    canonical = json.dumps(asked_for(pyproject, extras), sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")


@dataclass(frozen=True)
class Pin:
    name: str
    version: str
    marker: str | None
    hashes: int


def pins(lock_text: str) -> list[Pin]:
    """The pins of a lock file, each with its marker and how many hashes."""
    found: list[Pin] = []
    for line in lock_text.splitlines():
        stripped = line.strip()
        if stripped.startswith("--hash=") and found:
            last = found[-1]
            found[-1] = Pin(last.name, last.version, last.marker, last.hashes + 1)
            continue
        match = _PIN.match(line)
        if match:
            found.append(Pin(canonical_name(match[1]), match[2], match[3], 0))
    return found


def canonical_name(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def problems(root: Path = ROOT) -> list[str]:
    """Where the locks and ``pyproject.toml`` disagree, in words (none: they agree)."""
    from packaging.requirements import Requirement

    pyproject = root / "pyproject.toml"
    found: list[str] = []
    for lock in LOCKS:
        path = lock.path(root)
        if not path.is_file():
            found.append(f"{path.relative_to(root)} is missing: run `make lock`")
            continue
        text = path.read_text(encoding="utf-8")
        first = text.splitlines()[0] if text else ""
        if first != DIGEST_LINE + digest(pyproject, lock.extras):
            found.append(f"{path.relative_to(root)} was made from another pyproject.toml "
                         "(its dependencies changed since): run `make lock`")
        pinned = pins(text)
        by_name: dict[str, list[Pin]] = {}
        for pin in pinned:
            by_name.setdefault(pin.name, []).append(pin)
        unhashed = [p.name for p in pinned if p.hashes == 0]
        if unhashed:
            found.append(f"{path.relative_to(root)} pins without a hash: {', '.join(unhashed)}")
        wanted = asked_for(pyproject, lock.extras)
        requirements = list(wanted["dependencies"])  # type: ignore[call-overload]
        for extra in lock.extras:
            requirements += wanted["extras"][extra]  # type: ignore[index]
        for line in requirements:
            requirement = Requirement(line)
            versions = by_name.get(canonical_name(requirement.name), [])
            if not versions:
                found.append(f"{path.relative_to(root)} does not pin {requirement.name}, which pyproject.toml asks for")
            for pin in versions:
                if not requirement.specifier.contains(pin.version, prereleases=True):
                    found.append(f"{path.relative_to(root)} pins {pin.name}=={pin.version}, "
                                 f"outside pyproject.toml's {requirement}")
        if "vision" not in lock.extras:
            heavy = sorted({p.name for p in pinned} & {"numpy", "opencv-python", "opencv-python-headless"})
            if heavy:
                found.append(f"{path.relative_to(root)} pins {', '.join(heavy)}: a Pi takes those from apt (one numpy)")
    return found


def refresh(root: Path = ROOT, *, upgrade: bool = False) -> list[Path]:
    """Write every lock again from ``pyproject.toml`` with uv (``make lock``;
    ``upgrade`` takes the newest releases pyproject allows, otherwise a pin
    moves only where pyproject no longer allows it)."""
    uv = Path(sys.executable).parent / "uv"
    command = str(uv) if uv.exists() else "uv"
    written: list[Path] = []
    (root / LOCK_DIR).mkdir(exist_ok=True)
    for lock in LOCKS:
        path = lock.path(root)
        args = [command, "pip", "compile", "--universal", "--python-version", OLDEST_PYTHON,
                "--generate-hashes", "--no-header", "--no-strip-extras", "pyproject.toml",
                *(f"--extra={extra}" for extra in lock.extras)]
        if upgrade:
            args.append("--upgrade")
        if path.exists() and not upgrade:
            args += ["--output-file", str(path)]  # uv keeps the pins it may keep
        done = subprocess.run(args, cwd=root, check=True, capture_output=True, text=True)
        body = path.read_text(encoding="utf-8") if path.exists() and not upgrade else done.stdout
        body = "\n".join(line for line in body.splitlines() if not line.startswith(DIGEST_LINE)
                         and not line.startswith("# made by `make lock`"))
        path.write_text(f"{DIGEST_LINE}{digest(root / 'pyproject.toml', lock.extras)}\n"
                        f"# made by `make lock` ({lock.who}); see companion/locks.py\n"
                        f"{body.strip()}\n", encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str]) -> int:
    if argv[:1] == ["check"]:
        found = problems()
        for line in found:
            print(line)
        return 1 if found else 0
    if argv[:1] == ["refresh"]:
        for path in refresh(upgrade="--upgrade" in argv):
            print(f"wrote {path.relative_to(ROOT)}")
        return 0
    print("usage: python -m companion.locks check | refresh [--upgrade]")
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
