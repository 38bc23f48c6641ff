"""The minimum-cost matching of boxes to goals: the solver's lower bound.

Every box must end on its own goal, so the cheapest way to give each box a
different goal, counting each box's pushes as if it were alone on the board,
never overestimates the pushes left. The Hungarian algorithm finds it (the
shortest-augmenting-path form, O(n^3)); a cost of ``INF`` or more means some
box cannot get to any goal left for it, which is a deadlock.
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import INF


def min_matching(costs: Sequence[Sequence[int]]) -> int:
    """The least total cost of giving each row its own column (square matrix)."""
    size = len(costs)
    # Rows and columns are 1-based below; 0 is the free sentinel.
    row_price = [0] * (size + 1)
    column_price = [0] * (size + 1)
    owner = [0] * (size + 1)
    way = [0] * (size + 1)
    huge = INF * (size + 1)
    for row in range(1, size + 1):
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
    return -column_price[0]


def lower_bound(rows: Sequence[Sequence[int]]) -> int:
    """The matching bound, or INF or more if the boxes cannot all reach different goals.

    Most positions need no Hungarian step: when every box's nearest goal is a
    different one, those nearest goals are the best matching.
    """
    total = 0
    taken = 0
    clash = False
    for row in rows:
        best = min(row)
        if best >= INF:
            return INF
        total += best
        column = row.index(best)
        if (taken >> column) & 1:
            clash = True
        taken |= 1 << column
    if not clash:
        return total
    return min(min_matching(rows), INF)
