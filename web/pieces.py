"""The pieces every live page draws most, written in Python rather than as
Jinja macros: an action form and its fields, a log entry, a citation.

A page draws them at every state (a seat's changed form, each page's new log
entry), and a macro call costs more than the few lines it writes: Jinja
builds a frame, a caller and its arguments for each.  These give the same
HTML the macros gave, and keep what they draw where the macros kept it
(``{% memo %}``'s parts, web/memo.py): a form once per distinct content
(:func:`web.memo.action_key`), each of its fields once
(:func:`web.memo.field_key`), so from one state to the next a page draws
only what changed.  The templates call them as globals: ``action(h, url,
state_no, actor, veil)``, ``log_entry(entry, step_base)``, ``cite(c)``.

The words a player reads here (the steppers' "one less" and "one more",
"Look back at step") are in :data:`WORDS`, said in the language spoken
(the gettext domain ``web``, each under ``pieces.<key>`` as its context:
:data:`CATALOG_TABLES` is how ``make catalogs`` finds them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, current_app, url_for
from markupsafe import Markup, escape

from companion.rule_languages import seed_language
from web.common import actor_label, csrf_token, dom_id, state_field, to_json, unique_citations
from web.forms import FIELD_PREFIX
from web.i18n import said
from web.memo import action_key, field_key, form_id
from web.veil import words

#: the words these pieces write of their own
WORDS = {
    "one_less": "one less",
    "one_more": "one more",
    "to": "{low} to {high}",
    "at_least": "at least {low}",
    "up_to": "up to {high}",
    "look_back": "Look back at step {seq}",
}

#: the table above, extracted into the ``web`` domain (companion/extract.py)
CATALOG_TABLES = {"domain": "web", "tables": {"pieces.": WORDS}}


def _say(key: str, /, **values: Any) -> str:
    """``WORDS[key]`` in the language spoken, filled in with ``values``."""
    return said("pieces." + key, WORDS[key], **values)


def _text(value: Any) -> str:
    """A value written as a template writes ``{{ value }}``: escaped."""
    return str(escape(value))


def _kept(key: str) -> Any:
    return current_app.jinja_env.memo_parts.get(key) if key else None  # type: ignore[attr-defined]


def _keep(key: str, drawn: str) -> None:
    if key:
        current_app.jinja_env.memo_parts.put(key, drawn)  # type: ignore[attr-defined]


# citations -----------------------------------------------------------------------------
def cite(c: Mapping[str, Any]) -> Markup:
    """A citation chip: the seed and section (in the seed's language, its
    ``lang``), linked to the rule's text."""
    href = url_for("screen.rule", seed=c.get("seed"), section=c.get("section"), quote=c.get("quote", ""))
    return Markup(f'<a class="cite" href="{_text(href)}" lang="{seed_language(str(c.get("seed")))}" '
                  f'title="{_text(c.get("file", c.get("seed")))}: '
                  f'{_text(c.get("section"))}">{_text(c.get("seed"))} · {_text(c.get("section"))}</a>')


def _cites(citations: Any) -> str:
    return "".join(" " + cite(c) for c in unique_citations(citations))


# the log -------------------------------------------------------------------------------
def log_entry(entry: Mapping[str, Any], step_base: Any = None) -> Markup:
    """One entry of a log, as its viewer sees it: who, its lines with their
    citations (a seat's private lines marked), and with ``step_base`` its
    link to look back at that step."""
    classes = "log-entry" + (" undone" if entry.get("undone") else "") + (" undo" if entry.get("kind") == "undo" else "")
    out = [f'<li class="{classes}">\n']
    seq = entry.get("seq")
    if step_base:
        out.append(f'<a class="step-link" href="{_text(step_base)}{_text(seq)}" '
                   f'title="{_text(_say("look_back", seq=seq))}">#{_text(seq)}</a> ')
    out.append(f'<span class="log-who">{_text(actor_label(entry.get("actor"), entry.get("source")))}</span>\n')
    for line in entry.get("lines") or ():
        private = " private" if "audience" in line else ""
        out.append(f'      <p class="log-line{private}">{_text(line.get("text"))}\n'
                   f'{_cites(line.get("citations"))}</p>\n')
    out.append("  </li>")
    return Markup("".join(out))


# action forms --------------------------------------------------------------------------
def action(h: Mapping[str, Any], url: str, state_no: int, actor: str = "", veil: bool = False) -> Markup:
    """An action's button, or its form when it has fields (folded away under
    its button when it has more than two).  ``actor``: who the host acts
    for (``host``, ``chance``); ``veil``: the seat's own page, its numbers
    veiled until the player peeks (web/veil.py)."""
    form = action_form(h, url, state_no, actor, veil)
    if h.get("enabled") and len(h.get("fields") or ()) > 2:
        return Markup(f'<details class="act-more" data-key="{_text(h.get("command"))}{_text(to_json(h.get("args")))}">\n'
                      f'  <summary class="big button">{words(h.get("label"), veil)} …</summary>\n'
                      f"  {form}\n</details>\n")
    return form


def action_form(h: Mapping[str, Any], url: str, state_no: int, actor: str = "", veil: bool = False) -> Markup:
    """An action's form, drawn once per distinct content (all but its state
    number and CSRF token, written after it, so a form drawn at one state
    serves the next); its fields are named under the form's id, the same
    while it is the same action, so a form whose numbers changed draws only
    the fields that did."""
    key = action_key(h, url, actor, veil)
    body = _kept(key)
    if body is None:
        body = _form_body(h, url, actor, veil, key)
        _keep(key, body)
    return Markup(f'{body}  <input type="hidden" name="csrf" value="{_text(csrf_token())}">\n'
                  f"  {state_field(state_no)}\n</form>")


def _form_body(h: Mapping[str, Any], url: str, actor: str, veil: bool, key: str) -> str:
    money, enabled, fields = bool(h.get("moves_money")), bool(h.get("enabled")), h.get("fields") or ()
    command, args = _text(h.get("command")), _text(to_json(h.get("args")))
    classes = "act" + (" money" if money else "") + ("" if enabled else " disabled") + (" has-fields" if fields else "")
    confirm = ("data-confirm-label" if veil else f'data-confirm="{_text(h.get("label"))}"') if money else ""
    out = [f'<form class="{classes}" method="post" action="{_text(url)}"\n{confirm} data-key="{command}{args}">\n'
           f'  <input type="hidden" name="command" value="{command}">\n'
           f'  <input type="hidden" name="args" value="{args}">\n']
    if actor:
        out.append(f'<input type="hidden" name="actor" value="{_text(actor)}">')
    if fields and enabled:
        fid = form_id(h, url, actor) if key else dom_id("form")
        out.append('<div class="fields">')
        for n, f in enumerate(fields, 1):
            id_ = f"{fid}-{n}"
            fkey = field_key(f, veil, id_) if key else ""
            drawn = _kept(fkey)
            if drawn is None:
                drawn = field_input(f, veil, id_)
                _keep(fkey, drawn)
            out.append(drawn)
        out.append("</div>")
    coin = '<span class="coin" aria-hidden="true">€</span>' if money else ""
    out.append(f'  <button class="big{" money" if money else ""}" {"" if enabled else "disabled"}>'
               f'{coin}{words(h.get("label"), veil)}</button>\n')
    if not enabled and h.get("reason"):
        out.append(f'<p class="reason">{words(h.get("reason"), veil)}{_cites(h.get("rules"))}</p>')
    return Markup("".join(out))


def field_input(f: Mapping[str, Any], veil: bool, fid: str) -> Markup:
    """One input of a form: a number with its steppers (``fid``, unique
    within the page, names it and its label), a text, a set of pills to
    tick (``multi``) or to pick one of, or a list to pick from when the
    choices are many."""
    name = _text(FIELD_PREFIX + str(f.get("name")))
    label = words(f.get("label"), veil)
    kind, default = f.get("kind"), f.get("default")
    choices = f.get("choices") or ()
    if kind == "number":
        return Markup(_number_input(f, veil, fid, name, label))
    if kind == "text":
        return Markup(f'  <label class="field"><span>{label}</span><input type="text" name="{name}" maxlength="200" '
                      f'value="{_text(default or "")}"></label>\n')
    if kind == "multi":
        ticked = default if isinstance(default, list | tuple) else [default]
        pills = "".join(
            f'    <label class="pill"><input type="checkbox" name="{name}" value="{_text(c.get("value"))}" '
            f'{"checked" if default is not None and c.get("value") in ticked else ""}>'
            f'<span>{_text(c.get("label"))}</span></label>\n' for c in choices)
        return Markup(f'  <fieldset class="field pills"><legend>{label}</legend>\n{pills}  </fieldset>\n')
    if len(choices) <= 12:
        pills = "".join(
            f'    <label class="pill"><input type="radio" name="{name}" value="{_text(c.get("value"))}" '
            f'{"checked" if _picked(c, n, default, choices) else ""} required>'
            f'<span>{_text(c.get("label"))}</span></label>\n' for n, c in enumerate(choices))
        return Markup(f'  <fieldset class="field pills"><legend>{label}</legend>\n{pills}  </fieldset>\n')
    options = "".join(
        f'<option value="{_text(c.get("value"))}" {"selected" if c.get("value") == default else ""}>'
        f'{_text(c.get("label"))}</option>' for c in choices)
    return Markup(f'  <label class="field"><span>{label}</span>\n    <select name="{name}" required>\n'
                  f"{options}    </select>\n  </label>\n")


def _picked(c: Mapping[str, Any], n: int, default: Any, choices: Any) -> bool:
    """A pill picked at first: the default, or the only choice when there is no default."""
    if default is not None:
        return bool(c.get("value") == default)
    return n == 0 and len(choices) == 1


def _number_input(f: Mapping[str, Any], veil: bool, fid: str, name: str, label: Markup) -> str:
    low, high, default = f.get("minimum"), f.get("maximum"), f.get("default")
    value = default if default is not None else (low if low is not None else 0)
    if low is not None and high is not None:
        span = _say("to", low=low, high=high)
    elif low is not None:
        span = _say("at_least", low=low)
    elif high is not None:
        span = _say("up_to", high=high)
    else:
        span = None
    fid = _text(fid)
    secret = ' class="secret-value"' if veil else ""
    bounds = (f'min="{_text(low)}"' if low is not None else "") + " " + (f'max="{_text(high)}"' if high is not None else "")
    described = f' aria-describedby="{fid}-range"' if span is not None else ""
    small = f'<small class="muted" id="{fid}-range">{words(span, veil)}</small>' if span is not None else ""
    return (f'  <div class="field number"><label for="{fid}" id="{fid}-label">{label}</label>\n'
            f'    <span class="stepper">\n'
            f'      <button type="button" class="step" data-step="-1" aria-controls="{fid}" '
            f'aria-labelledby="{fid}-label {fid}-less">−</button>\n'
            f'      <input id="{fid}"{secret} type="number" '
            f'inputmode="numeric" name="{name}" {bounds} value="{_text(value)}" required{described}>\n'
            f'      <button type="button" class="step" data-step="1" aria-controls="{fid}" '
            f'aria-labelledby="{fid}-label {fid}-more">+</button>\n'
            f'      <span hidden id="{fid}-less">{_text(_say("one_less"))}</span>'
            f'<span hidden id="{fid}-more">{_text(_say("one_more"))}</span>\n'
            f"    </span>\n{small}  </div>\n")


def init_app(app: Flask) -> None:
    app.jinja_env.globals.update(action=action, log_entry=log_entry, cite=cite)
