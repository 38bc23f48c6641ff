"""Korean and English on the server: error details, the games' words, the language a player chose.

The site answers in English unless the request asks for Korean: the
``django_language`` cookie (/i18n/setlang/), then Accept-Language; a logged-in
player's ``preferences.language`` wins over both. Error ``code``s never change.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from tests.conftest import Player, play, start_match

pytestmark = pytest.mark.django_db

KO = {"HTTP_ACCEPT_LANGUAGE": "ko"}


def korean(text: str) -> bool:
    return re.search(r"[\uac00-\ud7a3]", text) is not None


def test_an_error_detail_is_english_by_default(alice: Player) -> None:
    response = alice.post("/api/rooms/", {"game": "chess"})
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_game"
    assert response.json()["detail"].startswith("there is no game 'chess'; the games are:")


def test_an_error_detail_is_korean_when_the_browser_asks_for_it(alice: Player) -> None:
    response = alice.post("/api/rooms/", {"game": "chess"}, **KO)
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_game"  # the code is never translated
    assert response.json()["detail"].startswith("'chess' 게임은 없습니다. 게임 목록: ")
    assert response["Content-Language"] == "ko"


def test_an_illegal_move_is_refused_in_korean(c4_match: dict[str, Any], alice: Player, bob: Player) -> None:
    detail = c4_match
    for column in "111111":
        response = play(alice if detail["version"] % 2 == 0 else bob, detail, column)
        detail = response.json()
    response = alice.post(f"/api/matches/{detail['id']}/moves/", {"move": "1", "version": detail["version"]}, **KO)
    assert response.status_code == 400
    assert response.json() == {"code": "illegal_move", "detail": "1열은 가득 찼습니다"}


def test_notation_inside_an_error_stays_as_written(alice: Player, bob: Player) -> None:
    match = start_match(alice, bob, "quoridor")
    response = alice.post(f"/api/matches/{match['id']}/moves/", {"move": "z9", "version": match["version"]}, **KO)
    assert response.status_code == 400
    assert response.json()["code"] == "bad_notation"
    assert response.json()["detail"].startswith("'z9' 은(는) 쿼리도의 수가 아닙니다")


def test_a_conflict_and_a_not_found_are_korean_too(c4_match: dict[str, Any], alice: Player, bob: Player) -> None:
    response = bob.post(f"/api/matches/{c4_match['id']}/moves/", {"move": "4", "version": c4_match["version"]}, **KO)
    assert (response.status_code, response.json()) == (409, {"code": "not_your_turn", "detail": "당신의 차례가 아닙니다"})
    response = alice.get("/api/matches/999999/", **KO)
    assert response.status_code == 404
    assert response.json()["code"] == "not_found" and korean(response.json()["detail"])
    response = alice.get("/api/no-such-endpoint/", **KO)
    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "detail": "없는 API 주소입니다: /api/no-such-endpoint/"}


def test_drfs_own_refusals_are_korean(anonymous: Any) -> None:
    response = anonymous.get("/api/matches/", **KO)
    assert response.status_code in (401, 403)
    assert response.json()["code"] == "not_authenticated" and korean(response.json()["detail"])


def test_a_players_chosen_language_wins_over_the_browsers(alice: Player) -> None:
    response = alice.client.patch("/api/auth/me/", {"preferences": {"language": "ko"}}, format="json")
    assert response.status_code == 200
    assert response.json()["preferences"]["language"] == "ko"
    # A token's owner: no middleware saw them, the API edge answers in their language.
    response = alice.post("/api/rooms/", {"game": "chess"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.json()["code"] == "unknown_game"
    assert korean(response.json()["detail"])
    # Back to following the browser.
    response = alice.client.patch("/api/auth/me/", {"preferences": {"language": None}}, format="json")
    assert "language" not in response.json()["preferences"]
    assert not korean(alice.post("/api/rooms/", {"game": "chess"}).json()["detail"])


def test_a_browser_sessions_chosen_language_wins_too(alice: Player) -> None:
    alice.user.preferences = {"language": "ko"}
    alice.user.save()
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(alice.user)
    response = browser.post("/api/rooms/", json.dumps({"game": "chess"}), content_type="application/json")
    assert response.json()["code"] == "unknown_game" and korean(response.json()["detail"])
    assert response["Content-Language"] == "ko"


def test_the_language_preference_is_checked(alice: Player) -> None:
    response = alice.client.patch("/api/auth/me/", {"preferences": {"language": "fr"}}, format="json", **KO)
    assert response.status_code == 400
    assert response.json() == {"code": "invalid", "detail": "language는 다음 중 하나여야 합니다: en, ko"}
    assert "language" not in alice.user.__class__.objects.get(pk=alice.user.pk).preferences


def test_the_language_switch_sets_the_cookie_the_site_then_follows(db: Any) -> None:
    browser = Client()
    response = browser.post("/i18n/setlang/", {"language": "ko", "next": "/"})
    assert response.status_code == 302
    assert browser.cookies["django_language"].value == "ko"
    response = browser.get("/api/no-such-endpoint/")
    assert response.json()["detail"] == "없는 API 주소입니다: /api/no-such-endpoint/"


def test_a_move_list_carries_the_words_of_each_move(c4_match: dict[str, Any], alice: Player) -> None:
    play(alice, c4_match, "4")
    moves = alice.get(f"/api/matches/{c4_match['id']}/moves/").json()
    assert moves[0]["text"] == "dropped a disc in column 4"
    assert moves[0]["words"] == {"text": "dropped a disc in column %(column)s", "args": {"column": 4}}


def test_the_games_catalogue_says_a_move_and_a_result_in_korean(alice: Player, bob: Player) -> None:
    match = start_match(alice, bob)
    detail = match
    for index, column in enumerate("4455667"):
        detail = play([alice, bob][index % 2], detail, column).json()
    assert detail["result"]["reason"] == "4 in a row"
    assert detail["result"]["reason_words"] == {"text": "%(connect)s in a row", "args": {"connect": 4}}
    words = alice.get(f"/api/matches/{match['id']}/moves/").json()[0]["words"]
    catalogue = catalogue_of(Client(HTTP_ACCEPT_LANGUAGE="ko").get("/jsi18n/games/"))
    assert catalogue[words["text"]] % words["args"] == "4열에 원반을 떨어뜨림"
    reason = detail["result"]["reason_words"]
    assert catalogue[reason["text"]] % reason["args"] == "원반 4개를 한 줄로 이음"
    assert catalogue["Connect Four"] == "커넥트 포"
    # The games' catalogue is the games' words alone, not Django's nor the other apps'.
    assert "This field is required." not in catalogue and "Authentication credentials were not provided." not in catalogue


def test_the_games_catalogue_is_empty_in_english(db: Any) -> None:
    assert catalogue_of(Client(HTTP_ACCEPT_LANGUAGE="en").get("/jsi18n/games/")) == {}


def test_the_scripts_catalogue_is_served(db: Any) -> None:
    response = Client(HTTP_ACCEPT_LANGUAGE="ko").get("/jsi18n/")
    assert response.status_code == 200
    assert "interpolate" in response.content.decode()


def test_a_resignation_reason_has_its_words(c4_match: dict[str, Any], alice: Player) -> None:
    detail = alice.post(f"/api/matches/{c4_match['id']}/resign/").json()
    assert detail["result"]["reason"] == "alice resigned"
    assert detail["result"]["reason_words"] == {"text": "%(player)s resigned", "args": {"player": "alice"}}
    catalogue = catalogue_of(Client(HTTP_ACCEPT_LANGUAGE="ko").get("/jsi18n/games/"))
    assert catalogue["%(player)s resigned"] % {"player": "alice"} == "alice 님 기권"


def catalogue_of(response: Any) -> dict[str, str]:
    """The catalogue a JavaScriptCatalog response holds (``const newcatalog = {...};``)."""
    assert response.status_code == 200
    found = re.search(r"const newcatalog = (\{.*?\});\n", response.content.decode(), re.S)
    return dict(json.loads(found.group(1))) if found else {}
