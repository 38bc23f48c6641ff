"""Quick pairing, ratings and players' pages in the browser.

Two players press Play on the same game in two browsers and land in the same
room; the rated game they play to the end changes both player pages. A
waiting seek shows how long it has waited and can be cancelled; a pairing
found while the player is on another page of the site still takes them to
the game; the leaderboard ranks established ratings and explains an empty one.
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable
from typing import Any
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Page, expect

from .conftest import PASSWORD, LiveServer, Player, screenshot

pytestmark = pytest.mark.e2e

# Glicko-2 for two new players (1500 ± 350) after one game: the winner's and the loser's.
WINNER_AFTER, LOSER_AFTER = 1662, 1338


def room_id_of(page: Page) -> int:
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def press_play(player: Player, game: str, players: int | None = None) -> None:
    page = player.page
    if urlparse(page.url).path != "/":
        page.goto("/")
    quick = page.locator(f'.game-card[data-game="{game}"] .quick-play')
    if players is not None:
        quick.get_by_label("Players").select_option(str(players))
    quick.get_by_role("button", name="Play", exact=True).click()


def discs(page: Page) -> Any:
    return page.locator('#board [data-col][data-disc]:not([data-disc=""])')


class Api:
    """One player's REST client with their API token (no browser, no CSRF)."""

    def __init__(self, server: LiveServer, username: str) -> None:
        self.url = server.url
        self.token = ""
        self.token = self.call("POST", "/api/auth/login/", {"username": username, "password": PASSWORD})["token"]

    def call(self, method: str, path: str, body: Any = None) -> Any:
        request = urllib.request.Request(f"{self.url}{path}", method=method, headers={"Accept": "application/json"})
        if self.token:
            request.add_header("Authorization", f"Token {self.token}")
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, data=data, timeout=30) as response:
            return json.loads(response.read() or b"null")


def rated_connect_four(host: Api, guest: Api) -> None:
    """A rated game the host wins: four discs down column 1 against three in column 2."""
    room = host.call("POST", "/api/rooms/", {"game": "connect-four", "rated": True})
    match = guest.call("POST", f"/api/rooms/{room['id']}/join/")["match"]
    detail = host.call("GET", f"/api/matches/{match}/")
    for ply, column in enumerate("1212121"):
        mover = host if ply % 2 == 0 else guest
        detail = mover.call("POST", f"/api/matches/{match}/moves/", {"move": column, "version": detail["version"]})
    assert detail["status"] == "finished" and detail["result"]["ratings"]


def test_two_players_press_play_meet_in_one_room_and_their_rated_result_changes_both_pages(
    register: Callable[[str], Player], server: LiveServer
) -> None:
    alice, bob = register("alice"), register("bob")
    press_play(alice, "connect-four")
    panel = alice.page.locator("#seek-panel")
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("Looking for an opponent: Connect Four (rated)")
    expect(panel.locator(".seek-clock")).to_have_text(re.compile(r"^0:\d\d$"))
    play = alice.page.locator('.game-card[data-game="connect-four"] .quick-play button.play')
    expect(play).to_be_disabled()
    screenshot(alice.page, "e2e-seek-waiting")

    press_play(bob, "connect-four")
    for player in (alice, bob):
        player.page.wait_for_url(re.compile(r"/rooms/\d+/$"))
        expect(player.page.locator("#connection")).to_have_attribute("data-state", "live")
    room_id = room_id_of(alice.page)
    assert room_id_of(bob.page) == room_id, "the two players were sent to different rooms"
    expect(alice.page.locator("#seek-panel")).to_be_hidden()

    # A rated room, each seat with its player's rating, linked to their page.
    room = alice.page.request.get(f"/api/rooms/{room_id}/").json()
    match = alice.page.request.get(f"/api/matches/{room['match']}/").json()
    assert match["rated"] is True
    first, second = (alice, bob) if match["players"][0]["username"] == alice.username else (bob, alice)
    for player in (alice, bob):
        page = player.page
        expect(page.locator("#room-rated")).to_be_visible()
        expect(page.locator("#seats li").first).to_contain_text(f"{first.username} (1500)")
        expect(page.locator("#seats li").nth(1)).to_contain_text(f"{second.username} (1500)")
        expect(page.locator("#seats li").first.get_by_role("link", name=first.username)).to_have_attribute(
            "href", f"/players/{first.username}/"
        )

    # The first player drops four discs down column 1; the second three in column 2.
    for ply, column in enumerate("1212121", start=1):
        mover = first if ply % 2 == 1 else second
        expect(mover.page.locator("#turn")).to_have_attribute("data-my-turn", "yes")
        mover.page.locator(f'#board [data-col="{column}"][data-row="6"]').click()
        for player in (first, second):
            expect(discs(player.page)).to_have_count(ply)

    for player in (first, second):
        banner = player.page.locator("#banner")
        expect(banner).to_be_visible()
        winner = banner.locator(f'.rating-changes li[data-username="{first.username}"]')
        loser = banner.locator(f'.rating-changes li[data-username="{second.username}"]')
        expect(winner).to_contain_text(f"1500 → {WINNER_AFTER}?")
        expect(winner.locator(".change")).to_have_text(f"+{WINNER_AFTER - 1500}")
        expect(loser).to_contain_text(f"1500 → {LOSER_AFTER}?")
        expect(loser.locator(".change")).to_have_text(f"−{1500 - LOSER_AFTER}")
    expect(first.page.locator("#banner")).to_contain_text("You won")
    expect(second.page.locator("#banner")).to_contain_text(f"{first.username} won")
    screenshot(first.page, "e2e-rated-result")

    # Each player's page, reached from the site: the winner's own link in the top
    # bar, the loser's name clicked by the winner in the result.
    first.page.locator(".topbar .me").click()
    first.page.wait_for_url(re.compile(rf"/players/{first.username}/$"))
    expect_player_page(first.page, first.username, WINNER_AFTER, "win", "Won", f"+{WINNER_AFTER - 1500}", match["id"])
    screenshot(first.page, "e2e-player-page")
    second.page.locator(".topbar .me").click()
    expect_player_page(second.page, second.username, LOSER_AFTER, "loss", "Lost", f"−{1500 - LOSER_AFTER}", match["id"])
    first.page.go_back()
    first.page.locator(f'#banner .rating-changes li[data-username="{second.username}"] a').click()
    first.page.wait_for_url(re.compile(rf"/players/{second.username}/$"))
    expect_player_page(first.page, second.username, LOSER_AFTER, "loss", "Lost", f"−{1500 - LOSER_AFTER}", match["id"])

    # The game's replay link from the player's page.
    first.page.locator(f'#player-matches li[data-match="{match["id"]}"]').get_by_role("link", name="Replay").click()
    first.page.wait_for_url(re.compile(rf"/matches/{match['id']}/replay/$"))
    # Players in the replay carry the rating they started with.
    expect(first.page.locator("#seats li").first).to_contain_text(f"{first.username} (1500)")


def expect_player_page(page: Page, username: str, rating: int, record: str, outcome: str, change: str, match_id: int) -> None:
    page.wait_for_url(re.compile(rf"/players/{username}/$"))
    row = page.locator('#ratings tr[data-pool="connect-four"]')
    # Provisional after a single game: shown with a "?".
    expect(row.locator(".rating")).to_have_text(f"{rating}?")
    expect(row.locator(".games")).to_have_text("1")
    expect(row.locator(f".{record}")).to_have_text("1")
    # The rating history: the start, then the game.
    chart = page.locator('#charts figure[data-pool="connect-four"]')
    expect(chart.locator("circle")).to_have_count(2)
    assert chart.locator("circle").evaluate_all("points => points.map((p) => Number(p.dataset.rating))") == [1500, rating]
    game = page.locator(f'#player-matches li[data-match="{match_id}"]')
    expect(game).to_contain_text(outcome)
    expect(game.locator(".change")).to_have_text(change)
    expect(game.get_by_role("link", name="Replay")).to_have_attribute("href", f"/matches/{match_id}/replay/")


def test_a_player_cancels_a_waiting_seek_from_any_page(register: Callable[[str], Player]) -> None:
    alice = register("alice")
    page = alice.page
    # Quoridor is played by 2 or 4: the player chooses before pressing Play.
    press_play(alice, "quoridor", players=4)
    panel = page.locator("#seek-panel")
    expect(panel).to_contain_text("Looking for players: Quoridor, 4 players")
    clock = panel.locator(".seek-clock")
    expect(clock).to_have_text(re.compile(r"^0:0[1-9]$"))  # it counts the seconds waited
    play = page.locator('.game-card[data-game="quoridor"] .quick-play button.play')
    expect(play).to_have_text("Looking for players…")
    seek = page.request.get("/api/seeks/").json()["results"][0]
    assert (seek["status"], seek["pool"]) == ("waiting", "quoridor-4")

    # Elsewhere on the site the panel is still there, and its Cancel works.
    page.locator(".topbar").get_by_role("link", name="Leaderboard").click()
    page.wait_for_url(re.compile(r"/leaderboard/$"))
    expect(panel).to_contain_text("Quoridor, 4 players")
    panel.get_by_role("button", name="Cancel").click()
    expect(panel).to_be_hidden()
    seek = page.request.get(f"/api/seeks/{seek['id']}/").json()
    assert (seek["status"], seek["reason"]) == ("cancelled", "cancelled")

    page.goto("/")
    page.locator('.game-card[data-game="quoridor"] .quick-play').get_by_label("Players").select_option("4")
    expect(play).to_have_text("Play")
    expect(play).to_be_enabled()
    expect(panel).to_be_hidden()


def test_a_pairing_found_while_the_player_is_on_another_page_takes_them_to_the_game(
    register: Callable[[str], Player]
) -> None:
    alice, bob = register("alice"), register("bob")
    press_play(alice, "eskimo")
    expect(alice.page.locator("#seek-panel")).to_contain_text("Eskimo")
    # alice looks at her own page while she waits.
    alice.page.locator(".topbar .me").click()
    alice.page.wait_for_url(re.compile(rf"/players/{alice.username}/$"))
    expect(alice.page.locator("#seek-panel")).to_contain_text("Eskimo")

    press_play(bob, "eskimo")
    for player in (bob, alice):
        player.page.wait_for_url(re.compile(r"/rooms/\d+/$"))
        expect(player.page.locator("#room-title")).to_have_text(re.compile(r"^Eskimo"))
    assert room_id_of(alice.page) == room_id_of(bob.page)

    # alice resigns before she has made a move: a rated game nobody played is aborted, unrated.
    alice.page.once("dialog", lambda dialog: dialog.accept())
    alice.page.get_by_role("button", name="Resign").click()
    for player in (alice, bob):
        expect(player.page.locator("#room-status")).to_have_text("aborted")
        expect(player.page.locator("#banner")).to_contain_text(re.compile(r"^Aborted — .*unrated"))
        expect(player.page.locator("#banner .rating-changes")).to_have_count(0)
    profile = alice.page.request.get(f"/api/players/{alice.username}/").json()
    assert profile["ratings"]["eskimo"]["games"] == 0


def test_a_player_nobody_comes_for_plays_the_computer_instead(register: Callable[[str], Player]) -> None:
    alice = register("alice")
    page = alice.page
    # The page's clock is the test's: half a minute of waiting passes at once.
    page.clock.install()
    page.goto("/")
    press_play(alice, "connect-four")
    panel = page.locator("#seek-panel")
    expect(panel).to_contain_text("Connect Four")
    offer = panel.get_by_role("button", name="Play the computer instead")
    expect(offer).to_have_count(0)
    seek = page.request.get("/api/seeks/").json()["results"][0]
    page.clock.run_for("00:31")
    expect(panel.locator(".seek-clock")).to_have_text(re.compile(r"^0:3\d$"))
    offer.click()
    page.wait_for_url(re.compile(r"/rooms/\d+/$"))
    expect(page.locator("#seats li", has_text="AI (")).to_have_count(1)
    expect(page.locator("#room-status")).to_have_text("playing")
    assert page.request.get(f"/api/seeks/{seek['id']}/").json()["status"] == "cancelled"
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").click()
    expect(page.locator("#room-status")).to_have_text("game over")


def test_the_leaderboard_ranks_established_ratings_and_explains_an_empty_board(
    register: Callable[[str], Player], server: LiveServer
) -> None:
    carol, dave = register("carol"), register("dave")
    page = carol.page
    page.locator(".topbar").get_by_role("link", name="Leaderboard").click()
    page.wait_for_url(re.compile(r"/leaderboard/$"))
    tabs = page.get_by_role("navigation", name="Rating pools").get_by_role("link")
    expect(tabs).to_have_text(["Connect Four", "Manhattan", "Eskimo", "Quoridor, 2 players", "Quoridor, 4 players"])

    # Nobody plays rated four-player Manhattan here: its board is empty, and says why.
    tabs.filter(has_text="Manhattan").click()
    page.wait_for_url(re.compile(r"/leaderboard/manhattan/$"))
    expect(page.get_by_role("link", name="Manhattan")).to_have_attribute("aria-current", "page")
    empty = page.locator("#leaders-empty")
    expect(empty).to_be_visible()
    expect(empty).to_contain_text("No established ratings yet")
    expect(empty).to_contain_text("below 110")
    expect(page.locator("#leaders")).to_be_hidden()

    # carol and dave play rated games through the API, taking turns to win,
    # until both ratings are established.
    players = {carol.username: Api(server, carol.username), dave.username: Api(server, dave.username)}
    hosts = [carol.username, dave.username]
    for game in range(30):
        host, guest = hosts[game % 2], hosts[1 - game % 2]
        rated_connect_four(players[host], players[guest])
        profiles = [api.call("GET", f"/api/players/{name}/") for name, api in players.items()]
        if not any(profile["ratings"]["connect-four"]["provisional"] for profile in profiles):
            break
    else:
        pytest.fail("the ratings were still provisional after 30 games")

    tabs.filter(has_text="Connect Four").click()
    page.wait_for_url(re.compile(r"/leaderboard/connect-four/$"))
    board = page.locator("#leaders")
    expect(board).to_be_visible()
    expected = players[carol.username].call("GET", "/api/leaderboards/connect-four/")
    rows = board.locator("tbody tr")
    expect(rows).to_have_count(len(expected))
    for row, leader in zip(rows.all(), expected, strict=True):
        expect(row.locator("td").nth(0)).to_have_text(str(leader["rank"]))
        expect(row.locator("td").nth(1)).to_have_text(leader["name"])
        expect(row.locator("td").nth(2)).to_have_text(str(leader["rating"]))
        expect(row.locator("td").nth(3)).to_have_text(str(leader["games"]))
    for name in (carol.username, dave.username):
        expect(board.locator(f'tr[data-username="{name}"]')).to_have_count(1)
    screenshot(page, "e2e-leaderboard")
    board.locator(f'tr[data-username="{dave.username}"]').get_by_role("link", name=dave.username).click()
    page.wait_for_url(re.compile(rf"/players/{dave.username}/$"))
    # Established now: no "?" after the rating.
    expect(page.locator('#ratings tr[data-pool="connect-four"] .rating')).to_have_text(re.compile(r"^\d+$"))
