"""The arena: paired games with colours swapped, and the Elo arithmetic."""

from __future__ import annotations

import random

from engine.arena import Player, elo, elo_interval, opening, run_match, summarize
from engine.position import Position
from engine.variants import Color


def test_elo_of_even_and_lopsided_scores() -> None:
    assert elo(0.5) == 0
    assert round(elo(0.75)) == 191
    mid, lo, hi = elo_interval([1.0] * 40)
    assert lo > 350 and mid > hi - 1  # a clean sweep still has a finite lower bound
    mid, lo, hi = elo_interval([1.0, 0.0] * 20)
    assert lo < 0 < hi and mid == 0


def test_openings_are_legal_and_seeded() -> None:
    first = opening("shax", 5, random.Random(3))
    assert first == opening("shax", 5, random.Random(3))
    position = Position.initial("shax")
    for action in first:
        position = position.apply(action)
    assert len(first) == 5 and position.outcome is None


def test_match_pairs_openings_and_swaps_colours() -> None:
    easy, rand = Player("easy", depth=1), Player("random")
    results = run_match(
        "shax-small", easy, rand, 4, seed=1, workers=1, min_open=2, max_open=4, verbose=False
    )
    assert [r.index for r in results] == [0, 1, 2, 3]
    assert [r.a_color for r in results] == [Color.WHITE, Color.BLACK] * 2
    for r in results:
        assert r.record.split()[:2] == results[r.index - r.index % 2].record.split()[:2]
    assert "4 games" in summarize(easy, rand, results)
