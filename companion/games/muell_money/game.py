"""Müll + Money (Dr. Jürgen Strohm), 2-4 seats: the companion is the bank and
the bookkeeper.  Cards lie face up, so the cards are public; each seat's cash
is hidden and appears only in that seat's own view.

A round: the sets are dealt (chance commands, card by card; a Pollution Check
interrupts), seats choose a set in turn, then play, discard or keep cards in
turn; wages are paid and the start player moves left.  The round in which a
factory reaches column 20 is the last; a final pollution check follows, then
the score.
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
    ViewerKind,
)
from companion.games.muell_money import deal, position, rules, scoring
from companion.games.muell_money.chance import shuffle_command
from companion.games.muell_money.components import MAT_ROWS, Components, read_components
from companion.games.muell_money.moves import Move, parse_move
from companion.games.muell_money.options import OPTIONS
from companion.games.muell_money.sets import new_grid
from companion.games.muell_money.state import MuellState, Phase, SeatState
from companion.games.muell_money.status import awaiting, status
from companion.games.muell_money.waste import zone
from companion.rules import resolve_options

#: the server's software hook finds ``shuffle_command`` beside the Game class
__all__ = ["MuellMoney", "shuffle_command"]


class MuellMoney(Game[MuellState, Move]):
    key = "muell-money"
    title = "Müll + Money"
    min_seats = 2
    max_seats = 4
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
            raise SetupError("the Müll + Money component data cannot be used: " + "; ".join(problems))
        return comp

    def card_kinds(self, edition: Mapping[str, Any]) -> tuple[CardKind, ...]:
        comp = self.components(edition)
        return tuple(CardKind(k.code, k.name, k.copies) for k in comp.kinds)

    # setup -------------------------------------------------------------------
    def setup(self, config: TableConfig) -> MuellState:
        if not self.min_seats <= len(config.seats) <= self.max_seats:
            raise SetupError(f"Müll + Money is for 2-4 seats, not {len(config.seats)}")
        if not 0 <= config.start_seat < len(config.seats):
            raise SetupError(f"start seat {config.start_seat} is not one of the seats")
        try:
            options = resolve_options(self.options, config.options)
        except ValueError as err:
            raise SetupError(str(err)) from None
        comp = self.components(config.edition)
        if options["waste_zones"] not in comp.zones:
            raise SetupError(
                f"the component data has no waste zone set {options['waste_zones']!r} "
                f"(it has: {', '.join(comp.zones)})"
            )
        seats = [
            SeatState(
                name=s.name,
                colour=s.colour,
                cash=comp.start_cash,
                raw=comp.start_raw,
                mat=[comp.start_hole] * len(MAT_ROWS),
                waste=comp.start_waste,
                column=comp.start_column,
                row=comp.start_row,
            )
            for s in config.seats
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

    def zone(self, state: MuellState, waste: int) -> str:
        return zone(state, waste)

    # views ---------------------------------------------------------------------------
    def view(self, state: MuellState, viewer: Viewer) -> dict[str, Any]:
        comp = state.comp
        seats_view: list[dict[str, Any]] = []
        for i, s in enumerate(state.seats):
            seats_view.append(
                {
                    "seat": i,
                    "name": s.name,
                    "colour": s.colour,
                    "column": s.column,
                    "row": s.row,
                    "workers": s.row * 100,
                    "mat": {
                        row: {
                            "hole": s.mat[j] + 1,
                            "value": comp.holes[s.mat[j]].value,
                            "points": comp.holes[s.mat[j]].points,
                        }
                        for j, row in enumerate(MAT_ROWS)
                    },
                    "waste": s.waste,
                    "waste_zone": zone(state, s.waste),
                    "raw_materials": s.raw,
                    "loans": s.loans,
                    "cards": list(s.hand),
                    "kept_card": s.retained,
                    # a pass belongs to the round's play: never shown while dealing or choosing
                    "passed": s.passed and state.phase in (Phase.PLAY, Phase.AUCTION),
                    "start_player": i == state.start_seat,
                }
            )
        row, col = state.next_slot() if state.phase is Phase.DEAL else (None, None)
        out: dict[str, Any] = {
            "phase": state.phase.value,
            "round": state.round,
            "start_seat": state.start_seat,
            "turn": state.turn,
            "status": status(state),
            "seats": seats_view,
            "sets": [
                {"set": c + 1, "cards": list(cards), "taken_by": state.taken[c]}
                for c, cards in enumerate(state.grid)
            ],
            "next_deal": None if row is None else {"row": row + 1, "set": (col or 0) + 1},
            "deck": {
                "count": state.deck_count(),
                "by_kind": {k: v for k, v in state.deck.items() if v},
                "shuffle_recorded": state.deck_order is not None,
            },
            "discard": {k: v for k, v in state.discard.items() if v},
            "set_aside": list(state.set_aside),
            "pollution_check_this_round": state.pollution_seen,
            "end_reached": state.end_reached,
            "ended_by_host": state.ended_by_host,
            "end_reason": state.end_reason,
            "supply": state.supply,
            "auction": None,
            "pollution_check": None,
        }
        if state.auction is not None:
            a = state.auction
            out["auction"] = {
                "seller": a.seller,
                "lot": a.lot,
                "doubled": a.doubled,
                "bids": [{"seat": s, "amount": amt} for s, amt in a.bids],
                "high": a.high,
                "high_seat": a.high_seat,
                "to_bid": a.to_bid,
            }
        if state.check is not None:
            out["pollution_check"] = {"final": state.check.final, "deciding": list(state.check.pending)}
        if viewer.kind is ViewerKind.SEAT and viewer.seat is not None and 0 <= viewer.seat < state.n:
            me = state.seats[viewer.seat]
            out["you"] = {
                "seat": viewer.seat,
                "name": me.name,
                "cash": me.cash,
                "loans": me.loans,
                "debt": me.loans * comp.loan_amount,
            }
        return out

    def status(self, state: MuellState) -> str:
        return status(state)

    def awaiting(self, state: MuellState) -> frozenset[int]:
        return awaiting(state)

    def describe_position(self, state: MuellState) -> dict[str, Any]:
        return position.describe(state)

    def place_position(self, state: MuellState, block: Any) -> MuellState:
        return position.place(state, block)

    def public_notes(self, state: MuellState) -> list[str]:
        if state.comp.unverified:
            return [f"unverified component values in use: {', '.join(state.comp.unverified)}"]
        return []

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
        from companion.games.muell_money.hints import action_hints

        return action_hints(self, state, actor)
