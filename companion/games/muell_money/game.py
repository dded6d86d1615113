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

import random
from collections.abc import Mapping
from typing import Any

from companion.commands import CHANCE, HOST, Actor, Command
from companion.corrections import CORRECTION_RULE
from companion.corrections import lines as correction_lines
from companion.errors import IllegalMove, InvalidCommand, NotYourTurn, SetupError
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
from companion.games.muell_money import citations as R
from companion.games.muell_money.components import (
    MAT_ROW_LABELS,
    MAT_ROW_MEANING,
    MAT_ROWS,
    Components,
    read_components,
)
from companion.games.muell_money.moves import CORRECTION_TARGETS, Move, parse_move, resolve_card
from companion.games.muell_money.options import OPTIONS
from companion.games.muell_money.scoring import score_sheet
from companion.games.muell_money.state import (
    Auction,
    MuellState,
    PendingCheck,
    Phase,
    SeatState,
)
from companion.rules import EARLY_END, SHARED_PLACE, Citation, Explanation, resolve_options, say

ORDER = "Order"
RAW = "Raw Materials"
GROWTH = "Growth"
INNOVATE = "Innovate"
DISPOSAL = "Waste Disposal"
ADVISER = "Adviser"
HIRE_FIRE = "Hire/Fire"
INSPECTION = "Waste Inspection"
BRIBERY = "Bribery"
POLLUTION = "Pollution Check"


def _m(amount: int) -> str:
    return f"{amount} M"


def plural(count: int, one: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{count} {one if count == 1 else one + 's'}"


def _raw(count: int) -> str:
    return plural(count, "raw material")


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
        self._new_grid(state)
        return state

    @staticmethod
    def _new_grid(state: MuellState) -> None:
        state.grid = [[] for _ in range(state.columns)]
        state.taken = [None] * state.columns
        state.phase = Phase.DEAL
        state.turn = None

    # parse / check -------------------------------------------------------------
    def parse(self, state: MuellState, command: Command) -> Move:
        return parse_move(state, command)

    def check(self, state: MuellState, move: Move) -> None:
        if state.phase is Phase.OVER:
            if move.name == "end":
                raise IllegalMove("the game is already over: there is nothing left to end", EARLY_END)
            raise IllegalMove("the game is over", R.END)
        name = move.name
        if name in ("loan", "end"):
            return
        if name == "correct":
            self._check_correct(state, move)
        elif name == "shuffle":
            self._check_shuffle(state, move)
        elif name == "deal":
            self._check_deal(state, move)
        elif name == "bribery":
            self._check_bribery(state, move)
        elif name == "choose":
            self._check_choose(state, move)
        elif name in ("play", "discard", "keep"):
            self._check_turn(state, move)
        elif name in ("bid", "no-bid"):
            self._check_bid(state, move)
        else:  # pragma: no cover - parse_move knows every name
            raise InvalidCommand(f"unknown command {name!r}")

    def _check_correct(self, state: MuellState, move: Move) -> None:
        comp = state.comp
        to = move.amount
        target = move.target
        who = f"{state.name(move.seat)}'s " if move.seat is not None else "the "
        label = next(t.noun for t in CORRECTION_TARGETS if t.key == target)

        def refuse(why: str) -> None:
            raise IllegalMove(f"cannot correct {who}{label} to {to}: {why}", CORRECTION_RULE)

        if target in ("cash", "loans") and to < 0:
            refuse("it cannot be negative")
        if target == "raw_materials":
            assert move.seat is not None
            if to < 0:
                refuse("it cannot be negative")
            more = to - state.seats[move.seat].raw
            if more > state.supply:
                refuse(f"the supply holds only {state.supply} (correct the supply first if it is wrong)")
        if target == "supply" and to < 0:
            refuse("it cannot be negative")
        if target == "waste" and not 0 <= to <= comp.waste_max:
            refuse(f"the waste meter runs from 0 to {comp.waste_max}")
        if target == "column" and to not in comp.columns:
            refuse(f"the board's columns are {min(comp.columns)} to {max(comp.columns)}")
        if target == "row" and to not in comp.rows:
            refuse(f"the board's rows are {min(comp.rows)} to {max(comp.rows)}")
        if target.startswith("mat_") and not 1 <= to <= len(comp.holes):
            refuse(f"a mat row has holes 1 to {len(comp.holes)}")

    def _apply_correct(self, state: MuellState, move: Move, lines: list[Explanation]) -> None:
        comp = state.comp
        to, target, reason = move.amount, move.target, move.reason
        if move.seat is None:  # the supply
            old = state.supply
            state.supply = to
            state.raw_corrected += to - old
            lines.extend(correction_lines("", "raw-material supply", str(old), str(to), reason))
            return
        seat = move.seat
        me = state.seats[seat]
        if target == "cash":
            old = me.cash
            me.cash = to
            if to > old:
                state.bank_out += to - old
                extra = f"{_m(to - old)} from the bank"
            else:
                state.bank_in += old - to
                extra = f"{_m(old - to)} back to the bank"
            lines.extend(correction_lines(me.name, "cash", _m(old), _m(to), reason, hidden_seat=seat, extra=extra))
            return
        if target.startswith("mat_"):
            row = MAT_ROWS.index(target[4:])
            old = me.mat[row]
            me.mat[row] = to - 1
            what = f"mat marker in the {MAT_ROW_LABELS[MAT_ROWS[row]]} row"
            lines.extend(
                correction_lines(
                    me.name, what, f"hole {old + 1} ({comp.holes[old].value})",
                    f"hole {to} ({comp.holes[to - 1].value})", reason,
                )
            )
            return
        attr, what = {
            "loans": ("loans", "loan markers"),
            "raw_materials": ("raw", "raw materials"),
            "waste": ("waste", "waste"),
            "column": ("column", "factory column"),
            "row": ("row", "factory row"),
        }[target]
        old = int(getattr(me, attr))
        setattr(me, attr, to)
        extra = ""
        if target == "raw_materials":
            state.supply -= to - old
            extra = (f"{to - old} from the supply" if to >= old else f"{old - to} back to the supply") + (
                f", {state.supply} left there"
            )
        elif target == "waste":
            extra = f"{self._zone_text(state, to)}"
        elif target == "column":
            state.end_reached = any(s.column >= comp.end_column for s in state.seats)
            if to >= comp.end_column:
                extra = "the factory is on the last column: the game ends after this round"
        lines.extend(correction_lines(me.name, what, str(old), str(to), reason, extra=extra))

    def _check_shuffle(self, state: MuellState, move: Move) -> None:
        if state.phase is not Phase.DEAL:
            raise IllegalMove(
                "a software shuffle is recorded only while cards are being dealt", R.LAYOUT
            )
        counts: dict[str, int] = {}
        for card in move.order:
            counts[card] = counts.get(card, 0) + 1
        wanted = {k: v for k, v in state.deck.items() if v}
        if counts != wanted:
            raise IllegalMove(
                f"the shuffled order must hold exactly the {plural(state.deck_count(), 'card')} of the deck "
                f"({_multiset(wanted)}), not {plural(len(move.order), 'card')} ({_multiset(counts)})",
                R.LAYOUT,
            )

    def _check_deal(self, state: MuellState, move: Move) -> None:
        if state.phase is not Phase.DEAL:
            raise IllegalMove(
                f"no card is being dealt now ({self.status(state)})", R.LAYOUT
            )
        if move.card is None:
            if not state.deck_order:
                raise IllegalMove(
                    "name the card dealt: no software shuffle is recorded for this deck", R.LAYOUT
                )
            return
        if state.deck_order:
            expected = state.deck_order[0]
            if move.card != expected:
                raise IllegalMove(
                    f"the recorded shuffle says the next card is {expected}, not {move.card}",
                    R.LAYOUT,
                )
        if state.deck.get(move.card, 0) <= 0:
            raise IllegalMove(
                f"no {move.card} is left in the deck ({self._whereabouts(state, move.card)})",
                R.LAYOUT,
            )

    def _whereabouts(self, state: MuellState, card: str) -> str:
        total = state.comp.kind(card).copies
        on_grid = sum(col.count(card) for col in state.grid)
        in_hands = sum(s.hand.count(card) + (s.retained == card) for s in state.seats)
        parts = [
            f"{on_grid} in the sets on the table" if on_grid else "",
            f"{in_hands} in front of seats" if in_hands else "",
            f"{state.discard.get(card, 0)} discarded" if state.discard.get(card, 0) else "",
            f"{state.set_aside.count(card)} set aside" if card in state.set_aside else "",
        ]
        where = ", ".join(p for p in parts if p)
        if not where:
            return f"the deck holds {total}"
        return f"the only one is out: {where}" if total == 1 else f"all {total} are out: {where}"

    def _check_bribery(self, state: MuellState, move: Move) -> None:
        seat = _seat(move)
        if state.phase is not Phase.CHECK or state.check is None:
            raise IllegalMove(
                "Bribery is used only when a Pollution Check is resolved", R.BRIBERY_ONLY
            )
        if seat not in state.check.pending:
            raise NotYourTurn(
                f"{state.name(seat)} has no Bribery decision to make at this Pollution Check",
                R.BRIBERY_ONLY,
            )

    def _need_turn(self, state: MuellState, seat: int, phase: Phase, now: str, act: str, rule: Citation) -> None:
        """Refuse unless the game is in ``phase`` and it is ``seat``'s turn."""
        if state.phase is not phase:
            raise IllegalMove(f"{now} ({self.status(state)})", rule)
        if seat != state.turn:
            assert state.turn is not None
            raise NotYourTurn(f"it is {state.name(state.turn)}'s turn to {act}", rule)

    def _check_choose(self, state: MuellState, move: Move) -> None:
        self._need_turn(state, _seat(move), Phase.CHOOSE, "sets are not being chosen now", "choose a set", R.SELECT)
        if not 1 <= move.column <= state.columns:
            raise IllegalMove(f"there are sets 1 to {state.columns}, not {move.column}", R.SELECT)
        taker = state.taken[move.column - 1]
        if taker is not None:
            raise IllegalMove(f"set {move.column} was taken by {state.name(taker)}", R.SELECT)

    def _check_turn(self, state: MuellState, move: Move) -> None:
        seat = _seat(move)
        self._need_turn(state, seat, Phase.PLAY, "cards are not being played now", "play", R.PLAY)
        me = state.seats[seat]
        if move.name == "keep":
            if len(me.hand) != 1:
                raise IllegalMove(
                    f"you may keep a card only when it is your last one ({plural(len(me.hand), 'card')} left)",
                    R.PASS,
                )
            return
        assert move.card is not None
        if move.card not in me.hand:
            raise IllegalMove(f"{me.name} holds no {move.card} (holds: {_cards(me.hand)})", R.PLAY)
        if move.name == "discard":
            if move.card == RAW:
                raise IllegalMove(
                    "Raw Materials may not be discarded: sell them or keep the card as your last",
                    R.NO_RAW_DISCARD,
                )
            return
        self._check_play(state, seat, move)

    def _check_play(self, state: MuellState, seat: int, move: Move) -> None:
        me = state.seats[seat]
        comp = state.comp
        card = move.card
        adviser = move.adviser
        if adviser:
            if card == ADVISER:
                raise IllegalMove(
                    "an Adviser doubles another card, not another Adviser (play it alone to repay a loan)",
                    R.ADVISER,
                )
            if me.hand.count(ADVISER) < 1:
                raise IllegalMove(f"{me.name} holds no Adviser to play with {card}", R.ADVISER)
            if card == BRIBERY:
                raise IllegalMove("Bribery cannot be played with an Adviser", R.BRIBERY_NO_ADVISER)
        factor = comp.adviser_factor if adviser else 1
        if card == BRIBERY:
            raise IllegalMove(
                "Bribery cannot be played: it is used only at a Pollution Check (discard or keep it)",
                R.BRIBERY_ONLY,
            )
        if card == ADVISER:
            if me.loans < 1:
                # 004 says it outright: "The card may not be played alone, but must be played
                # with a loan token or another action card."
                raise IllegalMove(
                    "an Adviser alone repays a loan, and you have none: play it with another card",
                    R.ADVISER_NOT_ALONE,
                )
            if me.cash < comp.repay_amount:
                raise IllegalMove(
                    f"repaying a loan costs {_m(comp.repay_amount)} in cash: take the money first",
                    R.ADVISER,
                )
        elif card == ORDER:
            need_workers = self.mat_value(state, seat, "workers")
            need_raw = self.mat_value(state, seat, "raw_materials")
            waste = self.mat_value(state, seat, "waste")
            if me.row < need_workers:
                raise IllegalMove(
                    f"an Order needs {need_workers}00 workers and {me.name}'s factory has {me.row}00 (row {me.row})",
                    R.ORDER,
                )
            if me.raw < need_raw:
                raise IllegalMove(
                    f"an Order needs {_raw(need_raw)} and {me.name} has {me.raw}", R.ORDER
                )
            if me.waste + waste > comp.waste_max:
                raise IllegalMove(
                    f"an Order makes {waste} waste and {me.name}'s storage holds {me.waste} of {comp.waste_max}: no room",
                    R.ORDER_WASTE,
                )
        elif card == GROWTH:
            if me.column >= comp.end_column:
                raise IllegalMove(
                    f"{me.name}'s factory is already in column {me.column}, the last", R.GROWTH
                )
        elif card == HIRE_FIRE:
            if move.direction is None:
                raise IllegalMove("Hire/Fire needs a direction: 'hire' (up) or 'fire' (down)", R.HIRE_FIRE)
            top, bottom = max(comp.rows), min(comp.rows)
            if move.direction == "hire" and me.row >= top:
                raise IllegalMove(f"{me.name}'s factory is already in the top row ({top}00 workers)", R.HIRE_FIRE)
            if move.direction == "fire" and me.row <= bottom:
                raise IllegalMove(f"{me.name}'s factory is already in the bottom row ({bottom}00 workers)", R.HIRE_FIRE)
        elif card == INNOVATE:
            steps = self._innovate_steps(move, factor)
            if len(steps) != factor:
                raise IllegalMove(
                    "Innovate needs the mat row to improve ('workers', 'raw_materials' or 'waste')"
                    + (" for each of its two steps" if factor > 1 else ""),
                    R.INNOVATE,
                )
            last = len(comp.holes) - 1
            for row in set(steps):
                hole = me.mat[MAT_ROWS.index(row)]
                if hole + steps.count(row) > last:
                    raise IllegalMove(
                        f"{me.name}'s {MAT_ROW_LABELS[row]} marker is in hole {hole + 1} of {last + 1}: "
                        f"no room for {steps.count(row)} step(s)",
                        R.INNOVATE,
                    )
            cost = comp.innovate_cost * factor
            if me.cash < cost:
                raise IllegalMove(
                    f"Innovate costs {_m(cost)} in cash: take a loan first", R.INNOVATE
                )
        elif card in (RAW, DISPOSAL, INSPECTION):
            return
        elif card == POLLUTION:  # pragma: no cover - never in a hand
            raise IllegalMove("the Pollution Check is never played", R.CHECK)

    @staticmethod
    def _innovate_steps(move: Move, factor: int) -> list[str]:
        rows = list(move.rows)
        if factor > 1 and len(rows) == 1:
            rows = rows * 2
        return rows[:factor] if len(rows) >= factor else rows

    def _check_bid(self, state: MuellState, move: Move) -> None:
        seat = _seat(move)
        auction = state.auction
        if state.phase is not Phase.AUCTION or auction is None:
            raise IllegalMove("no raw materials are being auctioned now", R.AUCTION)
        if seat != auction.to_bid:
            raise NotYourTurn(f"it is {state.name(auction.to_bid)}'s turn to bid", R.AUCTION)
        if move.name == "no-bid":
            return
        if move.amount <= auction.high:
            raise IllegalMove(
                f"a bid must beat the highest bid so far ({_m(auction.high)})"
                if auction.high
                else "a bid is at least 1 M",
                R.AUCTION,
            )
        if move.amount > state.seats[seat].cash:
            raise IllegalMove(
                f"a bid must be covered by cash in hand: {state.name(seat)} cannot bid {_m(move.amount)} "
                "(take a loan before bidding)",
                R.AUCTION_CASH,
            )

    # apply -------------------------------------------------------------------
    def apply(self, state: MuellState, move: Move) -> Outcome[MuellState]:
        lines: list[Explanation] = []
        cash_before = [s.cash for s in state.seats]
        handler = {
            "correct": self._apply_correct,
            "loan": self._apply_loan,
            "shuffle": self._apply_shuffle,
            "deal": self._apply_deal,
            "bribery": self._apply_bribery,
            "choose": self._apply_choose,
            "play": self._apply_play,
            "discard": self._apply_discard,
            "keep": self._apply_keep,
            "bid": self._apply_bid,
            "no-bid": self._apply_bid,
            "end": self._apply_end,
        }[move.name]
        handler(state, move, lines)
        for i, seat in enumerate(state.seats):
            if seat.cash != cash_before[i] and move.name != "correct":
                lines.append(
                    say(f"{seat.name}, your cash: {_m(seat.cash)} (was {_m(cash_before[i])})", audience=[i])
                )
        return Outcome(state, lines)

    # money ----------------------------------------------------------------------
    def _take_loans(self, state: MuellState, seat: int, count: int, lines: list[Explanation], why: str = "") -> None:
        me = state.seats[seat]
        amount = state.comp.loan_amount * count
        me.cash += amount
        me.loans += count
        state.bank_out += amount
        marker = f"{count} loan{'s' if count > 1 else ''}"
        cites = (R.FORCED_LOAN, R.FORCED_LOAN_FINE) if why else (R.LOAN, R.LOAN_ANY_TIME)
        lines.append(
            say(
                f"{me.name} takes {marker}{why}: +{_m(amount)}, {count} × −{state.comp.loan_amount} marker"
                f" ({me.loans} loan{'s' if me.loans != 1 else ''} in all)",
                *cites,
            )
        )

    def _pay_bank(self, state: MuellState, seat: int, amount: int, lines: list[Explanation]) -> None:
        """Pay the bank; a seat that cannot pay takes loans first (automatically)."""
        me = state.seats[seat]
        if me.cash < amount:
            short = amount - me.cash
            count = -(-short // state.comp.loan_amount)
            self._take_loans(state, seat, count, lines, " to be able to pay")
        me.cash -= amount
        state.bank_in += amount

    def _apply_loan(self, state: MuellState, move: Move, lines: list[Explanation]) -> None:
        self._take_loans(state, _seat(move), move.count, lines)

    # dealing ---------------------------------------------------------------------
    def _apply_shuffle(self, state: MuellState, move: Move, lines: list[Explanation]) -> None:
        state.deck_order = list(move.order)
        lines.append(
            say(
                f"The deck of {plural(len(move.order), 'card')} is shuffled by software; the order is recorded "
                "and each card dealt is taken from it",
                R.LAYOUT,
            )
        )

    def _apply_deal(self, state: MuellState, move: Move, lines: list[Explanation]) -> None:
        if state.deck_order:
            card = state.deck_order.pop(0)
        else:
            assert move.card is not None
            card = move.card
        state.deck[card] -= 1
        row, col = state.next_slot()
        where = f"row {row + 1}, set {col + 1}"
        if card == POLLUTION:
            state.set_aside.append(card)
            state.pollution_seen = True
            lines.append(
                say(
                    f"Dealt: Pollution Check ({where}): the deal stops; the card is set aside "
                    "and the whole deck will be reshuffled at the end of the round",
                    R.CHECK,
                    R.CHECK_FR,
                )
            )
            self._start_check(state, final=False, lines=lines)
        elif card in state.grid[col]:
            state.discard[card] += 1
            lines.append(
                say(f"Dealt: {card} ({where}) is already in set {col + 1}: discarded, another card is dealt", R.LAYOUT)
            )
        else:
            state.grid[col].append(card)
            lines.append(say(f"Dealt: {card} to set {col + 1} (row {row + 1})", R.LAYOUT))
        self._advance(state, lines)

    def _refill_deck(self, state: MuellState, lines: list[Explanation]) -> None:
        if state.deck_count() > 0:
            return
        state.deck = dict(state.discard)
        state.discard = {k: 0 for k in state.discard}
        state.deck_order = None
        state.reshuffles += 1
        lines.append(
            say(f"The deck is empty: the {plural(state.deck_count(), 'discarded card')} "
                f"{'is' if state.deck_count() == 1 else 'are'} shuffled into a new deck", R.LAYOUT)
        )

    # pollution check ---------------------------------------------------------------
    def zone(self, state: MuellState, waste: int) -> str:
        return state.comp.zone_of(state.options["waste_zones"], waste)

    def _zone_text(self, state: MuellState, waste: int) -> str:
        zone = self.zone(state, waste)
        low, high = state.comp.zones[state.options["waste_zones"]][zone]
        return f"{zone}, {low}-{high}"

    def _start_check(self, state: MuellState, *, final: bool, lines: list[Explanation]) -> None:
        pending: list[int] = []
        for k in range(state.n):
            seat = (state.start_seat + k) % state.n
            me = state.seats[seat]
            zone = self.zone(state, me.waste)
            if zone != "green" and BRIBERY in self._cards_held(me):
                pending.append(seat)
                lines.append(
                    say(
                        f"{'Final pollution check' if final else 'Pollution Check'}: {me.name}'s waste is {me.waste} "
                        f"({self._zone_text(state, me.waste)}): {me.name} holds Bribery and decides whether to use it",
                        R.BRIBERY_ONLY,
                    )
                )
            else:
                self._penalise(state, seat, final=final, bribed=False, lines=lines)
        state.check = PendingCheck(final=final, pending=pending)
        state.phase = Phase.CHECK
        if not pending:
            self._finish_check(state, lines)

    @staticmethod
    def _cards_held(me: SeatState) -> list[str]:
        return [*me.hand, *([me.retained] if me.retained else [])]

    def _penalise(self, state: MuellState, seat: int, *, final: bool, bribed: bool, lines: list[Explanation]) -> None:
        me = state.seats[seat]
        comp = state.comp
        zone = self.zone(state, me.waste)
        label = "Final pollution check" if final else "Pollution Check"
        head = f"{label}: {me.name}'s waste is {me.waste} ({self._zone_text(state, me.waste)})"
        cites: tuple[Citation, ...] = (R.CHECK, R.ZONES)
        if final:
            cites = (R.FINAL_CHECK_FR, R.ZONES) if state.options["final_check"] == "french-end" else (R.FINAL_CHECK, R.CHECK, R.ZONES)
        if zone == "green":
            lines.append(say(f"{head}: nothing happens", *cites))
            return
        table = "french_end" if final and state.options["final_check"] == "french-end" else "normal"
        penalty = comp.penalties[table][zone]
        left_edge = min(comp.columns)
        if bribed:
            fine = penalty.fine if state.options["bribery"] == "fine-still-paid" else 0
            total = fine + comp.bribery_cost
            self._pay_bank(state, seat, total, lines)
            paid = f"pays {_m(comp.bribery_cost)} bribe" + (f" and the {_m(fine)} fine" if fine else "")
            lines.append(
                say(
                    f"{head}: uses Bribery (discarded), {paid}, factory stays at {me.column}",
                    *cites,
                    R.BRIBERY_004 if fine else R.BRIBERY_000,
                )
            )
            return
        self._pay_bank(state, seat, penalty.fine, lines)
        before = me.column
        me.column = max(left_edge, me.column - penalty.steps_left)
        move = f"factory {before} → {me.column}" if before != me.column else f"factory stays at {before} (the left edge)"
        lines.append(say(f"{head}: pays {_m(penalty.fine)}, {move}", *cites))

    def _apply_bribery(self, state: MuellState, move: Move, lines: list[Explanation]) -> None:
        seat = _seat(move)
        check = state.check
        assert check is not None
        check.pending.remove(seat)
        me = state.seats[seat]
        if move.use:
            if me.retained == BRIBERY:
                me.retained = None
            else:
                me.hand.remove(BRIBERY)
            state.discard[BRIBERY] += 1
        self._penalise(state, seat, final=check.final, bribed=move.use, lines=lines)
        if not check.pending:
            self._finish_check(state, lines)

    def _finish_check(self, state: MuellState, lines: list[Explanation]) -> None:
        check = state.check
        assert check is not None
        state.check = None
        if check.final:
            state.phase = Phase.OVER
            lines.append(self._game_over_line(state))
            return
        state.phase = Phase.DEAL
        lines.append(say("The Pollution Check is resolved: the deal goes on", R.CHECK))
        self._advance(state, lines)

    def _game_over_line(self, state: MuellState) -> Explanation:
        """The winner, and how a tie in points was broken (the money is counted openly now)."""
        text, tie_broken = self._result(state)
        net = state.options["tie_break"] == "net-money"
        if tie_broken:
            shared = len(self.score(state).winners()) > 1
            return say(f"Game over: {text}", R.TIE_BREAK_NET if net else R.TIE_BREAK, R.SCORE_FR,
                       *((SHARED_PLACE,) if shared else ()))
        return say(f"Game over: {text}", R.SCORE, R.SCORE_FR)

    def _result(self, state: MuellState) -> tuple[str, bool]:
        """Who wins with how many points, and whether the tie-break decided it.
        Seats tied on points and on the tie-break share the win (the texts name
        no further tie-break)."""
        sheet = self.score(state)
        by_seat = {s.seat: s for s in sheet.seats}
        ranking = [by_seat[k] for k in sheet.ranking()]
        top = ranking[0]
        points = plural(top.total, "point")
        tied = [s for s in ranking[1:] if s.total == top.total]
        if not tied:
            return f"{state.name(top.seat)} wins with {points}", False
        net = state.options["tie_break"] == "net-money"
        money = "money after debts" if net else "money in hand"
        shared = [top, *(s for s in tied if s.tiebreak == top.tiebreak)]
        if len(shared) > 1:
            names = " and ".join(state.name(s.seat) for s in shared)
            return f"{names} share the win with {points} (tied on points and on {money}: {top.tiebreak} M)", True
        others = ", ".join(state.name(s.seat) for s in tied)
        return (f"{state.name(top.seat)} wins with {points} "
                f"(tied on points with {others}; more {money} breaks the tie: {top.tiebreak} M)"), True

    # the host ends the game early ------------------------------------------------------
    def _apply_end(self, state: MuellState, move: Move, lines: list[Explanation]) -> None:
        skipped: list[str] = []
        if state.check is not None and state.check.final:
            waiting = " or ".join(state.name(k) for k in state.check.pending)
            skipped.append(
                f"the final pollution check is left unfinished (no Bribery decision or fine for {waiting})"
            )
        else:
            if state.phase is not Phase.DEAL or state.placed:
                skipped.append(f"the rest of round {state.round} is not played (no wages are paid)")
            skipped.append("no final pollution check is made")
        if state.auction is not None:
            lot = state.auction.lot
            state.supply += lot
            skipped.append(f"the auction is called off (the {_raw(lot)} {'goes' if lot == 1 else 'go'} back to the supply)")
        state.auction = None
        state.check = None
        state.turn = None
        state.phase = Phase.OVER
        state.ended_by_host = True
        state.end_reason = move.reason
        why = f" ({move.reason})" if move.reason else ""
        lines.append(
            say(
                f"The host ends the game now{why}: it is scored as it stands; " + "; ".join(skipped)
                + ". Half of each seat's money is counted openly, as at a normal end",
                EARLY_END,
                R.SCORE,
            )
        )
        lines.append(self._game_over_line(state))

    # choosing sets ------------------------------------------------------------------
    def _apply_choose(self, state: MuellState, move: Move, lines: list[Explanation]) -> None:
        seat = _seat(move)
        col = move.column - 1
        state.taken[col] = seat
        me = state.seats[seat]
        me.hand = list(state.grid[col])
        state.grid[col] = []  # the set now lies in front of its seat
        lines.append(say(f"{me.name} takes set {move.column}: {_cards(me.hand)}", R.SELECT))
        if sum(t is not None for t in state.taken) < state.n:
            state.turn = state.left_of(seat)
            return
        # the last set is discarded; retained cards join their owners' cards
        for c, taker in enumerate(state.taken):
            if taker is None:
                for card in state.grid[c]:
                    state.discard[card] += 1
                lines.append(say(f"The last set ({_cards(state.grid[c])}) is discarded", R.SELECT))
        state.grid = [[] for _ in range(state.columns)]
        for s in state.seats:
            if s.retained:
                s.hand.append(s.retained)
                lines.append(say(f"{s.name}'s kept {s.retained} joins the cards", R.PASS))
                s.retained = None
            s.passed = False
        state.phase = Phase.PLAY
        state.turn = state.start_seat
        lines.append(say(f"Play begins with {state.name(state.start_seat)}", R.PLAY))

    # playing cards --------------------------------------------------------------------
    def mat_value(self, state: MuellState, seat: int, row: str) -> int:
        return state.comp.holes[state.seats[seat].mat[MAT_ROWS.index(row)]].value

    def _spend(self, state: MuellState, seat: int, card: str, adviser: bool) -> None:
        me = state.seats[seat]
        me.hand.remove(card)
        state.discard[card] += 1
        if adviser:
            me.hand.remove(ADVISER)
            state.discard[ADVISER] += 1

    def _apply_discard(self, state: MuellState, move: Move, lines: list[Explanation]) -> None:
        seat = _seat(move)
        assert move.card is not None
        self._spend(state, seat, move.card, False)
        lines.append(say(f"{state.name(seat)} discards {move.card} without using it", R.DISCARD))
        self._next_turn(state, seat, lines)

    def _apply_keep(self, state: MuellState, move: Move, lines: list[Explanation]) -> None:
        seat = _seat(move)
        me = state.seats[seat]
        me.retained = me.hand.pop()
        me.passed = True
        if state.end_reached:  # a factory reached the last column: this round is the last
            use = " (a kept Bribery still serves at the final pollution check)" if me.retained == BRIBERY else ""
            lines.append(say(f"{me.name} passes and keeps {me.retained}: the game ends with this round{use}",
                             R.PASS, R.PASS_FR, R.END, *((R.FINAL_CHECK,) if use else ())))
        else:
            lines.append(say(f"{me.name} passes and keeps {me.retained} for the next round", R.PASS, R.PASS_FR))
        self._next_turn(state, seat, lines)

    def _apply_play(self, state: MuellState, move: Move, lines: list[Explanation]) -> None:
        seat = _seat(move)
        me = state.seats[seat]
        comp = state.comp
        card = move.card
        assert card is not None
        adv = move.adviser
        factor = comp.adviser_factor if adv else 1
        self._spend(state, seat, card, adv)
        with_adv = " with an Adviser" if adv else ""
        if card == ORDER:
            need_raw = self.mat_value(state, seat, "raw_materials")
            waste = self.mat_value(state, seat, "waste")
            income = me.column + (comp.adviser_order_bonus if adv else 0)
            me.raw -= need_raw
            state.supply += need_raw
            me.cash += income
            state.bank_out += income
            before = me.waste
            me.waste += waste
            lines.append(
                say(
                    f"{me.name} fills an Order{with_adv}: {_raw(need_raw)} back to the supply, "
                    f"receives {_m(income)} (column {me.column}"
                    + (f" + {_m(comp.adviser_order_bonus)} Adviser" if adv else "")
                    + f"), waste {before} → {me.waste}",
                    R.ORDER,
                    *((R.ADVISER,) if adv else ()),
                )
            )
        elif card == RAW:
            lot = self.mat_value(state, seat, "raw_materials") * factor
            if lot > state.supply:
                lines.append(
                    say(f"The common supply holds only {_raw(state.supply)}: the lot is {state.supply}", R.RAW)
                )
                lot = state.supply
            if lot == 0:
                lines.append(say(f"{me.name} plays Raw Materials{with_adv}, but the supply is empty: nothing to sell", R.RAW))
                self._next_turn(state, seat, lines)
                return
            state.supply -= lot
            bidders = [(seat + k) % state.n for k in range(1, state.n)] + [seat]
            state.auction = Auction(seller=seat, lot=lot, bidders=bidders, doubled=adv)
            state.phase = Phase.AUCTION
            lines.append(
                say(
                    f"{me.name} sells {_raw(lot)}{with_adv} in a once-around auction: "
                    f"{state.name(bidders[0])} bids first, {me.name} last",
                    R.RAW,
                    *((R.ADVISER,) if adv else ()),
                )
            )
            return
        elif card == GROWTH:
            before = me.column
            me.column = min(comp.end_column, me.column + comp.growth_steps * factor)
            if me.column >= comp.end_column:
                state.end_reached = True
            lines.append(
                say(
                    f"{me.name} grows{with_adv}: factory column {before} → {me.column}"
                    + (": the game ends after this round" if me.column >= comp.end_column else ""),
                    R.GROWTH,
                    *((R.END,) if me.column >= comp.end_column else ()),
                )
            )
        elif card == HIRE_FIRE:
            before = me.row
            steps = comp.hire_fire_steps * factor
            if move.direction == "hire":
                me.row = min(max(comp.rows), me.row + steps)
            else:
                me.row = max(min(comp.rows), me.row - steps)
            verb = "hires" if move.direction == "hire" else "fires"
            lines.append(
                say(f"{me.name} {verb}{with_adv}: workers {before}00 → {me.row}00 (wages {_m(me.row)} a round)", R.HIRE_FIRE)
            )
        elif card == INNOVATE:
            rows = self._innovate_steps(move, factor)
            cost = comp.innovate_cost * factor
            self._pay_bank(state, seat, cost, lines)
            moved: list[str] = []
            for row in rows:
                i = MAT_ROWS.index(row)
                old = comp.holes[me.mat[i]].value
                me.mat[i] += 1
                moved.append(f"{MAT_ROW_MEANING[row]} {old} → {comp.holes[me.mat[i]].value}")
            lines.append(
                say(f"{me.name} innovates{with_adv}: pays {_m(cost)}; {', '.join(moved)}", R.INNOVATE)
            )
        elif card == DISPOSAL:
            before = me.waste
            me.waste = max(0, me.waste - comp.waste_disposal_steps * factor)
            lines.append(say(f"{me.name} disposes of waste{with_adv}: waste {before} → {me.waste}", R.DISPOSAL))
        elif card == INSPECTION:
            steps = comp.waste_inspection_steps * factor
            parts: list[str] = []
            for k in range(state.n):
                other = state.seats[k]
                before = other.waste
                if k == seat:
                    other.waste = max(0, other.waste - steps)
                else:
                    other.waste = min(comp.waste_max, other.waste + steps)
                parts.append(f"{other.name} {before} → {other.waste}")
            lines.append(say(f"{me.name} plays Waste Inspection{with_adv}: waste {', '.join(parts)}", R.INSPECTION))
        elif card == ADVISER:
            self._pay_bank(state, seat, comp.repay_amount, lines)
            me.loans -= 1
            lines.append(
                say(f"{me.name} plays an Adviser to repay a loan: pays {_m(comp.repay_amount)} and returns a −10 marker "
                    f"({me.loans} left)", R.ADVISER, R.REPAY)
            )
        self._next_turn(state, seat, lines)

    def _next_turn(self, state: MuellState, after: int, lines: list[Explanation]) -> None:
        state.phase = Phase.PLAY
        for k in range(1, state.n + 1):
            seat = (after + k) % state.n
            s = state.seats[seat]
            if not s.passed and s.hand:
                state.turn = seat
                return
        state.turn = None
        self._end_round(state, lines)

    # the auction ---------------------------------------------------------------------
    def _apply_bid(self, state: MuellState, move: Move, lines: list[Explanation]) -> None:
        seat = _seat(move)
        auction = state.auction
        assert auction is not None
        if move.name == "bid":
            auction.bids.append((seat, move.amount))
            auction.high = move.amount
            auction.high_seat = seat
            lines.append(say(f"{state.name(seat)} bids {_m(move.amount)}", R.AUCTION))
        else:
            auction.bids.append((seat, None))
            lines.append(say(f"{state.name(seat)} does not bid", R.AUCTION))
        auction.next_index += 1
        if auction.next_index < len(auction.bidders):
            return
        seller = auction.seller
        winner = auction.high_seat
        if winner is None:
            if state.options["unsold_lot"] == "seller-free":
                state.seats[seller].raw += auction.lot
                lines.append(say(f"Nobody bids: {state.name(seller)} keeps the {_raw(auction.lot)} for nothing", R.UNSOLD_SELLER))
            else:
                state.supply += auction.lot
                lines.append(say(f"Nobody bids: the {_raw(auction.lot)} {'goes' if auction.lot == 1 else 'go'} back to the supply", R.UNSOLD_RETURNED))
        else:
            buyer = state.seats[winner]
            buyer.raw += auction.lot
            buyer.cash -= auction.high
            if winner == seller:
                state.bank_in += auction.high
                lines.append(
                    say(f"{buyer.name} buys their own {_raw(auction.lot)} for {_m(auction.high)}, paid to the bank",
                        R.AUCTION)
                )
            else:
                state.seats[seller].cash += auction.high
                lines.append(
                    say(f"{buyer.name} buys the {_raw(auction.lot)} for {_m(auction.high)}, paid to {state.name(seller)}",
                        R.AUCTION)
                )
        state.auction = None
        self._next_turn(state, seller, lines)

    # the round's end -------------------------------------------------------------------
    def _end_round(self, state: MuellState, lines: list[Explanation]) -> None:
        lines.append(say(f"Every seat has passed or has no card: round {state.round} play ends", R.PLAY))
        for s in state.seats:
            s.passed = False  # a pass belongs to this round's play only
        for k in range(state.n):
            seat = (state.start_seat + k) % state.n
            me = state.seats[seat]
            self._pay_bank(state, seat, me.row, lines)
            lines.append(say(f"{me.name} pays {_m(me.row)} wages ({me.row}00 workers)", R.WAGES))
        if state.end_reached:
            lines.append(
                say("A factory reached the last column this round: the game ends with a final pollution check",
                    R.END, R.FINAL_CHECK)
            )
            self._start_check(state, final=True, lines=lines)
            return
        if state.pollution_seen:
            kept = [s.retained for s in state.seats if s.retained]
            state.deck = {k.name: k.copies for k in state.comp.kinds}
            for card in kept:
                state.deck[card] -= 1
            state.discard = {k: 0 for k in state.discard}
            state.set_aside = []
            state.deck_order = None
            state.reshuffles += 1
            lines.append(
                say(f"The Pollution Check came this round: it, the discards and the deck are shuffled together "
                    f"({plural(state.deck_count(), 'card')})", R.NEW_ROUND, R.RESHUFFLE)
            )
        state.pollution_seen = False
        state.start_seat = state.left_of(state.start_seat)
        state.round += 1
        self._new_grid(state)
        lines.append(
            say(f"Round {state.round}: {state.name(state.start_seat)} is the start player; the sets are dealt", R.NEW_ROUND)
        )
        self._advance(state, lines)

    def _advance(self, state: MuellState, lines: list[Explanation]) -> None:
        if state.phase is not Phase.DEAL:
            return
        if state.placed >= 3 * state.columns:
            state.phase = Phase.CHOOSE
            state.turn = state.start_seat
            lines.append(
                say(f"The {state.columns} sets are laid out: {state.name(state.start_seat)} chooses first", R.SELECT)
            )
            return
        self._refill_deck(state, lines)

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
                    "waste_zone": self.zone(state, s.waste),
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
            "status": self.status(state),
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
        if state.phase is Phase.DEAL:
            row, col = state.next_slot()
            extra = " (next card from the recorded shuffle)" if state.deck_order else ""
            return f"Dealing: row {row + 1}, set {col + 1}{extra}"
        if state.phase is Phase.CHECK and state.check is not None:
            who = ", ".join(state.name(s) for s in state.check.pending)
            label = "Final pollution check" if state.check.final else "Pollution Check"
            return f"{label}: {who} to decide on Bribery"
        if state.phase is Phase.CHOOSE and state.turn is not None:
            left = sum(1 for t in state.taken if t is None)
            return f"{state.name(state.turn)} to choose a set ({left} left)"
        if state.phase is Phase.PLAY and state.turn is not None:
            n = len(state.seats[state.turn].hand)
            return f"{state.name(state.turn)} to play a card ({n} left)"
        if state.phase is Phase.AUCTION and state.auction is not None:
            a = state.auction
            high = f"high {_m(a.high)} by {state.name(a.high_seat)}" if a.high_seat is not None else "no bid yet"
            return (f"Auction of {_raw(a.lot)} from {state.name(a.seller)}: "
                    f"{state.name(a.to_bid)} to bid ({high})")
        if state.phase is Phase.OVER:
            early = " (ended early by the host)" if state.ended_by_host else ""
            return f"Game over{early}: {self._result(state)[0]}"
        return state.phase.value

    def awaiting(self, state: MuellState) -> frozenset[int]:
        if state.phase is Phase.CHECK and state.check is not None:
            return frozenset(state.check.pending)
        if state.phase in (Phase.CHOOSE, Phase.PLAY) and state.turn is not None:
            return frozenset({state.turn})
        if state.phase is Phase.AUCTION and state.auction is not None:
            return frozenset({state.auction.to_bid})
        return frozenset()  # the deal (chance) and the end

    def describe_position(self, state: MuellState) -> dict[str, Any]:
        from companion.games.muell_money.position import describe

        return describe(state)

    def place_position(self, state: MuellState, block: Any) -> MuellState:
        from companion.games.muell_money.position import place

        return place(state, block)

    def public_notes(self, state: MuellState) -> list[str]:
        if state.comp.unverified:
            return [f"unverified component values in use: {', '.join(state.comp.unverified)}"]
        return []

    # score -----------------------------------------------------------------------------
    def score(self, state: MuellState) -> ScoreSheet:
        return score_sheet(state, final=state.phase is Phase.OVER)

    def is_over(self, state: MuellState) -> bool:
        return state.phase is Phase.OVER

    # hardware ----------------------------------------------------------------------------
    def card_command(self, state: MuellState, card: str, copy: int) -> Command:
        kind = resolve_card(state.comp, card)
        if kind is None:
            raise IllegalMove(f"{card!r} is not a Müll + Money card", R.CARDS)
        copies = state.comp.kind(kind).copies
        if not 1 <= copy <= copies:
            raise IllegalMove(f"there {'is' if copies == 1 else 'are'} {plural(copies, kind + ' card')}, so no copy {copy}", R.CARDS)
        if state.phase is not Phase.DEAL:
            raise IllegalMove(
                f"cards are seen only while the sets are dealt ({self.status(state)})", R.LAYOUT
            )
        return Command(CHANCE, "deal", {"card": kind}, None, "scanner")

    # action hints (for the phone) --------------------------------------------------------------
    def actions(self, state: MuellState, actor: Actor) -> list[ActionHint]:
        from companion.games.muell_money.hints import action_hints

        return action_hints(self, state, actor)


def _seat(move: Move) -> int:
    assert move.actor.seat is not None
    return move.actor.seat


def _cards(cards: list[str]) -> str:
    return ", ".join(cards) if cards else "no cards"


def _multiset(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{v} {k}" for k, v in sorted(counts.items()) if v) or "nothing"


def shuffle_command(state: MuellState, rng: random.Random | None = None) -> Command:
    """The host's software shuffle for the deck as it is now: the order is drawn
    here (``random.SystemRandom`` unless a generator is given, e.g. a seeded one
    for a reproducible demo) and travels in the command, so replay is exact."""
    rng = rng or random.SystemRandom()
    cards = [kind for kind, count in state.deck.items() for _ in range(count)]
    rng.shuffle(cards)
    return Command(HOST, "shuffle", {"order": cards}, None, "software")
