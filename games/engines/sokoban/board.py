"""A level compiled for the solver: squares as bit positions of Python integers.

Square (x, y) is bit ``y * width + x``. A set of squares (the walls' complement,
the boxes, the squares the player can reach) is one integer, so moving all of
them one square is a shift, and a flood fill is a handful of big-integer
operations per step instead of a Python loop per square; this is what makes a
pure-Python solver usable. The level is closed, so no square the player can
reach lies on the board's edge, and a shift never carries a reachable square
from one row's end into the next row.

Also here: what the solver precomputes once per level — the push distances
from every square to every goal, and from them the dead squares.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from .levels import Level

# Pushes no box can make: a box on that square never reaches that goal.
INF = 1 << 20

LETTERS = "lurd"


def bits(mask: int) -> Iterator[int]:
    """The squares of a set, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def count(mask: int) -> int:
    return bin(mask).count("1")


class Board:
    """Walls, goals, the start position, and the precomputed push distances."""

    def __init__(self, level: Level, check: Callable[[], None] | None = None) -> None:
        # Called now and then during the precomputation, which on a large
        # board takes a while: the solver's time limit raises from it.
        self.check: Callable[[], None] = check or (lambda: None)
        width = level.width
        self.width = width
        self.height = level.height
        self.size = width * level.height
        # Left, up, right, down, as in LURD.
        self.steps: tuple[int, int, int, int] = (-1, -width, 1, width)
        inside = level.inside
        self.floor = 0
        for x, y in inside:
            if (x, y) not in level.walls:
                self.floor |= 1 << (y * width + x)
        self.goal_mask = 0
        self.start_boxes = 0
        # A box on a goal in a pocket the player can never enter stays there
        # for good: the solver drops both (the square counts as a wall).
        self.unsolvable: str | None = None
        for x, y in level.goals:
            if (x, y) in inside:
                self.goal_mask |= 1 << (y * width + x)
            elif (x, y) not in level.boxes:
                self.unsolvable = "a goal lies where the player can never go"
        for x, y in level.boxes:
            if (x, y) in inside:
                self.start_boxes |= 1 << (y * width + x)
            elif (x, y) not in level.goals:
                self.unsolvable = "a box lies where the player can never go"
        if count(self.goal_mask) != count(self.start_boxes) and self.unsolvable is None:
            self.unsolvable = "the boxes the player can reach do not match the goals"
        self.start_player = level.player[1] * width + level.player[0]
        self.goals: tuple[int, ...] = tuple(bits(self.goal_mask))
        self.cells: tuple[int, ...] = tuple(bits(self.floor))
        self.around = self._around()
        # feeds' walk-around labels by the squares it walls (the bare board's: 0).
        self._walled: dict[int, list[tuple[int, int, int, int]]] = {0: self.around}
        self._pairs: list[list[int]] | None = None
        self.goal_distance = self._goal_distances()
        # dist[square][g]: fewest pushes that bring a box from the square to
        # goal g, alone on the board with the player free to walk anywhere
        # he can get to; INF if never.
        self.dist: list[tuple[int, ...]] = [()] * self.size
        self.nearest = [INF] * self.size
        self.live = 0
        for cell in self.cells:
            row = tuple(table[cell] for table in self.goal_distance)
            self.dist[cell] = row
            self.nearest[cell] = min(row, default=INF)
            if self.nearest[cell] < INF:
                self.live |= 1 << cell
        # Boxes that start on dead squares make the level unsolvable at once.
        if self.start_boxes & ~self.live and self.unsolvable is None:
            self.unsolvable = "a box starts where it can never reach a goal"

    # --- geometry ----------------------------------------------------------

    def reach(self, start: int, boxes: int) -> int:
        """The squares the player can walk to from the set ``start``."""
        free = self.floor & ~boxes
        width = self.width
        reach = start & free
        while True:
            grown = (reach | (reach >> 1) | (reach << width) | (reach >> width)) & free
            # Adding the reach to the free squares carries through each run
            # of free squares to its right end: a whole row segment in one step.
            grown |= free & ~(free + grown)
            if grown == reach:
                return reach
            reach = grown

    def _around(self, blocked: int = 0) -> list[tuple[int, int, int, int]]:
        """For each square, which of its four neighbours connect when a box stands on it.

        Equal labels mean the player can walk from one side of the box to the
        other without moving it; -1 marks a wall (``blocked`` squares too).
        """
        around = [(-1, -1, -1, -1)] * self.size
        for index, cell in enumerate(self.cells):
            if index & 31 == 0:
                self.check()
            free = self.floor & ~blocked & ~(1 << cell)
            labels = [-1, -1, -1, -1]
            for side, step in enumerate(self.steps):
                nb = cell + step
                if labels[side] != -1 or not (free >> nb) & 1:
                    continue
                region = self.reach(1 << nb, ~free)
                for other, step2 in enumerate(self.steps):
                    if (region >> (cell + step2)) & 1:
                        labels[other] = side
            around[cell] = (labels[0], labels[1], labels[2], labels[3])
        return around

    def _goal_distances(self) -> list[list[int]]:
        """Per goal, the fewest pushes to it from each square (pulls backwards from the goal)."""
        return [self.push_distances(goal, towards=True) for goal in self.goals]

    def push_distances(self, square: int, *, towards: bool, blocked: int = 0) -> list[int]:
        """Fewest pushes of a lone box to ``square`` (towards) or from it, per square.

        The search runs over (box square, side the player stands on), so a box
        that can only be pushed on from a side the player cannot get to
        without moving it is sent the longer way round. A square's distance
        is the least over its sides, since the player may stand on any.
        ``blocked`` squares count as walls (boxes that can never move); the
        walk-around sides are still those of the bare board, so distances
        can only come out too small, never too large.
        """
        seen = [INF] * (self.size * 4)
        for _ in self._box_states(1 << square, towards, blocked, seen, self.around):
            pass
        table = [INF] * self.size
        for cell in self.cells:
            table[cell] = min(seen[cell * 4:cell * 4 + 4])
        table[square] = 0
        return table

    def feeders(self, square: int, blocked: int) -> int:
        """The squares (``square`` among them) from which a lone box can be
        pushed onto ``square``, ``blocked`` squares counting as walls, for
        the player walking round the box too."""
        around = self._walled_around(blocked)
        found = 1 << square
        for state in self._box_states(found, True, blocked, [INF] * (self.size * 4), around):
            found |= 1 << (state >> 2)
        return found

    def _walled_around(self, blocked: int) -> list[tuple[int, int, int, int]]:
        """_around(blocked), kept for the board's life."""
        if blocked not in self._walled:
            self._walled[blocked] = self._around(blocked)
        return self._walled[blocked]

    def feeds(self, squares: int, boxes: int, need: int, blocked: int = 0) -> bool:
        """Whether ``need`` or more of ``squares`` can each get a lone box of
        its own pushed onto it from the squares of ``boxes``, ``blocked``
        squares counting as walls, for the player walking round the box too
        (unlike push_distances). A box on one of ``squares`` is there already.

        Each square needs a box of its own (a matching of squares to the
        boxes that reach them), not only ``need`` boxes that reach some
        square: in Holland 68 a box on the mouth of a two-goal room leaves
        three boxes the way to one goal of the room beside it, and none to
        its other two."""
        found = boxes & squares
        if count(found) >= need:
            return True
        around = self._walled_around(blocked)
        # First, from all the squares at once, whether ``need`` boxes reach
        # any of them at all: the search stops as soon as they are found.
        for state in self._box_states(squares, True, blocked, [INF] * (self.size * 4), around):
            cell = state >> 2
            if (boxes >> cell) & 1 and not (found >> cell) & 1:
                found |= 1 << cell
                if count(found) >= need:
                    break
        else:
            return False
        # Then the boxes of each square (``need`` of them will do: such a
        # square always finds one the others left it) and the matching.
        reaching: dict[int, int] = {}
        for square in bits(squares):
            got = boxes & (1 << square)
            if not got:
                for state in self._box_states(1 << square, True, blocked, [INF] * (self.size * 4), around):
                    if (boxes >> (state >> 2)) & 1:
                        got |= 1 << (state >> 2)
                        if count(got) >= need:
                            break
            reaching[square] = got
        return _matching(reaching, need) >= need

    def _box_states(
        self, squares: int, towards: bool, blocked: int, seen: list[int], around: list[tuple[int, int, int, int]]
    ) -> Iterator[int]:
        """The search of push_distances, from all of ``squares`` at once: fills
        ``seen`` (per box square * 4 + the player's side) with the fewest pushes
        of a lone box to (towards) or from the nearest of them, and yields each
        (square, side) as it is reached. ``around``: which sides of a box's
        square the player walks between (Board.around, or _around's with
        the ``blocked`` squares walled)."""
        self.check()
        steps = self.steps
        floor = self.floor & ~blocked
        frontier = []
        for square in bits(squares):
            for side, step in enumerate(steps):
                if (floor >> (square + step)) & 1:
                    seen[square * 4 + side] = 0
                    frontier.append(square * 4 + side)
        depth = 0
        while frontier:
            depth += 1
            following = []
            for state in frontier:
                box, side = divmod(state, 4)
                if towards:
                    # Pull the box onto the player's square; he steps back.
                    onto = box + steps[side]
                    if not (floor >> (onto + steps[side])) & 1:
                        continue
                else:
                    # Push it away from him; he steps into its square.
                    onto = box - steps[side]
                    if not (floor >> onto) & 1:
                        continue
                labels = around[onto]
                for other in range(4):
                    if labels[other] == labels[side] and (floor >> (onto + steps[other])) & 1:
                        index = onto * 4 + other
                        if seen[index] == INF:
                            seen[index] = depth
                            following.append(index)
                            yield index
            frontier = following

    def pair_distances(self) -> list[list[int]]:
        """``pairs[t][c]``: fewest pushes of a lone box from square c to square t.

        Computed on first use (one pull search per square), for searches
        aimed at a box set other than the goals.
        """
        if self._pairs is None:
            pairs: list[list[int]] = [[]] * self.size
            for cell in self.cells:
                pairs[cell] = self.push_distances(cell, towards=True)
            self._pairs = pairs
        return self._pairs

    def start_distances(self) -> tuple[list[tuple[int, ...]], int]:
        """For searching backwards: per square, pushes from each start box; and the squares
        a box can be on at all (reachable by pushes from some start square)."""
        starts = list(bits(self.start_boxes))
        tables = [self.push_distances(start, towards=False) for start in starts]
        dist: list[tuple[int, ...]] = [()] * self.size
        reachable = 0
        for cell in self.cells:
            row = tuple(table[cell] for table in tables)
            dist[cell] = row
            if min(row, default=INF) < INF:
                reachable |= 1 << cell
        return dist, reachable


def _matching(reaching: dict[int, int], need: int) -> int:
    """How many of ``reaching``'s squares get a box of their own (up to
    ``need``): ``reaching`` holds each square's boxes as a mask (augmenting
    paths, Kuhn's algorithm; a room has at most a few dozen squares)."""
    owner: dict[int, int] = {}

    def place(square: int, tried: set[int]) -> bool:
        for box in bits(reaching[square]):
            if box not in tried:
                tried.add(box)
                if box not in owner or place(owner[box], tried):
                    owner[box] = square
                    return True
        return False

    placed = 0
    for square in reaching:
        placed += place(square, set())
        if placed >= need:
            break
    return placed
