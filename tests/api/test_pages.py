"""Pages load each game's board script, and its stylesheet where it has one; the
lobby, leaderboard, player and how-to-play pages answer (their content comes
from the API through their scripts, tested in tests/e2e)."""

from __future__ import annotations

from typing import Any

import json
import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from frontend import catalogue
from frontend.templatetags.boards import board_assets
from games.engines.registry import ENGINES
from games.pools import all_pools
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
    # Every board of the five has a stylesheet now (Connect Four's left site.css):
    # a game without one gets its script alone.
    assert board_assets("a-game-without-css") == '<script src="/static/boards/a-game-without-css.js"></script>'


def test_pages_need_a_login() -> None:
    response = Client().get("/")
    assert response.status_code == 302 and response["Location"].startswith("/login/")


def logged_in(player: Player) -> Any:
    browser: Any = Client()
    browser.force_login(player.user)
    return browser


def test_connect_fours_board_css_comes_with_its_board_not_with_every_page(alice: Player) -> None:
    browser = logged_in(alice)
    c4 = alice.post("/api/rooms/", {"game": "connect-four"}).json()
    assert '/static/boards/connect-four.css"' in browser.get(f"/rooms/{c4['id']}/").content.decode()
    site_css = finders.find("frontend/site.css")
    assert site_css and ".c4-" not in open(site_css).read()


@pytest.mark.parametrize("url", ["/", "/settings/", "/leaderboard/", "/players/alice/"])
def test_pages_without_a_board_load_no_board_stylesheet(alice: Player, url: str) -> None:
    page = logged_in(alice).get(url).content.decode()
    assert not re.search(r'/static/boards/[^"]+\.css', page)


def test_the_lobby_is_driven_by_the_catalogue_and_names_no_game(alice: Player) -> None:
    page = logged_in(alice).get("/").content.decode()
    # Only the data the script is given (pools, pictures) names games; the lobby's markup names none.
    main = page[page.index("<main>"):page.index("</main>")]
    markup = re.sub(r'<script id="\w+" type="application/json">.*?</script>', "", main)
    for engine in ENGINES.values():
        assert engine.name not in markup, f"the lobby's HTML names {engine.name}: its cards come from GET /api/games/"
    pools = json.loads(re.search(r'<script id="pools" type="application/json">(.*?)</script>', page).group(1))
    assert {entry["pool"]: (entry["game"], entry["players"]) for entry in pools} == all_pools()
    pictures = json.loads(re.search(r'<script id="pictures" type="application/json">(.*?)</script>', page).group(1))
    assert pictures == {slug: f"/static/boards/{slug}.svg" for slug in ENGINES}
    lobby_js = finders.find("frontend/lobby.js")
    assert lobby_js
    script = open(lobby_js).read()
    for engine in ENGINES.values():
        assert engine.slug not in script and engine.name not in script


def test_pool_labels_name_the_seat_count_only_where_a_game_has_several_pools() -> None:
    labels = {entry["pool"]: entry["label"] for entry in catalogue.pools()}
    assert labels["connect-four"] == "Connect Four"
    assert labels["quoridor"] == "Quoridor, 2 players"
    assert labels["quoridor-4"] == "Quoridor, 4 players"


def test_every_page_of_a_logged_in_player_opens_their_own_socket(alice: Player) -> None:
    assert '<script src="/static/frontend/me.js"></script>' in logged_in(alice).get("/settings/").content.decode()
    assert "me.js" not in Client().get("/login/").content.decode()


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_every_game_has_a_how_to_play_page_that_says_how_to_win(db: Any, slug: str) -> None:
    response = Client().get(f"/games/{slug}/rules/")
    assert response.status_code == 200
    page = response.content.decode()
    assert f"How to play {ENGINES[slug].name}" in page
    assert "How to win" in page
    assert catalogue.rules_template(slug) == f"frontend/rules/{slug}.html"


def test_a_game_without_a_written_rules_page_shows_its_engines_statement_of_the_rules(
    db: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(catalogue, "rules_template", lambda slug: None)
    page = Client().get("/games/eskimo/rules/").content.decode()
    assert 'id="engine-rules"' in page
    assert "two players and a polar bear on a 5x5 ice floe" in page


def test_an_unknown_game_has_no_rules_page(db: Any) -> None:
    assert Client().get("/games/chess/rules/").status_code == 404


def test_the_leaderboard_has_a_tab_per_pool_and_knows_no_other(alice: Player) -> None:
    browser = logged_in(alice)
    page = browser.get("/leaderboard/").content.decode()
    for pool in all_pools():
        assert f'href="/leaderboard/{pool}/"' in page
    first = next(iter(all_pools()))
    assert f'data-pool="{first}"' in page
    assert 'data-pool="quoridor-4"' in browser.get("/leaderboard/quoridor-4/").content.decode()
    assert browser.get("/leaderboard/sokoban/").status_code == 404


def test_a_player_page_is_found_by_username_in_any_case(alice: Player, bob: Player) -> None:
    browser = logged_in(bob)
    response = browser.get("/players/ALICE/")
    assert response.status_code == 200
    assert 'data-username="alice"' in response.content.decode()
    assert browser.get("/players/nobody/").status_code == 404


@pytest.mark.parametrize("url", ["/leaderboard/", "/players/alice/"])
def test_leaderboards_and_player_pages_need_a_login(alice: Player, url: str) -> None:
    response = Client().get(url)
    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_the_favicon_answers_at_favicon_ico_without_a_login() -> None:
    browser = Client()
    response = browser.get("/favicon.ico")
    assert response.status_code == 302 and response["Location"] == "/static/frontend/favicon.svg"
    icon = browser.get(response["Location"])
    assert icon.status_code == 200 and icon["Content-Type"].startswith("image/svg+xml")
    assert b"<svg" in b"".join(icon.streaming_content) if icon.streaming else b"<svg" in icon.content
