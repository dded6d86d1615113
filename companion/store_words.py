"""What the companion says about its storage (the SD card), in one place:
the phones, the host page, the table screen and the command line all use
these words.  What the screens show is said in the language spoken: the
pages' gettext domain ``web`` holds it (:data:`CATALOG_TABLES`, each
sentence under ``store.<table>.<key>`` as its context; web/common.py says
them); what only the command line and the log say stays in English."""

from __future__ import annotations

#: a write the store refused, by kind: what every screen shows
REFUSED = {
    "full": (
        "The companion's storage is full: nothing was recorded; the game stays as it was. "
        "The host frees some space on the card (old backups, other files), then play on."
    ),
    "read-only": (
        "The companion's storage cannot be written (the card is read-only or failing): "
        "nothing was recorded; the game stays as it was. The host checks the card "
        "(companion doctor), then play on."
    ),
    "failing": (
        "The companion's storage failed to write (an input/output error): nothing was recorded; "
        "the game stays as it was. The host checks the card (companion doctor), then play on."
    ),
}

#: the banner's title while the store refuses writes
BANNER_TITLE = {
    "full": "Storage full: moves are not being recorded",
    "read-only": "Storage read-only: moves are not being recorded",
    "failing": "Storage failing: moves are not being recorded",
}

#: the banner's title after a damaged store was set aside at start
NOTICE_TITLE = "The companion's store was damaged"
HIDE_NOTICE = "Hide this message"
#: the host's warning's title while space runs low
LOW_TITLE = "Storage almost full"

LOW_SPACE = (
    "The companion's storage is almost full ({free} free). Free some space on the card soon "
    "(old backups, other files): when it is full, no move can be recorded."
)

#: a damaged store found at start (serve, play, doctor)
DAMAGED = (
    "{path}: the companion's store is damaged ({why}). It is kept as it is, never overwritten "
    "or deleted."
)
DAMAGED_WHAT_TO_DO = (
    "What to do: `companion serve` starts on a fresh store beside it and recovers the tables "
    "it can still read; or `companion restore BACKUP` puts a backup in its place "
    "(`companion backup --list` shows them)."
)
RECOVERED = (
    "The store {damaged} was damaged ({why}): it was set aside, untouched, as {kept}. "
    "The companion started on a fresh store and recovered {tables} from it{lost}."
)
RECOVERED_NONE = (
    "The store {damaged} was damaged ({why}): it was set aside, untouched, as {kept}. "
    "No table could be read from it; the companion started on a fresh, empty store."
)
#: how many rows of the damaged store's log came back (read by SQLite, or page by page)
ROWS_BACK = "{rows} log rows came back."
#: a table whose log stops before its last known step (read aloud, one each)
LACKING_STEPS = "Table {table}: steps 1 to {kept} of at least {known} came back."
LACKING_ALL = "Table {table}: none of its steps came back (it had at least {known})."
#: a table whose steps were read but whose setup (players, options) was not
LACKING_SETUP = (
    "Table {table}: none of its steps came back ({read} were read, but not its setup: "
    "the players and options)."
)
SETUP_FROM_BACKUP = "Table {table}: its setup (players, options) was lost and was taken from the backup {backup}."
#: the newest backup that holds more steps of a table that lacks some
BACKUP_HOLDS_MORE = (
    "The newest backup that holds more is {backup} ({more}{less}). To use it instead, stop the "
    "companion and run `companion restore {backup}` (the store as it is then is backed up and "
    "set aside first)."
)
BACKUP_HOLDS_LESS = "; fewer steps of {tables}"
NO_BACKUP_HOLDS_MORE = "No backup holds more of them (`companion backup --list`)."
BACKUP_MAY_HOLD_MORE = "A backup may hold more: `companion backup --list`, then `companion restore BACKUP`."
#: one table's count in a backup: "muell-money: 8 steps"
TABLE_STEPS = "{table}: {steps} steps"
NO_FRESH_STORE = (
    "The store {damaged} cannot be used ({why}), and no fresh store could be made beside it "
    "({fresh_why}). Nothing can be recorded until the card is checked (companion doctor)."
)

#: the recovery's report glue: counts of tables, "and", what could not be read
UNFINISHED_TABLES = "{count} unfinished table(s): {tables}"
FINISHED_TABLES = "{count} finished table(s)"
AND = " and "
NOT_READ = "; {count} could not be read"
RECOVERED_TABLE = "{table} ({game}, {steps} steps)"
RECOVERED_TABLE_CUT = "{table} ({game}, {steps} steps (of {read} read: the rest could not be used))"

#: the recovery's report as every screen shows it (companion/recovery.py's
#: Recovery.message, said in the language spoken: context ``store.recovery.<key>``)
RECOVERY = {
    "recovered": RECOVERED, "recovered_none": RECOVERED_NONE, "rows_back": ROWS_BACK,
    "lacking_steps": LACKING_STEPS, "lacking_all": LACKING_ALL, "lacking_setup": LACKING_SETUP,
    "setup_from_backup": SETUP_FROM_BACKUP, "backup_holds_more": BACKUP_HOLDS_MORE,
    "backup_holds_less": BACKUP_HOLDS_LESS, "no_backup_holds_more": NO_BACKUP_HOLDS_MORE,
    "backup_may_hold_more": BACKUP_MAY_HOLD_MORE, "table_steps": TABLE_STEPS,
    "unfinished_tables": UNFINISHED_TABLES, "finished_tables": FINISHED_TABLES, "and": AND,
    "not_read": NOT_READ, "recovered_table": RECOVERED_TABLE, "recovered_table_cut": RECOVERED_TABLE_CUT,
}

#: what every screen shows, extracted into the pages' domain ``web``
#: (companion/extract.py, ``make catalogs``): context ``store.<table>.<key>``
CATALOG_TABLES = {
    "domain": "web",
    "tables": {
        "store.refused.": REFUSED,
        "store.recovery.": RECOVERY,
        "store.banner.": BANNER_TITLE,
        "store.": {"notice_title": NOTICE_TITLE, "hide_notice": HIDE_NOTICE,
                   "low_title": LOW_TITLE, "low_space": LOW_SPACE},
    },
}
