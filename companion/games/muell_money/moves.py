"""Commands → typed moves.  Parsing checks only the form of a command (known
name, the right actor kind, well-formed arguments); ``rules.check``
decides whether the move is legal now."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, overload

from companion import languages
from companion.commands import Actor, ActorKind, Command
from companion.corrections import MAX_REASON, Target, need_reason, need_target, need_to, seat_arg
from companion.errors import InvalidCommand
from companion.games.muell_money.components import MAT_ROWS, Components, fold_name
from companion.games.muell_money.state import MuellState
from companion.games.muell_money.words import WORDS, comma_list, says


@dataclass(frozen=True)
class Move:
    actor: Actor
    name: str
    card: str | None = None
    adviser: bool = False
    rows: tuple[str, ...] = ()
    direction: str | None = None
    amount: int = 0
    column: int = 0
    use: bool = False
    order: tuple[str, ...] = ()
    count: int = 1
    # a host correction: target key, the seat it belongs to (None: a table value), reason
    target: str = ""
    seat: int | None = None
    reason: str = ""
    # simulation variant: a Negotiation's proposal (and the rule it would repeal), a vote's choice
    proposal: str = ""
    repeal: str = ""
    choice: str = ""


def actor_name(actor: Actor) -> str:
    """Who gives a command, in a sentence: ``seat:2``, ``host``, ``chance``."""
    return says("actor_seat", seat=actor.seat) if actor.is_seat else WORDS.name("actor", actor.kind.value)


def acting_seat(move: Move) -> int:
    """The seat that makes a seat's move (parsing made sure there is one)."""
    assert move.actor.seat is not None
    return move.actor.seat


#: command name (and accepted aliases) -> canonical name
NAMES: dict[str, str] = {
    "deal": "deal",
    "shuffle": "shuffle",
    "choose": "choose",
    "take": "choose",
    "play": "play",
    "discard": "discard",
    "keep": "keep",
    "pass": "keep",
    "bid": "bid",
    "no-bid": "no-bid",
    "nobid": "no-bid",
    "no_bid": "no-bid",
    "decline": "no-bid",
    "loan": "loan",
    "bribery": "bribery",
    "correct": "correct",
    "end": "end",
    "vote": "vote",
}

#: the most loans one ``loan`` command takes
MAX_LOANS_AT_ONCE = 10

ACTORS: dict[str, ActorKind] = {
    "deal": ActorKind.CHANCE,
    "shuffle": ActorKind.HOST,
    "correct": ActorKind.HOST,
    "end": ActorKind.HOST,
}

class _Targets(Sequence[Target]):
    """The correction targets, each label said when a target is read (in the
    language spoken then, not the one spoken when the module was imported)."""

    def __init__(self, *targets: tuple[str, Callable[[], str], dict[str, bool]]) -> None:
        self._targets = targets
        #: the targets as said in each language's catalog (the host's form reads them at every
        #: state): kept by the catalog itself, so a catalog read again says them again
        self._said: dict[tuple[str, int], tuple[Target, ...]] = {}

    def _target(self, i: int) -> Target:
        lang = languages.current()
        said_in = (lang, id(languages.translations(lang, "muell-money")) if lang != languages.SOURCE else 0)
        said = self._said.get(said_in)
        if said is None:
            if len(self._said) > 8:
                self._said.clear()
            said = tuple(Target(key, label(), **flags) for key, label, flags in self._targets)
            self._said[said_in] = said
        return said[i]

    @overload
    def __getitem__(self, i: int) -> Target: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[Target]: ...

    def __getitem__(self, i: int | slice) -> Target | Sequence[Target]:
        if isinstance(i, slice):
            return tuple(self._target(j) for j in range(len(self._targets))[i])
        return self._target(i)

    def __len__(self) -> int:
        return len(self._targets)


#: what the host may correct (``correct`` command); cash is the one hidden value
CORRECTION_TARGETS: Sequence[Target] = _Targets(
    ("cash", lambda: says("target_cash"), {"hidden": True}),
    ("loans", lambda: says("target_loans"), {}),
    ("raw_materials", lambda: says("target_raw"), {}),
    ("waste", lambda: says("target_waste"), {}),
    ("column", lambda: says("target_column"), {}),
    ("row", lambda: says("target_row"), {}),
    ("mat_workers", lambda: says("target_mat_workers"), {}),
    ("mat_raw_materials", lambda: says("target_mat_raw"), {}),
    ("mat_waste", lambda: says("target_mat_waste"), {}),
    ("supply", lambda: says("target_supply"), {"seat": False}),
    ("common_waste", lambda: says("target_common_waste"), {"seat": False}),
)

ROW_ALIASES: dict[str, str] = {
    "workers": "workers",
    "worker": "workers",
    "rationalization": "workers",
    "rationalisation": "workers",
    "personnel": "workers",
    "rawmaterials": "raw_materials",
    "raw": "raw_materials",
    "rawmaterial": "raw_materials",
    "materials": "raw_materials",
    "waste": "waste",
    "wastereduction": "waste",
    "dechets": "waste",
}

DIRECTIONS: dict[str, str] = {"hire": "hire", "up": "hire", "fire": "fire", "down": "fire"}

#: a vote's choice (and accepted aliases) -> canonical
CHOICES: dict[str, str] = {
    "for": "for", "yes": "for", "pour": "for",
    "against": "against", "no": "against", "contre": "against",
    "abstain": "abstain", "abstention": "abstain",
}

#: a proposal by its key or the text's example number
PROPOSAL_KEYS: dict[str, str] = {
    "1": "negotiation-cost", "negotiation-cost": "negotiation-cost",
    "2": "red-zone-stop", "red-zone-stop": "red-zone-stop",
    "3": "set-auction", "set-auction": "set-auction",
    "4": "repeal", "repeal": "repeal",
}


def _proposal(command: Command, key: str) -> str:
    raw = command.arg(key)
    text = str(raw).strip().lower() if isinstance(raw, (str, int)) and not isinstance(raw, bool) else ""
    if text not in PROPOSAL_KEYS:
        raise InvalidCommand(
            says("must_be_proposal", command=command.name, key=key, keys=comma_list(sorted(set(PROPOSAL_KEYS.values()))),
                 raw=raw)
        )
    return PROPOSAL_KEYS[text]


def resolve_card(comp: Components, text: str) -> str | None:
    """A card kind's name from its name, an alias, its code or a card id (``ORD-3``)."""
    key = fold_name(text)
    for kind in comp.kinds:
        names = (kind.name, kind.code, *kind.aliases)
        if key in {fold_name(n) for n in names}:
            return kind.name
    head, sep, tail = text.strip().rpartition("-")
    if sep and tail.isdigit():
        for kind in comp.kinds:
            if fold_name(head) == fold_name(kind.code):
                return kind.name
    return None


def _card(comp: Components, command: Command, key: str = "card") -> str:
    raw = command.need(key)
    if not isinstance(raw, str) or not raw.strip():
        raise InvalidCommand(says("must_be_card", command=command.name, key=key, raw=raw))
    kind = resolve_card(comp, raw)
    if kind is None:
        known = comma_list(k.name for k in comp.kinds)
        raise InvalidCommand(says("unknown_card", raw=raw, known=known))
    return kind


def _bool(command: Command, key: str, default: bool | None = None) -> bool:
    raw: Any = command.arg(key, default)
    if raw is None:
        raise InvalidCommand(says("needs_bool", command=command.name, key=key))
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, str) and raw.strip().lower() in ("yes", "true", "no", "false"):
        return raw.strip().lower() in ("yes", "true")
    raise InvalidCommand(says("must_be_bool", command=command.name, key=key, raw=raw))


def _row(command: Command, key: str) -> str:
    raw = command.arg(key)
    if not isinstance(raw, str) or fold_name(raw) not in ROW_ALIASES:
        raise InvalidCommand(
            says("must_be_row", command=command.name, key=key, rows=comma_list(MAT_ROWS), raw=raw)
        )
    return ROW_ALIASES[fold_name(raw)]


def end_reason(command: Command) -> str:
    """The host's optional reason for ending early: one line, at most 200 characters."""
    raw = command.arg("reason")
    if raw is None:
        return ""
    if not isinstance(raw, str):
        raise InvalidCommand(says("reason_text", raw=raw))
    text = " ".join(raw.split())
    if len(text) > MAX_REASON:
        raise InvalidCommand(says("reason_too_long", max=MAX_REASON))
    return text


def parse_move(state: MuellState, command: Command) -> Move:
    name = NAMES.get(command.name.strip().lower()) if isinstance(command.name, str) else None
    if name is None:
        raise InvalidCommand(
            says("unknown_muell_command", name=command.name, commands=comma_list(sorted(set(NAMES.values()))))
        )
    actor = command.actor
    wanted = ACTORS.get(name, ActorKind.SEAT)
    if actor.kind is not wanted:
        who = {ActorKind.SEAT: says("by_a_seat"), ActorKind.HOST: says("by_the_host"), ActorKind.CHANCE: says("by_chance")}[wanted]
        raise InvalidCommand(says("done_by", name=name, who=who, actor=actor_name(actor)))
    if actor.is_seat and not (actor.seat is not None and 0 <= actor.seat < state.n):
        raise InvalidCommand(says("no_such_seat", seat=actor.seat))
    comp = state.comp
    if name == "correct":
        target = need_target(command, CORRECTION_TARGETS)
        seat = seat_arg(command, [s.name for s in state.seats]) if target.seat else None
        return Move(actor, name, amount=need_to(command), target=target.key, seat=seat, reason=need_reason(command))
    if name == "end":
        return Move(actor, name, reason=end_reason(command))
    if name == "deal":
        card = command.arg("card")
        return Move(actor, name, card=None if card is None else _card(comp, command))
    if name == "shuffle":
        order = command.need("order")
        if not isinstance(order, list) or not all(isinstance(c, str) for c in order):
            raise InvalidCommand(says("order_list"))
        kinds: list[str] = []
        for i, text in enumerate(order):
            kind = resolve_card(comp, text)
            if kind is None:
                raise InvalidCommand(says("order_not_a_card", number=i + 1, text=text))
            kinds.append(kind)
        return Move(actor, name, order=tuple(kinds))
    if name == "loan":
        count = command.need_int("count", minimum=1) if "count" in command.args else 1
        if count > MAX_LOANS_AT_ONCE:
            raise InvalidCommand(says("loan_max", max=MAX_LOANS_AT_ONCE))
        return Move(actor, name, count=count)
    if name == "bribery":
        return Move(actor, name, use=_bool(command, "use"))
    if name == "choose":
        return Move(actor, name, column=command.need_int("set", minimum=1))
    if name == "keep":
        return Move(actor, name)
    if name == "discard":
        return Move(actor, name, card=_card(comp, command))
    if name == "bid":
        return Move(actor, name, amount=command.need_int("amount", minimum=1))
    if name == "no-bid":
        return Move(actor, name)
    if name == "vote":
        raw_choice = command.need("choice")
        choice = CHOICES.get(raw_choice.strip().lower()) if isinstance(raw_choice, str) else None
        if choice is None:
            raise InvalidCommand(says("vote_choice", raw=raw_choice))
        return Move(actor, name, choice=choice, use=_bool(command, "bribery", False))
    # play
    card = _card(comp, command)
    adviser = _bool(command, "adviser", False)
    rows: tuple[str, ...] = ()
    direction: str | None = None
    if card == "Innovate":
        if "row" not in command.args:
            raise InvalidCommand(says("innovate_row"))
        rows = (_row(command, "row"),)
        if "row2" in command.args:
            if not adviser:
                raise InvalidCommand(says("row2_adviser"))
            rows = (*rows, _row(command, "row2"))
    elif card == "Hire/Fire":
        raw = command.arg("direction")
        if not isinstance(raw, str) or raw.strip().lower() not in DIRECTIONS:
            raise InvalidCommand(says("play_hire_fire_direction"))
        direction = DIRECTIONS[raw.strip().lower()]
    use = False
    proposal = repeal = ""
    for key in ("back", "propose", "repeal"):
        if key in command.args and (card != "Waste Inspection" or state.options.get("variant") != "simulation"):
            raise InvalidCommand(
                says("negotiation_arg", key=key)
            )
    if "back" in command.args:
        use = _bool(command, "back")
    if command.arg("propose") not in (None, "", "none"):
        proposal = _proposal(command, "propose")
        if proposal == "repeal":
            repeal = _proposal(command, "repeal") if "repeal" in command.args else ""
    elif "repeal" in command.args:
        raise InvalidCommand(says("repeal_arg"))
    return Move(actor, name, card=card, adviser=adviser, rows=rows, direction=direction, use=use,
                proposal=proposal, repeal=repeal)
