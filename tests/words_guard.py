"""The scans behind each game's words guard (``tests/<game>/test_words.py``):
which keys a module says, and which explanation lines, refusals, buttons,
fields, score lines or rules options a module writes inline instead of
taking their words from its game's table.  ``sayers`` are the names of the
functions that fill in a key (``says``);
``speakers`` map each call that carries words to the arguments (positions,
keyword names) that are words."""

from __future__ import annotations

import ast
import string
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path

import pytest

Sayers = tuple[str, ...]
Speakers = Mapping[str, tuple[tuple[int, ...], tuple[str, ...]]]


def call_name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _is_says(node: ast.AST, sayers: Sayers) -> bool:
    return isinstance(node, ast.Call) and call_name(node.func) in sayers


def key_nodes(node: ast.expr) -> Iterator[ast.expr]:
    """The expressions a ``says(...)`` key can take: a string, or either
    branch of ``"a" if c else "b"``."""
    if isinstance(node, ast.IfExp):
        yield from key_nodes(node.body)
        yield from key_nodes(node.orelse)
    else:
        yield node


def said_keys(source: str, where: str, sayers: Sayers = ("says",)) -> list[str]:
    """Every key passed to ``says(...)`` in ``source``; a key that is not a
    string literal (so cannot be checked) fails."""
    keys: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if _is_says(node, sayers):
            assert isinstance(node, ast.Call)
            assert node.args, f"{where}:{node.lineno}: says() without a key"
            for key in key_nodes(node.args[0]):
                assert isinstance(key, ast.Constant) and isinstance(key.value, str), (
                    f"{where}:{node.lineno}: says() with a key that is not a string literal: {ast.unparse(key)}"
                )
                keys.append(key.value)
    return keys


def inline_texts(node: ast.expr, sayers: Sayers) -> Iterator[ast.expr]:
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
        if _is_says(node, sayers):  # the key is not words; the values filled in are
            for arg in args[1:]:
                yield from inline_texts(arg, sayers)
            return
        if isinstance(node.func, ast.Attribute):
            yield from inline_texts(node.func.value, sayers)
        for arg in args:
            if not isinstance(arg, ast.Constant):  # a constant: a key of data given to a function
                yield from inline_texts(arg, sayers)
        return
    if isinstance(node, ast.Subscript):  # s["paper"]: a key of data
        yield from inline_texts(node.value, sayers)
        return
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.expr):
            yield from inline_texts(child, sayers)


def inline_speech(source: str, speakers: Speakers, sayers: Sayers = ("says",)) -> list[tuple[int, str]]:
    """(line, call) of every explanation line, refusal, button, field, score
    line or rules option whose words are (or contain) a string literal or an
    f-string instead of words from ``says``."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or call_name(node.func) not in speakers:
            continue
        positions, names = speakers[call_name(node.func)]
        texts = [node.args[i] for i in positions if i < len(node.args)]
        texts += [k.value for k in node.keywords if k.arg in names]
        if any(True for text in texts for _ in inline_texts(text, sayers)):
            found.append((node.lineno, ast.unparse(node)[:120]))
    return found


# the checks each game's guard makes ----------------------------------------------------
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


def unknown_keys(modules: Iterable[Path], table: Mapping[str, str], sayers: Sayers) -> list[str]:
    """``module: key`` for every key a module says that the table lacks."""
    return [f"{path.name}: {key}" for path in modules
            for key in said_keys(path.read_text(encoding="utf-8"), path.name, sayers) if key not in table]


def unsaid_keys(modules: Iterable[Path], table: Mapping[str, str], sayers: Sayers) -> list[str]:
    """The table's keys no module says."""
    used = {key for path in modules for key in said_keys(path.read_text(encoding="utf-8"), path.name, sayers)}
    return sorted(set(table) - used)


def check_template(key: str, table: Mapping[str, str], says: Callable[..., str]) -> None:
    """``table[key]`` has only named fields, fills in from them, and a field
    left out raises instead of vanishing from the sentence."""
    template = table[key]
    fields = [name for _, name, _, _ in string.Formatter().parse(template) if name is not None]
    assert all(name.isidentifier() for name in fields), f"{key}: positional or indexed field in {template!r}"
    says(key, **{name: 1 for name in fields})  # 1: fits "{n}", "{n!r}" and "{n:+d}" alike
    if fields:
        with pytest.raises(KeyError):
            says(key)


def inline_sentences(modules: Iterable[Path], speakers: Speakers, sayers: Sayers,
                     allowed: Mapping[tuple[str, int], str]) -> list[str]:
    """``module:line: call`` for every sentence a module writes inline (not
    in ``allowed``)."""
    return [f"{path.name}:{line}: {call}" for path in modules
            for line, call in inline_speech(path.read_text(encoding="utf-8"), speakers, sayers)
            if (path.name, line) not in allowed]
