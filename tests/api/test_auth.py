from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_it_registers_a_player_and_returns_a_token(anonymous: APIClient) -> None:
    response = anonymous.post("/api/auth/register/", {"username": "erin", "password": "long-enough"}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["username"] == "erin" and body["token"] and isinstance(body["id"], int)
    me = APIClient()
    me.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert me.get("/api/auth/me/").json()["username"] == "erin"


def test_it_refuses_a_taken_username_in_any_case(anonymous: APIClient, alice: Any) -> None:
    response = anonymous.post("/api/auth/register/", {"username": "ALICE", "password": "long-enough"}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "username_taken"


@pytest.mark.parametrize(
    "payload, code",
    [
        ({"username": "", "password": "long-enough"}, "invalid"),
        ({"username": "erin"}, "invalid"),
        ({"username": "erin", "password": "123"}, "invalid"),
        ({"username": "has space", "password": "long-enough"}, "invalid"),
        ({"username": "x" * 31, "password": "long-enough"}, "invalid"),
        ({"username": 5, "password": "long-enough"}, "invalid"),
        ({"username": "Émile", "password": "long-enough"}, "invalid"),
    ],
)
def test_it_refuses_bad_registrations(anonymous: APIClient, payload: dict[str, Any], code: str) -> None:
    response = anonymous.post("/api/auth/register/", payload, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert response.json()["detail"]
    from accounts.models import User

    assert not User.objects.exists()


def test_it_logs_in_with_the_right_password(anonymous: APIClient, alice: Any) -> None:
    response = anonymous.post("/api/auth/login/", {"username": "alice", "password": "secret-pass"}, format="json")
    assert response.status_code == 200
    answer = response.json()
    assert set(answer) == {"token", "username"} and answer["username"] == "alice"
    # A token of its own for this login (device); the one alice held goes on working.
    assert answer["token"] != alice.token
    device = APIClient()
    device.credentials(HTTP_AUTHORIZATION=f"Token {answer['token']}")
    assert device.get("/api/auth/me/").json()["username"] == "alice"
    assert alice.get("/api/auth/me/").status_code == 200


def test_it_refuses_a_wrong_password(anonymous: APIClient, alice: Any) -> None:
    response = anonymous.post("/api/auth/login/", {"username": "alice", "password": "nope-nope"}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_credentials"


def test_logout_revokes_the_token(alice: Any) -> None:
    assert alice.post("/api/auth/logout/").status_code == 204
    response = alice.get("/api/auth/me/")
    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"


def test_a_wrong_token_is_a_401_in_the_error_shape(anonymous: APIClient) -> None:
    anonymous.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = anonymous.get("/api/auth/me/")
    assert response.status_code == 401
    assert set(response.json()) == {"code", "detail"}


def test_me_needs_authentication(anonymous: APIClient) -> None:
    response = anonymous.get("/api/auth/me/")
    assert response.status_code in (401, 403)
    assert response.json()["code"] == "not_authenticated"


def test_malformed_json_is_a_400(anonymous: APIClient) -> None:
    response = anonymous.post("/api/auth/register/", data="{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "malformed_request"


def test_a_json_list_instead_of_an_object_is_a_400(anonymous: APIClient) -> None:
    response = anonymous.post("/api/auth/register/", ["alice"], format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "malformed_request"


def test_the_schema_and_docs_are_served(anonymous: APIClient) -> None:
    schema = anonymous.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/matches/{match_id}/moves/" in schema.content
    assert anonymous.get("/api/docs/").status_code == 200


def test_settings_are_saved_per_user(alice: Any, bob: Any) -> None:
    response = alice.client.patch(
        "/api/auth/me/", {"display_name": "Alice A.", "preferences": {"volume": 30, "default_turn_seconds": 90}},
        format="json",
    )
    assert response.status_code == 200
    assert response.json()["display_name"] == "Alice A."
    alice.client.patch("/api/auth/me/", {"preferences": {"volume": 0}}, format="json")
    me = alice.get("/api/auth/me/").json()
    assert me["preferences"] == {"volume": 0, "default_turn_seconds": 90}
    assert bob.get("/api/auth/me/").json()["preferences"] == {}


@pytest.mark.parametrize(
    "payload",
    [
        {"preferences": {"volume": 101}},
        {"preferences": {"volume": "loud"}},
        {"preferences": {"theme": "dark"}},
        {"preferences": []},
        {"display_name": "x" * 41},
        {"display_name": 7},
    ],
)
def test_bad_settings_are_refused(alice: Any, payload: dict[str, Any]) -> None:
    response = alice.client.patch("/api/auth/me/", payload, format="json")
    assert response.status_code == 400 and response.json()["code"] == "invalid"
    assert alice.get("/api/auth/me/").json()["preferences"] == {}


# --- passwords people guess first (issue 10) ---------------------------------


@pytest.mark.parametrize(
    "username, password, reason",
    [
        ("frank", "123456", "too common"),
        ("frank", "password", "too common"),
        ("frank", "87654321987", "entirely numeric"),
        ("gracehopper", "gracehopper", "too similar to the username"),
    ],
)
def test_weak_passwords_are_refused_with_the_reason(
    anonymous: APIClient, username: str, password: str, reason: str
) -> None:
    response = anonymous.post("/api/auth/register/", {"username": username, "password": password}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid" and reason in response.json()["detail"]
    from accounts.models import User

    assert not User.objects.filter(username=username).exists()


def test_a_username_of_spaces_is_refused(anonymous: APIClient) -> None:
    response = anonymous.post("/api/auth/register/", {"username": "   ", "password": "long-enough"}, format="json")
    assert response.status_code == 400 and "username is required" in response.json()["detail"]


def test_the_password_can_be_changed_by_the_same_rules(alice: Any) -> None:
    url = "/api/auth/password/"
    wrong = alice.post(url, {"old_password": "not-it", "new_password": "a fine new one"})
    assert wrong.status_code == 400 and wrong.json()["code"] == "invalid_credentials"
    weak = alice.post(url, {"old_password": "secret-pass", "new_password": "password"})
    assert weak.status_code == 400 and "too common" in weak.json()["detail"]
    missing = alice.post(url, {"old_password": "secret-pass"})
    assert missing.status_code == 400
    assert alice.post(url, {"old_password": "secret-pass", "new_password": "a fine new one"}).status_code == 204
    client = APIClient()
    old = client.post("/api/auth/login/", {"username": "alice", "password": "secret-pass"}, format="json")
    assert old.status_code == 400
    new = client.post("/api/auth/login/", {"username": "alice", "password": "a fine new one"}, format="json")
    assert new.status_code == 200


def test_the_register_page_says_why_a_username_of_spaces_is_refused() -> None:
    from django.test import Client

    page = Client().post("/register/", {"username": "   ", "password": "long-enough"})
    assert page.status_code == 200
    assert "username is required" in page.content.decode()
    weak = Client().post("/register/", {"username": "henry", "password": "123456"})
    assert "too common" in weak.content.decode()


# --- several tokens, each revocable (issue 10) -------------------------------


def test_a_player_lists_makes_and_revokes_tokens(alice: Any, bob: Any) -> None:
    made = alice.post("/api/auth/tokens/", {"name": "my bot"})
    assert made.status_code == 201
    bot = made.json()
    assert bot["name"] == "my bot" and len(bot["key"]) == 40 and bot["current"] is False
    listed = alice.get("/api/auth/tokens/").json()
    assert [t["name"] for t in listed] == ["my bot", "tests"]
    assert all("key" not in t for t in listed)
    assert [t["current"] for t in listed] == [False, True]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {bot['key']}")
    assert client.get("/api/auth/me/").status_code == 200
    assert alice.get("/api/auth/tokens/").json()[0]["last_used"] is not None
    # Someone else's token is not found, and stays.
    assert bob.client.delete(f"/api/auth/tokens/{bot['id']}/").status_code == 404
    assert client.get("/api/auth/me/").status_code == 200
    assert alice.client.delete(f"/api/auth/tokens/{bot['id']}/").status_code == 204
    assert client.get("/api/auth/me/").status_code == 401
    assert alice.client.delete(f"/api/auth/tokens/{bot['id']}/").status_code == 404


def test_logout_revokes_only_the_token_used(alice: Any) -> None:
    other = alice.post("/api/auth/tokens/", {"name": "phone"}).json()
    assert alice.post("/api/auth/logout/").status_code == 204
    assert alice.get("/api/auth/me/").status_code == 401
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Token {other['key']}")
    assert phone.get("/api/auth/me/").json()["username"] == "alice"


def test_a_revoked_token_no_longer_opens_a_socket(alice: Any) -> None:
    from games.auth import user_for

    assert user_for(token=alice.token, session_key=None).username == "alice"
    assert alice.post("/api/auth/logout/").status_code == 204
    assert not user_for(token=alice.token, session_key=None).is_authenticated


def test_a_token_name_is_short_text(alice: Any) -> None:
    assert alice.post("/api/auth/tokens/", {"name": "x" * 61}).status_code == 400
    assert alice.post("/api/auth/tokens/", {"name": 5}).status_code == 400
