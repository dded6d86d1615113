"""JSON from outside the companion (play scripts, edition files, a form's
action arguments), read with limits a table's data never comes near.

Python's ``json.loads`` accepts things that later crash the companion:
``-Infinity`` and ``NaN`` (a float where a count is expected), integers of
thousands of digits (``int()`` refuses more than 4300 digits with a
``ValueError`` that is not a ``JSONDecodeError``) and nesting deep enough for
a ``RecursionError``, in the parser or in whatever walks the result next.
:func:`loads` refuses each of them with a :class:`JSONRefused` that says
where, before anything is built from the text.  :func:`item_lines` says on
which line of the text each item of a list begins, for a message that points
into the file (``companion play``'s "command 15 (line 40 of the file)").
"""

from __future__ import annotations

import json
import re
from typing import Any

#: deeper than any script, edition file or form the games write (they use 4-6)
MAX_DEPTH = 32
#: digits of the longest integer taken (64-bit; a table's numbers are far smaller)
MAX_INT_DIGITS = 20
#: characters of the longest number of any kind (a float's digits and exponent)
MAX_NUMBER_CHARS = 40

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


class JSONRefused(ValueError):
    """Text that is not JSON the companion takes; the message says why."""


def nesting_depth(text: str) -> int:
    """How deeply arrays and objects nest in ``text`` (strings skipped), in
    one pass that cannot recurse; unbalanced text is left to the parser."""
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRING.sub("", text)):
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _int(text: str) -> int:
    digits = text.lstrip("-")
    if len(digits) > MAX_INT_DIGITS:
        raise JSONRefused(f"a number with {len(digits)} digits (at most {MAX_INT_DIGITS} are taken)")
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_NUMBER_CHARS:
        raise JSONRefused(f"a number written with {len(text)} characters (at most {MAX_NUMBER_CHARS})")
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise JSONRefused(f"the number {text[:20]} is too large")
    return value


def _constant(name: str) -> Any:
    raise JSONRefused(f"{name} is not a number the companion takes (write a plain number)")


def loads(text: str | bytes, *, max_depth: int = MAX_DEPTH) -> Any:
    """Parse ``text`` as JSON or raise :class:`JSONRefused` (never another
    exception for any input): no NaN or infinities, no huge numbers, at most
    ``max_depth`` levels of arrays and objects."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as err:
            raise JSONRefused(f"not UTF-8 text (byte {err.start})") from None
    depth = nesting_depth(text)
    if depth > max_depth:
        raise JSONRefused(f"arrays and objects nest {depth} deep (at most {max_depth})")
    try:
        return json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except JSONRefused:
        raise
    except json.JSONDecodeError as err:
        raise JSONRefused(f"not valid JSON: line {err.lineno}, column {err.colno}: {err.msg}") from None
    except (ValueError, RecursionError) as err:  # belt and braces: nothing else may escape
        raise JSONRefused(f"not valid JSON: {type(err).__name__}") from None


_SPACE = re.compile(r"[ \t\n\r]*")


def item_lines(text: str, key: str) -> list[int]:
    """The line (counted from 1) on which each item of the list ``key`` of
    the top-level object begins, or ``[]`` when ``text`` holds no such list.
    Meant for text :func:`loads` took: anything else gives ``[]``, never an
    exception.  With ``key`` written twice, the last one counts (as in
    :func:`loads`)."""
    decoder = json.JSONDecoder()

    def skip(at: int) -> int:
        found = _SPACE.match(text, at)
        return at if found is None else found.end()

    starts: list[int] = []
    try:
        at = skip(0)
        if text[at : at + 1] != "{":
            return []
        at = skip(at + 1)
        while text[at : at + 1] == '"':
            name, at = decoder.raw_decode(text, at)
            at = skip(at)
            if text[at : at + 1] != ":":
                return []
            at = skip(at + 1)
            if name == key and text[at : at + 1] == "[":
                starts = []
                at = skip(at + 1)
                while text[at : at + 1] != "]":
                    starts.append(at)
                    _item, at = decoder.raw_decode(text, at)
                    at = skip(at)
                    if text[at : at + 1] == ",":
                        at = skip(at + 1)
                    elif text[at : at + 1] != "]":
                        return []
                at += 1
            else:
                _value, at = decoder.raw_decode(text, at)
            at = skip(at)
            if text[at : at + 1] == ",":
                at = skip(at + 1)
            elif text[at : at + 1] != "}":
                return []
        if text[at : at + 1] != "}" or skip(at + 1) != len(text):
            return []
    except (ValueError, RecursionError):
        return []
    lines: list[int] = []
    line, counted = 1, 0
    for start in starts:
        line += text.count("\n", counted, start)
        counted = start
        lines.append(line)
    return lines
