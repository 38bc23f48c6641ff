"""Manhattan rules from constructed positions: card reading, building, the house
rule, scoring and tie-breaks, rounds, notation and the error messages."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from games.engines.base import LOSS, WIN, BadNotation, BadOptions, IllegalMove
from games.engines.manhattan import (
    BUILD,
    EAST,
    EMPTY_SITE,
    NORTH,
    OVER,
    PICK,
    SOUTH,
    STOCK,
    WEST,
    Discard,
    Manhattan,
    ManhattanState,
    Pick,
    Place,
    Site,
    _deal,
    board_points,
    card_site,
    site_index,
)

ENGINE = Manhattan()
SEED = 7

# In most positions here seat number and compass agree, to keep them readable.
S, W, N, E = 0, 1, 2, 3


def position(**changes: object) -> ManhattanState:
    """A build-phase position of round 1: South to move, everybody holding cards 1 2 3 5
    and the pieces 1 1 2 3 4 4, on an empty board; ``changes`` override any field."""
    base = ENGINE.initial_state(4, ENGINE.normalize_options({}), SEED)
    fields: dict[str, object] = {
        "directions": (SOUTH, WEST, NORTH, EAST),
        "phase": BUILD,
        "start": S,
        "turn": S,
        "hands": ((1, 2, 3, 5),) * 4,
        "picked": ((1, 1, 2, 3, 4, 4),) * 4,
        "stock": ((9, 5, 3, 1),) * 4,
    }
    fields.update(changes)
    return replace(base, **fields)  # type: ignore[arg-type]


def with_buildings(state: ManhattanState, buildings: dict[tuple[int, int, int], tuple[tuple[int, ...], int]]) -> ManhattanState:
    """``buildings`` maps (city 1..6, row, column) to (storeys per seat, owner)."""
    board = list(state.board)
    for (city, row, column), (storeys, owner) in buildings.items():
        board[site_index(city, row, column)] = Site(storeys, owner)
    return replace(state, board=tuple(board))


def site(state: ManhattanState, city: int, row: int, column: int) -> Site:
    return state.board[site_index(city, row, column)]


# --- the game and its start --------------------------------------------------


def test_it_is_always_a_four_player_game() -> None:
    assert (ENGINE.min_players, ENGINE.max_players) == (4, 4)
    assert ENGINE.normalize_options({})["players"] == 4
    with pytest.raises(BadOptions):
        ENGINE.normalize_options({"players": 3})
    with pytest.raises(BadOptions, match="exactly 4 players"):
        ENGINE.initial_state(3, {"players": 3}, 1)


def test_the_start_deals_four_cards_each_and_draws_compass_and_start_player_from_the_seed() -> None:
    starts, compasses = set(), set()
    for seed in range(40):
        state = ENGINE.initial_state(4, {"players": 4}, seed)
        assert sorted(state.directions) == [SOUTH, WEST, NORTH, EAST]
        assert [len(hand) for hand in state.hands] == [4, 4, 4, 4]
        assert len(state.deck) == 45 - 16
        assert sorted(state.deck + sum(state.hands, ())) == sorted(list(range(1, 10)) * 5)
        assert state.stock == (STOCK,) * 4 and sum(n * s for n, s in zip(STOCK, (1, 2, 3, 4))) == 47
        assert (state.round, state.phase, state.turn) == (1, PICK, state.start)
        assert state == ENGINE.initial_state(4, {"players": 4}, seed)
        starts.add(state.start)
        compasses.add(state.directions)
    assert starts == {0, 1, 2, 3}
    assert len(compasses) > 10


def test_the_view_says_which_compass_direction_each_seat_got() -> None:
    state = position(directions=(NORTH, EAST, SOUTH, WEST))
    view = ENGINE.view(state, 0)
    assert [seat["direction"] for seat in view["seats"]] == ["North", "East", "South", "West"]


def test_play_goes_clockwise_south_west_north_east_whatever_the_seat_numbers() -> None:
    # seat 0 North, 1 South, 2 East, 3 West.
    state = position(directions=(NORTH, SOUTH, EAST, WEST), start=1, turn=1)
    assert state.order() == (1, 3, 0, 2)
    seen = []
    for _ in range(5):
        seen.append(state.turn)
        state = ENGINE.apply(state, state.turn, ENGINE.legal_actions(state, state.turn)[0])
    assert seen == [1, 3, 0, 2, 1]


# --- reading a card -------------------------------------------------------------


@pytest.mark.parametrize(
    "direction, card, expected",
    [
        (SOUTH, 1, (0, 0)), (SOUTH, 3, (0, 2)), (SOUTH, 7, (2, 0)), (SOUTH, 6, (1, 2)),
        (WEST, 1, (0, 2)), (WEST, 3, (2, 2)), (WEST, 7, (0, 0)), (WEST, 6, (2, 1)),
        (NORTH, 1, (2, 2)), (NORTH, 3, (2, 0)), (NORTH, 7, (0, 2)), (NORTH, 6, (1, 0)),
        (EAST, 1, (2, 0)), (EAST, 3, (0, 0)), (EAST, 7, (2, 2)), (EAST, 6, (0, 1)),
    ],
)
def test_each_seat_reads_a_card_from_where_it_sits(direction: int, card: int, expected: tuple[int, int]) -> None:
    assert card_site(direction, card) == expected


@pytest.mark.parametrize("direction", [SOUTH, WEST, NORTH, EAST])
def test_the_centre_card_is_the_centre_site_for_everyone_and_each_card_a_different_site(direction: int) -> None:
    assert card_site(direction, 5) == (1, 1)
    assert len({card_site(direction, card) for card in range(1, 10)}) == 9


@pytest.mark.parametrize(
    "seat, name",
    [(S, "north-east"), (W, "south-east"), (N, "south-west"), (E, "north-west")],
)
def test_a_placement_lands_on_the_site_the_card_shows_to_the_player(seat: int, name: str) -> None:
    state = position(turn=seat)
    after = ENGINE.play(state, seat, "3@2/4")
    row, column = card_site(seat, 3)
    assert site(after, 2, row, column) == Site(tuple(4 if s == seat else 0 for s in range(4)), seat)
    assert sum(1 for s in after.board if s.owner is not None) == 1
    view = ENGINE.view(state, seat)
    assert view["hand_sites"]["3"] == {"row": row, "column": column, "name": name}
    built = view_site(ENGINE.view(after, None), 2, row, column)
    assert (built["name"], built["owner"], built["height"]) == (name, seat, 4)


def view_site(view: dict[str, object], city: int, row: int, column: int) -> dict[str, object]:
    return view["cities"][city - 1]["sites"][row][column]  # type: ignore[index,no-any-return]


# --- building and taking over ---------------------------------------------------


def test_a_player_may_take_over_a_building_by_drawing_level() -> None:
    state = with_buildings(position(), {(1, 0, 0): ((0, 2, 0, 0), W)})
    after = ENGINE.play(state, S, "1@1/2")
    assert site(after, 1, 0, 0) == Site((2, 2, 0, 0), S)


def test_a_player_may_not_end_with_fewer_storeys_than_someone_else() -> None:
    state = with_buildings(position(), {(1, 0, 0): ((0, 3, 0, 0), W)})
    with pytest.raises(IllegalMove, match="South would have fewer storeys than West in that building"):
        ENGINE.play(state, S, "1@1/2")
    assert "1@1/2" not in ENGINE.legal_moves(state, S)
    assert "1@1/3" in ENGINE.legal_moves(state, S)


def test_a_takeover_must_match_the_strongest_of_all_the_others() -> None:
    # East drew level with West at 4 storeys and owns it; South, with 1 there, needs 3 more.
    state = with_buildings(position(), {(2, 0, 1): ((1, 4, 0, 4), E)})
    legal = ENGINE.legal_moves(state, S)
    assert "2@2/2" not in legal and "2@2/3" in legal and "2@2/4" in legal
    with pytest.raises(IllegalMove, match="fewer storeys than"):
        ENGINE.play(state, S, "2@2/2")


def test_a_player_may_always_add_to_their_own_building() -> None:
    state = with_buildings(position(), {(3, 1, 1): ((3, 3, 0, 0), S)})
    after = ENGINE.play(state, S, "5@3/1")
    assert site(after, 3, 1, 1) == Site((4, 3, 0, 0), S)


def test_the_last_to_build_owns_the_building() -> None:
    state = with_buildings(position(turn=W), {(3, 1, 1): ((3, 0, 0, 0), S)})
    after = ENGINE.play(state, W, "5@3/4")
    assert site(after, 3, 1, 1).owner == W
    assert ENGINE.describe(state, W, Place(5, 3, 4)) == (
        "West built a 4-storey piece on city 3, centre site, taking the building from South"
    )


def test_a_turn_spends_the_card_and_the_piece_and_draws() -> None:
    state = position()
    after = ENGINE.play(state, S, "2@6/3")
    assert after.hands[S] == tuple(sorted((1, 3, 5, state.deck[0])))
    assert after.deck == state.deck[1:]
    assert after.picked[S] == (1, 1, 2, 4, 4)
    assert after.played == (2,)
    assert after.turn == W
    assert after.last == (S, "2@6/3", "South built a 3-storey piece on city 6, north site")


# --- the house rule: no legal placement ---------------------------------------


def blocked_position() -> ManhattanState:
    """South holds only cards 1 and 2 and one-storey pieces; every such site in
    every city is held by West with 3 storeys."""
    buildings = {}
    for city in range(1, 7):
        for column in (0, 1):
            buildings[(city, 0, column)] = ((0, 3, 0, 0), W)
    return with_buildings(
        position(hands=((1, 1, 2, 2), (1, 2, 3, 5), (1, 2, 3, 5), (1, 2, 3, 5)),
                 picked=((1, 1, 2), (1, 1, 2), (1, 1, 2), (1, 1, 2))),
        buildings,
    )


def test_with_no_legal_placement_the_only_moves_are_discards() -> None:
    state = blocked_position()
    assert ENGINE.legal_moves(state, S) == ["discard:1", "discard:2"]


def test_a_discard_draws_and_loses_the_smallest_picked_piece() -> None:
    state = blocked_position()
    after = ENGINE.play(state, S, "discard:2")
    assert after.hands[S] == tuple(sorted((1, 1, 2, state.deck[0])))
    assert after.picked[S] == (1, 2)
    assert after.lost[S] == (1,)
    assert after.board == state.board
    assert after.turn == W
    assert after.last is not None and after.last[2] == (
        "South could not build anywhere, discarded card 2 and lost a 1-storey piece"
    )
    assert ENGINE.view(after, None)["seats"][S]["lost"] == [1]


def test_a_discard_is_refused_while_a_placement_is_possible() -> None:
    with pytest.raises(IllegalMove, match="you can still build .*discard only when"):
        ENGINE.play(position(), S, "discard:1")
    with pytest.raises(IllegalMove, match="card 9 is not in your hand"):
        ENGINE.play(blocked_position(), S, "discard:9")


def test_a_round_ends_when_every_piece_is_placed_or_lost() -> None:
    state = replace(blocked_position(), picked=((1,), (), (), ()), start=W)
    after = ENGINE.play(state, S, "discard:1")
    assert after.round == 2 and after.phase == PICK
    assert after.lost[S] == (1,)


# --- scoring ----------------------------------------------------------------------


def points(buildings: dict[tuple[int, int, int], tuple[tuple[int, ...], int]]) -> tuple[int, ...]:
    return board_points(with_buildings(position(), buildings).board)


def test_each_building_owned_scores_one() -> None:
    # One building each in four cities: majority there too, and no single tallest owner.
    assert points({(1, 0, 0): ((1, 0, 0, 0), S), (2, 0, 0): ((0, 1, 0, 0), W)}) == (1 + 2, 1 + 2, 0, 0)


def test_the_tallest_building_scores_three_for_its_owner() -> None:
    assert points({
        (1, 0, 0): ((5, 0, 0, 0), S),
        (1, 0, 1): ((0, 2, 0, 0), W),
        (1, 0, 2): ((0, 2, 0, 0), W),
    }) == (1 + 3, 2 + 2, 0, 0)


def test_tallest_buildings_of_one_height_with_different_owners_score_nobody() -> None:
    assert points({(1, 0, 0): ((4, 0, 0, 0), S), (2, 0, 0): ((0, 0, 4, 0), N)}) == (3, 0, 3, 0)


def test_tallest_buildings_of_one_height_with_the_same_owner_score_three_once() -> None:
    assert points({(1, 0, 0): ((4, 0, 0, 0), S), (2, 0, 0): ((4, 0, 0, 0), S)}) == (2 + 4 + 3, 0, 0, 0)


def test_the_city_majority_scores_two_and_a_tie_scores_nobody() -> None:
    city_one = {(1, 0, 0): ((1, 0, 0, 0), S), (1, 0, 1): ((1, 0, 0, 0), S), (1, 0, 2): ((0, 0, 0, 1), E)}
    assert points(city_one) == (2 + 2, 0, 0, 1)
    tied = {(1, 0, 0): ((1, 0, 0, 0), S), (1, 0, 2): ((0, 0, 0, 1), E)}
    assert points(tied) == (1, 0, 0, 1)


def test_the_round_is_scored_from_the_board_when_the_last_piece_is_placed() -> None:
    state = with_buildings(
        position(turn=E, picked=((), (), (), (2,)), scores=(5, 0, 0, 1)),
        {(4, 0, 0): ((0, 0, 2, 0), N)},
    )
    after = ENGINE.play(state, E, "5@4/2")
    # North and East own a building each in city 4 (no majority), both 2 high (no tallest).
    assert after.round_points == ((0, 0, 1, 1),)
    assert after.scores == (5, 0, 1, 2)
    assert ENGINE.view(after, None)["after_rounds"] == [
        {"round": 1, "points": [0, 0, 1, 1], "totals": [0, 0, 1, 1]}
    ]


def test_a_new_round_deals_afresh_and_the_start_player_passes_clockwise() -> None:
    # seat 0 North, 1 South, 2 East, 3 West; South (seat 1) started round 1.
    directions = (NORTH, SOUTH, EAST, WEST)
    state = position(directions=directions, start=1, turn=2, picked=((), (), (4,), ()),
                     stock=((12, 6, 4, 2),) * 4, played=(1, 2))
    after = ENGINE.play(state, 2, "1@1/4")
    hands, deck = _deal(SEED, 2)
    assert (after.round, after.phase) == (2, PICK)
    assert (after.start, after.turn) == (3, 3)  # West is on South's left
    assert (after.hands, after.deck, after.played) == (hands, deck, ())
    view = ENGINE.view(after, None)
    assert view["start_player"] == 3 and view["to_move"] == [3] and view["phase"] == "pick"
    assert view["order"] == [3, 0, 2, 1]


def test_the_picks_go_round_from_the_start_player_then_the_start_player_builds_first() -> None:
    state = ENGINE.initial_state(4, {"players": 4}, SEED)
    order = state.order()
    for seat in order:
        assert state.phase == PICK and state.turn == seat
        state = ENGINE.play(state, seat, "pick:111222")
        assert state.picked[seat] == (1, 1, 1, 2, 2, 2)
        assert state.stock[seat] == (8, 3, 4, 3)
    assert state.phase == BUILD and state.turn == order[0]


def test_the_round_four_pick_is_forced_as_a_single_legal_move() -> None:
    state = position(round=4, phase=PICK, picked=((),) * 4, stock=((2, 1, 2, 1),) * 4)
    assert ENGINE.legal_moves(state, S) == ["pick:112334"]
    with pytest.raises(IllegalMove, match="only 1 2-storey piece"):
        ENGINE.play(state, S, "pick:122334")


def test_the_pick_options_are_every_six_piece_choice_the_stock_allows() -> None:
    state = ENGINE.initial_state(4, {"players": 4}, SEED)
    stock = [1] * 11 + [2] * 6 + [3] * 4 + [4] * 3
    expected = {"pick:" + "".join(map(str, combo)) for combo in itertools.combinations(stock, 6)}
    moves = ENGINE.legal_moves(state, state.turn)
    assert len(moves) == len(expected) == 70
    assert set(moves) == expected


def test_a_build_turn_on_an_empty_board_has_every_card_city_and_piece() -> None:
    assert len(ENGINE.legal_moves(position(), S)) == 4 * 6 * 4


# --- the end ------------------------------------------------------------------------


def finished(scores: tuple[int, ...], buildings: dict[tuple[int, int, int], tuple[tuple[int, ...], int]]) -> ManhattanState:
    return with_buildings(position(phase=OVER, round=4, scores=scores), buildings)


def test_the_highest_score_wins() -> None:
    outcome = ENGINE.outcome(finished((30, 41, 12, 40), {}))
    assert outcome is not None
    assert outcome.results == (LOSS, WIN, LOSS, LOSS)
    assert outcome.scores == (30, 41, 12, 40)
    assert outcome.reason == "West wins with 41 points"


def test_a_tie_on_score_goes_to_the_tied_player_with_the_tallest_building() -> None:
    state = finished((40, 40, 12, 30), {
        (1, 0, 0): ((5, 0, 0, 0), S),
        (2, 0, 0): ((0, 6, 0, 0), W),
        (2, 0, 1): ((0, 1, 0, 0), W),
        (3, 0, 0): ((0, 0, 0, 9), E),  # taller, but East is not in the tie
    })
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.results == (LOSS, WIN, LOSS, LOSS)
    assert "tallest building" in outcome.reason


def test_then_to_the_tied_player_with_the_most_buildings() -> None:
    state = finished((40, 40, 12, 30), {
        (1, 0, 0): ((5, 0, 0, 0), S),
        (1, 0, 1): ((1, 0, 0, 0), S),
        (2, 0, 0): ((0, 5, 0, 0), W),
    })
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.results == (WIN, LOSS, LOSS, LOSS)
    assert "most buildings" in outcome.reason


def test_a_full_tie_is_shared_by_every_tied_winner() -> None:
    state = finished((40, 12, 40, 40), {
        (1, 0, 0): ((5, 0, 0, 0), S),
        (2, 0, 0): ((0, 0, 5, 0), N),
        (3, 0, 0): ((0, 0, 0, 4), E),
    })
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.results == (WIN, LOSS, WIN, LOSS)
    assert outcome.winners == (0, 2)
    assert outcome.reason == "South and North share the win with 40 points"


def test_every_seat_is_placed_by_score_then_tallest_then_most_buildings() -> None:
    state = finished((40, 40, 12, 30), {
        (1, 0, 0): ((5, 0, 0, 0), S),
        (2, 0, 0): ((0, 6, 0, 0), W),
        (2, 0, 1): ((0, 1, 0, 0), W),
        (3, 0, 0): ((0, 0, 0, 9), E),
    })
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    # West wins the tie on 40 with the taller building; East's 30 beats North's 12.
    assert outcome.places == (2, 1, 4, 3)


def test_seats_equal_on_every_tie_break_share_their_place() -> None:
    state = finished((40, 12, 40, 40), {
        (1, 0, 0): ((5, 0, 0, 0), S),
        (2, 0, 0): ((0, 0, 5, 0), N),
        (3, 0, 0): ((0, 0, 0, 4), E),
    })
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.places == (1, 4, 1, 3)


def test_the_fourth_round_ends_the_game_with_its_scores() -> None:
    state = position(round=4, turn=E, picked=((), (), (), (1,)), scores=(10, 9, 8, 7))
    after = ENGINE.play(state, E, "5@1/1")
    assert after.phase == OVER and ENGINE.is_over(after)
    assert ENGINE.to_move(after) == () and ENGINE.legal_actions(after, E) == []
    outcome = ENGINE.outcome(after)
    assert outcome is not None and outcome.scores == (10, 9, 8, 7 + 1 + 2 + 3)
    assert outcome.results == (LOSS, LOSS, LOSS, WIN)
    with pytest.raises(IllegalMove, match="the game is over"):
        ENGINE.play(after, S, "5@1/1")


# --- error messages a player can act on ---------------------------------------------


@pytest.mark.parametrize(
    "text, message",
    [
        ("9@1/1", "card 9 is not in your hand"),
        ("1@1/2", "you did not pick a 2-storey piece"),
        ("1@7/1", "city 7 does not exist: cities are 1..6"),
        ("1@0/1", "city 0 does not exist: cities are 1..6"),
        ("10@1/1", "there is no card position 10: positions are 1..9"),
        ("1@1/5", "there are no 5-storey pieces: pieces have 1 to 4 storeys"),
        ("pick:111234", "the pieces for this round are picked: play a card now"),
    ],
)
def test_illegal_builds_say_why(text: str, message: str) -> None:
    state = position(picked=((1, 1, 3, 4, 4, 4),) * 4)
    with pytest.raises(IllegalMove, match=message):
        ENGINE.play(state, S, text)


@pytest.mark.parametrize(
    "text, message",
    [
        ("pick:11123", "pick six pieces, not 5"),
        ("pick:1112344", "pick six pieces, not 7"),
        ("pick:111235", "there are no 5-storey pieces"),
        ("pick:444411", "you have only 3 4-storey piece"),
        ("5@1/1", "pick your six pieces for round 1 first"),
        ("discard:5", "pick your six pieces for round 1 first"),
    ],
)
def test_illegal_picks_say_why(text: str, message: str) -> None:
    state = ENGINE.initial_state(4, {"players": 4}, SEED)
    with pytest.raises(IllegalMove, match=message):
        ENGINE.play(state, state.turn, text)


def test_moving_out_of_turn_names_who_is_to_move() -> None:
    with pytest.raises(IllegalMove, match="it is not your turn: South is to move"):
        ENGINE.play(position(), W, "1@1/1")
    assert ENGINE.legal_actions(position(), W) == []


# --- notation ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, action",
    [
        ("pick:111234", Pick((1, 1, 1, 2, 3, 4))),
        ("pick:432111", Pick((1, 1, 1, 2, 3, 4))),
        ("  PICK:111234 ", Pick((1, 1, 1, 2, 3, 4))),
        ("5@3/2", Place(5, 3, 2)),
        ("12@30/9", Place(12, 30, 9)),
        ("discard:5", Discard(5)),
    ],
)
def test_notation_parses(text: str, action: object) -> None:
    assert ENGINE.parse(position(), text) == action


@pytest.mark.parametrize(
    "text", ["", "hello", "5@3", "5@3/", "@3/2", "5-3-2", "pick:", "pick:abc", "pick 111234",
             "5@3/2x", "discard:", "discard:x", "5@3/-2", "５@3/2"],
)
def test_text_that_does_not_parse_is_bad_notation(text: str) -> None:
    with pytest.raises(BadNotation, match="not a Manhattan move"):
        ENGINE.parse(position(), text)


@pytest.mark.parametrize("action", [Pick((1, 1, 1, 2, 3, 4)), Place(5, 3, 2), Discard(9)])
def test_format_and_parse_are_inverse(action: Pick | Place | Discard) -> None:
    state = position()
    assert ENGINE.parse(state, ENGINE.format(state, action)) == action


def test_describe_says_the_move_in_words() -> None:
    state = position(directions=(EAST, SOUTH, WEST, NORTH), turn=0)
    # East reads card 3 as the north-west site.
    assert ENGINE.describe(state, 0, Place(3, 3, 2)) == "East built a 2-storey piece on city 3, north-west site"
    assert ENGINE.describe(state, 0, Place(7, 3, 2)) == "East built a 2-storey piece on city 3, south-east site"
    assert ENGINE.describe(state, 1, Pick((1, 1, 1, 2, 3, 4))) == "South picked 1,1,1,2,3,4"


def test_a_constructed_position_serialises_and_heights_add_up() -> None:
    state = with_buildings(position(), {(6, 2, 2): ((1, 2, 3, 4), N)})
    assert ENGINE.deserialize(ENGINE.serialize(state)) == state
    assert EMPTY_SITE.height == 0 and site(state, 6, 2, 2).height == 10
