"""Checking without copying the world (issue 16, item 4): Money Maker's
``rules.check`` reads the state and copies nothing, and it must give exactly
what the old check gave: a dry run of the move on a deep copy
(``dry_run`` in tests/check_comparison.py, the reference), both of today's ``apply``
and of the code before the change (``tests/before.py``: today's ``apply``
runs the same check functions first, so only the code before can tell a
wrong check from a right one).  Over random legal games, at
many states, many candidate commands are judged both ways: every hint of
every actor with its defaults, the same hints with their fields changed,
sent by the wrong actor, random deals, grants, corrections and redistributions (also on states
where an offer waits and its proposer's vault has since changed, or where a
bank's rating was corrected) and the random player's own commands.  Both accept, or both refuse with the same class, message and
rule; and the pure check leaves the state as it was (byte for byte).

The refusals met are counted per move: :func:`test_the_comparison_meets_refusals_of_every_move`
makes sure the comparison is not vacuous.
"""

from __future__ import annotations

import copy
import dataclasses
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import Phase, given
from hypothesis import strategies as st

from companion.commands import CHANCE, HOST, Actor, ActorKind, Command
from companion.errors import IllegalMove, Refusal
from companion.games.base import ActionHint
from companion.games.money_maker import citations as C
from companion.games.money_maker import hints, rules
from companion.games.money_maker.dice import unrolled_run_dice
from companion.games.money_maker.moves import VOCABULARY, Move
from companion.games.money_maker.state import BANK_RUN, FIRST_AUCTION, MoneyMakerState, card_name
from companion.games.money_maker.words import says
from tests import before
from tests import check_comparison as checks
from tests.check_comparison import Tally
from tests.fuzzing import fuzz_settings
from tests.money_maker.helpers import GAME
from tests.money_maker.player import proposals
from tests.money_maker.test_random_games import play

#: Money Maker's rules and hints before checking without copying (None: not in this checkout's history)
RULES_BEFORE = before.load("money_maker", "rules")
HINTS_BEFORE = before.load("money_maker", "hints")


def apply_before(state: MoneyMakerState, move: Move) -> Any:
    """The code before, with what later changes altered on purpose as today has it:
    chance may not close the auction for the first turn (the host or the high bidder
    closes it), one good is "1 production good", not "1 production goods", and the
    sector dice of a bank run that needed none (every bank in ring I) may still be
    rolled, to no effect, and a credit die with them in that run is "a bank run
    rolls only the sector dice" (issue 34: those rolls are today's to judge)."""
    assert RULES_BEFORE is not None
    if move.name == "roll" and state.run_dice_unrolled and (
            state.phase == BANK_RUN or unrolled_run_dice(state, move.args["credit"], move.args["sectors"])):
        return rules.apply(state, move)
    chance = move.actor.kind is ActorKind.CHANCE
    if move.name == "close_auction" and chance and state.phase == FIRST_AUCTION and state.auction is not None:
        raise IllegalMove(says("first_auction_closer"), C.FIRST_TURN)
    try:
        return RULES_BEFORE.apply(state, move)
    except Refusal as err:
        message = re.sub(r"\b1 (production|consumer) goods\b", r"1 \1 good", err.message)
        raise type(err)(message, err.rule) from None


def compare(state: Any, command: Command, tally: Tally) -> None:
    checks.compare(GAME, rules.apply, apply_before if RULES_BEFORE is not None else None,
                   state, command, tally, general=lambda message: message.startswith("the game is over"))


# candidate commands ------------------------------------------------------------------------
def actors(state: MoneyMakerState) -> list[Actor]:
    return [HOST, CHANCE] + [Actor.of_seat(i) for i in range(state.seats)]


def filled(hint: ActionHint, rng: random.Random, *, perturb: bool) -> dict[str, Any]:
    """A hint's arguments with its fields filled: the defaults (what the phone
    sends untouched), or (``perturb``) values a player might type instead."""
    args: dict[str, Any] = dict(hint.args)
    for f in hint.fields:
        value: Any
        if f.kind == "multi":
            picks = [c.value for c in f.choices]
            value = rng.sample(picks, k=min(len(picks), rng.randint(0, 3))) if picks else []
        elif f.kind == "number":
            base = f.default if isinstance(f.default, int) else (f.minimum or 0)
            if perturb:
                top = (f.maximum if f.maximum is not None else base) + 3
                value = rng.choice([base - 1, base + 1, 0, top, rng.randint(0, max(top, 1))])
                value = max(value, 0) if rng.random() < 0.8 else value
            else:
                value = base
        elif f.kind == "choice":
            picks = [c.value for c in f.choices]
            if perturb and (picks or rng.random() < 0.3):
                value = rng.choice([*picks, "nonsense"]) if picks else "nonsense"
            else:
                value = f.default if f.default is not None else (picks[0] if picks else "")
        else:  # text
            value = f.default if f.default not in (None, "") else "typed at the table"
        if perturb and rng.random() < 0.1:
            continue  # a field left out
        args[f.name] = value
    return args


def random_bundle(rng: random.Random, state: MoneyMakerState, giver: int) -> dict[str, Any]:
    """What a bank might offer: mostly what it holds, sometimes more or what it does not hold."""
    bank = state.banks[giver]
    out: dict[str, Any] = {}
    if rng.random() < 0.6:
        out["gold"] = rng.randint(0, bank.gold + 2)
    if rng.random() < 0.4:
        out["goods"] = {m: rng.randint(0, n + 1) for m, n in bank.goods.items() if rng.random() < 0.7}
    if rng.random() < 0.5:
        issuers = [giver, *bank.held, rng.randrange(state.seats)]
        out["credit"] = {state.names[i]: rng.randint(0, bank.held.get(i, 3) + 1) for i in rng.sample(issuers, k=min(2, len(issuers)))}
    if rng.random() < 0.3:
        pool = list(bank.cards) + [c for b in state.banks for c in b.cards] + ["FARM-1", "MILL-9"]
        out["cards"] = rng.sample(pool, k=min(len(pool), rng.randint(1, 2)))
    if rng.random() < 0.3:
        pool = list(bank.actions) + [k.code for k in state.comp.actions] + ["?"]
        out["actions"] = rng.sample(pool, k=min(len(pool), rng.randint(1, 2)))
    return out


def random_deal(rng: random.Random, state: MoneyMakerState) -> Command:
    x, y = rng.sample(range(state.seats), k=2)
    gives = {state.names[x]: random_bundle(rng, state, x), state.names[y]: random_bundle(rng, state, y)}
    by = rng.choice([HOST, Actor.of_seat(x), Actor.of_seat(y), Actor.of_seat(rng.randrange(state.seats)), CHANCE])
    return Command(by, "deal", {"between": [state.names[x], state.names[y]], "gives": gives})


def random_redistribution(rng: random.Random, state: MoneyMakerState) -> Command:
    """A seat spreads its credit anew: often not its time, a total off by one, or a block off its ring."""
    s = rng.choice(state.may_redistribute) if state.may_redistribute and rng.random() < 0.6 else rng.randrange(state.seats)
    bank = state.banks[s]
    blocks = [b.id for b in state.comp.ring(bank.rating).blocks] + (["VI-9"] if rng.random() < 0.2 else [])
    placement: dict[str, int] = {}
    for _ in range(max(0, bank.on_board + rng.choice([0, 0, 0, -1, 1]))):
        b = rng.choice(blocks)
        placement[b] = placement.get(b, 0) + 1
    return Command(Actor.of_seat(s), "redistribute", {"placement": placement or {blocks[0]: 1}})


def random_grant(rng: random.Random, state: MoneyMakerState) -> Command:
    """The host records gold and goods from or to the reserves, sometimes more than there is."""
    s = rng.randrange(state.seats)
    bank = state.banks[s]
    gold = rng.choice([0, 2, -2, state.reserve, state.reserve + 1, -bank.gold, -bank.gold - 1])
    goods = {m: rng.choice([0, 1, -1, state.natural[m] + 1, -bank.goods[m] - 1]) for m in bank.goods if rng.random() < 0.5}
    return Command(HOST, "grant", {"seat": state.names[s], "gold": gold, "goods": goods})


def random_correction(rng: random.Random, state: MoneyMakerState) -> Command:
    """The host corrects a value to one at or just past what the books allow."""
    s = rng.randrange(state.seats)
    bank = state.banks[s]
    m = rng.choice(["production", "consumer"])
    value, edge = rng.choice([
        ("gold", bank.gold + state.reserve),
        (f"goods_{m}", bank.goods[m] + state.natural[m]),
        ("rating", len(state.comp.rings)),
        ("credit", bank.board.get(rng.choice(list(bank.board) or ["I-1"]), 0)),
        ("meter", state.spots - 1),
        (f"market_{m}", min(len(state.comp.markets[m].slots), state.markets[m] + state.natural[m])),
        ("reserve", state.reserve),
    ])
    blocks = [b.id for r in state.comp.rings for b in r.blocks]
    args: dict[str, Any] = {"value": value, "to": max(0, edge + rng.choice([-1, 0, 1, 1])), "reason": "recount",
                            "seat": state.names[s], "block": rng.choice(blocks)}
    return Command(HOST, "correct", args)


def candidates(rng: random.Random, state: MoneyMakerState, stale: list[Command]) -> Iterator[Command]:
    """The commands judged at ``state``; ``stale``: some sent from an earlier
    page (a phone not yet redrawn), which meet the phases they do not fit."""
    everyone = actors(state)
    yield from stale
    for actor in everyone:
        for hint in GAME.actions(state, actor):
            yield Command(actor, hint.command, filled(hint, rng, perturb=False))
            for _ in range(2):
                yield Command(actor, hint.command, filled(hint, rng, perturb=True))
            yield Command(rng.choice(everyone), hint.command, filled(hint, rng, perturb=rng.random() < 0.5))
    for command in proposals(rng, state):
        yield command
        yield Command(rng.choice(everyone), command.name, dict(command.args))
    for _ in range(3):
        yield random_deal(rng, state)
    yield random_redistribution(rng, state)
    yield random_grant(rng, state)
    yield random_correction(rng, state)
    for name in rng.sample(sorted(VOCABULARY), k=4):  # any move, from anyone, with no arguments
        yield Command(rng.choice(everyone), name, {})
    for number in (None, 1, 99):
        answer = rng.choice(["accept_deal", "decline_deal", "withdraw_deal"])
        yield Command(rng.choice(everyone), answer, {} if number is None else {"offer": number})


def with_an_offer(rng: random.Random, state: MoneyMakerState) -> MoneyMakerState | None:
    """``state`` after a random deal proposal some bank could make, and often a
    host's correction of the proposer's vault since (so that accepting it may
    meet a promise that cannot be kept any more); ``None`` if none was made."""
    for _ in range(6):
        command = random_deal(rng, state)
        if command.actor.seat is None:
            continue
        try:
            move = GAME.parse(state, command)
            GAME.check(state, move)
        except Refusal:
            continue
        after = GAME.apply(copy.deepcopy(state), move).state
        if rng.random() < 0.7:
            what = rng.choice(["gold", "goods_production", "goods_consumer"])
            fix = Command(HOST, "correct", {"value": what, "seat": state.names[command.actor.seat], "to": 0, "reason": "miscounted"})
            try:
                move = GAME.parse(after, fix)
                GAME.check(after, move)
                after = GAME.apply(after, move).state
            except Refusal:
                pass
        return after
    return None


def with_the_action_deck_out(rng: random.Random, state: MoneyMakerState) -> MoneyMakerState | None:
    """``state`` with every action card bought: buying one reshuffles the discard
    (a few cards, or none), which the check counts as done without doing it."""
    out = copy.deepcopy(state)
    out.actions_out = sum(k.copies for k in out.comp.actions)
    codes = [k.code for k in out.comp.actions]
    out.action_discard = [rng.choice(codes) for _ in range(rng.choice([0, 1, 3, 8]))]
    return out


def after_a_new_rating(rng: random.Random, state: MoneyMakerState) -> MoneyMakerState | None:
    """``state`` after the host corrected a bank's rating: its credit moves and it may
    redistribute it (rare in random games, where a promotion is soon followed by a roll)."""
    s = rng.randrange(state.seats)
    fix = Command(HOST, "correct", {"value": "rating", "seat": state.names[s], "to": rng.randint(1, 3), "reason": "misread"})
    try:
        move = GAME.parse(state, fix)
        GAME.check(state, move)
    except Refusal:
        return None
    return GAME.apply(copy.deepcopy(state), move).state


def hints_before(state: MoneyMakerState, actor: Actor) -> list[ActionHint]:
    """The hints before, with what later changes reworded on purpose as today has it:
    a card is named by its name (``Bid for Textile Producer``, not its id), the turn's
    seat closing its own high bid reads ``Sold! to you``, the degrade button says where
    the bank goes, and the buy limit's reason takes its number from the data."""
    assert HINTS_BEFORE is not None
    card = state.auction.card if state.auction is not None else ""
    due = state.due.card if state.due is not None else ""
    own = state.names[actor.seat] if actor.kind is ActorKind.SEAT and actor.seat is not None else None
    out: list[ActionHint] = []
    for h in HINTS_BEFORE.hints(state, actor):
        label, reason = h.label, h.reason
        if h.command == "bid" and card:
            label = label.replace(card, card_name(state, card))
        if h.command == "pay" and due:
            label = label.replace(due, card_name(state, due))
        if h.command == "close_auction" and own is not None and label.startswith(f"Sold! to {own} for "):
            label = label.replace(f"Sold! to {own} for ", "Sold! to you for ")
        if h.command == "degrade":
            seat = own if own is not None else h.args["seat"]
            label = hints._degrade_label(state, state.names.index(seat), host=own is None)
        if h.command == "buy" and reason == "you bought 4 here this turn":
            reason = says("why_bought_limit", bought=state.bought.get(h.args["market"], 0), limit=state.comp.buy_limit)
        out.append(dataclasses.replace(h, label=label, reason=reason))
    return out


def same_pages(state: MoneyMakerState) -> None:
    checks.same_pages(GAME, hints_before if HINTS_BEFORE is not None else None, state, actors(state))


# the comparisons -----------------------------------------------------------------------------
def compare_over_game(seed: int, *, every: int = 2, max_steps: int = 250, variant: str = "full") -> Tally:
    """Play a random game; at every ``every``-th state (and the last) judge the candidates both ways."""
    rng = random.Random(seed)
    played = play(seed, keep_states=True, max_steps=max_steps, variant=variant)
    tally = Tally()
    states = played.states[::every] + played.states[-1:]
    stale: list[Command] = []
    for state in states:
        same_pages(state)
        judged: list[Command] = []
        for command in candidates(rng, state, stale):
            compare(state, command, tally)
            judged.append(command)
        for derive in (with_an_offer, after_a_new_rating, with_the_action_deck_out):
            derived = derive(rng, state) if rng.random() < 0.2 else None
            if derived is not None:
                for command in candidates(rng, derived, stale):
                    compare(derived, command, tally)
        stale = rng.sample(judged, k=min(len(judged), 40))
    return tally


@fuzz_settings(6, phases=(Phase.explicit, Phase.generate))  # a seed does not shrink
@given(seed=st.integers(0, 2**32 - 1), beginner=st.booleans())
def test_the_pure_check_gives_what_the_dry_run_gives(seed: int, beginner: bool) -> None:
    tally = compare_over_game(seed, every=4, max_steps=200, variant="beginner" if beginner else "full")
    assert sum(tally.refused.values()) > 50 and sum(tally.accepted.values()) > 50


#: the moves whose refusals the fixed games must meet, and how often at least
EVERY_MOVE = sorted(VOCABULARY)
AT_LEAST = 5
#: all but ``end``, which the host may send at any time before the end
TOPIC_REFUSED = [name for name in EVERY_MOVE if name != "end"]


def test_the_comparison_meets_refusals_of_every_move() -> None:
    """Fixed games (full and beginner's): the same comparison, counted, so that
    a check that refuses nothing (or never runs) cannot pass unseen."""
    tally = Tally()
    for seed in (11, 12, 13, 14):
        tally.add(compare_over_game(seed))
    tally.add(compare_over_game(15, variant="beginner"))
    if RULES_BEFORE is None:
        pytest.skip(f"commit {before.BEFORE} is not in this checkout's history: compared with today's apply only")
    assert tally.against_before == sum(tally.refused.values()) + sum(tally.accepted.values())
    rare = {name: tally.refused_by_topic[name] for name in TOPIC_REFUSED if tally.refused_by_topic[name] < AT_LEAST}
    assert not rare, f"too few refusals of {rare} past the actor's check (refused: {dict(tally.refused_by_topic)})"
    unaccepted = [name for name in EVERY_MOVE if not tally.accepted[name]]
    assert not unaccepted, f"never accepted: {unaccepted}"
    assert len(tally.messages) >= 100, f"only {len(tally.messages)} different refusals"
    print(f"refused {sum(tally.refused.values())}: {dict(sorted(tally.refused.items()))}")
    print(f"of them past the actor's check: {dict(sorted(tally.refused_by_topic.items()))}")
    print(f"accepted {sum(tally.accepted.values())}: {dict(sorted(tally.accepted.items()))}")
    print(f"different refusals (move, message without numbers): {len(tally.messages)}; unparsed commands: {tally.unparsed}")


def test_every_move_of_the_vocabulary_has_its_check_and_its_move() -> None:
    """A seat's move missing from the one table of checks and moves would
    reach neither: the table and the vocabulary name the same moves."""
    own = set(VOCABULARY) - {"draw", "roll", "close_auction", "deal", "withdraw_deal", "end", "correct", "grant"}
    assert set(rules._SEAT_MOVES) == own
