"""The cast: alice and bob play, carol watches, dave is an outsider."""

from __future__ import annotations

import os
from typing import Any

import pytest

# Tests drive the scheduler by hand (Scheduler().tick()); a background thread
# polling the test database would race them. Real servers in tests turn it on.
os.environ.setdefault("SCHEDULER", "off")
# Every push must leave after its transaction commits: in tests one made
# inside a transaction fails the test (servers started by tests inherit it).
os.environ.setdefault("STRICT_PUSHES", "1")
# Tests register, log in and move far faster than people: the limits are off
# (servers started by tests inherit it) but in the tests of the limits themselves.
os.environ.setdefault("THROTTLE", "off")

from django.conf import settings  # noqa: E402

# pytest-django has read the settings before this file: set it on them too.
settings.STRICT_PUSHES = True
settings.THROTTLE_ENABLED = False
from rest_framework.test import APIClient


def using_postgres() -> bool:
    return os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))


def using_redis() -> bool:
    return bool(os.environ.get("REDIS_URL"))


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    # The PostgreSQL and Redis tests run in .ci/run's second round, which
    # sets DATABASE_URL and REDIS_URL and checks both servers answer first.
    for item in items:
        if "postgres" in item.keywords and not using_postgres():
            item.add_marker(pytest.mark.skip(reason="needs DATABASE_URL=postgres://... (the CI round)"))
        if "redis" in item.keywords and not using_redis():
            item.add_marker(pytest.mark.skip(reason="needs REDIS_URL (the CI round)"))


class Player:
    """A user with an authenticated API client."""

    def __init__(self, user: Any) -> None:
        self.user = user
        from accounts.models import ApiToken

        self.token = ApiToken.objects.create(user=user, key=ApiToken.new_key(), name="tests").key
        self.client = APIClient()
        self.client.credentials(HTTP_AUTHORIZATION=f"Token {self.token}")

    @property
    def username(self) -> str:
        return str(self.user.username)

    def get(self, url: str, **kwargs: Any) -> Any:
        return self.client.get(url, **kwargs)

    def post(self, url: str, data: Any = None, **kwargs: Any) -> Any:
        return self.client.post(url, data, format="json", **kwargs)


def make_player(username: str) -> Player:
    from accounts.models import User

    return Player(User.objects.create_user(username=username, password="secret-pass"))


@pytest.fixture
def alice(db: Any) -> Player:
    return make_player("alice")


@pytest.fixture
def bob(db: Any) -> Player:
    return make_player("bob")


@pytest.fixture
def carol(db: Any) -> Player:
    return make_player("carol")


@pytest.fixture
def dave(db: Any) -> Player:
    return make_player("dave")


@pytest.fixture
def anonymous(db: Any) -> APIClient:
    return APIClient()


def start_match(host: Player, guest: Player, game: str = "connect-four", options: Any = None) -> dict[str, Any]:
    """A room of ``game`` created by host and joined by guest; returns the match detail."""
    response = host.post("/api/rooms/", {"game": game, "options": options or {}})
    assert response.status_code == 201, response.json()
    room = response.json()
    response = guest.post(f"/api/rooms/{room['id']}/join/")
    assert response.status_code == 200, response.json()
    match_id = response.json()["match"]
    return dict(host.get(f"/api/matches/{match_id}/").json())


def play(player: Player, match: dict[str, Any], move: str) -> Any:
    return player.post(f"/api/matches/{match['id']}/moves/", {"move": move, "version": match["version"]})


@pytest.fixture
def c4_match(alice: Player, bob: Player) -> dict[str, Any]:
    return start_match(alice, bob)


@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    # PBKDF2 with its real iteration count costs most of a test's time here.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
