"""docs/images: each picture is what the command beside it makes, byte for byte."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from renderer.cli import main

DOCS = Path(__file__).resolve().parents[2] / "docs" / "images"


def _commands() -> list[list[str]]:
    text = (DOCS / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
    return [shlex.split(block.replace("\\\n", " ")) for block in blocks]


def test_every_picture_in_the_folder_has_its_command() -> None:
    made = {Path(args[args.index("-o") + 1]).name for args in _commands()}
    shown = {p.name for p in DOCS.iterdir() if p.suffix in (".png", ".gif")}
    assert made == shown


@pytest.mark.parametrize("args", _commands(), ids=lambda a: Path(a[a.index("-o") + 1]).name)
def test_the_command_makes_the_picture_byte_for_byte(args: list[str], tmp_path: Path) -> None:
    assert args[:3] == ["python", "-m", "renderer"]
    k = args.index("-o") + 1
    target = Path(args[k]).name
    out = tmp_path / target
    assert main([*args[3:k], str(out), *args[k + 1 :]]) == 0
    assert out.read_bytes() == (DOCS / target).read_bytes(), target
