"""``python -m engine status``: one JSON line per record, answered as soon as it is read."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator

import pytest


@pytest.fixture
def status() -> Iterator[subprocess.Popen[str]]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "engine", "status", "--variant", "jar"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    yield proc
    proc.kill()
    proc.wait()


def ask(proc: subprocess.Popen[str], line: str) -> dict:
    assert proc.stdin and proc.stdout
    proc.stdin.write(line + "\n")
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())


def test_status_converses_line_by_line(status: subprocess.Popen[str]) -> None:
    start = ask(status, "")
    assert start["to_move"] == "white" and start["result"] is None
    assert start["legal"] == ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"]
    placing = ask(status, "a1 b1 a2 b2 a3")  # a line while placing wins nothing
    assert placing == placing | {"to_move": "black", "result": None, "first_jare": "white"}
    won = ask(status, "a1 b1 a2 b3 a3 c3 a2-b2 c3-c2 b2-a2")
    assert won == won | {"to_move": None, "result": "white", "legal": []}
    assert won["termination"] == "three in a row"
    moving = ask(status, "a1 b1 c2 a2 b3 c3")
    assert moving["phase"] == "movement" and moving["to_move"] == "black"
    assert all("-" in a for a in moving["legal"])


def test_status_reports_a_bad_action_and_goes_on(status: subprocess.Popen[str]) -> None:
    bad = ask(status, "a1 a1")
    assert set(bad) == {"error", "index", "action"}
    assert bad["index"] == 1 and bad["action"] == "a1" and "already taken" in bad["error"]
    malformed = ask(status, "a1 zz9")
    assert malformed["index"] == 1 and "not" in malformed["error"]
    assert ask(status, "a1")["to_move"] == "black"


def test_status_reports_the_freeing_player_as_to_move() -> None:
    record = "d5 d7 a4 d1 f6 f4 e4 d3 g7 c3 e3 b4 e5 b2 c5 b6 a7 f2 d2 g4 c4 d6 a1 g1 xg1 xd2"
    out = subprocess.run(
        [sys.executable, "-m", "engine", "status", "--variant", "shax"],
        input=record + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    reply = json.loads(out.stdout)
    assert reply["to_move"] == "black" and reply["blocked"] == "white"
    assert reply["step"] == "free" and reply["first_jare"] == "white"
