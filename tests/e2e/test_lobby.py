"""The lobby is a catalogue: a card per game of GET /api/games/, each with the
same actions (quick pairing, play the computer, create a room, join one) and a
how-to-play page. Every card's actions are tried here as a player would.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import Player, lobby_action, screenshot

pytestmark = pytest.mark.e2e


def catalogue(page: Page) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = page.request.get("/api/games/").json()
    return games


def room_id_of(page: Page) -> int:
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def multiplayer(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [game for game in games if game["max_players"] > 1]


def test_the_lobby_shows_a_card_per_game_of_the_catalogue(register: Callable[[str], Player]) -> None:
    alice = register("alice")
    page = alice.page
    games = catalogue(page)
    cards = page.locator(".game-card")
    expect(cards).to_have_count(len(games))
    # In the catalogue's order, and no game has a menu of its own above the others.
    assert cards.evaluate_all("cards => cards.map((c) => c.dataset.game)") == [game["slug"] for game in games]
    expect(page.locator("#manhattan-menu")).to_have_count(0)
    screenshot(page, "e2e-lobby-catalogue")

    for game in games:
        card = page.locator(f'.game-card[data-game="{game["slug"]}"]')
        expect(card.get_by_role("heading")).to_have_text(game["name"])
        # A picture of its board, its seat counts, a rules page.
        picture = card.locator("img.game-picture")
        expect(picture).to_be_visible()
        assert picture.evaluate("img => img.complete && img.naturalWidth > 0"), f"{game['slug']}: the picture did not load"
        for count in game["player_counts"]:
            expect(card.locator(".game-players")).to_contain_text(str(count))
        expect(card.get_by_role("link", name="How to play")).to_have_attribute("href", f"/games/{game['slug']}/rules/")
        # The same actions for every game; a game played alone has nobody to pair with or to seat.
        expect(card.get_by_role("button", name="Play", exact=True)).to_be_visible()
        expect(card.locator("details.action.join")).to_have_count(1)
        together = game["max_players"] > 1
        expect(card.locator("details.action.computer")).to_have_count(1 if together else 0)
        expect(card.locator("details.action.create")).to_have_count(1 if together else 0)
        expect(card.locator(".quick-play")).to_have_count(1 if together else 0)
        if together:
            # A new player's rating in each of the game's pools, provisional.
            expect(card.locator(".my-rating").first).to_contain_text("1500?")
            # The computer's levels are the catalogue's, with what each does.
            levels = lobby_action(page, game["slug"], "computer").get_by_label("Computer level").locator("option")
            expect(levels).to_have_count(len(game["ai_levels"]))
            for level, option in zip(game["ai_levels"], levels.all(), strict=True):
                expect(option).to_have_attribute("value", level["name"])
                expect(option).to_contain_text(level["description"])


def test_play_the_computer_starts_a_game_against_the_ai_from_every_card(register: Callable[[str], Player]) -> None:
    alice = register("alice")
    page = alice.page
    for game in multiplayer(catalogue(page)):
        page.goto("/")
        computer = lobby_action(page, game["slug"], "computer")
        # Not the default level, so the choice is seen to reach the room (and not the
        # strongest Manhattan player either, whose thinking would slow the other tests).
        level = game["ai_levels"][min(1, len(game["ai_levels"]) - 1)]["name"]
        computer.get_by_label("Computer level").select_option(level)
        players = game["player_counts"][-1]
        if len(game["player_counts"]) > 1:
            computer.get_by_label("Players").select_option(str(players))
        computer.get_by_role("button", name="Start the game").click()
        page.wait_for_url(re.compile(r"/rooms/\d+/$"))
        expect(page.locator("#room-title")).to_have_text(re.compile(f"^{game['name']}"))
        # Started at once: alice in the first seat, the computer in every other.
        expect(page.locator("#seats li")).to_have_count(players)
        expect(page.locator("#seats li").first).to_contain_text(alice.username)
        expect(page.locator("#seats li", has_text=f"AI ({level})")).to_have_count(players - 1)
        expect(page.locator("#room-status")).to_have_text("playing")
        expect(page.locator("#board")).to_be_visible()
        room = page.request.get(f"/api/rooms/{room_id_of(page)}/").json()
        assert room["options"]["ai"] == level and room["options"]["rated"] is False
        # Done: resigning stops the game's clock, so no timer plays on for alice.
        page.once("dialog", lambda dialog: dialog.accept())
        page.get_by_role("button", name="Resign").click()
        expect(page.get_by_role("button", name="Resign")).to_be_hidden()

    # A game played alone starts with its Play button.
    for game in catalogue(page):
        if game["max_players"] > 1:
            continue
        page.goto("/")
        page.locator(f'.game-card[data-game="{game["slug"]}"]').get_by_role("button", name="Play", exact=True).click()
        page.wait_for_url(re.compile(r"/rooms/\d+/$"))
        expect(page.locator("#room-title")).to_have_text(re.compile(f"^{game['name']}"))
        expect(page.locator("#seats li")).to_have_count(1)
        expect(page.locator("#board")).to_be_visible()


def test_every_card_creates_a_room_that_another_player_joins_by_its_code(register: Callable[[str], Player]) -> None:
    alice, bob = register("alice"), register("bob")
    for game in multiplayer(catalogue(alice.page)):
        alice.page.goto("/")
        lobby_action(alice.page, game["slug"], "create").get_by_role("button", name="Create room").click()
        alice.page.wait_for_url(re.compile(r"/rooms/\d+/$"))
        room_id = room_id_of(alice.page)
        expect(alice.page.locator("#room-title")).to_have_text(re.compile(f"^{game['name']}"))
        code = alice.page.locator("#room-code").inner_text()

        # bob sees it on the game's card, and finds it by its code.
        bob.page.goto("/")
        join = lobby_action(bob.page, game["slug"], "join")
        expect(join.locator(f'.open-rooms li[data-room="{room_id}"]')).to_contain_text(alice.username)
        join.get_by_label("Join by room code").fill(code)
        join.get_by_role("button", name="Find room").click()
        bob.page.wait_for_url(re.compile(rf"/rooms/{room_id}/$"))
        expect(bob.page.locator("#room-code")).to_have_text(code)
        bob.page.get_by_role("button", name="Take a seat").click()
        expect(alice.page.locator("#seats li", has_text=bob.username)).to_have_count(1)

    # A code nobody has is said so.
    bob.page.goto("/")
    join = lobby_action(bob.page, "connect-four", "join")
    join.get_by_label("Join by room code").fill("ZZZZZZ")
    join.get_by_role("button", name="Find room").click()
    expect(join.locator(".error")).to_contain_text("No open room has the code ZZZZZZ")


def test_a_rated_room_says_so_in_the_room_and_in_the_lobby(register: Callable[[str], Player]) -> None:
    alice, bob = register("alice"), register("bob")
    create = lobby_action(alice.page, "quoridor", "create")
    # Rated is offered at every seat count that has a rating pool: Quoridor's 2 and 4.
    for players in ("4", "2"):
        create.get_by_label("Players").select_option(players)
        expect(create.get_by_label("Rated")).to_be_visible()
    create.get_by_label("Rated").check()
    create.get_by_role("button", name="Create room").click()
    alice.page.wait_for_url(re.compile(r"/rooms/\d+/$"))
    room_id = room_id_of(alice.page)
    expect(alice.page.locator("#room-rated")).to_be_visible()
    assert alice.page.request.get(f"/api/rooms/{room_id}/").json()["options"]["rated"] is True
    # Seats show each player's rating in the room's pool.
    expect(alice.page.locator("#seats li").first).to_contain_text(f"{alice.username} (1500)")

    bob.page.reload()
    entry = bob.page.locator(f'#open-rooms li[data-room="{room_id}"]')
    expect(entry).to_have_attribute("data-rated", "yes")
    expect(entry.locator(".pill.rated")).to_have_text("rated")
    expect(entry).to_contain_text(f"{alice.username} (1500)")
    # Names lead to the players' pages.
    entry.get_by_role("link", name=alice.username).click()
    bob.page.wait_for_url(re.compile(rf"/players/{alice.username}/$"))
    expect(bob.page.locator("#player-name")).to_have_text(alice.username)


def test_every_game_has_a_how_to_play_page_that_says_how_to_win(register: Callable[[str], Player]) -> None:
    alice = register("alice")
    page = alice.page
    for game in catalogue(page):
        page.goto("/")
        page.locator(f'.game-card[data-game="{game["slug"]}"]').get_by_role("link", name="How to play").click()
        page.wait_for_url(re.compile(rf"/games/{game['slug']}/rules/$"))
        expect(page.get_by_role("heading", level=1)).to_have_text(f"How to play {game['name']}")
        expect(page.get_by_role("heading", name="How to win")).to_be_visible()
    # Eskimo's page says what wins: the bear trapped.
    page.goto("/games/eskimo/rules/")
    expect(page.locator("#rules")).to_contain_text("Trap the polar bear")
    screenshot(page, "e2e-rules-eskimo")
