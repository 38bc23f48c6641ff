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
2020, and of YASS). Where no order keeps every filled goal filled, a box
may wait on a square off the goals while the goals behind it fill, and
then go on to its own (parking, as YASS's packing order does): Perfect 21's
room, entered through one goal beside a pocket of floor, has no order
without it.

Rooms have an order among them too: where every box bound for one room
must pass over the goals of another (Perfect 65's upper room is fed through
the lower one), the room behind is filled first: a box on the goals in the
way is out of order until the room behind has its boxes past them
(``PackingOrder._rooms_in_order``), and the room in the way takes the order
it is filled in with the room behind it full (``_later_rooms_in_order``).
YASS's packing order is one order for the whole board for the same reason.
"""

from __future__ import annotations

import random
from collections import Counter

from .board import INF, Board, bits, count


class PackingOrder:
    def __init__(
        self,
        board: Board,
        squares: int,
        player: int,
        *,
        pulls: bool,
        entrances: bool = False,
        shuffle: int = 0,
        plain: bool = False,
    ) -> None:
        """Peel ``squares`` (all holding boxes) with the player starting on ``player``.

        ``pulls``: peel by pulling boxes off (goals, for forward searches);
        otherwise by pushing them off (start squares, for backward searches).
        ``entrances`` (with ``pulls``): a group with an order inside takes the
        order ``entrance_order`` finds for it, where it finds one: each goal a
        layer of its own, so that the penalty asks for that order exactly;
        ``shuffle``: entrance_order's, another order that fits; ``plain``:
        entrance_order's, the rooms without pockets or parking.
        """
        self.layer: dict[int, int] = {}
        # Goals that wait on other rooms (_rooms_in_order): the goals of the
        # rooms each one waits on (who waits on whom; ``conditions`` say until when).
        self.after: dict[int, int] = {}
        # How (_rooms_in_order): a box on such a goal is out of order while
        # fewer than ``least`` boxes stand on ``squares``, for any of its
        # (squares, least).
        self.conditions: dict[int, list[tuple[int, int]]] = {}
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
        rooms = list(self.groups)
        # Only groups with an order inside them matter.
        self.groups = [
            group for group in self.groups if len({self.layer[c] for c in bits(group)}) > 1
        ]
        if entrances and pulls:
            for group in self.groups:
                order = entrance_order(board, group, shuffle=shuffle, plain=plain)
                if order is not None:
                    # The goal filled first is the deepest layer.
                    for depth, goal in enumerate(reversed(order)):
                        self.layer[goal] = depth
            self._rooms_in_order(board, rooms, shuffle, plain)

    def _rooms_in_order(self, board: Board, rooms: list[int], shuffle: int = 0, plain: bool = False) -> None:
        """The goals that wait on other rooms (``after``) and until when (``conditions``).

        Room A comes before room B where, with B's goals walled, the boxes
        of the start can no longer give each goal of A a box of its own
        (Board.feeds): B lies on the way to A (Perfect 65's upper room is
        fed through its lower one). Then B's goals from the first one (in
        B's own order) that with those filled before it cuts A off wait on
        A: a box on one is out of order, as a box on a room's mouth is while
        its depths are empty, until A has its boxes past it (``conditions``:
        with the goal and those filled before it walled, a box for each goal
        of A that can still be pushed onto it, on it or on its way, and as
        many such boxes as A has goals). B's goals before that one are free
        to fill (Perfect 63: one goal of
        a room of 13 waits on the other room), and so are the goals of its
        layer that do not cut A off alone, if the rest of the layer
        together does not either (Holland 68: of a two-goal column beside
        a room of three, only the goal on the row that leads into the room
        waits; its solutions fill the other first). Rooms that each cut the
        other off, directly or round a ring, keep their own orders: no
        order fits them. A room here is any group of goals side by side, a
        lone goal too (one in a corridor is a room that every box behind
        it must pass).
        """
        before: dict[int, set[int]] = {k: set() for k in range(len(rooms))}
        for a, room in enumerate(rooms):
            for b, other in enumerate(rooms):
                if a != b and not board.feeds(room, board.start_boxes & ~other, count(room), other):
                    before[a].add(b)

        def leads(a: int, b: int) -> bool:
            """Whether room a comes before room b, directly or through others."""
            seen, todo = {a}, [a]
            while todo:
                for k in before[todo.pop()]:
                    if k == b:
                        return True
                    if k not in seen:
                        seen.add(k)
                        todo.append(k)
            return False

        for a, b in [(a, b) for a in before for b in before[a] if leads(b, a)]:
            before[a].discard(b)
        self._later_rooms_in_order(board, rooms, before, shuffle, plain)
        zones: dict[int, list[int]] = {}
        for a, b in ((a, b) for a in before for b in before[a]):
            room, other = rooms[a], rooms[b]
            # B's goals in its order (the deepest layer first), a layer at a time.
            filled = 0
            boxes, need = board.start_boxes & ~other, count(room)
            for depth in sorted({self.layer[goal] for goal in bits(other)}, reverse=True):
                layer = sum(1 << goal for goal in bits(other) if self.layer[goal] == depth)
                # Within a layer only the goals that cut A off on their own
                # wait, unless the rest together still do: then all of it.
                cutting = sum(
                    1 << goal for goal in bits(layer) if not board.feeds(room, boxes, need, filled | 1 << goal)
                )
                if board.feeds(room, boxes, need, filled | layer & ~cutting):
                    if not cutting:
                        filled |= layer
                        continue
                    # The layer's other goals are filled before A.
                    waiting = other & ~filled & ~(layer & ~cutting)
                else:
                    waiting = other & ~filled
                for goal in bits(waiting):
                    self.after[goal] = self.after.get(goal, 0) | room
                    # With the goals filled before it walled, and it: each
                    # goal of A needs a box left that can still reach it, and
                    # A as many as it has goals (the boxes may already be
                    # on their way: Grigr2001 6 takes a box past the goal
                    # before filling it, and onto A's goal only later).
                    walls = other & ~waiting | 1 << goal
                    walls |= sum(1 << g for g in bits(waiting) if self.layer[g] > self.layer[goal])
                    # (A box on another room's goal counts too, as if on
                    # its way: leaving such boxes out was tried, no better.)
                    zones.setdefault(goal, []).extend(board.feeders(square, walls) for square in bits(room))
                break
        # Each goal of the rooms a goal waits on needs a box that can reach
        # it, and all of them as many as they are (rooms may share boxes).
        for goal, reach in zones.items():
            self.conditions[goal] = [(zone, 1) for zone in dict.fromkeys(reach)]
            if len(reach) > 1:
                self.conditions[goal].append((_union(reach), len(reach)))

    def _later_rooms_in_order(
        self, board: Board, rooms: list[int], before: dict[int, set[int]], shuffle: int = 0, plain: bool = False
    ) -> None:
        """A room filled after others takes an order that fits with them full.

        Each room's own order (entrance_order) is found with the rest of the
        board empty, so that the player may walk through another room on his
        way. Where room A comes before room B, A is full by the time B fills,
        and B's own order may need a way through A that is gone then: in
        Perfect 65 the lower room's own order fills (3, 8) after (2, 8); a box
        comes onto (3, 8) from (3, 7), the player pushing on (3, 6), or from
        (4, 8), the player on (5, 8), and with (2, 8) filled he reaches
        either only through the upper room. Where B's own order does not fit
        with the rooms before it full (_fits), B takes its order from one
        entrance order of the rooms joined by ``before`` (the rooms filled
        later leave first, backwards, then the rooms before them): Perfect
        65's lower room then fills (3, 8) first, as YASS's solution does.
        An order that fits is kept, and a room without an order keeps none:
        the order of them all is one guess among the orders that fit. Given
        to every room after another, it lost Holland 65 and Perfect 91 and
        won Perfect 80 and 99 (each search alone at 5-12 s of CPU); given to
        Holland 68's two-goal column, which has no order of its own, it made
        the portfolio take 30.9 s there instead of 15.9 s (docs/benchmarks.md,
        session 59). The rooms that come first keep their own orders: they
        are filled with the rooms after them empty, as their own orders see
        them. ``shuffle`` and ``plain``: entrance_order's, as for the rooms'
        own orders, so that a search with another packing order has another
        guess here too.
        """
        joined = list(range(len(rooms)))

        def root(k: int) -> int:
            while joined[k] != k:
                k = joined[k]
            return k

        for a in before:
            for b in before[a]:
                joined[root(a)] = root(b)
        # The rooms before each room, directly or through others.
        earlier: dict[int, set[int]] = {k: set() for k in range(len(rooms))}
        for a in before:
            todo = list(before[a])
            while todo:
                k = todo.pop()
                if a not in earlier[k]:
                    earlier[k].add(a)
                    todo.extend(before[k])
        clusters: dict[int, list[int]] = {}
        for k in range(len(rooms)):
            clusters.setdefault(root(k), []).append(k)
        for members in clusters.values():
            together = _union([rooms[k] for k in members])
            outside = 0
            order: list[int] | None = None
            for k in members:
                room = rooms[k]
                if not earlier[k]:
                    continue
                own = sorted(bits(room), key=lambda goal: -self.layer[goal])
                if not outside:
                    outside = _outside(board, together, pockets=True)
                full = _union([rooms[a] for a in earlier[k]])
                if len({self.layer[goal] for goal in own}) < len(own) or _fits(board, together, outside, own, full):
                    continue
                if order is None:
                    order = (
                        entrance_order(board, together, tries=JOINT_ORDER_TRIES, shuffle=shuffle, plain=plain) or []
                    )
                if not order:
                    break
                for depth, goal in enumerate(reversed(order)):
                    if (room >> goal) & 1:
                        self.layer[goal] = depth
                if room not in self.groups and len({self.layer[c] for c in bits(room)}) > 1:
                    self.groups.append(room)

    def out_of_order(self, boxes: int) -> int:
        """Boxes on squares of a group while a square of that group peeled later
        is empty, or on a goal that waits on another room whose boxes are not
        yet past it (``conditions``)."""
        out = 0
        layer = self.layer
        for group in self.groups:
            filled = boxes & group
            empty = group & ~boxes
            if not filled or not empty:
                continue
            deepest = max(layer[c] for c in bits(empty))
            out |= sum(1 << c for c in bits(filled) if layer[c] < deepest)
        for goal, wanted in self.conditions.items():
            if (boxes >> goal) & 1 and any(count(boxes & squares) < least for squares, least in wanted):
                out |= 1 << goal
        return count(out)


# How many fillings of a room entrance_order tries for each slack before it
# gives up on it (each costs a pull search per goal still filled, kept for
# the next slacks): an order, where one fits, takes about one a goal (Holland
# 73's 40 goals: 41), and on the classic sets 500 find every order that
# 2,000 do; a slack that fits none takes them all to say so (Grigr2001 78,
# 36 goals, slacks 0 to 5: 0.7 s in all).
ORDER_TRIES = 500

# The same for the order of rooms together (PackingOrder._later_rooms_in_order),
# one guess among the orders that fit, where a room's own order does not: on
# Perfect and the four sets here, 100 find every such order that 500 do (with
# each packing order a search takes), and a slack that fits none is given up
# five times sooner (Perfect 51, whose rooms together fit no order: 1.7 s of
# CPU -> 0.6 s; Holland 73 2.3 s -> 1.1 s; docs/benchmarks.md, session 60).
JOINT_ORDER_TRIES = 100

# The slack (in pushes) of the entrances each box may come in through, beyond
# its nearest one, tried in turn until an order is found.
ENTRANCE_SLACKS = (0, 1, 2, 3, 5, 8, INF)

# Larger rooms keep their layers: a try costs a pull search per goal.
ORDER_GOALS_MAX = 64

# How many boxes of a room entrance_order may park at once off its goals
# (on the room's floor or a pocket beside it), and the parking
# squares it tries for each, the nearest as the crow flies.
PARKED_MAX = 2
PARKING_SQUARES = 2

# The board's check (the solver's time limit and cancelling) every so many tries.
CHECK_TRIES = 64


def entrance_order(
    board: Board,
    room: int,
    tries: int = ORDER_TRIES,
    shuffle: int = 0,
    parked_max: int = PARKED_MAX,
    plain: bool = False,
) -> list[int] | None:
    """The goals of ``room`` in an order they can be filled, the ones filled
    first staying, each through an entrance with boxes of the start to spare;
    None where no order is found (in ``tries`` fillings for each slack).

    Found backwards, from the full room: a box leaves only if it can be
    pulled out to an entrance, every other box of the room staying, with the
    player coming from outside: the parts of the floor that the full room
    leaves a box of the start or the player in (the boxes outside the room
    do not count), but for pockets, floor beside the room that no box of
    the start can be pushed to with the room walled, which boxes pass
    through as through the room. Where no way out leads to an empty room, a
    box may be pulled off its goal to park on the room's floor or a pocket
    (one of its PARKING_SQUARES nearest as the crow flies), ``parked_max``
    at most at a time, and leave later. A goal no box can ever be pulled off
    keeps its box of the start: it is filled first and walls the rest of
    the room. Each entrance may take as many boxes as start nearest to
    it (by pushes, alone on the board: every box of the start, those of
    other rooms too); where no order fits those counts,
    boxes within 1, 2, ... pushes of their nearest entrance count for the
    farther ones too. Among the boxes that can leave, one through the
    entrance with most to spare goes first. A filling that led nowhere is
    not tried again, whatever entrances the way to it used: that may miss
    an order that fits a slack, and then a wider slack's is taken.

    Of the ways out equally worth taking, the lowest goal goes first; with
    ``shuffle`` (a seed) they are taken in an order shuffled by it, which
    finds another order that fits, where there is a choice: which order a
    search does best with is not known beforehand (docs/benchmarks.md,
    session 43).

    ``plain``: the room as it was seen until session 51, without pockets
    (every square of outside floor next to the room is an entrance) or
    parking; only a goal that keeps its box is walled then too (it used to
    leave the room without an order). It is wrong where a pocket is, yet
    the order it finds there is another guess, which a second search may do
    better with than with the right one (Holland 71 and Perfect 89,
    docs/benchmarks.md session 51).
    """
    if count(room) > ORDER_GOALS_MAX:
        return None
    # A goal no box can ever be pulled off is never filled by a box from
    # elsewhere: its box of the start stays there for good (Perfect 57), a
    # wall to the rest of the room, filled first.
    fixed = sum(1 << goal for goal in bits(room) if _stuck(board, goal))
    if fixed & ~board.start_boxes:
        return None
    outside = _outside(board, room, pockets=not plain)
    room &= ~fixed
    if plain:
        parked_max = 0
    doors = _doors(board, outside, fixed)
    if not doors:
        return None
    towards = {door: board.push_distances(door, towards=True) for door in doors}
    nearest = {box: min(towards[door][box] for door in doors) for box in bits(board.start_boxes)}
    # Where each box can leave to or park, by the boxes still in the room:
    # the same fillings come up again under every slack.
    exits: dict[tuple[int, int], tuple[set[int], list[int]]] = {}
    # The widest slack first: where even it fits no order, none does.
    if _order(board, room, fixed, outside, Counter(doors * len(nearest)), tries, exits, shuffle, parked_max) is None:
        return None
    # A box that starts on a goal of the room and can never leave it need not
    # come in: it may stand for a box through any entrance.
    inside = Counter(doors * sum(1 for box, near in nearest.items() if near == INF and (room >> box) & 1))
    for slack in ENTRANCE_SLACKS:
        quota = inside + Counter(
            door for box, near in nearest.items() if near < INF
            for door in doors if towards[door][box] <= min(near + slack, INF - 1)
        )
        order = _order(board, room, fixed, outside, quota, tries, exits, shuffle, parked_max)
        if order is not None:
            return list(bits(fixed)) + order
    return None


def _order(
    board: Board,
    room: int,
    fixed: int,
    outside: int,
    quota: Counter[int],
    tries: int,
    exits: dict[tuple[int, int], tuple[set[int], list[int]]],
    shuffle: int,
    parked_max: int,
) -> list[int] | None:
    """entrance_order's search for one set of counts, ``quota`` boxes through each
    entrance, the boxes on ``fixed`` never moving; ``exits`` keeps _exits'
    answers by (boxes in the room, box)."""
    # (Seeded here, so that each set of counts is searched alike whatever came before.)
    rng = random.Random(shuffle) if shuffle else None
    order: list[int] = []
    used: Counter[int] = Counter()
    dead: set[tuple[int, int]] = set()
    left = tries

    def ways_of(boxes: int, box: int) -> tuple[set[int], list[int]]:
        ways = exits.get((boxes, box))
        if ways is None:
            ways = exits[boxes, box] = _exits(board, room, outside, (boxes & ~(1 << box)) | fixed, box)
        return ways

    def empty(filled: int, parked: int) -> bool:
        # Depth first: one box out of the room (off ``filled``, its goals, or
        # ``parked``, its parking squares) at a time; True once all are out.
        nonlocal left
        if not filled | parked:
            return True
        if (filled, parked) in dead or left <= 0:
            return False
        left -= 1
        if left % CHECK_TRIES == 0:
            board.check()
        boxes = filled | parked
        ways = []
        for box in bits(boxes):
            ways += [(box, door) for door in ways_of(boxes, box)[0] if used[door] < quota[door]]
        if rng is not None:
            rng.shuffle(ways)
        # (A stable sort: the ties stay in the order above.)
        ways.sort(key=lambda way: used[way[1]] - quota[way[1]])
        for box, door in ways:
            used[door] += 1
            on_goal = (filled >> box) & 1
            if on_goal:
                order.append(box)
            if empty(filled & ~(1 << box), parked & ~(1 << box)):
                return True
            if on_goal:
                order.pop()
            used[door] -= 1
        # No way out led to an empty room: a box of a goal may stand aside on
        # a parking square while the boxes behind it leave, and leave after
        # them (filled forwards: it waits there while those goals are filled).
        if count(parked) < parked_max:
            for box in bits(filled):
                for spot in ways_of(boxes, box)[1][:PARKING_SQUARES]:
                    order.append(box)
                    if empty(filled & ~(1 << box), parked | (1 << spot)):
                        return True
                    order.pop()
        dead.add((filled, parked))
        return False

    # Pulled out first is filled last.
    return order[::-1] if empty(room, 0) else None


def _outside(board: Board, room: int, *, pockets: bool) -> int:
    """The floor around ``room`` that boxes may come in from: each part of the
    floor the full room cuts off from the rest counts where a box or the player
    starts there (a pocket shut in by the room's goals does not); with
    ``pockets``, but for the floor beside the room, or joined to it through
    such floor, that no box of the start can be pushed to."""
    rest = board.floor & ~room
    starts = (board.start_boxes & ~room) | (1 << board.start_player)
    outside = 0
    while rest:
        part = board.reach(rest & -rest, room)
        if part & starts:
            outside |= part
        rest &= ~part
    if not pockets:
        return outside
    # A pocket: floor beside the room, or joined to it by such floor, that
    # no box of the start can be pushed to with the room's goals walled
    # (Perfect 21's square beside its goal room, which a box reaches only
    # through one of the room's goals). Boxes pass through it as through the
    # room, and it is no entrance. (Each box on its own: how far a box gets
    # depends on the side the player starts on.)
    pushed = 0
    for box in bits(board.start_boxes & outside):
        table = board.push_distances(box, towards=False, blocked=room)
        pushed |= sum(1 << cell for cell in bits(outside) if table[cell] < INF)
    unpushed = outside & ~pushed
    width = board.width
    beside = (room << 1) | (room >> 1) | (room << width) | (room >> width)
    pocketed = board.reach(unpushed & beside, ~unpushed)
    return outside & ~pocketed


def _doors(board: Board, outside: int, fixed: int) -> list[int]:
    """The squares of ``outside`` from which a box can be pushed into the room
    or a pocket beside it (the player behind it, maybe on a goal of the room
    still empty), not onto ``fixed``."""
    doors = set()
    for cell in bits(board.floor & ~outside & ~fixed):
        for step in board.steps:
            door = cell - step
            if (outside >> door) & 1 and (board.floor >> (door - step)) & 1:
                doors.add(door)
    return sorted(doors)


def _exits(board: Board, room: int, outside: int, others: int, box: int) -> tuple[set[int], list[int]]:
    """The squares of ``outside`` to which the box on ``box`` can be pulled, the
    boxes on ``others`` staying, the player coming from ``outside``; and the
    squares off the room's goals and ``outside`` (a pocket) it can be pulled
    to, where it may be parked, nearest first as the crow flies."""
    steps = board.steps
    free = board.floor & ~others
    # (``outside`` holds no square of the room: nothing to take off it.)
    start = (box, board.reach(outside, others | (1 << box)))
    seen = {start}
    stack = [start]
    exits = set()
    parking = set()
    # The player's areas found so far with the box on each square: a square
    # of one is in no other, so a square the player steps back to that one
    # holds needs no flood (the floods were most of a packing order's time:
    # Holland 73, Perfect 51).
    areas: dict[int, list[int]] = {}
    while stack:
        at, area = stack.pop()
        for step in steps:
            # The player on at + step steps back to at + 2 step, the box onto his square.
            onto, back = at + step, at + 2 * step
            if not (area >> onto) & 1 or not (free >> back) & 1:
                continue
            if (outside >> onto) & 1:
                exits.add(onto)
                continue
            # (On the room's goals or a pocket of floor that they shut in, the box goes on.)
            known = areas.setdefault(onto, [])
            after = next((part for part in known if (part >> back) & 1), 0)
            if not after:
                after = board.reach(1 << back, others | (1 << onto))
                known.append(after)
            state = (onto, after)
            if state not in seen:
                seen.add(state)
                stack.append(state)
                if not (room >> onto) & 1:
                    parking.add(onto)
    width = board.width
    x, y = box % width, box // width
    return exits, sorted(parking, key=lambda spot: (abs(spot % width - x) + abs(spot // width - y), spot))


def _stuck(board: Board, goal: int) -> bool:
    """Whether no box can ever be pulled off ``goal`` (no floor two deep beside it)."""
    return not any(
        (board.floor >> (goal + step)) & 1 and (board.floor >> (goal + 2 * step)) & 1 for step in board.steps
    )


def _fits(board: Board, rooms: int, outside: int, order: list[int], full: int) -> bool:
    """Whether the goals of ``order`` (of ``rooms``) can be filled in that order
    with boxes on ``full`` staying: backwards, from the last filled, each box
    can be pulled out to ``outside`` (_exits) with the boxes still in place.
    A goal no box can be pulled off keeps its box (as in entrance_order)."""
    filled = sum(1 << goal for goal in order)
    for goal in reversed(order):
        if _stuck(board, goal):
            continue
        filled &= ~(1 << goal)
        if not _exits(board, rooms, outside, filled | full, goal)[0]:
            return False
    return True


def _union(masks: list[int]) -> int:
    """The squares of any of ``masks``."""
    union = 0
    for mask in masks:
        union |= mask
    return union
