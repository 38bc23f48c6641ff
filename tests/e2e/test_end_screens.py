"""Every board once its match is over (issue #11): the finished state with the result, no
"your turn" and no to-move mark anywhere, the seat that resigned marked; Manhattan's end
screen with each seat's final score and the winner."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import Player, screenshot

pytestmark = pytest.mark.e2e


def api(page: Page, method: str, url: str, body: Any = None) -> Any:
    return page.evaluate("([method, url, body]) => App.api(method, url, body === null ? undefined : body)",
                         [method, url, body])


def against_the_computer(player: Player, game: str, **options: Any) -> dict[str, Any]:
    """A room of ``game`` where the computer takes every other seat; the page is in it."""
    room = api(player.page, "POST", "/api/rooms/", {"game": game, "options": options})
    if game != "sokoban":
        api(player.page, "POST", f"/api/rooms/{room['id']}/start/")
    player.page.goto(f"/rooms/{room['id']}/")
    expect(player.page.locator("#connection")).to_have_attribute("data-state", "live")
    expect(player.page.locator("#board")).to_be_visible()
    return dict(api(player.page, "GET", f"/api/rooms/{room['id']}/"))


def resign_by_api(player: Player, room: dict[str, Any]) -> None:
    api(player.page, "POST", f"/api/matches/{room['match']}/resign/")


def expect_over(page: Page) -> None:
    expect(page.locator("#banner")).to_be_visible()
    expect(page.locator("#turn")).not_to_contain_text("Your turn")
    expect(page.locator("#turn")).to_have_attribute("data-my-turn", "no")
    expect(page.locator("#seats .to-move")).to_have_count(0)
    expect(page).not_to_have_title(re.compile("Your turn"))
    expect(page.get_by_role("button", name="Resign")).to_be_hidden()


def test_manhattans_end_screen_shows_the_result_the_final_scores_and_the_winner(register: Callable[[str], Player]) -> None:
    alice = register("alice")
    page = alice.page
    room = against_the_computer(alice, "manhattan", turn_seconds=0)
    expect(page.locator("#board .mh-round")).to_have_text(re.compile(r"^Round 1"))
    resign_by_api(alice, room)
    expect_over(page)
    expect(page.locator("#banner")).to_contain_text(f"{alice.username} resigned")
    expect(page.locator("#board .mh-round")).to_have_text("Game over")
    # Nobody is to move once it is over, whatever the position says.
    expect(page.locator("#board .mh-to-move")).to_have_count(0)
    expect(page.locator("#board .mh-tag.go")).to_have_count(0)
    expect(page.locator("#board .mh-side.to-move, #board .mh-seat.to-move")).to_have_count(0)
    expect(page.locator("#board .mh-status")).not_to_contain_text("your turn")
    expect(page.get_by_test_id("mh-prompt")).to_have_text("The game is over.")
    final = page.get_by_test_id("mh-final")
    expect(final).to_be_visible()
    expect(final).to_contain_text("Final result")
    seats = final.locator(".mh-final-seat")
    expect(seats).to_have_count(4)
    for i in range(4):
        expect(seats.nth(i)).to_have_attribute("data-score", re.compile(r"^\d+$"))
        expect(seats.nth(i)).to_contain_text("pts")
    expect(final.locator(".mh-final-seat.winner").first).to_contain_text("winner")
    # alice placed last: she resigned, and both lists say so.
    expect(seats.last).to_contain_text("resigned")
    expect(page.locator("#seats li", has_text=alice.username).locator(".seat-note")).to_have_text("resigned")
    screenshot(page, "e2e-manhattan-end-screen")


@pytest.mark.parametrize("game", ["connect-four", "quoridor", "eskimo"])
def test_no_board_marks_anyone_to_move_after_the_end(register: Callable[[str], Player], game: str) -> None:
    alice = register("alice")
    page = alice.page
    room = against_the_computer(alice, game)
    resign_by_api(alice, room)
    expect_over(page)
    expect(page.locator("#board .my-turn")).to_have_count(0)
    expect(page.locator('#board [data-to-move="yes"]')).to_have_count(0)
    expect(page.locator("#board .q-pawn.to-move, #board .esk-tag:not(.won)")).to_have_count(0)
    expect(page.locator("#board")).not_to_contain_text("to move")
    # The seat that resigned is marked, in the seat list and on boards with a players' panel.
    expect(page.locator("#seats li", has_text=alice.username).locator(".seat-note")).to_have_text("resigned")
    if game != "connect-four":
        expect(page.locator("#board .seat-note")).to_have_text(["resigned"])
    screenshot(page, f"e2e-{game}-after-resigning")


def test_a_sokoban_level_left_shows_no_turn_and_takes_no_keys(register: Callable[[str], Player]) -> None:
    alice = register("alice")
    page = alice.page
    room = against_the_computer(alice, "sokoban")
    resign_by_api(alice, room)
    expect(page.locator("#banner")).to_contain_text("Left unsolved")
    expect(page.locator("#turn")).to_have_attribute("data-my-turn", "no")
    expect(page.get_by_role("button", name="Leave level")).to_be_hidden()
    for action in ("l", "u", "r", "d", "undo", "reset", "solve"):
        expect(page.locator(f'#board [data-action="{action}"]')).to_be_disabled()
