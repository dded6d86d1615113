"""What the phones and the table screen say in each step of a round: the
seat whose move it is knows what to do, the others what they wait for."""

from __future__ import annotations

from companion.commands import CHANCE
from companion.table import Room
from tests.world_of_waste.helpers import deal, do, lockstep_draft, market, new_table, seat, state_of


def test_a_seat_dealt_in_full_waits_for_the_others(room: Room) -> None:
    """Not a greyed "Enter my dealt cards (0 to go)" refused with "7 are
    recorded and 1 more would make 8", but what the table waits for."""
    table = new_table(room, 3)
    do(table, CHANCE, "deal", seat=1, cards=["Paper"] * 7)
    [hint] = table.actions(seat(1))
    assert (hint["command"], hint["label"], hint["enabled"]) == ("wait", "Nothing to do now", False)
    assert hint["reason"] == "Ada (boss) deals 7 cards each; waiting for the cards of Cy, Ada"
    assert [h["label"] for h in table.actions(seat(2))] == ["Enter my dealt cards (7 to go)"]


def test_a_half_laid_bonus_pile_says_a_face_up_card_is_still_to_come(room: Room) -> None:
    table = new_table(room, 2)
    deal(table, [["Paper"] * 7, ["Metal"] * 7])
    lockstep_draft(table)
    lines = [e.text for e in do(table, CHANCE, "bonus", pile=1, cards=["Textiles"]).explanations]
    assert lines == ["Bonus pile 1 shows Textiles face up so far; its second face-up card is still to be recorded"]
    lines = [e.text for e in do(table, CHANCE, "bonus", pile=1, cards=["Metal"]).explanations]
    assert lines[0] == "Bonus pile 1 shows Textiles, Metal face up, and one card face down"


def test_the_face_down_card_to_record_names_its_pile(room: Room) -> None:
    table = new_table(room, 3)
    deal(table, [["Paper"] * 7, ["Metal"] * 7, ["Plastic"] * 7])
    lockstep_draft(table)
    market(table, [["Textiles", "Textiles"], ["Food waste", "Compost"]])
    st = state_of(table)
    do(table, seat(0), "offer", cards=st.hands[0][:2])
    do(table, seat(1), "offer", cards=st.hands[1][:1])
    do(table, seat(2), "offer", cards=[])
    do(table, seat(0), "choose", pile=2)
    status = table.game.status(state_of(table))
    assert status == ("Round 1 of 3: Ada records the face-down card of bonus pile 2; Ben records the face-down card "
                      "of bonus pile 1; Cy plays any Recyclers and sorts the waste")


def test_an_empty_offer_is_said_as_nothing(room: Room) -> None:
    """Not "Ada offers 0 cards: no cards (auction value 0)"."""
    table = new_table(room, 2)
    deal(table, [["Paper"] * 7, ["Metal"] * 7])
    lockstep_draft(table)
    market(table, [["Textiles", "Textiles"]])
    mine = [e.text for e in do(table, seat(0), "offer", cards=["Paper"]).explanations]
    assert mine == ["Ada offers 1 card: Paper (auction value 1)", "Ada has committed an offer"]
    mine = [e.text for e in do(table, seat(0), "offer", cards=[]).explanations]
    assert mine == ["Ada changes the offer to nothing"]
    shown = [e.text for e in do(table, seat(1), "offer", cards=[]).explanations]
    assert shown[:4] == ["Ben offers nothing", "Ben has committed an offer",
                         "3, 2, 1, WASTE! The offers are shown together:", "Ada offers nothing"]
    assert "Ben offers nothing" in shown[4:]
