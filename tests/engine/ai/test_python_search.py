"""The pure-Python search against the readable engine and against the compiled core.

Its rules must be the engine's (every legal action of random walks, as for the C core);
its evaluation and its fixed-depth searches must be the C core's to the node: the same
action, score, root scores and node count, so that the AI plays the same game without a
C compiler, only slower.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

from engine.ai import core, python_board, python_search
from engine.ai.common import MATE_BOUND, NW, WEIGHT_NAMES
from engine.ai.levels import LEVEL_TABLE, weights_for
from engine.ai.player import choose_for_position
from engine.position import Position
from engine.record import replay
from engine.variants import VARIANT_IDS
from tests.engine.ai.test_core import random_walk_positions


@pytest.fixture
def python_backend(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The AI of this test thinks with the Python search."""
    monkeypatch.setenv(core.BACKEND_ENV, "python")
    core.backend_choice.cache_clear()
    yield
    monkeypatch.delenv(core.BACKEND_ENV)
    core.backend_choice.cache_clear()


def unfinished_positions(variant: str, count: int, seed: int) -> list[Position]:
    """Positions of seeded random games, from the empty board to deep in the movement."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        position = Position.initial(variant)
        for _ in range(rng.randrange(0, 90)):
            if position.outcome is not None:
                break
            position = position.play(rng.choice(position.legal_actions()))
        if position.outcome is None:
            out.append(position)
    return out


def weight_vector(variant: str) -> list[int]:
    weights = weights_for(variant)
    return [weights[name] for name in WEIGHT_NAMES]


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_python_rules_agree_with_engine_on_random_walks(variant: str) -> None:
    checked = 0
    for position in random_walk_positions(variant, 60, seed=99):
        legal = position.legal_actions()
        assert python_board.legal_actions(position) == legal, position
        for action in legal:
            assert python_board.play_action(position, action) == position.play(action)
            checked += 1
    assert checked > 1000


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_python_evaluation_is_the_compiled_one(variant: str) -> None:
    weights = weights_for(variant)
    for position in unfinished_positions(variant, 150, seed=5):
        assert python_board.features(position) == core.features(position), position
        assert core.evaluate(position, weights) == python_board.evaluate(
            position, weight_vector(variant)
        )


@pytest.mark.parametrize("variant", VARIANT_IDS)
@pytest.mark.parametrize("all_scores", [False, True])
def test_python_search_finds_what_the_compiled_one_finds(variant: str, all_scores: bool) -> None:
    """Depths 1 to 3 on many positions, 4 on a few and 6 on two (deep enough for every cut
    and reduction of the search): the same search, node for node."""
    weights = weights_for(variant)
    cases = [(p, d) for p in unfinished_positions(variant, 12, seed=11) for d in (1, 2, 3)]
    cases += [(p, 4) for p in unfinished_positions(variant, 4, seed=12)]
    cases += [(p, 6) for p in unfinished_positions(variant, 2, seed=13)]
    for position, depth in cases:
        params = core.make_params(weights, max_depth=depth, all_scores=all_scores)
        compiled = core.c_search(position, params)
        python = python_search.search(
            position, weight_vector(variant), max_depth=depth, all_scores=all_scores
        )
        assert python == compiled, (position, depth)


def test_search_dispatches_to_the_python_backend(python_backend: None) -> None:
    assert core.backend() == "python"
    position = replay("shax", ["d7", "a7", "g7", "a4", "d6"])
    params = core.make_params(weights_for("shax"), max_depth=3)
    assert core.search(position, params) == core.c_search(position, params)


def test_python_search_keeps_to_its_time_budget() -> None:
    """A time limit ends the search (stopped mid-iteration, or no iteration started that
    would overrun) and still leaves a legal answer (no speed asserted)."""
    position = Position.initial("shax")
    found = python_search.search(position, weight_vector("shax"), max_depth=99, time_ms=50)
    assert found.action in position.legal_actions()
    assert 1 <= found.depth < 99


def first_mate_found_only_deeper(shallow: int, deep: int) -> Position | None:
    """A shax-small position whose forced win the deeper search sees and the shallower not."""
    for position in unfinished_positions("shax-small", 400, seed=21):
        if position.phase.value == "placement":
            continue
        vector = weight_vector("shax-small")
        found = python_search.search(position, vector, max_depth=deep)
        if found.score <= MATE_BOUND:
            continue
        if python_search.search(position, vector, max_depth=shallow).score <= MATE_BOUND:
            return position
    return None


def test_levels_stay_distinct_with_the_python_backend(python_backend: None) -> None:
    """Each level searches deeper than the one below, so a win that needs medium's four
    plies is played by medium and missed by easy's two (at their own fixed depths)."""
    levels = [LEVEL_TABLE[name] for name in ("easy", "medium", "hard", "master")]
    for lower, higher in itertools.pairwise(levels):
        assert lower.max_depth < higher.max_depth and lower.movetime < higher.movetime
    easy, medium = levels[0], levels[1]
    found = first_mate_found_only_deeper(easy.max_depth, medium.max_depth)
    assert found is not None
    position = found
    at_medium = choose_for_position(position, medium, seed=1, depth=medium.max_depth)
    assert at_medium.score > MATE_BOUND  # the action it chose wins by force
    at_easy = choose_for_position(position, easy, seed=1, depth=easy.max_depth)
    assert at_easy.score <= MATE_BOUND


def test_the_clock_rule_is_the_same_in_c_and_python() -> None:
    lib = core.library()
    ms = 1_000_000
    for n in (1, 2, 20):
        for stable in (0, 1, 2, 3, 5):
            for elapsed in (0, 100 * ms, 600 * ms, 950 * ms):
                for last, prev in ((0, 0), (50 * ms, 0), (50 * ms, 10 * ms), (200 * ms, 90 * ms)):
                    for soft, eager in itertools.product((0, 550 * ms), (0, 500 * ms)):
                        args = (n, stable, elapsed, last, prev, 1000 * ms, soft, eager)
                        assert bool(lib.core_keep_going(*args)) == python_search.keep_going(*args)


def test_the_clock_rule() -> None:
    ms = 1_000_000
    keep = python_search.keep_going
    assert not keep(1, 0, 0, 1, 0, 1000 * ms, 0)  # one legal action: no deeper search
    assert keep(20, 5, 100 * ms, 10 * ms, 5 * ms, 1000 * ms, 550 * ms)  # time to spare
    assert not keep(20, 3, 600 * ms, 10 * ms, 5 * ms, 1000 * ms, 550 * ms)  # settled, past soft
    assert keep(20, 2, 600 * ms, 10 * ms, 5 * ms, 1000 * ms, 550 * ms)  # not settled yet
    assert not keep(20, 1, 400 * ms, 300 * ms, 100 * ms, 1000 * ms, 550 * ms)  # would overrun
    assert keep(20, 0, 400 * ms, 300 * ms, 100 * ms, 1000 * ms, 550 * ms)  # best move just changed
    # Before the eager limit an iteration starts even if it will not finish ...
    assert keep(20, 1, 400 * ms, 300 * ms, 100 * ms, 1000 * ms, 800 * ms, 600 * ms)
    # ... and after it the prediction decides again.
    assert not keep(20, 1, 650 * ms, 300 * ms, 100 * ms, 1000 * ms, 800 * ms, 600 * ms)
    # A settled best move past the soft limit stops even before the eager limit.
    assert not keep(20, 3, 560 * ms, 10 * ms, 5 * ms, 1000 * ms, 550 * ms, 600 * ms)


def test_a_forced_move_is_answered_at_once() -> None:
    """With one legal action a timed search does not deepen."""
    for variant in ("shax", "shax-small"):
        forced = [p for p in unfinished_positions(variant, 400, 1) if len(p.legal_actions()) == 1]
        assert forced
        for position in forced[:5]:
            params = core.make_params(weights_for(variant), max_depth=50, time_limit=5.0)
            assert core.c_search(position, params).depth == 1
            found = python_search.search(
                position, weight_vector(variant), max_depth=50, time_ms=5000
            )
            assert found.depth == 1


def test_the_python_search_keeps_its_table_too() -> None:
    """``keep_tt`` in pure Python: the second search of a position reuses the first's
    entries (fewer nodes, the same answer); a search without it starts from nothing."""
    position = next(
        p
        for p in unfinished_positions("shax", 40, seed=5)
        if p.phase.value == "movement" and p.step.value == "move"
    )
    vector = weight_vector("shax")
    fresh = python_search.search(position, vector, max_depth=5)
    python_search.search(position, vector, max_depth=5, keep_tt=True)
    kept = python_search.search(position, vector, max_depth=5, keep_tt=True)
    assert kept.nodes < fresh.nodes
    assert (kept.action, kept.score) == (fresh.action, fresh.score)
    assert python_search.search(position, vector, max_depth=5) == fresh


def test_the_python_kept_table_replaces_older_searches_first() -> None:
    """As in the C core: the first slot of a bucket keeps the deepest entry of the current
    search only; there an entry of an earlier search gives way to any new one."""
    search = python_search._Search(
        python_board.board(Position.initial("shax").variant), [0] * NW, 10, 1, None
    )
    index = python_board.mix(1) & search.ttmask
    old, new, third = itertools.islice(
        (k for k in itertools.count(1) if python_board.mix(k) & search.ttmask == index), 3
    )
    search.tt_store(old, 9, 0, 10, 0, 0)
    search.tt_store(new, 2, 0, 20, 0, 0)  # the same search: the deeper entry keeps slot 0
    assert (search.tt0[index][0], search.tt1[index][0]) == (old, new)
    search.gen = 2  # the next search with the kept table
    search.tt_store(third, 1, 0, 30, 0, 0)
    assert search.tt_probe(old) is None
    assert search.tt_probe(third) is not None and search.tt_probe(new) is not None


def test_each_search_with_the_kept_table_is_a_new_generation() -> None:
    vector = [*weight_vector("shax"), *[0] * NW][:NW]
    tt0, tt1, first = python_search.kept_tables("shax", vector, 12)
    same0, same1, second = python_search.kept_tables("shax", vector, 12)
    assert (same0, same1, second) == (tt0, tt1, first + 1) and same0 is tt0
    other = python_search.kept_tables("shax", [1, *vector[1:]], 12)
    assert other[2] == 1  # other weights: a new table
