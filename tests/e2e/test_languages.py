"""Korean and English in the browser (issue 11): the top bar's switch, the
choice kept per player, the browser's own language for visitors, and the
games' own words (a move in the move list) translated while notation is not."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Browser, expect

from .conftest import PASSWORD, LiveServer, Player, lobby_action, screenshot


def test_a_player_switches_to_korean_and_the_site_and_the_games_words_follow(
    register: Callable[[str], Player], browser: Browser, server: LiveServer
) -> None:
    alice = register("alice")
    page = alice.page
    create = lobby_action(page, "connect-four", "create")
    create.get_by_label("Computer level").select_option("random")
    create.get_by_role("button", name="Create room").click()
    page.wait_for_url(re.compile(r"/rooms/\d+/$"))
    page.get_by_role("button", name="Play the computer").click()
    expect(page.locator("#seats li").nth(1)).to_contain_text("AI (random)")
    page.locator('#board [data-col="4"][data-row="6"]').click()
    expect(page.locator("#moves li").first).to_contain_text("dropped a disc in column 4")

    # The top bar's switch: the page comes back in Korean, the game's words too.
    page.locator(".topbar select[name=language]").select_option("ko")
    expect(page.locator(".topbar").get_by_role("link", name="설정")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "ko")
    expect(page.locator("#moves li").first).to_contain_text("4열에 원반을 떨어뜨림")
    screenshot(page, "e2e-korean-room")
    page.reload()
    expect(page.locator(".topbar").get_by_role("link", name="설정")).to_be_visible()

    # Kept for the player, not only this browser: another browser, set to
    # English, logs in and gets Korean.
    elsewhere = browser.new_context(base_url=server.url, locale="en-US")
    try:
        other = elsewhere.new_page()
        other.goto("/login/")
        expect(other.get_by_role("heading", name="Log in")).to_be_visible()
        other.get_by_label("Username").fill(alice.username)
        other.get_by_label("Password").fill(PASSWORD)
        other.get_by_role("button", name="Log in").click()
        expect(other.locator(".topbar").get_by_role("link", name="설정")).to_be_visible()
    finally:
        elsewhere.close()


def test_a_visitor_whose_browser_speaks_korean_gets_korean(browser: Browser, server: LiveServer) -> None:
    context = browser.new_context(base_url=server.url, locale="ko-KR")
    try:
        page = context.new_page()
        page.goto("/login/")
        expect(page.get_by_role("heading", name="로그인")).to_be_visible()
        expect(page.get_by_label("사용자 이름")).to_be_visible()
        expect(page.locator(".topbar select[name=language]")).to_have_value("ko")
        # And back to English with the switch, without an account.
        page.locator(".topbar select[name=language]").select_option("en")
        expect(page.get_by_role("heading", name="Log in")).to_be_visible()
    finally:
        context.close()
