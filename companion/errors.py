"""Why a command was refused.  A small taxonomy with stable codes.

* ``invalid``: the command is malformed (unknown name, missing or nonsense
  argument); parsing failed.
* ``illegal``: well formed but against the rules now; carries the rule's
  citation.
* ``not-your-turn``: an illegal command from a seat that may not act now.
* ``stale``: sent against an older state number (someone moved first).
* ``unknown-table`` / ``setup``: the table does not exist, or its setup is
  not valid.
* ``store-full`` / ``store-read-only`` / ``store-failing``: the store could
  not record it (``StoreUnavailable``: HTTP 507 or 503).

A refused command changes nothing.  The web layer shows ``code`` and
``message``; the message already names the rule and its source.
"""

from __future__ import annotations

from typing import Any

from companion.rules import Citation
from companion.store_words import REFUSED


class Refusal(Exception):
    """Base of every refusal the companion gives.  Nothing changed."""

    code = "refused"

    def __init__(self, message: str, rule: Citation | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule

    def __str__(self) -> str:
        if self.rule is None:
            return self.message
        return f"{self.message} [{self.rule}]"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message, "reason": str(self)}
        if self.rule is not None:
            out["rule"] = self.rule.to_json()
        return out


class InvalidCommand(Refusal):
    code = "invalid"


class IllegalMove(Refusal):
    code = "illegal"


class NotYourTurn(IllegalMove):
    code = "not-your-turn"


class StaleState(Refusal):
    code = "stale"


class UnknownTable(Refusal):
    code = "unknown-table"


class SetupError(Refusal):
    code = "setup"


class StoreUnavailable(Refusal):
    """The store could not record a change: its storage is full, read-only
    or failing.  Nothing was written and nothing changed in memory; once the
    storage works again the same command is accepted (no restart)."""

    code = "store-unavailable"

    def __init__(self, kind: str, detail: str = "") -> None:
        super().__init__(REFUSED.get(kind, REFUSED["failing"]))
        #: ``full``, ``read-only`` or ``failing``
        self.kind = kind if kind in REFUSED else "failing"
        #: SQLite's own words, for the log (not for players)
        self.detail = detail
        self.code = f"store-{self.kind}"

    @property
    def status(self) -> int:
        """507 Insufficient Storage for a full store, else 503."""
        return 507 if self.kind == "full" else 503
