"""What earlier versions wrote opens in this one: the compatibility corpus.

``tests/compat/corpus/<commit>/`` holds what the companion at that commit
wrote (``make_corpus.py`` made it from this repository's history): each
example script's game record, exported as the host page exports, and the
store it played them in, with an unfinished table per script.  Every record
opens (read-only; where today's rules play it differently, as recorded, with
the step named: :data:`EXPECTED`), every store migrates after a backup and
resumes every table, and no wording change ever makes any of it unopenable.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.backup import list_backups
from companion.commands import CHANCE, HOST, Command
from companion.errors import IllegalMove
from companion.games import GAMES, get_game
from companion.games.base import TABLE_SCREEN, seat_viewer
from companion.languages import English
from companion.messages import Catalog
from companion.record import open_record, read_record
from companion.store import (
    MIGRATIONS,
    SCHEMA_VERSION,
    Migration,
    Store,
    StoreNotMigrated,
    StoreTooNew,
    schema_version,
)
from companion.table import Room, fold

CORPUS = Path(__file__).resolve().parent / "corpus"
ERAS = sorted(p for p in CORPUS.iterdir() if p.is_dir())
RECORDS = sorted(p for era in ERAS for p in (era / "records").glob("*.json"))

#: records that today's rules play differently, by file: the step named and
#: what the notice begins with (a rule fixed since the record was made)
EXPECTED: dict[str, tuple[int, str]] = {
    # at 0ab581f the bank run that began in step 92 (every bank in ring I)
    # waited for its sector die, rolled alone in step 93, and for Ann's settle
    # in step 94.  Today that run needs no sector die and is over within step
    # 92 (all of ring I taken, both banks putting down gold at once: Ann holds
    # no other bank's credit by then); the roll in step 93 is taken as the
    # run's unrolled sector die, to no effect, and the settle in step 94 is
    # refused: no bank run is on
    "0ab581f/records/money-maker.json": (94, "today's rules refuse step 94 (Ann: settle)"),
}


def about(era: Path) -> dict[str, Any]:
    found: dict[str, Any] = json.loads((era / "about.json").read_text(encoding="utf-8"))
    return found


def name_of(path: Path) -> str:
    return str(path.relative_to(CORPUS))


def test_the_corpus_holds_records_and_stores_of_several_versions() -> None:
    assert len(ERAS) >= 3 and len(RECORDS) >= 20
    formats = {json.loads(p.read_text(encoding="utf-8"))["format"] for p in RECORDS}
    assert "table-companion game record 1" in formats
    for era in ERAS:
        assert (era / "store.sqlite3").is_file() and about(era)["games"]


def test_no_file_of_the_corpus_is_ignored_by_git() -> None:
    """A fresh clone holds all of it (the stores were once left behind by the
    ``*.sqlite3`` rule, and every store test failed in CI only)."""
    git = shutil.which("git")
    root = CORPUS.parents[2]
    if git is None or not (root / ".git").exists():
        pytest.skip("not a git checkout")
    left_by_a_reader = ("-wal", "-shm")  # SQLite's, beside a store someone opened in place
    files = sorted(
        str(p.relative_to(root)) for p in CORPUS.rglob("*") if p.is_file() and not p.name.endswith(left_by_a_reader)
    )
    found = subprocess.run([git, "check-ignore", "--no-index", *files], cwd=root, capture_output=True, text=True)
    assert found.stdout.split() == [], "ignored by .gitignore: " + found.stdout


@pytest.mark.parametrize("path", RECORDS, ids=[name_of(p) for p in RECORDS])
def test_every_record_of_the_corpus_opens(path: Path) -> None:
    record = read_record(path.read_bytes(), path.name)
    table = open_record(record)
    assert table.read_only and table.state_no == len(record.entries)
    expected = EXPECTED.get(name_of(path))
    if expected is None:
        assert table.divergence is None, table.divergence.notice()
        totals = {s["name"]: s["total"] for s in table.score().to_json(table.seat_names)["seats"]}
        assert totals == {s["name"]: s["total"] for s in record.scores["seats"]}  # type: ignore[index]
    else:
        assert table.divergence is not None and table.divergence.step == expected[0]
        assert table.divergence.how.startswith(expected[1]), table.divergence.how
        today = open_record(record, today=True)
        assert today.state_no == len(record.entries)
    for viewer in (TABLE_SCREEN, seat_viewer(0)):
        log = table.log(viewer)
        assert log and all(line["text"] for entry in log for line in entry["lines"])


def reworded(catalog: Catalog) -> dict[str, English]:
    """Every template of ``catalog`` with other words (the same fields)."""
    def other(text: str) -> str:
        return "«" + text.replace("the ", "THE ").replace(" is ", " IS ") + "»"

    return {key: (other(text[0]), other(text[1])) if isinstance(text, tuple) else other(text)
            for key, text in catalog.templates.items()}


@pytest.fixture
def every_template_reworded(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for key in GAMES:
        words = get_game(key).words
        monkeypatch.setattr(words, "templates", reworded(words))
    yield


@pytest.mark.parametrize("path", RECORDS, ids=[name_of(p) for p in RECORDS])
def test_a_wording_change_never_changes_whether_a_record_opens(path: Path, every_template_reworded: None) -> None:
    record = read_record(path.read_bytes(), path.name)
    table = open_record(record)
    expected = EXPECTED.get(name_of(path))
    assert (table.divergence is None) == (expected is None)
    if record.version >= 2:  # its lines are drawn in today's words
        assert any("«" in line["text"] for entry in table.log() for line in entry["lines"])


def test_a_record_exported_today_opens_after_its_templates_are_reworded(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.cli import load_script, run_script
    from companion.record import game_record

    examples = Path(__file__).resolve().parents[2] / "docs" / "examples"
    for script in sorted(examples.glob("*.json")):
        table, _ = run_script(load_script(script), Room(Store(tmp_path / f"{script.stem}.sqlite3")))
        exported = json.dumps(game_record(table))
        words = table.game.words
        with monkeypatch.context() as patch:
            patch.setattr(words, "templates", reworded(words))
            opened = open_record(read_record(exported))
            assert opened.divergence is None, f"{script.name}: {opened.divergence.notice()}"
            drawn = [line["text"] for entry in opened.log() for line in entry["lines"]]
            assert any("«" in text for text in drawn), script.name


@pytest.mark.parametrize("era", ERAS, ids=[e.name for e in ERAS])
def test_every_store_of_the_corpus_migrates_after_a_backup_and_resumes_every_table(era: Path, tmp_path: Path) -> None:
    path = tmp_path / "companion.sqlite3"
    shutil.copy(era / "store.sqlite3", path)
    with sqlite3.connect(path) as db:
        before = schema_version(db)
    store = Store(path)
    try:
        assert store.migrated_from == before
        with sqlite3.connect(path) as db:
            assert schema_version(db) == SCHEMA_VERSION
        if before < SCHEMA_VERSION:
            backups = list_backups(tmp_path / "backups")
            assert [b.reason for b in backups] == ["before-migration"]
            with sqlite3.connect(backups[0].path) as db:  # the store as it was, before any migration
                assert schema_version(db) == before
        room = Room(store)
        stored = {t.id: t for t in store.tables()}
        for game in about(era)["games"]:
            expected = EXPECTED.get(f"{era.name}/{game['record']}")
            for table_id in (game["table"], game["unfinished_table"]):
                assert table_id in stored
                table = room.get(table_id)
                if expected is not None and table.state_no >= expected[0]:
                    # today's rules refuse a logged step: the table as it was played, read-only, said so
                    assert table.read_only and table.divergence is not None
                    assert table.divergence.step == expected[0] and table.divergence.how.startswith(expected[1])
                    assert table.divergence.public_notice() in table.view(TABLE_SCREEN)["notes"]
                    assert expected[1] not in json.dumps(table.view(TABLE_SCREEN))  # how is the host's to read
                    with pytest.raises(IllegalMove, match="shown as it was played"):
                        table.submit(Command(HOST, "end", {"reason": "the evening is over"}))
                    assert fold(table.game, table.config, table.entries[: expected[0] - 1]) == table.state
                    continue
                assert fold(table.game, table.config, table.entries) == table.state
                for viewer in (TABLE_SCREEN, *(seat_viewer(s) for s in range(len(table.seat_names)))):
                    assert all(line["text"] for entry in table.log(viewer) for line in entry["lines"])
            assert room.get(game["table"]).state_no == game["steps"]
            unfinished = room.get(game["unfinished_table"])
            assert unfinished.state_no == game["unfinished_steps"] and not unfinished.is_over()
            if not unfinished.read_only:  # it plays on
                assert any(h["enabled"] for a in (HOST, CHANCE) for h in unfinished.actions(a))
    finally:
        store.close()
    again = Store(path)  # a second start migrates nothing and makes no second backup
    try:
        assert again.migrated_from == SCHEMA_VERSION
        assert len(list_backups(tmp_path / "backups")) == (1 if before < SCHEMA_VERSION else 0)
    finally:
        again.close()


def test_a_failed_migration_leaves_the_store_at_the_version_before_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "companion.sqlite3"
    shutil.copy(ERAS[0] / "store.sqlite3", path)

    def broken(db: sqlite3.Connection) -> None:
        db.execute("CREATE TABLE half_done (x)")
        raise sqlite3.OperationalError("the migration failed half-way")

    monkeypatch.setattr("companion.store.MIGRATIONS", (*MIGRATIONS[:1], Migration(2, "broken", broken)))
    with pytest.raises(StoreNotMigrated, match=r"could not be brought up to schema 2 \(broken\): the migration failed "
                                                r"half-way. It was left at schema 1"):
        Store(path)
    with sqlite3.connect(path) as db:
        assert schema_version(db) == 1  # the first step stands, the broken one left nothing
        assert db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'half_done'").fetchone()[0] == 0
    assert [b.reason for b in list_backups(tmp_path / "backups")] == ["before-migration"]


def test_a_store_of_a_newer_companion_is_refused_and_never_changed(tmp_path: Path) -> None:
    path = tmp_path / "companion.sqlite3"
    shutil.copy(ERAS[-1] / "store.sqlite3", path)
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    was = path.read_bytes()
    with pytest.raises(StoreTooNew, match=rf"written by a newer companion \(store schema {SCHEMA_VERSION + 1}; "
                                          r".*It was not changed.*companion restore"):
        Store(path)
    assert path.read_bytes() == was
    assert not (tmp_path / "companion.sqlite3-wal").exists()
