"""What the companion says about its storage (the SD card), in one place:
the phones, the host page, the table screen and the command line all use
these words (a French interface will follow)."""

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
    "No table could be read from it; the companion started on a fresh, empty store. "
    "A backup may hold more: `companion backup --list`, then `companion restore BACKUP`."
)
NO_FRESH_STORE = (
    "The store {damaged} cannot be used ({why}), and no fresh store could be made beside it "
    "({fresh_why}). Nothing can be recorded until the card is checked (companion doctor)."
)
