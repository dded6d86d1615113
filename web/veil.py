"""The peek veil over a seat's secret numbers in its action forms.

A seat's phone keeps the seat's secrets veiled until the player peeks
(``live.js``): its private card, its private log lines, and in the action
forms every number a button, a label, a range or a reason says ("Gold (you
hold 23)", "1 to 23", "Accept Ann's deal (offer 1): Ann gives 5 gold") and
the number fields' values (a default may be the seat's whole purse).  A
form cannot tell which of its numbers are the seat's secrets and which are
public (a price, a lot: the table screen shows those), so on the seat's page
it veils them all.  The veiled number and its stand-in are drawn side by
side, and the page's CSS shows one of them: the number only while the seat
peeks, always shows its secrets, or fills in or sends that form."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from markupsafe import Markup, escape

#: a number as the games write it: 23, 2.5, 1,000
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
#: what stands for a veiled number: the same for every number (its width tells nothing)
VEIL_DOTS = "••"


def veil_numbers(text: Any) -> Markup:
    """``text`` (escaped) with each number in a ``secret-num`` span followed
    by its ``veil-dots`` stand-in."""
    raw = str(text if text is not None else "")
    out: list[str] = []
    at = 0
    for match in _NUMBER.finditer(raw):
        out.append(escape(raw[at:match.start()]))
        # a number is digits, dots and commas: nothing in it to escape
        out.append(f'<span class="secret-num">{match.group()}</span><span class="veil-dots">{VEIL_DOTS}</span>')
        at = match.end()
    out.append(escape(raw[at:]))
    return Markup("".join(out))


def words(text: Any, veil: bool = False) -> Markup:
    """Words that may carry a seat's secret number, as a page draws them:
    on the seat's own page (``veil``) each number veiled until the player
    peeks, elsewhere the words escaped.  A function, not a macro: every
    form's label, range and reason goes through it."""
    return veil_numbers(text) if veil else escape(text)


def init_app(app: Flask) -> None:
    app.jinja_env.filters["veil"] = veil_numbers
    app.jinja_env.globals["words"] = words
