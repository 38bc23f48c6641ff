"""Sokoban level formats, validation, and the known Microban solutions."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from games.engines.sokoban import (
    MICROBAN,
    MICROBAN_II,
    LevelError,
    load_levels,
    parse_level,
    parse_levels,
)
from games.engines.sokoban.engine import replay

SHARED = Path(__file__).parents[2].parent / "shared" / "data" / "sokoban"
OPTIMA = SHARED / "microban_push_optimal.tsv"

NUMERIC = "7 4 4111114 1325231 1320231 4111114"
NUMERIC_AS_XSB = " #####\n#.$@$.#\n#.$ $.#\n #####\n"


def test_it_reads_the_numeric_format() -> None:
    level = parse_level(NUMERIC)
    assert (level.width, level.height) == (7, 4)
    assert level.player == (3, 1)
    assert level.boxes == {(2, 1), (4, 1), (2, 2), (4, 2)}
    assert level.goals == {(1, 1), (5, 1), (1, 2), (5, 2)}
    assert level.to_xsb() == NUMERIC_AS_XSB


def test_whitespace_anywhere_in_the_numeric_format_is_ignored() -> None:
    assert parse_level("7\n4\n41111 14132\n5231 1320231\t4111114\n") == parse_level(NUMERIC)


def test_the_numeric_format_and_xsb_give_the_same_level() -> None:
    assert parse_level(NUMERIC) == parse_level(NUMERIC_AS_XSB)


def test_xsb_floor_may_be_written_as_space_dash_or_underscore() -> None:
    a = parse_level("#####\n#@$.#\n#   #\n#####\n")
    assert parse_level("#####\n#@$.#\n#-_-#\n#####\n") == a


def test_a_player_and_a_box_on_goals_are_read() -> None:
    level = parse_level("#####\n#+$ #\n#*$.#\n#####\n")
    assert level.player == (1, 1) and level.player in level.goals
    assert (1, 2) in level.boxes and (1, 2) in level.goals
    assert level.to_xsb() == "#####\n#+$ #\n#*$.#\n#####\n"


def test_xsb_round_trips_for_every_bundled_level() -> None:
    for path in (MICROBAN, MICROBAN_II):
        for level in load_levels(path):
            assert parse_level(level.to_xsb()) == level


def test_a_collection_gives_each_level_with_its_title() -> None:
    levels = load_levels(MICROBAN)
    assert len(levels) == 155
    assert len(load_levels(MICROBAN_II)) == 135
    assert levels[0].title == "1"
    assert levels[43].title == "Duh!"
    assert levels[43].to_xsb() == "; Duh!\n#####\n#@$.#\n#####\n"


def test_levels_are_separated_by_blank_or_comment_lines() -> None:
    text = "; first\n#####\n#@$.#\n#####\n; second\n######\n#@ $.#\n######\n\n'Third'\n"
    text += "#####\n#.$@#\n#####\n\n#####\n#.$@#\n#####\nTitle: Fourth\n\n#####\n#@$.#\n#####\n"
    levels = parse_levels(text)
    assert [level.title for level in levels] == ["first", "second", "Third", "Fourth", ""]


def test_notes_after_a_board_belong_to_it_as_in_sok_files() -> None:
    text = (
        "Some collection\nAuthor: Everyone\n\n; one.xsb\n#####\n#@$.#\n#####\nTitle: Egg\n"
        "Author: Ann\nComment:\n#####\n#  #\nComment-End:\n\n; two.xsb\n#####\n#.$@#\n#####\n"
    )
    first, second = parse_levels(text)
    assert (first.title, first.author) == ("Egg", "Ann")
    assert (second.title, second.author) == ("two.xsb", "Everyone")


def test_the_author_survives_a_round_trip_through_xsb() -> None:
    level = parse_levels("#####\n#@$.#\n#####\nTitle: Egg\nAuthor: Ann\n")[0]
    assert level.to_xsb() == "; Egg\n#####\n#@$.#\n#####\nAuthor: Ann\n"
    assert parse_level(level.to_xsb()) == level
    assert level.to_xsb(title=False) == "#####\n#@$.#\n#####\n"


@pytest.mark.parametrize(
    ("name", "count", "first", "last", "author"),
    [
        ("Holland.xsb", 81, "Spade", "Maelstrom Collection #20", "D Holland"),
        ("Grigr2001.xsb", 100, "Bardak #01", "Only you #100", "GRIGoRusha - Bardak #01"),
        ("SokHard.xsb", 163, "Aislinn", "Virginia", "Lee J Haywood"),
    ],
)
def test_the_classic_collections_are_read_as_published(
    name: str, count: int, first: str, last: str, author: str
) -> None:
    # Copyright lines, web sites and comment blocks are read past; titles
    # come from the notes after each board or the comment before it.
    levels = load_levels(SHARED / name)
    assert len(levels) == count
    assert (levels[0].title, levels[-1].title, levels[0].author) == (first, last, author)
    assert all(level.title for level in levels)
    for level in levels:
        assert parse_level(level.to_xsb()) == level


def test_margins_are_cropped_so_equal_levels_compare_equal() -> None:
    padded = "\n\n   #####  \n   #@$.#\n   #####\n\n"
    assert parse_level(padded) == parse_level("#####\n#@$.#\n#####")


def test_the_bundled_collections_are_the_shared_ones() -> None:
    for name in ("Microban.xsb", "Microban_II.xsb"):
        bundled = (MICROBAN.parent / name).read_text(encoding="utf-8")
        assert bundled == (SHARED / name).read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("####\n#$.#\n####\n", "no player"),
        ("######\n#@$.@#\n######\n", "2 players"),
        ("#####\n#@  #\n#####\n", "no box"),
        ("######\n#@$..#\n######\n", "1 box but 2 goals"),
        ("######\n#@$$.#\n######\n", "2 boxes but 1 goal"),
        ("#####\n#@$.\n#####\n", "not closed by walls"),
        ("#####\n#@$.#\n## ##\n", "not closed by walls"),
        ("@$.", "no level found"),
        ("", "empty"),
        ("   \n\n", "empty"),
        ("0 0", "empty"),
        ("hello", "no level found"),
        ("#####\n#@$.#\n#####\n\n#####\n#@$.#\n#####\n", "2 levels"),
        ("7 4 4111114 1325231 1320231 411111", "needs 28 squares, but 27"),
        ("7 4 4111114 1325231 1320231 4111119", "digits 0-5"),
        ("500 500 " + "1" * 10, "500 x 500"),
        ("101 3 " + "1" * 303, "largest accepted is 100 x 100"),
    ],
)
def test_it_refuses_a_bad_level_saying_why(text: str, reason: str) -> None:
    with pytest.raises(LevelError, match=reason):
        parse_level(text)


def test_it_refuses_a_500_by_500_xsb_board_without_scanning_it() -> None:
    text = "\n".join(["#" * 500] * 500)
    with pytest.raises(LevelError, match="characters long"):
        parse_level(text)
    with pytest.raises(LevelError, match="500 x 500"):
        parse_levels(text)


def test_it_refuses_a_board_wider_than_100_squares() -> None:
    row = "#" * 101
    text = row + "\n#@$." + " " * 96 + "#\n" + row
    with pytest.raises(LevelError, match="101 x 3"):
        parse_level(text)


def test_a_bad_level_in_a_collection_is_named_by_number() -> None:
    with pytest.raises(LevelError, match="level 2: the level has no box"):
        parse_levels("#####\n#@$.#\n#####\n\n#####\n#@  #\n#####\n")


def test_boxes_on_goals_walled_off_from_the_player_are_allowed() -> None:
    # Microban 155 keeps boxes on goals in sealed pockets.
    level = parse_level("#######\n#@$.#*#\n#######\n")
    assert len(level.boxes) == 2 and (5, 1) not in level.inside


def read_optima() -> list[dict[str, str]]:
    with OPTIMA.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def test_every_known_microban_solution_replays_to_a_solved_state() -> None:
    levels = load_levels(MICROBAN)
    rows = read_optima()
    assert len(rows) == 152
    for row in rows:
        state = replay(levels[int(row["level"]) - 1], row["lurd"])
        assert state.solved, f"level {row['level']}"
        assert state.pushes == int(row["pushes"]) and state.moves == int(row["moves"])
