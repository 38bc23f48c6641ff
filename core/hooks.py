"""The hooks an app plugs into, registered from its AppConfig.ready().

The platform calls them without knowing which app is behind them:

- ``every(seconds, job)``: a background job the scheduler runs that often
  (pairing seeks, expiring stale solves);
- ``on_presence(callback)``: called with a user id while that user has a
  socket open (on connect, then every PRESENCE_SECONDS), so an app can tell
  who is still there;
- ``on_greeting(callback)``: called with a user id when their personal socket
  (/ws/me/) opens; returns messages to send it first (their open seeks);
- ``background(name, run_forever, run_once)``: a worker of the app's own that
  runs in a thread of every scheduling process (Sokoban's solves), or once
  for ``manage.py run_scheduler --once``;
- ``api_urls(prefix, module)``: the app's API endpoints under /api/<prefix>;
- ``page_urls(prefix, module)``: the app's pages under /<prefix>;
- ``nav_link(label, url_name)``: a link in the site's top bar;
- ``game_page(slug, url_name)``: a game's own page, where a player goes on
  leaving a game they play alone.

Registrations are plain lists filled once at start-up; the callbacks must be
safe to call from any thread and do their own transactions.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

PRESENCE_SECONDS = 20.0


@dataclass
class Periodic:
    seconds: float
    job: Callable[[], Any]
    due: float = field(default=0.0)


@dataclass(frozen=True)
class Background:
    name: str
    run_forever: Callable[[Any], None]  # given a threading.Event that stops it
    run_once: Callable[[], int]  # returns how much it did


PERIODIC: list[Periodic] = []
BACKGROUND: list[Background] = []
API_URLS: list[tuple[str, str]] = []
PAGE_URLS: list[tuple[str, str]] = []
NAV_LINKS: list[tuple[str, str]] = []
GAME_PAGES: dict[str, str] = {}
PRESENCE: list[Callable[[int], None]] = []
GREETINGS: list[Callable[[int], list[dict[str, Any]]]] = []


def every(seconds: float, job: Callable[[], Any]) -> None:
    PERIODIC.append(Periodic(seconds, job))


def background(name: str, run_forever: Callable[[Any], None], run_once: Callable[[], int]) -> None:
    BACKGROUND.append(Background(name, run_forever, run_once))


def api_urls(prefix: str, module: str) -> None:
    API_URLS.append((prefix, module))


def page_urls(prefix: str, module: str) -> None:
    PAGE_URLS.append((prefix, module))


def nav_link(label: str, url_name: str) -> None:
    NAV_LINKS.append((label, url_name))


def game_page(slug: str, url_name: str) -> None:
    GAME_PAGES[slug] = url_name


def on_presence(callback: Callable[[int], None]) -> None:
    PRESENCE.append(callback)


def on_greeting(callback: Callable[[int], list[dict[str, Any]]]) -> None:
    GREETINGS.append(callback)


def due_jobs(now: float | None = None) -> list[Callable[[], Any]]:
    """The periodic jobs whose time has come; each is then due again after its period."""
    now = time.monotonic() if now is None else now
    jobs = []
    for periodic in PERIODIC:
        if now >= periodic.due:
            periodic.due = now + periodic.seconds
            jobs.append(periodic.job)
    return jobs


def present(user_id: int) -> None:
    for callback in PRESENCE:
        callback(user_id)


def greetings(user_id: int) -> list[dict[str, Any]]:
    return [message for callback in GREETINGS for message in callback(user_id)]
