"""What the table screen and the phones say, as a real table reads it: a
bank's rating badge in every standing, the card names on the board (the ids
are the companion's, not printed on the cards), the status line while a
winning bid is paid, the buy limit from the data, and the nouns a count
writes taken from the words table."""

from __future__ import annotations

import ast
import dataclasses
import html
import re
from pathlib import Path
from typing import Any

import pytest

from companion.commands import HOST, Actor
from companion.games.base import TABLE_SCREEN
from companion.games.money_maker import words
from companion.games.money_maker.bank_run import start_bank_run
from companion.games.money_maker.host_words import HOST_SAYS
from companion.games.money_maker.moves import VOCABULARY
from companion.games.money_maker.state import (
    BANK_RUN,
    INSOLVENT,
    PRISON,
    SOLVENT,
    UNSETTLED,
    BankRun,
    MoneyMakerState,
)
from companion.rules import Explanation
from companion.table import Room
from tests.money_maker.helpers import GAME, do, new_state, started, texts
from tests.test_words import call_name
from tests.web.conftest import make_app


def board(room: Room, state: MoneyMakerState) -> str:
    """The table screen's board (web/templates/games/money-maker.html) for ``state``."""
    app = make_app(room)
    gv = GAME.view(state, TABLE_SCREEN)
    view: dict[str, Any] = {"game": "money-maker", "seats": [{"colour": c} for c in ("orange", "pink", "white", "purple")]}
    with app.test_request_context():
        return app.jinja_env.get_template("games/money-maker.html").render(view=view, gv=gv)


def read(markup: str) -> str:
    """The text a person reads in ``markup``, spaces as the browser shows them."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", markup))).strip()


def mat_headings(markup: str) -> dict[str, str]:
    """Each bank's mat heading on the board, by the bank's name: what it reads."""
    headings = [read(h) for h in re.findall(r'<article class="mat.*?<h3>(.*?)</h3>', markup, re.S)]
    return {h.split(" ", 1)[0]: h for h in headings}


# 1. the rating badge -------------------------------------------------------------------------
def test_the_rating_badge_reads_for_every_standing_a_bank_can_have(room: Room) -> None:
    s = started(["Ann", "Bob", "Cas", "Dee"])
    s.banks[1].rating = 2
    s.banks[2].rating = PRISON
    s.banks[2].board = {"I": 3}
    s.banks[3].rating = PRISON
    s.banks[3].bankrupt = True
    headings = mat_headings(board(room, s))
    assert headings == {
        "Ann": "Ann rating I",
        "Bob": "Bob rating II",
        "Cas": "Cas debtors' prison",
        "Dee": "Dee bankrupt",
    }


def test_the_rating_badge_says_prison_by_its_words(room: Room, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(words.SAYS, "page_prison", "PRISON-WORDS")
    s = started(["Ann", "Bob"])
    s.banks[1].rating = PRISON
    s.banks[1].board = {"I": 3}
    assert mat_headings(board(room, s))["Bob"] == "Bob PRISON-WORDS"


# 4. the cards on the board: their names, not the companion's ids ------------------------------
def test_the_board_names_the_cards_without_the_companions_ids(room: Room) -> None:
    s = started(["Ann", "Bob"])
    s.banks[1].cards = ["FARM-2"]
    text = read(board(room, s))
    assert "Textile Producer · needs 2 production → 1 consumer · opens at 2" in text
    assert "Bob rating I Credit ring I Credit on the board 0 Farm · needs 4 production → 2 consumer Investment" in text
    assert [c for c in [*s.open_cards, "FARM-2"] if c in text] == []


# 5. the status line while a winning bid is paid -----------------------------------------------
def test_the_status_line_says_what_the_first_turns_payment_is_for() -> None:
    s = new_state(["Ann", "Bob", "Cas"])
    s, _ = do(s, "chance", "draw", card="TEXT-1")
    s, _ = do(s, "chance", "draw", card="FARM-1")
    s, _ = do(s, "Cas", "bid", amount=4)
    s, _ = do(s, "host", "close_auction")
    assert GAME.status(s) == "Cas pays 4 for the first turn"


def test_the_status_line_says_which_card_a_winning_bid_pays_for(room: Room) -> None:
    s = started(["Ann", "Bob"])
    s, _ = do(s, "Ann", "open_auction", card="TEXT-1")
    s, _ = do(s, "Bob", "bid", amount=9)
    s, _ = do(s, "Ann", "close_auction")
    assert GAME.status(s) == "Bob pays 9 for Textile Producer"
    assert "Payment due: Bob pays 9 for Textile Producer" in read(board(room, s))


# 2. the buy limit -----------------------------------------------------------------------------
def test_the_buy_limit_reason_takes_the_limit_from_the_data() -> None:
    s = started(["Ann", "Bob"])
    s.comp = dataclasses.replace(s.comp, buy_limit=3)
    s, _ = do(s, "Ann", "buy", market="consumer", count=3, gold=3)
    [buy] = [h for h in GAME.actions(s, Actor.of_seat(0)) if h.command == "buy" and h.args["market"] == "consumer"]
    assert not buy.enabled
    assert buy.reason == "you bought 3 here this turn: at most 3 per market"


# 3. the nouns a count writes are words of the table -------------------------------------------
def nouns_passed(source: str, where: str) -> list[str]:
    """``file:line`` of every call of ``plural`` given a noun written in the module."""
    return [
        f"{where}:{node.lineno} {ast.unparse(node)}" for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and call_name(node.func) == "plural"
        and any(isinstance(a, ast.Constant | ast.JoinedStr) and not isinstance(getattr(a, "value", None), int)
                for a in node.args[1:])
    ]


def test_the_scan_sees_a_noun_written_in_a_module() -> None:
    sample = 'plural(n, "spot")\nplural(n, says("noun_spot"), says("noun_spots"))\nplural(n, f"{x} bank")\n'
    assert [f.split(" ")[0] for f in nouns_passed(sample, "s.py")] == ["s.py:1", "s.py:3"]


def test_no_module_writes_the_noun_of_a_count() -> None:
    package = Path(words.__file__).resolve().parent
    found = [f for path in sorted(package.glob("*.py")) if path.name != "words.py"
             for f in nouns_passed(path.read_text(encoding="utf-8"), path.name)]
    assert found == []


def test_a_count_says_its_noun_from_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """One noun and many: a translation changes the table only."""
    monkeypatch.setitem(words.SAYS, "noun_spot", "SPOT-WORD")
    monkeypatch.setitem(words.SAYS, "noun_more_investment_cards", "MORE-CARDS")
    s = new_state(["Ann", "Bob"])
    assert GAME.status(s).startswith("Open 2 MORE-CARDS")
    s = started(["Ann", "Bob"])
    s.banks[0].board = {"I": 11}  # one bank over 10: the blue 10 moves the chip one spot
    s, lines = do(s, "chance", "roll", credit="blue-10", sector=["boat"])
    assert "moves 1 SPOT-WORD" in texts(lines)


# 6. what each phone and the table screen say through a game's phases ---------------------------
def _run(state: MoneyMakerState, standing: dict[int, str], residual: dict[int, int]) -> MoneyMakerState:
    state.phase = BANK_RUN
    state.bank_run = BankRun(1, "test", started=True, standing=standing, debts=dict.fromkeys(standing, 5),
                             residual=residual)
    return state


def test_a_bank_runs_status_says_what_each_awaited_bank_does() -> None:
    s = _run(started(["Ann", "Bob", "Cas"]), {0: UNSETTLED, 1: INSOLVENT, 2: SOLVENT}, {1: 4})
    assert GAME.status(s) == "Bank run 1: Ann settles; Bob is short 4 (a deal, pay or degrade)"


def test_no_sentence_of_play_names_a_command_by_its_code() -> None:
    codes = [c for c in VOCABULARY if "_" in c]
    found = [f"{key}: {code}" for key, text in words.SAYS.items() if key not in HOST_SAYS
             for code in codes if re.search(rf"\b{code}\b", text)]
    assert found == []


def test_an_auctions_buttons_and_status_name_the_card() -> None:
    s = started(["Ann", "Bob"])
    s, _ = do(s, "Ann", "open_auction", card="TEXT-1")
    assert GAME.status(s) == "Auction on Textile Producer: high bid 2 by Ann; anyone may overbid, then Ann closes it"
    bob = {h.command: h.label for h in GAME.actions(s, Actor.of_seat(1))}
    ann = {h.command: h.label for h in GAME.actions(s, Actor.of_seat(0))}
    assert bob["bid"] == "Bid for Textile Producer"
    assert ann["close_auction"] == "Sold! to you for 2"
    s, _ = do(s, "Bob", "bid", amount=3)
    assert {h.command: h.label for h in GAME.actions(s, Actor.of_seat(0))}["close_auction"] == "Sold! to Bob for 3"
    s, _ = do(s, "Ann", "close_auction")
    assert {h.command: h.label for h in GAME.actions(s, Actor.of_seat(1))}["pay"] == "Pay 3 for Textile Producer"


@pytest.mark.parametrize(("rating", "seat_says", "host_says"), [
    (2, "Degrade to ring I (no deal)", "Bob degrades to ring I (no deal)"),
    (1, "Degrade to debtors' prison (no deal)", "Bob degrades to debtors' prison (no deal)"),
    (PRISON, "Degrade in debtors' prison: bankrupt, out of the game (no deal)",
     "Bob degrades in debtors' prison: bankrupt, out of the game (no deal)"),
])
def test_the_degrade_button_says_where_the_bank_goes(rating: int, seat_says: str, host_says: str) -> None:
    s = started(["Ann", "Bob"])
    s.banks[1].rating = rating
    s = _run(s, {0: SOLVENT, 1: INSOLVENT}, {1: 4})
    assert [h.label for h in GAME.actions(s, Actor.of_seat(1)) if h.command == "degrade"] == [seat_says]
    assert [h.label for h in GAME.actions(s, HOST) if h.command == "degrade"] == [host_says]


def test_the_vault_line_names_the_action_cards() -> None:
    s = started(["Ann", "Bob"])
    s.banks[0].actions = ["CHEQ", "?"]
    _, lines = do(s, "Ann", "buy", market="consumer", count=1, gold=1)
    assert "action cards: Blank Cheque, an action card (not told)" in texts(lines)


def test_the_board_says_the_turns_roll_ends_the_turn_and_a_bank_runs_is_due_now(room: Room) -> None:
    s = started(["Ann", "Bob"])
    text = read(board(room, s))
    assert "The roll ends the turn: credit die, sector die" in text and "Roll now" not in text
    s.banks[1].rating = 2  # off ring I: the bank run needs its sector die
    lines: list[Explanation] = []
    start_bank_run(s, "test", "", lines)
    assert "Roll now: sector die" in read(board(room, s))


def test_a_prisoners_step_2_says_it_opens_no_auction() -> None:
    s = started(["Ann", "Bob"])
    s.banks[0].rating = PRISON
    s.banks[0].board = {"I": 8}
    assert GAME.status(s) == "Ann is in debtors' prison, owing 8: no auction; sales pay the debt first (steps 2-3)"


def test_the_board_says_the_turn_so_far_and_the_open_offers_in_its_own_words(room: Room) -> None:
    """Nothing of the view falls to the generic fold (raw keys: "This turn", "Auction opened: no")."""
    s = started(["Ann", "Bob"])
    s, _ = do(s, "Ann", "open_auction", card="TEXT-1")
    s, _ = do(s, "Ann", "close_auction")
    s, _ = do(s, "Ann", "pay", gold=2)
    s, _ = do(s, "Ann", "produce", card="TEXT-1")
    s, _ = do(s, "Ann", "buy", market="consumer", count=2, gold=2)
    s, _ = do(s, "Bob", "deal", between=["Bob", "Ann"], gives={"Ann": {"gold": 1}, "Bob": {"credit": {"Bob": 2}}})
    markup = board(room, s)
    text = read(markup)
    assert "This turn: bought 2 consumer · produced with Textile Producer · auction opened" in text
    assert "Deal offers to answer: Ann (1)" in text
    assert 'class="kv-row"' not in markup and "Auction opened" not in text


def test_the_chips_log_line_reads_as_a_sentence() -> None:
    s = started(["Ann", "Bob"])
    s.banks[0].board = {"I": 11}
    _, lines = do(s, "chance", "roll", credit="blue-10", sector=["boat"])
    assert "\nBlue credit die: the bank-run chip moves 1 spot (1 of 3 to the bank-run circle)" in texts(lines)


def test_the_board_lists_open_offers_by_the_bank_that_is_to_answer_them(room: Room) -> None:
    """One short line however many offers are open (a long list ran past the TV's bottom at 720p)."""
    s = started(["Ann", "Bob", "Cyd"])
    s, _ = do(s, "Bob", "deal", between=["Bob", "Ann"], gives={"Ann": {"gold": 1}, "Bob": {"credit": {"Bob": 2}}})
    s, _ = do(s, "Cyd", "deal", between=["Cyd", "Ann"], gives={"Ann": {"gold": 1}, "Cyd": {"credit": {"Cyd": 2}}})
    s, _ = do(s, "Ann", "deal", between=["Ann", "Bob"], gives={"Bob": {"gold": 1}, "Ann": {"credit": {"Ann": 2}}})
    text = read(board(room, s))
    assert "Deal offers to answer: Ann (1, 2) · Bob (3)" in text
