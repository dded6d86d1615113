"""Money Maker's position block: a table's situation as data.

    {"turn": "Ann", "phase": "trade",
     "banks": {"Ann": {"rating": "prison", "credit": {"I-1": 4}, "goods": {"consumer": 3}}}}

Fields (all optional; what is not given stays as in the base state):

* ``turn`` (a seat) and ``phase``: ``draw`` (step 1: the turn's investment card
  is drawn), ``invest`` (step 2), ``trade`` (step 3) or ``action`` (step 4);
  a new turn or step starts afresh (nothing bought or produced yet);
* ``turn_no``, ``meter`` (spots the bank-run chip has moved, below the
  circle), ``bank_runs_done`` (bank runs already played);
* ``reserve``: gold in the Gold Reserve (else what the vaults leave);
  ``markets``: goods in each market (``production``, ``consumer``);
  ``open_cards``: the investment cards lying open (ids, ``FARM-1``);
* ``banks``: per seat (by name) ``gold``, ``rating`` (1-6 or ``I``-``VI``,
  ``0`` or ``prison`` for debtors' prison), ``goods`` (per market),
  ``credit`` (own credit on the board: block -> pieces, on the bank's own
  ring; ring I in prison, where it is the bank's debt), ``held`` (other
  banks' credit in the vault: issuer -> pieces), ``cards`` (investment card
  ids), ``actions`` (action card codes, ``?`` for one never told).

What follows is set with it: gold in a vault comes from the Gold Reserve,
goods in a vault or a market come from the natural reserve, credit on the
board or in a vault is issued by its bank, a card in front of a vault is
drawn from the deck.  The whole position is then checked like every step of
the random games: gold, goods and credit conserved, credit on the issuer's
own ring, each card in one place.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from companion.games.money_maker.components import MARKETS
from companion.games.money_maker.host_words import PHASES_UNDER_WAY
from companion.games.money_maker.state import (
    ACTION,
    BANK_RUN,
    DRAW,
    FIRST_AUCTION,
    INSOLVENT,
    INVEST,
    OVER,
    PRISON,
    TRADE,
    UNSETTLED,
    MoneyMakerState,
    card_kind,
)
from companion.games.money_maker.words import MARKET_NAMES, comma_list, says
from companion.position import PositionError, Reader, pool_rest, seat_blocks, seat_index

TOP = ("turn", "phase", "turn_no", "meter", "bank_runs_done", "reserve", "markets", "open_cards", "banks")
BANK = ("gold", "rating", "goods", "credit", "held", "cards", "actions")
PHASES = (DRAW, INVEST, TRADE, ACTION)
RINGS = ("I", "II", "III", "IV", "V", "VI")


def describe(state: MoneyMakerState) -> dict[str, Any]:
    """The whole position of ``state`` as a block."""
    names = state.names
    return {
        "turn": names[state.turn],
        "phase": state.phase,
        "turn_no": state.turn_no,
        "meter": state.meter,
        "bank_runs_done": state.runs_done,
        "reserve": state.reserve,
        "markets": dict(state.markets),
        "open_cards": list(state.open_cards),
        "banks": {
            names[b.seat]: {
                "gold": b.gold,
                "rating": "prison" if b.rating == PRISON else b.rating,
                "goods": dict(b.goods),
                "credit": dict(b.board),
                "held": {names[i]: n for i, n in sorted(b.held.items())},
                "cards": list(b.cards),
                "actions": list(b.actions),
            }
            for b in state.banks
        },
    }


def place(base: MoneyMakerState, block: Any) -> MoneyMakerState:
    """``base`` with ``block`` set over it, checked as a whole; raises
    :class:`PositionError` naming the field; ``base`` is never changed."""
    top = Reader(block, "", TOP)
    st = copy.deepcopy(base)
    comp = st.comp
    names = st.names
    banks = seat_blocks(top.get("banks"), names, "banks") if top.has("banks") else {}
    readers = {i: Reader(raw, f"banks.{names[i]}", BANK) for i, raw in banks.items()}
    in_run = st.phase == BANK_RUN

    # gold ----------------------------------------------------------------------------
    total_gold = comp.gold_total + st.gold_corrected
    for i, r in readers.items():
        if r.has("gold"):
            st.banks[i].gold = r.whole("gold", 0, total_gold)
    vaults = sum(b.gold for b in st.banks)
    reserve = pool_rest(
        top, "reserve", vaults, total_gold, any(r.has("gold") for r in readers.values()),
        holders_key="banks", pool=says("pos_pool"), held_at=says("pos_held_at"), holders=says("pos_holders"), unit=says("what_gold"),
    )
    if reserve is not None:
        st.reserve = reserve

    # goods ----------------------------------------------------------------------------
    goods_given = top.has("markets") or any(r.has("goods") for r in readers.values())
    if top.has("markets"):
        markets = Reader(top.get("markets"), "markets", MARKETS)
        for m in MARKETS:
            if markets.has(m):
                st.markets[m] = markets.whole(m, 0, len(comp.markets[m].slots), says("pos_market_slots"))
    for i, r in readers.items():
        if r.has("goods"):
            goods = Reader(r.get("goods"), r.path("goods"), MARKETS)
            for m in MARKETS:
                if goods.has(m):
                    st.banks[i].goods[m] = goods.whole(m, 0, comp.markets[m].goods)
    if goods_given:
        for m in MARKETS:
            natural = comp.markets[m].goods - st.markets[m] - st.removed_goods[m] - sum(b.goods[m] for b in st.banks)
            if natural < 0:
                raise PositionError(
                    "markets" if top.has("markets") else "banks",
                    says("pos_goods_too_many", market=MARKET_NAMES[m], goods=comp.markets[m].goods),
                )
            st.natural[m] = natural

    # ratings and credit -------------------------------------------------------------------
    for i, r in readers.items():
        bank = st.banks[i]
        if r.has("rating"):
            rating = _rating(r, len(comp.rings))
            if rating != bank.rating and in_run:
                raise PositionError(r.path("rating"), says("pos_rating_in_run"))
            bank.rating = rating
        if r.has("credit"):
            board = _credit(r, comp.ring(bank.rating).blocks, says("pos_prison") if bank.rating == PRISON else RINGS[bank.rating - 1])
            if in_run and board != bank.board:
                raise PositionError(r.path("credit"), says("pos_credit_in_run"))
            bank.board = board
        if r.has("held"):
            old_held = dict(bank.held)
            held = Reader(r.get("held"), r.path("held"), tuple(names) + tuple(n.lower() for n in names))
            bank.held = {}
            for key in held.raw:
                issuer = seat_index(key, names, held.path(str(key)))
                if issuer == i:
                    raise PositionError(held.path(str(key)), says("pos_own_credit_held"))
                pieces = held.whole(key, 0)
                if pieces:
                    bank.held[issuer] = bank.held.get(issuer, 0) + pieces
            if in_run and bank.held != old_held:
                raise PositionError(r.path("held"), says("pos_credit_in_run"))
        elif r.has("rating") and bank.board and not r.has("credit"):
            ring = {b.id for b in comp.ring(bank.rating).blocks}
            if not set(bank.board) <= ring:
                raise PositionError(r.path("credit"), says("pos_credit_new_ring"))
    if not in_run:  # each bank has issued what is out: on the board and in other vaults
        for bank in st.banks:
            out = bank.on_board + sum(b.held.get(bank.seat, 0) for b in st.banks if b.seat != bank.seat)
            bank.issued = bank.extinguished + bank.written_off + out

    # cards -------------------------------------------------------------------------------
    cards_given = top.has("open_cards") or any(r.has("cards") for r in readers.values())
    if cards_given:
        _place_cards(st, top, readers)
    for i, r in readers.items():
        if r.has("actions"):
            actions = r.get("actions")
            if not isinstance(actions, list):
                raise PositionError(r.path("actions"), says("pos_action_list"))
            codes = {k.code for k in comp.actions} | {"?"}
            for j, code in enumerate(actions):
                if not isinstance(code, str) or code.strip().upper() not in codes:
                    raise PositionError(f"{r.path('actions')}[{j}]", says("pos_not_action", code=code, codes=comma_list(sorted(codes))))
            new = [a.strip().upper() for a in actions]
            st.actions_out += len(new) - len(st.banks[i].actions)
            st.banks[i].actions = new
            if st.actions_out > sum(k.copies for k in comp.actions):
                raise PositionError(r.path("actions"), says("pos_action_count", count=sum(k.copies for k in comp.actions)))

    # the turn --------------------------------------------------------------------------
    if top.has("bank_runs_done"):
        done = top.whole("bank_runs_done", 0, st.length - 1, says("pos_game_lasts", length=st.length))
        if done != st.runs_done:
            if in_run or st.runs_started != st.runs_done:
                raise PositionError("bank_runs_done", says("pos_run_on"))
            st.runs_done = st.runs_started = done
    if top.has("meter"):
        st.meter = top.whole("meter", 0, st.spots - 1, says("pos_circle"))
    if top.has("turn_no"):
        st.turn_no = top.whole("turn_no", 0, 9999)
    turn = top.seat("turn", names) if top.has("turn") else st.turn
    phase = st.phase
    if top.has("phase") and top.get("phase") != st.phase:
        phase = top.text("phase", PHASES)
    if turn != st.turn or phase != st.phase:
        if st.phase == OVER:
            raise PositionError("phase", says("pos_game_over"))
        if st.phase not in (*PHASES, FIRST_AUCTION):
            raise PositionError("phase", says("pos_mid_phase", under_way=PHASES_UNDER_WAY[st.phase]))
        if phase == FIRST_AUCTION:
            raise PositionError("phase", says("pos_phase_one_of", phases=comma_list(PHASES)))
        if st.banks[turn].bankrupt:
            raise PositionError("turn", says("pos_turn_bankrupt", seat=names[turn]))
        st.turn, st.phase = turn, phase
        st.auction = None
        st.due = None
        st.after_payment = ""
        st.bought = {}
        st.produced = []
        st.action_bought = False
        st.auction_opened = False
        st.won_auction = False
        st.may_redistribute = []
        st.turn_no = max(st.turn_no, 1)
    for where, why in problems(st):
        raise PositionError(where, why)
    return st


def _rating(r: Reader, rings: int) -> int:
    raw = r.get("rating")
    if isinstance(raw, str):
        text = raw.strip().upper()
        if text == "PRISON":
            return PRISON
        if text in RINGS[:rings]:
            return RINGS.index(text) + 1
        raise PositionError(r.path("rating"), says("pos_rating_is", rings=comma_list(RINGS[:rings]), count=rings, raw=raw))
    return r.whole("rating", 0, rings, says("pos_zero_prison"))


def _credit(r: Reader, blocks: Any, ring: str) -> dict[str, int]:
    raw = r.get("credit")
    where = r.path("credit")
    if not isinstance(raw, Mapping):
        raise PositionError(where, says("pos_credit_object"))
    ids = [b.id for b in blocks]
    board: dict[str, int] = {}
    for key, pieces in raw.items():
        if key not in ids:
            raise PositionError(f"{where}.{key}", says("pos_not_block", ring=ring, blocks=comma_list(ids)))
        if isinstance(pieces, bool) or not isinstance(pieces, int) or pieces < 0:
            raise PositionError(f"{where}.{key}", says("pos_pieces", raw=pieces))
        if pieces:
            board[key] = pieces
    return board


def _place_cards(st: MoneyMakerState, top: Reader, readers: Mapping[int, Reader]) -> None:
    comp = st.comp
    copies = {k.code: k.copies for k in comp.investments}

    def ids(raw: Any, where: str) -> list[str]:
        if not isinstance(raw, list):
            raise PositionError(where, says("pos_card_list"))
        out: list[str] = []
        for j, item in enumerate(raw):
            text = item.strip().upper() if isinstance(item, str) else ""
            head, sep, tail = text.rpartition("-")
            if not sep or head not in copies or not tail.isdigit() or not 1 <= int(tail) <= copies[head]:
                raise PositionError(f"{where}[{j}]", says("pos_not_card_id", raw=item))
            out.append(text)
        return out

    open_cards = ids(top.get("open_cards"), "open_cards") if top.has("open_cards") else list(st.open_cards)
    hands = {b.seat: list(b.cards) for b in st.banks}
    for i, r in readers.items():
        if r.has("cards"):
            hands[i] = ids(r.get("cards"), r.path("cards"))
    seen: dict[str, str] = {}
    places = [("open_cards", open_cards)] + [(f"banks.{st.names[i]}.cards", hands[i]) for i in sorted(hands)]
    for where, cards in places:
        for card in cards:
            if card in seen:
                raise PositionError(where, says("pos_card_twice", card=card, where=seen[card]))
            seen[card] = where
    before = set(st.open_cards) | {c for b in st.banks for c in b.cards}
    now = set(seen)
    # cards that leave the table in the block go back to the deck; new ones are drawn from it
    drawn = [c for c in st.drawn if c in now or c not in before] + sorted(now - set(st.drawn))
    st.drawn = drawn
    st.deck = {code: n - sum(1 for c in drawn if card_kind(c) == code) for code, n in copies.items()}
    st.open_cards = open_cards
    for b in st.banks:
        b.cards = hands[b.seat]


def _outstanding(state: MoneyMakerState, seat: int) -> int:
    run = state.bank_run
    if run is None or not run.started:
        return 0
    standing = run.standing.get(seat)
    if standing == UNSETTLED:
        return run.debts[seat] - run.paid_own[seat]
    if standing == INSOLVENT:
        return run.residual[seat]
    return 0


def problems(state: MoneyMakerState) -> list[tuple[str, str]]:
    """What in ``state`` breaks the game's conservation rules, as (field,
    why): empty for every position the rules can reach (the random-game
    tests check it after every step)."""
    comp = state.comp
    names = state.names
    out: list[tuple[str, str]] = []
    if state.reserve < 0:
        out.append(("reserve", says("pos_negative")))
    if state.reserve + sum(b.gold for b in state.banks) != comp.gold_total + state.gold_corrected:
        out.append(("reserve", says("pos_gold_total", gold=comp.gold_total)))
    for m, market in comp.markets.items():
        in_vaults = sum(b.goods[m] for b in state.banks)
        if not 0 <= state.markets[m] <= len(market.slots):
            out.append((f"markets.{m}", says("pos_market_has_slots", slots=len(market.slots))))
        if state.natural[m] < 0 or state.markets[m] + state.natural[m] + in_vaults + state.removed_goods[m] != market.goods:
            out.append((f"markets.{m}", says("pos_goods_total", goods=market.goods, market=MARKET_NAMES[m])))
    for bank in state.banks:
        where = f"banks.{names[bank.seat]}"
        if bank.gold < 0:
            out.append((f"{where}.gold", says("pos_negative")))
        if any(n < 0 for n in bank.goods.values()):
            out.append((f"{where}.goods", says("pos_negative")))
        held_by_others = sum(b.held.get(bank.seat, 0) for b in state.banks if b.seat != bank.seat)
        if bank.issued - bank.extinguished - bank.written_off != bank.on_board + held_by_others + _outstanding(state, bank.seat):
            out.append((f"{where}.credit", says("pos_credit_issued")))
        ring = {b.id for b in comp.ring(bank.rating).blocks}
        if not set(bank.board) <= ring:
            out.append((f"{where}.credit", says("pos_credit_own_ring")))
        if any(n <= 0 for n in bank.board.values()) or any(n <= 0 for n in bank.held.values()):
            out.append((f"{where}.credit", says("pos_pieces_positive")))
        if bank.seat in bank.held:
            out.append((f"{where}.held", says("pos_own_credit_held")))
        if bank.bankrupt and (bank.board or bank.cards or bank.gold):
            out.append((where, says("pos_bankrupt_nothing")))
    cards = [c for b in state.banks for c in b.cards] + state.open_cards
    if len(cards) != len(set(cards)):
        out.append(("open_cards", says("pos_one_place")))
    if not set(cards) <= set(state.drawn):
        out.append(("open_cards", says("pos_drawn_from_deck")))
    if len(state.drawn) + sum(state.deck.values()) != sum(k.copies for k in comp.investments) or any(
        n < 0 for n in state.deck.values()
    ):
        out.append(("open_cards", says("pos_deck_cards")))
    if not state.meter >= 0:
        out.append(("meter", says("pos_negative")))
    return out
