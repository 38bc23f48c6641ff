"""Quoridor in browsers against a real server: two players, then four.

The board's squares carry data-square ("e2"), its fence slots in the grooves
data-fence ("e3h"), pawns data-pawn (the seat) and data-at (their square),
placed fences data-placed, the fence preview data-preview, and each seat's
line in the side panel data-fences-left. Row 1 is at the bottom.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Locator, Page, expect

from .conftest import LiveServer, Player, lobby_action, screenshot

pytestmark = pytest.mark.e2e


def square(page: Page, name: str) -> Locator:
    return page.locator(f'#board [data-square="{name}"]')


def slot(page: Page, name: str) -> Locator:
    return page.locator(f'#board [data-fence="{name}"]')


def pawn(page: Page, seat: int) -> Locator:
    return page.locator(f'#board [data-pawn="{seat}"]')


def preview(page: Page) -> Locator:
    return page.locator("#board [data-preview]")


def fences_left(page: Page, seat: int) -> Locator:
    return page.locator(f'#board .q-player[data-seat="{seat}"]')


def mark_document(page: Page) -> None:
    page.evaluate("window.__sameDocument = true")


def same_document(page: Page) -> bool:
    return page.evaluate("window.__sameDocument === true") is True


def expect_my_turn(player: Player) -> None:
    expect(player.page.locator("#turn")).to_have_attribute("data-my-turn", "yes")


def expect_highlighted(page: Page, squares: set[str]) -> None:
    """Exactly ``squares`` are highlighted as legal destinations."""
    expect(page.locator("#board [data-square].legal")).to_have_count(len(squares))
    for name in squares:
        expect(square(page, name)).to_have_class(re.compile(r"\blegal\b"))


def expect_moves(page: Page, moves: list[str]) -> None:
    """The move list: each move numbered, in words (which name its squares), its notation kept."""
    items = page.locator("#moves li")
    expect(items).to_have_count(len(moves))
    for i, move in enumerate(moves):
        expect(items.nth(i)).to_have_attribute("data-move", move)
        expect(items.nth(i)).to_have_text(re.compile(rf"^{i + 1}\.\s*\w.*{move[:2]}"))


def create_room(host: Player, players: int = 2) -> int:
    page = host.page
    page.goto("/")
    create = lobby_action(page, "quoridor", "create")
    # Only the counts Quoridor allows are offered: 2 or 4, never 3.
    expect(create.get_by_label("Players").locator("option")).to_have_text(["2", "4"])
    create.get_by_label("Players").select_option(str(players))
    create.get_by_role("button", name="Create room").click()
    page.wait_for_url(re.compile(r"/rooms/\d+/$"))
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    expect(page.locator("#room-title")).to_have_text(re.compile(r"^Quoridor"))
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def take_seat(player: Player, room_id: int) -> None:
    player.page.goto(f"/rooms/{room_id}/")
    expect(player.page.locator("#connection")).to_have_attribute("data-state", "live")
    player.page.get_by_role("button", name="Take a seat").click()


def step(mover: Player, watchers: list[Player], seat: int, to: str, moves: list[str]) -> None:
    """mover clicks ``to``; the pawn is there on every page, the watchers' without a reload."""
    expect_my_turn(mover)
    for watcher in watchers:
        mark_document(watcher.page)
    square(mover.page, to).hover()
    expect(square(mover.page, to)).to_have_class(re.compile(r"\btarget\b"))
    square(mover.page, to).click()
    for player in (mover, *watchers):
        expect(pawn(player.page, seat)).to_have_attribute("data-at", to)
        expect(square(player.page, to)).to_have_class(re.compile(r"\blast\b"))
        expect_moves(player.page, moves)
    for watcher in watchers:
        assert same_document(watcher.page), f"{watcher.username}'s page reloaded to show the move"


def place(mover: Player, watchers: list[Player], seat: int, fence: str, left: int, moves: list[str]) -> None:
    """mover hovers the groove of ``fence``, sees its preview, clicks: it stands on every page."""
    expect_my_turn(mover)
    for watcher in watchers:
        mark_document(watcher.page)
    slot(mover.page, fence).hover()
    expect(preview(mover.page)).to_have_count(1)
    expect(preview(mover.page)).to_have_attribute("data-preview", fence)
    slot(mover.page, fence).click()
    for player in (mover, *watchers):
        expect(player.page.locator(f'#board [data-placed="{fence}"]')).to_have_count(1)
        expect(player.page.locator(f'#board [data-placed="{fence}"]')).to_have_class(re.compile(r"\blast\b"))
        expect(fences_left(player.page, seat)).to_have_attribute("data-fences-left", str(left))
        expect(fences_left(player.page, seat)).to_contain_text(f"{left} fences left")
        expect_moves(player.page, moves)
    for watcher in watchers:
        assert same_document(watcher.page), f"{watcher.username}'s page reloaded to show the fence"
    expect(preview(mover.page)).to_have_count(0)  # no longer mover's turn


def test_two_players_open_a_quoridor_game_by_clicking(register: Callable[[str], Player], server: LiveServer) -> None:
    alice, bob = register("alice"), register("bob")
    room_id = create_room(alice)
    expect(alice.page.locator("#turn")).to_contain_text("Waiting for an opponent")
    take_seat(bob, room_id)

    for player in (alice, bob):
        page = player.page
        expect(page.locator("#board [data-square]")).to_have_count(81)
        expect(page.locator("#board [data-fence]")).to_have_count(128)
        expect(pawn(page, 0)).to_have_attribute("data-at", "e1")
        expect(pawn(page, 1)).to_have_attribute("data-at", "e9")
        expect(page.locator("#board [data-placed]")).to_have_count(0)
        for seat in (0, 1):
            expect(fences_left(page, seat)).to_have_attribute("data-fences-left", "10")
        expect(fences_left(page, 0)).to_have_attribute("data-to-move", "yes")
        expect(fences_left(page, 0)).to_contain_text(alice.username)
        expect(fences_left(page, 1)).to_contain_text(bob.username)
        # Row and column labels: a..i along the bottom, 1..9 up the side.
        expect(page.locator("#board .q-label")).to_have_count(18)
    expect_my_turn(alice)
    expect(bob.page.locator("#turn")).to_have_attribute("data-my-turn", "no")

    # Hovering her pawn shows where it can go; bob, not to move, sees nothing.
    square(bob.page, "e9").hover()
    square(alice.page, "e1").hover()
    expect_highlighted(alice.page, {"d1", "e2", "f1"})
    expect_highlighted(bob.page, set())
    screenshot(alice.page, "quoridor-hover-pawn")
    square(alice.page, "a5").hover()  # away from her pawn: nothing highlighted
    expect_highlighted(alice.page, set())
    # Not bob's turn: a groove shows him no preview.
    slot(bob.page, "e5h").hover()
    expect(preview(bob.page)).to_have_count(0)

    moves = ["e2"]
    step(alice, [bob], 0, "e2", moves)

    # bob walls alice's pawn off from e3.
    moves.append("e2h")
    place(bob, [alice], 1, "e2h", 9, moves)
    expect(fences_left(alice.page, 0)).to_have_attribute("data-fences-left", "10")
    expect(fences_left(alice.page, 1)).to_contain_text("9 fences left")
    expect(alice.page.locator("#board .q-fence-chip")).to_have_count(19)

    # Slots that overlap or cross that fence give no preview; a free one does.
    expect_my_turn(alice)
    for taken in ("d2h", "f2h", "e2v", "e2h"):
        slot(alice.page, taken).hover()
        expect(preview(alice.page)).to_have_count(0)
    slot(alice.page, "e5h").hover()
    expect(preview(alice.page)).to_have_attribute("data-preview", "e5h")
    screenshot(alice.page, "quoridor-fence-preview")
    # The fence is what the server says: e3 is out of reach now.
    square(alice.page, "e2").hover()
    expect_highlighted(alice.page, {"d2", "f2", "e1"})
    screenshot(alice.page, "quoridor-after-fence")

    moves.append("d2")
    step(alice, [bob], 0, "d2", moves)
    moves.append("e8")
    step(bob, [alice], 1, "e8", moves)
    moves.append("e7h")
    place(alice, [bob], 0, "e7h", 9, moves)
    square(bob.page, "e8").hover()
    expect_highlighted(bob.page, {"d8", "f8", "e9"})
    # A click on his pawn keeps its destinations shown after the pointer leaves it.
    square(bob.page, "e8").click()
    square(bob.page, "a1").hover()
    expect_highlighted(bob.page, {"d8", "f8", "e9"})
    # The groove under column i places the fence on h and i.
    groove = slot(bob.page, "h4h").bounding_box()
    assert groove is not None
    bob.page.mouse.move(groove["x"] + groove["width"] * 0.85, groove["y"] + groove["height"] / 2)
    expect(preview(bob.page)).to_have_attribute("data-preview", "h4h")
    moves.append("d8")
    step(bob, [alice], 1, "d8", moves)

    for player in (alice, bob):
        expect(player.page.locator("#board [data-placed]")).to_have_count(2)
        expect(fences_left(player.page, 0)).to_have_attribute("data-fences-left", "9")
        expect(fences_left(player.page, 1)).to_have_attribute("data-fences-left", "9")
        expect(player.page.locator("#board .q-last")).to_have_text(re.compile(r"Last move: P2 d8"))
    expect(fences_left(alice.page, 0)).to_have_attribute("data-to-move", "yes")
    screenshot(alice.page, "quoridor-two-players")
    screenshot(bob.page, "quoridor-two-players-bob")

    # A reload draws the same board.
    bob.page.reload()
    expect(bob.page.locator("#connection")).to_have_attribute("data-state", "live")
    expect(pawn(bob.page, 0)).to_have_attribute("data-at", "d2")
    expect(pawn(bob.page, 1)).to_have_attribute("data-at", "d8")
    expect(bob.page.locator("#board [data-placed]")).to_have_count(2)
    expect_moves(bob.page, moves)

    # The replay is read-only: positions step by step, no previews, no highlights.
    match_id = bob.page.evaluate(f"fetch('/api/rooms/{room_id}/').then(r => r.json()).then(r => r.match)")
    bob.page.goto(f"/matches/{match_id}/replay/")
    expect(bob.page.locator("#ply-label")).to_have_text("0 / 6")
    expect(pawn(bob.page, 0)).to_have_attribute("data-at", "e1")
    bob.page.get_by_role("button", name="Next").click()
    bob.page.get_by_role("button", name="Next").click()
    expect(bob.page.locator("#ply-label")).to_have_text("2 / 6")
    expect(bob.page.locator('#board [data-placed="e2h"]')).to_have_count(1)
    expect(pawn(bob.page, 0)).to_have_attribute("data-at", "e2")
    bob.page.get_by_role("button", name="Last").click()
    expect(bob.page.locator("#ply-label")).to_have_text("6 / 6")
    expect(bob.page.locator("#board [data-placed]")).to_have_count(2)
    expect(pawn(bob.page, 1)).to_have_attribute("data-at", "d8")
    square(bob.page, "d8").hover()
    expect_highlighted(bob.page, set())
    slot(bob.page, "a1h").hover()
    expect(preview(bob.page)).to_have_count(0)
    screenshot(bob.page, "quoridor-replay")


def test_four_players_each_make_a_move(register: Callable[[str], Player]) -> None:
    players = [register(name) for name in ("alice", "bob", "carol", "dave")]
    alice = players[0]
    room_id = create_room(alice, players=4)
    expect(alice.page.locator("#turn")).to_contain_text("Waiting for 3 more players")
    for guest in players[1:]:
        take_seat(guest, room_id)

    starts = ["e1", "a5", "e9", "i5"]
    for player in players:
        page = player.page
        for seat, start in enumerate(starts):
            expect(pawn(page, seat)).to_have_attribute("data-at", start)
            expect(fences_left(page, seat)).to_have_attribute("data-fences-left", "5")
            expect(fences_left(page, seat)).to_contain_text(players[seat].username)
        # Each goal side is coloured for the seat that races to it.
        expect(page.locator("#board .q-goal")).to_have_count(4)
    expect_my_turn(alice)

    moves = ["e2"]
    step(alice, players[1:], 0, "e2", moves)
    bob = players[1]
    square(bob.page, "a5").hover()
    expect_highlighted(bob.page, {"a4", "a6", "b5"})
    moves.append("b5")
    step(bob, [p for p in players if p is not bob], 1, "b5", moves)
    carol = players[2]
    moves.append("d8h")
    place(carol, [p for p in players if p is not carol], 2, "d8h", 4, moves)
    dave = players[3]
    # carol's fence does not reach dave; his pawn steps towards column a.
    square(dave.page, "i5").hover()
    expect_highlighted(dave.page, {"i4", "i6", "h5"})
    moves.append("h5")
    step(dave, players[:3], 3, "h5", moves)
    expect_my_turn(alice)
    for player in players:
        expect(fences_left(player.page, 0)).to_have_attribute("data-to-move", "yes")
        expect(fences_left(player.page, 2)).to_have_attribute("data-fences-left", "4")
    screenshot(dave.page, "quoridor-four-players")

    # alice resigns: in a game of four the others play on, and an AI of the
    # room's level takes her seat (it moves for her at once: it was her turn).
    alice.page.once("dialog", lambda dialog: dialog.accept())
    alice.page.get_by_role("button", name="Resign").click()
    expect(alice.page.get_by_role("button", name="Resign")).to_be_hidden()
    for player in players:
        expect(fences_left(player.page, 1)).to_have_attribute("data-to-move", "yes")
        expect(player.page.locator("#banner")).to_be_hidden()
    # Each later resignation hands a seat over too, until the last person's
    # ends the game (the engine's position may still name someone to move).
    for quitter in players[1:]:
        quitter.page.once("dialog", lambda dialog: dialog.accept())
        quitter.page.get_by_role("button", name="Resign").click()
        expect(quitter.page.get_by_role("button", name="Resign")).to_be_hidden()
    for player in players:
        expect(player.page.locator("#banner")).to_contain_text(f"{dave.username} resigned")
        expect(player.page.locator('#board .q-player[data-to-move="yes"]')).to_have_count(0)
        expect(player.page.locator("#board .q-pawn.to-move")).to_have_count(0)
        square(player.page, "e2").hover()
        expect_highlighted(player.page, set())


def focus_by_tab(page: Page, selector: str) -> None:
    """Tab through the page until ``selector`` has the focus, as a keyboard player does."""
    page.locator("body").click(position={"x": 2, "y": 2})
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("(selector) => document.activeElement === document.querySelector(selector)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_quoridor_plays_from_the_keyboard_with_visible_focus(register: Callable[[str], Player]) -> None:
    alice, bob = register("alice"), register("bob")
    room_id = create_room(alice)
    take_seat(bob, room_id)
    expect_my_turn(alice)
    page = alice.page
    focus_by_tab(page, "#board .q-board")
    # The board shows it has the focus.
    assert page.locator("#board .q-board").evaluate("e => getComputedStyle(e).outlineStyle") == "solid"
    expect(page.locator("#board .q-keys")).to_be_visible()
    # The first arrow puts the cursor on her pawn and shows where it can go.
    page.keyboard.press("ArrowUp")
    expect(page.locator("#board [data-cursor]")).to_have_attribute("data-cursor", "e1")
    expect_highlighted(page, {"d1", "e2", "f1"})
    page.keyboard.press("ArrowUp")
    expect(page.locator("#board [data-cursor]")).to_have_attribute("data-cursor", "e2")
    page.keyboard.press("Enter")
    for player in (alice, bob):
        expect(pawn(player.page, 0)).to_have_attribute("data-at", "e2")
        expect_moves(player.page, ["e2"])

    # bob answers by keyboard too: a fence. H shows it above the cursor's square; Enter places it.
    expect_my_turn(bob)
    focus_by_tab(bob.page, "#board .q-board")
    bob.page.keyboard.press("ArrowDown")  # the cursor starts on his pawn, e9
    expect(bob.page.locator("#board [data-cursor]")).to_have_attribute("data-cursor", "e9")
    for key in ("ArrowDown", "ArrowDown", "ArrowDown", "ArrowDown", "ArrowDown", "ArrowDown", "h"):
        bob.page.keyboard.press(key)
    expect(bob.page.locator("#board [data-cursor]")).to_have_attribute("data-cursor", "e3h")
    expect(preview(bob.page)).to_have_attribute("data-preview", "e3h")
    screenshot(bob.page, "quoridor-keyboard-fence")
    # V turns it upright, V again goes back to squares, H once more: across again.
    bob.page.keyboard.press("v")
    expect(bob.page.locator("#board [data-cursor]")).to_have_attribute("data-cursor", "e3v")
    bob.page.keyboard.press("v")
    expect(bob.page.locator("#board [data-cursor]")).to_have_attribute("data-cursor", "e3")
    bob.page.keyboard.press("h")
    bob.page.keyboard.press("Enter")
    for player in (alice, bob):
        expect(player.page.locator('#board [data-placed="e3h"]')).to_have_count(1)
        expect_moves(player.page, ["e2", "e3h"])
    # Not her turn any more: keys show bob nothing to play, and Enter does nothing.
    bob.page.keyboard.press("Enter")
    expect_moves(bob.page, ["e2", "e3h"])
