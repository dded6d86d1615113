"""Write one benchmark's results into its own section of ``docs/benchmarks.md``.

Each benchmark owns the text between ``<!-- NAME:start -->`` and
``<!-- NAME:end -->``; other sections are left as they are.
"""

from __future__ import annotations

import os
import platform
import re
import shutil
import subprocess
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"
HEADER = """# Benchmarks

Written by `make bench` (`python -m benchmarks`); each section is rewritten by
its own benchmark.  Targets are met here, in benchmarks, not in timed unit
tests.  Every ratio is against an alternative measured in the same run, on
the machine named in the section.
"""


def machine() -> str:
    """A one-line description of the machine the numbers come from."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        mem_kb = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f"{mem_kb / 1024 / 1024:.0f} GiB RAM"
    except (OSError, ValueError, IndexError):
        mem = "unknown RAM"
    return f"{cpu}, {os.cpu_count()} cores, {mem}, Python {platform.python_version()}, {platform.system()} {platform.release()}"


def commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False, cwd=DOC.parent
        )
        return out.stdout.strip() or "uncommitted"
    except OSError:
        return "unknown"


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def measured_now() -> str:
    """When and at which commit, as a section's heading line says it."""
    return f"{datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')} at commit {commit()}"


def write_section(name: str, title: str, body: str, measured: str | None = None) -> Path:
    """Replace (or add) the section ``name`` of docs/benchmarks.md;
    ``measured``: when and where its figures were taken (default: now,
    here), for a section written again from kept results."""
    section = (
        f"<!-- {name}:start -->\n## {title}\n\n"
        f"Measured {measured or measured_now()} on: {machine()}.\n\n{body.strip()}\n<!-- {name}:end -->"
    )
    text = DOC.read_text(encoding="utf-8") if DOC.exists() else HEADER
    pattern = re.compile(rf"<!-- {re.escape(name)}:start -->.*?<!-- {re.escape(name)}:end -->", re.S)
    if pattern.search(text):
        text = pattern.sub(lambda _m: section, text)
    else:
        text = text.rstrip() + "\n\n" + section + "\n"
    DOC.parent.mkdir(parents=True, exist_ok=True)
    DOC.write_text(text, encoding="utf-8")
    return DOC


def tree_at(rev: str, folder: Path) -> Path:
    """The repository's tree at commit ``rev``, unpacked once into ``folder``
    (``git archive``): the code a benchmark measures as "before", the same in
    every run and never the working tree.  Needs the git history."""
    root = Path(__file__).resolve().parent.parent
    stamp = folder / ".commit"
    if stamp.exists() and stamp.read_text() == rev:
        return folder
    archive = subprocess.run(["git", "archive", rev], cwd=root, capture_output=True)
    if archive.returncode != 0:
        raise SystemExit(f"the 'before' code (commit {rev}) is not in this clone's history: "
                         f"{archive.stderr.decode(errors='replace').strip()}")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    stamp.write_text(rev)
    return folder
