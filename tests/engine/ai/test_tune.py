"""The weight-tuning tool: samples survive a round trip and self-play yields them."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from engine.ai import common, core, tune
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


def test_timed_self_play_writes_samples_from_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "timed.jsonl"
    argv = ["games", "--variant", "shax-small", "--games", "2", "--movetime", "0.01"]
    assert tune.main([*argv, "--workers", "1", "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) > 20
    for variant, packed, result in rows:
        assert variant == "shax-small" and result in (0.0, 0.5, 1.0)
        assert tune.unpack(variant, packed).outcome is None
    # Each game labels both players: the winner's positions 1, the loser's 0 (or all 0.5).
    assert {result for _, _, result in rows} in ({0.0, 1.0}, {0.5}, {0.0, 0.5, 1.0})


def test_fit_recovers_which_feature_decides_the_game(tmp_path: Path) -> None:
    """Results drawn from a logistic model of material alone: the fit gives material the
    scale (100) and a feature that decides nothing next to nothing."""
    rng = random.Random(7)
    names = common.WEIGHT_NAMES
    mat, noise = names.index("mat"), (names.index("mat") + 1) % len(names)
    path = tmp_path / "samples.jsonl"
    with path.open("w") as fh:
        for _ in range(3000):
            feats = [0] * len(names)
            feats[mat] = rng.randint(-3, 3) * core.FSCALE
            feats[noise] = rng.randint(-3, 3) * core.FSCALE
            p = 1 / (1 + math.exp(-0.9 * feats[mat] / core.FSCALE))
            fh.write(json.dumps([feats, 1.0 if rng.random() < p else 0.0]) + "\n")
    weights = tune.fit([str(path)], l2=1.0, iterations=8)
    assert weights["mat"] == 100
    assert abs(weights[names[noise]]) < 15


def test_fit_reports_the_loss_on_held_apart_samples(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Train and held-out files from the same material-only model: the fit beats the
    average result on both, and the held-out loss is printed."""
    rng = random.Random(11)
    names = common.WEIGHT_NAMES
    mat = names.index("mat")
    paths = []
    for name in ("train", "held"):
        path = tmp_path / f"{name}.jsonl"
        with path.open("w") as fh:
            for _ in range(1500):
                feats = [0] * len(names)
                feats[mat] = rng.randint(-3, 3) * core.FSCALE
                p = 1 / (1 + math.exp(-0.9 * feats[mat] / core.FSCALE))
                fh.write(json.dumps([feats, 1.0 if rng.random() < p else 0.0]) + "\n")
        paths.append(str(path))
    tune.fit(paths[:1], l2=1.0, iterations=8, holdout=paths[1:])
    out = capsys.readouterr().out
    losses = [
        (float(line.split("log loss ")[1].split()[0]), float(line.rsplit(" ", 1)[1][:-1]))
        for line in out.splitlines()
        if "log loss" in line
    ]
    assert out.startswith("train:") and "held out: 1500 positions" in out
    assert len(losses) == 2
    for fitted, constant in losses:
        assert fitted < constant - 0.05


def test_the_solver_solves() -> None:
    assert tune._solve([[2.0, 1.0], [1.0, 3.0]], [3.0, 5.0]) == pytest.approx([0.8, 1.4])
