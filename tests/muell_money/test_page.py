"""Müll + Money's board page (``web/templates/games/muell-money.html``) draws
the edition's figures, not figures of its own: an owner who corrects the data
file sees the correction on the table screen."""

from __future__ import annotations

import copy
import json
import os
import re
from dataclasses import replace
from pathlib import Path

from companion.commands import CHANCE, HOST, Actor, Command
from companion.games.base import TABLE_SCREEN
from companion.table import Room
from tests.muell_money.helpers import Scene
from tests.muell_money.player import GAME, config
from web import WebConfig, create_app


def test_the_view_carries_the_editions_loan_amount() -> None:
    assert GAME.view(Scene(2).state, TABLE_SCREEN)["loan_amount"] == 10
    edition = copy.deepcopy(GAME.default_edition())
    edition["loans"]["amount"] = 20
    state = GAME.setup(replace(config(2), edition=edition))
    assert GAME.view(state, TABLE_SCREEN)["loan_amount"] == 20


def test_the_loan_markers_on_the_table_screen_show_the_editions_loan_amount(room: Room) -> None:
    editions = Path(os.environ["COMPANION_EDITIONS"])
    editions.mkdir(parents=True, exist_ok=True)
    (editions / "muell-money.json").write_text(json.dumps({"loans": {"amount": 20}}), encoding="utf-8")
    table = room.open_table("muell-money", ["Ann", "Bob"])
    table.submit(Command(Actor.of_seat(0), "loan", {"count": 2}))
    app = create_app(WebConfig(room=room, host_pin="2468", join_code="WXYZ", secret_key="k" * 40, testing=True))
    html = app.test_client().get(f"/t/{table.id}").text
    assert re.findall(r'<span class="loan">(.*?)</span>', html) == ["−20", "−20"]


def test_the_auction_banner_counts_a_lot_of_one_raw_material_in_the_singular(room: Room) -> None:
    table = room.open_table("muell-money", ["Ann", "Bob"])
    for card in ("Raw Materials", "Growth", "Order", "Growth", "Innovate", "Growth",
                 "Order", "Waste Disposal", "Innovate"):
        table.submit(Command(CHANCE, "deal", {"card": card}))
    table.submit(Command(Actor.of_seat(0), "choose", {"set": 1}))
    table.submit(Command(Actor.of_seat(1), "choose", {"set": 2}))
    table.submit(Command(HOST, "correct", {"value": "supply", "to": 1, "reason": "counted again"}))
    table.submit(Command(Actor.of_seat(0), "play", {"card": "Raw Materials"}))
    app = create_app(WebConfig(room=room, host_pin="2468", join_code="WXYZ", secret_key="k" * 40, testing=True))
    html = app.test_client().get(f"/t/{table.id}").text
    assert "1 raw material from Ann" in html and "1 raw materials" not in html


def test_the_table_screen_says_the_host_ended_the_game_and_why_in_the_games_words(room: Room) -> None:
    """Not as raw view keys ('Ended by host: yes', 'End reason: ...') in the page's generic fold."""
    table = room.open_table("muell-money", ["Ann", "Bob"])
    table.submit(Command(HOST, "end", {"reason": "the pub <closes>"}))
    app = create_app(WebConfig(room=room, host_pin="2468", join_code="WXYZ", secret_key="k" * 40, testing=True))
    host = app.test_client()
    with host.session_transaction() as session:
        session["csrf"] = "csrf-host"
    assert host.post("/host/login", data={"csrf": "csrf-host", "pin": "2468"}).status_code == 303
    html = host.get(f"/host/t/{table.id}/live").text
    assert 'class="game-view game-muell-money' in html
    assert "The host ended the game early (the pub &lt;closes&gt;): it is scored as it stood." in html
    assert "Ended by host" not in html and "End reason" not in html


def test_the_variants_changed_rules_take_their_figures_from_the_data() -> None:
    """The variant's list of the rules it always changes (on every page in the variant) names the
    figures the table plays with: an owner's corrected data file changes the list too."""
    texts = [r["rule"] for r in GAME.view(GAME.setup(config(2, {"variant": "simulation"})), TABLE_SCREEN)
             ["rules_in_force"]]
    assert "Waste Disposal moves the common marker back only 2 spaces" in texts
    assert "Waste Inspection becomes Negotiation: propose a rule; may move the marker back 1 space for 1 M" in texts
    assert "Bribery still protects at a Pollution Check and gives 1 extra vote (1 M, then discarded)" in texts
    edition = copy.deepcopy(GAME.default_edition())
    edition["simulation_variant"] |= {"waste_disposal_steps": 3, "negotiation_back_steps": 2,
                                      "negotiation_back_cost": 4, "bribery_extra_votes": 2, "bribery_vote_cost": 5}
    state = GAME.setup(replace(config(2, {"variant": "simulation"}), edition=edition))
    texts = [r["rule"] for r in GAME.view(state, TABLE_SCREEN)["rules_in_force"]]
    assert "Waste Disposal moves the common marker back only 3 spaces" in texts
    assert "Waste Inspection becomes Negotiation: propose a rule; may move the marker back 2 spaces for 4 M" in texts
    assert "Bribery still protects at a Pollution Check and gives 2 extra votes (5 M, then discarded)" in texts
