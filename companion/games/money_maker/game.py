"""Money Maker (2018): banks issue credit on the rings of Amsterdam.

The companion is the bookkeeper: vaults (hidden), credit on every housing
block, the markets, the bankrun-o-meter, bank runs and the score sheet.
Dice and cards are chance: observed at the table and checked here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.commands import CHANCE, Actor, Command
from companion.errors import IllegalMove, SetupError
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
    ViewerKind,
)
from companion.games.money_maker import citations as C
from companion.games.money_maker import rules
from companion.games.money_maker.components import MARKETS, Components, edition_problems
from companion.games.money_maker.dice import check_roll, roll_expected
from companion.games.money_maker.hints import hints
from companion.games.money_maker.investments import resolve_card
from companion.games.money_maker.moves import Move, parse
from companion.games.money_maker.offers import offer_words
from companion.games.money_maker.payment import credit_usable
from companion.games.money_maker.scoring import score_sheet
from companion.games.money_maker.state import (
    ACTION,
    AUCTION,
    BANK_RUN,
    DRAW,
    FIRST_AUCTION,
    INVEST,
    OVER,
    PAYMENT,
    PRISON,
    TRADE,
    Auction,
    Bank,
    MoneyMakerState,
    card_kind,
    market_price,
    opening_bid,
    phase_words,
    sell_price,
)
from companion.rules import SHARED_PLACE, Reading, RuleOption, cite


class MoneyMaker(Game[MoneyMakerState, Move]):
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
    options = (
        RuleOption(
            "dice_count",
            "Which banks the credit die counts: more than 10/20 credit on the affected blocks, or at least",
            (
                Reading(
                    "more-than",
                    "a bank counts with more than 10 (20) credit on the affected blocks; exactly 10 does not",
                    (
                        cite("002", "Step 5: Casting dice (Fig. 10)", "When at the number 10: Count the number of players that have more than 10 credit on the affected housing blocks."),
                        cite("002", "Step 5: Casting dice (Fig. 10)", "The purple and yellow players' credit (marked red) do both not have more than 10 outstanding credit and are not counted."),
                        cite("002", "Example dice rolls (Money Maker in short)", "3 Players have more than 10 outstanding credit. 3 Consumer goods are discarded from the market."),
                    ),
                ),
                Reading(
                    "at-least",
                    "a bank counts with at least 10 (20) credit on the affected blocks",
                    (
                        cite("002", "Example dice rolls (Money Maker in short)", "4 players have at least 20 outstanding debt to the harbor housing blocks. The bank run chip moves 4 spots."),
                        cite("notes", "Money Maker", "one student project counts \"at least\""),
                    ),
                ),
            ),
            "more-than",
            disputed=True,
            why_default="the rule text and its worked example (Fig. 10) say 'more than'; only the quick-reference blue example says 'at least'",
        ),
        RuleOption(
            "bank_runs",
            "How many bank runs the game lasts",
            (
                Reading("3", "short game: ends after the 3rd bank run (~15 minutes per player)", (cite("002", "Introduction", "The short version ends after 3 bank runs."),)),
                Reading("4", "ends after the 4th bank run (~20 minutes per player)", (cite("002", "End of the game", "4 bank runs have been completed (average duration game)"),)),
                Reading("5", "ends after the 5th bank run (~25 minutes per player)", (cite("002", "End of the game", "5 bank runs have been completed (longer game)"),)),
            ),
            "3",
            disputed=False,
            why_default="the seed calls 3 bank runs the short game; agree on the length before starting",
        ),
        RuleOption(
            "variant",
            "The full game with credit, or the Beginner's Game without credit",
            (
                Reading("full", "the full game: pay with gold or credit, credit on the city rings", (cite("002", "Learn the game by playing"),)),
                Reading(
                    "beginner",
                    "the Beginner's Game: no credit; red/green 10/20 discard 1/2 goods, blue 10/20 moves the chip 1/2 spots",
                    (cite("002", "Tips for future game sessions", "Play the complete game but without credit, according to the rules of the Money Maker: Beginner's Game."), C.BEGINNER),
                ),
            ),
            "full",
            disputed=False,
            why_default="the manual's game; the Beginner's Game has its own short manual, not among the seeds (its dice effects come from the notes)",
        ),
        RuleOption(
            "tie_break",
            "Two banks equally rich at the end (the text names no tie-break)",
            (
                Reading("shared", "they share the place: the text names the richest player the winner and nothing more", (C.WINNER, C.RICHNESS, SHARED_PLACE)),
                Reading("gold", "the bank with more gold in its vault is ahead (a house rule: not in the text)", (C.HOUSE_TIE_BREAK,)),
            ),
            "shared",
            disputed=False,
            why_default="002 says only that the richest player wins, by the score sheet; a tie it does not break is a shared place",
        ),
    )

    # data ------------------------------------------------------------------------
    def edition_problems(self, edition: Mapping[str, Any]) -> list[str]:
        problems = edition_problems(edition)
        if not problems:
            try:
                Components.from_edition(edition)
            except (KeyError, TypeError, ValueError) as err:  # pragma: no cover - belt and braces
                problems.append(f"the edition cannot be read: {err!r}")
        return problems

    def components(self, config: TableConfig) -> Components:
        edition = config.edition or self.default_edition()
        problems = self.edition_problems(edition)
        if problems:
            raise SetupError("the edition cannot be used: " + "; ".join(problems))
        return Components.from_edition(edition)

    # setup ------------------------------------------------------------------------
    def setup(self, config: TableConfig) -> MoneyMakerState:
        n = len(config.seats)
        if not self.min_seats <= n <= self.max_seats:
            raise SetupError(f"Money Maker is for 2-6 seats, not {n}")
        comp = self.components(config)
        length = int(config.options.get("bank_runs", "3"))
        if length not in (3, 4, 5):
            raise SetupError(f"a game lasts 3, 4 or 5 bank runs, not {length}")
        if n not in comp.spots_to_circle:
            raise SetupError(f"the edition's bankrun-o-meter has no spot for {n} players")
        banks = [Bank(i, comp.start_gold) for i in range(n)]
        reserve = comp.gold_total - comp.start_gold * n
        if reserve < 0:
            raise SetupError("the Gold Reserve cannot pay every seat its starting gold")
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
        return parse(state, command)

    def check(self, state: MoneyMakerState, move: Move) -> None:
        rules.check(state, move)

    def apply(self, state: MoneyMakerState, move: Move) -> Outcome[MoneyMakerState]:
        lines = rules.apply(state, move)
        return Outcome(state, lines)

    # views ------------------------------------------------------------------------
    def view(self, state: MoneyMakerState, viewer: Viewer) -> dict[str, Any]:
        comp = state.comp
        names = state.names
        out: dict[str, Any] = {
            "phase": state.phase,
            "status": self.status(state),
            "variant": "beginner" if state.beginner else "full",
            # no seat has the turn while the first turn is auctioned (and until it is paid for)
            "turn": None if self._before_first_turn(state) else names[state.turn],
            "turn_no": state.turn_no,
            "over": state.over,
            "gold_reserve": state.reserve,
            "markets": {
                m: {
                    "colour": comp.markets[m].colour,
                    "goods": state.markets[m],
                    "slots": list(comp.markets[m].slots),
                    "buy_price": market_price(state, m),
                    "sell_price": sell_price(state, m),
                    "natural_reserve": state.natural[m],
                }
                for m in MARKETS
            },
            "meter": {
                "chip_at": state.meter,
                "spots_to_circle": state.spots,
                "circle": [{"spot": s, "filled": i < state.runs_started} for i, s in enumerate(comp.circle)],
                "bank_runs_started": state.runs_started,
                "bank_runs_done": state.runs_done,
                "game_length": state.length,
                "sector_dice": state.sector_dice(),
            },
            "investment_cards": {
                "open": [self._card_json(state, c, with_bid=True) for c in state.open_cards],
                "deck": sum(state.deck.values()),
            },
            "action_cards": {
                "deck": sum(k.copies for k in comp.actions) - state.actions_out,
                "played": [comp.action(c).name if c != "?" else "an action card" for c in state.action_discard],
            },
            "rings": {
                r.name: [{"block": b.id, "symbols": list(b.symbols)} for b in r.blocks] for r in comp.rings
            },
            "banks": [self._bank_json(state, b) for b in state.banks],
            "auction": None,
            "payment_due": None,
            "bank_run": None,
            "last_roll": None if state.last_roll is None else {"credit": state.last_roll.credit, "sector": state.last_roll.sectors},
            "this_turn": {
                "bought": dict(state.bought),
                "produced": list(state.produced),
                "action_card_bought": state.action_bought,
                "auction_opened": state.auction_opened,
            },
            "dice_expected": [{"die": d.name, "faces": list(d.faces), "optional": d.optional} for d in self.dice_to_roll(state)],
            # deals proposed and not yet answered: who and to whom (what they move is the two banks' secret)
            "deal_offers": [{"offer": o.number, "from": names[o.proposer], "to": names[o.other]} for o in state.offers],
        }
        if state.auction is not None:
            a = state.auction
            out["auction"] = {
                "for": "the first turn" if not a.card else a.card,
                "card": self._card_json(state, a.card) if a.card else None,
                "opening": a.opening,
                "high": a.high if a.bidder is not None else None,
                "bidder": names[a.bidder] if a.bidder is not None else None,
            }
        if state.due is not None:
            out["payment_due"] = {"seat": names[state.due.seat], "amount": state.due.amount, "for": state.due.purpose, "card": state.due.card}
        run = state.bank_run
        if run is not None:
            out["bank_run"] = {
                "number": run.number,
                "trigger": run.trigger,
                "sectors": list(run.sectors),
                "sector_dice_needed": run.needed,
                "started": run.started,
                "banks": {
                    names[s]: {
                        "standing": run.standing.get(s),
                        "owes": run.debts.get(s, 0),
                        "paid_on_own": run.paid_own.get(s, 0),
                        "residual": run.residual.get(s, 0),
                    }
                    for s in sorted(run.debts)
                },
            }
        if viewer.kind is ViewerKind.SEAT and viewer.seat is not None and 0 <= viewer.seat < state.seats:
            out["you"] = self._vault_json(state, viewer.seat)
        return out

    @staticmethod
    def _before_first_turn(state: MoneyMakerState) -> bool:
        if state.phase == FIRST_AUCTION:
            return True
        return state.phase == PAYMENT and state.due is not None and state.due.purpose == "first-turn"

    def _card_json(self, state: MoneyMakerState, card_id: str, with_bid: bool = False) -> dict[str, Any]:
        kind = state.comp.investment(card_kind(card_id))
        out: dict[str, Any] = {
            "id": card_id,
            "name": kind.name,
            "guild": kind.guild,
            "requires": dict(kind.requires),
            "output": dict(kind.output),
            "trade": kind.trade,
            "verified": kind.verified,
        }
        if with_bid:
            out["opening_bid"] = opening_bid(state, card_id)
        return out

    def _bank_json(self, state: MoneyMakerState, bank: Bank) -> dict[str, Any]:
        ring = state.comp.ring(bank.rating)
        return {
            "seat": bank.seat,
            "name": state.names[bank.seat],
            "rating": "prison" if bank.rating == PRISON else ring.name,
            "credit_ring": ring.name,
            "in_prison": bank.in_prison,
            "bankrupt": bank.bankrupt,
            "investment_cards": [self._card_json(state, c) for c in bank.cards],
            "credit_on_board": dict(sorted(bank.board.items())),
            "credit_on_board_total": bank.on_board,
            "may_redistribute": bank.seat in state.may_redistribute,
        }

    def _vault_json(self, state: MoneyMakerState, seat: int) -> dict[str, Any]:
        bank = state.banks[seat]
        comp = state.comp
        return {
            "seat": seat,
            "name": state.names[seat],
            "gold": bank.gold,
            "goods": dict(bank.goods),
            "other_banks_credit": [
                {"issuer": state.names[i], "amount": n, "usable": credit_usable(state, i)[0], "why_not": credit_usable(state, i)[1]}
                for i, n in sorted(bank.held.items())
            ],
            "action_cards": [
                {"code": c, "name": comp.action(c).name, "text": comp.action(c).text}
                if c != "?"
                else {"code": "?", "name": "an action card (not told)", "text": ""}
                for c in bank.actions
            ],
            "own_credit_in_other_vaults": sum(b.held.get(seat, 0) for b in state.banks if b.seat != seat),
            "deal_offers": [
                {"offer": o.number, "from": state.names[o.proposer], "to": state.names[o.other], "what": offer_words(state, o)}
                for o in state.offers
                if seat in (o.proposer, o.other)
            ],
        }

    def actions(self, state: MoneyMakerState, actor: Actor) -> list[ActionHint]:
        return hints(self, state, actor)

    def score(self, state: MoneyMakerState) -> ScoreSheet:
        return score_sheet(state)

    def is_over(self, state: MoneyMakerState) -> bool:
        return state.phase == OVER

    def status(self, state: MoneyMakerState) -> str:
        if state.phase == OVER:
            return f"Game over: {state.over}"
        if state.phase == BANK_RUN and state.bank_run is not None:
            run = state.bank_run
            if not run.started:
                return f"Bank run {run.number}: roll {run.needed - len(run.sectors)} sector dice"
            waiting = [state.names[s] for s, st in sorted(run.standing.items()) if st in ("unsettled", "insolvent")]
            return f"Bank run {run.number}: waiting for {', '.join(waiting)} (settle, negotiate, pay or degrade)"
        return phase_words(state)

    def awaiting(self, state: MoneyMakerState) -> frozenset[int]:
        bidders = frozenset(b.seat for b in state.banks if not b.bankrupt and not b.in_prison)
        phase = state.phase
        if phase == FIRST_AUCTION:
            opening = len(state.open_cards) < state.comp.open_at_start
            return frozenset() if opening else bidders  # the opening cards are drawn first
        answers = frozenset(o.other for o in state.offers)
        if phase == PAYMENT and state.due is not None:
            return frozenset({state.due.seat}) | answers
        if phase in (INVEST, TRADE, ACTION):
            return frozenset({state.turn}) | answers
        if phase == AUCTION:
            return bidders | {state.turn} | answers  # anyone may overbid; the turn's seat may close
        answering = frozenset(o.other for o in state.offers)  # a deal offer waits for the other bank's answer
        if phase == BANK_RUN and state.bank_run is not None and state.bank_run.started:
            return answering | frozenset(s for s, st in state.bank_run.standing.items() if st in ("unsettled", "insolvent"))
        return answering  # besides: a draw or a roll (chance), or the end

    def describe_position(self, state: MoneyMakerState) -> dict[str, Any]:
        from companion.games.money_maker.position import describe

        return describe(state)

    def place_position(self, state: MoneyMakerState, block: Any) -> MoneyMakerState:
        from companion.games.money_maker.position import place

        return place(state, block)

    def public_notes(self, state: MoneyMakerState) -> list[str]:
        if state.comp.unverified:
            return [
                f"{len(state.comp.unverified)} component groups use unverified default values "
                "(ring blocks, market prices, meter, cards): transcribe your edition (docs/editions.md)"
            ]
        return []

    # hardware ---------------------------------------------------------------------
    def card_kinds(self, edition: Mapping[str, Any]) -> tuple[CardKind, ...]:
        ed = edition or self.default_edition()
        comp = Components.from_edition(ed)
        return tuple(CardKind(k.code, k.name, k.copies) for k in comp.investments) + tuple(
            CardKind(k.code, k.name, k.copies) for k in comp.actions
        )

    def card_command(self, state: MoneyMakerState, card: str, copy: int) -> Command:
        opening = state.phase == FIRST_AUCTION and len(state.open_cards) < state.comp.open_at_start
        if state.phase != DRAW and not opening:
            raise IllegalMove(f"Money Maker is not waiting for an investment card: {phase_words(state)}", C.STEP1)
        if any(card.strip().lower() in (k.code.lower(), k.name.lower()) for k in state.comp.actions):
            raise IllegalMove("an action card is drawn hidden, not shown to the camera", C.STEP4)
        code, _ = resolve_card(state, card)
        return Command(CHANCE, "draw", {"card": f"{code}-{copy}"}, None, "scanner")

    def dice_to_roll(self, state: MoneyMakerState) -> tuple[Die, ...]:
        expected = roll_expected(state)
        # while every bank is in ring I the sector dice may stay in the box (002, Step 5)
        sector = Die("sector", tuple(state.comp.sector_faces), optional=state.sector_optional())
        if expected == "turn":
            credit = Die("credit", tuple(f.face for f in state.comp.credit_faces))
            if state.beginner:
                return (credit,)
            return (credit,) + (sector,) * state.sector_dice()
        if expected == "bank-run":
            run = state.bank_run
            assert run is not None
            return (sector,) * (run.needed - len(run.sectors))
        return ()

    def dice_command(self, state: MoneyMakerState, roll: Sequence[DieFace]) -> Command:
        if not self.dice_to_roll(state):
            raise IllegalMove(f"Money Maker is not waiting for a dice roll: {phase_words(state)}", C.STEP5)
        credit = [f.face.strip().lower() for f in roll if f.die == "credit"]
        sectors = [f.face.strip().lower() for f in roll if f.die == "sector"]
        check_roll(state, credit, sectors, tuple(f.die for f in roll if f.die not in ("credit", "sector")))
        args: dict[str, Any] = {"sector": sectors}
        if credit:
            args["credit"] = credit[0]
        return Command(CHANCE, "roll", args)
