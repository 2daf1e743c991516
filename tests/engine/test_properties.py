"""Properties of random games (hypothesis): they hold for every game, not just chosen ones."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    MOVE_LIMIT,
    REPETITIONS,
    VARIANT_IDS,
    Color,
    Kind,
    Phase,
    Position,
    Step,
    Termination,
    format_record,
    get_variant,
    iter_positions,
    replay,
)


def random_game(variant: str, data: st.DataObject, limit: int = 400) -> list[Position]:
    p = Position.initial(variant)
    positions = [p]
    while not p.is_over and len(positions) < limit:
        action = data.draw(st.sampled_from(p.legal_actions()))
        p = p.apply(action)
        positions.append(p)
    return positions


def game_and_record(variant: str, data: st.DataObject) -> tuple[list[Position], list[str]]:
    p = Position.initial(variant)
    positions, record = [p], []
    while not p.is_over and len(positions) < 400:
        action = data.draw(st.sampled_from(p.legal_actions()))
        record.append(action.notation(p.variant))
        p = p.apply(action)
        positions.append(p)
    return positions, record


variants = st.sampled_from(VARIANT_IDS)
many = settings(max_examples=60, deadline=None)


@many
@given(variants, st.data())
def test_players_alternate_except_for_removals_and_freeing_moves(variant: str, data) -> None:
    positions, record = game_and_record(variant, data)
    for before, after, text in zip(positions, positions[1:], record, strict=False):
        if after.is_over:
            break
        action = before.parse(text)
        if before.step is Step.PLACE and after.phase is not Phase.PLACEMENT:
            # The placement is over: the first-jare player acts first, else black, who
            # placed last; in jar the other player acts instead to free them if walled in.
            opener = (after.first_jare or Color.BLACK).value
            assert after.turn == (1 - opener if after.step is Step.FREE else opener)
        elif before.step is Step.PLACE or (
            before.step is Step.FREE and after.step is not Step.FREE
        ):
            # The same player acts again only to remove, or to free an opponent whom
            # the last placement left without a move.
            assert after.turn != before.turn or after.step in (Step.REMOVE, Step.FREE)
        if after.step is Step.REMOVE and after.phase is Phase.MOVEMENT:
            assert after.turn == before.turn and action.kind is Kind.MOVE
        if after.step is Step.FREE:
            assert not after.can_move(1 - after.turn)
        if after.step is Step.MOVE:
            assert after.can_move(after.turn)


@many
@given(variants, st.data())
def test_stones_are_conserved_and_never_come_back(variant: str, data) -> None:
    v = get_variant(variant)
    positions = random_game(variant, data)
    for before, after in itertools.pairwise(positions):
        for c in (0, 1):
            assert after.count(c) + after.in_hand(c) <= v.pieces
            assert after.count(c) + after.in_hand(c) <= before.count(c) + before.in_hand(c)
        assert not after.white & after.black
        lost = sum(
            before.count(c) + before.in_hand(c) - after.count(c) - after.in_hand(c) for c in (0, 1)
        )
        assert lost == (1 if before.step is Step.REMOVE else 0)


@many
@given(variants, st.data())
def test_records_round_trip(variant: str, data) -> None:
    positions, record = game_and_record(variant, data)
    text = format_record(record)
    assert replay(variant, text) == positions[-1]
    assert [p for p, _ in iter_positions(variant, text)] == positions


@many
@given(variants, st.data())
def test_outcomes_only_where_the_rules_give_one(variant: str, data) -> None:
    positions = random_game(variant, data)
    for before, p in itertools.pairwise(positions):
        o = p.outcome
        assert (o is None) == bool(p.legal_actions())
        assert (o is None) == (p.to_move is not None)
        if o is None:
            continue
        assert p is positions[-1]
        t = o.termination
        if t is Termination.TWO_PIECES:
            assert o.winner is not None and p.count(o.winner.other) == 2
            assert before.step is Step.REMOVE and before.phase is Phase.MOVEMENT
        elif t is Termination.THREE_IN_A_ROW:
            own = p.stones(o.winner)
            assert p.variant.family == "jar" and any(own & ln == ln for ln in p.variant.lines)
        elif t is Termination.MUTUAL_BLOCKADE:
            assert not p.can_move(Color.WHITE) and not p.can_move(Color.BLACK)
        elif t is Termination.MOVE_LIMIT:
            assert p.moves_without_capture >= MOVE_LIMIT
        elif t is Termination.THREEFOLD_REPETITION:
            assert p.history.count(p.history[-1]) == REPETITIONS
        else:
            raise AssertionError(f"the rules never end a game by {t}")
