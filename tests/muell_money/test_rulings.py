"""Müll + Money rulings checked against the texts: a full tie is a shared
place, a card kept in the last round is not kept "for the next round", and the
Adviser played alone cites the text that says so outright (004)."""

from __future__ import annotations

import io
from contextlib import redirect_stdout

from companion.cli import print_text
from companion.games.muell_money import citations as R
from companion.rules import SHARED_PLACE
from tests.muell_money.helpers import Scene
from tests.muell_money.player import GAME

FILLER = ("Order", "Growth", "Innovate")


def test_a_full_tie_is_a_shared_first_place_on_the_sheet_and_in_the_text_output() -> None:
    # 000 Score: "Ties are broken by cash in hand." -- equal cash too: the texts name nothing more
    s = Scene(2)
    s.do("host", "end")
    sheet = GAME.score(s.state)
    assert sheet.places() == {0: 1, 1: 1} and sheet.winners() == [0, 1]
    out = sheet.to_json(("Ann", "Bob"))
    assert [(x["place"], x["shared"]) for x in out["seats"]] == [(1, True), (1, True)]
    over = s.lines[-1]
    assert "Ann and Bob share the win" in over.text and SHARED_PLACE in over.citations
    printed = io.StringIO()
    with redirect_stdout(printed):
        print_text({"table": {"title": "Müll + Money"}, "log": [], "scores": out})
    text = printed.getvalue()
    assert "  1. Ann: 24 points (shared place)" in text and "  1. Bob: 24 points (shared place)" in text


def test_cash_still_breaks_a_tie_on_points() -> None:
    s = Scene(3)
    s.seat("Bob").cash += 2
    s.do("host", "end")
    sheet = GAME.score(s.state)
    assert sheet.places()[1] == 1 and sheet.places()[0] == sheet.places()[2] == 2
    assert not sheet.to_json(("Ann", "Bob", "Cy"))["seats"][1]["shared"]


def _last_round_with_bribery() -> Scene:
    s = Scene(2)
    ann = s.seat("Ann")
    ann.column = 19  # one Growth from the last column
    s.deal_sets(("Growth", "Bribery", "Waste Disposal"), ("Order", "Growth", "Innovate"), FILLER)
    s.do("Ann", "choose", set=1)
    s.do("Bob", "choose", set=2)
    lines = s.do("Ann", "play", card="Growth")
    assert "the game ends after this round" in lines[0] and s.state.end_reached
    s.do("Bob", "play", card="Growth")
    s.do("Ann", "play", card="Waste Disposal")
    s.do("Bob", "play", card="Order")
    return s


def test_a_card_kept_in_the_last_round_is_not_kept_for_a_next_round() -> None:
    s = _last_round_with_bribery()
    keep = next(h for h in GAME.actions(s.state, s.actor("Ann")) if h.command == "keep")
    assert keep.label == "Pass and keep your last card: the game ends with this round"
    lines = s.do("Ann", "keep")
    assert "next round" not in lines[0]
    assert lines[0].startswith(
        "Ann passes and keeps Bribery: the game ends with this round (a kept Bribery still serves at the final pollution check)"
    )
    kept = next(ln for ln in s.lines if ln.text.startswith("Ann passes and keeps Bribery"))
    assert R.END in kept.citations  # (its section also holds the final pollution check)


def test_an_adviser_alone_without_a_loan_cites_004s_own_rule() -> None:
    s = Scene(2)
    s.deal_sets(("Adviser", "Growth", "Order"), ("Order", "Growth", "Innovate"), FILLER)
    s.do("Ann", "choose", set=1)
    s.do("Bob", "choose", set=2)
    err = s.refuse("Ann", "play", "an Adviser alone repays a loan", card="Adviser")
    assert err.rule == R.ADVISER_NOT_ALONE and err.rule.seed == "004"
    assert err.rule.quote == "The card may not be played alone, but must be played with a loan token or another action card."
