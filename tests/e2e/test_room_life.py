"""A room as players meet it (issue #11), in browsers against a real server: rematch
offers declined or lapsing when someone leaves, claiming against a player who went
away, seats whose person left, spectators and how many watch, and a page that stops
reconnecting to a room that is gone or a session that ended."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import LiveServer, Player, screenshot

pytestmark = pytest.mark.e2e


def cell(page: Page, column: int, row: int) -> Any:
    return page.locator(f'#board [data-col="{column}"][data-row="{row}"]')


def api(page: Page, method: str, url: str, body: Any = None) -> Any:
    """A call made by the page itself (its session and CSRF token), for setting up a table quickly."""
    return page.evaluate("([method, url, body]) => App.api(method, url, body === null ? undefined : body)",
                         [method, url, body])


def open_room(player: Player, room_id: int) -> None:
    player.page.goto(f"/rooms/{room_id}/")
    expect(player.page.locator("#connection")).to_have_attribute("data-state", "live")


def table(host: Player, guest: Player, game: str = "connect-four", **options: Any) -> dict[str, Any]:
    """host creates a room of ``game``, guest takes the other seat; both pages are in the room."""
    room = api(host.page, "POST", "/api/rooms/", {"game": game, "options": options})
    open_room(host, room["id"])
    open_room(guest, room["id"])
    guest.page.get_by_role("button", name="Take a seat").click()
    for player in (host, guest):
        expect(player.page.locator("#room-status")).to_have_text("playing")
    return dict(api(host.page, "GET", f"/api/rooms/{room['id']}/"))


def resign(player: Player) -> None:
    player.page.once("dialog", lambda dialog: dialog.accept())
    player.page.get_by_role("button", name="Resign").click()


def test_a_rematch_offer_can_be_declined_and_offered_again(register: Callable[[str], Player]) -> None:
    alice, bob = register("alice"), register("bob")
    table(alice, bob)
    resign(bob)
    for player in (alice, bob):
        expect(player.page.locator("#banner")).to_contain_text(f"{alice.username} won" if player is bob else "You won")

    alice.page.get_by_role("button", name="Play again").click()
    expect(alice.page.locator("#rematch-offer")).to_contain_text(f"waiting for {bob.username}")
    expect(alice.page.get_by_role("button", name="Decline")).to_be_hidden()
    expect(bob.page.locator("#rematch-offer")).to_contain_text(f"{alice.username} offers a rematch")
    expect(bob.page.get_by_role("button", name="Accept rematch")).to_be_visible()
    bob.page.get_by_role("button", name="Decline").click()
    for player in (alice, bob):
        expect(player.page.locator("#rematch-offer")).to_have_text(f"{bob.username} declined the rematch.")
        expect(player.page.get_by_role("button", name="Decline")).to_be_hidden()
        # Nothing started: the finished game stays on screen, and either may offer again.
        expect(player.page.locator("#banner")).to_be_visible()
        expect(player.page.get_by_role("button", name="Play again")).to_be_visible()
    screenshot(alice.page, "e2e-rematch-declined")

    bob.page.get_by_role("button", name="Play again").click()
    expect(alice.page.locator("#rematch-offer")).to_contain_text(f"{bob.username} offers a rematch")
    alice.page.get_by_role("button", name="Accept rematch").click()
    for player in (alice, bob):
        expect(player.page.locator("#banner")).to_be_hidden()
        expect(player.page.locator("#board [data-disc]:not([data-disc=''])")).to_have_count(0)


def test_an_offer_lapses_when_a_player_leaves_and_the_seat_opens_for_someone_else(
    register: Callable[[str], Player],
) -> None:
    alice, bob, carol = register("alice"), register("bob"), register("carol")
    room = table(alice, bob)
    resign(alice)
    alice.page.get_by_role("button", name="Play again").click()
    expect(bob.page.locator("#rematch-offer")).to_contain_text(f"{alice.username} offers a rematch")

    # bob does not want another: he gives his seat back between matches.
    expect(alice.page.get_by_role("button", name="Leave seat")).to_be_visible()
    bob.page.get_by_role("button", name="Leave seat").click()
    for player in (alice, bob):
        expect(player.page.locator("#rematch-offer")).to_be_hidden()
        expect(player.page.get_by_role("button", name="Play again")).to_be_hidden()
        expect(player.page.get_by_role("button", name="Accept rematch")).to_be_hidden()
    expect(alice.page.locator("#room-status")).to_have_text("open")
    expect(alice.page.locator("#turn")).to_contain_text("Waiting for an opponent")
    # The seats are the room's chairs again: alice's, and a free one.
    expect(alice.page.locator("#seats li")).to_have_text([re.compile(alice.username), "empty seat"])
    expect(bob.page.get_by_role("button", name="Take a seat")).to_be_visible()

    # carol takes the free seat: the next match starts for alice and her.
    open_room(carol, room["id"])
    carol.page.get_by_role("button", name="Take a seat").click()
    for player in (alice, carol):
        expect(player.page.locator("#room-status")).to_have_text("playing")
        expect(player.page.locator("#seats li")).to_have_count(2)
        expect(player.page.locator("#banner")).to_be_hidden()
    expect(alice.page.locator("#seats")).to_contain_text(carol.username)
    expect(alice.page.locator("#seats")).not_to_contain_text(bob.username)
    # bob watches now.
    expect(bob.page.locator("#watching")).to_be_visible()


def away(server: LiveServer, username: str, match_id: int, *, turn_began_seconds_ago: int) -> None:
    """The player has had no socket open for five minutes, and the turn began that long ago."""
    server.orm(
        "from datetime import timedelta\n"
        "from django.utils import timezone\n"
        "from accounts.models import User\n"
        "from games.models import Match\n"
        f"User.objects.filter(username={username!r}).update(last_seen=timezone.now() - timedelta(minutes=5))\n"
        f"Match.objects.filter(pk={match_id}).update(updated_at=timezone.now() - timedelta(seconds={turn_began_seconds_ago}))\n"
    )


def test_a_player_who_went_away_on_their_turn_can_be_claimed_against(
    register: Callable[[str], Player], server: LiveServer
) -> None:
    alice, bob = register("alice"), register("bob")
    room = table(alice, bob)
    # Both have played (a game left before that is aborted, not won).
    for mover, column, row in ((alice, 4, 1), (bob, 4, 2), (alice, 5, 1)):
        cell(mover.page, column, 6).click()
        expect(cell(bob.page, column, row)).to_have_attribute("data-disc", "0" if mover is alice else "1")
    expect(alice.page.get_by_role("button", name="Claim victory")).to_be_hidden()

    # bob closes the room and goes away; his turn has lasted 56 s of the minute.
    bob.page.goto("about:blank")
    away(server, bob.username, room["match"], turn_began_seconds_ago=56)
    alice.page.reload()
    expect(alice.page.locator("#connection")).to_have_attribute("data-state", "live")
    claim = alice.page.get_by_role("button", name="Claim victory")
    expect(claim).to_be_hidden()
    # Four seconds later the button comes by itself: the page checks the time every second.
    expect(claim).to_be_visible(timeout=12_000)
    expect(alice.page.locator("#claim-offer")).to_contain_text(f"{bob.username} has been away")
    screenshot(alice.page, "e2e-claim-victory")
    claim.click()
    expect(alice.page.locator("#banner")).to_contain_text("You won")
    expect(alice.page.locator("#banner")).to_contain_text(f"{bob.username} left the game")
    expect(claim).to_be_hidden()
    seat = alice.page.locator("#seats li", has_text=bob.username)
    expect(seat.locator(".seat-note")).to_have_text("left the game")

    # bob, back, sees the same.
    open_room(bob, room["id"])
    expect(bob.page.locator("#banner")).to_contain_text(f"{alice.username} won")
    expect(bob.page.locator("#seats li", has_text=bob.username).locator(".seat-note")).to_have_text("left the game")


def test_a_seat_left_in_a_game_of_four_is_marked_where_the_computer_plays_it(
    register: Callable[[str], Player], server: LiveServer
) -> None:
    alice, bob = register("alice"), register("bob")
    room = api(alice.page, "POST", "/api/rooms/", {"game": "quoridor", "options": {"players": 4}})
    open_room(alice, room["id"])
    open_room(bob, room["id"])
    bob.page.get_by_role("button", name="Take a seat").click()
    alice.page.get_by_role("button", name=re.compile("^Start")).click()
    expect(alice.page.locator("#seats li")).to_have_count(4)
    expect(alice.page.locator("#turn")).to_have_attribute("data-my-turn", "yes")
    alice.page.locator('#board [data-square="e2"]').click()
    expect(bob.page.locator("#turn")).to_have_attribute("data-my-turn", "yes")

    bob.page.goto("about:blank")
    match_id = api(alice.page, "GET", f"/api/rooms/{room['id']}/")["match"]
    away(server, bob.username, match_id, turn_began_seconds_ago=120)
    alice.page.reload()
    hand_over = alice.page.get_by_role("button", name=f"Give {bob.username}'s seat to the computer")
    expect(hand_over).to_be_visible()
    hand_over.click()
    # The computer plays bob's seat (and the two others) on; alice's turn comes back.
    expect(alice.page.locator("#turn")).to_have_attribute("data-my-turn", "yes")
    expect(alice.page.locator("#moves li")).to_have_count(4)
    note = "left the game; the computer plays on"
    expect(alice.page.locator("#seats li", has_text=bob.username).locator(".seat-note")).to_have_text(note)
    expect(alice.page.locator('#board .q-player[data-seat="1"] .seat-note')).to_have_text(note)
    expect(alice.page.locator("#banner")).to_be_hidden()
    screenshot(alice.page, "e2e-seat-left-ai-plays")


def test_a_spectator_is_told_they_watch_and_everyone_sees_how_many_do(register: Callable[[str], Player]) -> None:
    alice, bob, carol, dave = register("alice"), register("bob"), register("carol"), register("dave")
    room = table(alice, bob)
    for player in (alice, bob):
        expect(player.page.locator("#watchers")).to_be_hidden()
        expect(player.page.locator("#watching")).to_be_hidden()
    open_room(carol, room["id"])
    expect(carol.page.locator("#watching")).to_have_text("you are watching")
    for player in (alice, bob, carol):
        expect(player.page.locator("#watchers")).to_have_text("1 watching")
    open_room(dave, room["id"])
    for player in (alice, bob, carol, dave):
        expect(player.page.locator("#watchers")).to_have_text("2 watching")
    # A spectator gets no seat's controls, and sees whose turn it is.
    expect(carol.page.locator("#turn")).to_contain_text(f"{alice.username} to move")
    expect(carol.page.get_by_role("button", name="Resign")).to_be_hidden()
    screenshot(carol.page, "e2e-spectator")
    carol.page.goto("/")
    dave.page.goto("/")
    for player in (alice, bob):
        expect(player.page.locator("#watchers")).to_be_hidden()
        expect(player.page.locator("#watchers")).to_have_attribute("data-count", "0")


def test_the_page_stops_reconnecting_when_the_room_is_gone_or_the_session_ended(
    register: Callable[[str], Player], server: LiveServer
) -> None:
    alice, bob = register("alice"), register("bob")
    gone = api(alice.page, "POST", "/api/rooms/", {"game": "connect-four"})
    open_room(alice, gone["id"])
    kept = api(bob.page, "POST", "/api/rooms/", {"game": "connect-four"})
    open_room(bob, kept["id"])

    # The room disappears, and bob logs out in another tab; then the server restarts,
    # so both pages reconnect and hear why they cannot.
    server.orm(f"from games.models import Room\nRoom.objects.filter(pk={gone['id']}).delete()\n")
    other_tab = bob.context.new_page()
    other_tab.goto("/")
    other_tab.get_by_test_id("logout").click()
    other_tab.wait_for_url(re.compile(r"/login/"))
    other_tab.close()
    server.restart()

    problem = alice.page.locator("#connection-problem")
    expect(problem).to_contain_text("This room is gone")
    expect(problem.get_by_role("link", name="Back to the lobby")).to_have_attribute("href", "/")
    expect(alice.page.locator("#connection")).to_have_text("room gone")
    expect(alice.page.locator("#connection")).to_have_attribute("data-state", "closed")

    problem = bob.page.locator("#connection-problem")
    expect(problem).to_contain_text("You are not logged in any more")
    link = problem.get_by_role("link", name="Log in again")
    expect(link).to_have_attribute("href", f"/login/?next=%2Frooms%2F{kept['id']}%2F")
    expect(bob.page.locator("#connection")).to_have_text("logged out")
    screenshot(bob.page, "e2e-logged-out")

    # They stay stopped: no more attempts in the next few seconds (bob's own socket,
    # /ws/me/, stopped too: it needs the session as much).
    bob.page.evaluate("""() => {
        window.__attempts = 0;
        const Original = window.WebSocket;
        window.WebSocket = function (...args) { window.__attempts += 1; return new Original(...args); };
    }""")
    bob.page.wait_for_timeout(5000)
    assert bob.page.evaluate("window.__attempts") == 0
    for page in (alice.page, bob.page):
        expect(page.locator("#connection")).to_have_attribute("data-state", "closed")

    # Logging in again leads back to the room.
    link.click()
    bob.page.get_by_label("Username").fill(bob.username)
    bob.page.get_by_label("Password").fill("secret-pass")
    bob.page.get_by_role("button", name="Log in").click()
    bob.page.wait_for_url(re.compile(rf"/rooms/{kept['id']}/$"))
    expect(bob.page.locator("#connection")).to_have_attribute("data-state", "live")


def test_a_game_downloads_as_a_record_and_a_players_history_as_one_file(register: Callable[[str], Player]) -> None:
    alice, bob = register("alice"), register("bob")
    room = table(alice, bob)
    for ply, (mover, column) in enumerate(((alice, 4), (bob, 3), (alice, 4)), start=1):
        cell(mover.page, column, 6).click()
        expect(alice.page.locator("#moves li")).to_have_count(ply)
    resign(bob)
    page = alice.page
    page.get_by_role("link", name="Review this game").click()
    page.wait_for_url(re.compile(r"/matches/\d+/replay/$"))
    with page.expect_download() as download:
        page.get_by_role("link", name="Download").click()
    assert download.value.suggested_filename == f"connect-four-match-{room['match']}.txt"
    record = open(download.value.path(), encoding="utf-8").read()
    assert '[Game "Connect Four"]' in record and f'[Seat1 "{alice.username}"]' in record
    assert '[Result "1-0"]' in record and '[Moves "434"]' in record
    assert record.rstrip().endswith("1. 4 2. 3 3. 4 1-0")

    page.goto(f"/players/{alice.username}/")
    with page.expect_download() as download:
        page.get_by_role("link", name="Download all").click()
    assert download.value.suggested_filename == f"{alice.username}-games.txt"
    history = open(download.value.path(), encoding="utf-8").read()
    assert history.count("[Game ") == 1 and f'[Match "{room["match"]}"]' in history
