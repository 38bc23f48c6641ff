"""The bridge to the compiled search core (``_core.c``), and what it needs from a Board.

The core runs the same best-first search over pushes as the pure-Python
searches, some fifty times faster: profiling the Python solver on the hard
collections showed nearly all its time in the interpreter (flood fills,
push generation, the matching repair), not in any one slow idea. The core is
built by the normal install (``pip install -e .``, setuptools and the
system's C compiler); where it could not be built, ``AVAILABLE`` is false
and the solver runs in pure Python as before. Either way the engine stays
the rule authority: the core's pushes become a LURD string that the caller
replays.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from types import ModuleType
from typing import Final

from .board import INF, Board, bits, count
from .packing import PackingOrder

_core: ModuleType | None
try:
    from . import _core  # type: ignore[attr-defined,no-redef,unused-ignore]
except ImportError:  # not built here: the pure-Python searches do the work
    _core = None

AVAILABLE: Final = _core is not None

# How the core ended: a solution, no solution at all, out of positions after
# macros skipped some (no proof either way), or its memory budget spent.
SOLVED: Final = "solved"
EXHAUSTED: Final = "exhausted"
INCOMPLETE: Final = "incomplete"
MEMORY: Final = "memory"

# How the forward search uses corrals (_core.c, pi_corral): not at all;
# PI-corral pruning; or that and a small search of each new PI-corral's boxes
# alone, which proves some positions lost that no freeze or matching shows.
# The solver keeps to PI_CORRALS: the searches cost up to a quarter of the
# expansions a second and pruned a few percent of A*'s positions, which
# solved no more levels, greedy or A* (docs/benchmarks.md, "Corral deadlock
# searches"; bench/sokoban_corrals.py measures them against PI_CORRALS).
NO_CORRALS: Final = 0
PI_CORRALS: Final = 1
CORRAL_DEADLOCKS: Final = 2

# What a trace (search's ``trace``) gets at each check: expanded, bytes, lowest
# priority, last priority, its pushes, boxes, player, path, box-set tests, deadlocks,
# deadlock patterns learned, children they pruned, whole-board probes, the losses
# they proved, patterns learned from those, its feature cell (boxes packed * 16 + free regions).
TracePoint = tuple[int, int, int, int, int, tuple[int, ...], int, list[int], int, int, int, int, int, int, int, int]

# The largest ``weighted`` search takes (_core.c's WEIGHTED_MAX).
WEIGHTED_MAX: Final = 16
# The most expansions an end of a search from both ends takes in a row
# (search's ``turns``; _core.c's TURNS_MAX), and the share it takes unless told.
TURNS_MAX: Final = 16
TURNS: Final[tuple[int, int]] = (2, 1)
# The largest ``endgame`` (search's; _core.c's ENDGAME_PUSHES_MAX).
ENDGAME_PUSHES_MAX: Final = 16

# The core keeps distances in 16 bits; this one means "never".
NEVER: Final = 0xFFFF


class CoreBoard:
    """A Board flattened into the buffers the core reads, built once per level."""

    def __init__(self, board: Board, *, entrances: bool = True) -> None:
        """``entrances``: the goal rooms' packing order by entrance where one is
        found (packing.entrance_order), else the concentric layers."""
        self.board = board
        self.floor = _squares(board, board.floor)
        self.entrances = entrances
        self.forward = self._forward(0)
        # The forward targets by entrance_order's ``shuffle`` (search's ``order``).
        self._orders: dict[int, Targets] = {0: self.forward}
        self._backward: Targets | None = None

    def _forward(self, shuffle: int) -> Targets:
        board = self.board
        # (The other orders see the rooms plainly: another guess, see packing.entrance_order.)
        order = PackingOrder(
            board, board.goal_mask, -1, pulls=True, entrances=self.entrances, shuffle=shuffle, plain=shuffle != 0
        )
        return _targets(board, list(board.goals), board.dist, board.live, order)

    def targets(self, order: int) -> Targets:
        """The targets of a search by pushes with the goal rooms' packing order
        ``order``: 0 the one ``forward`` holds, another number another order that
        fits where there is a choice (packing.entrance_order's ``shuffle``), the
        rooms seen without pockets or parking (its ``plain``)."""
        if order not in self._orders:
            self._orders[order] = self._forward(order)
        return self._orders[order]

    @property
    def backward(self) -> Targets:
        """The targets of a search by pulls: the start squares, from the solved position."""
        if self._backward is None:
            board = self.board
            dist, reachable = board.start_distances()
            order = PackingOrder(board, board.start_boxes, board.start_player, pulls=False)
            # A box never needs to stand where it could not reach a goal.
            live = reachable & board.live
            self._backward = _targets(board, list(bits(board.start_boxes)), dist, live, order)
        return self._backward


# (goals, distances, live squares, packing layer and goal room per goal, and
# the rooms-in-order conditions of the goals), as the core takes them.
Targets = tuple[list[int], bytes, bytes, list[int], list[int], list[int]]


def _squares(board: Board, mask: int) -> bytes:
    return bytes((mask >> cell) & 1 for cell in range(board.size))


def _targets(
    board: Board, goals: list[int], dist: list[tuple[int, ...]], live: int, order: PackingOrder
) -> Targets:
    distances = array("H", [NEVER] * (board.size * len(goals)))
    for cell in board.cells:
        for index, pushes in enumerate(dist[cell]):
            if pushes < INF:
                distances[cell * len(goals) + index] = min(pushes, NEVER - 1)
    layer = [order.layer.get(goal, 0) for goal in goals]
    group = [-1] * len(goals)
    for room, squares in enumerate(order.groups):
        for index, goal in enumerate(goals):
            if (squares >> goal) & 1:
                group[index] = room
    # (goal index, least, count, squares) by goal index, flat.
    after = []
    for waiting in sorted(order.conditions, key=goals.index):
        for squares, least in order.conditions[waiting]:
            after += [goals.index(waiting), least, count(squares), *bits(squares)]
    return goals, distances.tobytes(), _squares(board, live), layer, group, after


def blocked_goals(core_board: CoreBoard, boxes: list[int]) -> tuple[int, int]:
    """The packing penalties of the position with boxes on ``boxes``: the boxes
    filled out of the goal rooms' layer order (packing.py), and the rooms' empty
    goals that no order can fill any more with the filled ones staying (search's
    ``plans``; -1 where a room of over 64 goals keeps to the layers)."""
    if _core is None:
        raise RuntimeError("the compiled search core is not built")
    board = core_board.board
    layered, blocked = _core.blocked_goals(board.width, core_board.floor, core_board.forward, boxes)
    return int(layered), int(blocked)


def search(
    core_board: CoreBoard,
    *,
    weight: int,
    packing: int,
    corrals: int,
    features: bool = False,
    backward: bool = False,
    tunnels: bool = False,
    goal_rooms: bool = False,
    memory_bytes: int,
    check: Callable[[int], object],
    trace: list[TracePoint] | None = None,
    start: tuple[list[int], int] | None = None,
    box_sets: int = 0,
    patterns: int = 0,
    probes: int = 0,
    probe_limit: int = 0,
    box_macros: bool = False,
    plans: bool = False,
    novelty: bool = False,
    weighted: int = 0,
    stamps: int = 0,
    square_floods: bool = False,
    turns: tuple[int, int] = TURNS,
    box_moves: int = 0,
    order: int = 0,
    endgame: int = 0,
    explore: int = 0,
    advisors: bool = False,
    dual: bool = False,
) -> tuple[str, list[int], int, int]:
    """Run the core: (status, push codes, expanded, generated).

    ``weight`` 1 is A* (push-optimal), 0 greedy; ``packing`` the penalty per
    box filled out of packing order (0 keeps the bound admissible);
    ``corrals`` one of NO_CORRALS, PI_CORRALS, CORRAL_DEADLOCKS;
    ``features``: take turns between feature cells; ``backward``: a greedy
    search by pulls from the solved position takes turns with the forward
    one until they meet (see _core.c); ``tunnels``: a greedy forward search
    pushes a box on through a one-wide corridor in one move (tunnel macros;
    ignored by A*, whose proofs they could break); ``goal_rooms``: in a
    greedy forward search a push into a goal room with a packing order gets a
    second child, the box pushed on to the room's deepest empty goal in one
    move (goal-room macros; ignored by A* too). ``check(expanded)`` is called now and
    then; whatever it raises stops the search and comes out of this call.
    ``trace`` (measurement, bench/sokoban_plateau.py): a list that gets, at each
    check, (expanded, bytes held, lowest priority the forward search expanded,
    its last expanded position's priority, pushes, boxes and player, the
    push codes that led there from the start, and the box-set tests and
    deadlocks so far, the deadlock patterns learned and the children they pruned,
    the probes made, the losses they proved and the patterns learned from those).
    ``start`` (boxes, player): search from there instead of the level's start
    (forward searches only: the pulls' targets are the level's start).
    ``box_sets``: at each expansion of a forward search, the box just pushed
    and its nearest boxes (2, 4, 8 up to ``box_sets`` of them) are searched
    alone, and a set that can never all reach goals prunes the position as
    lost (box-set deadlocks, _core.c; sound, so A* may take them; 0: off).
    ``patterns`` (with ``box_sets``): a forward search learns deadlock
    patterns: every lost set its box sets find is shrunk to a minimal lost
    set, and any later child holding one is pruned; the box sets are then
    searched at every fourth expansion only (_core.c, learn_pattern; sound;
    0: off). ``probes``: every ``probes``-th expansion of a forward search,
    the position is searched with all its boxes (greedy, PI-corrals, no
    macros) for at most ``probe_limit`` expansions, and one found lost is
    pruned (and, with ``patterns``, the loss is shrunk to the fewest boxes
    near the push that stay lost and learned as a pattern: _core.c,
    board_probe; sound; 0: off; the solver's setting is
    solver.BOARD_PROBE_EVERY). ``box_macros``: in a greedy forward search each
    box off the goals also gets a child that pushes it, every other box
    still, the fewest pushes to the nearest goal it may fill now (outside a
    goal room with a packing order, or that room's deepest empty goal):
    box-to-goal macros, beside the single pushes (_core.c, box_macro).
    ``plans``: in a greedy forward search the packing penalty counts each goal
    room's empty goals that no order can fill any more, the filled ones
    staying, instead of the boxes filled out of layer order; the macros fill
    a goal that blocks no more of them (packing plans, _core.c, room_blocked).
    ``novelty``: in a greedy search (both ends) a child that puts a box on a
    square, or the player in an area, where no child of the same bound had
    one before is taken before the others of its open list (_core.c, novel;
    it orders, never prunes, so running out of positions still proves).
    ``weighted`` (1 to 16; 0: off): a greedy search's priority is its pushes
    plus ``weighted`` times the bound, not the bound alone (weighted A*,
    Pohl 1970): on a plateau of the bound the shorter ways go first, where
    a pure greedy search goes ever deeper.
    ``stamps`` (tests): where the counters of the searches' square marks
    start; near 2**32 they wrap within a short search, which clears their
    marks (a search of an hour or more wraps some of them).
    ``square_floods`` (tests): the player's areas are flooded square by square,
    as on a board over 64 squares wide, rather than a row of the board at a
    time (a 64-bit word a row); the search must be the very same.
    ``turns`` (forward, backward), each 1 to TURNS_MAX: with ``backward``, the
    forward search takes that many expansions, then the backward one that
    many, in turn. Most levels are solved by one end alone (on SokHard
    mostly the pulls, on Holland the pushes), so the share sets which
    levels come soon (docs/benchmarks.md, session 38).
    ``box_moves`` (greedy forward searches; 0: off): each child of the forward
    search moves one box, every other box still, to any live square it can
    reach and from any side, in as many pushes as that takes: FESS's moves (Shoham
    and Schaeffer 2020), the single pushes among them, so running out of
    positions still proves; the search is as deep as the boxes' moves, not
    their pushes (no tunnel, goal-room or box-to-goal macros then). 2, with
    ``features``: FESS's weights too, positions in a feature cell taken by the
    box moves on their way that no advisor suggests (one that packs a box or
    leaves fewer free regions is free), then by the bound, not ``weighted``
    (_core.c, box_moves); without ``features``, as 1. 3: as 2, and a box move
    that lets the player reach more squares is free too (FESS's explorer).
    ``order``: the goal rooms' packing order (CoreBoard.targets); 0 the first
    one found, another number another that fits, where there is a choice.
    ``endgame`` (greedy forward searches with ``probes``; 0: off, at most
    ENDGAME_PUSHES_MAX): a new child whose matching bound is at most that many
    pushes is searched on by the prober (greedy by the bound, single pushes,
    at most 100 expansions); if it reaches the end, the search ends with the
    prober's pushes after the child's. The greedy orders take such a child no
    sooner than any other of its cell and weight.
    ``explore`` (greedy searches, both ends; 0: off, at most 100): that many
    expansions in a hundred take a position of the open list (of the feature
    cell in turn) at random instead of the best: epsilon-greedy best-first
    search (Valenzano, Sturtevant, Schaeffer and Xie 2014), a way off the
    plateaus where a greedy search spends itself (Perfect 11: one push of
    YASS's answer, taken or not, made 2 s or no answer in 10 s). The draws
    are the same each run.
    ``advisors`` (with ``box_moves`` 2 or 3 and ``features``): as FESS's
    advisors, each makes only its best move free, not every move it would
    take: the child that packs the most boxes, the one that leaves the
    fewest free regions where they are fewer, and with the explorer the one
    whose player reaches the most squares where he reaches more, each the
    lowest bound among its equals (_core.c, queue_advised). Where many
    moves pack or join, every one free leaves the weights flat.
    ``dual`` (with ``advisors``): two open lists taken in turn, every child
    in one ordered by FESS's weights (every move an advisor would take
    free), the advisors' picks in the other too, ordered by the advisors'
    weights (one move each free): each finds levels the other misses, and a
    position either expands is closed for both.
    """
    if _core is None:
        raise RuntimeError("the compiled search core is not built")
    board = core_board.board
    status, codes, expanded, generated = _core.search(
        board.width,
        core_board.floor,
        list(bits(board.start_boxes)) if start is None else start[0],
        board.start_player if start is None else start[1],
        core_board.targets(order),
        core_board.backward if backward else None,
        weight,
        packing,
        corrals,
        features,
        max(0, memory_bytes),
        check,
        tunnels,
        goal_rooms,
        trace,
        box_sets,
        patterns,
        probes,
        probe_limit,
        box_macros,
        plans,
        novelty,
        weighted,
        stamps,
        square_floods,
        *turns,
        box_moves,
        endgame,
        explore,
        advisors,
        dual,
    )
    return str(status), list(codes), int(expanded), int(generated)
