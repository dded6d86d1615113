"""The experimental simulation variant (003's last pages, rules option
``variant``): the common waste board, the changed cards, and the named
options where the text is silent."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.commands import Command
from companion.errors import InvalidCommand
from companion.games.base import TABLE_SCREEN, seat_viewer
from companion.games.muell_money import citations as R
from companion.games.muell_money.negotiation import title
from companion.games.muell_money.options import OPTIONS
from companion.games.muell_money.state import Adopted, Phase
from companion.rules import Explanation
from tests.muell_money.helpers import Scene
from tests.muell_money.player import GAME, config

FILLER = ("Order", "Growth", "Innovate")
SIM = {"variant": "simulation"}


def phase_of(scene: Scene) -> Phase:
    """The scene's phase now (read afresh: a step between two asserts moves it)."""
    return scene.state.phase


def two_seats(ann: tuple[str, str, str], bob: tuple[str, str, str], **options: str) -> Scene:
    s = Scene(2, {**SIM, **options})
    s.deal_sets(ann, bob, FILLER)
    s.do("Ann", "choose", set=1)
    s.do("Bob", "choose", set=2)
    return s


def test_the_variant_is_off_by_default_and_the_printed_game_keeps_its_own_storages() -> None:
    assert next(o for o in OPTIONS if o.key == "variant").default == "off"
    s = Scene(2)
    assert s.state.options["variant"] == "off"
    assert GAME.view(s.state, TABLE_SCREEN)["common_waste"] is None
    assert GAME.public_notes(s.state) == []  # the variant's unverified board is not this table's business
    with pytest.raises(InvalidCommand, match="'back' belongs to Negotiation"):
        GAME.parse(s.state, Command(s.actor("Ann"), "play", {"card": "Waste Inspection", "back": True}))


def test_the_common_board_depends_on_the_seats_and_says_it_is_unverified() -> None:
    for seats, top in ((2, 24), (3, 32), (4, 40)):
        s = Scene(seats, SIM)
        board = GAME.view(s.state, TABLE_SCREEN)["common_waste"]
        assert board["level"] == 0 and board["max"] == top and board["verified"] is False
        notes = GAME.public_notes(s.state)
        assert "common_waste_board" in notes[0]
        assert f"the common waste board for {seats} seats (0-{top}" in notes[1] and "unverified" in notes[1]


def test_an_edition_file_corrects_the_track() -> None:
    edition = GAME.default_edition()
    edition["common_waste_board"] = {
        "tracks": {"2": {"max": 10, "zones": {"green": [0, 4], "yellow": [5, 7], "red": [8, 10]}}},
        "start": 0, "source": "a printed copy", "verified": True,
    }
    cfg = config(2, SIM).__class__(**{**config(2, SIM).__dict__, "edition": edition})
    state = GAME.setup(cfg)
    assert GAME.view(state, TABLE_SCREEN)["common_waste"]["max"] == 10
    assert GAME.public_notes(state) == []
    # that edition has no track for 3 seats: the variant cannot be set up there
    cfg3 = config(3, SIM).__class__(**{**config(3, SIM).__dict__, "edition": edition})
    with pytest.raises(Exception, match="common waste board for 3 seats"):
        GAME.setup(cfg3)
    bad = {**edition, "common_waste_board": {"tracks": {"2": {"max": 10, "zones": {"green": [0, 4], "yellow": [5, 6], "red": [8, 10]}}}}}
    assert any("must cover 0..10" in p for p in GAME.edition_problems(bad))


def test_an_order_advances_the_common_marker() -> None:
    s = two_seats(("Order", "Growth", "Innovate"), ("Order", "Hire/Fire", "Waste Disposal"))
    lines = s.do("Ann", "play", card="Order")
    assert "common waste marker 0 → 5" in lines[0] and "[000, Play Cards — Order; 003, Quelles règles changent" in lines[0]
    s.do("Bob", "play", card="Order")
    assert s.state.common_waste == 10
    assert [seat.waste for seat in s.state.seats] == [0, 0]
    assert s.state.polluters == [0, 1]


def test_an_order_past_the_boards_end_is_refused_or_stops_there() -> None:
    s = two_seats(("Order", "Growth", "Innovate"), ("Order", "Hire/Fire", "Waste Disposal"))
    s.state.common_waste = 20
    refusal = s.refuse("Ann", "play", "no room on the common board", card="Order")
    assert refusal.rule == R.ORDER_WASTE
    s = two_seats(("Order", "Growth", "Innovate"), ("Order", "Hire/Fire", "Waste Disposal"), common_room="stop-at-end")
    s.state.common_waste = 20
    lines = s.do("Ann", "play", card="Order")
    assert "common waste marker 20 → 24 (the board's last space)" in lines[0]


def test_adviser_no_longer_with_growth_disposal_two_spaces() -> None:
    s = two_seats(("Growth", "Adviser", "Waste Disposal"), ("Order", "Hire/Fire", "Innovate"))
    refusal = s.refuse("Ann", "play", "can no longer be played with Growth", card="Growth", adviser=True)
    assert refusal.rule == R.V_ADVISER
    s.state.common_waste = 7
    lines = s.do("Ann", "play", card="Waste Disposal")
    assert "common waste marker 7 → 5" in lines[0] and "003, Quelles règles changent systématiquement ?" in lines[0]


def test_negotiation_replaces_waste_inspection_and_may_move_the_marker_back_for_1_m() -> None:
    s = two_seats(("Waste Inspection", "Growth", "Innovate"), ("Waste Inspection", "Hire/Fire", "Order"))
    refusal = s.refuse("Ann", "play", "nothing to move back", card="Negotiation", back=True)
    assert refusal.rule == R.V_NEGOTIATION_BACK
    s.state.common_waste = 6
    lines = s.do("Ann", "play", card="Negotiation", back=True)
    assert "Ann plays Negotiation (the Waste Inspection card): pays 1 M, common waste marker 6 → 5" in lines[0]
    assert s.state.seats[0].cash == 14 and [x.waste for x in s.state.seats] == [0, 0]
    lines = s.do("Bob", "play", card="Waste Inspection")
    assert "the common waste marker stays on 5" in lines[0] and s.state.seats[1].cash == 15


def test_a_pollution_check_reads_the_common_marker_for_every_seat() -> None:
    s = Scene(2, SIM)
    s.state.common_waste = 14  # yellow on the 2-seat placeholder track
    s.state.polluters = [0]
    lines = s.deal("Pollution Check")
    fined = [line for line in lines if "pays 5 M" in line]
    assert len(fined) == 2 and "the common waste marker is on 14 (yellow, 13-18) for Ann" in fined[0]
    assert s.state.polluters == [] and s.state.phase is Phase.DEAL


def test_polluters_and_split_fine_readings() -> None:
    s = Scene(3, {**SIM, "common_check": "polluters", "common_fine": "split"})
    s.state.common_waste = 26  # red on the 3-seat placeholder track
    s.state.polluters = [0, 2]
    lines = s.deal("Pollution Check")
    assert any("Bob filled no Order since the last check and is not checked" in line for line in lines)
    paid = [line for line in lines if "pays 5 M" in line]  # 10 M shared by two seats
    assert len(paid) == 2 and [x.cash for x in s.state.seats] == [10, 15, 10]


def test_bribery_still_protects_on_the_common_board() -> None:
    s = Scene(2, SIM)
    s.state.common_waste = 20
    s.state.seats[0].retained = "Bribery"
    s.state.deck["Bribery"] -= 1
    s.deal("Pollution Check")
    assert s.state.phase is Phase.CHECK and s.state.check is not None and s.state.check.pending == [0]
    lines = s.do("Ann", "bribery", use=True)
    assert "uses Bribery (discarded), pays 1 M bribe, factory stays at 14" in lines[0]


def test_the_host_corrects_the_common_marker_not_a_seats_storage() -> None:
    s = Scene(2, SIM)
    s.refuse("host", "correct", "correct the common waste marker", value="waste", seat=0, to=3, reason="r")
    s.refuse("host", "correct", "runs from 0 to 24", value="common_waste", to=25, reason="r")
    lines = s.do("host", "correct", value="common_waste", to=12, reason="miscounted")
    assert s.state.common_waste == 12 and "common waste marker from 0 to 12" in lines[0]
    plain = Scene(2)
    plain.refuse("host", "correct", "does not play the simulation variant", value="common_waste", to=3, reason="r")


def test_the_position_block_carries_the_common_marker() -> None:
    s = Scene(2, SIM)
    s.state.common_waste = 9
    block = GAME.describe_position(s.state)
    assert block["common_waste"] == 9
    placed = GAME.place_position(Scene(2, SIM).state, block)
    assert placed.common_waste == 9
    assert "common_waste" not in GAME.describe_position(Scene(2).state)


def test_every_variant_citation_opens_its_passage_in_003() -> None:
    from tests.web.conftest import SEEDS
    from web.seeds import passage

    if not SEEDS.is_dir():
        pytest.skip("the rule texts are not on this machine")
    variant = [c for k, c in vars(R).items() if k.startswith("V_")]
    assert len(variant) > 15
    for c in variant:
        found = passage(SEEDS, c.seed, c.section, c.quote)
        assert found.found and found.quoted, c


# negotiation and the weighted secret vote ------------------------------------------------

def negotiating(ann_cash: int = 15, bob_cash: int = 15, **options: str) -> Scene:
    s = two_seats(("Waste Inspection", "Bribery", "Innovate"), ("Waste Inspection", "Hire/Fire", "Order"), **options)
    for seat, cash in ((0, ann_cash), (1, bob_cash)):
        s.state.bank_out += cash - s.state.seats[seat].cash
        s.state.seats[seat].cash = cash
    return s


def test_a_proposal_goes_to_a_secret_weighted_vote_and_only_the_totals_are_announced() -> None:
    s = negotiating(ann_cash=25, bob_cash=5)
    lines = s.do("Ann", "play", card="Negotiation", propose=1)
    assert "Ann proposes: 1) A Negotiation always moves" in lines[-1] and "Vote 1" in lines[-1]
    assert s.state.phase is Phase.VOTE
    table = GAME.view(s.state, TABLE_SCREEN)
    assert table["vote"]["to_vote"] == [0, 1] and table["vote"]["voted"] == []
    assert GAME.view(s.state, seat_viewer(0))["you"]["votes"] == 3
    s.refuse("Bob", "play", "", card="Order")  # play waits for the vote
    public = s.do("Ann", "vote", choice="for")
    assert public == ["Ann has voted (1 of 2) [003, Comment négocier ?]"]
    assert any(e.text == "Ann, you vote for with 3 votes" and e.audience == frozenset({0}) for e in s.lines)
    s.refuse("Ann", "vote", "already voted", choice="against")
    public = s.do("Bob", "vote", choice="against")
    assert "Vote 1 on '1) A Negotiation always moves the common waste marker back 1 space and costs 1 M': " \
           "3 votes for, 1 vote against: adopted" in " ".join(public)
    assert not any("25" in line or " 5 M" in line for line in public)
    assert [a.proposal for a in s.state.adopted] == ["negotiation-cost"]
    assert phase_of(s) is Phase.PLAY and s.state.turn == 1
    refusal = s.refuse("Bob", "play", "adopted by the table's vote 1 in round 1", card="Negotiation")
    assert refusal.rule == R.V_RULE_1
    lines = s.do("Bob", "play", card="Negotiation", back=True)
    assert "pays 1 M, common waste marker 0 → 0 (rule adopted by the table's vote 1 in round 1)" in lines[0]
    in_force = GAME.view(s.state, TABLE_SCREEN)["rules_in_force"]
    assert in_force[-1]["source"] == "adopted by the table's vote 1 in round 1"
    assert in_force[0]["source"] == "the variant's text" and len(in_force) == 6


def test_weights_follow_the_cash_brackets_and_bribery_adds_one_for_1_m() -> None:
    from companion.games.muell_money.votes import weight

    state = Scene(2, SIM).state
    assert [weight(state, c) for c in (0, 9, 10, 20, 21)] == [1, 1, 2, 2, 3]
    s = negotiating(ann_cash=9, bob_cash=20)
    s.do("Ann", "play", card="Negotiation", propose=2)
    s.do("Ann", "vote", choice="for", bribery=True)
    assert s.state.seats[0].cash == 8 and "Bribery" in s.state.seats[0].hand  # discarded after the vote
    public = s.do("Bob", "vote", choice="against")
    assert "2 votes for, 2 votes against: a tie is not a majority: rejected" in " ".join(public)
    assert "Bribery used in the vote is discarded: Ann" in " ".join(public)
    assert "Bribery" not in s.state.seats[0].hand and s.state.adopted == []
    # a seat whose cash does not cover Bribery's 1 M takes a loan before voting, never in the middle of
    # the secret vote (a forced loan would show the table who used Bribery, and that its cash was short)
    s = negotiating(ann_cash=0, bob_cash=20)
    s.do("Ann", "play", card="Negotiation", propose=2)
    refusal = s.refuse("Ann", "vote", "take a loan first", choice="for", bribery=True)
    assert refusal.rule == R.V_BRIBERY_WEIGHT and "0" not in refusal.message
    s.do("Ann", "loan")
    s.do("Ann", "vote", choice="for", bribery=True)
    assert s.state.seats[0].cash == 9 and s.state.vote is not None and s.state.vote.ballots[0].weight == 3


def test_vote_options_tie_abstain_and_voters() -> None:
    s = negotiating(ann_cash=15, bob_cash=15, vote_tie="proposer-decides", vote_abstain="everyone-votes")
    s.do("Ann", "play", card="Negotiation", propose=3)
    s.refuse("Ann", "vote", "every seat votes for or against", choice="abstain")
    s.do("Ann", "vote", choice="for")
    public = s.do("Bob", "vote", choice="against")
    assert "a tie, and the proposer Ann voted for: adopted" in " ".join(public)
    s = negotiating(ann_cash=25, bob_cash=5, vote_count="voters")
    s.do("Ann", "play", card="Negotiation", propose=3)
    s.refuse("Ann", "vote", "counts voters, not votes", choice="for", bribery=True)
    s.do("Ann", "vote", choice="for")
    public = s.do("Bob", "vote", choice="abstain")
    assert "1 voter for, 0 voters against, 1 abstaining: adopted" in " ".join(public)


def test_a_tie_says_how_the_proposer_voted_in_words_that_fit_each_choice() -> None:
    """'the proposer Ann voted abstains' was no sentence: each choice has its own words."""
    for ann, bob, said in (("for", "against", "the proposer Ann voted for: adopted"),
                           ("against", "for", "the proposer Ann voted against: rejected"),
                           ("abstain", "abstain", "2 abstaining: a tie, and the proposer Ann abstained: rejected")):
        s = negotiating(ann_cash=15, bob_cash=15, vote_tie="proposer-decides")
        s.do("Ann", "play", card="Negotiation", propose=3)
        s.do("Ann", "vote", choice=ann)
        public = " ".join(s.do("Bob", "vote", choice=bob))
        assert said in public, public
        assert "voted abstain" not in public


def test_the_vote_buttons_name_the_rule_a_repeal_would_cancel() -> None:
    """'Vote for 4) A rule adopted earlier by vote is repealed' did not say which rule."""
    s = negotiating()
    s.state.adopted = [Adopted("set-auction", 1, 1)]
    s.do("Ann", "play", card="Negotiation", propose=4, repeal=3)
    labels = [h.label for h in GAME.actions(s.state, s.actor("Bob")) if h.command == "vote"]
    assert labels[0] == ("Vote for '4) A rule adopted earlier by vote is repealed: "
                         "'3) The sets are auctioned (payments to the bank) instead of chosen'' (2 votes)")
    assert labels[1:] == ["Vote against it (2 votes)", "Abstain"]


def test_a_proposals_title_takes_its_figures_from_the_tables_data() -> None:
    edition = GAME.default_edition()
    edition["simulation_variant"].update(negotiation_back_steps=2, negotiation_back_cost=3)
    state = GAME.setup(replace(config(2, SIM), edition=edition))
    assert title(state, "negotiation-cost") == \
        "1) A Negotiation always moves the common waste marker back 2 spaces and costs 3 M"
    assert title(Scene(2, SIM).state, "negotiation-cost") == \
        "1) A Negotiation always moves the common waste marker back 1 space and costs 1 M"


def test_the_first_set_to_auction_is_named_first_not_next() -> None:
    s = Scene(2, SIM)
    s.state.adopted = [Adopted("set-auction", 1, 1)]
    lines = s.deal_sets(("Order", "Growth", "Innovate"), ("Growth", "Innovate", "Waste Disposal"), FILLER)
    assert lines[-2].startswith("The 3 sets are laid out: they are auctioned"), lines[-2:]
    assert lines[-1].startswith("Ann names the first set to auction"), lines[-2:]
    s.do("Ann", "choose", set=1)
    s.do("Bob", "no-bid")
    assert s.do("Ann", "no-bid")[-1].startswith("Bob, the last seat without cards")


def test_only_the_agreed_proposals_may_be_made_and_a_repeal_names_an_adopted_rule() -> None:
    s = negotiating(proposal_set_auction="not-offered")
    refusal = s.refuse("Ann", "play", "did not agree at setup", card="Negotiation", propose=3)
    assert refusal.rule == R.V_AGREE
    s.refuse("Ann", "play", "nothing to repeal", card="Negotiation", propose=4, repeal=1)
    s.do("Ann", "play", card="Negotiation", propose=2)
    s.do("Ann", "vote", choice="for")
    s.do("Bob", "vote", choice="for")
    s.refuse("Bob", "play", "already in force", card="Negotiation", propose=2)
    s.do("Bob", "play", card="Negotiation", propose=4, repeal=2)
    s.do("Ann", "vote", choice="for")
    s.do("Bob", "vote", choice="for")
    assert s.state.adopted == []
    assert "is repealed" in s.lines[-3].text or any("is repealed" in e.text for e in s.lines)


def test_adopted_rule_2_stops_orders_in_the_red_zone_for_a_service_still_far_left() -> None:
    s = negotiating()
    s.do("Ann", "play", card="Negotiation", propose=2)
    s.do("Ann", "vote", choice="for")
    s.do("Bob", "vote", choice="for")
    s.state.common_waste = 20  # red on the 2-seat placeholder track
    refusal = s.refuse("Bob", "play", "waste service is still far left", card="Order")
    assert refusal.rule == R.V_RULE_2 and "adopted by the table's vote 1" in refusal.message
    s.state.seats[1].mat[2] = 2  # improved twice: no longer "far left" at the default reading
    s.do("Bob", "play", card="Order")


def test_a_position_with_an_adopted_rule_enforces_it_and_cites_its_vote() -> None:
    from companion.position import PositionError

    s = negotiating()
    s.state = GAME.place_position(s.state, {"adopted": [{"rule": 2, "vote": 3, "round": 1}], "common_waste": 20,
                                                "turn": "Bob"})
    assert [(a.proposal, a.vote, a.round) for a in s.state.adopted] == [("red-zone-stop", 3, 1)]
    assert s.state.votes_held == 3
    refusal = s.refuse("Bob", "play", "waste service is still far left", card="Order")
    assert refusal.rule == R.V_RULE_2 and "adopted by the table's vote 3 in round 1" in refusal.message
    assert GAME.view(s.state, TABLE_SCREEN)["rules_in_force"][-1]["source"] == "adopted by the table's vote 3 in round 1"
    s.refuse("Bob", "play", "already in force", card="Negotiation", propose=2)
    lines = s.do("Bob", "play", card="Negotiation", propose=4, repeal=2)
    assert "Vote 4" in lines[-1]  # numbered after the votes the position says were held
    # the block round-trips; what it refuses names the field
    assert GAME.place_position(s.state, GAME.describe_position(s.state)) == s.state
    for block, where, why in (
        ({"adopted": [{"rule": 4}]}, "adopted[0].rule", "a repeal is not a rule in force"),
        ({"adopted": [{"rule": 1}, {"rule": "negotiation-cost"}]}, "adopted[1].rule", "listed twice"),
        ({"adopted": [{"rule": 1, "vote": 2}, {"rule": 2, "vote": 1}]}, "adopted[1].vote", "oldest first"),
        ({"adopted": [{"rule": 7}]}, "adopted[0].rule", "must be a proposal"),
        ({"adopted": [{"rule": 1, "round": 5}]}, "adopted[0].round", "is at most 1"),
        ({"adopted": {"rule": 1}}, "adopted", "must be a list"),
    ):
        with pytest.raises(PositionError, match=why) as info:
            GAME.place_position(negotiating().state, block)
        assert info.value.where == where
    with pytest.raises(PositionError, match="did not agree at setup") as info:
        GAME.place_position(negotiating(proposal_set_auction="not-offered").state, {"adopted": [{"rule": 3}]})
    with pytest.raises(PositionError, match="does not play the simulation variant"):
        GAME.place_position(Scene(2).state, {"adopted": []})


def test_a_position_with_rule_3_in_force_auctions_the_sets_it_lays_out() -> None:
    sets = [["Order", "Growth", "Innovate"], ["Raw Materials", "Hire/Fire", "Adviser"],
            ["Waste Disposal", "Growth", "Order"], ["Innovate", "Order", "Growth"]]
    s = Scene(3, SIM)
    s.state = GAME.place_position(s.state, {"phase": "choose", "sets": sets, "adopted": [{"rule": 3}]})
    assert s.state.phase is Phase.SET_AUCTION and s.state.set_sale is not None and s.state.set_sale.nominator == 0
    s.do("Ann", "choose", set=2)
    s.do("Bob", "bid", amount=4)
    assert GAME.place_position(s.state, GAME.describe_position(s.state)) == s.state


def test_a_position_with_a_vote_in_progress_resumes_the_vote() -> None:
    from companion.position import PositionError

    s = negotiating(ann_cash=25, bob_cash=5)
    s.do("Ann", "play", card="Negotiation", propose=2)
    s.do("Ann", "vote", choice="for", bribery=True)
    block = GAME.describe_position(s.state)
    assert block["phase"] == "vote"
    assert block["vote"] == {"proposer": "Ann", "proposal": "red-zone-stop", "repeal": None, "number": 1,
                             "ballots": {"Ann": {"choice": "for", "votes": 4, "bribery": True}}}
    assert GAME.place_position(s.state, block) == s.state
    # the same vote set over a table that never voted: Bob still votes, then play goes on after Ann
    fresh = negotiating(ann_cash=24, bob_cash=5)
    fresh.state.seats[0].hand.remove("Waste Inspection")
    fresh.state.discard["Waste Inspection"] += 1
    fresh.state = GAME.place_position(fresh.state, {"vote": {"proposer": "Ann", "proposal": 2, "ballots": {
        "Ann": {"choice": "for", "bribery": True}}}})
    assert fresh.state.phase is Phase.VOTE and fresh.state.turn is None
    assert fresh.state.vote is not None and fresh.state.vote.pending == [1]
    assert fresh.state.vote.ballots[0].weight == 4  # 24 M: 3 votes, and Bribery's extra one
    table = GAME.view(fresh.state, TABLE_SCREEN)
    assert table["vote"]["voted"] == [0] and table["vote"]["to_vote"] == [1]
    fresh.refuse("Ann", "vote", "already voted", choice="against")
    fresh.refuse("Bob", "play", "", card="Order")
    public = fresh.do("Bob", "vote", choice="against")
    assert "4 votes for, 1 vote against: adopted" in " ".join(public)
    assert "Bribery used in the vote is discarded: Ann" in " ".join(public)
    assert [a.proposal for a in fresh.state.adopted] == ["red-zone-stop"] and fresh.state.turn == 1
    # called off by the block; what it refuses names the field
    off = GAME.place_position(s.state, {"vote": None, "phase": "play"})
    assert off.vote is None and off.phase is Phase.PLAY
    for block, where, why in (
        ({"phase": "vote"}, "vote", "needs the proposal"),
        ({"vote": {"proposal": 1}}, "vote.proposer", "is needed"),
        ({"vote": {"proposer": "Ann", "proposal": 4}}, "vote.repeal", "names the adopted rule"),
        ({"vote": {"proposer": "Ann", "proposal": 1, "repeal": 2}}, "vote.repeal", "only a repeal"),
        ({"vote": {"proposer": "Ann", "proposal": 1}, "phase": "play"}, "vote", "is phase 'vote'"),
        ({"vote": {"proposer": "Ann", "proposal": 1, "ballots": {"Bob": {"choice": "for", "bribery": True}}}},
         "vote.ballots.Bob.bribery", "holds no Bribery"),
        ({"vote": {"proposer": "Ann", "proposal": 1, "ballots": {"Bob": {"choice": "for", "votes": 5}}}},
         "vote.ballots.Bob.votes", "is one of 1, 2, 3"),
        ({"vote": {"proposer": "Ann", "proposal": 1, "ballots": {"Bob": {"choice": "maybe"}}}},
         "vote.ballots.Bob.choice", "is one of"),
        ({"vote": {"proposer": "Ann", "proposal": 1, "ballots": {"Ann": {"choice": "for"}, "Bob": {"choice": "for"}}}},
         "vote.ballots", "every seat has voted"),
        ({"vote": {"proposer": "Ann", "proposal": 1}, "turn": "Bob"}, "turn", "nobody has a turn during a vote"),
    ):
        with pytest.raises(PositionError, match=why) as info:
            GAME.place_position(negotiating().state, block)
        assert info.value.where == where, block
    with pytest.raises(PositionError, match="does not play the simulation variant"):
        GAME.place_position(Scene(2).state, {"vote": {"proposer": "Ann", "proposal": 1}})


def test_adopted_rule_3_auctions_the_sets() -> None:
    s = Scene(3, SIM)
    s.state.adopted = [Adopted("set-auction", 1, 1)]
    s.state.votes_held = 1
    lines = s.deal_sets(("Order", "Growth", "Innovate"), ("Raw Materials", "Hire/Fire", "Adviser"),
                        ("Waste Disposal", "Growth", "Order"), ("Innovate", "Order", "Growth"))
    assert "they are auctioned" in " ".join(lines)
    assert s.state.phase is Phase.SET_AUCTION and s.state.turn == 0
    s.refuse("Bob", "choose", "Ann's turn to name a set", set=1)
    s.do("Ann", "choose", set=2)
    s.refuse("Ann", "bid", "Bob's turn to bid", amount=3)
    s.do("Bob", "bid", amount=4)
    s.do("Cy", "no-bid")
    lines = s.do("Ann", "no-bid")
    assert "Bob takes set 2 for 4 M, paid to the bank" in " ".join(lines)
    assert s.state.seats[1].cash == 11 and s.state.seats[1].hand == ["Raw Materials", "Hire/Fire", "Adviser"]
    # the next set is named by the first seat without cards from Ann on: Ann again
    assert s.state.set_sale is not None and s.state.set_sale.nominator == 0
    s.do("Ann", "choose", set=1)
    assert s.state.set_sale.bidders == [2, 0]  # Bob, served, may no longer bid
    s.do("Cy", "no-bid")
    lines = s.do("Ann", "no-bid")
    assert "Ann takes set 1, free: nobody bid for the set it named" in " ".join(lines)
    assert "Cy, the last seat without cards, takes one of the two remaining sets free" in " ".join(lines)
    lines = s.do("Cy", "choose", set=4)
    assert phase_of(s) is Phase.PLAY and s.state.seats[2].cash == 15
    assert s.state.bank_out == s.state.bank_in + sum(x.cash for x in s.state.seats)


# the 'désastre' ----------------------------------------------------------------------------

def test_a_game_that_stalls_is_called_a_desastre_and_the_host_is_offered_the_end() -> None:
    from companion.commands import HOST
    from companion.games.muell_money.disaster import STALLED_ROUNDS, watch

    s = Scene(2, SIM)
    s.state.common_waste = 20
    lines: list[Explanation] = []
    for _ in range(STALLED_ROUNDS):  # rounds end with no factory further right than column 14
        s.state.round += 1
        watch(s.state, lines)
    assert len(lines) == 1 and "désastre" in lines[0].text
    assert "no factory has got further right than column 14 for 4 rounds" in lines[0].text
    assert lines[0].citations[0] == R.V_DISASTER
    assert GAME.view(s.state, TABLE_SCREEN)["disaster"].startswith("no factory")
    end = next(h for h in GAME.actions(s.state, HOST) if h.command == "end")
    assert "may not end ('désastre'" in end.label
    s.state.round += 1
    watch(s.state, lines)
    assert len(lines) == 1  # said once
    s.state.seats[1].column = 15  # a factory moves on: the warning is lifted
    watch(s.state, lines)
    assert s.state.disaster == "" and "can move towards its end again" in lines[-1].text
    s.state.round += STALLED_ROUNDS
    watch(s.state, lines)
    s.do("host", "end", reason="a désastre")
    assert GAME.is_over(s.state) and GAME.score(s.state).final


def test_random_variant_games_meet_the_desastre_watch() -> None:
    """The watch runs at every round's end of real (random) games: where it
    speaks, the host's end is offered with the reason."""
    from companion.commands import HOST
    from tests.muell_money.player import random_game

    seen = 0
    for seed in range(40, 52):
        for _before, _command, after, lines in random_game(seed, 2 + seed % 3, options=SIM):
            if any("désastre" in e.text for e in lines):
                seen += 1
                assert after.disaster
                assert any("désastre" in h.label for h in GAME.actions(after, HOST) if h.command == "end")
    assert seen > 0


def test_the_variants_sentences_are_collected_in_words_py() -> None:
    """Every sentence the variant says (its own modules, and its lines in the
    cards, the sets, the checks, the corrections, the status line, the
    buttons and the rules' source) is a template in ``words.VARIANT_SAYS``
    (a translation replaces that table), and each template is used: the
    variant's own modules write no sentence themselves."""
    import importlib
    import inspect
    import re

    from companion.games.muell_money.words import VARIANT_SAYS

    modules = [importlib.import_module(f"companion.games.muell_money.{name}") for name in (
        "votes", "negotiation", "set_sale", "disaster", "status", "hints", "views", "cards", "sets", "waste",
        "pollution", "corrections")]
    code = "".join(inspect.getsource(m) for m in modules)
    assert [k for k in VARIANT_SAYS if f'"{k}"' not in code] == []
    for m in modules[:4]:
        for call in re.findall(r"(?:say|IllegalMove|NotYourTurn)\(\s*f?\"", inspect.getsource(m)):
            raise AssertionError(f"{m.__name__} writes a sentence itself: {call}")
