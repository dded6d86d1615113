"""Money Maker's words helpers write amounts, counts and lists as the sentences
did before they moved into ``words.py`` (the guard that keeps the game's
words in one place is ``tests/test_words.py``); the codes a sentence shows
(markets, standings, actors, phases) are said by their names from the words
tables; and the odd texts put right (one good, one die, an auction)."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from companion.commands import Actor, ActorKind
from companion.errors import IllegalMove, NotYourTurn
from companion.games.money_maker import words
from companion.games.money_maker.bank_run import start_bank_run
from companion.games.money_maker.components import MARKETS
from companion.games.money_maker.degradation import check_degrade
from companion.games.money_maker.host_words import PHASES_UNDER_WAY
from companion.games.money_maker.payment import credit_usable
from companion.games.money_maker.position import place
from companion.games.money_maker.state import (
    AUCTION,
    BANK_RUN,
    BANKRUPT,
    DEGRADED,
    INSOLVENT,
    PAYMENT,
    SOLVENT,
    UNSETTLED,
    BankRun,
    MoneyMakerState,
    market_price,
)
from companion.position import PositionError
from companion.rules import Explanation
from tests.money_maker.helpers import GAME, do, started, texts
from tests.test_words import call_name


def test_the_helpers_write_counts_as_before() -> None:
    assert words.plural(1, "spot") == "1 spot"
    assert words.plural(0, "spot") == "0 spots"
    assert words.plural(2, "box", "boxes") == "2 boxes"
    assert words.is_are(1) == "is" and words.is_are(3) == "are"
    assert words.die_dice(1) == "die" and words.die_dice(2) == "dice"
    assert words.good_goods(1) == "good" and words.good_goods(0) == "goods" and words.good_goods(2) == "goods"
    assert words.signed(0) == "+0" and words.signed(-2) == "-2"
    assert words.comma_list([1, "b"]) == "1, b"
    assert words.and_list(["Ann", "Bob"]) == "Ann and Bob"
    assert words.plus_list([8, 8, 3]) == "8 + 8 + 3"
    assert words.semicolon_list(["a", "b"]) == "a; b"
    assert words.names_list([]) == ""
    assert words.names_list(["Ann"]) == "Ann"
    assert words.names_list(["Ann", "Bob", "Cas"]) == "Ann, Bob and Cas"


# the names of codes: a sentence shows a market, a standing, an actor or a phase by its name ---------
def test_every_code_a_sentence_shows_has_a_name() -> None:
    """Today's English names are the codes themselves (the text did not change), but a
    translation changes these tables only."""
    assert dict(words.MARKET_NAMES) == {m: m for m in MARKETS}
    assert dict(words.STANDING_NAMES) == {c: c for c in (UNSETTLED, SOLVENT, INSOLVENT, DEGRADED, BANKRUPT)}
    assert set(words.ACTOR_NAMES) == {k.value for k in ActorKind if k is not ActorKind.SEAT}
    assert set(PHASES_UNDER_WAY) == {PAYMENT, AUCTION, BANK_RUN}  # every phase a position block may not leave


def _in_a_bank_run(state: MoneyMakerState, standing: dict[int, str]) -> MoneyMakerState:
    state.phase = BANK_RUN
    state.bank_run = BankRun(1, "test", started=True, standing=standing, debts=dict.fromkeys(standing, 3))
    return state


def test_the_sentences_say_the_codes_by_their_names(monkeypatch: pytest.MonkeyPatch) -> None:
    """Names changed in the words tables reach every sentence that showed the code itself."""
    monkeypatch.setitem(words.MARKET_NAMES, "production", "PRODUCTION-NAME")
    monkeypatch.setitem(words.STANDING_NAMES, "unsettled", "UNSETTLED-NAME")
    monkeypatch.setitem(words.STANDING_NAMES, "degraded", "DEGRADED-NAME")
    monkeypatch.setitem(words.ACTOR_NAMES, "host", "HOST-NAME")
    monkeypatch.setitem(PHASES_UNDER_WAY, "auction", "AUCTION-NAME")
    s = started(["Ann", "Bob"])
    _, lines = do(s, "Ann", "buy", market="production", count=2)
    assert "Ann buys 2 PRODUCTION-NAME goods at" in texts(lines)
    labels = [h.label for h in GAME.actions(s, Actor.of_seat(0))]
    assert f"Buy PRODUCTION-NAME goods (now {market_price(s, 'production')} each)" in labels
    with pytest.raises(NotYourTurn, match="'bid' is done by a seat, not by HOST-NAME"):
        do(s, "host", "bid", amount=5)
    opened, _ = do(s, "Ann", "open_auction", card="TEXT-1")
    with pytest.raises(PositionError, match="in the middle of AUCTION-NAME: finish it first"):
        place(opened, {"phase": "trade"})
    run = _in_a_bank_run(started(["Ann", "Bob", "Cas"]), {0: UNSETTLED, 1: DEGRADED, 2: SOLVENT})
    assert credit_usable(run, 0) == (False, "Ann is not solvent in this bank run (UNSETTLED-NAME)")
    with pytest.raises(IllegalMove, match="only an insolvent bank degrades; Bob is DEGRADED-NAME"):
        check_degrade(run, 1)


# odd texts put right: one good, one die, an auction -------------------------------------------------
def test_one_good_is_a_good_and_more_are_goods() -> None:
    s = started(["Ann", "Bob"])
    s, lines = do(s, "Ann", "buy", market="consumer", count=1, gold=1)
    assert "Ann buys 1 consumer good at" in texts(lines)
    s, lines = do(s, "Ann", "sell", market="consumer", count=1)
    assert "Ann sells 1 consumer good for" in texts(lines)
    _, lines = do(s, "Ann", "buy", market="consumer", count=2, gold=2)
    assert "Ann buys 2 consumer goods at" in texts(lines)
    with pytest.raises(IllegalMove, match="Bob's vault does not hold 1 production good "):
        do(s, "host", "grant", seat="Bob", goods={"production": -1})


def test_one_good_leaving_its_market_and_one_discarded() -> None:
    s = started(["Ann", "Bob"])
    s.markets["production"] = 1  # the Textile Producer needs 2: one from the market, one valued at 9
    _, lines = do(s, "Ann", "open_auction", card="TEXT-1")
    assert "1 production good leaves its market for the natural reserve (1 more valued at 9 each" in texts(lines)
    s, _ = do(s, "Ann", "end_trading")
    s.banks[0].board = {"I": 11}  # one bank over 10 on ring I: the red 10 discards one good
    _, lines = do(s, "chance", "roll", credit="red-10")
    assert "1 production good is discarded from the market to its natural reserve" in texts(lines)


def test_one_sector_die_to_roll_for_a_bank_run() -> None:
    s = started(["Ann", "Bob"])
    s.banks[1].rating = 2  # off ring I: the bank run needs its sector die
    lines: list[Explanation] = []
    start_bank_run(s, "test", "", lines)
    assert GAME.status(s) == "Bank run 1: roll 1 sector die"


def test_one_discarded_action_card_is_reshuffled() -> None:
    s = started(["Ann", "Bob"])
    s.actions_out = sum(k.copies for k in s.comp.actions)
    s.action_discard = [s.comp.actions[0].code]
    _, lines = do(s, "Ann", "buy_action", gold=s.comp.action_price)
    assert "The action deck is empty: the 1 discarded card is reshuffled" in texts(lines)


def test_one_unverified_component_group() -> None:
    s = started(["Ann", "Bob"])
    s.comp = dataclasses.replace(s.comp, unverified=("meter",))
    assert GAME.public_notes(s)[0].startswith("1 component group uses unverified default values")


def test_a_position_in_the_middle_of_an_auction_or_after_the_end() -> None:
    s = started(["Ann", "Bob"])
    opened, _ = do(s, "Ann", "open_auction", card="TEXT-1")
    with pytest.raises(PositionError, match="the base position is in the middle of an auction: finish it first"):
        place(opened, {"phase": "trade"})
    over, _ = do(s, "host", "end")
    with pytest.raises(PositionError, match="the game of the base position is over: no turn or phase follows it"):
        place(over, {"turn": "Bob"})


#: the fields of a template that show a code, and the (module, key) that fill one with what
#: was typed, as it was typed (a command's own words, echoed back in its refusal)
CODE_FIELDS = ("market", "source", "into", "standing", "actor", "under_way")
ECHOED = {("moves.py", "whose_goods"), ("moves.py", "what_goods")}


def _named(node: ast.expr) -> bool:
    """Whether ``node`` is a code's name: looked up in a names table, said, or one of two such."""
    if isinstance(node, ast.IfExp):
        return _named(node.body) and _named(node.orelse)
    if isinstance(node, ast.Subscript):
        return isinstance(node.value, ast.Name) and node.value.id.endswith(("_NAMES", "_UNDER_WAY"))
    return isinstance(node, ast.Call) and call_name(node.func) in ("says", "name")


def codes_pasted(source: str, where: str) -> list[str]:
    """``file:line key=field`` of every ``says(...)`` whose code field is filled with something
    that is not a name (a bare variable holding ``"production"``, ``"insolvent"``...)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and call_name(node.func) == "says" and node.args):
            continue
        key = str(node.args[0].value) if isinstance(node.args[0], ast.Constant) else "?"
        for kw in node.keywords:
            if kw.arg in CODE_FIELDS and not _named(kw.value) and (where, key) not in ECHOED:
                found.append(f"{where}:{node.lineno} {key} {kw.arg}={ast.unparse(kw.value)}")
    return found


def test_the_scan_sees_a_code_pasted_into_a_sentence() -> None:
    sample = (
        'says("buys", market=market, count=1)\n'
        'says("buys", market=MARKET_NAMES[market], goods=good_goods(1))\n'
        'says("x", standing=says("not_in_debt") if s is None else STANDING_NAMES[s])\n'
        'says("x", standing=s or "none")\n'
        'says("x", actor=WORDS.name("actor", kind))\n'
    )
    assert [f.split(" ")[0] for f in codes_pasted(sample, "sample.py")] == ["sample.py:1", "sample.py:4"]


def test_no_module_pastes_a_code_into_a_sentence() -> None:
    package = Path(words.__file__).resolve().parent
    found = [f for path in sorted(package.glob("*.py")) for f in codes_pasted(path.read_text(encoding="utf-8"), path.name)]
    assert found == []
