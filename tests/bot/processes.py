"""``python -m bot`` started by the tests as another program, the way a user starts it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def bot_program(folder: Path, *args: str, **settings: str) -> subprocess.Popen[str]:
    """``python -m bot <args>`` running in ``folder`` (no .env file there), its input and
    output piped as text; its environment is the search paths and ``settings`` only."""
    return subprocess.Popen(
        [sys.executable, "-m", "bot", "--env-file", str(folder / "no.env"), *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=folder,
        env={
            "PYTHONPATH": str(ROOT),
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            **settings,
        },
    )
