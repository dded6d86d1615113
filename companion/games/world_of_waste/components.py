"""The deck as data: card types, copies, auction (hammer) values, the Paper table.

Read from the game's data file (``components.json``) overlaid by an owner's
edition file.  Every physical card has an id ``"<CODE>-<copy>"`` (``PAP-3``
is the third Paper), which is also what its QR tag carries, so a card the
camera sees maps to exactly one card of the deck.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from companion.games.world_of_waste.words import (
    PLURAL_CATEGORIES,
    TYPE_TERM,
    WORDS,
    comma_list,
    count_form,
    counted_term,
    name_forms,
    says,
)
from companion.games.world_of_waste.words import cards as n_cards
from companion.messages import Said

#: the card types the rules name, in the order a station is laid out
TYPE_KEYS: tuple[str, ...] = (
    "food",
    "compost",
    "small_electronics",
    "large_electronics",
    "textiles",
    "metal",
    "paper",
    "hazardous",
    "plastic",
    "recycler",
)

RECYCLER = "recycler"
PAPER_RUN = 8  # "Eight Paper is worth 25 points, which is maximum" (seed 001, Paper)
_ID = re.compile(r"^([A-Za-z0-9]+)-(\d+)$")
_CODE = re.compile(r"^[A-Z0-9]{1,8}$")


@dataclass(frozen=True)
class Value:
    """A number from the data file and whether a rule text printed it."""

    value: int
    verified: bool
    source: str


@dataclass(frozen=True)
class CardType:
    key: str
    code: str
    name: str
    copies: Value
    hammer: Value
    #: the name after a count, by plural category (``(("one", "Textile"), ("other",
    #: "Textiles"))``: the data's ``counted``; words.count_form picks one);
    #: empty: the name follows every count
    forms: tuple[tuple[str, str], ...] = ()
    #: :attr:`forms` by plural category
    _forms: Mapping[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_forms", dict(self.forms))

    @property
    def term(self) -> Said:
        """The type's name as a sentence says it: the term of its key
        (:data:`words.TYPE_TERM`), its words drawn from the table's data, in
        the language spoken now (said anew each time: a type made while
        French was spoken names itself in English to an English sentence;
        nothing is kept, so reading a state changes nothing in it)."""
        return WORDS.term(TYPE_TERM, self.key, self.name)

    def counted(self, count: int) -> str:
        """``1 Textile``, ``2 Textiles``, ``3 Composts``."""
        return says("type_count", count=count, name=count_form(count, self.key, self._forms, self.name))

    def card_id(self, copy: int) -> str:
        return f"{self.code}-{copy}"

    def ids(self) -> list[str]:
        return [self.card_id(n) for n in range(1, self.copies.value + 1)]


@dataclass(frozen=True)
class CardRef:
    """A card as a command names it: an exact card (``copy``) or any card of a type."""

    key: str
    copy: int | None = None


class UnknownCard(ValueError):
    """A card id or name that is not in this edition's deck."""


@dataclass(frozen=True)
class Catalog:
    types: tuple[CardType, ...]
    paper: tuple[Value, ...]  # paper[n - 1] is the value of a run of n papers, n = 1..8

    def __deepcopy__(self, memo: dict[int, Any]) -> Catalog:
        return self  # immutable; shared by every copy of the state

    # indexes, built once (a move looks up card ids thousands of times) -------------
    @cached_property
    def _by_code(self) -> dict[str, CardType]:
        index: dict[str, CardType] = {}
        for t in self.types:
            index.setdefault(t.code, t)  # the first type with a code, as a scan finds it
        return index

    @cached_property
    def _by_name(self) -> dict[str, CardType]:
        """Each type by the ways a command may name it: key, code, and name in
        the singular or the plural (``words.name_forms``), normalised (:func:`_norm`)."""
        index: dict[str, CardType] = {}
        for t in self.types:
            for form in (t.key, t.code, *name_forms(t.name), *(f for _, f in t.forms)):
                index.setdefault(_norm(form), t)  # the first type with a form, in the catalog's order
        return index

    @cached_property
    def _ids(self) -> tuple[str, ...]:
        return tuple(i for t in self.types for i in t.ids())

    @cached_property
    def _kinds(self) -> dict[str, str]:
        return {i: self.kind_of_id(i) for i in self._ids}

    # lookups -----------------------------------------------------------------
    def type(self, key: str) -> CardType:
        for t in self.types:
            if t.key == key:
                return t
        raise KeyError(key)

    def by_code(self, code: str) -> CardType | None:
        return self._by_code.get(code.upper())

    def kind_of(self, card_id: str) -> str:
        """The type key of a known card id (``PAP-3`` -> ``paper``)."""
        known = self._kinds.get(card_id)
        return known if known is not None else self.kind_of_id(card_id)

    def kind_of_id(self, card_id: str) -> str:
        """:meth:`kind_of` read from the id itself (what the index holds)."""
        m = _ID.match(card_id)
        assert m is not None, card_id
        t = self.by_code(m.group(1))
        assert t is not None, card_id
        return t.key

    def name_of(self, card_id: str) -> str:
        """A card's type name, as a sentence says it (:attr:`CardType.term`)."""
        return self.type(self.kind_of(card_id)).term

    def hammer_of(self, card_id: str) -> int:
        return self.type(self.kind_of(card_id)).hammer.value

    def all_ids(self) -> list[str]:
        return list(self._ids)

    def copy_of(self, card_id: str) -> int:
        m = _ID.match(card_id)
        assert m is not None
        return int(m.group(2))

    def sort_key(self, card_id: str) -> tuple[int, int]:
        return (TYPE_KEYS.index(self.kind_of(card_id)), self.copy_of(card_id))

    def labels(self, card_ids: Iterable[str]) -> str:
        """Cards as the table knows them, alike ones counted, in station order:
        ``Food waste, 2 Textiles, Recycler`` (or ``no cards``)."""
        counts: dict[str, int] = {}
        for card in card_ids:
            counts[self.kind_of(card)] = counts.get(self.kind_of(card), 0) + 1
        parts = [t.term if counts[t.key] == 1 else t.counted(counts[t.key]) for t in self.types if t.key in counts]
        return comma_list(parts) if parts else says("no_cards")

    def label(self, card_id: str) -> str:
        """A card with the id its tag carries (``Paper (PAP-3)``): only where a
        scan or the camera names one physical card among alike ones.  In play,
        copies of a type are alike and a card is shown by its name
        (:meth:`name_of`), several by :meth:`labels`."""
        return says("card_label", name=self.name_of(card_id), card=card_id)

    def parse_ref(self, text: Any) -> CardRef:
        """A card id (``PAP-3``, case-insensitive) or a type's key, code or
        name, the name in the singular or the plural (``paper``, ``PAP``,
        ``Paper``, ``Papers``; ``Textile``, ``Textiles``), in any case.
        Raises :class:`UnknownCard`."""
        if not isinstance(text, str) or not text.strip():
            raise UnknownCard(says("card_named_by", text=text))
        raw = text.strip()
        m = _ID.match(raw)
        if m is not None:
            t = self.by_code(m.group(1))
            if t is None:
                raise UnknownCard(says("unknown_code", raw=raw, code=m.group(1).upper(), codes=self.codes_text()))
            digits = m.group(2)
            copy = int(digits) if digits.isascii() and len(digits) <= 6 else 0  # int() refuses 5000 digits
            if not 1 <= copy <= t.copies.value:
                raise UnknownCard(
                    says("unknown_copy", raw=raw, cards=t.counted(t.copies.value), code=t.code, copies=t.copies.value)
                )
            return CardRef(t.key, copy)
        t = self._by_name.get(_norm(raw))
        if t is not None:
            return CardRef(t.key)
        raise UnknownCard(says("unknown_card", raw=raw, codes=self.codes_text()))

    def codes_text(self) -> str:
        return comma_list(says("code_is", code=t.code, name=t.term) for t in self.types)

    def terms(self) -> dict[str, dict[str, str]]:
        """The types' names by term kind and key, what a stored line's type
        names are drawn with: the name (:data:`words.TYPE_TERM`) and the name
        after a count of each plural category (:func:`words.counted_term`;
        the name itself where the data gives no counted forms)."""
        out: dict[str, dict[str, str]] = {TYPE_TERM: {t.key: t.name for t in self.types}}
        for category in PLURAL_CATEGORIES:
            out[counted_term(category)] = {t.key: t._forms.get(category, t.name) for t in self.types}
        return out

    def unverified(self) -> list[str]:
        out: list[str] = [says("unverified_copies", name=t.term) for t in self.types if not t.copies.verified]
        out += [says("unverified_hammer", name=t.term) for t in self.types if not t.hammer.verified]
        out += [says("unverified_paper", cards=n_cards(n)) for n, v in enumerate(self.paper, start=1) if not v.verified]
        return out


def _norm(text: str) -> str:
    return re.sub(r"[\s_\-]+", " ", text.strip().lower())


# reading and validating the edition ------------------------------------------------
def _value(raw: Any, where: str, problems: list[str], *, minimum: int = 0) -> Value:
    if not isinstance(raw, Mapping):
        problems.append(says("ed_value_object", where=where))
        return Value(0, False, "")
    value = raw.get("value")
    if isinstance(value, bool) or not isinstance(value, int):
        problems.append(says("ed_value_whole", where=where, value=value))
        value = 0
    elif value < minimum:
        problems.append(says("ed_value_minimum", where=where, minimum=minimum, value=value))
    # a value with a source counts as verified (an owner's correction adds one);
    # a value without one must say "verified": false
    source = raw.get("source")
    flag = raw.get("verified", True)
    if not isinstance(flag, bool):
        problems.append(says("ed_verified_bool", where=where))
    has_source = isinstance(source, str) and bool(source.strip())
    if not has_source and flag is not False:
        problems.append(says("ed_say_source", where=where))
    return Value(value, has_source, str(source if has_source else raw.get("note") or ""))


def read_catalog(edition: Mapping[str, Any]) -> tuple[Catalog, list[str]]:
    """The catalog of an edition and everything wrong with it."""
    problems: list[str] = []
    cards = edition.get("cards")
    types: list[CardType] = []
    if not isinstance(cards, Mapping):
        problems.append(says("ed_cards_object"))
        cards = {}
    for key in cards:
        if key not in TYPE_KEYS:
            problems.append(says("ed_not_a_type", key=key, types=comma_list(TYPE_KEYS)))
    codes: set[str] = set()
    for key in TYPE_KEYS:
        raw = cards.get(key)
        if not isinstance(raw, Mapping):
            problems.append(says("ed_type_missing", key=key))
            continue
        code = raw.get("code")
        if not isinstance(code, str) or not _CODE.match(code):
            problems.append(says("ed_code_form", key=key, code=code))
            code = key.upper()
        elif code in codes:
            problems.append(says("ed_code_used", key=key, code=code))
        codes.add(code)
        name = raw.get("name")
        if not isinstance(name, str) or not name.strip():
            problems.append(says("ed_name", key=key))
            name = key
        copies = _value(raw.get("copies"), f"cards.{key}.copies", problems)
        hammer = _value(raw.get("hammer"), f"cards.{key}.hammer", problems)
        forms = raw.get("counted", {})  # optional: without it, the name follows every count
        if not isinstance(forms, Mapping) or (forms and set(forms) != set(PLURAL_CATEGORIES)) or not all(
            isinstance(f, str) and f.strip() for f in forms.values()
        ):
            problems.append(says("ed_counted", key=key, categories=comma_list(PLURAL_CATEGORIES)))
            forms = {}
        counted_forms = tuple((c, forms[c].strip()) for c in PLURAL_CATEGORIES if c in forms)
        types.append(CardType(key, code, name.strip(), copies, hammer, counted_forms))
    paper_raw = edition.get("paper")
    paper: list[Value] = []
    if not isinstance(paper_raw, Mapping):
        problems.append(says("ed_paper_object"))
        paper_raw = {}
    for n in range(1, PAPER_RUN + 1):
        paper.append(_value(paper_raw.get(str(n)), f"paper.{n}", problems))
    extra = sorted(k for k in paper_raw if k not in {str(n) for n in range(1, PAPER_RUN + 1)})
    if extra:
        problems.append(says("ed_paper_runs", extra=comma_list(extra)))
    if any(b.value < a.value for a, b in itertools.pairwise(paper)):
        problems.append(says("ed_paper_order"))
    total = sum(t.copies.value for t in types)
    need = 6 * 4 + 3 * 3  # one round at four seats: 6 cards each and three bonus piles of three
    if not problems and total < need:
        problems.append(says("ed_deck_small", cards=n_cards(total), need=need))
    return Catalog(tuple(types), tuple(paper)), problems
