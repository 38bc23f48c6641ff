"""The minimum-cost matching of boxes to goals: the solver's lower bound.

Every box must end on its own goal, so the cheapest way to give each box a
different goal, counting each box's pushes as if it were alone on the board,
never overestimates the pushes left. The Hungarian algorithm finds it (the
shortest-augmenting-path form, O(n^3)); a cost of ``INF`` or more means some
box cannot get to any goal left for it, which is a deadlock.
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import INF, bits


def min_matching(costs: Sequence[Sequence[int]]) -> int:
    """The least total cost of giving each row its own column (square matrix)."""
    return solve_matching(costs)[0]


# A solved matching: (total, row prices, column prices, owner of each column),
# 1-based with 0 the sentinel, as the augmenting step below uses them.
Duals = tuple[int, list[int], list[int], list[int]]


def solve_matching(costs: Sequence[Sequence[int]]) -> Duals:
    """Hungarian algorithm: the least total and the prices proving it."""
    size = len(costs)
    row_price = [0] * (size + 1)
    column_price = [0] * (size + 1)
    owner = [0] * (size + 1)
    for row in range(1, size + 1):
        _augment(costs, row, row_price, column_price, owner)
    return _matching_total(costs, owner), row_price, column_price, owner


def _matching_total(costs: Sequence[Sequence[int]], owner: list[int]) -> int:
    return sum(costs[owner[j] - 1][j - 1] for j in range(1, len(owner)))


def rematch(costs: Sequence[Sequence[int]], duals: Duals, changed: int) -> Duals:
    """The matching after row ``changed`` (0-based) got new costs.

    ``duals`` solve the matching before the change. Only that row lost its
    column, so one augmenting path repairs the matching: O(n^2) instead of
    O(n^3). The other rows' prices stay feasible; the changed row's price is
    lowered until it is feasible too.
    """
    _, row_price, column_price, owner = duals
    size = len(costs)
    row = changed + 1
    column = owner.index(row, 1)
    cost_row = costs[changed]
    cheapest = min(cost_row[j - 1] - column_price[j] for j in range(1, size + 1))
    kept = cost_row[column - 1] - column_price[column]
    row_price = row_price[:]
    row_price[row] = cheapest
    if kept == cheapest and cost_row[column - 1] < INF:
        # The row's goal is still its cheapest at the current prices: the
        # matching stands, only its cost changes (the common case). The
        # lists not copied here are never changed in place.
        return _matching_total(costs, owner), row_price, column_price, owner
    column_price = column_price[:]
    owner = owner[:]
    owner[column] = 0
    _augment(costs, row, row_price, column_price, owner)
    return _matching_total(costs, owner), row_price, column_price, owner


def _augment(
    costs: Sequence[Sequence[int]],
    row: int,
    row_price: list[int],
    column_price: list[int],
    owner: list[int],
) -> None:
    """Give ``row`` a column by the cheapest augmenting path (Dijkstra on reduced costs)."""
    size = len(costs)
    huge = INF * (size + 1)
    way = [0] * (size + 1)
    owner[0] = row
    column = 0
    slack = [huge] * (size + 1)
    used = [False] * (size + 1)
    while True:
        used[column] = True
        current = owner[column]
        cost_row = costs[current - 1]
        current_price = row_price[current]
        delta = huge
        nearest = 0
        for j in range(1, size + 1):
            if not used[j]:
                reduced = cost_row[j - 1] - current_price - column_price[j]
                if reduced < slack[j]:
                    slack[j] = reduced
                    way[j] = column
                if slack[j] < delta:
                    delta = slack[j]
                    nearest = j
        for j in range(size + 1):
            if used[j]:
                row_price[owner[j]] += delta
                column_price[j] -= delta
            else:
                slack[j] -= delta
        column = nearest
        if owner[column] == 0:
            break
    while column:
        previous = way[column]
        owner[column] = owner[previous]
        column = previous


def lower_bound(rows: Sequence[Sequence[int]]) -> int:
    """The matching bound, or INF or more if the boxes cannot all reach different goals."""
    quick = _nearest_goals(rows)
    if quick is not None:
        return quick
    return min(min_matching(rows), INF)


def _nearest_goals(rows: Sequence[Sequence[int]]) -> int | None:
    """Most positions need no Hungarian step: when every box's nearest goal is a
    different one, those nearest goals are the best matching. INF if a box
    reaches no goal; None if two boxes share a nearest goal."""
    total = 0
    taken = 0
    for row in rows:
        best = min(row)
        if best >= INF:
            return INF
        total += best
        column = row.index(best)
        if (taken >> column) & 1:
            return None
        taken |= 1 << column
    return total


def _nearest_duals(rows: Sequence[Sequence[int]], total: int) -> Duals:
    """Prices proving a clash-free nearest-goal matching: each row priced at its minimum."""
    size = len(rows)
    row_price = [0] * (size + 1)
    owner = [0] * (size + 1)
    for index, row in enumerate(rows, 1):
        best = min(row)
        row_price[index] = best
        owner[row.index(best) + 1] = index
    return total, row_price, [0] * (size + 1), owner


# Children whose repaired matchings are kept for when they are expanded.
KEPT_MATCHINGS = 100_000


class Matcher:
    """Matching bounds of the children of one position, each one push away from it.

    ``expand(boxes)`` takes the parent; ``bound(child)`` then repairs the
    parent's matching for the one box that moved, and keeps the result for
    when the child is expanded in turn, so that the full O(n^3) Hungarian
    step is only needed now and then.
    """

    def __init__(self, dist: Sequence[Sequence[int]]) -> None:
        self.dist = dist
        self.parent = 0
        self.cells: list[int] = []
        self.rows: list[Sequence[int]] = []
        self.duals: Duals | None = None
        # Box set -> (its boxes in row order, its solved matching).
        self.kept: dict[int, tuple[list[int], Duals]] = {}

    def expand(self, boxes: int) -> None:
        if boxes == self.parent:
            return
        self.parent = boxes
        kept = self.kept.pop(boxes, None)
        if kept is not None:
            self.cells, self.duals = kept
        else:
            self.cells = list(bits(boxes))
            self.duals = None
        self.rows = [self.dist[cell] for cell in self.cells]

    def bound(self, boxes: int) -> int:
        dist = self.dist
        moved = boxes ^ self.parent
        gone = moved & self.parent
        came = moved & boxes
        if not (gone and came and gone & (gone - 1) == 0 and came & (came - 1) == 0):
            return lower_bound([dist[cell] for cell in bits(boxes)])
        rows = list(self.rows)
        changed = self.cells.index(gone.bit_length() - 1)
        rows[changed] = dist[came.bit_length() - 1]
        cells = list(self.cells)
        cells[changed] = came.bit_length() - 1
        quick = _nearest_goals(rows)
        if quick is not None:
            if quick < INF:
                self._keep(boxes, cells, _nearest_duals(rows, quick))
            return quick
        if self.duals is None:
            self.duals = solve_matching(self.rows)
        if self.duals[0] >= INF:
            # The parent has no finite matching to repair.
            return lower_bound(rows)
        duals = rematch(rows, self.duals, changed)
        if duals[0] < INF:
            self._keep(boxes, cells, duals)
        return min(duals[0], INF)

    def _keep(self, boxes: int, cells: list[int], duals: Duals) -> None:
        if len(self.kept) >= KEPT_MATCHINGS:
            self.kept.clear()
        self.kept[boxes] = (cells, duals)
