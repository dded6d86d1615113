"""The round's flow (seed 001, 1. Select a boss and The winner of WASTE): the
setup, a round's start, round 1's boss, a round's end (the scores, then the
next boss or the winner), and the host's early end."""

from __future__ import annotations

from collections.abc import Sequence

from companion.commands import ActorKind
from companion.errors import IllegalMove, NotYourTurn, SetupError
from companion.games.base import TableConfig
from companion.games.world_of_waste.citations import (
    BOSS_RULE,
    BOSS_TIE_RULE,
    DEAL_RULE,
    FIRST_BOSS_RULE,
    ROUNDS_RULE,
    SUMMARY_RULE,
    WINNER_RULE,
)
from companion.games.world_of_waste.components import Catalog
from companion.games.world_of_waste.deck_out import deck_runs_out, round_need
from companion.games.world_of_waste.moves import Move
from companion.games.world_of_waste.options import END
from companion.games.world_of_waste.scoring import CORRECTION_LINE, StationScore, score_stations
from companion.games.world_of_waste.state import (
    MAX_SEATS,
    MIN_SEATS,
    ROUNDS,
    EarlyEnd,
    Phase,
    WasteState,
    cards_held,
    deck_count,
    early_end_words,
    hand_size,
    type_counts,
)
from companion.games.world_of_waste.words import (
    WORDS,
    and_list,
    cards,
    comma_list,
    points,
    says,
    semicolon_list,
    signed,
)
from companion.rules import EARLY_END, SHARED_PLACE, Citation, Explanation, say


def new_game(cat: Catalog, config: TableConfig) -> WasteState:
    """The state at the start of round 1, before any card is dealt."""
    n = len(config.seats)
    if not MIN_SEATS <= n <= MAX_SEATS:
        raise SetupError(says("seats_range", seats=n))
    need = ROUNDS * round_need(n, hand_size(n))
    deck = sum(t.copies.value for t in cat.types)
    if deck < need:
        raise SetupError(says("deck_too_small", deck=deck, seats=n, need=need))
    state = WasteState(
        catalog=cat,
        names=config.seat_names(),
        round=1,
        phase=Phase.DEAL,
        boss=config.start_seat,
        bosses=[config.start_seat],
        dealt=[],
        queues=[],
        hands=[],
        stations=[[] for _ in range(n)],
        piles=[],
        offers=[],
        revealed=False,
        choosers=[],
        chosen=0,
        face_down_due=[],
        drawing=[],
        sorted=[],
        incineration=[],
        unseen=0,
        assumed=set(),
        round_totals=[],
        boss_tie=str(config.options.get("boss_tie", "passes")),
        deck_out=str(config.options.get("deck_out", END)),
    )
    start_round(state)
    return state


def start_round(state: WasteState) -> None:
    n = state.seats
    state.phase = Phase.DEAL
    state.dealt = [[] for _ in range(n)]
    state.queues = [[] for _ in range(n)]
    state.hands = [[] for _ in range(n)]
    state.piles = []
    state.offers = [None] * n
    state.revealed = False
    state.choosers = []
    state.chosen = 0
    state.face_down_due = [[] for _ in range(n)]
    state.drawing = [0] * n
    state.sorted = [False] * n
    state.recycled = [0] * n


def check_boss(state: WasteState, move: Move) -> None:
    if move.actor.kind is not ActorKind.HOST:
        raise NotYourTurn(says("host_gives_boss"), FIRST_BOSS_RULE)
    if state.round != 1 or state.phase is not Phase.DEAL or any(state.dealt):
        raise IllegalMove(says("boss_before_deal"), BOSS_RULE)


def boss(state: WasteState, move: Move) -> list[Explanation]:
    check_boss(state, move)
    assert move.seat is not None
    state.boss = move.seat
    state.bosses = [move.seat]
    return [say(says("first_boss", seat=state.names[move.seat]), FIRST_BOSS_RULE)]


def end_round(state: WasteState) -> list[Explanation]:
    cat = state.catalog
    scored = score_stations(cat, [type_counts(cat, s) for s in state.stations])
    totals = [s.total + state.correction(s.seat) for s in scored]
    state.round_totals.append(totals)
    state.round_lines.append(
        [
            {ln.code: ln.points for ln in s.lines}
            | ({CORRECTION_LINE: state.correction(s.seat)} if state.correction(s.seat) else {})
            for s in scored
        ]
    )
    lines = [
        say(
            says(
                "scores_after",
                round=state.round,
                totals=comma_list(says("name_value", name=state.names[s.seat], value=totals[s.seat]) for s in scored),
            ),
            SUMMARY_RULE,
        )
    ]
    for sc in scored:
        parts = comma_list(says("line_points", label=ln.label, points=ln.points) for ln in sc.lines if ln.points)
        if state.correction(sc.seat):
            fix = says("line_points", label=WORDS.name("score_line", CORRECTION_LINE), points=signed(state.correction(sc.seat)))
            parts = comma_list(p for p in (parts, fix) if p)
        lines.append(
            say(says("seat_scores", seat=state.names[sc.seat], lines=parts or says("nothing_scores")), SUMMARY_RULE,
                *sc.rules())
        )
    deck_lines, deck_out = ([], False) if state.round == ROUNDS else deck_runs_out(
        state, deck_count(state), hand_size(state.seats), state.deck_out
    )
    lines += deck_lines  # a short deck ends the game now, or the incineration pile is shuffled back
    if state.round == ROUNDS or deck_out:
        state.phase = Phase.OVER
        lines.append(winner_line(state, totals, scored, ROUNDS_RULE))
        return lines
    new_boss = next_boss(totals, state.boss, boss_keeps=state.boss_tie == "boss-keeps")
    low = min(totals)
    tied_low = [s for s in range(state.seats) if totals[s] == low]
    rule = BOSS_TIE_RULE if len(tied_low) > 1 else BOSS_RULE
    why = says("fewest") if len(tied_low) == 1 else says("fewest_left")
    lines.append(say(says("new_boss", seat=state.names[new_boss], round=state.round + 1, why=why, low=low), rule))
    state.boss = new_boss
    state.bosses.append(new_boss)
    state.round += 1
    start_round(state)
    lines.append(
        say(says("round_deal", round=state.round, seat=state.names[new_boss], hand=hand_size(state.seats)), DEAL_RULE)
    )
    return lines


def next_boss(totals: Sequence[int], boss: int, *, boss_keeps: bool = False) -> int:
    """The seat with the fewest points; among ties the one closest to the left
    of the current boss.  The current boss, if tied, comes last (reading
    ``passes``) or keeps the card (reading ``boss-keeps``)."""
    n = len(totals)
    low = min(totals)
    if boss_keeps and totals[boss] == low:
        return boss
    return min((s for s in range(n) if totals[s] == low), key=lambda s: (s - boss - 1) % n)


def winner_line(state: WasteState, totals: Sequence[int], scored: Sequence[StationScore], rule: Citation) -> Explanation:
    """Who wins: the most points; a tie goes to the higher auction value of the
    station; seats equal on both share the win (the text names nothing further)."""
    best = max(range(state.seats), key=lambda s: (totals[s], scored[s].auction_value))
    tied = sorted((s for s in range(state.seats) if totals[s] == totals[best]), key=lambda s: (-scored[s].auction_value, s))
    top = [s for s in tied if scored[s].auction_value == scored[best].auction_value]
    won = points(totals[best])
    values = comma_list(says("name_value", name=state.names[s], value=scored[s].auction_value) for s in tied)
    cites: tuple[Citation, ...] = (rule,) if rule is EARLY_END else ()
    if len(top) > 1:
        names = and_list(state.names[s] for s in top)
        return say(says("share_win", seats=names, points=won, values=values), *cites, WINNER_RULE, SHARED_PLACE)
    text: str = says("wins", seat=state.names[best], points=won)
    if len(tied) > 1:
        text += says("tie_broken", values=values)
        return say(text, *cites, WINNER_RULE)
    return say(text, rule)


def check_end(state: WasteState, move: Move) -> None:
    if move.actor.kind is not ActorKind.HOST:
        raise NotYourTurn(says("only_host_ends"), EARLY_END)
    if state.phase is Phase.OVER:
        how = says("ended_how", ended=early_end_words(state.ended_early)) if state.ended_early else ""
        raise IllegalMove(says("over_already", how=how), EARLY_END)


def end(state: WasteState, move: Move) -> list[Explanation]:
    """The host ends the game now: the stations are scored as they stand."""
    check_end(state, move)
    n = state.seats
    names = state.names
    cat = state.catalog
    skipped: list[str] = []
    nothing_dealt = state.phase is Phase.DEAL and not any(state.dealt)
    if not nothing_dealt:
        held = [(s, cards_held(state, s)) for s in range(n) if not (state.phase is Phase.PLAY and state.sorted[s])]
        held = [(s, k) for s, k in held if k]
        part: str = says("rest_of_round", round=state.round, phase=WORDS.name("phase", state.phase.value))
        if held:
            part += says(
                "held_unsorted", held=comma_list(says("name_value", name=names[s], value=cards(k)) for s, k in held)
            )
        skipped.append(part)
        later = range(state.round + 1, ROUNDS + 1)
    else:
        later = range(state.round, ROUNDS + 1)
    if later:
        skipped.append(
            says("round_skipped", round=later[0]) if len(later) == 1
            else says("rounds_skipped", rounds=comma_list(later[:-1]), last=later[-1])
        )
    scored = score_stations(cat, [type_counts(cat, st) for st in state.stations])
    totals = [sc.total + state.correction(sc.seat) for sc in scored]
    state.final_totals = totals
    reason = says("end_reason", reason=move.reason) if move.reason else ""
    state.ended_early = EarlyEnd(state.round, move.reason)
    state.phase = Phase.OVER
    state.drawing = [0] * n  # a Recycler's draw that was not made is not made now
    return [
        say(
            says("host_ends", reason=reason, skipped=semicolon_list(skipped) or says("skipped_nothing")),
            EARLY_END,
        ),
        say(
            says("final_scores", totals=comma_list(says("name_value", name=names[s], value=totals[s]) for s in range(n))),
            EARLY_END,
            SUMMARY_RULE,
        ),
        winner_line(state, totals, scored, EARLY_END),
    ]
