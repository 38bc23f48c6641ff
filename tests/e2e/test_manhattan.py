"""Manhattan in the browser: its card in the lobby, a first round played by clicking, settings.

alice plays one player against three `random` AI seats, which the server's
scheduler moves by itself. The page is driven through what it shows: the
cards of her hand (data-card), her picked pieces (data-storey), the cities
(data-city) and their sites (data-site="row,column", seen from South). What is
legal is asked of the API (legal_moves, the same list the page filters), so
the test never re-implements a rule either.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from .conftest import Player, lobby_action, screenshot

pytestmark = pytest.mark.e2e

PLACE = re.compile(r"^(\d+)@(\d+)/(\d+)$")
IN_WORDS = re.compile(r"^(South|West|North|East) (picked \d(,\d){5}|built a \d-storey piece on city \d, [a-z-]+ site)")


def room_id_of(page: Page) -> int:
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def match_detail(page: Page, room_id: int) -> dict[str, Any]:
    """The match as the page's player sees it, from the API (the page's cookies)."""
    room = page.request.get(f"/api/rooms/{room_id}/").json()
    detail: dict[str, Any] = page.request.get(f"/api/matches/{room['match']}/").json()
    return detail


def move_count(page: Page, match_id: int) -> int:
    return len(page.request.get(f"/api/matches/{match_id}/moves/").json())


def expect_my_turn(page: Page) -> None:
    expect(page.locator("#turn")).to_have_attribute("data-my-turn", "yes")
    expect(page.locator("#board .mh")).to_have_class(re.compile(r"\bmy-turn\b"))


def site(page: Page, city: int, row: int, column: int) -> Locator:
    return page.locator(f'#board .mh-site[data-city="{city}"][data-site="{row},{column}"]')


def my_storeys(page: Page, city: int, row: int, column: int, seat: int) -> Locator:
    return site(page, city, row, column).locator(f'.mh-storeys[data-seat="{seat}"]')


def data_values(locator: Locator, name: str) -> list[str]:
    return list(locator.evaluate_all(f"nodes => nodes.map(n => n.dataset.{name})"))


def board_picture(page: Page) -> list[str]:
    """Every site as "city:row,column=owner/storeys of seats 0..3", as the page shows it."""
    return list(page.locator("#board .mh-site").evaluate_all("""sites => sites.map((s) =>
        `${s.dataset.city}:${s.dataset.site}=${s.dataset.owner}/` +
        [...s.querySelectorAll(".mh-storeys")].map((c) => c.dataset.storeys).join(","))"""))


def server_picture(state: dict[str, Any]) -> list[str]:
    """The same picture from the API's view of the match."""
    def owner(site: dict[str, Any]) -> str:
        return "" if site["owner"] is None else str(site["owner"])

    return [
        f"{city['city']}:{site['row']},{site['column']}={owner(site)}/" + ",".join(map(str, site["storeys"]))
        for city in state["cities"] for row in city["sites"] for site in row
    ]


def placements(legal: list[str]) -> list[tuple[int, int, int]]:
    """(card, city, storeys) of every legal `5@3/2` move."""
    found = [PLACE.fullmatch(move) for move in legal]
    return [(int(m[1]), int(m[2]), int(m[3])) for m in found if m]


def start_one_player_game(player: Player) -> int:
    page = player.page
    page.goto("/")
    solo = lobby_action(page, "manhattan", "computer")
    expect(solo).to_contain_text("the computer takes the others")
    solo.get_by_label("Computer level").select_option("random")
    solo.get_by_label("Time per turn").select_option(label="2 minutes")
    solo.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/rooms/\d+/$"))
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    expect(page.locator("#room-title")).to_have_text(re.compile(r"^Manhattan"))
    # Started at once: the three free seats became AI seats.
    expect(page.locator("#seats li")).to_have_count(4)
    expect(page.locator("#seats li", has_text="AI (random)")).to_have_count(3)
    expect(page.locator("#board .mh-site")).to_have_count(54)
    return room_id_of(page)


def pick_pieces(page: Page) -> None:
    """Round 1: put pieces in the tray; only trays that some legal pick contains are possible."""
    board = page.locator("#board")
    pick = board.locator('[data-action="pick"]')
    expect(pick).to_be_visible()
    expect(pick).to_be_disabled()
    four = board.locator('.mh-pick [data-pick="4"]')
    for _ in range(3):
        four.click()
    # Everyone owns three 4-storey pieces: a fourth is not offered.
    expect(four).to_be_disabled()
    expect(board.locator(".mh-tray [data-pick-chosen]")).to_have_count(3)
    board.locator('.mh-tray [data-pick-chosen="4"]').first.click()
    board.locator('.mh-tray [data-pick-chosen="4"]').first.click()
    for storey in "11223":
        board.locator(f'.mh-pick [data-pick="{storey}"]').click()
    # Six in the tray: nothing more can go in, and the pick can be sent.
    for storey in "1234":
        expect(board.locator(f'.mh-pick [data-pick="{storey}"]')).to_be_disabled()
    screenshot(page, "e2e-manhattan-pick")
    expect(pick).to_be_enabled()
    pick.click()
    expect(board.locator(".mh-pieces [data-storey]")).to_have_count(6)
    assert data_values(board.locator(".mh-pieces [data-storey]"), "storey") == ["1", "1", "2", "2", "3", "4"]
    expect(board.locator(".mh-log li", has_text=re.compile(r"picked 1,1,2,2,3,4$"))).to_have_count(1)


def build(page: Page, room_id: int, turn: int, seat: int) -> None:
    """One building turn by clicks, checked against the legal moves the API lists."""
    board = page.locator("#board")
    expect_my_turn(page)
    detail = match_detail(page, room_id)
    state, legal = detail["state"], detail["legal_moves"]
    assert detail["to_move"] == [seat]
    # Nobody moves while it is my turn: the log shows every move so far, in words.
    log = board.locator(".mh-log li")
    expect(log).to_have_count(move_count(page, detail["id"]))
    if all(move.startswith("discard:") for move in legal):  # the house rule: no placement anywhere
        card = legal[0].split(":")[1]
        board.locator(f'.mh-hand [data-card="{card}"]').first.click()
        board.locator('[data-action="discard"]').click()
        expect(board.locator(".mh-pieces [data-storey]")).to_have_count(5 - turn)
        return
    places = placements(legal)
    card, city, storey = places[(turn * 7) % len(places)]
    where = state["hand_sites"][str(card)]
    row, column = where["row"], where["column"]
    before = int(my_storeys(page, city, row, column, seat).get_attribute("data-storeys") or 0)

    # Hovering a card marks its site in all six cities, as the server reads it for my seat.
    card_button = board.locator(f'.mh-hand [data-card="{card}"]').first
    card_button.hover()
    hinted = board.locator(".mh-site.hint")
    expect(hinted).to_have_count(6)
    assert set(data_values(hinted, "site")) == {f"{row},{column}"}
    assert sorted(data_values(hinted, "city")) == ["1", "2", "3", "4", "5", "6"]
    if turn == 0:
        screenshot(page, "e2e-manhattan-hover")

    card_button.click()
    expect(card_button).to_have_class(re.compile(r"\bselected\b"))
    # Only the pieces and cities some legal move has with this card are offered.
    offered_pieces = board.locator(".mh-pieces [data-storey].offered")
    assert set(map(int, data_values(offered_pieces, "storey"))) == {s for c, _, s in places if c == card}
    assert set(map(int, data_values(board.locator(".mh-city.offered"), "city"))) == {t for c, t, _ in places if c == card}

    if turn % 2 == 0:
        # Card, piece, city.
        board.locator(f'.mh-pieces [data-storey="{storey}"]').first.click()
        cities = {t for c, t, s in places if c == card and s == storey}
        expect(board.locator(".mh-city.offered")).to_have_count(len(cities))
        if turn == 0:
            screenshot(page, "e2e-manhattan-choosing")
        board.locator(f'.mh-city[data-city="{city}"]').click()
    else:
        # Card, then its site in a city; the piece is asked for only when several fit there.
        site(page, city, row, column).click()
        if len({s for c, t, s in places if c == card and t == city}) > 1:
            expect(board.locator(".mh-city.chosen")).to_have_attribute("data-city", str(city))
            board.locator(f'.mh-pieces [data-storey="{storey}"]').first.click()
    # The site shows my new storeys (nobody can take storeys away, whoever owns it next).
    expect(my_storeys(page, city, row, column, seat)).to_have_attribute("data-storeys", str(before + storey))
    expect(board.locator(".mh-log li", has_text=f"on city {city}, {where['name']} site")).not_to_have_count(0)


def test_one_player_plays_the_first_round_against_the_ai_by_clicking(register: Callable[[str], Player]) -> None:
    alice = register("alice")
    page = alice.page
    room_id = start_one_player_game(alice)
    board = page.locator("#board")
    seat = match_detail(page, room_id)["seat"]
    mine = page.locator(f'#board .mh-seat[data-seat="{seat}"]')
    expect(mine).to_have_class(re.compile(r"\bme\b"))
    expect(board.locator(".mh-status .mh-round")).to_have_text("Round 1 of 4")
    expect(board.locator(".mh-side")).to_have_count(4)
    expect(board.locator(".mh-hand [data-card]")).to_have_count(4)

    pick_pieces(page)

    # The clock: this turn's time left, counting down from two minutes.
    expect_my_turn(page)
    clock = board.locator(".mh-clock")
    expect(clock).to_have_text(re.compile(r"^(2:00|1:[0-5]\d) left$"))
    expect(page.locator("#turn .clock")).to_have_text(re.compile(r"^(2:00|1:[0-5]\d) left$"))
    shown = clock.inner_text()
    expect(clock).not_to_have_text(shown)

    for turn in range(6):
        build(page, room_id, turn, seat)
        if turn == 1:
            screenshot(page, "e2e-manhattan-midround")
        # The AI seats answer by themselves, and the log says what they did, in words.
        if turn == 0:
            ai_moves = board.locator('.mh-log li[data-made-by="bot"]')
            expect(ai_moves.first).to_be_visible()
            expect(ai_moves.first.locator(".mh-mark")).to_have_text("AI")
            for text in ai_moves.locator(".mh-log-text").all_inner_texts():
                assert IN_WORDS.match(text), text

    # After the 24th placement the round is scored: the table shows round 1 as the server counted it.
    row = board.locator('.mh-scores tr[data-round="1"]')
    expect(row).to_be_visible()
    expect(board.locator(".mh-status .mh-round")).to_have_text("Round 2 of 4")
    after = match_detail(page, room_id)["state"]["after_rounds"][0]
    for s in range(4):
        cell = row.locator(f'td[data-seat="{s}"]')
        expect(cell).to_have_attribute("data-total", str(after["totals"][s]))
        expect(cell).to_contain_text(f"(+{after['points'][s]})")
    expect(mine.locator(".mh-score")).to_have_attribute("data-score", str(after["totals"][seat]))
    # The board on the page is the server's, site by site and seat by seat.
    assert board_picture(page) == server_picture(match_detail(page, room_id)["state"])
    for text in board.locator(".mh-log .mh-log-text").all_inner_texts():
        assert IN_WORDS.match(text), text
    # A sound at the end of each turn, another at the end of the round.
    kinds = page.evaluate("App.sound.played.map((p) => p.kind)")
    assert "turn" in kinds and "round" in kinds, kinds
    screenshot(page, "e2e-manhattan-round-1-scored")

    # The replay shows the same board and log, and offers nothing to click.
    match_id = match_detail(page, room_id)["id"]
    page.goto(f"/matches/{match_id}/replay/")
    page.get_by_role("button", name="Last").click()
    expect(page.locator("#board .mh-site")).to_have_count(54)
    expect(page.locator("#board .mh")).to_have_class(re.compile(r"\breadonly\b"))
    expect(page.locator("#board .mh-log li")).not_to_have_count(0)
    expect(page.locator("#board .mh-city.offered, #board .mh-card.offered, #board .mh-piece.offered")).to_have_count(0)


def test_a_turn_that_runs_out_of_time_is_played_for_me_and_marked_in_the_log(
    register: Callable[[str], Player],
) -> None:
    alice = register("alice")
    page = alice.page
    # The menu offers 30 seconds at least; a 3-second room is made through the API, as the page would.
    room_id = page.evaluate("""async () => {
        const room = await App.api("POST", "/api/rooms/", {game: "manhattan", options: {turn_seconds: 3, ai: "random"}});
        await App.api("POST", `/api/rooms/${room.id}/start/`);
        return room.id;
    }""")
    page.goto(f"/rooms/{room_id}/")
    seat = match_detail(page, room_id)["seat"]
    expect(page.locator("#board .mh-clock.urgent")).to_be_visible()
    # Nobody clicks: when alice's time runs out the server makes a random legal move for her.
    timed_out = page.locator(f'#board .mh-log li[data-made-by="timeout"][data-seat="{seat}"]')
    expect(timed_out.first).to_be_visible()
    expect(timed_out.first.locator(".mh-mark")).to_have_text("time out")
    expect(timed_out.first.locator(".mh-log-text")).to_have_text(IN_WORDS)
    expect(page.locator("#board .mh-pieces [data-storey]")).not_to_have_count(0)


def test_a_host_starts_a_room_when_ready_and_the_empty_seats_become_ai(register: Callable[[str], Player]) -> None:
    alice, bob = register("alice"), register("bob")
    page = alice.page
    room = lobby_action(page, "manhattan", "create")
    room.get_by_label("Computer level").select_option("greedy")
    room.get_by_role("button", name="Create room").click()
    page.wait_for_url(re.compile(r"/rooms/\d+/$"))
    room_id = room_id_of(page)
    expect(page.locator("#turn")).to_contain_text("Waiting for 3 more players")

    # bob finds it under "Join a room" on Manhattan's card and takes a seat; alice sees him arrive.
    bob.page.reload()
    entry = lobby_action(bob.page, "manhattan", "join").locator(f'.open-rooms li[data-room="{room_id}"]')
    expect(entry).to_contain_text(alice.username)
    screenshot(bob.page, "e2e-manhattan-lobby")
    entry.get_by_role("button", name="Join").click()
    bob.page.wait_for_url(re.compile(rf"/rooms/{room_id}/$"))
    expect(page.locator("#seats li", has_text=bob.username)).to_have_count(1)

    page.get_by_role("button", name=re.compile(r"^Start")).click()
    for player in (alice, bob):
        expect(player.page.locator("#seats li", has_text="AI (greedy)")).to_have_count(2)
        expect(player.page.locator("#board .mh-site")).to_have_count(54)
        expect(player.page.locator("#board .mh-hand [data-card]")).to_have_count(4)
    # Each sees only their own hand; the others' are hand sizes.
    expect(page.locator("#board .mh-seat .muted", has_text="4 cards")).to_have_count(4)


def test_settings_save_the_display_name_volume_and_turn_time(register: Callable[[str], Player]) -> None:
    alice = register("alice")
    page = alice.page
    page.locator(".topbar").get_by_role("link", name="Settings").click()
    page.wait_for_url(re.compile(r"/settings/$"))
    volume = page.get_by_label("Sound volume")
    expect(volume).to_have_value("50")

    page.get_by_label("Display name").fill("Alice the Builder")
    volume.fill("30")
    expect(page.locator("#volume-value")).to_have_text("30%")
    page.get_by_label("Default turn time limit").select_option(label="2 minutes")
    page.get_by_role("button", name="Test sound").click()
    assert page.evaluate("App.sound.played.at(-1)")["volume"] == 30
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#settings-saved")).to_have_text("Saved.")
    screenshot(page, "e2e-manhattan-settings")

    # Kept by the server: a reload shows them, and the API has them.
    page.reload()
    expect(page.get_by_label("Display name")).to_have_value("Alice the Builder")
    expect(page.get_by_label("Sound volume")).to_have_value("30")
    expect(page.get_by_label("Default turn time limit")).to_have_value("120")
    me = page.request.get("/api/auth/me/").json()
    assert me["display_name"] == "Alice the Builder"
    # The page saves the language it is shown in with the rest (English here).
    assert me["preferences"] == {"volume": 30, "default_turn_seconds": 120, "language": "en"}

    # The server's refusal is shown as it gave it, and nothing changes.
    page.get_by_label("Display name").fill("A" * 41)
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#settings-error")).to_contain_text("at most 40 characters")
    expect(page.locator("#settings-saved")).to_be_hidden()
    assert page.request.get("/api/auth/me/").json()["display_name"] == "Alice the Builder"

    # Elsewhere: the sounds play at the saved volume, the lobby offers the saved turn time,
    # and the other players see the display name.
    page.goto("/")
    assert page.evaluate("App.sound.ready.then(() => App.sound.volume)") == 30
    solo = lobby_action(page, "manhattan", "computer")
    expect(solo.get_by_label("Time per turn").locator("option:checked")).to_have_text("your default (2 minutes)")
    solo.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/rooms/\d+/$"))
    expect(page.locator("#seats li").first).to_contain_text("Alice the Builder")
    expect(page.locator("#turn .clock")).to_have_text(re.compile(r"^\d:\d\d left$"))


def test_the_room_lists_manhattans_moves_in_words_never_cut(register: Callable[[str], Player]) -> None:
    alice = register("alice")
    page = alice.page
    room = page.evaluate("App.api('POST', '/api/rooms/', {game: 'manhattan', options: {turn_seconds: 0}})")
    match = page.evaluate(f"App.api('POST', '/api/rooms/{room['id']}/start/')")
    page.goto(f"/rooms/{room['id']}/")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    # Her first pick, once it is her turn (the computer's seats may come first).
    expect(page.locator("#turn")).to_have_attribute("data-my-turn", "yes")
    page.evaluate(f"""async () => {{
        const match = await App.api('GET', '/api/matches/{match['id']}/');
        await App.api('POST', '/api/matches/{match['id']}/moves/', {{move: match.legal_moves[0], version: match.version}});
    }}""")
    items = page.locator("#moves li")
    expect(items.first).to_be_visible()
    expect(page.locator('#moves li[data-move^="pick:"]')).not_to_have_count(0)
    for item in items.all():
        words = item.locator(".move-text")
        notation = item.get_attribute("data-move") or ""
        # The words, as the game log has them, not the notation.
        expect(words).to_have_text(re.compile(r"^(North|East|South|West) (picked \d(,\d){5}|built a \d-storey piece on city \d, .+ site|could not build)"))
        assert notation not in words.inner_text()
        # Never cut: the whole text fits its line (it wraps), nothing hidden by an ellipsis.
        assert words.evaluate("e => e.scrollWidth <= e.clientWidth + 1 && getComputedStyle(e).textOverflow !== 'ellipsis'")
