"""The replay page shows the computer's review of a finished match (issue 12):
Connect Four's score of every column at every ply and its blunders marked in
the move list, Quoridor's race (each pawn's steps to its goal), Sokoban's
verdict (still solvable, and in how many pushes)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from typing import Any

import httpx
from playwright.sync_api import expect

from .conftest import LiveServer, Player, screenshot

_names = itertools.count(1)


def two_players(server: LiveServer) -> list[httpx.Client]:
    clients = []
    for _ in range(2):
        name = f"reviewer{next(_names)}"
        token = httpx.post(f"{server.url}/api/auth/register/", json={"username": name, "password": "long-enough"}).json()["token"]
        clients.append(httpx.Client(base_url=server.url, headers={"Authorization": f"Token {token}"}, timeout=30))
    return clients


def play_out(clients: list[httpx.Client], game: str, moves: list[str]) -> dict[str, Any]:
    room = clients[0].post("/api/rooms/", json={"game": game}).json()
    match_id = clients[1].post(f"/api/rooms/{room['id']}/join/").json()["match"]
    for move in moves:
        for client in clients:
            detail = client.get(f"/api/matches/{match_id}/").json()
            if detail["legal_moves"]:
                answer = client.post(f"/api/matches/{match_id}/moves/", json={"move": move, "version": detail["version"]})
                assert answer.status_code == 201, answer.text
                break
    return dict(clients[0].get(f"/api/matches/{match_id}/").json())


def test_a_connect_four_review_shows_every_columns_score_and_the_blunders(
    register: Callable[[str], Player], server: LiveServer
) -> None:
    clients = two_players(server)
    match = play_out(clients, "connect-four", ["4", "4", "3", "3", "2", "2", "1"])
    assert match["status"] == "finished"
    viewer = register("viewer")
    page = viewer.page
    page.goto(f"/matches/{match['id']}/replay/")
    review = page.locator("#review")
    expect(review).to_be_visible()
    review.get_by_role("button", name="Show the computer's analysis").click()
    expect(page.locator("#review .c4-scores li")).to_have_count(7, timeout=120_000)
    expect(page.locator("#review-status")).to_have_text("")
    # What the page marks is what the server's review says.
    answer = clients[0].get(f"/api/matches/{match['id']}/analysis/").json()
    assert answer["status"] == "done"
    blunders = [ply for ply, entry in enumerate(answer["positions"]) if (entry.get("move") or {}).get("blunder")]
    marked = [int(item.get_attribute("data-ply") or 0) for item in page.locator("#moves li.blunder").all()]
    assert marked == blunders
    first_scores = answer["positions"][0]["analysis"]["scores"]
    expect(page.locator("#review .c4-scores li").nth(3)).to_have_text(
        "–" if first_scores[3] is None else (f"+{first_scores[3]}" if first_scores[3] > 0 else str(first_scores[3]))
    )
    # The opening's scores come from the book, the end's from the solver. A
    # move judged by the review shows its verdict when stepped to.
    judged = [ply for ply, entry in enumerate(answer["positions"]) if entry.get("move")]
    assert judged, answer["positions"]
    page.locator(f'#moves li[data-ply="{judged[-1]}"]').click()
    expect(page.locator("#ply-label")).to_have_text(f"{judged[-1]} / 7")
    expect(page.locator("#review-here")).to_contain_text("The move played scored")
    screenshot(page, "e2e-replay-review")


def test_a_quoridor_review_shows_each_pawns_race(register: Callable[[str], Player], server: LiveServer) -> None:
    clients = two_players(server)
    match = play_out(clients, "quoridor", ["e2", "e8", "e8h"])
    clients[0].post(f"/api/matches/{match['id']}/resign/")
    viewer = register("viewer")
    page = viewer.page
    page.goto(f"/matches/{match['id']}/replay/")
    page.get_by_role("button", name="Show the computer's analysis").click()
    expect(page.locator("#review .q-distances li")).to_have_count(2, timeout=120_000)
    expect(page.locator("#review .q-distances li").nth(0)).to_contain_text(re.compile(r"\b8 steps to go"))
    page.keyboard.press("End")
    expect(page.locator("#ply-label")).to_have_text("3 / 3")
    # After the fence across the top, white needs 8 again and black 7.
    expect(page.locator("#review .q-distances li").nth(1)).to_contain_text(re.compile(r"\b7 steps to go"))


def test_a_sokoban_review_says_whether_the_level_can_still_be_solved(
    register: Callable[[str], Player], server: LiveServer
) -> None:
    player = two_players(server)[0]
    # The box pushed up against the top wall can never reach its goal.
    room = player.post("/api/rooms/", json={"game": "sokoban", "options": {"level": "#####\n#@  #\n# $ #\n#  .#\n#####"}}).json()
    version = 0
    for letter in "ddrU":
        answer = player.post(f"/api/matches/{room['match']}/moves/", json={"move": letter, "version": version})
        assert answer.status_code == 201, answer.text
        version = answer.json()["version"]
    player.post(f"/api/matches/{room['match']}/resign/")
    viewer = register("viewer")
    page = viewer.page
    page.goto(f"/matches/{room['match']}/replay/")
    page.get_by_role("button", name="Show the computer's analysis").click()
    verdict = page.locator("#review .sokoban-review")
    expect(verdict).to_have_text("Solvable: 2 pushes left (proved the fewest).", timeout=120_000)
    page.keyboard.press("End")
    expect(page.locator("#ply-label")).to_have_text("4 / 4")
    expect(verdict).to_have_text("No longer solvable: a box is stuck for good.")
    expect(verdict).to_have_class(re.compile(r"\blost\b"))
    page.keyboard.press("ArrowLeft")
    expect(verdict).to_have_text("Solvable: 2 pushes left (proved the fewest).")
    screenshot(page, "e2e-replay-review-sokoban")
