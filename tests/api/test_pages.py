"""Pages load each game's board script, and its stylesheet where it has one."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.engines.registry import ENGINES
from tests.conftest import Player

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_every_game_has_a_board_script_on_its_room_page(alice: Player, slug: str) -> None:
    room = alice.post("/api/rooms/", {"game": slug}).json()
    browser = Client()
    browser.force_login(alice.user)
    page = browser.get(f"/rooms/{room['id']}/").content.decode()
    assert f'<script src="/static/boards/{slug}.js"></script>' in page
    assert browser.get(f"/static/boards/{slug}.js").status_code == 200


def test_a_board_stylesheet_is_linked_only_when_it_exists(alice: Player) -> None:
    browser: Any = Client()
    browser.force_login(alice.user)
    quoridor = alice.post("/api/rooms/", {"game": "quoridor"}).json()
    assert '/static/boards/quoridor.css"' in browser.get(f"/rooms/{quoridor['id']}/").content.decode()
    c4 = alice.post("/api/rooms/", {"game": "connect-four"}).json()
    assert "connect-four.css" not in browser.get(f"/rooms/{c4['id']}/").content.decode()


def test_pages_need_a_login() -> None:
    response = Client().get("/")
    assert response.status_code == 302 and response["Location"].startswith("/login/")
