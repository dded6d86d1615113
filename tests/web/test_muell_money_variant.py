"""Müll + Money's simulation variant on the pages: the table screen draws the
common waste board (saying its layout is unverified), the current rules with
their sources, and a vote in progress naming who voted, never how; each phone
shows its own weight only."""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape

from companion.commands import CHANCE, Actor, Command
from companion.errors import Refusal
from companion.games.base import HOST_SCREEN, TABLE_SCREEN
from companion.table import Table
from web import dashboard_of

from .conftest import csrf, export_running, open_table, phone
from .play import Party, assert_no_leaks


def test_the_variant_on_the_screen_and_the_phones(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "muell-money", ["Ann", "Bob"], {"variant": "simulation"})
    table = dashboard_of(app).room.get(tid)
    phones = [phone(app, tid, s) for s in range(2)]
    screen = app.test_client().get(f"/t/{tid}").text
    assert "Common waste board" in screen and "unverified layout" in screen
    assert "is printed on the back of the rules" in screen  # the data note
    assert "The table&#39;s current rules" in screen or "The table's current rules" in screen
    assert "Waste Disposal moves the common marker back only 2 spaces" in screen
    assert "Rules adopted by vote" in screen and "None yet" in screen
    # sets: 1 = Waste Inspection, Growth, Innovate; 2 = Waste Inspection, Hire/Fire, Order; 3 = Order, Growth, Innovate
    for card in ["Waste Inspection", "Waste Inspection", "Order", "Growth", "Hire/Fire", "Growth",
                 "Innovate", "Order", "Innovate"]:
        table.submit(Command(CHANCE, "deal", {"card": card}))
    table.submit(Command(Actor.of_seat(0), "choose", {"set": 1}))
    table.submit(Command(Actor.of_seat(1), "choose", {"set": 2}))
    table.submit(Command(Actor.of_seat(0), "play", {"card": "Negotiation", "propose": 3}))
    table.submit(Command(Actor.of_seat(0), "vote", {"choice": "for"}))
    screen = app.test_client().get(f"/t/{tid}").text
    assert "Vote 1" in screen and "Bob" in screen and "secret ballot" in screen
    ann = phones[0].get(f"/s/{tid}/0").text
    bob = phones[1].get(f"/s/{tid}/1").text
    assert re.search(r"Your votes</span><strong[^>]*>2<", ann)
    assert "Vote for" in bob and "Vote against" in bob
    assert "Ann, you vote for with 2 votes" not in bob and "Ann, you vote for with 2 votes" not in screen
    table.submit(Command(Actor.of_seat(1), "vote", {"choice": "for"}))
    screen = app.test_client().get(f"/t/{tid}").text
    assert "adopted by the table&#39;s vote 1 in round 1" in screen or "adopted by the table's vote 1 in round 1" in screen
    # the TV folds nothing away: the rules adopted by vote stand above its log (the phones fold the whole list)
    above_log = screen[screen.index('class="screen-rules"'):screen.index("What happened")]
    assert "Rules adopted by vote" in above_log and "3) The sets are auctioned" in above_log


def test_the_variants_own_settings_are_folded_under_it_on_the_setup_page(host: FlaskClient) -> None:
    """The host's setup page shows the printed game's options open and folds
    the variant's own settings (which matter only when it is chosen) under the
    variant's card; a chosen variant keeps them open when the form comes back."""
    page = host.get("/host/new?game=muell-money").text
    folded = re.search(r'<details class="card option-parts">(.*?)</details>', page, re.S)
    assert folded is not None
    inside, outside = folded.group(1), page.replace(folded.group(0), "")
    for key in ("common_check", "common_fine", "common_room", "proposal_set_auction", "vote_count", "vote_tie"):
        assert f'name="opt.{key}"' in inside and f'name="opt.{key}"' not in outside
    for key in ("bribery", "tie_break", "variant"):
        assert f'name="opt.{key}"' in outside and f'name="opt.{key}"' not in inside
    assert page.index('name="opt.variant"') < page.index(folded.group(0))  # right under the variant
    # a refused form with the variant chosen comes back with its settings open
    again = host.post("/host/new", data={"csrf": csrf(host), "game": "muell-money", "seat.0": "Ann",
                                         "opt.variant": "simulation"}).text
    assert '<details class="card option-parts" open>' in again


# hidden stays hidden, through the vote ----------------------------------------------------------
#: Ann (25 M: 3 votes, 4 with Bribery), Bob (12 M: 2 votes), Cy (5 M: 1 vote, 2 with Bribery)
VOTE_POSITION = {
    "phase": "play", "turn": "Ann",
    "seats": {"Ann": {"cash": 25, "cards": ["Waste Inspection", "Bribery", "Order"]},
              "Bob": {"cash": 12, "cards": ["Growth", "Order"]},
              "Cy": {"cash": 5, "cards": ["Innovate", "Bribery"]}},
}


def vote_by_phone(table: Table, client: FlaskClient, seat: int, choice: str, bribery: bool = False) -> dict[str, Any]:
    """The seat's own phone presses one of its vote buttons (the page's script: a JSON answer)."""
    args = {"choice": choice, **({"bribery": True} if bribery else {})}
    resp = client.post(f"/s/{table.id}/{seat}/act", headers={"X-Requested-With": "fetch"}, data={
        "csrf": csrf(client), "command": "vote", "args": json.dumps(args),
        "state_no": str(table.state_no), "confirmed": "1"})
    body: dict[str, Any] = resp.get_json()
    return body


def test_no_page_stream_refusal_hint_or_log_line_shows_a_seats_ballot_to_another(app: Flask, host: FlaskClient) -> None:
    """A seat's weight (from its hidden cash) and its choice are on its own
    phone only: not on the TV, the host's page, the other phones, their
    streams, their refusals or their buttons, during the vote and after it
    (when only the totals are announced)."""
    room = dashboard_of(app).room
    table = room.open_table("muell-money", ["Ann", "Bob", "Cy"], {"variant": "simulation"}, position=VOTE_POSITION)
    tid = table.id
    party = Party(app, host, table, [phone(app, tid, s) for s in range(3)])
    dashboard_of(app).show(tid)
    table.submit(Command(Actor.of_seat(0), "play", {"card": "Negotiation", "propose": 3}, table.state_no, "test"))
    own = {0: "Ann, you vote for with 4 votes with Bribery", 1: "Bob, you vote for with 2 votes",
           2: "Cy, you vote against with 2 votes with Bribery"}
    # what would give a ballot away: the private line, the weights in words, a choice next to a name
    giveaways = {0: ["Ann, you vote", "(3 votes)", "4 votes,", "Ann voted", "Ann votes"],
                 1: ["Bob, you vote", "Bob voted", "Bob votes"],
                 2: ["Cy, you vote", "(1 vote)", "Cy voted", "Cy votes"]}

    def no_ballot_shown(pages: dict[str, str], voted: list[int]) -> None:
        for viewer, html in pages.items():
            me = int(viewer) if viewer.isdigit() else None
            text = str(escape(html)) + html
            for seat, words in giveaways.items():
                if seat == me:
                    continue
                for word in words:
                    assert word not in html and str(escape(word)) not in html, f"{viewer} sees {word!r}"
            if me is not None and me in voted:
                assert own[me] in text, f"{viewer} does not see its own ballot"
            if me is None:  # the TV and the host: no weight in any button or line before the totals
                assert not re.search(r"\(\d+ votes?\)|with \d+ votes?|Your votes", html), viewer

    answer = vote_by_phone(table, party.phones[0], 0, "for", bribery=True)
    assert answer["ok"] and "4 votes" not in answer["message"]  # the answer says what happened, publicly
    # refusals: to the seat that asked, and naming nobody else's ballot
    assert not [h for h in table.actions(Actor.of_seat(0)) if h["command"] == "vote"]  # no second ballot offered
    again = vote_by_phone(table, party.phones[0], 0, "against")
    assert not again["ok"] and not re.search(r"\d+ votes?|for|against", again["message"]), again
    late = table.submit  # the engine's own refusal, for a script or a stale page
    try:
        late(Command(Actor.of_seat(0), "vote", {"choice": "against"}, table.state_no, "test"))
    except Refusal as err:
        assert "Ann has already voted" in str(err) and not re.search(r"\d+ votes?", str(err))
    else:
        raise AssertionError("a second ballot was taken")
    refused = [table.actions(Actor.of_seat(s)) for s in (1, 2)]
    for hints in refused:
        for h in hints:
            assert "Ann" not in h["label"] and "Ann" not in (h.get("why_not") or "")
    pages = assert_no_leaks(party)
    no_ballot_shown(pages, [0])
    assert "Ann has voted (1 of 3)" in pages["table"] and "Ann has voted (1 of 3)" in pages["2"]
    # the view the host's page is drawn from carries who voted, never how
    assert table.view(HOST_SCREEN)["game_view"]["vote"] == table.view(TABLE_SCREEN)["game_view"]["vote"]
    assert set(table.view(HOST_SCREEN)["game_view"]["vote"]) >= {"voted", "to_vote"}
    assert not {"ballots", "weight", "weights", "choice"} & set(table.view(HOST_SCREEN)["game_view"]["vote"])
    assert vote_by_phone(table, party.phones[1], 1, "for")["ok"]
    no_ballot_shown(assert_no_leaks(party), [0, 1])
    assert vote_by_phone(table, party.phones[2], 2, "against", bribery=True)["ok"]
    pages = assert_no_leaks(party)
    # after the vote: the totals and the result for all; each ballot still on its own phone only
    assert "6 votes for, 2 votes against: adopted" in pages["table"]
    assert "Bribery used in the vote is discarded: Ann, Cy" in pages["host"]  # the cards go to the open discard
    giveaways[0].remove("4 votes,")
    no_ballot_shown(pages, [0, 1, 2])
    # the host's record export holds every seat's secrets, ballots too (docs/dashboard.md): not quietly
    exported = export_running(host, tid)
    ballots = [line for entry in exported["log"] for line in entry["explanations"]
               if line.get("say", {}).get("key") in ("you_vote_for", "you_vote_against")]
    assert [(b["audience"], b["say"]["args"]["seat"]) for b in ballots] == [([0], {"seat": 0}), ([1], {"seat": 1}),
                                                                             ([2], {"seat": 2})]
    assert "The host exported the game record (it holds every seat&#39;s secrets)" in \
        app.test_client().get(f"/t/{tid}").text
    # and looking back at each step of the vote: the TV, the host (also "as a seat"), another phone
    for k in range(1, table.state_no + 1):
        for client, url in ((app.test_client(), f"/t/{tid}/step/{k}"), (host, f"/host/t/{tid}/step/{k}"),
                            (host, f"/host/t/{tid}/step/{k}?as=seat:0"), (party.phones[1], f"/s/{tid}/1/step/{k}")):
            page = client.get(url)
            assert page.status_code == 200, url
            for word in ("Ann, you vote", "Cy, you vote", "with 4 votes", "(3 votes)", "(1 vote)"):
                assert word not in page.text, (url, word)
