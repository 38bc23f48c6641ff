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
"""

from __future__ import annotations

from .board import Board, bits


class PackingOrder:
    def __init__(self, board: Board, squares: int, player: int, *, pulls: bool) -> None:
        """Peel ``squares`` (all holding boxes) with the player starting on ``player``.

        ``pulls``: peel by pulling boxes off (goals, for forward searches);
        otherwise by pushing them off (start squares, for backward searches).
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
