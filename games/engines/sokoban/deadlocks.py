"""Deadlocks: positions from which no solution exists, found without searching.

* Dead squares (simple deadlocks) come with the board: a box on a square from
  which no goal can be reached by pushes, even alone on the board
  (``Board.live``). The solver never pushes a box onto one.
* Freeze deadlocks (``push_deadlock``): after a push,
  the pushed box and the boxes that hold it may be stuck for good, each
  blocked along both axes by walls, by dead squares on both sides, or by
  boxes stuck themselves. One stuck off a goal is a deadlock.
* Frozen-goal deadlocks (``push_deadlock``): boxes stuck on goals are walls
  from then on; if that leaves some goal out of reach of every free box (the
  mouth of a dead-end row of goals filled first), it is a deadlock.
* Corrals (``pi_corral``): an area the player cannot reach, shut off by boxes.
  If something in it must change, the first push that changes it is of one of
  its fence boxes; when every push of a fence box the player can make now
  goes into the area, that push can come first without lengthening the
  solution, so the search tries only those pushes (PI-corral pruning), and
  none at all if no such push exists (a corral deadlock).
"""

from __future__ import annotations

from .board import INF, Board, bits
from .matching import lower_bound


# Frozen box set -> per goal left free, pushes to it with the frozen boxes as walls.
FrozenTables = dict[int, list[list[int]]]


def push_deadlock(board: Board, boxes: int, cell: int, tables: FrozenTables) -> bool:
    """Whether the push that brought a box onto ``cell`` leads to a deadlock.

    Besides boxes frozen off goals: boxes frozen on goals are walls from now
    on, and may cut the remaining goals off from the remaining boxes (the
    mouth of a dead-end row of goals filled first). That is checked with a
    matching over distances recomputed with the frozen boxes as walls,
    computed once per frozen set (``tables`` keeps them).
    """
    stuck: list[int] = []
    if not _frozen(board, boxes, cell, 1 << cell, stuck):
        return False
    goals = board.goal_mask
    if any(not (goals >> box) & 1 for box in stuck):
        return True
    walls = 0
    for box in stuck:
        walls |= 1 << box
    found = tables.get(walls)
    if found is None:
        if len(tables) > 10_000:
            tables.clear()
        found = [
            board.push_distances(goal, towards=True, blocked=walls)
            for goal in bits(goals & ~walls)
        ]
        tables[walls] = found
    rows = [tuple(table[box] for table in found) for box in bits(boxes & ~walls)]
    return bool(rows) and lower_bound(rows) >= INF


def _frozen(board: Board, boxes: int, cell: int, held: int, stuck: list[int]) -> bool:
    """Whether the box on ``cell`` can never move, treating the boxes in ``held`` as walls.

    ``held`` are the boxes whose own verdict is pending further up; taking
    them as walls is what lets two boxes that block each other be found stuck.
    ``stuck`` collects the boxes found stuck, without those of a branch that
    turned out free (their verdict rested on it).
    """
    mark = len(stuck)
    for step in (1, board.width):
        before, after = cell - step, cell + step
        if _blocks(board, boxes, before, held, stuck) or _blocks(board, boxes, after, held, stuck):
            continue
        # Dead squares on both sides: pushing along this axis only kills the box.
        dead = board.floor & ~board.live
        if (dead >> before) & 1 and (dead >> after) & 1:
            continue
        del stuck[mark:]
        return False
    stuck.append(cell)
    return True


def _blocks(board: Board, boxes: int, cell: int, held: int, stuck: list[int]) -> bool:
    if not (board.floor >> cell) & 1 or (held >> cell) & 1:
        return True
    if (boxes >> cell) & 1:
        return _frozen(board, boxes, cell, held | (1 << cell), stuck)
    return False


def pi_corral(board: Board, boxes: int, reach: int) -> int | None:
    """The boxes worth pushing now if a PI-corral exists; None if there is none.

    A corral here is a connected part of the board the player cannot reach,
    taken through free squares and boxes alike, with the boxes in it. Its
    fence is its boxes next to the player's squares. Until a box of the
    corral moves, the player cannot get into it and no other box can enter it,
    so if the corral needs a push (a box in it off a goal, or an empty goal in
    it), the first push that changes it is a fence box pushed by the player
    from a square he reaches now. If every push of a fence box the player can
    make now goes into the corral (an "I" corral), that push can be made first
    without lengthening the solution, so only those pushes need trying: the
    pruning keeps push-optimal solutions. A corral with no such push at all
    is a deadlock, told by returning 0.
    """
    free = board.floor & ~boxes
    outside = free & ~reach
    best: int | None = None
    best_pushes = 1 << 30
    steps = board.steps
    live = board.live
    while outside:
        area = board.reach(outside & -outside, reach)
        outside &= ~area
        corral_boxes = area & boxes
        # Nothing in it needs to change: every box on a goal, no empty goal.
        if not (corral_boxes & ~board.goal_mask) and not (area & free & board.goal_mask):
            continue
        fence = 0
        pushes = 0
        inward = True
        for square in bits(corral_boxes):
            for step in steps:
                if not (reach >> (square - step)) & 1:
                    continue
                fence |= 1 << square
                ahead = square + step
                if not (free >> ahead) & 1 or not (live >> ahead) & 1:
                    continue
                if not (area >> ahead) & 1:
                    inward = False
                    break
                pushes += 1
            if not inward:
                break
        if inward and pushes < best_pushes:
            best, best_pushes = fence if pushes else 0, pushes
            if not pushes:
                break
    return best
