"""Game records (issue #11): GET /api/matches/{id}/record/, a player's history as one
file, and POST /api/records/ reading records back into positions."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from games.engines.registry import ENGINES
from games.models import Match
from tests.conftest import Player, make_player, play, start_match

pytestmark = pytest.mark.django_db

# alice (seat 0) wins along the bottom row; bob stacks on column 1.
ALICE_WINS = ["1", "2", "1", "3", "1", "4"]
ALICE_WINS_PLAYED = ["1", "1", "2", "1", "3", "1", "4"]


def played(host: Player, guest: Player, moves: list[str], game: str = "connect-four", options: Any = None) -> dict[str, Any]:
    """A match of host and guest with ``moves`` played in turn; returns its last detail."""
    match = start_match(host, guest, game=game, options=options)
    people = {p.username: p for p in (host, guest)}
    for move in moves:
        mover = people[next(p["username"] for p in match["players"] if p["seat"] in match["to_move"])]
        response = play(mover, match, move)
        assert response.status_code == 201, response.json()
        match = response.json()
    return match


def record_of(player: Player, match_id: int) -> str:
    response = player.get(f"/api/matches/{match_id}/record/")
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain")
    return response.content.decode()


def headers_of(record: str) -> dict[str, str]:
    return {key: value for key, value in re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$', record, re.M)}


def read(player: Player, text: str, *, as_json: bool = False) -> Any:
    if as_json:
        return player.post("/api/records/", {"record": text})
    return player.client.post("/api/records/", text, content_type="text/plain")


def test_a_finished_connect_four_game_is_written_with_headers_its_moves_and_its_digit_string(
    alice: Player, bob: Player, carol: Player
) -> None:
    final = played(alice, bob, ALICE_WINS_PLAYED)
    assert final["status"] == "finished"
    response = carol.get(f"/api/matches/{final['id']}/record/")
    assert response["Content-Disposition"] == f'attachment; filename="connect-four-match-{final["id"]}.txt"'
    record = response.content.decode()
    headers = headers_of(record)
    assert headers["Game"] == "Connect Four" and headers["Slug"] == "connect-four"
    assert (headers["Seat1"], headers["Seat2"], headers["Players"]) == ("alice", "bob", "2")
    assert headers["Result"] == "1-0" and headers["Status"] == "finished"
    assert headers["Termination"] == "4 in a row"
    assert re.fullmatch(r"\d{4}\.\d{2}\.\d{2}", headers["Date"])
    assert headers["Moves"] == "1121314"
    assert headers["Plies"] == "7"
    assert '"columns": 7' in headers["Options"].replace('\\"', '"')
    assert headers["Seed"] == str(Match.objects.get(pk=final["id"]).seed)
    assert record.rstrip().endswith("1. 1 2. 1 3. 2 4. 1 5. 3 6. 1 7. 4 1-0")


def test_a_record_reads_back_into_every_position_as_text_or_json(alice: Player, bob: Player) -> None:
    final = played(alice, bob, ALICE_WINS_PLAYED)
    record = record_of(alice, final["id"])
    for as_json in (False, True):
        response = read(bob, record, as_json=as_json)
        assert response.status_code == 200, response.json()
        (replayed,) = response.json()["records"]
        assert replayed["game"] == "connect-four" and replayed["plies"] == 7
        positions = replayed["positions"]
        assert [p["ply"] for p in positions] == list(range(8))
        assert [p["move"] for p in positions[1:]] == ALICE_WINS_PLAYED
        assert [p["seat"] for p in positions[1:]] == [0, 1, 0, 1, 0, 1, 0]
        assert positions[1]["text"] == "dropped a disc in column 1"
        assert positions[-1]["state"] == final["state"]
        assert replayed["outcome"]["results"] == ["win", "loss"]
        assert replayed["headers"]["Seat1"] == "alice"


def test_the_digit_string_alone_is_a_record_too(alice: Player) -> None:
    response = read(alice, '[Game "Connect Four"]\n[Moves "4453"]\n')
    assert response.status_code == 200, response.json()
    (replayed,) = response.json()["records"]
    assert [p["move"] for p in replayed["positions"][1:]] == ["4", "4", "5", "3"]
    # A bare list of moves after the headers, with or without ply numbers and a result.
    for movetext in ("4 4 5 3", "1. 4 2. 4 3. 5 4. 3 *", "4 4 5 3 1/2-1/2", "1.4 2.4 3.5 4.3"):
        response = read(alice, f'[Slug "connect-four"]\n\n{movetext}\n')
        if movetext.startswith("1.4"):
            # "1.4" is not a ply number and a move: each token is one or the other.
            assert response.status_code == 400 and response.json()["ply"] == 1
            continue
        assert response.status_code == 200, (movetext, response.json())
        assert response.json()["records"][0]["plies"] == 4


@pytest.mark.parametrize(
    ("text", "code", "ply", "words"),
    [
        ('[Game "Connect Four"]\n[Oops]\n\n1. 4', "bad_header", None, "line 2"),
        ("1. 4 2. 4", "bad_header", None, "starts with its headers"),
        ('[Game "Chess"]\n\n1. e4', "unknown_game", None, "no game 'Chess'"),
        ('[Game "Connect Four"]\n[Options "{columns: 7}"]\n\n1. 4', "bad_header", None, "Options"),
        ('[Game "Connect Four"]\n[Options "{\\"columns\\": 99}"]\n\n1. 4', "bad_options", None, "columns"),
        ('[Game "Connect Four"]\n[Seed "x"]\n\n1. 4', "bad_header", None, "Seed"),
        ('[Game "Connect Four"]\n\n1. 4 2. 4 3. 4 4. 4 5. 4 6. 4 7. 4', "illegal_move", 7, "full"),
        ('[Game "Connect Four"]\n\n1. 4 2. 9', "illegal_move", 2, "'9'"),
        ('[Game "Connect Four"]\n\n1. 4 2. x', "bad_notation", 2, "column number"),
        ('[Game "Connect Four"]\n[Moves "1121314"]\n\n1. 1 2. 1 3. 2 4. 1 5. 3 6. 1 7. 4 8. 5',
         "illegal_move", 8, "after the end of the game"),
        ('[Game "Quoridor"]\n[Moves "e2 e8"]\n', "bad_record", None, "no compact form"),
        ("   ", "bad_record", None, "send a game record"),
    ],
)
def test_a_bad_record_is_refused_with_the_ply_and_the_reason(
    alice: Player, text: str, code: str, ply: int | None, words: str
) -> None:
    response = read(alice, text)
    assert response.status_code == 400, response.json()
    body = response.json()
    assert body["code"] == code, body
    assert words in body["detail"], body
    assert body.get("ply") == ply
    if ply is not None:
        assert body["detail"].startswith(f"record 1, ply {ply}: ")


def test_the_second_bad_record_of_a_file_is_named(alice: Player) -> None:
    text = '[Game "Connect Four"]\n\n1. 4 *\n\n[Game "Connect Four"]\n\n1. 4 2. 8 *\n'
    body = read(alice, text).json()
    assert (body["code"], body["record"], body["ply"]) == ("illegal_move", 2, 2)


def test_records_need_a_login(anonymous: Any, alice: Player, bob: Player) -> None:
    final = played(alice, bob, ["4"])
    assert anonymous.get(f"/api/matches/{final['id']}/record/").status_code in (401, 403)
    assert anonymous.post("/api/records/", {"record": '[Game "Connect Four"]'}, format="json").status_code in (401, 403)
    assert alice.get("/api/matches/999999/record/").status_code == 404


def test_a_record_too_long_to_replay_is_refused(alice: Player) -> None:
    moves = " ".join("l r" for _ in range(3000))
    body = read(alice, f'[Game "Sokoban"]\n\n{moves}\n').json()
    assert body["code"] == "too_long"


# --- hidden information ---------------------------------------------------------------


def manhattan_table(*people: Player) -> tuple[dict[str, Player], dict[str, Any]]:
    """Four people at a Manhattan table, untimed."""
    host = people[0]
    room = host.post("/api/rooms/", {"game": "manhattan", "options": {"turn_seconds": 0}}).json()
    for person in people[1:]:
        assert person.post(f"/api/rooms/{room['id']}/join/").status_code == 200
    match_id = host.get(f"/api/rooms/{room['id']}/").json()["match"]
    return {p.username: p for p in people}, {"id": match_id}


def mover_of(people: dict[str, Player], match_id: int) -> tuple[Player, dict[str, Any]]:
    for person in people.values():
        detail = person.get(f"/api/matches/{match_id}/").json()
        if detail["legal_moves"]:
            return person, detail
    raise AssertionError("nobody to move")


def play_manhattan(people: dict[str, Player], match_id: int, plies: int) -> None:
    rng = random.Random(3)
    for _ in range(plies):
        mover, detail = mover_of(people, match_id)
        assert play(mover, detail, rng.choice(detail["legal_moves"])).status_code == 201


def test_a_record_of_a_manhattan_game_in_play_reveals_no_hand(
    alice: Player, bob: Player, carol: Player, dave: Player
) -> None:
    people, match = manhattan_table(alice, bob, carol, dave)
    erin = make_player("erin")
    play_manhattan(people, match["id"], 6)
    seed = Match.objects.get(pk=match["id"]).seed
    for reader in (alice, bob, erin):
        record = record_of(reader, match["id"])
        headers = headers_of(record)
        # The seed deals every hand: it stays out while the game is on.
        assert "Seed" not in headers and str(seed) not in record
        assert headers["Result"] == "*" and headers["Status"] == "active"
        assert headers["Plies"] == "6"
    # Without the seed the deal is not the game's: read back, it replays with another
    # deal (when its moves happen to fit) or stops at the first that does not, saying why.
    response = read(erin, record_of(erin, match["id"]))
    if response.status_code == 200:
        (replayed,) = response.json()["records"]
        assert all(position["state"].get("hand") in (None, []) for position in replayed["positions"])
    else:
        body = response.json()
        assert body["code"] in ("illegal_move", "bad_notation") and "no Seed" in body["detail"], body


def test_a_finished_manhattan_game_carries_its_seed_and_replays_to_the_same_board(
    alice: Player, bob: Player, carol: Player, dave: Player
) -> None:
    people, match = manhattan_table(alice, bob, carol, dave)
    erin = make_player("erin")
    play_manhattan(people, match["id"], 9)
    for person in people.values():  # the last resignation ends it
        assert person.post(f"/api/matches/{match['id']}/resign/").status_code == 200
    record = record_of(erin, match["id"])
    headers = headers_of(record)
    assert headers["Status"] == "finished"
    assert headers["Seed"] == str(Match.objects.get(pk=match["id"]).seed)
    assert sum(key.endswith("Left") and value == "resigned" for key, value in headers.items()) >= 3
    (replayed,) = read(erin, record).json()["records"]
    assert replayed["plies"] == 9
    # Every position is a spectator's view: no hand in any of them.
    assert all(position["state"].get("hand") in (None, []) for position in replayed["positions"])
    spectator = erin.get(f"/api/matches/{match['id']}/").json()
    assert replayed["positions"][-1]["state"]["cities"] == spectator["state"]["cities"]
    assert replayed["positions"][-1]["state"]["seats"] == spectator["state"]["seats"]


# --- every game, and Sokoban's LURD ---------------------------------------------------------


@pytest.mark.parametrize("slug", sorted(set(ENGINES) - {"sokoban", "manhattan"}))
def test_every_game_replays_from_its_record_to_the_position_a_spectator_sees(
    alice: Player, bob: Player, carol: Player, slug: str
) -> None:
    match = start_match(alice, bob, game=slug, options={"players": 2, "turn_seconds": 0})
    people = {"alice": alice, "bob": bob}
    rng = random.Random(slug)
    for _ in range(12):
        found = [(p, p.get(f"/api/matches/{match['id']}/").json()) for p in people.values()]
        movers = [(p, d) for p, d in found if d["legal_moves"]]
        if not movers:
            break
        mover, detail = movers[0]
        assert play(mover, detail, rng.choice(detail["legal_moves"])).status_code == 201
    alice.post(f"/api/matches/{match['id']}/resign/")
    (replayed,) = read(carol, record_of(carol, match["id"])).json()["records"]
    assert replayed["game"] == slug
    spectator = carol.get(f"/api/matches/{match['id']}/").json()
    assert replayed["positions"][-1]["state"] == spectator["state"]


def test_a_sokoban_record_gives_the_lurd_path_and_reads_back_from_it(alice: Player) -> None:
    room = alice.post("/api/rooms/", {"game": "sokoban"}).json()
    match = alice.get(f"/api/matches/{room['match']}/").json()
    for move in ["d", "l", "undo", "u", "r"]:
        response = play(alice, match, move)
        assert response.status_code == 201, response.json()
        match = response.json()
    record = record_of(alice, match["id"])
    headers = headers_of(record)
    assert headers["Moves"] == match["state"]["path"] == "dur"
    assert "1. d 2. l 3. undo 4. u 5. r *" in record
    # The LURD alone replays to the same position (by the path kept, without the undone step).
    (replayed,) = read(alice, f'[Game "Sokoban"]\n[Moves "{headers["Moves"]}"]\n').json()["records"]
    assert replayed["plies"] == 3
    assert replayed["positions"][-1]["state"]["player"] == match["state"]["player"]


def test_a_players_whole_history_is_one_file_of_records_read_back_together(
    alice: Player, bob: Player, carol: Player
) -> None:
    first = played(alice, bob, ALICE_WINS_PLAYED)
    second = played(bob, alice, ["4", "4"])
    bob.post(f"/api/matches/{second['id']}/resign/")
    played(alice, bob, ["3"])  # still on: not part of the history
    response = carol.get("/api/players/alice/records/")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    assert response["Content-Disposition"] == 'attachment; filename="alice-games.txt"'
    text = b"".join(response.streaming_content).decode()
    assert [headers["Match"] for headers in map(headers_of, text.split("\n\n[Game")[0:1])] == [str(first["id"])]
    assert text.count('[Game "Connect Four"]') == 2
    replayed = read(carol, text).json()["records"]
    assert [r["headers"]["Match"] for r in replayed] == [str(first["id"]), str(second["id"])]
    assert [r["plies"] for r in replayed] == [7, 2]
    assert carol.get("/api/players/nobody/records/").status_code == 404
