"""World of Waste in French: every documented example script played while
French is spoken (``languages.speaking("fr")``).

* every explanation line, refusal, view, hint and score-sheet string is
  drawn from the French catalogs: no key a catalog lacks (the
  :func:`companion.messages.unknown` fallback), no template, piece, name or
  card type that falls back to its English;
* no English sentence is left: each line drawn in French differs from its
  English draw, except where all the two share is seat names, numbers, card
  ids and the few card names French spells as English does (:data:`SAME`);
* what is stored does not depend on the language: the French play stores
  the very lines the English play stores, and a line drawn in French and
  then in English reads as the English play said it;
* the core's undo line reads in French too.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from companion import languages
from companion.cli import run_script
from companion.commands import CHANCE, HOST, Actor, ActorKind
from companion.games.base import HOST_SCREEN, TABLE_SCREEN, seat_viewer
from companion.games.world_of_waste.words import WORDS
from companion.messages import CORE, JOINED, NAMED, PIECE, TERM, Catalog, Said
from companion.store import Store
from companion.table import Accepted, Room, Table

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("world-of-waste*.json"))
#: the words French writes as English does (card types and a score line:
#: Compost, Textile), all a French line may share with its English besides
#: seat names, numbers and card ids
SAME = frozenset({"Compost", "Composts", "Textile", "Textiles"})
#: what French typography puts before : ; ! ? and inside « »
SPACES = "\u00a0\u202f"


def play(raw: dict[str, Any], store: Store, lang: str) -> tuple[Table, dict[str, Any], list[Accepted], list[str]]:
    """``raw`` played at a new table while ``lang`` is spoken: the table, the
    script's result, what each step said, and every view string problem
    found along the way (checked after each step, in ``lang``)."""
    room = Room(store)
    said: list[Accepted] = []
    problems: list[str] = []
    original = room.open_table

    def opened(*args: Any, **kwargs: Any) -> Table:
        table = original(*args, **kwargs)

        def heard(t: Table, accepted: Accepted) -> None:
            said.append(accepted)
            if lang != languages.SOURCE:
                problems.extend(f"after step {accepted.seq}: {p}" for p in view_problems(t))

        table.subscribe(heard)
        return table

    room.open_table = opened  # type: ignore[method-assign]
    with languages.speaking(lang):
        table, result = run_script(raw, room)
    return table, result, said, problems


# what is wrong with a French string ----------------------------------------------------------
def _plain(text: str) -> str:
    """``text`` with French typography's spaces as plain ones (a space before
    a colon dropped), so only words tell the two languages apart."""
    for space in SPACES:
        text = text.replace(space, " ")
    return re.sub(r"\s+([:;!?])", r"\1", " ".join(text.split()))


def _english_left(english: str, names: tuple[str, ...]) -> bool:
    """Whether ``english`` holds a word besides names, numbers, ids and :data:`SAME`."""
    rest = re.sub(r"\b[A-Z]+-\d+\b", " ", english)
    for word in sorted({*names, *SAME}, key=len, reverse=True):
        rest = re.sub(rf"\b{re.escape(word)}\b", " ", rest)
    return re.search(r"[^\W\d_]", rest) is not None


def _catalog_of(key: str) -> Catalog | None:
    for catalog in (WORDS, CORE):
        if key in catalog.templates:
            return catalog
    return None


def fallbacks(node: Any, terms: Mapping[str, Mapping[str, str]]) -> Iterator[str]:
    """Each part of a stored sentence that French would say in English (or as
    a key no catalog has)."""
    if isinstance(node, list):
        for v in node:
            yield from fallbacks(v, terms)
        return
    if not isinstance(node, dict):
        return
    if "map" in node and len(node) == 1:
        yield from fallbacks(list(node["map"].values()), terms)
        return
    key = node.get("key")
    args = node.get("args") or {}
    if isinstance(key, str):
        if not WORDS.knows(key):
            yield f"{key!r} is in no catalog"
        elif key == JOINED:
            pass
        elif key.startswith(PIECE):
            # a piece's words are the catalog's (its list words, its counts' forms)
            found = languages.translations("fr", WORDS.domain)
            assert found is not None
            for word_key, english in WORDS.piece_words.items():
                if word_key == key or word_key.startswith(key + "."):
                    count = 2 if isinstance(english, tuple) else None
                    if found.say(word_key, english, count) is None:
                        yield f"piece {key}: {word_key} has no French"
        elif key.startswith(NAMED) or key.startswith(TERM):
            code = str(args.get("code"))
            english = (WORDS.names[key[1:]][code] if key.startswith(NAMED)
                       else terms.get(key[1:], {}).get(code, code))
            found = languages.translations("fr", WORDS.domain)
            assert found is not None
            if (f"{key}:{code}", english) not in found.words:  # a French name may be the English one (Textiles)
                yield f"{key}:{code} ({english!r}) has no French"
        else:
            catalog = _catalog_of(key)
            assert catalog is not None, key
            found = languages.translations("fr", catalog.domain)
            count = args.get("count")
            if found is None or found.say(key, catalog.templates[key], count if isinstance(count, int) else None) is None:
                yield f"template {key!r} has no French"
    for v in args.values():
        yield from fallbacks(v, terms)


def french_problems(table: Table, french: str, node: Any, where: str) -> list[str]:
    """What is wrong with ``french``, the words of the stored sentence
    ``node`` drawn in French: a part said in English, an English sentence
    left, an English draw that is not the English."""
    terms = dict(table.game.terms(table.config.edition))
    out = [f"{where}: {p}" for p in fallbacks(node, terms)]
    english = english_words(table, node)
    names = tuple(table.config.seat_names())
    if _plain(french) == _plain(english) and _english_left(english, names):
        out.append(f"{where}: English left: {french!r}")
    return out


def english_words(table: Table, node: Any) -> str:
    """A stored sentence's English words (whatever is spoken around)."""
    with languages.speaking("en"):
        return table.words(node)


def saids(value: Any, path: str = "") -> Iterator[tuple[str, Said]]:
    """Every sentence in a view (a dict of lists of ... of strings)."""
    if isinstance(value, Said):
        yield path, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from saids(v, f"{path}.{k}")
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            yield from saids(v, f"{path}[{i}]")


def view_problems(table: Table) -> list[str]:
    """Every sentence the screens show now (the views, the status, the
    notes, the hints and the score sheet), worked out in French, checked;
    drawn in English, each must be what the English says."""
    game, state = table.game, table.state
    n = len(table.config.seat_names())
    with languages.speaking("fr"):
        shown: dict[str, Any] = {
            "table": game.view(state, TABLE_SCREEN),
            "host": game.view(state, HOST_SCREEN),
            **{f"seat{s}": game.view(state, seat_viewer(s)) for s in range(n)},
            "status": game.status(state),
            "notes": game.public_notes(state),
            "hints": {str(a): [h.to_json() for h in game.actions(state, a)]
                      for a in (HOST, CHANCE, *(Actor(ActorKind.SEAT, s) for s in range(n)))},
            "score": game.score(state).to_json(tuple(table.config.seat_names())),
        }
    problems: list[str] = []
    for path, said in saids(shown):
        problems += french_problems(table, str(said), said.meaning(), path)
    # the same state's English: the English draw of each French sentence
    with languages.speaking("en"):
        english = {
            "status": game.status(state),
            "notes": game.public_notes(state),
            "table": game.view(state, TABLE_SCREEN),
        }
    expected = dict(saids(english))
    for path, said in saids({k: shown[k] for k in english}):
        drawn = english_words(table, said.meaning())
        if drawn != str(expected.get(path)):
            problems.append(f"{path}: drawn in English {drawn!r}, the English says {expected.get(path)!r}")
    return problems


# the tests ---------------------------------------------------------------------------------
@pytest.mark.parametrize("script", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_plays_in_french(script: Path, tmp_path: Path) -> None:
    raw = json.loads(script.read_text(encoding="utf-8"))
    english_store, french_store = Store(tmp_path / "en.sqlite3"), Store(tmp_path / "fr.sqlite3")
    try:
        en_table, en_result, _en_said, _ = play(raw, english_store, "en")
        fr_table, fr_result, fr_said, problems = play(raw, french_store, "fr")
        assert "stopped" not in fr_result and "stopped" not in en_result

        # what is stored does not depend on the language spoken
        stored_fr = [list(e.explanations) for e in fr_table.entries]
        assert stored_fr == [list(e.explanations) for e in en_table.entries]

        spoken = {a.seq: a.explanations for a in fr_said}
        lines = 0
        for entry in fr_table.entries:
            for i, line in enumerate(entry.explanations):
                where = f"step {entry.seq} ({entry.name}), line {i + 1}"
                node = line["say"]
                with languages.speaking("fr"):
                    french = fr_table.words(node)
                assert spoken[entry.seq][i].text == french, where  # said in play as drawn again
                problems += french_problems(fr_table, french, node, where)
                # drawn in French, then in English: the English, unchanged
                assert english_words(fr_table, node) == english_words(en_table, node), where
                lines += 1
        assert lines > 0

        # the script's refusals are said in French too
        assert len(fr_result["rejections"]) == len(en_result["rejections"])
        for fr_rej, en_rej in zip(fr_result["rejections"], en_result["rejections"], strict=True):
            message = fr_rej["message"]
            assert isinstance(message, Said)
            problems += french_problems(fr_table, str(message), message.meaning(), f"refusal {fr_rej['number']}")
            assert english_words(fr_table, message.meaning()) == str(en_rej["message"])

        # the end position's screens, and no English view sentence along the way (play's listener)
        problems += view_problems(fr_table)
    finally:
        english_store.close()
        french_store.close()
    assert not problems, f"{len(problems)} problems, the first:\n" + "\n".join(problems[:25])


def test_the_core_undo_line_reads_in_french(tmp_path: Path) -> None:
    """The host's undo (Table.undo): the core's line, naming the step undone
    by its own World of Waste line, in French; stored as meaning, it reads in
    English again."""
    raw = json.loads((ROOT / "docs" / "examples" / "world-of-waste.json").read_text(encoding="utf-8"))
    raw = {**raw, "commands": raw["commands"][:4]}
    store = Store(tmp_path / "t.sqlite3")
    try:
        table, _result, _said, _ = play(raw, store, "fr")
        with languages.speaking("fr"):
            accepted = table.undo(reason="mauvaise carte")
            (line,) = accepted.explanations
            node = table.entries[-1].explanations[0]["say"]
            drawn = table.words(node)
        assert line.text == drawn
        assert drawn.startswith("L'hôte a annulé l'étape ")
        assert drawn.endswith("\u00a0(mauvaise carte)") or drawn.endswith(" (mauvaise carte)")
        assert "The host" not in drawn and "undid" not in drawn
        assert not french_problems(table, drawn, node, "undo")
        english = english_words(table, node)
        assert english.startswith("The host undid step ") and english.endswith(" (mauvaise carte)")
        assert "hôte" not in english
    finally:
        store.close()


def test_who_may_give_a_command_is_refused_in_french(tmp_path: Path) -> None:
    """The actor and the command's verb in a refusal are names of the
    catalog, said in French: "Ada ne peut pas prendre à la place de Bo",
    "... pas par le hasard"."""
    from companion.errors import InvalidCommand, NotYourTurn
    from companion.games.world_of_waste.moves import Move
    from companion.games.world_of_waste.turns import actor_seat
    from companion.rules import Citation

    store = Store(tmp_path / "t.sqlite3")
    try:
        table = Room(store).open_table("world-of-waste", ["Ada", "Bo"])
        rule = Citation("000", "x", "y")
        with languages.speaking("fr"):
            with pytest.raises(NotYourTurn) as other:
                actor_seat(table.state, Move(Actor(ActorKind.SEAT, 0), "pick", seat=1), chance=False, host=False,
                           rule=rule)
            with pytest.raises(NotYourTurn) as chance:
                actor_seat(table.state, Move(CHANCE, "pick", seat=1), chance=False, host=False, rule=rule)
            with pytest.raises(InvalidCommand) as host:
                actor_seat(table.state, Move(HOST, "bonus"), chance=True, host=True, rule=rule)
        assert str(other.value).startswith("Ada ne peut pas prendre à la place de Bo"), other.value
        assert "le hasard" in str(chance.value) and "chance" not in str(chance.value), chance.value
        assert "l’hôte" in str(host.value), host.value
    finally:
        store.close()
