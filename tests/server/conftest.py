"""Throwaway PostgreSQL and Redis servers for the server's tests, and the ``database``
fixture that runs a test on SQLite and again on PostgreSQL with Redis (as the
:class:`~backgammon.server.Settings` that name them: a test adds its own with
``dataclasses.replace``).

Each is started once per test session on a free loopback port, its files in a temporary
folder, and stopped at the end: PostgreSQL as a cluster of its own (``initdb``, ``pg_ctl``;
run as the ``postgres`` user when the tests run as root, which PostgreSQL refuses), with a
fresh database for each test; Redis with nothing kept on disk. Where either cannot start
(not installed: Debian's ``postgresql`` and ``redis-server``), the tests that need it are
skipped, saying why.
"""

from __future__ import annotations

import glob
import http.client
import itertools
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import backgammon
from backgammon.server import Settings
from backgammon.server.settings import sqlite_url

#: A guard against a hang, never a measure.
PATIENCE = 60.0
#: The same for a server process: none comes near it on an idle machine, but one that starts
#: while the compiled kernel's cache is written, on a loaded CI machine, may take a minute.
SERVER_PATIENCE = 300.0

_numbers = itertools.count()


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def _program(name: str) -> str | None:
    """PostgreSQL's or Redis's program ``name``: on the PATH, or where Debian puts it."""
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return versions[-1] if versions else None


@dataclass
class Postgres:
    """A running cluster; :meth:`new_database` gives each test a database of its own."""

    port: int
    folder: Path
    as_user: list[str]
    pg_ctl: str

    def url(self, database: str = "postgres") -> str:
        """The SQLAlchemy URL of ``database`` in the cluster."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A new, empty database's URL."""
        import psycopg

        name = f"test_{os.getpid()}_{next(_numbers)}"
        with psycopg.connect(self.url(), autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        subprocess.run(
            [*self.as_user, self.pg_ctl, "-D", str(self.folder / "data"), "-m", "immediate",
             "stop"], capture_output=True, timeout=PATIENCE, check=False,
        )


def _start_postgres(folder: Path) -> Postgres:
    """Start a cluster in ``folder``; pytest.skip, saying why, where it cannot start."""
    pytest.importorskip("psycopg", reason="psycopg (the server extra) is not installed")
    initdb, pg_ctl = _program("initdb"), _program("pg_ctl")
    if initdb is None or pg_ctl is None:
        pytest.skip("PostgreSQL is not installed (Debian: apt-get install postgresql)")
    as_user: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL will not run as root
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("PostgreSQL refuses root, and there is no postgres user to run it as")
        runuser = shutil.which("runuser")
        if runuser is None:
            pytest.skip("PostgreSQL refuses root, and there is no runuser to run it as postgres")
        as_user = [runuser, "-u", "postgres", "--"]
        os.chown(folder, owner.pw_uid, owner.pw_gid)
    port = free_port()
    steps = [
        [initdb, "-D", str(folder / "data"), "-U", "postgres", "--auth=trust", "-E", "UTF8",
         "--no-sync"],
        [pg_ctl, "-D", str(folder / "data"), "-l", str(folder / "log"), "-w", "-t", "60",
         "-o", f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c max_connections=300",
         "start"],
    ]
    for step in steps:
        done = subprocess.run([*as_user, *step], capture_output=True, text=True,
                              timeout=PATIENCE, check=False)
        if done.returncode != 0:
            pytest.skip(f"PostgreSQL could not start: {Path(step[0]).name} said "
                        f"{(done.stderr or done.stdout).strip()[:300]}")
    return Postgres(port, folder, as_user, pg_ctl)


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """A PostgreSQL cluster for the session (skipped where it cannot start). Its folder is
    not under pytest's, which only root may enter."""
    folder = Path(tempfile.mkdtemp(prefix="backgammon-postgres-"))
    try:
        cluster = _start_postgres(folder)
        try:
            yield cluster
        finally:
            cluster.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Redis server's URL for the session (skipped where it cannot start)."""
    pytest.importorskip("redis", reason="redis-py (the server extra) is not installed")
    program = _program("redis-server")
    if program is None:
        pytest.skip("Redis is not installed (Debian: apt-get install redis-server)")
    folder = tmp_path_factory.mktemp("redis")
    port = free_port()
    server = subprocess.Popen(
        [program, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
         "no", "--dir", str(folder)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + PATIENCE
        while True:  # up once it answers
            if server.poll() is not None:
                pytest.skip(f"Redis could not start (it exited with status {server.returncode})")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=PATIENCE) as probe:
                    probe.sendall(b"PING\r\n")
                    if probe.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.skip("Redis did not answer")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.kill()
        server.wait(PATIENCE)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    """The test's database, as the settings that name it: an SQLite file (the embedded
    default), then a new PostgreSQL database with Redis (the set-up of several processes)."""
    if request.param == "sqlite":
        return Settings(sqlite_url(tmp_path / "games.sqlite"))
    cluster: Postgres = request.getfixturevalue("postgres")
    return Settings(cluster.new_database(), redis_url=request.getfixturevalue("redis_url"))


class ServerProcess:
    """``uvicorn backgammon.server:create_app`` as a child process, serving the database the
    settings name on a loopback socket that the test holds, so that it can be killed and
    started again on the same port (requests meanwhile wait in the socket's backlog)."""

    def __init__(self, database: Settings, **environ: str) -> None:
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(128)
        self.port: int = self.listener.getsockname()[1]
        self.env = {
            **os.environ,
            "PYTHONPATH": str(Path(backgammon.__file__).parents[1]),
            "BACKGAMMON_DATABASE_URL": database.database_url,
            "BACKGAMMON_COMPUTER_PAUSE": "0.02",
            "BACKGAMMON_ACTION_RATE": "none",
            "BACKGAMMON_CREATE_RATE": "none",
            **({"BACKGAMMON_REDIS_URL": database.redis_url} if database.redis_url else {}),
            **environ,
        }
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the server and wait until it answers."""
        fd = self.listener.fileno()
        command = [sys.executable, "-m", "uvicorn", "--factory",
                   "backgammon.server:create_app", "--fd", str(fd), "--log-level", "warning",
                   "--http", "backgammon.server.protocol:TimedHttp"]
        self.process = subprocess.Popen(command, env=self.env, pass_fds=(fd,))
        deadline = time.monotonic() + SERVER_PATIENCE
        while True:  # up once it answers (an unknown match: 404)
            assert time.monotonic() < deadline, "the server did not start"
            assert self.process.poll() is None, "the server exited"
            try:
                self.request("GET", "/api/matches/none")
                return
            except (OSError, http.client.HTTPException):
                continue

    def kill(self) -> None:
        """SIGKILL: the process ends at once, whatever it was doing."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(SERVER_PATIENCE)

    def close(self) -> None:
        self.kill()
        self.listener.close()

    def request(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        """The status and JSON answer of a request (a connection of its own), with a match's
        seat ``token`` if given."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port,
                                                timeout=SERVER_PATIENCE)
        try:
            data = None if body is None else json.dumps(body)
            headers = {"Content-Type": "application/json"} if body is not None else {}
            if token is not None:
                headers["Authorization"] = f"Bearer {token}"
            connection.request(method, path, data, headers)
            response = connection.getresponse()
            return response.status, json.loads(response.read() or b"null")
        finally:
            connection.close()

    def send_unanswered(self, path: str, body: Any) -> None:
        """Send a request and leave before its answer."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port,
                                                timeout=SERVER_PATIENCE)
        connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        connection.sock.shutdown(socket.SHUT_WR)  # type: ignore[union-attr]

    def state(self, match_id: str) -> dict[str, Any]:
        status, state = self.request("GET", f"/api/matches/{match_id}")
        assert status == 200, state
        return dict(state)


@pytest.fixture
def launch() -> Iterator[Callable[..., ServerProcess]]:
    """Start server processes (``launch(database, **environ)``), all killed at the end."""
    started: list[ServerProcess] = []

    def start(database: Settings, **environ: str) -> ServerProcess:
        server = ServerProcess(database, **environ)
        started.append(server)
        server.start()
        return server

    try:
        yield start
    finally:
        for server in started:
            server.close()
