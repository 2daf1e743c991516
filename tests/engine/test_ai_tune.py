"""The weight-tuning tool: samples survive a round trip and self-play yields them."""

from __future__ import annotations

from engine.ai import core, tune
from engine.ai.levels import weights_for
from engine.record import replay


def test_pack_and_unpack_keep_what_the_evaluation_reads() -> None:
    position = replay("shax", "b4 e4 c5 f6 b6 f2 b2 d2 g4 f4")
    again = tune.unpack("shax", tune.pack(position))
    assert core.features(again) == core.features(position)
    assert again.legal_actions() == position.legal_actions()


def test_self_play_labels_every_sample_with_a_result() -> None:
    samples = tune.self_play("jar", seed=4, depth=3, weights=dict(weights_for("jar")))
    assert samples
    assert {result for _, result in samples} <= {0.0, 0.5, 1.0}
