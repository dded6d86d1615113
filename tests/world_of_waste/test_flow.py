"""The round's steps at a table: deal, draft secrecy, Recyclers, sorting, station
scans, card sightings, bad input (refused with a reason, nothing changed)."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from companion.cli import main as cli_main
from companion.commands import CHANCE, HOST, Actor, Command
from companion.errors import IllegalMove, InvalidCommand, NotYourTurn, Refusal, SetupError
from companion.games.base import HOST_SCREEN, TABLE_SCREEN, seat_viewer
from companion.games.world_of_waste.components import UnknownCard
from companion.games.world_of_waste.game import WorldOfWaste
from companion.games.world_of_waste.state import Phase
from companion.table import Room, Table

from .helpers import (
    SAME_PILE,
    deal,
    do,
    hand_of,
    lockstep_draft,
    market,
    new_table,
    seat,
    state_of,
    to_auction,
)

GAME = WorldOfWaste()
WITH_RECYCLER = ["Recycler", "Food waste", "Paper", "Paper", "Metal", "Hazardous waste", "Plastic"]


@contextmanager
def unchanged(table: Table) -> Iterator[None]:
    """The block must be refused and change nothing."""
    before, state_no, log = copy.deepcopy(table.state), table.state_no, table.log()
    yield
    assert table.state == before
    assert table.state_no == state_no
    assert table.log() == log


def refused(table: Table, exc: type[Refusal], match: str, actor: Actor, name: str, **args: object) -> Refusal:
    with unchanged(table), pytest.raises(exc, match=match) as err:
        do(table, actor, name, **args)
    return err.value


def to_play(room: Room, seats: int = 2, pile: list[str] = WITH_RECYCLER) -> Table:
    """Round 1 after an auction nobody bid in: every seat holds ``pile``'s types."""
    table = to_auction(room, seats, 0, pile)
    for s in range(seats):
        do(table, seat(s), "offer", cards=[])
    assert state_of(table).phase is Phase.PLAY
    return table


# deal ----------------------------------------------------------------------------------------
def test_deal_sizes_and_bad_deals(room: Room) -> None:
    table = new_table(room, 4)
    assert state_of(table).phase is Phase.DEAL
    refused(table, IllegalMove, "dealt 6 cards with 4 seats", CHANCE, "deal", seat=1, cards=["Paper"] * 7)
    refused(table, InvalidCommand, "unknown card 'PAP-17'", CHANCE, "deal", seat=1, cards=["PAP-17"])
    refused(table, InvalidCommand, "unknown card 'Bananas'", CHANCE, "deal", seat=1, cards=["Bananas"])
    refused(table, InvalidCommand, "needs 'seat'", CHANCE, "deal", cards=["PAP-1"])
    refused(table, NotYourTurn, "cannot deal for", seat(0), "deal", seat=1, cards=["PAP-1"])
    refused(table, InvalidCommand, "no command 'shuffle'", HOST, "shuffle")
    do(table, CHANCE, "deal", seat=1, cards=["PAP-1", "pap-2"])
    refused(table, IllegalMove, "PAP-2 is not in the deck: it is already held by a seat", CHANCE, "deal", seat=2, cards=["PAP-2"])
    refused(table, IllegalMove, "not possible now", seat(1), "pick", card="PAP-1")
    # a seat may enter its own cards; a comma-separated text works as well as a list
    do(table, seat(2), "deal", cards="MET-1, Metal, FOOD-3")
    st = state_of(table)
    assert st.dealt[2] == ["MET-1", "MET-2", "FOOD-3"]
    assert "MET-2" in st.assumed and "MET-1" not in st.assumed


def test_all_paper_is_accounted_for(room: Room) -> None:
    table = new_table(room, 3)
    do(table, CHANCE, "deal", seat=0, cards=["Paper"] * 7)
    do(table, CHANCE, "deal", seat=1, cards=["Paper"] * 7)
    refused(table, IllegalMove, "no Paper can be left in the deck: all 16 copies", CHANCE, "deal", seat=2, cards=["Paper"] * 3)


# draft ---------------------------------------------------------------------------------------
def test_draft_picks_are_private_and_piles_go_left(room: Room) -> None:
    table = new_table(room, 3)
    piles = [
        ["FOOD-1", "FOOD-2", "PAP-1", "PAP-2", "MET-1", "LEL-1", "PLA-1"],
        ["FOOD-3", "FOOD-4", "PAP-3", "PAP-4", "MET-2", "LEL-2", "PLA-2"],
        ["FOOD-5", "FOOD-6", "PAP-5", "PAP-6", "MET-3", "LEL-3", "PLA-3"],
    ]
    deal(table, piles)
    assert state_of(table).phase is Phase.DRAFT
    # a card from another pile, or one already passed on, is refused
    err = refused(table, IllegalMove, "FOOD-3 \\(Food waste\\) is not in the pile you hold", seat(0), "pick", card="FOOD-3")
    assert err.rule is not None and err.rule.section == "2. Distribute the Waste"
    refused(table, IllegalMove, "there is no Textiles in the pile you hold", seat(0), "pick", card="Textiles")
    refused(table, NotYourTurn, "cannot pick for", seat(0), "pick", seat=1, card="FOOD-3")
    refused(table, NotYourTurn, "not by chance", CHANCE, "pick", seat=0, card="FOOD-1")
    do(table, seat(0), "pick", card="LEL-1")
    st = state_of(table)
    assert st.hands[0] == ["LEL-1"]
    assert st.queues[1][1] == ["FOOD-1", "FOOD-2", "PAP-1", "PAP-2", "MET-1", "PLA-1"]  # passed left
    # the pick shows only in seat 0's view and log
    assert table.view(seat_viewer(0))["game_view"]["me"]["hand"] == ["LEL-1"]
    for viewer in (TABLE_SCREEN, HOST_SCREEN, seat_viewer(1), seat_viewer(2)):
        view = table.view(viewer)
        assert "LEL-1" not in json.dumps(view["game_view"])
        assert view["game_view"]["seats"][0]["hand"] == 1
    for viewer in (TABLE_SCREEN, HOST_SCREEN, seat_viewer(2)):
        assert "LEL-1" not in json.dumps(table.log(viewer))
        assert "Ada picks Large Electronics" not in json.dumps(table.log(viewer))
    private = [ln for e in table.log(seat_viewer(0)) for ln in e["lines"] if "audience" in ln]
    assert any(ln["text"] == "Ada picks Large Electronics" and ln["audience"] == [0] for ln in private)
    # a seat that holds no pile yet waits for one
    do(table, seat(2), "pick", card="PLA-3")
    do(table, seat(1), "pick", card="Paper")  # a type: the lowest copy in the pile
    assert state_of(table).hands[1] == ["PAP-3"]
    do(table, seat(2), "pick", card="FOOD-3")  # from the pile seat 1 passed
    refused(table, IllegalMove, "Cy holds no pile now", seat(2), "pick", card="Paper")
    hints = GAME.actions(state_of(table), seat(2))
    assert [h.enabled for h in hints] == [False] and "wait for the pile from Ben" in hints[0].reason


def test_last_card_of_a_pile_is_taken_without_a_choice(room: Room) -> None:
    table = new_table(room, 2)
    deal(table, [["Paper"] * 7, ["Metal"] * 7])
    lockstep_draft(table)
    st = state_of(table)
    assert st.phase is Phase.MARKET
    assert [len(h) for h in st.hands] == [7, 7]
    # 7 picks from each pile alternately: the last card of a pile is forced
    assert sorted(st.catalog.kind_of(c) for c in st.hands[0]).count("paper") == 4
    assert table.state_no == 2 + 12  # two deals, twelve picks (two last cards were forced)


# market and face-down cards -----------------------------------------------------------------
def test_market_and_face_down_card(room: Room) -> None:
    table = new_table(room, 2)
    deal(table, [SAME_PILE, SAME_PILE])
    lockstep_draft(table)
    refused(table, NotYourTurn, "laid out by the table", seat(0), "bonus", cards=["Paper"])
    refused(table, InvalidCommand, "no bonus pile 2", CHANCE, "bonus", pile=2, cards=["Paper"])
    refused(table, IllegalMove, "two cards face up", CHANCE, "bonus", pile=1, cards=["Paper"] * 3)
    do(table, CHANCE, "bonus", cards=["TEX-1"])
    do(table, HOST, "bonus", pile=1, cards=["REC-2"])
    st = state_of(table)
    assert st.phase is Phase.AUCTION
    assert GAME.view(st, TABLE_SCREEN)["market"][0]["face_up"] == ["TEX-1", "REC-2"]
    do(table, seat(0), "offer", cards=["Paper"])
    do(table, seat(1), "offer", cards=[])
    st = state_of(table)
    assert st.piles[0].taken_by == 0 and st.face_down_due == [[0], []]
    refused(table, IllegalMove, "first records the face-down card", seat(0), "sort")
    refused(table, NotYourTurn, "cannot reveal for", seat(1), "reveal", seat=0, card="PAP-9")
    do(table, CHANCE, "reveal", card="PAP-9")  # the only seat waiting: no seat needed
    st = state_of(table)
    assert "PAP-9" in st.hands[0] and st.piles[0].face_down == "PAP-9"
    for viewer in (TABLE_SCREEN, HOST_SCREEN, seat_viewer(1)):
        assert "PAP-9" not in json.dumps(table.view(viewer)["game_view"])
        assert "PAP-9" not in json.dumps(table.log(viewer))


# Recyclers -----------------------------------------------------------------------------------
def test_skipping_a_recycler_is_refused(room: Room) -> None:
    table = to_play(room)
    by_seat = err = refused(table, IllegalMove, "must play every Recycler before sorting", seat(0), "sort")
    assert err.rule is not None and err.rule.section == "5. Recyclers"
    st = state_of(table)
    station = sorted(st.hands[0])
    # the host's scan is refused too, without naming the Recycler the hand holds secretly
    err = refused(table, IllegalMove, "every Recycler is played before sorting", HOST, "station", seat=0, cards=station)
    assert "REC" not in str(err) and "Recycler (" not in str(err)
    hint = next(h for h in GAME.actions(st, seat(0)) if h.command == "sort")
    assert not hint.enabled and (hint.reason, hint.rules) == (by_seat.message, (by_seat.rule,))  # the check's own refusal


def test_recycler_removes_a_card_from_the_hand_or_the_station(room: Room) -> None:
    table = to_play(room)
    refused(table, InvalidCommand, "'use' is 'draw'", seat(0), "recycle", use="both")
    refused(table, InvalidCommand, "never both", seat(0), "recycle", use="draw", card="Plastic")
    refused(table, IllegalMove, "cannot remove another Recycler", seat(0), "recycle", use="remove", card="Recycler")
    refused(table, IllegalMove, "no Textiles in your hand", seat(0), "recycle", use="remove", card="Textiles")
    refused(table, InvalidCommand, "is not a Recycler", seat(0), "recycle", recycler="Paper", use="draw")
    plastic = hand_of(table, 0, "plastic")[0]
    do(table, seat(0), "recycle", use="remove", card=plastic)
    st = state_of(table)
    assert plastic in st.incineration and not hand_of(table, 0, "recycler")
    refused(table, IllegalMove, "no Recycler to play", seat(0), "recycle", use="draw")
    do(table, seat(0), "sort")
    assert len(state_of(table).stations[0]) == 5


def test_recycler_draws_three_and_a_drawn_recycler_must_be_played(room: Room) -> None:
    table = to_play(room)
    do(table, seat(1), "recycle", use="draw")
    st = state_of(table)
    assert st.drawing[1] == 3
    refused(table, IllegalMove, "still draws 3 card", seat(1), "sort")
    refused(table, IllegalMove, "still drawing", seat(1), "recycle", use="draw")
    refused(table, IllegalMove, "3 more cards, not 4", CHANCE, "draw", seat=1, cards=["MET-9", "MET-10", "MET-11", "MET-12"])
    do(table, CHANCE, "draw", cards=["REC-7", "TEX-3"])  # the only seat drawing
    do(table, seat(1), "draw", cards=["Textiles"])
    st = state_of(table)
    drawn = [c for c in st.stations[1] if c.startswith(("REC-", "TEX-"))]
    assert len(drawn) == 3 and {"REC-7", "TEX-3"} <= set(drawn) and st.drawing[1] == 0
    refused(table, IllegalMove, "sorting: Recycler not played yet", seat(1), "sort")
    # the drawn Recycler removes a card from the station
    do(table, seat(1), "recycle", recycler="REC-7", use="remove", card="TEX-3")
    st = state_of(table)
    assert "TEX-3" in st.incineration and "REC-7" in st.incineration
    do(table, seat(1), "sort")
    assert state_of(table).sorted[1]


# sorting, station scans, round end ----------------------------------------------------------
def test_station_scan_sorts_checks_and_relabels(room: Room) -> None:
    table = to_play(room, pile=["Food waste", "Food waste", "Paper", "Paper", "Metal", "Hazardous waste", "Plastic"])
    st = state_of(table)
    hand = sorted(st.hands[0], key=st.catalog.sort_key)
    refused(table, InvalidCommand, "unknown card 'PAP-99'", HOST, "station", seat=0, cards=[*hand[:-1], "PAP-99"])
    refused(table, InvalidCommand, "card ids like 'PAP-3', not card types", HOST, "station", seat=0, cards=[*hand[:-1], "Paper"])
    refused(table, InvalidCommand, "listed twice", HOST, "station", seat=0, cards=[*hand, hand[0]])
    refused(table, IllegalMove, "1 card of the hand is not in the scan", HOST, "station", seat=0, cards=hand[:-1])
    # the refusal counts the hand's cards and never names them: an empty scan cannot read the hand
    err = refused(table, IllegalMove, f"{len(hand)} cards of the hand are not in the scan", HOST, "station", seat=0, cards=[])
    assert not any(c in str(err) or st.catalog.label(c) in str(err) for c in hand)
    refused(table, IllegalMove, "the scan shows Textiles \\(TEX-5\\)", HOST, "station", seat=0, cards=[*hand, "TEX-5"])
    refused(table, NotYourTurn, "host or the camera", seat(0), "station", seat=0, cards=hand)
    # the cards were entered as types: the photo's exact ids replace the assumed ones
    photo = [c for c in hand if not c.startswith("PAP-")] + ["PAP-11", "PAP-12"]
    do(table, HOST, "station", seat=0, cards=photo)
    st = state_of(table)
    assert st.sorted[0] and sorted(st.stations[0]) == sorted(photo)
    assert "PAP-11" not in st.assumed
    # a later check of the same station passes, a different one is refused
    do(table, CHANCE, "station", seat=0, cards=photo)
    refused(table, IllegalMove, "does not match", HOST, "station", seat=0, cards=photo[1:])
    # seat 1 sorts with its own scan; the round ends and round 2 begins with a new boss
    do(table, seat(1), "sort", cards=sorted(state_of(table).hands[1]))
    st = state_of(table)
    assert st.round == 2 and st.phase is Phase.DEAL
    assert st.round_totals[0][0] == st.round_totals[0][1]  # the same types
    assert st.boss == 1  # tie on fewest: closest to the left of the boss (seat 0)


def test_the_round_scores_cite_the_rule_of_each_type_that_scored(room: Room) -> None:
    # each seat: 2 Food, 2 Paper, 1 Metal, 1 Hazardous, 1 Plastic (a tie for the most plastic)
    table = to_play(room, pile=["Food waste", "Food waste", "Paper", "Paper", "Metal", "Hazardous waste", "Plastic"])
    do(table, seat(0), "sort")
    accepted = do(table, seat(1), "sort")
    ada = next(e for e in accepted.explanations if e.text.startswith("Ada: "))
    sections = [c.section for c in ada.citations]
    assert sections == ["6. Sort the waste", "Food waste", "Compost", "Paper", "Hazardous Waste", "Plastic"]
    assert "Metal" not in sections and "Electronics" not in sections  # nothing scored there


def test_an_exact_sighting_relabels_an_assumed_copy(room: Room) -> None:
    table = new_table(room, 2)
    do(table, CHANCE, "deal", seat=0, cards=["Paper"])  # recorded as PAP-1 (assumed)
    do(table, CHANCE, "deal", seat=1, cards=["PAP-1"])  # the camera sees the real PAP-1
    st = state_of(table)
    assert st.dealt == [["PAP-2"], ["PAP-1"]]
    assert st.assumed == {"PAP-2"}


def test_offering_a_station_card_in_round_two_is_refused(room: Room) -> None:
    table = to_play(room, pile=["Food waste", "Food waste", "Paper", "Paper", "Metal", "Hazardous waste", "Plastic"])
    do(table, seat(0), "sort")
    do(table, seat(1), "sort")
    st = state_of(table)
    assert st.round == 2
    deal(table, [["Compost"] * 7, ["Small Electronics"] * 7])
    lockstep_draft(table)
    market(table, [["Metal", "Metal"]])
    old = state_of(table).stations[0][0]
    refused(table, IllegalMove, "not in your hand from this round", seat(0), "offer", cards=[old])
    refused(table, IllegalMove, "no Paper in your hand from this round", seat(0), "offer", cards=["Paper"])


def test_not_your_turn_and_wrong_phase(room: Room) -> None:
    table = to_auction(room, 3)
    refused(table, IllegalMove, "not possible now", seat(0), "choose", pile=1)
    refused(table, NotYourTurn, "not by host", HOST, "offer", seat=0, cards=[])
    refused(table, InvalidCommand, "no seat called 'Zed'", seat(0), "offer", seat="Zed", cards=[])
    refused(table, InvalidCommand, "must be a list", seat(0), "offer", cards=5)


# camera sightings ---------------------------------------------------------------------------
def test_card_command_maps_a_sighting_to_the_expected_observation(room: Room) -> None:
    table = new_table(room, 2, boss=1)
    st = state_of(table)
    cmd = GAME.card_command(st, "PAP", 3)
    assert (cmd.actor, cmd.name, dict(cmd.args)) == (CHANCE, "deal", {"seat": 0, "cards": ["PAP-3"]})
    assert cmd.source == "scanner"
    table.submit(cmd)
    with pytest.raises(IllegalMove, match="unknown card 'PAP-40'"):
        GAME.card_command(state_of(table), "PAP", 40)
    deal_rest = [["Metal"] * 6, ["Metal"] * 7]
    do(table, CHANCE, "deal", seat=0, cards=deal_rest[0])
    do(table, CHANCE, "deal", seat=1, cards=deal_rest[1])
    with pytest.raises(IllegalMove, match="no card is expected now") as err:
        GAME.card_command(state_of(table), "PAP", 4)
    assert err.value.rule is not None
    lockstep_draft(table)
    cmd = GAME.card_command(state_of(table), "TEX", 1)
    assert (cmd.name, dict(cmd.args)) == ("bonus", {"pile": 1, "cards": ["TEX-1"]})
    table.submit(cmd)
    table.submit(GAME.card_command(state_of(table), "REC", 1))
    assert state_of(table).phase is Phase.AUCTION
    do(table, seat(0), "offer", cards=["Metal"])
    do(table, seat(1), "offer", cards=[])
    cmd = GAME.card_command(state_of(table), "REC", 2)
    assert (cmd.name, dict(cmd.args)) == ("reveal", {"seat": 0, "card": "REC-2"})
    table.submit(cmd)
    do(table, seat(0), "recycle", recycler="REC-1", use="draw")
    cmd = GAME.card_command(state_of(table), "HAZ", 1)
    assert (cmd.name, dict(cmd.args)) == ("draw", {"seat": 0, "cards": ["HAZ-1"]})


# data, editions, notes ------------------------------------------------------------------------
def test_card_kinds_follow_the_data() -> None:
    kinds = GAME.card_kinds(GAME.default_edition())
    assert [k.code for k in kinds] == ["FOOD", "COMP", "SEL", "LEL", "TEX", "MET", "PAP", "HAZ", "PLA", "REC"]
    assert sum(k.copies for k in kinds) == 120


def test_a_card_type_is_named_in_the_singular_or_the_plural_in_any_case(room: Room) -> None:
    """As the printed cards and seed 001 name them ("two Textiles", "a Textile
    card", "ten papers", "Plastics", "Recyclers"): every type's name from the
    data file, singular or plural, any case; once "Textile" was taken and
    "Papers" refused."""
    cat = GAME.catalog(GAME.default_edition())
    names = {t.key: t.name for t in cat.types}
    assert names["paper"] == "Paper" and names["textiles"] == "Textiles"  # as printed: one singular, one plural
    for t in cat.types:
        singular = t.name.removesuffix("s")
        for typed in (t.name, singular, singular + "s", t.name.upper(), (singular + "s").lower(), t.key, t.code):
            assert cat.parse_ref(typed).key == t.key, typed
    for typed in ("Papers", "papers", "PAPERS", "Textile", "Plastics", "Recyclers", "Composts", "Small Electronic",
                  "Hazardous Waste", "food wastes"):
        assert cat.parse_ref(typed).copy is None
    with pytest.raises(UnknownCard):
        cat.parse_ref("Electronics")  # small or large: two types
    # in a command, and in a position block
    table = new_table(room, 2)
    do(table, CHANCE, "deal", seat=0, cards="Papers, Textile, METALS")
    assert state_of(table).dealt[0] == ["PAP-1", "TEX-1", "MET-1"]
    placed = GAME.place_position(state_of(table), {"phase": "play", "hands": {"Ada": ["Papers"], "Ben": ["Recyclers"]}})
    assert placed.hands == [["PAP-1"], ["REC-1"]]


def test_edition_problems_are_found() -> None:
    base = GAME.default_edition()
    assert GAME.edition_problems(base) == []
    bad = copy.deepcopy(base)
    bad["cards"]["paper"]["copies"] = {"value": 12}  # no source, not marked unverified
    bad["cards"]["metal"]["hammer"] = {"value": "three", "verified": False}
    bad["cards"]["food"]["code"] = "PAP"
    bad["cards"]["glass"] = bad["cards"]["metal"]
    del bad["cards"]["plastic"]
    bad["paper"]["5"] = {"value": 2, "source": "my box"}
    problems = GAME.edition_problems(bad)
    text = "\n".join(problems)
    assert "cards.paper.copies: say where the value comes from" in text
    assert "cards.metal.hammer: 'value' must be a whole number" in text
    assert "cards.food.code" in text or "cards.paper.code" in text
    assert "cards.glass: not a World of Waste card type" in text
    assert "cards.plastic: missing" in text
    assert "never be worth less" in text
    small = copy.deepcopy(base)
    for key in small["cards"]:
        small["cards"][key]["copies"] = {"value": 2, "source": "test"}
    assert any("fewer than one round at four seats" in p for p in GAME.edition_problems(small))


def test_an_edition_file_corrects_the_data_and_the_notes(room: Room, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    editions = tmp_path / "editions"
    editions.mkdir()
    monkeypatch.setenv("COMPANION_EDITIONS", str(editions))
    verified = {str(n): {"value": v, "source": "my box"} for n, v in zip(range(1, 9), [1, 3, 6, 10, 15, 18, 21, 25], strict=True)}
    override = {"paper": verified, "cards": {"paper": {"copies": {"value": 20, "source": "counted in my box"}}}}
    (editions / "world-of-waste.json").write_text(json.dumps(override))
    assert cli_main(["edition", "world-of-waste", str(editions / "world-of-waste.json")]) == 0
    table = new_table(room, 2)
    st = state_of(table)
    assert st.catalog.type("paper").copies.value == 20 and st.catalog.type("paper").copies.verified
    notes = " ".join(GAME.public_notes(st))
    assert "Paper: 3 cards" not in notes and "Food waste: copies in the deck" in notes
    (tmp_path / "bad.json").write_text(json.dumps({"paper": {"9": {"value": 30, "source": "x"}}}))
    assert cli_main(["edition", "world-of-waste", str(tmp_path / "bad.json")]) == 2


def test_a_deck_too_small_for_three_rounds_is_refused_at_setup(room: Room, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    editions = tmp_path / "small"
    editions.mkdir()
    monkeypatch.setenv("COMPANION_EDITIONS", str(editions))
    override = {"cards": {k: {"copies": {"value": 6, "source": "test"}} for k in GAME.default_edition()["cards"]}}
    (editions / "world-of-waste.json").write_text(json.dumps(override))
    room.open_table("world-of-waste", ["A", "B"])  # 60 cards: three rounds at 2 seats deal 51
    with pytest.raises(SetupError, match="three rounds at 4 seats deal 99"):
        room.open_table("world-of-waste", ["A", "B", "C", "D"])


def test_score_sheet_notes_say_when_unverified_values_were_used(room: Room) -> None:
    table = to_play(room, pile=["Paper", "Paper", "Paper", "Metal", "Metal", "Metal", "Food waste"])
    sheet = table.score()
    assert not sheet.final
    assert any("provisional" in n for n in sheet.notes)
    do(table, seat(0), "sort")
    do(table, seat(1), "sort")
    sheet = table.score()
    assert any("Paper runs of 3 cards were scored with an unverified default" in n for n in sheet.notes)
    assert any("edition file" in n for n in sheet.notes)
    notes = table.view(TABLE_SCREEN)["notes"]
    assert notes and "unverified" in notes[0]


def test_the_example_script_plays_a_whole_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = Path(__file__).resolve().parents[2] / "docs" / "examples" / "world-of-waste.json"
    assert cli_main(["play", str(script)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["scores"]["final"] is True
    assert len(result["rejections"]) >= 4
    assert result["table"]["game_view"]["round_scores"][2]["round"] == 3


def test_command_by_command_is_typed(room: Room) -> None:
    table = new_table(room, 2)
    with pytest.raises(InvalidCommand, match=r"'seat' must be a whole number|no seat called"):
        table.submit(Command(CHANCE, "deal", {"seat": [1], "cards": ["PAP-1"]}))
    with pytest.raises(InvalidCommand, match="no seat 5"):
        table.submit(Command(CHANCE, "deal", {"seat": 5, "cards": ["PAP-1"]}))


def test_software_draws_play_a_whole_game(room: Room) -> None:
    """The host's demo buttons: the server draws the cards, they travel in the
    command, and a whole game plays with no real card."""
    import random

    from companion.games.world_of_waste.chance import (
        bonus_command,
        deal_command,
        draw_command,
        reveal_command,
    )

    from .driver import RandomTable

    table = new_table(room, 3)
    rng = random.Random(5)
    rt = RandomTable(table, random.Random(6), "exact")
    software = 0
    while not table.is_over():
        st = state_of(table)
        host_hints = {h.command for h in GAME.actions(st, HOST) if not h.fields}
        cmd: Command | None = None
        if st.phase is Phase.DEAL:
            cmd = deal_command(st, rng)
        elif st.phase is Phase.MARKET:
            cmd = bonus_command(st, rng)
        elif st.phase is Phase.PLAY and any(st.drawing):
            cmd = draw_command(st, rng)
        elif st.phase is Phase.PLAY and any(st.face_down_due):
            cmd = reveal_command(st, rng)
        if cmd is not None:
            assert cmd.name in host_hints and cmd.source == "software"
            software += 1
            table.submit(cmd)
            continue
        with pytest.raises(IllegalMove):
            deal_command(st, rng)
        table.submit(rt.next_command())
    assert software >= 3 * (3 + 2)
    assert len(state_of(table).round_totals) == 3


def test_every_citation_quotes_the_seed_verbatim() -> None:
    """Each rule the game cites names a real section of seed 001 and quotes it
    word for word ('...' and ' / ' join separate passages)."""
    import re

    from companion.games.world_of_waste import citations
    from companion.rules import Citation

    seed = (Path(__file__).resolve().parents[3] / "shared" / "seeds" / "001_93425c0437d9019a.txt")
    if not seed.exists():
        pytest.skip("the rule texts are not beside the work tree")
    text = seed.read_text(encoding="utf-8")
    flat = re.sub(r"\s+", " ", text.replace("**", ""))
    headings = {line.strip().rstrip(":") for line in text.splitlines() if line.strip()}
    cites = [v for v in vars(citations).values() if isinstance(v, Citation)]
    assert len(cites) > 20
    for c in cites:
        if c.seed != "001":
            continue
        assert c.section in headings, c.section
        for part in re.split(r" \.\.\. | / ", c.quote):
            assert part.strip(" .") in flat, (c.section, part)


def test_host_hands_round_one_boss_card_before_the_deal(room: Room) -> None:
    table = new_table(room, 3, boss=0)
    refused(table, NotYourTurn, "host hands out", seat(1), "boss", seat=1)
    do(table, HOST, "boss", seat="Cy")
    st = state_of(table)
    assert st.boss == 2 and st.bosses == [2]
    cmd = GAME.card_command(st, "PAP", 1)
    assert dict(cmd.args)["seat"] == 0  # the boss deals from its left
    table.submit(cmd)
    refused(table, IllegalMove, "chosen before round 1 is dealt", HOST, "boss", seat=1)
