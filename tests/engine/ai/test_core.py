"""The compiled core against the readable engine: every legal action of random walks.

The walks mix uniform choices with moves that crowd the opponent, so that blockades,
freeing moves (with and without a move that frees), mutual blockades, repetitions and the
100-move rule all occur; every legal action of every position is played by both.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.ai import core
from engine.position import Phase, Position, Step, _begin_turn
from engine.variants import VARIANT_IDS, Color, get_variant
from engine.verdicts import Termination
from tests.engine.ai.positions import movement

WALKS = {"shax": 500, "shax-small": 1000, "jar": 1000}


def crowding_choice(position: Position, rng: random.Random) -> int:
    """Index of a legal action that leaves the opponent fewest moves (ties at random)."""
    actions = position.legal_actions()
    scored = []
    for i, action in enumerate(actions):
        after = position.play(action)
        opp = 1 - position.turn
        scored.append((after.can_move(opp), rng.random(), i))
    return min(scored)[2]


def random_walk_positions(variant: str, walks: int, seed: int) -> list[Position]:
    """Positions of seeded random games, half of their moves crowding the opponent."""
    rng = random.Random(seed)
    out: list[Position] = []
    for walk in range(walks):
        crowd = 0.0 if walk % 3 == 0 else 0.6
        position = Position.initial(variant)
        while position.outcome is None:
            out.append(position)
            actions = position.legal_actions()
            if position.step is Step.MOVE and rng.random() < crowd:
                action = actions[crowding_choice(position, rng)]
            else:
                action = rng.choice(actions)
            position = position.play(action)
        out.append(position)
    return out


@pytest.mark.slow  # 2,500 random games, every action played by both
@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_core_agrees_with_engine_on_random_walks(variant: str) -> None:
    steps: Counter[Step] = Counter()
    endings: Counter[Termination] = Counter()
    no_freeing_move = 0
    checked = 0
    for position in random_walk_positions(variant, WALKS[variant], seed=1234):
        legal = position.legal_actions()
        assert sorted(core.legal_actions(position)) == sorted(legal), position
        for action in legal:
            expected = position.play(action)
            got = core.play(position, action)
            assert got == expected, (position, action, got, expected)
            if expected.outcome:
                endings[expected.outcome.termination] += 1
            checked += 1
        if position.outcome is None:
            steps[position.step] += 1
            if position.step is Step.FREE:
                blocked = position.stones(1 - position.turn)
                adj = position.variant.adjacent
                no_freeing_move += not any(adj[a.src] & blocked for a in legal)
    assert checked > 10_000
    assert steps[Step.FREE] > 0 and steps[Step.MOVE] > 0 and steps[Step.PLACE] > 0
    expected_endings = {Termination.THREEFOLD_REPETITION, Termination.MOVE_LIMIT}
    if variant == "jar":
        expected_endings.add(Termination.THREE_IN_A_ROW)
    else:
        assert steps[Step.REMOVE] > 0
        expected_endings.add(Termination.TWO_PIECES)
    assert expected_endings <= set(endings), endings


def random_boards(variant: str, count: int, seed: int) -> list[Position]:
    """Movement positions with random stones (crowded or sparse), clocks and histories."""
    rng = random.Random(seed)
    v = get_variant(variant)
    out: list[Position] = []
    while len(out) < count:
        points = list(range(v.size))
        rng.shuffle(points)
        nw, nb = rng.randint(3, v.pieces), rng.randint(3, v.pieces)
        if nw + nb > v.size - 1:
            continue
        white = sum(1 << p for p in points[:nw])
        black = sum(1 << p for p in points[nw : nw + nb])
        turn = rng.randint(0, 1)
        if rng.random() < 0.2 and v.family == "shax":  # a capture to make
            out.append(Position(v, white, black, (0, 0), turn, Phase.MOVEMENT, Step.REMOVE))
            continue
        clock = rng.choice([0, rng.randint(0, 99), 99])
        key = white | black << v.size | turn << (2 * v.size)
        history = tuple(rng.choice([key, key ^ 1 << rng.randrange(v.size)]) for _ in range(3))
        out.append(_begin_turn(v, white, black, (0, 0), turn, -1, clock, history))
    return out


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_core_agrees_with_engine_on_random_boards(variant: str) -> None:
    for position in random_boards(variant, 1500, seed=99):
        legal = position.legal_actions()
        assert sorted(core.legal_actions(position)) == sorted(legal), position
        for action in legal:
            assert core.play(position, action) == position.play(action), (position, action)


def test_blocked_player_with_no_freeing_move_stays_blocked() -> None:
    # Black is blocked and no white stone next to a black one can move: white makes
    # any move (never a capture) and black stays blocked.
    position = movement("shax-small", "c1 a5 b3 e1 c2 c5 b2 b4", "e5 e3 d4 c4 d3 d2", Color.BLACK)
    assert position.step is Step.FREE and position.turn == Color.WHITE.value
    legal = position.legal_actions()
    assert sorted(core.legal_actions(position)) == sorted(legal)
    assert {a.notation(position.variant) for a in legal} == {"c1-a1", "a5-a3", "b3-a3"}
    for action in legal:
        after = position.play(action)
        assert core.play(position, action) == after
        assert after.step is Step.FREE and after.turn == Color.WHITE.value


def test_mutual_blockade_cannot_happen_on_these_boards() -> None:
    # Each board is connected and movement always has an empty point, so some stone
    # always touches one: the mutual-blockade draw of the rules never occurs, and the
    # core need not (and cannot be tested to) agree on it.
    for variant in VARIANT_IDS:
        v = get_variant(variant)
        seen, frontier = 1, 1
        while frontier:
            reach = 0
            for p in range(v.size):
                if frontier >> p & 1:
                    reach |= v.adjacent[p]
            frontier = reach & ~seen
            seen |= reach
        assert seen == v.all_points, variant


def test_compiled_search_plays_only_legal_actions() -> None:
    from engine.ai.levels import weights_for

    rng = random.Random(5)
    for variant in VARIANT_IDS:
        for position in random_walk_positions(variant, 3, seed=rng.randrange(1000))[::7]:
            if position.outcome is not None:
                continue
            params = core.make_params(weights_for(variant), max_depth=3, tt_log2=12)
            found = core.search(position, params)
            assert found.action in position.legal_actions()
            assert {a for a, _ in found.root} == set(position.legal_actions())


def test_a_kept_table_carries_one_search_into_the_next() -> None:
    """With ``keep_tt`` a search starts from what earlier ones stored (far fewer nodes
    for the same depth and the same answer); without it every search starts from
    nothing, so its answer depends on its arguments alone; other weights never read
    the entries."""
    from engine.ai.levels import weights_for

    position = next(
        p
        for p in random_walk_positions("shax", 4, seed=9)
        if p.outcome is None and p.phase is Phase.MOVEMENT and p.step is Step.MOVE
    )
    weights = dict(weights_for("shax"))
    fresh = core.search(position, core.make_params(weights, max_depth=9))
    assert core.search(position, core.make_params(weights, max_depth=9)) == fresh
    kept = core.search(position, core.make_params(weights, max_depth=9, keep_tt=True))
    assert kept.nodes < fresh.nodes // 3
    assert (kept.action, kept.score, kept.depth) == (fresh.action, fresh.score, fresh.depth)
    other = dict(weights, mob=weights["mob"] + 3)
    kept_other = core.search(position, core.make_params(other, max_depth=9, keep_tt=True))
    fresh_other = core.search(position, core.make_params(other, max_depth=9))
    assert kept_other == fresh_other
