"""Every game keeps its words in one place (its ``words.py``, ahead of the
French interface): every key a module says is in the game's table, every
word in the table is said somewhere, every template fills in from its own
named fields, and no other module of the game writes a sentence of its own
into an explanation line, a refusal, a button, a form field, a score line or
a rules option.

The scans read the games' source (``ast``): :func:`said_keys` the keys a
module passes to ``says(...)``, :func:`inline_speech` the calls that carry
words (``SPEAKERS``: which of their arguments are words) given a string
literal or an f-string instead.  A game's own page templates
(``web/templates/games/``) take their words from the same table
(``web/pagewords.py``): :func:`template_keys` reads the keys they say,
:func:`template_words` any word they write themselves."""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from types import ModuleType

import pytest

from companion.games.money_maker import words as money_maker
from companion.games.muell_money import words as muell_money
from companion.games.world_of_waste import words as world_of_waste

Speakers = Mapping[str, tuple[tuple[int, ...], tuple[str, ...]]]

#: what may not be given a sentence written inline in any game, and which of
#: its arguments (positions, keyword names) are words
SPEAKERS: Speakers = {
    "say": ((0,), ("text",)),
    "Explanation": ((0,), ("text",)),
    "IllegalMove": ((0,), ("message",)),
    "NotYourTurn": ((0,), ("message",)),
    "InvalidCommand": ((0,), ("message",)),
    "SetupError": ((0,), ("message",)),
    "Refusal": ((0,), ("message",)),
    "UnknownCard": ((0,), ()),
    "PositionError": ((1,), ()),  # (field, why): the field is a path in the block
    "ActionHint": ((1,), ("label", "reason")),
    "refused": ((1,), ("label",)),  # ActionHint.refused(command, label, refusal, ...)
    "Field": ((1,), ("label",)),
    "Choice": ((1,), ("label",)),
    "ScoreLine": ((0, 2), ("label", "detail")),
    "SeatScore": ((3,), ("tiebreak_label",)),
    "Target": ((1,), ("label",)),
    "RuleOption": ((1,), ("title", "why_default")),
    "Reading": ((1,), ("summary",)),
}


@dataclass(frozen=True)
class GameWords:
    """One game's words: its words module, the dict literals its table is
    made of (file: name), its own helpers whose argument goes into a sentence,
    and sample calls of those helpers (with the 1-based lines the scan must
    flag) that prove the scan sees them."""

    words: ModuleType
    tables: Mapping[str, str]
    helpers: Speakers = field(default_factory=dict)
    sample: str = ""
    flagged: tuple[int, ...] = ()
    #: (module, line) of an inline text that is allowed, with why; empty in every game
    allowed: Mapping[tuple[str, int], str] = field(default_factory=dict)
    #: the game's own page templates, under web/templates
    templates: tuple[str, ...] = ()

    @property
    def package(self) -> Path:
        return Path(str(self.words.__file__)).resolve().parent

    @property
    def modules(self) -> list[Path]:
        """Every module that speaks through the table (``citations.py`` is data, rule quotes)."""
        return sorted(p for p in self.package.glob("*.py") if p.name not in self.tables)

    @property
    def speakers(self) -> Speakers:
        return {**SPEAKERS, **self.helpers}


GAMES: dict[str, GameWords] = {
    "world-of-waste": GameWords(
        world_of_waste, {"words.py": "_PLAY", "hint_words.py": "HINT_SAYS", "page_words.py": "PAGE_SAYS"},
        templates=("games/world-of-waste.html", "games/world-of-waste-private.html", "games/world-of-waste-cards.html"),
        helpers={"StationLine": ((2,), ("detail",))},  # scoring.py: (code, points, detail), a station's score line
        sample='StationLine(FOOD_LINE, 3, f"{food} food")\nStationLine(FOOD_LINE, 3, detail="food")\n',
        flagged=(1, 2),
    ),
    # words.py (the words of play), hint_words.py (the buttons'), host_words.py (the host's) and
    # page_words.py (the pages'), merged into SAYS
    "money-maker": GameWords(
        money_maker, {"words.py": "_PLAY", "hint_words.py": "HINT_SAYS", "host_words.py": "HOST_SAYS",
                      "page_words.py": "PAGE_SAYS"},
        templates=("games/money-maker.html", "games/money-maker-private.html"),
        helpers={
            "correction_lines": ((1,), ("extra",)),  # (who, what, old, new, reason, extra=)
            "require_turn": ((3,), ()),  # (state, seat, phases, what)
            "enter_trade": ((2,), ()),  # (state, seat, what)
            "check_payment": ((), ("what",)),
            "seat_of": ((1,), ()),  # (move, what)
            "_in_run": ((1,), ()),  # (state, what)
            "start_bank_run": ((1,), ()),  # (state, trigger, ...)
            "move_chip": ((2,), ()),  # (state, spots, why, ...)
            "chip_line": ((2,), ()),  # (state, spots, what, rule)
            "lapse_offers": ((1,), ()),  # (state, why, lines)
        },
        sample=('require_turn(state, seat, (INVEST,), "buying goods")\n'
                'check_payment(state, seat, 3, payment, what=f"{n} goods")\n'
                'lines.extend(correction_lines(name, "gold", str(old), str(to), reason, extra=says("x")))\n'
                'start_bank_run(state, says("trigger"), TRADE, lines)\n'),
        flagged=(1, 2, 3),
    ),
    # the printed game's words, the rules options', the simulation variant's and the pages', merged into SAYS
    "muell-money": GameWords(
        muell_money, {"base_words.py": "BASE_SAYS", "option_words.py": "OPTION_SAYS", "words.py": "VARIANT_SAYS",
                      "page_words.py": "PAGE_SAYS"},
        templates=("games/muell-money.html", "games/muell-money-private.html"),
        helpers={
            "need_turn": ((3, 4), ()),  # (state, seat, phase, now, act, rule)
            "take_loans": ((4,), ("why",)),  # (state, seat, count, lines, why)
            "take_set": ((4,), ("how",)),  # (state, seat, col, lines, how)
            "refuse": ((0,), ()),  # corrections.py: refuse(why)
            "_hint": ((3,), ("label",)),  # hints.py: (state, move, command, label, ...)
            "_proposal": ((2,), ("summary",)),  # options.py: (key, number, summary, rule)
            "correction_lines": ((1, 2, 3), ("extra",)),  # (who, what, old, new, reason, extra=)
            "whole": ((3,), ()),  # position.py: Reader.whole(key, low, high, what)
            "pool_rest": ((), ("pool", "held_at", "holders", "unit")),  # position.py: the raw-material supply
        },
        sample=('need_turn(state, seat, Phase.PLAY, says("x"), "play a card", R.PLAY)\n'
                'take_loans(state, seat, 1, lines, " to pay")\n'
                'take_set(state, seat, col, lines, how=says("trigger", amount=money(3)))\n'),
        flagged=(1, 2),
    ),
}


# the scans ----------------------------------------------------------------------------
def call_name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _is_says(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and call_name(node.func) == "says"


def _key_nodes(node: ast.expr) -> Iterator[ast.expr]:
    """The expressions a ``says(...)`` key can take: a string, or either
    branch of ``"a" if c else "b"``."""
    if isinstance(node, ast.IfExp):
        yield from _key_nodes(node.body)
        yield from _key_nodes(node.orelse)
    else:
        yield node


def said_keys(source: str, where: str) -> list[str]:
    """Every key passed to ``says(...)`` in ``source``; a key that is not a
    string literal (so cannot be checked) fails."""
    keys: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if _is_says(node):
            assert isinstance(node, ast.Call)
            assert node.args, f"{where}:{node.lineno}: says() without a key"
            for key in _key_nodes(node.args[0]):
                assert isinstance(key, ast.Constant) and isinstance(key.value, str), (
                    f"{where}:{node.lineno}: says() with a key that is not a string literal: {ast.unparse(key)}"
                )
                keys.append(key.value)
    return keys


def inline_texts(node: ast.expr) -> Iterator[ast.expr]:
    """String literals and f-strings that make up the text ``node`` writes,
    except the keys of ``says(...)``.  An f-string anywhere counts; a string
    literal counts unless it is an argument of a call other than ``says``
    (``command.arg("seat")``: a key of data, not words), and a method called
    on one (``", ".join``) counts as the literal."""
    if isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        yield node
        return
    if isinstance(node, ast.Call):
        args = [*node.args, *(k.value for k in node.keywords)]
        if _is_says(node):  # the key is not words; the values filled in are
            for arg in args[1:]:
                yield from inline_texts(arg)
            return
        if isinstance(node.func, ast.Attribute):
            yield from inline_texts(node.func.value)
        for arg in args:
            if not isinstance(arg, ast.Constant):  # a constant: a key of data given to a function
                yield from inline_texts(arg)
        return
    if isinstance(node, ast.Subscript):  # s["paper"]: a key of data
        yield from inline_texts(node.value)
        return
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.expr):
            yield from inline_texts(child)


def inline_speech(source: str, speakers: Speakers) -> list[tuple[int, str]]:
    """(line, call) of every call in ``speakers`` whose words are (or contain)
    a string literal or an f-string instead of words from ``says``."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or call_name(node.func) not in speakers:
            continue
        positions, names = speakers[call_name(node.func)]
        texts = [node.args[i] for i in positions if i < len(node.args)]
        texts += [k.value for k in node.keywords if k.arg in names]
        if any(True for text in texts for _ in inline_texts(text)):
            found.append((node.lineno, ast.unparse(node)[:120]))
    return found


def table_keys(path: Path, name: str) -> list[str]:
    """The keys of the dict literal assigned to ``name`` in ``path``, as
    written (a key written twice shows twice)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    [table] = [
        node.value for node in tree.body
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name
    ]
    assert isinstance(table, ast.Dict)
    assert all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in table.keys), path.name
    return [k.value for k in table.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]


TEMPLATES = Path(__file__).resolve().parents[1] / "web" / "templates"
#: a key of the table as a template names it: the first argument of ``w.say``, or a
#: ``page_`` key written as data for it (``('hand', 'page_your_hand')``)
_TEMPLATE_KEY = re.compile(r"""\bw\.say\(\s*(['"])([^'"]*)\1|(['"])(page_[a-z0-9_]+)\3""")
_JINJA = re.compile(r"\{#.*?#\}|\{\{.*?\}\}|\{%.*?%\}", re.S)
_JINJA_STRING = re.compile(r"""(['"])(.*?)\1""")
#: attributes whose values a person reads (or hears)
_READ_ATTRIBUTES = ("title", "aria-label", "alt", "placeholder")


def template_keys(text: str) -> list[str]:
    return [m.group(2) or m.group(4) for m in _TEMPLATE_KEY.finditer(text)]


class _ReadText(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.read: list[str] = []

    def handle_data(self, data: str) -> None:
        self.read.append(data)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.read += [value or "" for name, value in attrs if name in _READ_ATTRIBUTES]


def template_words(text: str) -> list[str]:
    """Words a template writes itself: letters in its text or in an attribute a
    person reads (outside ``{{ }}`` and ``{% %}``), a string literal of its code
    that holds a capital or two words, and ``humanize`` (a code shown as it is)."""
    found = [f"humanize: {m.group(0)}" for m in re.finditer(r"humanize\([^)]*\)", text)]
    for code in re.findall(r"\{\{.*?\}\}|\{%.*?%\}", text, re.S):
        found += [f"in code: {m.group(0)}" for m in _JINJA_STRING.finditer(code)
                  if re.search(r"[A-Z]|[a-z] +[a-z]", m.group(2))]
    parser = _ReadText()
    parser.feed(_JINJA.sub(" ", text))
    found += [f"text: {piece.strip()}" for piece in parser.read if re.search(r"[A-Za-z]", piece)]
    return found


def _said(game: GameWords) -> list[tuple[str, str]]:
    said = [(path.name, key) for path in game.modules for key in said_keys(path.read_text(encoding="utf-8"), path.name)]
    return said + [(name, key) for name in game.templates
                   for key in template_keys((TEMPLATES / name).read_text(encoding="utf-8"))]


# the guard ----------------------------------------------------------------------------
def test_the_scans_find_what_they_look_for() -> None:
    """The scans can fail: they see an inline sentence and a key."""
    bad = (
        'raise IllegalMove(f"{name} cannot", RULE)\n'
        'raise NotYourTurn("not you", RULE)\n'
        'lines.append(say("Round " + str(n), RULE))\n'
        'raise PositionError("deck", "too big")\n'
        'raise IllegalMove(says("fine", seat=name), RULE)\n'
        'raise IllegalMove(says("a" if x else "b", where=" (it is here)"), RULE)\n'
        'hints.append(ActionHint("deal", f"Deal {name}", {"seat": s}, (Field("cards", "card ids", "text"),)))\n'
        'hints.append(ActionHint.refused("pick", says("pick"), refusal(state, seat, "pick", {})))\n'
        'Reading("end", "the game ends", (RULE,))\n'
        'RuleOption("x", says("t"), (), "end", why_default="because")\n'
        'raise SetupError("no")\n'
    )
    assert sorted(line for line, _ in inline_speech(bad, SPEAKERS)) == [1, 2, 3, 4, 6, 7, 7, 9, 10, 11]
    assert sorted(said_keys(bad, "sample")) == ["a", "b", "fine", "pick", "t"]
    with pytest.raises(AssertionError):
        said_keys('says(key_variable)', "sample")
    page = (
        '<span class="chip">Deck {{ gv.deck }}</span>\n'
        '<span title="Food waste">{{ w.say(\'page_deck\', count=gv.deck) }}</span>\n'
        "<th>{{ w.say('page_round') }}</th>{{ humanize(gv.phase) }} · {{ x if y else 'no bid yet' }}\n"
        "{% for key, label in [('hand', 'page_your_hand')] %}{{ w.say(label) }}{% endfor %} — ✓ #{{ n }}\n"
    )
    assert sorted(template_keys(page)) == ["page_deck", "page_round", "page_your_hand"]
    assert [w.split(":")[0] for w in template_words(page)] == ["humanize", "in code", "text", "text"]


@pytest.mark.parametrize("name", [n for n, g in GAMES.items() if g.sample])
def test_the_scans_see_a_games_own_helpers(name: str) -> None:
    game = GAMES[name]
    assert sorted({line for line, _ in inline_speech(game.sample, game.speakers)}) == list(game.flagged)
    assert sorted({line for line, _ in inline_speech(game.sample, SPEAKERS)}) == []


@pytest.mark.parametrize("name", GAMES)
def test_the_table_names_each_key_once(name: str) -> None:
    """A key written twice in a dict literal, or in two parts of the table,
    would silently lose its first sentence."""
    game = GAMES[name]
    keys = [key for file, table in game.tables.items() for key in table_keys(game.package / file, table)]
    assert len(keys) == len(set(keys)) == len(game.words.SAYS)


@pytest.mark.parametrize("name", GAMES)
def test_every_key_said_is_in_the_table(name: str) -> None:
    game = GAMES[name]
    assert [f"{where}: {key}" for where, key in _said(game) if key not in game.words.SAYS] == []


@pytest.mark.parametrize("name", GAMES)
def test_every_word_in_the_table_is_said_somewhere(name: str) -> None:
    game = GAMES[name]
    assert sorted(set(game.words.SAYS) - {key for _, key in _said(game)}) == []


@pytest.mark.parametrize(("name", "key"), [(n, k) for n, g in GAMES.items() for k in sorted(g.words.SAYS)])
def test_every_template_fills_in_from_its_own_named_fields(name: str, key: str) -> None:
    """Only named fields; filled from them; a field left out raises instead of vanishing from the sentence."""
    says = GAMES[name].words.says
    template = GAMES[name].words.SAYS[key]
    fields = [f for _, f, _, _ in string.Formatter().parse(template) if f is not None]
    assert all(f.isidentifier() for f in fields), f"{key}: positional or indexed field in {template!r}"
    says(key, **{f: 1 for f in fields})  # 1: fits "{n}", "{n!r}" and "{n:+d}" alike
    if fields:
        with pytest.raises(KeyError):
            says(key)


@pytest.mark.parametrize("name", GAMES)
def test_no_module_but_words_writes_its_own_sentences(name: str) -> None:
    game = GAMES[name]
    found = [f"{path.name}:{line}: {call}" for path in game.modules
             for line, call in inline_speech(path.read_text(encoding="utf-8"), game.speakers)
             if (path.name, line) not in game.allowed]
    assert not found, "\n".join(found)


def test_muell_money_edition_problems_are_words_from_the_table() -> None:
    """components.py tells what is wrong with an edition file in words from the table too."""
    source = (GAMES["muell-money"].package / "components.py").read_text(encoding="utf-8")
    found = [
        node.lineno for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "append"
        and isinstance(node.func.value, ast.Name) and node.func.value.id == "problems"
        and any(True for arg in node.args for _ in inline_texts(arg))
    ]
    assert found == []


@pytest.mark.parametrize("name", [n for n, g in GAMES.items() if g.templates])
def test_a_games_page_templates_write_no_words_of_their_own(name: str) -> None:
    """Every word a game's own templates show comes from the game's table
    (``w.say``) or is a name of a code (``w.named``), so a translation of the
    game's words translates its board too."""
    found = [f"{template}: {word}" for template in GAMES[name].templates
             for word in template_words((TEMPLATES / template).read_text(encoding="utf-8"))]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("name", [n for n, g in GAMES.items() if g.templates])
def test_every_code_kind_a_template_names_is_in_the_games_names(name: str) -> None:
    game = GAMES[name]
    kinds = {m.group(2) for template in game.templates
             for m in re.finditer(r"""w\.named\(\s*(['"])([^'"]+)\1""", (TEMPLATES / template).read_text(encoding="utf-8"))}
    assert kinds <= set(game.words.NAMES), kinds - set(game.words.NAMES)
