"""The pages' own words: the gettext domain ``web``.

The templates say their English as ``{{ _("Cancel") }}``,
``{{ _("Rules of %(title)s", title=view.title) }}`` or ``{% trans %}`` blocks
(Jinja's ``jinja2.ext.i18n``, newstyle: the callables fill in ``%(name)s``
themselves and escape what they fill in), ``ngettext`` where a count decides
the form and ``pgettext`` where one English word has two meanings; the pages'
Python says its messages for people (flash messages, refusal and error
pages) with :func:`_`, :func:`ngettext`, :func:`pgettext` and
:func:`npgettext` here, filled in with ``str.format`` (``{name}``).  Every one
is looked up in the language spoken now (:func:`companion.languages.current`)
in ``companion/locale/<lang>/LC_MESSAGES/web.po`` (a sentence with no context
under key ``""``), and said in English where it is not translated.

``make catalogs`` extracts them (``companion/locale/web.cfg``): the Python
with pybabel's own extractor, the templates with Jinja's, and the tables of
sentences (web/pieces.py's ``WORDS``, companion/store_words.py) through
their ``CATALOG_TABLES`` (:mod:`companion.extract`), each under its key as
the context (:func:`said`).
"""

from __future__ import annotations

from typing import Any

from jinja2 import Environment
from jinja2.nodes import EvalContext
from jinja2.utils import pass_eval_context
from markupsafe import Markup

from companion import languages

#: the pages' gettext domain
DOMAIN = "web"


def gettext(message: str) -> str:
    """``message`` (no context) in the language spoken now."""
    if languages.current() == languages.SOURCE:
        return message
    return languages.words_for(DOMAIN, "", message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the language spoken now."""
    return languages.words_for(DOMAIN, "", (singular, plural), _count(n))


def pgettext(context: str, message: str) -> str:
    """``message`` in ``context`` (one English word, two meanings)."""
    return languages.words_for(DOMAIN, context or "", message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return languages.words_for(DOMAIN, context or "", (singular, plural), _count(n))


def _count(n: Any) -> int:
    try:
        return int(n)
    except (TypeError, ValueError):
        return 1


def _(message: str, /, **values: Any) -> str:
    """The Python side's ``_()``: ``message`` in the language spoken now,
    filled in with ``values`` (``{name}``, as ``str.format``)."""
    text = gettext(message)
    return text.format(**values) if values else text


def N_(message: str) -> str:
    """``message`` marked for extraction and said later (``_(CONSTANT)``):
    a sentence kept in a module's constant."""
    return message


def said(context: str, english: str, /, **values: Any) -> str:
    """A sentence of a table (``CATALOG_TABLES``: its key is its context),
    in the language spoken now, filled in with ``values`` (``{name}``)."""
    text = pgettext(context, english)
    return text.format(**values) if values else text


# the templates' callables -----------------------------------------------------------
# Jinja's own newstyle callables take the whole template context
# (``pass_context``), and a context-taking call inside a block or a loop with
# variables of its own copies that context first (``Context.derived``): on a
# live page of a full table that was a fifth of the host view's drawing.
# These take only the evaluation context (is autoescape on?), which Jinja
# hands over as it is.
def _filled(eval_ctx: EvalContext, text: str, values: dict[str, Any]) -> str:
    rv: str = Markup(text) if eval_ctx.autoescape else text
    return rv % values  # newstyle: always a format string, what it fills in escaped


#: a template's English sentence without values, as it is drawn (most of a
#: page's words: made Markup and formatted once, not at every drawing; a
#: translation is looked up each time, as a catalog may be read again)
_PLAIN: dict[tuple[str, bool], str] = {}
PLAIN_KEPT = 4096


@pass_eval_context
def _template_gettext(eval_ctx: EvalContext, message: str, /, **values: Any) -> str:
    if values or languages.current() != languages.SOURCE:
        return _filled(eval_ctx, gettext(message), values)
    key = (message, eval_ctx.autoescape)
    found = _PLAIN.get(key)
    if found is None:
        if len(_PLAIN) >= PLAIN_KEPT:
            _PLAIN.clear()
        found = _PLAIN[key] = _filled(eval_ctx, message, values)
    return found


@pass_eval_context
def _template_ngettext(eval_ctx: EvalContext, singular: str, plural: str, n: int, /, **values: Any) -> str:
    values.setdefault("num", n)
    return _filled(eval_ctx, ngettext(singular, plural, n), values)


@pass_eval_context
def _template_pgettext(eval_ctx: EvalContext, context: str, message: str, /, **values: Any) -> str:
    values.setdefault("context", context)
    return _filled(eval_ctx, pgettext(context, message), values)


@pass_eval_context
def _template_npgettext(eval_ctx: EvalContext, context: str, singular: str, plural: str, n: int, /,
                        **values: Any) -> str:
    values.setdefault("context", context)
    values.setdefault("num", n)
    return _filled(eval_ctx, npgettext(context, singular, plural, n), values)


def install(env: Environment) -> None:
    """Jinja's i18n extension in ``env`` (``{% trans %}``, newstyle), its
    callables these: each fills in ``%(name)s`` itself and escapes what it
    fills in, as Jinja's newstyle ones do, without taking the template's
    context."""
    env.add_extension("jinja2.ext.i18n")
    env.globals.update(_=_template_gettext, gettext=_template_gettext, ngettext=_template_ngettext,
                       pgettext=_template_pgettext, npgettext=_template_npgettext)
    env.newstyle_gettext = True  # type: ignore[attr-defined]
