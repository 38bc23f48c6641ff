from __future__ import annotations

from typing import Any

import pytest

from games.engines.registry import get_engine
from games.models import Match, Move
from tests.conftest import Player, play, start_match

pytestmark = pytest.mark.django_db


def test_a_move_is_stored_and_the_turn_passes(c4_match: dict[str, Any], alice: Player, bob: Player) -> None:
    response = play(alice, c4_match, "4")
    assert response.status_code == 201
    after = response.json()
    assert after["version"] == 1
    assert after["to_move"] == [1]
    assert after["legal_moves"] == []  # not alice's turn any more
    assert after["state"]["grid"][5][3] == 0
    assert after["state"]["last_move"] == {"column": 4, "row": 1}
    for_bob = bob.get(f"/api/matches/{c4_match['id']}/").json()
    assert for_bob["legal_moves"] == [str(c) for c in range(1, 8)]
    assert for_bob["seat"] == 1
    moves = bob.get(f"/api/matches/{c4_match['id']}/moves/").json()
    assert [(m["ply"], m["seat"], m["username"], m["move"]) for m in moves] == [(1, 0, "alice", "4")]


def play_out(match: dict[str, Any], players: list[Player], columns: str) -> dict[str, Any]:
    detail = match
    for i, column in enumerate(columns):
        response = play(players[i % 2], detail, column)
        assert response.status_code == 201, response.json()
        detail = response.json()
    return detail


def test_four_in_a_row_wins_and_marks_the_line(c4_match: dict[str, Any], alice: Player, bob: Player) -> None:
    final = play_out(c4_match, [alice, bob], "4455667")
    assert final["status"] == "finished"
    assert final["result"]["results"] == ["win", "loss"]
    assert final["to_move"] == [] and final["legal_moves"] == []
    cells = final["state"]["winning_cells"]
    assert cells == [{"column": c, "row": 1} for c in (4, 5, 6, 7)]
    summary = alice.get("/api/matches/?player=me&status=finished").json()
    assert summary["count"] == 1 and summary["results"][0]["id"] == c4_match["id"]


def test_a_full_board_is_a_draw(c4_match: dict[str, Any], alice: Player, bob: Player) -> None:
    # Columns filled in pairs 1-2, 3-4, 5-6 with a shift so no four line up, then 7.
    draw = "121212" + "212121" + "343434" + "434343" + "565656" + "656565" + "777777"
    engine = get_engine("connect-four")
    state = engine.initial_state(2, engine.normalize_options({}), 0)
    for column in draw:
        state = engine.play(state, engine.to_move(state)[0], column)
    assert engine.outcome(state).results == ("draw", "draw")  # the sequence really draws
    final = play_out(c4_match, [alice, bob], draw)
    assert final["result"]["results"] == ["draw", "draw"]
    assert final["result"]["reason"] == "the board is full"


@pytest.mark.parametrize(
    "move, code",
    [("0", "illegal_move"), ("8", "illegal_move"), ("x", "bad_notation"), ("", "bad_notation"), ("-1", "bad_notation")],
)
def test_it_refuses_bad_moves(c4_match: dict[str, Any], alice: Player, move: str, code: str) -> None:
    response = play(alice, c4_match, move)
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert "column" in response.json()["detail"] or code == "bad_notation"
    assert not Move.objects.exists()
    assert Match.objects.get().version == 0


def test_a_full_column_is_an_illegal_move(c4_match: dict[str, Any], alice: Player, bob: Player) -> None:
    detail = play_out(c4_match, [alice, bob], "111111")
    response = play(alice, detail, "1")
    assert response.status_code == 400
    assert response.json() == {"code": "illegal_move", "detail": "column 1 is full"}
    assert Move.objects.count() == 6


def test_an_engine_bug_is_a_server_error_not_the_players_bad_notation(
    c4_match: dict[str, Any], alice: Player, monkeypatch: Any
) -> None:
    # Only the engine's own notation and rule errors are the player's fault;
    # a crash inside the rules must surface (a logged 500), never as a 400
    # that blames the move.
    engine = get_engine("connect-four")

    def broken_apply(state: Any, seat: int, action: Any) -> Any:
        raise ValueError("a bug in the rules")

    monkeypatch.setattr(engine, "apply", broken_apply)
    with pytest.raises(ValueError, match="a bug in the rules"):
        play(alice, c4_match, "4")
    assert not Move.objects.exists()


def test_the_match_counts_its_log_as_it_grows(c4_match: dict[str, Any], alice: Player, bob: Player) -> None:
    play_out(c4_match, [alice, bob], "4433")
    assert Match.objects.get().plies == Move.objects.count() == 4
    assert list(Move.objects.values_list("ply", flat=True)) == [1, 2, 3, 4]


def test_the_migration_counts_the_logs_of_existing_matches(
    c4_match: dict[str, Any], alice: Player, bob: Player
) -> None:
    import importlib

    from django.apps import apps

    play_out(c4_match, [alice, bob], "443")
    Match.objects.update(plies=0)
    importlib.import_module("games.migrations.0004_match_plies").count_the_logs(apps, None)
    assert Match.objects.get().plies == 3


def test_a_move_out_of_turn_is_a_409(c4_match: dict[str, Any], bob: Player) -> None:
    response = play(bob, c4_match, "4")
    assert response.status_code == 409
    assert response.json()["code"] == "not_your_turn"


def test_a_move_on_an_old_version_is_a_409(c4_match: dict[str, Any], alice: Player, bob: Player) -> None:
    play(alice, c4_match, "4")
    stale = {**c4_match, "version": 0}
    response = play(bob, stale, "4")
    assert response.status_code == 409
    assert response.json()["code"] == "stale_version"
    assert Move.objects.count() == 1


@pytest.mark.parametrize("payload", [{"move": "4"}, {"move": "4", "version": "0"}, {"move": "4", "version": True}])
def test_a_move_without_a_whole_version_is_a_400(c4_match: dict[str, Any], alice: Player, payload: Any) -> None:
    response = alice.post(f"/api/matches/{c4_match['id']}/moves/", payload)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_a_move_after_the_end_is_a_409(c4_match: dict[str, Any], alice: Player, bob: Player) -> None:
    final = play_out(c4_match, [alice, bob], "4455667")
    response = play(bob, final, "1")
    assert response.status_code == 409
    assert response.json()["code"] == "match_over"


def test_a_spectator_cannot_move_but_can_watch(c4_match: dict[str, Any], carol: Player) -> None:
    response = play(carol, c4_match, "4")
    assert response.status_code == 403
    assert response.json()["code"] == "not_seated"
    view = carol.get(f"/api/matches/{c4_match['id']}/").json()
    assert view["seat"] is None and view["legal_moves"] == [] and view["to_move"] == [0]


def test_moves_to_a_missing_match_are_a_404(alice: Player) -> None:
    response = alice.post("/api/matches/999/moves/", {"move": "4", "version": 0})
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    assert alice.get("/api/matches/999/").status_code == 404


def test_resigning_ends_the_match_for_the_other_side(c4_match: dict[str, Any], bob: Player) -> None:
    response = bob.post(f"/api/matches/{c4_match['id']}/resign/")
    assert response.status_code == 200
    detail = response.json()
    assert detail["status"] == "finished"
    assert detail["result"]["results"] == ["win", "loss"]
    assert detail["result"]["reason"] == "bob resigned"
    assert detail["version"] == 1
    again = bob.post(f"/api/matches/{c4_match['id']}/resign/")
    assert again.status_code == 409 and again.json()["code"] == "match_over"


def test_a_spectator_cannot_resign(c4_match: dict[str, Any], carol: Player) -> None:
    response = carol.post(f"/api/matches/{c4_match['id']}/resign/")
    assert response.status_code == 403
    assert response.json()["code"] == "not_seated"


def test_positions_replay_the_log(c4_match: dict[str, Any], alice: Player, bob: Player) -> None:
    play_out(c4_match, [alice, bob], "453")
    start = alice.get(f"/api/matches/{c4_match['id']}/positions/0/").json()
    assert start["ply"] == 0 and start["plies"] == 3
    assert all(cell is None for row in start["state"]["grid"] for cell in row)
    two = alice.get(f"/api/matches/{c4_match['id']}/positions/2/").json()
    assert two["state"]["moves"] == [4, 5]
    beyond = alice.get(f"/api/matches/{c4_match['id']}/positions/4/")
    assert beyond.status_code == 404 and beyond.json()["code"] == "not_found"


def test_the_state_is_the_replay_of_the_log_not_the_snapshot(c4_match: dict[str, Any], alice: Player, bob: Player) -> None:
    play_out(c4_match, [alice, bob], "4455")
    match = Match.objects.get()
    match.snapshot = None
    match.save()
    view = alice.get(f"/api/matches/{c4_match['id']}/").json()
    assert view["state"]["moves"] == [4, 4, 5, 5]
    assert view["legal_moves"] == [str(c) for c in range(1, 8)]


def test_my_games_lists_only_mine_and_filters(alice: Player, bob: Player, carol: Player, dave: Player) -> None:
    mine = start_match(alice, bob)
    start_match(carol, dave)
    page = alice.get("/api/matches/?player=me").json()
    assert [m["id"] for m in page["results"]] == [mine["id"]]
    assert alice.get("/api/matches/?player=me&status=finished").json()["count"] == 0
    assert alice.get("/api/matches/?player=me&game=eskimo").json()["count"] == 0
    assert alice.get("/api/matches/?player=carol").json()["count"] == 1
    assert alice.get("/api/matches/").json()["count"] == 2
    response = alice.get("/api/matches/?player=nobody")
    assert response.status_code == 404
    response = alice.get("/api/matches/?status=paused")
    assert response.status_code == 400 and response.json()["code"] == "invalid"


def test_every_endpoint_needs_authentication(anonymous: Any, c4_match: dict[str, Any]) -> None:
    for url in ["/api/rooms/", "/api/matches/", f"/api/matches/{c4_match['id']}/"]:
        response = anonymous.get(url)
        assert response.status_code == 401, url
        assert response.json()["code"] == "not_authenticated"


def test_a_wrong_method_is_a_405_in_the_error_shape(c4_match: dict[str, Any], alice: Player) -> None:
    response = alice.client.delete(f"/api/matches/{c4_match['id']}/")
    assert response.status_code == 405
    assert response.json()["code"] == "method_not_allowed"


def test_a_form_post_instead_of_json_still_gets_the_error_shape(c4_match: dict[str, Any], alice: Player) -> None:
    response = alice.client.post(
        f"/api/matches/{c4_match['id']}/moves/", data="move=4", content_type="text/plain"
    )
    assert response.status_code == 415
    assert response.json()["code"] == "unsupported_media_type"
    assert not Move.objects.exists()
