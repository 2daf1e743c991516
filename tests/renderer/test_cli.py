"""``python -m renderer``: writes a PNG or a GIF; a bad record or variant exits 2 in one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from renderer.cli import main

ROOT = Path(__file__).resolve().parents[2]


def frame_count(img: Image.Image) -> int:
    return int(getattr(img, "n_frames", 1))


def test_the_cli_writes_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "board.png"
    code = main(
        [
            "--variant",
            "shax",
            "--record",
            "d7 a7 g7",
            "-o",
            str(out),
            "--white",
            "Ali",
            "--black",
            "Hodan",
            "--theme",
            "night",
            "--series",
            "black:2",
        ]
    )
    assert code == 0
    with Image.open(out) as img:
        assert img.format == "PNG"
        assert img.size == (880, 560)
    assert str(out) in capsys.readouterr().out


def test_the_cli_writes_a_replay(tmp_path: Path) -> None:
    out = tmp_path / "game.gif"
    assert main(["--variant", "jar", "--record", "a1 b1 a2 b2", "--replay", "-o", str(out)]) == 0
    with Image.open(out) as img:
        assert img.format == "GIF"
        assert frame_count(img) == 5


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--record", "d7 d7"], "action 2 ('d7') is not playable"),
        (["--variant", "chess"], "unknown variant 'chess'"),
        (["--theme", "neon"], "unknown theme 'neon'"),
        (["--series", "green:2"], "--series wants COLOR:N"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "x.png"
    assert main([*args, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1
    assert not out.exists()


def test_python_dash_m_renderer_runs_without_a_traceback(tmp_path: Path) -> None:
    bad = subprocess.run(
        [sys.executable, "-m", "renderer", "--record", "d7 a7 xx", "-o", str(tmp_path / "b.png")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr
    assert "action 3" in bad.stderr
    good = subprocess.run(
        [sys.executable, "-m", "renderer", "--record", "d7", "-o", str(tmp_path / "g.png")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert good.returncode == 0, good.stderr
    assert (tmp_path / "g.png").read_bytes().startswith(b"\x89PNG")
