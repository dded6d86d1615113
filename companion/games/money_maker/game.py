"""Money Maker (2018): banks issue credit on the rings of Amsterdam.

The companion is the bookkeeper: vaults (hidden), credit on every housing
block, the markets, the bankrun-o-meter, bank runs and the score sheet.
Dice and cards are chance: observed at the table and checked here.

This module only wires the game's modules to the contract of
``companion.games.base.Game``: ``moves`` parses, ``rules`` checks and applies,
``views`` draws, ``hints`` offers, ``scoring`` counts, ``position`` describes
and places a position, ``dice`` and ``investments`` read the hardware.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from companion.commands import Actor, Command
from companion.errors import SetupError
from companion.games.base import (
    ActionHint,
    CardKind,
    Die,
    DieFace,
    Game,
    Outcome,
    ScoreSheet,
    TableConfig,
    Viewer,
)
from companion.games.money_maker import dice, hints, investments, moves, position, rules, views
from companion.games.money_maker.components import MARKETS, Components, edition_problems, terms
from companion.games.money_maker.moves import Move
from companion.games.money_maker.options import OPTIONS
from companion.games.money_maker.scoring import score_sheet
from companion.games.money_maker.state import OVER, Auction, Bank, MoneyMakerState
from companion.games.money_maker.words import WORDS, says, semicolon_list


class MoneyMaker(Game[MoneyMakerState, Move]):

    words = WORDS
    key = "money-maker"
    title = "Money Maker"
    min_seats = 2
    max_seats = 6
    seeds = ("002",)
    #: the banks' colours in the box are orange, pink, black, white, purple and yellow;
    #: the six defaults are the ones visible on a dark screen (black is dark grey there),
    #: black stays on offer for the seat that plays the black bank
    colours = ("orange", "pink", "white", "purple", "yellow", "blue", "black")
    data_file = "components.json"
    options = OPTIONS
    #: the shipped edition's component names (:meth:`terms`), read once
    _default_terms: ClassVar[Mapping[str, Mapping[str, str]] | None] = None

    # data ------------------------------------------------------------------------
    def edition_problems(self, edition: Mapping[str, Any]) -> list[str]:
        problems = edition_problems(edition)
        if not problems:
            try:
                Components.from_edition(edition)
            except (KeyError, TypeError, ValueError) as err:  # pragma: no cover - belt and braces
                problems.append(says("edition_unreadable", err=err))
        return problems

    def terms(self, edition: Mapping[str, Any]) -> Mapping[str, Mapping[str, str]]:
        """The cards' names (and guilds, and action cards' texts) a stored
        line is drawn with, by kind and code, as this table's edition gives
        them (the shipped one's read once)."""
        if edition:
            return terms(edition)
        if MoneyMaker._default_terms is None:
            MoneyMaker._default_terms = terms(self.default_edition())
        return MoneyMaker._default_terms

    def components(self, config: TableConfig) -> Components:
        edition = config.edition or self.default_edition()
        problems = self.edition_problems(edition)
        if problems:
            raise SetupError(says("edition_unusable", problems=semicolon_list(problems)))
        return Components.from_edition(edition)

    # setup ------------------------------------------------------------------------
    def setup(self, config: TableConfig) -> MoneyMakerState:
        n = len(config.seats)
        if not self.min_seats <= n <= self.max_seats:
            raise SetupError(says("seats_2_6", seats=n))
        comp = self.components(config)
        length = int(config.options.get("bank_runs", "3"))
        if length not in (3, 4, 5):
            raise SetupError(says("length_3_4_5", length=length))
        if n not in comp.spots_to_circle:
            raise SetupError(says("meter_no_spot", seats=n))
        banks = [Bank(i, comp.start_gold) for i in range(n)]
        reserve = comp.gold_total - comp.start_gold * n
        if reserve < 0:
            raise SetupError(says("reserve_too_small"))
        markets = {m: comp.markets[m].start_fill for m in MARKETS}
        natural = {m: comp.markets[m].goods - comp.markets[m].start_fill for m in MARKETS}
        state = MoneyMakerState(
            comp=comp,
            names=config.seat_names(),
            length=length,
            beginner=config.options.get("variant", "full") == "beginner",
            more_than=config.options.get("dice_count", "more-than") == "more-than",
            gold_breaks_ties=config.options.get("tie_break", "shared") == "gold",
            banks=banks,
            reserve=reserve,
            markets=markets,
            natural=natural,
            removed_goods={m: 0 for m in MARKETS},
            deck={k.code: k.copies for k in comp.investments},
        )
        state.turn = config.start_seat % n
        state.auction = Auction("", 1)
        return state

    # moves ------------------------------------------------------------------------
    def parse(self, state: MoneyMakerState, command: Command) -> Move:
        return moves.parse(state, command)

    def check(self, state: MoneyMakerState, move: Move) -> None:
        rules.check(state, move)

    def apply(self, state: MoneyMakerState, move: Move) -> Outcome[MoneyMakerState]:
        lines = rules.apply(state, move)
        return Outcome(state, lines)

    def check_and_apply(self, state: MoneyMakerState, move: Move, *, in_place: bool = False) -> Outcome[MoneyMakerState]:
        return rules.check_and_apply(state, move, in_place=in_place)

    # views ------------------------------------------------------------------------
    def view(self, state: MoneyMakerState, viewer: Viewer) -> dict[str, Any]:
        return views.view(state, viewer)

    def private_view(self, state: MoneyMakerState, seat: int) -> dict[str, Any]:
        return views.private_view(state, seat)

    def actions(self, state: MoneyMakerState, actor: Actor) -> list[ActionHint]:
        return hints.hints(state, actor)

    def hint_inputs(self, state: MoneyMakerState, actor: Actor) -> object | None:
        return hints.hint_inputs(state, actor)

    def score(self, state: MoneyMakerState) -> ScoreSheet:
        return score_sheet(state)

    def is_over(self, state: MoneyMakerState) -> bool:
        return state.phase == OVER

    def status(self, state: MoneyMakerState) -> str:
        return views.status(state)

    def awaiting(self, state: MoneyMakerState) -> frozenset[int]:
        return views.awaiting(state)

    def describe_position(self, state: MoneyMakerState) -> dict[str, Any]:
        return position.describe(state)

    def place_position(self, state: MoneyMakerState, block: Any) -> MoneyMakerState:
        return position.place(state, block)

    def public_notes(self, state: MoneyMakerState) -> list[str]:
        if state.comp.unverified:
            count = len(state.comp.unverified)
            return [says("public_unverified_one" if count == 1 else "public_unverified", count=count)]
        return []

    # hardware ---------------------------------------------------------------------
    def card_kinds(self, edition: Mapping[str, Any]) -> tuple[CardKind, ...]:
        ed = edition or self.default_edition()
        comp = Components.from_edition(ed)
        return tuple(CardKind(k.code, k.name, k.copies) for k in comp.investments) + tuple(
            CardKind(k.code, k.name, k.copies) for k in comp.actions
        )

    def card_command(self, state: MoneyMakerState, card: str, copy: int) -> Command:
        return investments.card_command(state, card, copy)

    def dice_to_roll(self, state: MoneyMakerState) -> tuple[Die, ...]:
        return dice.dice_to_roll(state)

    def dice_command(self, state: MoneyMakerState, roll: Sequence[DieFace]) -> Command:
        return dice.dice_command(state, roll)
