"""Two people play Connect Four in two browsers against a real server.

alice creates the room and moves first; bob joins it. Columns and rows are
numbered as the board's cells carry them: data-col 1..7 from the left,
data-row 1..6 from the bottom.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Locator, Page, expect

from .conftest import LiveServer, Player, lobby_action, screenshot

pytestmark = pytest.mark.e2e

RED, YELLOW = 0, 1  # engine seats: seat 0 moves first


def cell(page: Page, column: int, row: int) -> Locator:
    return page.locator(f'#board [data-col="{column}"][data-row="{row}"]')


def discs(page: Page) -> Locator:
    return page.locator('#board [data-col][data-disc]:not([data-disc=""])')


def board_picture(page: Page) -> list[str]:
    """Every cell as "column:row=disc", the whole board as this page shows it."""
    return list(page.locator("#board [data-col]").evaluate_all(
        "cells => cells.map(c => `${c.dataset.col}:${c.dataset.row}=${c.dataset.disc}`)"
    ))


def mark_document(page: Page) -> None:
    # A flag that a reload or a navigation would wipe out.
    page.evaluate("window.__sameDocument = true")


def same_document(page: Page) -> bool:
    return page.evaluate("window.__sameDocument === true") is True


def expect_my_turn(player: Player) -> None:
    expect(player.page.locator("#turn")).to_have_attribute("data-my-turn", "yes")
    expect(player.page.locator("#turn")).to_contain_text("Your turn")
    # The tab's title says so too, for a player looking at another tab.
    expect(player.page).to_have_title(re.compile(r"^● Your turn"))


def expect_waiting_for(player: Player, opponent: Player) -> None:
    expect(player.page.locator("#turn")).to_have_attribute("data-my-turn", "no")
    expect(player.page.locator("#turn")).to_contain_text(f"Waiting for {opponent.username}")
    expect(player.page).not_to_have_title(re.compile("Your turn"))


def drop(mover: Player, watcher: Player, *, column: int, lands_on_row: int, seat: int, ply: int) -> None:
    """mover clicks column; the disc lands on both screens, the watcher's without a reload."""
    expect_my_turn(mover)
    mark_document(watcher.page)
    # A player clicks anywhere in the column; the top cell is the usual target.
    cell(mover.page, column, 6).click()
    for player in (mover, watcher):
        expect(cell(player.page, column, lands_on_row)).to_have_attribute("data-disc", str(seat))
        expect(discs(player.page)).to_have_count(ply)
        expect(player.page.locator("#moves li")).to_have_count(ply)
    assert same_document(watcher.page), f"{watcher.username}'s page reloaded to show the move"


def create_room(host: Player) -> int:
    page = host.page
    page.goto("/")
    lobby_action(page, "connect-four", "create").get_by_role("button", name="Create room").click()
    page.wait_for_url(re.compile(r"/rooms/\d+/$"))
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    # Nobody to play yet: the page says so instead of showing an empty board.
    expect(page.locator("#turn")).to_contain_text("Waiting for an opponent")
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def expect_match_started(first: Player, second: Player) -> None:
    for player in (first, second):
        expect(player.page.locator("#connection")).to_have_attribute("data-state", "live")
        expect(player.page.locator("#board [data-col]")).to_have_count(42)
        expect(discs(player.page)).to_have_count(0)
    expect_my_turn(first)
    expect_waiting_for(second, first)


def watch_connection(page: Page) -> None:
    """Record every state the connection indicator goes through from now on."""
    page.evaluate("""() => {
        const node = document.getElementById("connection");
        window.__connectionStates = [];
        new MutationObserver(() => window.__connectionStates.push(node.dataset.state))
            .observe(node, {attributes: true, attributeFilter: ["data-state"]});
    }""")


def test_two_players_play_a_whole_game_through_a_reload_and_a_server_restart(
    register: Callable[[str], Player], server: LiveServer
) -> None:
    alice, bob = register("alice"), register("bob")
    room_id = create_room(alice)

    # bob finds the room in his lobby's open list and takes the free seat.
    bob.page.reload()
    lobby_entry = bob.page.locator(f'#open-rooms li[data-room="{room_id}"]')
    expect(lobby_entry).to_contain_text("Connect Four")
    expect(lobby_entry).to_contain_text(alice.username)
    screenshot(bob.page, "e2e-lobby-open-room")
    lobby_entry.get_by_role("button", name="Join").click()
    bob.page.wait_for_url(f"{server.url}/rooms/{room_id}/")
    expect(bob.page.locator("#room-status")).to_have_text("playing")
    expect(alice.page.locator("#room-status")).to_have_text("playing")
    expect_match_started(alice, bob)
    expect(alice.page.locator("#seats li").first).to_contain_text(alice.username)
    expect(alice.page.locator("#seats li").nth(1)).to_contain_text(bob.username)

    # Column 1 fills up with alternating discs: nobody wins there.
    drop(alice, bob, column=1, lands_on_row=1, seat=RED, ply=1)
    drop(bob, alice, column=1, lands_on_row=2, seat=YELLOW, ply=2)
    drop(alice, bob, column=1, lands_on_row=3, seat=RED, ply=3)

    # bob reloads mid-game: the same board, the same turn, the same move list.
    before = board_picture(bob.page)
    bob.page.reload()
    expect(bob.page.locator("#connection")).to_have_attribute("data-state", "live")
    expect(discs(bob.page)).to_have_count(3)
    assert board_picture(bob.page) == before
    expect(bob.page.locator("#moves li")).to_have_count(3)
    expect_my_turn(bob)

    drop(bob, alice, column=1, lands_on_row=4, seat=YELLOW, ply=4)
    drop(alice, bob, column=1, lands_on_row=5, seat=RED, ply=5)
    drop(bob, alice, column=1, lands_on_row=6, seat=YELLOW, ply=6)

    # The preview disc: only on my turn, only in a column the server lists as legal.
    expect_my_turn(alice)
    cell(bob.page, 2, 4).hover()  # not bob's turn
    cell(alice.page, 2, 4).hover()
    expect(alice.page.locator("#board .preview")).to_have_count(1)
    expect(cell(alice.page, 2, 1)).to_have_class(re.compile(r"\bpreview\b"))
    expect(bob.page.locator("#board .preview")).to_have_count(0)
    screenshot(alice.page, "e2e-room-midgame")
    cell(alice.page, 1, 3).hover()  # column 1 is full
    expect(alice.page.locator("#board .preview")).to_have_count(0)
    drop(alice, bob, column=2, lands_on_row=1, seat=RED, ply=7)
    expect(alice.page.locator("#board .preview")).to_have_count(0)  # her mouse is on column 2, but it is bob's turn
    # bob's mouse has rested on column 2 all along: his turn now, so his preview shows.
    expect(bob.page.locator("#board .preview")).to_have_count(1)
    expect(cell(bob.page, 2, 2)).to_have_class(re.compile(r"\bpreview\b"))
    drop(bob, alice, column=2, lands_on_row=2, seat=YELLOW, ply=8)

    # The server restarts mid-game; both pages reconnect by themselves.
    pictures = {p.username: board_picture(p.page) for p in (alice, bob)}
    for player in (alice, bob):
        watch_connection(player.page)
        mark_document(player.page)
    server.stop()
    for player in (alice, bob):
        player.page.wait_for_function("window.__connectionStates.includes('offline')")
        expect(player.page.locator("#connection")).to_have_text("reconnecting…")
    # A move while the server is away says so, and changes nothing.
    cell(alice.page, 3, 6).click()
    expect(alice.page.locator("#action-error")).to_contain_text("Cannot reach the server")
    expect(discs(alice.page)).to_have_count(8)
    server.start()
    for player in (alice, bob):
        expect(player.page.locator("#connection")).to_have_attribute("data-state", "live")
        expect(player.page.locator("#connection")).to_have_text("live")
        assert same_document(player.page), f"{player.username}'s page reloaded instead of reconnecting"
        assert board_picture(player.page) == pictures[player.username]
    expect(alice.page.locator("#action-error")).to_be_hidden()
    expect_my_turn(alice)
    expect_waiting_for(bob, alice)

    # Play goes on after the restart, pushes included.
    drop(alice, bob, column=3, lands_on_row=1, seat=RED, ply=9)
    drop(bob, alice, column=3, lands_on_row=2, seat=YELLOW, ply=10)
    drop(alice, bob, column=4, lands_on_row=1, seat=RED, ply=11)  # 1-2-3-4 along the bottom

    # The result, with the winning four marked, on both screens.
    expect(alice.page.locator("#banner")).to_be_visible()
    expect(alice.page.locator("#banner")).to_contain_text("You won")
    expect(bob.page.locator("#banner")).to_contain_text(f"{alice.username} won")
    for player in (alice, bob):
        winning = player.page.locator("#board .winning")
        expect(winning).to_have_count(4)
        assert sorted(winning.evaluate_all("cells => cells.map(c => [+c.dataset.col, +c.dataset.row])")) == [
            [1, 1], [2, 1], [3, 1], [4, 1]]
        expect(player.page.locator("#turn")).to_have_attribute("data-my-turn", "no")
        expect(player.page.locator("#resign")).to_be_hidden()
        expect(player.page.get_by_role("button", name="Play again")).to_be_visible()
        expect(player.page.get_by_role("link", name="Review this game")).to_be_visible()
    screenshot(bob.page, "e2e-room-game-over")

    # "Review this game" opens the replay, which ends on the final position.
    review = bob.page.get_by_role("link", name="Review this game")
    found = re.search(r"/matches/(\d+)/replay/$", review.get_attribute("href") or "")
    assert found, review.get_attribute("href")
    match_id = int(found.group(1))
    review.click()
    bob.page.wait_for_url(f"{server.url}/matches/{match_id}/replay/")
    bob.page.get_by_role("button", name="Last").click()
    expect(bob.page.locator("#ply-label")).to_have_text("11 / 11")
    expect(discs(bob.page)).to_have_count(11)
    expect(bob.page.locator("#board .winning")).to_have_count(4)
    bob.page.go_back()
    bob.page.wait_for_url(f"{server.url}/rooms/{room_id}/")
    expect(bob.page.locator("#connection")).to_have_attribute("data-state", "live")
    expect(discs(bob.page)).to_have_count(11)

    # Play again: alice offers, bob sees the offer and accepts; a new match in
    # the same room, and bob moves first this time.
    alice.page.get_by_role("button", name="Play again").click()
    expect(alice.page.locator("#rematch-offer")).to_contain_text(f"waiting for {bob.username}")
    expect(bob.page.locator("#rematch-offer")).to_contain_text(f"{alice.username} offers a rematch")
    bob.page.get_by_role("button", name="Accept rematch").click()
    for player in (alice, bob):
        expect(player.page.locator("#banner")).to_be_hidden()
        expect(discs(player.page)).to_have_count(0)
        expect(player.page.locator("#moves li")).to_have_count(0)
        expect(player.page.locator("#seats li").first).to_contain_text(bob.username)
    expect_my_turn(bob)
    expect_waiting_for(alice, bob)
    drop(bob, alice, column=4, lands_on_row=1, seat=RED, ply=1)
    # The board also plays from the keyboard: arrows pick a column, Enter drops.
    expect_my_turn(alice)
    alice.page.locator("#board [role=grid]").focus()
    for key in ("ArrowLeft", "ArrowLeft", "ArrowRight"):  # from the middle column: 4, 3, 4
        alice.page.keyboard.press(key)
    expect(cell(alice.page, 4, 2)).to_have_class(re.compile(r"\bpreview\b"))
    alice.page.keyboard.press("Enter")
    for player in (alice, bob):
        expect(cell(player.page, 4, 2)).to_have_attribute("data-disc", str(YELLOW))
        expect(discs(player.page)).to_have_count(2)

    # alice reviews the first game from her lobby and steps through it.
    alice.page.goto("/")
    expect(alice.page.locator("#my-active li[data-match]")).to_have_count(1)
    finished = alice.page.locator(f'#my-finished li[data-match="{match_id}"]')
    expect(finished).to_contain_text("You won")
    screenshot(alice.page, "e2e-lobby")
    finished.get_by_role("link", name="Connect Four").click()
    alice.page.wait_for_url(f"{server.url}/matches/{match_id}/replay/")
    replay = alice.page
    label = replay.locator("#ply-label")

    def step(button: str, ply: int) -> None:
        replay.get_by_role("button", name=button).click()
        expect(label).to_have_text(f"{ply} / 11")
        expect(discs(replay)).to_have_count(ply)

    # The replay opens on the empty board, where there is nothing before.
    expect(label).to_have_text("0 / 11")
    expect(discs(replay)).to_have_count(0)
    expect(replay.get_by_role("button", name="First")).to_be_disabled()
    expect(replay.get_by_role("button", name="Previous")).to_be_disabled()
    step("Next", 1)
    expect(cell(replay, 1, 1)).to_have_attribute("data-disc", str(RED))
    step("Next", 2)
    expect(cell(replay, 1, 2)).to_have_attribute("data-disc", str(YELLOW))
    step("Next", 3)
    screenshot(replay, "e2e-replay")
    step("Last", 11)
    expect(replay.get_by_role("button", name="Next")).to_be_disabled()
    expect(replay.locator("#banner")).to_contain_text("You won")
    expect(replay.locator("#board .winning")).to_have_count(4)
    step("Previous", 10)
    expect(replay.locator("#banner")).to_be_hidden()
    expect(cell(replay, 4, 1)).to_have_attribute("data-disc", "")
    step("Previous", 9)
    step("First", 0)
    replay.keyboard.press("ArrowRight")
    expect(label).to_have_text("1 / 11")
    replay.keyboard.press("End")
    expect(label).to_have_text("11 / 11")
    expect(discs(replay)).to_have_count(11)


def test_a_player_joins_by_room_code_and_chat_shows_markup_as_text(register: Callable[[str], Player]) -> None:
    alice, bob = register("alice"), register("bob")
    room_id = create_room(alice)
    code = alice.page.locator("#room-code").inner_text()

    # A code typed in lower case still finds the room.
    join = lobby_action(bob.page, "connect-four", "join")
    join.get_by_label("Join by room code").fill(code.lower())
    join.get_by_role("button", name="Find room").click()
    bob.page.wait_for_url(re.compile(rf"/rooms/{room_id}/$"))
    bob.page.get_by_role("button", name="Take a seat").click()
    expect_match_started(alice, bob)

    hostile = '<b>x</b><img src="nowhere" onerror="window.__pwned = 1"><script>window.__pwned = 1</script>'
    for player in (alice, bob):
        mark_document(player.page)
    alice.page.get_by_placeholder("Say something").fill(hostile)
    alice.page.get_by_role("button", name="Send").click()
    expect(alice.page.get_by_placeholder("Say something")).to_have_value("")
    for player in (alice, bob):
        line = player.page.locator("#chat-log li")
        expect(line).to_have_count(1)  # the POST answer and the push are one line
        expect(line).to_contain_text(alice.username)
        expect(line.locator(".text")).to_have_text(hostile)
        expect(line.locator(".text *")).to_have_count(0)  # no element was made from the text
        assert player.page.evaluate("window.__pwned") is None
    assert same_document(bob.page)

    bob.page.get_by_placeholder("Say something").fill("good luck, alice")
    bob.page.keyboard.press("Enter")
    for player in (alice, bob):
        expect(player.page.locator("#chat-log li")).to_have_count(2)
        expect(player.page.locator("#chat-log li").nth(1).locator(".text")).to_have_text("good luck, alice")
        expect(player.page.locator("#chat-log li").nth(1)).to_contain_text(bob.username)

    # An empty message is refused with a reason, not silently.
    bob.page.get_by_role("button", name="Send").click()
    expect(bob.page.locator("#chat-error")).to_be_visible()
    expect(bob.page.locator("#chat-error")).to_contain_text("empty")
    expect(bob.page.locator("#chat-log li")).to_have_count(2)


def test_a_player_plays_the_computer_against_the_clock(register: Callable[[str], Player]) -> None:
    alice = register("alice")
    page = alice.page
    create = lobby_action(page, "connect-four", "create")
    create.get_by_label("Computer level").select_option("random")
    create.get_by_label("Time per turn").select_option(label="5 minutes")
    create.get_by_role("button", name="Create room").click()
    page.wait_for_url(re.compile(r"/rooms/\d+/$"))
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")

    page.get_by_role("button", name="Play the computer").click()
    expect(page.locator("#seats li").nth(1)).to_contain_text("AI (random)")
    expect_my_turn(alice)
    # A turn limit shows as a clock counting down from five minutes.
    expect(page.locator("#turn .clock")).to_have_text(re.compile(r"^(5:00|4:5\d) left$"))

    cell(page, 4, 6).click()
    expect(cell(page, 4, 1)).to_have_attribute("data-disc", str(RED))
    # The computer answers on its own, and the page shows it without a reload.
    expect(discs(page)).to_have_count(2)
    expect(page.locator("#moves li")).to_have_count(2)
    expect_my_turn(alice)
