"""Make the compatibility corpus from this repository's history.

For each chosen commit, a temporary git worktree of it plays every example
script of that commit (``docs/examples/*.json``) with that commit's own code,
exports each game's record the way the host page does, and keeps the tables
in a store of that commit's making, together with an unfinished table per
script (its first half of commands): what a Pi updated mid-week holds.

    .venv/bin/python -m tests.compat.make_corpus 0ab581f 8d46178 a02124f HEAD

writes ``tests/compat/corpus/<commit>/`` (``records/*.json``,
``store.sqlite3``, ``about.json``).  ``tests/compat/test_corpus.py`` opens
every record and resumes every store in it at every ``make test``.  Add the
new commit whenever the record or store format changes (``docs/records.md``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).resolve().parent / "corpus"

#: run inside the old commit's worktree, with its code first on the path
DRIVER = r'''
import json, sys
from pathlib import Path
tree, out = Path(sys.argv[1]), Path(sys.argv[2])
import companion
assert Path(companion.__file__).resolve().is_relative_to(tree.resolve()), companion.__file__
from companion.cli import load_script, run_script
from companion.record import game_record
from companion.store import Store
from companion.table import Room
(out / "records").mkdir(parents=True, exist_ok=True)
store = Store(out / "store.sqlite3")
room = Room(store)
made = []
for script in sorted((tree / "docs" / "examples").glob("*.json")):
    raw = load_script(script)
    table, result = run_script(raw, room)
    if "stopped" in result:
        raise SystemExit(f"{script.name} stopped at this commit: {result['stopped']}")
    record = game_record(table)
    (out / "records" / f"{script.stem}.json").write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n",
                                                        encoding="utf-8")
    half = dict(raw, commands=raw["commands"][: len(raw["commands"]) // 2])
    unfinished, _ = run_script(half, room)
    made.append({"script": script.name, "record": f"records/{script.stem}.json", "steps": table.state_no,
                 "over": table.is_over(), "table": table.id, "unfinished_table": unfinished.id,
                 "unfinished_steps": unfinished.state_no})
if hasattr(store, "checkpoint"):
    store.checkpoint()
store.close()
print(json.dumps(made))
'''


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()


def make(commit: str) -> Path:
    full = git("rev-parse", commit)
    short = full[:7]
    out = CORPUS / short
    if out.exists():
        shutil.rmtree(out)
    with tempfile.TemporaryDirectory(prefix="corpus-") as tmp:
        tree = Path(tmp) / "tree"
        git("worktree", "add", "--detach", str(tree), full)
        try:
            env = {**os.environ, "PYTHONPATH": str(tree), "COMPANION_SEEDS": str(ROOT.parent / "shared" / "seeds")}
            done = subprocess.run([sys.executable, "-c", DRIVER, str(tree), str(out)], cwd=tree, env=env,
                                  capture_output=True, text=True)
            if done.returncode:
                raise SystemExit(f"{commit}: the driver failed:\n{done.stderr[-3000:]}")
        finally:
            git("worktree", "remove", "--force", str(tree))
    for extra in ("store.sqlite3-wal", "store.sqlite3-shm"):
        (out / extra).unlink(missing_ok=True)
    about = {
        "commit": full,
        "date": git("show", "-s", "--format=%cI", full),
        "subject": git("show", "-s", "--format=%s", full)[:200],
        "games": json.loads(done.stdout.strip().splitlines()[-1]),
    }
    (out / "about.json").write_text(json.dumps(about, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("commits", nargs="+", help="commits of this repository (hashes, tags, HEAD)")
    args = parser.parse_args()
    for commit in args.commits:
        out = make(commit)
        print(f"{commit}: {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
