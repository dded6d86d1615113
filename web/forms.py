"""From a posted action form to a command's arguments.

Every action form carries the hint it was drawn from: ``command``, the
hint's fixed ``args`` (as JSON) and the ``state_no`` the page showed; the
fields' values arrive as ``f.<name>``.  The posted hint is looked up among
the actions the actor has *now*, so a form can only send what the game
offers, and each value is checked against its field (a number in range, one
of the choices).  Anything else is a :class:`FormError`: a 400 with a
message.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from companion import jsontext

FIELD_PREFIX = "f."
MAX_TEXT = 200


class FormLike(Protocol):
    def getlist(self, key: str) -> list[str]: ...

    def __getitem__(self, key: str) -> str: ...

    def __contains__(self, key: object) -> bool: ...


def _get(form: FormLike, key: str, default: Any = None) -> Any:
    return form[key] if key in form else default  # noqa: SIM401 (FormLike has no get)


class FormError(ValueError):
    """Bad form input: answered with 400 and this message."""


@dataclass(frozen=True)
class Posted:
    command: str
    args: dict[str, Any]
    state_no: int
    confirmed: bool


def read_posted(form: FormLike) -> Posted:
    command = _get(form, "command")
    if not isinstance(command, str) or not command.strip() or len(command) > 100:
        raise FormError("the form names no action")
    raw_args = _get(form, "args", "{}") or "{}"
    try:
        args = jsontext.loads(str(raw_args))
    except jsontext.JSONRefused:
        raise FormError("the form's action arguments are not readable") from None
    if not isinstance(args, dict):
        raise FormError("the form's action arguments are not readable")
    return Posted(command.strip(), args, read_state_no(form), _get(form, "confirmed") in ("1", "yes"))


def read_state_no(form: FormLike) -> int:
    raw = _get(form, "state_no")
    try:
        value = int(str(raw))
    except (TypeError, ValueError):
        raise FormError("the form does not say which state it was made for; reload the page") from None
    if value < 0:
        raise FormError("the form's state number is not valid")
    return value


def find_hint(hints: Sequence[Mapping[str, Any]], command: str, args: Mapping[str, Any]) -> Mapping[str, Any] | None:
    for hint in hints:
        if hint["command"] == command and _same(hint.get("args", {}), args):
            return hint
    return None


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)


def field_values(hint: Mapping[str, Any], form: FormLike) -> dict[str, Any]:
    """The values of the hint's fields, checked against each field."""
    out: dict[str, Any] = {}
    for spec in hint.get("fields", []):
        name = spec["name"]
        key = FIELD_PREFIX + name
        label = spec.get("label") or name
        kind = spec.get("kind", "choice")
        if kind == "multi":
            out[name] = [_choice(spec, raw, label) for raw in form.getlist(key)]
            continue
        raw = _get(form, key)
        if raw is None or str(raw).strip() == "":
            if spec.get("default") is not None:
                out[name] = spec["default"]
                continue
            raise FormError(f"'{label}' needs a value")
        text = str(raw).strip()
        if kind == "number":
            out[name] = _number(spec, text, label)
        elif kind == "text":
            if len(text) > MAX_TEXT:
                raise FormError(f"'{label}' is longer than {MAX_TEXT} characters")
            out[name] = text
        else:
            out[name] = _choice(spec, text, label)
    return out


def _number(spec: Mapping[str, Any], text: str, label: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise FormError(f"'{label}' must be a whole number, not {text[:30]!r}") from None
    lo, hi = spec.get("minimum"), spec.get("maximum")
    if lo is not None and value < lo:
        raise FormError(f"'{label}' must be at least {lo}")
    if hi is not None and value > hi:
        raise FormError(f"'{label}' must be at most {hi}")
    return value


def _choice(spec: Mapping[str, Any], text: str, label: str) -> Any:
    for choice in spec.get("choices", []):
        if str(choice["value"]) == str(text).strip():
            return choice["value"]
    raise FormError(f"{str(text)[:30]!r} is not one of the choices for '{label}'")
