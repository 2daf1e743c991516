"""A throwaway PostgreSQL server for the tests, started from the machine's own binaries.

It listens only on a Unix socket in its own temporary folder, trusts local connections
and keeps nothing (``fsync=off``); it is stopped and removed at the end of the session.
PostgreSQL refuses to run as root, so under root the server runs as an unprivileged
user (``postgres`` when there is one, else ``nobody``).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

PORT = 5432  # the socket lives in a private folder, so the usual port never collides
USER = "shax"


def find_binaries() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``: on PATH, or Debian's versioned one."""
    on_path = shutil.which("initdb")
    candidates = [os.path.dirname(on_path)] if on_path else []
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for folder in candidates:
        if all(os.access(os.path.join(folder, tool), os.X_OK) for tool in ("initdb", "pg_ctl")):
            return Path(folder)
    return None


def server_user() -> str | None:
    """Who runs the server: this process's user, unless that is root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return name
    raise RuntimeError("running as root and no unprivileged user to run PostgreSQL as")


@dataclass
class PostgresServer:
    binaries: Path
    folder: Path
    user: str | None

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@/{database}?host={self.folder}&port={PORT}"

    def _run(self, *args: str) -> None:
        done = subprocess.run(
            args, user=self.user, capture_output=True, text=True, check=False, timeout=120
        )
        if done.returncode != 0:
            log = self.folder / "server.log"
            tail = log.read_text()[-2000:] if log.exists() else ""
            raise RuntimeError(f"{args[0]} failed: {done.stdout}{done.stderr}{tail}")

    def start(self) -> None:
        self._run(
            str(self.binaries / "initdb"),
            "-D",
            str(self.data),
            "-U",
            USER,
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",
        )
        options = (
            f"-k {self.folder} -p {PORT} -c listen_addresses='' -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off"
        )
        self._run(
            str(self.binaries / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.folder / "server.log"),
            "-w",
            "start",
        )

    def stop(self) -> None:
        subprocess.run(
            [str(self.binaries / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"],
            user=self.user,
            capture_output=True,
            check=False,
            timeout=60,
        )
        shutil.rmtree(self.folder, ignore_errors=True)


def start_server(binaries: Path) -> PostgresServer:
    user = server_user()
    folder = Path(tempfile.mkdtemp(prefix="shax-pg-"))
    if user is not None:
        entry = pwd.getpwnam(user)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    os.chmod(folder, 0o755)
    server = PostgresServer(binaries, folder, user)
    try:
        server.start()
    except BaseException:
        server.stop()
        raise
    return server
