"""Müll + Money (Dr. Jürgen Strohm), 2-4 seats: the companion is the bank and
the bookkeeper.  Cards lie face up, so the cards are public; each seat's cash
is hidden and appears only in that seat's own view.

A round: the sets are dealt (chance commands, card by card; a Pollution Check
interrupts), seats choose a set in turn, then play, discard or keep cards in
turn; wages are paid and the start player moves left.  The round in which a
factory reaches column 20 is the last; a final pollution check follows, then
the score.

This module only wires the game's modules to the contract of
``companion.games.base.Game``: ``moves`` (commands → moves), ``rules``
(check and apply, over the topic modules ``deal``, ``sets``, ``cards``,
``auction``, ``pollution``, ``waste``, ``loans``, ``round_end``, ``end``,
``corrections``; for 003's simulation variant ``negotiation``, ``votes``,
``set_sale`` and ``disaster``), ``chance`` (the software shuffle), ``status``, ``views``,
``hints``, ``scoring`` and ``position``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.commands import Actor, Command
from companion.errors import SetupError
from companion.games.base import (
    ActionHint,
    CardKind,
    Game,
    Outcome,
    ScoreSheet,
    TableConfig,
    Viewer,
)
from companion.games.muell_money import deal, hints, position, rules, scoring, status, views
from companion.games.muell_money.chance import shuffle_command
from companion.games.muell_money.components import (
    MAT_ROWS,
    MAX_SEATS,
    MIN_SEATS,
    Components,
    read_components,
)
from companion.games.muell_money.moves import Move, parse_move
from companion.games.muell_money.options import OPTIONS
from companion.games.muell_money.sets import new_grid
from companion.games.muell_money.state import MuellState, Phase, SeatState
from companion.games.muell_money.words import WORDS, comma_list, says, semicolon_list
from companion.messages import SeatName
from companion.rules import resolve_options

#: the server's software hook finds ``shuffle_command`` beside the Game class
__all__ = ["MuellMoney", "shuffle_command"]


class MuellMoney(Game[MuellState, Move]):

    words = WORDS
    key = "muell-money"
    title = "Müll + Money"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    seeds = ("000", "003", "004")
    options = OPTIONS
    colours = ("red", "blue", "yellow", "green")
    data_file = "components.json"

    # component data ----------------------------------------------------------
    def edition_problems(self, edition: Mapping[str, Any]) -> list[str]:
        return read_components(edition)[1]

    def components(self, edition: Mapping[str, Any]) -> Components:
        comp, problems = read_components(edition or self.default_edition())
        if comp is None:
            raise SetupError(says("data_unusable", problems=semicolon_list(problems)))
        return comp

    def card_kinds(self, edition: Mapping[str, Any]) -> tuple[CardKind, ...]:
        comp = self.components(edition)
        return tuple(CardKind(k.code, k.name, k.copies) for k in comp.kinds)

    # setup -------------------------------------------------------------------
    def setup(self, config: TableConfig) -> MuellState:
        if not self.min_seats <= len(config.seats) <= self.max_seats:
            raise SetupError(says("seat_count", low=self.min_seats, high=self.max_seats, seats=len(config.seats)))
        if not 0 <= config.start_seat < len(config.seats):
            raise SetupError(says("no_start_seat", seat=config.start_seat))
        try:
            options = resolve_options(self.options, config.options)
        except ValueError as err:
            raise SetupError(str(err)) from None
        comp = self.components(config.edition)
        if options["waste_zones"] not in comp.zones:
            raise SetupError(
                says("no_zone_set", zones=options["waste_zones"], has=comma_list(comp.zones))
            )
        if options["variant"] == "simulation" and (comp.variant is None or len(config.seats) not in comp.common_tracks):
            raise SetupError(
                says("variant_needs_data", seats=len(config.seats))
            )
        seats = [
            SeatState(
                name=SeatName(s.name, i),
                colour=s.colour,
                cash=comp.start_cash,
                raw=comp.start_raw,
                mat=[comp.start_hole] * len(MAT_ROWS),
                waste=comp.start_waste,
                column=comp.start_column,
                row=comp.start_row,
            )
            for i, s in enumerate(config.seats)
        ]
        state = MuellState(
            comp=comp,
            options=options,
            seats=seats,
            start_seat=config.start_seat,
            deck={k.name: k.copies for k in comp.kinds},
            discard={k.name: 0 for k in comp.kinds},
            supply=comp.supply_total - comp.start_raw * len(seats),
            bank_out=comp.start_cash * len(seats),
            common_waste=comp.common_start,
            furthest_column=comp.start_column,
        )
        new_grid(state)
        return state

    # parse / check / apply ---------------------------------------------------
    def parse(self, state: MuellState, command: Command) -> Move:
        return parse_move(state, command)

    def check(self, state: MuellState, move: Move) -> None:
        rules.check(state, move)

    def apply(self, state: MuellState, move: Move) -> Outcome[MuellState]:
        return rules.apply(state, move)

    # views ---------------------------------------------------------------------------
    def view(self, state: MuellState, viewer: Viewer) -> dict[str, Any]:
        return views.view(state, viewer)

    def private_view(self, state: MuellState, seat: int) -> dict[str, Any]:
        return views.private_view(state, seat)

    def status(self, state: MuellState) -> str:
        return status.status(state)

    def awaiting(self, state: MuellState) -> frozenset[int]:
        return status.awaiting(state)

    def describe_position(self, state: MuellState) -> dict[str, Any]:
        return position.describe(state)

    def place_position(self, state: MuellState, block: Any) -> MuellState:
        return position.place(state, block)

    def public_notes(self, state: MuellState) -> list[str]:
        return views.public_notes(state)

    # score -----------------------------------------------------------------------------
    def score(self, state: MuellState) -> ScoreSheet:
        return scoring.score(state)

    def is_over(self, state: MuellState) -> bool:
        return state.phase is Phase.OVER

    # hardware ----------------------------------------------------------------------------
    def card_command(self, state: MuellState, card: str, copy: int) -> Command:
        return deal.card_command(state, card, copy)

    # action hints (for the phone) --------------------------------------------------------------
    def actions(self, state: MuellState, actor: Actor) -> list[ActionHint]:
        return hints.action_hints(state, actor)
