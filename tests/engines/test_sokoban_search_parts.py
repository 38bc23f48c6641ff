"""The Sokoban solver's parts: distances, deadlocks, corrals, matching, packing order."""

from __future__ import annotations

import itertools
import random

import pytest

from games.engines.sokoban import MICROBAN, core, load_levels, parse_level
from games.engines.sokoban.board import INF, Board, bits
from games.engines.sokoban.deadlocks import pi_corral, push_deadlock
from games.engines.sokoban.engine import replay
from games.engines.sokoban.matching import Matcher, min_matching, rematch, solve_matching
from games.engines.sokoban.packing import PackingOrder, _doors, _outside, entrance_order
from games.engines.sokoban.solver import (
    UNSOLVABLE,
    _Bidirectional,
    _best_first,
    _Budget,
    _Search,
    solve,
    to_lurd,
)

LEVELS = load_levels(MICROBAN)

# A dead-end row of three goals, entered from the right.
GOAL_ROW = """\
#########
#...    #
#### $  #
#   $ $@#
#       #
#########
"""


def square(board: Board, x: int, y: int) -> int:
    return y * board.width + x


def mask(board: Board, *cells: tuple[int, int]) -> int:
    result = 0
    for x, y in cells:
        result |= 1 << square(board, x, y)
    return result


def test_push_distances_count_pushes_to_each_goal() -> None:
    board = Board(parse_level("#######\n#@$  .#\n#######\n"))
    goal = board.goals[0]
    assert [board.dist[square(board, x, 1)][0] for x in (2, 3, 4, 5)] == [3, 2, 1, 0]
    assert board.nearest[square(board, 1, 1)] == INF
    assert goal == square(board, 5, 1)


def test_corners_and_walls_without_goals_are_dead_squares() -> None:
    board = Board(parse_level("######\n#    #\n# @$.#\n#    #\n######\n"))
    dead = board.floor & ~board.live
    assert (dead >> square(board, 1, 1)) & 1  # a corner
    assert (dead >> square(board, 2, 1)) & 1  # along the top wall, no goal there
    assert (board.live >> square(board, 2, 2)) & 1


def test_a_box_that_starts_where_the_player_cannot_go_makes_the_level_unsolvable() -> None:
    level = parse_level("########\n#@$..#$#\n########\n")
    assert Board(level).unsolvable is not None
    assert solve(level).status == UNSOLVABLE


def test_the_matching_is_the_cheapest_assignment() -> None:
    rng = random.Random(11)
    for size in range(1, 7):
        for _ in range(50):
            costs = [
                [rng.choice([rng.randint(0, 9), INF]) for _ in range(size)] for _ in range(size)
            ]
            brute = min(
                sum(costs[i][p[i]] for i in range(size))
                for p in itertools.permutations(range(size))
            )
            assert min(min_matching(costs), INF) == min(brute, INF)


def test_repairing_one_row_gives_the_same_matching_as_solving_afresh() -> None:
    rng = random.Random(5)
    for size in range(1, 8):
        for _ in range(50):
            costs = [[rng.randint(0, 20) for _ in range(size)] for _ in range(size)]
            duals = solve_matching(costs)
            changed = rng.randrange(size)
            costs[changed] = [rng.randint(0, 20) for _ in range(size)]
            assert rematch(costs, duals, changed)[0] == min_matching(costs)


def test_the_matcher_bounds_children_like_a_fresh_matching() -> None:
    board = Board(LEVELS[97])
    matcher = Matcher(board.dist)
    boxes = board.start_boxes
    rng = random.Random(3)
    for _ in range(200):
        matcher.expand(boxes)
        cells = list(bits(boxes))
        gone = rng.choice(cells)
        came = rng.choice([c for c in bits(board.live) if not (boxes >> c) & 1])
        child = boxes ^ (1 << gone) ^ (1 << came)
        fresh = min(min_matching([board.dist[c] for c in bits(child)]), INF)
        assert matcher.bound(child) == fresh
        boxes = child


def test_a_box_frozen_on_the_mouth_of_a_goal_row_is_a_deadlock() -> None:
    board = Board(parse_level(GOAL_ROW))
    tables: dict[int, list[list[int]]] = {}
    # A box on the row's last goal, against the wall above, with a box on
    # its right: frozen, and the two goals behind it can no longer be filled.
    boxes = mask(board, (3, 1), (4, 1), (5, 2))
    assert push_deadlock(board, boxes, square(board, 3, 1), tables)
    # The deepest goal first is fine.
    boxes = mask(board, (1, 1), (4, 2), (5, 2))
    assert not push_deadlock(board, boxes, square(board, 1, 1), tables)


def test_the_packing_order_fills_a_goal_row_from_its_dead_end() -> None:
    board = Board(parse_level(GOAL_ROW))
    order = PackingOrder(board, board.goal_mask, -1, pulls=True)
    layers = [order.layer[square(board, x, 1)] for x in (1, 2, 3)]
    assert layers[0] > layers[1] > layers[2]
    assert order.out_of_order(mask(board, (3, 1), (5, 2), (6, 3))) == 1
    assert order.out_of_order(mask(board, (1, 1), (5, 2), (6, 3))) == 0


# A row of five goals open at both ends, between two rooms; the boxes are
# all in the left one, the player in the right one.
TWO_DOOR_ROW = """\
#################
#    #######   @#
# $$ #######    #
# $$ .....      #
#  $ #######    #
#    #######    #
#################
"""


SPLIT_ROW = """\
#################
#@   #######    #
# $$ #######    #
#  $ .....   $  #
#    ####### $  #
#    #######    #
#################
"""


def test_a_goal_room_is_filled_through_the_entrances_its_boxes_come_from() -> None:
    board = Board(parse_level(TWO_DOOR_ROW))
    row = [square(board, x, 3) for x in range(5, 10)]
    # Peeled from both ends at once, the middle goal is filled first; but the
    # boxes can only come in from the left, and the middle goal filled first
    # shuts the two on its right off from all of them.
    layers = PackingOrder(board, board.goal_mask, -1, pulls=True).layer
    assert max(row, key=layers.__getitem__) == row[2]
    # By entrance: the far end first, the row filled from the left inwards.
    assert entrance_order(board, board.goal_mask) == row[::-1]
    layers = PackingOrder(board, board.goal_mask, -1, pulls=True, entrances=True).layer
    assert [layers[goal] for goal in row] == [0, 1, 2, 3, 4]
    # The boxes in the right room instead: filled from the right inwards.
    mirrored = Board(parse_level("\n".join(line[::-1] for line in TWO_DOOR_ROW.splitlines()) + "\n"))
    row = [square(mirrored, x, 3) for x in range(7, 12)]
    assert entrance_order(mirrored, mirrored.goal_mask) == row
    # Three boxes on the left and two on the right: the row is split between
    # its doors, each side filled from its far end inwards.
    board = Board(parse_level(SPLIT_ROW))
    row = [square(board, x, 3) for x in range(5, 10)]
    order = entrance_order(board, board.goal_mask)
    assert order is not None
    assert [goal for goal in order if goal in row[:3]] == row[2::-1]
    assert [goal for goal in order if goal in row[3:]] == row[3:]
    # No order found (here: in no tries at all) leaves the room to its layers.
    assert entrance_order(board, board.goal_mask, tries=0) is None


def test_a_shuffled_packing_order_is_another_order_that_fits() -> None:
    # SPLIT_ROW's two sides may be filled in turn in any way, each side from
    # its far end inwards: the seeds find several orders, every one fitting,
    # and a seed finds the same order every time.
    board = Board(parse_level(SPLIT_ROW))
    row = [square(board, x, 3) for x in range(5, 10)]
    orders = {seed: entrance_order(board, board.goal_mask, shuffle=seed) for seed in range(12)}
    for order in orders.values():
        assert order is not None and sorted(order) == row
        assert [goal for goal in order if goal in row[:3]] == row[2::-1]
        assert [goal for goal in order if goal in row[3:]] == row[3:]
    assert len({tuple(order) for order in orders.values() if order}) >= 3
    assert entrance_order(board, board.goal_mask, shuffle=7) == orders[7]
    # A row with one way to fill it has no other order to find.
    board = Board(parse_level(TWO_DOOR_ROW))
    assert entrance_order(board, board.goal_mask, shuffle=5) == entrance_order(board, board.goal_mask)


def test_a_box_that_can_never_leave_its_goal_is_a_wall_to_the_rest_of_its_room() -> None:
    # The middle goal's box can never be pulled off (walls above it and
    # beyond both its neighbours) nor replaced: it is filled first, and the
    # goals beside it, filled from above, are ordered around it.
    board = Board(parse_level("#######\n#  @  #\n# $ $ #\n## # ##\n #.*.#\n #####\n"))
    order = entrance_order(board, board.goal_mask)
    assert order is not None and order[0] == square(board, 3, 4)
    assert sorted(order[1:]) == [square(board, 2, 4), square(board, 4, 4)]
    # The goal in the pocket holds its box for good: the room is the goal below it.
    board = Board(parse_level("#######\n###*###\n# $. @#\n#######\n"))
    assert entrance_order(board, board.goal_mask) == [square(board, 3, 1), square(board, 3, 2)]
    # Such a goal without a box of the start is never filled: no order, and
    # the search says so at once.
    board = Board(parse_level("#######\n###.###\n# $.$@#\n#######\n"))
    order = PackingOrder(board, board.goal_mask, -1, pulls=True)
    assert order.groups == [board.goal_mask]
    board.check = lambda: pytest.fail("searched")  # (no pull search at all)
    assert entrance_order(board, board.goal_mask) is None


def test_a_goal_room_may_park_a_box_in_a_pocket_while_the_goals_behind_it_fill() -> None:
    # Microban 43: the column of three goals is entered from the left at its
    # middle; the floor above it is a pocket that no box reaches but through
    # the column, so its one entrance is the square left of the middle goal.
    board = Board(LEVELS[42])
    room = board.goal_mask
    assert _doors(board, _outside(board, room, pockets=True), 0) == [square(board, 6, 4)]
    # No order keeps every filled goal filled: the top goal is filled by a
    # push up from the middle, the player below it, so the bottom one must
    # already be full, and it is filled by a push down, the player above. A
    # box parks in the pocket above the column while the bottom goal fills,
    # then comes down onto the top goal.
    assert entrance_order(board, room, parked_max=0) is None
    assert entrance_order(board, room) == [square(board, 7, 5), square(board, 7, 3), square(board, 7, 4)]
    # Seen plainly (the portfolio's other orders), the pocket is outside
    # floor, the square above the column an entrance, and the column is
    # filled from the bottom up, the top goal from above.
    assert _doors(board, _outside(board, room, pockets=False), 0) == [square(board, 7, 2), square(board, 6, 4)]
    assert entrance_order(board, room, plain=True) == [square(board, 7, 5), square(board, 7, 4), square(board, 7, 3)]


# Two goals in a dead end (a room) behind a lone goal in the corridor that
# leads to them (a room of its own): every box passes the lone goal.
FED_THROUGH = """\
############
#.. .      #
#######    #
      # $$ #
      #  $ #
      #   @#
      ######
"""


def test_boxes_feed_a_room_only_past_a_goal_that_lies_on_their_way() -> None:
    board = Board(parse_level(FED_THROUGH))
    room = mask(board, (1, 1), (2, 1))
    corridor_goal = mask(board, (4, 1))
    assert board.feeds(room, board.start_boxes, 2)
    # With a box on the lone goal, none of the three can reach the room.
    assert not board.feeds(room, board.start_boxes, 1, blocked=corridor_goal)
    # Boxes on the room's goals count as there already.
    assert board.feeds(room, mask(board, (1, 1)), 1, blocked=corridor_goal)


def test_a_room_fed_through_another_is_filled_before_it() -> None:
    board = Board(parse_level(FED_THROUGH))
    room, corridor_goal = mask(board, (1, 1), (2, 1)), mask(board, (4, 1))
    boxes_far, boxes_near = mask(board, (4, 1), (8, 3), (9, 4)), mask(board, (1, 1), (2, 1), (9, 4))
    # Rooms alone: the lone goal has no order inside, so it is in no group,
    # and a box on it while the room is empty is in order.
    order = PackingOrder(board, board.goal_mask, -1, pulls=True)
    assert order.groups == [room] and order.after == {}
    assert order.out_of_order(boxes_far) == 0
    # Rooms in order: the lone goal waits on the room it leads to.
    order = PackingOrder(board, board.goal_mask, -1, pulls=True, entrances=True)
    assert order.groups == [room]
    assert order.after == {square(board, 4, 1): room}
    assert order.out_of_order(boxes_far) == 1
    assert order.out_of_order(boxes_near) == 0
    assert order.out_of_order(boxes_near | corridor_goal) == 0
    assert solve(parse_level(FED_THROUGH), "best", 5).pushes == 26


# The upper room's boxes all come up through the lower room's mouth; the
# lower room's deep goal, in a pocket beside the mouth, is off their way.
FED_PAST = """\
##########
#..     ##
######  ##
#####..  #
######$  #
#   $ $$@#
#        #
##########
"""


def test_only_the_goals_of_a_room_that_cut_the_way_wait_on_the_room_behind() -> None:
    board = Board(parse_level(FED_PAST))
    upper, pocket, mouth = mask(board, (1, 1), (2, 1)), mask(board, (5, 3)), mask(board, (6, 3))
    order = PackingOrder(board, board.goal_mask, -1, pulls=True, entrances=True)
    assert sorted(order.groups) == sorted([upper, pocket | mouth])
    assert order.layer[square(board, 5, 3)] > order.layer[square(board, 6, 3)]
    assert order.after == {square(board, 6, 3): upper}
    off_goals = mask(board, (7, 4), (7, 5))
    # The pocket may fill before the upper room; the mouth may not, even
    # with the pocket full; with the upper room full, nothing is out of order.
    assert order.out_of_order(pocket | off_goals) == 0
    assert order.out_of_order(pocket | mouth | mask(board, (7, 4))) == 1
    assert order.out_of_order(upper | pocket | mouth) == 0
    assert solve(parse_level(FED_PAST), "best", 5).pushes == 26


@pytest.mark.skipif(not core.AVAILABLE, reason="the compiled core is not built here")
@pytest.mark.parametrize(
    "filled, out",
    [
        ([(5, 3), (7, 4), (7, 5)], 0),  # the pocket: free to fill
        ([(5, 3), (6, 3), (7, 4)], 1),  # the mouth too: waits on the upper room
        ([(6, 3), (2, 1), (7, 4)], 2),  # the mouth, and the upper room's mouth before its dead end
        ([(6, 3), (1, 1), (7, 4)], 1),  # the mouth before the pocket and the upper room: one box out
        ([(1, 1), (2, 1), (5, 3), (6, 3)], 0),  # all in
    ],
)
def test_the_core_counts_the_goals_that_wait_on_another_room(filled: list[tuple[int, int]], out: int) -> None:
    board = Board(parse_level(FED_PAST))
    cells = [square(board, x, y) for x, y in filled]
    order = PackingOrder(board, board.goal_mask, -1, pulls=True, entrances=True)
    assert order.out_of_order(mask(board, *filled)) == out
    assert core.blocked_goals(core.CoreBoard(board), cells)[0] == out


# The upper room (5, 1)-(5, 2) is fed from (4, 3), the box pushed right by
# the player on (3, 3), then up by him on (5, 4); every box on its way up
# column x = 4 passes the lower room's goals (4, 6), (4, 5), (4, 4). With
# the upper room empty the player walks round through it, from (5, 3) up
# and over (4, 1) down to (3, 3); with it full, (3, 3) and (5, 4) are
# reached only past (3, 4).
FILLED_AFTER = """\
#############
###  . ######
### #.  #####
###   #    ##
##... ## $  #
# .#.###  $ #
# ... $ $ $ #
#   $# $ $  #
###   $  $ @#
###         #
#############
"""


def test_a_room_filled_after_another_takes_the_order_it_is_filled_in_with_the_other_full() -> None:
    level = parse_level(FILLED_AFTER)
    board = Board(level)
    upper = mask(board, (5, 1), (5, 2))
    lower = board.goal_mask & ~upper
    first, then = square(board, 3, 4), square(board, 2, 4)
    # Alone, with the upper room empty, the lower room fills (2, 4) before
    # (3, 4): with the upper room full that shuts the player out of (3, 3)
    # and (5, 4), and (3, 4) can no longer be filled.
    alone = entrance_order(board, lower)
    assert alone is not None and alone.index(then) < alone.index(first)
    order = PackingOrder(board, board.goal_mask, -1, pulls=True, entrances=True)
    layered = sorted(bits(lower), key=lambda goal: -order.layer[goal])
    assert layered[:2] == [first, then]
    # The same order as the lower room's own with the upper room's goals
    # walled (full), its boxes gone with them.
    rows = FILLED_AFTER.splitlines()
    rows[1], rows[2] = rows[1].replace(".", "#"), rows[2].replace(".", "#")
    rows[6], rows[7] = rows[6].replace("$", " ", 1), rows[7].replace("$", " ", 1)
    walled = Board(parse_level("\n".join(rows)))
    assert entrance_order(walled, walled.goal_mask) == layered
    # The column still waits on the upper room; (2, 4) before (3, 4) is
    # out of order now.
    assert set(order.after) == set(bits(mask(board, (4, 4), (4, 5), (4, 6))))
    boxes = upper | 1 << then
    assert order.out_of_order(boxes) == 1 and order.out_of_order(upper | 1 << first) == 0
    if core.AVAILABLE:
        assert core.blocked_goals(core.CoreBoard(board), list(bits(boxes)))[0] == 1
    solution = solve(level, "best", 30)
    assert solution.status == "solved" and replay(level, solution.solution).solved


# Holland 68 (David Holland, Maelstrom 8): a two-goal column (7, 5)-(7, 6)
# beside a three-goal room (9, 5), (10, 5), (9, 6), the box column x = 8
# between them, and a room of six goals at the bottom.
HOLLAND_68 = """\
       ####
 #######  #
 #  ##  $ ##
 # $    $  #
 # ###$#$# ####
## ##  .$..#  #
#   #  .$.    #
# $  # #####$ #
##$  #$...    #
 #@. .$..* ####
 ###########
"""


def test_each_goal_of_a_room_needs_a_box_of_its_own_to_feed_it() -> None:
    board = Board(parse_level(HOLLAND_68))
    column_top, column_foot = mask(board, (7, 5)), mask(board, (7, 6))
    room = mask(board, (9, 5), (10, 5), (9, 6))
    boxes = board.start_boxes & ~(column_top | column_foot)
    # With a box on the column's top, boxes still reach the room's foot
    # (9, 6), from the left and from the right, but none its top row: the
    # way to it runs right along row 5 through (7, 5).
    assert board.feeds(mask(board, (9, 6)), boxes, 1, blocked=column_top)
    assert not board.feeds(mask(board, (10, 5)), boxes, 1, blocked=column_top)
    assert not board.feeds(room, boxes, 3, blocked=column_top)
    assert board.feeds(room, boxes, 3, blocked=column_foot)
    assert not board.feeds(room, boxes, 3, blocked=column_top | column_foot)
    # So the column's top waits on the room; its foot, in the same layer
    # of the column, does not (every solution fills it first).
    order = PackingOrder(board, board.goal_mask, -1, pulls=True, entrances=True)
    assert order.layer[square(board, 7, 5)] == order.layer[square(board, 7, 6)]
    assert order.after[square(board, 7, 5)] & room == room
    assert order.after.get(square(board, 7, 6), 0) & room == 0
    # (Both wait on the bottom room, which every box passes: it is full here.)
    bottom = mask(board, (7, 8), (8, 8), (9, 8), (7, 9), (8, 9), (9, 9))
    assert order.out_of_order(bottom | column_foot | mask(board, (9, 6))) == 0
    assert order.out_of_order(bottom | column_top | mask(board, (9, 6))) == 1
    if core.AVAILABLE:
        for filled, out in ((column_foot, 0), (column_top, 1)):
            cells = list(bits(bottom | filled | mask(board, (9, 6))))
            assert core.blocked_goals(core.CoreBoard(board), cells)[0] == out


def test_a_pi_corral_limits_the_pushes_to_its_fence() -> None:
    # The player is below two boxes that shut off the top room with a goal.
    level = parse_level("#######\n#  .  #\n##$#$##\n#  @. #\n#######\n")
    board = Board(level)
    reach = board.reach(1 << board.start_player, board.start_boxes)
    fence = pi_corral(board, board.start_boxes, reach)
    assert fence == board.start_boxes


def test_a_corral_no_push_can_open_is_a_deadlock() -> None:
    # Two boxes in a row shut off both goals: the fence box cannot move.
    level = parse_level("#########\n#..  $$@#\n#########\n")
    board = Board(level)
    reach = board.reach(1 << board.start_player, board.start_boxes)
    assert pi_corral(board, board.start_boxes, reach) == 0
    assert solve(level).status == UNSOLVABLE


def test_a_star_bounded_by_a_known_optimal_solution_proves_it() -> None:
    board = Board(LEVELS[2])
    budget = _Budget(20, 512, None)
    assert _best_first(_Search(board, budget, corrals=True), 1, upper=13) is None
    budget = _Budget(20, 512, None)
    search = _Search(board, budget, corrals=True)
    node = _best_first(search, 1, upper=14)
    assert node is not None and search.depth[node] == 13


def test_the_search_from_both_ends_solves_a_level_a_star_finds_hard() -> None:
    level = LEVELS[92]  # Microban 93
    board = Board(level)
    budget = _Budget(30, 512, None)
    forward = _Search(board, budget, corrals=True, packing=3)
    backward = _Search(board, budget, backward=True, packing=3)
    pushes = _Bidirectional(forward, backward).run()
    assert pushes is not None
    assert replay(level, to_lurd(board, pushes)).solved


# Grigr2001 6 (Grigr, 2001): the goal (7, 4) of the room on row 4 lies on
# the way up to the lone goals (6, 2) and (8, 2); boxes reach them from the
# right past (7, 3) only, pushed up from (7, 4).
GRIGR2001_6 = """\
  ##########
  #   ##   #
###   . .# #
#  # ##  $ #
# $  .**#$##
#   # #   #
##  *$.# ##
 ####   @#
    ######
"""


@pytest.mark.parametrize(
    "moved, out",
    [
        ({}, True),  # no box up yet
        ({(9, 3): (4, 2)}, True),  # one box up: two goals to fill
        ({(9, 3): (4, 2), (9, 4): (5, 2)}, False),  # two boxes up, on their way
        ({(9, 3): (6, 2), (9, 4): (8, 2)}, False),  # both goals filled
    ],
)
def test_a_goal_on_the_way_to_a_room_waits_only_until_the_room_has_its_boxes_past_it(
    moved: dict[tuple[int, int], tuple[int, int]], out: bool
) -> None:
    board = Board(parse_level(GRIGR2001_6))
    order = PackingOrder(board, board.goal_mask, -1, pulls=True, entrances=True)
    way = square(board, 7, 4)
    assert order.after[way] == mask(board, (6, 2), (8, 2))
    # The room's deep goal (5, 4) filled, so that only the wait can put
    # (7, 4)'s box out of order; the box from (2, 4) fills it.
    boxes = board.start_boxes & ~mask(board, (2, 4)) | mask(board, (5, 4))
    for start, end in moved.items():
        boxes = boxes & ~mask(board, start) | mask(board, end)
    counted = order.out_of_order(boxes) - order.out_of_order(boxes & ~(1 << way))
    assert counted == out
    if core.AVAILABLE:
        cells = list(bits(boxes))
        assert core.blocked_goals(core.CoreBoard(board), cells)[0] == order.out_of_order(boxes)


@pytest.mark.skipif(not core.AVAILABLE, reason="the compiled core is not built here")
@pytest.mark.parametrize(
    "after",
    [
        [0],  # cut short
        [0, 1, 0, 5],  # a count that runs past the end
        [0, 1, 3, 28, 29],  # three squares promised, two given
        [1, 1, 1, 28, 0, 1, 1, 28],  # goals not in order
        [0, 0, 1, 28],  # least 0
        [0, 2, 1, 28],  # least above the count
        [0, 1, 2, 29, 28],  # squares not ascending
        [0, 2, 2, 28, 28],  # a square twice
        [99, 1, 1, 28],  # no such goal
        [0, 1, 1, 10**6],  # no such square
        [0, 1, 1, 2**32 + 28],  # beyond an int
    ],
)
def test_the_core_refuses_malformed_rooms_in_order_conditions(after: list[int]) -> None:
    compiled = core._core
    assert compiled is not None
    board = Board(parse_level(GRIGR2001_6))
    prepared = core.CoreBoard(board)
    goals, dist, live, layer, group, _ = prepared.forward
    with pytest.raises(ValueError):
        compiled.blocked_goals(board.width, prepared.floor, (goals, dist, live, layer, group, after), [])
    # The same targets with well-formed conditions are taken.
    well_formed = (goals, dist, live, layer, group, [0, 1, 2, 28, 29])
    assert compiled.blocked_goals(board.width, prepared.floor, well_formed, [])[0] == 0
