"""Packing order: which goals of a goal room must be filled first.

In a dead-end row of goals the deepest goal must be filled first: a box left
on the goal at the mouth shuts out the rest. The matching bound cannot see
this (it counts each box alone), so a greedy search happily fills the mouth
first and then wanders. The order is found backwards: from the solved
position (goal boxes only), boxes that the player can pull off their goal
come out first; removing them frees the next ones, and so on. A goal peeled
in a later round must be filled earlier.

``PackingOrder.out_of_order(boxes)`` counts the boxes sitting on a goal while
a goal of the same goal room that must be filled before it is still empty;
the greedy searches add a penalty per such box. The same peeling, with
pushes from the start position, gives the order in which a backward search
should refill the start squares.

Peeling from every entrance at once gives concentric layers, which say
nothing of where the boxes come from. A goal room with several entrances
is filled through them in proportion to the boxes outside each: on the
classic levels a dozen boxes may have to come in through one door and two
through another, and an order that fills the room from the near doors
first shuts out the boxes still to come. ``entrance_order`` (on with
``entrances``) finds, for such a room, one order in which its goals can be
filled, each through an entrance that the boxes of the start have to spare
(in the spirit of the packing-order searches of FESS, Shoham and Schaeffer
2020, and of YASS).
"""

from __future__ import annotations

from collections import Counter

from .board import INF, Board, bits


class PackingOrder:
    def __init__(self, board: Board, squares: int, player: int, *, pulls: bool, entrances: bool = False) -> None:
        """Peel ``squares`` (all holding boxes) with the player starting on ``player``.

        ``pulls``: peel by pulling boxes off (goals, for forward searches);
        otherwise by pushing them off (start squares, for backward searches).
        ``entrances`` (with ``pulls``): a group with an order inside takes the
        order ``entrance_order`` finds for it, where it finds one: each goal a
        layer of its own, so that the penalty asks for that order exactly.
        """
        self.layer: dict[int, int] = {}
        # Groups: squares of ``squares`` joined through side-by-side neighbours.
        self.groups: list[int] = []
        remaining = squares
        while remaining:
            group = board.reach(remaining & -remaining, ~squares)
            self.groups.append(group)
            remaining &= ~group
        boxes = squares
        layer = 0
        # The player may start anywhere he can reach around the full set.
        area = board.reach(1 << player, boxes) if player >= 0 else 0
        if not area:
            area = board.floor & ~boxes
        while boxes:
            reach = 0
            free = board.floor & ~boxes
            for start in bits(area & free):
                if not (reach >> start) & 1:
                    reach |= board.reach(1 << start, boxes)
            peeled = 0
            for cell in bits(boxes):
                for step in board.steps:
                    if pulls:
                        # Player on cell + step, stepping back to cell + 2 step.
                        ok = (reach >> (cell + step)) & 1 and (free >> (cell + 2 * step)) & 1
                    else:
                        # Player on cell - step pushing it to cell + step.
                        ok = (reach >> (cell - step)) & 1 and (free >> (cell + step)) & 1
                    if ok:
                        peeled |= 1 << cell
                        break
            if not peeled:
                for cell in bits(boxes):
                    self.layer[cell] = layer
                break
            for cell in bits(peeled):
                self.layer[cell] = layer
            boxes &= ~peeled
            # Squares freed this round are open to the player next round.
            area |= peeled
            layer += 1
        # Only groups with an order inside them matter.
        self.groups = [
            group for group in self.groups if len({self.layer[c] for c in bits(group)}) > 1
        ]
        if entrances and pulls:
            for group in self.groups:
                order = entrance_order(board, group)
                if order is not None:
                    # The goal filled first is the deepest layer.
                    for depth, goal in enumerate(reversed(order)):
                        self.layer[goal] = depth

    def out_of_order(self, boxes: int) -> int:
        """Boxes on squares of a group while a square of that group peeled later is empty."""
        count = 0
        layer = self.layer
        for group in self.groups:
            filled = boxes & group
            empty = group & ~boxes
            if not filled or not empty:
                continue
            deepest = max(layer[c] for c in bits(empty))
            count += sum(1 for c in bits(filled) if layer[c] < deepest)
        return count


# How many fillings of a room entrance_order tries for each slack before it
# gives up on it (each costs a pull search per goal still filled): an order,
# where one fits, takes about one a goal (Holland 73's 40 goals: 41), but a
# slack that fits none may take 20,000 and more to say so (Holland 18 at
# slack 0 and 1, 2.4 s each); 2,000 are about 0.3 s there.
ORDER_TRIES = 2000

# The slack (in pushes) of the entrances each box may come in through, beyond
# its nearest one, tried in turn until an order is found.
ENTRANCE_SLACKS = (0, 1, 2, 3, 5, 8, INF)


def entrance_order(board: Board, room: int, tries: int = ORDER_TRIES) -> list[int] | None:
    """The goals of ``room`` in an order they can be filled, the ones filled
    first staying, each through an entrance with boxes of the start to spare;
    None where no order is found (in ``tries`` fillings for each slack).

    Found backwards, from the full room: a box leaves only if it can be
    pulled out to an entrance, every other box of the room staying, with the
    player coming from outside (the boxes outside the room do not count). Each
    entrance may take as many boxes as start nearest to it (by pushes, alone
    on the board); where no order fits those counts, boxes within 1, 2, ...
    pushes of their nearest entrance count for the farther ones too. Among
    the boxes that can leave, one through the entrance with most to spare
    goes first; a filling that leads nowhere is not tried again.
    """
    doors = _doors(board, room)
    if not doors:
        return None
    towards = {door: board.push_distances(door, towards=True) for door in doors}
    nearest = {box: min(towards[door][box] for door in doors) for box in bits(board.start_boxes)}
    for slack in ENTRANCE_SLACKS:
        left = tries
        quota = Counter(
            door for box, near in nearest.items() if near < INF
            for door in doors if towards[door][box] <= min(near + slack, INF - 1)
        )
        order: list[int] = []
        used: Counter[int] = Counter()
        dead: set[int] = set()

        def empty(filled: int) -> bool:
            # Depth first: one goal out of ``filled`` at a time; True once all are out.
            nonlocal left
            if not filled:
                return True
            if filled in dead or left <= 0:
                return False
            left -= 1
            ways = [(goal, door) for goal in bits(filled) for door in _exits(board, room, filled, goal)
                    if used[door] < quota[door]]
            ways.sort(key=lambda way: used[way[1]] - quota[way[1]])
            for goal, door in ways:
                used[door] += 1
                order.append(goal)
                if empty(filled & ~(1 << goal)):
                    return True
                order.pop()
                used[door] -= 1
            dead.add(filled)
            return False

        if empty(room):
            # Pulled out first is filled last.
            return order[::-1]
    return None


def _doors(board: Board, room: int) -> set[int]:
    """The squares outside ``room`` from which a box can be pushed into it."""
    doors = set()
    for goal in bits(room):
        for step in board.steps:
            door = goal - step
            if (board.floor >> door) & 1 and not (room >> door) & 1 and (board.floor >> (door - step)) & 1:
                doors.add(door)
    return doors


def _exits(board: Board, room: int, filled: int, goal: int) -> set[int]:
    """The squares out of ``room`` to which the box on ``goal`` can be pulled,
    the others of ``filled`` staying, with the player coming from outside."""
    steps = board.steps
    others = filled & ~(1 << goal)
    free = board.floor & ~others
    outside = board.floor & ~room & ~others
    start = (goal, board.reach(outside & ~(1 << goal), others | (1 << goal)))
    seen = {start}
    stack = [start]
    exits = set()
    while stack:
        box, area = stack.pop()
        for step in steps:
            # The player on box + step steps back to box + 2 step, the box onto his square.
            onto, back = box + step, box + 2 * step
            if not (area >> onto) & 1 or not (free >> back) & 1:
                continue
            if not (room >> onto) & 1:
                exits.add(onto)
                continue
            state = (onto, board.reach(1 << back, others | (1 << onto)))
            if state not in seen:
                seen.add(state)
                stack.append(state)
    return exits
