"""Browser tests: a real server, the way `make run` serves the site, driven by Chromium.

The server is a subprocess with its own SQLite file (migrated first), DEBUG on
and the in-memory channel layer, so these tests never touch pytest-django's
test database. ``server.restart()`` stops it and starts it again on the same
port and database, which is how a test proves a game survives a restart.

Playwright's sync API marks its own event loop as the running loop of this
thread between calls (playwright/_impl/_greenlets.py, ``wait_for_future``).
While it is alive, Django would refuse ORM calls here (SynchronousOnlyOperation)
and pytest-asyncio could not run its loops, so Playwright lives only as long as
one e2e module (module scope) and is stopped before the next module's tests,
async ones included, run. Tests here are sync and use no database fixture.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Error as PlaywrightError, Locator, Page, expect, sync_playwright

from tests.servers import serve_command

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PASSWORD = "secret-pass"
# Two shared cores: a push, a page load or a reconnect can take a few seconds
# when the machine is busy. expect() polls, so a generous ceiling costs nothing
# when things are fast.
TIMEOUT_MS = 10_000
START_TIMEOUT_S = 30.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class LiveServer:
    """The site served as `make run` serves it, on 127.0.0.1:<port>, with a SQLite file of its own."""

    def __init__(self, database: Path, log_path: Path) -> None:
        self.database = database
        self.log_path = log_path
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.env = {key: value for key, value in os.environ.items() if key != "REDIS_URL"}
        self.env.update(
            DATABASE_URL=f"sqlite:///{database}",
            DEBUG="1",
            DJANGO_SETTINGS_MODULE="config.settings",
            PYTHONUNBUFFERED="1",
            # As under `make run`: this process plays AI seats and runs turn
            # timers (tests/conftest.py turns the scheduler off for in-process tests).
            SCHEDULER="on",
        )

    def migrate(self) -> None:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "--verbosity", "0"],
            cwd=REPO, env=self.env, check=True, timeout=120,
        )

    def start(self) -> None:
        assert self.process is None, "the server is already running"
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                serve_command(self.port),
                cwd=REPO, env=self.env, stdout=log, stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.process = None
                pytest.fail(f"the server exited while starting; its log:\n{self.log()}")
            if self.answers():
                return
            time.sleep(0.1)
        self.stop()
        pytest.fail(f"the server did not answer within {START_TIMEOUT_S:.0f} s; its log:\n{self.log()}")

    def answers(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/login/", timeout=2) as response:
                return bool(response.status == 200)
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return False

    def stop(self) -> None:
        if self.process is None:
            return
        # SIGTERM is what a process manager sends; the server closes its sockets
        # and exits. SIGKILL only if it hangs.
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=5)
        self.process = None

    def restart(self) -> None:
        """Stop and start again: same port, same database, a fresh (empty) channel layer."""
        self.stop()
        self.start()

    def orm(self, code: str) -> str:
        """Run ``code`` with Django set up on the server's database (``manage.py shell -c``) and
        return what it printed: how a test sets what a browser cannot, such as a player last
        seen minutes ago. The ORM is not used in this process (see the module's docstring)."""
        done = subprocess.run(
            [sys.executable, "manage.py", "shell", "--no-startup", "-c", code],
            cwd=REPO, env=self.env, capture_output=True, text=True, timeout=60,
        )
        assert done.returncode == 0, f"manage.py shell failed:\n{done.stderr[-3000:]}"
        return done.stdout

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-8000:]
        except OSError:
            return "(no log)"


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("e2e-server")
    live = LiveServer(folder / "db.sqlite3", folder / "server.log")
    live.migrate()
    live.start()
    try:
        yield live
    finally:
        live.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()
    # The loop Playwright marked as running must be gone before any other
    # module's test (Django ORM, pytest-asyncio) runs in this thread.
    assert asyncio._get_running_loop() is None, "Playwright left its event loop marked as running"


def screenshot(page: Page, name: str) -> None:
    """Save what the player sees as $E2E_SCREENSHOTS/<name>.png, when that folder is given."""
    folder = os.environ.get("E2E_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


@dataclass
class Player:
    """One person: a browser context of their own (own cookies), one page, a username."""

    username: str
    context: BrowserContext
    page: Page
    errors: list[str] = field(default_factory=list)


_names = itertools.count(1)


@pytest.fixture
def register(browser: Browser, server: LiveServer) -> Iterator[Callable[[str], Player]]:
    """register("alice") -> a Player who signed up through /register/ and landed in the lobby."""
    expect.set_options(timeout=TIMEOUT_MS)
    players: list[Player] = []

    def sign_up(name: str) -> Player:
        # The server's database lives for the whole session: every test gets new people.
        username = f"{name}{next(_names)}"
        context = browser.new_context(base_url=server.url, viewport={"width": 1200, "height": 820})
        context.set_default_timeout(TIMEOUT_MS)
        page = context.new_page()
        player = Player(username, context, page)
        # An uncaught exception or unhandled rejection in our JS fails the test.
        page.on("pageerror", lambda error: player.errors.append(str(error)))
        players.append(player)
        page.goto("/register/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Register").click()
        page.wait_for_url(f"{server.url}/")
        expect(page.locator(".topbar .me")).to_have_text(username)
        return player

    yield sign_up
    for player in players:
        try:
            player.context.close()
        except PlaywrightError:
            pass
    errors = [f"{p.username}: {e}" for p in players for e in p.errors]
    assert not errors, "JavaScript errors on the pages:\n" + "\n".join(errors)


@pytest.fixture(autouse=True)
def server_log_stays_clean(server: LiveServer) -> Iterator[None]:
    """A test fails if the server logged a traceback or answered 500 while it ran."""
    start = server.log_path.stat().st_size if server.log_path.exists() else 0
    yield
    with server.log_path.open("rb") as log:
        log.seek(start)
        written = log.read().decode(errors="replace")
    problems = [line for line in written.splitlines() if "Traceback" in line or '" 500 ' in line]
    assert not problems, "the server failed while the test ran:\n" + written[-6000:]


def lobby_action(page: Page, game: str, action: str) -> Locator:
    """Open one action of a game's card in the lobby and return it.

    ``action`` is ``computer`` (play the computer), ``create`` (create a room)
    or ``join`` (join a room: its open rooms and the code field). The page
    must be on the lobby.
    """
    panel = page.locator(f'.game-card[data-game="{game}"] details.action.{action}')
    expect(panel).to_have_count(1)
    if panel.get_attribute("open") is None:
        panel.locator("summary").click()
    expect(panel).to_have_attribute("open", "")
    return panel
