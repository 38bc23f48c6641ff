"""Who plays whom among the waiting seeks of one compatible group.

The caller partitions the waiting seeks (same pool, same options, same rated
flag) and asks ``pair`` for the groups of ``size`` seeks to start together.
The rules:

- Every seek accepts opponents within its *window* of rating points either
  way, which widens as it waits (``window``). A group may start only if its
  spread (highest rating minus lowest) is within the widest window among its
  members: a seek that has waited long takes in a newcomer at once, and
  nobody waits forever while anyone compatible is there.
- Closest ratings first: the allowed group of smallest spread is formed, then
  the next among the seeks left, and so on. Among groups of equal spread the
  one whose sorted seek ids come first wins, so a pass is deterministic.
- A player is in at most one group. A player with several seeks here counts
  once, with the seek that has waited longest (the smaller seek id on a tie):
  it is the one whose window is widest, so with one rating per player it
  accepts every group another of their seeks would.

How it is fast. Put the seeks in rating order (ties by seek id) and call
``size`` consecutive free seeks a *run*. Inside the span of an allowed group
lies a run holding the group's widest-window member; it spreads no more than
the group, so it is allowed too. Hence the smallest spread among the allowed
groups is the smallest among the allowed runs, and a heap of runs keyed by
(spread, sorted seek ids) finds the next group. Taking a group breaks the runs
through its seeks (dropped when they come up) and makes the few runs across
the gaps it leaves: O(n log n) for a pass.

With all ratings different, the best group is a run. Where ratings tie, a
group that is not a run can spread as little and have smaller ids (ratings
1500, 1500, 1510, 1510 with ids 1, 9, 2, 3: the group 1, 2, 3 against the
runs 1, 9, 2 and 9, 2, 3). So a run whose lowest or highest rating continues
past its ends is keyed by the best group within its interval of ratings,
searched among the few seeks that can be in it (the run, and at each end the
first ``size`` seeks and the first ``size`` with a wide enough window), and
only once the run comes up: by then every group of spread 0 has been formed,
no rating has ``size`` free seeks left, and the search is short. Groups of
spread 0 need none of this: within one rating, rating order is seek id order.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

# The window schedule: 100 points either way at once, 10 more every second.
# After 30 s a seek accepts 400 points away, after 60 s 700, after 2 min
# 1,300; with ratings spread like a real site's (most within 1500 +- 600)
# anyone is accepted after a minute or two, and a seek in a quiet pool is not
# left waiting for an opponent who will never come.
INITIAL_WINDOW = 100.0
WIDENING_PER_SECOND = 10.0


@dataclass(frozen=True)
class Waiting:
    seek: int  # the seek's id
    player: int  # the user's id; one player is never put in two groups
    rating: float
    waited: float  # seconds the seek has waited


def window(waited: float) -> float:
    """How far (in rating points, either way) a seek that has waited this long accepts
    opponents: 100 at once, 10 more per second of waiting (400 after 30 s, 700 after a
    minute, 1,300 after two), without limit. A negative wait (clock skew) counts as 0."""
    return INITIAL_WINDOW + WIDENING_PER_SECOND * max(waited, 0.0)


# A heap entry: (spread, the group's sorted seek ids, the run it stands for,
# the group's positions). Runs and groups are positions in rating order. A run
# whose best group is not looked for yet has no ids and no group: () sorts
# before any ids of the same spread, so the entry comes up in time.
_Entry = tuple[float, tuple[int, ...], tuple[int, ...], tuple[int, ...]]
_UNRESOLVED: tuple[int, ...] = ()


def pair(waiting: Sequence[Waiting], size: int) -> list[tuple[int, ...]]:
    """Groups of ``size`` seek ids to start together. Closest ratings first: the group with
    the smallest spread (max rating - min rating) is formed first, then the next among
    the rest, and so on. A group is allowed only if its spread is within the widest
    window among its members (so a seek that has waited long accepts newcomers at
    once, and nobody waits forever when anyone compatible is there). A player appears
    in at most one group, and never twice in one group. Deterministic for a given input
    (ties broken by seek id).

    Each group's seek ids come in ascending order, and the groups in the order formed.
    A player with several seeks is represented by the one that has waited longest
    (see the module's docstring)."""
    if size < 2:
        raise ValueError(f"a group has at least 2 seeks, not {size}")
    if len({seek.seek for seek in waiting}) != len(waiting):
        raise ValueError("a seek is listed twice")

    kept: dict[int, Waiting] = {}
    for seek in waiting:
        other = kept.get(seek.player)
        if other is None or (seek.waited, -seek.seek) > (other.waited, -other.seek):
            kept[seek.player] = seek
    in_order = sorted(kept.values(), key=lambda seek: (seek.rating, seek.seek))
    count = len(in_order)
    if count < size:
        return []

    rating = [seek.rating for seek in in_order]
    seek_id = [seek.seek for seek in in_order]
    reach = [window(seek.waited) for seek in in_order]
    # The free seeks as a doubly linked list in rating order (-1 ends it); a
    # taken seek keeps its old links, which lead back to free seeks.
    after = list(range(1, count + 1))
    after[-1] = -1
    before = list(range(-1, count - 1))
    free = [True] * count

    def best_in_interval(run: tuple[int, ...]) -> tuple[int, ...]:
        """The allowed group of smallest sorted seek ids with the run's lowest and highest rating."""
        low, high = rating[run[0]], rating[run[-1]]
        spread = high - low
        # When this runs, every rating has fewer than ``size`` free seeks
        # (groups of spread 0 come first), so these walks are short.
        lowest = []  # the free seeks rated ``low``, in order (so by seek id)
        position = before[run[0]]
        while position != -1 and rating[position] == low:
            lowest.append(position)
            position = before[position]
        lowest.reverse()
        lowest += [i for i in run if rating[i] == low]
        highest = [i for i in run if rating[i] == high]
        position = after[run[-1]]
        while position != -1 and rating[position] == high:
            highest.append(position)
            position = after[position]
        # Any other seek of the best group could be swapped for one of these
        # with a smaller id and the group would stay allowed: every seek
        # strictly between the two ratings is in the run, and at each end
        # the first ``size`` seeks (and the first ``size`` wide enough to
        # allow the group) include one that no other member uses.
        tried = set(run)
        for level in (lowest, highest):
            tried.update(level[:size])
            tried.update([i for i in level if reach[i] >= spread][:size])
        by_id = sorted(tried, key=seek_id.__getitem__)
        # combinations() follows by_id's order, so the first allowed group
        # found has the smallest sorted ids.
        for group in combinations(by_id, size):
            ratings = [rating[i] for i in group]
            if min(ratings) == low and max(ratings) == high and max(reach[i] for i in group) >= spread:
                return group
        return run  # not reached: the run itself is allowed

    def entry_for(run: tuple[int, ...]) -> _Entry | None:
        first, last = run[0], run[-1]
        spread = rating[last] - rating[first]
        if spread > max(map(reach.__getitem__, run)):
            return None
        if spread > 0 and (
            (before[first] != -1 and rating[before[first]] == rating[first])
            or (after[last] != -1 and rating[after[last]] == rating[last])
        ):
            return (spread, _UNRESOLVED, run, _UNRESOLVED)
        return (spread, tuple(sorted(map(seek_id.__getitem__, run))), run, run)

    def run_from(start: int) -> tuple[int, ...] | None:
        run = [start]
        position = start
        while len(run) < size:
            position = after[position]
            if position == -1:
                return None
            run.append(position)
        return tuple(run)

    # The first runs, built in bulk and sorted once: in a pass over thousands
    # of seeks most runs are looked at only here. Runs made during the pass
    # (across a gap, or renewed) go to a heap merged with this sorted list.
    runs = list(zip(*[range(offset, count) for offset in range(size)]))
    widest = list(map(max, *[reach[offset:] for offset in range(size)]))
    run_ids = [tuple(sorted(ids)) for ids in zip(*[seek_id[offset:] for offset in range(size)])]
    # Positions whose next seek has the same rating: only runs ending or
    # starting inside such a tie may need best_in_interval.
    tied = {i for i in range(count - 1) if rating[i] == rating[i + 1]}
    ready: list[_Entry] = []
    for run, wide, ids in zip(runs, widest, run_ids):
        spread = rating[run[-1]] - rating[run[0]]
        if spread > wide:
            continue
        if spread > 0 and (run[0] - 1 in tied or run[-1] in tied):
            ready.append((spread, _UNRESOLVED, run, _UNRESOLVED))
        else:
            ready.append((spread, ids, run, run))
    ready.sort()
    fresh: list[_Entry] = []
    next_ready = 0

    groups: list[tuple[int, ...]] = []
    while True:
        if fresh and (next_ready == len(ready) or fresh[0] < ready[next_ready]):
            spread, ids, run, group = heapq.heappop(fresh)
        elif next_ready < len(ready):
            spread, ids, run, group = ready[next_ready]
            next_ready += 1
        else:
            break
        if not all(map(free.__getitem__, run)):
            continue  # the run is broken; the runs across the gap were made then
        if group is _UNRESOLVED or (group is not run and not all(map(free.__getitem__, group))):
            # The run stands, but its best group is not known, or lost a
            # seek: the best group now is no better, so it goes back in the
            # heap at its true place.
            group = best_in_interval(run)
            heapq.heappush(fresh, (spread, tuple(sorted(map(seek_id.__getitem__, group))), run, group))
            continue
        groups.append(ids)
        for i in group:
            free[i] = False
            if before[i] != -1:
                after[before[i]] = after[i]
            if after[i] != -1:
                before[after[i]] = before[i]
        # New runs: those that cross a gap, starting up to size - 1 free seeks
        # before it. A run untouched by the group keeps its entry.
        starts: set[int] = set()
        for i in group:
            position = before[i]
            while position != -1 and not free[position]:
                position = before[position]
            for _ in range(size - 1):
                if position == -1:
                    break
                starts.add(position)
                position = before[position]
        if group is not run and all(map(free.__getitem__, run)):
            starts.add(run[0])  # its best group is gone, the run itself is not
        for start in starts:
            crossing = run_from(start)
            if crossing is not None:
                made = entry_for(crossing)
                if made is not None:
                    heapq.heappush(fresh, made)
    return groups
