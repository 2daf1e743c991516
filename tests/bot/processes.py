"""``python -m bot`` started by the tests as another program, the way a user starts it."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import IO

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


async def bot_subprocess(
    folder: Path, env: dict[str, str], output: int | IO[bytes]
) -> asyncio.subprocess.Process:
    """``python -m bot`` from the repository with the environment ``env`` and the .env file
    of ``folder`` (never a developer's: there is none), nothing on its input, its output
    and errors to ``output`` (a file, or :data:`asyncio.subprocess.PIPE`)."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "--env-file",
        str(folder / "no.env"),
        cwd=ROOT,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=output,
        stderr=output,
    )
