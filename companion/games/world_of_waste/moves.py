"""World of Waste's moves: the Move type, the command vocabulary, and
parsing a command (or a card the camera sees) into a move."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.commands import CHANCE, Actor, Command
from companion.corrections import Target, need_reason, need_target, need_to, seat_arg
from companion.errors import IllegalMove, InvalidCommand
from companion.games.world_of_waste.citations import CARD_RULE, RECYCLER_EITHER_RULE
from companion.games.world_of_waste.components import RECYCLER, CardRef, Catalog, UnknownCard
from companion.games.world_of_waste.state import (
    Phase,
    WasteState,
    deal_order,
    hand_size,
    phase_rule,
    waiting_for,
)
from companion.games.world_of_waste.words import comma_list, says


@dataclass(frozen=True)
class Move:
    actor: Actor
    name: str
    seat: int | None = None
    cards: tuple[CardRef, ...] = ()
    card: CardRef | None = None
    pile: int | None = None  # 0-based
    use: str | None = None
    recycler: CardRef | None = None
    scan: bool = False  # ``sort``: the cards were given (a scan of the whole station)
    amount: int = 0  # ``correct``: the seat's new points correction
    reason: str = ""  # ``correct``: why


COMMANDS: Mapping[str, str] = {
    "deal": "chance or the seat itself: cards dealt to a seat's pile",
    "pick": "seat: pick one card from the pile it holds",
    "bonus": "chance or host: face-up cards of a bonus pile",
    "offer": "seat: the cards offered in the auction (secret until all are in)",
    "choose": "seat: take a bonus pile when it is its turn",
    "reveal": "chance or the owner: the face-down card of a bonus pile taken",
    "recycle": "seat: play a Recycler to draw three cards or remove one card",
    "draw": "chance, host or the seat: the cards a Recycler draws",
    "sort": "seat: put the hand into the station (optionally with the scanned station)",
    "station": "host or chance: a seat's whole station as scanned card ids",
    "boss": "host: give round 1's boss card to another seat before any card is dealt",
    "correct": "host: value 'points', seat, to, reason - set a seat's points correction (audited)",
    "end": "host: reason (optional) - end the game now and score the stations as they stand",
}


def correction_targets() -> tuple[Target, ...]:
    """What the host may correct, its labels said in the language spoken now
    (the host's form is drawn for its viewer: a table made at import would
    say them in English to every language)."""
    return (Target("points", says("points_target")),)


#: what the host may correct: the cards are corrected by scans (``station``,
#: ``reveal``); what is left is the score, as a points correction per seat
#: (its keys; the host's form says the labels with :func:`correction_targets`)
CORRECTION_TARGETS: tuple[Target, ...] = correction_targets()


def parse(state: WasteState, command: Command) -> Move:
    """The move a command stands for; raises :class:`InvalidCommand`."""
    name = command.name.strip().lower()
    if name not in COMMANDS:
        raise InvalidCommand(says("no_command", name=command.name, commands=comma_list(COMMANDS)))
    cat = state.catalog
    if name == "end":
        raw = command.arg("reason")
        if raw is not None and not isinstance(raw, str):
            raise InvalidCommand(says("end_reason_text", raw=raw))
        return Move(command.actor, name, reason=(raw or "").strip())
    if name == "correct":
        need_target(command, CORRECTION_TARGETS)
        who = seat_arg(command, state.names)
        return Move(command.actor, name, who, amount=need_to(command), reason=need_reason(command))
    seat = _seat_arg(state, command)
    if name in ("deal", "bonus", "draw"):
        return Move(command.actor, name, seat, _refs(cat, command, name), pile=_pile_arg(state, command, False))
    if name == "pick":
        return Move(command.actor, name, seat, card=_ref(cat, command, "card"))
    if name == "offer":
        return Move(command.actor, name, seat, _refs(cat, command, name, allow_empty=True))
    if name == "choose":
        return Move(command.actor, name, seat, pile=_pile_arg(state, command, True))
    if name == "reveal":
        return Move(command.actor, name, seat, card=_ref(cat, command, "card"))
    if name == "recycle":
        use = str(command.need("use")).strip().lower()
        if use not in ("draw", "remove"):
            raise InvalidCommand(says("recycle_use", use=use))
        recycler = _ref(cat, command, "recycler") if command.arg("recycler") is not None else None
        if recycler is not None and recycler.key != RECYCLER:
            raise InvalidCommand(says("not_a_recycler", raw=command.arg("recycler")))
        card = _ref(cat, command, "card") if use == "remove" else None
        if use == "draw" and command.arg("card") is not None:
            raise InvalidCommand(says("draw_no_card"), RECYCLER_EITHER_RULE)
        return Move(command.actor, name, seat, card=card, use=use, recycler=recycler)
    if name == "sort":
        given = command.arg("cards") is not None
        refs = _refs(cat, command, name, allow_empty=True) if given else ()
        if given:
            _need_exact(refs, "sort")
        return Move(command.actor, name, seat, refs, scan=given)
    if name == "boss":
        if seat is None:
            raise InvalidCommand(says("boss_needs_seat"))
        return Move(command.actor, name, seat)
    # station
    if seat is None:
        raise InvalidCommand(says("station_needs_seat"))
    refs = _refs(cat, command, name, allow_empty=True)
    _need_exact(refs, "station")
    return Move(command.actor, name, seat, refs, scan=True)


def _need_exact(refs: Sequence[CardRef], name: str) -> None:
    for r in refs:
        if r.copy is None:
            raise InvalidCommand(says("scan_ids_only", command=name))
    if len(set(refs)) != len(refs):
        raise InvalidCommand(says("scan_id_twice", command=name))


def _seat_arg(state: WasteState, command: Command) -> int | None:
    raw = command.arg("seat")
    if raw is None:
        return None
    if isinstance(raw, str) and not raw.strip().lstrip("-").isdigit():
        low = raw.strip().lower()
        for i, n in enumerate(state.names):
            if n.lower() == low:
                return i
        raise InvalidCommand(says("no_seat_called", command=command.name, raw=raw, names=comma_list(state.names)))
    seat = command.need_int("seat")
    if not 0 <= seat < state.seats:
        raise InvalidCommand(says("no_seat_number", command=command.name, seat=seat, last=state.seats - 1))
    return seat


def _pile_arg(state: WasteState, command: Command, needed: bool) -> int | None:
    if command.arg("pile") is None and not needed:
        return None
    pile = command.need_int("pile")
    count = state.seats - 1
    if not 1 <= pile <= count:
        raise InvalidCommand(says("no_pile_number", command=command.name, pile=pile, count=count))
    return pile - 1


def _reason(err: UnknownCard) -> object:
    """Why a card was refused, as it was said (a sentence keeps its meaning,
    so the refusal reads in the language it is drawn in)."""
    return err.args[0] if len(err.args) == 1 and isinstance(err.args[0], str) else str(err)


def _ref(cat: Catalog, command: Command, key: str) -> CardRef:
    try:
        return cat.parse_ref(command.need(key))
    except UnknownCard as err:
        raise InvalidCommand(says("command_error", command=command.name, error=_reason(err))) from None


def _refs(cat: Catalog, command: Command, name: str, *, allow_empty: bool = False) -> tuple[CardRef, ...]:
    raw = command.arg("cards")
    if raw is None and command.arg("card") is not None:
        raw = [command.arg("card")]
    if raw is None:
        raise InvalidCommand(says("needs_cards", command=name))
    if isinstance(raw, str):
        raw = [p for p in (x.strip() for x in raw.split(",")) if p]
    if not isinstance(raw, list):
        raise InvalidCommand(says("cards_not_list", command=name, raw=raw))
    if not raw and not allow_empty:
        raise InvalidCommand(says("cards_empty", command=name))
    try:
        return tuple(cat.parse_ref(x) for x in raw)
    except UnknownCard as err:
        raise InvalidCommand(says("command_error", command=name, error=_reason(err))) from None


def card_command(state: WasteState, card: str, copy: int) -> Command:
    """The command a card seen by the camera stands for now (a deal, a bonus
    pile's face-up card, a Recycler's draw or a face-down card turned over)."""
    try:
        ref = state.catalog.parse_ref(f"{card}-{copy}")
    except UnknownCard as err:
        raise IllegalMove(str(err), CARD_RULE) from None
    card_id = state.catalog.type(ref.key).card_id(copy)
    if state.phase is Phase.DEAL:
        for seat in deal_order(state):
            if len(state.dealt[seat]) < hand_size(state.seats):
                return Command(CHANCE, "deal", {"seat": seat, "cards": [card_id]}, None, "scanner")
    if state.phase is Phase.MARKET:
        for i, pile in enumerate(state.piles):
            if len(pile.face_up) < 2:
                return Command(CHANCE, "bonus", {"pile": i + 1, "cards": [card_id]}, None, "scanner")
    if state.phase is Phase.PLAY:
        for seat in range(state.seats):
            if state.drawing[seat]:
                return Command(CHANCE, "draw", {"seat": seat, "cards": [card_id]}, None, "scanner")
        for seat in range(state.seats):
            if state.face_down_due[seat]:
                return Command(CHANCE, "reveal", {"seat": seat, "card": card_id}, None, "scanner")
    raise IllegalMove(says("no_card_expected", waiting=waiting_for(state)), phase_rule(state.phase))
