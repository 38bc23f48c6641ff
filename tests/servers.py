"""Real servers for tests: server processes started as `make run` starts them."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def wait_until(check: Any, timeout: float = 15.0) -> Any:
    """Poll ``check`` until it gives something true, and return that; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError("condition not met in time")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve_command(port: int, workers: int = 1) -> list[str]:
    """The command `make run` serves the site with, on ``port``."""
    return [sys.executable, "manage.py", "serve", "--port", str(port), "--workers", str(workers)]


def server_env(**overrides: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update({"DEBUG": "1", "PYTHONUNBUFFERED": "1", "DJANGO_SETTINGS_MODULE": "config.settings", "SCHEDULER": "on"})
    env.update(overrides)
    return env


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True)


def fresh_sqlite_env(name: str, **overrides: str) -> dict[str, str]:
    """A server's environment on a new, migrated SQLite file of its own (``name``.sqlite3)."""
    env = server_env(DATABASE_URL=f"sqlite:///{tempfile.mkdtemp()}/{name}.sqlite3", **overrides)
    manage(env, "migrate", "--noinput")
    return env


class Server:
    """One server process on a free port; restartable on the same database."""

    def __init__(self, env: dict[str, str], port: int | None = None, workers: int = 1) -> None:
        self.env = env
        self.workers = workers
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.log = Path(os.environ.get("TMPDIR", "/tmp")) / f"server-{self.port}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> Server:
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                serve_command(self.port, self.workers),
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: see {self.log}")
            try:
                urllib.request.urlopen(f"{self.url}/api/games/", timeout=1).read()
                return self
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"the server did not answer within {timeout}s: see {self.log}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def worker_pids(self) -> list[int]:
        """The processes answering requests: the server itself, or with workers its server children."""
        assert self.process is not None
        if self.workers == 1:
            return [self.process.pid]
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()
        return [int(pid) for pid in children if "spawn_main" in Path(f"/proc/{pid}/cmdline").read_text()]

    def worker_of(self, client_port: int) -> int | None:
        """Which of the worker processes holds the connection made from ``client_port`` (from /proc)."""
        inodes: set[str] = set()
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                local, remote = int(fields[1].rsplit(":", 1)[1], 16), int(fields[2].rsplit(":", 1)[1], 16)
                if local == self.port and remote == client_port:
                    inodes.add(fields[9])
        for pid in self.worker_pids():
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                try:
                    target = os.readlink(fd)
                except OSError:
                    continue
                if target.startswith("socket:[") and target[8:-1] in inodes:
                    return pid
        return None

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()
