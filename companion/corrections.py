"""The host's audited correction of one value, shared by the games.

A correction is an ordinary HOST command named ``correct``: it names a
target (``value``), for seat values the ``seat``, the new value (``to``) and
a required ``reason``.  Each game decides which targets it offers, checks the
new value against its components, and moves any difference to or from the
bank / reserve / supply so its conservation rules keep holding.

What goes into the log: a public line says who corrected what, from what, to
what and why (citing :data:`CORRECTION_RULE`).  A *hidden* value (a seat's
cash, gold, goods) is never shown publicly: the public line says only that
the value was corrected and why; the exact old → new line goes to that seat
alone.  Like any move, a correction can be undone and replays exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.commands import Command
from companion.errors import InvalidCommand
from companion.games.base import ActionHint, Choice, Field
from companion.messages import CORE
from companion.rules import Explanation, cite, say

CORRECTION_RULE = cite("core", "Host correction")
COMMAND = "correct"
#: longest reason kept (the dashboard's text fields allow 200 characters)
MAX_REASON = 200


@dataclass(frozen=True)
class Target:
    """A value the host may correct: its key, a label, and whether it
    belongs to a seat (``seat``) and is hidden from the other seats."""

    key: str
    label: str
    seat: bool = True
    hidden: bool = False

    @property
    def noun(self) -> str:
        """The label without its parenthesised help ("gold in the vault")."""
        return self.label.split(" (")[0]


def need_reason(command: Command) -> str:
    """The correction's reason: required, one line, at most 200 characters."""
    raw = command.arg("reason")
    if not isinstance(raw, str) or not raw.strip():
        raise InvalidCommand(CORE.says("core.correct_needs_reason"))
    text = " ".join(raw.split())
    if len(text) > MAX_REASON:
        raise InvalidCommand(CORE.says("core.correct_reason_long", most=MAX_REASON))
    return text


def need_target(command: Command, targets: Sequence[Target]) -> Target:
    raw = command.arg("value")
    if not isinstance(raw, str):
        raw = command.arg("target")
    key = raw.strip().lower().replace(" ", "_").replace("-", "_") if isinstance(raw, str) else ""
    for t in targets:
        if t.key == key:
            return t
    known = ", ".join(t.key for t in targets)
    raise InvalidCommand(CORE.says("core.correct_needs_value", known=known, given=repr(raw)))


#: no value at any of these tables comes near this; a larger one is a typo
MAX_VALUE = 100_000


def need_to(command: Command) -> int:
    """The new value: a whole number within ±``MAX_VALUE`` (the game checks
    its own, narrower ranges)."""
    if "to" not in command.args:
        raise InvalidCommand(CORE.says("core.correct_needs_to"))
    value = command.need_int("to")
    if abs(value) > MAX_VALUE:
        raise InvalidCommand(CORE.says("core.correct_too_large", value=value, most=MAX_VALUE))
    return value


def lines(
    who: str,
    what: str,
    old: object,
    new: object,
    reason: str,
    *,
    hidden_seat: int | None = None,
    extra: str = "",
) -> list[Explanation]:
    """The audit lines of one correction, said through the core's catalog
    (``core.corrected*``: the log keeps them as meaning).

    ``who`` is the owner's name ("Ann", a seat's :class:`SeatName`) or ""
    for a table value; ``what`` the value's name ("cash"); ``old``/``new``
    the values (numbers are kept as numbers).  For a hidden value
    (``hidden_seat``) the public line names no number; the exact line (with
    ``extra``, e.g. where the difference went) goes to that seat only."""
    subject = CORE.says("core.corrected_whose", seat=who, what=what) if who else CORE.says("core.corrected_the", what=what)
    more = CORE.says("core.corrected_extra", extra=extra) if extra else ""
    if hidden_seat is None:
        return [say(CORE.says("core.corrected", subject=subject, old=old, new=new, reason=reason, extra=more),
                    CORRECTION_RULE)]
    return [
        say(CORE.says("core.corrected_private", subject=subject, reason=reason), CORRECTION_RULE),
        say(CORE.says("core.corrected_yours", what=what, old=old, new=new, reason=reason, extra=more),
            CORRECTION_RULE, audience=[hidden_seat]),
    ]


def hint(
    targets: Sequence[Target],
    seat_names: Sequence[str],
    *,
    extra_fields: Sequence[Field] = (),
    minimum: int | None = 0,
    label: str | None = None,
    seat_default: int = 0,
    moves_money: bool = False,
) -> ActionHint:
    """The host's form: target, seat, new value, reason (no old hidden value
    is shown: the host is usually a player too).  ``moves_money``: the
    dashboard asks for a confirmation (a correction of cash or gold moves
    money to or from the bank)."""
    fields: list[Field] = [
        Field(
            "value",
            CORE.says("core.correct_value"),
            "choice",
            tuple(Choice(t.key, CORE.says("core.correct_private", label=t.label) if t.hidden else t.label)
                  for t in targets),
        ),
    ]
    if any(t.seat for t in targets):
        fields.append(
            Field(
                "seat",
                CORE.says("core.correct_whose"),
                "choice",
                tuple(Choice(i, name) for i, name in enumerate(seat_names)),
                default=seat_default,
            )
        )
    fields.extend(extra_fields)
    fields.append(Field("to", CORE.says("core.correct_to"), "number", minimum=minimum, maximum=MAX_VALUE))
    fields.append(Field("reason", CORE.says("core.correct_reason"), "text"))
    return ActionHint(COMMAND, label or CORE.says("core.correct"), {}, tuple(fields), moves_money=moves_money)


def seat_arg(command: Command, seat_names: Sequence[str]) -> int:
    """The ``seat`` of a seat value: a seat number or name."""
    raw = command.arg("seat")
    if raw is None:
        raise InvalidCommand("'correct' needs 'seat' for a seat's value (a seat's name or number)")
    if isinstance(raw, int) and not isinstance(raw, bool):
        if 0 <= raw < len(seat_names):
            return raw
    elif isinstance(raw, str):
        text = raw.strip()
        low = text.lower()
        if low.startswith("seat:"):
            low = low[5:]
        if low.isdigit() and int(low) < len(seat_names):
            return int(low)
        for i, name in enumerate(seat_names):
            if name.lower() == text.lower():
                return i
    raise InvalidCommand(f"'correct': {raw!r} is not a seat ({', '.join(seat_names)})")
