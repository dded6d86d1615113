"""Müll + Money's words helpers write amounts, counts and lists as the sentences
did before they moved into ``words.py`` (the guard that keeps the game's
words in one place is ``tests/test_words.py``); a sentence shows a code (a
card kind, a waste zone, a ballot's choice, a phase, a rounding, an actor) by
its name from the words, and its figures from the table's data and the
game's seat bounds, in the singular or the plural as the count is."""

from __future__ import annotations

import ast
import copy
import re
from dataclasses import replace
from pathlib import Path

import pytest

from companion.commands import CHANCE, HOST, Actor, ActorKind, Command
from companion.errors import IllegalMove, InvalidCommand, SetupError
from companion.games.base import TABLE_SCREEN
from companion.games.muell_money import MuellMoney, words
from companion.games.muell_money.components import MAX_SEATS, MIN_SEATS, ZONES
from companion.games.muell_money.moves import CHOICES
from companion.games.muell_money.negotiation import red_zone_stop
from companion.games.muell_money.options import OPTIONS
from companion.games.muell_money.position import place, problems
from companion.games.muell_money.scoring import score_sheet
from companion.games.muell_money.state import Adopted, Phase
from companion.position import PositionError
from tests.muell_money.helpers import Scene
from tests.muell_money.player import GAME, config


def test_the_helpers_write_counts_as_before() -> None:
    assert words.money(5) == "5 M"
    assert words.plural(1, "card") == "1 card" and words.plural(0, "card") == "0 cards"
    assert words.raw(1) == "1 raw material" and words.raw(2) == "2 raw materials"
    assert words.card_list([]) == "no cards" and words.card_list(["Order", "Growth"]) == "Order, Growth"
    assert words.multiset({"Order": 1, "Growth": 2, "Adviser": 0}) == "2 Growth, 1 Order"
    assert words.multiset({}) == "nothing"
    assert words.comma_list([1, "b"]) == "1, b"
    assert words.and_list(["Ann", "Bob"]) == "Ann and Bob"
    assert words.or_list(["Ann", "Bob"]) == "Ann or Bob"
    assert words.semicolon_list(["a", "b"]) == "a; b"


# a code is shown by its name from the words ------------------------------------------------
def test_every_code_a_sentence_shows_has_a_name() -> None:
    assert set(words.CARD_NAMES) == {k.name for k in GAME.components(GAME.default_edition()).kinds}
    assert set(words.ZONE_NAMES) == set(ZONES)
    assert set(words.VOTE_CHOICES) == set(CHOICES.values())
    assert set(words.PHASE_NAMES) == {p.value for p in Phase}
    assert set(words.ROUNDING_NAMES) == {r.key for o in OPTIONS if o.key == "half_cash_rounding" for r in o.readings}
    assert set(words.ACTOR_NAMES) == {k.value for k in ActorKind} - {ActorKind.SEAT.value}


def test_a_sentence_shows_a_card_kind_by_its_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cards are kept by their kind's key (state, events, commands, form values); a sentence names them."""
    monkeypatch.setitem(words.CARD_NAMES, "Order", "Commande")
    s = Scene(2)
    choices = GAME.actions(s.state, CHANCE)[0].fields[0].choices
    assert [(c.value, c.label) for c in choices if c.value == "Order"] == [("Order", "Commande (9 in the deck)")]
    lines = s.deal_sets(("Order", "Adviser", "Waste Disposal"), ("Growth", "Bribery", "Innovate"),
                        ("Innovate", "Hire/Fire", "Growth"))
    assert lines[0].startswith("Dealt: Commande to set 1 (row 1)")
    assert next(h.label for h in GAME.actions(s.state, Actor.of_seat(0)) if h.command == "choose") == \
        "Take set 1: Commande, Adviser, Waste Disposal"
    s.do("Ann", "choose", set=1)
    s.do("Bob", "choose", set=2)
    assert "Discard Commande unused" in [h.label for h in GAME.actions(s.state, Actor.of_seat(0))]
    assert s.do("Ann", "discard", card="Order")[0].startswith("Ann discards Commande without using it")
    assert s.state.discard["Order"] == 1  # the state keeps the key


def test_a_sentence_shows_a_waste_zone_by_its_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(words.ZONE_NAMES, "red", "rouge")
    s = Scene(2)
    s.state.seats[0].waste = 14
    lines = s.deal("Order", "Growth", "Innovate", "Pollution Check")
    assert any(line.startswith("Pollution Check: Ann's waste is 14 (rouge, 13-16): pays 10 M") for line in lines), lines
    assert GAME.view(s.state, TABLE_SCREEN)["seats"][0]["waste_zone"] == "red"  # the view keeps the code


def test_each_ballot_choice_has_its_own_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """A ballot's sentences are said in the words of its choice (one key per choice, so a translation
    phrases each as its language does); the command and the ballot keep the code."""
    assert words.VOTE_CHOICES["abstain"] == "abstain"
    monkeypatch.setitem(words.SAYS, "you_vote_for", "{seat}, tu votes pour avec {votes}{bribery}")
    s = Scene(2, {"variant": "simulation"})
    s.deal_sets(("Waste Inspection", "Bribery", "Innovate"), ("Waste Inspection", "Hire/Fire", "Order"),
                ("Order", "Growth", "Innovate"))
    s.do("Ann", "choose", set=1)
    s.do("Bob", "choose", set=2)
    s.do("Ann", "play", card="Negotiation", propose=1)
    rule = "'1) A Negotiation always moves the common waste marker back 1 space and costs 1 M'"
    labels = {(h.args["choice"], bool(h.args.get("bribery"))): h.label
              for h in GAME.actions(s.state, Actor.of_seat(0)) if h.command == "vote"}
    assert labels == {
        ("for", False): f"Vote for {rule} (2 votes)",
        ("against", False): "Vote against it (2 votes)",
        ("for", True): "Vote for it with Bribery: 3 votes, pay 1 M, the card is discarded",
        ("against", True): "Vote against it with Bribery: 3 votes, pay 1 M, the card is discarded",
        ("abstain", False): "Abstain",
    }
    s.do("Ann", "vote", choice="against", bribery=True)
    assert any(e.text == "Ann, you vote against with 3 votes with Bribery (+1 vote, 1 M paid)" for e in s.lines)
    assert s.state.vote is not None and s.state.vote.ballots[0].choice == "against"
    s.do("Bob", "vote", choice="for")
    assert any(e.text == "Bob, tu votes pour avec 2 votes" for e in s.lines)


def test_the_score_sheet_names_the_rounding(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(words.ROUNDING_NAMES, "down", "vers le bas")
    s = Scene(2)
    sheet = score_sheet(s.state, final=True)
    assert [ln.detail for ln in sheet.seats[0].lines if ln.label == "Half the cash"] == ["15 M / 2, rounded vers le bas"]


def test_the_status_line_names_a_phase_it_has_no_line_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(words.PHASE_NAMES, "pollution-check", "contrôle")
    s = Scene(2)
    s.state.phase = Phase.CHECK  # no check pending: no line of its own
    assert GAME.status(s.state) == "contrôle"


def test_a_refusal_names_who_gave_the_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(words.ACTOR_NAMES, "host", "l'hôte")
    s = Scene(2)
    with pytest.raises(InvalidCommand, match="'play' is done by a seat, not by l'hôte"):
        GAME.parse(s.state, Command(HOST, "play", {"card": "Order"}))
    with pytest.raises(InvalidCommand, match="'deal' is done by chance, not by seat:1"):
        GAME.parse(s.state, Command(Actor.of_seat(1), "deal", {"card": "Order"}))


# figures from the game's data and bounds, counts in the singular or plural ----------------
def test_the_adviser_returns_a_marker_of_the_tables_loan_amount() -> None:
    s = Scene(2)
    s.state.comp = replace(s.state.comp, loan_amount=20, repay_amount=20)
    s.deal_sets(("Adviser", "Growth", "Order"), ("Growth", "Innovate", "Waste Disposal"), ("Order", "Growth", "Innovate"))
    s.do("Ann", "choose", set=1)
    s.do("Bob", "choose", set=2)
    s.do("Ann", "loan", count=2)
    lines = s.do("Ann", "play", card="Adviser")
    assert lines[0].startswith("Ann plays an Adviser to repay a loan: pays 20 M and returns a −20 marker (1 left)")


def test_loan_markers_are_counted_in_the_singular_or_the_plural() -> None:
    s = Scene(2)
    assert s.do("Ann", "loan")[0].startswith("Ann takes 1 loan: +10 M, 1 × −10 marker (1 loan in all)")
    assert s.do("Ann", "loan", count=2)[0].startswith("Ann takes 2 loans: +20 M, 2 × −10 markers (3 loans in all)")


def test_the_seat_count_refusal_says_the_games_seat_bounds() -> None:
    with pytest.raises(SetupError, match="Müll \\+ Money is for 2-4 seats, not 1"):
        GAME.setup(replace(config(2), seats=config(2).seats[:1]))

    class ThreeAtMost(MuellMoney):
        max_seats = 3

    with pytest.raises(SetupError, match="Müll \\+ Money is for 2-3 seats, not 4"):
        ThreeAtMost().setup(config(4))


def test_an_edition_is_checked_against_the_games_seat_bounds() -> None:
    assert (MIN_SEATS, MAX_SEATS) == (GAME.min_seats, GAME.max_seats) == (2, 4)
    five = copy.deepcopy(GAME.default_edition())
    five["common_waste_board"]["tracks"]["5"] = five["common_waste_board"]["tracks"]["4"]
    assert GAME.edition_problems(five) == ["common_waste_board.tracks.5: the key must be a number of seats, 2 to 4"]
    short = copy.deepcopy(GAME.default_edition())
    short["raw_material_supply"]["total"] = MAX_SEATS * short["start"]["raw_materials"] - 1
    assert GAME.edition_problems(short) == ["raw_material_supply.total must cover 4 seats' starting raw materials"]


def test_a_lot_of_one_raw_material_is_bid_for_in_the_singular() -> None:
    s = Scene(2)
    s.deal_sets(("Raw Materials", "Growth", "Order"), ("Growth", "Innovate", "Waste Disposal"),
                ("Order", "Growth", "Innovate"))
    s.do("Ann", "choose", set=1)
    s.do("Bob", "choose", set=2)
    s.state.supply = 1
    s.do("Ann", "play", card="Raw Materials")
    assert [h.label for h in GAME.actions(s.state, Actor.of_seat(1)) if h.command == "bid"] == \
        ["Bid for the 1 raw material"]


def test_the_red_zone_stop_names_one_hole_in_the_singular() -> None:
    for service, holes in (("hole-1", "hole 1"), ("hole-2", "holes 1-2")):
        s = Scene(2, {"variant": "simulation", "proposal_red_zone_stop": "offered", "red_zone_service": service})
        s.state.adopted = [Adopted("red-zone-stop", 1, 1)]
        s.state.common_waste = 20  # red on the 2-seat track
        with pytest.raises(IllegalMove, match=re.escape(f"(hole 1; the table counts {holes}): no Order may be filled")):
            red_zone_stop(s.state, 0)


def test_a_position_counts_one_card_in_the_singular() -> None:
    s = Scene(2)
    s.state.deck["Bribery"] = 1  # the deck should hold both
    assert ("deck", "1 Bribery card lies on the table; the game has 2") in problems(s.state)
    s.state.deck["Bribery"] = 0
    assert ("deck", "0 Bribery cards lie on the table; the game has 2") in problems(s.state)
    none = replace(s.state.comp, kinds=tuple(replace(k, copies=0) if k.name == "Bribery" else k
                                             for k in s.state.comp.kinds))
    base = GAME.setup(config(2))
    base.comp = none
    with pytest.raises(PositionError, match="1 Bribery card placed so far; the game has 0"):
        place(base, {"seats": {"Ann": {"cards": ["Bribery"]}}})


# the guard: a field that carries a code is filled through a name ---------------------------
#: the template fields that show a code (a card kind, a zone, a ballot's choice, a rounding, an actor)
CODE_FIELDS = frozenset({"card", "kind", "zone", "choice", "rounding", "expected", "actor"})
#: (module, key prefix) where such a field shows what was given as it was, not a code of the game
AS_GIVEN = {
    ("deal.py", "not_a_card"): "the scanner's text, quoted ({card!r})",
    ("components.py", "ed_"): "a path in the edition file (its zone keys are the file's own)",
}


def pasted_codes(source: str, module: str) -> list[str]:
    """``says(...)`` calls in ``source`` that fill a code's field with the
    value as it is (a name or an attribute) instead of through a helper or a
    names table (a call, a subscript)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "says"):
            continue
        key = str(node.args[0].value) if node.args and isinstance(node.args[0], ast.Constant) else ""
        if any(module == m and key.startswith(prefix) for m, prefix in AS_GIVEN):
            continue
        for kw in node.keywords:
            if kw.arg in CODE_FIELDS and isinstance(kw.value, (ast.Name, ast.Attribute, ast.Constant)):
                found.append(f"{module}:{node.lineno}: {key} {kw.arg}={ast.unparse(kw.value)}")
    return found


def test_the_guard_sees_a_code_pasted_into_a_sentence() -> None:
    sample = ('says("you_vote", seat=me.name, choice=move.choice)\n'
              'says("zone_text", zone=name, low=1)\n'
              'says("dealt", card=card_name(card), set=1)\n'
              'says("x", choice=VOTE_CHOICES[choice])\n')
    assert [f.split(": ")[0] for f in pasted_codes(sample, "sample.py")] == ["sample.py:1", "sample.py:2"]


def test_no_module_pastes_a_code_into_a_sentence() -> None:
    package = Path(words.__file__).resolve().parent
    found = [f for path in sorted(package.glob("*.py")) for f in pasted_codes(path.read_text(encoding="utf-8"), path.name)]
    assert found == []


# the rules options' figures come from the data file -------------------------------------
def test_the_rules_options_summaries_take_their_figures_from_the_data_file() -> None:
    from companion.games.muell_money.components import read_components
    from companion.games.muell_money.options import rule_options

    def summaries(data: dict[str, object]) -> dict[tuple[str, str], str]:
        comp, problems = read_components(data)
        assert comp is not None, problems
        return {(o.key, r.key): r.summary for o in rule_options(comp) for r in o.readings}

    shipped = summaries(GAME.default_edition())
    assert shipped == {(o.key, r.key): r.summary for o in OPTIONS for r in o.readings}
    corrected = copy.deepcopy(GAME.default_edition())
    corrected["pollution_check"]["bribery_cost"] = 2
    corrected["pollution_check"]["normal"]["red"] = {"fine": 12, "steps_left": 1}
    corrected["pollution_check"]["french_end"]["yellow"] = {"fine": 3, "steps_left": 2}
    corrected["waste_storage"]["zones"]["review"] = {"green": [0, 7], "yellow": [8, 11], "red": [12, 16]}
    corrected["loans"]["amount"] = 20
    corrected["simulation_variant"].update(waste_disposal_steps=1, negotiation_back_steps=2, negotiation_back_cost=3)
    fixed = summaries(corrected)
    assert fixed[("bribery", "bribe-only")] == "Pay 2 M and discard the card: no fine and no factory move."
    assert fixed[("bribery", "fine-still-paid")] == (
        "Pay 2 M and discard the card: the factory does not move, but the fine (5 M in yellow, 12 M in red) is still paid.")
    assert fixed[("final_check", "normal")] == ("A normal Pollution Check: yellow pays 5 M and moves back 1 column, "
                                                "red pays 12 M and moves back 1 column; Bribery as at any check.")
    assert fixed[("final_check", "french-end")].startswith(
        "The French end section: yellow pays 3 M and moves back 2 columns, red pays 2 M and moves back 2 columns;")
    assert fixed[("waste_zones", "printed")] == shipped[("waste_zones", "printed")] == "Green 0-8, yellow 9-12, red 13-16."
    assert fixed[("waste_zones", "review")].startswith("Green 0-7, yellow 8-11, red 12-16 ")
    assert fixed[("tie_break", "net-money")] == "Most money after debts (cash minus 20 M per loan) wins the tie."
    assert "Waste Disposal 1 space," in fixed[("variant", "simulation")]
    assert "(5 M yellow, 12 M red)" in fixed[("common_fine", "full")]
    assert "'a Negotiation always moves the marker back 2 spaces and costs 3 M'" in \
        fixed[("proposal_negotiation_cost", "offered")]
    changed = {k for k in shipped if shipped[k] != fixed[k]}
    assert changed == {("bribery", "bribe-only"), ("bribery", "fine-still-paid"), ("final_check", "normal"),
                       ("final_check", "french-end"), ("waste_zones", "review"), ("tie_break", "net-money"),
                       ("variant", "simulation"), ("common_fine", "full"), ("proposal_negotiation_cost", "offered")}


def test_the_negotiation_choice_counts_the_spaces_the_marker_moves_back() -> None:
    """'the common waste marker back 1' named no unit: it moves back 1 space, 2 spaces with an Adviser."""
    s = Scene(2, {"variant": "simulation"})
    s.deal_sets(("Waste Inspection", "Adviser", "Innovate"), ("Waste Inspection", "Hire/Fire", "Order"),
                ("Order", "Growth", "Innovate"))
    s.do("Ann", "choose", set=1)
    s.do("Bob", "choose", set=2)
    s.state.common_waste = 5
    backs = {bool(h.args.get("adviser")): [c.label for f in h.fields if f.name == "back" for c in f.choices]
             for h in GAME.actions(s.state, Actor.of_seat(0)) if h.command == "play" and h.args["card"] == "Waste Inspection"}
    assert backs == {
        False: ["Leave the common waste marker where it is", "Pay 1 M: the common waste marker back 1 space"],
        True: ["Leave the common waste marker where it is", "Pay 2 M: the common waste marker back 2 spaces"],
    }
