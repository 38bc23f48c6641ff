"""Sokoban in a browser against a real server: the level browser, key play,
undo and reset, the solver's answer played out, progress and cancel, uploads.

The board's cells carry data-x / data-y (0-based, from the top left),
data-kind (wall, floor, outside) and data-goal / data-box / data-player when
so; the status panel shows the counters and path under data-testid
sokoban-moves, sokoban-pushes, sokoban-path; the solver panel's data-phase is
idle, working, playing, done or failed.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Locator, Page, expect

from .conftest import Player, screenshot

pytestmark = pytest.mark.e2e

# Microban 1's push-optimal solution, from shared/data/sokoban/microban_push_optimal.tsv.
MICROBAN_1 = "dlUrrrdLullddrUluRuulDrddrruLdlUU"
ARROWS = {"l": "ArrowLeft", "u": "ArrowUp", "r": "ArrowRight", "d": "ArrowDown"}
WASD = {"l": "a", "u": "w", "r": "d", "d": "s"}


def counters(page: Page, moves: int, pushes: int, path: str | None = None) -> None:
    expect(page.get_by_test_id("sokoban-moves")).to_have_text(str(moves))
    expect(page.get_by_test_id("sokoban-pushes")).to_have_text(str(pushes))
    if path is not None:
        expect(page.get_by_test_id("sokoban-path")).to_have_text(path)


def expect_player_at(page: Page, x: int, y: int) -> None:
    expect(page.locator("#board .sk-cell[data-player]")).to_have_attribute("data-x", str(x))
    expect(page.locator("#board .sk-cell[data-player]")).to_have_attribute("data-y", str(y))


def boxes(page: Page) -> list[str]:
    return list(page.locator("#board .sk-cell[data-box]").evaluate_all(
        "cells => cells.map(c => `${c.dataset.x},${c.dataset.y}`)"))


def open_level_browser(page: Page) -> None:
    page.locator(".topbar").get_by_role("link", name="Sokoban").click()
    page.wait_for_url(re.compile(r"/sokoban/"))
    expect(page.locator("#levels .skb-tile").first).to_be_visible()


def level_tile(page: Page, number: int) -> Locator:
    return page.locator(f'#levels .skb-tile[data-number="{number}"]')


def tab(page: Page, collection: str) -> Locator:
    return page.locator(f'#collections [role="tab"][data-collection="{collection}"]')


def start_microban_1(player: Player) -> None:
    page = player.page
    open_level_browser(page)
    expect(tab(page, "Microban")).to_have_attribute("aria-selected", "true")
    expect(tab(page, "Microban")).to_have_text("Microban 0 / 155")
    expect(tab(page, "Microban II")).to_have_text("Microban II 0 / 135")
    tile = level_tile(page, 1)
    expect(tile).to_have_attribute("data-solved", "no")
    screenshot(page, "e2e-sokoban-levels")
    tile.click()
    page.wait_for_url(re.compile(r"/rooms/\d+/$"))
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    expect(page.get_by_test_id("sokoban-title")).to_have_text("Microban 1")
    # Microban 1 is 6 wide and 7 high; the player starts at (2, 3), one box on a goal.
    expect(page.locator("#board .sk-cell")).to_have_count(42)
    expect(page.locator('#board .sk-cell[data-kind="wall"]')).to_have_count(22)
    expect(page.locator("#board .sk-cell[data-goal]")).to_have_count(2)
    expect_player_at(page, 2, 3)
    assert sorted(boxes(page)) == ["1,3", "3,4"]
    counters(page, 0, 0, "")


def press(page: Page, letters: str, keys: dict[str, str] = ARROWS, moves: int = 0, pushes: int = 0) -> tuple[int, int]:
    """Each letter as its key; the counters go up by one move (and push) each time."""
    for letter in letters:
        page.keyboard.press(keys[letter.lower()])
        moves += 1
        pushes += letter.isupper()
        counters(page, moves, pushes)
    return moves, pushes


def record_solver(page: Page) -> None:
    """From now on, remember every phase the solver panel shows and every length of the moves still to play."""
    page.evaluate("""() => {
        const panel = document.querySelector("#board .sk-solver");
        const left = document.querySelector("#board [data-testid=sokoban-remaining]");
        window.__phases = [];
        window.__remaining = [];
        new MutationObserver(() => window.__phases.push(panel.dataset.phase))
            .observe(panel, {attributes: true, attributeFilter: ["data-phase"]});
        new MutationObserver(() => window.__remaining.push(left.textContent.length))
            .observe(left, {childList: true, characterData: true, subtree: true});
    }""")


def test_a_player_solves_microban_1_by_keys_then_watches_the_solver_do_it(register: Callable[[str], Player]) -> None:
    alice = register("alice")
    page = alice.page
    start_microban_1(alice)

    # Keys typed into the chat are chat, not moves.
    page.locator("#chat-input").fill("wasd zr")
    page.locator("#chat-input").press("Enter")
    expect(page.locator("#chat-log li")).to_have_count(1)
    expect(page.locator("#chat-log")).to_contain_text("wasd zr")
    page.locator("#chat-input").press("ArrowLeft")
    page.locator("#chat-input").press("s")
    expect(page.locator("#chat-input")).to_have_value("s")
    page.locator("#chat-input").fill("")
    counters(page, 0, 0, "")
    # A click on the board (not next to the player) gives the keys back to the game.
    page.locator('#board .sk-cell[data-x="5"][data-y="0"]').click()

    # WASD moves too (a plain S is "down"); a push shows in upper case.
    press(page, "dlU", WASD)
    counters(page, 3, 1, "dlU")
    expect_player_at(page, 1, 3)
    assert sorted(boxes(page)) == ["1,2", "3,4"]
    # Undo takes back the push: the path shortens, the counters do not drop.
    page.keyboard.press("z")
    counters(page, 3, 1, "dl")
    expect_player_at(page, 1, 4)
    assert sorted(boxes(page)) == ["1,3", "3,4"]
    page.keyboard.press("Z")
    counters(page, 3, 1, "d")
    screenshot(page, "e2e-sokoban-undo")
    # Reset: back to the start, counters included.
    page.keyboard.press("r")
    counters(page, 0, 0, "")
    expect_player_at(page, 2, 3)
    expect(page.locator('#board [data-action="undo"]')).to_be_disabled()

    # The push-optimal solution, key by key, the counters checked on the way.
    # First a push to the left that the server does not list (a box against a
    # wall): nothing is sent, so the next key makes the first move.
    page.keyboard.press("ArrowLeft")
    press(page, MICROBAN_1[:12], ARROWS)
    counters(page, 12, 2, MICROBAN_1[:12])
    # An on-screen key does what its key does.
    page.locator('#board [data-action="d"]').click()
    counters(page, 13, 2, MICROBAN_1[:13])
    press(page, MICROBAN_1[13:], ARROWS, moves=13, pushes=2)
    counters(page, 33, 8, MICROBAN_1)
    expect(page.locator("#board .sk")).to_have_attribute("data-solved", "yes")
    expect(page.locator("#board .sk-solved")).to_contain_text("Solved!")
    expect(page.locator("#board .sk-solved")).to_contain_text("33 moves · 8 pushes")
    expect(page.locator("#banner")).to_contain_text("Solved!")
    assert sorted(boxes(page)) == ["1,3", "2,1"]
    screenshot(page, "e2e-sokoban-solved-by-keys")

    # A new attempt: a step of my own, then the solver (Shift+S; a plain S is "down").
    page.get_by_role("button", name="Play again").click()
    counters(page, 0, 0, "")
    expect(page.locator("#board .sk")).to_have_attribute("data-solved", "no")
    press(page, "d", ARROWS)
    record_solver(page)
    page.keyboard.press("Shift+S")
    expect(page.locator("#board .sk-solver")).to_have_attribute("data-phase", "playing")
    expect(page.locator("#board .sk-solver")).to_contain_text("Found 33 moves, 8 pushes, push-optimal")
    # Input is locked while the solution plays.
    expect(page.locator('#board [data-action="l"]')).to_be_disabled()
    expect(page.locator('#board [data-action="solve"]')).to_be_disabled()
    page.keyboard.press("ArrowUp")
    screenshot(page, "e2e-sokoban-solver-playing")
    expect(page.locator("#board .sk-solver")).to_have_attribute("data-phase", "done", timeout=30_000)
    # It played from the level's start: the counters are exactly the solution's.
    counters(page, 33, 8, MICROBAN_1)
    # The server played it on her behalf, so it is not her own solve.
    expect(page.locator("#board .sk-solved")).to_contain_text("Solved with the solver")
    expect(page.locator("#banner")).to_contain_text("Solved with the solver")
    phases = page.evaluate("window.__phases")
    assert phases[:3] == ["working", "playing", "done"], phases
    remaining = page.evaluate("window.__remaining")
    # The moves still to play shrank one at a time, all the way to none.
    assert remaining[0] == 33 and remaining[-1] == 0, remaining
    assert remaining == sorted(remaining, reverse=True) and len(set(remaining)) == 34, remaining
    moves_log = page.locator("#moves li")
    expect(moves_log).to_have_count(35)  # d, reset, then the 33 of the solution
    # In words, each marked as the solver's but her own first step.
    expect(moves_log.nth(0)).to_contain_text("stepped down")
    expect(moves_log.nth(0).locator(".made-by")).to_have_count(0)
    expect(moves_log.nth(1)).to_contain_text("started the level again")
    expect(page.locator("#moves li .made-by-solver")).to_have_count(34)

    # The browser shows the level solved with the best counts: her own, not the solver's.
    open_level_browser(page)
    tile = level_tile(page, 1)
    expect(tile).to_have_attribute("data-solved", "yes")
    expect(tile).to_contain_text("33 moves · 8 pushes")
    expect(tab(page, "Microban")).to_have_text("Microban 1 / 155")
    expect(page.locator("#collection-summary")).to_have_text("1 of 155 solved.")
    screenshot(page, "e2e-sokoban-levels-solved")


def test_after_a_solve_n_starts_the_next_level_and_the_replay_is_read_only(register: Callable[[str], Player]) -> None:
    bob = register("bob")
    page = bob.page
    start_microban_1(bob)
    room_url = page.url
    # N does nothing before the level is solved.
    page.keyboard.press("n")
    press(page, MICROBAN_1, ARROWS)
    expect(page.locator("#board .sk-solved")).to_contain_text("Solved!")
    page.get_by_role("link", name="Review this game").click()
    page.wait_for_url(re.compile(r"/matches/\d+/replay/$"))
    expect(page.locator("#board .sk-cell[data-player]")).to_have_count(1)
    expect(page.locator("#board .sk-controls, #board .sk-solver")).to_have_count(0)
    page.get_by_role("button", name="Last").click()
    expect(page.locator("#board .sk-solved")).to_contain_text("Solved!")
    counters(page, 33, 8, MICROBAN_1)
    # The arrow keys step through the replay; they do not move the player.
    page.keyboard.press("ArrowLeft")
    counters(page, 32, 7, MICROBAN_1[:-1])
    page.go_back()
    page.wait_for_url(room_url)
    expect(page.locator("#board .sk-solved")).to_contain_text("Solved!")
    page.keyboard.press("n")
    page.wait_for_url(lambda url: url != room_url and re.search(r"/rooms/\d+/$", url) is not None)
    expect(page.get_by_test_id("sokoban-title")).to_have_text("Microban 2")
    counters(page, 0, 0, "")


def test_a_long_solve_shows_its_progress_and_can_be_cancelled(register: Callable[[str], Player]) -> None:
    carol = register("carol")
    page = carol.page
    open_level_browser(page)
    tab(page, "Microban II").click()
    tile = level_tile(page, 131)  # 44 boxes: far beyond a breadth-first search
    expect(tile).to_be_visible()
    tile.click()
    page.wait_for_url(re.compile(r"/rooms/\d+/$"))
    expect(page.get_by_test_id("sokoban-title")).to_have_text("Microban II 131")
    page.get_by_label("Solver algorithm").select_option("bfs")
    page.locator('#board [data-action="solve"]').click()
    solver = page.locator("#board .sk-solver")
    expect(solver).to_have_attribute("data-phase", "working")
    # Live progress: the positions searched so far, pushed as the search runs.
    expect(page.get_by_test_id("sokoban-progress")).not_to_have_text("0")
    expect(solver).to_contain_text("Searching with Breadth-first")
    first = int(page.get_by_test_id("sokoban-progress").inner_text().replace(",", ""))
    expect(page.get_by_test_id("sokoban-progress")).not_to_have_text(f"{first:,}")
    screenshot(page, "e2e-sokoban-solver-working")
    # Moves wait while the solver works.
    expect(page.locator('#board [data-action="r"]')).to_be_disabled()
    page.get_by_role("button", name="Cancel").click()
    expect(solver).to_have_attribute("data-phase", "done")
    expect(solver).to_contain_text("Cancelled.")
    # The player has the board back (a wall to the left, floor to the right).
    page.keyboard.press("ArrowRight")
    counters(page, 1, 0, "r")


def test_an_upload_is_refused_with_the_servers_reason_or_added_to_uploads(register: Callable[[str], Player]) -> None:
    dave = register("dave")
    page = dave.page
    open_level_browser(page)
    text, title = page.get_by_label("Level, in XSB or the numeric format"), page.get_by_label("Title (optional)")
    error = page.locator("#upload-error")
    for level, reason in [
        ("#####\n#@$ #\n#####", "the level has 1 box but 0 goals; it needs as many of each"),
        ("#####\n#  .#\n# $ #\n#####", "the level has no player"),
        ("#####\n#$  #\n#@ .#\n#####", "cannot be solved"),
    ]:
        text.fill(level)
        page.get_by_role("button", name="Upload").click()
        expect(error).to_be_visible()
        expect(error).to_contain_text(reason)
    screenshot(page, "e2e-sokoban-upload-refused")
    # The numeric format: 7 columns, 4 rows, four boxes.
    text.fill("7 4 4111114 1325231 1320231 4111114")
    title.fill(f"Corridor of {dave.username}")
    page.get_by_role("button", name="Upload").click()
    expect(page.locator("#upload-done")).to_contain_text(f"Added to Uploads: Corridor of {dave.username}")
    expect(error).to_be_hidden()
    expect(tab(page, "Uploads")).to_have_attribute("aria-selected", "true")
    added = page.locator("#levels .skb-tile.fresh")
    expect(added).to_contain_text(f"Corridor of {dave.username}")
    expect(added).to_contain_text("4 boxes")
    added.click()
    page.wait_for_url(re.compile(r"/rooms/\d+/$"))
    expect(page.get_by_test_id("sokoban-title")).to_have_text(f"Corridor of {dave.username}")
    expect(page.locator("#board .sk-cell[data-box]")).to_have_count(4)


def test_a_level_solved_only_with_the_solver_is_marked_so_and_leaving_a_level_reads_so(
    register: Callable[[str], Player],
) -> None:
    dave = register("dave")
    page = dave.page
    start_microban_1(dave)
    # What the counters count is written on the screen, not only in a tooltip.
    expect(page.get_by_test_id("sokoban-counter-meaning")).to_be_visible()
    expect(page.get_by_test_id("sokoban-counter-meaning")).to_contain_text("undone ones included")
    page.keyboard.press("Shift+S")
    expect(page.locator("#board .sk-solver")).to_have_attribute("data-phase", "done", timeout=30_000)
    expect(page.locator("#board .sk-solved")).to_contain_text("Solved with the solver")
    expect(page.locator("#board .sk-solved")).to_contain_text("not counted as your own solve")
    counters(page, 33, 8, MICROBAN_1)

    # The level browser: not solved by him, but marked as solved with the solver.
    open_level_browser(page)
    tile = level_tile(page, 1)
    expect(tile).to_have_attribute("data-solved", "no")
    expect(tile).to_have_attribute("data-solver", "yes")
    expect(tile).to_contain_text("with the solver")
    expect(tab(page, "Microban")).to_have_text("Microban 0 / 155")

    # On a puzzle played alone, "Resign" is leaving the level, and it goes back to the levels.
    level_tile(page, 2).click()
    page.wait_for_url(re.compile(r"/rooms/\d+/$"))
    expect(page.get_by_test_id("sokoban-title")).to_have_text("Microban 2")
    expect(page.get_by_role("button", name="Resign")).to_have_count(0)
    leave = page.get_by_role("button", name="Leave level")
    expect(leave).to_be_visible()
    page.once("dialog", lambda dialog: dialog.accept() if "Leave this level" in dialog.message else dialog.dismiss())
    leave.click()
    page.wait_for_url(re.compile(r"/sokoban/$"))
    expect(level_tile(page, 2)).to_have_attribute("data-solved", "no")


def test_the_sokoban_room_fits_a_390_pixel_wide_screen(register: Callable[[str], Player]) -> None:
    erin = register("erin")
    page = erin.page
    page.set_viewport_size({"width": 390, "height": 844})
    start_microban_1(erin)
    expect(page.locator("#board .sk-cell").first).to_be_visible()

    def overflow() -> int:
        return int(page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth"))

    assert overflow() == 0, f"the page scrolls sideways by {overflow()} px"
    press(page, MICROBAN_1, ARROWS)
    expect(page.locator("#board .sk-solved")).to_contain_text("Solved!")
    assert overflow() == 0, f"solved, the page scrolls sideways by {overflow()} px"
    screenshot(page, "e2e-sokoban-390px")
