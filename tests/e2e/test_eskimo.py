"""Eskimo in two browsers against a real server.

The board's squares carry data-square ("c3"); pieces data-piece (the seat)
and data-at; the bear data-bear, data-at and data-cooldown. After a click on
a piece (or the bear) its legal moves are offered as arrows (.esk-arrow) and
as the squares where they end, both then carrying data-move ("c1-ne"). Row 1, player
1's side, is at the bottom.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Locator, Page, expect

from .conftest import Player, lobby_action, screenshot

pytestmark = pytest.mark.e2e


def square(page: Page, name: str) -> Locator:
    return page.locator(f'#board [data-square="{name}"]')


def pieces(page: Page, seat: int) -> Locator:
    return page.locator(f'#board [data-piece="{seat}"]')


def bear(page: Page) -> Locator:
    return page.locator("#board [data-bear]")


def arrows(page: Page) -> Locator:
    return page.locator("#board .esk-arrow[data-move]")


def markers(page: Page) -> Locator:
    return page.locator("#board [data-square][data-move]")


def mark_document(page: Page) -> None:
    page.evaluate("window.__sameDocument = true")


def same_document(page: Page) -> bool:
    return page.evaluate("window.__sameDocument === true") is True


def expect_my_turn(player: Player) -> None:
    expect(player.page.locator("#turn")).to_have_attribute("data-my-turn", "yes")


def expect_pieces(page: Page, seat: int, squares: list[str]) -> None:
    expect(pieces(page, seat)).to_have_count(len(squares))
    for name in squares:
        expect(page.locator(f'#board [data-piece="{seat}"][data-at="{name}"]')).to_have_count(1)


def expect_offers(page: Page, offers: dict[str, str]) -> None:
    """Exactly these moves (notation -> destination) are offered, each as an arrow and its end square."""
    expect(arrows(page)).to_have_count(len(offers))
    expect(markers(page)).to_have_count(len(offers))
    for move, destination in offers.items():
        expect(page.locator(f'#board .esk-arrow[data-move="{move}"]')).to_have_attribute("data-destination", destination)
        expect(square(page, destination)).to_have_attribute("data-move", move)
        expect(square(page, destination)).to_have_class(re.compile(r"\boffered\b"))


def expect_cooldown(page: Page, turns: int) -> None:
    expect(bear(page)).to_have_attribute("data-cooldown", str(turns))
    note = page.locator("#board .esk-bear-note")
    expect(note).to_have_attribute("data-cooldown", str(turns))
    if turns:
        expect(note).to_have_text(f"The bear rests for {turns} more turn{'' if turns == 1 else 's'}")
        expect(page.locator("#board .esk-bear-badge")).to_have_text(str(turns))
    else:
        expect(note).to_contain_text("The bear is awake")
        expect(page.locator("#board .esk-bear-badge")).to_have_count(0)


def expect_moves(page: Page, moves: list[str]) -> None:
    """The move list: each move numbered, in words (which name its squares), its notation kept."""
    items = page.locator("#moves li")
    expect(items).to_have_count(len(moves))
    for i, move in enumerate(moves):
        expect(items.nth(i)).to_have_attribute("data-move", move)
        expect(items.nth(i)).to_have_text(re.compile(rf"^{i + 1}\.\s*\w.*{move[:2]}"))


def move(
    mover: Player, watcher: Player, origin: str, notation: str, by: str, moves: list[str], picked: bool = False
) -> None:
    """mover clicks ``origin`` (unless already ``picked``), then the arrow (by="arrow") or the
    offered square (by="square") of ``notation``; both pages show it, the watcher's without a reload."""
    expect_my_turn(mover)
    mark_document(watcher.page)
    if not picked:
        square(mover.page, origin).click()
    expect(square(mover.page, origin)).to_have_class(re.compile(r"\bselected\b"))
    target = arrows(mover.page) if by == "arrow" else markers(mover.page)
    target.and_(mover.page.locator(f'[data-move="{notation}"]')).click()
    moves.append(notation)
    for player in (mover, watcher):
        expect_moves(player.page, moves)
        expect(player.page.locator("#board .esk-last")).to_have_text(f"Last move: {notation}")
    expect(arrows(mover.page)).to_have_count(0)
    assert same_document(watcher.page), f"{watcher.username}'s page reloaded to show the move"


def test_two_players_open_an_eskimo_game_by_clicking(register: Callable[[str], Player]) -> None:
    alice, bob = register("alice"), register("bob")
    page = alice.page
    page.goto("/")
    create = lobby_action(page, "eskimo", "create")
    expect(create.get_by_label("Players")).to_be_hidden()  # always two
    create.get_by_role("button", name="Create room").click()
    page.wait_for_url(re.compile(r"/rooms/\d+/$"))
    expect(page.locator("#room-title")).to_have_text(re.compile(r"^Eskimo"))
    room_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    bob.page.goto(f"/rooms/{room_id}/")
    bob.page.get_by_role("button", name="Take a seat").click()

    for player in (alice, bob):
        expect(player.page.locator("#board [data-square]")).to_have_count(25)
        expect(player.page.locator("#board .esk-label")).to_have_count(10)
        expect_pieces(player.page, 0, ["a1", "b1", "c1", "d1", "e1"])
        expect_pieces(player.page, 1, ["a5", "b5", "c5", "d5", "e5"])
        expect(bear(player.page)).to_have_attribute("data-at", "c3")
        expect_cooldown(player.page, 0)
        expect(player.page.locator('#board .esk-player[data-seat="0"]')).to_contain_text(alice.username)
        expect(player.page.locator('#board .esk-player[data-seat="1"]')).to_contain_text(bob.username)
    expect_my_turn(alice)

    # Hovering a piece previews where it can slide; nothing is clickable until it is picked.
    square(alice.page, "c1").hover()
    expect(alice.page.locator("#board .esk-square.previewed")).to_have_count(3)
    for name in ("c2", "e3", "a3"):
        expect(square(alice.page, name)).to_have_class(re.compile(r"\bpreviewed\b"))
    expect(arrows(alice.page)).to_have_count(0)
    # bob, not to move, is offered nothing.
    square(bob.page, "c5").click()
    expect(arrows(bob.page)).to_have_count(0)
    square(alice.page, "c1").click()
    expect_offers(alice.page, {"c1-n": "c2", "c1-ne": "e3", "c1-nw": "a3"})
    square(alice.page, "e3").hover()
    expect(square(alice.page, "e3")).to_have_class(re.compile(r"\btarget\b"))
    screenshot(alice.page, "eskimo-piece-picked")
    # A square that is not hers and not offered drops the pick; the opponent's pieces cannot be picked.
    square(alice.page, "c4").click()
    expect(arrows(alice.page)).to_have_count(0)
    square(alice.page, "a5").click()
    expect(arrows(alice.page)).to_have_count(0)

    moves: list[str] = []
    move(alice, bob, "c1", "c1-ne", "square", moves)
    for player in (alice, bob):
        expect_pieces(player.page, 0, ["a1", "b1", "d1", "e1", "e3"])
        expect(square(player.page, "e3")).to_have_class(re.compile(r"\blast-to\b"))
        expect(square(player.page, "c1")).to_have_class(re.compile(r"\blast-from\b"))

    # bob moves the bear south with its arrow; it then rests for four turns.
    square(bob.page, "c3").click()
    expect_offers(bob.page, {
        "c3-n": "c4", "c3-ne": "d4", "c3-e": "d3", "c3-se": "d2",
        "c3-s": "c2", "c3-sw": "b2", "c3-w": "b3", "c3-nw": "b4",
    })
    screenshot(bob.page, "eskimo-bear-picked")
    move(bob, alice, "c3", "c3-s", "arrow", moves, picked=True)
    for player in (alice, bob):
        expect(bear(player.page)).to_have_attribute("data-at", "c2")
        expect_cooldown(player.page, 4)
    screenshot(alice.page, "eskimo-bear-resting")

    # The resting bear cannot be picked, nor hovered for a preview.
    square(alice.page, "c2").hover()
    expect(alice.page.locator("#board .esk-square.previewed")).to_have_count(0)
    square(alice.page, "c2").click()
    expect(arrows(alice.page)).to_have_count(0)
    move(alice, bob, "a1", "a1-n", "arrow", moves)
    for player in (alice, bob):
        expect_pieces(player.page, 0, ["a4", "b1", "d1", "e1", "e3"])
        expect_cooldown(player.page, 3)
    move(bob, alice, "b5", "b5-s", "square", moves)
    for player in (alice, bob):
        expect_pieces(player.page, 1, ["a5", "b2", "c5", "d5", "e5"])
        expect_cooldown(player.page, 2)
    move(alice, bob, "e3", "e3-w", "square", moves)
    for player in (alice, bob):
        expect_pieces(player.page, 0, ["a3", "a4", "b1", "d1", "e1"])  # across the bear's old square
        expect_cooldown(player.page, 1)
    square(bob.page, "c2").click()
    expect(arrows(bob.page)).to_have_count(0)
    move(bob, alice, "d5", "d5-s", "arrow", moves)
    for player in (alice, bob):
        expect_pieces(player.page, 1, ["a5", "b2", "c5", "d2", "e5"])
        expect_cooldown(player.page, 0)

    # Awake again: alice may pick the bear.
    square(alice.page, "c2").click()
    expect(arrows(alice.page)).not_to_have_count(0)
    expect(alice.page.locator('#board .esk-arrow[data-move="c2-n"]')).to_have_attribute("data-destination", "c3")
    screenshot(alice.page, "eskimo-bear-awake")
    screenshot(bob.page, "eskimo-bob")

    # The replay draws the same positions and offers nothing.
    match_id = bob.page.evaluate(f"fetch('/api/rooms/{room_id}/').then(r => r.json()).then(r => r.match)")
    bob.page.goto(f"/matches/{match_id}/replay/")
    expect(bob.page.locator("#ply-label")).to_have_text("0 / 6")
    expect(bear(bob.page)).to_have_attribute("data-at", "c3")
    bob.page.get_by_role("button", name="Next").click()
    bob.page.get_by_role("button", name="Next").click()
    expect(bob.page.locator("#ply-label")).to_have_text("2 / 6")
    expect(bear(bob.page)).to_have_attribute("data-at", "c2")
    expect_cooldown(bob.page, 4)
    bob.page.get_by_role("button", name="Last").click()
    expect(bob.page.locator("#ply-label")).to_have_text("6 / 6")
    expect_pieces(bob.page, 1, ["a5", "b2", "c5", "d2", "e5"])
    square(bob.page, "d2").click()
    expect(arrows(bob.page)).to_have_count(0)
    screenshot(bob.page, "eskimo-replay")


def test_trapping_the_bear_ends_the_game_and_play_again_starts_the_next(register: Callable[[str], Player]) -> None:
    alice, bob = register("alice"), register("bob")
    alice.page.goto("/")
    lobby_action(alice.page, "eskimo", "create").get_by_role("button", name="Create room").click()
    alice.page.wait_for_url(re.compile(r"/rooms/\d+/$"))
    room_id = int(alice.page.url.rstrip("/").rsplit("/", 1)[1])
    bob.page.goto(f"/rooms/{room_id}/")
    bob.page.get_by_role("button", name="Take a seat").click()

    moves: list[str] = []
    move(alice, bob, "a1", "a1-n", "square", moves)  # a1 slides up to a4
    move(bob, alice, "c5", "c5-s", "square", moves)  # c5 stops on c4, above the bear
    move(alice, bob, "d1", "d1-nw", "square", moves)  # d1 slides to b3, stopped by a4
    # b4 is walled in on all four sides: the bear stepping there is trapped.
    move(bob, alice, "c3", "c3-nw", "arrow", moves)
    for player in (alice, bob):
        expect(bear(player.page)).to_have_attribute("data-at", "b4")
        expect(player.page.locator("#banner")).to_be_visible()
        expect(player.page.locator('#board .esk-player[data-seat="1"]')).to_contain_text("trapped the bear")
        expect(player.page.locator("#board .esk-player.to-move")).to_have_count(0)
        expect(player.page.locator("#board .esk-bear-note")).to_have_text("The bear is trapped on b4.")
        expect(player.page.locator("#board .esk-bear-badge")).to_have_count(0)
        expect(player.page.locator("#turn")).to_have_attribute("data-my-turn", "no")
        square(player.page, "b1").click()
        expect(arrows(player.page)).to_have_count(0)
    expect(bob.page.locator("#banner")).to_contain_text("You won")
    expect(alice.page.locator("#banner")).to_contain_text(f"{bob.username} won")
    screenshot(alice.page, "eskimo-game-over")

    # Play again: alice offers, bob accepts; a fresh floe, and bob (seat 0 of
    # the new match) moves first.
    alice.page.get_by_role("button", name="Play again").click()
    bob.page.get_by_role("button", name="Accept rematch").click()
    for player in (alice, bob):
        expect(player.page.locator("#banner")).to_be_hidden()
        expect(bear(player.page)).to_have_attribute("data-at", "c3")
        expect_pieces(player.page, 0, ["a1", "b1", "c1", "d1", "e1"])
        expect(player.page.locator("#moves li")).to_have_count(0)
        expect(player.page.locator('#board .esk-player[data-seat="0"]')).to_contain_text(bob.username)
    move(bob, alice, "c1", "c1-n", "arrow", [])
    for player in (alice, bob):
        expect_pieces(player.page, 0, ["a1", "b1", "c2", "d1", "e1"])


def test_eskimo_plays_from_the_keyboard_with_visible_focus(register: Callable[[str], Player]) -> None:
    alice, bob = register("alice"), register("bob")
    page = alice.page
    room = page.evaluate("App.api('POST', '/api/rooms/', {game: 'eskimo'})")
    page.goto(f"/rooms/{room['id']}/")
    bob.page.goto(f"/rooms/{room['id']}/")
    bob.page.get_by_role("button", name="Take a seat").click()
    expect_my_turn(alice)
    page.locator("body").click(position={"x": 2, "y": 2})
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement === document.querySelector('#board .esk-board')"):
            break
    else:
        raise AssertionError("Tab never reached the board")
    assert page.locator("#board .esk-board").evaluate("e => getComputedStyle(e).outlineStyle") == "solid"
    # The cursor starts on the first piece that can move; Enter picks it and offers its moves.
    page.keyboard.press("ArrowRight")
    expect(page.locator("#board [data-cursor]")).to_have_attribute("data-cursor", "a1")
    page.keyboard.press("Enter")
    expect(square(page, "a1")).to_have_class(re.compile(r"\bselected\b"))
    expect(page.locator('#board .esk-arrow[data-move="a1-n"]')).to_have_attribute("data-destination", "a4")
    # Up to where the slide north ends, and Enter plays it.
    for _ in range(3):
        page.keyboard.press("ArrowUp")
    expect(page.locator("#board [data-cursor]")).to_have_attribute("data-cursor", "a4")
    expect(square(page, "a4")).to_have_class(re.compile(r"\btarget\b"))
    screenshot(page, "eskimo-keyboard")
    page.keyboard.press("Enter")
    for player in (alice, bob):
        expect(player.page.locator('#board [data-piece="0"][data-at="a4"]')).to_have_count(1)
        expect_moves(player.page, ["a1-n"])
    # Esc drops a pick without playing.
    expect_my_turn(bob)
    bob.page.locator("#board .esk-board").focus()
    bob.page.keyboard.press("ArrowLeft")
    bob.page.keyboard.press("Enter")
    expect(bob.page.locator("#board .esk-square.selected")).to_have_count(1)
    bob.page.keyboard.press("Escape")
    expect(bob.page.locator("#board .esk-square.selected")).to_have_count(0)
    expect_moves(bob.page, ["a1-n"])
