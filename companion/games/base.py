"""What a game provides to the table core.

A game is a description plus pure functions, after python-chess and
boardgame.io: ``setup`` builds the state from the table's configuration;
``parse`` turns a :class:`~companion.commands.Command` into a typed move (or
raises :class:`~companion.errors.InvalidCommand`); ``check`` raises
:class:`~companion.errors.IllegalMove` with the rule's citation when the move
is not allowed now; ``apply`` performs a checked move and says what happened
in :class:`~companion.rules.Explanation` lines.

State is always ``setup(config)`` folded with the accepted moves, so a game
must be deterministic: any randomness (a software shuffle, a button's dice
roll) is drawn *before* the command is submitted and travels inside the
command's arguments, where the log keeps it.

``apply`` receives a private copy of the state: it may mutate it and must
return it (or a new one) inside an :class:`Outcome`.  The table asks for both
in one go, :meth:`Game.check_and_apply`, which copies the state once for a
legal move; a game whose moves run their own checks before they change
anything overrides it to run the move once, its check included.  A state
that is costly to ``copy.deepcopy`` gives itself a ``__deepcopy__`` that
shares what never changes (the components) and copies the rest.
"""

from __future__ import annotations

import copy
import enum
import inspect
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

from companion.commands import Actor, Command
from companion.edition import EditionError, edition_path, merge, read_json_object
from companion.errors import IllegalMove, Refusal, SetupError
from companion.messages import CORE, Catalog, meaning, seat_names
from companion.rules import Citation, Explanation, RuleOption

S = TypeVar("S")
M = TypeVar("M")


@dataclass(frozen=True)
class Seat:
    """A place at the table; a player sits in it."""

    name: str
    colour: str

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "colour": self.colour}


@dataclass(frozen=True)
class TableConfig:
    """Everything fixed when a table is created.

    ``options`` is complete (defaults filled in).  ``edition`` is the game's
    component data (boards, cards, prices) as loaded when the table was
    created; it is stored with the table so a replay next month gives the same
    state even if the owner corrected the data file in between.
    """

    game: str
    seats: tuple[Seat, ...]
    options: Mapping[str, str] = field(default_factory=dict)
    start_seat: int = 0
    edition: Mapping[str, Any] = field(default_factory=dict)
    #: a position block set over the setup (empty: the game's own setup);
    #: see :mod:`companion.position`
    position: Mapping[str, Any] = field(default_factory=dict)

    def seat_names(self) -> tuple[str, ...]:
        """The seats' names, each knowing its seat (a sentence that names a
        seat stores the seat, :class:`companion.messages.SeatName`)."""
        return seat_names(s.name for s in self.seats)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seats": [s.to_json() for s in self.seats],
            "options": dict(self.options),
            "start_seat": self.start_seat,
            "edition": dict(self.edition),
            **({"position": dict(self.position)} if self.position else {}),
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> TableConfig:
        return cls(
            game=raw["game"],
            seats=tuple(Seat(s["name"], s["colour"]) for s in raw["seats"]),
            options=dict(raw.get("options", {})),
            start_seat=int(raw.get("start_seat", 0)),
            edition=dict(raw.get("edition", {})),
            position=dict(raw.get("position") or {}),
        )


class ViewerKind(enum.Enum):
    TABLE = "table"  # the shared table screen: public information only
    SEAT = "seat"  # one seat's phone: public + that seat's secrets
    HOST = "host"  # the host's page: public information + host controls


@dataclass(frozen=True)
class Viewer:
    kind: ViewerKind
    seat: int | None = None

    @property
    def seat_or_none(self) -> int | None:
        return self.seat if self.kind is ViewerKind.SEAT else None


TABLE_SCREEN = Viewer(ViewerKind.TABLE)
HOST_SCREEN = Viewer(ViewerKind.HOST)


def seat_viewer(seat: int) -> Viewer:
    return Viewer(ViewerKind.SEAT, seat)


@dataclass
class Outcome(Generic[S]):
    """The state after a move, and the lines that explain it."""

    state: S
    explanations: list[Explanation] = field(default_factory=list)


@dataclass(frozen=True)
class Choice:
    value: str | int
    label: str


@dataclass(frozen=True)
class Field:
    """One input of an action form.

    ``kind``: ``choice`` (one of ``choices``), ``multi`` (several of
    ``choices``), ``number`` (whole number in ``minimum..maximum``), ``text``.
    """

    name: str
    label: str
    kind: str = "choice"
    choices: tuple[Choice, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    default: Any = None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": self.label,
            "kind": self.kind,
            "choices": [{"value": c.value, "label": c.label} for c in self.choices],
            "minimum": self.minimum,
            "maximum": self.maximum,
            "default": self.default,
        }


class LastMade(Generic[M]):
    """The last hint (or any immutable value) made, kept with what it was
    made from: a one-place memory for what the pages ask for at every state
    and that changes rarely (Money Maker's correction form, its card
    choices).  The key is compared with ``==``, which for the components
    is a check of identity; two threads racing only make it twice."""

    def __init__(self) -> None:
        self._last: tuple[Hashable, M] | None = None

    def get(self, key: Hashable, make: Callable[[], M]) -> M:
        last = self._last  # one read: another thread may put its own
        if last is not None and last[0] == key:
            return last[1]
        value = make()
        self._last = (key, value)
        return value


@dataclass(frozen=True)
class ActionHint:
    """An action an actor could take now, to draw a button or a form.

    Submitting it sends a command named ``command`` whose arguments are
    ``args`` plus the values of ``fields``.  A disabled hint says why in
    ``reason`` (plain words, no citation in the text) and which rules forbid
    it now in ``rules``, as the refusal would: build both from the refusal
    with :meth:`refused`.
    """

    command: str
    label: str
    args: Mapping[str, Any] = field(default_factory=dict)
    fields: tuple[Field, ...] = ()
    enabled: bool = True
    reason: str = ""
    moves_money: bool = False
    rules: tuple[Citation, ...] = ()

    @classmethod
    def refused(
        cls,
        command: str,
        label: str,
        refusal: Refusal | None,
        args: Mapping[str, Any] | None = None,
        fields: tuple[Field, ...] = (),
        moves_money: bool = False,
    ) -> ActionHint:
        """The hint for an action whose check gave ``refusal``: enabled when
        it is ``None``, else disabled with the refusal's message and rule."""
        if refusal is None:
            return cls(command, label, dict(args or {}), fields, moves_money=moves_money)
        rules = (refusal.rule,) if refusal.rule is not None else ()
        return cls(command, label, dict(args or {}), fields, enabled=False,
                   reason=refusal.message, moves_money=moves_money, rules=rules)

    def to_json(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "label": self.label,
            "args": dict(self.args),
            "fields": [f.to_json() for f in self.fields],
            "enabled": self.enabled,
            "reason": self.reason,
            "moves_money": self.moves_money,
            "rules": [c.to_json() for c in self.rules],
        }


@dataclass(frozen=True)
class ScoreLine:
    label: str
    points: int
    detail: str = ""


@dataclass(frozen=True)
class SeatScore:
    seat: int
    lines: tuple[ScoreLine, ...]
    tiebreak: int | float = 0
    tiebreak_label: str = ""

    @property
    def total(self) -> int:
        return sum(line.points for line in self.lines)


@dataclass(frozen=True)
class ScoreSheet:
    """Scores with every line, the places (a tie the game's tie-break does not
    settle is a shared place), and any warnings
    (for example "unverified component values were used")."""

    seats: tuple[SeatScore, ...]
    final: bool = False
    notes: tuple[str, ...] = ()

    def places(self) -> dict[int, int]:
        """Each seat's place: one more than the seats ahead of it (more points,
        or as many points and more on the game's tie-break).  Seats equal on
        both share the place and the next place is skipped (1, 1, 3): no game
        breaks a tie by seat order (``core, A tie the texts do not break``)."""
        return {
            s.seat: 1 + sum(1 for o in self.seats if (o.total, o.tiebreak) > (s.total, s.tiebreak))
            for s in self.seats
        }

    def ranking(self) -> list[int]:
        """Seat numbers by place, winner first; seats sharing a place in seat order."""
        places = self.places()
        return sorted(places, key=lambda seat: (places[seat], seat))

    def winners(self) -> list[int]:
        """The seats in first place (more than one when they share it)."""
        return [seat for seat, place in self.places().items() if place == 1]

    def shared(self, seat: int) -> bool:
        """Whether another seat shares this seat's place."""
        places = self.places()
        return sum(1 for p in places.values() if p == places[seat]) > 1

    def to_json(self, seat_names: tuple[str, ...]) -> dict[str, Any]:
        rank = self.ranking()
        places = self.places()
        return {
            "final": self.final,
            "notes": list(self.notes),
            "ranking": [seat_names[s] for s in rank],
            "seats": [
                {
                    "seat": s.seat,
                    "name": seat_names[s.seat],
                    "total": s.total,
                    "place": places[s.seat],
                    "shared": sum(1 for p in places.values() if p == places[s.seat]) > 1,
                    "tiebreak": s.tiebreak,
                    "tiebreak_label": s.tiebreak_label,
                    "lines": [
                        {"label": ln.label, "points": ln.points, "detail": ln.detail}
                        for ln in s.lines
                    ],
                }
                for s in self.seats
            ],
        }


@dataclass(frozen=True)
class CardKind:
    """A kind of physical card and how many copies the deck holds.

    ``code`` is short, uppercase letters and digits (it goes into the card's
    QR tag); ``name`` is the card's name as commands use it."""

    code: str
    name: str
    copies: int


@dataclass(frozen=True)
class Die:
    """A physical die: its name (``"credit"``, ``"sector"``) and its faces.
    An ``optional`` die may be left out of the roll (Money Maker's sector die
    while every bank is in ring I): a roll without it is accepted."""

    name: str
    faces: tuple[str, ...]
    optional: bool = False


@dataclass(frozen=True)
class DieFace:
    """One die's result in a roll."""

    die: str
    face: str


def private_part(mine: Mapping[str, Any], public: Mapping[str, Any]) -> dict[str, Any]:
    """What only a seat sees: the top-level parts of its view that the
    table screen's view does not have (or has otherwise)."""
    return {k: v for k, v in mine.items() if k not in public or public[k] != v}


class Game(ABC, Generic[S, M]):
    """One game's rules.  Subclasses set the class attributes and implement the
    abstract methods; :mod:`companion.games` registers them by ``key``."""

    key: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    #: seed short numbers whose text this game follows (``("000", "003", "004")``)
    seeds: ClassVar[tuple[str, ...]]
    #: every named option, disputed readings first
    options: ClassVar[tuple[RuleOption, ...]] = ()
    #: colours offered at setup, in order
    colours: ClassVar[tuple[str, ...]] = ("red", "blue", "yellow", "green", "black", "orange")

    #: the game's component data file, beside its module (``None``: no data file)
    data_file: ClassVar[str | None] = None
    #: the game's sentences (its words module's ``WORDS``): what draws a
    #: stored line's meaning in words (:mod:`companion.messages`)
    words: ClassVar[Catalog] = CORE

    def default_edition(self) -> dict[str, Any]:
        """The shipped component data (the game's data file), unmodified."""
        if self.data_file is None:
            return {}
        path = Path(inspect.getfile(type(self))).with_name(self.data_file)
        return read_json_object(path)

    def edition_problems(self, edition: Mapping[str, Any]) -> list[str]:
        """Everything wrong with a complete (merged) edition; empty if usable."""
        return []

    def load_edition(self, path: Path | None = None) -> dict[str, Any]:
        """The component data for a new table: the defaults overlaid by the
        owner's edition file (``path``, else the standard place, if present).
        Stored in :class:`TableConfig.edition`.  Raises ``EditionError``."""
        defaults = self.default_edition()
        if path is None:
            standard = edition_path(self.key)
            if not standard.exists():
                return defaults
            path = standard
        merged = merge(defaults, read_json_object(path))
        problems = self.edition_problems(merged)
        if problems:
            raise EditionError(path, problems)
        return merged

    def terms(self, edition: Mapping[str, Any]) -> Mapping[str, Mapping[str, str]]:
        """The names of the table's components by kind and code, as its
        data (``edition``) gives them: what a stored line's component
        (:meth:`companion.messages.Catalog.term`) is drawn with.  Called
        once per table; a game whose lines name no component keeps this."""
        return {}

    def spoken(self, text: str | None) -> str:
        """A sentence the game built once (a rules option's title, reading
        or reason) in the language spoken now: drawn again from what it
        means; words kept only as words stay as they are."""
        said = meaning(text) if text else None
        return self.words.draw(said) if said is not None else (text or "")

    @abstractmethod
    def setup(self, config: TableConfig) -> S:
        """The state before the first command.  Raise ``SetupError`` for a bad config."""

    @abstractmethod
    def parse(self, state: S, command: Command) -> M:
        """A typed move from a command, or ``InvalidCommand`` (malformed input)."""

    @abstractmethod
    def check(self, state: S, move: M) -> None:
        """``None`` if the move is legal now, else raise ``IllegalMove`` /
        ``NotYourTurn`` naming the rule and its citation."""

    @abstractmethod
    def apply(self, state: S, move: M) -> Outcome[S]:
        """Perform a checked move on a private copy of the state."""

    def check_and_apply(self, state: S, move: M, *, in_place: bool = False) -> Outcome[S]:
        """``check`` and ``apply`` in one go: the refusal the check gives, or
        the outcome of the move.  ``state`` is left as it was: the move is
        made on a copy of it (this default checks first, then copies once).

        With ``in_place`` the move is made on ``state`` itself, which the
        caller gives up (a replay that stops at a refusal): after a refusal
        it may be partly changed and must be dropped.

        A game whose ``check`` makes the move on a copy to see whether it is
        refused overrides this to make it once, on the copy it returns."""
        self.check(state, move)
        return self.apply(state if in_place else copy.deepcopy(state), move)

    @abstractmethod
    def view(self, state: S, viewer: Viewer) -> dict[str, Any]:
        """A JSON-ready projection.  The table screen sees public information
        only; a seat sees public information and its own secrets, never another
        seat's; the host sees what the table screen sees (plus whatever the host
        needs to enter chance, which is never a seat's secret)."""

    def private_view(self, state: S, seat: int) -> dict[str, Any]:
        """What seat ``seat``'s view (:meth:`view`) has that the table
        screen's has not, or has otherwise: its secrets, as top-level keys.
        Worked out here from the two views; a game that can say it directly
        does so more cheaply (the live pages ask for every seat at every
        state), and the contract tests hold the two to each other."""
        return private_part(self.view(state, seat_viewer(seat)), self.view(state, TABLE_SCREEN))

    @abstractmethod
    def actions(self, state: S, actor: Actor) -> list[ActionHint]:
        """What ``actor`` (a seat, the host or chance) could do now."""

    def hint_inputs(self, state: S, actor: Actor) -> object | None:
        """All that :meth:`actions` reads of ``state`` for ``actor``, as a
        value compared with ``==``, when the game can name it cheaply; None
        (the default) when it cannot.  A table whose state moved on, but
        gives ``actor`` inputs equal to those its hints were worked out
        from, keeps those hints (with a full table a move mostly changes one
        seat's lot, and every seat's page asks for its hints at every state).
        Leaving something out offers stale buttons: name too much rather
        than too little.  The contract tests hold equal inputs to equal hints
        over random games."""
        return None

    @abstractmethod
    def score(self, state: S) -> ScoreSheet:
        """The score sheet now (provisional until the game is over)."""

    def score_inputs(self, state: S) -> Hashable | None:
        """What the totals of :meth:`score` read of ``state``: two states
        with equal inputs have equal totals, so the score chart (which
        scores every step of a finished game) scores a state again only
        when they changed.  ``None`` (the default): not known, score each."""
        return None

    @abstractmethod
    def is_over(self, state: S) -> bool: ...

    @abstractmethod
    def status(self, state: S) -> str:
        """One line for the table screen: whose turn it is, what is awaited."""

    @abstractmethod
    def awaiting(self, state: S) -> frozenset[int]:
        """The seats whose move the game is waiting for now: empty while it
        waits only for chance (a card, a roll) or the host.  A move that is
        open to every seat at any time (Müll + Money's loan) does not make a
        seat awaited; an open auction that anyone may join makes every
        eligible bidder awaited.  Public: the table screen highlights them and
        a phone says "your move"."""

    # the position block (companion.position) --------------------------------
    def describe_position(self, state: S) -> dict[str, Any]:
        """``state``'s whole position as a block (what a sandbox's editor
        starts from)."""
        raise SetupError(f"{self.title} has no position block yet")

    def place_position(self, state: S, block: Any) -> S:
        """A new state: ``block`` set over ``state`` (which is not changed),
        checked as a whole.  Raise ``PositionError`` naming the field."""
        raise SetupError(f"{self.title} has no position block yet")

    def public_notes(self, state: S) -> list[str]:
        """Extra lines for the table screen (e.g. unverified data in use)."""
        return []

    # what the hardware needs ------------------------------------------------
    def card_kinds(self, edition: Mapping[str, Any]) -> tuple[CardKind, ...]:
        """Every kind of physical card with its number of copies (for tags)."""
        return ()

    def card_command(self, state: S, card: str, copy: int) -> Command:
        """The chance command a card seen now (by the camera) stands for, e.g. a
        card dealt.  Raise ``IllegalMove`` (with the rule) if no card can be seen
        now.  The command is then checked like any other."""
        raise IllegalMove(f"{self.title} is not waiting for a card now")

    def dice_to_roll(self, state: S) -> tuple[Die, ...]:
        """The dice a roll consists of now (empty: no roll is expected)."""
        return ()

    def dice_command(self, state: S, roll: Sequence[DieFace]) -> Command:
        """The chance command for a roll (from the tower, the button or the host)."""
        raise IllegalMove(f"{self.title} is not waiting for a dice roll now")
